"""Full game states a seat could be in, built from that seat's view alone.

A search bot needs whole states to play forward, but is handed a view: the public
table, its own hand and properties, the events it saw and its pending choice. Two
things a view does not carry are rebuilt here:

- **where the rules are** (the machine's frame stack, turn counters, limits): a
  :class:`Tracker` keeps a private copy of the game, started from a seed of its own,
  and moves it along the events the seat saw. Every decision that shows itself in an
  event (an action taken, a reaction, a turn ended) is replayed as the seat saw it; a
  decision that shows nothing (another player's ``choose``) is guessed among the
  options whose visible events agree with what the seat saw next.
- **what the seat cannot see** (:func:`determinize`): everything the view shows is
  copied over the tracked copy: visible zones, visible properties, public variables,
  whose turn it is. The components the seat has not seen are dealt at random into the
  hidden zones, as many into each as the view's public count says (a zone's visible
  top card stays on top; a zone that ``holds`` one kind gets only that kind), and each
  hidden property is shuffled among the entities whose value of it the seat cannot see.
  The generator is reseeded from the bot's own, so chance after now differs between
  determinizations.

Nothing here reads the real game: the inputs are the rule set (public), the view and
the bot's own generator.

Limits (what a determinization may get wrong, never what it may read):

- the belief is uniform over the unseen components: nothing is inferred from what other
  players did (a player who passed up a card may still be dealt one like it);
- local variables of rules running at the moment (a card drawn earlier in the same
  procedure, held in a variable) come from the tracked copy, which chance may have made
  different from the real game;
- a hidden variable (``visible_to: nobody``) keeps the tracked copy's value;
- when the tracked copy cannot follow the events even after dealing its hidden parts
  again and starting over from other seeds (chance sent the real game down a branch of
  the rules the copy does not find, or the game was run with driver settings the seat
  was not told about), the tracker says it is lost and the bot plays at random from
  there on.
"""

from __future__ import annotations

import json
import random

from rulecraft.interpreter.machine import Machine, RuleRuntimeError
from rulecraft.interpreter.state import GameState, new_state
from rulecraft.interpreter.views import HIDDEN, annotate_visibility, player_view, visible_event, zone_visible

# The events that reveal a decision (a tile's placing shows where it was chosen to go):
# the tracker replays decisions from them.
DECISION_EVENTS = frozenset({"action_taken", "reacted", "turn_ended", "placed"})
# How often the tracker deals the hidden parts again, then starts over, before it gives up.
REDEALS = 8
RESTARTS = 8


def option_key(option) -> str:
    """An option as a string that compares equal for equal options (tree keys)."""
    return json.dumps(option, sort_keys=True)


def _decision_key(event: dict) -> tuple:
    if event["type"] == "placed":
        return ("placed", event.get("tile"), None, (("at", json.dumps([event.get("x"), event.get("y"),
                                                                     event.get("rotation")])),))
    args = event.get("args") or {}
    return (event["type"], event.get("player"), event.get("action") or event.get("reaction"),
            tuple(sorted((k, json.dumps(v)) for k, v in args.items())))


def _agrees(seen: tuple, made: tuple) -> bool:
    """Whether a decision the copy made can be the one the seat saw (hidden args match anything)."""
    if seen[:3] != made[:3] or len(seen[3]) != len(made[3]):
        return False
    hidden = json.dumps(HIDDEN)
    return all(a[0] == b[0] and (a[1] == hidden or a[1] == b[1]) for a, b in zip(seen[3], made[3]))


