"""`can_act(p)`: whether a player, to move now, would be offered an action. A game where
a player who cannot move loses (draughts, Breakthrough's cousins) says so in its
victory, instead of copying every action's conditions into a function of its own."""

from __future__ import annotations

from engine_rulesets import build, choose_action, game_yaml

from rulecraft.interpreter.game import Game
from rulecraft.interpreter.library import FUNCTIONS

FILES = {
    "game.yaml": game_yaml(players=(2, 2), round_limit=10, actions_per_turn_limit=1) + """
kinds:
  player:
    properties:
      tokens: {type: number, default: 0}
variables:
  turn:
    moved: {type: bool, default: false}
""",
    "play.rules": """
procedure setup():
    do:
        for each p in players:
            if p == first(players):
                set p.tokens = 1
            else:
                set p.tokens = 2

procedure round():
    do:
        for each p in players:
            play_turn(p)

action take:
    text "Take one of your tokens."
    require current_player.tokens > 0
    do:
        set current_player.tokens -= 1
        set turn.moved = true

function may_pass(p: player) -> bool:
    = false

# checked before every action choice, the one after a turn's last action too: asked
# only before the turn's first action, when the player to move is the one asked
victory stuck:
    text "A player who cannot move when their turn comes loses."
    when current_player != none and not turn.moved and not can_act(current_player)
    winners [p for p in players where p != current_player]
""",
}


def test_a_player_who_cannot_move_when_their_turn_comes_loses(tmp_path):
    game = Game(build(tmp_path, {**FILES, "game.yaml": FILES["game.yaml"].replace(
        "round_limit: 10", "round_limit: 10\n  end_turn_allowed: may_pass")}), 2, seed=1)
    choose_action(game, "take")  # p1's last token
    assert not game.over
    choose_action(game, "take")  # p2 has one left
    # p1's turn comes: nothing to take
    assert game.over and game.result["winners"] == ["p2"] and game.result["reason"] == "stuck"


def test_it_asks_for_another_player_than_the_one_to_move_and_leaves_the_turn_as_it_was(tmp_path):
    game = Game(build(tmp_path, FILES), 2, seed=1)
    m = game.machine
    assert game.pending.player == "p1"
    m.state.entities["p2"]["props"]["tokens"] = 0
    m.invalidate()
    can_act = FUNCTIONS["can_act"]
    # p2's action reads current_player: asked as the player to move, p2 has nothing
    assert can_act(m, "p2") is False and can_act(m, "p1") is True
    assert m.state.current == "p1" and game.pending.player == "p1"
    assert [o["action"] for o in game.pending.options] == ["take", "end_turn"]
