"""`rulecraft serve`: whoever creates a game gets a host link besides the seats' links;
with its token a seat's link is replaced by a new one, and the old one stops working:
its page and the API refuse it (410, in the page's language), its socket is refused
(closed with 4410) and a socket open on it is told and closed. A seat's token is no
host token. A restarted server keeps all of it."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from rulecraft.cli.common import shipped_rulesets  # noqa: E402
from rulecraft.screen_words import REFUSALS  # noqa: E402
from rulecraft.server.app import create_app  # noqa: E402
from rulecraft.server.tables import HUMAN  # noqa: E402


def app(tmp_path):
    return create_app({"tic_tac_toe": shipped_rulesets()["tic_tac_toe"]}, tmp_path / "g.sqlite")


def ws_path(link: str) -> str:
    return link.replace("/game/", "/ws/", 1)


def api(link: str) -> str:
    return link.replace("/game/", "/api/games/", 1)


def host_api(game: dict) -> str:
    return game["organiser"].replace("/organiser/", "/api/organiser/", 1)


def create(c, seats=(HUMAN, HUMAN)) -> dict:
    r = c.post("/api/games", json={"ruleset": "tic_tac_toe", "seats": list(seats), "seed": 2})
    assert r.status_code == 201, r.text
    return r.json()


def refused_socket(c, path: str) -> tuple[dict, int]:
    with c.websocket_connect(path) as ws:
        message = ws.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    return message, closed.value.code


def test_a_replaced_link_is_refused_and_the_new_one_works(tmp_path):
    replaced = REFUSALS["en"]["replaced"]
    with TestClient(app(tmp_path)) as c:
        game = create(c)
        assert game["organiser"].startswith(f"/organiser/{game['game']}/")
        old = game["links"]["p1"]
        with c.websocket_connect(ws_path(old)) as page:
            view = page.receive_json()
            r = c.post(host_api(game) + "/links", json={"seat": "p1"})
            assert r.status_code == 201, r.text
            new = r.json()["link"]
            assert new != old and new.startswith(f"/game/{game['game']}/") and r.json()["links"]["p1"] == new
            # the page open on the old link is told, and closed
            assert page.receive_json() == {"type": "error", "message": replaced}
            with pytest.raises(WebSocketDisconnect) as closed:
                page.receive_json()
            assert closed.value.code == 4410
        # the old link: its page, the API and a socket refuse it, in the page's language
        page = c.get(old + "?lang=fr")
        assert page.status_code == 410 and REFUSALS["fr"]["replaced"].replace("'", "&#x27;") in page.text
        assert 'lang=\'fr\'' in page.text
        assert c.get(api(old)).status_code == 410 and c.get(api(old)).json() == {"error": replaced}
        assert c.get(api(old) + "/at/0").status_code == 410
        assert refused_socket(c, ws_path(old)) == ({"type": "error", "message": replaced}, 4410)
        # the new link plays the seat
        assert c.get(new).status_code == 200
        with c.websocket_connect(ws_path(new)) as page:
            view = page.receive_json()
            assert view["seat"] == "p1"
            page.send_text(json.dumps({"type": "choose", "option": view["options"][0]["option"], "step": 0}))
            assert page.receive_json()["decisions"] == 1
        # the other seats' links are untouched
        assert c.get(api(game["links"]["p2"])).json()["decisions"] == 1
    with TestClient(app(tmp_path)) as c:  # a restarted server
        assert c.get(api(old)).status_code == 410
        assert c.get(api(new)).json()["decisions"] == 1
        listed = c.get(host_api(game)).json()
        assert listed["links"] == {"p1": new, "p2": game["links"]["p2"], "spectator": game["links"]["spectator"]}


def test_a_socket_opened_on_a_link_then_replaced_cannot_act(tmp_path):
    with TestClient(app(tmp_path)) as c:
        game = create(c)
        old = game["links"]["p1"]
        server = c.app.state.server
        with c.websocket_connect(ws_path(old)) as page:
            view = page.receive_json()
            table = server.tables[game["game"]]
            # replaced while the page was not among the table's (as between its check and its joining)
            server.sockets[game["game"]].clear()
            server.replace_link(table, "p1")
            page.send_text(json.dumps({"type": "choose", "option": view["options"][0]["option"], "step": 0}))
            assert page.receive_json() == {"type": "error", "message": REFUSALS["en"]["replaced"]}
        assert len(table.history) == 0


def test_only_the_host_token_replaces_links(tmp_path):
    with TestClient(app(tmp_path)) as c:
        game = create(c)
        seat_token = game["links"]["p1"].rsplit("/", 1)[1]
        as_seat = f"/api/organiser/{game['game']}/{seat_token}"
        for token in (seat_token, game["links"]["spectator"].rsplit("/", 1)[1], "guessed-token"):
            r = c.post(f"/api/organiser/{game['game']}/{token}/links", json={"seat": "p2"})
            assert r.status_code == 403 and r.json() == {"error": REFUSALS["en"]["not_host"]}
            assert c.get(f"/api/organiser/{game['game']}/{token}").status_code == 403
            assert c.get(f"/organiser/{game['game']}/{token}").status_code == 403
        assert c.post(as_seat + "/links?lang=fr", json={"seat": "p2"}).json() == {"error": REFUSALS["fr"]["not_host"]}
        # nothing was replaced
        assert c.get(api(game["links"]["p2"])).status_code == 200
        # nor is the host token a seat's
        assert c.get(api(f"/game/{game['game']}/{game['organiser'].rsplit('/', 1)[1]}")).status_code == 404
        assert c.post(f"/api/organiser/nosuchgame/{seat_token}/links", json={"seat": "p1"}).status_code == 404
        # a token of any characters is refused as any other, not a fault of the server
        assert c.get(f"/api/organiser/{game['game']}/%C3%A9t%C3%A9").status_code == 403
        assert c.get(f"/api/games/{game['game']}/%C3%A9t%C3%A9").status_code == 404
        # the host's lobby page and what it lists
        assert c.get(game["organiser"]).status_code == 200
        assert c.get(host_api(game)).json()["links"] == game["links"]


@pytest.mark.parametrize("body, status, error", [
    ({"seat": "p2"}, 400, REFUSALS["en"]["no_link_seat"].format(seat="'p2'")),  # the bot's seat
    ({"seat": "p7"}, 400, REFUSALS["en"]["no_link_seat"].format(seat="'p7'")),
    ({"seat": ["p1"]}, 400, REFUSALS["en"]["no_link_seat"].format(seat="['p1']")),
    ({}, 400, REFUSALS["en"]["host_request"].format()),
    ("not json", 400, REFUSALS["en"]["host_request"].format()),
])
def test_a_bad_request_for_a_new_link_is_refused(tmp_path, body, status, error):
    with TestClient(app(tmp_path)) as c:
        game = create(c, (HUMAN, "random"))
        content = body if isinstance(body, str) else json.dumps(body)
        r = c.post(host_api(game) + "/links", content=content)
        assert r.status_code == status and r.json() == {"error": error}
        assert c.get(api(game["links"]["p1"])).status_code == 200


def test_the_spectators_link_may_be_replaced_too(tmp_path):
    with TestClient(app(tmp_path)) as c:
        game = create(c)
        new = c.post(host_api(game) + "/links", json={"seat": "spectator"}).json()["link"]
        assert c.get(api(game["links"]["spectator"])).status_code == 410
        assert c.get(api(new)).json()["spectator"] is True
