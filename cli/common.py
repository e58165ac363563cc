"""Argument types and rule-set loading shared by the subcommands."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rulecraft.dsl.diagnostics import RuleSetError
from rulecraft.dsl.loader import load_checked, resolve_ruleset_path
from rulecraft.dsl.model import RuleSet


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def any_int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None


def bot_arg(text: str) -> str:
    from rulecraft.bots import REGISTRY, bot_names

    if text not in REGISTRY:
        raise argparse.ArgumentTypeError(f"unknown bot '{text}' (known bots: {', '.join(bot_names())})")
    return text


def ruleset_arg(text: str) -> str:
    path = resolve_ruleset_path(text)
    if path is None:
        raise argparse.ArgumentTypeError(f"no rule set at '{text}' (give a folder or the name of a shipped rule set)")
    return str(path)


def output_problem(path: str) -> str | None:
    """Why ``path`` cannot be written (one line), or None. Checked before a command does
    its work, so a typo in an output path costs no time and loses no result."""
    target = Path(path)
    if target.is_dir():
        return f"'{path}' is a folder, not a file"
    if not target.parent.is_dir():
        return f"cannot write '{path}': there is no folder '{target.parent}'"
    existed = target.exists()
    try:
        with open(target, "a", encoding="utf-8"):
            pass
    except OSError as err:
        return f"cannot write '{path}': {err.strerror or err}"
    if not existed:
        target.unlink(missing_ok=True)
    return None


def shipped_ruleset_path(name: str) -> str | None:
    """The folder of the rule set shipped under ``name``, or None. A name read from a
    file (a log's header) is looked up here only, never taken as a path: a log from
    someone else cannot point rulecraft at a folder of its choosing."""
    from importlib import resources

    if not name or "/" in name or "\\" in name or name.startswith("."):
        return None
    shipped = resources.files("rulecraft.rules").joinpath(name)
    return str(shipped) if shipped.is_dir() else None


def load_or_report(path: str, variant: str | None = None) -> RuleSet | None:
    """Load and compile (with a variant); on rule errors print them all and return None."""
    try:
        return load_checked(path, variant)
    except RuleSetError as err:
        sys.stderr.write(err.bag.render() + "\n")
        sys.stderr.write(f"{path}: {len(err.bag.errors)} error(s); fix them first (rulecraft check {path})\n")
        return None
