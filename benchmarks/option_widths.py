"""How many options a rule set's choices offer, against the action width the research
interfaces declare for it (``rulecraft.survey``).

Random bots play games (game *i* with seed SEED + *i*, the picks from one generator);
for each game the widest choice is noted. The script prints the surveyed width, how the
games' widest choices spread, how many games offered more options than the width (an
environment or OpenSpiel game would stop there with an error naming ``max_options``),
and which actions made up the widest choice seen.

    python benchmarks/option_widths.py panic_station --players 5 --games 1000 --seed 1000
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulecraft.cli.common import ruleset_arg, ruleset_for_players  # noqa: E402
from rulecraft.interpreter.game import PLAYER_FACING, Game  # noqa: E402
from rulecraft.survey import survey  # noqa: E402


def widest_choices(ruleset, players: int, seeds: range) -> tuple[list[int], list]:
    """Each game's widest choice, and the options of the widest choice of all."""
    pick = random.Random(seeds.start)
    widths: list[int] = []
    widest_options: list = []
    for seed in seeds:
        # run as the research interfaces run them (every seat a reaction could name asked)
        game = Game(ruleset, players, seed, record_events=False, settings=PLAYER_FACING)
        widest = 0
        while not game.over:
            options = game.pending.options
            if len(options) > widest:
                widest = len(options)
                if widest > len(widest_options):
                    widest_options = list(options)
            game.choose(pick.randrange(len(options)))
        widths.append(widest)
    return widths, widest_options


def option_name(option) -> str:
    if isinstance(option, dict):
        return str(option.get("action") or option.get("reaction") or option.get("option") or "option")
    return "a value"  # a choose's option is the value chosen


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset", type=ruleset_arg, help="a rule-set folder or a shipped rule set's name")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args(argv)
    if args.games < 1 or args.seed < 0:
        parser.error("--games needs a positive whole number and --seed one of 0 or more")
    ruleset = ruleset_for_players(parser, args.ruleset, args.players)
    if ruleset is None:
        return 2
    game = ruleset.data.game
    started = time.process_time()
    found = survey(ruleset, args.players, settings=PLAYER_FACING)
    widths, widest_options = widest_choices(ruleset, args.players, range(args.seed, args.seed + args.games))
    cpu = time.process_time() - started
    width = found.action_width
    ordered = sorted(widths)
    print(f"{game.title}, {args.players} players: the survey's widest choice {found.widest} "
          f"({'in every surveyed game' if found.widest_everywhere else 'surveyed games disagree'}), "
          f"action width {width}")
    print(f"{args.games} random games, seeds {args.seed}-{args.seed + args.games - 1}: widest choice "
          f"median {ordered[len(ordered) // 2]}, 99th percentile {ordered[min(len(ordered) - 1, len(ordered) * 99 // 100)]}, "
          f"most {ordered[-1]}")
    print(f"games with a choice wider than the width: {sum(w > width for w in widths)} of {args.games}")
    kinds = Counter(option_name(o) for o in widest_options)
    print("the widest choice: " + ", ".join(f"{name} {count}" for name, count in kinds.most_common()))
    print(f"CPU {cpu:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
