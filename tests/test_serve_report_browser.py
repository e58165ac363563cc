"""The table page in headless Chromium, as a player found it, fixed: a refusal that goes
when the game moves on, a note when another player takes back a decision, a past step
that says it is one, the spectator's page in its own words, a language the screens lack
said plainly, a link the server refuses not said to be reconnecting, and the lobby's
variants by their titles. Skips without Chromium, as tests/test_99_serve_browser.py does.
"""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_client = pytest.importorskip("websockets.sync.client")

import test_99_serve_browser as browser_tests  # noqa: E402

from rulecraft.screen_words import PAGE, REFUSALS  # noqa: E402

# the fixtures of the browser tests: a served app, and a headless Chromium page on it
served, chromium, ServeProcess = browser_tests.served, browser_tests.chromium, browser_tests.ServeProcess

QUICK = 20  # seconds


def _create(served: str, body: dict) -> dict:
    request = urllib.request.Request(f"{served}/api/games", json.dumps(body).encode(), {"content-type": "application/json"})
    return json.loads(urllib.request.urlopen(request).read())


def _open(page, url: str) -> None:
    page.call("Page.navigate", url=url)
    page.wait_for("document.body?.dataset.decisions !== undefined && document.body.dataset.connected === 'yes'", QUICK)


def _text(page, element: str) -> str:
    return page.js(f"document.getElementById({json.dumps(element)}).textContent")


def _receive_view(ws) -> dict:
    while True:
        message = json.loads(ws.recv(timeout=QUICK))
        if message["type"] == "view":
            return message


def test_a_refusal_goes_when_the_game_moves_on_and_an_undo_is_told(chromium, served):
    page = chromium
    game = _create(served, {"ruleset": "connect_four", "seats": ["human", "human"], "seed": 3})
    p1 = sync_client.connect(served.replace("http", "ws") + game["links"]["p1"].replace("/game/", "/ws/"))
    try:
        first = view = _receive_view(p1)
        _open(page, served + game["links"]["p2"] + "?lang=fr")
        # p2 clicks out of turn: refused, and said so
        page.js("send({type: 'choose', step: view.decisions, option: 'a1'})")
        page.wait_for("!!document.getElementById('error').textContent", QUICK)
        assert _text(page, "error") == REFUSALS["fr"]["not_yours"].format(player="p1")
        # p1 moves: p2's page has moved on, and the refusal is gone
        p1.send(json.dumps({"type": "choose", "step": 0, "option": first["options"][0]["option"]}))
        view = _receive_view(p1)
        page.wait_for("Number(document.body.dataset.decisions) === 1", QUICK)
        assert _text(page, "error") == "" and _text(page, "note") == ""
        # p1 takes it back: p2's page loses p1's events and says who took them back
        assert view["can_undo"]
        p1.send(json.dumps({"type": "undo", "step": 1}))
        page.wait_for("Number(document.body.dataset.decisions) === 0", QUICK)
        page.wait_for("!!document.getElementById('note').textContent", QUICK)
        assert _text(page, "note") == PAGE["fr"]["undone"].format(player="p1")
        assert page.js("getComputedStyle(document.getElementById('note')).display") != "none"
        # the game moves on: the note goes
        _receive_view(p1)
        p1.send(json.dumps({"type": "choose", "step": 0, "option": first["options"][1]["option"]}))
        page.wait_for("Number(document.body.dataset.decisions) === 1", QUICK)
        page.wait_for("document.getElementById('note').textContent === ''", QUICK)
        assert page.js("getComputedStyle(document.getElementById('note')).display") == "none"
        # p2 plays, then looks at the past: the page says it shows a past step, not a wait
        page.js("document.querySelector('button.option').click()")
        page.wait_for("Number(document.body.dataset.decisions) === 2", QUICK)
        assert _text(page, "prompt") == PAGE["fr"]["waiting_for"].format(player="p1", kind=PAGE["fr"]["person"])
        page.js("(() => { const h = document.getElementById('history'); h.value = 1;"
                " h.dispatchEvent(new Event('change')); })()")
        page.wait_for("!document.getElementById('now').hidden", QUICK)
        assert _text(page, "prompt") == PAGE["fr"]["past"]
        page.js("document.getElementById('now').click()")
        page.wait_for("document.getElementById('now').hidden", QUICK)
        assert _text(page, "prompt") == PAGE["fr"]["waiting_for"].format(player="p1", kind=PAGE["fr"]["person"])
    finally:
        p1.close()


