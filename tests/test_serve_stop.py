"""`rulecraft serve` stopped in the middle of bots' turns: it stops between two bot
decisions, promptly and without a traceback, leaving every stored decision whole; a
second server on the same SQLite file is refused while the first runs, and a server
started after it resumes the game and plays the bots' turns that are left."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_client = pytest.importorskip("websockets.sync.client")

import test_99_serve_browser as browser_tests  # noqa: E402

DELAY = 1.0  # seconds a decision of the slow bot (registered in the served process)
SLOW_BOT = f"""
import sys, time
from rulecraft.bots import REGISTRY
from rulecraft.bots.random_bot import RandomBot
class SlowBot(RandomBot):
    def choose(self, view):
        time.sleep({DELAY})
        return super().choose(view)
REGISTRY["slow"] = SlowBot
from rulecraft.cli.main import main
sys.exit(main())
"""


class SlowServe(browser_tests.ServeProcess):
    """`rulecraft serve tic_tac_toe` as its own process, with a bot that thinks a second."""

    program = SLOW_BOT


def _decisions(db, game_id: str) -> list[tuple[int, int]]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
        return c.execute("SELECT step, option FROM decisions WHERE game = ? ORDER BY step", (game_id,)).fetchall()


def _wait_for_decisions(db, game_id: str, more_than: int, seconds: float = 30) -> int:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        n = len(_decisions(db, game_id))
        if n > more_than:
            return n
        time.sleep(0.05)
    raise AssertionError(f"no decision after {more_than} within {seconds} s")


def test_a_server_stopped_mid_bot_turns_stops_at_once_and_the_next_resumes(tmp_path):
    db = tmp_path / "games.sqlite"
    first = SlowServe(db, ["tic_tac_toe"])
    first.start()
    second = None
    try:
        # two slow bots: the whole game is theirs, 5 to 9 decisions of a second each
        game = first.create({"ruleset": "tic_tac_toe", "seats": ["slow", "slow"], "seed": 5})
        spectator = game["links"]["spectator"]
        page = sync_client.connect(first.url.replace("http", "ws") + spectator.replace("/game/", "/ws/"))
        # a second server on the same file is refused, in one line, while the first runs
        refused = subprocess.run([sys.executable, "-m", "rulecraft.cli.main", "serve", "tic_tac_toe",
                                  "--port", str(browser_tests.free_port()), "--db", str(db)],
                                 capture_output=True, text=True, timeout=60)
        assert refused.returncode == 2, refused.stderr
        said = [line for line in refused.stderr.splitlines() if line.strip()]
        assert len(said) == 1 and "another rulecraft serve is using" in said[0] and str(db) in said[0], said
        # stopped after the first bot decision, while the second is being made
        at_stop = _wait_for_decisions(db, game["game"], 0)
        first.proc.send_signal(signal.SIGTERM)
        asked = time.monotonic()
        first.proc.wait(30)
        took = time.monotonic() - asked
        errors = first.proc.stderr.read()
        page.close()
        # it finished the decision under way at most, then stopped
        stored = _decisions(db, game["game"])
        assert at_stop <= len(stored) <= at_stop + 1, (at_stop, stored)
        assert len(stored) < 5 and took < 4 * DELAY, (stored, took)
        assert [step for step, _ in stored] == list(range(len(stored)))
        assert "Traceback" not in errors and "accept" not in errors, errors
        # the next server resumes the game: its link works, and the bots play on
        second = SlowServe(db, ["tic_tac_toe"])
        second.start()
        with urllib.request.urlopen(second.url + spectator.replace("/game/", "/api/games/"), timeout=60) as answer:
            view = json.loads(answer.read())
        assert view["decisions"] >= len(stored)
        _wait_for_decisions(db, game["game"], len(stored))
    finally:
        first.stop()
        if second is not None:
            second.stop()


def test_a_page_whose_connection_closed_during_bot_turns_leaves_no_traceback(tmp_path, monkeypatch, capfd):
    # the page sends its decision and goes; the bots' answer is then sent to a closed
    # connection, and the page's socket is read once more: one line at most, no traceback
    from rulecraft.bots import REGISTRY
    from rulecraft.bots.random_bot import RandomBot

    class SlowBot(RandomBot):
        def choose(self, view):
            time.sleep(DELAY)
            return super().choose(view)

    monkeypatch.setitem(REGISTRY, "slow", SlowBot)
    port = browser_tests.free_port()
    import threading

    import uvicorn

    from rulecraft.cli.common import shipped_rulesets
    from rulecraft.server.app import create_app

    app = create_app(shipped_rulesets(), tmp_path / "games.sqlite")
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        url = f"http://127.0.0.1:{port}"
        request = urllib.request.Request(f"{url}/api/games", json.dumps({"ruleset": "tic_tac_toe", "seats": ["human", "slow"],
                                                                          "seed": 1}).encode())
        game = json.loads(urllib.request.urlopen(request, timeout=60).read())
        with sync_client.connect(url.replace("http", "ws") + game["links"]["p1"].replace("/game/", "/ws/")) as ws:
            view = json.loads(ws.recv(timeout=30))
            ws.send(json.dumps({"type": "choose", "step": 0, "option": view["options"][0]["option"]}))
        # the bot answers after the page has gone; the server goes on
        time.sleep(DELAY + 1)
        spectator = json.loads(urllib.request.urlopen(url + game["links"]["spectator"].replace("/game/", "/api/games/"),
                                                      timeout=30).read())
        assert spectator["decisions"] == 2
        errors = capfd.readouterr().err
        assert "Traceback" not in errors and "accept" not in errors, errors
    finally:
        server.should_exit = True
        thread.join(10)
