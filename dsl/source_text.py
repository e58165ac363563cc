"""Reading a rule set's files as text: every way a file can fail to be read becomes a
located diagnostic, never an exception.

Rule files and YAML tables are UTF-8. A UTF-8 byte-order mark (some editors on Windows
write one) is accepted and dropped. UTF-16 and UTF-32 files (recognised by their
byte-order mark) and bytes that are not UTF-8 (a Latin-1 "é", a binary file) are
reported at the line and column where reading stopped, with a hint to save as UTF-8.
"""

from __future__ import annotations

import errno
import re
from pathlib import Path

from .diagnostics import DiagnosticBag, Position
from .limits import MAX_FILE_BYTES
from .sources import replaced_text

UTF8_BOM = b"\xef\xbb\xbf"
_LONE_CR = re.compile(r"\r(?!\n)")
# Longest first: the UTF-32 little-endian mark begins with the UTF-16 one.
_OTHER_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"),
               (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))
_SAVE_AS_UTF8 = "save the file as UTF-8 (in most editors: 'Save with encoding' → UTF-8)"


def newline_ends(text: str) -> str:
    """The text with each lone carriage return (an old Mac line end) made a newline, as
    editors show it. The grammar ends lines at newlines only, so a comment before a lone
    CR used to swallow the code an editor shows on the next line. The length is kept,
    so offsets into the text stay the same."""
    return _LONE_CR.sub("\n", text) if "\r" in text else text


def read_source_text(path: Path, bag: DiagnosticBag, display: str) -> str | None:
    """The text of a rule-set file, or None after reporting why it cannot be read."""
    replaced = replaced_text(path)
    if replaced is not None:  # a text put in the file's place (rulecraft mutate)
        return replaced
    start = Position(display, 1, 1)
    try:
        with path.open("rb") as stream:
            raw = stream.read(MAX_FILE_BYTES + 1)
    except IsADirectoryError:
        bag.error(f"'{path.name}' is a folder, not a file", start,
                  f"rename the folder: names ending in '{path.suffix}' are read as rule-set files")
        return None
    except FileNotFoundError:
        bag.error(f"'{path.name}' is a link to a file that does not exist", start, "remove the link or restore its target")
        return None
    except OSError as err:
        if err.errno == errno.ELOOP:
            bag.error(f"'{path.name}' is a link that leads back to itself", start, "remove the link")
        else:
            bag.error(f"'{path.name}' cannot be read: {err.strerror or err}", start,
                      "check that the file can be read (its permissions), or remove it from the folder")
        return None
    if len(raw) > MAX_FILE_BYTES:
        bag.error(f"'{path.name}' is larger than {MAX_FILE_BYTES:,} bytes; a rule-set file is far smaller", start,
                  "split it into several files, or check that this is the file you meant")
        return None
    if raw.startswith(UTF8_BOM):
        raw = raw[len(UTF8_BOM):]
    else:
        for mark, encoding in _OTHER_BOMS:
            if raw.startswith(mark):
                bag.error(f"the file is {encoding} text; rule-set files are read as UTF-8", start, _SAVE_AS_UTF8)
                return None
    try:
        return newline_ends(raw.decode("utf-8"))
    except UnicodeDecodeError as err:
        line_start = raw.rfind(b"\n", 0, err.start) + 1
        line = raw.count(b"\n", 0, err.start) + 1
        column = len(raw[line_start:err.start].decode("utf-8", errors="replace")) + 1
        # the line is quoted as far as it can be read, so the caret points at the right place
        bag.sources.add(display, raw.decode("utf-8", errors="replace"))
        bag.error(f"byte 0x{raw[err.start]:02x} is not UTF-8 text (is the file Latin-1 or binary?)",
                  Position(display, line, column), _SAVE_AS_UTF8)
        return None
