"""The bounds of the rules language and its tables, in one place (docs/language.md
lists them for rule authors).

Every stage that reads a rule set walks it recursively, and every loop the language
allows is finite; these bounds make "finite" mean "finishes in reasonable time and
memory", so a hostile or mistaken file gets a located error instead of a hang or a
crash.
"""

from __future__ import annotations

from typing import Any

# ---- reading (checked when a rule set is loaded)
# Size of one rule file or YAML table. The largest shipped rule file is a few dozen
# kilobytes; a file of megabytes is not a rule file and would take far too long to check.
MAX_FILE_BYTES = 1_000_000
# Syntax errors reported in one rule file before the rest of it is skipped: past the
# first screens, the others are mostly echoes of the first.
MAX_SYNTAX_ERRORS_PER_FILE = 100
# How deep a definition's parse tree may be (blocks, operators, list brackets); the
# deepest definition stays well inside Python's recursion limit in every later stage.
MAX_NESTING = 100
# Digits of a number written in a rule file or a YAML table: far beyond any count a
# game needs, far below the 4,300 digits past which Python refuses to read a number.
MAX_NUMBER_DIGITS = 15
# How deep YAML data may nest, and how many values it may hold once every alias
# (*name) is expanded: a few aliases of aliases would otherwise make billions.
MAX_YAML_DEPTH = 50
MAX_YAML_VALUES = 1_000_000

# ---- checking
# The most times a `repeat` may run when its count is known before the game (a number
# or a parameter). Counts computed during play are bounded by the step budget below.
MAX_REPEAT = 10_000

# ---- running
# Steps (statements and loop turns) the rules may take between two decisions. A count
# computed during play (repeat n times, loops in loops) could be astronomically large:
# past this budget the game stops with an error naming the definition instead of
# running for ever. A whole setup of a board game takes a few thousand steps.
MAX_STEPS_PER_DECISION = 1_000_000
# Numbers and lists a rule stores or binds stay within these, so that doubling a value
# in a loop fails at once instead of eating all memory and time.
MAX_NUMBER = 10**15
MAX_LIST_LENGTH = 100_000


class OutOfBounds(ValueError):
    """A value past the limits above; its message is in the rules language's words."""


def bounded(value: Any) -> Any:
    """``value``, if within the limits a stored number or list must keep; OutOfBounds if not
    (the machine reports it at the position of the rule that made the value)."""
    if isinstance(value, int) and not isinstance(value, bool) and not -MAX_NUMBER <= value <= MAX_NUMBER:
        raise OutOfBounds(f"a number grew beyond ±{MAX_NUMBER:,}")
    if isinstance(value, list) and len(value) > MAX_LIST_LENGTH:
        raise OutOfBounds(f"a list grew beyond {MAX_LIST_LENGTH:,} items")
    return value
