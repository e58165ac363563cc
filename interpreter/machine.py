"""The machine that runs compiled rules against a game state.

Control lives in ``state.stack`` as plain frames, so the machine can stop at any
choice point, be saved, and resume. Frame kinds:

- ``game``: the outermost loop (setup once, then rounds until the game ends);
- ``call``: a procedure, action or trigger body with its own local variables;
- ``block`` / ``loop`` / ``rep``: nested blocks sharing the enclosing call's variables;
- ``turn``: a player's turn, which offers legal actions until the player ends it.

The machine never reads input: at a choice point it sets ``state.pending`` and
returns; a driver answers with :meth:`Machine.answer`.
"""

from __future__ import annotations

import copy
from typing import Any, Callable

from rulecraft.dsl.builtins import ACTION_WINDOW
from rulecraft.dsl.compiler import ActionInfo, Program, generate_statement_code, with_texts
from rulecraft.dsl.diagnostics import with_article
from rulecraft.dsl.dependencies import reads_turn
from rulecraft.dsl.limits import MAX_STEPS_PER_DECISION, bounded
from rulecraft.dsl.lookahead import skippable_triggers
from rulecraft.dsl.model import RuleSet
from rulecraft.dsl.public_reads import public_windows
from rulecraft.dsl.reads import Reads, reads_of

from . import rng
from .board import Board, Geometry, board_for
from .chance import ChanceScript
from .declared_board import DeclaredBoard
from .fault_place import located_fault
from .faults import RuleFault, shown
from .library import FUNCTIONS
from .listing import FEW, KeptCandidates
from .state import RANDOM_PICKS, THING, GameState, component_effects, forced_shuffle_key, scripted_seats, tile_layouts
from .views import zone_visible

END_TURN = {"action": "end_turn"}
PASS = {"reaction": "pass"}
# The key of the record of the engine's window on a chosen action (one open at a time:
# no action is chosen while it is open); unlike "window:N", it is dropped on closing.
ACTION_WINDOW_ID = "window:action"


class RuleRuntimeError(Exception):
    """A rule did something impossible at run time (e.g. moved nothing)."""

    def __init__(self, message: str, pos=None):
        self.pos = pos
        super().__init__(f"{pos}: {message}" if pos else message)


class IllegalAnswer(ValueError):
    """The driver's answer is not one of the offered options."""