class Tracker:
    """A private copy of a game, moved along what one seat sees of the real one."""

    def __init__(self, ruleset, players: int, viewer: str, rng: random.Random):
        self.ruleset = ruleset
        self.viewer = viewer
        self.rng = rng
        self.lost = False
        # the copy's decisions the viewer saw, in order (set when the copy starts)
        self.state = new_state(ruleset, players, rng.getrandbits(62))
        self._machine(self.state).start()
        self._seen = list(self._made)  # what setup showed

    def _machine(self, state: GameState) -> Machine:
        def record(event: dict) -> None:
            if event["type"] not in DECISION_EVENTS:
                return
            event = dict(event)
            annotate_visibility(self.ruleset, state, event)
            shown = visible_event(self.ruleset, state, event, self.viewer)
            if shown is not None:
                self._made.append(_decision_key(shown))
        self._made: list[tuple] = []
        return Machine(self.ruleset, state, record)

    def follow(self, view: dict) -> bool:
        """Move the copy to the seat's pending choice of ``view``; False when it cannot.

        When no option of a choice reproduces what the seat saw next, the copy's hidden
        parts are dealt again (as a determinization of the copy's own view) and the choice
        retried; when that fails too, the copy starts over from a new seed (chance may have
        sent the real game another way early on, e.g. in who starts)."""
        if self.lost:
            return False
        events = view.get("events") or []
        observed = [_decision_key(e) for e in events if e["type"] in DECISION_EVENTS]
        # where each decision the seat saw stands in its event list: what it drew lies between
        self._at = [i for i, e in enumerate(events) if e["type"] in DECISION_EVENTS]
        self._events = events
        for attempt in range(RESTARTS + 1):
            if attempt:
                self._restart()
            try:
                if self._follow(view, observed):
                    return True
            except (RuleRuntimeError, KeyError, IndexError, ValueError, TypeError):
                pass
        self.lost = True
        return False

    def _restart(self) -> None:
        self.state = new_state(self.ruleset, len(self.state.players), self.rng.getrandbits(62))
        self._machine(self.state).start()
        self._seen = list(self._made)

    def _follow(self, view: dict, observed: list[tuple]) -> bool:
        for _ in range(100_000):
            state = self.state
            if state.result is not None:
                return False
            pending = state.pending
            done = len(self._seen)
            if (pending["player"] == self.viewer and done == len(observed)
                    and pending["kind"] == view["choice"]["kind"]):
                return True
            if done > len(observed):
                return False
            self._condition(state, done)
            for _ in range(REDEALS + 1):
                consistent = self._consistent(state, observed[done:])
                if consistent:
                    break
                state = self.state = determinize(self, player_view(self.ruleset, state, self.viewer), self.rng)
                self._condition(state, done)
            if not consistent:
                return False
            # a choice that showed itself beats one that showed nothing; among equals, guess
            best = [c for c in consistent if c[0]] or consistent
            _, trial, made = best[self.rng.randrange(len(best))]
            self.state = trial
            self._seen.extend(made)
        return False

    def _condition(self, state: GameState, done: int) -> None:
        """Put on top of their hidden zones, in order, the components the seat saw drawn
        from them around the next decisions, so the copy draws what the real game drew."""
        start = self._at[done - 1] if done else 0
        # up to the decision after next: a tile placed is itself a decision event
        end = self._at[done + 2] + 1 if done + 2 < len(self._at) else len(self._events)
        drawn: dict[str, list[str]] = {}
        for event in self._events[start:end]:
            if event["type"] == "placed":  # a tile comes from wherever the copy keeps it
                event = {"entity": event.get("tile"), "source": state.entities.get(event.get("tile"), {}).get("at")}
            elif event["type"] != "moved" or event.get("entity") in (None, HIDDEN):
                continue
            source = event.get("source")
            if source in state.zones and event["entity"] in state.entities and \
                    not zone_visible(self.ruleset, source, self.viewer):
                drawn.setdefault(source, [])
                if event["entity"] not in drawn[source]:
                    drawn[source].append(event["entity"])
        for zone, first in drawn.items():
            _put_on_top(state, zone, first)

    def _consistent(self, state: GameState, ahead: list[tuple]) -> list[tuple]:
        """(showed itself, state after, decisions seen) for each option whose decisions the
        seat would see are the next ones it saw."""
        out = []
        for index in range(len(state.pending["options"])):
            trial = state.clone()
            machine = self._machine(trial)
            machine.answer(index)
            made = self._made
            if len(made) <= len(ahead) and all(_agrees(s, m) for s, m in zip(ahead, made)):
                out.append((bool(made), trial, made))
        return out


