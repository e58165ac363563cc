"""`choose x from list by p`: who is asked, when nobody is asked, and what gets bound."""

from __future__ import annotations

import pytest
from engine_rulesets import build, choose_action, emitted, events_of, game_yaml

from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import IllegalAnswer

DATA = """
kinds:
  player: {}
  card:
    located_in: zone
zones:
  deck: {}
  hand: {per_player: true}
components:
  - {name: a, kind: card, zone: deck}
  - {name: b, kind: card, zone: deck}
  - {name: c, kind: card, zone: deck}
"""

ROUND = """
procedure round():
    do:
        for each p in players:
            play_turn(p)
"""


def make(tmp_path, rules: str, players: int = 2, seed: int = 1, round_limit: int = 1) -> Game:
    rs = build(tmp_path, {"game.yaml": game_yaml(round_limit=round_limit) + DATA, "main.rules": rules + ROUND})
    return Game(rs, players, seed)


SETUP_CHOICES = """
procedure setup():
    do:
        choose x from [10, 20, 30] by last(players) prompt "Pick a number"
        emit q(name: "x", value: x)
        choose y from [7] by first(players)
        emit q(name: "y", value: y)
        choose z from [n for n in [1, 2] where n > 5] by first(players)
        emit q(name: "z", value: z)
"""


def test_two_or_more_options_ask_the_chooser(tmp_path):
    game = make(tmp_path, SETUP_CHOICES)
    p = game.pending
    assert p.kind == "choose"
    assert p.player == "p2"
    assert p.prompt == "Pick a number"
    assert p.options == [10, 20, 30]
    assert emitted(game) == {}, "nothing after the choice has run yet"


def test_the_answer_is_bound_and_single_and_empty_choices_do_not_ask(tmp_path):
    game = make(tmp_path, SETUP_CHOICES)
    game.choose(1)
    q = emitted(game)
    assert q == {"x": 20, "y": 7, "z": None}
    assert game.decisions == [1]
    assert game.over, "the one-option and no-option choices did not stop the game"


def test_choose_option_answers_by_value(tmp_path):
    game = make(tmp_path, SETUP_CHOICES)
    game.choose_option(30)
    assert emitted(game)["x"] == 30
    assert game.decisions == [2]


def test_choose_option_refuses_a_value_not_offered(tmp_path):
    game = make(tmp_path, SETUP_CHOICES)
    with pytest.raises(IllegalAnswer):
        game.choose_option(40)
    assert game.pending.options == [10, 20, 30]


def test_choice_is_in_the_choosers_view_only(tmp_path):
    game = make(tmp_path, SETUP_CHOICES)
    assert game.view("p2")["choice"] == {"kind": "choose", "prompt": "Pick a number", "options": [10, 20, 30]}
    assert game.view("p1")["choice"] is None


def test_choose_among_entities_inside_a_loop(tmp_path):
    rules = """
procedure setup():
    do:
        for each p in players:
            choose card from contents(deck) by p prompt "Take a card"
            move card to hand(p)
"""
    game = make(tmp_path, rules, players=3)
    assert (game.pending.player, game.pending.options) == ("p1", ["a", "b", "c"])
    game.choose_option("b")
    assert (game.pending.player, game.pending.options) == ("p2", ["a", "c"])
    game.choose_option("c")
    # p3 has one card left to take: no question asked
    assert game.over
    assert game.state.zones["hand:p1"] == ["b"]
    assert game.state.zones["hand:p2"] == ["c"]
    assert game.state.zones["hand:p3"] == ["a"]


def test_choose_without_by_asks_the_current_player(tmp_path):
    rules = """
procedure setup():
    do:
        stop

action pick:
    limit 1 per turn
    do:
        choose card from contents(deck)
        move card to hand(current_player)
"""
    game = make(tmp_path, rules, players=2)
    choose_action(game, "end_turn")
    assert game.pending.player == "p2"
    choose_action(game, "pick")
    assert game.pending.kind == "choose"
    assert game.pending.player == "p2"
    game.choose_option("a")
    assert game.state.zones["hand:p2"] == ["a"]
    assert game.over, "p2 has no action left, the turn and the only round end"


def test_locals_before_a_choice_survive_it(tmp_path):
    rules = """
procedure setup():
    do:
        let before = 5
        for each n in [1, 2]:
            choose pick from [n, n + 10] by first(players)
            emit q(name: n, value: [before, pick])
"""
    game = make(tmp_path, rules)
    game.choose(1)
    game.choose(0)
    assert [(e["name"], e["value"]) for e in events_of(game, "q")] == [(1, [5, 11]), (2, [5, 2])]
