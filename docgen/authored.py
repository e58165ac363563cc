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

from rulecraft.dsl.diagnostics import DiagnosticBag, Position
from rulecraft.validator.coverage import SOURCE_NAME

from .glossary import Glossary

# The language of the `text` lines, citations and rulings a rule set's files hold.
WRITTEN_IN = "en"

# "rulebook-fr": a source whose name ends with a language code is written in that language.
_SOURCE_LANGUAGE = re.compile(r"-([a-z]{2,3})$")


@dataclass(frozen=True)
class MissingWord:
    section: str  # glossary section: texts, citations, or a term section
    key: str
    original: str  # the words to translate, as written (or the term's name)


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

    def __init__(self, glossary: Glossary, lang: str):
        self.glossary = glossary
        self.lang = lang
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
        if found is None:
            self.missing.setdefault(("texts", key), MissingWord("texts", key, " ".join(original.split())))
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


class MissingWords(Exception):
    """The site's language lacks words: each is a located diagnostic in ``bag``."""

    def __init__(self, bag: DiagnosticBag, words: list[MissingWord] = ()):
        super().__init__(f"{len(bag.errors)} word(s) missing")
        self.bag = bag
        self.words = list(words)  # what is missing, by glossary section and key


def missing_words_bag(glossary: Glossary, lang: str, missing: list[MissingWord], glossary_path: str) -> DiagnosticBag:
    """One located error per missing word, at the glossary section it belongs under."""
    bag = DiagnosticBag()
    for m in missing:
        where = glossary.sections.get(m.section) or Position(glossary_path, 1, 1)
        if m.section == "texts":
            message = f"the {lang} glossary has no text '{m.key}' in 'texts' (to say: \"{_short(m.original)}\")"
            hint = f"add '{m.key}: \"…\"' under 'texts:' in {where.file}"
        elif m.section == "citations":
            message = f"the {lang} glossary has no citation for '{m.key}' in 'citations'"
            hint = f"add '\"{m.key}\": \"…\"' under 'citations:' in {where.file}, the same section in a {lang} rulebook"
        else:
            message = f"the {lang} glossary has no entry '{m.key}' in '{m.section}'"
            hint = f"add '{m.key}' under '{m.section}:' in {where.file}"
        bag.error(message, where, hint)
    return bag


def _short(text: str, width: int = 70) -> str:
    return text if len(text) <= width else text[:width - 1].rstrip() + "…"
