"""Boards declared whole in YAML: a graph (one-way connections, connections with a
state such as a lock), a square grid (coordinates, compass and seat-relative
directions, lines), a ring of sectors by ranges (wrapping around); path functions on
each; spaces as constants; components that start on a space; located errors.
"""

from __future__ import annotations

import textwrap

from engine_rulesets import build, emitted, game_yaml, write_ruleset

from rulecraft.dsl.loader import load_ruleset
from rulecraft.interpreter.game import Game

KINDS = """
kinds:
  player: {}
  room:
    properties:
      lit: {type: bool, default: false}
  door:
    properties:
      locked: {type: bool, default: false}
  pawn: {}
"""

# bridge ⇄ hall ⇄ lab, hall → chute → lab (one way), lab ⇄ vault through a locked door
GRAPH = """
board:
  kind: graph
  space_kind: room
  connection_kind: door
  directions: {fore: aft, aft: fore, down: null}
  spaces:
    bridge: {lit: true}
    hall:
    lab:
    chute:
    vault:
  connections:
    - {from: bridge, to: hall, direction: aft}
    - {from: hall, to: lab, direction: aft}
    - {from: hall, to: chute, direction: down, one_way: true}
    - {from: chute, to: lab, one_way: true}
    - {from: lab, to: vault, name: vault_door, properties: {locked: true}}
"""


def run(tmp_path, board: str, body: str, kinds: str = KINDS, extra: str = "", players: int = 1) -> Game:
    rules = ("procedure setup():\n    do:\n" + textwrap.indent(textwrap.dedent(body).strip("\n"), "        ")
             + "\n\nprocedure round():\n    do:\n        stop\n")
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(1, 2), round_limit=1) + kinds + extra,
                          "board.yaml": board, "main.rules": rules})
    return Game(rs, players, 1)


# ---------------------------------------------------------------- graph


def test_graph_spaces_are_entities_and_constants_with_their_properties(tmp_path):
    game = run(tmp_path, GRAPH, """
        emit q(name: "lit", value: [r for r in room where r.lit])
        emit q(name: "all", value: room)
        emit q(name: "hall", value: hall)
    """)
    q = emitted(game)
    assert q["lit"] == ["bridge"]
    assert q["all"] == ["bridge", "hall", "lab", "chute", "vault"]
    assert q["hall"] == "hall"


def test_one_way_connections_lead_only_forwards(tmp_path):
    q = emitted(run(tmp_path, GRAPH, """
        emit q(name: "from hall", value: adjacent(hall))
        emit q(name: "from chute", value: adjacent(chute))
        emit q(name: "from lab", value: adjacent(lab))
        emit q(name: "back", value: step(lab, "fore"))
        emit q(name: "down", value: step(hall, "down"))
    """))
    assert q["from hall"] == ["bridge", "lab", "chute"]
    assert q["from chute"] == ["lab"], "the chute leads on to the lab, not back up to the hall"
    assert q["from lab"] == ["hall", "vault"]
    assert q["back"] == "hall", "the way back of a two-way connection has the opposite direction"
    assert q["down"] == "chute"


def test_connection_state_is_read_and_changed_by_rules_and_paths_can_avoid_it(tmp_path):
    q = emitted(run(tmp_path, GRAPH, """
        emit q(name: "locked", value: vault_door.locked)
        emit q(name: "link", value: link(vault, lab))
        emit q(name: "open ways", value: distance_avoiding(bridge, vault, [d for d in door where d.locked]))
        set vault_door.locked = false
        emit q(name: "after", value: distance_avoiding(bridge, vault, [d for d in door where d.locked]))
        emit q(name: "path", value: path(bridge, vault))
    """))
    assert q["locked"] is True
    assert q["link"] == "vault_door", "both ways of a two-way connection are one entity"
    assert q["open ways"] is None, "the locked door is the only way into the vault"
    assert q["after"] == 3
    assert q["path"] == ["bridge", "hall", "lab", "vault"]


def test_paths_follow_one_way_connections_and_avoid_spaces(tmp_path):
    q = emitted(run(tmp_path, GRAPH, """
        emit q(name: "down", value: distance(chute, hall))
        emit q(name: "within 1", value: within(hall, 1))
        emit q(name: "within 2", value: within(bridge, 2))
        emit q(name: "avoiding", value: path_avoiding(hall, vault, [lab]))
        emit q(name: "around", value: within_avoiding(bridge, 9, [lab]))
    """))
    assert q["down"] == 2, "chute → lab → hall: the chute does not lead back up"
    assert q["within 1"] == ["bridge", "lab", "chute"]
    assert q["within 2"] == ["hall", "lab", "chute"]
    assert q["avoiding"] == []
    assert q["around"] == ["hall", "chute"]


