"""`rulecraft serve` while a bot thinks for long: its decision is made in a worker
thread, so every other table, the lobby and the API are answered meanwhile; a new game
is answered before its bots' turns, a resumed one before its interrupted bot turn, and
the table being decided is never read halfway through a decision. A stored game that
fails to resume is tried again on a later request."""

from __future__ import annotations

import asyncio
import time

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from rulecraft.bots import REGISTRY  # noqa: E402
from rulecraft.bots.random_bot import RandomBot  # noqa: E402
from rulecraft.cli.common import shipped_rulesets  # noqa: E402
from rulecraft.server.app import create_app  # noqa: E402
from rulecraft.server.games import Server  # noqa: E402
from rulecraft.server.store import GameStore, StoredGame  # noqa: E402
from rulecraft.server.tables import HUMAN, SPECTATOR  # noqa: E402

DELAY = 1.5  # seconds a decision of the slow bot
ORDER: list[str] = []  # what happened, in order: the slow bot's "thinking" and "decided", the requests'


class SlowBot(RandomBot):
    """A bot that thinks as long as a search bot does, holding its thread (time.sleep)."""

    def choose(self, view: dict) -> int:
        ORDER.append("thinking")
        time.sleep(DELAY)
        ORDER.append("decided")
        return super().choose(view)


@pytest.fixture
def slow(monkeypatch):
    monkeypatch.setitem(REGISTRY, "slow", SlowBot)
    ORDER.clear()


def api(link: str) -> str:
    return link.replace("/game/", "/api/games/", 1)


async def _until_thinking() -> None:
    while "thinking" not in ORDER:
        await asyncio.sleep(0.01)


def test_another_table_is_answered_while_a_slow_bot_thinks(tmp_path, slow):
    app = create_app(shipped_rulesets(), tmp_path / "games.sqlite")

    async def scenario() -> dict:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://table") as client:
            other = (await client.post("/api/games", json={"ruleset": "tic_tac_toe", "seats": [HUMAN, HUMAN]})).json()
            views: dict = {}

            async def create_the_slow_game():
                # the slow bot plays first: its decision is due as soon as the game exists
                r = await client.post("/api/games", json={"ruleset": "tic_tac_toe", "seats": ["slow", HUMAN]})
                assert r.status_code == 201, r.text
                ORDER.append("created")
                views["slow"] = (await client.get(api(r.json()["links"]["p2"]))).json()
                ORDER.append("slow table viewed")

            async def look_at_another_table():
                await _until_thinking()
                views["other"] = await client.get(api(other["links"]["p1"]))
                ORDER.append("other table viewed")
                assert (await client.get("/api/rulesets")).status_code == 200
                ORDER.append("lobby answered")

            await asyncio.gather(create_the_slow_game(), look_at_another_table())
            return views

    views = asyncio.run(scenario())
    decided = ORDER.index("decided")
    # the other table, the lobby and the slow game's creation did not wait for the bot
    assert ORDER.index("other table viewed") < decided, ORDER
    assert ORDER.index("lobby answered") < decided, ORDER
    assert ORDER.index("created") < decided, ORDER
    assert views["other"].status_code == 200 and len(views["other"].json()["options"]) == 9
    # the slow game's own view waited for the decision: never a game halfway through one
    assert ORDER.index("slow table viewed") > decided
    assert views["slow"]["decisions"] == 1 and len(views["slow"]["options"]) == 8


def _stored_game(db, seats: dict[str, str], decisions: list[int]) -> StoredGame:
    store = GameStore(db)
    tokens = {p: f"token-{p}-0123456789" for p, seat in seats.items() if seat == HUMAN}
    tokens[SPECTATOR] = "token-spectator-0123456789"
    game = StoredGame("0123456789ab", "tic_tac_toe", None, len(seats), 11, seats, tokens, [])
    store.create(game)
    for step, option in enumerate(decisions):
        store.add_decision(game.id, step, option)
    store.close()
    return game


def test_a_resumed_game_answers_before_its_interrupted_bot_turn(tmp_path, slow):
    db = tmp_path / "games.sqlite"
    # stopped after p1's first mark, before the bot's answer
    game = _stored_game(db, {"p1": HUMAN, "p2": "slow"}, [0])
    app = create_app(shipped_rulesets(), db)

    async def scenario() -> dict:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://table") as client:
            page = await client.get(f"/game/{game.id}/{game.tokens['p1']}")
            assert page.status_code == 200
            ORDER.append("page served")
            await _until_thinking()
            view = (await client.get(f"/api/games/{game.id}/{game.tokens['p1']}")).json()
            ORDER.append("viewed")
            return view

    view = asyncio.run(scenario())
    assert ORDER.index("page served") < ORDER.index("decided") < ORDER.index("viewed"), ORDER
    # the view waited for the bot: its decision stored and played
    assert view["decisions"] == 2 and len(view["options"]) == 7


def test_a_game_that_failed_to_resume_is_tried_again(tmp_path, monkeypatch, capsys):
    db = tmp_path / "games.sqlite"
    game = _stored_game(db, {"p1": HUMAN, "p2": HUMAN}, [4])
    real = Server._table
    failures = []

    def failing_once(self, stored):
        if not failures:
            failures.append(stored.id)
            raise OSError("the rules' folder is busy")
        return real(self, stored)

    monkeypatch.setattr(Server, "_table", failing_once)
    with TestClient(create_app(shipped_rulesets(), db)) as c:
        link = f"/api/games/{game.id}/{game.tokens['p2']}"
        assert c.get(link).status_code == 404
        told = [line for line in capsys.readouterr().err.splitlines() if line.startswith("rulecraft serve:")]
        assert told == [f"rulecraft serve: game {game.id} (tic_tac_toe) not resumed: OSError: the rules' folder is busy"]
        again = c.get(link)
        assert again.status_code == 200, again.text
        assert again.json()["decisions"] == 1 and again.json()["options"]
