"""`rulecraft simulate RULESET`: bots play many games; a summary of how they ended."""

from __future__ import annotations

import statistics
import time
from collections import Counter

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from rulecraft.bots import RandomBot
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import RuleRuntimeError

from .common import any_int, load_or_report, positive_int, ruleset_arg


def add_parser(sub) -> None:
    p = sub.add_parser("simulate", help="play many games with random bots and summarize them",
                       description="Random-legal-move bots play K games; prints how the games ended.")
    p.add_argument("ruleset", type=ruleset_arg, help="a rule-set folder, e.g. rules/panic_station")
    p.add_argument("--players", type=positive_int, default=None, help="players per game (default: the rule set's minimum)")
    p.add_argument("--games", type=positive_int, default=100, help="how many games (default 100)")
    p.add_argument("--seed", type=any_int, default=0, help="game i uses seed SEED+i (default 0)")
    p.add_argument("--log", metavar="FILE", help="write the first game's log (JSON lines) to FILE")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def play_one(ruleset, players: int, seed: int) -> Game:
    game = Game(ruleset, players, seed)
    bots = {p: RandomBot(seed * 7919 + i) for i, p in enumerate(game.state.players)}
    while not game.over:
        choice = game.pending
        game.choose(bots[choice.player].choose(game.view(choice.player)))
    return game


def run(args) -> int:
    console = Console()
    ruleset = load_or_report(args.ruleset)
    if ruleset is None:
        return 1
    spec = ruleset.data.game
    players = args.players or spec.min_players
    if not spec.min_players <= players <= spec.max_players:
        console.print(f"[red]error:[/] {spec.title} is played by {spec.min_players} to {spec.max_players} players, not {players}")
        return 2
    endings: Counter = Counter()
    rounds, decisions, failures = [], [], []
    started = time.perf_counter()
    with Progress(console=console, disable=args.quiet, transient=True) as progress:
        task = progress.add_task(f"{spec.title}, {players} players", total=args.games)
        for i in range(args.games):
            seed = args.seed + i
            try:
                game = play_one(ruleset, players, seed)
            except RuleRuntimeError as err:
                failures.append((seed, str(err)))
                progress.advance(task)
                continue
            if i == 0 and args.log:
                game.write_log(args.log)
            result = game.result
            label = result["reason"] if result["decided"] else f"undecided ({result['reason']})"
            endings[label] += 1
            rounds.append(game.state.round)
            decisions.append(len(game.decisions))
            progress.advance(task)
    elapsed = time.perf_counter() - started
    table = Table(title=f"{spec.title}: {args.games} games, {players} players, seeds {args.seed}–{args.seed + args.games - 1}")
    table.add_column("how the game ended")
    table.add_column("games", justify="right")
    table.add_column("share", justify="right")
    for label, n in endings.most_common():
        table.add_row(label, str(n), f"{100 * n / args.games:.1f}%")
    if failures:
        table.add_row("[red]rule error[/]", str(len(failures)), f"{100 * len(failures) / args.games:.1f}%")
    console.print(table)
    if rounds:
        console.print(f"rounds per game: mean {statistics.mean(rounds):.1f}, min {min(rounds)}, max {max(rounds)}; "
                      f"decisions per game: mean {statistics.mean(decisions):.1f}")
    console.print(f"{args.games} games in {elapsed:.1f} s ({args.games / elapsed:.1f} games/s)")
    for seed, message in failures[:5]:
        console.print(f"[red]seed {seed}:[/] {message}")
    return 1 if failures else 0
