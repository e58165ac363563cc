"""The table page and the lobby in headless Chromium, as a club night found them, fixed:
a double click sends one decision (and shows no refusal), the lobby's button makes one
game and says it is working, a phone-sized screen is laid out for its width with the
choice first, the waiting line names whom the seat waits for, a seat that may not undo
sees why, and bots and counts are worded in the page's language. Skips without
Chromium, as tests/test_99_serve_browser.py does."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets.sync.client")

import test_99_serve_browser as browser_tests  # noqa: E402
from test_serve_report_browser import QUICK, _create, _open, _text  # noqa: E402

from rulecraft.screen_words import PAGE, REFUSALS  # noqa: E402

served, chromium = browser_tests.served, browser_tests.chromium

# what the page sends, kept (socket is the page script's own binding)
COUNT_SENT = ("(() => { const real = socket.send.bind(socket); window.sent = [];"
              " socket.send = (m) => { window.sent.push(JSON.parse(m)); real(m); }; })()")


def test_a_double_click_sends_one_decision_and_shows_no_refusal(chromium, served):
    page = chromium
    game = _create(served, {"ruleset": "tic_tac_toe", "seats": ["human", "random"], "seed": 4})
    _open(page, served + game["links"]["p1"])
    page.js(COUNT_SENT)
    page.js("(() => { const b = document.querySelector('button.option'); b.click(); b.click(); })()")
    # disabled until the answer: the second click sent nothing
    page.wait_for("Number(document.body.dataset.decisions) === 2", QUICK)
    time.sleep(0.5)  # a second message's refusal would follow the view
    assert page.js("window.sent.length") == 1
    assert _text(page, "error") == ""
    assert page.js("[...document.querySelectorAll('button.option')].every((b) => !b.disabled)")
    assert _text(page, "history-text") == PAGE["en"]["so_far"].format(n=2)


def test_the_lobby_makes_one_game_for_a_double_click_in_its_language(chromium, served):
    page = chromium
    page.call("Page.navigate", url=f"{served}/?lang=fr")
    page.wait_for("document.querySelectorAll('#ruleset option').length > 0", QUICK)
    assert _text(page, "heading") == PAGE["fr"]["lobby_heading"]
    assert page.js("document.documentElement.lang") == "fr"
    page.js("(() => { const r = document.getElementById('ruleset'); r.value = 'tic_tac_toe';"
            " r.dispatchEvent(new Event('change')); })()")
    page.wait_for("!!document.getElementById('seat-p2')", QUICK)
    assert PAGE["fr"]["bot_random"] in page.js("[...document.querySelectorAll('#seat-p2 option')].map((o) => o.textContent)")
    page.js("document.getElementById('seat-p2').value = 'random'")
    page.js("(() => { const real = window.fetch; window.posts = 0;"
            " window.fetch = (url, init) => { if (init && init.method === 'POST') window.posts++; return real(url, init); }; })()")
    working = page.js("(() => { const b = document.getElementById('create'); b.click();"
                      " const seen = [b.disabled, b.textContent]; b.click(); return seen; })()")
    assert working == [True, PAGE["fr"]["lobby_creating"]]
    page.wait_for("!!document.getElementById('link-p1')", QUICK)
    assert page.js("window.posts") == 1
    assert not page.js("document.getElementById('create').disabled")
    assert _text(page, "create") == PAGE["fr"]["lobby_create"]
    # the links open in the lobby's language; the bot's seat is worded in it
    assert page.js("document.getElementById('link-p1').href").endswith("?lang=fr")
    assert _text(page, "bot-p2") == PAGE["fr"]["lobby_played_by"].format(bot=PAGE["fr"]["bot_random"])


def test_a_phone_sized_screen_shows_the_choice_first(chromium, served):
    page = chromium
    page.call("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=3, mobile=True)
    try:
        game = _create(served, {"ruleset": "panic_station", "seats": ["human", "random", "random", "random"],
                                "seed": 5})
        _open(page, served + game["links"]["p1"])
        page.wait_for("document.querySelectorAll('button.option').length > 0", QUICK)
        # laid out for the phone's width, not 980 px shrunk
        assert page.js("document.documentElement.clientWidth") <= 400
        top = page.js("document.getElementById('options').getBoundingClientRect().top")
        assert top < page.js("window.innerHeight")
        assert top < page.js("document.getElementById('board').getBoundingClientRect().top")
        assert top < page.js("document.getElementById('table').getBoundingClientRect().top")
    finally:
        page.call("Emulation.clearDeviceMetricsOverride")


def test_the_page_names_whom_it_waits_for_and_why_it_may_not_undo(chromium, served):
    page = chromium
    game = _create(served, {"ruleset": "connect_four", "seats": ["human", "human"], "seed": 3})
    _open(page, served + game["links"]["p2"] + "?lang=fr")
    fr = PAGE["fr"]
    assert _text(page, "prompt") == fr["waiting_for"].format(player="p1", kind=fr["person"])
    assert f"p1 ({fr['person']}) ◀" in _text(page, "status")
    assert _text(page, "history-text") == fr["so_far_none"]
    # no undo yet: the button is there, disabled, saying why
    why = REFUSALS["fr"]["cannot_undo"].format(reason=REFUSALS["fr"]["no_decision"])
    assert page.js("(() => { const u = document.getElementById('undo'); return [u.hidden, u.disabled, u.title]; })()") \
        == [False, True, why]
    assert _text(page, "undo-why") == why
    # p1 plays: one decision, in the singular; p1 may take it back
    _open(page, served + game["links"]["p1"] + "?lang=fr")
    page.js("document.querySelector('button.option').click()")
    page.wait_for("Number(document.body.dataset.decisions) === 1", QUICK)
    assert _text(page, "history-text") == fr["so_far_one"].format(n=1)
    page.wait_for("!document.getElementById('undo').disabled", QUICK)
    assert _text(page, "undo-why") == "" and not page.js("document.getElementById('undo').hidden")
    # a bot by its kind in French
    game = _create(served, {"ruleset": "tic_tac_toe", "seats": ["human", "random"], "seed": 4})
    _open(page, served + game["links"]["p1"] + "?lang=fr")
    assert f"p2 ({fr['bot_random']})" in _text(page, "status")
    page.js("document.querySelector('button.option').click()")
    page.wait_for("Number(document.body.dataset.decisions) === 2", QUICK)
    # after one decision and the bot's: counted in the plural; one is singular
    assert _text(page, "history-text") == fr["so_far"].format(n=2)
    page.js("(() => { const h = document.getElementById('history'); h.value = 1;"
            " h.dispatchEvent(new Event('change')); })()")
    page.wait_for("!document.getElementById('now').hidden", QUICK)
    assert _text(page, "history-text") == fr["after"].format(n=1, m=2)