class Machine:
    def __init__(self, ruleset: RuleSet, state: GameState, on_event: Callable[[dict], None] | None = None):
        self.ruleset = ruleset
        self.program: Program = ruleset.compiled
        self.state = state
        self.lib = FUNCTIONS
        self.geometry = _geometry(ruleset)
        self._board: Board | None = None  # rebuilt after every placement
        self.on_event = on_event
        self._kind_lists = _kind_lists(ruleset, state)
        self._current_instr = None
        # the triggers by event: the rule set's, or while an obligation's lookahead plays
        # ahead, those it may not pass over (see _reachable_after)
        self._triggers = self.program.triggers
        self.game = ruleset.data.game
        # the engine opens its window on each chosen action only for a rule set that
        # answers it: for the others, choosing an action runs as it always did
        self._action_window = ACTION_WINDOW in self.program.reactions
        # Where the game's chance comes from: None, the state's seeded generator; or the
        # outcomes an outside driver plays one by one (see ChanceScript and draw())
        self.chance: ChanceScript | None = None
        # Function results remembered while conditions are evaluated (see reading()).
        self.memo: dict | None = None
        # Results of the functions that read nothing a game changes (see
        # dsl.dependencies.fixed_functions), remembered for the whole game.
        self.fixed_memo: dict = {}
        # what the machine reads of the rule set for this many seats, made once per
        # rule set and seats and only read (a new game is a few dozen microseconds)
        parts_key = ("machine parts", tuple(state.players))
        parts = self.program.shared.get(parts_key)
        if parts is None:
            actions_by_name: dict[str, ActionInfo] = {}
            for action in self.program.actions:
                actions_by_name.setdefault(action.name, action)
            people = len(state.players) - len(self.game.scripted_seats)
            parts = self.program.shared[parts_key] = (
                list(ruleset.of_kind("victory")), list(ruleset.of_kind("obligation")),
                component_effects(ruleset, state.players), actions_by_name, scripted_seats(ruleset, people))
        (self._victory_nodes, self._obligation_nodes, self._effects, self._actions_by_name,
         self.scripted) = parts
        if self.program.code == "conditions":
            # a rule set's second game: it plays more than one, so its statements are
            # worth generated code (which a single game or a load would not get back)
            machines = self.program.shared["machines"] = self.program.shared.get("machines", 0) + 1
            if machines == 2:
                generate_statement_code(ruleset)
        # zone or space → whether a thing moved into it goes on top (an ordered zone),
        # filled as zones are moved into; the same for every game of the rule set
        self._ordered: dict[str, bool] = self.program.shared.setdefault("ordered zones", {})
        # zone or space → the kind it holds (None: any), as its table declares
        self._holds: dict[str, str | None] = self.program.shared.setdefault("zones' kinds", {})
        # What conditions read changes only through the machine's own effects while it
        # runs: ``changes`` counts those to the board, entities, zones, variables and
        # records, ``turns`` the starts of turns and rounds. While neither moved, a
        # condition's value (and a function's) is the one computed before. Outside
        # ``run`` a driver may change the state directly, so nothing is kept there.
        self.changes = 0
        self.turns = 0
        # The entities and zones the machine is about to change are written down here
        # (``own``, ``own_zone``) once something keeps results by what they read
        # (listing.KeptCandidates), so that only those are looked at again; None: not
        # followed (nothing kept yet, or the state was changed from outside: invalidate).
        self.touched: set | None = None
        self._steady_many: dict[int, bool] = {}  # see steady_many
        self._running = False
        self._kept_memo: dict | None = None
        self._kept_stamp: tuple | None = None
        self._victory_kept: tuple | None = None  # (stamp, value)
        self._victory_reads_turn = _victories_read_turn(ruleset)
        # When all the victories read of what changes is some properties and variables
        # (dsl.reads), their values are the victories' inputs: while those are the
        # same, so is the victory, from one decision to the next and whoever changed
        # the state. (entity, property) pairs and (scope, variable) pairs, or None.
        self._victory_inputs = _victory_inputs(ruleset, state) if not self._victory_reads_turn else None
        self._victory_by_inputs: tuple | None = None  # (inputs, value)
        self._victory_entities = len(state.entities)

    # ------------------------------------------------------------ reading
    def board(self) -> Board | DeclaredBoard:
        if self._board is None:
            geometry = self.geometry
            if geometry is None:
                raise RuleFault("the rule set has no board (no 'board:' in its data tables), so it has no "
                                "spaces, tiles or paths to ask about")
            self._board = geometry if isinstance(geometry, DeclaredBoard) else board_for(geometry, self.state.tiles)
        return self._board

    def reading(self) -> "_Reading":
        """A stretch in which only conditions are evaluated and the state does not change:
        rule-set functions (which have no effects) are computed once per arguments."""
        return _Reading(self)

    def _reading_memo(self) -> dict:
        """The memo of a reading that is not inside another (see reading)."""
        if self._running:
            # nothing changed since the last stretch: what it computed still holds
            stamp = (self.changes, self.turns)
            if self._kept_stamp != stamp:
                self._kept_memo, self._kept_stamp = {}, stamp
            return self._kept_memo
        return {}

    def invalidate(self) -> None:
        """Forget cached views of the state: after the state object is replaced, or after
        a driver changed it directly (arranging a table, a test), which a machine that
        follows its own changes (``touched``) would not see otherwise."""
        self._board = None
        self.changes += 1
        self.touched = None

    def kind_list(self, kind: str) -> list[str]:
        return self._kind_lists.get(kind, [])

    def value(self, name: str) -> Any:
        s = self.state
        if name == "players":
            return list(s.players)
        if name == "current_player":
            return s.current
        if name == "round_number":
            return s.round
        if name == "turn_number":
            return s.turn_number
        raise KeyError(name)

    def prop(self, entity: str | None, name: str) -> Any:
        if entity is None:
            return None
        return self.state.entities[entity]["props"].get(name)

    def field(self, value, name: str) -> Any:
        """``value.name`` where the checker could not tell what ``value`` is: a field of
        a record (an action's arguments in an ``action_taken`` event, a dict), else a
        property of the entity it names."""
        if value is None:
            return None
        if isinstance(value, dict):
            return value.get(name)
        entity = self.state.entities[value]
        props = entity["props"]
        found = props.get(name)
        if found is None and name not in props and name not in self._property_names():
            # a name no kind declares is a slip of the rules, not a value to read as none;
            # one another kind declares reads as none, as when a zone holding several
            # kinds is filtered by one kind's property (a table rebuilt from a view leaves
            # hidden properties out: those read as none too)
            self._fail(f"{value} (a {entity['kind']}) has no property '{name}', nor has any kind of the rule set")
        return found

    def _property_names(self) -> frozenset:
        names = self.program.shared.get("property names")
        if names is None:
            names = frozenset(p for spec in self.ruleset.data.kinds.values() for p in spec.properties)
            self.program.shared["property names"] = names
        return names

    def record(self, value) -> dict:
        """An event's fields: an event dict itself, or the record of a window by id."""
        if isinstance(value, dict):
            return value
        if isinstance(value, str):
            return self.state.windows.get(value, {})
        return {}

    def own(self, entity: str) -> dict:
        """The entity, to be changed: a state played ahead borrowed its entities from the
        state it was cloned from (GameState.clone), so a borrowed one is copied first."""
        s = self.state
        e = s.entities[entity]
        lent = s.lent
        if lent is not None and lent.get(entity) is e:
            e = s.entities[entity] = {"kind": e["kind"], "at": e["at"], "props": dict(e["props"])}
        touched = self.touched
        if touched is not None:
            touched.add(entity)
            touched.add(e["at"])
        return e

    def own_zone(self, zone: str) -> list[str]:
        """The zone's list, to be changed: a borrowed one (see ``own``) is copied first."""
        s = self.state
        items = s.zones[zone]
        lent = s.lent_zones
        if lent is not None and lent.get(zone) is items:
            items = s.zones[zone] = list(items)
        touched = self.touched
        if touched is not None:
            touched.add(zone)
        return items

    def location(self, entity: str | None) -> str | None:
        if entity is None:
            return None
        return self.state.entities[entity]["at"]

    # ------------------------------------------------------------ effects
    def _fail(self, message: str):
        raise RuleRuntimeError(message, getattr(self._current_instr, "pos", None))

    def set_var(self, scope: str, name: str, op: str, value: Any) -> None:
        vars_ = self.state.vars[scope]
        vars_[name] = _apply(op, vars_.get(name), value)
        self.changes += 1

    def set_record_field(self, record_id, name: str, op: str, value: Any) -> None:
        s = self.state
        record = s.windows.get(record_id) if isinstance(record_id, str) else None
        if record is None:
            self._fail(f"only an open window's record can be changed ({name})")
        lent = s.lent_windows
        if lent is not None and lent.get(record_id) is record:  # borrowed (see GameState.clone)
            record = s.windows[record_id] = dict(record)
        record[name] = _apply(op, record.get(name), value)
        self.changes += 1

    def open_window(self, name: str, fields: dict, var: str, env: dict) -> None:
        """Open a reaction window: each player in turn (the current player first) may react."""
        s = self.state
        wid = f"window:{len(s.windows) + 1}"
        s.windows[wid] = {"type": name, **fields}
        self.changes += 1
        env[var] = wid
        players = s.players
        start = players.index(s.current) if s.current in players else 0
        order = players[start:] + players[:start]
        s.stack.append({"k": "window", "id": wid, "name": name, "players": order, "i": 0})
        self.emit(name, dict(fields), None)

    def set_prop(self, entity: str | None, name: str, op: str, value: Any) -> None:
        if entity is None:
            self._fail(f"cannot set {name} of nothing")
        props = self.own(entity)["props"]
        new = _apply(op, props.get(name), value)
        if props.get(name) != new:
            props[name] = new
            self.changes += 1
            self._emit("changed", {"type": "changed", "entity": entity, "property": name, "value": new})

    def set_listed_prop(self, entity: str | None, name: str, op: str, value: Any, allowed: dict) -> None:
        """``set_prop`` of a property whose values some kind lists (``allowed``: each such
        kind → its values): a value outside them stops the game. The compiler gives a
        ``set`` this only for such a property, so other sets pay nothing for the test."""
        if entity is None:
            self._fail(f"cannot set {name} of nothing")
        e = self.state.entities[entity]
        values = allowed.get(e["kind"])
        if values is not None:
            value, op = _apply(op, e["props"].get(name), value), "="
            if _outside(value, values):
                self._fail_listed(value, values, f"{entity}.{name}", f"{e['kind']}.{name}")
        self.set_prop(entity, name, op, value)

    def set_listed_var(self, scope: str, name: str, op: str, value: Any, values: tuple) -> None:
        """``set_var`` of a game or turn variable that lists its values (see set_listed_prop)."""
        value = _apply(op, self.state.vars[scope].get(name), value)
        if _outside(value, values):
            self._fail_listed(value, values, f"{scope}.{name}", f"{scope}.{name}")
        self.set_var(scope, name, "=", value)

    def _fail_listed(self, value: Any, values, target: str, declared: str):
        allowed = ", ".join(map(shown, values))
        if isinstance(value, list):
            item = next(i for i in value if i is not None and i not in values)
            self._fail(f"cannot set {target} to {shown(value)}: {shown(item)} is not one of the values "
                       f"of {declared} ({allowed})")
        self._fail(f"cannot set {target} to {shown(value)}: {declared} may only be {allowed} "
                   f"(its values in the data tables)")

    def change_resource(self, op: str, entity: str | None, name: str, amount) -> None:
        """gain / spend / reset a resource, kept between 0 and its cap (if it has one)."""
        if entity is None:
            self._fail(f"cannot {op} {name} of nothing")
        e = self.state.entities[entity]
        spec = self.ruleset.data.kinds[e["kind"]].properties.get(name)
        if spec is None or spec.resource is None:
            self._fail(f"{name} is not a resource of a {e['kind']}")
        held = e["props"].get(name) or 0
        if op == "gain":
            new = held + amount
        elif op == "spend":
            new = held - amount
        else:
            new = amount if amount is not None else spec.resource.get("reset", spec.default or 0)
        cap = spec.bound(e["props"], self.ruleset.data.parameters)
        if cap is not None and new > cap:
            new = cap
        new = max(new, 0)
        if spec.values is not None and _outside(new, spec.values):
            self._fail_listed(new, spec.values, f"{entity}.{name}", f"{e['kind']}.{name}")
        self.set_prop(entity, name, "=", new)

    def run_effect(self, entity: str | None) -> None:
        """Run the procedure a component names as its effect, given the component."""
        if entity is None:
            self._fail("none has no effect to run")
        name = self._effects.get(entity)
        if name is None:
            self._fail(f"{entity} has no effect: its component names none (effect: in the components table)")
        self.call_procedure(name, [entity])

    def reveal(self, entity: str | None, prop: str | None, players, hide: bool) -> None:
        """Show a thing (or one property of it) to players beyond what the tables allow,
        or take that back; views follow at once."""
        if entity is None:
            self._fail("cannot reveal or hide nothing")
        s = self.state
        if players is None:
            players = list(s.players)
        elif isinstance(players, str):
            players = [players]
        key = THING if prop is None else prop
        given = s.revealed.setdefault(entity, {})
        seen = given.get(key, [])
        if hide:
            # hide takes back only what reveal gave: it concerns the players it was shown
            # to (all of them without `from`), and names the thing to no one else
            players = [p for p in seen if p in players]
            now = [p for p in seen if p not in players]
        else:
            now = seen + [p for p in players if p not in seen]
            now.sort(key=s.players.index)
        if now:
            given[key] = now
        else:
            given.pop(key, None)
        if not given:
            del s.revealed[entity]
        self.changes += 1
        if hide and not players:
            return  # shown to none of them: nothing to take back, and no one to tell
        fields = {"entity": entity, "property": prop, "players": list(players)}
        if prop is not None and not hide:
            # the value shown, as it is now: a later change leaves the history saying
            # what was seen (the view shows only the value of the moment)
            fields["value"] = copy.deepcopy(s.entities[entity]["props"].get(prop))
        if prop is not None:
            # a property shown of a thing a player cannot see shows them nothing (a view
            # shows properties on the things it shows), and its name must not tell them
            # which thing it is: the event names it only to those who see it
            unseen = [p for p in players if not self._sees_thing(entity, p)]
            if unseen:
                fields["_unseen_by"] = unseen
        # the event names the thing, so only those it is shown to (or hidden from) get it
        self.emit("hidden" if hide else "revealed", fields, list(players))

    def _sees_thing(self, entity: str, player: str) -> bool:
        """Whether ``player`` sees which thing ``entity`` is now: it lies where they see, or
        `reveal` showed it to them."""
        s = self.state
        at = s.entities[entity]["at"]
        return zone_visible(self.ruleset, at, player, s) or player in s.revealed.get(entity, {}).get(THING, ())

    def move(self, entity: str | None, destination: str | None, end: str | None) -> None:
        if entity is None:
            self._fail("cannot move nothing (the list or zone was empty)")
        if destination is None:
            self._fail(f"cannot move {entity} to nowhere")
        zones = self.state.zones
        if destination not in zones:
            self._fail(f"unknown zone or space '{destination}'")
        e = self.own(entity)
        holds = self._holds.get(destination, "")
        if holds == "":
            spec = self.ruleset.data.zones.get(destination.split(":", 1)[0])
            holds = self._holds[destination] = spec.holds if spec is not None else None
        if holds is not None and e["kind"] != holds:
            self._fail(f"cannot move {entity} to {destination}: it is {with_article(e['kind'])}, and "
                       f"{destination} holds only {holds} things (its zone's 'holds')")
        source = e["at"]
        if source is not None:
            self.own_zone(source).remove(entity)
        target = self.own_zone(destination)
        if end == "bottom":
            target.append(entity)
        else:
            ordered = self._ordered.get(destination)
            if ordered is None:
                spec = self.ruleset.data.zones.get(destination.split(":", 1)[0])
                ordered = self._ordered[destination] = spec is not None and spec.ordered
            if ordered:
                target.insert(0, entity)  # on top
            else:
                target.append(entity)
        e["at"] = destination
        self.changes += 1
        self._emit("moved", {"type": "moved", "entity": entity, "source": source, "destination": destination})

    def draw(self, n: int) -> int:
        """A whole number in [0, n), each as likely: every die roll, random pick and
        shuffle step draws one, from the state's generator or from ``chance``."""
        if self.chance is None:
            self.state.rng, i = rng.below(self.state.rng, n)
            return i
        return self.chance.outcome(n)

    def shuffle(self, zone: str) -> None:
        items = self.own_zone(zone)
        for i in range(len(items) - 1, 0, -1):  # Fisher-Yates, as rng.shuffle, one draw a step
            j = self.draw(i + 1)
            items[i], items[j] = items[j], items[i]
        forced = self.state.forced_rolls
        if forced:
            tops = forced.get(forced_shuffle_key(zone))
            if tops:
                self._put_on_top(zone, items, tops.pop(0))
        self.changes += 1
        self._emit("shuffled", {"type": "shuffled", "zone": zone})
        self._forget_shuffled(zone, items)

    def _forget_shuffled(self, zone: str, items: list[str]) -> None:
        """A shuffle ends what `reveal` showed of the things shuffled to the players who do
        not see the zone: among alike backs they can no longer tell which is which (a card
        shown, then shuffled back into the deck, is not known when it is drawn again)."""
        s = self.state
        if not s.revealed:
            return
        for entity in items:
            shown = s.revealed.get(entity, {}).get(THING)
            if shown:
                blind = [p for p in shown if not zone_visible(self.ruleset, zone, p, s)]
                if blind:
                    self.reveal(entity, None, blind, hide=True)

    def _put_on_top(self, zone: str, items: list[str], top: list) -> None:
        """A shuffle's top fixed in advance: these entities, the first listed on the very
        top (an entry that is a list stands for any one of those interchangeable ids);
        the rest stay in the shuffle's order."""
        chosen: list[str] = []
        for wanted in top:
            ids = [wanted] if isinstance(wanted, str) else list(wanted)
            eid = next((e for e in ids if e in items and e not in chosen), None)
            if eid is None:
                what = repr(wanted) if isinstance(wanted, str) else "one of " + ", ".join(ids)
                self._fail(f"the shuffle of {zone} fixed in advance puts {what} on top, but {zone} does not hold it")
            chosen.append(eid)
        rest = [e for e in items if e not in chosen]
        items[:] = chosen + rest

    def emit(self, name: str, fields: dict, audience: list[str] | None) -> None:
        event = {"type": name, **fields}
        if audience is not None:
            event["audience"] = list(audience)
        self._emit(name, event)

    def _emit(self, name: str, event: dict) -> None:
        """Emit ``event`` (a new dict, its ``type`` first): the machine's own events are
        built here in one dict rather than as fields copied into one."""
        triggers = self._triggers.get(name)
        on_event = self.on_event
        if on_event is not None:
            # the recorder keeps (and annotates) the dict it is given: a copy when
            # triggers may hold the event too, to read its fields as they were
            on_event(dict(event) if triggers else event)
        if not triggers:
            return
        # conditions never write to the variables they are given, so they share theirs
        reading = {"event": event}
        entities = self.state.entities
        matched = []
        for t in triggers:
            # the kind tests a condition starts with, done here (see TriggerInfo.kinds):
            # most things moved are not what a trigger on moves waits for
            for field, kind in t.kinds:
                value = event.get(field)
                e = entities.get(value) if isinstance(value, str) else None
                if e is None or e["kind"] != kind:
                    break
            else:
                for field, value in t.equals:  # and the tests of a field against a constant
                    if not event.get(field) == value:
                        break
                else:
                    if t.where is None or t.where(self, reading):
                        matched.append(t)
        if matched:
            stack = self.state.stack
            for t in reversed(matched):
                stack.append({"k": "call", "b": t.block, "pc": 0, "env": {"event": event}, "name": t.name})

    def call_procedure(self, name: str, args: list) -> None:
        params, block = self.program.procedures[name]
        self.state.stack.append({"k": "call", "b": block, "pc": 0, "env": dict(zip(params, args)), "name": name})

    def effect(self, name: str, args: list) -> None:
        s = self.state
        # a turn's start is counted in ``turns`` (its per-turn variables are the turn's)
        self.changes += name != "play_turn"
        if name == "place":
            tile, spot = args
            if tile is None or spot is None:
                self._fail("place needs a tile and a placement")
            e = self.own(tile)
            if e["at"] is not None:
                self.own_zone(e["at"]).remove(tile)
                e["at"] = None
            s.tiles[tile] = [spot["x"], spot["y"], spot["rotation"]]
            self.invalidate()
            self._emit("placed", {"type": "placed", "tile": tile, "x": spot["x"], "y": spot["y"], "rotation": spot["rotation"]})
        elif name == "remove":
            (entity,) = args
            if entity is None:
                self._fail("cannot remove nothing")
            e = self.own(entity)
            if entity in s.tiles:
                del s.tiles[entity]
                self.invalidate()
            if e["at"] is not None:
                source = e["at"]
                self.own_zone(source).remove(entity)
                e["at"] = None
                self._emit("moved", {"type": "moved", "entity": entity, "source": source, "destination": None})
        elif name == "play_turn":
            (player,) = args
            s.current = player
            s.turn_number += 1
            self.turns += 1
            s.vars["turn"] = {n: _fresh(spec.default) for n, spec in self.ruleset.data.variables.get("turn", {}).items()}
            s.limits["turn"] = {}
            s.stack.append({"k": "turn", "player": player, "actions": 0})
            self._emit("turn_started", {"type": "turn_started", "player": player})
        elif name == "end_game":
            winners, reason = args
            self._end(list(winners or []), reason)
        elif name == "end_turn":
            # the turn ends when the rules come back to it (the action, and whatever it
            # set off, done), not at once: the rule that ends it finishes first
            turn = next((f for f in reversed(s.stack) if f["k"] == "turn"), None)
            if turn is None:
                self._fail("end_turn() is called while no turn is under way (in setup, or between turns)")
            turn["ending"] = True
        else:
            self._fail(f"unknown effect {name}")

    def stop(self) -> None:
        stack = self.state.stack
        while stack:
            frame = stack.pop()
            if frame["k"] == "call":
                return

    def break_loop(self) -> None:
        stack = self.state.stack
        while stack:
            frame = stack.pop()
            if frame["k"] in ("loop", "rep"):
                return

    def turn_player(self) -> str | None:
        """The player whose turn is under way, or None (setup, between turns)."""
        return self.state.current if any(f["k"] == "turn" for f in self.state.stack) else None

    def choose(self, var: str, options: list, chooser: str | None, prompt: str | None, env: dict,
               secret_count: bool = False) -> None:
        """``secret_count``: how many options there are may be a secret (see
        public_reads.CountReader); with ``ask_secret_single_options`` a single option is
        then asked too, since at a table being asked or not would tell it."""
        if chooser is None and len(options) > 1:
            self._fail(f"nobody is to choose {var}: a choose without 'by' is the current player's, and no "
                       f"player's turn is under way here (setup, or a step of the round between turns); "
                       f"write 'choose {var} from … by PLAYER'")
        settings = self.state.settings
        asked_anyway = secret_count and chooser is not None and settings.get("ask_secret_single_options")
        if not options and asked_anyway and settings.get("ask_secret_empty_options"):
            # nothing to choose, but being asked or not would tell the table so: the
            # chooser is asked all the same, with "none" the only answer
            self.state.pending = {"kind": "choose", "player": chooser, "prompt": prompt, "options": [None],
                                  "var": var, "frame": self._env_frame_index()}
        elif not options:
            env[var] = None
        elif len(options) == 1 and not asked_anyway:
            env[var] = options[0]
        else:
            self.state.pending = {"kind": "choose", "player": chooser, "prompt": prompt, "options": options,
                                  "var": var, "frame": self._env_frame_index()}

    def choose_again(self) -> None:
        """Work out a pending ``choose`` again, from the state as it is now: the table was
        arranged under it (a scenario's setup dealt other cards into the hand it offers).
        The frame that asked resumes at its ``choose`` statement, whose options are listed
        anew; with one or none left the rules go on as they would have."""
        s = self.state
        if s.pending is None or s.pending["kind"] != "choose":
            raise RuntimeError("no choose is pending")
        s.pending = None
        s.stack[-1]["pc"] -= 1  # the asking frame is on top; it resumes after its choose
        self.run()

    # ------------------------------------------------------------ frames
    def _env_frame_index(self) -> int:
        stack = self.state.stack
        top = stack[-1]
        return len(stack) - 1 if top["k"] == "call" else top["e"]

    def _env(self, frame: dict) -> dict:
        return frame["env"] if frame["k"] == "call" else self.state.stack[frame["e"]]["env"]

    def push_block(self, block: int) -> None:
        stack = self.state.stack
        top = stack[-1]  # _env_frame_index, written in place: every `if` taken pushes a block
        stack.append({"k": "block", "b": block, "pc": 0, "e": len(stack) - 1 if top["k"] == "call" else top["e"]})

    def push_loop(self, block: int, var: str, items: list) -> None:
        stack = self.state.stack
        top = stack[-1]
        stack.append({"k": "loop", "b": block, "pc": 0, "e": len(stack) - 1 if top["k"] == "call" else top["e"],
                      "var": var, "items": items, "i": 0})

    def push_repeat(self, block: int, count: int) -> None:
        self.state.stack.append({"k": "rep", "b": block, "pc": 0, "e": self._env_frame_index(), "left": count})

    # ------------------------------------------------------------ running
    def start(self) -> None:
        """Begin a new game: setup, then rounds, until the first choice."""
        self.state.stack = [{"k": "game", "phase": "setup"}]
        self.run()

    def run(self, floor: int = 0) -> None:
        """Run until a choice is pending, the game ends, or the stack is down to ``floor``
        frames (0: empty; the obligation lookahead stops when a turn frame is on top)."""
        outer, self._running = self._running, True
        self.changes += 1  # the driver may have changed the state since
        try:
            while True:
                self._run(floor)
                pending = self.state.pending
                if pending is None or pending["player"] not in self.scripted:
                    return
                self._apply_answer(self.scripted_answer(pending))
        finally:
            self._running = outer
            self.changes += 1

    def scripted_answer(self, pending: dict) -> int:
        """The option a scripted seat takes: the options meeting its first preference that
        any option meets, one of them drawn by the seeded generator when several do; with
        none met, "end turn" or "pass" when offered, else any option drawn alike."""
        player = pending["player"]
        seat_name, prefers = self.program.scripts[self.scripted[player]]
        options = pending["options"]
        chosen: list[int] = []
        with self.reading():
            for target, cond in prefers:
                chosen = [i for i, option in enumerate(options)
                          if self._prefers(pending["kind"], option, target, cond, seat_name, player)]
                if chosen:
                    break
        if not chosen:
            chosen = [i for i, o in enumerate(options) if o in (END_TURN, PASS)] or list(range(len(options)))
        index = chosen[0]
        if len(chosen) > 1:
            forced = self.state.forced_rolls.get(RANDOM_PICKS)
            if forced and isinstance(forced[0], dict) and "option" in forced[0]:
                index = self._fixed_tie(options, chosen, forced.pop(0)["option"])
            else:
                index = chosen[self.draw(len(chosen))]
        self.emit("scripted", {"player": player, "script": self.scripted[player]}, None)
        return index

    def _fixed_tie(self, options: list, chosen: list[int], wanted: dict) -> int:
        """A scripted seat's tie broken as fixed in advance: the first tied option that is
        ``wanted`` (an action or reaction with some of its arguments, or ``{"choice": v}``)."""
        for i in chosen:
            option = options[i]
            if "choice" in wanted:
                if option == wanted["choice"]:
                    return i
            elif isinstance(option, dict) and all(option.get(k) == v for k, v in wanted.items() if k != "args") \
                    and all((option.get("args") or {}).get(k) == v for k, v in (wanted.get("args") or {}).items()):
                return i
        self._fail(f"the pick fixed in advance, {wanted!r}, is not among the options the scripted seat's "
                   f"preference leaves tied: " + ", ".join(repr(options[i]) for i in chosen))

    def _prefers(self, kind: str, option, target: str, cond, seat_name: str, player: str) -> bool:
        env = {seat_name: player}
        if kind == "choose":
            if target != "choice":
                return False
            env["choice"] = option
        elif kind == "action":
            name = option.get("action")
            if name != target:
                return False
            env.update(option.get("args") or {})
        else:  # a reaction window
            name = option.get("reaction")
            if name != target:
                return False
            env.update(option.get("args") or {})
            reaction = next((r for r in self.program.reactions.get(self.state.stack[-1]["name"], []) if r.name == name), None)
            if reaction is not None and reaction.responder is not None:
                env[reaction.responder.name] = player
        return cond is None or bool(cond(self, env))

    def _run(self, floor: int = 0) -> None:
        s = self.state
        blocks = self.program.blocks
        stack = s.stack
        steps_left = MAX_STEPS_PER_DECISION
        while s.pending is None and s.result is None and len(stack) > floor:
            frame = stack[-1]
            k = frame["k"]
            if k == "call":
                env = frame["env"]
            elif k == "turn":
                steps_left -= 1
                if steps_left < 0:
                    self._out_of_steps()
                self._turn_step(frame)
                continue
            elif k == "game":
                steps_left -= 1
                if steps_left < 0:
                    self._out_of_steps()
                self._game_step(frame)
                continue
            elif k == "window":
                steps_left -= 1
                if steps_left < 0:
                    self._out_of_steps()
                self._window_step(frame)
                continue
            else:
                env = stack[frame["e"]]["env"]
            block = blocks[frame["b"]]
            pc = frame["pc"]
            end = len(block)
            # The instructions of the frame on top run one after the other while it stays
            # on top and nothing is pending: the frame, its block and its variables are
            # looked up once for the run of them, not once per instruction.
            # ``frame["pc"]``, where the frame resumes (also after a choice it asks), is
            # written when the run of them stops: no instruction reads its own frame's.
            try:
                while pc < end:
                    steps_left -= 1
                    if steps_left < 0:
                        frame["pc"] = pc
                        self._out_of_steps()
                    instr = block[pc]
                    pc += 1
                    self._current_instr = instr
                    instr.run(self, env)
                    if s.pending is not None or s.result is not None or not stack or stack[-1] is not frame:
                        frame["pc"] = pc
                        break
                else:
                    pc = -1  # the block ran to its end
            except RuleRuntimeError:
                frame["pc"] = pc
                raise
            except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
                frame["pc"] = pc
                raise self._fault(err, instr.pos) from err
            if pc >= 0:
                continue
            steps_left -= 1
            if steps_left < 0:
                self._out_of_steps()
            if k == "loop":
                frame["i"] += 1
                if frame["i"] < len(frame["items"]):
                    env[frame["var"]] = frame["items"][frame["i"]]
                    frame["pc"] = 0
                    continue
            elif k == "rep":
                frame["left"] -= 1
                if frame["left"] > 0:
                    frame["pc"] = 0
                    continue
            stack.pop()

    def _fault(self, err: Exception, pos) -> RuleRuntimeError:
        """The rule error for a Python fault met at the statement or condition at ``pos``:
        where inside a function it happened, if it did in one (interpreter/fault_place.py)."""
        message, where = located_fault(self, err, pos)
        return RuleRuntimeError(message, where)

    def _out_of_steps(self) -> None:
        definition = next((f["name"] for f in reversed(self.state.stack) if f["k"] == "call"), None)
        where = f"in '{definition}' " if definition else ""
        raise RuleRuntimeError(f"the rules took {MAX_STEPS_PER_DECISION:,} steps {where}without a decision: "
                               "a loop runs far too long (a repeat count or a list grew too large?), "
                               "or triggers keep setting each other off",
                               getattr(self._current_instr, "pos", None))

    def _game_step(self, frame: dict) -> None:
        s = self.state
        if frame["phase"] == "setup":
            frame["phase"] = "rounds"
            self.call_procedure(self.game.setup, [])
            return
        if self._check_victory():
            return
        if s.round >= self.game.round_limit:
            self._end([], "round limit", decided=False)
            return
        s.round += 1
        s.limits["round"] = {}  # read by actions' limits only, which are never kept
        self.turns += 1
        # the round procedure goes under the event's triggers, so they run first
        self.call_procedure(self.game.round, [])
        self._emit("round_started", {"type": "round_started", "round": s.round})

    def _turn_step(self, frame: dict) -> None:
        player = frame["player"]
        victory = self._victory_read()
        if victory is not None:
            self._end(*victory)
            return
        if frame.get("ending"):  # a rule called end_turn()
            options, may_end = [], False
        elif frame["actions"] < self.game.actions_per_turn_limit:
            # a reading (see reading(), written in place): the victory, read just before,
            # shares its memo while running
            outer = self.memo
            if outer is None:
                self.memo = self._reading_memo()
            try:
                options = self.legal_actions(player)
                may_end = bool(options) and self.may_end_turn(player)
            finally:
                self.memo = outer
        else:  # the turn's last action taken: it ends, unless the game did
            options, may_end = [], False
        if options and self.program.obligations:
            options, free = self.keep_obligations(player, options)
            may_end = may_end and free
        if not options:
            self.state.stack.pop()
            self._emit("turn_ended", {"type": "turn_ended", "player": player})
            return
        if may_end:
            options.append(dict(END_TURN))
        self.state.pending = {"kind": "action", "player": player, "prompt": "Choose an action", "options": options}

    def force_end_turn(self) -> None:
        """End the turn waiting for an action even if the rules would not offer it yet.

        For drivers that arrange a table (scenarios, tests): arranging is not playing.
        The turn ends as it normally does: its frame goes and ``turn_ended`` is emitted."""
        s = self.state
        frame = s.stack[-1] if s.stack else None
        if s.pending is None or s.pending["kind"] != "action" or frame is None or frame["k"] != "turn":
            raise IllegalAnswer("no turn is waiting for an action")
        s.pending = None
        s.stack.pop()
        self.emit("turn_ended", {"player": frame["player"]}, None)
        self.run()

    def may_end_turn(self, player: str) -> bool:
        """The rule set's say on ending the turn now (a turn with no legal action ends anyway)."""
        name = self.program.end_turn_allowed
        if name is None:
            return True
        params, fn = self.program.functions[name]
        return bool(fn(self, {params[0]: player}))

    # ------------------------------------------------------------ obligations
    def keep_obligations(self, player: str, options: list[dict]) -> tuple[list[dict], bool]:
        """The options that keep every obligation the player owes within reach, and
        whether the turn may end now.

        An obligation is owed while its ``when`` holds. An option keeps it within reach
        when, after the option (with some answer to each choice it asks), it is met, or
        it can still be met: by the rule set's own ``possible`` test when there is one,
        else by some sequence of further actions, the option and them together at most
        ``within``. If some option keeps it within reach, only those are offered and the
        turn may not end; if none does, it cannot be met and is ignored. The options are
        played ahead on clones of the state, so the game itself never changes."""
        may_end = True
        for (name, when, within, possible), node in zip(self.program.obligations, self._obligation_nodes):
            with self.reading():
                in_force = self._guarded(when, {}, node.when) and (
                    possible is None or self._guarded(possible, {}, node.possible))
            if not in_force:
                continue
            test = (when, possible, node)
            kept = [o for o in options if self._reachable_after(player, o, test, within - 1)]
            if kept:
                options, may_end = kept, False
        return options, may_end

    # whether the lookahead passes over the triggers that cannot change its answer
    # (dsl.lookahead); off, it plays every trigger (the reference a test compares with)
    pass_over_triggers = True

    def _lookahead_triggers(self, test: tuple, action: str | None) -> dict:
        """The triggers by event that playing ``action`` ahead for the obligation of
        ``test`` must run (None: any action, when more than one is played ahead)."""
        node = test[2]
        key = ("lookahead triggers", node.name, action)
        shared = self.program.shared
        found = shared.get(key)
        if found is None:
            skipped = skippable_triggers(self.ruleset, node, action)
            found = shared[key] = {event: [t for t in triggers if t.name not in skipped]
                                   for event, triggers in self.program.triggers.items()}
        return found

    def _reachable_after(self, player: str, option: dict, test: tuple, budget: int) -> bool:
        """After ``option``, is the obligation met or still within reach?"""
        saved = (self.state, self._board, self.memo, self.on_event, self._current_instr)
        chance = self.chance
        floor = len(self.state.stack)  # the turn frame is on top while actions are offered
        try:
            # playing ahead draws from the copy's generator: the game's own chance is not spent
            self.on_event, self.memo, self.chance = None, None, None
            if self.pass_over_triggers:
                self._triggers = self._lookahead_triggers(test, option.get("action") if budget == 0 else None)
            # the frames below the turn's are not run while playing ahead: shared
            self._switch(saved[0].clone(borrow=True, kept_frames=floor - 1), saved[1])
            self._take_action(player, option)
            return self._reachable(player, test, budget, floor, saved[0].turn_number)
        finally:
            self.state, self._board, self.memo, self.on_event, self._current_instr = saved
            self.chance = chance
            self._triggers = self.program.triggers
            self.changes += 1

    def _switch(self, state: GameState, board: Board | DeclaredBoard | None) -> None:
        """Play on ``state`` from now on; ``board``: the board of its tiles if known (a
        clone's tiles are those of its original, and a board never changes once built)."""
        self.state = state
        self._board = board
        self.changes += 1

    def _reachable(self, player: str, test: tuple, budget: int, floor: int, turn: int) -> bool:
        self.run(floor)
        s = self.state
        if s.result is not None:
            return True  # the game is over: nothing is owed any more
        if s.turn_number != turn:
            return False
        if s.pending is not None:
            if s.pending["kind"] not in ("choose", "reaction"):
                return False
            # a choice inside the action: some answer to it may keep the obligation in reach
            last = len(s.pending["options"]) - 1
            board = self._board
            for i in range(last + 1):
                # the last line may use up the state
                self._switch(s.clone(borrow=True, kept_frames=floor - 1) if i < last else s, board)
                self._apply_answer(i)
                if self._reachable(player, test, budget, floor, turn):
                    return True
            return False
        when, possible, node = test
        with self.reading():
            if not self._guarded(when, {}, node.when):
                return True
            if possible is not None and not self._guarded(possible, {}, node.possible):
                return False
            if budget == 0:
                return possible is not None
            options = self.legal_actions(player)
        board = self._board
        for i, option in enumerate(options):
            self._switch(s.clone(borrow=True, kept_frames=floor - 1) if i < len(options) - 1 else s, board)
            self._take_action(player, option)
            if self._reachable(player, test, budget - 1, floor, turn):
                return True
        return False

    def eligible(self, frame: dict, player: str) -> bool:
        """Could any reaction of this window be this player's (whatever they hold)?"""
        return any(self._reaction_env(reaction, frame, player) is not None
                   for reaction in self.program.reactions.get(frame["name"], []))

    def _reaction_env(self, reaction, frame: dict, player: str) -> dict | None:
        """The variables a reaction starts with when ``player`` reacts (the window's record,
        and the reacting player under its name), or None if it is not theirs to make."""
        env = {"event": frame["id"]}
        responder = reaction.responder
        if responder is None:
            who = self._guarded(reaction.by, env, reaction.definition.by)
            return env if who == player or (isinstance(who, list) and player in who) else None
        node = reaction.definition.responder
        if responder.source is not None and player not in (self._guarded(responder.source, env, node.source) or []):
            return None
        env[responder.name] = player
        if responder.where is not None and not self._guarded(responder.where, env, node.where):
            return None
        return env

    def reaction_options(self, frame: dict, player: str) -> list[dict]:
        out = []
        for reaction in self.program.reactions.get(frame["name"], []):
            env = self._reaction_env(reaction, frame, player)
            if env is None:
                continue
            for args in self._bindings(reaction.params, reaction.definition.params, env):
                full = {**env, **args}
                if all(self._guarded(req, full, node.cond)
                       for (req, _, _), node in zip(reaction.requires, reaction.definition.requires)):
                    out.append({"reaction": reaction.name, "args": args})
        return out

    def _window_step(self, frame: dict) -> None:
        players = frame["players"]
        settings = self.state.settings
        # a window whose answers every player can work out asks only those who can answer
        ask_all = settings.get("ask_every_eligible", False) and not (
            settings.get("skip_known_passes", False) and frame["name"] in _public_windows(self.ruleset))
        while frame["i"] < len(players):
            player = players[frame["i"]]
            with self.reading():
                options = self.reaction_options(frame, player)
                ask = bool(options) or (ask_all and self.eligible(frame, player))
            if ask:
                self.state.pending = {"kind": "reaction", "player": player, "prompt": f"React to {frame['name']}?",
                                      "options": options + [dict(PASS)]}
                return
            frame["i"] += 1
        self.state.stack.pop()
        if "gate" in frame:
            self._close_action_window(frame)

    def _open_action_window(self, player: str, action: str, args: dict, frame_at: int) -> None:
        """Open the engine's window on a chosen action, just above its steps' frame (at
        ``frame_at``; the triggers of action_taken, above it, run first): reactions to
        it may decline the action."""
        s = self.state
        fields = {**args, "player": player, "action": action, "declined": False}
        s.windows[ACTION_WINDOW_ID] = {"type": ACTION_WINDOW, **fields}
        players = s.players
        start = players.index(s.current) if s.current in players else 0
        # the frames above are fresh trigger calls, which hold no index into the stack
        s.stack.insert(frame_at + 1, {"k": "window", "id": ACTION_WINDOW_ID, "name": ACTION_WINDOW,
                                      "players": players[start:] + players[:start], "i": 0, "gate": frame_at})
        self.emit(ACTION_WINDOW, dict(fields), None)

    def _close_action_window(self, frame: dict) -> None:
        """The window on a chosen action closed: its record is dropped (no rule names it),
        and a declined action's steps are skipped."""
        s = self.state
        record = s.windows.pop(ACTION_WINDOW_ID)
        if record.get("declined"):
            action = s.stack[frame["gate"]]
            action["pc"] = len(self.program.blocks[action["b"]])
            self.emit("action_declined", {"player": record["player"], "action": record["action"]}, None)

    def _check_victory(self) -> bool:
        victory = self._victory_read()
        if victory is not None:
            self._end(*victory)
            return True
        return False

    def _victory_read(self) -> tuple[list, str] | None:
        """_victory in a reading of its own, or its value kept while nothing it may read
        changed (then without opening a reading: every decision asks at least twice)."""
        if self._running:
            kept = self._victory_kept
            if kept is not None and kept[0] == (self.changes, self.turns if self._victory_reads_turn else 0):
                found = kept[1]
                return None if found is None else (list(found[0]), found[1])
        outer = self.memo  # a reading (see reading(), written in place)
        if outer is None:
            self.memo = self._reading_memo()
        try:
            return self._victory()
        finally:
            self.memo = outer

    def _victory(self) -> tuple[list, str] | None:
        """(winners, name) of the first victory whose condition holds, or None."""
        if self._running:
            stamp = (self.changes, self.turns if self._victory_reads_turn else 0)
            kept = self._victory_kept
            if kept is not None and kept[0] == stamp:
                found = kept[1]
            else:
                found = self._victory_decided()
                self._victory_kept = (stamp, found)
        else:
            found = self._victory_decided()
        return None if found is None else (list(found[0]), found[1])

    def _victory_decided(self) -> tuple[list, str] | None:
        """_victory_now, or its value for the same inputs (see _victory_inputs)."""
        pairs = self._victory_inputs
        if pairs is None:
            return self._victory_now()
        entity_props, variables = pairs
        s = self.state
        ents, vars_ = s.entities, s.vars
        if len(ents) != self._victory_entities:  # a driver put in a state of other things
            self._victory_inputs = _victory_inputs(self.ruleset, s)
            self._victory_entities = len(ents)
            return self._victory_decided()
        inputs = [ents[e]["props"].get(p) for e, p in entity_props]
        inputs += [vars_[scope].get(name) for scope, name in variables]
        kept = self._victory_by_inputs
        if kept is not None and kept[0] == inputs:
            return kept[1]
        found = self._victory_now()
        self._victory_by_inputs = (inputs, found)
        return found

    def _victory_now(self) -> tuple[list, str] | None:
        for (name, when, winners), node in zip(self.program.victories, self._victory_nodes):
            try:  # (_guarded, written in place: every decision asks)
                held = when(self, {})
            except RuleRuntimeError:
                raise
            except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
                raise self._fault(err, getattr(node.when, "pos", None)) from err
            if held:
                return list(self._guarded(winners, {}, node.winners) or []), name
        return None

    def _end(self, winners: list, reason: str, decided: bool = True) -> None:
        self.state.result = {"winners": winners, "reason": reason, "decided": decided}
        self.state.pending = None
        if self.on_event is not None:
            self.on_event({"type": "game_ended", "reason": reason, "winners": winners, "decided": decided})

    # ------------------------------------------------------------ actions
    def _guarded(self, fn, env: dict, node):
        """Evaluate a condition of a definition; a failure names the rule's position."""
        try:
            return fn(self, env)
        except RuleRuntimeError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
            raise self._fault(err, getattr(node, "pos", None)) from err

    def action_bindings(self, action: ActionInfo, player: str):
        """Every argument binding of an action whose parameter filters hold."""
        return self._bindings(action.params, action.definition.params, {})

    def _bindings(self, params, nodes, base: dict):
        # a method rather than a function nested here: one calling itself is held by its
        # own closure, a cycle that would keep the machine to the cycle collector
        return self._bindings_from(params, nodes, dict(base), [p.name for p in params], 0)

    def _bindings_from(self, params, nodes, env: dict, keys: list[str], i: int):
        if i == len(params):
            yield {k: env[k] for k in keys}
            return
        p = params[i]
        node = nodes[i]
        candidates = self._guarded(p.source, env, node.source) if p.source is not None else self.kind_list(p.kind)
        for value in candidates or []:
            env[p.name] = value
            if p.where is None or self._guarded(p.where, env, node.where):
                yield from self._bindings_from(params, nodes, env, keys, i + 1)
        env.pop(p.name, None)

    def refused_argument(self, action: ActionInfo, args: dict) -> str | None:
        """Which of ``args`` the action's `with` lines refuse, and by what: the first value
        not among its parameter's candidates, or failing its `where` (the earlier values
        bound, as when options are listed); None when every one passes."""
        env: dict = {}
        for p, node in zip(action.params, action.definition.params):
            if p.name not in args:
                return f"no value is given for '{p.name}'"
            value = env[p.name] = args[p.name]
            candidates = self._guarded(p.source, env, node.source) if p.source is not None else self.kind_list(p.kind)
            source, where = with_texts(self.ruleset, node)
            if value not in (candidates or []):
                return f"{p.name} = {value} is not " + (f"among {source}" if node.source is not None else f"a {p.kind}")
            if p.where is not None and not self._guarded(p.where, env, node.where):
                return f"{p.name} = {value} fails 'where {where}'"
        extra = sorted(set(args) - {p.name for p in action.params})
        return f"the action has no parameter '{extra[0]}'" if extra else None

    def why_not(self, action: ActionInfo, player: str, args: dict) -> str | None:
        """None when the action with these arguments is legal now; else the reason."""
        s = self.state
        env = dict(args)
        d = action.definition
        for (req, message, text), node in zip(action.requires, d.requires):
            if not self._guarded(req, env, node.cond):
                return message or f"requires {text}"
        props = s.entities[player]["props"]
        for (amount, resource), node in zip(action.costs, [c for c in d.costs if c.payer is None]):
            if (props.get(resource) or 0) < self._guarded(amount, env, node.amount):
                return f"not enough {resource}"
        for (amount, resource, payer), node in zip(action.payer_costs, [c for c in d.costs if c.payer is not None]):
            holder = self._guarded(payer, env, node.payer)
            if holder is None or (self.prop(holder, resource) or 0) < self._guarded(amount, env, node.amount):
                return f"not enough {resource}"
        for (count, period, group), node in zip(action.limits, d.limits):
            most = self._guarded(count, env, node.count)
            if s.limits[period].get(_limit_key(player, group), 0) >= most:
                return f"already done {most} time(s) this {period}"
        return None

    def legal_actions(self, player: str) -> list[dict]:
        """Every legal action with its arguments, in the rule set's order.

        Legality is the conjunction of an action's checks, so the checks that read no
        parameter are decided once per action, before its bindings are enumerated. If a
        rule fails at run time, the enumeration is redone check by check, in the order of
        ``why_not``, so the error names the rule's position as before."""
        try:
            return self._legal_actions_fast(player)
        except RuleRuntimeError:
            pass
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            pass
        memo, self.memo = self.memo, None
        try:
            return self._legal_actions_checked(player)
        finally:
            self.memo = memo

    def _legal_actions_checked(self, player: str) -> list[dict]:
        out = []
        for action in self.program.actions:
            for args in self.action_bindings(action, player):
                if self.why_not(action, player, args) is None:
                    out.append({"action": action.name, "args": args})
        return out

    # what the listing and the conditions keep between decisions (listing.py), made
    # when first needed
    _kept_candidates: KeptCandidates | None = None
    _kept_listing: KeptCandidates | None = None
    _keeps: list[bool] | None | bool = False  # _kept_bindings, False until first listed

    def kept_items(self, spec: tuple, args: tuple, source: list, helper, only: str | None = None):
        """A comprehension over a kind's entities, kept entity by entity (generated code
        calls it: see dsl.codegen.kept_comprehension); ``only``: any, all or count of it."""
        kept = self._kept_candidates
        if kept is None:
            kept = self._kept_candidates = KeptCandidates(self.program.footprint_properties, self.ruleset.data.kinds)
        return kept.items(self, spec, args, source, helper, only)

    def steady_many(self, index: int, source_of) -> bool:
        """Whether the list of kept comprehension ``index`` over a list the same for the
        whole game (see kept_steady) has enough items to be worth keeping."""
        many = self._steady_many.get(index)
        if many is None:
            many = self._steady_many[index] = len(source_of(self)) >= FEW
        return many

    def kept_steady(self, spec: tuple, args: tuple, source_of, helper, only: str | None = None):
        """A comprehension over a list the same for the whole game, kept item by item
        (generated code calls it: see dsl.codegen.kept_steady_comprehension); ``only``:
        any, all or count of it."""
        kept = self._kept_candidates
        if kept is None:
            kept = self._kept_candidates = KeptCandidates(self.program.footprint_properties, self.ruleset.data.kinds)
        return kept.steady_items(self, spec, args, source_of, helper, only)

    def _legal_actions_fast(self, player: str) -> list[dict]:
        out = []
        s = self.state
        keeps = self._keeps
        if keeps is False:
            keeps = self._keeps = _kept_bindings(self)
        kept = None
        if keeps is not None:
            kept = self._kept_candidates
            if kept is None:
                kept = self._kept_candidates = KeptCandidates(self.program.footprint_properties, self.ruleset.data.kinds)
            kept.ready(self)
        self._kept_listing = kept  # what _candidates may use in this listing (made ready)
        props = s.entities[player]["props"]
        limits = s.limits
        for i, action in enumerate(self.program.actions):
            fixed, varying = action.fixed, action.varying
            if not fixed.passes(self, {}, props, limits, player):
                continue
            name = action.name
            params = action.params
            options = kept.options(self, action) if keeps is not None and keeps[i] else None
            if options is not None:
                if not (varying.requires or varying.costs or varying.limits):
                    out.extend(options)
                else:
                    passes = varying.passes
                    out.extend(o for o in options if passes(self, o["args"], props, limits, player))
                continue
            unchecked = not (varying.requires or varying.costs or varying.limits)
            if len(params) == 1:
                key = params[0].name
                if unchecked:  # the options made at once
                    out.extend([{"action": name, "args": {key: value}} for value in self._candidates(params[0], {})])
                    continue
                bindings = [{key: value} for value in self._candidates(params[0], {})]
            else:
                bindings = self._binding_list(params)
            if unchecked:
                out.extend([{"action": name, "args": args} for args in bindings])
                continue
            passes = varying.passes
            for args in bindings:
                # no expression writes to the variables it is given, so the binding serves
                if passes(self, args, props, limits, player):
                    out.append({"action": name, "args": args})
        return out

    def _binding_list(self, params) -> list[dict]:
        """``_bindings`` as a list, without the per-condition error wrapping (see
        legal_actions), with the candidates of each parameter from ``_candidates``."""
        out: list[dict] = []
        if not params:
            out.append({})
            return out
        env: dict = {}
        if len(params) == 2:  # the usual case (a thing, then where it goes), without recursion
            first, second = params
            k0, k1 = first.name, second.name
            candidates = self._candidates
            for v0 in candidates(first, env):
                env[k0] = v0
                out.extend({k0: v0, k1: v1} for v1 in candidates(second, env))
            return out
        if len(params) == 1:
            name = params[0].name
            out.extend({name: v} for v in self._candidates(params[0], env))
            return out
        self._bind_each(params, 0, [p.name for p in params], env, out)
        return out

    def _bind_each(self, params, i: int, keys: list, env: dict, out: list) -> None:
        """Bind parameter ``i`` and those after it to every candidate combination. A
        method rather than a nested function that calls itself: such a closure is a
        reference cycle per listing, which keeps the machine alive until the cycle
        collector runs."""
        p = params[i]
        name = p.name
        last = i == len(params) - 1
        for value in self._candidates(p, env):
            env[name] = value
            if last:
                out.append({k: env[k] for k in keys})
            else:
                self._bind_each(params, i + 1, keys, env, out)
        env.pop(name, None)

    def _candidates(self, p, env: dict) -> list:
        """The candidates of parameter ``p`` that pass its filter, with ``env`` binding the
        earlier parameters; while reading, remembered by filter shape (see ParamInfo), and
        kept from one listing to the next while what they read stays the same (listing.py)."""
        if p.footprint is not None and self._kept_listing is not None:
            return self._kept_listing.candidates(self, p, env)
        memo = self.memo
        if memo is not None:
            reads = p.reads
            if not reads:
                key = p.shape
            elif len(reads) == 1:
                key = (p.shape, env[reads[0]])
            else:
                key = (p.shape, *[env[r] for r in reads])
            key = ("with", key)
            try:
                passing = memo.get(key)
            except TypeError:  # an unhashable value read (a placement): not remembered
                return self._passing(p, env)
            if passing is None:
                passing = memo[key] = self._passing(p, env)
            return passing
        return self._passing(p, env)

    def _passing(self, p, env: dict) -> list:
        """The candidates of parameter ``p`` that pass its filter (``env`` is left as it was)."""
        candidates = p.source(self, env) if p.source is not None else self._kind_lists.get(p.kind, [])
        return self._filtered(p, env, candidates)

    def _filtered(self, p, env: dict, candidates) -> list:
        """Those of ``candidates`` that pass the filter of parameter ``p``."""
        if p.select is not None:
            return p.select(self, env, candidates)
        where = p.where
        if where is None:
            return list(candidates or [])
        name = p.name
        had, old = name in env, env.get(name)
        out = []
        for value in candidates or []:
            env[name] = value
            if where(self, env):
                out.append(value)
        if had:
            env[name] = old
        else:
            env.pop(name, None)
        return out

    def answer(self, index: int) -> None:
        """Answer the pending choice with the option at ``index`` and run on."""
        self._apply_answer(index)
        self.run()

    def _apply_answer(self, index: int) -> None:
        s = self.state
        pending = s.pending
        if pending is None:
            raise IllegalAnswer("no choice is pending")
        options = pending["options"]
        if not isinstance(index, int) or not 0 <= index < len(options):
            raise IllegalAnswer(f"answer {index!r} is not an option number between 0 and {len(options) - 1}")
        s.pending = None
        s.steps += 1
        option = options[index]
        if pending["kind"] == "choose":
            s.stack[pending["frame"]]["env"][pending["var"]] = option
        elif pending["kind"] == "reaction":
            self._react(pending["player"], option)
        else:
            self._take_action(pending["player"], option)

    def _react(self, player: str, option: dict) -> None:
        s = self.state
        frame = s.stack[-1]
        if option.get("reaction") == "pass":
            frame["i"] += 1
            return
        reaction = next(r for r in self.program.reactions[frame["name"]] if r.name == option["reaction"])
        env = {"event": frame["id"], **option["args"]}
        if reaction.responder is not None:
            env[reaction.responder.name] = player
        s.stack.append({"k": "call", "b": reaction.block, "pc": 0, "env": env, "name": reaction.name})
        self.emit("reacted", {"player": player, "reaction": reaction.name, "args": dict(option["args"])}, None)

    def _take_action(self, player: str, option: dict) -> None:
        s = self.state
        frame = s.stack[-1]
        if option["action"] == "end_turn":
            s.stack.pop()
            self._emit("turn_ended", {"type": "turn_ended", "player": player})
            return
        action = self._actions_by_name.get(option["action"]) or next(
            a for a in self.program.actions if a.name == option["action"])
        env = dict(option["args"])
        props = self.own(player)["props"]
        for amount, resource in action.costs:
            props[resource] = (props.get(resource) or 0) - amount(self, env)
        for amount, resource, payer in action.payer_costs:
            held = self.own(payer(self, env))["props"]
            held[resource] = (held.get(resource) or 0) - amount(self, env)
        for _, period, group in action.limits:
            key = _limit_key(player, group)
            s.limits[period][key] = s.limits[period].get(key, 0) + 1
        self.changes += 1
        frame["actions"] += 1
        s.stack.append({"k": "call", "b": action.block, "pc": 0, "env": env, "name": action.name})
        # the event keeps a copy: the action's own variables must not leak into the log
        self._emit("action_taken", {"type": "action_taken", "player": player, "action": action.name, "args": dict(option["args"])})
        if self._action_window:
            self._open_action_window(player, action.name, dict(option["args"]), frame_at=len(s.stack) - 1)


