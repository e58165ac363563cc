"""`rulecraft serve` as a club night found it, fixed (over HTTP and WebSocket): the player
marked to play is the one who must decide now, a finished game has no current player,
the spectator sees what every seat sees, a seat that may not undo is told why, and the
lobby speaks the language it is asked for. (The pages in a browser:
tests/test_serve_club_night_browser.py.)"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from rulecraft.cli.common import shipped_rulesets  # noqa: E402
from rulecraft.screen_words import PAGE, REFUSALS  # noqa: E402
from rulecraft.server.app import create_app  # noqa: E402
from rulecraft.server.tables import HUMAN  # noqa: E402


@pytest.fixture
def c(tmp_path):
    with TestClient(create_app(shipped_rulesets(), tmp_path / "games.sqlite")) as client:
        yield client


def new_game(c, ruleset: str, seats: list[str], seed: int = 7) -> dict:
    r = c.post("/api/games", json={"ruleset": ruleset, "seats": seats, "seed": seed})
    assert r.status_code == 201, r.text
    return r.json()


def api(link: str) -> str:
    return link.replace("/game/", "/api/games/", 1)


def test_the_player_to_play_is_the_one_deciding_now_even_out_of_turn(c):
    # Star Trek: Panic's trade is answered out of turn: play until a choice falls to
    # another seat than the turn's player
    game = new_game(c, "star_trek_panic", [HUMAN] * 4, seed=3)
    links = {p: api(link) for p, link in game["links"].items()}
    for step in range(400):
        views = {p: c.get(link).json() for p, link in links.items()}
        deciding = next(p for p, v in views.items() if v["options"])
        if deciding != views["p1"]["current"]:
            break
        v = views[deciding]
        # prefer a trade, to be answered by another player
        index = next((i for i, o in enumerate(v["options"]) if "trade" in json.dumps(o["option"])), 0)
        with c.websocket_connect(links[deciding].replace("/api/games/", "/ws/")) as ws:
            ws.receive_json()
            ws.send_text(json.dumps({"type": "choose", "step": v["decisions"], "option": v["options"][index]["option"]}))
            assert ws.receive_json()["type"] == "view"
    else:
        pytest.fail("no choice out of turn came up")
    for p, v in views.items():
        marked = [q["id"] for q in v["players"] if q["to_play"]]
        assert marked == [deciding], (p, marked, v["current"])
        assert v["deciding"] == deciding and v["current"] != deciding


def test_a_finished_game_has_no_current_player(c):
    game = new_game(c, "tic_tac_toe", [HUMAN, "random"], seed=2)
    with c.websocket_connect(game["links"]["p1"].replace("/game/", "/ws/")) as ws:
        view = ws.receive_json()
        while view["result"] is None:
            ws.send_text(json.dumps({"type": "choose", "step": view["decisions"],
                                     "option": view["options"][0]["option"]}))
            view = ws.receive_json()
    assert view["current"] is None and view["deciding"] is None
    assert not any(p["to_play"] for p in view["players"])


def test_the_spectator_sees_what_every_seat_sees(c):
    # Stationfall for three: p4 is Lindsey, a seat the rules play, whose identity every
    # player is shown
    game = new_game(c, "stationfall", [HUMAN] * 3, seed=5)
    views = {p: c.get(api(link)).json() for p, link in game["links"].items()}

    def side(seat: str, of: str) -> dict:
        p = next(q for q in views[seat]["players"] if q["id"] == of)
        return {"status": p.get("status"), "zones": p.get("zones")}

    lindsey = side("p1", "p4")
    assert lindsey == side("p2", "p4") == side("p3", "p4") and lindsey["status"]
    assert side("spectator", "p4") == lindsey
    # and nothing only some seats see: p1's hand is as p2 sees it, not as p1 does
    assert side("spectator", "p1") == side("p2", "p1")


def test_a_seat_that_may_not_undo_is_told_why(c):
    game = new_game(c, "tic_tac_toe", [HUMAN, HUMAN])
    view = c.get(api(game["links"]["p1"])).json()
    assert not view["can_undo"]
    assert view["undo_problem"] == REFUSALS["en"]["cannot_undo"].format(reason=REFUSALS["en"]["no_decision"])
    french = c.get(api(game["links"]["p1"]) + "?lang=fr").json()
    assert french["undo_problem"] == REFUSALS["fr"]["cannot_undo"].format(reason=REFUSALS["fr"]["no_decision"])
    # the spectator has no undo to be refused
    assert c.get(api(game["links"]["spectator"])).json()["undo_problem"] is None


def test_the_lobby_speaks_the_language_asked_for(c):
    french = c.get("/?lang=fr").text
    assert '<html lang="fr">' in french and PAGE["fr"]["lobby_heading"] in french
    assert PAGE["fr"]["lobby_create"] in french and PAGE["fr"]["bot_random"] in french
    english = c.get("/").text
    assert '<html lang="en">' in english and PAGE["en"]["lobby_heading"] in english
