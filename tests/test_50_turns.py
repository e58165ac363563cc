"""Rounds and turns: offering actions, ending turns, costs, limits, turn and game
variables, the round limit and victory definitions."""

from __future__ import annotations

import pytest
from engine_rulesets import QUIET_SETUP_AND_ROUND, action_options, build, choose_action, events_of, game_yaml

from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import IllegalAnswer

DATA = """
kinds:
  player:
    properties:
      ap: {type: number, default: 0}
      score: {type: number, default: 0}
variables:
  game:
    total: {type: number, default: 0}
  turn:
    taken: {type: number, default: 0}
    notes: {type: list of text}
"""

RULES = """
procedure setup():
    do:
        set game.total = 0

procedure round():
    do:
        for each p in players:
            play_turn(p)

trigger refill:
    on turn_started
    do:
        set event.player.ap = 3

action work:
    cost 1 ap
    do:
        set current_player.score += 1
        set turn.taken += 1
        set game.total += 1

action rest:
    limit 1 per turn
    cost 1 ap
    do:
        set turn.notes = ["rested"]

action left:
    limit 1 per turn as side
    cost 1 ap
    do:
        set turn.taken += 1

action right:
    limit 1 per turn as side
    cost 1 ap
    do:
        set turn.taken += 1
"""


@pytest.fixture
def ruleset(tmp_path):
    return build(tmp_path, {"game.yaml": game_yaml(round_limit=2) + DATA, "main.rules": RULES})


def names(game: Game) -> set[str]:
    return {o["action"] for o in action_options(game)}


def test_play_turn_offers_the_actions_and_end_turn(ruleset):
    game = Game(ruleset, 2, 1)
    p = game.pending
    assert p.player == "p1" and p.kind == "action"
    assert names(game) == {"work", "rest", "left", "right"}
    assert p.options[-1] == {"action": "end_turn"}
    assert game.state.current == "p1"
    assert game.state.round == 1
    assert game.state.turn_number == 1


def test_end_turn_passes_to_the_next_player(ruleset):
    game = Game(ruleset, 2, 1)
    choose_action(game, "end_turn")
    assert game.pending.player == "p2"
    assert game.state.current == "p2"
    assert game.state.turn_number == 2
    types = [(e["type"], e.get("player")) for e in game.events if e["type"] in ("turn_started", "turn_ended")]
    assert types == [("turn_started", "p1"), ("turn_ended", "p1"), ("turn_started", "p2")]


def test_cost_is_deducted(ruleset):
    game = Game(ruleset, 2, 1)
    assert game.state.entities["p1"]["props"]["ap"] == 3
    choose_action(game, "work")
    assert game.state.entities["p1"]["props"]["ap"] == 2
    assert game.state.entities["p1"]["props"]["score"] == 1
    assert game.pending.player == "p1", "the turn goes on while actions remain"
    taken = events_of(game, "action_taken")
    assert [(e["player"], e["action"]) for e in taken] == [("p1", "work")]


def test_turn_ends_by_itself_when_nothing_is_affordable(ruleset):
    game = Game(ruleset, 2, 1)
    for _ in range(3):
        choose_action(game, "work")
    assert game.state.entities["p1"]["props"]["ap"] == 0
    assert game.pending.player == "p2", "p1 could afford nothing, so the turn ended without asking"
    assert [e["player"] for e in events_of(game, "turn_ended")] == ["p1"]


def test_action_that_is_not_affordable_is_not_offered(ruleset):
    game = Game(ruleset, 1, 1)
    game.state.entities["p1"]["props"]["ap"] = 0
    assert game.why_not("work", {}) == "not enough ap"


def test_limit_one_per_turn(ruleset):
    game = Game(ruleset, 2, 1)
    choose_action(game, "rest")
    assert "rest" not in names(game)
    assert "this turn" in game.why_not("rest", {})
    assert game.state.limits["turn"] == {"p1:rest": 1}


def test_limit_shared_as_group(ruleset):
    game = Game(ruleset, 2, 1)
    choose_action(game, "left")
    assert names(game) == {"work", "rest"}, "left and right share one use per turn"
    assert "this turn" in game.why_not("right", {})
    assert game.state.limits["turn"] == {"p1:side": 1}


def test_limits_reset_next_turn(ruleset):
    game = Game(ruleset, 2, 1)
    choose_action(game, "rest")
    choose_action(game, "left")
    choose_action(game, "end_turn")
    assert game.pending.player == "p2"
    assert names(game) == {"work", "rest", "left", "right"}
    choose_action(game, "end_turn")
    # round 2, p1 again: the per-turn limits are fresh for p1 too
    assert game.state.round == 2 and game.pending.player == "p1"
    assert names(game) == {"work", "rest", "left", "right"}


def test_turn_variables_reset_and_game_variables_persist(ruleset):
    game = Game(ruleset, 2, 1)
    choose_action(game, "work")
    choose_action(game, "rest")
    assert game.state.vars["turn"] == {"taken": 1, "notes": ["rested"]}
    assert game.state.vars["game"] == {"total": 1}
    choose_action(game, "end_turn")
    assert game.state.vars["turn"] == {"taken": 0, "notes": []}
    choose_action(game, "work")
    assert game.state.vars["game"] == {"total": 2}
    assert game.state.vars["turn"]["taken"] == 1


def test_list_default_of_a_turn_variable_is_not_shared_between_turns(ruleset):
    game = Game(ruleset, 2, 1)
    first_list = game.state.vars["turn"]["notes"]
    choose_action(game, "end_turn")
    assert game.state.vars["turn"]["notes"] is not first_list
    assert ruleset.data.variables["turn"]["notes"].default == []


