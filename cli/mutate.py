"""`rulecraft mutate RULESET`: how much of a rule set do its scenarios really pin down?

Mutants are generated from the rule files' syntax trees and the YAML tables (see
``validator/mutants.py``); each is checked the way `rulecraft verify` checks a rule set.
Exit 0 when the score (mutants killed, static kills and time-outs included, out of
those run) reaches the bar and at most 5% of the mutants are marked equivalent, or when
``--survivors-of`` leaves nothing to re-run; 1 otherwise (or when the unchanged rule set
does not pass, or the report cannot be written); 2 for a bad command line.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.dsl.loader import EQUIVALENTS_FILE, load_ruleset
from rulecraft.dsl.variants import available_variants, variant_scenario_files
from rulecraft.validator.equivalents import check_variant_names, load_equivalents, mark
from rulecraft.validator.mutants import OPERATORS, Mutant, generate, mutant_files, reachable
from rulecraft.validator.mutation import (EQUIVALENT, KILLED, STATIC, SURVIVED, TIMEOUT, Checker, Outcome, Target,
                                          check_in_worker, functions_asked, init_worker)

from .common import (check_command, input_problem, output_problem, positive_int, ruleset_arg, seed_arg, usage_error, variant_problem,
                     write_outputs)
from .verify import default_folder, folder_arg

BAR = 90.0  # percent of the mutants run that must be killed
EQUIVALENT_CAP = 5.0  # percent of the mutants that may be marked equivalent


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of seconds") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return value


def _operator(text: str) -> str:
    if text not in OPERATORS:
        raise argparse.ArgumentTypeError(f"unknown operator '{text}' (known: {', '.join(OPERATORS)})")
    return text


def add_parser(sub) -> None:
    p = sub.add_parser("mutate", help="mutation testing: change the rules one detail at a time, see if verify notices",
                       description="Generate mutants of a rule set from its syntax tree and YAML tables, run what "
                                   "verify runs against each, and report the mutants killed, survived and timed out. "
                                   f"Exit 0 when at least {BAR:.0f}% of the mutants run are killed (static kills and "
                                   f"time-outs included) and at most {EQUIVALENT_CAP:.0f}% of the mutants are marked "
                                   "equivalent in mutants.yaml, or when --survivors-of leaves nothing to re-run; 1 "
                                   "otherwise (or when the unchanged rule set does not pass verify); 2 for bad usage.")
    p.add_argument("ruleset", type=ruleset_arg, help="a rule-set folder (rules/<game>) or a shipped rule set's name")
    p.add_argument("--variant", metavar="V", help="mutate the rule set with variant V (its own files too)")
    p.add_argument("--jobs", type=positive_int, default=1, metavar="N", help="worker processes (default 1)")
    p.add_argument("--budget", type=_seconds, metavar="SECONDS",
                   help="start no mutant after this many seconds; the rest are reported as not run")
    p.add_argument("--timeout", type=_seconds, metavar="SECONDS",
                   help="per-mutant time limit (default: 10 times the unchanged rule set's run, at least 5s)")
    p.add_argument("--sample", type=positive_int, metavar="N", help="run a random sample of N mutants")
    p.add_argument("--seed", type=seed_arg, default=0, metavar="S", help="seed of --sample (default 0, a 64-bit number)")
    p.add_argument("--only", metavar="FILE[:LINE]", help="only the mutants of one file (or one line of it)")
    p.add_argument("--operator", type=_operator, action="append", metavar="OP",
                   help=f"only mutants of this operator (repeatable): {', '.join(OPERATORS)}")
    p.add_argument("--survivors-of", metavar="REPORT.json",
                   help="only the mutants that survived or timed out in an earlier --out report (after new "
                        "scenarios); when there are none, nothing is run (exit 0)")
    p.add_argument("--list", action="store_true", help="list the mutants (id, place, change) and run nothing")
    p.add_argument("--all", action="store_true", help="print every mutant's result, the killed ones too")
    p.add_argument("--out", metavar="FILE.json", help="write the full report as JSON")
    p.add_argument("--scenarios", metavar="DIR", type=folder_arg,
                   help="the scenario folder (default: seeds/<game> next to the rules folder)")
    p.set_defaults(run=run)


def _verify_command(root: Path, args) -> str:
    """The verify command that runs what mutate runs, as the user should type it."""
    return (f"rulecraft verify {root}" + (f" --variant {args.variant}" if args.variant else "")
            + (f" --scenarios {args.scenarios}" if args.scenarios else ""))


def _bad(message: str) -> int:
    return usage_error("mutate", message)


def _select(mutants: list[Mutant], only: str | None) -> list[Mutant] | None:
    if not only:
        return mutants
    file, _, line = only.partition(":")
    if line and not line.isdigit():
        return None
    chosen = [m for m in mutants if (m.file == file or m.file.endswith("/" + file) or Path(file).name == m.file)
              and (not line or m.line == int(line))]
    return chosen


def _sets(m: Mutant) -> str | None:
    """What a mutant changes that a variant may set again: its definition, or its YAML value."""
    return f"definition {m.definition}" if m.file.endswith(".rules") else m.sets


def _earlier_survivors(path: str) -> set[str] | None:
    try:
        report = json.loads(Path(path).read_text(encoding="utf-8"))
        return {m["id"] for m in report["mutants"] if m["status"] in (SURVIVED, TIMEOUT)}
    except (OSError, ValueError, KeyError, TypeError):
        return None


def run(args) -> int:
    console = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 140)
    root = Path(args.ruleset)
    problem = variant_problem(args.ruleset, args.variant)
    if problem:
        return _bad(f"argument --variant: {problem}")
    # the report must not replace a file the mutants are read from or checked by
    reads = [args.ruleset] + ([args.scenarios] if args.scenarios else [])
    problem = output_problem(args.out, reads=reads) if args.out is not None else None
    if problem:
        return _bad(f"argument --out: {problem}")

    base = load_ruleset(root, variant=args.variant)
    if base.bag.errors:
        print(base.bag.render())
        print(f"{root}: {len(base.bag.errors)} error(s); fix them first ({check_command(str(root), args.variant)})")
        return 1
    info = base.variant
    folder = Path(args.scenarios) if args.scenarios else default_folder(str(root), base.data.game.name)
    problem = input_problem(args.out, [folder]) if args.out is not None and folder.is_dir() else None
    if problem:  # the scenarios found next to the rules, which --scenarios did not name
        return _bad(f"argument --out: {problem}")
    if not folder.is_dir() and not (info and variant_scenario_files(root, info.chain)):
        console.print(f"no scenarios (no folder {escape(str(folder))}): every mutant would survive")
        return 1

    # a function the scenarios ask is noticed by them even if only heuristics call it
    asked = functions_asked(Target(root, args.variant, folder))
    every = generate(root, mutant_files(root, info.chain if info else None), asked=asked)
    # what a variant replaces, removes or sets again is mutated where the variant sets it
    mutants = reachable(root, every, info.chain) if info is not None else every
    bag = DiagnosticBag()
    entries = load_equivalents(root, bag)
    check_variant_names(entries, available_variants(root), bag)
    if bag.errors:
        print(bag.render())
        print(f"{root / EQUIVALENTS_FILE}: {len(bag.errors)} error(s)")
        return 1
    marked, stale = mark(mutants, entries, args.variant)

    chosen = _select(mutants, args.only)
    if chosen is None:
        return _bad(f"--only takes FILE or FILE:LINE, not '{args.only}'")
    if not chosen:
        hidden = _select(every, args.only) if info is not None else []
        if hidden:
            keys = {_sets(m) for m in hidden}
            there = sorted({m.file for m in mutants if _sets(m) in keys})
            return _bad(f"no mutant in '{args.only}' reaches a game of variant {args.variant}: what is there is "
                        f"replaced, removed or set again by the variant (or one it builds on)"
                        + (f" (mutated in {', '.join(there)})" if there else ""))
        return _bad(f"no mutant in '{args.only}' (files: {', '.join(sorted({m.file for m in mutants}))})")
    if args.operator:
        chosen = [m for m in chosen if m.operator in args.operator]
    if args.survivors_of:
        earlier = _earlier_survivors(args.survivors_of)
        if earlier is None:
            return _bad(f"--survivors-of: '{args.survivors_of}' is not a report written by mutate --out")
        chosen = [m for m in chosen if m.id in earlier]
        if not chosen:
            # every mutant of the report was killed, or those left are not among the ones
            # chosen: a score of 0 out of 0 would call that a failure
            why = (f"no mutant survived or timed out in '{args.survivors_of}'" if not earlier else
                   f"none of the {len(earlier)} mutant(s) that survived or timed out in '{args.survivors_of}' is "
                   f"among the mutants chosen")
            console.print(f"nothing to re-run: {escape(why)}")
            return 0
    runnable = [m for m in chosen if m.id not in marked]
    if args.sample and args.sample < len(runnable):
        picked = set(m.id for m in random.Random(args.seed).sample(runnable, args.sample))
        runnable = [m for m in runnable if m.id in picked]

    title = f"{base.data.game.title}" + (f" with {args.variant}" if args.variant else "")
    if args.list:
        return _list(console, title, chosen, marked)

    for e in stale:
        there = [m for m in mutants if e.id is None and m.location == e.at]
        advice = (f"; the mutant(s) at {e.at}: " + ", ".join(f"'{m.change}' (id {m.id})" for m in there)
                  + "; write the change of one of them as shown ('->' may stand for '→'), or its id"
                  if there else "; remove it")
        console.print(f"[yellow]warning:[/] {escape(str(e.position))}: equivalent mutant "
                      f"{escape(e.id or (e.at or '') + ' ' + (e.change or ''))} matches no mutant any more"
                      f"{escape(advice)}")
    by_id = {m.id: m for m in mutants}
    for e in entries:
        # an entry found by its id whose `at:` tells a reader another place: lines moved
        moved = by_id.get(e.id) if e.id is not None and e.at is not None else None
        if moved is not None and moved.location != e.at:
            console.print(f"[yellow]note:[/] {escape(str(e.position))}: equivalent mutant {e.id} is now at "
                          f"{escape(moved.location)}, not {escape(e.at)}; write at: {escape(moved.location)}")

    target = Target(root, args.variant, folder)
    started = time.perf_counter()
    baseline, scenario_count, skipped = Checker(target, timeout=0).baseline()
    base_seconds = time.perf_counter() - started
    if baseline.status != SURVIVED:
        console.print(f"[red]The unchanged rule set does not pass verify[/] ({escape(baseline.by)}); "
                      f"run `{escape(_verify_command(root, args))}` first.")
        return 1
    timeout = args.timeout or max(5.0, 10 * base_seconds)
    console.print(f"{escape(title)}: {len(mutants)} mutant(s) generated, {len(marked)} marked equivalent; "
                  f"running {len(runnable)} against {scenario_count} scenario(s) "
                  f"(unchanged rules {base_seconds:.2f}s; limit {timeout:.1f}s per mutant; {args.jobs} job(s))")

    outcomes = _run_all(console, target, runnable, timeout, args.jobs, args.budget)
    elapsed = time.perf_counter() - started
    return _report(console, args, title, mutants, chosen, marked, runnable, outcomes, elapsed)


def _run_all(console: Console, target: Target, mutants: list[Mutant], timeout: float, jobs: int,
             budget: float | None) -> dict[str, Outcome]:
    outcomes: dict[str, Outcome] = {}
    start = time.perf_counter()
    out_of_time = lambda: budget is not None and time.perf_counter() - start > budget  # noqa: E731
    with console.status("running mutants…") as status:
        if jobs == 1 or len(mutants) == 1:
            checker = Checker(target, timeout)
            for m in mutants:
                if out_of_time():
                    break
                status.update(f"mutant {len(outcomes) + 1}/{len(mutants)}: {m.location} {m.change}")
                mid, outcome = checker.timed(m)
                outcomes[mid] = outcome
            return outcomes
        with ProcessPoolExecutor(max_workers=jobs, initializer=init_worker, initargs=(target, timeout)) as pool:
            queue = list(mutants)
            pending = set()
            while queue or pending:
                # keep the workers just busy, so a budget stops the run promptly
                while queue and len(pending) < 2 * jobs and not out_of_time():
                    pending.add(pool.submit(check_in_worker, queue.pop(0)))
                if not pending:
                    break
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    mid, outcome = future.result()
                    outcomes[mid] = outcome
                status.update(f"mutants run: {len(outcomes)}/{len(mutants)}")
                if out_of_time():
                    queue = []
    return outcomes


def _list(console: Console, title: str, mutants: list[Mutant], marked) -> int:
    table = Table(title=f"{len(mutants)} mutant(s) of {escape(title)}")
    for col in ("id", "place", "operator", "change", "definition"):
        table.add_column(col)
    for m in mutants:
        change = escape(m.change) + (" [dim](equivalent)[/]" if m.id in marked else "")
        table.add_row(m.id, m.location, m.operator, change, escape(m.definition or ""))
    console.print(table)
    counts = Counter(m.operator for m in mutants)
    console.print("per operator: " + ", ".join(f"{op} {counts[op]}" for op in OPERATORS if counts[op]))
    return 0


def _report(console, args, title, mutants, chosen, marked, runnable, outcomes, elapsed) -> int:
    status = {m.id: (outcomes[m.id].status if m.id in outcomes else "not run") for m in runnable}
    for m in chosen:
        if m.id in marked:
            status[m.id] = EQUIVALENT
    counts = Counter(status.values())
    run_count = sum(counts[s] for s in (KILLED, STATIC, SURVIVED, TIMEOUT))
    detected = counts[KILLED] + counts[STATIC] + counts[TIMEOUT]
    score = 100.0 * detected / run_count if run_count else 0.0
    equivalent_share = 100.0 * len(marked) / len(mutants) if mutants else 0.0

    shown = [m for m in runnable if status[m.id] in (SURVIVED, TIMEOUT)
             or (args.all and status[m.id] in (KILLED, STATIC))]
    if shown:
        table = Table(title=f"Mutants of {escape(title)}" + ("" if args.all else ": survived and timed out"))
        for col in ("id", "place", "operator", "change", "result", "killed by"):
            table.add_column(col)
        style = {SURVIVED: "[red]SURVIVED[/]", TIMEOUT: "[yellow]TIMED OUT[/]", KILLED: "[green]KILLED[/]",
                 STATIC: "[green]KILLED (static)[/]"}
        for m in shown:
            o = outcomes[m.id]
            table.add_row(m.id, m.location, m.operator, escape(m.change), style[o.status], escape(o.by))
        console.print(table)

    per_op = Table(title="Per operator")
    for col in ("operator", "mutants", "equivalent", "killed", "static", "timed out", "survived", "not run"):
        per_op.add_column(col, justify="left" if col == "operator" else "right")
    for op in OPERATORS:
        ms = [m for m in chosen if m.operator == op and m.id in status]
        if not ms:
            continue
        c = Counter(status[m.id] for m in ms)
        per_op.add_row(op, str(len(ms)), str(c[EQUIVALENT]), str(c[KILLED]), str(c[STATIC]), str(c[TIMEOUT]),
                       str(c[SURVIVED]), str(c["not run"]))
    console.print(per_op)

    times = [o.seconds for o in outcomes.values()]
    per_mutant = sum(times) / len(times) if times else 0.0
    ok = score >= BAR and equivalent_share <= EQUIVALENT_CAP
    colour = "green" if ok else "red"
    console.print(f"Score: [{colour}]{detected}/{run_count} killed ({score:.1f}%)[/] (bar {BAR:.0f}%): "
                  f"{counts[KILLED]} by a scenario, {counts[STATIC]} by the static checks, {counts[TIMEOUT]} timed out; "
                  f"{counts[SURVIVED]} survived; {len(marked)} of {len(mutants)} marked equivalent "
                  f"({equivalent_share:.1f}%, at most {EQUIVALENT_CAP:.0f}%)")
    not_run = counts["not run"]
    console.print(f"{elapsed:.1f}s in all, {per_mutant:.3f}s per mutant on average, {args.jobs} job(s)"
                  + (f"; [yellow]{not_run} not run[/] (--budget {args.budget:g}s)" if not_run else ""))
    failed = write_outputs("mutate", [(args.out, lambda: _write_json(Path(args.out), args, title, mutants, chosen,
                                                                    marked, outcomes, status, score, elapsed))]
                           if args.out else [])
    return 0 if ok and not failed else 1


def _write_json(path, args, title, mutants, chosen, marked, outcomes, status, score, elapsed) -> None:
    rows = []
    for m in chosen:
        if m.id not in status:
            continue
        o = outcomes.get(m.id)
        row = {"id": m.id, "operator": m.operator, "place": m.location, "file": m.file, "line": m.line,
               "column": m.column, "old": m.old, "new": m.new, "definition": m.definition, "status": status[m.id]}
        if o is not None:
            row.update(by=o.by, seconds=round(o.seconds, 4))
        if m.id in marked:
            row["reason"] = marked[m.id].reason
        rows.append(row)
    counts = Counter(status.values())
    report = {
        "ruleset": str(args.ruleset), "variant": args.variant, "title": title,
        "generated": len(mutants), "equivalent": len(marked),
        "counts": {k: counts[k] for k in (KILLED, STATIC, TIMEOUT, SURVIVED, "not run")},
        "score": round(score, 2), "bar": BAR, "seconds": round(elapsed, 2), "jobs": args.jobs,
        "mutants": rows,
    }
    path.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
