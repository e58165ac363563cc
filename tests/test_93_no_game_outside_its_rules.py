"""No game's names in the generic packages: bots, the command line, the docs generator
and the validator read every game fact from the rule set they are given.

The names come from each shipped rule set itself: its game name and title, its
components (ids and English glossary words), its kinds and their properties. A word the
engine (``dsl/``, ``interpreter/``, which know no game) also uses is an ordinary word,
not a game's name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from rulecraft.dsl.loader import load_checked

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ["bots", "cli", "docgen", "validator", "rulecraft", "lsp", "server", "env", "spiel"]
ENGINE = ["dsl", "interpreter"]
SHIPPED = sorted(p for p in (ROOT / "rules").iterdir() if (p / "game.yaml").is_file())
TEXT_FILES = (".py", ".yaml", ".md", ".txt", ".css", ".js", ".html", ".json")

# Words a game uses that generic code also uses in their everyday sense. They count as a
# game's name only as a whole string literal (``props.get("colour")`` reads a game fact),
# except where listed here with the reason.
# host, connect: networking words of `rulecraft serve` (the address it listens on, sqlite3.connect)
EVERYDAY = {"colour", "marker", "search", "marked", "white", "host", "connect", "dark", "stranger", "reward", "bonus",
            # Star Trek: Panic's ranges, arcs and ships are everyday English
            "star", "aft", "fore", "port", "long", "short", "hit", "hits", "ship", "defence", "security",
            # Stationfall's X-Secret Data and Power sections
            "secret", "power"}
EVERYDAY_LITERALS = {("docgen/site.py", "search"): "the mkdocs search plugin of the generated site",
                     ("cli/simulate.py", "white"): "the edge colour of the plot's histogram bars"}


def _files(folders):
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in TEXT_FILES and "__pycache__" not in path.parts:
                yield path


def game_words(folder: Path) -> set[str]:
    rs = load_checked(folder)
    glossary_file = folder / "glossary" / "en.yaml"
    glossary = yaml.safe_load(glossary_file.read_text(encoding="utf-8")) or {} if glossary_file.is_file() else {}
    names = [rs.data.game.name, rs.data.game.title]
    for key, term in (glossary.get("components") or {}).items():
        names += [key, term if isinstance(term, str) else term.get("one", "")]
    names += [c.name for c in rs.data.components]
    names += list(rs.data.kinds) + [p for kind in rs.data.kinds.values() for p in kind.properties]
    words = {w for n in names for w in re.split(r"[^a-z0-9]+", n.lower()) if len(w) >= 3}
    engine = " ".join(p.read_text(encoding="utf-8") for p in _files(ENGINE)).lower()
    return {w for w in words if not re.search(rf"\b{w}\b", engine)}


def hits(words: set[str], files) -> list[str]:
    names = sorted(words - EVERYDAY)
    # Whole words, their plurals ("parasites") and parts of identifiers ("gas_can"), not
    # prefixes of other words ("Whitespace").
    anywhere = re.compile(r"(?<![a-z0-9])(" + "|".join(names) + r")(s|es)?(?![a-z0-9])", re.IGNORECASE)
    literal = re.compile(r"""["'](""" + "|".join(sorted(words & EVERYDAY)) + r""")["']""", re.IGNORECASE)
    found = []
    for path in files:
        rel = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = anywhere.search(line)
            if m is None and words & EVERYDAY:
                m = literal.search(line)
                if m is not None and (rel, m.group(1).lower()) in EVERYDAY_LITERALS:
                    m = None
            if m is not None:
                found.append(f"{rel}:{n}: '{m.group(0)}' in: {line.strip()}")
    return found


@pytest.mark.parametrize("folder", SHIPPED, ids=[p.name for p in SHIPPED])
def test_the_generic_packages_name_nothing_of_a_shipped_game(folder):
    words = game_words(folder)
    assert {"trooper", "parasite", "hive", "station"} <= words or folder.name != "panic_station"
    found = hits(words, _files(PACKAGES))
    assert not found, "game facts belong in the rule set:\n" + "\n".join(found)


def test_the_search_finds_a_game_fact_written_into_generic_code(tmp_path):
    folder = next(p for p in SHIPPED if p.name == "panic_station")
    sample = tmp_path / "sample.py"
    sample.write_text('GAS = 3  # to burn the lair\ncolour = props.get("colour")\n'
                      'piece = props["marker"]\n', encoding="utf-8")
    found = hits(game_words(folder), [sample])
    assert [f.split(": ", 1)[0].rsplit(":", 1)[1] for f in found] == ["1", "2", "3"]
