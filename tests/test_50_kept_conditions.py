"""The machine keeps a condition's value while nothing it may read has changed: a
victory that reads whose turn it is is decided again at each turn, one that does not is
decided again after any change, and a change a driver makes between two answers is seen."""

from __future__ import annotations

from engine_rulesets import QUIET_SETUP_AND_ROUND, build, game_yaml

from rulecraft.dsl.dependencies import reads_turn
from rulecraft.dsl.reads import Reads, reads_of
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import Machine

DATA = """
kinds:
  player:
    properties:
      score: {type: number, default: 0}
variables:
  turn:
    moved: {type: bool, default: false}
"""

RULES = QUIET_SETUP_AND_ROUND + """
function leader(p: player) -> bool:
    = p.score >= 2

action score:
    do:
        set current_player.score += 1

action wait:
    require not leader(current_player)
    do:
        set turn.moved = true
"""


def _ruleset(tmp_path, victory: str):
    # one action a turn: the turn ends, and the next begins, within one answer
    return build(tmp_path, {"game.yaml": game_yaml(players=(2, 2), round_limit=10, actions_per_turn_limit=1) + DATA,
                            "play.rules": RULES + victory})


def test_a_victory_reading_the_turn_is_decided_at_each_turn(tmp_path):
    rs = _ruleset(tmp_path, """
victory second_turn_of_p2:
    when turn_number >= 4
    winners [current_player]
""")
    vic = rs.of_kind("victory")[0]
    assert reads_turn(rs, [vic.when, vic.winners])
    game = Game(rs, 2, 1)
    while not game.over:
        game.choose_option({"action": "wait", "args": {}})
    # only the turn changed from the end of turn 3 to the start of turn 4: the victory
    # came as turn 4 began, before its player was offered an action
    assert game.result["winners"] == ["p2"] and game.state.turn_number == 4 and len(game.decisions) == 3


def test_a_victory_reading_no_turn_is_decided_after_each_change(tmp_path):
    rs = _ruleset(tmp_path, """
victory two_points:
    when any([leader(p) for p in players])
    winners [p for p in players where leader(p)]
""")
    vic = rs.of_kind("victory")[0]
    assert not reads_turn(rs, [vic.when, vic.winners])
    game = Game(rs, 2, 1)
    for _ in range(3):
        game.choose_option({"action": "score", "args": {}})
    assert game.result["winners"] == ["p1"] and game.state.turn_number == 3


def test_a_change_made_by_the_driver_between_answers_is_seen(tmp_path):
    rs = _ruleset(tmp_path, """
victory two_points:
    when any([leader(p) for p in players])
    winners [p for p in players where leader(p)]
""")
    game = Game(rs, 2, 1)
    game.choose_option({"action": "wait", "args": {}})
    # a scenario arranging the table: the machine did not make this change
    game.state.entities["p2"]["props"]["score"] = 5
    game.choose_option({"action": "wait", "args": {}})
    assert game.result["winners"] == ["p2"]


def test_a_per_turn_variable_reads_the_turn(tmp_path):
    rs = _ruleset(tmp_path, """
victory patience:
    when turn.moved and round_number > 100
    winners []
""")
    vic = rs.of_kind("victory")[0]
    assert reads_turn(rs, [vic.when])
    assert not reads_turn(rs, [vic.winners])


def test_functions_reading_nothing_a_game_changes_are_found(tmp_path):
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 2)) + DATA, "play.rules": RULES + """
function double(x: number) -> number:
    = x * 2

function doubled_all(xs: list of number) -> list of number:
    = [double(x) for x in xs]

function after(p: player) -> player:
    = next_player(p)

function points(p: player) -> number:
    = double(p.score)

function is_current(p: player) -> bool:
    = p == current_player

function moved_now(p: player) -> bool:
    = turn.moved

victory uses_them:
    when any([doubled_all([points(p)])[0] > 100 and is_current(after(p)) and moved_now(p) for p in players])
    winners []
"""})
    from rulecraft.dsl.dependencies import fixed_functions

    fixed = fixed_functions(rs)
    # arguments only, or the players' fixed seating
    assert {"double", "doubled_all", "after"} <= fixed
    # a property, the current player, a per-turn variable
    assert not fixed & {"points", "is_current", "moved_now", "leader"}


def test_a_victory_reading_only_properties_is_decided_again_only_when_they_change(tmp_path, monkeypatch):
    rs = _ruleset(tmp_path, """
victory two_points:
    when any([leader(p) for p in players])
    winners [p for p in players where leader(p)]
""")
    vic = rs.of_kind("victory")[0]
    assert reads_of(rs, [vic.when, vic.winners]) == Reads(frozenset({"score"}), frozenset())
    decided = []
    original = Machine._victory_now
    monkeypatch.setattr(Machine, "_victory_now", lambda m: decided.append(1) or original(m))
    game = Game(rs, 2, 1)
    first = len(decided)
    for _ in range(4):  # waiting changes a per-turn variable and the turn, not a score
        game.choose_option({"action": "wait", "args": {}})
    assert len(decided) == first
    game.choose_option({"action": "score", "args": {}})
    assert len(decided) == first + 1


def test_what_a_condition_reads_is_known_only_for_properties_and_variables(tmp_path):
    rs = _ruleset(tmp_path, """
victory two_points:
    when any([leader(p) for p in players]) and turn.moved
    winners []

victory somewhere:
    when any([p.at == none for p in players])
    winners []
""")
    points, somewhere = rs.of_kind("victory")
    assert reads_of(rs, [points.when]) == Reads(frozenset({"score"}), frozenset({("turn", "moved")}))
    assert reads_of(rs, [somewhere.when]) is None  # a location
