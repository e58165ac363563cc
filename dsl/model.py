"""The rule set as the later stages see it: YAML tables turned into typed specs,
plus the parsed definitions. Cross-references inside the tables (a component's kind,
a layout's edges, a join's edge kinds) are checked here, each error located in YAML.
"""

from __future__ import annotations

import difflib
import itertools
import re
from dataclasses import dataclass, field
from typing import Any

from . import ast
from . import types as T
from .diagnostics import DiagnosticBag, Position, did_you_mean, did_you_mean_among, did_you_mean_or
from .yaml_data import Located


@dataclass
class PropertySpec:
    name: str
    type: str
    default: Any = None
    values: list | None = None
    visible_to: str = "everyone"
    text: str | None = None
    # a resource: {"max": number or property name, "reset": number} (either may be absent)
    resource: dict | None = None
    # a fresh random draw from ``values`` when hidden: "uniform", or {"weights": [...]}
    drawn: str | dict | None = None
    # declared with '?' ("text?"): none is one of its values, whatever ``values`` lists
    nullable: bool = False

    def draw_weights(self) -> list | None:
        """The weight of each of ``values`` in a draw of this property, in their order;
        None when the property is not ``drawn``, or is drawn from no values."""
        if self.drawn is None or not self.values:
            return None
        if isinstance(self.drawn, dict):
            return list(self.drawn.get("weights") or [])
        return [1] * len(self.values)

    def bound(self, props: dict, parameters: dict | None = None) -> int | None:
        """The most this resource may hold for an entity with these properties: its
        ``max``, a number, another property of the entity, or a parameter of the rule
        set (``parameters``: the rule set's, a variant's values applied)."""
        top = (self.resource or {}).get("max")
        if not isinstance(top, str):
            return top
        if top in props:
            return props[top]
        return (parameters or {}).get(top, {}).get("value")


@dataclass
class KindSpec:
    name: str
    properties: dict[str, PropertySpec]
    located_in: str | None = None
    owner_property: str | None = None
    text: str | None = None


@dataclass
class ZoneSpec:
    name: str
    per_player: bool = False
    ordered: bool = True
    visible_to: str = "everyone"
    top_visible: bool = False
    holds: str | None = None
    text: str | None = None
    # a zone of each entity of this kind (not of each player): ZONE(entity) in rules
    per: str | None = None

    @property
    def per_entity(self) -> bool:
        return self.per is not None and not self.per_player


@dataclass
class ComponentSpec:
    name: str
    kind: str
    count: int = 1
    per_player: bool = False
    zone: str | None = None
    layout: str | None = None
    properties: dict = field(default_factory=dict)
    text: str | None = None
    confidence: str = "high"
    spaces: list[str] = field(default_factory=list)  # the board space each copy starts on
    effect: str | None = None  # the procedure `run effect of` runs for each copy, given the copy
    # the properties as its table writes them, where the places of their values are
    # known: a variant may give it others, written in its own file
    written: dict = field(default_factory=dict)

    def written_here(self, prop: str) -> bool:
        """Whether the value of ``prop`` is the one its table writes (not a variant's)."""
        return prop in self.written and self.written[prop] == self.properties.get(prop)


@dataclass
class SidePart:
    """A stretch of a tile's side: its edge kind and the rooms that lie along it."""

    edge: str
    rooms: list[str]


@dataclass
class Side:
    """A tile's side: one stretch, or several listed clockwise around the tile (a road
    between two verges). A stretch meets the facing side's stretch that lies against it."""

    parts: list[SidePart]

    @property
    def rooms(self) -> list[str]:
        """Every room along the side, each once, clockwise."""
        return list(dict.fromkeys(r for part in self.parts for r in part.rooms))

    @property
    def edge(self) -> str | None:
        """The edge of a side of one stretch; none for a side of several."""
        return self.parts[0].edge if len(self.parts) == 1 else None


@dataclass
class LayoutSpec:
    name: str
    rooms: dict[str, dict]
    sides: dict[str, Side]
    links: list[dict]
    text: str | None = None


@dataclass
class ConnectionSpec:
    """One way from a space to another on a board declared whole (graph, grid, ring)."""

    source: str
    target: str
    direction: str | None = None
    name: str | None = None  # the connection entity's id, when connections are entities
    properties: dict = field(default_factory=dict)


