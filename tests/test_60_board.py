"""The board: placements, rotation, joins and connection kinds, adjacency versus
connection, and a two-room tile with an internal link.

A tiny tile set on a square grid (y grows southwards):

- ``hub``: a door on every side;
- ``corner``: a door north, walls elsewhere;
- ``solid``: walls all round;
- ``annex``: two rooms, ``top`` north of ``bottom``; a hatch south (bottom room only),
  walls elsewhere; an internal ``narrow`` link from top to bottom;
- ``lookout``: a window north, walls elsewhere.

Doors meet doors (``open``) or hatches (``narrow``); windows meet windows (``view``,
not a doorway); walls meet walls (touching, no way through); all else is forbidden.
"""

from __future__ import annotations

import pytest
from engine_rulesets import build, emitted, events_of, game_yaml

from rulecraft.interpreter.game import Game

DATA = """
kinds:
  player: {}
  tile:
    located_in: zone
  room:
    located_in: zone
    properties:
      label: {type: text, default: plain}
  pawn:
    located_in: room
zones:
  box: {ordered: false}
components:
  - {name: hub, kind: tile, layout: hub, zone: box}
  - {name: hub_b, kind: tile, layout: hub, zone: box}
  - {name: corner_a, kind: tile, layout: corner, zone: box}
  - {name: corner_b, kind: tile, layout: corner, zone: box}
  - {name: solid, kind: tile, layout: solid, zone: box}
  - {name: annex, kind: tile, layout: annex, zone: box}
  - {name: annex_b, kind: tile, layout: annex, zone: box}
  - {name: lookout_a, kind: tile, layout: lookout, zone: box}
  - {name: lookout_b, kind: tile, layout: lookout, zone: box}
  - {name: meeple, kind: pawn}
"""

BOARD = """
board:
  space_kind: room
  tile_kind: tile
  directions:
    north: [0, -1]
    east: [1, 0]
    south: [0, 1]
    west: [-1, 0]
  edges: [door, hatch, window, wall]
  joins:
    - {edges: [door, door], connection: open}
    - {edges: [door, hatch], connection: narrow}
    - {edges: [hatch, hatch], forbidden: true}
    - {edges: [window, window], connection: view}
    - {edges: [window, door], forbidden: true}
    - {edges: [window, hatch], forbidden: true}
    - {edges: [window, wall], connection: none}
    - {edges: [door, wall], forbidden: true}
    - {edges: [hatch, wall], forbidden: true}
    - {edges: [wall, wall], connection: none}
  doorways: [open, narrow]
  layouts:
    hub:
      sides: {north: door, east: door, south: door, west: door}
    corner:
      sides: {north: door, east: wall, south: wall, west: wall}
    solid:
      sides: {north: wall, east: wall, south: wall, west: wall}
    lookout:
      sides: {north: window, east: wall, south: wall, west: wall}
    annex:
      rooms: {top: {label: top}, bottom: {label: bottom}}
      sides:
        north: {edge: wall, rooms: [top]}
        east: {edge: wall, rooms: [top, bottom]}
        south: {edge: hatch, rooms: [bottom]}
        west: {edge: wall, rooms: [top, bottom]}
      links: [{from: top, to: bottom, direction: south, connection: narrow}]
"""

HELPERS = """
procedure round():
    do:
        stop

function main(t: tile) -> room:
    = first(rooms_of(t))

function upper() -> room:
    = first(rooms_of(annex))

function lower() -> room:
    = last(rooms_of(annex))

function every_turn() -> list of number:
    = [0, 90, 180, 270]
"""


def board_game(tmp_path, setup_body: str) -> Game:
    body = "\n".join("        " + line for line in setup_body.strip("\n").splitlines())
    rules = "procedure setup():\n    do:\n" + body + "\n" + HELPERS
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(1, 2), round_limit=1) + DATA,
                          "board.yaml": BOARD, "main.rules": rules})
    return Game(rs, 1, 1)


def ask(tmp_path, setup_body: str) -> dict:
    return emitted(board_game(tmp_path, setup_body))


def spot(x, y, rotation):
    return {"x": x, "y": y, "rotation": rotation}


# ---------------------------------------------------------------- tiles and spaces


def test_each_room_of_a_tile_is_a_space_entity(tmp_path):
    game = board_game(tmp_path, "stop")
    ents = game.state.entities
    assert ents["hub/main"]["kind"] == "room"
    assert ents["annex/top"]["props"] == {"label": "top"}
    assert ents["annex/bottom"]["props"] == {"label": "bottom"}
    assert ents["hub/main"]["props"] == {"label": "plain"}


