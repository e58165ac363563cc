"""Options and events in words: the sentences live in :mod:`rulecraft.narration`, shared
with the terminal player (which must not need the server's extra); re-exported here."""

from __future__ import annotations

from rulecraft.narration import ENDED, ENGINE_EVENTS, SENTENCES, Words

__all__ = ["ENDED", "ENGINE_EVENTS", "SENTENCES", "Words"]