def test_components_start_on_board_spaces(tmp_path):
    extra = """
components:
  - {name: scout, kind: pawn, space: bridge}
  - {name: guard, kind: pawn, count: 2, spaces: [lab, vault]}
"""
    game = run(tmp_path, GRAPH, """
        emit q(name: "scout", value: scout.at)
        emit q(name: "vault", value: contents(vault))
        emit q(name: "on board", value: on_board(scout))
    """, extra=extra)
    assert emitted(game) == {"scout": "bridge", "vault": ["guard.2"], "on board": True}
    assert game.state.entities["guard.1"]["at"] == "lab"


# ---------------------------------------------------------------- grid

GRID = """
board:
  kind: grid
  space_kind: cell
  columns: 4
  rows: 3
  seat_directions:
    forward: [north, south]
"""

GRID_KINDS = """
kinds:
  player: {}
  cell:
    properties:
      colour: {type: text, default: white}
"""


def test_grid_spaces_have_names_and_coordinates(tmp_path):
    game = run(tmp_path, GRID, """
        emit q(name: "count", value: count(cell))
        emit q(name: "c2", value: [c2.x, c2.y])
        emit q(name: "corner", value: [c.id for c in cell where c.x == 3 and c.y == 2])
    """, kinds=GRID_KINDS)
    q = emitted(game)
    assert q == {"count": 12, "c2": [2, 1], "corner": ["d3"]}
    assert game.state.entities["a1"]["props"] == {"colour": "white", "x": 0, "y": 0}


def test_grid_directions_include_diagonals_and_stop_at_the_edge(tmp_path):
    q = emitted(run(tmp_path, GRID, """
        emit q(name: "ne", value: step(a1, "north_east"))
        emit q(name: "off", value: step(a1, "south"))
        emit q(name: "line", value: line(a1, "east", 9))
        emit q(name: "around", value: adjacent(b2))
        emit q(name: "far", value: distance(a1, d3))
    """, kinds=GRID_KINDS))
    assert q["ne"] == "b2"
    assert q["off"] is None
    assert q["line"] == ["a1", "b1", "c1", "d1"]
    assert sorted(q["around"]) == ["a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"]
    assert q["far"] == 3, "diagonal steps count one"


def test_lines_list_every_straight_line_once(tmp_path):
    q = emitted(run(tmp_path, GRID, """
        emit q(name: "threes", value: lines(3))
        emit q(name: "fours", value: lines(4))
    """, kinds=GRID_KINDS))
    # 4×3: rows give 2 each (6), columns 1 each (4), diagonals 2 per way (4)
    assert len(q["threes"]) == 14
    assert ["a1", "b2", "c3"] in q["threes"] and ["c3", "b2", "a1"] not in q["threes"]
    assert ["a3", "b2", "c1"] in q["threes"] and ["c1", "b2", "a3"] not in q["threes"]
    assert q["fours"] == [["a1", "b1", "c1", "d1"], ["a2", "b2", "c2", "d2"], ["a3", "b3", "c3", "d3"]]


def test_seat_directions_mean_a_board_direction_for_each_seat(tmp_path):
    q = emitted(run(tmp_path, GRID, """
        emit q(name: "p1", value: direction_for(players[0], "forward"))
        emit q(name: "p2", value: direction_for(players[1], "forward"))
        emit q(name: "p2 steps", value: step(b2, direction_for(players[1], "forward")))
        emit q(name: "absolute", value: direction_for(players[1], "east"))
    """, kinds=GRID_KINDS, players=2))
    assert q == {"p1": "north", "p2": "south", "p2 steps": "b1", "absolute": "east"}


# ---------------------------------------------------------------- ring

RING = """
board:
  kind: ring
  space_kind: zone_space
  sectors: 6
  ranges: [close, medium, far]
"""

RING_KINDS = """
kinds:
  player: {}
  zone_space: {}
"""


def test_ring_neighbours_wrap_around_and_ranges_connect_in_a_sector(tmp_path):
    q = emitted(run(tmp_path, RING, """
        emit q(name: "count", value: count(zone_space))
        emit q(name: "six", value: [medium_6.sector, medium_6.range])
        emit q(name: "around", value: adjacent(medium_6))
        emit q(name: "cw", value: step(close_6, "clockwise"))
        emit q(name: "acw", value: step(close_1, "anticlockwise"))
        emit q(name: "out", value: step(far_3, "outward"))
        emit q(name: "across", value: distance(close_1, close_4))
        emit q(name: "reach", value: within(far_1, 1))
    """, kinds=RING_KINDS))
    assert q["count"] == 18
    assert q["six"] == [6, 2]
    assert q["around"] == ["medium_1", "medium_5", "far_6", "close_6"]
    assert (q["cw"], q["acw"], q["out"]) == ("close_1", "close_6", None)
    assert q["across"] == 3, "half way round the ring either way"
    assert q["reach"] == ["far_2", "far_6", "medium_1"]


