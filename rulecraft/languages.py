"""The languages rulecraft speaks: one file of its own words per language.

Every word rulecraft says itself in a language is in one YAML file, ``<lang>.yaml``, in
the folder ``docgen/phrases/`` of the package: the rules site's sentences (the templates
the renderer fills with the glossary's words), its headings and labels (``site``), the
worked examples' sentences (``examples``), how play tells events and options (``play``),
the terminal's and the browser page's words (``terminal``, ``page``) and a served
table's refusals (``refusals``). A game's own words are in its glossary, never here.

A language is added by adding its file: to the package's folder, or to a folder named by
the environment variable ``RULECRAFT_LANGUAGES`` (folders separated as in ``PATH``),
which also lets a translator try a language without touching an installed package.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from functools import cache
from importlib import resources
from pathlib import Path

import yaml

ENVIRONMENT = "RULECRAFT_LANGUAGES"
HOW_TO_ADD = "a language is added with one file of rulecraft's own words, see docs/glossaries.md#adding-a-language"

# The sections of the engine's words besides the rules' sentence templates, each a table
# of texts (`play_grammar` holds two settings); every language gives every text English
# gives, except the forms a language may lack (`…_plural`: a word used only in the
# plural, where the language tells it apart).
SECTIONS = ("site", "site_game_words", "examples", "play", "play_grammar", "terminal", "page", "refusals",
            "engine_words")
OPTIONAL_SUFFIX = "_plural"


class UnknownLanguage(ValueError):
    """A language rulecraft has no words in, or whose file lacks some of them: ``reason``
    says which, the message adds how a language is added where that helps."""

    def __init__(self, reason: str, how: str = ""):
        super().__init__(f"{reason}: {how}" if how else reason)
        self.reason = reason


def language_files() -> dict[str, Path]:
    """Each language rulecraft speaks and the file of its words: from the environment's
    folders first (a file there stands in for the package's of the same language), then
    the package's."""
    folders = [Path(p) for p in os.environ.get(ENVIRONMENT, "").split(os.pathsep) if p.strip()]
    folders.append(_package_folder())
    # read again when a folder changes (a translator adds a file to a running server's folder)
    return _files(tuple((folder, _changed(folder)) for folder in folders))


@cache
def _package_folder() -> Path:
    return Path(str(resources.files("rulecraft.docgen") / "phrases"))


def _changed(folder: Path) -> int:
    try:
        return folder.stat().st_mtime_ns
    except OSError:
        return 0


@cache
def _files(folders: tuple[tuple[Path, int], ...]) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for folder, _ in folders:
        for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
            found.setdefault(path.stem, path)
    return found


def languages() -> tuple[str, ...]:
    """The languages rulecraft speaks, English first: those whose file holds every word
    (one that lacks some is refused by name where it is asked for, see :func:`language`)."""
    names = [name for name in sorted(language_files()) if _whole_or_none(name) is not None]
    return tuple(sorted(names, key=lambda n: (n != "en", n)))


def _whole_or_none(lang: str) -> dict | None:
    try:
        return language(lang)
    except UnknownLanguage:
        return None


def unknown(lang: str) -> str:
    """Why ``lang`` cannot be had, in one line."""
    return str(_not_spoken(lang))


def _not_spoken(lang: str) -> UnknownLanguage:
    return UnknownLanguage(f"rulecraft has no words in '{lang}' (it speaks {', '.join(languages())})", HOW_TO_ADD)


@cache
def _read(path: Path) -> dict:
    with path.open(encoding="utf-8") as f:
        content = yaml.safe_load(f)
    return content if isinstance(content, dict) else {}


def language(lang: str) -> dict:
    """Every word of ``lang`` (the whole file), checked to hold every section's texts."""
    path = language_files().get(lang)
    if path is None:
        raise _not_spoken(lang)
    return _whole(lang, path)


@cache
def _whole(lang: str, path: Path) -> dict:
    """The words of ``path``, once found to lack none (each lookup of a word goes through here)."""
    words = _read(path)
    lacking = missing(lang, words)
    if lacking:
        shown = ", ".join(lacking[:8]) + (f" and {len(lacking) - 8} more" if len(lacking) > 8 else "")
        raise UnknownLanguage(f"{path} lacks {len(lacking)} of rulecraft's words: {shown} "
                              f"(copy them from {language_files()['en'].name} and translate them)")
    return words


def missing(lang: str, words: dict | None = None) -> list[str]:
    """``section.key`` of each text English has that ``lang``'s file lacks."""
    if lang == "en":
        return []
    english = _read(language_files()["en"])
    if words is None:
        path = language_files().get(lang)
        words = _read(path) if path is not None else {}
    out = []
    for section in SECTIONS:
        given = words.get(section)
        given = given if isinstance(given, dict) else {}
        out += [f"{section}.{key}" for key in english.get(section, {})
                if key not in given and not str(key).endswith(OPTIONAL_SUFFIX)]
    return out


def words(lang: str, section: str) -> dict:
    """One section of ``lang``'s words (see :data:`SECTIONS`)."""
    return language(lang).get(section) or {}


class ByLanguage(Mapping):
    """One section of the engine's words, by language: ``TABLE["fr"]["key"]``. A language
    rulecraft does not speak is a missing key, so ``TABLE.get(lang, TABLE["en"])`` falls
    back as on a dict."""

    def __init__(self, section: str):
        self.section = section

    def __getitem__(self, lang: str) -> dict:
        if lang not in languages():
            raise KeyError(lang)
        return words(lang, self.section)

    def __contains__(self, lang: object) -> bool:
        return isinstance(lang, str) and lang in languages()

    def __iter__(self) -> Iterator[str]:
        return iter(languages())

    def __len__(self) -> int:
        return len(languages())
