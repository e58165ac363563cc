"""Located diagnostics: every problem with file, line, column, a caret and a hint.

Every stage of the pipeline (YAML loading, parsing, checking) reports problems as
:class:`Diagnostic` values collected in a :class:`DiagnosticBag`, so a user sees all the
errors of a rule set at once instead of fixing them one run at a time.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable



def source_lines(text: str) -> list[str]:
    """The lines of a rule file as the grammar counts them: ended by a newline (``\\n`` or
    ``\\r\\n``) only. Python's ``splitlines`` also ends a line at a form feed, U+2028 and
    other separators that the grammar reads as ordinary characters (inside a comment or a
    text), and every line number after one would then be off by one."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # a final newline ends the last line; it starts none
    return [line[:-1] if line.endswith("\r") else line for line in lines]


@dataclass(frozen=True)
class Position:
    """A place in a source file; line and column count from 1."""

    file: str
    line: int
    column: int
    end_column: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


def span(first: Position, last: Position) -> Position:
    """From the start of ``first`` to the end of ``last`` (a caret under several names of a
    line, such as the 'a.b' of 'set a.b.c'); just ``first`` when they are not on one line."""
    if (first.file, first.line) != (last.file, last.line) or last.end_column is None:
        return first
    return Position(first.file, first.line, first.column, last.end_column)


@dataclass(frozen=True)
class Diagnostic:
    severity: str  # "error" or "warning"
    message: str
    position: Position | None
    hint: str | None = None
    code: str = ""

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


class SourceCache:
    """Remembers source texts so a diagnostic can quote the offending line."""

    def __init__(self) -> None:
        self._texts: dict[str, list[str]] = {}

    def add(self, file: str, text: str) -> None:
        self._texts[file] = source_lines(text)

    def lines(self, file: str) -> list[str]:
        """The lines of a text added earlier (none if it was not)."""
        return list(self._texts.get(file, []))

    def line(self, file: str, line: int) -> str | None:
        lines = self._texts.get(file)
        if lines is None:
            try:
                lines = source_lines(Path(file).read_text(encoding="utf-8", errors="replace"))
            except OSError:
                return None
            self._texts[file] = lines
        if 1 <= line <= len(lines):
            return lines[line - 1]
        return None


# How many diagnostics render() prints before it only counts the rest: past a few
# screens, more of them help nobody, and a hostile file can produce millions.
SHOWN_AT_MOST = 200
# How much of a source line a diagnostic quotes.
QUOTED_AT_MOST = 160


@dataclass
class DiagnosticBag:
    """Collects diagnostics from every stage; rendering quotes the source."""

    items: list[Diagnostic] = field(default_factory=list)
    sources: SourceCache = field(default_factory=SourceCache)

    def error(self, message: str, position: Position | None, hint: str | None = None, code: str = "") -> None:
        self._add(Diagnostic("error", message, position, hint, code))

    def warning(self, message: str, position: Position | None, hint: str | None = None, code: str = "") -> None:
        self._add(Diagnostic("warning", message, position, hint, code))

    def add(self, diagnostic: Diagnostic) -> None:
        """Add a diagnostic made elsewhere (e.g. one stored with a cached parse)."""
        self._add(diagnostic)

    def _add(self, diagnostic: Diagnostic) -> None:
        # The same problem reached twice (a type named in a signature is checked at
        # every call) is reported once.
        seen = self._seen()
        if diagnostic not in seen:
            seen.add(diagnostic)
            self.items.append(diagnostic)
            self._seen_count += 1

    def extend(self, other: Iterable[Diagnostic]) -> None:
        seen = self._seen()
        for diagnostic in other:
            seen.add(diagnostic)
            self.items.append(diagnostic)
            self._seen_count += 1

    def _seen(self) -> set[Diagnostic]:
        """The diagnostics in ``items`` as a set, so that adding one stays O(1) however many
        there are; rebuilt when ``items`` was changed directly (or the bag was unpickled)."""
        if self.__dict__.get("_seen_count") != len(self.items):
            self._seen_set = set(self.items)
            self._seen_count = len(self.items)
        return self._seen_set

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.is_error]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if not d.is_error]

    def sorted(self) -> list[Diagnostic]:
        """In file, line and column order; those of no one place (a summary of what was
        withheld because of the errors above it) after them."""
        def key(d: Diagnostic):
            p = d.position
            return (0, p.file, p.line, p.column) if p else (1, "", 0, 0)

        return sorted(self.items, key=key)

    def render(self, at_most: int | None = SHOWN_AT_MOST) -> str:
        """Every diagnostic rendered, in file order; past ``at_most`` only a count of the rest."""
        ordered = self.sorted()
        shown = ordered if at_most is None else ordered[:at_most]
        out = [render(d, self.sources) for d in shown]
        rest = ordered[len(shown):]
        if rest:
            errors = sum(1 for d in rest if d.is_error)
            out.append(f"... and {len(rest)} more ({errors} error(s), {len(rest) - errors} warning(s)) not shown; "
                       "fix the first ones and check again")
        return "\n".join(out)