@dataclass
class BoardSpec:
    space_kind: str
    tile_kind: str | None
    directions: dict[str, tuple[int, int]]
    edges: list[str]
    joins: dict[tuple[str, str], str | None]  # None = forbidden; "none" = touching, no way through
    doorways: set[str]
    layouts: dict[str, LayoutSpec]
    # tiles: laid during play; graph, grid, ring: every space and connection declared
    # at load (grids and rings are ways of writing a graph, built in dsl/board_shapes.py)
    kind: str = "tiles"
    spaces: dict[str, dict] = field(default_factory=dict)  # name → starting properties, in order
    connections: list[ConnectionSpec] = field(default_factory=list)  # one per way (two for a two-way link)
    connection_kind: str | None = None
    opposites: dict[str, str | None] = field(default_factory=dict)  # direction → its opposite
    seat_directions: dict[str, list[str]] = field(default_factory=dict)  # forward → [per seat]
    # a graph's: the properties every space starts with, and whether connections are one-way
    space_defaults: dict = field(default_factory=dict)
    directed: bool = False

    @property
    def direction_names(self) -> list[str]:
        return list(self.directions)


@dataclass
class GameSpec:
    name: str
    title: str
    min_players: int
    max_players: int
    setup: str
    round: str
    seats: dict[str, list]
    round_limit: int = 100
    actions_per_turn_limit: int = 100
    text: str | None = None
    end_turn_allowed: str | None = None  # a function (player) -> bool
    # each seat's payoff at the end, for the research interfaces: {function, min, max, sum?}
    payoff: dict | None = None
    # who plays with whom: {"teams": [{name, member}]}, {"cooperative": name} or
    # {"free_for_all": True}; None when the rule set does not say
    sides: dict | None = None
    # scripts that play the seats after the players' seats, one seat each
    scripted_seats: list[str] = field(default_factory=list)

    @property
    def player_counts(self) -> str:
        """How many play the game, as a sentence says it: '2' or '4 to 6'."""
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players} to {self.max_players}"


@dataclass
class RuleSetData:
    """Everything the YAML files of a rule set declare."""

    game: GameSpec | None = None
    kinds: dict[str, KindSpec] = field(default_factory=dict)
    zones: dict[str, ZoneSpec] = field(default_factory=dict)
    components: list[ComponentSpec] = field(default_factory=list)
    board: BoardSpec | None = None
    tables: dict[str, dict] = field(default_factory=dict)
    dice: dict[str, list] = field(default_factory=dict)
    parameters: dict[str, dict] = field(default_factory=dict)
    variables: dict[str, dict[str, PropertySpec]] = field(default_factory=lambda: {"game": {}, "turn": {}})
    manifest: dict[str, int] = field(default_factory=dict)
    rulings: list[dict] = field(default_factory=list)
    # where each section and named entry was declared, for diagnostics
    where: dict[tuple, Position] = field(default_factory=dict)
    # sections left out because their YAML broke the schema (already reported)
    broken: set[str] = field(default_factory=set)


@dataclass
class RuleSet:
    """A loaded, checked rule set: data tables plus definitions by name."""

    name: str
    root: str
    data: RuleSetData
    files: list[str]
    definitions: dict[str, ast.Definition]
    bag: DiagnosticBag
    compiled: Any = None  # filled by the compiler
    variant: Any = None  # a dsl.variants.VariantInfo when a variant is applied
    # The text of definitions that did not parse (None: a rule file that could not be
    # read at all): a name missing because it is defined there is not a second mistake.
    unparsed: list[str | None] = field(default_factory=list)
    # Definitions of a name defined before (an error): checked, so that their own errors
    # show in the same run, but never run.
    duplicates: list[ast.Definition] = field(default_factory=list)

    def of_kind(self, kind: str) -> list[ast.Definition]:
        return [d for d in self.definitions.values() if d.kind == kind]

    @property
    def ok(self) -> bool:
        return not self.bag.errors


_SECTIONS = ("game", "kinds", "zones", "components", "board", "tables", "dice", "parameters", "variables", "manifest",
             "rulings")


def _prop(name: str, raw) -> PropertySpec:
    if isinstance(raw, str):
        return PropertySpec(name, T.parse_type_text(raw))
    type_ = T.parse_type_text(raw["type"])
    default = raw.get("default")
    if default is None and T.is_list(type_):
        default = []
    resource = raw.get("resource")
    resource = (dict(resource) if isinstance(resource, dict) else {}) if resource else None
    return PropertySpec(name, type_, default, raw.get("values"), raw.get("visible_to", "everyone"), raw.get("text"),
                        resource, raw.get("drawn"), str(raw["type"]).strip().endswith("?"))


def _type_position(located: Located, path: list, type_: str) -> Position:
    """Where a declared type names its one simple type (the 'intgr' of 'list of intgr'):
    the place an 'unknown type' error points at."""
    return located.part_position(path, T.type_names(type_)[0])


# Types of other languages, and the type of the rules each is written as.
_OTHER_LANGUAGES_TYPES = {"integer": T.NUMBER, "int": T.NUMBER, "float": T.NUMBER, "double": T.NUMBER,
                          "decimal": T.NUMBER, "real": T.NUMBER, "num": T.NUMBER, "string": T.TEXT, "str": T.TEXT,
                          "boolean": T.BOOL, "array": "list of TYPE", "sequence": "list of TYPE"}


