"""What a scenario may name, read from a rule set, and the check that it names only that.

Entity, zone and player ids come from the state the engine lays out for the scenario's
number of players; actions, reactions and procedures from the rule set's definitions;
events from the engine's own events and every ``emit`` of the rules. A misspelt name
is reported at its YAML line and column with a "did you mean" hint, before the
scenario runs: a typo in an event pattern would otherwise make ``no_events`` pass.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Iterable

from rulecraft.dsl import ast
from rulecraft.dsl import types as T
from rulecraft.dsl.builtins import ACTION_WINDOW, ACTION_WINDOW_FIELDS, ENGINE_EVENTS
from rulecraft.dsl.diagnostics import DiagnosticBag, did_you_mean, did_you_mean_among, with_article
from rulecraft.dsl.model import RuleSet
from rulecraft.dsl.variants import available_variants
from rulecraft.interpreter.state import new_state, tile_layouts

from .scenario import HAND, Scenario, check_steps, step_verb

# Events the engine records besides those the checker knows triggers may wait for.
_RECORDED_EVENTS = {"game_ended", "reacted"}
# Fields the engine's records hold besides those its events are declared with.
_RECORDED_FIELDS = {"game_ended": {"winners", "decided"}}
# Fields any recorded event may hold: its type, and who may see it (``emit … to``).
_EVERY_EVENT_FIELDS = {"type", "audience"}
WILDCARD = "*"


class Names:
    """The names of one rule set played by a given number of players."""

    def __init__(self, ruleset: RuleSet, players: int):
        data = ruleset.data
        state = new_state(ruleset, players, 1)
        self.ruleset = ruleset
        self.players: list[str] = list(state.players)
        self.entities: dict[str, str] = {eid: e["kind"] for eid, e in state.entities.items()}
        # where each entity lies before the setup rules run (a tile taken off the board goes back there)
        self.home: dict[str, str | None] = {eid: e["at"] for eid, e in state.entities.items()}
        self.zones: set[str] = set(state.zones)
        # A component of several copies, written without a number, stands for one of
        # them in a setup's card lists: card → card.1 … card.12.
        self.copies: dict[str, list[str]] = {}
        for eid in self.entities:
            base, _, number = eid.rpartition(".")
            if base and number.isdigit() and base not in self.entities:
                self.copies.setdefault(base, []).append(eid)
        self.per_player_zones = {name for name, z in data.zones.items() if z.per_player}
        self.tile_rooms: dict[str, list[str]] = {}
        if data.board:
            for tile, layout in tile_layouts(ruleset).items():
                self.tile_rooms[tile] = [f"{tile}/{room}" for room in data.board.layouts[layout].rooms]
        self.space_kind = data.board.space_kind if data.board else None
        self.kinds = data.kinds
        self.variables = data.variables
        self.dice = data.dice
        defs = ruleset.definitions.values()
        self.actions = {d.name: _params(d) for d in defs if d.kind == "action"}
        self.reactions = {d.name: _params(d) for d in defs if d.kind == "reaction"}
        self.procedures = {d.name: _params(d) for d in defs if d.kind == "procedure"}
        # their parameters' whole types (list of card), as a function's are read
        self.procedure_types = {d.name: [(p.name, str(p.type) if p.type is not None else T.ANY) for p in d.params]
                                for d in defs if d.kind == "procedure"}
        # functions: their parameters and the type of their answer (an expectation asks them)
        self.functions = {d.name: ([(p.name, str(p.type) if p.type is not None else T.ANY) for p in d.params],
                                   str(d.returns) if d.returns is not None else T.ANY)
                          for d in defs if d.kind == "function"}
        self.definition_kinds = {d.name: d.kind for d in defs}
        # the seats a payoff is paid to: the people's and bots', not the scripted seats
        self.payoff = data.game.payoff  # {function, min, max, sum?} or None
        self.paid_seats = self.players[:len(self.players) - len(data.game.scripted_seats)]
        # event → the fields its records may hold: the engine's own, and those of every
        # ``emit`` (or window) of the rules giving it
        self.event_fields: dict[str, set[str]] = {e: set(f) for e, f in ENGINE_EVENTS.items()}
        for event, fields in _RECORDED_FIELDS.items():
            self.event_fields.setdefault(event, set()).update(fields)
        for event in _RECORDED_EVENTS:
            self.event_fields.setdefault(event, set())
        for event, fields in _emitted(defs).items():
            self.event_fields.setdefault(event, set()).update(fields)
        # the engine's window on a chosen action is opened only for a rule set answering it;
        # its record holds the chosen action's arguments too
        if any(d.kind == "reaction" and d.event == ACTION_WINDOW for d in defs):
            self.event_fields[ACTION_WINDOW] = set(ACTION_WINDOW_FIELDS) | {
                p for action in self.actions.values() for p, _ in action}
        for fields in self.event_fields.values():
            fields |= _EVERY_EVENT_FIELDS
        self.events = set(self.event_fields)

    def know_events(self, event_fields: dict[str, set[str]]) -> None:
        """Take these events, with their fields, as named too, though no rule of this rule
        set gives them: a mutant that deletes the rules' only ``emit`` of an event leaves a
        scenario naming it meaningful (its ``events`` fail, its ``no_events`` hold), not
        broken by a name the mutation took away."""
        for event, fields in event_fields.items():
            self.event_fields.setdefault(event, set()).update(fields)
        self.events = set(self.event_fields)

    def seen_item(self, item) -> tuple | None:
        """What an item of an expectation ``sees`` names, or None: a zone (its contents
        listed), a thing (its identity), a variable ``game.NAME`` / ``turn.NAME``, or a
        thing's property ``THING.PROPERTY`` (its value)."""
        if not isinstance(item, str):
            return None
        if item in self.zones:
            return ("zone", item)
        if item in self.entities:
            return ("thing", item)
        owner, _, name = item.rpartition(".")
        if owner in ("game", "turn") and name in self.variables.get(owner, {}):
            return ("var", owner, name)
        kind = self.kinds.get(self.entities.get(owner, ""))
        if kind is not None and name in kind.properties:
            return ("prop", owner, name)
        return None

    def component(self, eid: str) -> str:
        """The component an entity is a copy of (card.3 → card)."""
        base = eid.rpartition(".")[0]
        return base if base in self.copies else eid

    def restored(self, values: list[str]) -> list[str]:
        """The entities a ``restore`` list names: kinds, components, entity ids."""
        out = []
        for v in values:
            if v in self.entities:
                out.append(v)
            elif v in self.copies:
                out.extend(self.copies[v])
            else:
                out.extend(eid for eid, kind in self.entities.items() if kind == v)
        return out

    # ---- resolving what a scenario writes
    def space(self, value: Any) -> Any:
        """A tile id with a single space stands for that space; anything else is itself."""
        if isinstance(value, str) and value not in self.zones:
            rooms = self.tile_rooms.get(value)
            if rooms and len(rooms) == 1:
                return rooms[0]
        return value

    def expand_zone(self, zone: str) -> list[str]:
        """``hand:*`` is the ``hand`` zone of every player, in seat order."""
        if zone.endswith(":" + WILDCARD):
            base = zone[: -len(WILDCARD) - 1]
            return [f"{base}:{p}" for p in self.players]
        return [zone]

    def properties(self, entity: str) -> dict:
        kind = self.entities.get(entity)
        spec = self.kinds.get(kind) if kind else None
        return spec.properties if spec else {}


