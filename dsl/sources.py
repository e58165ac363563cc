"""Where rule-set files are read: from disk, or from texts put in their place for a while.

`rulecraft mutate` checks hundreds of slightly changed copies of a rule set; putting the
changed text in place of one file (``replaced_texts``) spares a copy of the whole
folder per change, and every stage that reads a rule-set file reads it through here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

_REPLACED: ContextVar[Mapping[str, str]] = ContextVar("replaced_texts", default={})


@contextmanager
def replaced_texts(texts: Mapping[str | Path, str]) -> Iterator[None]:
    """Within the block, reading a file named in ``texts`` gives the text given there."""
    token = _REPLACED.set({str(Path(p).resolve()): t for p, t in texts.items()})
    try:
        yield
    finally:
        _REPLACED.reset(token)


def replaced_text(path: str | Path) -> str | None:
    """The text put in place of the file at ``path``, or None to read the file itself."""
    replaced = _REPLACED.get()
    if replaced:
        return replaced.get(str(Path(path).resolve()))
    return None

