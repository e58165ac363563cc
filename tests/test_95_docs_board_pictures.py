"""The rules site's picture of a board declared whole: a graph laid out readably (or by
its own coordinates), one shape and title per space, one line per link, an arrow on a
one-way link, a link with properties dashed and labelled; the same picture each build."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from engine_rulesets import build, game_yaml

from rulecraft.docgen.board_picture import GRAPH_SPACE, declared_board_svg
from rulecraft.docgen.site import collect
from rulecraft.dsl.loader import load_checked

ROOT = Path(__file__).resolve().parent.parent
STATIONFALL = ROOT / "rules" / "stationfall"
SVG = "{http://www.w3.org/2000/svg}"

PLAY = """
procedure setup():
    do:
        emit ready()

procedure round():
    do:
        for each p in players:
            play_turn(p)
"""


def small_graph(tmp_path, coordinates: bool = False):
    where = {"a": (0, 0), "b": (1, 0), "c": (1, 1), "d": (3, 1)}
    spaces = "\n".join(f"    {n}: {{title: \"Room {n.upper()}\"" + (f", x: {x}, y: {y}" if coordinates else "") + "}"
                       for n, (x, y) in where.items())
    return build(tmp_path, {"game.yaml": game_yaml() + f"""
kinds:
  player: {{}}
  room:
    properties:
      title: text
      x: number
      y: number
  door:
    properties:
      locked: {{type: bool, default: false}}
board:
  kind: graph
  space_kind: room
  connection_kind: door
  spaces:
{spaces}
  connections:
    - {{from: a, to: b}}
    - {{from: b, to: c, one_way: true}}
    - {{from: c, to: d, properties: {{locked: true}}}}
""", "play.rules": PLAY})


def _centres(root) -> dict[str, tuple[float, float]]:
    out = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "space":
            c = g.find(f"{SVG}circle")
            out[g.get("data-space")] = (float(c.get("cx")), float(c.get("cy")))
    return out


def test_a_small_graph_shows_its_spaces_links_arrows_and_locks(tmp_path):
    rs = small_graph(tmp_path)
    root = ET.fromstring(declared_board_svg(rs.data.board, "the board"))
    assert sorted(_centres(root)) == ["a", "b", "c", "d"]
    labels = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "space-label"]
    assert labels == ["Room A", "Room B", "Room C", "Room D"]
    lines = [ln for ln in root.iter(f"{SVG}line") if "connection" in (ln.get("class") or "")]
    assert [(ln.get("data-from"), ln.get("data-to")) for ln in lines] == [("a", "b"), ("b", "c"), ("c", "d")]
    assert [ln.get("marker-end") for ln in lines] == [None, "url(#one-way)", None]
    assert [ln.get("stroke-dasharray") for ln in lines] == [None, None, "6 4"]
    assert [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "connection-label"] == ["locked"]
    # spaces lie apart enough for their titles
    centres = list(_centres(root).values())
    assert min(abs(complex(*p) - complex(*q)) for i, p in enumerate(centres) for q in centres[i + 1:]) >= GRAPH_SPACE - 1


def test_a_graph_with_its_own_coordinates_lies_by_them(tmp_path):
    rs = small_graph(tmp_path, coordinates=True)
    at = _centres(ET.fromstring(declared_board_svg(rs.data.board, "the board")))
    assert at["a"][1] == at["b"][1] and at["b"][0] == at["c"][0]
    assert at["c"][1] < at["b"][1]  # y grows northwards, up the picture
    assert at["d"][0] - at["c"][0] == pytest.approx(2 * (at["b"][0] - at["a"][0]))


@pytest.fixture(scope="module")
def stationfall_map():
    site = collect(STATIONFALL, "en")
    pictures = {k: v for k, v in site.files.items() if k.startswith("examples/") and k.endswith(".svg")}
    return site, pictures


def test_the_station_map_has_every_section_and_passage(stationfall_map):
    _, pictures = stationfall_map
    assert pictures
    board = load_checked(STATIONFALL).data.board
    root = ET.fromstring(next(iter(pictures.values())))
    assert sorted(_centres(root)) == sorted(board.spaces)
    labels = {t.text for t in root.iter(f"{SVG}text") if t.get("class") == "space-label"}
    assert labels == {p["title"] for p in board.spaces.values()}
    lines = [ln for ln in root.iter(f"{SVG}line") if "connection" in (ln.get("class") or "")]
    links = {frozenset((c.source, c.target)) for c in board.connections}
    assert len(lines) == len(links)
    one_way = {(c.source, c.target) for c in board.connections
               if not any((d.source, d.target) == (c.target, c.source) for d in board.connections)}
    assert one_way
    assert {(ln.get("data-from"), ln.get("data-to")) for ln in lines if ln.get("marker-end")} == one_way
    assert "locked" in {t.text for t in root.iter(f"{SVG}text") if t.get("class") == "connection-label"}


def test_the_overview_draws_the_board_before_any_example(stationfall_map):
    site, _ = stationfall_map
    assert "## The board" in site.pages["index.md"] and "](board.svg)" in site.pages["index.md"]
    root = ET.fromstring(site.files["board.svg"])
    assert sorted(_centres(root)) == sorted(load_checked(STATIONFALL).data.board.spaces)
    # a board of laid tiles has no whole picture before play: its tiles have their pages
    tiles = collect(ROOT / "rules" / "panic_station", "en")
    assert "board.svg" not in tiles.files and "## The board" not in tiles.pages["index.md"]


def test_the_station_map_is_the_same_each_build(stationfall_map):
    _, first = stationfall_map
    again = {k: v for k, v in collect(STATIONFALL, "en").files.items() if k in first}
    assert again == first


def test_a_grids_marks_show_as_their_players_tokens():
    site = collect(ROOT / "rules" / "tic_tac_toe", "en")
    after = [v for k, v in site.files.items() if k.startswith("examples/") and k.endswith("-after.svg")]
    assert after
    root = ET.fromstring(after[-1])
    assert len(_squares(root)) == 9
    tokens = {g.get("data-piece") for g in root.iter(f"{SVG}g") if g.get("class") == "piece"}
    assert tokens == {"p1", "p2"}


def _squares(root) -> list[str]:
    return [g.get("data-space") for g in root.iter(f"{SVG}g") if g.get("class") == "space"]