_CACHE: dict[tuple[int, int], tuple[RuleSet, Names]] = {}


def names_for(ruleset: RuleSet, players: int) -> Names:
    """The names of a rule set for a player count (remembered for the last few rule sets)."""
    key = (id(ruleset), players)
    hit = _CACHE.get(key)
    if hit is None or hit[0] is not ruleset:
        if len(_CACHE) > 32:
            _CACHE.clear()
        hit = _CACHE[key] = (ruleset, Names(ruleset, players))
    return hit[1]


def _params(d) -> list[tuple[str, str | None]]:
    return [(p.name, p.type.name if p.type is not None else None) for p in getattr(d, "params", [])]


def _emitted(defs: Iterable[ast.Definition]) -> dict[str, set[str]]:
    """Every event name an ``emit`` (or a reaction window) of the rules announces, with
    the fields its statements give it."""
    found: dict[str, set[str]] = {}
    seen: set[int] = set()

    def walk(node: Any) -> None:
        if id(node) in seen:
            return
        if isinstance(node, (list, tuple)):
            for item in node:
                walk(item)
            return
        if not dataclasses.is_dataclass(node) or isinstance(node, type):
            return
        seen.add(id(node))
        if type(node).__name__ in ("Emit", "Window") and isinstance(getattr(node, "event", None), str):
            found.setdefault(node.event, set()).update(
                f[0] for f in getattr(node, "fields", None) or [] if isinstance(f[0], str))
        for f in dataclasses.fields(node):
            if f.name != "pos":
                walk(getattr(node, f.name))

    for d in defs:
        walk(d)
    return found


