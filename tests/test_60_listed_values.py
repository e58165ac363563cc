"""A property's (or variable's) `values:` are the only values it may take, at run time
too: a `set` (or a `gain`) of a value outside them stops the game with a located rule
error, on both of the engine's paths (a first game on closures, a later one on
generated code). A property without `values` is written without the test."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_rulesets import QUIET_SETUP_AND_ROUND, build, choose_action, game_yaml

from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import RuleRuntimeError

DATA = """
kinds:
  player:
    properties:
      face: {type: number, default: 1, values: [1, 2, 3, 4, 5, 6]}
      side: {type: text, default: gray, values: [gray, black]}
      marks: {type: list of text, values: [star, moon]}
      ap: {type: number, default: 0, values: [0, 1, 2], resource: true}
      score: {type: number, default: 0}
  chip:
    located_in: zone
    properties:
      face: {type: number, default: 1}
zones:
  pool: {}
components:
  - {name: chip_a, kind: chip, zone: pool}
variables:
  game:
    stage: {type: text, default: early, values: [early, late]}
"""

RULES = QUIET_SETUP_AND_ROUND + """
function colour_of(n: number) -> text:
    = "black" if n == 1 else "pink"

action set_face:
    with n: number in [6, 7]
    do:
        let f = n
        set current_player.face = f

action bump_face:
    do:
        set current_player.face += 6

action set_side:
    with n: number in [1, 2]
    do:
        set current_player.side = colour_of(n)

action add_mark:
    with m: text in ["moon", "sun"]
    do:
        set current_player.marks += [m]

action earn:
    with n: number in [2, 3]
    do:
        gain n ap of current_player

action next_stage:
    with n: number in [1, 2]
    do:
        set game.stage = "late" if n == 1 else "never"

action set_chip:
    do:
        set chip_a.face = 9
        set current_player.score = 99
"""


def generated(rs) -> bool:
    """Whether the rule set's statements run on generated code (a later game's path)."""
    return any(getattr(getattr(fn, "__code__", None), "co_filename", "") == "<rule set expressions>"
               for block in rs.compiled.blocks for instr in block for fn in vars(instr).values() if callable(fn))


@pytest.fixture(params=["first game", "later game"])
def game(request, tmp_path) -> Game:
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 2)) + DATA, "main.rules": RULES})
    if request.param == "later game":
        Game(rs, 2, 1)
    played = Game(rs, 2, 1)
    assert generated(rs) == (request.param == "later game")
    return played


def fails_at(game: Game, statement: str, action: str, **args) -> str:
    """The rule error choosing the action raises; it must name the statement's place."""
    with pytest.raises(RuleRuntimeError) as info:
        choose_action(game, action, **args)
    err = info.value
    path = Path(game.ruleset.root) / "main.rules"
    lines = path.read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines, start=1) if text.strip() == statement)
    assert err.pos is not None and Path(err.pos.file).resolve() == path.resolve()
    assert (err.pos.line, err.pos.column) == (line, lines[line - 1].index(statement) + 1)
    return str(err).split(": ", 1)[1]


def test_a_number_outside_the_values_stops_the_game_where_it_is_set(game):
    choose_action(game, "set_face", n=6)
    assert game.state.entities["p1"]["props"]["face"] == 6
    told = fails_at(game, "set current_player.face = f", "set_face", n=7)
    assert told == "cannot set p1.face to 7: player.face may only be 1, 2, 3, 4, 5, 6 (its values in the data tables)"
    assert game.state.entities["p1"]["props"]["face"] == 6, "the value outside the list is not stored"


def test_an_addition_that_leaves_the_values_stops_the_game(game):
    told = fails_at(game, "set current_player.face += 6", "bump_face")
    assert told.startswith("cannot set p1.face to 7: player.face may only be 1, 2, 3, 4, 5, 6")


def test_a_text_outside_the_values_is_named_as_the_rules_write_it(game):
    choose_action(game, "set_side", n=1)
    assert game.state.entities["p1"]["props"]["side"] == "black"
    told = fails_at(game, "set current_player.side = colour_of(n)", "set_side", n=2)
    assert told.startswith('cannot set p1.side to "pink": player.side may only be "gray", "black"')


def test_each_item_of_a_list_must_be_one_of_the_values(game):
    choose_action(game, "add_mark", m="moon")
    assert game.state.entities["p1"]["props"]["marks"] == ["moon"]
    told = fails_at(game, "set current_player.marks += [m]", "add_mark", m="sun")
    assert told == ('cannot set p1.marks to ["moon", "sun"]: "sun" is not one of the values of player.marks '
                    '("star", "moon")')


def test_a_resource_gained_beyond_its_values_stops_the_game(game):
    choose_action(game, "earn", n=2)
    assert game.state.entities["p1"]["props"]["ap"] == 2
    told = fails_at(game, "gain n ap of current_player", "earn", n=3)
    assert told.startswith("cannot set p1.ap to 5: player.ap may only be 0, 1, 2")


def test_a_variable_that_lists_its_values_holds_to_them(game):
    choose_action(game, "next_stage", n=1)
    assert game.state.vars["game"]["stage"] == "late"
    told = fails_at(game, 'set game.stage = "late" if n == 1 else "never"', "next_stage", n=2)
    assert told.startswith('cannot set game.stage to "never": game.stage may only be "early", "late"')


def test_a_property_without_values_takes_any_value_even_where_another_kind_lists_some(game):
    choose_action(game, "set_chip")
    assert game.state.entities["chip_a"]["props"]["face"] == 9  # chip.face lists no values
    assert game.state.entities["p1"]["props"]["score"] == 99


def test_only_a_set_of_a_property_some_kind_lists_values_of_is_tested(game):
    kinds = {type(i).__name__ for block, name in zip(game.ruleset.compiled.blocks, game.ruleset.compiled.block_names)
             if name == "action set_chip" for i in block}
    assert kinds == {"SetListedPropI", "SetPropI"}  # chip.face shares its name with player.face; score does not
