"""Boards declared whole in a rule set's YAML: a graph of spaces and connections, a
square or hex grid, or a ring of sectors by ranges.

A grid and a ring are ways of writing a graph: each is turned here, at load, into the
same explicit list of spaces (with their coordinates as properties) and one-way
connections (with their direction), so the interpreter knows a single kind of
declared board. Tiles laid during play are the other kind (interpreter/board.py).
"""

from __future__ import annotations

from string import ascii_lowercase

from . import types as T
from .diagnostics import DiagnosticBag, did_you_mean, did_you_mean_among
from .model import BoardSpec, ConnectionSpec, PropertySpec, RuleSetData
from .yaml_data import Located

# y grows northwards: row 1 (y = 0) is the south edge, column a (x = 0) the west edge.
COMPASS = {
    "north": (0, 1), "north_east": (1, 1), "east": (1, 0), "south_east": (1, -1),
    "south": (0, -1), "south_west": (-1, -1), "west": (-1, 0), "north_west": (-1, 1),
}

# Hexagons in rows, each row half a cell to the left of the row below (a rhombus drawn
# with row 1 at the bottom): six neighbours, no straight north or south.
HEXES = {
    "north_east": (1, 1), "east": (1, 0), "south_east": (0, -1),
    "south_west": (-1, -1), "west": (-1, 0), "north_west": (0, 1),
}

# The properties each shape gives its spaces (a space kind need not declare them).
COORDINATES = {"grid": ("x", "y"), "hex": ("x", "y"), "ring": ("sector", "range"), "graph": ()}


def grid_name(x: int, y: int) -> str:
    """Column letter and row number, from a1 in the south-west corner."""
    return f"{ascii_lowercase[x]}{y + 1}"


def declared_board(value: dict, located: Located, where: dict) -> BoardSpec:
    kind = value["kind"]
    spec = BoardSpec(value["space_kind"], None, {}, [], {}, set(), {}, kind=kind,
                     connection_kind=value.get("connection_kind"),
                     seat_directions={k: list(v) for k, v in (value.get("seat_directions") or {}).items()})
    where[("board",)] = located.key_position(["board"])
    base = dict(value.get("properties") or {})
    if kind in ("grid", "hex"):
        _grid(spec, value, base, COMPASS if kind == "grid" else HEXES)
    elif kind == "ring":
        _ring(spec, value, base)
    else:
        _graph(spec, value, base, located, where)
    return spec


def _grid(spec: BoardSpec, value: dict, base: dict, default_steps: dict) -> None:
    columns, rows = value["columns"], value["rows"]
    steps = {d: (v[0], v[1]) for d, v in (value.get("directions") or default_steps).items()}
    spec.directions = steps
    spec.opposites = {d: next((o for o, w in steps.items() if w == (-v[0], -v[1])), None) for d, v in steps.items()}
    for y in range(rows):
        for x in range(columns):
            spec.spaces[grid_name(x, y)] = dict(base, x=x, y=y)
    for y in range(rows):
        for x in range(columns):
            for d, (dx, dy) in steps.items():
                if 0 <= x + dx < columns and 0 <= y + dy < rows:
                    spec.connections.append(ConnectionSpec(grid_name(x, y), grid_name(x + dx, y + dy), d))
    name_connections(spec)


RING_DIRECTIONS = {"clockwise": "anticlockwise", "anticlockwise": "clockwise", "outward": "inward", "inward": "outward"}


def ring_name(range_name: str, sector: int) -> str:
    return f"{range_name}_{sector}"


