"""What one decision is worth: the options a side's policy likes best, and the ones a
search bot picks instead, each played out from the true state of real games.

Bots (``--bot``) play every seat. At every ``--every``-th decision of a seat on
``--side`` that has a choice, the game is branched: each of the policy's ``--top``
likeliest options (and each option a ``--search`` bot would pick there) is played, then
the rest of the game by ``--bot`` in every seat, ``--continuations`` times, from the
true state, with the chance still to come (dice, later shuffles, the bots' tie-breaks)
drawn anew for each continuation and shared by the options (continuation *j* of every
option uses the same seeds). An option's value is how often the seat's side at the
branch went on to win.

Where a search bot picks another option than the policy's favourite, the difference of
their values is that change's *advantage*: what it adds to the side's chance of winning,
given that the rest of the game is played by the policy. By the performance difference
lemma, a bot that differs from the policy only at such decisions wins as often as the
policy plus the sum of its changes' advantages over a game, so the average advantage of
its changes, times the changes a game, foretells what a whole-game comparison measures,
from far fewer games.

The *headroom* is what the best of the policy's top options would add over its
favourite: the best is chosen on half the continuations and valued on the other half,
so that luck in the choosing does not count as headroom.

This looks at the true state, as an analysis of the bots may: no bot sees it (the
search bots here are handed their seat's view, as in any game).

    python benchmarks/decision_value.py rules/panic_station --players 5 --games 8 --seed 100 \\
        --side humans --search mcts:8:top3:cut20:play:paired:recall --out decisions.json
    python benchmarks/decision_value.py --report decisions.json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulecraft.bots import bot_problem, make_bot, view_for  # noqa: E402
from rulecraft.bots.determinize import option_key  # noqa: E402
from rulecraft.bots.policy import SeatPolicy  # noqa: E402
from rulecraft.cli.common import ruleset_arg, ruleset_for_players  # noqa: E402
from rulecraft.dsl.loader import load_checked  # noqa: E402
from rulecraft.interpreter import rng  # noqa: E402
from rulecraft.interpreter.game import Game, _recorder  # noqa: E402
from rulecraft.interpreter.machine import Machine  # noqa: E402
from rulecraft.interpreter.sides import seat_sides, side_names, winning_side  # noqa: E402
from rulecraft.interpreter.state import seat_players  # noqa: E402


def branch(game: Game, seed: int) -> Game:
    """An independent copy of ``game`` from now on, whose chance to come is drawn from
    ``seed``: what is already in place (the cards in the decks) stays where it is. Its
    log does not replay, since its chance was redrawn."""
    copy = Game.__new__(Game)
    copy.ruleset, copy.players_count, copy.seed = game.ruleset, game.players_count, game.seed
    copy.record_events = True
    copy.events = list(game.events)
    copy.decisions = list(game.decisions)
    # what each player saw so far is the same: keep it, pointed at the copy's events
    copy._seen = {p: [copy.events, done, list(visible)] for p, (events, done, visible) in game._seen.items()
                  if events is game.events}
    copy.state = game.state.clone()
    copy.state.rng = rng.seed_state(seed)
    copy.machine = Machine(game.ruleset, copy.state, _recorder(copy))
    return copy


def side_won(ruleset, game: Game, side: str) -> float:
    winners = game.result["winners"]
    if not winners:
        return 0.0
    return 1.0 if side in winning_side(ruleset, game.state, winners).split(" + ") else 0.0


def play_on(ruleset, game: Game, bot_name: str, seed: int) -> None:
    seats = list(game.state.players)
    bots = {p: make_bot(bot_name, seed * 10 + i) for i, p in enumerate(seats)}
    while not game.over:
        player = game.pending.player
        bot = bots[player]
        game.choose(bot.choose(view_for(game, bot, player)))


def option_values(ruleset, game: Game, options: list[int], side: str, bot_name: str, continuations: int,
                  seed: int) -> dict[int, list[float]]:
    """Each option's results over the continuations (1: the side won), continuation j
    of every option drawn from the same seed."""
    results = {i: [] for i in options}
    for j in range(continuations):
        chance = seed * 1000 + j
        for i in options:
            copy = branch(game, chance)
            copy.choose(i)
            play_on(ruleset, copy, bot_name, chance)
            results[i].append(side_won(ruleset, copy, side))
    return results


def measure_game(job: dict) -> list[dict]:
    ruleset = load_checked(job["ruleset"])
    seed, players, side = job["seed"], job["players"], job["side"]
    game = Game(ruleset, players, seed)
    seats = seat_players(players)
    bots = {p: make_bot(job["bot"], seed * 10 + i) for i, p in enumerate(seats)}
    searchers = {spec: {p: make_bot(spec, seed * 10 + i) for i, p in enumerate(seats)} for spec in job["search"]}
    policies = {p: SeatPolicy(ruleset, random.Random(seed * 10 + i)) for i, p in enumerate(seats)}
    records = []
    turn = 0
    while not game.over:
        player = game.pending.player
        options = game.pending.options
        if len(options) > 1 and side in seat_sides(ruleset, game.state).get(player, []):
            turn += 1
            if turn % job["every"] == 0:
                records.append(measure_decision(ruleset, game, player, side, job, searchers, policies[player]))
        bot = bots[player]
        game.choose(bot.choose(view_for(game, bot, player)))
    return records


def measure_decision(ruleset, game: Game, player: str, side: str, job: dict, searchers: dict,
                     policy: SeatPolicy) -> dict:
    options = game.pending.options
    odds = policy.priors(game.view(player))  # never None: main checks the rule set has a policy
    order = sorted(range(len(options)), key=lambda i: (-odds[i], i))
    favourite = order[0]
    top = order[:job["top"]]
    picks = {}
    for spec, bots in searchers.items():
        bot = bots[player]
        picks[spec] = bot.choose(view_for(game, bot, player))
    started = time.process_time()
    known = job.get("known", {}).get(len(game.decisions))
    if known is not None and any(option_key(options[i]) != key for i, key in known["keys"].items()):
        raise SystemExit(f"--against: the game of seed {game.seed} went another way than in the file "
                         f"(decision {len(game.decisions)} offers other options)")
    results = dict(known["results"]) if known is not None else {}
    measured = sorted(set(top) | set(picks.values()) | set(results))
    new = [i for i in measured if i not in results]
    # continuation j of every option is drawn from the same seed, so options measured
    # now and options measured in an earlier run (--against) are compared alike
    results.update(option_values(ruleset, game, new, side, job["bot"], job["continuations"],
                                 game.seed * 100000 + len(game.decisions)))
    return {
        "seed": game.seed, "decision": len(game.decisions), "player": player, "kind": game.pending.kind,
        "options": len(options), "keys": {i: option_key(options[i]) for i in measured},
        "favourite": favourite, "top": top, "odds": {i: odds[i] for i in measured},
        "picks": picks, "results": results, "continued": len(new), "cpu": time.process_time() - started,
    }


# what a decision's record holds (see measure_decision); --report and --against read them all
RECORD_FIELDS = ("seed", "decision", "player", "kind", "options", "keys", "favourite", "top", "odds",
                 "picks", "results", "continued", "cpu")


def tied_favourites(record: dict) -> list[int]:
    """The measured options the policy likes best, equally (its bot picks among them at random)."""
    odds = record["odds"]
    best = max(odds[i] for i in record["top"])
    return [i for i in record["top"] if odds[i] >= best - 1e-12]


def value(record: dict, option: int, part: slice = slice(None)) -> float:
    return statistics.fmean(record["results"][option][part])


def baseline(record: dict, part: slice = slice(None)) -> float:
    """What the policy's own pick is worth: the average of its equal favourites."""
    return statistics.fmean(value(record, i, part) for i in tied_favourites(record))


