"""Implementations of the language's standard library (signatures in dsl/builtins.py).

Each function takes the running machine first. None of them knows any game.
"""

from __future__ import annotations

import itertools
import math

from rulecraft.dsl.limits import MAX_LIST_LENGTH

from . import paths
from .board import Geometry, room_tile
from .faults import needs
from .state import RANDOM_PICKS


def _count(m, items):
    return len(items) if items is not None else 0


def _first(m, items):
    return items[0] if items else None


def _last(m, items):
    return items[-1] if items else None


def _min(m, items):
    return min(items) if items else 0


def _max(m, items):
    return max(items) if items else 0


def _contents(m, zone):
    return list(m.state.zones.get(zone, ())) if zone is not None else []


def _top(m, zone):
    z = m.state.zones.get(zone)
    return z[0] if z else None


def _bottom(m, zone):
    z = m.state.zones.get(zone)
    return z[-1] if z else None


def _can_act(m, player):
    """Whether ``player``, as the player to move now, would be offered an action: the
    listing of a turn, with the player as the current one, the turn's variables and the
    limits as they stand, and obligations kept. A reading of other readings' memo would
    mix two current players, so this one keeps none."""
    if player is None or player not in m.state.entities:
        return False
    s = m.state
    current, memo = s.current, m.memo
    s.current, m.memo = player, None
    try:
        options = m.legal_actions(player)
        if options and m.program.obligations:
            options, _ = m.keep_obligations(player, options)
        return bool(options)
    finally:
        s.current, m.memo = current, memo


def _on_board(m, e):
    if e is None:
        return False
    entity = m.state.entities.get(e)
    if entity is None:
        return False
    at = entity["at"]
    if at is None:
        return False
    board = m._board  # built already, as a rule reading the board usually finds it
    if board is None and isinstance(m.geometry, Geometry):
        # laid tiles whose board is not built yet (a tile was just placed): a space is on
        # the board when its tile is placed, which needs no board built
        tile = room_tile(at)
        return tile in m.state.tiles and at in m.geometry.spaces_of(tile)
    return at in (board if board is not None else m.board()).rooms


def _kind_of(m, e):
    # Zones (a hand, a deck) are not entities: their kind is none.
    entity = m.state.entities.get(e) if isinstance(e, str) else None
    return entity["kind"] if entity is not None else None


def _numbers(m, low, high):
    if not isinstance(low, (int, float)) or isinstance(low, bool):
        raise needs("numbers", "a number to start from", low)
    if not isinstance(high, (int, float)) or isinstance(high, bool):
        raise needs("numbers", "a number to end at", high)
    if high - low >= MAX_LIST_LENGTH:  # checked before the list is made, not after
        raise ValueError(f"numbers({low}, {high}) would hold more than {MAX_LIST_LENGTH:,} numbers")
    return list(range(low, high + 1))


def _combinations(m, items, n):
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise needs("combinations", "a whole number of items to pick, 0 or more", n)
    items = list(items or [])
    if n <= len(items) and math.comb(len(items), n) > MAX_LIST_LENGTH:  # counted before any is made
        raise ValueError(f"combinations of {n} of {len(items)} items would be {math.comb(len(items), n):,} lists, "
                         f"more than {MAX_LIST_LENGTH:,}")
    return [list(c) for c in itertools.combinations(items, n)]


def _seat(m, function: str, p) -> int:
    """Where player ``p`` sits (0 first); a value that is no player of the game is a
    fault in the language's words, not Python's (``None is not in list``)."""
    players = m.state.players
    try:
        return players.index(p)
    except ValueError:
        raise needs(function, "a player" if p is None else "a player of this game", p,
                    None if p is None else players) from None


def _next_player(m, p):
    players = m.state.players
    return players[(_seat(m, "next_player", p) + 1) % len(players)]


def _seats_from(m, p, n):
    players = m.state.players
    i = _seat(m, "seats_from", p)
    if not isinstance(n, (int, float)) or isinstance(n, bool):
        raise needs("seats_from", "a number of seats", n)
    return [players[(i + k) % len(players)] for k in range(max(0, n))]


def _distinct(m, items):
    """Each item once, where it first comes (items may be records, which do not hash)."""
    kept: list = []
    for item in items or []:
        if item not in kept:
            kept.append(item)
    return kept


def _spot(m, x, y, rotation):
    _turns(m, "spot", [rotation])
    return {"x": x, "y": y, "rotation": rotation % 360}


def _turns(m, function: str, rotations) -> None:
    """A tile turns by whole steps from one of the board's directions to the next (a
    quarter turn on a board of four): any other angle would lay its sides between the
    neighbours, and is a fault in the rules' numbers."""
    spec = getattr(m.geometry, "spec", None)
    if spec is None or not spec.directions:
        return
    step = 360 // len(spec.directions)
    for r in rotations or []:
        if isinstance(r, bool) or not isinstance(r, int) or r % step:
            raise needs(function, f"turns by whole steps of {step} degrees (the board has "
                                  f"{len(spec.directions)} directions)", r)


def _tile(m, function: str, tile) -> None:
    """A value given where a tile is due that names no tile of the rule set is a fault in
    the language's words (a board declared whole has no tiles: nothing is laid on it)."""
    layouts = getattr(m.geometry, "tile_layouts", None)
    if layouts is not None and tile not in layouts:
        raise needs(function, "a tile", tile)


def _placements(m, tile, anchor, rotations):
    if tile is None or anchor is None:
        return []
    _tile(m, "placements", tile)
    _turns(m, "placements", rotations)
    return m.board().placements(tile, anchor, rotations)


def _placements_anywhere(m, tile, rotations):
    if tile is None:
        return []
    _tile(m, "placements_anywhere", tile)
    _turns(m, "placements_anywhere", rotations)
    return m.board().placements_anywhere(tile, rotations)


