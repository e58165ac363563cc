"""Load figures of `rulecraft serve`: many people playing at once.

A real server (uvicorn, on a free local port, a fresh SQLite file) and N client threads,
each playing tic-tac-toe games against a random bot over its seat's WebSocket, as a
browser page does: every decision is one message and one view back. Prints decisions
per second over all clients and the latency of one decision (send → view received).

    .venv/bin/python benchmarks/serve_load.py [--clients N] [--games K] [--ruleset R] [--players N]
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import tempfile
import threading
import time
import urllib.request

import uvicorn
from websockets.sync.client import connect

from rulecraft.cli.common import shipped_rulesets
from rulecraft.server.app import create_app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def play(base: str, ruleset: str, seats: list[str], games: int, latencies: list[float]) -> int:
    decisions = 0
    for _ in range(games):
        request = urllib.request.Request(f"{base}/api/games", data=json.dumps({"ruleset": ruleset, "seats": seats})
                                         .encode(), method="POST")
        link = json.loads(urllib.request.urlopen(request).read())["links"]["p1"]
        with connect(base.replace("http", "ws", 1) + link.replace("/game/", "/ws/", 1)) as ws:
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
    args = parser.parse_args()
    port = free_port()
    db = tempfile.NamedTemporaryFile(suffix=".sqlite", delete=False).name
    server = uvicorn.Server(uvicorn.Config(create_app(shipped_rulesets(), db), host="127.0.0.1", port=port,
                                           log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    latencies: list[float] = []
    counts: list[int] = []
    start = time.perf_counter()
    threads = [threading.Thread(target=lambda: counts.append(play(base, args.ruleset, ["human"] + ["random"] * (args.players - 1),
                                                                   args.games, latencies)))
               for _ in range(args.clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    server.should_exit = True
    total = sum(counts)
    latencies.sort()
    print(f"{args.clients} clients × {args.games} games of {args.ruleset}: {total} decisions in {elapsed:.1f} s "
          f"({total / elapsed:.0f} decisions/s, {args.clients * args.games / elapsed:.1f} games/s)")
    print(f"latency of one decision: median {statistics.median(latencies) * 1000:.1f} ms, "
          f"95th percentile {latencies[int(len(latencies) * 0.95)] * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