def _ring(spec: BoardSpec, value: dict, base: dict) -> None:
    sectors, ranges = value["sectors"], list(value["ranges"])
    spec.directions = {d: (0, 0) for d in RING_DIRECTIONS}
    spec.opposites = dict(RING_DIRECTIONS)
    for r, range_name in enumerate(ranges, start=1):
        for s in range(1, sectors + 1):
            spec.spaces[ring_name(range_name, s)] = dict(base, sector=s, range=r)
    for r, range_name in enumerate(ranges):
        for s in range(1, sectors + 1):
            here = ring_name(range_name, s)
            # sector N's clockwise neighbour is sector 1: the ring wraps around
            spec.connections.append(ConnectionSpec(here, ring_name(range_name, s % sectors + 1), "clockwise"))
            spec.connections.append(ConnectionSpec(here, ring_name(range_name, (s - 2) % sectors + 1), "anticlockwise"))
            if r + 1 < len(ranges):
                spec.connections.append(ConnectionSpec(here, ring_name(ranges[r + 1], s), "outward"))
            if r > 0:
                spec.connections.append(ConnectionSpec(here, ring_name(ranges[r - 1], s), "inward"))
    name_connections(spec)


def _graph(spec: BoardSpec, value: dict, base: dict, located: Located, where: dict) -> None:
    spec.space_defaults = base
    for name, props in value["spaces"].items():
        spec.spaces[name] = dict(base, **(props or {}))
        where[("space", name)] = located.key_position(["board", "spaces", name])
    declared = value.get("directions") or {}
    spec.opposites = dict(declared)
    spec.directions = {d: (0, 0) for d in declared}
    spec.directed = value.get("directed", False)
    for i, raw in enumerate(value.get("connections") or []):
        first = len(spec.connections)
        add_graph_connection(spec, raw)
        for n in range(first, len(spec.connections)):  # a two-way connection's both ways, at its line
            where[("connection", n)] = located.position(["board", "connections", i])
            ends = ("from", "to") if n == first else ("to", "from")  # the way back starts at 'to'
            for end, key in zip(("source", "target"), ends):
                where[("connection", n, end)] = located.position(["board", "connections", i, key])
    if spec.connection_kind:
        name_connections(spec)


def add_graph_connection(spec: BoardSpec, raw: dict) -> None:
    """One connection of a graph board as board.yaml (or a variant adding one) writes it:
    both ways unless it is one-way."""
    a, b, d = raw["from"], raw["to"], raw.get("direction")
    name = raw.get("name")
    props = dict(raw.get("properties") or {})
    spec.connections.append(ConnectionSpec(a, b, d, name, props))
    one_way = raw.get("one_way", spec.directed and not raw.get("two_way", False))
    if not one_way:
        spec.connections.append(ConnectionSpec(b, a, spec.opposites.get(d) if d else None, name, props))


def name_connections(spec: BoardSpec) -> None:
    """With a connection kind, every connection is an entity: unnamed ones are named by
    their ends (the two ways of a two-way connection are one entity)."""
    if not spec.connection_kind:
        return
    for c in spec.connections:
        if c.name is None:
            a, b = sorted((c.source, c.target))
            c.name = f"{a}~{b}"


def complete_space_kind(data: RuleSetData) -> None:
    """A grid's or ring's space kind reads its coordinates as number properties
    (s.x, s.sector) without declaring them."""
    board = data.board
    if board is None or board.kind == "tiles" or board.space_kind not in data.kinds:
        return
    props = data.kinds[board.space_kind].properties
    for name in COORDINATES[board.kind]:
        props.setdefault(name, PropertySpec(name, T.NUMBER, 0, text=f"The space's {name} on the board."))


