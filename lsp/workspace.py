"""The rule sets an editor has open: each loaded and checked with the unsaved buffers
laid over the files on disk, by the project's own loader and checker.

A rule set is the folder holding its rule files (``*.rules`` and ``*.yaml`` side by
side); its glossaries (``glossary/<language>.yaml``) belong to it, and so do its
variants (``variants/NAME.yaml``, ``NAME.rules`` and ``variants/NAME/glossary/``), each
checked as ``rulecraft check --variant NAME`` checks it. A rule set is loaded again
only when a buffer or a file of it changed; unchanged rule files come from the parse
cache, so a keystroke costs the parse of the file being edited and a check.

The buffers are replaced, never changed in place, when the editor sends a text: a
check running on another thread reads one consistent copy of them.
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
from rulecraft.dsl.sources import replaced_texts

from .symbols import SymbolTable

RULE_SET_SUFFIXES = (".rules", ".yaml", ".yml")
VARIANTS = "variants"
GLOSSARY = "glossary"

# (rule-set folder, variant or None): what one check covers
RuleSetKey = tuple[Path, "str | None"]


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
    variant: str | None = None

    @property
    def bag(self) -> DiagnosticBag:
        return self.ruleset.bag

    @property
    def key(self) -> RuleSetKey:
        return (self.root, self.variant)


def file_path(display: str) -> Path:
    """The absolute path of a file as the loader names it (relative to the working
    directory when it lies under it)."""
    path = Path(display)
    return (path if path.is_absolute() else Path.cwd() / path).resolve()


def _holds_rules(folder: Path) -> bool:
    try:
        return folder.is_dir() and any(folder.glob("*.rules"))
    except OSError:
        return False


def ruleset_of(path: Path) -> RuleSetKey | None:
    """The rule set (folder, and variant or None) a file belongs to, or None for a file
    outside any: a rule file or table of the folder, a glossary (``glossary/en.yaml``),
    a variant's file (``variants/NAME.yaml``, its rules, ``variants/NAME/glossary/``).
    The folder is found by walking up from the file, through those shapes only: a
    scenario file, or any YAML an editor opens elsewhere, belongs to none."""
    if path.suffix not in RULE_SET_SUFFIXES:
        return None
    folder = path.parent
    if folder.name != VARIANTS and _holds_rules(folder):
        return (folder, None)
    if folder.name == GLOSSARY and _holds_rules(folder.parent):
        return (folder.parent, None)
    if folder.name == VARIANTS and _holds_rules(folder.parent):
        variant = _variant_of_file(path)
        return (folder.parent, variant) if variant else None
    if (folder.name == GLOSSARY and folder.parent.parent.name == VARIANTS
            and _holds_rules(folder.parent.parent.parent) and (folder.parent.parent / f"{folder.parent.name}.yaml").is_file()):
        return (folder.parent.parent.parent, folder.parent.name)
    return None


def _variant_of_file(path: Path) -> str | None:
    """The variant a file of ``variants/`` belongs to: ``NAME.yaml`` is NAME's, and so is
    ``NAME.rules``; another rule file is the variant's whose file lists it under ``rules:``."""
    if (path.parent / f"{path.stem}.yaml").is_file():
        return path.stem
    if path.suffix == ".rules":
        for candidate in sorted(path.parent.glob("*.yaml")):
            try:
                if path.name in candidate.read_text(encoding="utf-8"):
                    return candidate.stem
            except (OSError, UnicodeDecodeError):
                continue
    return None


def ruleset_root(path: Path) -> Path | None:
    """The rule-set folder a file belongs to (see :func:`ruleset_of`), or None."""
    key = ruleset_of(path)
    return key[0] if key else None


def _is_variant_file(path: Path, root: Path) -> bool:
    return path.is_relative_to(root / VARIANTS)


def _is_glossary(path: Path, root: Path) -> bool:
    return path.parent.name == GLOSSARY and path.is_relative_to(root)


