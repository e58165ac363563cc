"""Tile sides cut into parts, and reading which sides a space reaches.

A side may be several stretches listed clockwise around the tile (``parts``): a road
runs between two verges, each its own space. Each stretch meets the facing side's
stretch that lies against it, and both sides list theirs clockwise around their own
tile, so the first meets the last. A tiny tile set on a square grid (y grows
southwards):

- ``straight``: a road from west to east between a north and a south field;
- ``cap``: a city along the north side, a field along the rest;
- ``bend``: a road from south to west, a small field inside the bend (south-west
  corner) and a large one outside.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from engine_rulesets import build, emitted, game_yaml, load_errors

from rulecraft.docgen.site import collect
from rulecraft.docgen.svg import CELL, MARGIN, room_rects, tile_svg
from rulecraft.interpreter.game import Game

SVG = "{http://www.w3.org/2000/svg}"

DATA = """
kinds:
  player: {}
  tile:
    located_in: zone
  area:
    located_in: zone
    properties:
      feature: {type: text, values: [road, city, field]}
      place: {type: text}
zones:
  box: {ordered: false}
components:
  - {name: a, kind: tile, layout: straight, zone: box}
  - {name: b, kind: tile, layout: straight, zone: box}
  - {name: c, kind: tile, layout: cap, zone: box}
  - {name: d, kind: tile, layout: bend, zone: box}
"""

BOARD = """
board:
  space_kind: area
  tile_kind: tile
  directions:
    north: [0, -1]
    east: [1, 0]
    south: [0, 1]
    west: [-1, 0]
  edges: [road, city, field]
  joins:
    - {edges: [road, road], connection: road}
    - {edges: [city, city], connection: city}
    - {edges: [field, field], connection: field}
    - {edges: [road, city], forbidden: true}
    - {edges: [road, field], forbidden: true}
    - {edges: [city, field], forbidden: true}
  doorways: [road, city, field]
  layouts:
    straight:
      rooms: {road: {feature: road, place: road}, north_field: {feature: field, place: north_field}, south_field: {feature: field, place: south_field}}
      sides:
        north: {parts: [{edge: field, rooms: [north_field]}, {edge: field, rooms: [north_field]}, {edge: field, rooms: [north_field]}]}
        east: {parts: [{edge: field, rooms: [north_field]}, {edge: road, rooms: [road]}, {edge: field, rooms: [south_field]}]}
        south: {parts: [{edge: field, rooms: [south_field]}, {edge: field, rooms: [south_field]}, {edge: field, rooms: [south_field]}]}
        west: {parts: [{edge: field, rooms: [south_field]}, {edge: road, rooms: [road]}, {edge: field, rooms: [north_field]}]}
    cap:
      rooms: {city: {feature: city, place: city}, field: {feature: field, place: field}}
      sides:
        north: {parts: [{edge: city, rooms: [city]}, {edge: city, rooms: [city]}, {edge: city, rooms: [city]}]}
        east: {parts: [{edge: field, rooms: [field]}, {edge: field, rooms: [field]}, {edge: field, rooms: [field]}]}
        south: {parts: [{edge: field, rooms: [field]}, {edge: field, rooms: [field]}, {edge: field, rooms: [field]}]}
        west: {parts: [{edge: field, rooms: [field]}, {edge: field, rooms: [field]}, {edge: field, rooms: [field]}]}
    bend:
      rooms: {road: {feature: road, place: road}, inner: {feature: field, place: inner}, outer: {feature: field, place: outer}}
      sides:
        north: {parts: [{edge: field, rooms: [outer]}, {edge: field, rooms: [outer]}, {edge: field, rooms: [outer]}]}
        east: {parts: [{edge: field, rooms: [outer]}, {edge: field, rooms: [outer]}, {edge: field, rooms: [outer]}]}
        south: {parts: [{edge: field, rooms: [outer]}, {edge: road, rooms: [road]}, {edge: field, rooms: [inner]}]}
        west: {parts: [{edge: field, rooms: [inner]}, {edge: road, rooms: [road]}, {edge: field, rooms: [outer]}]}
"""

HELPERS = """
procedure round():
    do:
        stop

function space(t: tile, name: text) -> area:
    = first([r for r in rooms_of(t) where r.place == name])

function every_turn() -> list of number:
    = [0, 90, 180, 270]
