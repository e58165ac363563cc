"""`rulecraft serve` shows a round of bots as it is played: a page that follows every
decision (``?steps=1``, as the table page asks) is sent its seat's view after the
person's answer and after each bot's that took a while (quick bots' decisions are sent
together, at most every STEP_GAP seconds), while the round goes on, and a page opened
during the round gets its first view at the round's next decision; a program reading
the socket without asking gets one view per change, as before. Between two bot decisions
no undo is offered (it would be refused once the round ends), and a rule error during
the round shows the pages the game as it was before."""

from __future__ import annotations

import json
import threading
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from rulecraft.bots import REGISTRY  # noqa: E402
from rulecraft.bots.random_bot import RandomBot  # noqa: E402
from rulecraft.cli.common import shipped_rulesets  # noqa: E402
from rulecraft.screen_words import REFUSALS  # noqa: E402
from rulecraft.server.app import create_app  # noqa: E402
from rulecraft.server.games import STEP_GAP  # noqa: E402
from rulecraft.server.tables import HUMAN  # noqa: E402

# Each decision of a gated bot waits for the test to let it through (or, should the test
# not, for WAIT seconds): the test sees what a page holds while the bot "thinks".
GATE = threading.Semaphore(0)
WAIT = 3.0
DECIDED: list[int] = []  # how many gated decisions have been made


class GatedBot(RandomBot):
    """A search bot's pace: each decision takes longer than the pages' gap between views."""

    def choose(self, view: dict) -> int:
        GATE.acquire(timeout=WAIT)
        time.sleep(STEP_GAP)
        DECIDED.append(1)
        return super().choose(view)


class FailingBot(RandomBot):
    """Answers once, then fails (a bot's error in the middle of a round)."""

    calls = 0

    def choose(self, view: dict) -> int:
        FailingBot.calls += 1
        if FailingBot.calls > 1:
            raise RuntimeError("the bot lost its way")
        return super().choose(view)


@pytest.fixture
def bots(monkeypatch):
    monkeypatch.setitem(REGISTRY, "gated", GatedBot)
    monkeypatch.setitem(REGISTRY, "failing", FailingBot)
    global GATE
    GATE = threading.Semaphore(0)
    DECIDED.clear()
    FailingBot.calls = 0


def ws_path(link: str) -> str:
    return link.replace("/game/", "/ws/", 1)


def receive_view(ws) -> dict:
    while True:
        message = ws.receive_json()
        if message["type"] == "view":
            return message


def pick(view: dict) -> dict:
    """An option that ends the turn when there is one (the bots' round then comes), else the first."""
    for o in view["options"]:
        if isinstance(o["option"], dict) and "end" in str(o["option"].get("action", "")):
            return o["option"]
    return view["options"][0]["option"]


def test_a_page_is_sent_each_bot_decision_of_a_round_as_it_is_made(tmp_path, bots):
    with TestClient(create_app({"panic_station": shipped_rulesets()["panic_station"]}, tmp_path / "g.sqlite")) as c:
        game = c.post("/api/games", json={"ruleset": "panic_station", "seed": 4,
                                          "seats": [HUMAN, "gated", "gated", "gated"]}).json()
        link = ws_path(game["links"]["p1"])
        with c.websocket_connect(link + "?steps=1") as page, c.websocket_connect(link) as program:
            view = receive_view(page)
            assert receive_view(program)["decisions"] == view["decisions"]
            longest = 0
            for _ in range(30):
                if longest >= 3 or view["result"] is not None:
                    break
                before = view["decisions"]
                page.send_text(json.dumps({"type": "choose", "option": pick(view), "step": before}))
                # the person's own answer, at once, though the first bot has not decided
                view = receive_view(page)
                assert view["decisions"] == before + 1
                bot_decisions = 0
                while view["bots_playing"]:
                    # the bot deciding now is named; nobody may undo until the round ends
                    assert view["deciding"] in ("p2", "p3", "p4") and not view["options"]
                    assert not view["can_undo"]
                    assert view["undo_problem"] == REFUSALS["en"]["cannot_undo"].format(
                        reason=REFUSALS["en"]["bots_playing"])
                    made = len(DECIDED)
                    GATE.release()  # one bot decision, then its view
                    view = receive_view(page)
                    bot_decisions += 1
                    assert len(DECIDED) == made + 1
                    assert view["decisions"] == before + 1 + bot_decisions
                longest = max(longest, bot_decisions)
                # the round over: the person's choice, and the undo worked out again
                assert view["options"] and view["deciding"] == "p1"
                assert view["undo_problem"] != REFUSALS["en"]["cannot_undo"].format(
                    reason=REFUSALS["en"]["bots_playing"])
                # the program that did not ask for each step: one view, the round's end
                told = receive_view(program)
                assert told["decisions"] == view["decisions"] and not told["bots_playing"]
            assert longest >= 3, "no round of several bot decisions was played"


