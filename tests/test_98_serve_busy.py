"""`rulecraft serve` while bots think: other requests are answered between two bot
decisions, so a search bot that takes seconds a decision holds up no other page."""

from __future__ import annotations

import asyncio

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("starlette")

from rulecraft.bots import REGISTRY  # noqa: E402
from rulecraft.bots.random_bot import RandomBot  # noqa: E402
from rulecraft.cli.common import shipped_rulesets  # noqa: E402
from rulecraft.server.app import create_app  # noqa: E402
from rulecraft.server.tables import HUMAN  # noqa: E402

DECISIONS: list[int] = []  # every decision of the counting bots, in order


class CountingBot(RandomBot):
    def choose(self, view: dict) -> int:
        DECISIONS.append(len(DECISIONS))
        return super().choose(view)


def test_the_lobby_is_answered_while_bots_play_a_new_games_first_moves(tmp_path, monkeypatch):
    monkeypatch.setitem(REGISTRY, "counting", CountingBot)
    DECISIONS.clear()
    app = create_app(shipped_rulesets(), tmp_path / "games.sqlite")

    async def scenario() -> tuple[int, int, int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://table") as client:
            seen: dict[str, int] = {}

            async def create():
                # four bots play every choice before the human in the fifth seat
                seats = ["counting"] * 4 + [HUMAN]
                r = await client.post("/api/games", json={"ruleset": "panic_station", "seats": seats, "seed": 4})
                assert r.status_code == 201, r.text
                seen["created"] = len(DECISIONS)
                # the view waits for the bots' turns (on the table's lock): the person's choice
                view = await client.get(r.json()["links"]["p5"].replace("/game/", "/api/games/"))
                assert view.json()["options"]
                seen["viewed"] = len(DECISIONS)

            async def lobby():
                while not DECISIONS:  # once the bots have begun
                    await asyncio.sleep(0)
                r = await client.get("/api/rulesets")
                assert r.status_code == 200
                seen["lobby"] = len(DECISIONS)

            await asyncio.gather(create(), lobby())
            return seen["lobby"], seen["created"], seen["viewed"], len(DECISIONS)

    at_lobby, at_created, at_viewed, total = asyncio.run(scenario())
    # the game is created at once, its bots' turns played after
    assert at_created < at_viewed == total > 10
    # answered after the first bot decision and well before the last
    assert 1 <= at_lobby < total
