"""In a real browser (the system's Chromium, as tests/test_99_serve_browser.py drives
it): the variables a glossary marks shown stand under the round with their values, and
an action of many variants opens step by step, every option still a button, the one
clicked played."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets.sync.client")

from test_99_serve_browser import chromium, served  # noqa: E402,F401  (fixtures)
from test_99_serve_table_browser import QUICK, _open, _texts  # noqa: E402


def test_the_counters_and_the_trade_asked_step_by_step(chromium, served):
    page = chromium
    _open(page, served, "star_trek_panic", ["human", "random"])
    page.wait_for("document.querySelectorAll('#counters .counter').length === 2", QUICK)
    assert _texts(page, "#counters .counter") == ["missions completed 0", "mission timer 0"]
    assert not page.js("document.getElementById('counters').hidden")
    # the trade: one closed group, whose options are buttons all the same
    options = page.js("view.options.length")
    assert page.js("document.querySelectorAll('button.option').length") == options
    groups = page.js("[...document.querySelectorAll('#options > details.group > summary')].map((s) => s.textContent)")
    assert len(groups) == 1 and groups[0].startswith("Trade a card")
    assert page.js("document.querySelectorAll('#options > button.option').length") < 10
    # opened: the card to give, then the card to take
    page.js("document.querySelector('#options > details.group > summary').click()")
    asked = _texts(page, "#options > details.group[open] > .ask")
    assert asked == ["card given:"]
    page.js("document.querySelector('#options > details.group > .items > details > summary').click()")
    assert _texts(page, "#options details details[open] > .ask") == ["card taken:"]
    index = page.js("Number(document.querySelector('#options details details[open] button.option').dataset.index)")
    label = page.js("view.options[%d].label" % index)
    page.js("document.querySelector('#options details details[open] button.option').click()")
    page.wait_for("Number(document.body.dataset.decisions) > 0", QUICK)
    events = _texts(page, "#events li")
    assert f"p1: {label}." in events and "p1 and p2 trade a card each." in events
