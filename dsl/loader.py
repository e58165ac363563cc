"""Load a rule-set folder: every ``*.yaml`` (schema-checked) and every ``*.rules``
(parsed), then check names and types. All problems land in one diagnostic bag."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from . import ast, disk_cache
from .checker import check_definitions
from .diagnostics import DiagnosticBag, RuleSetError
from .model import RuleSet, RuleSetData, check_data, merge_section
from .parser import parse_text, unparsed_parts
from .ruleset_files import files_under, is_name, refuse_link_out
from .source_text import newline_ends, read_source_text
from .variants import apply_variant, blame_variant, load_variant_chain
from .yaml_data import load_and_validate, load_yaml_text, validate

SCHEMA = "ruleset.schema.json"
# Mutants of the rule set that cannot change any game (`rulecraft mutate`); not rules.
EQUIVALENTS_FILE = "mutants.yaml"


def _files(root: Path, suffix: str, overlay: Mapping[Path, str]) -> list[Path]:
    """The rule set's files ending in ``suffix``, with those an editor holds that are not
    saved yet (a new file in the folder is checked from its first keystroke)."""
    found = sorted(root.glob(f"*{suffix}"))
    if overlay:
        try:
            folder = root.resolve()
        except (OSError, RuntimeError):
            return found
        unsaved = [p for p in overlay if p.parent == folder and p.suffix == suffix and not p.exists()]
        found = sorted(found + [root / p.name for p in unsaved])
    return found


class _Places:
    """Where the files of one load are: the folder and the working directory resolved
    once, each file once (resolving follows links one path part at a time)."""

    def __init__(self, root: Path):
        self.root = self._resolved(root)
        try:
            self.cwd: Path | None = Path.cwd().resolve()
        except (OSError, RuntimeError):  # a working directory gone
            self.cwd = None

    @staticmethod
    def _resolved(path: Path) -> Path | None:
        try:
            return path.resolve()
        except (OSError, RuntimeError):  # a link loop
            return None

    def of(self, path: Path) -> tuple[str, Path | None]:
        """(the name ``path`` is shown by: relative to the working directory when it lies
        there; ``path`` resolved, or None when it does not lie in the folder, as
        ruleset_files.inside decides)."""
        resolved = self._resolved(path)
        display = str(path)
        if resolved is not None and self.cwd is not None and resolved.is_relative_to(self.cwd):
            display = str(resolved.relative_to(self.cwd))
        if resolved is None or self.root is None or not resolved.is_relative_to(self.root):
            return display, None
        return display, resolved


def resolve_ruleset_path(name_or_path: str) -> Path | None:
    """A folder path, or the name of a rule set shipped with rulecraft."""
    path = Path(name_or_path)
    if path.is_dir():
        return path
    return shipped_ruleset(name_or_path)


def shipped_ruleset(name: str) -> Path | None:
    """The folder of the rule set shipped with rulecraft as ``name``. Only a name is
    looked up, never a path: a name read from a file (a game log's header) must not
    lead anywhere else on the machine."""
    if not is_name(name):
        return None
    from importlib import resources

    shipped = resources.files("rulecraft.rules").joinpath(name)
    if shipped.is_dir():
        return Path(str(shipped))
    return None


def load_ruleset(folder: str | Path, bag: DiagnosticBag | None = None, variant: str | None = None,
                 overlay: Mapping[Path, str] | None = None) -> RuleSet:
    """Load and check a rule set, optionally patched by one of its variants.

    ``overlay`` gives texts (by resolved path) to read instead of the files' own, as an
    editor checks its unsaved buffers. Never raises for rule errors: inspect ``ruleset.bag``."""
    overlay = overlay or {}
    bag = bag or DiagnosticBag()
    root = Path(folder)
    data = RuleSetData()
    files: list[str] = []
    broken_files: set[str] = set()  # files that did not load, none of whose sections could be named
    places = _Places(root)
    for path in _files(root, ".yaml", overlay):
        if path.name == EQUIVALENTS_FILE:
            continue
        display, resolved = places.of(path)
        if resolved is None:
            refuse_link_out(path, display, bag)
            continue
        files.append(display)
        before = len(bag.items)
        errors_before = len(bag.errors)
        if resolved in overlay:
            text = newline_ends(overlay[resolved])
            bag.sources.add(display, text)
            content, located = load_yaml_text(text, display, bag, SCHEMA)
            if located.root is not None:
                validate(content, SCHEMA, located, bag)
        else:
            content, located = load_and_validate(path, SCHEMA, bag, display)
        if not isinstance(content, dict):
            if len(bag.errors) > errors_before:
                # an unreadable file: every section it would have defined is unknown
                sections = _top_level_keys(bag.sources, display)
                if not sections:
                    broken_files.add(display)
                data.broken.update(sections or {display})
            continue
        # A section with schema errors is left out, so later checks do not trip over
        # malformed data; the other sections of the file still count.
        broken = {d.position.line for d in bag.items[before:] if d.position}
        for section, value in content.items():
            start = located.key_position([section]).line
            end = min([located.key_position([s]).line for s in content if located.key_position([s]).line > start],
                      default=10**9)
            if any(start <= line < end for line in broken):
                data.broken.add(section)
                continue
            merge_section(data, section, value, located, bag)
    rule_files: list[ast.RuleFile] = []
    unparsed: list[str | None] = []
    for path in _files(root, ".rules", overlay):
        display, resolved = places.of(path)
        if resolved is None:
            refuse_link_out(path, display, bag)
            continue
        files.append(display)
        text = newline_ends(overlay[resolved]) if resolved in overlay else read_source_text(path, bag, display)
        if text is None:
            # what could be read of it (up to a byte that is not UTF-8), else nothing
            read = "\n".join(bag.sources.lines(display))
            unparsed.append(read or None)
            continue
        rule_file = parse_text(text, display, bag)
        rule_files.append(rule_file)
        unparsed.extend(unparsed_parts(text, rule_file.definitions))
    definitions: dict[str, ast.Definition] = {}
    duplicates: list[ast.Definition] = []
    for rf in rule_files:
        for d in rf.definitions:
            if d.name in definitions:
                first = definitions[d.name]
                bag.error(f"'{d.name}' is defined twice", d.name_pos, f"the first definition is at {first.name_pos}")
                duplicates.append(d)
                continue
            definitions[d.name] = d
    info = None
    checks_start = len(bag.items)
    if variant is not None:
        chain = load_variant_chain(root, variant, data.game.name if data.game else None, bag)
        # A variant's own YAML errors are root errors; what it then fails to find in a
        # base whose YAML broke is not.
        checks_start = len(bag.items)
        info = apply_variant(root, variant, data, definitions, files, bag, chain, unparsed)
    check_data(data, bag)
    name = data.game.name if data.game else root.name
    ruleset = RuleSet(name, str(root), data, files, definitions, bag, variant=info, unparsed=unparsed,
                      duplicates=duplicates)
    check_definitions(ruleset)
    if info is not None:  # what the variant caused in the base's files is told at its own lines
        blame_variant(bag, checks_start, info, data, definitions)
    if data.broken:
        _excuse_follow_on(bag, checks_start, data.broken, broken_files)
    return ruleset


def _top_level_keys(sources, file: str) -> set[str]:
    """The section names a YAML text starts at its left margin, read line by line (the
    file as a whole may not parse)."""
    lines = sources.lines(file)
    return {m.group(1) for line in lines if (m := re.match(r"([A-Za-z_][A-Za-z0-9_]*)[ \t]*:", line))}


def _excuse_follow_on(bag: DiagnosticBag, checks_start: int, broken: set[str],
                      broken_files: set[str] = frozenset()) -> None:
    """A YAML section with a syntax or schema error defines nothing, so the cross-checks
    that follow would report every name, variable and count it holds as missing, burying
    the one real error. Their findings are withheld until the section reads again.
    ``broken_files`` are those of ``broken`` that name a file, not a section: files that
    did not load and hold no section name to tell (one holding a list, or only '~')."""
    follow_on = bag.items[checks_start:]
    if not follow_on:
        return
    del bag.items[checks_start:]
    sections = sorted(broken - set(broken_files))
    files = sorted(Path(f).name for f in broken_files)
    what = []
    if sections:
        what.append(f"the YAML section(s) {', '.join(sections)}")
    if files:
        what.append(f"the file{'s' if len(files) > 1 else ''} {', '.join(files)}")
    places = "those sections" if not files else "that file" if len(files) == 1 and not sections else \
        "those files" if not sections else "those sections and files"
    bag.warning(f"checks of names and counts were skipped ({len(follow_on)} finding(s) withheld): "
                f"{' and '.join(what)} did not load", None,
                f"fix the YAML error(s) reported in {places} and check again", code="follow-on")


# Rule sets loaded by load_checked in this process: (folder, variant, working directory)
# → (the files' stamp, the rule set). Positions in a rule set are shown relative to the
# working directory, hence its place in the key.
_LOADED: dict[tuple, tuple[tuple, RuleSet]] = {}


def _stamp(root: Path) -> tuple:
    """Path, size and modification time of every file under a rule-set folder (its
    variants included): a load is reused only while none of them changed."""
    out = []
    for path in sorted(root.rglob("*")):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        st = path.stat()
        out.append((str(path), st.st_size, st.st_mtime_ns))
    return tuple(out)


def load_checked(folder: str | Path, variant: str | None = None) -> RuleSet:
    """Load a rule set (and variant) and compile it; raise :class:`RuleSetError` if it has errors.

    A rule set already loaded in this process, whose files have not changed since, is
    returned again (rule sets are not changed once loaded)."""
    from .compiler import compile_ruleset

    root = Path(folder)
    key = (str(root.resolve()), variant, os.getcwd())
    stamp = _stamp(root)
    cached = _LOADED.get(key)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    ruleset = _load_through_disk_cache(root, variant)
    if not ruleset.ok:
        raise RuleSetError(ruleset.bag)
    compile_ruleset(ruleset)
    _LOADED[key] = (stamp, ruleset)
    return ruleset


def _load_through_disk_cache(root: Path, variant: str | None) -> RuleSet:
    """load_ruleset, or its stored result for exactly these files (see disk_cache)."""
    if disk_cache.cache_dir() is None:  # no key to make: it hashes every file and the loading code
        return load_ruleset(root, variant=variant)
    try:
        key = disk_cache.ruleset_key(root, variant, files_under(root))
    except OSError:
        key = None
    if key is not None:
        ruleset = disk_cache.load_ruleset(key)
        if ruleset is not None:
            return ruleset
    ruleset = load_ruleset(root, variant=variant)
    if key is not None and ruleset.ok:  # a rule set with errors is reported afresh each time
        disk_cache.store_ruleset(key, ruleset)
    return ruleset