def headroom(record: dict) -> float:
    """The best top option, chosen on the odd continuations, valued on the even ones,
    less the policy's own pick valued on the even ones."""
    choose_on = {i: value(record, i, slice(1, None, 2)) for i in record["top"]}
    best = max(record["top"], key=lambda i: choose_on[i])
    return value(record, best, slice(0, None, 2)) - baseline(record, slice(0, None, 2))


def mean_and_error(values: list[float]) -> tuple[float, float]:
    if not values:
        return 0.0, 0.0
    if len(values) == 1:
        return values[0], 0.0
    return statistics.fmean(values), statistics.stdev(values) / len(values) ** 0.5


def what_kind(record: dict, option: int) -> str:
    """The choice's kind, and the action's name where the option is an action."""
    option = json.loads(record["keys"][option])
    action = option.get("action") if isinstance(option, dict) else None
    return f"{record['kind']}: {action}" if action else record["kind"]


def _line(label: str, gains: list[float]) -> str:
    m, e = mean_and_error(gains)
    better, worse = sum(g > 0 for g in gains), sum(g < 0 for g in gains)
    return (f"{label}: {len(gains)}, advantage {m:+.4f} ± {e:.4f} each, {sum(gains):+.3f} in all "
            f"(better {better}, worse {worse}, level {len(gains) - better - worse})")