class Workspace:
    """Open buffers and the latest check of each rule set they belong to."""

    def __init__(self) -> None:
        self.buffers: dict[Path, str] = {}
        self._checked: dict[RuleSetKey, tuple[tuple, Checked]] = {}
        self._local_types: dict[RuleSetKey, dict[tuple[str, str], str]] = {}
        self._glossaries: dict[RuleSetKey, tuple[tuple, list]] = {}

    def open(self, path: Path, text: str) -> None:
        self.buffers = {**self.buffers, path.resolve(): text}

    def close(self, path: Path) -> None:
        path = path.resolve()
        if path in self.buffers:
            self.buffers = {p: t for p, t in self.buffers.items() if p != path}

    def text(self, path: Path, buffers: dict[Path, str] | None = None) -> str | None:
        path = path.resolve()
        buffers = self.buffers if buffers is None else buffers
        if path in buffers:
            return buffers[path]
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    @staticmethod
    def read_by(key: RuleSetKey, buffers: dict[Path, str]) -> dict[Path, str]:
        """The buffers a check of ``key`` reads: the rule set's files and glossaries, and a
        variant's own files for a variant's check (a scenario file is read by no check)."""
        root, variant = key
        out = {}
        for p, t in buffers.items():
            if p.parent == root or (p.parent == root / GLOSSARY):
                out[p] = t
            elif variant is not None and _is_variant_file(p, root) and (
                    p.parent == root / VARIANTS or p.parent.name == GLOSSARY):
                out[p] = t  # a variant's file or glossary (of this variant, or of one it builds on)
        return out

    def _stamp(self, key: RuleSetKey, buffers: dict[Path, str]) -> tuple:
        files = []
        for p in files_under(key[0]):
            try:
                st = p.stat()
            except OSError:
                continue
            files.append((str(p), st.st_size, st.st_mtime_ns))
        overlay = tuple(sorted((str(p), hash(t)) for p, t in self.read_by(key, buffers).items()))
        return (os.getcwd(), tuple(files), overlay)

    def is_current(self, key: RuleSetKey, checked: Checked) -> bool:
        """Whether ``checked`` was made from the buffers open now (files on disk aside)."""
        key = (key[0].resolve(), key[1])
        return self.read_by(key, self.buffers) == checked.texts

    def check(self, root: Path, variant: str | None = None) -> Checked:
        """The rule set in ``root`` (with ``variant`` applied) checked with the open
        buffers; reused while nothing changed."""
        key = (root.resolve(), variant)
        buffers = self.buffers  # one copy for the whole check: the editor may send text meanwhile
        stamp = self._stamp(key, buffers)
        cached = self._checked.get(key)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        read = self.read_by(key, buffers)
        ruleset = load(key, read)
        ruleset.bag.extend(self._glossary_warnings(key, ruleset, stamp[1], read))
        symbols = SymbolTable(ruleset, lambda display: self.text(file_path(display), buffers))
        local_types = self._local_types.setdefault(key, {})
        for o in symbols.occurrences:
            if o.key[0] == "local" and o.type and o.type != "any":
                local_types[o.key[1:]] = o.type
        checked = Checked(key[0], ruleset, symbols, read, local_types, variant)
        self._checked[key] = (stamp, checked)
        return checked

    def _glossary_warnings(self, key: RuleSetKey, ruleset: RuleSet, files: tuple, read: dict[Path, str]) -> list:
        """The glossaries' warnings, as `rulecraft check` reports them. Reading every
        glossary costs more than the rest of a check, so they are checked again when a
        file is saved or a glossary is edited, not at each keystroke in a rule file (a
        term a new rule uses shows on save). The texts a rules site in another language
        would lack are left to `rulecraft check`: finding them renders the site's pages,
        seconds in which the editor would wait."""
        glossaries = {p: t for p, t in read.items() if _is_glossary(p, key[0])}
        stamp = (files, tuple(sorted((str(p), hash(t)) for p, t in glossaries.items())))
        cached = self._glossaries.get(key)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        with replaced_texts(glossaries):  # an unsaved glossary is read as the editor holds it
            warnings = check_glossaries(ruleset, docs_words=False)
        self._glossaries[key] = (stamp, warnings)
        return warnings

    def trial(self, root: Path, variant: str | None = None) -> "Trial":
        return Trial(self, root.resolve(), variant)

    def latest(self, root: Path, variant: str | None = None) -> Checked | None:
        """The last check of ``root``, without checking again."""
        cached = self._checked.get((root.resolve(), variant))
        return cached[1] if cached else None

    def files_of(self, checked: Checked) -> list[Path]:
        return [file_path(f) for f in checked.ruleset.files]


def load(key: RuleSetKey, texts: dict[Path, str]) -> RuleSet:
    """Load and check the rule set of ``key`` with ``texts`` in place of its files."""
    root, variant = key
    overlay = {p: t for p, t in texts.items() if p.parent == root}
    others = {p: t for p, t in texts.items() if p.parent != root}
    if variant is None and not others:
        return load_ruleset(root, overlay=overlay)
    with replaced_texts(others):  # a variant's own files are read through here
        return load_ruleset(root, variant=variant, overlay=overlay)


class Trial:
    """The rule set of ``root`` checked with texts that are in no buffer yet (a rename's
    result), without touching the workspace or its cache."""

    def __init__(self, workspace: Workspace, root: Path, variant: str | None = None):
        self.workspace = workspace
        self.root = root
        self.variant = variant
        self.buffers = workspace.buffers
        self._unchanged: dict[str | None, RuleSet] = {}

    def text(self, path: Path) -> str | None:
        return self.workspace.text(path, self.buffers)

    def texts(self, texts: dict[Path, str]) -> dict[Path, str]:
        """The open buffers with ``texts`` laid over them."""
        return {**self.buffers, **{p.resolve(): t for p, t in texts.items()}}

    def check(self, texts: dict[Path, str], variant: str | None = None) -> RuleSet:
        """The rule set (or its ``variant``) checked with ``texts`` over the buffers."""
        key = (self.root, variant)
        if not texts and variant in self._unchanged:
            return self._unchanged[variant]
        ruleset = load(key, self.workspace.read_by(key, self.texts(texts)))
        if not texts:
            self._unchanged[variant] = ruleset
        return ruleset


def display_of(checked: Checked, path: Path) -> str | None:
    """How the loader named ``path`` in this rule set's positions."""
    path = path.resolve()
    for f in checked.ruleset.files:
        if file_path(f) == path:
            return f
    return str(path) if str(path) in checked.symbols.files else None  # a glossary: named by its path


def position_file(pos: Position) -> Path:
    return file_path(pos.file)
