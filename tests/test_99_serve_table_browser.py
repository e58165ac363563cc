"""The table page in headless Chromium, for games whose state lies beside the board and
in the other players' hands: what it shows besides the board and the seat's own side.

A cooperative game's page lists the things in no space nor zone with what they show, and
the zones of the table (a hidden pile by its count); its board names spaces and pieces
in the glossary's words, and a click on a piece is about that piece. A page at a game's
setup says so (no round yet), names a seat the rules play by its script's word, and lists
the other players with what the seat's view shows of them. Skips without Chromium, as
tests/test_99_serve_browser.py does.
"""

from __future__ import annotations

import json
import urllib.request

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets.sync.client")

from test_99_serve_browser import chromium, served  # noqa: E402,F401  (fixtures)

from rulecraft.cli.common import shipped_rulesets  # noqa: E402
from rulecraft.dsl.loader import load_checked  # noqa: E402
from rulecraft.interpreter.game import Game  # noqa: E402
from rulecraft.interpreter.state import scripted_seats  # noqa: E402
from rulecraft.server.store import SETTINGS  # noqa: E402
from rulecraft.server.words import Words  # noqa: E402

SEED = 5
QUICK = 20  # seconds: what a loaded page shows at once


def _open(page, served: str, ruleset: str, seats: list[str]) -> dict:
    body = json.dumps({"ruleset": ruleset, "seats": seats, "seed": SEED}).encode()
    request = urllib.request.Request(f"{served}/api/games", body, {"content-type": "application/json"})
    game = json.loads(urllib.request.urlopen(request).read())
    page.call("Page.navigate", url=served + game["links"]["p1"])
    page.wait_for("document.body?.dataset.decisions !== undefined && document.body.dataset.connected === 'yes'")
    return game


def _texts(page, selector: str) -> list[str]:
    return page.js(f"[...document.querySelectorAll({json.dumps(selector)})].map((e) => e.textContent)")


def _view(ruleset: str, players: int, decisions: list[int]) -> tuple[object, dict, Words]:
    rs = load_checked(str(shipped_rulesets()[ruleset]))
    game = Game(rs, players, SEED, settings=SETTINGS)
    for d in decisions:
        game.choose(d)
    view = game.view("p1")
    words = Words(rs)
    words.know_view(view)
    return rs, view, words


def test_beside_the_board_and_the_table_and_a_click_on_a_piece(chromium, served):
    page = chromium
    game = _open(page, served, "star_trek_panic", ["human", "random"])
    assert game["seats"]["p1"] == "human"
    page.wait_for("document.querySelectorAll('#beside li').length > 0", QUICK)
    decisions = page.js("Number(document.body.dataset.decisions)")
    assert decisions == 0
    rs, view, words = _view("star_trek_panic", 2, [])
    board = rs.data.board
    off = [e for e, d in view["entities"].items() if d["at"] is None and d["kind"] not in
           ("player", board.space_kind) and not rs.data.kinds[d["kind"]].located_in]
    beside = _texts(page, "#beside li")
    assert len(beside) == len(off) and {t.split(":")[0] for t in beside} == {words.name(e) for e in off}
    assert not page.js("document.getElementById('beside-title').hidden")
    table = _texts(page, "#table li")
    hidden = [z for z, items in view["zones"].items() if isinstance(items, dict) and items.get("count")]
    for zone in hidden:
        word = words.name(zone)
        assert any(t.lower().startswith(word.lower()) and f"{view['zones'][zone]['count']} face down" in t
                   for t in table), zone
    one = [z for z, items in view["zones"].items()
           if z in rs.data.zones and isinstance(items, list) and len(items) == 1]
    assert one and all(any(words.name(view["zones"][z][0]) in t for t in table) for z in one)
    # the spaces by name, the pieces by name (a tooltip) and by a mark
    labels = _texts(page, "#board .space > text")
    assert labels and not set(labels) & set(board.spaces)
    assert set(labels) == {words.name(s) for s in board.spaces}
    titles = _texts(page, "#board .piece > title")
    assert titles and all(not t.isidentifier() for t in titles)
    assert all(_texts(page, "#board .piece > text"))
    # a click on a piece an option names: that option is played, or those naming it lit
    options = page.js("view.options.map((o) => JSON.stringify(o.option))")
    pieces = page.js("[...document.querySelectorAll('#board [data-piece]')].map((e) => e.dataset.piece)")
    named = next((p for p in pieces if any(json.dumps(p) in o for o in options)), None)
    assert named, "an option names a piece on the board"
    naming = sum(json.dumps(named) in o for o in options)
    point = page.js(f"""(() => {{ const e = document.querySelector('#board [data-piece="{named}"] circle');
        e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height / 2]; }})()""")
    page.click_at(*point)
    if naming == 1:
        page.wait_for("Number(document.body.dataset.decisions) > 0", QUICK)
    else:
        page.wait_for(f"document.querySelectorAll('button.option.hint').length === {naming}", QUICK)


def test_the_setup_and_the_other_players(chromium, served):
    page = chromium
    _open(page, served, "stationfall", ["human", "random", "random"])
    page.wait_for("document.querySelectorAll('#others li[data-player]').length > 0", QUICK)
    rs, view, words = _view("stationfall", 3, [])
    assert view["current"] is None  # the game's setup
    status = page.js("document.getElementById('status').textContent")
    assert status.startswith("Setting up.") and "Round 0" not in status
    script = scripted_seats(rs, 3)
    for seat, name in script.items():
        assert f"{seat} ({words.name(name)}, played by the rules)" in status
        assert name not in status
    others = page.js("[...document.querySelectorAll('#others > li')].map((e) => [e.dataset.player, e.textContent])")
    assert [p for p, _ in others] == [p for p in view["players"] if p != "p1"]
    for player, text in others:
        for said in words.details(player, view["entities"][player]):
            assert said in text
    # what the seat's view hides of another player is not on the page
    html = page.js("document.documentElement.outerHTML")
    game = Game(rs, 3, SEED, settings=SETTINGS)
    for player in view["players"]:
        for prop, value in game.state.entities[player]["props"].items():
            if player != "p1" and prop not in view["entities"][player]["props"] and isinstance(value, str):
                assert words.status("player", prop, value) not in html
    # pieces of different kinds in different colours, each with a mark
    looks = page.js("[...document.querySelectorAll('#board .piece')].map((g) =>"
                    " [g.dataset.kind, g.querySelector('circle').getAttribute('fill')])")
    kinds = {}
    for kind, fill in looks:
        kinds.setdefault(kind, set()).add(fill)
    assert len(kinds) >= 2 and len({f for fs in kinds.values() for f in fs}) == len(kinds)
