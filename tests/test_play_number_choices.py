"""A choice of whole numbers (a sealed bid, how many to take) is typed as the number
itself in the terminal: listed beside option numbers counted from 1, typing "5" chose the
option holding 4 and bid 4."""

from __future__ import annotations

import pytest
from engine_rulesets import game_yaml, write_ruleset

from rulecraft.cli.main import main
from rulecraft.cli.play_screen import number_keys

GAME = game_yaml(name="bids", players=(2, 2), round_limit=1) + """
kinds:
  player:
    properties:
      bid: {type: number, default: -1, visible_to: owner}
"""

RULES = """
procedure setup():
    do:
        stop

procedure round():
    do:
        for each p in players:
            choose amount from numbers(0, 6) by p prompt "Your bid?"
            set p.bid = amount
            emit bid_made(player: p) to p
"""


def _play(tmp_path, *args) -> int:
    root = write_ruleset(tmp_path / "bids", {"game.yaml": GAME, "play.rules": RULES})
    try:
        return main(["play", str(root), *map(str, args)])
    except SystemExit as stop:
        return stop.code


def test_a_number_choice_is_typed_as_the_number_and_listed_without_option_numbers(tmp_path, typed, capsys):
    typed("", "5", "", "0", "t", "q")
    assert _play(tmp_path, "--players", 2, "--human", "p1", "--human", "p2", "--seed", 1) == 0
    out = capsys.readouterr().out
    assert "type the number you choose" in out
    lines = out.splitlines()
    # the values alone, not "1 0", "2 1", …
    assert any(line.split()[:1] == ["0"] for line in lines if line.strip())
    assert not any(line.split()[:2] == ["1", "0"] for line in lines)
    assert "p1 (human): bid 5" in out and "p2 (human): bid 0" in out  # typed 5 bid 5, not 4


def test_a_number_not_offered_is_refused_with_the_range(tmp_path, typed, capsys):
    typed("", "7", "q")
    assert _play(tmp_path, "--players", 2, "--human", "p1", "--human", "p2", "--seed", 1) == 0
    assert "'7' is not one of the numbers offered: type one from 0 to 6" in capsys.readouterr().out


@pytest.mark.parametrize("choice, keys", [
    ({"kind": "choose", "options": [0, 1, 2]}, [0, 1, 2]),
    ({"kind": "choose", "options": [3, 5]}, [3, 5]),
    ({"kind": "choose", "options": [True, False]}, None),  # yes/no is no number
    ({"kind": "choose", "options": [-1, 0, 1]}, None),  # a sign cannot be typed as an option
    ({"kind": "choose", "options": ["a", "b"]}, None),
    ({"kind": "action", "options": [0, 1]}, None),
    ({"kind": "choose", "options": [4]}, None),
])
def test_which_choices_are_typed_as_their_numbers(choice, keys):
    assert number_keys(choice) == keys
