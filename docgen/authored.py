"""The author's own words on a site: the one-line ``text`` of rules, components,
parameters, variants and rulings, and the rulebook citations, in the site's language.

Rule files, variant files and rulings are written in one language,
:data:`WRITTEN_IN`. A site in another language takes these words from the glossary of
its language (``texts:`` and ``citations:``); every word that glossary lacks is
recorded in :attr:`Authored.missing`, so that the site is refused rather than
published half in another language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from rulecraft.dsl.diagnostics import DiagnosticBag, Position
from rulecraft.validator.coverage import SOURCE_NAME

from .glossary import Glossary, definition_level, glossary_path, levels_of, load_glossary_file, needed_terms, ruleset_at

# The language of the `text` lines, citations and rulings a rule set's files hold.
WRITTEN_IN = "en"

# "rulebook-fr": a source whose name ends with a language code is written in that language.
_SOURCE_LANGUAGE = re.compile(r"-([a-z]{2,3})$")


@dataclass(frozen=True)
class MissingWord:
    section: str  # glossary section: texts, citations, or a term section
    key: str
    original: str  # the words to translate, as written (or the term's name)
    note: str | None = None  # why a text the glossaries give does not serve


def cite_parts(cite: str) -> list[tuple[str, str]]:
    """``"rulebook-en: A, B; C; rulebook-fr: D"`` → ``[(rulebook-en, "A, B"), (rulebook-en, "C"), (rulebook-fr, "D")]``:
    a part without a source has the source of the part before it."""
    parts, source = [], ""
    for raw in cite.split(";"):
        raw = raw.strip()
        if not raw:
            continue
        head, colon, rest = raw.partition(":")
        if colon and re.fullmatch(SOURCE_NAME, head.strip()):
            source, raw = head.strip(), rest.strip()
        parts.append((source, raw))
    return parts


def _language_of(source: str) -> str:
    found = _SOURCE_LANGUAGE.search(source)
    return found.group(1) if found else WRITTEN_IN


class Authored:
    """The author's words in one language."""

    def __init__(self, glossary: Glossary, lang: str, ruleset=None):
        self.glossary = glossary
        self.lang = lang
        self.ruleset = ruleset  # with a variant: a replaced definition's text is not the base's
        self.missing: dict[tuple[str, str], MissingWord] = {}

    @property
    def translating(self) -> bool:
        return self.lang != WRITTEN_IN

    def text(self, key: str, original: str | None) -> str | None:
        """The text written for ``key`` (a definition's name, ``components.NAME``, …) in this
        language; None when the author wrote none."""
        if not original:
            return None
        if not self.translating:
            return original
        found = self.glossary.texts.get(key)
        note = None
        if found is not None and self.ruleset is not None and self.ruleset.variant is not None \
                and key in self.ruleset.definitions:
            # a text translates the rule's own text: one a glossary gave for a rule the
            # variant has since replaced (with another text) says what that rule did
            levels = levels_of(self.ruleset)
            need, got = definition_level(self.ruleset, key), self.glossary.text_owner.get(key)
            if got in levels and need in levels and levels.index(got) < levels.index(need) \
                    and _defines_otherwise(self.ruleset, got, key):
                found = None
                note = (f"the text in {_file_of(self.ruleset, self.lang, got)} is for the rule that variant "
                        f"'{need}' replaces")
        if found is None:
            self.missing.setdefault(("texts", key), MissingWord("texts", key, " ".join(original.split()), note))
            return original
        return found

    def cite(self, cite: str | None) -> str:
        """A citation with the sections of a rulebook in this language: parts cited from a
        rulebook of another language are translated by the glossary's ``citations``, or left
        out when the citation already names a section in this language."""
        if not cite:
            return ""
        parts = cite_parts(cite)
        own = [p for s, p in parts if _language_of(s) == self.lang]
        out: list[tuple[str, str]] = []
        for source, part in parts:
            if _language_of(source) == self.lang:
                shown = (source, part)
            else:
                written = f"{source}: {part}" if source else part
                translated = self.glossary.citations.get(written)
                if translated is None:
                    if own:
                        continue
                    self.missing.setdefault(("citations", written), MissingWord("citations", written, written))
                    shown = (source, part)
                else:
                    head, colon, rest = translated.partition(":")
                    shown = (head.strip(), rest.strip()) if colon and " " not in head.strip() else ("", translated)
            if shown not in out:
                out.append(shown)
        return _joined(out)


def _joined(parts: list[tuple[str, str]]) -> str:
    """Citation parts as one citation, a source named once for the parts that follow it:
    ``rulebook-fr: A; B``."""
    out, current = [], None
    for source, section in parts:
        out.append(section if source == current or not source else f"{source}: {section}")
        current = source or current
    return "; ".join(out)


def _defines_otherwise(ruleset, level: str | None, name: str) -> bool:
    """Whether the rule set at ``level`` has its own definition ``name``, with another text
    than the rule set's: a text its glossary gives translates that one."""
    at = ruleset_at(ruleset.root, level)
    old = at.definitions.get(name) if at is not None else None
    return old is not None and old.text != ruleset.definitions[name].text


def _file_of(ruleset, lang: str, level: str | None) -> str:
    return _shown(glossary_path(ruleset.root, lang, level))


def _shown(path) -> str:
    from .glossary import _display

    return _display(path)