def unknown_type_hint(name: str, kinds) -> str:
    """The hint of an 'unknown type' error: the type of the rules meant (a number for
    'integer', a text for 'string', a close name), else the types there are, a list
    written as it is declared ('list of TYPE')."""
    known = sorted(set(kinds) | T.BASE_TYPES | {"player"})
    meant = _OTHER_LANGUAGES_TYPES.get(name.lower())
    if meant is not None:
        return f"did you mean '{meant}'?"
    close = did_you_mean(name, known + ["list"])
    if close == "did you mean 'list'?":
        return "did you mean 'list of TYPE'? (a list says what it holds)"
    if close:
        return close
    return "known types: " + ", ".join(sorted(known + ["list of TYPE"]))


_SLOT = re.compile(r"\{([^{}]*)\}")


def _each_component(raw: dict, path: list, located: Located, bag: DiagnosticBag) -> list[tuple[str, dict, dict]]:
    """The components one entry of a components table stands for, each as (name, properties,
    where each property's value is written): the entry itself, or, with ``each`` (a list of
    values per property), one component per combination of those values, the first property's
    values outermost, named by the entry's name with ``{property}`` slots filled in
    (``{suit}_{rank}``: ``clubs_1`` … ``spades_8``). A set of every shape and number is one
    line, not one line per card."""
    props = dict(raw.get("properties") or {})
    written = {p: path + ["properties", p] for p in props}
    each = raw.get("each")
    if not each:
        return [(raw["name"], props, written)]
    name = raw["name"]
    keys = list(each)
    slots = _SLOT.findall(name)
    name_at = located.position(path + ["name"])
    problems = False
    for slot in slots:
        if slot not in each:
            bag.error(f"the name's slot {{{slot}}} is no property listed under 'each'", name_at,
                      did_you_mean(slot, keys) or f"the properties listed under 'each': {', '.join(keys)}")
            problems = True
    missing = [k for k in keys if k not in slots]
    if missing and not problems:  # a misspelt slot is the one mistake
        bag.error(f"the name '{name}' would give several components the same name: it needs a slot for "
                  f"each property listed under 'each'", name_at,
                  f"add {', '.join('{' + k + '}' for k in missing)} to it, e.g. '{name}_{'_'.join('{' + k + '}' for k in missing)}'")
        problems = True
    for k in keys:
        if k in props:
            bag.error(f"'{k}' is both under 'properties' and under 'each'", located.key_position(path + ["each", k]),
                      "give each component its value under 'each' only")
            problems = True
    if "spaces" in raw:
        bag.error("'spaces' gives one space per copy of one component; with 'each' there are several components",
                  located.key_position(path + ["spaces"]), "use 'space' for a space they all start on")
        problems = True
    if problems:
        return []
    out = []
    for combination in itertools.product(*(enumerate(each[k]) for k in keys)):
        values = {k: v for k, (_, v) in zip(keys, combination)}
        made = _SLOT.sub(lambda m: str(values[m.group(1)]).lower() if isinstance(values[m.group(1)], bool)
                         else str(values[m.group(1)]), name)
        if not _NAME.fullmatch(made):
            bag.error(f"'{name}' makes the name '{made}', which is not a name (letters, digits and _, not "
                      f"starting with a digit)", name_at,
                      "start the name with a letter and use values without spaces or signs, or name them otherwise")
            return []
        where = dict(written)
        where.update({k: path + ["each", k, j] for k, (j, _) in zip(keys, combination)})
        out.append((made, {**props, **values}, where))
    return out


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _parts_word(n: int) -> str:
    return "one edge" if n == 1 else f"{n} parts"


def layout_spec(name: str, raw: dict) -> LayoutSpec:
    """A tile layout as board.yaml (or a variant adding one) writes it."""
    rooms = raw.get("rooms") or {"main": {}}
    def part(written) -> SidePart:
        if isinstance(written, str):
            return SidePart(written, list(rooms))
        return SidePart(written["edge"], written.get("rooms") or list(rooms))

    sides = {d: Side([part(p) for p in s["parts"]] if isinstance(s, dict) and "parts" in s else [part(s)])
             for d, s in raw["sides"].items()}
    return LayoutSpec(name, rooms, sides, raw.get("links") or [], raw.get("text"))