def test_a_page_opened_during_a_round_sees_it_go_on(tmp_path, bots):
    with TestClient(create_app({"panic_station": shipped_rulesets()["panic_station"]}, tmp_path / "g.sqlite")) as c:
        # the bots play first, in the background, as soon as the game exists
        game = c.post("/api/games", json={"ruleset": "panic_station", "seed": 4,
                                          "seats": ["gated", "gated", "gated", HUMAN]}).json()
        with c.websocket_connect(ws_path(game["links"]["p4"]) + "?steps=1") as page:
            GATE.release()
            first = receive_view(page)
            # sent by the round's next decision, while the bots are still playing
            assert first["bots_playing"] and first["decisions"] >= 1 and first["events_from"] == 0
            assert len(DECIDED) < 5
            view = first
            while view["bots_playing"]:
                GATE.release()
                view = receive_view(page)
            assert view["deciding"] == "p4" and view["options"]


def test_a_rule_error_in_the_round_shows_the_game_as_it_was(tmp_path, bots):
    with TestClient(create_app({"panic_station": shipped_rulesets()["panic_station"]}, tmp_path / "g.sqlite")) as c:
        game = c.post("/api/games", json={"ruleset": "panic_station", "seed": 4,
                                          "seats": [HUMAN, "failing", "random", "random"]}).json()
        with c.websocket_connect(ws_path(game["links"]["p1"]) + "?steps=1") as page:
            view = receive_view(page)
            error = None
            for _ in range(30):
                before = view["decisions"]
                page.send_text(json.dumps({"type": "choose", "option": pick(view), "step": before}))
                seen = []
                # until the round's end, or the error (after the game as it was: no decision more)
                while error is None and (not seen or seen[-1].get("bots_playing") or seen[-1]["decisions"] == before):
                    message = page.receive_json()
                    if message["type"] == "error":
                        error = message
                    else:
                        seen.append(message)
                if error is not None:
                    break
                view = seen[-1]
            else:
                raise AssertionError("the failing bot was never asked twice")
            # the person's answer (and any bot's before the error) shown, then taken back: the
            # page was sent the game as it was before the click, then why
            assert "the bot lost its way" in error["message"], error
            assert seen and max(v["decisions"] for v in seen) > before
            back = seen[-1]
            assert back["decisions"] == before and back["deciding"] == "p1" and back["options"]
            assert c.get(game["links"]["p1"].replace("/game/", "/api/games/")).json()["decisions"] == before


def test_quick_bots_decisions_are_sent_together(tmp_path):
    """Random bots answer in milliseconds: a round of many decisions is not sent view
    after view (each costs the server's event loop a view per page), but the person's
    answer at once and the round's end."""
    with TestClient(create_app({"panic_station": shipped_rulesets()["panic_station"]}, tmp_path / "g.sqlite")) as c:
        game = c.post("/api/games", json={"ruleset": "panic_station", "seed": 4,
                                          "seats": [HUMAN, "random", "random", "random"]}).json()
        with c.websocket_connect(ws_path(game["links"]["p1"]) + "?steps=1") as page:
            view = receive_view(page)
            for _ in range(30):
                before = view["decisions"]
                page.send_text(json.dumps({"type": "choose", "option": pick(view), "step": before}))
                views = [receive_view(page)]
                while views[-1]["bots_playing"]:
                    views.append(receive_view(page))
                view = views[-1]
                made = view["decisions"] - before
                if made >= 10:
                    break
            else:
                raise AssertionError("no round of many bot decisions")
            assert views[0]["decisions"] == before + 1  # the person's answer, at once
            assert len(views) < made and not view["bots_playing"] and view["deciding"] == "p1"
