"""How well the search bot's copy of a game follows the real one, seen from one seat.

Random bots play every seat; a copy (``rulecraft.bots.determinize.Tracker``) follows one
seat's views, told that seat's answers as the search bot tells it, at each of the
seat's decisions with a choice, up to ``--searches`` a game. Nothing is searched: the
figures are the copy's alone.

- **put back in step**: the games in which the copy could not follow the events at least
  once and was set to the seat's view by force (``Tracker._resync``; the rules' position
  may then be wrong), and how many times in all;
- **lost**: games in which even that failed (the search bot then plays unsearched);
- **shown every event**: decisions at which the copy had shown the seat exactly the
  events it saw, no more and no fewer;
- **table unlike the view**: decisions at which a visible zone of the copy held other
  components than the seat sees, or a hidden one another count or top.

    python benchmarks/tracker_follow.py rules/star_trek_panic --players 2 --games 40 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulecraft.bots import make_bot  # noqa: E402
from rulecraft.bots.determinize import Tracker  # noqa: E402
from rulecraft.cli.common import ruleset_arg, ruleset_for_players  # noqa: E402
from rulecraft.interpreter.game import Game  # noqa: E402
from rulecraft.interpreter.views import player_view  # noqa: E402


def unlike(real: dict, copy: dict) -> bool:
    """Whether the copy's table differs from the view (a visible zone's order aside)."""
    for zone in real["zones"].keys() | copy["zones"].keys():
        a, b = real["zones"].get(zone), copy["zones"].get(zone)
        if isinstance(a, list) and isinstance(b, list):
            if sorted(a) != sorted(b):
                return True
        elif a != b:
            return True
    return False


def follow_game(ruleset, players: int, seed: int, seat: str, searches: int) -> dict:
    """One game's figures (see the module's doc)."""
    game = Game(ruleset, players, seed)
    bots = {p: make_bot("random", seed * 100 + i) for i, p in enumerate(game.state.players)}
    tracker = None
    figures = {"decisions": 0, "shown every event": 0, "table unlike the view": 0}
    while not game.over and figures["decisions"] < searches:
        choice = game.pending
        view = game.view(choice.player)
        mine = choice.player == seat and len(choice.options) > 1
        if mine:
            if tracker is None:
                tracker = Tracker(ruleset, players, seat, random.Random(seed))
            if not tracker.follow(view):
                break
            figures["decisions"] += 1
            figures["shown every event"] += tracker._pos == len(view["events"])
            figures["table unlike the view"] += unlike(view, player_view(ruleset, tracker.state, seat))
        index = bots[choice.player].choose(view)
        if mine:
            tracker.answered(view, index)
        game.choose(index)
    figures["put back in step"] = tracker.resyncs if tracker else 0
    figures["lost"] = bool(tracker and tracker.lost)
    return figures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset", type=ruleset_arg, help="a rule-set folder or a shipped rule set's name")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seat", default="p1", help="the seat the copy follows (default p1)")
    parser.add_argument("--searches", type=int, default=20, help="decisions followed a game (default 20)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.searches < 1:
        parser.error("--games and --searches need a positive whole number")
    ruleset = ruleset_for_players(parser, args.ruleset, args.players)
    if ruleset is None:
        return 2
    if args.seat not in [f"p{i + 1}" for i in range(args.players)]:
        parser.error(f"--seat {args.seat}: no such seat with {args.players} players (p1 to p{args.players})")
    started = time.process_time()
    games = [follow_game(ruleset, args.players, seed, args.seat, args.searches)
             for seed in range(args.seed, args.seed + args.games)]
    cpu = time.process_time() - started
    decisions = sum(g["decisions"] for g in games)
    resynced = sum(g["put back in step"] > 0 for g in games)
    print(f"{args.games} games of {args.players}, seeds {args.seed}-{args.seed + args.games - 1}, "
          f"seat {args.seat}, up to {args.searches} decisions a game: {decisions} decisions followed")
    print(f"put back in step: {resynced} games ({sum(g['put back in step'] for g in games)} times); "
          f"lost: {sum(g['lost'] for g in games)} games")
    print(f"shown every event: {sum(g['shown every event'] for g in games)} of {decisions} decisions; "
          f"table unlike the view: {sum(g['table unlike the view'] for g in games)}; CPU {cpu:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
