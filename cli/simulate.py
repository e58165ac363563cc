"""`rulecraft simulate RULESET`: bots play many games; win rates (per side and per seat),
lengths and endings.

Game *i* always uses seed ``SEED + i`` and bots seeded from that game seed, and results
are sorted by game index, so a simulation gives the same figures whatever the number of
worker processes. Each worker process loads the rule set once and plays many games.
Exit 0 when every game ran, 1 when a game hit a rule error (or the rule set has errors,
or an output could not be written), 2 for a bad command line.
"""

from __future__ import annotations

import argparse
import csv
import gc
import json
import math
import multiprocessing
import os
import signal
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn,
                           TimeRemainingColumn)
from rich.table import Table

from rulecraft.bots import bot_names, cannot_play, hand_rules, installed_everywhere, make_bot, view_for
from rulecraft.bots.seating import Seating, side_bot_problem
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import RuleRuntimeError
from rulecraft.interpreter.payoffs import PayoffError, payoffs
from rulecraft.interpreter.sides import side_names, winning_side
from rulecraft.interpreter.state import all_seats, seat_players
from rulecraft.interpreter.views import LazyView, lazy_player_view

from . import seat_figures
from .common import (MOST_GAMES, bot_arg, counted, games_arg, load_or_report, output_problem, players_problem,
                     positive_int, ruleset_arg, same_file_problem, seed_arg, seeds_problem, side_bot_arg,
                     usage_error, variant_arg, variant_problem, write_outputs)
from .rates import percent, wilson

LOCAL_RAY = "local"  # --ray without an address: a Ray started on this machine
ROW_FIELDS = ["variant", "index", "seed", "players", "winners", "side", "reason", "decided", "rounds", "decisions", "error",
              "payoffs", "seat_wins"]


# ------------------------------------------------------------------ arguments
def out_arg(text: str) -> str:
    if Path(text).suffix.lower() not in (".json", ".csv"):
        raise argparse.ArgumentTypeError(f"'{text}' must end in .json or .csv")
    return text


def png_arg(text: str) -> str:
    if Path(text).suffix.lower() != ".png":
        raise argparse.ArgumentTypeError(f"'{text}' must end in .png")
    return text


def add_parser(sub) -> None:
    p = sub.add_parser("simulate", help="play many games with bots and summarize them",
                       description="Bots play K games (game i uses seed SEED+i), spread over all CPU cores; prints "
                                   "win rates per side and per seat with 95% confidence intervals, game lengths "
                                   "and how the games ended. Exit 0 when every game ran, 1 when a game hit a rule "
                                   "error or an output could not be written, 2 for bad usage.")
    p.add_argument("ruleset", type=ruleset_arg, help="a rule-set folder (rules/<game>) or a shipped rule set's name")
    p.add_argument("--players", type=positive_int, default=None, help="players per game (default: the rule set's minimum)")
    p.add_argument("--games", type=games_arg, default=100, help=f"how many games (default 100, at most {MOST_GAMES:,})")
    p.add_argument("--seed", type=seed_arg, default=0,
                   help="game i uses seed SEED+i (default 0; every seed a 64-bit number)")
    p.add_argument("--bot", type=bot_arg, action="append", metavar="NAME",
                   help="the bot of the next seat (repeat once per seat), or one bot for every seat; "
                        f"default random (known: {', '.join(bot_names())})")
    p.add_argument("--bot-for", type=side_bot_arg, action="append", metavar="SIDE=BOT", default=[],
                   help="the bot for every seat of SIDE, a side of the rule set (repeatable); a seat's side is "
                        "read at each of its decisions, so a seat that changes sides changes bots; other seats "
                        "keep their --bot")
    p.add_argument("--workers", type=positive_int, default=None,
                   help="worker processes (default: one per CPU core; 1 plays in this process)")
    p.add_argument("--ray", nargs="?", const=LOCAL_RAY, default=None, metavar="ADDRESS",
                   help="play the games as Ray tasks on the cluster at ADDRESS (auto, ray://HOST:10001), "
                        "or on a Ray started on this machine when no ADDRESS is given; the same table as a "
                        "local run (needs the cluster extra)")
    p.add_argument("--out", type=out_arg, metavar="FILE", help="write one row per game to FILE (.json or .csv)")
    p.add_argument("--plot", type=png_arg, metavar="FILE",
                   help="write a PNG of the win rates with their intervals and a histogram of game lengths")
    p.add_argument("--log", metavar="FILE", help="write the first game's log (JSON lines) to FILE; with --variant, "
                                                 "the first game of variant V goes to FILE with .V before its suffix")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--variant", action="append", type=variant_arg, metavar="V", default=[],
                   help="also play the rule set's variant V (repeatable): the base and each variant side by side")
    p.set_defaults(run=run)