def _cites_of(ruleset) -> set[str]:
    """The citation parts the rule set's own files write, as a ``citations`` key."""
    out = set()
    cites = [d.cite for d in ruleset.definitions.values()]
    cites += [r.get("section") for r in ruleset.data.rulings if isinstance(r, dict)]
    cites += [ruleset.variant.cite] if ruleset.variant is not None else []
    for cite in cites:
        if isinstance(cite, str):
            out |= {f"{source}: {part}" if source else part for source, part in cite_parts(cite)}
    return out


class WordOwners:
    """Which glossary file a missing word belongs in: that of the first level (the base,
    then each variant of the chain) that has what the word names, so that the base's
    words go in the base's glossary and a variant's own words in its own."""

    def __init__(self, lang: str):
        self.lang = lang
        self._terms: dict[int, set[tuple[str, str]]] = {}
        self._cites: dict[int, set[str]] = {}

    def level(self, ruleset, word: MissingWord) -> str | None:
        levels = levels_of(ruleset)
        section, key = word.section, word.key
        if section == "texts":
            head, _, rest = key.partition(".")
            if head == "variants" and rest.rpartition(".")[0]:
                return rest.rpartition(".")[0]
            if key in ruleset.definitions:
                return definition_level(ruleset, key)
            test = lambda rs: self._has_text(rs, key)  # noqa: E731
        elif section == "citations":
            test = lambda rs: key in self._cites_in(rs)  # noqa: E731
        else:
            test = lambda rs: (section, key) in self._terms_in(rs)  # noqa: E731
        for level in levels:
            rs = ruleset if level == levels[-1] else ruleset_at(ruleset.root, level)
            if rs is not None and test(rs):
                return level
        # a citation of no rule (a worked example's): the base's; any other word: the rule set's own
        return None if section == "citations" else levels[-1]

    def path(self, ruleset, word: MissingWord) -> str:
        return _file_of(ruleset, self.lang, self.level(ruleset, word))

    def _terms_in(self, ruleset) -> set[tuple[str, str]]:
        if id(ruleset) not in self._terms:
            self._terms[id(ruleset)] = {(n.section, n.key) for n in needed_terms(ruleset)}
        return self._terms[id(ruleset)]

    def _cites_in(self, ruleset) -> set[str]:
        if id(ruleset) not in self._cites:
            self._cites[id(ruleset)] = _cites_of(ruleset)
        return self._cites[id(ruleset)]

    @staticmethod
    def _has_text(ruleset, key: str) -> bool:
        head, _, rest = key.partition(".")
        if head == "components":
            return any(c.name == rest for c in ruleset.data.components)
        if head == "parameters":
            return rest in ruleset.data.parameters
        if head == "rulings":
            return any(isinstance(r, dict) and rest.startswith(f"{r.get('id')}.") for r in ruleset.data.rulings)
        return key in ruleset.definitions


class MissingWords(Exception):
    """The site's language lacks words: each is a located diagnostic in ``bag``."""

    def __init__(self, bag: DiagnosticBag, words: list[MissingWord] = ()):
        super().__init__(f"{len(bag.errors)} word(s) missing")
        self.bag = bag
        self.words = list(words)  # what is missing, by glossary section and key


def missing_words_bag(glossary: Glossary, lang: str, missing: list[MissingWord], path: str,
                      warning: bool = False) -> DiagnosticBag:
    """One located error (or warning) per missing word, at the glossary section it belongs
    under in ``path``."""
    bag = DiagnosticBag()
    for m in missing:
        where = glossary.sections.get(m.section) or Position(path, 1, 1)
        if m.section == "texts":
            message = f"the {lang} glossary has no text '{m.key}' in 'texts' (to say: \"{_short(m.original)}\")"
            hint = f"add '{m.key}: \"…\"' under 'texts:' in {where.file}"
            if m.note:
                hint += f" ({m.note})"
        elif m.section == "citations":
            message = f"the {lang} glossary has no citation for '{m.key}' in 'citations'"
            hint = f"add '\"{m.key}\": \"…\"' under 'citations:' in {where.file}, the same section in a {lang} rulebook"
        else:
            message = f"the {lang} glossary has no entry '{m.key}' in '{m.section}'"
            hint = f"add '{m.key}' under '{m.section}:' in {where.file}"
        if warning:
            bag.warning(message, where, hint, code="glossary")
        else:
            bag.error(message, where, hint)
    return bag


def placed_missing_words(words: list[tuple[object, MissingWord]], lang: str, warning: bool = False):
    """Missing words, each found while rendering a rule set (``(ruleset, word)``), as one
    located diagnostic each in the glossary file it belongs in (see :class:`WordOwners`);
    a word is listed once per file. Gives the bag and the words, or None when none lacks."""
    owners = WordOwners(lang)
    by_file: dict[str, tuple[Path, list[MissingWord]]] = {}
    seen: set[tuple[str, str, str]] = set()
    for ruleset, m in words:
        level = owners.level(ruleset, m)
        path = glossary_path(ruleset.root, lang, level)
        shown = _shown(path)
        if (m.section, m.key, shown) in seen:
            continue
        seen.add((m.section, m.key, shown))
        by_file.setdefault(shown, (path, []))[1].append(m)
    if not by_file:
        return None
    bag, every = DiagnosticBag(), []
    for shown, (path, found) in by_file.items():
        every += found
        bag.extend(missing_words_bag(load_glossary_file(path, lang), lang, found, shown, warning).items)
    return bag, every


def _short(text: str, width: int = 70) -> str:
    return text if len(text) <= width else text[:width - 1].rstrip() + "…"
