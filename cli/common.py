"""Argument types and rule-set loading shared by the subcommands."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rulecraft.dsl.diagnostics import RuleSetError
from rulecraft.dsl.loader import load_checked, resolve_ruleset_path
from rulecraft.dsl.model import RuleSet


def _whole_number_from(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
    return value


def positive_int(text: str) -> int:
    return _whole_number_from(text, 1)


def count_arg(text: str) -> int:
    """A count that may be 0 (0 turns something off)."""
    return _whole_number_from(text, 0)


def any_int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None


def bot_arg(text: str) -> str:
    from rulecraft.bots import bot_problem

    problem = bot_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return text


def side_bot_arg(text: str) -> tuple[str, str]:
    """``SIDE=BOT``: the bot for every seat of a side (the side is checked once the rule set is loaded)."""
    side, eq, name = text.partition("=")
    side, name = side.strip(), name.strip()
    if not eq or not side or not name:
        raise argparse.ArgumentTypeError(f"'{text}' must be SIDE=BOT, e.g. humans=mcts:200")
    return side, bot_arg(name)


def variant_arg(text: str) -> str:
    """A variant's name: a variant is a file of the rule set's variants/ folder, named, never a path."""
    from rulecraft.dsl.ruleset_files import is_name

    if not is_name(text):
        raise argparse.ArgumentTypeError(f"'{text}' is not a variant name (letters, digits and _, as the variant's "
                                         f"file in the rule set's variants/ folder is named; not a path)")
    return text


def counted(n: int, word: str) -> str:
    """'1 game', '3 games'."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def usage_error(command: str, message: str) -> int:
    """A bad command line found after parsing: one line and exit code 2, as argparse does."""
    sys.stderr.write(f"rulecraft {command}: error: {message} (see 'rulecraft {command} --help')\n")
    return 2


def ruleset_for_players(parser: argparse.ArgumentParser, path: str, players: int) -> RuleSet | None:
    """The rule set at ``path``, for games of ``players`` players, as a script's arguments
    ask: one with errors prints them all and gives None; a player count it is not played
    by is ``parser``'s error (one line, exit code 2)."""
    ruleset = load_or_report(path)
    if ruleset is not None:
        problem = players_problem(ruleset, players)
        if problem:
            parser.error(problem)
    return ruleset


def players_problem(ruleset: RuleSet, players: int) -> str | None:
    """Why a game of the rule set cannot have ``players`` players (one line), or None."""
    spec = ruleset.data.game
    if not spec.min_players <= players <= spec.max_players:
        return f"{spec.title} is played by {spec.player_counts} players, not {players}"
    return None


def variant_problem(ruleset: str, name: str | None) -> str | None:
    """Why ``name`` is no variant of the rule set (one line), or None. A variant that is
    not there is a slip on the command line, told before anything is loaded, not a rule error."""
    from rulecraft.dsl.diagnostics import did_you_mean
    from rulecraft.dsl.variants import available_variants

    known = available_variants(Path(ruleset))
    if name is None or name in known:
        return None
    if not known:
        return (f"no variant '{name}' in {ruleset}: it has none (create one with: "
                f"rulecraft variant new {name} --base {ruleset})")
    close = did_you_mean(name, known)
    return f"no variant '{name}' in {ruleset}{'; ' + close if close else ''} (known: {', '.join(known)})"


def check_command(ruleset: str, variant: str | None = None) -> str:
    """The command that lists a rule set's errors, as the user should type it again."""
    return f"rulecraft check {ruleset}" + (f" --variant {variant}" if variant else "")


def ruleset_arg(text: str) -> str:
    path = resolve_ruleset_path(text)
    if path is None:
        raise argparse.ArgumentTypeError(f"no rule set at '{text}' ({_ruleset_hint(text)})")
    if not (path / "game.yaml").exists():
        # a folder of rule sets (rules/) is a likely slip; an empty folder is a rule set begun
        inside = sorted(p.name for p in path.iterdir() if (p / "game.yaml").is_file()) if path.is_dir() else []
        if inside:
            raise argparse.ArgumentTypeError(f"'{text}' holds rule sets, it is not one: give one of them "
                                             f"({', '.join(str(Path(text) / name) for name in inside)})")
    return str(path)


def _ruleset_hint(text: str) -> str:
    """What to give instead of ``text``, which names no rule set."""
    from rulecraft.dsl.diagnostics import did_you_mean

    given = Path(text)
    if given.is_file():
        return f"a rule set is a folder: give the folder '{given.parent}' that holds this file"
    if given.parent.parts and given.parent.is_dir():  # a slip in the last name of a path: the rule sets there
        close = did_you_mean(text, [str(given.parent / p.name) for p in given.parent.iterdir()
                                    if (p / "game.yaml").is_file()])
    elif given.name in shipped_rulesets():  # a clone's path, typed elsewhere: the name works from anywhere
        return f"no such folder here; the shipped rule set of that name is '{given.name}'"
    else:
        close = did_you_mean(given.name, shipped_rulesets())
    if close:
        return close
    return f"give a folder or the name of a shipped rule set: {', '.join(shipped_rulesets())}"


def shipped_rulesets() -> dict[str, Path]:
    """The rule sets installed with rulecraft, by folder name (those with a game.yaml)."""
    from importlib import resources

    root = Path(str(resources.files("rulecraft.rules")))
    return {p.name: p for p in sorted(root.iterdir()) if (p / "game.yaml").is_file()}


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


def load_or_report(path: str, variant: str | None = None) -> RuleSet | None:
    """Load and compile (with a variant); on rule errors print them all and return None."""
    try:
        return load_checked(path, variant)
    except RuleSetError as err:
        sys.stderr.write(err.bag.render() + "\n")
        sys.stderr.write(f"{path}: {len(err.bag.errors)} error(s); fix them first ({check_command(path, variant)})\n")
        return None
