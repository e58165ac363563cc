"""Load figures of `rulecraft serve`: many people playing at once.

`rulecraft serve` runs as its own process (on a free local port, a fresh SQLite file),
as it does in use; N client threads here each play K games against random bots over
their seat's WebSocket, as a browser page does: every decision is one message and one
view back. Before that, --held games are created and left open, as games whose players
have gone away are. Prints decisions per second over all clients, the latency of one
decision (send → view received), how many games the server holds and its memory, and,
for a server started again on the same SQLite file, how soon it answers and how long a
stored game takes to come back when its page asks for it.

    .venv/bin/python benchmarks/serve_load.py [--clients N] [--games K] [--ruleset R] [--players N] [--held H]
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from websockets.sync.client import connect

SERVE = "import sys; from rulecraft.cli.main import main; sys.exit(main())"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """`rulecraft serve` in its own process."""

    def __init__(self, ruleset: str, db: str):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.command = [sys.executable, "-c", SERVE, "serve", ruleset, "--port", str(self.port), "--db", db]
        self.proc = None

    def start(self) -> float:
        """Start it; the seconds until it answers (it first resumes every stored game)."""
        start = time.perf_counter()
        self.proc = subprocess.Popen(self.command, stdout=subprocess.DEVNULL)
        while True:
            try:
                urllib.request.urlopen(f"{self.base}/api/rulesets", timeout=5).read()
                return time.perf_counter() - start
            except OSError:
                if self.proc.poll() is not None:
                    sys.exit("rulecraft serve stopped")
                time.sleep(0.05)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(30)

    def memory(self) -> dict[str, int]:
        """Resident memory now and at its peak, in MiB (Linux /proc)."""
        out = {}
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) // 1024
        return out


def create(base: str, ruleset: str, seats: list[str]) -> str:
    request = urllib.request.Request(f"{base}/api/games", data=json.dumps({"ruleset": ruleset, "seats": seats})
                                     .encode(), method="POST")
    return json.loads(urllib.request.urlopen(request, timeout=120).read())["links"]["p1"]


def play(base: str, ruleset: str, seats: list[str], games: int, latencies: list[float]) -> int:
    decisions = 0
    for _ in range(games):
        link = create(base, ruleset, seats)
        with connect(base.replace("http", "ws", 1) + link.replace("/game/", "/ws/", 1), max_size=None) as ws:
            view = json.loads(ws.recv())
            while view["result"] is None and view["options"]:
                start = time.perf_counter()
                ws.send(json.dumps({"type": "choose", "option": view["options"][0]["option"]}))
                view = json.loads(ws.recv())
                latencies.append(time.perf_counter() - start)
                decisions += 1
    return decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--games", type=int, default=5, help="games per client")
    parser.add_argument("--ruleset", default="tic_tac_toe")
    parser.add_argument("--players", type=int, default=2, help="one person, the other seats random bots")
    parser.add_argument("--held", type=int, default=0, help="games created first and left open")
    args = parser.parse_args()
    seats = ["human"] + ["random"] * (args.players - 1)
    with tempfile.TemporaryDirectory() as tmp:
        served = Served(args.ruleset, str(Path(tmp) / "games.sqlite"))
        served.start()
        try:
            idle = served.memory()["VmRSS"]
            links = [create(served.base, args.ruleset, seats) for _ in range(args.held)]
            held = served.memory()["VmRSS"]
            latencies: list[float] = []
            counts: list[int] = []
            links.append(create(served.base, args.ruleset, seats))  # one to reopen after the restart
            start = time.perf_counter()
            threads = [threading.Thread(target=lambda: counts.append(play(served.base, args.ruleset, seats,
                                                                           args.games, latencies)))
                       for _ in range(args.clients)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            elapsed = time.perf_counter() - start
            memory = served.memory()
        finally:
            served.stop()
        games = args.held + 1 + args.clients * args.games
        answers = served.start()  # the same SQLite file
        try:
            start = time.perf_counter()  # a stored game is replayed when a page first asks for it
            urllib.request.urlopen(served.base + links[0].replace("/game/", "/api/games/"), timeout=120).read()
            reopened = time.perf_counter() - start
            after_restart = served.memory()["VmRSS"]
        finally:
            served.stop()
    total = sum(counts)
    latencies.sort()
    print(f"{args.clients} clients × {args.games} games of {args.ruleset} ({args.players} players): {total} decisions "
          f"in {elapsed:.1f} s ({total / elapsed:.0f} decisions/s, {args.clients * args.games / elapsed:.1f} games/s)")
    print(f"latency of one decision: median {statistics.median(latencies) * 1000:.1f} ms, "
          f"95th percentile {latencies[int(len(latencies) * 0.95)] * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms")
    print(f"server memory: {idle} MiB idle, {held} MiB holding {args.held} open games, {memory['VmRSS']} MiB at the end "
          f"(peak {memory['VmHWM']} MiB; the {args.clients * args.games} finished games have left memory)")
    print(f"restart on the same SQLite file ({games} games): answering after {answers:.1f} s, "
          f"a stored game's first view {reopened * 1000:.0f} ms, then {after_restart} MiB")


if __name__ == "__main__":
    main()
