"""A game in progress: the public face of the interpreter.

``Game`` owns a state and a machine, records every event and every decision, and
offers the pending choice to whoever drives it (a bot, a terminal player, a scenario).
A game's log (seed, decisions, events as JSON lines) replays to the identical state.
"""

from __future__ import annotations

import copy
import json
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from rulecraft.dsl.model import RuleSet

from . import rng
from .gamelog import final_line
from .machine import IllegalAnswer, Machine
from .state import GameState, new_state
from .views import number_for_viewer, player_view, record_event, visible_event


@dataclass(frozen=True)
class Choice:
    """What a driver must answer: who chooses, why, and the exact legal options."""

    player: str | None
    kind: str  # "action" or "choose"
    prompt: str | None
    options: list


# How a game is run for players who must not learn anything from how the engine asks:
# a reaction window asks every player a reaction could name, even with only "pass" to
# offer, so being asked shows nobody who holds a reaction card; except in a window whose
# answers every player can work out from what they all see (dsl.public_reads), where
# asking one who can only pass would hide nothing. Likewise a choose with one option is
# asked when how many options there are may be a secret (a card only some may play).
# Every driver that puts players or learning agents at the table runs games so
# (terminal, server, research).
PLAYER_FACING = {"ask_every_eligible": True, "skip_known_passes": True, "ask_secret_single_options": True,
                 "ask_secret_empty_options": True}


class Game:
    def __init__(self, ruleset: RuleSet, players: int, seed: int, *, record_events: bool = True,
                 settings: dict | None = None, forced_rolls: dict[str, list] | None = None,
                 starting_vars: dict[str, dict] | None = None, starting_props: dict[str, dict] | None = None):
        """``settings``: how a driver wants the game run. ``ask_every_eligible``: in a
        reaction window, ask every player a reaction could name, even with only "pass"
        to offer (a table of people would otherwise learn who holds a reaction card).
        ``skip_known_passes``: with it, not in a window whose reactions read only what
        every player sees (there everyone knows who can answer already).
        ``ask_secret_single_options``: a choose with one option is asked too when the
        number of its options may be a secret (dsl.public_reads.CountReader);
        ``ask_secret_empty_options`` with it: one with none too, `none` its only answer
        (a setting of its own, so a log saved before it replays as it was asked).
        ``forced_rolls``: results fixed in advance (see GameState.forced_rolls), used from
        the game's own setup on.
        ``starting_vars`` (scope → {name: value}) and ``starting_props`` (entity id →
        {property: value}): values the game starts with instead of the rule set's
        defaults, in place before its setup runs, as if the tables declared them."""
        game = ruleset.data.game
        if not game.min_players <= players <= game.max_players:
            raise ValueError(f"{game.title} is played by {game.player_counts} players, not {players}")
        self.ruleset = ruleset
        self.players_count = players
        self.seed = seed
        self.events: list[dict] = []
        self.decisions: list[int] = []
        self.record_events = record_events
        self._seen: dict[str, list] = {}  # player → [events list, how many looked at, visible ones]
        starting = bool(starting_vars or starting_props)
        # a begun game kept for copying started from the defaults: not this one
        started = None if starting else _started_key(ruleset, players, settings, forced_rolls, record_events)
        kept = ruleset.compiled.shared.get(started) if started is not None else None
        if kept is not None:
            # A game whose setup and first turn draw nothing: only the seed differs from
            # the one begun before, so a copy of that one is this one (see _keep_start).
            state, events = kept
            self.state = state.clone()
            self.state.seed = seed
            self.state.rng = rng.seed_state(seed)
            self.events = copy.deepcopy(events)
            self.machine = Machine(ruleset, self.state, _recorder(self))
            return
        self.state = new_state(ruleset, players, seed)
        self.state.settings = dict(settings or {})
        self.state.forced_rolls = {k: list(v) for k, v in (forced_rolls or {}).items()}
        if starting:
            _set_starting(self.state, starting_vars or {}, starting_props or {})
        self.machine = Machine(ruleset, self.state, _recorder(self))
        self.machine.start()
        if started is not None:
            _keep_start(ruleset, started, self.state, self.events)

    def _record(self, event: dict) -> None:
        """Record an event: the machine hands over a dict of its own, kept as it is."""
        if self.record_events:
            record_event(self.ruleset, self.state, self.events, event)

    # ---- driving
    @property
    def over(self) -> bool:
        return self.state.result is not None

    @property
    def result(self) -> dict | None:
        return self.state.result

    @property
    def pending(self) -> Choice | None:
        p = self.state.pending
        if p is None:
            return None
        return Choice(p["player"], p["kind"], p.get("prompt"), p["options"])

    def choose(self, index: int) -> None:
        self.machine.answer(index)
        self.decisions.append(index)

    def choose_option(self, option: Any) -> None:
        """Answer by value rather than by position."""
        options = self.state.pending["options"] if self.state.pending else []
        try:
            index = options.index(option)
        except ValueError:
            raise IllegalAnswer(f"{option!r} is not a legal option now") from None
        self.choose(index)

    def why_not(self, action: str, args: dict) -> str | None:
        """Why an action is not legal for the current player now (None if it is)."""
        info = next((a for a in self.machine.program.actions if a.name == action), None)
        if info is None:
            return f"there is no action '{action}'"
        player = self.state.current
        if self.state.pending is None or self.state.pending["kind"] != "action":
            return "no action can be taken now"
        bindings = list(self.machine.action_bindings(info, player))
        if args not in bindings:
            with self.machine.reading():
                refused = self.machine.refused_argument(info, args)
            return "those targets are not allowed for this action" + (f": {refused}" if refused else "")
        return self.machine.why_not(info, player, args)

    # ---- seeing
    def view(self, player: str) -> dict:
        view = player_view(self.ruleset, self.state, player)
        view["events"] = self.events_for(player)
        return view

    def events_for(self, player: str, since: int = 0) -> list[dict]:
        """The events ``player`` may see, from the ``since``-th of them on.

        Each is numbered (``seq``) in the player's own stream, 0, 1, 2… without gaps:
        the game's numbering would show where hidden events were left out."""
        return [_event_copy(e) for e in self._visible(player)[since:]]

    def visible_count(self, player: str) -> int:
        """How many events ``player`` may see so far (the ``seq`` their next one gets)."""
        return len(self._visible(player))

    def _visible(self, player: str) -> list[dict]:
        # What a player sees of an event is decided once: visibility was recorded when the
        # event happened (annotate_visibility). So each player's visible events are kept
        # and only the events since the last call are looked at; callers get copies.
        seen = self._seen.get(player)
        if seen is None or seen[0] is not self.events or seen[1] > len(self.events):
            seen = self._seen[player] = [self.events, 0, []]
        events, done, visible = seen
        for ev in events[done:]:
            e = visible_event(self.ruleset, self.state, ev, player)
            if e is not None:
                visible.append(number_for_viewer(e, len(visible)))
        seen[1] = len(events)
        return visible

    # ---- saving and replaying
    def log_lines(self, header: dict | None = None) -> list[str]:
        """The game's log as JSON lines (see gamelog), ``header`` added to its header."""
        variant = self.ruleset.variant.name if self.ruleset.variant is not None else None
        lines = [json.dumps({"type": "header", "ruleset": self.ruleset.name, "variant": variant,
                             "players": self.players_count, "seed": self.seed, "settings": self.state.settings,
                             **(header or {})})]
        lines += [json.dumps({"type": "decision", "option": d}) for d in self.decisions]
        # nested, so an event's own type never collides with the line's kind
        lines += [json.dumps({"type": "event", "event": e}, sort_keys=True) for e in self.events]
        lines.append(final_line(lines, self.state.to_json()))
        return lines

    def write_log(self, path: str | Path, header: dict | None = None) -> None:
        Path(path).write_text("\n".join(self.log_lines(header)) + "\n", encoding="utf-8")

    @classmethod
    def replay(cls, ruleset: RuleSet, players: int, seed: int, decisions: list[int],
               settings: dict | None = None, **starting) -> "Game":
        """``starting``: the ``starting_vars`` and ``starting_props`` the game began with."""
        game = cls(ruleset, players, seed, settings=settings, **starting)
        for d in decisions:
            game.choose(d)
        return game

    @classmethod
    def from_log(cls, ruleset: RuleSet, lines: Iterable[str]) -> "Game":
        records = [json.loads(line) for line in lines if line.strip()]
        header = records[0]
        decisions = [r["option"] for r in records if r["type"] == "decision"]
        return cls.replay(ruleset, header["players"], header["seed"], decisions, header.get("settings"))


