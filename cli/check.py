"""`rulecraft check RULESET`: every static problem of a rule set, located."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rulecraft.docgen.glossary import check_glossaries
from rulecraft.dsl.loader import load_ruleset

from .common import ruleset_arg, usage_error, variant_arg, variant_problem


def folder_arg(text: str) -> str:
    if not text or not Path(text).is_dir():  # Path("") would be the current folder
        raise argparse.ArgumentTypeError(f"no folder at '{text}'")
    return text


def add_parser(sub) -> None:
    p = sub.add_parser("check", help="check a rule set's syntax, schema, names, types, counts and glossaries",
                       description="Check a rule set statically. Exit 0 when clean, 1 when errors were found.")
    p.add_argument("ruleset", type=ruleset_arg, help="a rule-set folder (rules/<game>) or a shipped rule set's name")
    p.add_argument("--strict", action="store_true", help="treat warnings as errors")
    p.add_argument("--variant", type=variant_arg, metavar="V", help="check the rule set with its variant V applied")
    p.add_argument("--scenarios", metavar="DIR", type=folder_arg,
                   help="the worked examples' folder, as docs and verify take it (default: seeds/<game> next to "
                        "the rules folder): the words and citations they need are checked")
    p.set_defaults(run=run)


def scenario_paths(ruleset_path: str, ruleset, folder: str | Path | None = None) -> list[Path]:
    """The scenario files ``verify`` runs: those of ``folder`` (by default ``seeds/<game>``
    next to the rules folder, ``rules/<game>``), and with a variant, those of its variants'
    folders."""
    from rulecraft.dsl.variants import variant_scenario_files
    from rulecraft.validator.scenario import default_folder, scenario_files

    game = ruleset.data.game
    if game is None:
        return []
    folder = Path(folder) if folder is not None else default_folder(ruleset_path, game.name)  # as verify reads
    paths = scenario_files(folder) if folder.is_dir() else []
    if ruleset.variant is not None:
        paths += [path for _, path in variant_scenario_files(Path(ruleset_path), ruleset.variant.chain)]
    return paths


def _asked_functions_are_used(ruleset_path: str, ruleset, folder: str | None = None) -> None:
    """A function no rule calls but a scenario asks (``expect: functions:``) is used: its
    'never used' warning goes."""
    from rulecraft.validator.scenario import functions_asked_in

    unused = [d for d in ruleset.bag.items if d.code == "unused" and not d.is_error]
    if not unused:
        return
    asked = functions_asked_in(scenario_paths(ruleset_path, ruleset, folder))
    places = {d.name_pos for name, d in ruleset.definitions.items() if name in asked and d.kind == "function"}
    ruleset.bag.items[:] = [d for d in ruleset.bag.items if not (d in unused and d.position in places)]


def run(args) -> int:
    problem = variant_problem(args.ruleset, args.variant)
    if problem:
        return usage_error("check", f"argument --variant: {problem}")
    ruleset = load_ruleset(args.ruleset, variant=args.variant)
    bag = ruleset.bag
    scenarios = getattr(args, "scenarios", None)
    _asked_functions_are_used(args.ruleset, ruleset, scenarios)
    # the glossaries are part of the rule set: a term they lack is reported like any warning,
    # and so is a word or citation the site's worked examples (those of --scenarios) need
    bag.extend(check_glossaries(ruleset, scenarios=Path(scenarios) if scenarios else None))
    if bag.items:
        print(bag.render())
    errors, warnings = len(bag.errors), len(bag.warnings)
    # "." (or "..") says nothing on its own: the folder's name does
    shown = Path(args.ruleset).resolve().name if Path(args.ruleset).name in ("", ".", "..") else args.ruleset
    label = f"{shown} --variant {args.variant}" if args.variant else shown
    print(f"{label}: {errors} error(s), {warnings} warning(s) in {len(ruleset.files)} file(s), "
          f"{len(ruleset.definitions)} definition(s)", file=sys.stdout)
    return 1 if errors or (args.strict and warnings) else 0