class _Reading:
    """Context of Machine.reading(): a fresh memo, dropped on the way out."""

    __slots__ = ("machine", "outer")

    def __init__(self, machine: Machine):
        self.machine = machine

    def __enter__(self) -> None:
        m = self.machine
        self.outer = m.memo
        if self.outer is None:
            m.memo = m._reading_memo()

    def __exit__(self, *exc) -> None:
        self.machine.memo = self.outer


def _geometry(ruleset: RuleSet) -> Geometry | DeclaredBoard | None:
    """The rule set's board geometry, built once and shared by its games (boards built
    from it are kept with it, see board_for); a board declared whole is its own geometry."""
    spec = ruleset.data.board
    if not spec:
        return None
    shared = ruleset.compiled.shared
    geometry = shared.get("geometry")
    if geometry is None:
        geometry = shared["geometry"] = (Geometry(spec, tile_layouts(ruleset)) if spec.kind == "tiles"
                                         else DeclaredBoard(spec))
    return geometry


def _kind_lists(ruleset: RuleSet, state: GameState) -> dict[str, list[str]]:
    """Each kind's entities, in the state's order: the same for every game of the rule
    set with these entities (no game makes or deletes one), so made once and only read."""
    ids = tuple(state.entities)
    shared = ruleset.compiled.shared
    key = ("kind lists", len(ids))
    found = shared.get(key)
    if found is None or found[0] != ids:
        lists: dict[str, list[str]] = {}
        for eid, e in state.entities.items():
            lists.setdefault(e["kind"], []).append(eid)
        found = shared[key] = (ids, lists)
    return found[1]