def merge_section(data: RuleSetData, section: str, value: Any, located: Located, bag: DiagnosticBag) -> None:
    """Fold one YAML file's section into the rule set; a section may come from one file only."""
    key = ("section", section)
    if key in data.where:
        first = data.where[key]
        bag.error(f"section '{section}' is declared in two files", located.key_position([section]),
                  f"it is already declared at {first}; keep one")
        return
    data.where[key] = located.key_position([section])
    if value is None:
        return
    if section == "game":
        data.game = GameSpec(
            name=value["name"], title=value.get("title", value["name"]),
            min_players=value["players"]["min"], max_players=value["players"]["max"],
            setup=value["setup"], round=value["round"], seats=value.get("seats", {}),
            round_limit=value.get("round_limit", 100),
            actions_per_turn_limit=value.get("actions_per_turn_limit", 100), text=value.get("text"),
            end_turn_allowed=value.get("end_turn_allowed"), sides=value.get("sides"), payoff=value.get("payoff"),
            scripted_seats=list(value.get("scripted_seats") or []))
        for k in ("setup", "round", "end_turn_allowed"):
            data.where[("game", k)] = located.position(["game", k])
        if data.game.payoff is not None:
            data.where[("game", "payoff")] = located.position(["game", "payoff", "function"])
        for i, team in enumerate((data.game.sides or {}).get("teams") or []):
            data.where[("game", "sides", i)] = located.position(["game", "sides", "teams", i, "member"])
        for i, _ in enumerate(data.game.scripted_seats):
            data.where[("game", "scripted_seats", i)] = located.position(["game", "scripted_seats", i])
        for prop, values in data.game.seats.items():
            data.where[("game", "seats", prop)] = located.key_position(["game", "seats", prop])
            for i, _ in enumerate(values):
                data.where[("game", "seats", prop, i)] = located.position(["game", "seats", prop, i])
        if data.game.min_players > data.game.max_players:
            bag.error("players: min is larger than max", located.position(["game", "players"]),
                      "swap them; for a game of one count, give the same number twice: {min: 2, max: 2}")
    elif section == "kinds":
        for name, raw in value.items():
            raw = raw or {}
            props = {p: _prop(p, r) for p, r in (raw.get("properties") or {}).items()}
            data.kinds[name] = KindSpec(name, props, raw.get("located_in"), raw.get("owner"), raw.get("text"))
            data.where[("kind", name)] = located.key_position(["kinds", name])
            for p, r in (raw.get("properties") or {}).items():
                data.where[("property", name, p)] = located.key_position(["kinds", name, "properties", p])
                path = ["kinds", name, "properties", p] + (["type"] if isinstance(r, dict) else [])
                data.where[("property", name, p, "type")] = _type_position(located, path, props[p].type)
                if isinstance(r, dict) and "drawn" in r:
                    data.where[("property", name, p, "drawn")] = located.key_position(
                        ["kinds", name, "properties", p, "drawn"])
    elif section == "zones":
        for name, raw in value.items():
            raw = raw or {}
            per = raw.get("per")
            data.zones[name] = ZoneSpec(name, raw.get("per_player", False) or per == "player", raw.get("ordered", True),
                                        raw.get("visible_to", "everyone"), raw.get("top_visible", False),
                                        raw.get("holds"), raw.get("text"), per if per != "player" else None)
            data.where[("zone", name)] = located.key_position(["zones", name])
    elif section == "components":
        for i, raw in enumerate(value):
            made = _each_component(raw, ["components", i], located, bag)
            if not made:  # a line of `each` that makes nothing was told: what counts them would echo it
                data.broken.add("components")
            for name, props, paths in made:
                data.components.append(ComponentSpec(
                    name, raw["kind"], raw.get("count", 1), raw.get("per_player", False), raw.get("zone"),
                    raw.get("layout"), props, raw.get("text"), raw.get("confidence", "high"),
                    list(raw["spaces"]) if "spaces" in raw else [raw["space"]] * raw.get("count", 1) if "space" in raw else [],
                    raw.get("effect"), dict(props)))
                data.where[("component", name)] = located.position(["components", i])
                for k in ("kind", "zone", "layout", "space", "spaces", "effect"):
                    data.where[("component", name, k)] = located.position(["components", i, k])
                for p, path in paths.items():
                    # the value (a value it cannot hold is told there) and the name (one it has not)
                    data.where[("component", name, "property", p)] = located.position(path)
                    data.where[("component", name, "property", p, "name")] = located.key_position(path[:-1] if path[-3] == "each" else path)
    elif section == "board" and value.get("kind", "tiles") != "tiles":
        from .board_shapes import declared_board  # it builds this module's specs
        data.board = declared_board(value, located, data.where)
    elif section == "board":
        layouts = {}
        for name, raw in value["layouts"].items():
            layouts[name] = layout_spec(name, raw)
            data.where[("layout", name)] = located.key_position(["board", "layouts", name])
            # each side where it is written, its parts too: a slip is told at its line
            for d, side in (raw.get("sides") or {}).items():
                at = ["board", "layouts", name, "sides", d]
                data.where[("layout", name, "side", d)] = located.key_position(at)
                if isinstance(side, dict) and isinstance(side.get("parts"), list):
                    for i in range(len(side["parts"])):
                        data.where[("layout", name, "side", d, i)] = located.position(at + ["parts", i])
            for room in raw.get("rooms") or {}:
                data.where[("layout", name, "room", room)] = located.key_position(["board", "layouts", name, "rooms", room])
            for i in range(len(raw.get("links") or [])):
                data.where[("layout", name, "link", i)] = located.position(["board", "layouts", name, "links", i])
        joins: dict[tuple[str, str], str | None] = {}
        for i, j in enumerate(value["joins"]):
            a, b = j["edges"]
            result = None if j.get("forbidden") else j.get("connection", "none")
            joins[(a, b)] = result
            joins[(b, a)] = result
            data.where[("join", i)] = located.position(["board", "joins", i])
        if isinstance(value.get("joins"), list):
            data.where[("board", "joins")] = located.key_position(["board", "joins"])
        data.board = BoardSpec(value["space_kind"], value["tile_kind"],
                               {k: (v[0], v[1]) for k, v in value["directions"].items()},
                               list(value["edges"]), joins, set(value.get("doorways") or []), layouts)
        data.where[("board",)] = located.key_position(["board"])
    elif section == "tables":
        data.tables = value
        for name in value:
            data.where[("table", name)] = located.key_position(["tables", name])
    elif section == "dice":
        data.dice = value
        for name in value:
            data.where[("die", name)] = located.key_position(["dice", name])
    elif section == "parameters":
        data.parameters = value
        for name in value:
            data.where[("parameter", name)] = located.key_position(["parameters", name])
            data.where[("parameter", name, "value")] = located.position(["parameters", name, "value"])
    elif section == "variables":
        for scope, entries in value.items():
            data.variables[scope] = {n: _prop(n, r) for n, r in (entries or {}).items()}
            for n, r in (entries or {}).items():
                data.where[("variable", scope, n)] = located.key_position(["variables", scope, n])
                path = ["variables", scope, n] + (["type"] if isinstance(r, dict) else [])
                data.where[("variable", scope, n, "type")] = _type_position(located, path, data.variables[scope][n].type)
                if isinstance(r, dict) and "drawn" in r:
                    data.where[("variable", scope, n, "drawn")] = located.key_position(["variables", scope, n, "drawn"])
    elif section == "rulings":
        data.rulings = value
        for i, r in enumerate(value):
            data.where[("ruling", i)] = located.position(["rulings", i])
            for j, _ in enumerate(r.get("definitions") or [] if isinstance(r, dict) else []):
                data.where[("ruling", i, "definitions", j)] = located.position(["rulings", i, "definitions", j])
    elif section == "manifest":
        data.manifest = value
        for name in value:
            data.where[("manifest", name)] = located.key_position(["manifest", name])