"""


def ask(tmp_path, setup_body: str) -> dict:
    body = "\n".join("        " + line for line in setup_body.strip("\n").splitlines())
    rules = "procedure setup():\n    do:\n" + body + "\n" + HELPERS
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(1, 2), round_limit=1) + DATA,
                          "board.yaml": BOARD, "main.rules": rules})
    return emitted(Game(rs, 1, 1))


def test_each_part_joins_only_the_part_facing_it(tmp_path):
    q = ask(tmp_path, """
place(a, spot(0, 0, 0))
place(b, spot(1, 0, 0))
place(c, spot(0, -1, 0))
emit q(name: "north", value: rooms_towards(space(a, "north_field"), "north"))
emit q(name: "north field", value: connected(space(a, "north_field")))
emit q(name: "road", value: connected(space(a, "road")))
emit q(name: "south field east", value: rooms_towards(space(a, "south_field"), "east"))
emit q(name: "touching", value: adjacent(space(b, "north_field")))
""")
    # the north verge meets the north verge only: a field does not cross the road
    # the verge lies along all three parts of the north side, each facing the cap's field: told once
    assert q["north"] == ["c/field"]
    assert q["north field"] == ["c/field", "b/north_field"]
    assert q["road"] == ["b/road"]
    assert q["south field east"] == ["b/south_field"]
    assert q["touching"] == ["a/north_field"]


def test_a_turned_tile_meets_by_the_parts_that_lie_against_each_other(tmp_path):
    # b turned half round: its printed south verge now lies north of its road
    q = ask(tmp_path, """
place(a, spot(0, 0, 0))
place(b, spot(1, 0, 180))
emit q(name: "north field", value: connected(space(a, "north_field")))
emit q(name: "south field", value: connected(space(a, "south_field")))
emit q(name: "road", value: connected(space(a, "road")))
""")
    assert q == {"north field": ["b/south_field"], "south field": ["b/north_field"], "road": ["b/road"]}


def test_a_bend_keeps_its_inner_field_apart(tmp_path):
    # the bend east of the straight, turned so that its road comes in from the west
    # (printed south-west bend, a quarter turn clockwise: west and north)
    q = ask(tmp_path, """
place(a, spot(0, 0, 0))
place(d, spot(1, 0, 90))
emit q(name: "north field", value: connected(space(a, "north_field")))
emit q(name: "south field", value: connected(space(a, "south_field")))
emit q(name: "road", value: connected(space(a, "road")))
""")
    assert q == {"north field": ["d/inner"], "south field": ["d/outer"], "road": ["d/road"]}


def test_every_part_must_meet_a_part_it_may_touch(tmp_path):
    # east of a city cap every side is field: a straight fits only with its road north-south
    q = ask(tmp_path, """
place(c, spot(0, 0, 0))
emit q(name: "spots", value: placements(a, space(c, "field"), every_turn()))
""")
    assert {(s["x"], s["y"]) for s in q["spots"]} == {(1, 0), (0, 1), (-1, 0)}
    assert {s["rotation"] for s in q["spots"] if (s["x"], s["y"]) == (1, 0)} == {90, 270}
    assert {s["rotation"] for s in q["spots"] if (s["x"], s["y"]) == (0, 1)} == {0, 180}


def test_placements_need_a_doorway_on_a_part_the_anchor_reaches(tmp_path):
    # the road reaches only the middle of the east and west sides: a tile laid north
    # of the straight touches its north verge, not its road
    q = ask(tmp_path, """
place(a, spot(0, 0, 0))
emit q(name: "from the road", value: placements(b, space(a, "road"), every_turn()))
""")
    assert {(s["x"], s["y"], s["rotation"]) for s in q["from the road"]} == {
        (1, 0, 0), (1, 0, 180), (-1, 0, 0), (-1, 0, 180)}


def test_sides_of_and_open_sides_read_where_a_space_reaches_its_tile_edge(tmp_path):
    q = ask(tmp_path, """
emit q(name: "before", value: sides_of(space(a, "road")))
place(a, spot(0, 0, 90))
emit q(name: "road", value: sides_of(space(a, "road")))
emit q(name: "verge", value: sides_of(space(a, "north_field")))
emit q(name: "open before", value: open_sides(space(a, "road")))
place(b, spot(0, 1, 90))
emit q(name: "open after", value: open_sides(space(a, "road")))
emit q(name: "none", value: open_sides(none))
""")
    assert q["before"] == [], "a tile not laid reaches no side of the table"
    # turned a quarter clockwise, the west-east road runs north-south; its north verge lies east
    assert q["road"] == ["north", "south"]
    assert q["verge"] == ["north", "east", "south"]
    assert q["open before"] == ["north", "south"]
    assert q["open after"] == ["north"]
    assert q["none"] == []


def test_closing_a_road_reads_in_the_rules(tmp_path):
    # a road is closed when none of its spaces has an open side: the rules say it with
    # open_sides over the spaces joined by road
    q = ask(tmp_path, """
