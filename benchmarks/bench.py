"""rulecraft benchmark: how fast rule sets load and games run, against the targets.

    python benchmarks/bench.py [RULESET] [--games N] [--players N] [--profile N] [--no-parallel]

Prints, each next to its target:
  * rule-set load time (parse + check + compile): cold, in a new Python process, both
    without the on-disk cache (RULECRAFT_NO_CACHE=1: everything parsed and compiled) and
    with it (as every load after the first one of unchanged files); and cached, a second
    load in the same process;
  * decisions per second and complete games per second of random-bot games on one core;
  * the time to clone (``state.clone()``) and serialize (``state.dumps()``) a mid-game state;
  * peak memory per game (tracemalloc);
  * games per second with all cores (simulate's worker pool) and the time 10,000 games
    would take at that rate.
``--profile N`` then runs N games under cProfile and prints where the time goes.
Figures depend on the machine and on its load; run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import subprocess
import sys
import time
import timeit
import tracemalloc

from rulecraft.bots import make_bot, view_for
from rulecraft.cli.simulate import bot_seed, default_workers, play_game, play_row, run_games
from rulecraft.dsl.loader import load_checked, resolve_ruleset_path
from rulecraft.interpreter.game import Game

TARGETS = {
    "load_cold_ms": 150,
    "load_cached_ms": 50,
    "decisions_per_s": 25_000,
    "games_per_s": 150,
    "ten_thousand_games_s": 300,
}

COLD_SNIPPET = """
import sys, time
t0 = time.perf_counter()
from rulecraft.dsl.loader import load_checked
t1 = time.perf_counter()
load_checked(sys.argv[1])
t2 = time.perf_counter()
print(f"{(t1 - t0) * 1000:.3f} {(t2 - t1) * 1000:.3f}")
"""


def verdict(ok: bool) -> str:
    return "ok " if ok else "MISS"


def line(label: str, value: str, target: str, ok: bool | None) -> None:
    mark = "    " if ok is None else verdict(ok)
    print(f"  {mark} {label:<34} {value:>16}   target {target}")


def cold_load(path: str, disk_cache: bool) -> tuple[float, float]:
    """(import ms, load ms) in a new process."""
    env = dict(os.environ)
    if disk_cache:
        env.pop("RULECRAFT_NO_CACHE", None)
    else:
        env["RULECRAFT_NO_CACHE"] = "1"
    out = subprocess.run([sys.executable, "-c", COLD_SNIPPET, path], capture_output=True, text=True, check=True,
                         env=env)
    imp, load = map(float, out.stdout.split())
    return imp, load


def bench_load(path: str, repeats: int = 3) -> tuple[float, float, float, float]:
    """(import ms, cold load ms without and with the disk cache, cached load ms): medians."""
    imports, colds, warms = [], [], []
    cold_load(path, True)  # fills the disk cache if it is empty
    for _ in range(repeats):
        imp, load = cold_load(path, False)
        imports.append(imp)
        colds.append(load)
        warms.append(cold_load(path, True)[1])
    load_checked(path)  # the first in-process load
    cached = []
    for _ in range(repeats):
        t = time.perf_counter()
        load_checked(path)
        cached.append((time.perf_counter() - t) * 1000)
    return statistics.median(imports), statistics.median(colds), statistics.median(warms), statistics.median(cached)


def bench_games(ruleset, players: int, games: int, seed: int = 1000) -> tuple[float, float, int, float]:
    """(decisions/s, games/s, decisions, games/s of CPU time) for ``games`` random-bot
    games in this process. On a machine shared with other work the CPU-time rate is the
    steadier figure: it leaves out the time the process waited for a core."""
    decisions = 0
    t = time.perf_counter()
    cpu = time.process_time()
    for i in range(games):
        decisions += len(play_game(ruleset, players, seed + i).decisions)
    elapsed = time.perf_counter() - t
    cpu = time.process_time() - cpu
    return decisions / elapsed, games / elapsed, decisions, games / cpu


def bench_full_views(ruleset, players: int, games: int, seed: int = 1000) -> float:
    """Games per second when every bot view carries the event history (``Game.view``)."""
    t = time.perf_counter()
    for i in range(games):
        game = Game(ruleset, players, seed + i)
        bots = {p: make_bot("random", bot_seed(seed + i, k)) for k, p in enumerate(game.state.players)}
        while not game.over:
            game.choose(bots[game.pending.player].choose(game.view(game.pending.player)))
    return games / (time.perf_counter() - t)


def mid_game(ruleset, players: int, seed: int = 7):
    """A game stopped half-way through (by decisions) of a full random-bot game."""
    total = len(play_game(ruleset, players, seed).decisions)
    game = Game(ruleset, players, seed)
    bots = {p: make_bot("random", bot_seed(seed, i)) for i, p in enumerate(game.state.players)}
    while len(game.decisions) < total // 2 and not game.over:
        bot = bots[game.pending.player]
        game.choose(bot.choose(view_for(game, bot, game.pending.player)))
    return game


def bench_state(ruleset, players: int) -> tuple[float, float, int]:
    """(clone µs, dumps µs, JSON bytes) of a mid-game state."""
    state = mid_game(ruleset, players).state
    n = 200
    clone = min(timeit.repeat(state.clone, number=n, repeat=3)) / n * 1e6
    dumps = min(timeit.repeat(state.dumps, number=n, repeat=3)) / n * 1e6
    return clone, dumps, len(state.dumps())


def bench_memory(ruleset, players: int, games: int = 3) -> float:
    """Peak traced memory of one game, in MB (the largest of ``games`` games)."""
    peaks = []
    for i in range(games):
        tracemalloc.start()
        play_game(ruleset, players, 2000 + i)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    return max(peaks) / 1e6


def bench_parallel(path: str, ruleset, players: int, games: int, workers: int) -> float:
    """Games per second through simulate's worker pool (pool start-up included)."""
    tasks = [(i, 3000 + i, players, ["random"], False) for i in range(games)]
    rows = []
    t = time.perf_counter()
    run_games(path, ruleset, tasks, workers, rows.append)
    return games / (time.perf_counter() - t)


