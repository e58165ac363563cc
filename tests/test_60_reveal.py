"""Visibility that changes in play: `reveal` shows a thing or one property to every
player or to some, `hide` takes it back; each player's view follows at once."""

from __future__ import annotations

import json

from engine_rulesets import QUIET_SETUP_AND_ROUND, build, choose_action, game_yaml

from rulecraft.interpreter.game import Game
from rulecraft.interpreter.state import THING, GameState

DATA = """
kinds:
  player:
    properties:
      role: {type: text, default: "crew", visible_to: owner}
  card:
    located_in: zone
    properties:
      power: {type: number, default: 1}
      secret: {type: number, default: 7, visible_to: nobody}
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

action confess:
    do:
        reveal current_player.role

action unconfess:
    with who: player where who != current_player
    do:
        hide current_player.role from who

action whisper:
    with c: card in contents(hand(current_player))
    with friend: player where friend != current_player
    do:
        reveal c.secret to friend

action expose:
    with c: card in contents(hand(current_player))
    do:
        reveal c.secret to current_player
        set c.secret = 8
        emit exposed(card: c)
"""


def _game(tmp_path) -> Game:
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(3, 3), round_limit=2) + DATA, "main.rules": RULES})
    return Game(rs, 3, 1)


def test_a_card_shown_to_one_player_is_in_their_view_only_until_hidden(tmp_path):
    game = _game(tmp_path)
    card = game.state.zones["hand:p1"][0]
    assert card not in game.view("p2")["entities"]
    choose_action(game, "show", c=card, friend="p2")
    seen = game.view("p2")
    assert seen["entities"][card]["props"] == {"power": 1}  # `secret` stays hidden
    assert seen["zones"]["hand:p1"] == {"count": 2, "shown": [card]}
    assert card not in game.view("p3")["entities"]
    assert game.view("p3")["zones"]["hand:p1"] == {"count": 2}
    # the event names the card: only the player it is shown to gets it
    assert [e["entity"] for e in game.events_for("p2") if e["type"] == "revealed"] == [card]
    assert not [e for e in game.events_for("p3") if e["type"] == "revealed"]
    choose_action(game, "unshow", c=card)
    assert card not in game.view("p2")["entities"]
    assert game.view("p2")["zones"]["hand:p1"] == {"count": 2}
    assert game.state.revealed == {}


def test_a_property_revealed_to_all_then_hidden_from_one(tmp_path):
    game = _game(tmp_path)
    assert "role" not in game.view("p2")["entities"]["p1"]["props"]
    choose_action(game, "confess")
    assert game.view("p2")["entities"]["p1"]["props"]["role"] == "crew"
    assert game.view("p3")["entities"]["p1"]["props"]["role"] == "crew"
    choose_action(game, "unconfess", who="p2")
    assert "role" not in game.view("p2")["entities"]["p1"]["props"]
    assert game.view("p3")["entities"]["p1"]["props"]["role"] == "crew"
    assert game.state.revealed == {"p1": {"role": ["p1", "p3"]}}


def test_a_change_of_a_revealed_property_reaches_who_sees_it(tmp_path):
    game = _game(tmp_path)
    card = game.state.zones["hand:p1"][0]
    choose_action(game, "expose", c=card)
    assert game.view("p1")["entities"][card]["props"]["secret"] == 8
    mine = [e for e in game.events_for("p1") if e["type"] == "changed" and e["property"] == "secret"]
    theirs = [e for e in game.events_for("p2") if e["type"] == "changed" and e["property"] == "secret"]
    assert [e["value"] for e in mine] == [8] and theirs == []


def test_a_revealed_property_keeps_the_value_it_showed_in_the_history(tmp_path):
    """The reveal's event says the value as it was shown; the view says it as it is now."""
    game = _game(tmp_path)
    card = game.state.zones["hand:p1"][0]
    choose_action(game, "expose", c=card)
    [shown] = [e for e in game.events_for("p1") if e["type"] == "revealed"]
    assert (shown["entity"], shown["property"], shown["value"]) == (card, "secret", 7)
    assert game.view("p1")["entities"][card]["props"]["secret"] == 8