def playouts_needed(records: list[dict]) -> tuple[int, int, list[float]]:
    """How many (other top option, favourite) pairs were measured, how many of them
    differ in some continuation, and for each of those with a mean difference, the
    continuations a paired test at 2 standard errors would need to tell them apart."""
    pairs = differ = 0
    needed = []
    for r in records:
        tied = tied_favourites(r)
        for i in r["top"]:
            if i in tied:
                continue
            pairs += 1
            differences = [a - b for a, b in zip(r["results"][i], r["results"][tied[0]])]
            if any(differences):
                differ += 1
                gap, spread = abs(statistics.fmean(differences)), statistics.stdev(differences)
                if gap > 0:
                    needed.append((2 * spread / gap) ** 2)
    return pairs, differ, needed


def report(records: list[dict], specs: list[str], games: int, every: int) -> None:
    for r in records:  # JSON keys are strings
        for field in ("results", "keys", "odds"):
            r[field] = {int(k): v for k, v in r[field].items()}
    print(f"{len(records)} decisions measured in {games} games (every {every}th decision of the side)")
    m, e = mean_and_error([headroom(r) for r in records])
    print(f"headroom (the best of the top options over the policy's pick): {m:+.4f} ± {e:.4f} a decision")
    spread = [max(value(r, i) for i in r["top"]) - min(value(r, i) for i in r["top"]) for r in records]
    print(f"the top options' values differ in {sum(s > 0 for s in spread)} decisions; "
          f"spread mean {statistics.fmean(spread):.3f}, largest {max(spread):.3f}")
    pairs, differ, needed = playouts_needed(records)
    print(f"another top option against the favourite: {pairs} pairs, {differ} of them differ in some continuation")
    if needed:
        needed.sort()
        print(f"continuations to tell such a pair apart at 2 standard errors, from the true state: median "
              f"{statistics.median(needed):.0f} (quartiles {needed[len(needed) // 4]:.0f} to "
              f"{needed[3 * len(needed) // 4]:.0f}; measured gaps include chance, so these are if anything too few)")
    continued = [r["cpu"] / (r["continued"] * len(next(iter(r["results"].values()))))
                 for r in records if r["continued"]]
    if continued:
        print(f"CPU a continuation: {statistics.fmean(continued):.3f} s")
    for spec in specs:
        print(spec)
        overrides, ties = [], []
        kinds: dict[str, list[float]] = {}
        for r in records:
            pick, tied = r["picks"][spec], tied_favourites(r)
            gain = value(r, pick) - baseline(r)
            if pick not in tied:
                overrides.append(gain)
                kinds.setdefault(what_kind(r, pick), []).append(gain)
            elif len(tied) > 1:
                ties.append(gain)
        print("    " + _line("picks another than the policy's favourites", overrides))
        print("    " + _line("picks among equal favourites", ties))
        whole = [value(r, r["picks"][spec]) - baseline(r) for r in records]
        m, e = mean_and_error(whole)
        print(f"    every measured decision: {m:+.4f} ± {e:.4f}; a game of the side's decisions "
              f"(× {every} × {len(records) / games:.1f}): {m * every * len(records) / games:+.3f} "
              f"± {e * every * len(records) / games:.3f} wins a game")
        for kind, gains in sorted(kinds.items()):
            print("        " + _line(kind, gains))