def test_place_puts_a_tile_on_the_grid(tmp_path):
    game = board_game(tmp_path, """
emit q(name: "before", value: placed(hub))
place(hub, spot(2, -1, 450))
emit q(name: "after", value: placed(hub))
emit q(name: "other", value: placed(solid))
emit q(name: "rooms", value: rooms_of(annex))
emit q(name: "tile", value: tile_of(lower()))
""")
    q = emitted(game)
    assert (q["before"], q["after"], q["other"]) == (False, True, False)
    assert q["rooms"] == ["annex/top", "annex/bottom"]
    assert q["tile"] == "annex"
    assert game.state.tiles == {"hub": [2, -1, 90]}, "rotation is taken modulo 360"
    assert "hub" not in game.state.zones["box"]
    placed = events_of(game, "placed")
    assert [(e["tile"], e["x"], e["y"], e["rotation"]) for e in placed] == [("hub", 2, -1, 90)]


def test_pieces_stand_in_spaces(tmp_path):
    q = ask(tmp_path, """
place(hub, spot(0, 0, 0))
emit q(name: "before", value: on_board(meeple))
move meeple to main(hub)
emit q(name: "after", value: on_board(meeple))
emit q(name: "at", value: meeple.at)
emit q(name: "tile", value: tile_of(meeple.at))
emit q(name: "in room", value: contents(main(hub)))
""")
    assert q == {"before": False, "after": True, "at": "hub/main", "tile": "hub", "in room": ["meeple"]}


# ---------------------------------------------------------------- placements


def test_placements_lists_each_side_and_rotation_that_brings_a_door_to_the_anchor(tmp_path):
    q = ask(tmp_path, """
place(hub, spot(0, 0, 0))
emit q(name: "all", value: placements(corner_a, main(hub), every_turn()))
emit q(name: "upright", value: placements(corner_a, main(hub), [0, 180]))
""")
    # the corner's only door is printed north; it must face the hub
    assert q["all"] == [spot(0, -1, 180), spot(1, 0, 270), spot(0, 1, 0), spot(-1, 0, 90)]
    assert q["upright"] == [spot(0, -1, 180), spot(0, 1, 0)]


def test_placements_accept_every_doorway_connection(tmp_path):
    q = ask(tmp_path, """
place(hub, spot(0, 0, 0))
emit q(name: "annex", value: placements(annex, main(hub), every_turn()))
""")
    # the annex's hatch (printed south) must face the hub's door: a narrow way through
    assert q["annex"] == [spot(0, -1, 0), spot(1, 0, 90), spot(0, 1, 180), spot(-1, 0, 270)]


def test_placements_require_a_doorway_join_to_the_anchor(tmp_path):
    q = ask(tmp_path, """
place(corner_a, spot(0, 0, 0))
emit q(name: "solid", value: placements(solid, main(corner_a), every_turn()))
emit q(name: "hub", value: placements(hub, main(corner_a), [0]))
emit q(name: "anywhere", value: placements_anywhere(solid, every_turn()))
""")
    # the solid tile may touch the corner's walls (wall meets wall) but never through a doorway
    assert q["solid"] == []
    assert q["anywhere"] == []
    assert q["hub"] == [spot(0, -1, 0)]


def test_placements_respect_forbidden_joins_with_every_neighbour(tmp_path):
    q = ask(tmp_path, """
place(hub, spot(0, 0, 0))
place(solid, spot(0, -2, 0))
emit q(name: "hub_b", value: placements(hub_b, main(hub), [0]))
""")
    # north of the hub, hub_b's north door would run into the solid tile's south wall
    assert q["hub_b"] == [spot(1, 0, 0), spot(0, 1, 0), spot(-1, 0, 0)]


def test_two_hatches_may_not_meet(tmp_path):
    q = ask(tmp_path, """
place(annex, spot(0, 0, 0))
emit q(name: "annex_b", value: placements(annex_b, lower(), every_turn()))
emit q(name: "from top", value: placements(hub, upper(), every_turn()))
emit q(name: "hub", value: placements(hub, lower(), [0]))
""")
    assert q["annex_b"] == []
    assert q["from top"] == [], "the top room has no doorway out"
    assert q["hub"] == [spot(0, 1, 0)]


def test_no_placements_for_a_placed_tile_or_an_occupied_cell(tmp_path):
    q = ask(tmp_path, """
place(hub, spot(0, 0, 0))
place(hub_b, spot(0, 1, 0))
emit q(name: "placed", value: placements(hub, main(hub_b), [0]))
emit q(name: "corner", value: placements(corner_a, main(hub), [0]))
""")
    assert q["placed"] == []
    assert q["corner"] == [], "the only upright spot with the door facing the hub is taken"


def test_placements_anywhere_tries_every_placed_space(tmp_path):
    q = ask(tmp_path, """
place(hub, spot(0, 0, 0))
place(hub_b, spot(1, 0, 0))
emit q(name: "corner", value: placements_anywhere(corner_a, [0]))
""")
    assert q["corner"] == [spot(0, 1, 0), spot(1, 1, 0)]


