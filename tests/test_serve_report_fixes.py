"""`rulecraft serve` as a player found it, fixed: a language code in any case, a finished
game that nobody is to play and nobody can undo, why the game ended, the other pages
told of an undo, pieces on laid tiles marked by their names, the board's own words and
the spectator in the page's language, and the lobby's variants by their titles.
(The page's own behaviour in a browser: tests/test_serve_report_browser.py.)"""

from __future__ import annotations

import contextlib
import json
import re
from urllib.parse import urlencode

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from rulecraft.cli.common import shipped_rulesets  # noqa: E402
from rulecraft.dsl.loader import load_checked  # noqa: E402
from rulecraft.interpreter.game import Game  # noqa: E402
from rulecraft.screen_words import PAGE, REFUSALS, TERMINAL  # noqa: E402
from rulecraft.server.app import create_app  # noqa: E402
from rulecraft.server.boards import board_picture, short_label  # noqa: E402
from rulecraft.server.store import SETTINGS  # noqa: E402
from rulecraft.server.tables import HUMAN  # noqa: E402
from rulecraft.server.words import Words  # noqa: E402


@pytest.fixture
def c(tmp_path):
    with TestClient(create_app(shipped_rulesets(), tmp_path / "games.sqlite")) as client:
        yield client


def new_game(c, ruleset: str, seats: list[str], seed: int = 7, variant: str | None = None) -> dict:
    r = c.post("/api/games", json={"ruleset": ruleset, "seats": seats, "seed": seed, "variant": variant})
    assert r.status_code == 201, r.text
    return r.json()


def api(link: str) -> str:
    return link.replace("/game/", "/api/games/", 1)


def ws_path(link: str) -> str:
    return link.replace("/game/", "/ws/", 1)


def choose(ws, view: dict, index: int = 0) -> None:
    ws.send_text(json.dumps({"type": "choose", "step": view["decisions"], "option": view["options"][index]["option"]}))


def play_to_the_end(ws, view: dict) -> dict:
    while view["result"] is None:
        choose(ws, view)
        view = ws.receive_json()
    return view


# ---- (A2) a language code in any case; an unknown one on a page

@pytest.mark.parametrize("asked", ["FR", "Fr", "fr-CA", "fr_FR", " fr "])
def test_a_language_code_is_read_whatever_its_case_or_region(c, asked):
    game = new_game(c, "panic_station", [HUMAN, "random", "random", "random"])
    link = game["links"]["p1"]
    french = c.get(f"{api(link)}?lang=fr").json()
    view = c.get(api(link), params={"lang": asked})
    assert view.status_code == 200 and view.json()["events"] == french["events"]
    assert c.get(f"{api(link)}/at/3", params={"lang": asked}).json()["events"] == \
        c.get(f"{api(link)}/at/3?lang=fr").json()["events"]
    with c.websocket_connect(ws_path(link) + "?" + urlencode({"lang": asked})) as ws:
        assert ws.receive_json()["events"] == french["events"]
    page = c.get(link, params={"lang": asked}).text
    assert '<html lang="fr">' in page and PAGE["fr"]["choice"] in page


def test_a_page_in_a_language_the_screens_lack_is_english_and_says_so(c):
    game = new_game(c, "tic_tac_toe", [HUMAN, "random"])
    link = game["links"]["p1"]
    page = c.get(f"{link}?lang=de")
    assert page.status_code == 200 and '<html lang="en">' in page.text
    words = json.loads(re.search(r'<script type="application/json" id="page-words">(.*?)</script>', page.text).group(1))
    # the page's script asks for its own language (the words it was given), and has the
    # words that say the language asked for is unknown
    assert words["html_lang"] == "en" and "{lang}" in words["no_language"]
    script = c.get("/static/table.js").text
    assert "pageWords.html_lang" in script and 'say("no_language"' in script
    # asked directly, the API answers why instead of answering in another language
    refused = c.get(f"{api(link)}?lang=de")
    assert refused.status_code == 404 and "rulecraft has no words in 'de'" in refused.json()["error"]


def test_the_page_does_not_say_it_reconnects_when_the_server_refuses_its_link(c):
    script = c.get("/static/table.js").text
    onclose = re.search(r"socket\.onclose = \(e\) => \{(.*?)\n  \};", script, re.S).group(1)
    # a 4404 close is told as refused, and only another close is tried again
    assert 'e.code === 4404' in onclose and 'say("refused")' in onclose
    assert re.search(r"else setTimeout\(openSocket", onclose)


# ---- (A3) a finished game: nobody to play, no undo

