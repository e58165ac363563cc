"""`rulecraft serve`: a person gives their seat a name, which every page of the game (the
spectator's too) shows beside that seat; it is kept in the store, survives a restart,
is limited in length and to one line of text, and is sent as the text it is (the page
writes it as text: tests/test_serve_live_lobby_browser.py checks a `<script>` name)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from rulecraft.cli.common import shipped_rulesets  # noqa: E402
from rulecraft.screen_words import REFUSALS  # noqa: E402
from rulecraft.server.app import create_app  # noqa: E402
from rulecraft.server.games import MAX_NAME  # noqa: E402
from rulecraft.server.tables import HUMAN  # noqa: E402

SCRIPT = "<script>alert(1)</script>"


def app(tmp_path):
    return create_app({"tic_tac_toe": shipped_rulesets()["tic_tac_toe"]}, tmp_path / "g.sqlite")


def ws_path(link: str) -> str:
    return link.replace("/game/", "/ws/", 1)


def names(view: dict) -> dict:
    return {p["id"]: p["name"] for p in view["players"]}


def test_a_name_is_shown_to_every_page_and_survives_a_restart(tmp_path):
    with TestClient(app(tmp_path)) as c:
        game = c.post("/api/games", json={"ruleset": "tic_tac_toe", "seats": [HUMAN, HUMAN], "seed": 1}).json()
        with c.websocket_connect(ws_path(game["links"]["p1"])) as p1, \
                c.websocket_connect(ws_path(game["links"]["p2"])) as p2, \
                c.websocket_connect(ws_path(game["links"]["spectator"])) as spectator:
            pages = (p1, p2, spectator)
            assert [names(ws.receive_json()) for ws in pages] == [{"p1": None, "p2": None}] * 3
            # spaces around and inside are tidied; the name is public
            p1.send_text(json.dumps({"type": "name", "name": "  Ada \t Lovelace "}))
            assert [names(ws.receive_json()) for ws in pages] == [{"p1": "Ada Lovelace", "p2": None}] * 3
            p2.send_text(json.dumps({"type": "name", "name": SCRIPT}))
            views = [ws.receive_json() for ws in pages]
            # sent as the text it is: the page writes it as text, never as markup
            assert all(names(v) == {"p1": "Ada Lovelace", "p2": SCRIPT} for v in views)
            # a name changes no decision: the game has not moved on
            assert {v["decisions"] for v in views} == {0}
    with TestClient(app(tmp_path)) as c:  # a restarted server
        view = c.get(game["links"]["p2"].replace("/game/", "/api/games/")).json()
        assert names(view) == {"p1": "Ada Lovelace", "p2": SCRIPT}
        # an empty name takes it away
        with c.websocket_connect(ws_path(game["links"]["p1"])) as p1:
            p1.receive_json()
            p1.send_text(json.dumps({"type": "name", "name": ""}))
            assert names(p1.receive_json()) == {"p1": None, "p2": SCRIPT}
    with TestClient(app(tmp_path)) as c:
        view = c.get(game["links"]["spectator"].replace("/game/", "/api/games/")).json()
        assert names(view) == {"p1": None, "p2": SCRIPT}


def test_a_bot_keeps_its_kind_and_has_no_name(tmp_path):
    with TestClient(app(tmp_path)) as c:
        game = c.post("/api/games", json={"ruleset": "tic_tac_toe", "seats": [HUMAN, "random"], "seed": 1}).json()
        with c.websocket_connect(ws_path(game["links"]["p1"])) as p1:
            p1.receive_json()
            p1.send_text(json.dumps({"type": "name", "name": "Grace"}))
            players = p1.receive_json()["players"]
            assert [(p["name"], p["seat"]) for p in players] == [("Grace", HUMAN), (None, "random")]


@pytest.mark.parametrize("name, reason", [
    ("x" * (MAX_NAME + 1), REFUSALS["en"]["name_too_long"].format(most=MAX_NAME)),
    (42, REFUSALS["en"]["name_not_text"]),
    (None, REFUSALS["en"]["name_not_text"]),
    ("Eve\u202eevE", REFUSALS["en"]["name_not_text"]),  # a right-to-left override
    ("nul\x00", REFUSALS["en"]["name_not_text"]),
])
def test_a_bad_name_is_refused_and_changes_nothing(tmp_path, name, reason):
    with TestClient(app(tmp_path)) as c:
        game = c.post("/api/games", json={"ruleset": "tic_tac_toe", "seats": [HUMAN, HUMAN], "seed": 1}).json()
        with c.websocket_connect(ws_path(game["links"]["p1"])) as p1:
            p1.receive_json()
            p1.send_text(json.dumps({"type": "name", "name": name}))
            assert p1.receive_json() == {"type": "error", "message": reason}
        view = c.get(game["links"]["p1"].replace("/game/", "/api/games/")).json()
        assert names(view) == {"p1": None, "p2": None}


def test_the_spectator_has_no_seat_to_name_and_is_told_in_its_language(tmp_path):
    with TestClient(app(tmp_path)) as c:
        game = c.post("/api/games", json={"ruleset": "tic_tac_toe", "seats": [HUMAN, HUMAN], "seed": 1}).json()
        with c.websocket_connect(ws_path(game["links"]["spectator"]) + "?lang=fr") as spectator:
            spectator.receive_json()
            spectator.send_text(json.dumps({"type": "name", "name": "Mallory"}))
            assert spectator.receive_json() == {"type": "error", "message": REFUSALS["fr"]["spectator_name"]}
        with c.websocket_connect(ws_path(game["links"]["p1"]) + "?lang=fr") as p1:
            p1.receive_json()
            p1.send_text(json.dumps({"type": "name", "name": "é" * 31}))
            assert p1.receive_json()["message"] == REFUSALS["fr"]["name_too_long"].format(most=MAX_NAME)