def _check_resource(kind: KindSpec, p: PropertySpec, pos: Position | None, bag: DiagnosticBag,
                    parameters: dict | None = None) -> None:
    if p.type != T.NUMBER:
        bag.error(f"resource '{kind.name}.{p.name}' must be a number, not {T.phrase(p.type)}", pos,
                  f"write {p.name}: {{type: number, resource: true}}, or drop 'resource' if it is no amount")
    top = p.resource.get("max")
    if isinstance(top, str):
        other = kind.properties.get(top)
        parameter = (parameters or {}).get(top) if other is None else None
        if parameter is not None and _number_parameter(parameter):
            return  # the most is the parameter's value (a variant may change it)
        if other is None or other.type != T.NUMBER:
            names = [n for n, q in kind.properties.items() if q.type == T.NUMBER]
            names += [n for n, q in (parameters or {}).items() if _number_parameter(q)]
            bag.error(f"resource '{kind.name}.{p.name}': max names '{top}', which is neither a number property of "
                      f"{kind.name} nor a number parameter", pos,
                      did_you_mean_among(top, names, "number properties and parameters"))


def _number_parameter(spec) -> bool:
    """A parameter holding a whole number (declared ``number``, or holding one)."""
    value = spec.get("value") if isinstance(spec, dict) else None
    declared = str(spec.get("type") or "") if isinstance(spec, dict) else ""
    return declared.removesuffix("?") == T.NUMBER or (isinstance(value, int) and not isinstance(value, bool))


def _value_hint(value, kind: str, prop: str, allowed: list) -> str:
    """A value a property does not list: the close one, or where new values are declared."""
    return did_you_mean_or(str(value), map(str, allowed),
                           f"add it to the values of {kind}.{prop} (in a variant: 'add: values: {kind}.{prop}: [{value}]')")


