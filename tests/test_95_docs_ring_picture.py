"""The rules site's picture of a ring board: ranges, numbered sectors, and each piece
drawn in the wedge of its space (a small ring rule set written for the test)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from engine_rulesets import build, game_yaml

from rulecraft.docgen.svg import RING_BAND, RING_HUB, Piece, ring_svg

SVG = "{http://www.w3.org/2000/svg}"


def test_a_ring_board_is_drawn_with_its_pieces_in_their_wedges(tmp_path):
    rs = build(tmp_path, {
        "game.yaml": game_yaml() + """
kinds:
  player: {}
  cell: {}
board: {kind: ring, space_kind: cell, sectors: 4, ranges: [near, far]}
""",
        "play.rules": """
procedure setup():
    do:
        emit ready()

procedure round():
    do:
        for each p in players:
            play_turn(p)
""",
    })
    picture = ring_svg(rs.data.board, [Piece("scout", "far_2", "S", "a scout"), Piece("probe", "near_4", "P", "a probe")],
                       "the board")
    root = ET.fromstring(picture)
    circles = [c for c in root.iter(f"{SVG}circle") if c.get("fill") == "none"]
    assert sorted(float(c.get("r")) for c in circles) == [RING_HUB, RING_HUB + RING_BAND, RING_HUB + 2 * RING_BAND]
    numbers = [t.text for t in root.iter(f"{SVG}text") if t.text and t.text.isdigit()]
    assert numbers == ["1", "2", "3", "4"]
    centre = float(root.get("width")) / 2
    where = {}
    for g in root.iter(f"{SVG}g"):
        dot = g.find(f"{SVG}circle")
        x, y = float(dot.get("cx")) - centre, centre - float(dot.get("cy"))
        where[g.get("data-piece")] = (math.degrees(math.atan2(x, y)) % 360, math.hypot(x, y))
    # sector 2 of 4 lies between 90° and 180° clockwise from the top, in the outer band;
    # sector 4 between 270° and 360°, in the inner band
    assert 90 < where["scout"][0] < 180 and RING_HUB + RING_BAND < where["scout"][1] < RING_HUB + 2 * RING_BAND
    assert 270 < where["probe"][0] < 360 and RING_HUB < where["probe"][1] < RING_HUB + RING_BAND