def _finished(c, game, stack: contextlib.ExitStack) -> tuple[dict, dict]:
    """Two people (p1 in French) play tic-tac-toe to its end: their pages' last views, and
    their sockets, open until ``stack`` closes."""
    sockets = {"p1": stack.enter_context(c.websocket_connect(ws_path(game["links"]["p1"]) + "?lang=fr")),
               "p2": stack.enter_context(c.websocket_connect(ws_path(game["links"]["p2"])))}
    views = {seat: ws.receive_json() for seat, ws in sockets.items()}
    while views["p1"]["result"] is None:
        mover = next(s for s, v in views.items() if v["options"])
        choose(sockets[mover], views[mover])
        views = {s: ws.receive_json() for s, ws in sockets.items()}
    return views, sockets


def test_nobody_is_to_play_once_the_game_is_over(c):
    game = new_game(c, "tic_tac_toe", [HUMAN, HUMAN], seed=3)
    with contextlib.ExitStack() as stack:
        views, _ = _finished(c, game, stack)
    for seat, view in views.items():
        assert not any(p["to_play"] for p in view["players"]), seat


def test_a_finished_game_cannot_be_undone(c):
    game = new_game(c, "tic_tac_toe", [HUMAN, HUMAN], seed=3)
    with contextlib.ExitStack() as stack:
        views, sockets = _finished(c, game, stack)
        for seat, view in views.items():
            assert view["can_undo"] is False, seat
        # the last decision is refused, in the page's language, and the game stays over
        last = next(d.player for d in reversed(c.app.state.server.tables[game["game"]].history))
        sockets[last].send_text(json.dumps({"type": "undo", "step": views[last]["decisions"]}))
        said = REFUSALS["fr" if last == "p1" else "en"]
        assert sockets[last].receive_json()["message"] == said["cannot_undo"].format(reason=said["over"])
    assert c.get(api(game["links"]["p1"]) + "?lang=fr").json()["result"] == views["p1"]["result"]


# ---- (b4) why the game ended, as the terminal says it

@pytest.mark.parametrize("ruleset,seats", [("tic_tac_toe", [HUMAN, "random"]),
                                           ("panic_station", [HUMAN, "random", "random", "random"])])
def test_the_result_says_why_the_game_ended(c, ruleset, seats):
    game = new_game(c, ruleset, seats, seed=2)
    with c.websocket_connect(ws_path(game["links"]["p1"])) as ws:
        view = play_to_the_end(ws, ws.receive_json())
    link = game["links"]["p1"]
    result = c.app.state.server.seat_of(game["game"], link.rsplit("/", 1)[1])[0].game.result
    assert result.get("reason")
    for lang in ("en", "fr"):
        words = Words(load_checked(str(shipped_rulesets()[ruleset])), lang)
        told = c.get(f"{api(game['links']['p1'])}?lang={lang}").json()["result"]
        # the terminal's last screen words the reason so (cli/play_screen.py: final)
        expected = words.action(result["reason"])
        if not result.get("decided", True):
            expected += " " + TERMINAL[lang]["undecided"]
        assert told["why"] == expected[:1].upper() + expected[1:]
    assert view["result"]["why"]


# ---- (b5) the other pages are told of an undo

def test_the_other_pages_are_told_who_took_back_a_decision(c):
    game = new_game(c, "connect_four", [HUMAN, HUMAN])
    links = game["links"]
    with c.websocket_connect(ws_path(links["p1"])) as p1, \
            c.websocket_connect(ws_path(links["p2"]) + "?lang=fr") as p2, \
            c.websocket_connect(ws_path(links["spectator"])) as watcher:
        pages = {"p1": p1, "p2": p2, "spectator": watcher}
        views = {s: ws.receive_json() for s, ws in pages.items()}
        choose(p1, views["p1"])
        views = {s: ws.receive_json() for s, ws in pages.items()}
        assert views["p2"]["events"] and views["p1"]["can_undo"]
        p1.send_text(json.dumps({"type": "undo", "step": views["p1"]["decisions"]}))
        # every page gets the view without p1's decision; the others then who took it back
        for seat, ws in pages.items():
            assert ws.receive_json()["decisions"] == 0, seat
        # (p1 moves again, so that a page told nothing more gets that view next, not nothing)
        choose(p1, c.get(api(links["p1"])).json())
        assert p2.receive_json() == {"type": "undone", "player": "p1"}
        assert watcher.receive_json() == {"type": "undone", "player": "p1"}
        # p1's own page is told nothing of its own undo: its next message is the next view
        assert p1.receive_json()["type"] == "view"
        assert p2.receive_json()["decisions"] == watcher.receive_json()["decisions"] == 1
    script = c.get("/static/table.js").text
    assert 'message.type === "undone"' in script and 'say("undone"' in script
    assert "{player}" in PAGE["fr"]["undone"] and "{player}" in PAGE["en"]["undone"]


# ---- (b3) pieces on laid tiles marked by their names; (b6, b7) the board's words

