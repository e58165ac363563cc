"""`hide` takes back only what `reveal` gave, and tells only the players it takes it
back from: a hide of a thing (or property) never shown to a player does not name it to
that player. Held on both of the engine's paths: a rule set's first game runs its
statements on closures, a later game on generated code."""

from __future__ import annotations

import pytest
from engine_rulesets import QUIET_SETUP_AND_ROUND, build, choose_action, game_yaml

from rulecraft.interpreter.game import Game

DATA = """
kinds:
  player:
    properties:
      role: {type: text, default: "crew", visible_to: owner}
  card:
    located_in: zone
    properties:
      power: {type: number, default: 1}
zones:
  hand: {per_player: true, visible_to: owner}
components:
  - {name: card, kind: card, count: 2, per_player: true, zone: hand}
"""

RULES = QUIET_SETUP_AND_ROUND + """
action show:
    with c: card in contents(hand(current_player))
    with friend: player where friend != current_player
    do:
        reveal c to friend

action unshow:
    with c: card in contents(hand(current_player))
    do:
        hide c

action unshow_from:
    with c: card in contents(hand(current_player))
    with who: player where who != current_player
    do:
        hide c from who

action unconfess:
    do:
        hide current_player.role

action tidy_up:
    do:
        for each p in players:
            for each c in contents(hand(p)):
                hide c
"""


def generated(rs) -> bool:
    """Whether the rule set's statements run on generated code (a later game's path)."""
    return any(getattr(getattr(fn, "__code__", None), "co_filename", "") == "<rule set expressions>"
               for block in rs.compiled.blocks for instr in block for fn in vars(instr).values() if callable(fn))


@pytest.fixture(params=["first game", "later game"])
def game(request, tmp_path) -> Game:
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(3, 3), round_limit=2) + DATA, "main.rules": RULES})
    if request.param == "later game":
        Game(rs, 3, 1)
    played = Game(rs, 3, 1)
    assert generated(rs) == (request.param == "later game")
    return played


def hidden_events(game: Game, player: str) -> list[dict]:
    return [e for e in game.events_for(player) if e["type"] == "hidden"]


def test_hiding_a_card_never_shown_names_it_to_no_one(game):
    card = game.state.zones["hand:p2"][0]
    choose_action(game, "tidy_up")
    for p in ("p1", "p2", "p3"):
        assert hidden_events(game, p) == [], f"{p} is told of {card}, which no one was shown"
    assert not [e for e in game.events if e["type"] == "hidden"]
    assert game.state.revealed == {}
    assert card not in game.view("p1")["entities"]


def test_hide_without_from_tells_only_the_players_it_was_shown_to(game):
    card = game.state.zones["hand:p1"][0]
    choose_action(game, "show", c=card, friend="p2")
    choose_action(game, "unshow", c=card)
    assert [(e["entity"], e["players"]) for e in hidden_events(game, "p2")] == [(card, ["p2"])]
    assert hidden_events(game, "p3") == []
    assert hidden_events(game, "p1") == []
    assert game.state.revealed == {}
    assert card not in game.view("p2")["entities"]


def test_hide_from_a_player_never_shown_the_thing_does_not_name_it_to_them(game):
    card = game.state.zones["hand:p1"][0]
    choose_action(game, "show", c=card, friend="p2")
    choose_action(game, "unshow_from", c=card, who="p3")
    assert hidden_events(game, "p3") == []
    assert hidden_events(game, "p2") == []
    assert game.state.revealed == {card: {"*": ["p2"]}}, "p2 still sees it"
    assert card in game.view("p2")["entities"]
    choose_action(game, "unshow_from", c=card, who="p2")
    assert [(e["entity"], e["players"]) for e in hidden_events(game, "p2")] == [(card, ["p2"])]
    assert game.state.revealed == {}


def test_hiding_a_property_never_shown_tells_no_one(game):
    choose_action(game, "unconfess")
    assert not [e for e in game.events if e["type"] == "hidden"]
    assert "role" not in game.view("p2")["entities"]["p1"]["props"]
