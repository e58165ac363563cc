"""The lobby's list of the games created from this browser, the host's new links and the
players' names, in headless Chromium (skips without it, as
tests/test_99_serve_browser.py does): a game created in the lobby is listed after a
reload (kept in the browser's localStorage), with its seats' links; a seat's page whose
link the host replaces says so in its language and offers nothing more; a name given on
a seat's page is shown as text (a name written as markup runs nothing); a game is
forgotten, and its host link lists it again."""

from __future__ import annotations

import json
import urllib.request

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets.sync.client")

import test_99_serve_browser as browser_tests  # noqa: E402
from test_serve_report_browser import QUICK, _open, _text  # noqa: E402

from rulecraft.screen_words import PAGE  # noqa: E402

served, chromium = browser_tests.served, browser_tests.chromium

# a name that would run a script were it written into the page as markup
MARKUP = "<img src=x onerror=pwned=1>"


def _post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"content-type": "application/json"})
    return json.loads(urllib.request.urlopen(request).read())


def _href(page, element: str):
    return page.js(f"(() => {{ const a = document.getElementById({json.dumps(element)}); return a && a.getAttribute('href'); }})()")


def test_the_lobby_keeps_its_games_and_the_host_replaces_a_link(chromium, served):
    page, fr = chromium, PAGE["fr"]
    page.call("Page.navigate", url=f"{served}/?lang=fr")
    page.wait_for("document.querySelectorAll('#ruleset option').length > 0", QUICK)
    assert page.js("document.getElementById('mine').hidden")  # nothing created here yet
    page.js("(() => { const r = document.getElementById('ruleset'); r.value = 'tic_tac_toe';"
            " r.dispatchEvent(new Event('change')); })()")
    page.wait_for("!!document.getElementById('seat-p2')", QUICK)
    page.js("document.getElementById('create').click()")
    page.wait_for("!!document.getElementById('link-p1')", QUICK)
    created = {seat: _href(page, f"link-{seat}") for seat in ("p1", "p2", "spectator")}
    game = created["p1"].split("/")[2]
    assert created["p1"].endswith("?lang=fr")

    # listed after a reload: kept by this browser
    page.call("Page.reload")
    page.wait_for(f"!!document.getElementById('mine-{game}-link-p1')", QUICK)
    assert not page.js("document.getElementById('mine').hidden")
    assert _text(page, "mine-title") == fr["lobby_mine"]
    assert {seat: _href(page, f"mine-{game}-link-{seat}") for seat in created} == created
    host = _href(page, f"mine-{game}-host")
    assert host.startswith(f"/organiser/{game}/")

    # p2 names their seat with markup: shown as text, run nowhere
    _open(page, served + created["p2"])
    assert not page.js("document.getElementById('name-bar').hidden")
    page.js(f"document.getElementById('name').value = {json.dumps(MARKUP)}")
    page.js("document.getElementById('name-save').click()")
    named = fr["named"].format(player="p2", name=MARKUP)
    page.wait_for(f"document.getElementById('status').textContent.includes({json.dumps(named)})", QUICK)
    assert page.js("document.querySelectorAll('#status img, #title img, img[src=x]').length") == 0
    assert page.js("typeof window.pwned") == "undefined"
    assert _text(page, "title").endswith(named)

    # the host replaces p1's link while p1's page is open: it says so, in French, and offers nothing
    _open(page, served + created["p1"])
    page.wait_for("document.querySelectorAll('button.option').length === 9", QUICK)
    new = _post(served + host.replace("/organiser/", "/api/organiser/", 1).split("?")[0] + "/links", {"seat": "p1"})["link"]
    page.wait_for(f"document.getElementById('connection').textContent === {json.dumps(fr['link_replaced'])}", QUICK)
    assert page.js("document.querySelectorAll('button.option').length") == 0
    assert page.js("document.body.dataset.connected") == "no"

    # the lobby shows the links now (the new one), the name given, and makes a new link itself
    page.call("Page.navigate", url=f"{served}/?lang=fr")
    page.wait_for(f"(document.getElementById('mine-{game}-link-p1') || {{}}).getAttribute?.('href') === "
                  f"{json.dumps(new + '?lang=fr')}", QUICK)
    assert MARKUP in page.js(f"document.getElementById('mine-{game}').textContent")
    page.js(f"document.getElementById('mine-{game}-new-p2').click()")
    page.wait_for(f"document.getElementById('mine-{game}-link-p2').getAttribute('href') !== {json.dumps(created['p2'])}",
                  QUICK)
    replaced = urllib.request.Request(served + created["p2"])
    with pytest.raises(urllib.error.HTTPError) as gone:
        urllib.request.urlopen(replaced)
    assert gone.value.code == 410

    # forgotten, it stays forgotten; its host link lists it again
    page.js(f"document.getElementById('forget-{game}').click()")
    page.wait_for("document.getElementById('mine').hidden", QUICK)
    page.call("Page.reload")
    page.wait_for("document.querySelectorAll('#ruleset option').length > 0", QUICK)
    assert page.js(f"document.getElementById('mine-{game}')") is None
    page.call("Page.navigate", url=f"{served}{host}")
    page.wait_for(f"!!document.getElementById('mine-{game}-link-spectator')", QUICK)
    assert _href(page, f"mine-{game}-link-spectator") == created["spectator"]
    # the host's token left the address bar
    assert page.js("location.pathname") == "/"