def _kept_bindings(m: Machine) -> list[bool] | None:
    """Per action: whether its options are kept between listings (listing.py): one or
    two parameters, each with a footprint, one of them costly to list, the first drawn
    from a list or from a kind with enough entities to make keeping them worth its
    bookkeeping; None when no action's are (then nothing is compared between listings)."""
    shared = m.program.shared
    key = ("kept bindings", len(m.state.players))
    found = shared.get(key, False)
    if found is False:
        found = [0 < len(action.params) <= 2 and all(p.footprint is not None for p in action.params)
                 and any(p.costly for p in action.params)
                 and (action.params[0].kind is None or len(m.kind_list(action.params[0].kind)) >= FEW)
                 for action in m.program.actions]
        found = shared[key] = found if any(found) else None
    return found


def _public_windows(ruleset: RuleSet) -> frozenset[str]:
    shared = ruleset.compiled.shared
    found = shared.get("public windows")
    if found is None:
        found = shared["public windows"] = public_windows(ruleset)
    return found


def _victories_read_turn(ruleset: RuleSet) -> bool:
    shared = ruleset.compiled.shared
    found = shared.get("victories read turn")
    if found is None:
        exprs = [e for d in ruleset.of_kind("victory") for e in (d.when, d.winners)]
        found = shared["victories read turn"] = reads_turn(ruleset, exprs)
    return found