def _shown(value: Any, quote: bool = True) -> str:
    """A value as the scenario wrote it: 'p9', 42, true, null."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return f"'{value}'" if quote else value
    return str(value)


def _a(value: Any) -> str:
    """What a value is, with its article: 'a number', 'a text', 'a list'."""
    if isinstance(value, bool):
        return "a bool"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "a value of another type"


def _same(value: Any, listed: Any) -> bool:
    """Is the value this listed value? true and 1 are different."""
    return value == listed and isinstance(value, bool) == isinstance(listed, bool)


def _scalar_hint(value: Any, wanted: str) -> str:
    if wanted == T.NUMBER:
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            return f"write {value.strip()} without quotes"
        return "write a number" + (" (true and 1 are different)" if isinstance(value, bool) else "")
    if wanted == T.BOOL:
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return f"write {value.strip().lower()} without quotes"
        return "write true or false" + (" (1 and true are different)" if isinstance(value, (int, float)) else "")
    return f"write it in quotes: '{_shown(value, quote=False)}'"


def default_players(ruleset: RuleSet, scenario: Scenario) -> int:
    return scenario.players if scenario.players is not None else ruleset.data.game.min_players


# ------------------------------------------------------------------ checking


class _Check:
    """Checks one scenario's names; each problem at its YAML position."""

    def __init__(self, sc: Scenario, names: Names, bag: DiagnosticBag):
        self.sc = sc
        self.n = names
        self.bag = bag
        self.errors = 0

    def error(self, message: str, path: list, hint: str | None = None, key: bool = False) -> None:
        pos = self.sc.key_position(*path) if key else self.sc.position(*path)
        self.bag.error(message, pos, hint, code="scenario")
        self.errors += 1

    # ---- single names
    def entity(self, value: Any, path: list, key: bool = False) -> bool:
        if isinstance(value, str) and value in self.n.entities:
            return True
        self.error(f"unknown entity '{value}'", path, did_you_mean_among(str(value), self.n.entities, "entities"), key)
        return False

    def player(self, value: Any, path: list, key: bool = False) -> bool:
        if value in self.n.players:
            return True
        self.error(f"unknown player '{value}'", path,
                   did_you_mean(str(value), self.n.players) or f"the players are {', '.join(self.n.players)}", key)
        return False

    def zone(self, value: Any, path: list, key: bool = False, wildcard: bool = False) -> bool:
        if isinstance(value, str):
            if value in self.n.zones:
                return True
            if wildcard and value.endswith(":*") and value[:-2] in self.n.per_player_zones:
                return True
        hint = did_you_mean_among(str(value), self.n.zones, "zones")
        if isinstance(value, str) and value in self.n.per_player_zones:
            hint = f"'{value}' belongs to each player: write '{value}:p1'" + (" or '" + value + ":*'" if wildcard else "")
        self.error(f"unknown zone '{value}'", path, hint, key)
        return False

    def place(self, value: Any, path: list) -> bool:
        """A zone, a space, a single-space tile, or null."""
        if value is None or (isinstance(value, str) and value in self.n.zones):
            return True
        rooms = self.n.tile_rooms.get(value) if isinstance(value, str) else None
        if rooms and len(rooms) == 1:
            return True
        if rooms:
            self.error(f"'{value}' has {len(rooms)} spaces: say which", path, "one of: " + ", ".join(rooms))
            return False
        self.error(f"unknown zone or space '{value}'", path,
                   did_you_mean_among(str(value), [*self.n.zones, *self.n.tile_rooms], "zones and spaces"))
        return False

    def tile(self, value: Any, path: list) -> bool:
        if value in self.n.tile_rooms:
            return True
        self.error(f"unknown tile '{value}'", path, did_you_mean_among(str(value), self.n.tile_rooms, "tiles"), key=True)
        return False

    def props(self, mapping: dict, path: list, kinds: bool = False) -> None:
        """``kinds``: a kind may stand for every entity of it (in a setup, in an expect)."""
        for eid, props in mapping.items():
            if kinds and eid not in self.n.entities and eid in self.n.kinds:
                kind = eid
            elif kinds and not (isinstance(eid, str) and eid in self.n.entities):
                self.error(f"unknown entity or kind '{eid}'", path + [eid],
                           did_you_mean_among(str(eid), [*self.n.entities, *self.n.kinds], "entities and kinds"),
                           key=True)
                continue
            elif not self.entity(eid, path + [eid], key=True):
                continue
            else:
                kind = self.n.entities[eid]
            self.property_values(kind, props or {}, path + [eid])

    def property_values(self, kind: str, values: dict, path: list) -> None:
        """Properties of a thing of this kind, and a value of each: a misspelt property is
        an error at its name, a value it cannot hold at the value."""
        spec = self.n.kinds.get(kind)
        known = spec.properties if spec else {}
        for prop, value in values.items():
            if prop not in known:
                self.error(f"a {kind} has no property '{prop}'", path + [prop],
                           did_you_mean(str(prop), known) or ("its properties: " + ", ".join(known) if known
                                                              else f"a {kind} has no properties"),
                           key=True)
            else:
                self.value(value, known[prop], f"the property '{prop}' of {with_article(kind)}", path + [prop])

    def vars(self, mapping: dict, path: list) -> None:
        for scope, values in mapping.items():
            declared = self.n.variables.get(scope, {})
            for name, value in (values or {}).items():
                if name not in declared:
                    scopes = [s for s, names in self.n.variables.items() if names]
                    hint = (did_you_mean_among(str(name), declared, f"{scope} variables") if declared else
                            f"no {scope} variables are declared; the scopes that have some: " + ", ".join(scopes)
                            if scopes else "the rule set declares no variables")
                    self.error(f"there is no {scope} variable '{name}'", path + [scope, name], hint, key=True)
                else:
                    self.value(value, declared[name], f"the {scope} variable '{name}'", path + [scope, name])

    def where(self, where: dict, kind: Any, path: list) -> None:
        """A filter ``where: {property: value}`` of a zone check or a tally: the property
        of the kind filtered on (or of some kind, without ``kind``), its value of that
        property's type. A misspelt one would filter every thing out."""
        if not isinstance(where, dict):
            return
        if isinstance(kind, str) and kind in self.n.kinds:
            self.property_values(kind, where, path)
            return
        if kind is not None:
            return  # an unknown kind, reported already
        for prop, value in where.items():
            having = [(k, spec.properties[prop]) for k, spec in self.n.kinds.items() if prop in spec.properties]
            if not having:
                every = {p for spec in self.n.kinds.values() for p in spec.properties}
                self.error(f"no kind has a property '{prop}'", path + [prop],
                           did_you_mean_among(str(prop), every, "properties"), key=True)
            elif not any(self.fits(value, spec) for _, spec in having):
                k, spec = having[0]
                self.value(value, spec, f"the property '{prop}' of {with_article(k)}", path + [prop])

    # ---- values of properties and variables
    def fits(self, value: Any, spec: Any) -> bool:
        """Does a value fit a property's (or variable's) declared type and values? (No error.)"""
        return (value is None and getattr(spec, "nullable", False)) or \
            self._value_problem(value, spec.type, spec.values) is None

    def value(self, value: Any, spec: Any, what: str, path: list) -> None:
        """A value a scenario gives (or expects of) a property or a variable must be one it
        can hold: of its declared type, among its ``values:`` when it lists them, and, for
        a kind of thing, the id of a thing of that kind. Otherwise a typo (``p9`` for a
        player) would make the scenario fail as if the rules were wrong."""
        if value is None and getattr(spec, "nullable", False):
            return  # declared with '?' ("number?"): none is one of its values
        problem = self._value_problem(value, spec.type, spec.values)
        if problem is None:
            return
        sub, message, hint = problem
        if sub is None:  # a value the property does not list: the message names the property
            self.error(f"{message} {what}", path, hint)
        else:
            self.error(f"{message} ({what} is {T.phrase(spec.type)})", path + sub, hint)

    def _value_problem(self, value: Any, type_: str, values: list | None) -> tuple[list | None, str, str] | None:
        """None when the value fits; else (path below the value, message, hint). The path
        is None for a value outside the property's ``values:``, whose message goes on
        with the property: "'blu' is not one of the values of the property …"."""
        t = type_.removesuffix("?")
        if T.is_list(t):
            if value is None:
                return None  # no list at all (the language lets none go anywhere but a number or a bool)
            if not isinstance(value, list):
                return [], f"{_shown(value)} is {_a(value)}", f"write a list: [{_shown(value, quote=False)}]"
            item = T.item_type(t)
            for i, v in enumerate(value):
                problem = self._value_problem(v, item, values)
                if problem is not None:
                    sub, message, hint = problem
                    if sub is None:  # an item the property does not list
                        return [i], message.removesuffix(" of") + " it lists", hint
                    return [i] + sub, message, hint
            return None
        if value is None:
            if t in (T.NUMBER, T.BOOL):
                return [], f"null is not {T.phrase(t)}", ("write a number" if t == T.NUMBER else "write true or false")
            return None
        if values is not None and not any(_same(value, v) for v in values):
            listed = ", ".join(map(_shown, values))
            return None, f"{_shown(value)} is not one of the values of", (
                did_you_mean(str(value), map(str, values)) or f"its values: {listed}")
        if t in (T.ANY, T.PLACEMENT, "list"):
            return None
        if t in T.SCALARS:
            actual = T.NUMBER if isinstance(value, float) else T.python_value_type(value)
            if actual == t:
                return None
            return [], f"{_shown(value)} is {_a(value)}", _scalar_hint(value, t)
        if t == T.ZONE:
            if isinstance(value, str) and (value in self.n.zones or self.n.space(value) in self.n.zones):
                return None
            return [], f"unknown zone '{value}'", did_you_mean_among(str(value), self.n.zones, "zones")
        if t not in self.n.kinds:
            return None  # an unknown type: the rule set's error, reported there
        if isinstance(value, str):
            thing = value if value in self.n.entities else self.n.space(value)
            kind = self.n.entities.get(thing)
            if kind == t or self.n.entities.get(self.n.space(value)) == t:
                return None  # a single-space tile stands for its space too
        else:
            kind = None
        of_kind = [e for e, k in self.n.entities.items() if k == t]
        near = did_you_mean(str(value), of_kind)
        listing = (f"the players are {', '.join(self.n.players)}" if t == "player"
                   else did_you_mean_among(str(value), of_kind, f"{t}s") if of_kind else f"there is no {t}")
        if not isinstance(value, str):
            return [], f"{_shown(value)} is {_a(value)}", near or listing
        if kind is not None:
            return [], f"'{value}' is {with_article(kind)}", near or listing
        if value in self.n.copies and self.n.entities.get(self.n.copies[value][0]) == t:
            ids = self.n.copies[value]
            return [], f"{value} has {len(ids)} copies: write {value}.N ({ids[0]} … {ids[-1]})", \
                "a property holds one thing: name the copy"
        return [], f"no thing '{value}'", near or did_you_mean(str(value), self.n.entities) or listing

    def rolls(self, mapping: dict, path: list) -> None:
        for die, results in mapping.items():
            if die not in self.n.dice:
                self.error(f"unknown die '{die}'", path + [die], did_you_mean_among(str(die), self.n.dice, "dice"), key=True)
                continue
            faces = self.n.dice[die]
            for i, r in enumerate(results):
                if r not in faces:
                    self.error(f"{die} has no face {r!r}", path + [die, i], "its faces: " + ", ".join(map(str, faces)))

    def ids(self, values: list, path: list) -> None:
        for i, v in enumerate(values):
            self.entity(v, path + [i])

    def cards(self, values: list, path: list, zone: str | None = None) -> None:
        """Entity ids, or components of several copies (one copy each); put in ``zone``,
        each of the kind the zone holds, when it declares one."""
        for i, v in enumerate(values):
            if isinstance(v, str) and (v in self.n.entities or v in self.n.copies):
                self.held(v, zone, path + [i])
                continue
            self.error(f"unknown entity '{v}'", path + [i],
                       did_you_mean_among(str(v), [*self.n.entities, *self.n.copies], "entities and components"))

    def held(self, value: str, zone: Any, path: list) -> None:
        """A thing put in a zone that declares the kind it ``holds`` must be of that kind
        (the rules could not move it there either)."""
        spec = self.n.ruleset.data.zones.get(str(zone).split(":", 1)[0]) if isinstance(zone, str) else None
        if spec is None or spec.holds is None:
            return
        eid = value if value in self.n.entities else self.n.copies[value][0]
        kind = self.n.entities[eid]
        if kind != spec.holds:
            same = sorted(c for c in self.n.copies if self.n.entities[self.n.copies[c][0]] == spec.holds)
            self.error(f"{value} is {with_article(kind)}, and zone '{zone}' holds {spec.holds} things only", path,
                       f"put {with_article(spec.holds)} there" + (" (" + ", ".join(same[:6]) + (", …" if len(same) > 6
                                                                                              else "") + ")" if same else ""))

    # ---- blocks
    def setup(self, setup: dict, path: list) -> None:
        if "current" in setup:
            self.player(setup["current"], path + ["current"])
        if "clear_board" in setup and "tiles" not in setup:
            self.error("'clear_board' needs 'tiles' (the tiles that make the new board)", path + ["clear_board"],
                       ("add 'tiles: {TILE: [X, Y, ROTATION]}' with every tile of the new board; the tiles: "
                        + ", ".join(sorted(self.n.tile_rooms)[:12])) if self.n.tile_rooms else
                       "the rule set lays no tiles: drop 'clear_board'",
                       key=True)
        for tile in setup.get("tiles", {}) or {}:
            self.tile(tile, path + ["tiles", tile])
        for i, v in enumerate(setup.get("restore") or []):
            if not (v in self.n.entities or v in self.n.copies or v in self.n.kinds):
                self.error(f"unknown kind, component or entity '{v}'", path + ["restore", i],
                           did_you_mean(str(v), [*self.n.kinds, *self.n.copies, *self.n.entities])
                           or "known kinds: " + ", ".join(sorted(self.n.kinds)))
        for src, dst in (setup.get("move_all") or {}).items():
            self.zone(src, path + ["move_all", src], key=True)
            if dst is not None:  # null: off the table
                self.zone(dst, path + ["move_all", src])
        for key in ("pieces", "place"):
            for eid, where in (setup.get(key) or {}).items():
                # a component of several copies stands for one of them, as in `deal`
                known = eid in self.n.copies or self.entity(eid, path + [key, eid], key=True)
                if self.place(where, path + [key, eid]) and known:
                    self.held(eid, where, path + [key, eid])
        hand = setup.get("hand_zone", HAND)
        if "hand_zone" in setup and hand not in self.n.per_player_zones:
            self.error(f"'hand_zone: {hand}' names no per-player zone", path + ["hand_zone"],
                       ("per-player zones: " + ", ".join(sorted(self.n.per_player_zones))) if self.n.per_player_zones
                       else "the rule set has no per-player zones: put the cards with 'place: {CARD: ZONE}'")
        for key in ("deal", "hands"):
            for p, cards in (setup.get(key) or {}).items():
                if self.player(p, path + [key, p], key=True):
                    if "hand_zone" not in setup and hand not in self.n.per_player_zones:
                        self.error(f"'{key}' needs a per-player zone called 'hand'", path + [key],
                                   ("name the zone it deals into: 'hand_zone: ZONE' (per-player zones: "
                                    + ", ".join(sorted(self.n.per_player_zones)) + ")") if self.n.per_player_zones else
                                   "the rule set has no per-player zones: put the cards with 'place: {CARD: ZONE}'",
                                   key=True)
                self.cards(cards, path + [key, p], hand)
        for zone, cards in (setup.get("deck_top") or {}).items():
            self.zone(zone, path + ["deck_top", zone], key=True)
            self.cards(cards, path + ["deck_top", zone], zone)
        self.props(setup.get("props") or {}, path + ["props"], kinds=True)
        self.vars(setup.get("vars") or {}, path + ["vars"])
        self.used_once(setup, path)
        if "ap" in setup and "ap" not in self.n.kinds.get("player").properties:
            player_props = sorted(self.n.kinds["player"].properties) if "player" in self.n.kinds else []
            self.error("players have no 'ap' property in this rule set", path + ["ap"],
                       "set a player's properties with 'props: {p1: {PROPERTY: VALUE}}'"
                       + ("; theirs: " + ", ".join(player_props) if player_props else ""), key=True)
        self.rolls(setup.get("rolls") or {}, path + ["rolls"])
        self.shuffles(setup.get("shuffles") or {}, path + ["shuffles"])
        self.picks(setup.get("picks") or [], path + ["picks"])

    def starting_values(self, game_setup: dict, path: list) -> None:
        """``game_setup: vars/props``: names and values as in ``setup``. A turn variable
        starts afresh at every turn, so a value given before the game's setup would be
        gone by the first turn: refused, rather than silently lost."""
        variables = dict(game_setup.get("vars") or {})
        if "turn" in variables:
            self.error("turn variables start afresh at every turn: a value given before the game's setup "
                       "would be gone when the first turn starts", path + ["vars", "turn"],
                       "set it for the turn under way with 'setup: {vars: {turn: {NAME: VALUE}}}'", key=True)
            del variables["turn"]
        self.vars(variables, path + ["vars"])
        self.props(game_setup.get("props") or {}, path + ["props"], kinds=True)

    def used_once(self, setup: dict, path: list) -> None:
        """A thing is in one place at a time: a setup block that deals, places or stacks
        one thing twice (or more copies of a component than it has) would silently take
        it from where it put it first. Checked in the order the block is applied."""
        uses = []  # (value, what the block does with it, path, key)
        for p, cards in (setup.get("deal") or {}).items():
            uses += [(v, f"dealt to {p}", path + ["deal", p, i], False) for i, v in enumerate(cards or [])]
        for key in ("pieces", "place"):
            for eid, where in (setup.get(key) or {}).items():
                uses.append((eid, f"placed at {where}" if where is not None else "taken off the table",
                             path + [key, eid], True))
        for p, cards in (setup.get("hands") or {}).items():
            uses += [(v, f"put in {p}'s hand", path + ["hands", p, i], False) for i, v in enumerate(cards or [])]
        for zone, cards in (setup.get("deck_top") or {}).items():
            uses += [(v, f"put on top of {zone}", path + ["deck_top", zone, i], False) for i, v in enumerate(cards or [])]
        named: dict[str, str] = {}
        # the copies a component's name may still pick: those the block does not name
        free = {c: [e for e in ids if e not in {u[0] for u in uses}] for c, ids in self.n.copies.items()}
        picked: dict[str, list[str]] = {}
        for value, what, where, key in uses:
            if not isinstance(value, str):
                continue
            if value in self.n.entities:
                if value in named:
                    component = self.n.component(value)
                    said = (f"{value} has 1 copy and it is {named[value]} already" if component == value
                            else f"{value} is {named[value]} already")
                    self.error(said, where, "a thing is in one place at a time: name it once"
                               + (f" (other copies: {', '.join(free[component][:5])})"
                                  if component in free and free[component] else ""), key)
                else:
                    named[value] = what
            elif value in self.n.copies:
                ids = self.n.copies[value]
                if len(picked.get(value, [])) >= len(free[value]):
                    taken = [named[e] for e in ids if e in named] + picked.get(value, [])
                    self.error(f"{value} has {len(ids)} copies and the block already uses all of them",
                               where, f"{value}: " + "; ".join(taken)
                               + " (a thing is in one place at a time)", key)
                else:
                    picked.setdefault(value, []).append(what)

    def picks(self, picks: list, path: list) -> None:
        """Options fixed for a scripted seat's ties: their actions, arguments and things."""
        for i, pick in enumerate(picks):
            if not isinstance(pick, dict):
                continue
            if "do" in pick and pick["do"] != "end_turn":
                if pick["do"] not in self.n.actions:
                    self.error(f"unknown action '{pick['do']}'", path + [i, "do"],
                               did_you_mean_among(str(pick["do"]), list(self.n.actions) + ["end_turn"], "actions"))
                else:
                    self.action_args(pick["do"], pick.get("args"), path + [i], self.n.actions, copies=False)
            elif "react" in pick and pick["react"] != "pass":
                if pick["react"] not in self.n.reactions:
                    self.error(f"unknown reaction '{pick['react']}'", path + [i, "react"],
                               did_you_mean_among(str(pick["react"]), list(self.n.reactions) + ["pass"], "reactions"))
                else:
                    self.action_args(pick["react"], pick.get("args"), path + [i], self.n.reactions, copies=False)

    def shuffles(self, mapping: dict, path: list) -> None:
        for zone, cards in mapping.items():
            self.zone(zone, path + [zone], key=True)
            self.cards(cards, path + [zone])

    def action_args(self, action: str, args: dict | None, path: list, params: dict, copies: bool = True) -> None:
        known = [p for p, _ in params[action]]
        types = dict(params[action])
        for key, value in (args or {}).items():
            if key not in known:
                self.error(f"'{action}' has no argument '{key}'", path + ["args", key],
                           did_you_mean(str(key), known) or ("its arguments: " + ", ".join(known) if known else "it takes none"),
                           key=True)
            else:
                self.argument(key, value, types[key], path + ["args", key], copies)

    def argument(self, name: str, value: Any, kind: str | None, path: list, copies: bool = True) -> None:
        """An argument whose parameter is a kind of thing names a thing (a player, an
        entity, a single-space tile), or, with ``copies``, a component of several copies,
        which stands for the one copy the options offer (see ``expect.action_options``)."""
        kind = (kind or "").removesuffix("?")
        if kind not in self.n.kinds or isinstance(value, (list, dict)):
            return
        if isinstance(value, str) and value in self.n.copies and value not in self.n.entities:
            if not copies:
                ids = self.n.copies[value]
                self.error(f"{value} has {len(ids)} copies: write {value}.N ({ids[0]} … {ids[-1]})", path,
                           "a pick fixed in advance names the very copy the seat takes")
            return
        if value in self.n.players:
            return
        if isinstance(value, str) and (value in self.n.entities or self.n.space(value) in self.n.entities
                                       or (kind == self.n.space_kind and self.n.space(value) in self.n.zones)):
            return
        if value is None:
            return  # an optional argument left out (the options say whether it may be)
        if kind == "player":
            hint = did_you_mean(str(value), self.n.players) or f"the players are {', '.join(self.n.players)}"
        else:
            of_kind = [e for e, k in self.n.entities.items() if k == kind]
            of_kind += [c for c, ids in self.n.copies.items() if ids and self.n.entities.get(ids[0]) == kind]
            hint = (did_you_mean(str(value), of_kind) or did_you_mean(str(value), [*self.n.entities, *self.n.copies])
                    or did_you_mean_among(str(value), of_kind or self.n.entities, f"{kind}s" if of_kind else "things"))
        self.error(f"no thing '{value}' (the argument '{name}' is {with_article(kind)})", path, hint)

    def action(self, name: Any, args: dict | None, path: list) -> bool:
        if name == "end_turn":
            return True
        if name not in self.n.actions:
            self.error(f"unknown action '{name}'", path + ["do"],
                       did_you_mean_among(str(name), list(self.n.actions) + ["end_turn"], "actions"))
            return False
        self.action_args(name, args, path, self.n.actions)
        return True

    def step(self, step: dict, path: list) -> None:
        verb = step_verb(step)
        if "by" in step:
            self.player(step["by"], path + ["by"])
        if verb == "do":
            self.action(step["do"], step.get("args"), path)
        elif verb == "react":
            name = step["react"]
            if name != "pass":
                if name not in self.n.reactions:
                    self.error(f"unknown reaction '{name}'", path + ["react"],
                               did_you_mean_among(str(name), list(self.n.reactions) + ["pass"], "reactions"))
                else:
                    self.action_args(name, step.get("args"), path, self.n.reactions)
        elif verb == "call":
            name = step["call"]
            if name not in self.n.procedures:
                self.error(f"unknown procedure '{name}'", path + ["call"],
                           did_you_mean_among(str(name), self.n.procedures, "procedures"))
            else:
                params = self.n.procedures[name]
                args = step.get("args") or []
                if len(args) != len(params):
                    sig = ", ".join(f"{p}: {t}" for p, t in params)
                    self.error(f"'{name}' takes {len(params)} argument(s), not {len(args)}",
                               path + (["args"] if "args" in step else ["call"]), f"{name}({sig})")
                else:  # each of its parameter's type, as a function's (a '3' for a player ran the rules)
                    typed = self.n.procedure_types.get(name, [])
                    for j, ((pname, ptype), value) in enumerate(zip(typed, args)):
                        self.typed(value, ptype, f"the argument '{pname}' of {name}", path + ["args", j])
        elif verb == "roll":
            self.rolls(step["roll"], path + ["roll"])
        elif verb == "arrange":
            self.setup(step["arrange"], path + ["arrange"])
        elif verb == "expect":
            self.expect(step["expect"], path + ["expect"])

    def function_value(self, item: dict, path: list) -> None:
        """``{function: NAME, args: [...], value: V}``: a function of the rule set (not a
        procedure or an action, which change the game: an expectation only looks), as
        many arguments as it has parameters, each a value of its parameter's type, and
        an expected value of the type the function gives."""
        name = item["function"]
        if name not in self.n.functions:
            kind = self.n.definition_kinds.get(name)
            listed = ("the rule set's functions: " + ", ".join(sorted(self.n.functions)) if self.n.functions
                      else "the rule set has no functions")
            if kind is not None:
                how = {"procedure": f"to run it, write a step {{call: {name}, args: [...]}}, then expect what it changed",
                       "action": f"to take it, write a step {{do: {name}, args: {{...}}}}, then expect what it changed"}
                self.error(f"'{name}' is {with_article(kind)}, not a function: an expectation only asks what a "
                           f"function gives, it changes nothing", path + ["function"],
                           how.get(kind, listed) + ("; " + listed if kind in how else ""))
            else:
                self.error(f"unknown function '{name}'", path + ["function"],
                           did_you_mean_among(str(name), self.n.functions, "functions") if self.n.functions else listed)
            return
        params, returns = self.n.functions[name]
        args = item.get("args") or []
        if len(args) != len(params):
            sig = ", ".join(f"{p}: {t}" for p, t in params)
            self.error(f"'{name}' takes {len(params)} argument(s), not {len(args)}",
                       path + (["args"] if "args" in item else ["function"]), f"{name}({sig})")
        else:
            for j, ((pname, ptype), value) in enumerate(zip(params, args)):
                self.typed(value, ptype, f"the argument '{pname}' of {name}", path + ["args", j])
        self.typed(item["value"], returns, f"what {name} gives", path + ["value"])

    def payoff(self, seat: Any, value: Any, path: list) -> None:
        """A seat paid at the end (not a scripted one), and a payoff it can get."""
        if not self.player(seat, path, key=True):
            return
        if seat not in self.n.paid_seats:
            self.error(f"{seat} is a scripted seat: it is paid no payoff", path,
                       "the seats paid: " + ", ".join(self.n.paid_seats), key=True)
            return
        spec = self.n.payoff
        low, high = (spec["min"], spec["max"]) if spec else (-1, 1)
        if not low <= value <= high:
            self.error(f"{_shown(value)} is outside the payoffs {_shown(low)} to {_shown(high)} "
                       + ("that game.payoff declares" if spec else "a seat can get (1, -1 or 0: the rule set declares "
                                                                  "no game.payoff)"), path,
                       f"write a number from {_shown(low)} to {_shown(high)}")

    def typed(self, value: Any, type_: str, what: str, path: list) -> None:
        """A value given for (or expected of) something of a declared type."""
        problem = self._value_problem(value, type_, None)
        if problem is not None:
            sub, message, hint = problem
            self.error(f"{message} ({what} is {T.phrase(type_)})", path + (sub or []), hint)

    def events(self, patterns: list, path: list) -> None:
        """Each pattern's type and fields: a misspelt field matches no event, so an
        ``events`` would fail for the wrong reason and a ``no_events`` pass by accident."""
        for i, pattern in enumerate(patterns):
            if not isinstance(pattern, dict):
                continue
            t = pattern.get("type")
            if t is not None and t not in self.n.events:
                self.error(f"no rule and no engine event is called '{t}'", path + [i, "type"],
                           did_you_mean_among(str(t), self.n.events, "events"))
                continue
            if t is None:
                known = set().union(*self.n.event_fields.values())
                what = "no event has a field"
            else:
                known = self.n.event_fields[t]
                what = f"the event '{t}' has no field"
            for field in pattern:
                if field not in known:
                    listed = sorted(known - {"type", "audience"})
                    hint = did_you_mean(str(field), known) or (
                        (f"the fields of '{t}': " if t is not None else "the events' fields: ") + ", ".join(listed)
                        if listed else f"'{t}' has no fields: match it by its type alone")
                    self.error(f"{what} '{field}'", path + [i, field], hint, key=True)

    def option(self, option: dict, path: list, illegal: bool) -> None:
        has_do, has_choose = "do" in option, "choose" in option
        if has_do == has_choose:
            self.error("an option is either {do: ACTION, args: {...}} or {choose: VALUE}", path,
                       "it has both 'do' and 'choose': make them two options" if has_do else
                       "write {do: ACTION} or {choose: VALUE}; the actions: " + ", ".join(sorted([*self.n.actions, "end_turn"])))
            return
        if has_do:
            self.action(option["do"], option.get("args"), path)
        elif "args" in option:
            self.error("'args' goes with 'do'", path + ["args"],
                       "a choice is the value alone, {choose: VALUE}: drop 'args'", key=True)
        if "because" in option:
            if not illegal:
                self.error("'because' is for illegal options", path + ["because"],
                           "a legal option has no reason to be refused: drop 'because', or list the option under 'illegal:'",
                           key=True)
            elif not has_do:
                self.error("'because' needs an action ({do: ACTION, args: {...}})", path + ["because"],
                           "the rules give a reason only for a refused action: drop 'because' from a choice", key=True)
            else:
                # the rules say why one action with all its arguments is refused; without
                # some, the option stands for several and the check could only fail
                given = option.get("args") or {}
                missing = [p for p, _ in self.n.actions.get(option["do"], []) if p not in given]
                if missing:
                    self.error(f"'because' needs every argument of {option['do']}: {', '.join(missing)} "
                               f"{'is' if len(missing) == 1 else 'are'} missing", path + ["because"],
                               "give " + ", ".join(f"{p}: ..." for p in missing) + " in args, or drop 'because'",
                               key=True)
                for arg, value in given.items():
                    if isinstance(value, str) and value in self.n.copies and value not in self.n.entities:
                        ids = self.n.copies[value]
                        self.error(f"{value} has {len(ids)} copies: write {value}.N ({ids[0]} … {ids[-1]})",
                                   path + ["args", arg], "the rules say why an action is refused for one thing: "
                                   "with 'because', name the copy")

    def expect(self, e: dict, path: list) -> None:
        for eid, where in (e.get("at") or {}).items():
            self.entity(eid, path + ["at", eid], key=True)
            self.place(where, path + ["at", eid])
        self.props(e.get("props") or {}, path + ["props"], kinds=True)
        for zone, check in (e.get("zone") or {}).items():
            self.zone(zone, path + ["zone", zone], key=True, wildcard=True)
            if isinstance(check, list):
                self.ids(check, path + ["zone", zone])
            else:
                for key in ("contains", "excludes"):
                    self.ids(check.get(key, []), path + ["zone", zone, key])
                for key in ("top", "bottom"):
                    if key in check:
                        self.entity(check[key], path + ["zone", zone, key])
                named = [(kind, ["kinds", kind], True) for kind in check.get("kinds", {})]
                named += [(check["kind"], ["kind"], False)] if "kind" in check else []
                for kind, where, key in named:
                    if kind not in self.n.kinds:
                        self.error(f"unknown kind '{kind}'", path + ["zone", zone] + where,
                                   did_you_mean_among(str(kind), self.n.kinds, "kinds"), key)
                if "where" in check:
                    self.where(check["where"], check.get("kind"), path + ["zone", zone, "where"])
        for i, tally in enumerate(e.get("tally") or []):
            for j, sl in enumerate(tally["zones"]):
                zone = sl if isinstance(sl, str) else sl["zone"]
                self.zone(zone, path + ["tally", i, "zones", j], wildcard=True)
            self.ids(tally.get("ids", []), path + ["tally", i, "ids"])
            if "kind" in tally and tally["kind"] not in self.n.kinds:
                self.error(f"unknown kind '{tally['kind']}'", path + ["tally", i, "kind"],
                           did_you_mean_among(str(tally["kind"]), self.n.kinds, "kinds"))
            if "where" in tally:
                self.where(tally["where"], tally.get("kind"), path + ["tally", i, "where"])
        for tile in (e.get("tiles") or {}):
            self.tile(tile, path + ["tiles", tile])
        self.vars(e.get("vars") or {}, path + ["vars"])
        if "current" in e:
            self.player(e["current"], path + ["current"])
        for i, p in enumerate(e.get("turns") or []):
            self.player(p, path + ["turns", i])
        for i, p in enumerate(e.get("winners") or []):
            self.player(p, path + ["winners", i])
        for i, item in enumerate(e.get("functions") or []):
            self.function_value(item, path + ["functions", i])
        for seat, value in (e.get("payoffs") or {}).items():
            self.payoff(seat, value, path + ["payoffs", seat])
        for key in ("legal", "illegal"):
            for i, option in enumerate(e.get(key) or []):
                self.option(option, path + [key, i], key == "illegal")
        pending = e.get("pending")
        if isinstance(pending, dict) and "player" in pending:
            self.player(pending["player"], path + ["pending", "player"])
        for key in ("events", "no_events", "events_in_order"):
            self.events(e.get(key) or [], path + [key])
        for viewer, seen in (e.get("sees") or {}).items():
            if self.player(viewer, path + ["sees", viewer], key=True):
                for key in ("shown", "hidden"):
                    for i, item in enumerate(seen.get(key) or []):
                        self.seen_item(item, path + ["sees", viewer, key, i])

    def seen_item(self, item: Any, path: list) -> None:
        """An item of ``sees``: a zone, a thing, ``game.NAME``/``turn.NAME`` or ``THING.PROPERTY``."""
        if self.n.seen_item(item) is not None:
            return
        text = str(item)
        owner, _, name = text.rpartition(".")
        kind = self.n.kinds.get(self.n.entities.get(owner, ""))
        if kind is not None:
            hint = did_you_mean(name, kind.properties) or ("its properties: " + ", ".join(kind.properties)
                                                          if kind.properties else f"{with_article(self.n.entities[owner])} has no properties")
            self.error(f"{with_article(self.n.entities[owner])} has no property '{name}'", path, hint)
        elif owner in ("game", "turn"):
            declared = self.n.variables.get(owner, {})
            self.error(f"there is no {owner} variable '{name}'", path,
                       did_you_mean_among(name, declared, f"{owner} variables") if declared
                       else f"no {owner} variables are declared")
        else:
            self.error(f"'{text}' is no zone, thing, variable or property", path,
                       did_you_mean_among(text, [*self.n.zones, *self.n.entities], "zones and things")
                       or "write a zone (hand:p1), a thing (crown.2), game.NAME, or THING.PROPERTY (p1.score)")


