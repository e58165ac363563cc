"""A zone that declares the kind it `holds` gets things of that kind only: a `move` of
another kind is an error where the checker can tell, a rule error where it cannot, and a
scenario that stacks one there is BROKEN at the value. Before, `holds` only typed
`contents`, and a designer's cards went into the wrong discard pile unnoticed."""

from __future__ import annotations

import pytest
from engine_rulesets import build, load_errors
from scenario_runs import caret_text, only_error_in

from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import RuleRuntimeError

GAME = """\
game:
  name: piles
  players: {min: 1, max: 2}
  setup: setup
  round: round
  round_limit: 3
kinds:
  player:
    properties:
      ap: {type: number, default: 0}
  city_card:
    located_in: zone
  germ_card:
    located_in: zone
zones:
  cities: {holds: city_card}
  germs: {holds: germ_card}
  discard: {}
components:
  - {name: mill, kind: city_card, count: 2, zone: cities}
  - {name: blight, kind: germ_card, count: 2, zone: germs}
"""

SETUP = """\
procedure setup():
    do:
        {move}

procedure round():
    do:
        for each p in players:
            play_turn(p)
"""


def rules(move: str) -> str:
    return SETUP.replace("{move}", move)


def test_a_thing_of_another_kind_moved_to_a_zone_is_an_error_at_the_thing(tmp_path):
    text = load_errors(tmp_path, {"game.yaml": GAME, "main.rules": rules("move top(cities) to germs")})
    assert "zone 'germs' holds germ_card things only, not a city_card" in text
    assert "move a city_card to a zone that holds them (or none in particular)" in text


def test_the_rules_stop_a_move_the_checker_could_not_type(tmp_path):
    # first(...) of a list of any: only the game can tell what it is
    ruleset = build(tmp_path, {"game.yaml": GAME, "main.rules": rules("move first([c for c in contents(cities)] + []) to discard\n"
                                                                        "        let x = first(contents(discard))\n"
                                                                        "        move x to germs")})
    with pytest.raises(RuleRuntimeError, match="cannot move mill.1 to germs: it is a city_card, and germs holds only "
                                               "germ_card things"):
        Game(ruleset, 1, seed=1)


def test_a_zone_without_holds_takes_any_kind(tmp_path):
    ruleset = build(tmp_path, {"game.yaml": GAME, "main.rules": rules("move top(cities) to discard\n"
                                                                        "        move top(germs) to discard")})
    game = Game(ruleset, 1, seed=1)
    assert sorted(game.state.zones["discard"]) == ["blight.1", "mill.1"]


SCENARIO = """
    title: a germ in the city pile
    cite: "piles: Setup"
    players: 1
    setup:
      deck_top: {cities: [blight.2]}
"""


def test_a_scenario_stacking_another_kind_is_broken_at_the_value(tmp_path):
    from scenario_runs import run_one

    ruleset = build(tmp_path, {"game.yaml": GAME, "main.rules": rules("stop")})
    d = only_error_in(run_one(ruleset, SCENARIO, "seeds/piles/x.yaml"), "seeds/piles/x.yaml")
    assert d.message == "blight.2 is a germ_card, and zone 'cities' holds city_card things only"
    assert d.hint == "put a city_card there (mill)"
    assert caret_text(SCENARIO, d)[1] == "blight.2"