def _rooms_towards(m, room, direction):
    return m.board().towards(room, direction) if room is not None else []


def _tiles_around(m, tile):
    return m.board().tiles_around(tile) if tile is not None else []


def _region(m, a):
    return paths.region(m.board(), a) if a is not None else []


def _region_avoiding(m, a, avoid):
    return paths.region(m.board(), a, avoid) if a is not None else []


def _sides_of(m, room):
    return m.board().sides_of(room) if room is not None else []


def _open_sides(m, room):
    return m.board().open_sides(room) if room is not None else []


def _connection(m, a, b):
    if a is None or b is None:
        return None
    return m.board().connection(a, b)


def _connected(m, room):
    return m.board().connected(room) if room is not None else []


def _adjacent(m, room):
    return m.board().adjacent(room) if room is not None else []


def _tile_of(m, room):
    return room_tile(room) if room is not None and "/" in room else None


def _rooms_of(m, tile):
    if tile is None:
        return []
    rooms_of = getattr(m.geometry, "rooms_of", None)
    if rooms_of is None:  # a board declared whole, or none: no tiles
        raise needs("rooms_of", "a tile of a board of laid tiles", tile)
    _tile(m, "rooms_of", tile)
    return rooms_of(tile)


def _placed(m, tile):
    return tile in m.state.tiles


def _step(m, space, direction):
    board = m._board  # built already, as a rule reading the board usually finds it
    if board is None:
        board = m.board()
    if space is None:
        return None
    step = getattr(board, "step", None)
    return step(space, direction) if step is not None else None


def _line(m, space, direction, n):
    board = m.board()
    return board.line(space, direction, n or 0) if space is not None and hasattr(board, "line") else []


def _lines(m, n):
    board = m.board()
    return board.lines(n or 0) if hasattr(board, "lines") else []


def _direction_for(m, player, name):
    board = m._board
    if board is None:
        board = m.board()
    if player is None:
        return None
    direction_for = getattr(board, "direction_for", None)
    return direction_for(_seat(m, "direction_for", player), name) if direction_for is not None else None


def _link(m, a, b):
    if a is None or b is None:
        return None
    board = m.board()
    return board.connection(a, b) if hasattr(board, "step") else None


def _path(m, a, b):
    return paths.shortest_path(m.board(), a, b) if a is not None and b is not None else []


def _path_avoiding(m, a, b, avoid):
    return paths.shortest_path(m.board(), a, b, avoid) if a is not None and b is not None else []


def _distance(m, a, b):
    return paths.distance(m.board(), a, b) if a is not None and b is not None else None


def _distance_avoiding(m, a, b, avoid):
    return paths.distance(m.board(), a, b, avoid) if a is not None and b is not None else None


def _within(m, a, n):
    return paths.within(m.board(), a, n) if a is not None else []


def _within_avoiding(m, a, n, avoid):
    return paths.within(m.board(), a, n, avoid) if a is not None else []


def _seen(m, name):
    # A bot judging a position gives the machine the events its seat saw, by kind
    # (rulecraft.bots.evaluation); a machine running the rules remembers nothing.
    memory = getattr(m, "memory", None)
    return list(memory.get(name, ())) if memory else []


def _roll(m, die):
    faces = m.ruleset.data.dice[die]
    forced = m.state.forced_rolls.get(die)
    if forced:
        value = forced.pop(0)
    else:
        value = faces[m.draw(len(faces))]
    m.emit("rolled", {"die": die, "value": value}, None)
    return value


def _random(m, items):
    items = list(items or [])
    if not items:
        return None
    forced = m.state.forced_rolls.get(RANDOM_PICKS)
    if forced:
        value = forced.pop(0)
        if value not in items:
            m._fail(f"the pick fixed in advance, {value!r}, is not among the items random() chooses from: "
                    + ", ".join(map(str, items)))
        return value
    return items[m.draw(len(items))]


FUNCTIONS = {
    "count": _count,
    "sum": lambda m, items: sum(items or []),
    "min": _min,
    "max": _max,
    "any": lambda m, items: any(items or []),
    "all": lambda m, items: all(items or []),
    "first": _first,
    "last": _last,
    "reversed": lambda m, items: list(reversed(items or [])),
    "take": lambda m, items, n: list(items or [])[: max(0, n or 0)],
    "without": lambda m, items, x: [i for i in (items or []) if i != x],
    "numbers": _numbers,
    "combinations": _combinations,
    "distinct": _distinct,
    "flatten": lambda m, lists: [x for items in (lists or []) for x in (items or [])],
    "contents": _contents,
    "top": _top,
    "bottom": _bottom,
    "on_board": _on_board,
    "can_act": _can_act,
    "kind_of": _kind_of,
    "next_player": _next_player,
    "seats_from": _seats_from,
    "spot": _spot,
    "placements": _placements,
    "placements_anywhere": _placements_anywhere,
    "rooms_towards": _rooms_towards,
    "sides_of": _sides_of,
    "tiles_around": _tiles_around,
    "region": _region,
    "region_avoiding": _region_avoiding,
    "open_sides": _open_sides,
    "connection": _connection,
    "connected": _connected,
    "adjacent": _adjacent,
    "tile_of": _tile_of,
    "rooms_of": _rooms_of,
    "placed": _placed,
    "step": _step,
    "line": _line,
    "lines": _lines,
    "direction_for": _direction_for,
    "link": _link,
    "path": _path,
    "path_avoiding": _path_avoiding,
    "distance": _distance,
    "distance_avoiding": _distance_avoiding,
    "seen": _seen,
    "within": _within,
    "within_avoiding": _within_avoiding,
    "roll": _roll,
    "random": _random,
}
