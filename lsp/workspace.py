"""The rule sets an editor has open: each loaded and checked with the unsaved buffers
laid over the files on disk, by the project's own loader and checker.

A rule set is the folder holding a file (``*.rules`` and ``*.yaml`` side by side). It is
loaded again only when a buffer or a file of it changed; unchanged rule files come from
the parse cache, so a keystroke costs the parse of the file being edited and a check.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from rulecraft.docgen.glossary import check_glossaries
from rulecraft.dsl.diagnostics import DiagnosticBag, Position
from rulecraft.dsl.loader import load_ruleset
from rulecraft.dsl.model import RuleSet
from rulecraft.dsl.ruleset_files import files_under

from .symbols import SymbolTable

RULE_SET_SUFFIXES = (".rules", ".yaml", ".yml")


@dataclass
class Checked:
    """One load of a rule set: the checked rule set, its names, and the texts it read."""

    root: Path
    ruleset: RuleSet
    symbols: SymbolTable
    texts: dict[Path, str]  # what each open buffer held when it was loaded
    # (definition, local name) → type, from this check and the earlier ones: while a
    # line is being typed its definition does not parse, and completion after "x." still
    # needs to know what x was
    local_types: dict[tuple[str, str], str] = field(default_factory=dict)

    @property
    def bag(self) -> DiagnosticBag:
        return self.ruleset.bag


def file_path(display: str) -> Path:
    """The absolute path of a file as the loader names it (relative to the working
    directory when it lies under it)."""
    path = Path(display)
    return (path if path.is_absolute() else Path.cwd() / path).resolve()


def ruleset_root(path: Path) -> Path | None:
    """The rule-set folder a file belongs to, or None for a file outside any (a
    variant's own files, under ``variants/``, are left out: the server checks the base)."""
    if path.suffix not in RULE_SET_SUFFIXES:
        return None
    folder = path.parent
    if folder.name == "variants" and any(folder.parent.glob("*.yaml")):
        return None
    # any YAML file may be open in the editor: only a folder with rule files is a rule set
    return folder if any(folder.glob("*.rules")) else None


class Workspace:
    """Open buffers and the latest check of each rule set they belong to."""

    def __init__(self) -> None:
        self.buffers: dict[Path, str] = {}
        self._checked: dict[Path, tuple[tuple, Checked]] = {}
        self._local_types: dict[Path, dict[tuple[str, str], str]] = {}
        self._glossaries: dict[Path, tuple[tuple, list]] = {}

    def open(self, path: Path, text: str) -> None:
        self.buffers[path.resolve()] = text

    def close(self, path: Path) -> None:
        self.buffers.pop(path.resolve(), None)

    def text(self, path: Path) -> str | None:
        path = path.resolve()
        if path in self.buffers:
            return self.buffers[path]
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def _stamp(self, root: Path) -> tuple:
        files = []
        for p in files_under(root):
            try:
                st = p.stat()
            except OSError:
                continue
            files.append((str(p), st.st_size, st.st_mtime_ns))
        overlay = tuple(sorted((str(p), hash(t)) for p, t in self.buffers.items() if p.parent == root.resolve()))
        return (os.getcwd(), tuple(files), overlay)

    def check(self, root: Path) -> Checked:
        """The rule set in ``root`` checked with the open buffers; reused while nothing changed."""
        root = root.resolve()
        stamp = self._stamp(root)
        cached = self._checked.get(root)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        overlay = {p: t for p, t in self.buffers.items() if p.parent == root}
        ruleset = load_ruleset(root, overlay=overlay)
        ruleset.bag.extend(self._glossary_warnings(root, ruleset, stamp[1]))
        symbols = SymbolTable(ruleset, lambda display: self.text(file_path(display)))
        local_types = self._local_types.setdefault(root, {})
        for o in symbols.occurrences:
            if o.key[0] == "local" and o.type and o.type != "any":
                local_types[o.key[1:]] = o.type
        checked = Checked(root, ruleset, symbols, dict(overlay), local_types)
        self._checked[root] = (stamp, checked)
        return checked

    def _glossary_warnings(self, root: Path, ruleset: RuleSet, files: tuple) -> list:
        """The glossaries' warnings, as `rulecraft check` reports them. Reading every
        glossary costs more than the rest of a check, so they are checked again when a
        file is saved, not at each keystroke (a term a new rule uses shows on save). The
        texts a rules site in another language would lack are left to `rulecraft check`:
        finding them renders the site's pages, seconds in which the editor would wait."""
        cached = self._glossaries.get(root)
        if cached is not None and cached[0] == files:
            return cached[1]
        warnings = check_glossaries(ruleset, docs_words=False)
        self._glossaries[root] = (files, warnings)
        return warnings

    def trial(self, root: Path) -> "Trial":
        return Trial(self, root.resolve())

    def latest(self, root: Path) -> Checked | None:
        """The last check of ``root``, without checking again."""
        cached = self._checked.get(root.resolve())
        return cached[1] if cached else None

    def files_of(self, checked: Checked) -> list[Path]:
        return [file_path(f) for f in checked.ruleset.files]


class Trial:
    """The rule set of ``root`` checked with texts that are in no buffer yet (a rename's
    result), without touching the workspace or its cache."""

    def __init__(self, workspace: Workspace, root: Path):
        self.workspace = workspace
        self.root = root

    def text(self, path: Path) -> str | None:
        return self.workspace.text(path)

    def check(self, texts: dict[Path, str]) -> RuleSet:
        overlay = {p: t for p, t in self.workspace.buffers.items() if p.parent == self.root}
        overlay.update({p.resolve(): t for p, t in texts.items()})
        return load_ruleset(self.root, overlay=overlay)


def display_of(checked: Checked, path: Path) -> str | None:
    """How the loader named ``path`` in this rule set's positions."""
    path = path.resolve()
    for f in checked.ruleset.files:
        if file_path(f) == path:
            return f
    return None


def position_file(pos: Position) -> Path:
    return file_path(pos.file)
