"""`rulecraft check RULESET`: every static problem of a rule set, located."""

from __future__ import annotations

import sys

from rulecraft.docgen.glossary import check_glossaries
from rulecraft.dsl.loader import load_ruleset

from .common import ruleset_arg, usage_error, variant_arg, variant_problem


def add_parser(sub) -> None:
    p = sub.add_parser("check", help="check a rule set's syntax, schema, names, types, counts and glossaries",
                       description="Check a rule set statically. Exit 0 when clean, 1 when errors were found.")
    p.add_argument("ruleset", type=ruleset_arg, help="a rule-set folder (rules/<game>) or a shipped rule set's name")
    p.add_argument("--strict", action="store_true", help="treat warnings as errors")
    p.add_argument("--variant", type=variant_arg, metavar="V", help="check the rule set with its variant V applied")
    p.set_defaults(run=run)


def run(args) -> int:
    problem = variant_problem(args.ruleset, args.variant)
    if problem:
        return usage_error("check", f"argument --variant: {problem}")
    ruleset = load_ruleset(args.ruleset, variant=args.variant)
    bag = ruleset.bag
    # the glossaries are part of the rule set: a term they lack is reported like any warning
    bag.extend(check_glossaries(ruleset))
    if bag.items:
        print(bag.render())
    errors, warnings = len(bag.errors), len(bag.warnings)
    label = f"{args.ruleset} --variant {args.variant}" if args.variant else args.ruleset
    print(f"{label}: {errors} error(s), {warnings} warning(s) in {len(ruleset.files)} file(s), "
          f"{len(ruleset.definitions)} definition(s)", file=sys.stdout)
    return 1 if errors or (args.strict and warnings) else 0
