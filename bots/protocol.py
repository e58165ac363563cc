"""The protocol every bot follows.

A bot is asked to answer a choice and receives only the view of the player it plays:
that player's hand and status, the public table, and the choice itself
(``view["choice"]``: its kind, prompt and exact legal options). It answers with the
index of one option.
"""

from __future__ import annotations

from typing import Protocol


class Bot(Protocol):
    name: str

    def choose(self, view: dict) -> int:
        """Return the index of one option of ``view["choice"]["options"]``."""
        ...