def _put_on_top(state: GameState, zone: str, first: list[str]) -> None:
    """Make ``first`` the top of ``zone``; what they displace takes their old places."""
    items = state.zones[zone]
    outside = [e for e in first if state.entities[e]["at"] != zone]
    rest = [e for e in items if e not in first]
    if len(rest) < len(outside):
        return
    displaced, rest = rest[:len(outside)], rest[len(outside):]
    for entity, other in zip(outside, displaced):
        where = state.entities[entity]["at"]
        if where is not None:
            place = state.zones[where]
            place[place.index(entity)] = other
        state.entities[other]["at"] = where
        state.entities[entity]["at"] = zone
    items[:] = list(first) + rest


def determinize(tracker: Tracker, view: dict, rng: random.Random) -> GameState:
    """One full state consistent with ``view``, from the tracked copy (see module doc)."""
    ruleset = tracker.ruleset
    data = ruleset.data
    s = tracker.state.clone()
    entities = s.entities
    placed: set[str] = set()
    hidden_zones: list[tuple[str, dict]] = []
    for zone, shown in view["zones"].items():
        if isinstance(shown, list):
            s.zones[zone] = list(shown)
            for eid in shown:
                entities[eid]["at"] = zone
            placed.update(shown)
        else:
            hidden_zones.append((zone, shown))
            if "top" in shown:
                placed.add(shown["top"])
    for eid, seen in view["entities"].items():
        if seen["at"] is None and eid in entities:  # off the table, as everyone sees
            entities[eid]["at"] = None
            placed.add(eid)
    # board spaces the view leaves out are empty (it lists only spaces holding something)
    for zone in s.zones:
        if zone not in view["zones"] and data.zones.get(zone.split(":", 1)[0]) is None:
            s.zones[zone] = []
    unseen = [eid for eid, e in entities.items() if eid not in placed and e["at"] is not None
              and e["kind"] != "player"]
    rng.shuffle(unseen)
    for zone, shown in hidden_zones:
        spec = data.zones.get(zone.split(":", 1)[0])
        holds = spec.holds if spec is not None else None
        items = [shown["top"]] if "top" in shown else []
        while len(items) < shown["count"]:
            pick = next((i for i, eid in enumerate(unseen) if holds is None or entities[eid]["kind"] == holds), None)
            if pick is None:
                break
            items.append(unseen.pop(pick))
        s.zones[zone] = items
        for eid in items:
            entities[eid]["at"] = zone
    for eid in unseen:  # what no zone's count asks for stays off the table
        entities[eid]["at"] = None
    _copy_seen_properties(s, view, rng, data)
    s.vars["game"].update(view["vars"]["game"])
    if view["current"] == tracker.viewer:
        s.vars["turn"].update(view["vars"]["turn"])
    s.current = view["current"]
    s.round = view["round"]
    if view["choice"] is not None:
        s.pending = dict(s.pending, options=list(view["choice"]["options"]))
    s.rng = rng.getrandbits(64)
    return s


def _copy_seen_properties(s: GameState, view: dict, rng: random.Random, data) -> None:
    """Visible properties from the view; each hidden one shuffled among the entities of a
    kind whose value of it the viewer cannot see."""
    shuffled: dict[tuple[str, str], list[str]] = {}
    for eid, e in s.entities.items():
        seen = view["entities"].get(eid)
        if seen is None:
            continue
        e["props"].update(seen["props"])
        for name in e["props"]:
            if name not in seen["props"]:
                shuffled.setdefault((e["kind"], name), []).append(eid)
    for (_, name), unseen_by in shuffled.items():
        values = [s.entities[eid]["props"][name] for eid in unseen_by]
        rng.shuffle(values)
        for eid, value in zip(unseen_by, values):
            s.entities[eid]["props"][name] = value
