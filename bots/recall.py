"""What the seats of a search's playouts remember: the search bot's ``recall`` setting.

A seat's policy and its heuristics may read what the seat remembers (a strategy's own
notes, ``seen("kind")`` in the rules). A sample carries no seat's history, so without
``recall`` every seat of a playout plays and is judged as if the game had just begun:
a player who saw a card that proves another's role forgets it the moment the search
starts. With ``recall`` each seat of a playout remembers

- **before the search**: the searching seat, its own history (every event it saw); every
  other seat, the part of that history the searching seat can tell it saw too: events
  for an audience it belongs to, a thing's name only where it moved from or to a zone
  that seat sees, a change of a property only where that seat may see it (the engine's
  own visibility rules, :func:`rulecraft.interpreter.views.visible_event`, applied to the
  searching seat's copy of the game). What another seat saw that the searching seat did
  not (a trade between two others) stays unknown: it is not guessed;
- **during the playout**: every event of the playout it may see, as in a real game.

Nothing here reads the real game: the histories come from the searching seat's view and
its tracked copy (:class:`rulecraft.bots.determinize.Tracker`), so no hidden fact reaches
a playout through them.
"""

from __future__ import annotations

from rulecraft.interpreter.machine import Machine
from rulecraft.interpreter.state import GameState
from rulecraft.interpreter.views import annotate_visibility, visible_event


class Recall:
    """Each seat's remembered history in one game, as the searching seat can tell it,
    brought up to date with each of the searching seat's views (:meth:`update`)."""

    def __init__(self, ruleset, viewer: str):
        self.ruleset = ruleset
        self.viewer = viewer
        self.histories: dict[str, list[dict]] = {}
        self.by_kind: dict[str, dict[str, list[dict]]] = {}  # the same, by event kind
        self._read = 0  # how many of the viewer's events are in the histories

    def update(self, view: dict, state: GameState) -> None:
        """Add the events new in ``view`` (the searching seat's whole history); ``state``
        is the searching seat's copy of the game, where what each other seat may see of
        an event is read (where things stand now stands in for where they stood then)."""
        events = view.get("events") or []
        new = events[self._read:]
        self._read = len(events)
        for seat in view["players"]:
            history = self.histories.setdefault(seat, [])
            by_kind = self.by_kind.setdefault(seat, {})
            for event in new:
                seen = event if seat == self.viewer else _as_seen_by(self.ruleset, state, event, seat)
                if seen is not None:
                    history.append(seen)
                    by_kind.setdefault(seen["type"], []).append(seen)

    def playout(self) -> "PlayoutMemories":
        """The memories of one playout's seats, starting from these histories."""
        return PlayoutMemories(self.ruleset, self.histories, self.by_kind)


class PlayoutMemories:
    """The seats' memories along one playout: the histories the search started from,
    then each event of the playout as each seat may see it. Attach :meth:`machine` to
    the playout's state before any option is answered."""

    def __init__(self, ruleset, histories: dict[str, list[dict]], by_kind: dict[str, dict[str, list[dict]]]):
        self.ruleset = ruleset
        self._histories = histories
        self._by_kind = by_kind
        self._new: dict[str, list[dict]] = {seat: [] for seat in histories}
        self._handed: dict[str, int] = {}  # seat → how many of its events a policy was handed
        self._state: GameState | None = None

    def machine(self, state: GameState) -> Machine:
        """A machine playing ``state`` whose events go to the seats that see them."""
        self._state = state
        return Machine(self.ruleset, state, self._record)

    def _record(self, event: dict) -> None:
        # the machine hands a recorder a dict of its own to keep and annotate (Machine._emit)
        annotate_visibility(self.ruleset, self._state, event)
        for seat, new in self._new.items():
            seen = visible_event(self.ruleset, self._state, event, seat)
            if seen is not None:
                new.append(seen)

    def unread(self, seat: str) -> list[dict]:
        """The events ``seat`` remembers that its policy has not been handed yet: its
        whole history the first time, then what happened since."""
        handed = self._handed.get(seat)
        new = self._new.get(seat, [])
        self._handed[seat] = len(new)
        if handed is None:
            return self._histories.get(seat, []) + new
        return new[handed:]

    def of(self, seat: str) -> dict[str, list[dict]]:
        """Everything ``seat`` remembers now, by event kind (what ``seen(...)`` reads)."""
        new: dict[str, list[dict]] = {}
        for event in self._new.get(seat, []):
            new.setdefault(event["type"], []).append(event)
        memory = dict(self._by_kind.get(seat, {}))
        for kind, events in new.items():  # the history's own lists are shared: never appended to
            memory[kind] = memory.get(kind, []) + events
        return memory


def _as_seen_by(ruleset, state: GameState, event: dict, seat: str) -> dict | None:
    """``event`` (as the searching seat saw it) as ``seat`` saw it, by the visibility
    rules read on ``state``; None when ``seat`` did not see it."""
    event = dict(event)
    try:
        annotate_visibility(ruleset, state, event)
    except (KeyError, TypeError):  # names a thing the copy does not know: left as seen
        pass
    return visible_event(ruleset, state, event, seat)
