"""`game.seats` gives each seat's player a property value; it is checked as a
component's properties are: the property exists, each value is one of its `values` and
of its type, and every seat up to the most players gets one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulecraft.dsl.loader import load_ruleset

TIC_TAC_TOE = Path(__file__).resolve().parent.parent / "rules" / "tic_tac_toe"


def errors_with_seats(tmp_path: Path, seats: str) -> list[tuple[int, int, str, str]]:
    folder = tmp_path / "ttt"
    shutil.copytree(TIC_TAC_TOE, folder, ignore=shutil.ignore_patterns("__pycache__"))
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8")
    assert "    mark: [x, o]\n" in text
    game.write_text(text.replace("    mark: [x, o]\n", seats, 1), encoding="utf-8")
    return [(e.position.line, e.position.column, e.message, e.hint) for e in load_ruleset(folder).bag.errors]


def test_the_shipped_seats_check_clean(tmp_path):
    assert errors_with_seats(tmp_path, "    mark: [x, o]\n") == []


@pytest.mark.parametrize("seats, column, message, hint", [
    ("    mark: [x, q]\n", 15, "game.seats: seat 2's mark = 'q' is not one of ['x', 'o']",
     "add it to the values of player.mark (in a variant: 'add: values: player.mark: [q]')"),
    ("    mark: [x, true]\n", 15, "game.seats: seat 2's mark = True is not one of ['x', 'o']", None),
    ("    shape: [x, o]\n", 5, "game.seats gives players a 'shape', but kind 'player' has no such property",
     "declare it under kinds: player: properties:"),
    ("    mark: [x]\n", 5, "game.seats gives 1 value(s) of 'mark' for up to 2 players",
     "give one for each seat up to 2; a seat beyond the list would get none"),
])
def test_a_seat_value_the_player_kind_does_not_allow_is_located(tmp_path, seats, column, message, hint):
    [(line, col, got, got_hint)] = errors_with_seats(tmp_path, seats)
    assert (line, col, got) == (14, column, message)
    if hint is not None:
        assert got_hint == hint