def render(diagnostic: Diagnostic, sources: SourceCache | None = None) -> str:
    """Format like a compiler: location, message, quoted line, caret, hint."""
    pos = diagnostic.position
    head = f"{pos}: " if pos else ""
    out = [f"{head}{diagnostic.severity}: {diagnostic.message}"]
    if pos and sources is not None:
        text = sources.line(pos.file, pos.line)
        if text is not None:
            gutter = f"{pos.line:>5} | "
            column = pos.column
            width = 1
            if pos.end_column and pos.end_column > pos.column:
                width = pos.end_column - pos.column
            if len(text) > QUOTED_AT_MOST:
                # a very long line is quoted around the column only
                first = max(0, column - 1 - QUOTED_AT_MOST // 2)
                text = ("…" if first else "") + text[first:first + QUOTED_AT_MOST] + "…"
                column = column - first + (1 if first else 0)
                width = max(1, min(width, QUOTED_AT_MOST + 1 - column))
            out.append(f"{gutter}{text}")
            out.append(" " * (len(gutter) - 2) + "| " + " " * (column - 1) + "^" * width)
    if diagnostic.hint:
        out.append(f"      = hint: {diagnostic.hint}")
    return "\n".join(out)


# Words starting with a vowel letter but sounded with a consonant ('a unit', 'a one-way
# door'), and the reverse ('an hour'): the article follows the sound.
_CONSONANT_SOUNDS = re.compile(r"(uni|use|usu|uti|eu|one|once)", re.IGNORECASE)
_VOWEL_SOUNDS = re.compile(r"(hour|honest|honou?r|heir)", re.IGNORECASE)


def with_article(word: str) -> str:
    """'a number', 'an action', 'an item': a word of a message (a type, a kind of
    definition, a rule set's kind name) after the article its sound takes."""
    vowel = (word[:1] != "" and word[:1] in "aeiouAEIOU" and not _CONSONANT_SOUNDS.match(word)) \
        or _VOWEL_SOUNDS.match(word) is not None
    return f"{'an' if vowel else 'a'} {word}"


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest known name, if one is close enough."""
    matches = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{matches[0]}'?" if matches else None


def did_you_mean_among(name: str, candidates: Iterable[str], what: str, shown: int = 12) -> str:
    """A hint naming the closest known name, or else the known names (``what``: what
    they are, in the plural), so that a name with no near miss still gets a way on."""
    names = sorted(set(map(str, candidates)))
    close = did_you_mean(name, names)
    if close:
        return close
    numbered = _nearest_numbered(name, names)
    if numbered:
        return f"did you mean '{numbered}'?"
    if not names:
        return f"no {what} are declared"
    return f"known {what}: " + ", ".join(names[:shown]) + (", …" if len(names) > shown else "")


_NUMBERED = re.compile(r"(\D*)(\d{1,9})")


def _nearest_numbered(name: str, names: list[str]) -> str | None:
    """Of the names that are the same word with another number ('d7' among 'd4', 'd6',
    'd8'), the one whose number is nearest (the lower on a tie), when it is near enough
    to be a slip (within half again: 'd7' for 'd6', not 'd20' for 'd6', which is another
    thing the rules lack). difflib misses them: two short names one character apart read
    to it as unlike."""
    m = _NUMBERED.fullmatch(name)
    if m is None:
        return None
    stem, number = m.group(1), int(m.group(2))
    near = [(abs(int(c.group(2)) - number), int(c.group(2)), c.group(0))
            for c in map(_NUMBERED.fullmatch, names) if c is not None and c.group(1) == stem]
    if not near:
        return None
    _, other, found = min(near)
    return found if 0 < min(number, other) and max(number, other) <= 1.5 * min(number, other) else None


def did_you_mean_or(name: str, candidates: Iterable[str], otherwise: str) -> str:
    """A hint for a name that may be a slip for a known one or may be meant as new: the
    closest known name, ``otherwise`` (what to do with a new name) when none is close,
    and both when the closest is not that close."""
    matches = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    if not matches:
        return otherwise
    if difflib.SequenceMatcher(None, name, matches[0]).ratio() >= 0.85:
        return f"did you mean '{matches[0]}'?"
    return f"did you mean '{matches[0]}'? If '{name}' is new: {otherwise}"


class RuleSetError(Exception):
    """Raised when a rule set cannot be loaded; carries every diagnostic found."""

    def __init__(self, bag: DiagnosticBag):
        self.bag = bag
        super().__init__(f"{len(bag.errors)} error(s) in rule set")
