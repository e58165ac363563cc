"""How much nearer the truth a rule set's beliefs (``believe`` lines) deal a search bot's
samples than dealing hidden properties uniformly.

Bots play games. Every few decisions, for each seat and each property some entities
hide from it, the true values of those entities are dealt back among them many times:
uniformly, as a search bot without beliefs deals them, and by what the seat believes
(:meth:`rulecraft.bots.evaluation.Evaluation.beliefs`, read with its memory of the
game), as :func:`rulecraft.bots.determinize.deal_values` deals them in a search. The
script prints, per property, how often an entity is dealt its true value each way: over
all the hidden entities, and over those the seat held a belief about (sure, or with odds).

Only the beliefs are measured here: the values dealt are the true ones, so a count the
tracked copy of the game gets wrong does not enter.

    python benchmarks/belief_accuracy.py rules/panic_station --players 5 --games 40
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulecraft.bots import make_bot, view_for  # noqa: E402
from rulecraft.bots.determinize import deal_values  # noqa: E402
from rulecraft.bots.evaluation import Evaluation, declares_heuristics  # noqa: E402
from rulecraft.cli.common import ruleset_arg, ruleset_for_players  # noqa: E402
from rulecraft.interpreter.game import Game  # noqa: E402
from rulecraft.interpreter.state import seat_players  # noqa: E402


class Tally:
    """Entities judged and dealt their true value, uniformly and by beliefs."""

    def __init__(self):
        self.judged = 0
        self.uniform = 0.0
        self.believed = 0.0

    def add(self, uniform: float, believed: float) -> None:
        self.judged += 1
        self.uniform += uniform
        self.believed += believed


def read_seat(game, evaluation: Evaluation, seat: str, rng: random.Random, deals: int,
              tallies: dict) -> None:
    """Deal each property the seat cannot see on some entities ``deals`` times each way."""
    view = game.view(seat)
    evaluation.forget()
    evaluation.remember(seat, view["events"])
    beliefs = evaluation.beliefs(view)
    hidden: dict[tuple[str, str], list[str]] = defaultdict(list)
    for eid, entity in game.state.entities.items():
        seen = view["entities"].get(eid)
        if seen is None:
            continue
        for name in entity["props"]:
            if name not in seen["props"]:
                hidden[(entity["kind"], name)].append(eid)
    for (kind, name), entities in hidden.items():
        truth = [game.state.entities[eid]["props"][name] for eid in entities]
        hits_uniform = [0] * len(entities)
        hits_believed = [0] * len(entities)
        for _ in range(deals):
            pool = list(truth)
            rng.shuffle(pool)
            dealt = deal_values(entities, name, pool, beliefs, rng)
            for i, value in enumerate(pool):
                hits_uniform[i] += value == truth[i]
            for i, value in enumerate(dealt):
                hits_believed[i] += value == truth[i]
        for i, eid in enumerate(entities):
            held = beliefs.get((eid, name), ())
            groups = ["all"]
            if any(odds is None for _, odds in held):
                groups.append("sure")
            elif held:
                groups.append("odds")
            for group in groups:
                tallies[(f"{kind}.{name}", group)].add(hits_uniform[i] / deals, hits_believed[i] / deals)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset", type=ruleset_arg, help="a rule-set folder or a shipped rule set's name")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--every", type=int, default=20, help="read every N decisions")
    parser.add_argument("--deals", type=int, default=50, help="deals each way per reading")
    args = parser.parse_args(argv)
    ruleset = ruleset_for_players(parser, args.ruleset, args.players)
    if ruleset is None:
        return 2
    evaluation = Evaluation(ruleset) if declares_heuristics(ruleset) else None
    if evaluation is None or not evaluation.has_beliefs():
        print(f"{args.ruleset} declares no beliefs ('believe' lines in a heuristic)", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    tallies: dict[tuple[str, str], Tally] = defaultdict(Tally)
    started = time.process_time()
    for seed in range(args.seed, args.seed + args.games):
        game = Game(ruleset, args.players, seed)
        seats = {p: make_bot(args.bot, seed * 7919 + i) for i, p in enumerate(seat_players(args.players))}
        decision = 0
        while not game.over:
            if decision % args.every == 0:
                for seat in game.state.players:
                    read_seat(game, evaluation, seat, rng, args.deals, tallies)
            player = game.pending.player
            game.choose(seats[player].choose(view_for(game, seats[player], player)))
            decision += 1
    print(f"{args.games} games, seeds {args.seed}-{args.seed + args.games - 1}, bot {args.bot}, "
          f"{time.process_time() - started:.0f} s CPU")
    print("how often a hidden entity is dealt its true value")
    print(f"{'property':<28} {'entities':<10} {'judged':>8} {'uniformly':>10} {'by beliefs':>11}")
    for (prop, group), tally in sorted(tallies.items()):
        label = {"all": "all", "sure": "sure", "odds": "with odds"}[group]
        print(f"{prop:<28} {label:<10} {tally.judged:>8} {tally.uniform / tally.judged:>10.3f} "
              f"{tally.believed / tally.judged:>11.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
