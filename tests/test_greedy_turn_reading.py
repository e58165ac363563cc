"""The greedy bot judges an option where the game stands when someone must decide next:
a heuristic that reads whose turn it is (tempo: "the other player must move in a lost
position") reads the next player's turn, not the seat's own turn it has just played.
Before, the look-ahead's table stopped at the seat's own turn, `current_player` stayed the
seat, and such a heuristic played no better than chance. Nothing here knows a shipped game."""

from __future__ import annotations

from engine_rulesets import QUIET_SETUP_AND_ROUND, build

from rulecraft.bots import make_bot, view_for
from rulecraft.interpreter.game import Game

GAME = """\
game:
  name: subtraction
  players: {min: 2, max: 2}
  sides:
    free_for_all: true
  setup: setup
  round: round
  round_limit: 20
  actions_per_turn_limit: 1
  end_turn_allowed: may_pass
kinds:
  player:
    properties: {}
variables:
  game:
    heap: {type: number, default: 7}
    last_mover: {type: "player?", default: null}
"""

RULES = QUIET_SETUP_AND_ROUND + """
function may_pass(p: player) -> bool:
    = false

action take:
    with n: number in numbers(1, min([2, game.heap]))
    do:
        set game.heap -= n
        set game.last_mover = current_player

victory last_one:
    when game.heap == 0
    winners [game.last_mover]

heuristic tempo(me: player):
    feature "the other player must move facing a multiple of three" weight 10: game.heap % 3 == 0 and current_player != me
    feature "I must move facing a multiple of three" weight -10: game.heap % 3 == 0 and current_player == me
"""


def test_a_tempo_heuristic_wins_every_won_position_against_random(tmp_path):
    ruleset = build(tmp_path, {"game.yaml": GAME, "main.rules": RULES})
    won = 0
    for seed in range(12):
        game = Game(ruleset, 2, seed)
        bots = {"p1": make_bot("greedy", seed), "p2": make_bot("random", seed + 100)}
        while not game.over:
            player = game.pending.player
            game.choose(bots[player].choose(view_for(game, bots[player], player)))
        won += game.state.result["winners"] == ["p1"]
    # 7 is not a multiple of three: the first player wins by leaving one every turn
    assert won == 12
