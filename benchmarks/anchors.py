"""rulecraft's speed against OpenSpiel on the yardstick games, and Panic Station's.

    pip install -e ".[yardsticks]"      # OpenSpiel
    python benchmarks/anchors.py [--runs N] [--seconds S] [--panic-games N]

Random playouts per second (a new game played to the end with uniformly random moves,
no events recorded, no views) of rulecraft's ``rules/tic_tac_toe``,
``rules/connect_four`` and ``rules/breakthrough`` and of the same games in OpenSpiel,
measured in one run, the two interleaved run by run so both see the same machine load.
Each figure is the median of ``--runs`` runs of about ``--seconds`` each, given both per
second of wall time and per second of the process's CPU time (the steadier figure on a
shared machine). Each ratio rulecraft / OpenSpiel (from CPU time) is printed next to its
target. Then Panic Station with 5 random-bot players (``simulate``'s ``play_game``):
decisions per second and complete games per second, against their targets.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

from rulecraft.cli.simulate import play_game
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game

RULES = Path(__file__).resolve().parent.parent / "rules"

try:
    import pyspiel
    import open_spiel.python.games  # noqa: F401  (registers the pure-Python games)
except ImportError:  # pragma: no cover - depends on the machine
    pyspiel = None

# (rule set, OpenSpiel game, target ratio rulecraft / OpenSpiel)
ANCHORS = [
    ("tic_tac_toe", "python_tic_tac_toe", 1.0),
    ("tic_tac_toe", "tic_tac_toe", None),
    ("connect_four", "connect_four", None),
    ("breakthrough", "breakthrough", 1 / 20),
]
PANIC_TARGETS = {"decisions_per_s": 25_000, "games_per_s": 150}


def rulecraft_playouts(ruleset, seconds: float, seed: int) -> tuple[int, float, float]:
    """(playouts, wall s, CPU s) of random playouts for about ``seconds``."""
    rand = random.Random(seed)
    played = 0
    wall, cpu = time.perf_counter(), time.process_time()
    end = wall + seconds
    while True:
        game = Game(ruleset, 2, rand.randrange(1 << 30), record_events=False)
        while game.state.result is None:
            game.choose(rand.randrange(len(game.state.pending["options"])))
        played += 1
        if time.perf_counter() >= end:
            break
    return played, time.perf_counter() - wall, time.process_time() - cpu


def openspiel_playouts(name: str, seconds: float, seed: int) -> tuple[int, float, float]:
    game = pyspiel.load_game(name)
    rand = random.Random(seed)
    played = 0
    wall, cpu = time.perf_counter(), time.process_time()
    end = wall + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rand.choice(state.legal_actions()))
        played += 1
        if time.perf_counter() >= end:
            break
    return played, time.perf_counter() - wall, time.process_time() - cpu


def panic_station(games: int, seed: int) -> tuple[float, float, float, float]:
    """(decisions/s, games/s, decisions per CPU s, games per CPU s) of 5-player games."""
    ruleset = load_checked(RULES / "panic_station")
    decisions = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        decisions += len(play_game(ruleset, 5, seed + i).decisions)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return decisions / wall, games / wall, decisions / cpu, games / cpu


def verdict(value: float, target: float | None) -> str:
    if target is None:
        return ""
    return ("ok  " if value >= target else "MISS") + f" target >= {target:g}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each measure (median; default 5)")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one run (default 1 s)")
    parser.add_argument("--panic-games", type=int, default=20, help="Panic Station games per run (default 20)")
    parser.add_argument("--only", choices=sorted({a[0] for a in ANCHORS} | {"panic_station"}),
                        help="only this rule set")
    args = parser.parse_args(argv)
    if pyspiel is None:
        print("OpenSpiel is not installed: pip install -e \".[yardsticks]\" (the open_spiel package)", file=sys.stderr)
        return 2
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores; "
          f"medians of {args.runs} runs of ~{args.seconds:g} s")
    print(f"{'rule set':<14} {'OpenSpiel game':<20} {'rulecraft/s':>12} {'(CPU)':>9} {'OpenSpiel/s':>12} {'(CPU)':>9}"
          f" {'ratio (CPU)':>12}")
    for name, spiel_name, target in ANCHORS:
        if args.only and args.only != name:
            continue
        ruleset = load_checked(RULES / name)
        ours, theirs = [], []
        for run in range(args.runs):  # interleaved: both see the same load
            ours.append(rulecraft_playouts(ruleset, args.seconds, run))
            theirs.append(openspiel_playouts(spiel_name, args.seconds, run))
        ours_wall = statistics.median(n / w for n, w, _ in ours)
        ours_cpu = statistics.median(n / c for n, _, c in ours)
        theirs_wall = statistics.median(n / w for n, w, _ in theirs)
        theirs_cpu = statistics.median(n / c for n, _, c in theirs)
        ratio = ours_cpu / theirs_cpu
        print(f"{name:<14} {spiel_name:<20} {ours_wall:>12,.0f} {ours_cpu:>9,.0f} {theirs_wall:>12,.0f} {theirs_cpu:>9,.0f}"
              f" {ratio:>12.3f}  {verdict(ratio, target)}")
    if not args.only or args.only == "panic_station":
        runs = [panic_station(args.panic_games, 1000 + 100 * run) for run in range(max(1, args.runs // 2))]
        dps, gps, dps_cpu, gps_cpu = (statistics.median(r[i] for r in runs) for i in range(4))
        print(f"panic_station, 5 random players ({args.panic_games} games a run):")
        print(f"  decisions/s {dps:>10,.0f}  per CPU s {dps_cpu:>10,.0f}  "
              f"{verdict(dps_cpu, PANIC_TARGETS['decisions_per_s'])}")
        print(f"  games/s     {gps:>10,.1f}  per CPU s {gps_cpu:>10,.1f}  "
              f"{verdict(gps_cpu, PANIC_TARGETS['games_per_s'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
