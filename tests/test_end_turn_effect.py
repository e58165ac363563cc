"""`end_turn()`: a rule ends the turn under way (a bust, a skipped turn), on the
closures of a rule set's first game and on the generated code of later games alike."""

from __future__ import annotations

import pytest
from engine_rulesets import choose_action, events_of, game_yaml, write_ruleset

from rulecraft.dsl.compiler import Compiler, generate_statement_code
from rulecraft.dsl.loader import load_checked, load_ruleset
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import RuleRuntimeError

DATA = """\
kinds:
  player:
    properties:
      score: {type: number, default: 0}
      stunned: {type: bool, default: false}
variables:
  turn:
    rolled: {type: number, default: 0}
"""

RULES = """\
procedure setup():
    do:
        for each p in [q for q in players where q == players[1]]:
            set p.stunned = true

procedure round():
    do:
        for each p in players:
            play_turn(p)

trigger stunned_players_lose_their_turn:
    on turn_started
    when event.player.stunned
    do:
        set event.player.stunned = false
        end_turn()

action push:
    do:
        set turn.rolled += 1
        set current_player.score += 1

action bust:
    do:
        set current_player.score = 0
        end_turn()
        emit after_the_end(player: current_player)
"""


def _game(folder, generate: bool) -> Game:
    """A game on closures alone (a first game), or on generated code (later games)."""
    ruleset = load_ruleset(folder)
    assert ruleset.ok, ruleset.bag.render()
    ruleset.compiled = Compiler(ruleset, generate=generate).compile()
    if generate:
        assert generate_statement_code(ruleset)
    return Game(ruleset, 3, 1)


@pytest.fixture
def folder(tmp_path):
    return write_ruleset(tmp_path / "pushing", {"game.yaml": game_yaml(players=(2, 3), round_limit=2) + DATA,
                                                "main.rules": RULES})


def _turns(game: Game) -> list[tuple[str, str]]:
    return [(e["type"], e["player"]) for e in game.events if e["type"] in ("turn_started", "turn_ended")]


@pytest.mark.parametrize("generate", [False, True], ids=["closures", "generated"])
def test_a_rule_ends_the_turn_once_the_action_is_done(folder, generate):
    game = _game(folder, generate)
    assert game.pending.player == "p1"
    choose_action(game, "push")
    assert game.pending.player == "p1"  # the turn goes on after an action that does not end it
    choose_action(game, "bust")
    # the rest of the action ran, then the turn ended without p1 being asked again
    assert [e["player"] for e in events_of(game, "after_the_end")] == ["p1"]
    assert game.state.entities["p1"]["props"]["score"] == 0
    assert ("turn_ended", "p1") in _turns(game)


@pytest.mark.parametrize("generate", [False, True], ids=["closures", "generated"])
def test_a_turn_ended_as_it_starts_is_skipped(folder, generate):
    game = _game(folder, generate)
    choose_action(game, "bust")  # p1's turn
    # p2 is stunned: its turn starts and ends without a choice; p3 is asked next
    assert game.pending.player == "p3"
    assert ("turn_started", "p2") in _turns(game) and ("turn_ended", "p2") in _turns(game)
    assert game.state.entities["p2"]["props"]["stunned"] is False
    choose_action(game, "bust")  # p3
    assert game.pending.player == "p1"  # round 2: p1 again
    choose_action(game, "bust")
    assert game.pending.player == "p2"  # no longer stunned: p2 plays this time


def test_ending_a_turn_when_none_is_under_way_stops_the_game_with_a_located_error(tmp_path):
    folder = write_ruleset(tmp_path / "early", {
        "game.yaml": game_yaml(players=(2, 3), round_limit=1) + "kinds:\n  player: {properties: {}}\n",
        "main.rules": """\
            procedure setup():
                do:
                    end_turn()

            procedure round():
                do:
                    for each p in players:
                        play_turn(p)
            """})
    ruleset = load_checked(folder)
    with pytest.raises(RuleRuntimeError) as stopped:
        Game(ruleset, 2, 1)
    assert "end_turn() is called while no turn is under way" in str(stopped.value)
    assert "main.rules:3:" in str(stopped.value)
