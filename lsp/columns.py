"""Columns as the client counts them.

The checker and the symbol table count a line's characters (code points); the protocol
counts in the position encoding the client and the server agreed on at initialization:
UTF-16 code units unless the client asked for UTF-8 bytes or code points. The two differ
on a line holding a character outside the Basic Multilingual Plane (an emoji: two UTF-16
units) or, in UTF-8, any character beyond ASCII. Every position the server receives is
converted in, and every range it sends is converted out, against the text of that line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from lsprotocol import types as lsp

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"


def _units(char: str, encoding: str) -> int:
    if encoding == UTF8:
        return len(char.encode("utf-8"))
    if encoding == UTF16:
        return 2 if ord(char) > 0xFFFF else 1
    return 1


def to_client(line: str, column: int, encoding: str) -> int:
    """The client's count of ``column`` characters of ``line`` (a column past the line's
    end stays past it by as much)."""
    if encoding == UTF32 or line.isascii():
        return column
    head = line[:column]
    return sum(_units(c, encoding) for c in head) + max(column - len(line), 0)


def from_client(line: str, units: int, encoding: str) -> int:
    """The character column at the client's ``units`` on ``line`` (inside a character of
    several units: the character after it)."""
    if encoding == UTF32 or line.isascii():
        return units
    count = 0
    for index, char in enumerate(line):
        if count >= units:
            return index
        count += _units(char, encoding)
    return len(line) + max(units - count, 0)


class Columns:
    """Converts positions between the server's characters and the client's units, for the
    files of one request (each file's lines read once)."""

    def __init__(self, encoding: str | None, text_of: Callable[[Path], str | None]):
        self.encoding = str(getattr(encoding, "value", encoding) or UTF16)
        self._text_of = text_of
        self._lines: dict[Path, list[str]] = {}

    def line(self, path: Path, line: int) -> str:
        lines = self._lines.get(path)
        if lines is None:
            lines = (self._text_of(path) or "").splitlines() if self.encoding != UTF32 else []
            self._lines[path] = lines
        return lines[line] if 0 <= line < len(lines) else ""

    def character_in(self, path: Path, position: lsp.Position) -> int:
        if self.encoding == UTF32:
            return position.character
        return from_client(self.line(path, position.line), position.character, self.encoding)

    def position_out(self, path: Path, position: lsp.Position) -> lsp.Position:
        if self.encoding == UTF32:
            return position
        return lsp.Position(position.line, to_client(self.line(path, position.line), position.character, self.encoding))

    def range_out(self, path: Path, rng: lsp.Range) -> lsp.Range:
        return lsp.Range(self.position_out(path, rng.start), self.position_out(path, rng.end))

    def location_out(self, location: lsp.Location) -> lsp.Location:
        from pygls.uris import to_fs_path

        path = Path(to_fs_path(location.uri) or "")
        return lsp.Location(location.uri, self.range_out(path.resolve(), location.range))