def rejected_properties(data: RuleSetData) -> set[tuple[str, str | None]]:
    """What :func:`check_data` rejects in the components' properties: (kind, property)
    for a value the property does not list, (kind, None) for a property the kind lacks.
    A count of the components by such a property (the manifest's ``kind.property=value``)
    would only echo that one error."""
    rejected: set[tuple[str, str | None]] = set()
    for c in data.components:
        kind = data.kinds.get(c.kind)
        if kind is None:
            continue
        for p, v in c.properties.items():
            spec = kind.properties.get(p)
            if spec is None:
                rejected.add((c.kind, None))
            elif spec.values is not None and v not in spec.values:
                rejected.add((c.kind, p))
    return rejected


def _check_seats(data: RuleSetData, bag: DiagnosticBag) -> None:
    """``game.seats`` gives each seat's player a property value, as a component's
    properties give it one: the same names, values and types are checked."""
    player = data.kinds.get("player")
    if data.game is None or player is None:
        return
    props = player.properties
    for prop, values in data.game.seats.items():
        at = data.where.get(("game", "seats", prop))
        if prop not in props:
            bag.error(f"game.seats gives players a '{prop}', but kind 'player' has no such property", at,
                      did_you_mean_or(prop, props, "declare it under kinds: player: properties:"))
            continue
        spec = props[prop]
        for i, value in enumerate(values):
            pos = data.where.get(("game", "seats", prop, i), at)
            if spec.values is not None and value not in spec.values:
                bag.error(f"game.seats: seat {i + 1}'s {prop} = {value!r} is not one of {spec.values}", pos,
                          _value_hint(value, "player", prop, spec.values))
            elif spec.type.removesuffix("?") in (T.NUMBER, T.TEXT, T.BOOL) and T.python_value_type(value) != \
                    spec.type.removesuffix("?") and not (value is None and spec.type.endswith("?")):
                bag.error(f"game.seats: seat {i + 1}'s {prop} = {value!r} is not {T.phrase(spec.type)}", pos,
                          f"player.{prop} is declared as {T.phrase(spec.type)}")
        top = data.game.max_players
        if len(values) < top:
            bag.error(f"game.seats gives {len(values)} value(s) of '{prop}' for up to {top} players", at,
                      f"give one for each seat up to {top}; a seat beyond the list would get none")


