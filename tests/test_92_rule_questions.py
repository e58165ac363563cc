"""Asking a rule set's own functions about one player's view: the answer can only
depend on what that player sees."""

from __future__ import annotations

import pytest
from engine_rulesets import build, game_yaml

from rulecraft.bots.rule_questions import UnanswerableQuestion, ViewQuestions
from rulecraft.interpreter.game import Game

DATA = """
kinds:
  player:
    properties:
      secret: {type: number, default: 0, visible_to: owner}
  card:
    located_in: zone
zones:
  deck: {visible_to: nobody}
  table: {}
  hand: {per_player: true, visible_to: owner}
components:
  - {name: a, kind: card, zone: deck}
  - {name: b, kind: card, zone: deck}
  - {name: d, kind: card, zone: deck}
  - {name: c, kind: card, zone: table}
"""

RULES = """
procedure setup():
    do:
        for each p in players:
            move top(deck) to hand(p)

procedure round():
    do:
        for each p in players:
            play_turn(p)

function holds_cards(p: player) -> bool:
    = count(contents(hand(p))) > 0

function cards_on_table() -> number:
    = count(contents(table))

function deck_size() -> number:
    = count(contents(deck))
"""


@pytest.fixture
def game(tmp_path):
    return Game(build(tmp_path, {"game.yaml": game_yaml(players=(2, 2)) + DATA, "main.rules": RULES}), 2, 1)


def test_answers_come_from_the_view_alone(game):
    assert game.state.zones["hand:p2"] and game.state.zones["deck"]  # p2 holds a card; the deck is not empty
    questions = ViewQuestions(game.ruleset, game.view("p1"))
    assert questions.ask("holds_cards", "p1") is True  # p1 sees their own hand
    assert questions.ask("holds_cards", "p2") is False  # but not p2's
    assert questions.ask("cards_on_table") == 1  # the public table
    assert questions.ask("deck_size") == 0  # a hidden zone is empty to the player
    assert ViewQuestions(game.ruleset, game.view("p2")).ask("holds_cards", "p2") is True


def test_an_unknown_function_is_a_clear_error(game):
    with pytest.raises(UnanswerableQuestion, match="no function 'holds_card'"):
        ViewQuestions(game.ruleset, game.view("p1")).ask("holds_card", "p1")
