"""The protocol every bot follows.

A bot is asked to answer a choice and receives only the view of the player it plays:
that player's hand and status, the public table, and the choice itself
(``view["choice"]``: its kind, prompt and exact legal options). It answers with the
index of one option.

The view also holds the events the player has seen (``view["events"]``), numbered
(``seq``) in that player's own stream, 0, 1, 2…: nothing in a view tells where events
hidden from the player were left out. Building that
list is the costliest part of a view, so a bot that never reads it may say so with a
class attribute ``needs_events = False``; drivers (``rulecraft.bots.view_for``) then
leave the event history out of its view. Everything else in the view is the same, and
a bot still never sees more than its player may.

The rules themselves are public. A bot that plays by them (every number, table and
definition of the rule set in play, its variant included) defines
``learn_rules(ruleset)``; drivers call it before handing over a view
(``rulecraft.bots.hand_rules``), so the bot never restates a rule in Python.
"""

from __future__ import annotations

from typing import Protocol


class Bot(Protocol):
    name: str
    # optional: False when the bot never reads view["events"] (default True)
    needs_events: bool

    # optional: learn_rules(ruleset) receives the rule set in play before each view

    def choose(self, view: dict) -> int:
        """Return the index of one option of ``view["choice"]["options"]``."""
        ...
