"""The engine knows no game: no shipped game's name appears in ``dsl/`` or
``interpreter/``, not even in a comment.

The names are read from each shipped rule set (its folder name and title); the few
title words that are also the engine's own vocabulary (a hex grid is a board kind) are
listed with their reason."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulecraft.dsl.loader import load_checked

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ["dsl", "interpreter"]
SHIPPED = sorted(p for p in (ROOT / "rules").iterdir() if (p / "game.yaml").is_file())
ENGINE_WORDS = {
    "hex": "a hex grid is one of the engine's board kinds",
    "connect": "spaces are connected on every board",
    "four": "a number",
    "star": "no engine word, but too common to be told from prose",
    "game": "every rule set is a game",
    "tutorial": "a kind of game, not a game's name",
    "tac": "part of a name too short to be told from other text",
    "toe": "part of a name too short to be told from other text",
}


def game_names(folder: Path) -> set[str]:
    game = load_checked(folder).data.game
    text = " ".join([folder.name, game.name, game.title or ""])
    return {w for w in re.split(r"[^a-z0-9]+", text.lower()) if len(w) >= 3} - set(ENGINE_WORDS)


def engine_lines():
    for folder in ENGINE:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".lark") and "__pycache__" not in path.parts:
                for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    yield f"{path.relative_to(ROOT)}:{n}", line


@pytest.mark.parametrize("folder", SHIPPED, ids=[p.name for p in SHIPPED])
def test_the_engine_names_no_shipped_game(folder):
    names = game_names(folder)
    if not names:  # a game named by an engine word alone (hex) has nothing to look for
        return
    pattern = re.compile(r"(?<![a-z0-9])(" + "|".join(sorted(names)) + r")(?![a-z0-9])", re.IGNORECASE)
    found = [f"{where}: {line.strip()}" for where, line in engine_lines() if pattern.search(line)]
    assert not found, "the engine must know no game:\n" + "\n".join(found)


def test_the_search_finds_a_game_name_in_a_comment(tmp_path):
    names = game_names(ROOT / "rules" / "panic_station")
    assert {"panic", "station"} <= names
