"""What the search bot's paired check does at each decision of one side: how many
checks, how many samples a check, how often the policy's favourite is replaced, and the
CPU it costs.

One side plays by the search bot (``--side SIDE=mcts:…:paired…``), every other seat by
``--bot``; the games run in this process, one after another. The figures come from the
bot itself (``MCTSBot.last_check``): a check is a decision with more than one candidate
the check looked at.

    python benchmarks/paired_checks.py rules/panic_station --players 5 --games 2 --seed 103 \\
        --bot heuristic --side humans=mcts:8:top3:cut20:play:paired:recall
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulecraft.bots import bot_problem, view_for  # noqa: E402
from rulecraft.bots.seating import Seating, side_bot_problem  # noqa: E402
from rulecraft.cli.common import ruleset_arg, ruleset_for_players  # noqa: E402
from rulecraft.interpreter.game import Game  # noqa: E402
from rulecraft.interpreter.state import seat_players  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset", type=ruleset_arg, help="a rule-set folder or a shipped rule set's name")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--bot", default="heuristic", help="the bot of every seat not on the side")
    parser.add_argument("--side", required=True, help="SIDE=BOT: the search bot for every seat of SIDE")
    args = parser.parse_args(argv)
    side, _, spec = args.side.partition("=")
    if not spec.startswith("mcts") or ":paired" not in spec:
        parser.error("--side needs SIDE=mcts:…:paired…, a search bot that runs paired checks")
    for name in (spec, args.bot):
        problem = bot_problem(name)
        if problem:
            parser.error(problem)
    ruleset = ruleset_for_players(parser, args.ruleset, args.players)
    if ruleset is None:
        return 2
    problem = side_bot_problem(ruleset, args.players, {side: spec})
    if problem:
        parser.error(problem)
    checks = samples = replaced = 0
    started = time.process_time()
    for seed in range(args.seed, args.seed + args.games):
        game = Game(ruleset, args.players, seed)
        seats = seat_players(args.players)
        seating = Seating(ruleset, {p: args.bot for p in seats}, {side: spec},
                          lambda p, seed=seed: seed * 10 + seats.index(p))
        while not game.over:
            player = game.pending.player
            bot = seating.bot_for(game.state, player)
            game.choose(bot.choose(view_for(game, bot, player)))
            check = getattr(bot, "last_check", None)
            if check is not None:
                checks += 1
                samples += check["samples"]
                replaced += check["replaced"]
    cpu = time.process_time() - started
    print(f"{args.games} games, seeds {args.seed}-{args.seed + args.games - 1}; {side}: {spec}; others: {args.bot}")
    print(f"checks {checks}; samples a check {samples / max(1, checks):.1f}; favourite replaced {replaced} "
          f"({100 * replaced / max(1, checks):.1f}%); CPU {cpu:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
