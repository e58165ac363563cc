"""How well a rule set's heuristics foretell who wins: the figure a search that cuts its
playouts short and judges them by those heuristics depends on.

Bots play games; every few decisions each side's worth is read, as the search bot reads
it at a cut-off (the average, over the seats on that side then, of each seat's worth
from its own view). When a game ends, each reading is labelled by whether that side won.
For each side the script prints the AUC of worth against winning (the chance that a
reading taken in a game the side went on to win is higher than one taken in a game it
lost; 0.5 is no signal, 1.0 a perfect one), overall and by how far into the game the
reading was taken. ``--features`` adds the same figure for each feature alone (its
weighted value averaged over the side's seats: above 0.5 when the feature's weight
points the way the results do, below when it points against them).

A game stopped at the round limit counts as lost for every side; ``--decided`` leaves
such games out, for a rule set whose undecided games are a kind of their own (Star
Trek: Panic's stuck ones, docs/bots.md).

Readings are taken from the table alone, without the seats' memories of what they saw
(``seen(...)`` reads nothing), as the search bot's cut-off judges them.

    python benchmarks/heuristic_signal.py rules/panic_station --players 5 --games 200 --features
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulecraft.bots import bot_problem, cannot_play, make_bot, view_for  # noqa: E402
from rulecraft.bots.heuristic import HeuristicBot  # noqa: E402
from rulecraft.bots.evaluation import Evaluation, declares_heuristics  # noqa: E402
from rulecraft.bots.weight_fit import auc  # noqa: E402
from rulecraft.cli.common import ruleset_arg, ruleset_for_players  # noqa: E402
from rulecraft.interpreter.game import Game  # noqa: E402
from rulecraft.interpreter.sides import seat_sides, winning_side  # noqa: E402
from rulecraft.interpreter.state import seat_players  # noqa: E402
from rulecraft.interpreter.views import player_view  # noqa: E402

PHASES = ("first third", "middle third", "last third")


def play(ruleset, evaluation, players: int, seed: int, bot: str, every: int,
         decided_only: bool = False) -> list[tuple[str, dict, float, bool]]:
    """(side, {"worth" or feature label: value}, how far into the game, won) for each
    reading of one game; none for a game stopped undecided (the round limit) when
    ``decided_only``."""
    game = Game(ruleset, players, seed)
    seats = {p: make_bot(bot, seed * 7919 + i) for i, p in enumerate(seat_players(players))}
    readings: list[tuple[str, float, int]] = []
    decision = 0
    while not game.over:
        if decision % every == 0:
            sides = seat_sides(ruleset, game.state)
            seen = {p: _reading(evaluation, player_view(ruleset, game.state, p)) for p in game.state.players}
            by_side = defaultdict(list)
            for p, on in sides.items():
                for side in on:
                    by_side[side].append(seen[p])
            for side, values in by_side.items():
                labels = {label for v in values for label in v}
                readings.append((side, {label: sum(v.get(label, 0.0) for v in values) / len(values)
                                        for label in labels}, decision))
        player = game.pending.player
        game.choose(seats[player].choose(view_for(game, seats[player], player)))
        decision += 1
    if decided_only and not game.state.result.get("decided", True):
        return []
    winners = game.state.result["winners"]
    won = set(winning_side(ruleset, game.state, winners).split(" + ")) if winners else set()
    return [(side, value, at / max(decision, 1), side in won) for side, value, at in readings]


def _reading(evaluation, view: dict) -> dict[str, float]:
    """The seat's worth and each weighted feature's share of it."""
    out = {"worth": 0.0}
    for _, label, weight, value in evaluation.features(view):
        out[label] = out.get(label, 0.0) + weight * value
        out["worth"] += weight * value
    return out


def _auc_cells(readings, key: str) -> tuple[str, list[str]]:
    cells = []
    for lo, hi in ((0, 1 / 3), (1 / 3, 2 / 3), (2 / 3, 1.01)):
        part = [r for r in readings if lo <= r[2] < hi]
        value = auc([r[1].get(key, 0.0) for r in part if r[3]], [r[1].get(key, 0.0) for r in part if not r[3]])
        cells.append("—" if value is None else f"{value:.2f}")
    overall = auc([r[1].get(key, 0.0) for r in readings if r[3]], [r[1].get(key, 0.0) for r in readings if not r[3]])
    return ("—" if overall is None else f"{overall:.2f}"), cells


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset", type=ruleset_arg, help="a rule-set folder or a shipped rule set's name")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--bot", default=None,
                        help="the bot in every seat (default: heuristic where the game has a strategy, else greedy)")
    parser.add_argument("--every", type=int, default=10, help="read the worths every N decisions")
    parser.add_argument("--features", action="store_true", help="also each feature's own AUC")
    parser.add_argument("--decided", action="store_true",
                        help="leave out games stopped undecided (the round limit): they count as lost for every side")
    args = parser.parse_args(argv)
    ruleset = ruleset_for_players(parser, args.ruleset, args.players)
    if ruleset is None:
        return 2
    if not declares_heuristics(ruleset):
        print(f"{args.ruleset} declares no heuristics", file=sys.stderr)
        return 2
    if args.bot is None:
        args.bot = "heuristic" if HeuristicBot.plays(ruleset.data.game.name) else "greedy"
    problem = bot_problem(args.bot) or cannot_play(args.bot, ruleset)
    if problem:
        print(f"heuristic_signal: {problem}", file=sys.stderr)
        return 2
    evaluation = Evaluation(ruleset)
    started = time.process_time()
    readings, left_out = [], 0
    for seed in range(args.seed, args.seed + args.games):
        read = play(ruleset, evaluation, args.players, seed, args.bot, args.every, args.decided)
        left_out += not read
        readings += read
    kept = f" ({left_out} stopped undecided, left out)" if args.decided else ""
    print(f"{args.games} games{kept}, seeds {args.seed}-{args.seed + args.games - 1}, bot {args.bot}, "
          f"{len(readings)} readings, {time.process_time() - started:.0f} s CPU")
    print(f"{'side':<14} {'readings':>8} {'won':>6}  AUC overall  " + "  ".join(f"{p:>12}" for p in PHASES))
    for side in sorted({r[0] for r in readings}):
        mine = [r for r in readings if r[0] == side]
        overall, cells = _auc_cells(mine, "worth")
        print(f"{side:<14} {len(mine):>8} {sum(r[3] for r in mine):>6}  {overall:>11}  "
              + "  ".join(f"{c:>12}" for c in cells))
        if args.features:
            labels = sorted({label for r in mine for label in r[1]} - {"worth"})
            for label in labels:
                overall, cells = _auc_cells(mine, label)
                # under the side's own figures: the label in the first three columns
                shown = label if len(label) <= 29 else label[:28] + "…"
                print(f"  {shown:<30}{overall:>11}  " + "  ".join(f"{c:>12}" for c in cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
