"""Argument types and rule-set loading shared by the subcommands."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterable

from rulecraft.dsl.diagnostics import RuleSetError
from rulecraft.dsl.loader import load_checked, resolve_ruleset_path
from rulecraft.dsl.model import RuleSet
from rulecraft.interpreter.gamelog import SEED_LEAST, SEED_MOST


# Every game's result row is kept in memory until the tables are printed: a million
# games is hours of play and about a gigabyte of rows; more in one run is a slip.
MOST_GAMES = 1_000_000


def _whole_number_from(text: str, least: int | None = None, most: int | None = None, *, why_least: str = "",
                       why_most: str = "") -> int:
    """``text`` as a whole number from ``least`` to ``most``; ``why_least`` and
    ``why_most`` follow the bound in a refusal (' games a run')."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if least is not None and value < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}{why_least}, not {value}")
    if most is not None and value > most:
        raise argparse.ArgumentTypeError(f"must be at most {most}{why_most}, not {value}")
    return value


def positive_int(text: str) -> int:
    return _whole_number_from(text, 1)


def count_arg(text: str) -> int:
    """A count that may be 0 (0 turns something off)."""
    return _whole_number_from(text, 0)


def any_int(text: str) -> int:
    return _whole_number_from(text)


def language_arg(text: str) -> str:
    """A language rulecraft speaks (``--lang``): one whose file of words is there and
    whole; otherwise why not, and how a language is added, in one line."""
    from rulecraft.languages import UnknownLanguage, language

    try:
        language(text)
    except UnknownLanguage as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return text


def seed_arg(text: str) -> int:
    """A game's seed: a whole number a game log can hold (64 bits, signed)."""
    return _whole_number_from(text, SEED_LEAST, SEED_MOST, why_least=" (a seed is a 64-bit number)",
                              why_most=" (a seed is a 64-bit number)")


def games_arg(text: str) -> int:
    """How many games to play: 1 to MOST_GAMES."""
    return _whole_number_from(text, 1, MOST_GAMES, why_most=" games a run")


def extra_games_arg(text: str) -> int:
    """How many more games to play, 0 for none: at most MOST_GAMES."""
    return _whole_number_from(text, 0, MOST_GAMES, why_most=" games a run")


def seeds_problem(first: int, count: int) -> str | None:
    """Why games seeded ``first``, ``first + 1``… (``count`` of them) cannot all be
    played (one line), or None: the last seed must still fit in a game log."""
    last = first + count - 1
    if last > SEED_MOST:
        return (f"argument --seed: {count} games from seed {first} need seeds up to {last}, above {SEED_MOST} "
                f"(a seed is a 64-bit number); give a seed of at most {SEED_MOST - count + 1}")
    return None


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
    if not text:  # Path("") is the current folder: an empty word (an unset variable) must not check it
        raise argparse.ArgumentTypeError("an empty path names no rule set")
    path = resolve_ruleset_path(text)
    if path is None:
        raise argparse.ArgumentTypeError(f"no rule set at '{text}' ({_ruleset_hint(text)})")
    if not (path / "game.yaml").exists():
        # a folder of rule sets (rules/), or a project holding one (rules/<game>/ next to seeds/), is a
        # likely slip; an empty folder is a rule set begun
        inside = _rulesets_below(path)
        if inside:
            raise argparse.ArgumentTypeError(f"'{text}' holds rule sets, it is not one: give one of them "
                                             f"({', '.join(str(Path(text) / name) for name in inside)})")
    return str(path)


def _rulesets_below(path: Path) -> list[str]:
    """The rule-set folders one or two levels below ``path`` (``my_game``, ``rules/my_game``), as paths
    relative to it; none when ``path`` is no folder."""
    if not path.is_dir():
        return []
    found = []
    for child in sorted(path.iterdir()):
        if not child.is_dir():
            continue
        if (child / "game.yaml").is_file():
            found.append(child.name)
        elif not child.name.startswith("."):
            found += [f"{child.name}/{g.name}" for g in sorted(child.iterdir()) if (g / "game.yaml").is_file()]
    return found


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


# files a rule set's loader reads: an output with such a name inside the folder would
# join the rules
_READ_AS_RULES = (".rules", ".yaml", ".yml")


def input_problem(path: str, reads) -> str | None:
    """Why writing ``path`` would spoil what the run reads (``reads``: rule-set folders,
    other folders or files), or None: a file of one of them, or a new rule or table
    file inside a rule-set folder, which its next load would read as rules."""
    target = Path(path).resolve()
    for given in reads:
        source = Path(given).resolve()
        if source.is_dir():
            if target.is_relative_to(source) and (target.exists() or target.suffix in _READ_AS_RULES):
                return f"'{path}' is inside '{given}', which this run reads: write it elsewhere"
        elif target == source:
            return f"'{path}' is '{given}', which this run reads: write it elsewhere"
    return None