# ---------------------------------------------------------------- rotation


def test_rotation_180_swaps_north_and_south(tmp_path):
    q = ask(tmp_path, """
place(hub, spot(0, 0, 0))
place(annex, spot(0, 1, 180))
emit q(name: "link", value: connection(main(hub), lower()))
emit q(name: "top north", value: rooms_towards(upper(), "north"))
emit q(name: "top south", value: rooms_towards(upper(), "south"))
emit q(name: "bottom north", value: rooms_towards(lower(), "north"))
emit q(name: "bottom south", value: rooms_towards(lower(), "south"))
emit q(name: "hub south", value: rooms_towards(main(hub), "south"))
""")
    # turned half a turn, the hatch (printed south) faces north, and the top room lies south
    assert q["link"] == "narrow"
    assert q["top north"] == ["annex/bottom"]
    assert q["top south"] == []
    assert q["bottom north"] == ["hub/main"]
    assert q["bottom south"] == ["annex/top"]
    assert q["hub south"] == ["annex/bottom"]


def test_unrotated_tile_keeps_its_printed_sides(tmp_path):
    q = ask(tmp_path, """
place(hub, spot(0, 0, 0))
place(annex, spot(0, -1, 0))
emit q(name: "link", value: connection(main(hub), lower()))
emit q(name: "top south", value: rooms_towards(upper(), "south"))
emit q(name: "bottom south", value: rooms_towards(lower(), "south"))
emit q(name: "hub north", value: rooms_towards(main(hub), "north"))
""")
    assert q["link"] == "narrow"
    assert q["top south"] == ["annex/bottom"]
    assert q["bottom south"] == ["hub/main"]
    assert q["hub north"] == ["annex/bottom"]


def test_quarter_turn_moves_the_door(tmp_path):
    q = ask(tmp_path, """
place(hub, spot(0, 0, 0))
place(corner_a, spot(1, 0, 270))
place(corner_b, spot(-1, 0, 90))
emit q(name: "east", value: connection(main(hub), main(corner_a)))
emit q(name: "west", value: connection(main(hub), main(corner_b)))
""")
    assert q == {"east": "open", "west": "open"}


# ---------------------------------------------------------------- joins and neighbours

STATION = """
place(hub, spot(0, 0, 0))
place(corner_a, spot(1, 0, 270))
place(corner_b, spot(2, 0, 0))
place(annex, spot(0, -1, 0))
"""
# corner_a's door faces west into the hub; corner_a and corner_b touch wall to wall;
# the annex's hatch faces the hub's north door.


def test_connection_kinds(tmp_path):
    q = ask(tmp_path, STATION + """
emit q(name: "door-door", value: connection(main(hub), main(corner_a)))
emit q(name: "reverse", value: connection(main(corner_a), main(hub)))
emit q(name: "door-hatch", value: connection(main(hub), lower()))
emit q(name: "wall-wall", value: connection(main(corner_a), main(corner_b)))
emit q(name: "apart", value: connection(main(hub), main(corner_b)))
emit q(name: "internal", value: connection(upper(), lower()))
""")
    assert q == {"door-door": "open", "reverse": "open", "door-hatch": "narrow",
                 "wall-wall": None, "apart": None, "internal": "narrow"}


def test_rooms_towards_ignores_doors(tmp_path):
    q = ask(tmp_path, STATION + """
emit q(name: "a east", value: rooms_towards(main(corner_a), "east"))
emit q(name: "b west", value: rooms_towards(main(corner_b), "west"))
emit q(name: "a west", value: rooms_towards(main(corner_a), "west"))
emit q(name: "hub east", value: rooms_towards(main(hub), "east"))
emit q(name: "nothing", value: rooms_towards(main(hub), "south"))
""")
    assert q["a east"] == ["corner_b/main"]
    assert q["b west"] == ["corner_a/main"]
    assert q["a west"] == ["hub/main"]
    assert q["hub east"] == ["corner_a/main"]
    assert q["nothing"] == []


def test_a_wall_touch_is_adjacent_but_not_connected(tmp_path):
    q = ask(tmp_path, STATION + """
emit q(name: "adjacent a", value: adjacent(main(corner_a)))
emit q(name: "connected a", value: connected(main(corner_a)))
emit q(name: "adjacent b", value: adjacent(main(corner_b)))
emit q(name: "connected b", value: connected(main(corner_b)))
emit q(name: "connected hub", value: connected(main(hub)))
""")
    assert sorted(q["adjacent a"]) == ["corner_b/main", "hub/main"]
    assert q["connected a"] == ["hub/main"]
    assert q["adjacent b"] == ["corner_a/main"]
    assert q["connected b"] == []
    assert sorted(q["connected hub"]) == ["annex/bottom", "corner_a/main"]