def test_the_spectators_page_and_a_language_the_screens_lack(chromium, served):
    page = chromium
    game = _create(served, {"ruleset": "panic_station", "seats": ["human", "random", "random", "random"], "seed": 5})
    _open(page, served + game["links"]["spectator"] + "?lang=fr")
    title = _text(page, "title")
    assert title == PAGE["fr"]["spectator_title"].format(title="Panic Station") and "spectator" not in title
    # no choice and no side of its own: their headings are not shown empty
    assert page.js("document.getElementById('choice-title').hidden")
    assert page.js("document.getElementById('side-title').hidden")
    assert _text(page, "prompt") == ""
    # the board's words in French (its title, a doorway's tooltip)
    titles = page.js("[...document.querySelectorAll('#board title')].map((t) => t.textContent)")
    assert PAGE["fr"]["board_title"] in titles and "the board" not in titles
    assert not [t for t in titles if t.startswith(("open ", "security "))]
    # a page asked for in a language the screens lack: in English, saying so, connected
    for asked, shown in (("de", "en"), ("FR", "fr")):
        _open(page, served + game["links"]["p1"] + f"?lang={asked}")
        assert page.js("document.documentElement.lang") == shown
        note = page.js("document.getElementById('lang-note').hidden ? '' : document.getElementById('lang-note').textContent")
        assert note == (PAGE["en"]["no_language"].format(lang=asked) if shown == "en" else "")
        assert _text(page, "connection") == "" and _text(page, "error") == ""
        assert _text(page, "title") == PAGE[shown]["title"].format(title="Panic Station", seat="p1")


def test_the_lobby_lists_variants_by_title(chromium, served):
    page = chromium
    page.call("Page.navigate", url=f"{served}/")
    page.wait_for("document.querySelectorAll('#ruleset option').length > 0", QUICK)
    page.js("(() => { const r = document.getElementById('ruleset'); r.value = 'panic_station';"
            " r.dispatchEvent(new Event('change')); })()")
    page.wait_for("document.querySelectorAll('#variant option').length > 1", QUICK)
    options = dict(page.js("[...document.querySelectorAll('#variant option')].map((o) => [o.value, o.textContent])"))
    assert options["four_gas_cans"] == "Four gas cans to burn the Hive"
    assert all(text != value for value, text in options.items() if value)


def test_a_link_the_server_refuses_is_not_said_to_be_reconnecting(chromium, tmp_path):
    page = chromium
    first = ServeProcess(tmp_path / "first.sqlite", ["tic_tac_toe"])
    first.start()
    second = None
    try:
        game = first.create({"ruleset": "tic_tac_toe", "seats": ["human", "random"]})
        _open(page, first.url + game["links"]["p1"])
        # count the sockets the page opens from now on
        page.js("(() => { const Real = WebSocket; window.opened = 0;"
                " window.WebSocket = function (...a) { window.opened += 1; return new Real(...a); }; })()")
        first.stop()
        page.wait_for("document.body.dataset.connected === 'no'", QUICK)
        assert _text(page, "connection") == PAGE["en"]["lost"]
        # a server on another SQLite file, at the same address: it knows no such game
        second = ServeProcess(tmp_path / "second.sqlite", ["tic_tac_toe"])
        second.port, second.url = first.port, first.url
        second.start()
        page.wait_for(f"document.getElementById('connection').textContent === {json.dumps(PAGE['en']['refused'])}",
                      QUICK)
        assert REFUSALS["en"]["no_game"].split("{")[0] in _text(page, "error")
        opened = page.js("window.opened")
        time.sleep(3)  # three times the page's retry delay: it does not try again
        assert page.js("window.opened") == opened
        assert _text(page, "connection") == PAGE["en"]["refused"]
    finally:
        if second is not None:
            second.stop()
        first.stop()