# ---------------------------------------------------------------- errors


def _errors(tmp_path, board: str, kinds: str = KINDS, extra: str = "") -> str:
    folder = write_ruleset(tmp_path / "bad", {
        "game.yaml": game_yaml(players=(1, 2)) + kinds + extra,
        "board.yaml": board,
        "main.rules": "procedure setup():\n    do:\n        stop\n\nprocedure round():\n    do:\n        stop\n"})
    rs = load_ruleset(folder)
    return rs.bag.render()


def test_unknown_space_in_a_connection_is_located_with_a_hint(tmp_path):
    text = _errors(tmp_path, GRAPH.replace("{from: hall, to: lab, direction: aft}", "{from: hall, to: labb, direction: aft}"))
    # once, at the misspelt end of its own line (each way of a two-way connection is the same slip)
    assert "board.yaml:14:24: error: connection names unknown space 'labb'" in text
    assert text.count("unknown space 'labb'") == 1
    assert "did you mean 'lab'?" in text


def test_each_misspelt_end_of_a_later_connection_is_told_at_its_own_line(tmp_path):
    # before, a slip in a connection after a two-way one was told at later, correct lines
    # (the test above then expected line 15 for a slip on line 14)
    text = _errors(tmp_path, GRAPH.replace("{from: lab, to: vault,", "{from: lb, to: vaul,"))
    assert "board.yaml:17:14: error: connection names unknown space 'lb'" in text
    assert "board.yaml:17:22: error: connection names unknown space 'vaul'" in text
    assert text.count("unknown space") == 2


def test_schema_errors_name_the_board_kind_fields(tmp_path):
    text = _errors(tmp_path, GRID.replace("rows: 3", "rowz: 3"), kinds=GRID_KINDS)
    assert "board.yaml" in text and "rowz" in text and "rows" in text


def test_component_on_an_unknown_space_and_a_wrong_seat_direction(tmp_path):
    extra = "components:\n  - {name: scout, kind: pawn, space: brige}\n"
    text = _errors(tmp_path, GRAPH + "  seat_directions:\n    forward: [fore, up]\n", extra=extra)
    assert "component 'scout' starts on unknown space 'brige'" in text and "did you mean 'bridge'?" in text
    assert "seat direction 'forward' names unknown direction 'up'" in text


def test_a_space_may_not_share_a_name_with_a_kind(tmp_path):
    text = _errors(tmp_path, GRAPH.replace("    vault:\n", "    pawn:\n").replace("to: vault", "to: pawn"))
    assert "board space 'pawn' has the same name as a kind" in text


# ---------------------------------------------------------------- hex

HEX = """
board:
  kind: hex
  space_kind: cell
  columns: 3
  rows: 3
"""


def test_hex_cells_have_six_neighbours_and_hex_distances(tmp_path):
    q = emitted(run(tmp_path, HEX, """
        emit q(name: "centre", value: adjacent(b2))
        emit q(name: "corners", value: [adjacent(a1), adjacent(c1)])
        emit q(name: "long", value: distance(a3, c1))
        emit q(name: "short", value: distance(a1, c3))
        emit q(name: "lines", value: lines(3))
    """, kinds=GRID_KINDS))
    assert q["centre"] == ["c3", "c2", "b1", "a1", "a2", "b3"]
    assert q["corners"] == [["b2", "b1", "a2"], ["b1", "c2"]]
    assert (q["long"], q["short"]) == (4, 2), "the obtuse corners are far apart, the acute ones close"
    # three rows, three columns (north_west) and the one long diagonal (north_east)
    assert len(q["lines"]) == 7 and ["a1", "b2", "c3"] in q["lines"]


# ---------------------------------------------------------------- paths on laid tiles


def test_path_functions_follow_doorways_on_laid_tiles(tmp_path):
    from test_60_board import board_game

    q = emitted(board_game(tmp_path, """
place(hub, spot(0, 0, 0))
place(corner_a, spot(0, 1, 0))
place(lookout_a, spot(5, 5, 0))
emit q(name: "near", value: distance(main(hub), main(corner_a)))
emit q(name: "path", value: path(main(corner_a), main(hub)))
emit q(name: "cut off", value: distance(main(hub), main(lookout_a)))
emit q(name: "within", value: within(main(hub), 3))
emit q(name: "avoiding", value: within_avoiding(main(hub), 3, [main(corner_a)]))
"""))
    assert q["near"] == 1
    assert q["path"] == ["corner_a/main", "hub/main"]
    assert q["cut off"] is None
    assert q["within"] == ["corner_a/main"]
    assert q["avoiding"] == []