def check_declared_board(data: RuleSetData, bag: DiagnosticBag) -> None:
    board = data.board
    where = data.where
    pos = where.get(("board",))
    kinds = data.kinds
    for k in (board.space_kind, board.connection_kind):
        if k is not None and k not in kinds:
            bag.error(f"board names unknown kind '{k}'", pos, did_you_mean_among(k, kinds, "kinds"))
    space_props = kinds[board.space_kind].properties if board.space_kind in kinds else None
    for name, props in board.spaces.items():
        spot = where.get(("space", name), pos)
        if space_props is not None:
            _check_props(bag, f"space '{name}'", props, space_props, spot)
        for other, what in ((kinds, "kind"), (data.zones, "zone"), ({c.name for c in data.components}, "component")):
            if name in other:
                bag.error(f"board space '{name}' has the same name as a {what}", spot,
                          "rules could not tell them apart; rename one of them")
    conn_props = kinds[board.connection_kind].properties if board.connection_kind in kinds else None
    seen_names: set[str] = set()
    unknown_ends: set[tuple] = set()
    for i, c in enumerate(board.connections):
        spot = where.get(("connection", i), pos)
        for end, which in ((c.source, "source"), (c.target, "target")):
            if end not in board.spaces and (end, spot) not in unknown_ends:  # the other way of it is the same slip
                unknown_ends.add((end, spot))
                bag.error(f"connection names unknown space '{end}'", where.get(("connection", i, which), spot),
                          did_you_mean_among(end, board.spaces, "spaces"))
        if c.direction is not None and board.kind == "graph" and c.direction not in board.directions:
            bag.error(f"connection has undeclared direction '{c.direction}'", spot,
                      did_you_mean(c.direction, board.directions) or "declare it under board: directions:")
        if c.name is not None and board.connection_kind is None:
            bag.error(f"connection '{c.name}' is named but the board has no connection_kind", spot,
                      "add connection_kind: the kind connections are (e.g. door)")
        if c.name is not None and c.name not in seen_names and (c.name in board.spaces or c.name in kinds):
            bag.error(f"connection '{c.name}' has the same name as a space or kind", spot,
                      "rules name a connection by its name: give it one no space or kind has")
        if c.name is not None:
            seen_names.add(c.name)
        if conn_props is not None:
            _check_props(bag, f"connection from '{c.source}' to '{c.target}'", c.properties, conn_props, spot)
    for d, other in board.opposites.items():
        if other is not None and other not in board.directions:
            bag.error(f"direction '{d}' has unknown opposite '{other}'", pos,
                      did_you_mean_among(other, board.directions, "directions"))
    seats = data.game.max_players if data.game else None
    for name, per_seat in board.seat_directions.items():
        for d in per_seat:
            if d not in board.directions:
                bag.error(f"seat direction '{name}' names unknown direction '{d}'", pos,
                          did_you_mean_among(d, board.directions, "directions"))
        if seats is not None and len(per_seat) < seats:
            bag.error(f"seat direction '{name}' gives {len(per_seat)} direction(s) for up to {seats} seats", pos,
                      "give one direction per seat, in seat order")


def _check_props(bag: DiagnosticBag, what: str, props: dict, declared: dict, pos) -> None:
    for p, v in props.items():
        if p not in declared:
            bag.error(f"{what} sets unknown property '{p}'", pos, did_you_mean_among(p, declared, "properties"))
        elif declared[p].values is not None and v not in declared[p].values:
            bag.error(f"{what}: {p} = {v!r} is not one of {declared[p].values}", pos,
                      f"write one of those, or add {v!r} to the values of property '{p}'")


def check_component_spaces(data: RuleSetData, bag: DiagnosticBag) -> None:
    """Components that start on board spaces."""
    board = data.board
    for c in data.components:
        if not c.spaces:
            continue
        pos = data.where.get(("component", c.name, "spaces")) or data.where.get(("component", c.name, "space"))
        if board is None or board.kind == "tiles":
            bag.error(f"component '{c.name}' starts on a space, but the board's spaces are not declared", pos,
                      "only a graph, grid or ring board has spaces known before play")
            continue
        if c.zone is not None:
            bag.error(f"component '{c.name}' starts both in a zone and on a space", pos, "keep one of them")
        if len(c.spaces) != c.count:
            bag.error(f"component '{c.name}' has {c.count} copies but {len(c.spaces)} starting spaces", pos,
                      "give one space per copy")
        for s in c.spaces:
            if s not in board.spaces:
                bag.error(f"component '{c.name}' starts on unknown space '{s}'", pos,
                          did_you_mean_among(s, board.spaces, "spaces"))
