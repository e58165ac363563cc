"""Which files a rule set may read: those inside its own folder, and no others.

A rule set is data that people share, so nothing in it may make loading read a file
elsewhere on the machine (a variant naming ``/etc/passwd`` as its rule file, a link in
the folder pointing out of it): its text would end up quoted in an error message. Paths
are compared after resolving links, and a refused file is never opened, so an error
about it quotes nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

from .diagnostics import DiagnosticBag, Position

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def is_name(text: object) -> bool:
    """Whether ``text`` is a name (letters, digits, _; not starting with a digit), as
    variants and shipped rule sets are named; a name never leads out of a folder."""
    return isinstance(text, str) and NAME.fullmatch(text) is not None


def inside(path: Path, root: Path) -> bool:
    """Whether ``path``, links resolved, is ``root`` or lies under it."""
    try:
        return Path(path).resolve().is_relative_to(Path(root).resolve())
    except (OSError, RuntimeError):  # a loop of links
        return False


def files_under(root: Path) -> list[Path]:
    """Every file under ``root`` (its variants included) that a load may read, sorted."""
    return [p for p in sorted(Path(root).rglob("*"))
            if "__pycache__" not in p.parts and p.is_file() and inside(p, root)]


def refuse_link_out(path: Path, display: str, bag: DiagnosticBag) -> None:
    """Report ``path``, which links out of the rule set, as an error located at the link."""
    bag.sources.add(display, "")  # never quote a line of the file it points to
    bag.error(f"'{Path(display).name}' links to a file outside the rule set; it is not read",
              Position(display, 1, 1),
              "a rule set reads only files inside its own folder: copy the file in instead of linking to it")