def profile(ruleset, players: int, games: int, top: int = 30) -> None:
    prof = cProfile.Profile()
    prof.enable()
    for i in range(games):
        play_row(ruleset, i, 4000 + i, players, ["random"])
    prof.disable()
    for key, title in (("tottime", "own time"), ("cumulative", "cumulative time")):
        out = io.StringIO()
        pstats.Stats(prof, stream=out).strip_dirs().sort_stats(key).print_stats(top)
        text = out.getvalue()
        body = text[text.find("   ncalls"):] if "   ncalls" in text else text
        print(f"\n--- cProfile of {games} games, top {top} by {title} ---")
        print(body.rstrip())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="rulecraft benchmark")
    ap.add_argument("ruleset", nargs="?", default="panic_station")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--games", type=int, default=20, help="games for the one-core figures (default 20)")
    ap.add_argument("--parallel-games", type=int, default=40, help="games for the all-cores figure (default 40)")
    ap.add_argument("--no-parallel", action="store_true", help="skip the all-cores figure")
    ap.add_argument("--profile", type=int, default=0, metavar="N", help="then profile N games with cProfile")
    args = ap.parse_args(argv)
    path = resolve_ruleset_path(args.ruleset)
    if path is None:
        print(f"no rule set '{args.ruleset}'", file=sys.stderr)
        return 2
    path = str(path)
    cores = default_workers()
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    print(f"rulecraft benchmark: {path}, {args.players} players, random bots; Python {sys.version.split()[0]}, "
          f"{cores} core(s), load average {load:.2f}")

    imports, cold, warm, cached = bench_load(path)
    print("\nrule-set load (parse + check + compile)")
    line("cold, no disk cache (new process)", f"{cold:.0f} ms", f"≤ {TARGETS['load_cold_ms']} ms",
         cold <= TARGETS["load_cold_ms"])
    line("cold, disk cache (new process)", f"{warm:.0f} ms", f"≤ {TARGETS['load_cold_ms']} ms",
         warm <= TARGETS["load_cold_ms"])
    line("  + importing rulecraft first", f"{imports:.0f} ms", "", None)
    line("cached (second load, same process)", f"{cached:.0f} ms", f"≤ {TARGETS['load_cached_ms']} ms",
         cached <= TARGETS["load_cached_ms"])

    ruleset = load_checked(path)
    play_game(ruleset, args.players, 999)  # warm-up
    dps, gps, decisions, cpu_gps = bench_games(ruleset, args.players, args.games)
    print(f"\nrandom-bot games on one core ({args.games} games, {decisions / args.games:.0f} decisions per game)")
    line("decisions per second", f"{dps:,.0f}", f"≥ {TARGETS['decisions_per_s']:,}", dps >= TARGETS["decisions_per_s"])
    line("games per second", f"{gps:.2f}", f"≥ {TARGETS['games_per_s']}", gps >= TARGETS["games_per_s"])
    line("  games per second of CPU time", f"{cpu_gps:.2f}", "(what an idle core would give)", None)
    full = bench_full_views(ruleset, args.players, args.games)
    line("  games/s if views carry all events", f"{full:.2f}", "(Game.view for every decision)", None)

    clone, dumps, size = bench_state(ruleset, args.players)
    print(f"\na mid-game state ({size / 1024:.0f} KiB of JSON)")
    line("state.clone()", f"{clone:.0f} µs", "", None)
    line("state.dumps()", f"{dumps:.0f} µs", "", None)

    peak = bench_memory(ruleset, args.players)
    print("\nmemory")
    line("peak per game (tracemalloc)", f"{peak:.1f} MB", "", None)

    if not args.no_parallel:
        workers = max(1, cores)
        par = bench_parallel(path, ruleset, args.players, args.parallel_games, workers)
        projected = 10_000 / par
        print(f"\nall cores ({workers} worker processes, {args.parallel_games} games)")
        line("games per second", f"{par:.2f}", "", None)
        line("10,000 games would take", f"{projected:,.0f} s", f"< {TARGETS['ten_thousand_games_s']} s",
             projected < TARGETS["ten_thousand_games_s"])
    if args.profile:
        profile(ruleset, args.players, args.profile)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