def _victory_inputs(ruleset: RuleSet, state: GameState) -> tuple[list, list] | None:
    """What the victories read, if only properties and variables (see dsl.reads): the
    (entity, property) pairs of the state's entities whose kind has the property or that
    hold it, and the (scope, name) of the variables; None if they may read more."""
    shared = ruleset.compiled.shared
    if "victories read" not in shared:
        shared["victories read"] = reads_of(ruleset, [e for d in ruleset.of_kind("victory")
                                                      for e in (d.when, d.winners)])
    reads: Reads | None = shared["victories read"]
    if reads is None or any(scope not in state.vars for scope, _ in reads.variables):
        return None
    # the same for every game of these players (each begins with the rule set's things)
    key = ("victory inputs", tuple(state.players), len(state.entities))
    found = shared.get(key)
    if found is None:
        kinds = ruleset.data.kinds
        names = sorted(reads.properties)
        pairs = [(eid, name) for eid, e in state.entities.items() for name in names
                 if name in e["props"] or (e["kind"] in kinds and name in kinds[e["kind"]].properties)]
        found = shared[key] = (pairs, sorted(reads.variables))
    return found


def _limit_key(player: str, group: str) -> str:
    # Limits count per player: "once per game" is once for each player.
    return f"{player}:{group}"


def _outside(value: Any, values) -> bool:
    """Is a value given to something that lists the only values it may take outside them?
    none is not (no value, as a property without a default starts); a list is when an
    item is."""
    if value is None:
        return False
    if isinstance(value, list):
        return any(item is not None and item not in values for item in value)
    return value not in values


def _apply(op: str, old: Any, value: Any) -> Any:
    if op == "=":
        return bounded(value)
    if op == "+=":
        if isinstance(value, list):
            return bounded(list(old or []) + value)
        return bounded((old or 0) + value)
    if isinstance(value, list):  # `-=` on a list: without those items
        return [x for x in old or [] if x not in value]
    return bounded((old or 0) - value)


def _fresh(default):
    return list(default) if isinstance(default, list) else default