def check_scenario(sc: Scenario, ruleset: RuleSet, bag: DiagnosticBag) -> bool:
    """Check that a scenario names only what the rule set has; True when it does."""
    game = ruleset.data.game
    before = len(bag.errors)
    check_steps(sc, bag)  # a step that does nothing: the scenario cannot be played as written
    if len(bag.errors) > before:
        return False
    players = default_players(ruleset, sc)
    if not game.min_players <= players <= game.max_players:
        exact = game.min_players == game.max_players
        counts = game.player_counts
        hint = f"write 'players: {counts}'" if exact else f"write 'players:' with a number from {counts}"
        bag.error(f"{game.title} is played by {counts} players, not {players}", sc.position("players"), hint,
                  code="scenario")
        return False
    c = _Check(sc, names_for(ruleset, players), bag)
    c.rolls(sc.game_setup.get("rolls") or {}, ["game_setup", "rolls"])
    c.shuffles(sc.game_setup.get("shuffles") or {}, ["game_setup", "shuffles"])
    c.picks(sc.game_setup.get("picks") or [], ["game_setup", "picks"])
    c.starting_values(sc.game_setup, ["game_setup"])
    c.setup(sc.setup, ["setup"])
    for i, step in enumerate(sc.steps):
        c.step(step, ["steps", i])
    if sc.expect:
        c.expect(sc.expect, ["expect"])
    return c.errors == 0


def check_variant(sc: Scenario, ruleset: RuleSet, bag: DiagnosticBag) -> bool:
    """A scenario marked for a variant the rule set does not have would be skipped on
    every run, never checked: that is an error at its 'variant:' line."""
    known = available_variants(Path(ruleset.root))
    if sc.variant in known:
        return True
    hint = (did_you_mean_among(str(sc.variant), known, "variants") if known
            else "the rule set has no variants: remove the 'variant:' line")
    bag.error(f"the rule set has no variant '{sc.variant}'", sc.position("variant"), hint, code="scenario")
    return False