def check_data(data: RuleSetData, bag: DiagnosticBag) -> None:
    """Cross-references between YAML tables."""
    where = data.where
    if data.game is None and "game" not in data.broken:
        bag.error("the rule set has no 'game' section", None, "add a game.yaml with name, players, setup and round")
    kinds = set(data.kinds)
    # 'player' is a type even where its kind is missing: the missing kind is the one error
    base = T.BASE_TYPES | {"list", "player"}

    def check_type(t: str, pos: Position | None) -> bool:
        known = True
        for n in T.type_names(t):
            if n not in kinds and n not in base:
                bag.error(f"unknown type '{n}'", pos, unknown_type_hint(n, kinds))
                known = False
        return known

    for k in data.kinds.values():
        for p in k.properties.values():
            if not check_type(p.type, where.get(("property", k.name, p.name, "type"))
                              or where.get(("property", k.name, p.name))):
                p.type = T.ANY  # reported once here, not again at every rule that reads it
            elif p.resource is not None:  # (nor as a resource that is not a number)
                _check_resource(k, p, where.get(("property", k.name, p.name)), bag, data.parameters)
            if p.visible_to == "others" and k.name != "player" and not k.owner_property:
                bag.error(f"'{k.name}.{p.name}' is visible_to others, but kind '{k.name}' names no owner: "
                          f"everyone would see it", where.get(("property", k.name, p.name)),
                          f"others means every player but the owner: give '{k.name}' an owner "
                          f"(owner: PROPERTY, a player property the rules set to who holds it)")
        if k.located_in and k.located_in not in kinds and k.located_in != T.ZONE:
            bag.error(f"kind '{k.name}': located_in names unknown kind '{k.located_in}'", where.get(("kind", k.name)),
                      did_you_mean_among(k.located_in, kinds, "kinds"))
        if k.owner_property and k.owner_property not in k.properties:
            bag.error(f"kind '{k.name}': owner names unknown property '{k.owner_property}'", where.get(("kind", k.name)),
                      did_you_mean(k.owner_property, k.properties)
                      or f"name the property of '{k.name}' that holds the player who owns it")
    if "player" not in kinds:
        near = difflib.get_close_matches("player", sorted(kinds), n=1, cutoff=0.6)
        bag.error("the rule set declares no 'player' kind", where.get(("section", "kinds")),
                  f"is '{near[0]}' meant to be it? Rename it 'player'" if near else
                  "players are entities too: declare kind 'player' with their properties")
    for scope_name, scope in data.variables.items():
        for p in scope.values():
            if not check_type(p.type, where.get(("variable", scope_name, p.name, "type"))
                              or where.get(("variable", scope_name, p.name))):
                p.type = T.ANY
            if p.visible_to in ("owner", "others"):
                bag.error(f"variable '{scope_name}.{p.name}' is visible_to {p.visible_to}, but a variable has no owner",
                          where.get(("variable", scope_name, p.name)),
                          "a variable is seen by everyone or nobody; a value one player keeps is a property of "
                          "that player (kinds: player: properties:)")
    for z in data.zones.values():
        if z.per_entity and z.per not in kinds:
            bag.error(f"zone '{z.name}' is per unknown kind '{z.per}'", where.get(("zone", z.name)),
                      did_you_mean_among(z.per, kinds, "kinds"))
        if z.holds and z.holds not in kinds:
            bag.error(f"zone '{z.name}' holds unknown kind '{z.holds}'", where.get(("zone", z.name)),
                      did_you_mean_among(z.holds, kinds, "kinds"))
    _check_seats(data, bag)
    seen = {}
    # the components one line makes with ``each`` share its places: a slip there is told once
    told: set[tuple[str, Position | None]] = set()

    def error_once(message: str, pos: Position | None, hint: str | None) -> None:
        key = (re.sub(r"^(tile )?component '[^']*'", "component", message), pos)
        if pos is None or key not in told:
            told.add(key)
            bag.error(message, pos, hint)

    for c in data.components:
        if c.name in seen:
            error_once(f"component '{c.name}' is declared twice", where.get(("component", c.name)),
                       "give one of them another name, or give the first a count")
        seen[c.name] = c
        # a single, shared component is a constant in rules: its name must be unambiguous
        for other, what in ((kinds, "kind"), (set(data.zones), "zone")):
            if c.count == 1 and not c.per_player and c.name in other:
                error_once(f"component '{c.name}' has the same name as a {what}", where.get(("component", c.name)),
                           f"rules could not tell them apart; rename the component, e.g. '{c.name}_piece'")
        if c.kind not in kinds:
            error_once(f"component '{c.name}' has unknown kind '{c.kind}'", where.get(("component", c.name, "kind")),
                       did_you_mean_among(c.kind, kinds, "kinds"))
            continue
        props = data.kinds[c.kind].properties
        for p, v in c.properties.items():
            if p not in props:
                error_once(f"component '{c.name}': kind '{c.kind}' has no property '{p}'",
                           (where.get(("component", c.name, "property", p, "name")) if c.written_here(p) else None)
                           or where.get(("component", c.name)), did_you_mean_among(p, props, "properties"))
            elif props[p].values is not None and v not in props[p].values:
                error_once(f"component '{c.name}': {p} = {v!r} is not one of {props[p].values}",
                           (where.get(("component", c.name, "property", p)) if c.written_here(p) else None)
                           or where.get(("component", c.name)), _value_hint(v, c.kind, p, props[p].values))
        if c.zone is not None and c.zone not in data.zones:
            error_once(f"component '{c.name}' starts in unknown zone '{c.zone}'", where.get(("component", c.name, "zone")),
                       did_you_mean_among(c.zone, data.zones, "zones"))
        elif c.zone and data.zones[c.zone].per_player and not c.per_player:
            error_once(f"component '{c.name}' starts in per-player zone '{c.zone}' but is not per_player",
                       where.get(("component", c.name, "zone")),
                       "add per_player: true (each player gets its own), or start it in a zone of the table")
        elif c.zone and data.zones[c.zone].per_entity:
            error_once(f"component '{c.name}' cannot start in '{c.zone}', a zone of each {data.zones[c.zone].per}",
                       where.get(("component", c.name, "zone")), "move it there in setup")
        if data.board and c.kind == data.board.tile_kind:
            if not c.layout:
                error_once(f"tile component '{c.name}' has no layout", where.get(("component", c.name)),
                           "add layout: NAME, naming one of the board's layouts"
                           + (f" ({', '.join(sorted(data.board.layouts))})" if data.board.layouts else ""))
            elif c.layout not in data.board.layouts:
                error_once(f"component '{c.name}' has unknown layout '{c.layout}'", where.get(("component", c.name, "layout")),
                           did_you_mean_among(c.layout, data.board.layouts, "layouts"))
    board = data.board
    from . import board_shapes  # it builds this module's specs
    board_shapes.check_component_spaces(data, bag)
    if board and board.kind != "tiles":
        board_shapes.complete_space_kind(data)
        board_shapes.check_declared_board(data, bag)
    elif board:
        for k in (board.space_kind, board.tile_kind):
            if k not in kinds:
                bag.error(f"board names unknown kind '{k}'", where.get(("board",)), did_you_mean_among(k, kinds, "kinds"))
        edges = set(board.edges)
        for (a, b) in board.joins:
            for e in (a, b):
                if e not in edges:
                    bag.error(f"board join names unknown edge '{e}'", where.get(("board",)),
                              did_you_mean_among(e, edges, "edges"))
        # each pair of edges once, in the order the edges are listed (a join goes both ways)
        for i, a in enumerate(board.edges):
            for b in board.edges[i:]:
                if (a, b) not in board.joins:
                    bag.error(f"board joins do not say what edges '{a}' and '{b}' make together",
                              where.get(("board", "joins")) or where.get(("board",)),
                              f"add a join for every pair of edge kinds: {{edges: [{a}, {b}], connection: ...}}, "
                              f"or forbidden: true")
        connections = {c for c in board.joins.values() if c}
        # any side may come to face any other, so all are cut into the same stretches
        stretches: dict[int, tuple[str, str]] = {}
        for layout in board.layouts.values():
            for d, side in layout.sides.items():
                stretches.setdefault(len(side.parts), (layout.name, d))
        if len(stretches) > 1:
            (n1, (l1, d1)), (n2, (l2, d2)) = sorted(stretches.items())[:2]
            bag.error(f"layout '{l2}': its {d2} side has {n2} parts, but layout '{l1}''s {d1} side has "
                      f"{_parts_word(n1)}", where.get(("layout", l2, "side", d2)) or where.get(("layout", l2)),
                      "any side may meet any other, so every side of every layout is cut into the same "
                      "number of parts (write a side of one edge as parts: [EDGE, EDGE, ...])")
        for layout in board.layouts.values():
            pos = where.get(("layout", layout.name))
            for d, side in layout.sides.items():
                side_pos = where.get(("layout", layout.name, "side", d)) or pos
                if d not in board.directions:
                    bag.error(f"layout '{layout.name}': unknown direction '{d}'", side_pos,
                              did_you_mean_among(d, board.directions, "directions"))
                for i, part in enumerate(side.parts):
                    part_pos = where.get(("layout", layout.name, "side", d, i)) or side_pos
                    if part.edge not in edges:
                        bag.error(f"layout '{layout.name}': unknown edge '{part.edge}'", part_pos,
                                  did_you_mean_among(part.edge, edges, "edges"))
                    for r in part.rooms:
                        if r not in layout.rooms:
                            bag.error(f"layout '{layout.name}': side {d} names unknown room '{r}'", part_pos,
                                      did_you_mean_among(r, layout.rooms, "rooms"))
            missing = [d for d in board.directions if d not in layout.sides]
            if missing:
                bag.error(f"layout '{layout.name}' does not give its {', '.join(missing)} side", pos,
                          "a layout gives one side for each of the board's directions")
            for n, link in enumerate(layout.links):
                link_pos = where.get(("layout", layout.name, "link", n)) or pos
                for r in (link["from"], link["to"]):
                    if r not in layout.rooms:
                        bag.error(f"layout '{layout.name}': link names unknown room '{r}'", link_pos,
                                  did_you_mean_among(r, layout.rooms, "rooms"))
                if link["direction"] not in board.directions:
                    bag.error(f"layout '{layout.name}': link has unknown direction '{link['direction']}'", link_pos,
                              did_you_mean(link["direction"], board.directions)
                              or "the board's directions: " + ", ".join(board.directions))
                if link["connection"] not in connections | {"none"}:
                    bag.error(f"layout '{layout.name}': link has unknown connection '{link['connection']}'", link_pos,
                              did_you_mean(link["connection"], connections)
                              or "a link's connection is one the joins make (" + ", ".join(sorted(connections))
                              + ") or none (touching, no way through); a kind of its own needs a join that makes it")
            space_props = data.kinds.get(board.space_kind).properties if board.space_kind in kinds else {}
            for room, props in layout.rooms.items():
                for p, v in (props or {}).items():
                    if p not in space_props:
                        bag.error(f"layout '{layout.name}': room '{room}' sets unknown property '{p}'",
                                  where.get(("layout", layout.name, "room", room)) or pos,
                                  did_you_mean_among(p, space_props, "properties"))
                    elif space_props[p].values is not None and v not in space_props[p].values:
                        bag.error(f"layout '{layout.name}': room '{room}' {p} = {v!r} is not one of {space_props[p].values}",
                                  pos, _value_hint(v, board.space_kind, p, space_props[p].values))
    for name, faces in data.dice.items():
        if len(set(map(str, faces))) != len(faces):
            bag.warning(f"die '{name}' has repeated faces", where.get(("die", name)),
                        "a die lists each face once; a result that comes up more often belongs in a table the roll reads")
