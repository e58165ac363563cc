"""`rulecraft verify RULESET`: the static checks, then every scenario of the game.

Scenarios live in ``seeds/<game>/`` next to the rule sets (``<ruleset>/../../seeds/<game>``)
or in the folder given with ``--scenarios``. Exit 0 when all pass, 1 when the rule set
has errors or a scenario fails or is broken, 2 for a bad command line.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from rulecraft.docgen.glossary import check_glossaries
from rulecraft.dsl.compiler import compile_ruleset
from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.dsl.loader import load_ruleset
from rulecraft.dsl.variants import variant_scenario_files
from rulecraft.validator import (BROKEN, FAIL, FIXED, KNOWN, PASS, SKIP, coverage, load_file, load_sections, run_all,
                                 scenario_files)
from rulecraft.validator.coverage import SECTIONS_FILE, citation_hint, cite_parts, cited_by, match_sections
from rulecraft.validator.expect import fmt
from rulecraft.validator.scenario import check_superseded, load_variant_scenarios
from rulecraft.validator.scenario import default_folder as scenario_folder

from .common import check_command, count_arg, ruleset_arg, usage_error, variant_arg, variant_problem

# How many other deals a passing scenario that leaves randomness to chance is played with.
REDEALS = 8

STYLE = {PASS: "[green]PASS[/]", FAIL: "[red]FAIL[/]", BROKEN: "[red]BROKEN[/]", SKIP: "[yellow]SKIP[/]",
         KNOWN: "[yellow]KNOWN FAILURE[/]", FIXED: "[red]PASSES (known failure)[/]"}


def folder_arg(text: str) -> str:
    if not text or not Path(text).is_dir():  # Path("") would be the current folder
        raise argparse.ArgumentTypeError(f"no folder at '{text}'")
    return text


def add_parser(sub) -> None:
    p = sub.add_parser("verify", help="run a rule set's rulebook scenarios (after the static checks)",
                       description="Check a rule set statically, then run every scenario of its game and report "
                                   "PASS/FAIL per scenario. Exit 0 when all pass, 1 otherwise.")
    p.add_argument("ruleset", type=ruleset_arg, help="a rule-set folder (rules/<game>) or a shipped rule set's name")
    p.add_argument("--variant", type=variant_arg, metavar="V", help="apply variant V of the rule set; its own scenarios run too, "
                                                  "and base scenarios it marks superseded are skipped")
    p.add_argument("--coverage", action="store_true", help="list the rulebook's sections and the scenarios citing each")
    p.add_argument("--scenarios", metavar="DIR", type=folder_arg,
                   help="the scenario folder (default: seeds/<game> next to the rules folder)")
    p.add_argument("--redeals", metavar="N", type=count_arg, default=REDEALS,
                   help="play each passing scenario that draws, rolls or picks what it did not arrange again with "
                        f"that dealt N other ways, to tell luck from rules (default {REDEALS}; 0: off)")
    p.add_argument("--seeds", metavar="N", type=count_arg, default=0,
                   help="also play each passing scenario that names no seed on N other seeds' setups (who starts, "
                        "what the hands hold), to find those that rely on the default seed's deal (default 0: off; "
                        "each seed plays the scenario again from the start)")
    p.set_defaults(run=run)


def default_folder(ruleset_path: str, game_name: str) -> Path:
    return scenario_folder(ruleset_path, game_name)


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def run(args) -> int:
    problem = variant_problem(args.ruleset, args.variant)
    if problem:
        return usage_error("verify", f"argument --variant: {problem}")
    # emoji=False: a location such as 'setup.yaml:100:86' must not become an emoji.
    console = Console(highlight=False, emoji=False, soft_wrap=True, width=None if sys.stdout.isatty() else 120)
    ruleset = load_ruleset(args.ruleset, variant=args.variant)
    ruleset.bag.extend(check_glossaries(ruleset))
    if ruleset.bag.errors:
        print(ruleset.bag.render())
        print(f"{args.ruleset}: {len(ruleset.bag.errors)} error(s); fix them first ({check_command(args.ruleset, args.variant)})")
        return 1
    compile_ruleset(ruleset)
    game = ruleset.data.game
    folder = Path(args.scenarios) if args.scenarios else default_folder(args.ruleset, game.name)
    own = variant_scenario_files(Path(args.ruleset), ruleset.variant.chain) if ruleset.variant else []
    if not folder.is_dir() and not own:
        console.print(f"{escape(game.title)}: no scenarios (no folder {escape(_display(folder))})")
        return 0
    bag = DiagnosticBag()
    files = [load_file(p, bag, _display(p)) for p in (scenario_files(folder) if folder.is_dir() else [])]
    if ruleset.variant:
        files += load_variant_scenarios(args.ruleset, ruleset.variant.chain, bag, _display)
    scenarios = [sc for f in files for sc in f.scenarios]
    results = run_all(ruleset, scenarios, args.variant, redeals=args.redeals, seeds=args.seeds)
    unknown = check_superseded(ruleset.variant.superseded_at, files, bag) if ruleset.variant else []

    where = [_display(folder)] if folder.is_dir() else []
    where += sorted({_display(path.parent if path.parent.name == "scenarios" else path) for _, path in own})
    table = Table(title=f"{escape(game.title)}: {len(results)} scenario(s) in {escape(', '.join(where))}")
    table.add_column("#", justify="right")
    table.add_column("scenario")
    table.add_column("citation")
    table.add_column("result")
    for i, r in enumerate(results, start=1):
        table.add_row(str(i), escape(r.scenario.title), escape(r.scenario.cite), STYLE[r.status])
    for f in files:
        if not f.ok:
            table.add_row("-", escape(f"{f.file} (does not load)"), "", STYLE[BROKEN])
    console.print(table)

    # a broken scenario's own errors are told with it, below
    told_below = {(d.position, d.message) for r in results if r.status == BROKEN and r.bag for d in r.bag.items}
    file_errors = DiagnosticBag()
    file_errors.extend([d for d in bag.items if (d.position, d.message) not in told_below])
    if file_errors.items:
        console.print("[red]Scenario files with errors:[/]")
        console.print(escape(file_errors.render()))
    for r in results:
        if r.status == BROKEN:
            console.print(f"\n[red]BROKEN[/] {escape(str(r.scenario.where))}: {escape(r.scenario.title)}")
            console.print(escape(r.bag.render()))
    for r in results:
        if r.status == FAIL:
            _print_failure(console, r)
    for r in results:
        if r.status == FIXED:
            console.print(f"\n[red]PASSES[/] {escape(str(r.scenario.where))}: {escape(r.scenario.title)}")
            console.print(f"  marked known_failure ({escape(r.scenario.known_failure)}) but it passes now: "
                          "the rules follow the rulebook here; remove the known_failure line")
    for r in results:
        if r.status == KNOWN:
            _print_failure(console, r, known=True)

    _warn_unarranged(console, results, args.redeals)

    if args.coverage:
        # the examples the variant supersedes no longer show its rules
        superseded = set(ruleset.variant.superseded) if ruleset.variant else set()
        _print_coverage(console, folder, [sc for sc in scenarios if sc.title not in superseded], args.ruleset)
    elif (folder / SECTIONS_FILE).is_file():
        _warn_unmatched(console, folder, scenarios)

    counts = {k: sum(1 for r in results if r.status == k) for k in STYLE}
    broken_files = sum(1 for f in files if not f.ok)
    summary = f"{len(results)} scenario(s): {counts[PASS]} passed, {counts[FAIL]} failed, {counts[BROKEN]} broken"
    if counts[KNOWN]:
        summary += f", {counts[KNOWN]} known failure(s)"
    if counts[FIXED]:
        summary += f", {counts[FIXED]} known failure(s) passing"
    if counts[SKIP]:
        summary += f", {counts[SKIP]} skipped ({_why_skipped([r for r in results if r.status == SKIP], args.variant)})"
    if broken_files:
        summary += f"; {broken_files} file(s) do not load"
    console.print("\n" + summary)
    return 1 if counts[FAIL] or counts[BROKEN] or counts[FIXED] or broken_files or unknown else 0


def _why_skipped(skipped, variant: str | None) -> str:
    """Why scenarios were skipped, in a few words: the variants to ask for, or superseded."""
    variants = sorted({r.scenario.variant for r in skipped if r.scenario.variant})
    superseded = sum(1 for r in skipped if not r.scenario.variant)
    why = [f"scenarios of variants: run them with --variant {', '.join(variants)}"] if variants else []
    if superseded:
        why.append(f"{superseded} superseded by {variant}")
    return "; ".join(why)


def _warn_unarranged(console: Console, results, redeals: int) -> None:
    """Scenarios that rely on the seed's shuffles and dice: adding a card or a tile to
    the rule set would change what they draw (docs/scenarios.md, Good scenarios). Those
    played again with it dealt otherwise (``--redeals``) are sorted by what that showed:
    a scenario that then fails passes by luck; one that passes every deal does not
    depend on the draw, and only a note names it."""
    seeded = [r for r in results if r.seed_failed is not None]
    if seeded:
        console.print(f"\n[yellow]warning:[/] {len(seeded)} scenario(s) pass by the default seed's setup: "
                      "with the game dealt by another seed, they fail (arrange what they rely on of the game's own "
                      "setup with 'game_setup:' (who starts, what a shuffle puts on top) or 'setup:' (deal, "
                      "deck_top), or name the seed meant with 'seed:'; the divergence below shows what differed):")
        for r in seeded:
            seed, d = r.seed_failed
            console.print(f"  {escape(str(r.scenario.where))}: {escape(r.scenario.title)}")
            where = f", {escape(str(d.position))}" if d.position else ""
            console.print(f"    seed {seed}: diverged at {escape(d.label)}{where}"
                          + (f": {escape(d.message)}" if d.message else "")
                          + (f" ({escape(d.mismatches[0].what)})" if d.mismatches else ""))
    relying = [r for r in results if r.unarranged]
    if not relying:
        return
    lucky = [r for r in relying if r.redeal_failed is not None]
    steady = [r for r in relying if redeals and r.redeals_passed == redeals]
    rest = [r for r in relying if r not in lucky and r not in steady]
    if lucky:
        console.print(f"\n[yellow]warning:[/] {len(lucky)} scenario(s) pass by the seed's luck: dealt otherwise, "
                      "what they did not arrange makes them fail:")
        for r in lucky:
            deal, d = r.redeal_failed
            console.print(f"  {escape(str(r.scenario.where))}: {escape(r.scenario.title)}")
            console.print(f"    {escape('; '.join(r.unarranged))}")
            where = f", {escape(str(d.position))}" if d.position else ""
            console.print(f"    other deal {deal}: diverged at {escape(d.label)}{where}"
                          + (f": {escape(d.message)}" if d.message else "")
                          + (f" ({escape(d.mismatches[0].what)})" if d.mismatches else ""))
    if rest:
        console.print(f"\n[yellow]warning:[/] {len(rest)} scenario(s) rely on randomness they do not arrange:")
        for r in rest:
            console.print(f"  {escape(str(r.scenario.where))}: {escape(r.scenario.title)}")
            console.print(f"    {escape('; '.join(r.unarranged))}")
    if steady:
        console.print(f"\nnote: {len(steady)} scenario(s) draw, roll or pick what they do not arrange, and pass "
                      f"with it dealt {redeals} other ways: what they check does not depend on it")
        for r in steady:
            console.print(f"  [dim]{escape(str(r.scenario.where))}: {escape(r.scenario.title)}[/]")


def _print_failure(console: Console, r, known: bool = False) -> None:
    d = r.divergence
    sc = r.scenario
    head = "[yellow]KNOWN FAILURE[/]" if known else "[red]FAIL[/]"
    console.print(f"\n{head} {escape(str(sc.where))}: {escape(sc.title)}  [dim]({escape(sc.cite)})[/]")
    if known:
        console.print(f"  known: {escape(sc.known_failure)}")
    console.print(f"  diverged at {escape(d.label)}" + (f", {escape(str(d.position))}" if d.position else ""))
    if d.message:
        console.print(f"  {escape(d.message)}")
    for m in d.mismatches:
        where = f"  [dim]{escape(str(m.position))}[/]" if m.position else ""
        console.print(f"  - {escape(m.what)}{where}")
        console.print(f"      expected: {escape(fmt(m.expected))}")
        console.print(f"      actual:   {escape(fmt(m.actual))}")
        if m.note:
            console.print(f"      ({escape(m.note)})")


def _sections(console: Console, folder: Path):
    path = folder / SECTIONS_FILE
    if not path.is_file():
        return None
    bag = DiagnosticBag()
    sections = load_sections(path, bag, _display(path))
    if bag.items:
        console.print(escape(bag.render()))
    return sections


def _warn_unmatched(console: Console, folder: Path, scenarios) -> None:
    sections = _sections(console, folder)
    if sections is None:
        return
    for sc in scenarios:
        for source, part in cite_parts(sc.cite):
            if source == sections.source and not match_sections(part, sections.sections):
                hint = citation_hint(part, sections.sections)
                console.print(f"[yellow]warning:[/] {escape(str(sc.key_position('cite')))}: '{escape(part)}' "
                              f"names no section of {escape(sections.file)}" + (f"; {escape(hint)}" if hint else ""))


def _print_coverage(console: Console, folder: Path, scenarios, root: str | None = None) -> None:
    sections = _sections(console, folder)
    if sections is None:
        console.print(f"\nno {SECTIONS_FILE} in {escape(_display(folder))}: citations only")
        for sc in scenarios:
            console.print(f"  {escape(sc.cite)}: {escape(sc.title)}")
        return
    bag = DiagnosticBag()
    # the scenarios every variant keeps in its own folder count too, each named with its variant
    cov = coverage(sections, scenarios, root, bag, _display)
    if bag.items:
        console.print(escape(bag.render()))
    table = Table(title=f"Coverage of {escape(sections.source or 'the rulebook')} ({escape(sections.file)})")
    table.add_column("section")
    table.add_column("scenarios", justify="right")
    table.add_column("cited by")
    for s in sections.sections:
        citing = cov.citing[s.name]
        if not s.rules:
            count, who = "-", "[dim]nothing to verify[/]"
        elif not citing:
            count, who = "[red]0[/]", "[red]uncovered[/]"
        else:
            count, who = str(len(citing)), escape("; ".join(cited_by(sc) for sc in citing[:3]) + (" …" if len(citing) > 3 else ""))
        table.add_row(escape(s.name), count, who)
    console.print(table)
    rules = cov.rule_sections
    console.print(f"covered: {len(cov.covered)} of {len(rules)} section(s) with rules")
    if cov.variant_files:
        console.print("counted too, the scenarios in the variants' own folders: " + escape(", ".join(cov.variant_files)))
    if cov.uncovered:
        console.print("uncovered: " + escape("; ".join(s.name for s in cov.uncovered)))
    for sc, part in cov.unmatched:
        hint = cov.hint(part)
        console.print(f"[yellow]warning:[/] {escape(str(sc.key_position('cite')))}: '{escape(part)}' names no section"
                      + (f"; {escape(hint)}" if hint else ""))
    if cov.other_sources:
        console.print("cited from other sources: " + escape("; ".join(sorted({p for _, p in cov.other_sources}))))
