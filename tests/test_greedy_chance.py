"""The greedy bot rates an option that draws on chance by several draws, not one: a
gamble paying 6 on a roll of 6 (worth 1 on average) against a sure 2. Rated by one
roll, it took the gamble whenever its one look-ahead rolled a 6."""

from __future__ import annotations

import pytest

from engine_rulesets import build, game_yaml

from rulecraft.bots import bot_problem, make_bot
from rulecraft.interpreter.game import Game

DATA = """
kinds:
  player:
    properties:
      score: {type: number, default: 0}
dice:
  d6: [1, 2, 3, 4, 5, 6]
"""

RULES = """
procedure setup():
    do:
        stop

procedure round():
    do:
        for each p in players:
            play_turn(p)

action gamble:
    limit 1 per turn
    do:
        let face = roll(d6)
        if face == 6:
            set current_player.score += 6
        end_turn()

action safe:
    limit 1 per turn
    do:
        set current_player.score += 2
        end_turn()

heuristic points(me: player):
    feature "score" weight 1: me.score
"""


def _gambles(tmp_path, bot: str, games: int = 40) -> int:
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(1, 1), round_limit=3) + DATA, "main.rules": RULES})
    gambled = 0
    for seed in range(games):
        game = Game(rs, 1, seed)
        choice = game.view("p1")["choice"]
        player = make_bot(bot, seed)
        player.learn_rules(rs)
        index = player.choose(game.view("p1"))
        gambled += choice["options"][index]["action"] == "gamble"
    return gambled


def test_an_option_that_rolls_is_rated_by_its_average(tmp_path):
    one, many = _gambles(tmp_path / "one", "greedy:1"), _gambles(tmp_path / "many", "greedy:64")
    # one roll: a 6 seen makes the gamble look best, about one decision in six; averaged
    # over 64 rolls it looks best only after a run of luck (one seed of the 40 here)
    assert one >= 4 and many <= 1, (one, many)


@pytest.mark.parametrize("setting", ["0", "65", "x"])
def test_the_setting_is_a_number_of_draws(setting):
    assert "a whole number from 1 to 64" in bot_problem(f"greedy:{setting}")