def _recorder(game: Game):
    """``game._record`` for the game's machine, without holding the game: a game and its
    machine holding each other would leave a finished game, its state and its events to
    the cycle collector, and a program playing many games to its slow full passes."""
    game_ref = weakref.ref(game)

    def record(event: dict) -> None:
        held = game_ref()
        if held is not None:
            held._record(event)
    return record


def _started_key(ruleset: RuleSet, players: int, settings, forced_rolls, record_events: bool) -> tuple | None:
    """The key under which a rule set keeps its begun game of ``players`` players (None:
    not kept: results fixed in advance, or settings that are not plain values)."""
    if forced_rolls or ruleset.compiled is None:
        return None
    try:
        items = tuple(sorted((settings or {}).items()))
        hash(items)
    except TypeError:
        return None
    return ("started", players, items, record_events)


def _set_starting(state: GameState, variables: dict[str, dict], props: dict[str, dict]) -> None:
    """Give the laid-out components and variables their starting values; the caller has
    checked the names and the values (a scenario's ``game_setup``). Copied: the rules
    must not share a value with the caller."""
    for scope, values in variables.items():
        state.vars.setdefault(scope, {}).update(copy.deepcopy(values))
    for eid, values in props.items():
        state.entities[eid]["props"].update(copy.deepcopy(values))


def _keep_start(ruleset: RuleSet, key: tuple, state: GameState, events: list[dict]) -> None:
    """Keep a begun game to copy for the next ones, if nothing of it depends on the seed.

    The seed reaches a game only through its generator, and every draw moves the
    generator's state on (it counts up, never back): a generator still at the seed's
    first state drew nothing, so the setup and the first turn are the same for any seed."""
    if state.rng != rng.seed_state(state.seed) or state.forced_rolls:
        return
    ruleset.compiled.shared[key] = (state.clone(), copy.deepcopy(events))


def _event_copy(event: dict) -> dict:
    copy = dict(event)
    if isinstance(copy.get("args"), dict):  # the one nested part a view may have rebuilt (masked)
        copy["args"] = dict(copy["args"])
    return copy


def state_digest(state: GameState) -> str:
    import hashlib

    return hashlib.sha256(state.dumps().encode()).hexdigest()[:16]