def test_a_connection_that_is_not_a_doorway_is_adjacent_only(tmp_path):
    q = ask(tmp_path, """
place(lookout_a, spot(0, 0, 0))
place(lookout_b, spot(0, -1, 180))
emit q(name: "kind", value: connection(main(lookout_a), main(lookout_b)))
emit q(name: "adjacent", value: adjacent(main(lookout_a)))
emit q(name: "connected", value: connected(main(lookout_a)))
""")
    assert q == {"kind": "view", "adjacent": ["lookout_b/main"], "connected": []}


def test_unplaced_spaces_have_no_neighbours(tmp_path):
    q = ask(tmp_path, """
place(hub, spot(0, 0, 0))
emit q(name: "adjacent", value: adjacent(main(solid)))
emit q(name: "connected", value: connected(main(solid)))
emit q(name: "towards", value: rooms_towards(main(solid), "north"))
emit q(name: "lonely hub", value: adjacent(main(hub)))
""")
    assert q == {"adjacent": [], "connected": [], "towards": [], "lonely hub": []}


# ---------------------------------------------------------------- a two-room tile


def test_two_room_tile_internal_link(tmp_path):
    q = ask(tmp_path, STATION + """
emit q(name: "top adjacent", value: adjacent(upper()))
emit q(name: "top connected", value: connected(upper()))
emit q(name: "bottom connected", value: connected(lower()))
emit q(name: "top south", value: rooms_towards(upper(), "south"))
emit q(name: "bottom north", value: rooms_towards(lower(), "north"))
emit q(name: "same tile", value: tile_of(upper()) == tile_of(lower()))
""")
    assert q["top adjacent"] == ["annex/bottom"]
    assert q["top connected"] == ["annex/bottom"]
    assert sorted(q["bottom connected"]) == ["annex/top", "hub/main"]
    assert q["top south"] == ["annex/bottom"]
    assert q["bottom north"] == ["annex/top"]
    assert q["same tile"] is True


def test_a_side_shared_by_two_rooms_touches_both(tmp_path):
    q = ask(tmp_path, """
place(annex, spot(0, 0, 0))
place(solid, spot(1, 0, 0))
emit q(name: "solid west", value: rooms_towards(main(solid), "west"))
emit q(name: "solid adjacent", value: adjacent(main(solid)))
emit q(name: "solid connected", value: connected(main(solid)))
emit q(name: "top east", value: rooms_towards(upper(), "east"))
emit q(name: "bottom east", value: rooms_towards(lower(), "east"))
""")
    assert q["solid west"] == ["annex/top", "annex/bottom"]
    assert sorted(q["solid adjacent"]) == ["annex/bottom", "annex/top"]
    assert q["solid connected"] == []
    assert q["top east"] == ["solid/main"]
    assert q["bottom east"] == ["solid/main"]


@pytest.mark.parametrize("rotation, toward_bottom", [(0, "south"), (90, "west"), (180, "north"), (270, "east")])
def test_internal_link_turns_with_the_tile(tmp_path, rotation, toward_bottom):
    q = ask(tmp_path, f"""
place(annex, spot(0, 0, {rotation}))
emit q(name: "towards", value: rooms_towards(upper(), "{toward_bottom}"))
emit q(name: "connected", value: connected(upper()))
""")
    assert q == {"towards": ["annex/bottom"], "connected": ["annex/bottom"]}


# ---------------------------------------------------------------- placing a tile again


def test_placing_a_placed_tile_again_updates_the_board(tmp_path):
    q = ask(tmp_path, """
place(hub, spot(0, 0, 0))
place(corner_a, spot(0, 1, 0))
emit q(name: "before", value: connection(main(hub), main(corner_a)))
place(corner_a, spot(0, 1, 180))
emit q(name: "turned", value: connection(main(hub), main(corner_a)))
place(corner_a, spot(5, 5, 0))
emit q(name: "moved away", value: adjacent(main(hub)))
""")
    assert q["before"] == "open"
    assert q["turned"] is None, "turned half a turn, the corner shows the hub a wall"
    assert q["moved away"] == []


def test_a_fresh_machine_sees_a_re_placed_tile_where_it_is(tmp_path):
    from rulecraft.interpreter.library import FUNCTIONS
    from rulecraft.interpreter.machine import Machine

    game = board_game(tmp_path, """
place(hub, spot(0, 0, 0))
place(corner_a, spot(0, 1, 0))
place(corner_a, spot(0, 1, 180))
""")
    assert game.state.tiles["corner_a"] == [0, 1, 180]
    fresh = Machine(game.ruleset, game.state)
    assert FUNCTIONS["connection"](fresh, "hub/main", "corner_a/main") is None
    assert FUNCTIONS["adjacent"](fresh, "hub/main") == ["corner_a/main"]