def _bad(message: str) -> int:
    return usage_error("simulate", message)


# ------------------------------------------------------------------ playing
def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` (0-based) of the game with ``game_seed``."""
    return game_seed * 7919 + seat


class BotFailure(Exception):
    """A bot stopped with an error of its own while choosing: a fault of that bot, told
    as one game's error (with ``game``, the game so far) so that the run keeps its other
    games."""

    def __init__(self, message: str, game: Game):
        super().__init__(message)
        self.game = game


def play_game(ruleset, players: int, seed: int, bots: list[str] | None = None,
              side_bots: dict[str, str] | None = None) -> Game:
    """Play one game with bots to the end: ``bots`` one name per seat or one for all,
    ``side_bots`` side → the bot of every seat on that side (see bots.seating). A rule
    error propagates as RuleRuntimeError with ``err.game`` set to the game so far (its
    last decision is the failing one); a bot's own error as BotFailure."""
    game = Game(ruleset, players, seed)
    names = bots or ["random"]
    if len(names) == 1:
        names = names * players
    # scripted seats are played by the rules themselves: only the players' seats get a bot
    ids = seat_players(players)
    if side_bots:
        seating = Seating(ruleset, dict(zip(ids, names)), side_bots, lambda p: bot_seed(seed, ids.index(p)))
    else:
        seats = {p: make_bot(names[i], bot_seed(seed, i)) for i, p in enumerate(ids)}
    while not game.over:
        choice = game.pending
        bot = seating.bot_for(game.state, choice.player) if side_bots else seats[choice.player]
        view = bot_view(game, bot, choice.player)
        try:
            index = bot.choose(view)
        except Exception as err:  # noqa: BLE001 - any fault of a bot is that game's, not the run's
            raise BotFailure(f"{choice.player}'s bot ({type(bot).__name__}) failed at decision "
                             f"{len(game.decisions) + 1}: {type(err).__name__}: {err}", game) from err
        if isinstance(view, LazyView):
            view.settle()  # a bot that kept its view finds it as it was
        del view
        try:
            game.choose(index)
        except RuleRuntimeError as err:
            game.decisions.append(index)  # so that the game's log replays up to the error
            err.game = game
            raise
    return game


def bot_view(game, bot, player: str) -> dict:
    """The view handed to ``bot``: as ``view_for`` gives it, but for a bot that reads no
    events a lazy view, whose zones and entities are built only if the bot reads them."""
    if getattr(bot, "needs_events", True):
        return view_for(game, bot, player)
    hand_rules(game, bot)
    return lazy_player_view(game.ruleset, game.state, player)


def play_one(ruleset, players: int, seed: int) -> Game:
    """One game with random bots (kept for callers of the earlier API)."""
    return play_game(ruleset, players, seed)


def main_sides(ruleset, players: int) -> tuple[str, ...]:
    """The sides always listed in the win-rate table, even with no win: those the rule
    set declares (``game.sides``; every seat's player in a free-for-all)."""
    return tuple(side_names(ruleset, all_seats(ruleset, players)))


def variant_log_path(path: str, variant: str | None) -> Path:
    """Where --log puts the first game of ``variant``: FILE itself for the base game."""
    p = Path(path)
    return p if variant is None else p.with_name(f"{p.stem}.{variant}{p.suffix}")


def play_row(ruleset, index: int, seed: int, players: int, bots: list[str], want_log: bool = False,
             side_bots: dict[str, str] | None = None) -> dict:
    """Play game ``index`` and describe it as one result row."""
    row = {"index": index, "seed": seed, "players": players, "winners": [], "side": None, "reason": None,
           "decided": False, "rounds": 0, "decisions": 0, "error": None, "payoffs": None, "seat_wins": None}
    game = None
    try:
        game = play_game(ruleset, players, seed, bots, side_bots)
    except RuleRuntimeError as err:
        game = getattr(err, "game", None)
        row.update(reason="rule error", error=str(err))
    except BotFailure as err:
        game = err.game
        row.update(reason="bot error", error=str(err))
    if game is not None:
        row["rounds"] = game.state.round
        row["decisions"] = len(game.decisions)
        if row["error"] is None:
            result = game.result
            row.update(winners=list(result["winners"]), reason=result["reason"], decided=bool(result["decided"]),
                       side=winning_side(ruleset, game.state, result["winners"]),
                       seat_wins=seat_figures.seat_outcomes(list(result["winners"]), all_seats(ruleset, players)))
            try:  # what each seat got, when the rule set declares it (game.payoff)
                row["payoffs"] = payoffs(ruleset, game.state)
            except PayoffError as err:
                row.update(reason="rule error", error=str(err), seat_wins=None)
        if want_log:
            row["_log"] = list(game.log_lines())
    return row


# Worker processes keep the loaded rule set for all the games they play.
_WORKER: dict = {}


def _init_worker(path: str, variant: str | None = None) -> None:
    # Ctrl-C reaches every process of the terminal's group: the parent stops the pool and
    # says so once; a worker stopped by it would print its own traceback
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if _WORKER.get("path") != (path, variant):  # a forked worker inherits the parent's rule set
        from rulecraft.dsl.loader import load_checked

        _WORKER["ruleset"] = load_checked(path, variant)
        _WORKER["path"] = (path, variant)


def _play_task(job: tuple):
    play, task = job
    return play(_WORKER["ruleset"], *task)


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_games(path: str, ruleset, tasks: list[tuple], workers: int, on_row, variant: str | None = None,
              play=None) -> None:
    """Play the tasks, in this process or in a pool of ``workers`` processes: each is
    ``play(ruleset, *task)`` (default :func:`play_row`; another must be a module-level
    function, which workers find by name), its result handed to ``on_row`` in the order
    the games finish."""
    play = play or play_row
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            on_row(play(ruleset, *task))
        return
    _WORKER.update(path=(path, variant), ruleset=ruleset)
    chunk = max(1, min(8, len(tasks) // (workers * 16)))
    # Forked workers share the loaded rule set's memory until they write to it; the
    # collector would write to every object it scans, so what exists now is frozen.
    gc.freeze()
    try:
        with multiprocessing.Pool(workers, initializer=_init_worker, initargs=(path, variant)) as pool:
            for row in pool.imap_unordered(_play_task, [(play, task) for task in tasks], chunksize=chunk):
                on_row(row)
    finally:
        gc.unfreeze()


# ------------------------------------------------------------------ reporting
def summarize(rows: list[dict], sides: tuple[str, ...]) -> dict:
    played = [r for r in rows if r["error"] is None]
    decided = [r for r in played if r["decided"]]
    n = len(played)
    wins = Counter(r["side"] for r in decided)
    rates = []
    for side in list(sides) + sorted(s for s in wins if s not in sides):
        k = wins.get(side, 0)
        rates.append({"side": side, "games": k, "rate": k / n if n else 0.0, "ci": wilson(k, n)})
    undecided = len(played) - len(decided)
    return {
        "played": n, "rates": rates,
        "undecided": {"games": undecided, "rate": undecided / n if n else 0.0, "ci": wilson(undecided, n)},
        "endings": Counter((r["reason"], r["side"]) for r in decided),
        "undecided_endings": Counter(r["reason"] for r in played if not r["decided"]),
        "errors": [r for r in rows if r["error"] is not None],
        "rounds": [r["rounds"] for r in played],
        "decided_rounds": [r["rounds"] for r in decided],
        "decisions": [r["decisions"] for r in played],
        "payoffs": [r["payoffs"] for r in played if r.get("payoffs") is not None],
    }


def reason_labels(ruleset) -> dict[str, str]:
    """How each victory condition is named in the table: its title from the rule set's
    English glossary (a victory's name is the reason a game ended by it)."""
    from rulecraft.docgen.prose import Prose

    prose = Prose(ruleset, "en")
    return {d.name: prose.title(d.name) for d in ruleset.of_kind("victory")}


def print_report(console: Console, title: str, summary: dict, total: int, elapsed: float, workers: int,
                 labels: dict[str, str] | None = None) -> None:
    labels = labels or {}
    n = summary["played"]
    if not n:
        console.print(f"{title}: no game finished")
    table = Table(title=title)
    table.add_column("winning side")
    table.add_column("games", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% CI (Wilson)", justify="right")
    for r in summary["rates"]:
        lo, hi = r["ci"]
        table.add_row(r["side"], str(r["games"]), percent(r["rate"]), f"{percent(lo)} – {percent(hi)}")
    u = summary["undecided"]
    if u["games"]:
        lo, hi = u["ci"]
        table.add_row("[yellow]undecided[/]", str(u["games"]), percent(u["rate"]), f"{percent(lo)} – {percent(hi)}")
    if n:
        console.print(table)

    endings = Table(title="How the games ended")
    endings.add_column("reason")
    endings.add_column("side")
    endings.add_column("games", justify="right")
    endings.add_column("share", justify="right")
    for (reason, side), k in summary["endings"].most_common():
        endings.add_row(labels.get(reason, reason), side, str(k), percent(k / total))
    for reason, k in summary["undecided_endings"].most_common():
        endings.add_row(f"[yellow]undecided ({reason})[/]", "—", str(k), percent(k / total))
    for reason, k in Counter(r["reason"] for r in summary["errors"]).most_common():
        endings.add_row(f"[red]{reason}[/]", "—", str(k), percent(k / total))
    console.print(endings)

    if n and summary.get("seats"):  # the figures per seat, when the run gathered them (see seat_figures)
        if summary["seats_repeat_sides"]:
            console.print(seat_figures.seat_note(summary["seats"]), highlight=False)
        else:
            console.print(seat_figures.seat_table(summary["seats"]))
    if summary.get("payoffs"):
        console.print(payoff_table(summary["payoffs"]))
    if n:
        rounds, decisions = summary["rounds"], summary["decisions"]
        console.print(f"game length: rounds mean {statistics.mean(rounds):.1f} (range {min(rounds)}–{max(rounds)}); "
                      f"decisions mean {statistics.mean(decisions):.1f} (range {min(decisions)}–{max(decisions)})")
    console.print(f"{counted(total, 'game')} in {elapsed:.1f} s ({_rate(total, elapsed)}, {workers} worker(s))")
    shown = summary["errors"][:ERRORS_SHOWN]
    for r in shown:
        console.print(f"[red]game {r['index']} (seed {r['seed']}):[/] {r['error']}", markup=True, highlight=False)
    if len(summary["errors"]) > len(shown):
        rest = summary["errors"][len(shown):]
        console.print(f"[red]… and {len(rest)} more game(s) with a rule error[/] (seeds "
                      f"{', '.join(str(r['seed']) for r in rest[:10])}{', …' if len(rest) > 10 else ''}; --out lists "
                      "every one)", markup=True, highlight=False)


ERRORS_SHOWN = 5  # rule errors printed in full; the others by their seeds


def _rate(games: int, seconds: float) -> str:
    """How fast the games went: games a second, or seconds a game when slower than one."""
    if seconds <= 0 or games <= 0:
        return "—"
    if games / seconds >= 1:
        return f"{games / seconds:.1f} games/s"
    return f"{seconds / games:.1f} s a game"


def payoff_table(paid: list[dict[str, float]]) -> Table:
    """Each seat's mean payoff (``game.payoff``) over the games, with a 95% interval of
    the mean (normal approximation) and the least and most it got."""
    table = Table(title="Payoffs (game.payoff)")
    for heading in ("seat", "mean", "95% CI", "least", "most"):
        table.add_column(heading, justify="left" if heading == "seat" else "right")
    for seat in paid[0]:
        values = [p[seat] for p in paid]
        mean = statistics.mean(values)
        half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
        table.add_row(seat, f"{mean:.3f}", f"{mean - half:.3f} – {mean + half:.3f}", f"{min(values):g}",
                      f"{max(values):g}")
    return table


def write_private(path: str | Path, text: str) -> None:
    """Write a game's log. It holds every hand and secret of the game (``play --resume``
    can go on with it), so a new file is readable by its owner only, as play's saves
    are; an existing file keeps its permissions, and a device (``/dev/stdout``) is
    written to as it is."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
        out.write(text)


def write_rows(path: str, rows: list[dict]) -> None:
    public = [{k: r.get(k, "base") if k == "variant" else r[k] for k in ROW_FIELDS} for r in rows]
    if Path(path).suffix.lower() == ".json":
        Path(path).write_text(json.dumps(public, indent=1) + "\n", encoding="utf-8")
        return
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=ROW_FIELDS)
        writer.writeheader()
        for r in public:
            paid = " ".join(f"{seat}={value:g}" for seat, value in (r["payoffs"] or {}).items())
            won = " ".join(f"{seat}={outcome}" for seat, outcome in (r["seat_wins"] or {}).items())
            writer.writerow({**r, "winners": " ".join(r["winners"]), "side": r["side"] or "",
                             "error": r["error"] or "", "payoffs": paid, "seat_wins": won})


def write_plot(path: str, title: str, summary: dict) -> None:
    """The plot of one rule set's games (see ``write_comparison_plot``)."""
    write_comparison_plot(path, title, {"": summary})


def write_comparison_plot(path: str, title: str, summaries: dict[str, dict]) -> None:
    """One PNG for the base game and each variant side by side: each side's win rate with
    its 95% interval, grouped by side, and the length of the decided games. Games stopped
    at the round limit are counted among the undecided and left out of the lengths: their
    spike at the limit would flatten every other bar."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    fig = Figure(figsize=(11, 4.5))
    FigureCanvasAgg(fig)
    ax1, ax2 = fig.subplots(1, 2)
    labels = list(summaries)
    sides: list[str] = []
    for summary in summaries.values():
        sides += [r["side"] for r in summary["rates"] if r["side"] not in sides]
    if any(summary["undecided"]["games"] for summary in summaries.values()):
        sides.append("undecided")
    width = 0.8 / len(labels)
    colours = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860"]
    for k, label in enumerate(labels):
        summary = summaries[label]
        by_side = {r["side"]: r for r in summary["rates"]}
        by_side["undecided"] = summary["undecided"]
        bars = [by_side.get(side, {"rate": 0.0, "ci": (0.0, 0.0)}) for side in sides]
        rates = [100 * b["rate"] for b in bars]
        # At a 0% or 100% rate the Wilson bound can differ from the rate by a rounding
        # error of the wrong sign, and matplotlib refuses negative error bars.
        lower = [max(0.0, 100 * (b["rate"] - b["ci"][0])) for b in bars]
        upper = [max(0.0, 100 * (b["ci"][1] - b["rate"])) for b in bars]
        xs = [i - 0.4 + width * (k + 0.5) for i in range(len(sides))]
        ax1.bar(xs, rates, width, yerr=[lower, upper], capsize=4, color=colours[k % len(colours)],
                label=label or None)
        for x, r in zip(xs, rates):
            ax1.annotate(f"{r:.0f}%", (x, r), textcoords="offset points", xytext=(0, 4), fontsize=8,
                         ha="center")
    ax1.set_xticks(range(len(sides)), sides)
    ax1.set_ylim(0, 100)
    ax1.set_ylabel("games won (%)")
    ax1.set_title("Win rate per side (95% Wilson interval)")
    left_out = 0
    all_rounds = [n for summary in summaries.values() for n in summary["decided_rounds"]]
    for k, label in enumerate(labels):
        summary = summaries[label]
        rounds = summary["decided_rounds"]
        left_out += summary["undecided"]["games"]
        if rounds:
            # one outline per rule set when several share the axes, filled bars for one
            # (dashed after the first, so that outlines that coincide still show both)
            style = ({"histtype": "step", "linewidth": 1.8, "linestyle": ("-", "--", ":", "-.")[k % 4]}
                     if len(labels) > 1 else {"edgecolor": "white"})
            ax2.hist(rounds, bins=range(min(all_rounds), max(all_rounds) + 2), align="left",
                     color=colours[k % len(colours)], label=label or None, **style)
    ax2.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax2.yaxis.set_major_locator(MaxNLocator(integer=True))  # games are counted whole
    if all_rounds:  # a round either side, so that even one length has whole ticks around it
        ax2.set_xlim(min(all_rounds) - 1, max(all_rounds) + 1)
    ax2.set_xlabel("rounds")
    ax2.set_ylabel("games")
    ax2.set_title("Length of the decided games" + (f" ({left_out} undecided left out)" if left_out else ""))
    if len(labels) > 1:
        ax1.legend(fontsize=8)
        ax2.legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=100)


# ------------------------------------------------------------------ the command
def run(args) -> int:
    console = Console()
    configs: list[str | None] = [None] + list(dict.fromkeys(args.variant))
    for variant in configs:
        problem = variant_problem(args.ruleset, variant)
        if problem:
            return _bad(f"argument --variant: {problem}")
    rulesets = {}
    for variant in configs:
        ruleset = load_or_report(args.ruleset, variant)
        if ruleset is None:
            return 1
        rulesets[variant] = ruleset
    problem = seeds_problem(args.seed, args.games)
    if problem:
        return _bad(problem)
    spec = rulesets[None].data.game
    players = args.players or spec.min_players
    problem = players_problem(rulesets[None], players)
    if problem:
        return _bad(problem)
    bots = args.bot or ["random"]
    if len(bots) not in (1, players):
        return _bad(f"give one --bot for every seat ({players}) or one for all, not {len(bots)}")
    side_bots: dict[str, str] = {}
    for side, name in args.bot_for:
        if side in side_bots:
            return _bad(f"argument --bot-for: side '{side}' is given twice ({side_bots[side]}, {name}); "
                        f"give one bot per side")
        side_bots[side] = name
    problem = side_bot_problem(rulesets[None], players, side_bots)
    if problem:
        return _bad(problem)
    for name in sorted(set(bots) | set(side_bots.values())):
        problem = cannot_play(name, rulesets[None])
        if problem:
            return _bad(problem)
    # every output is checked before any game is played: a bad path must not cost the run
    outputs = (("--out", args.out), ("--plot", args.plot), ("--log", args.log))
    for option, path in outputs:
        problem = output_problem(path, reads=[args.ruleset]) if path is not None else None
        if problem:
            return _bad(f"argument {option}: {problem}")
    problem = same_file_problem(outputs)
    if problem:
        return _bad(problem)
    ray_started = False
    if args.ray is not None:
        from . import cluster

        if args.workers is not None:
            return _bad("--workers and --ray exclude each other: on Ray every CPU of the cluster plays")
        for name in sorted(set(bots) | set(side_bots.values())):
            if not installed_everywhere(name):
                return _bad(f"--ray: the bot '{name.partition(':')[0]}' is registered by code run in this process "
                            "only, so a Ray worker cannot make it; install it through the 'rulecraft.bots' entry "
                            "points (docs/bots.md), or play without --ray")
        problem = cluster.ray_problem()
        if problem:
            return _bad(problem)
        address = None if args.ray == LOCAL_RAY else args.ray
        try:
            ray_started, workers = cluster.connect(address)
        except Exception as err:  # Ray raises many kinds (ConnectionError, RuntimeError, ValueError...)
            reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            return _bad(f"--ray: cannot reach a Ray cluster at '{args.ray}': {reason}")
    else:
        workers = min(args.workers or default_workers(), args.games)
    try:
        return _simulate(args, console, configs, rulesets, spec, players, bots, workers, side_bots)
    finally:
        if ray_started:
            cluster.disconnect()


def _simulate(args, console: Console, configs, rulesets, spec, players: int, bots: list[str], workers: int,
              side_bots: dict[str, str] | None = None) -> int:
    bot_text = bots[0] if len(bots) == 1 else ", ".join(bots)
    if side_bots:
        bot_text += "; " + ", ".join(f"{side}: {name}" for side, name in side_bots.items())
    console.print(f"seeds {args.seed}–{args.seed + args.games - 1}; bots: {bot_text}", highlight=False)
    all_rows: list[dict] = []
    summaries: dict[str | None, dict] = {}
    logs: dict[Path, list[str]] = {}
    errors = 0
    interrupted: tuple | None = None  # (variant, games finished, games asked) of a Ctrl-C
    for variant in configs:
        if interrupted is not None:
            break
        ruleset = rulesets[variant]
        label = spec.title if variant is None else f"{spec.title} + {ruleset.variant.title if ruleset.variant else variant}"
        tasks = [(i, args.seed + i, players, bots, bool(args.log) and i == 0, side_bots or None)
                 for i in range(args.games)]
        rows: list[dict] = []
        started = time.perf_counter()
        progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
                            console=Console(stderr=True), disable=args.quiet, transient=True)
        where = f"Ray, {workers} CPU(s)" if args.ray is not None else f"{workers} worker(s)"
        task_id = progress.add_task(f"{label}, {players} players, {where}", total=args.games)

        def on_row(row: dict) -> None:
            rows.append(row)
            progress.advance(task_id)

        try:
            with progress:
                if args.ray is not None:
                    from .cluster import run_games_on_ray

                    run_games_on_ray(args.ruleset, tasks, on_row, variant, workers)
                else:
                    run_games(args.ruleset, ruleset, tasks, workers, on_row, variant)
        except KeyboardInterrupt:
            # Ctrl-C: the games finished so far are reported and written, the rest are not played
            interrupted = (variant, len(rows), args.games)
        elapsed = time.perf_counter() - started
        if interrupted is not None and not rows:
            break
        rows.sort(key=lambda r: r["index"])
        if args.log:
            first = next((r for r in rows if r["index"] == 0), None)
            log = first.pop("_log", None) if first is not None else None
            if first is None:
                console.print("[yellow]the first game did not finish before the run was interrupted; no log written[/]")
            elif log is None:
                console.print("[yellow]the first game failed during setup; no log written[/]")
            else:
                logs[variant_log_path(args.log, variant)] = log
        summary = summarize(rows, main_sides(ruleset, players))
        summary.update(seats=seat_figures.summarize_seats(rows, seat_figures.seat_labels(ruleset, players)),
                       seats_repeat_sides=seat_figures.repeats_sides(rows))
        finished = len(rows)
        title = f"{label}: {counted(args.games, 'game')}, {counted(players, 'player')}"
        if finished < args.games:
            title = f"{label}: {finished} of {counted(args.games, 'game')} (interrupted), {counted(players, 'player')}"
        if summary["errors"] and summary["played"]:  # the rates are of the games played to the end
            title += f"; rates of the {summary['played']} played to the end"
        summaries[variant] = summary
        print_report(console, title, summary, finished, elapsed, workers, reason_labels(ruleset))
        errors += len(summary["errors"])
        for row in rows:
            row["variant"] = variant or "base"
        all_rows.extend(rows)
    configs = [v for v in configs if v in summaries]  # an interrupted run: the rules it played
    if not configs:
        sys.stderr.write("interrupted before any game finished; nothing written\n")
        return 130
    if len(configs) > 1:
        print_comparison(console, configs, rulesets, summaries, players)
        seats = seat_figures.seat_comparison(configs, summaries)
        if seats is not None:
            console.print(seats)
    # written once every table is printed: a file that cannot be written (a full disk)
    # then loses neither the figures nor the other files
    outputs = [(path, lambda path=path, log=log: write_private(path, "\n".join(log) + "\n"))
               for path, log in logs.items()]
    if args.plot:
        chart = {("base game" if v is None else v) if len(configs) > 1 else "": summaries[v] for v in configs}
        title = f"{spec.title}: {counted(args.games, 'game')}, {counted(players, 'player')}"
        outputs.append((args.plot, lambda: write_comparison_plot(args.plot, title, chart)))
    if args.out:
        outputs.append((args.out, lambda: write_rows(args.out, all_rows)))
    existed = [path for path, _ in outputs if Path(path).exists()]
    failed = write_outputs("simulate", outputs)
    for path in existed:  # said, not silently done: the file may have held an earlier run's figures
        console.print(f"replaced the earlier {path}", highlight=False, soft_wrap=True)
    if interrupted is not None:
        variant, finished, asked = interrupted
        which = "" if variant is None else f" of variant {variant}"
        sys.stderr.write(f"interrupted after {finished} of {asked} games{which}: the tables and files hold the games "
                         "that finished\n")
        return 130
    return 1 if errors or failed else 0


def print_comparison(console: Console, configs, rulesets, summaries, players: int) -> None:
    """Win rates per side for the base and each variant, with 95% intervals: a row per
    side, a column per rules (as the comparison of seats), so that many sides or long
    variant names still fit a terminal."""
    sides = list(main_sides(rulesets[None], players))
    # the other winners some run had (several seats sharing a win, a side only a variant
    # has) and the undecided games get a row too, so that each column adds up to 100%
    for variant in configs:
        sides += [r["side"] for r in summaries[variant]["rates"] if r["games"] and r["side"] not in sides]
    undecided = any(summaries[variant]["undecided"]["games"] for variant in configs)
    table = Table(title="How each variant moves the balance (win rate, 95% interval)")
    table.add_column("winning side")
    for variant in configs:
        # a cell too wide for the terminal folds onto a second line rather than losing its end
        table.add_column("base game" if variant is None else variant, justify="right", overflow="fold")

    def cell(summary, r) -> str:
        # no game played to the end: no rate, rather than 0% of nothing
        if not summary["played"]:
            return "—"
        r = r or {"rate": 0.0, "ci": wilson(0, summary["played"])}
        return f"{percent(r['rate'])} [{percent(r['ci'][0])}–{percent(r['ci'][1])}]"

    for side in sides:
        table.add_row(side, *[cell(summaries[v], next((r for r in summaries[v]["rates"] if r["side"] == side), None))
                              for v in configs])
    if undecided:
        table.add_row("undecided", *[cell(summaries[v], summaries[v]["undecided"]) for v in configs])
    played = []
    for variant in configs:
        summary = summaries[variant]
        total = summary["played"] + len(summary["errors"])
        played.append(f"{summary['played']} of {total}" if summary["errors"] else str(total))
    table.add_row("games played", *played)
    console.print(table)