def known_decisions(earlier: dict | None, seed: int) -> dict[int, dict]:
    """An earlier run's measured decisions of the game of ``seed``, by decision number,
    with their options' results."""
    if earlier is None:
        return {}
    return {r["decision"]: {"results": {int(k): v for k, v in r["results"].items()},
                            "keys": {int(k): v for k, v in r["keys"].items()}}
            for r in earlier["decisions"] if r["seed"] == seed}


def read_measured(parser: argparse.ArgumentParser, path: str) -> dict:
    """A file written by --out, or a one-line error (exit 2)."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as problem:
        parser.error(f"{path}: {problem}")
    if not isinstance(data, dict) or "decisions" not in data or "continuations" not in data:
        parser.error(f"{path}: not a file written by --out")
    for record in data["decisions"]:
        missing = [field for field in RECORD_FIELDS if field not in record]
        if missing:
            parser.error(f"{path}: a decision lacks {', '.join(missing)}: the file was written by "
                         "an earlier version of this script; measure again with --out")
    return data


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset", nargs="?", type=ruleset_arg,
                        help="a rule-set folder or a shipped rule set's name (not with --report)")
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--side", help="the side whose decisions are measured")
    parser.add_argument("--bot", default="heuristic", help="the bot of every seat, in the games and continuations")
    parser.add_argument("--search", action="append", default=[], help="a bot whose pick is measured too (repeatable)")
    parser.add_argument("--every", type=int, default=10, help="measure every Nth decision of the side's seats")
    parser.add_argument("--top", type=int, default=3, help="how many of the policy's likeliest options to measure")
    parser.add_argument("--continuations", type=int, default=32, help="continuations per option")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", help="write every measured decision to this JSON file")
    parser.add_argument("--report", help="only report on a JSON file written by --out")
    parser.add_argument("--against", help="measure the --search bots at the decisions of a JSON file written by "
                                          "--out, with its games and settings, reusing its continuations")
    args = parser.parse_args(argv)
    if args.report:
        data = read_measured(parser, args.report)
        report(data["decisions"], data["search"], data["games"], data["every"])
        return 0
    earlier = None
    if args.against:
        earlier = read_measured(parser, args.against)
        for name in ("ruleset", "players", "side", "bot", "seed", "games", "every", "top", "continuations"):
            setattr(args, name, earlier[name])
    if args.ruleset is None or args.players is None or args.side is None:
        parser.error("a rule set, --players and --side are needed (or --report FILE)")
    for name in [args.bot, *args.search]:
        problem = bot_problem(name)
        if problem:
            parser.error(problem)
    if min(args.every, args.top, args.continuations, args.workers, args.games) < 1 or args.continuations < 2:
        parser.error("--every, --top, --games and --workers must be at least 1, --continuations at least 2")
    ruleset = ruleset_for_players(parser, args.ruleset, args.players)
    if ruleset is None:
        return 2
    if args.side not in side_names(ruleset, seat_players(args.players)):
        parser.error(f"--side: '{args.side}' is no side of {ruleset.data.game.title}")
    if SeatPolicy(ruleset, random.Random(0)).source is None:
        parser.error(f"{ruleset.data.game.title} has no policy to rank a seat's options by "
                     "(a registered strategy or `prefer` lines in its heuristics)")
    settings = {"ruleset": args.ruleset, "players": args.players, "side": args.side, "bot": args.bot,
                "every": args.every, "top": args.top, "continuations": args.continuations}
    jobs = [dict(settings, seed=s, search=args.search, known=known_decisions(earlier, s))
            for s in range(args.seed, args.seed + args.games)]
    started = time.perf_counter()
    if args.workers == 1:  # in this process (a module loaded from its path cannot be sent to workers)
        records = [r for game in map(measure_game, jobs) for r in game]
    else:
        with ProcessPoolExecutor(args.workers) as pool:
            records = [r for game in pool.map(measure_game, jobs) for r in game]
    if args.out:
        Path(args.out).write_text(json.dumps(dict(settings, seed=args.seed, games=args.games, search=args.search,
                                                  decisions=records)))
    report(records, args.search, args.games, args.every)
    print(f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