def test_round_limit_ends_the_game_undecided(ruleset):
    game = Game(ruleset, 2, 1)
    for _ in range(4):  # two rounds of two turns
        assert not game.over
        choose_action(game, "end_turn")
    assert game.over
    assert game.pending is None
    assert game.result == {"winners": [], "reason": "round limit", "decided": False}
    assert game.state.round == 2
    assert [e["round"] for e in events_of(game, "round_started")] == [1, 2]
    assert events_of(game, "game_ended")[-1]["reason"] == "round limit"


def test_answering_a_finished_game_is_refused(ruleset):
    game = Game(ruleset, 1, 1)
    choose_action(game, "end_turn")
    choose_action(game, "end_turn")
    assert game.over
    with pytest.raises(IllegalAnswer):
        game.choose(0)


def test_answer_out_of_range_is_refused(ruleset):
    game = Game(ruleset, 1, 1)
    with pytest.raises(IllegalAnswer):
        game.choose(len(game.pending.options))
    assert game.decisions == []


def test_player_count_outside_the_range_is_refused(ruleset):
    with pytest.raises(ValueError, match="played by 1 to 3 players, not 4"):
        Game(ruleset, 4, 1)


def test_a_game_for_an_exact_count_says_that_count(tmp_path):
    exact = build(tmp_path, {"game.yaml": game_yaml(players=(2, 2)) + DATA, "main.rules": RULES})
    with pytest.raises(ValueError, match=r"is played by 2 players, not 3$"):
        Game(exact, 3, 1)


# ---------------------------------------------------------------- victory

VICTORY = """
victory enough:
    when game.total >= 3
    winners [p for p in players where p.score >= 2]
"""


def test_victory_ends_the_game_with_its_winners(tmp_path):
    rs = build(tmp_path, {"game.yaml": game_yaml(round_limit=5) + DATA, "main.rules": RULES + VICTORY})
    game = Game(rs, 2, 1)
    choose_action(game, "work")
    choose_action(game, "work")
    choose_action(game, "end_turn")
    assert not game.over
    choose_action(game, "work")  # p2: total reaches 3
    assert game.over
    assert game.pending is None
    assert game.result == {"winners": ["p1"], "reason": "enough", "decided": True}
    ended = events_of(game, "game_ended")
    assert len(ended) == 1 and ended[0]["winners"] == ["p1"]


def test_end_game_effect_ends_at_once(tmp_path):
    rules = RULES + """
action concede:
    do:
        end_game([p for p in players where p != current_player], "conceded")
        set game.total = 99
"""
    rs = build(tmp_path, {"game.yaml": game_yaml(round_limit=5) + DATA, "main.rules": rules})
    game = Game(rs, 3, 1)
    choose_action(game, "concede")
    assert game.over
    assert game.result == {"winners": ["p2", "p3"], "reason": "conceded", "decided": True}
    assert game.state.vars["game"]["total"] == 0, "nothing runs after end_game"


def test_round_procedure_sees_round_and_turn_numbers(tmp_path):
    rules = """
procedure setup():
    do:
        stop

procedure round():
    do:
        for each p in players:
            play_turn(p)
        emit q(name: round_number, value: turn_number)
"""
    data = """
kinds:
  player: {}
"""
    rs = build(tmp_path, {"game.yaml": game_yaml(round_limit=3) + data, "main.rules": rules})
    game = Game(rs, 2, 1)
    assert game.over, "with no actions every turn ends by itself"
    assert [(e["name"], e["value"]) for e in events_of(game, "q")] == [(1, 2), (2, 4), (3, 6)]
    assert game.result["reason"] == "round limit"


# ---------------------------------------------------------------- other periods

PERIODS = QUIET_SETUP_AND_ROUND + """
action once_a_round:
    limit 1 per round
    do:
        stop

action twice_a_game:
    limit 2 per game
    do:
        stop

action tap:
    do:
        stop
"""


def test_limits_per_round_and_per_game(tmp_path):
    rs = build(tmp_path, {"game.yaml": game_yaml(round_limit=5) + "kinds:\n  player: {}\n", "main.rules": PERIODS})
    game = Game(rs, 2, 1)
    choose_action(game, "once_a_round")
    choose_action(game, "twice_a_game")
    assert "this round" in game.why_not("once_a_round", {})
    choose_action(game, "end_turn")
    # p2, same round: limits count per player, so p2 has its own uses
    assert game.pending.player == "p2"
    assert names(game) == {"once_a_round", "twice_a_game", "tap"}
    choose_action(game, "twice_a_game")
    choose_action(game, "twice_a_game")
    assert names(game) == {"once_a_round", "tap"}
    assert "this game" in game.why_not("twice_a_game", {})
    choose_action(game, "end_turn")
    # round 2: p1's round limit is fresh; one of its two game uses is left
    assert game.state.round == 2 and game.pending.player == "p1"
    assert names(game) == {"once_a_round", "twice_a_game", "tap"}
    choose_action(game, "twice_a_game")
    assert "this game" in game.why_not("twice_a_game", {})


def test_actions_per_turn_limit_ends_a_turn(tmp_path):
    rs = build(tmp_path, {"game.yaml": game_yaml(round_limit=5, actions_per_turn_limit=3) + "kinds:\n  player: {}\n",
                          "main.rules": PERIODS})
    game = Game(rs, 2, 1)
    for _ in range(3):
        assert game.pending.player == "p1"
        choose_action(game, "tap")
    assert game.pending.player == "p2"