def _panic_station_view(lang: str, decisions: int = 40):
    rs = load_checked(str(shipped_rulesets()["panic_station"]))
    game = Game(rs, 4, 5, settings=SETTINGS)
    for _ in range(decisions):
        game.choose(0)
    view = game.view("p1")
    words = Words(rs, lang)
    words.know_view(view)
    return rs, view, words, board_picture(rs, view, words.label, words)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_pieces_on_laid_tiles_are_marked_by_their_names_in_the_pages_language(lang):
    rs, view, words, svg = _panic_station_view(lang)
    marks = dict(re.findall(r'<g class="piece" data-piece="([^"]+)">.*?<text[^>]*>([^<]*)</text></g>', svg))
    assert len(marks) >= 8, svg
    for eid, mark in marks.items():
        assert mark == short_label(words.name(eid), view["players"])
    # pieces of different kinds are told apart (not all by a kind id's initial, in English)
    kinds = {view["entities"][e]["kind"] for e in marks}
    assert len(set(marks.values())) >= len(kinds) >= 2
    assert all(len(m) == 2 for m in marks.values())
    # a player's own pieces (one colour) each have their own mark
    for player in view["players"]:
        own = [m for e, m in marks.items() if player in words.name(e).split()]
        assert len(own) >= 2 and len(set(own)) == len(own), (player, own)


def test_the_board_of_laid_tiles_has_its_words_in_the_pages_language():
    rs, view, words, svg = _panic_station_view("fr")
    titles = set(re.findall(r"<title>([^<]*)</title>", svg))
    english = Words(rs, "en")
    # no English of the picture's own, nor a doorway or a mark as the rules name it
    assert "the board" not in titles and PAGE["fr"]["board_title"] in titles
    doors = [t for t in titles if any(t.startswith(words.label(e) + " ") for e in rs.data.board.doorways)]
    assert doors and all(t.split(" ")[-1] in {words.label(d) for d in rs.data.board.directions} | {"l'intérieur"}
                         for t in doors), doors
    for edge in rs.data.board.doorways:
        assert not any(t.startswith(f"{english.label(edge)} ") or t.startswith(f"{edge} ") for t in titles)
    flags = set(re.findall(r'class="flag"[^>]*><title>([^<]*)</title>', svg))
    marked = {k for layout in rs.data.board.layouts.values() for room in layout.rooms.values()
              for k, v in (room or {}).items() if v is True}
    assert flags and marked and flags <= {words.prop(rs.data.board.space_kind, k) for k in marked}
    assert not flags & marked


def test_a_graphs_connections_are_labelled_in_the_glossarys_words():
    rs = load_checked(str(shipped_rulesets()["stationfall"]))
    view = Game(rs, 3, 5, settings=SETTINGS).view("p1")
    kind = rs.data.board.connection_kind
    values = {v for c in rs.data.board.connections for v in c.properties.values() if isinstance(v, str)}
    flags = {k for c in rs.data.board.connections for k, v in c.properties.items() if v is True}
    assert values and flags
    for lang in ("en", "fr"):
        words = Words(rs, lang)
        words.know_view(view)
        svg = board_picture(rs, view, words.label, words)
        labels = set(re.findall(r'class="connection-label"[^>]*>([^<]*)</text>', svg))
        assert labels == {words.label(v) for v in values} | {words.prop(kind, f) for f in flags}, lang
        assert f"<title>{PAGE[lang]['board_title']}</title>" in svg
    french = board_picture(rs, view, Words(rs, "fr").label, Words(rs, "fr"))
    assert not set(re.findall(r'class="connection-label"[^>]*>([^<]*)</text>', french)) & (values | flags)


def test_the_spectators_view_says_it_is_the_spectators(c):
    game = new_game(c, "panic_station", [HUMAN, "random", "random", "random"])
    watching = c.get(f"{api(game['links']['spectator'])}?lang=fr").json()
    playing = c.get(f"{api(game['links']['p1'])}?lang=fr").json()
    assert watching["spectator"] is True and playing["spectator"] is False
    assert watching["hand"] == [] and watching["options"] == []
    script = c.get("/static/table.js").text
    assert 'say("spectator_title"' in script


# ---- (b17) the lobby's variants by their titles

def test_the_lobby_lists_variants_by_their_titles(c):
    catalogue = {r["name"]: r for r in c.get("/api/rulesets").json()}
    titles = catalogue["panic_station"]["variant_titles"]
    assert set(titles) == set(catalogue["panic_station"]["variants"])
    assert titles["four_gas_cans"] == "Four gas cans to burn the Hive"
    rs = load_checked(str(shipped_rulesets()["panic_station"]), "master_and_servant")
    assert titles["master_and_servant"] == rs.variant.title
    assert catalogue["tic_tac_toe"]["variant_titles"] == {}
    assert "variant_titles" in c.get("/static/lobby.js").text