def test_a_property_of_a_thing_the_player_does_not_see_shows_no_value(tmp_path):
    game = _game(tmp_path)
    card = game.state.zones["hand:p1"][0]
    choose_action(game, "whisper", c=card, friend="p2")
    [shown] = [e for e in game.events_for("p2") if e["type"] == "revealed"]
    assert (shown["entity"], shown["value"]) == ("?", "?")
    assert not [e for e in game.events_for("p3") if e["type"] == "revealed"]


def test_reveals_survive_a_save_and_a_game_without_any_writes_no_field(tmp_path):
    game = _game(tmp_path)
    assert "revealed" not in json.loads(game.state.dumps())
    assert "revealed" not in game.state.to_json()
    card = game.state.zones["hand:p1"][0]
    choose_action(game, "show", c=card, friend="p3")
    saved = GameState.from_json(json.loads(game.state.dumps()))
    assert saved.revealed == {card: {"*": ["p3"]}}
    assert saved.clone().revealed == {card: {"*": ["p3"]}}


def test_a_card_shown_to_a_player_is_named_to_them_when_it_moves_between_hidden_zones(tmp_path):
    rules = RULES + """
action pass_on:
    with c: card in contents(hand(current_player))
    do:
        move c to hand(next_player(current_player))
"""
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(4, 4), round_limit=2) + DATA, "main.rules": rules})
    game = Game(rs, 4, 1)
    card = game.state.zones["hand:p1"][0]
    choose_action(game, "show", c=card, friend="p3")
    choose_action(game, "pass_on", c=card)
    players = ("p2", "p3", "p4")
    moved = {p: [e["entity"] for e in game.events_for(p) if e["type"] == "moved"] for p in players}
    assert moved == {"p2": [card], "p3": [card], "p4": ["?"]}  # p2 receives it, p3 was shown it
    taken = {p: [e for e in game.events_for(p) if e["type"] == "action_taken"][-1]["args"]["c"] for p in players}
    assert taken == {"p2": "?", "p3": card, "p4": "?"}
    assert card in game.view("p3")["entities"] and card not in game.view("p4")["entities"]


def test_a_shuffle_ends_a_reveal_to_those_who_do_not_see_the_zone(tmp_path):
    # a card shown to p2, given back into a secret deck and shuffled, is not known to p2
    # when it is drawn again: among alike backs nobody can tell which is which
    rules = RULES + """
action bury:
    with c: card in contents(hand(current_player))
    do:
        move c to deck
        shuffle deck

action draw:
    do:
        move top(deck) to hand(current_player)
"""
    data = DATA.replace("zones:\n", "zones:\n  deck: {visible_to: nobody}\n")
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(3, 3), round_limit=2) + data, "main.rules": rules})
    game = Game(rs, 3, 1)
    card = game.state.zones["hand:p1"][0]
    choose_action(game, "show", c=card, friend="p2")
    choose_action(game, "bury", c=card)
    assert game.state.revealed == {}
    assert card not in game.view("p2")["entities"] and game.view("p2")["zones"]["deck"] == {"count": 1}
    hidden = [e for e in game.events_for("p2") if e["type"] == "hidden"]
    assert [(e["entity"], e["players"]) for e in hidden] == [(card, ["p2"])]
    assert not [e for e in game.events_for("p3") if e["type"] == "hidden"], "p3 was never shown it"
    choose_action(game, "draw")
    assert [e["entity"] for e in game.events_for("p2") if e["type"] == "moved"][-1] == "?"


def test_a_shuffle_of_a_zone_everyone_sees_takes_nothing_back(tmp_path):
    rules = RULES + """
action lay:
    with c: card in contents(hand(current_player))
    do:
        move c to table
        shuffle table
"""
    data = DATA.replace("zones:\n", "zones:\n  table: {}\n")
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(3, 3), round_limit=2) + data, "main.rules": rules})
    game = Game(rs, 3, 1)
    card = game.state.zones["hand:p1"][0]
    choose_action(game, "show", c=card, friend="p2")
    choose_action(game, "lay", c=card)
    assert game.state.revealed == {card: {THING: ["p2"]}}
    assert not [e for e in game.events if e["type"] == "hidden"]
