"""Declarations of the tables and their located errors: a resource's ``max`` may name a
number parameter (the number is written once, in the parameters table, and a variant
that changes it changes the cap too); a ruling's unknown definition and a pair of
edges without a join are pointed at where they are written."""

from __future__ import annotations

from engine_rulesets import QUIET_SETUP_AND_ROUND, build, choose_action, game_yaml, load_errors

from rulecraft.action_catalog import action_catalog
from rulecraft.interpreter.game import Game

GAME = game_yaml("purse", players=(1, 2)) + """
kinds:
  player:
    properties:
      coins: {type: number, default: 0, resource: {max: MOST}}
parameters:
  starting_coins: {value: 4}
"""

RULES = QUIET_SETUP_AND_ROUND + """
action earn:
    do:
        gain 3 coins of current_player

action bid:
    do:
        choose amount from numbers(0, current_player.coins) prompt "Your bid?"
"""


def test_a_resource_is_capped_by_the_parameter_its_max_names(tmp_path):
    ruleset = build(tmp_path, {"game.yaml": GAME.replace("MOST", "starting_coins"), "play.rules": RULES})
    game = Game(ruleset, 1, 1)
    choose_action(game, "earn")
    choose_action(game, "earn")
    assert game.state.entities["p1"]["props"]["coins"] == 4, "3 + 3 capped at the parameter's 4"
    catalog = action_catalog(ruleset, 1)
    assert [catalog.label(i) for i in range(len(catalog)) if catalog.entries[i][0] == "choose"] == \
        [f"choose amount: {n}" for n in range(0, 5)]


def test_a_max_naming_neither_a_property_nor_a_parameter_is_refused(tmp_path):
    errors = load_errors(tmp_path, {"game.yaml": GAME.replace("MOST", "starting_coin"), "play.rules": RULES})
    assert "max names 'starting_coin', which is neither a number property of player nor a number parameter" in errors
    assert "starting_coins" in errors  # the close name is offered


def test_a_ruling_naming_an_unknown_definition_is_pointed_at_that_name(tmp_path):
    """The caret is on the name in the ruling's list of definitions, not on the ruling's
    first line."""
    rulings = """
rulings:
  - id: hook_rule
    section: "house rules: bids"
    question: "May the last bid make the total?"
    ruling: "No."
    reason: "So that somebody misses."
    definitions: [earn, bidd]
"""
    errors = load_errors(tmp_path, {"game.yaml": GAME.replace("MOST", "starting_coins") + rulings,
                                    "play.rules": RULES})
    assert "ruling 'hook_rule' names unknown definition 'bidd'" in errors
    line = next(x for x in errors.splitlines() if "error: ruling 'hook_rule'" in x)
    assert ":25: error" in line, f"the caret should be on 'bidd', column 25 of the definitions list: {line}"
    assert "    definitions: [earn, bidd]" in errors


def test_a_pair_of_edges_without_a_join_is_told_once_at_the_joins(tmp_path):
    """A join goes both ways, so a pair missing is one error, not one per order, and its
    caret is on the board's joins."""
    from test_60_board import BOARD, DATA, HELPERS

    board = BOARD.replace("    - {edges: [door, wall], forbidden: true}\n", "")
    errors = load_errors(tmp_path, {"game.yaml": game_yaml(players=(1, 2)) + DATA, "board.yaml": board,
                                    "main.rules": "procedure setup():\n    do:\n        stop\n" + HELPERS})
    told = [x for x in errors.splitlines() if "make together" in x]
    assert len(told) == 1 and "edges 'door' and 'wall'" in told[0], errors
    assert "board.yaml:10:3:" in told[0], told[0]  # the key joins:
    assert "{edges: [door, wall], connection: ...}" in errors