def same_file_problem(outputs) -> str | None:
    """Two outputs of one run (``(option, path)`` pairs, path None when not given) naming
    the same file, where the second would replace the first; a device such as
    /dev/null may take both."""
    seen: dict[Path, str] = {}
    for option, path in outputs:
        if not path:
            continue
        target = Path(path)
        if target.exists() and not target.is_file():
            continue
        key = target.resolve()
        if key in seen:
            return f"{seen[key]} and {option} name the same file '{path}'; give each its own"
        seen[key] = option
    return None


def output_problem(path: str, reads=()) -> str | None:
    """Why ``path`` cannot be written (one line), or None. Checked before a command does
    its work, so a typo in an output path costs no time and loses no result. ``reads``:
    the folders and files the run reads, which an output must not replace or join."""
    if not path:
        return "an empty path names no file"
    problem = input_problem(path, reads)
    if problem:
        return problem
    target = Path(path)
    if target.is_dir():
        return f"'{path}' is a folder, not a file"
    if not target.parent.is_dir():
        return f"cannot write '{path}': there is no folder '{target.parent}'"
    existed = target.exists()
    if existed and not target.is_file():
        # a device or a pipe (/dev/null, a fifo another program reads) is written
        # through; opening a pipe that no one reads yet would wait here for a reader
        return None if os.access(target, os.W_OK) else f"cannot write '{path}': permission denied"
    try:
        with open(target, "a", encoding="utf-8"):
            pass
    except OSError as err:
        return f"cannot write '{path}': {err.strerror or err}"
    if not existed:
        target.unlink(missing_ok=True)
    return None


class NotReplaceable(OSError):
    """A path ``replace_file`` refuses to write (a folder, a device, a pipe), made as
    ``NotReplaceable(None, reason, path)``: ``strerror`` is the reason."""


def replace_problem(path: str) -> str | None:
    """Why ``replace_file`` cannot write ``path`` (the reason, in a few words), or None.
    The new file is renamed over what is there, so that must be an ordinary file or
    nothing yet: a device, a pipe or a folder would be replaced by the file, not written
    to. A symbolic link is followed: its file is replaced, the link kept."""
    if not path:
        return "an empty path names no file"
    real = Path(os.path.realpath(path))
    it = f"it is a link to '{real}'," if os.path.islink(path) else "it is"
    if os.path.islink(real):  # realpath stops where links go round in a loop
        return "it is a loop of symbolic links"
    if real.is_dir():
        return f"{it} a folder"
    if real.exists() and not real.is_file():
        return f"{it} a device, a pipe or a socket, not an ordinary file"
    if not real.parent.is_dir():
        return f"there is no folder '{real.parent}'"
    # the new file is made in the folder, then renamed over the old one
    if not os.access(real.parent, os.W_OK | os.X_OK) or (real.exists() and not os.access(real, os.W_OK)):
        return "permission denied"
    return None


def replace_file(path: str, text: str, *, keep_mode: bool = True) -> None:
    """Write ``text`` as the whole of the file at ``path``: into a new file beside it,
    then renamed over it, so a failed write (a full disk) leaves the old file as it
    was, never half a file. A symbolic link is followed, its file replaced and the link
    kept. The new file is readable by its owner only; with ``keep_mode`` an existing
    file keeps its permissions. OSError says why it was not written (NotReplaceable
    for a path that must not be replaced, see ``replace_problem``), its ``filename``
    the path."""
    problem = replace_problem(path)
    if problem:
        raise NotReplaceable(None, problem, path)
    real = Path(os.path.realpath(path))
    old_mode = real.stat().st_mode & 0o7777 if keep_mode and real.exists() else None
    # a new random name, created only if absent: never a file or link someone put there
    fd, temporary = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            if old_mode is not None:
                os.fchmod(out.fileno(), old_mode)
            out.write(text)
        os.replace(temporary, real)
    except BaseException as err:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(err, OSError) and err.filename is None:
            err.filename = path  # a full disk is told at a write that names no file
        raise


def write_failure(command: str, path: str | Path, err: OSError) -> int:
    """An output that could not be written (a full disk, no permission, its folder
    gone): a problem of the machine, not a bug of rulecraft, told in one line naming the
    file and the reason; exit code 1."""
    sys.stderr.write(f"rulecraft {command}: error: cannot write '{path}': {err.strerror or err}\n")
    return 1


def write_outputs(command: str, outputs: Iterable[tuple[str | Path, Callable[[], None]]]) -> int:
    """Write each output, given as (its path, what writes it); one that fails is told
    (``write_failure``) and the others are still written, so one bad path loses no
    other result. How many failed."""
    failed = 0
    for path, write in outputs:
        try:
            write()
        except OSError as err:
            failed += write_failure(command, path, err)
    return failed


def load_or_report(path: str, variant: str | None = None) -> RuleSet | None:
    """Load and compile (with a variant); on rule errors print them all and return None."""
    try:
        return load_checked(path, variant)
    except RuleSetError as err:
        sys.stderr.write(err.bag.render() + "\n")
        sys.stderr.write(f"{path}: {len(err.bag.errors)} error(s); fix them first ({check_command(path, variant)})\n")
        return None