place(a, spot(0, 0, 0))
place(d, spot(1, 0, 90))
let road = [space(a, "road")] + [r for r in connected(space(a, "road")) where connection(space(a, "road"), r) == "road"]
emit q(name: "ends", value: flatten([open_sides(r) for r in road]))
""")
    assert q["ends"] == ["west", "north"]


def test_a_region_is_a_whole_road_and_each_field_apart(tmp_path):
    q = ask(tmp_path, """
place(a, spot(0, 0, 0))
place(b, spot(1, 0, 0))
place(d, spot(2, 0, 90))
emit q(name: "road", value: region(space(b, "road")))
emit q(name: "north", value: region(space(a, "north_field")))
emit q(name: "avoiding", value: region_avoiding(space(a, "road"), [space(b, "road")]))
emit q(name: "not laid", value: region(space(c, "city")))
""")
    assert q["road"] == ["b/road", "a/road", "d/road"]
    assert q["north"] == ["a/north_field", "b/north_field", "d/inner"]
    assert q["avoiding"] == ["a/road"]
    assert q["not laid"] == []


def test_tiles_around_a_tile_include_its_corners(tmp_path):
    q = ask(tmp_path, """
place(c, spot(0, 0, 0))
place(a, spot(1, 1, 0))
place(b, spot(-1, -1, 0))
emit q(name: "around c", value: tiles_around(c))
emit q(name: "around a", value: tiles_around(a))
emit q(name: "not laid", value: tiles_around(d))
""")
    assert q["around c"] == ["a", "b"]  # clockwise from the north: the south-east corner, then the north-west
    assert q["around a"] == ["c"]  # its north-west corner
    assert q["not laid"] == []


def test_sides_cut_differently_are_refused(tmp_path):
    text = load_errors(tmp_path, {
        "game.yaml": game_yaml(players=(1, 2), round_limit=1) + DATA,
        "board.yaml": BOARD.replace(
            "north: {parts: [{edge: city, rooms: [city]}, {edge: city, rooms: [city]}, {edge: city, rooms: [city]}]}",
            "north: city"),
        "main.rules": "procedure setup():\n    do:\n        stop\n" + HELPERS})
    assert "layout 'cap': its north side has one edge, but layout" not in text
    assert "has 3 parts, but layout 'cap''s north side has one edge" in text
    # told at the side that disagrees, not at the layout's name
    assert "north: {parts: [{edge: field, rooms: [north_field]}" in text.split("has 3 parts")[1].split("hint")[0]
    assert "every side of every layout is cut into the same number of parts" in text


def test_a_slip_in_a_part_is_told_at_that_part(tmp_path):
    text = load_errors(tmp_path, {
        "game.yaml": game_yaml(players=(1, 2), round_limit=1) + DATA,
        "board.yaml": BOARD.replace("{edge: road, rooms: [road]}, {edge: field, rooms: [south_field]}]}",
                                    "{edge: road, rooms: [raod]}, {edge: field, rooms: [south_field]}]}", 1),
        "main.rules": "procedure setup():\n    do:\n        stop\n" + HELPERS})
    line = next(i for i, t in enumerate(BOARD.splitlines(), 1) if "rooms: [road]}, {edge: field, rooms: [south_field]}]}" in t)
    assert f"board.yaml:{line - 1}:" in text and "side east names unknown room 'raod'" in text
    assert "did you mean 'road'?" in text


# ---------------------------------------------------------------- the rules site


def tile_set(tmp_path, laid: str = "place(a, spot(0, 0, 0))", data: str = DATA, board: str = BOARD):
    """The tile set with the tiles ``laid`` by its setup (one statement a line) and a
    round in which each player plays a turn."""
    setup = "".join(f"        {line}\n" for line in laid.splitlines())
    rules = "procedure setup():\n    do:\n" + setup + HELPERS.replace(
        "procedure round():\n    do:\n        stop\n",
        "procedure round():\n    do:\n        for each p in players:\n            play_turn(p)\n")
    return build(tmp_path, {"game.yaml": game_yaml(players=(1, 2), round_limit=1) + data,
                            "board.yaml": board, "main.rules": rules})


def test_a_cut_side_is_drawn_part_by_part_clockwise(tmp_path):
    rs = tile_set(tmp_path)
    root = ET.fromstring(tile_svg(rs.data.board, "straight"))
    doors = [(e.get("data-side"), e.get("data-edge"), float(e.get("x1")), float(e.get("y1")), float(e.get("x2")), float(e.get("y2")))
             for e in root.iter(f"{SVG}line") if (e.get("class") or "").startswith("door ")]
    roads = [d for d in doors if d[1] == "road"]
    assert sorted(d[0] for d in roads) == ["east", "west"]
    for side, _, x1, y1, x2, y2 in roads:
        # the middle third of the east and west sides
        assert x1 == x2 == (MARGIN + CELL if side == "east" else MARGIN)
        assert MARGIN + CELL / 3 < min(y1, y2) < max(y1, y2) < MARGIN + 2 * CELL / 3
    # every part of the north side is a field: three doorways of field, none of road
    assert sorted(d[1] for d in doors if d[0] == "north") == ["field"] * 3


def test_the_rooms_of_a_cut_tile_lie_by_the_parts_they_reach(tmp_path):
    rs = tile_set(tmp_path)
    board = rs.data.board
    third = CELL / 3

    def cell(layout, room):
        r = room_rects(board, board.layouts[layout])[room]
        return round(r.x / third), round(r.y / third)

    assert [cell("straight", r) for r in ("north_field", "road", "south_field")] == [(1, 0), (1, 1), (1, 2)]
    assert cell("bend", "inner") == (0, 2), "the field inside the bend keeps the south-west corner"
    assert cell("cap", "city") == (1, 0)
    assert len({cell("bend", r) for r in ("road", "inner", "outer")}) == 3


def test_the_tile_page_lists_each_sides_parts_in_order(tmp_path):
    rs = tile_set(tmp_path)
    page = collect(rs.root, "en").pages["cards/a.md"]
    assert "lists them clockwise around the tile" in page
    assert "## Sides" in page
    assert "- East: field (north field); road (road); field (south field)" in page
    assert "- West: field (south field); road (road); field (north field)" in page
    # each area with what the layout sets on it
    assert "- road — feature: road; place: road" in page


def test_a_start_tile_in_no_zone_has_its_page_with_its_layouts_text(tmp_path):
    rs = tile_set(tmp_path, "place(start, spot(0, 0, 0))", DATA + "  - {name: start, kind: tile, layout: bend}\n",
                  BOARD.replace("    bend:\n", "    bend:\n      text: A road bending from south to west.\n"))
    site = collect(rs.root, "en")
    assert "[Start](start.md)" in site.pages["cards/index.md"]
    assert "A road bending from south to west." in site.pages["cards/start.md"]


def test_the_terminal_map_tells_a_cut_tile_by_the_middle_of_its_sides(tmp_path):
    from rulecraft.cli.terminal_map import board_lines
    from rulecraft.narration import Words

    rs = tile_set(tmp_path, "place(c, spot(0, 0, 0))\nplace(a, spot(0, 1, 0))\nplace(b, spot(1, 1, 0))")
    game = Game(rs, 1, 1)
    view = game.view("p1")
    words = Words(rs)
    words.know_view(view)
    drawn = board_lines(rs, view, words, {"map_legend": "legend", "map_sides": "by side {directions}"},
                        width=80, max_lines=8)
    rows = [line.split() for line in drawn.lines]
    # the cap: city north, fields elsewhere; under it a and b, a road running west-east
    # through both: the cap's field meets a's north verge, a's road meets b's
    assert rows[1] == ["0", "cfff"]
    assert rows[2] == ["f"]
    assert rows[3] == ["1", "frfr", "r", "frfr"]
    assert drawn.legend[-1] == "by side n e s w"


def test_a_tile_not_laid_is_told_by_its_printed_sides_on_the_screens(tmp_path):
    from rulecraft.narration import Words

    rs = tile_set(tmp_path, "place(c, spot(0, 0, 0))")
    game = Game(rs, 1, 1)
    words = Words(rs)
    words.know_view(game.view("p1"))
    assert words.details("d", {"kind": "tile", "props": {}}) == ["sides field, field, road, road"]
    assert words.details("c", {"kind": "tile", "props": {}}) == [], "a laid tile is read on the map"
