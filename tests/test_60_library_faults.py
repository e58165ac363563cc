"""Standard-library functions given none (or a value that is no player of the game)
stop the game with a located error in the language's words, never Python's
(``ValueError: None is not in list``), on both of the engine's paths."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_rulesets import QUIET_SETUP_AND_ROUND, build, choose_action, game_yaml

from rulecraft.interpreter.faults import fault_text
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import RuleRuntimeError

DATA = """
kinds:
  player:
    properties:
      score: {type: number, default: 0}
  marker:
    located_in: zone
    properties:
      holder: player?
      seats: number?
zones:
  pool: {}
components:
  - {name: marker_a, kind: marker, zone: pool}
"""

NONE_HINT = ("a value is none: a table read with a key it lacks, a property or variable with no value, "
             "or a list's first/top of nothing gives none")

RULES = QUIET_SETUP_AND_ROUND + """
function nobody() -> player:
    = first([p for p in players where p.score > 100])

action after_nobody:
    do:
        let x = next_player(nobody())
        emit e(a: x)

action seats_after_nobody:
    do:
        let x = seats_from(marker_a.holder, 2)
        emit e(a: x)

action count_nothing:
    do:
        let x = seats_from(current_player, marker_a.seats)
        emit e(a: x)

action numbers_to_nothing:
    do:
        let x = numbers(1, marker_a.seats)
        emit e(a: x)

action look_around:
    do:
        let x = adjacent(marker_a.at)
        emit e(a: x)

action go_round:
    do:
        let x = next_player(current_player)
        let y = seats_from(x, 3)
        emit e(a: y)
"""


def generated(rs) -> bool:
    """Whether the rule set's statements run on generated code (a later game's path)."""
    return any(getattr(getattr(fn, "__code__", None), "co_filename", "") == "<rule set expressions>"
               for block in rs.compiled.blocks for instr in block for fn in vars(instr).values() if callable(fn))


@pytest.fixture(params=["first game", "later game"])
def game(request, tmp_path) -> Game:
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(3, 3)) + DATA, "main.rules": RULES})
    if request.param == "later game":
        Game(rs, 3, 1)
    played = Game(rs, 3, 1)
    assert generated(rs) == (request.param == "later game")
    return played


def told(game: Game, action: str) -> str:
    with pytest.raises(RuleRuntimeError) as info:
        choose_action(game, action)
    err = info.value
    assert err.pos is not None and str(err).startswith(f"{err.pos.file}:{err.pos.line}:{err.pos.column}: ")
    assert "Error" not in str(err) and "list" not in str(err).split(": ", 1)[1].split(";")[0]
    return str(err).split(": ", 1)[1]


def test_next_player_of_none(game):
    assert told(game, "after_nobody") == f"next_player needs a player, not none; {NONE_HINT}"


def test_seats_from_none(game):
    assert told(game, "seats_after_nobody") == f"seats_from needs a player, not none; {NONE_HINT}"


def test_seats_from_a_player_for_none_seats(game):
    assert told(game, "count_nothing") == f"seats_from needs a number of seats, not none; {NONE_HINT}"


def test_numbers_up_to_none(game):
    assert told(game, "numbers_to_nothing") == f"numbers needs a number to end at, not none; {NONE_HINT}"


@pytest.mark.parametrize("later", [False, True])
def test_a_condition_calling_next_player_of_none_is_located_at_the_condition(tmp_path, later):
    # a `require` is read as the options are listed, from the first turn on
    rules = RULES + """
action next_in_line:
    with n: number in [1]
    require next_player(nobody()) != current_player
    do:
        emit e(a: n)
"""
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(3, 3)) + DATA, "main.rules": rules})
    for _ in range(2 if later else 1):
        with pytest.raises(RuleRuntimeError) as info:
            Game(rs, 3, 1)
    assert generated(rs) == later
    err = info.value
    assert str(err).endswith(f": next_player needs a player, not none; {NONE_HINT}")
    lines = (Path(rs.root) / "main.rules").read_text(encoding="utf-8").splitlines()
    assert lines[err.pos.line - 1].strip() == "require next_player(nobody()) != current_player"


def test_a_board_function_in_a_rule_set_without_a_board(game):
    assert told(game, "look_around") == ("the rule set has no board (no 'board:' in its data tables), so it has "
                                         "no spaces, tiles or paths to ask about")


def test_the_players_still_go_round(game):
    choose_action(game, "go_round")
    assert [e["a"] for e in game.events if e["type"] == "e"] == [["p2", "p3", "p1"]]


def test_a_value_that_is_no_player_of_the_game_is_named():
    from rulecraft.interpreter.library import FUNCTIONS

    class Machine:  # the little of a machine the function reads
        class state:  # noqa: N801
            players = ["p1", "p2"]

    for name, args in (("next_player", ("p7",)), ("seats_from", ("p7", 2))):
        with pytest.raises(ValueError) as info:
            FUNCTIONS[name](Machine, *args)
        assert fault_text(info.value) == f"{name} needs a player of this game, not p7 (one of: p1, p2)"


@pytest.mark.parametrize(("call", "told"), [
    ("rooms_of(meeple)", "rooms_of needs a tile, not meeple"),
    ("placements(meeple, main(hub), [0])", "placements needs a tile, not meeple"),
    ("placements_anywhere(meeple, [0])", "placements_anywhere needs a tile, not meeple"),
    # a tile turns by whole steps from one direction to the next: a quarter turn on this board
    ("placements_anywhere(hub, [0, 45, 90])",
     "placements_anywhere needs turns by whole steps of 90 degrees (the board has 4 directions), not 45"),
    ("placements(hub, main(hub), [30])",
     "placements needs turns by whole steps of 90 degrees (the board has 4 directions), not 30"),
    ("spot(1, 0, 135)", "spot needs turns by whole steps of 90 degrees (the board has 4 directions), not 135"),
])
def test_a_tile_function_given_what_is_no_tile(tmp_path, call, told):
    from test_60_board import board_game  # its board of laid tiles, and the pawn meeple

    with pytest.raises(RuleRuntimeError) as info:
        board_game(tmp_path, f"place(hub, spot(0, 0, 0))\nlet x = {call}\nemit q(name: \"x\", value: x)")
    assert str(info.value).endswith(f": {told}")
    assert info.value.pos is not None and info.value.pos.line == 4  # the `let`: after `procedure`, `do:` and `place`
