"""The search bot's playouts in a rule set that declares heuristics: half of their
decisions follow the chooser's preferences, judged on the bot's own sample."""

from __future__ import annotations

from collections import Counter

from test_51_heuristics import ruleset

from rulecraft.bots import make_bot, view_for
from rulecraft.bots.mcts import GUIDED
from rulecraft.interpreter.game import Game


def _at_the_colour_choice(rs) -> Game:
    game = Game(rs, 2, seed=1)
    paint = next(i for i, o in enumerate(game.pending.options) if o.get("action") == "paint")
    game.choose(paint)
    return game


def test_a_playout_plays_the_preferred_option(tmp_path):
    rs = ruleset(tmp_path)
    game = _at_the_colour_choice(rs)
    bot = make_bot("mcts:1", 3)
    bot.learn_rules(rs)
    state = game.state.clone()  # a sample as the bot would draw it: whole, and its own
    picks = Counter(state.pending["options"][bot._preferred(state)] for _ in range(20))
    assert picks == Counter({"blue": 20})  # "prefer choice where choice == 'blue'"


def test_without_a_preference_the_pick_is_random(tmp_path):
    rs = ruleset(tmp_path, HEURISTICS_WITHOUT_PREFERENCES)
    game = _at_the_colour_choice(rs)
    bot = make_bot("mcts:1", 3)
    bot.learn_rules(rs)
    picks = Counter(game.state.pending["options"][bot._preferred(game.state)] for _ in range(60))
    assert set(picks) == {"red", "blue", "green"}


def test_guided_playouts_keep_the_search_seeded(tmp_path):
    assert 0 < GUIDED < 1
    rs = ruleset(tmp_path)
    answers = []
    for _ in range(2):
        game = Game(rs, 2, seed=4)
        bots = {p: make_bot("mcts:20", 10 + i) for i, p in enumerate(game.state.players)}
        while not game.over:
            bot = bots[game.pending.player]
            game.choose(bot.choose(view_for(game, bot, game.pending.player)))
        answers.append(game.decisions)
    assert answers[0] == answers[1]


HEURISTICS_WITHOUT_PREFERENCES = """
heuristic grow(me: player):
    feature "own score" weight 1: me.score
"""
