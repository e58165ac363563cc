"""`rulecraft tune RULESET`: fit the weights of a rule set's heuristic features to who
wins simulated games, check them on games held out, and write them into the rules.

What is read and how the weights are fitted: :mod:`rulecraft.bots.weight_fit`. Without
``--write`` nothing is changed; with it, only the weight numbers of the features that
were fitted are rewritten, in place, and every other character of the rule files stays
as it was. Exit 0 when the fit ran, 1 when the rule set has errors or a game hit a rule
error, 2 for a bad command line.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from rulecraft.bots import cannot_play
from rulecraft.bots.evaluation import declares_heuristics
from rulecraft.bots.heuristic import HeuristicBot
from rulecraft.bots.weight_fit import (HELD_OUT_EVERY, NEVER_CHANGED, Fit, FittedFeature, fit_weights,
                                       head_to_head, play_and_read, with_weights, written_weights)
from rulecraft.interpreter.machine import RuleRuntimeError

from . import simulate
from .common import (MOST_GAMES, bot_arg, extra_games_arg, games_arg, load_or_report, players_problem,
                     positive_int, replace_file, ruleset_arg, seed_arg, seeds_problem, usage_error, variant_arg,
                     variant_problem, write_failure)


def add_parser(sub) -> None:
    p = sub.add_parser("tune", help="fit a rule set's heuristic weights to who wins simulated games",
                       description="Bots play games; the features of the rule set's heuristics are read from each "
                                   "seat's view every few decisions and labelled by whether the seat's side went on "
                                   "to win. A logistic regression gives each feature a weight; the written and fitted "
                                   f"weights are compared on every {_ordinal(HELD_OUT_EVERY)} game, held out of the "
                                   "fit. --write puts the fitted weights into the rule files.")
    p.add_argument("ruleset", type=ruleset_arg, help="a rule-set folder (rules/<game>) or a shipped rule set's name")
    p.add_argument("--players", type=positive_int, default=None, help="players per game (default: the rule set's minimum)")
    p.add_argument("--games", type=games_arg, default=300, help=f"how many games (default 300, at most {MOST_GAMES:,})")
    p.add_argument("--seed", type=seed_arg, default=0,
                   help="game i uses seed SEED+i (default 0; every seed, those of --check too, a 64-bit number)")
    p.add_argument("--bot", type=bot_arg, default=None, metavar="NAME",
                   help="the bot of every seat (default: heuristic where the game has a strategy, else greedy)")
    p.add_argument("--every", type=positive_int, default=10, help="read the features every N decisions (default 10)")
    p.add_argument("--decided", action="store_true",
                   help="fit to decided games only: leave out games stopped at the round limit, which count as lost")
    p.add_argument("--variant", type=variant_arg, metavar="V", help="play and fit the rule set with its variant V applied")
    p.add_argument("--workers", type=positive_int, default=None, help="processes to play in (default: every CPU)")
    p.add_argument("--check", type=extra_games_arg, default=60, metavar="K",
                   help="then play K more games with the greedy bot in every seat, by the written weights and by "
                        "the fitted ones, and compare who wins (default 60; 0 skips it)")
    p.add_argument("--write", action="store_true",
                   help="write the fitted weights into the rule files (only the weight numbers change), when the "
                        "check's games say they play better")
    p.add_argument("--force", action="store_true",
                   help="with --write: write the fitted weights whatever the check says (or with --check 0)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def _ordinal(n: int) -> str:
    return {2: "second", 3: "third", 4: "fourth"}.get(n, f"{n}th")


def run(args) -> int:
    problem = variant_problem(args.ruleset, args.variant)
    if problem:
        return usage_error("tune", f"argument --variant: {problem}")
    if args.write and args.variant:
        return usage_error("tune", "--write changes the rule set's own files: tune without --variant to write")
    if args.force and not args.write:
        return usage_error("tune", "--force only goes with --write")
    if args.write and args.check == 0 and not args.force:
        return usage_error("tune", "--write keeps fitted weights only when the check's games show they play better: "
                                   "give --check K (K > 0), or --force to write them unchecked")
    if args.write and _installed(args.ruleset):
        here = Path.cwd() / Path(args.ruleset).name
        return usage_error("tune", f"'{args.ruleset}' is the rule set installed with rulecraft, which --write would "
                                   f"change for every project: copy it first (cp -r {args.ruleset} {here}) and "
                                   f"tune the copy")
    if args.games < HELD_OUT_EVERY:
        return usage_error("tune", f"--games must be at least {HELD_OUT_EVERY}: every {_ordinal(HELD_OUT_EVERY)} "
                                   "game is held out to check the fit")
    problem = seeds_problem(args.seed, args.games + args.check)  # the check's games come after the fit's
    if problem:
        return usage_error("tune", problem)
    ruleset = load_or_report(args.ruleset, args.variant)
    if ruleset is None:
        return 1
    if not declares_heuristics(ruleset):
        return usage_error("tune", f"{args.ruleset} declares no heuristic to tune (see docs/language.md, Heuristics)")
    spec = ruleset.data.game
    players = args.players or spec.min_players
    problem = players_problem(ruleset, players)
    if problem:
        return usage_error("tune", problem)
    bot = args.bot or ("heuristic" if HeuristicBot.plays(spec.name) else "greedy")
    problem = cannot_play(bot, ruleset)
    if problem:
        return usage_error("tune", problem)
    console = Console(stderr=True)
    started = time.perf_counter()
    try:
        readings = _play(args, ruleset, players, bot, console)
    except RuleRuntimeError as err:
        console.print(f"[red]a game hit a rule error:[/red] {escape(str(err))}", highlight=False)
        return 1
    if not readings:
        console.print(f"every one of the {args.games} games stopped undecided: nothing to fit to", highlight=False)
        return 1
    results = {r.label for r in readings}
    if len(results) < 2:
        # a fit needs positions from games won and from games lost: without both, every
        # weight would come out 0 and --write would wipe the heuristic out
        said = "won" if results == {1.0} else "lost"
        console.print(f"every reading comes from a game its side {said} ({args.games} games, {bot} bots): nothing "
                      "tells a winning position from a losing one, so nothing is fitted or written; play more games, "
                      "another player count or a variant where both results happen", highlight=False)
        return 1
    fit = fit_weights(readings, written_weights(ruleset, readings))
    out = Console()
    _report(out, args, fit, bot, players, time.perf_counter() - started)
    verdict = _check(out, console, args, ruleset, fit, players) if args.check > 0 else None
    if args.write and not args.force and verdict is not True:
        why = ("the check cannot tell: every seat of both sides plays by the same weights"
               if verdict is None else "the check's games say they play no better than the written ones")
        out.print(f"nothing written: {why}; --force writes them anyway", highlight=False, soft_wrap=True)
        return 1
    if args.write:
        try:
            changed = write_weights(ruleset, fit.features)
        except OSError as err:
            return write_failure("tune", err.filename, err)
        out.print(f"wrote {changed} weight(s) into the rule files" if changed else "no weight changed: nothing written")
    return 0


# ---- playing

def _play(args, ruleset, players: int, bot: str, console: Console) -> list:
    tasks = [(players, args.seed + i, bot, args.every, i, None, args.decided) for i in range(args.games)]
    workers = min(args.workers or simulate.default_workers(), len(tasks))
    readings: list = []
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, disable=args.quiet or not console.is_terminal, transient=True) as progress:
        bar = progress.add_task(f"{players} players, bot {bot}", total=len(tasks))

        def done(part: list) -> None:
            readings.extend(part)
            progress.advance(bar)

        simulate.run_games(args.ruleset, ruleset, tasks, workers, done, args.variant, play=play_and_read)
    # games finish in any order across workers: the fit reads them in game order, so
    # the same seeds give the same weights to the last digit
    readings.sort(key=lambda r: r.game)
    return readings


def _installed(ruleset: str) -> bool:
    """Whether ``ruleset`` is a rule set installed with rulecraft as a package (in a
    ``site-packages`` folder), not a clone's or a project's own folder."""
    try:
        parts = Path(ruleset).resolve().parts
    except OSError:
        return False
    return "site-packages" in parts or "dist-packages" in parts


def _check(out: Console, console: Console, args, ruleset, fit: Fit, players: int) -> bool | None:
    """Greedy bots by the written and by the fitted weights, on seeds after the fit's:
    every seat by one set or the other and who won with each, in a game with sides; one
    seat by the fitted weights against the others, in a game where each plays for
    itself. Whether the fitted weights played better: the fitted seat won more than its
    even share, or the cooperative side won more often with them; None where the check
    cannot tell (teams: both sides play by the same weights)."""
    first = args.seed + args.games
    sides = ruleset.data.game.sides or {}
    if not sides.get("teams") and "cooperative" not in sides:  # each player for itself
        counts = head_to_head(ruleset, with_weights(ruleset, fit.features), players, list(range(first, first + args.check)))
        out.print(f"Greedy bots, {args.check} games (seeds {first}-{first + args.check - 1}), one seat by the fitted "
                  f"weights (each seat in turn), the rest by the written ones: the fitted seat won "
                  f"{counts['fitted']}, the others {counts['written']}, drawn {counts['drawn']} "
                  f"(an even game gives the fitted seat about {(args.check - counts['drawn']) / players:.0f}).",
                  highlight=False, soft_wrap=True)
        return counts["fitted"] > (args.check - counts["drawn"]) / players
    tasks = [(i, first + i, players, ["greedy"]) for i in range(args.check)]
    workers = min(args.workers or simulate.default_workers(), len(tasks))
    summaries = {}
    for name, rules in (("written", ruleset), ("fitted", with_weights(ruleset, fit.features))):
        rows: list[dict] = []
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=console, disable=args.quiet or not console.is_terminal, transient=True) as progress:
            bar = progress.add_task(f"greedy bots, {name} weights", total=len(tasks))

            def done(row, rows=rows, progress=progress, bar=bar):
                rows.append(row)
                progress.advance(bar)

            simulate.run_games(args.ruleset, rules, tasks, workers, done, args.variant)
        summaries[name] = simulate.summarize(rows, simulate.main_sides(ruleset, players))
    table = Table(title=f"Greedy bots in every seat, {args.check} games (seeds {first}-{first + args.check - 1})",
                  title_justify="left")
    for column in ("won by", "written weights", "fitted weights"):
        table.add_column(column, justify="left" if column == "won by" else "right")
    sides = list(dict.fromkeys(r["side"] for s in summaries.values() for r in s["rates"]))
    for side in sides:
        cells = []
        for name in ("written", "fitted"):
            rate = next((r for r in summaries[name]["rates"] if r["side"] == side), {"games": 0, "rate": 0.0})
            cells.append(f"{rate['games']} ({100 * rate['rate']:.0f}%)")
        table.add_row(side, *cells)
    table.add_row("undecided", *(f"{s['undecided']['games']} ({100 * s['undecided']['rate']:.0f}%)"
                                 for s in summaries.values()))
    table.add_row("rounds a game", *(f"{sum(s['rounds']) / max(1, len(s['rounds'])):.1f}" for s in summaries.values()))
    errors = [len(s["errors"]) for s in summaries.values()]
    if any(errors):
        table.add_row("rule errors", *(str(e) for e in errors))
    out.print(table)
    out.print("The fit finds what goes with winning in the games played, not what causes it: a greedy bot that "
              "chases it can play worse. Keep fitted weights only where this table says they play better.",
              highlight=False, soft_wrap=True)
    team = (ruleset.data.game.sides or {}).get("cooperative")
    if team is None:
        return None
    won = {name: next((r["games"] for r in summaries[name]["rates"] if r["side"] == team), 0)
           for name in ("written", "fitted")}
    return won["fitted"] > won["written"]


# ---- reporting

def _report(out: Console, args, fit: Fit, bot: str, players: int, seconds: float) -> None:
    label = f"{args.ruleset} --variant {args.variant}" if args.variant else args.ruleset
    left_out = f" ({args.games - fit.games} more stopped undecided, left out)" if args.decided else ""
    out.print(f"{label}: {fit.games} games of {players} players by bot {bot}{left_out} (seeds {args.seed}-"
              f"{args.seed + args.games - 1}), {fit.readings} readings every {args.every} decisions, "
              f"{seconds:.0f} s", highlight=False, soft_wrap=True)
    table = Table(title="Weights", title_justify="left")
    kept = any(f.kept for f in fit.features)
    for column in ("heuristic", "feature", "written", "fitted") + (("kept because",) if kept else ()):
        table.add_column(column, justify="right" if column in ("written", "fitted") else "left")
    for f in fit.features:
        fitted = "—" if f.kept == NEVER_CHANGED else str(f.fitted)
        table.add_row(f.heuristic, f.label, _number(f.written), fitted, *((f.kept or "",) if kept else ()))
    out.print(table)
    checks = Table(title=f"Held out (every {_ordinal(HELD_OUT_EVERY)} game): AUC of worth against the side's "
                         "result, 0.5 = no signal", title_justify="left")
    for column in ("judged by", "readings", "games won", "written", "fitted"):
        checks.add_column(column, justify="left" if column == "judged by" else "right")
    for group, (count, won, before, after) in fit.checks.items():
        checks.add_row(" + ".join(group), str(count), str(won), _auc(before), _auc(after))
    out.print(checks)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _auc(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


# ---- writing

_WEIGHT = re.compile(r'feature\s+"(?P<label>(?:[^"\\]|\\.)*)"\s+weight\s+(?P<weight>-?\s*\d+(?:\.\d+)?)')


def write_weights(ruleset, features: list[FittedFeature]) -> int:
    """Put the fitted weights of ``features`` (those not kept) into their rule files, in
    place; every other character stays. The number of weights changed; a file that
    cannot be written is left as it was (OSError, its ``filename`` set)."""
    definitions = {d.name: d for d in ruleset.of_kind("heuristic")}
    edits: dict[str, list[tuple[int, int, str]]] = {}  # file → (line, column, new weight)
    for f in features:
        if f.kept is not None or f.fitted == f.written:
            continue
        node = definitions[f.heuristic].features[f.index]
        edits.setdefault(node.pos.file, []).append((node.pos.line, node.pos.column, str(f.fitted)))
    changed = 0
    for file, spots in edits.items():
        with open(file, encoding="utf-8", newline="") as source:  # line endings as written
            lines = source.read().splitlines(keepends=True)
        for line, column, weight in spots:
            text = lines[line - 1]
            match = _WEIGHT.match(text, column - 1)
            if match is None:  # not written as `feature "label" weight N` on one line: left alone
                continue
            lines[line - 1] = text[:match.start("weight")] + weight + text[match.end("weight"):]
            changed += 1
        replace_file(file, "".join(lines))
    return changed
