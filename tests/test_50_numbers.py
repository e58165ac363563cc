"""`numbers(a, b)`: the whole numbers from a to b, for rules that offer "take 1 to n"."""

from __future__ import annotations

from engine_rulesets import build, game_yaml, load_errors

from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import RuleRuntimeError

DATA = """
kinds:
  player: {}
variables:
  game:
    total: {type: number, default: 0}
    empty: {type: number, default: -1}
    taken: {type: number, default: 0}
"""

RULES = """
procedure setup():
    do:
        set game.total = sum(numbers(1, 4))
        set game.empty = count(numbers(3, 1))
        choose n from numbers(1, game.total // 4 + 2) by first(players) prompt "How many?"
        set game.taken = n

procedure round():
    do:
        set game.total = game.total
"""


def test_numbers_from_one_to_another_both_included(tmp_path):
    game = Game(build(tmp_path, {"game.yaml": game_yaml() + DATA, "main.rules": RULES}), 1, 1)
    assert game.state.vars["game"]["total"] == 10  # 1 + 2 + 3 + 4
    assert game.state.vars["game"]["empty"] == 0   # the second below the first: none
    assert game.pending.options == [1, 2, 3, 4]    # 10 // 4 + 2 = 4, so 1 to 4 offered
    game.choose(2)
    assert game.state.vars["game"]["taken"] == 3


def test_numbers_too_many_to_hold_stops_the_game_with_the_reason(tmp_path):
    rules = RULES.replace("sum(numbers(1, 4))", "sum(numbers(1, 1000000000))")
    try:
        Game(build(tmp_path, {"game.yaml": game_yaml() + DATA, "main.rules": rules}), 1, 1)
    except RuleRuntimeError as err:
        assert "numbers(1, 1000000000) would hold more than 100,000 numbers" in str(err)
    else:
        raise AssertionError("a billion numbers were made")


def test_numbers_takes_two_numbers(tmp_path):
    text = load_errors(tmp_path, {"game.yaml": game_yaml() + DATA,
                                  "main.rules": RULES.replace("numbers(1, 4)", 'numbers(1, "four")')})
    assert "argument of 'numbers' should be a number, not a text" in text
