"""Which sections of a rulebook the scenarios cite, and which none does.

The list of sections belongs to the game, not to the engine: it lives next to the
scenarios, in ``sections.yaml``::

    source: rulebook-en            # the source a citation must name to count
    sections:
      - Game Setup
      - Turn, 1. Move
      - {name: Strategy tips, rules: false}   # nothing to verify here

A citation ``"rulebook-en: Turn, 1. Move; Rooms, Library"`` names one or more
sections, separated by ``;``, each of which may switch source (``rulebook-fr: Tour de
jeu``). A cited part counts for a section when it is the same (case and spacing aside),
when it is a more precise part of it (``Game Setup (the deck)`` counts for ``Game
Setup``; the longest such section wins), or when it is the end of the section's name
(``2. Draw`` counts for ``Turn, 2. Draw``).

A rulebook's variants have sections too, and a variant's scenarios may live in its own
folder (``variants/NAME/``), read by ``verify`` only with ``--variant NAME``. Coverage
counts them whatever variant is asked for: given the rule set's folder, :func:`coverage`
reads every variant's own scenarios as well, and :func:`cited_by` names the variant of
each scenario that covers a section.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path

from rulecraft.dsl.diagnostics import DiagnosticBag, Position
from rulecraft.dsl.yaml_data import load_yaml_text

from .scenario import Scenario

SECTIONS_FILE = "sections.yaml"
# A source's name before the colon: a word, or words separated by single spaces
# ("rulebook-en", "standard rules"); a section's name has other marks (commas, numbers).
SOURCE_NAME = r"[\w.-]+(?: [\w.-]+)*"


@dataclass
class Section:
    name: str
    rules: bool = True  # False: the section has nothing to verify (story, tips)
    note: str | None = None


@dataclass
class SectionList:
    source: str | None
    sections: list[Section]
    file: str


@dataclass
class Coverage:
    sections: list[Section]
    citing: dict[str, list[Scenario]]  # section name → scenarios citing it
    unmatched: list[tuple[Scenario, str]] = field(default_factory=list)  # cites of the source naming no section
    other_sources: list[tuple[Scenario, str]] = field(default_factory=list)
    # the scenarios read from the variants' own folders (not among those given), by file
    variant_files: list[str] = field(default_factory=list)

    @property
    def covered(self) -> list[Section]:
        return [s for s in self.sections if self.citing[s.name]]

    @property
    def uncovered(self) -> list[Section]:
        return [s for s in self.sections if s.rules and not self.citing[s.name]]

    @property
    def rule_sections(self) -> list[Section]:
        return [s for s in self.sections if s.rules]

    def variants_of(self, section: str) -> list[str]:
        """The variants whose scenarios cite ``section`` (those of the game itself aside)."""
        return sorted({sc.variant for sc in self.citing[section] if sc.variant})

    def hint(self, part: str) -> str | None:
        """For a cited part that names no section: the section it may be a slip for."""
        return citation_hint(part, self.sections)


def cited_by(sc: Scenario) -> str:
    """A scenario as the coverage lists it: its title, and the variant it belongs to."""
    return f"{sc.title} (variant {sc.variant})" if sc.variant else sc.title


def citation_hint(part: str, sections: list[Section]) -> str | None:
    """'did you mean …?' for a cited part that names no section: the closest section's
    name, else the closest end of one (``2. Drwa`` for ``Turn, 2. Draw``), as a whole."""
    names = {normalize(s.name): s.name for s in sections}
    close = difflib.get_close_matches(normalize(part), sorted(names), n=1, cutoff=0.6)
    if close:
        return f"did you mean '{names[close[0]]}'?"
    segs = _segments(part)
    ends = {", ".join(_segments(s.name)[-len(segs):]): s.name for s in sections if len(_segments(s.name)) > len(segs)}
    close = difflib.get_close_matches(", ".join(segs), sorted(ends), n=1, cutoff=0.6)
    return f"did you mean '{ends[close[0]]}'?" if close else None


def load_sections(path: str | Path, bag: DiagnosticBag, display: str | None = None) -> SectionList | None:
    """Read a sections file; problems are reported in ``bag`` at their YAML position."""
    path = Path(path)
    file = display or str(path)
    data, located = load_yaml_text(path.read_text(encoding="utf-8"), file, bag)
    if located.root is None:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("sections"), list):
        bag.error("a sections file is a mapping with a list under 'sections:'", Position(file, 1, 1),
                  "sections:\n  - Game Setup\n  - {name: Strategy tips, rules: false}", code="sections")
        return None
    for key in data:
        if key not in ("source", "sections"):
            bag.error(f"unknown key '{key}' in the sections file", located.key_position([key]),
                      "allowed keys: source, sections", code="sections")
    source = data.get("source")
    out: list[Section] = []
    seen: dict[str, int] = {}  # normalized name → where it is first listed
    for i, item in enumerate(data["sections"]):
        if isinstance(item, str):
            section = Section(item)
        elif isinstance(item, dict) and isinstance(item.get("name"), str) and set(item) <= {"name", "rules", "note"} \
                and isinstance(item.get("rules", True), bool):
            section = Section(item["name"], item.get("rules", True), item.get("note"))
        else:
            bag.error("a section is a name, or {name: ..., rules: false, note: ...}", located.position(["sections", i]),
                      "write '- Section title', or '- {name: Section title, rules: false, note: why}' for a section "
                      "with no rules to check; 'rules' is true or false", code="sections")
            continue
        first = seen.get(normalize(section.name))
        if first is not None:
            bag.error(f"section '{section.name}' is listed twice", located.position(["sections", i]),
                      f"it is first listed at line {located.position(['sections', first]).line}: keep one of them",
                      code="sections")
            continue
        seen[normalize(section.name)] = i
        out.append(section)
    return SectionList(source if isinstance(source, str) else None, out, file)


def normalize(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().casefold())


def cite_parts(cite: str) -> list[tuple[str | None, str]]:
    """``"src: A; B; other: C"`` → [(src, A), (src, B), (other, C)]."""
    out = []
    source = None
    for part in cite.split(";"):
        part = part.strip()
        m = re.match(rf"^({SOURCE_NAME}):\s+(.*)$", part)
        if m:
            source, part = m.group(1), m.group(2).strip()
        if part:
            out.append((source, part))
    return out


def _segments(text: str) -> list[str]:
    return [s.strip() for s in normalize(text).split(",")]


def match_sections(part: str, sections: list[Section]) -> list[Section]:
    """The sections a cited part names (see the module's description)."""
    p = normalize(part)
    exact = [s for s in sections if normalize(s.name) == p]
    if exact:
        return exact
    prefixes = [s for s in sections if p.startswith(normalize(s.name)) and p[len(normalize(s.name))] in " ,(:"]
    if prefixes:
        longest = max(len(s.name) for s in prefixes)
        return [s for s in prefixes if len(s.name) == longest]
    segs = _segments(part)
    return [s for s in sections if _segments(s.name)[-len(segs):] == segs and len(_segments(s.name)) > len(segs)]


def coverage(sections: SectionList, scenarios: list[Scenario], root: str | Path | None = None,
             bag: DiagnosticBag | None = None, display=str) -> Coverage:
    """Which scenarios cite which section. With ``root`` (the rule set's folder), the
    scenarios each of its variants keeps in its own folder count too, marked as that
    variant's, whichever variant ``scenarios`` were read for (those already among them
    are not read twice); problems of their files go to ``bag``."""
    cov = Coverage(sections.sections, {s.name: [] for s in sections.sections})
    if root is not None:
        extra = _variant_scenarios(Path(root), scenarios, bag if bag is not None else DiagnosticBag(), display)
        cov.variant_files = sorted({sc.file for sc in extra})
        scenarios = [*scenarios, *extra]
    for sc in scenarios:
        for source, part in cite_parts(sc.cite):
            if sections.source is not None and source != sections.source:
                cov.other_sources.append((sc, f"{source}: {part}" if source else part))
                continue
            found = match_sections(part, sections.sections)
            if not found:
                cov.unmatched.append((sc, part))
            for s in found:
                if sc not in cov.citing[s.name]:
                    cov.citing[s.name].append(sc)
    return cov


def _variant_scenarios(root: Path, scenarios: list[Scenario], bag: DiagnosticBag, display) -> list[Scenario]:
    """The scenarios of every variant's own folder that are not among ``scenarios``."""
    from rulecraft.dsl.variants import available_variants

    from .scenario import load_variant_scenarios

    def key(sc: Scenario) -> tuple:
        return Path(sc.file).resolve(), sc.title

    have = {key(sc) for sc in scenarios}
    out = []
    for name in available_variants(root):
        for f in load_variant_scenarios(root, [name], bag, display):
            out += [sc for sc in f.scenarios if key(sc) not in have]
    return out
