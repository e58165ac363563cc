"""Hidden information: what a player's view and event stream show and hide."""

from __future__ import annotations

import pytest
from engine_rulesets import build, choose_action, game_yaml

from rulecraft.interpreter.game import Game

DATA = """
kinds:
  player:
    properties:
      score: {type: number, default: 0}
      secret: {type: number, default: 0, visible_to: owner}
      fate: {type: text, default: unknown, visible_to: nobody}
  card:
    located_in: zone
    owner: holder
    properties:
      holder: player
      rank: number
      mark: {type: text, default: plain, visible_to: owner}
zones:
  deck: {visible_to: nobody}
  stack: {visible_to: nobody, top_visible: true}
  table: {}
  hand: {per_player: true, visible_to: owner}
components:
  - {name: a, kind: card, zone: deck, properties: {rank: 1}}
  - {name: b, kind: card, zone: deck, properties: {rank: 2}}
  - {name: c, kind: card, zone: deck, properties: {rank: 3}}
  - {name: d, kind: card, zone: stack, properties: {rank: 4}}
  - {name: e, kind: card, zone: stack, properties: {rank: 5}}
  - {name: f, kind: card, zone: table, properties: {rank: 6}}
"""

RULES = """
procedure setup():
    do:
        for each p in players:
            move top(deck) to hand(p)
        let one = first(players)
        let two = last(players)
        set one.secret = 7
        set two.fate = "doomed"
        set f.holder = first(players)
        set f.mark = "x"

procedure round():
    do:
        for each p in players:
            play_turn(p)

action reveal:
    with card: card in contents(hand(current_player))
    do:
        move card to table

action whisper:
    limit 1 per turn
    do:
        set current_player.secret += 1
"""


@pytest.fixture
def game(tmp_path):
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 3)) + DATA, "main.rules": RULES})
    return Game(rs, 2, 1)


def test_owner_zone_is_listed_for_its_owner_and_counted_for_others(game):
    assert game.view("p1")["zones"]["hand:p1"] == ["a"]
    assert game.view("p2")["zones"]["hand:p1"] == {"count": 1}
    assert game.view("p2")["zones"]["hand:p2"] == ["b"]
    assert game.view("p1")["zones"]["hand:p2"] == {"count": 1}


def test_cards_in_a_hidden_zone_are_absent_from_other_views(game):
    assert "a" in game.view("p1")["entities"]
    assert "a" not in game.view("p2")["entities"]
    assert "b" not in game.view("p1")["entities"]


def test_nobody_zone_is_only_counted(game):
    for p in ("p1", "p2"):
        view = game.view(p)
        assert view["zones"]["deck"] == {"count": 1}
        assert "c" not in view["entities"]


def test_top_visible_zone_shows_its_top_only(game):
    view = game.view("p2")
    assert view["zones"]["stack"] == {"count": 2, "top": "d"}
    assert "d" in view["entities"] and view["entities"]["d"]["props"]["rank"] == 4
    assert "e" not in view["entities"]


def test_public_zone_is_listed_for_everyone(game):
    for p in ("p1", "p2"):
        assert game.view(p)["zones"]["table"] == ["f"]
        assert game.view(p)["entities"]["f"]["props"]["rank"] == 6


def test_owner_property_is_absent_from_other_players_views(game):
    mine = game.view("p1")["entities"]["p1"]["props"]
    theirs = game.view("p2")["entities"]["p1"]["props"]
    assert mine["secret"] == 7
    assert "secret" not in theirs
    assert theirs["score"] == 0, "public properties stay visible"


def test_owner_property_of_an_owned_thing(game):
    assert game.view("p1")["entities"]["f"]["props"]["mark"] == "x"
    assert "mark" not in game.view("p2")["entities"]["f"]["props"]


def test_nobody_property_is_absent_from_every_view(game):
    assert game.state.entities["p2"]["props"]["fate"] == "doomed"
    for p in ("p1", "p2"):
        assert "fate" not in game.view(p)["entities"]["p2"]["props"]


def test_drawn_card_is_shown_to_its_new_owner_only(game):
    draw_p1 = next(e for e in game.events if e["type"] == "moved" and e["destination"] == "hand:p1")
    assert draw_p1["entity"] == "a"
    mine = [e for e in game.events_for("p1") if e["type"] == "moved" and e["destination"] == "hand:p1"]
    theirs = [e for e in game.events_for("p2") if e["type"] == "moved" and e["destination"] == "hand:p1"]
    assert [e["entity"] for e in mine] == ["a"]
    assert [e["entity"] for e in theirs] == ["?"]
    assert theirs[0]["source"] == "deck", "where it came from and went to stay public"
    in_view = [e for e in game.view("p2")["events"] if e["type"] == "moved" and e["destination"] == "hand:p1"]
    assert [e["entity"] for e in in_view] == ["?"]


def test_the_full_event_log_is_not_changed_by_views(game):
    game.events_for("p2")
    game.view("p2")
    draw_p1 = next(e for e in game.events if e["type"] == "moved" and e["destination"] == "hand:p1")
    assert draw_p1["entity"] == "a"


def test_revealed_card_is_public(game):
    choose_action(game, "reveal", card="a")
    assert game.view("p2")["zones"]["table"] == ["a", "f"]
    reveal = [e for e in game.events_for("p2") if e["type"] == "moved" and e["destination"] == "table"]
    assert [e["entity"] for e in reveal] == ["a"]


def test_hidden_property_changes_are_not_announced_to_others(game):
    def secret_changes(player):
        return [e for e in game.events_for(player)
                if e["type"] == "changed" and e["property"] == "secret"]

    assert [e["value"] for e in secret_changes("p1")] == [7]
    assert secret_changes("p2") == []
    fate = [e for p in ("p1", "p2") for e in game.events_for(p) if e["type"] == "changed" and e["property"] == "fate"]
    assert fate == []


def test_public_property_changes_are_announced(game):
    holder = [e for e in game.events_for("p2") if e["type"] == "changed" and e["property"] == "holder"]
    assert [(e["entity"], e["value"]) for e in holder] == [("f", "p1")]


def test_options_are_shown_to_the_chooser_only(game):
    assert game.view("p1")["choice"]["kind"] == "action"
    assert {"action": "reveal", "args": {"card": "a"}} in game.view("p1")["choice"]["options"]
    assert game.view("p2")["choice"] is None


def test_turn_variables_are_shown_to_the_current_player_only(tmp_path):
    data = DATA + """
variables:
  turn:
    plan: {type: text, default: none_yet}
"""
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 3)) + data, "main.rules": RULES})
    game = Game(rs, 2, 1)
    assert game.view("p1")["vars"]["turn"] == {"plan": "none_yet"}
    assert game.view("p2")["vars"]["turn"] == {}


# ---------------------------------------------------------------- leaks found while writing these tests

SECRET_ACTIONS = RULES + """
action bury:
    with card: card in contents(hand(current_player))
    do:
        move card to bottom of deck

action bury_two:
    with pair: list of card in combinations(contents(hand(current_player)) + contents(table), 2)
    limit 1 per turn
    do:
        for each c in pair:
            move c to bottom of deck

action scribble:
    with card: card in contents(hand(current_player))
    limit 1 per turn
    do:
        set card.rank = 9
        set card.rank = 2
"""


@pytest.fixture
def secret_game(tmp_path):
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 3)) + DATA, "main.rules": SECRET_ACTIONS})
    return Game(rs, 2, 1)


def test_burying_a_hidden_card_hides_it_in_the_moved_event(secret_game):
    choose_action(secret_game, "bury", card="a")
    moved = [e for e in secret_game.events_for("p2") if e["type"] == "moved" and e["source"] == "hand:p1"]
    assert [e["entity"] for e in moved] == ["?"]


def test_action_arguments_do_not_reveal_hidden_cards(secret_game):
    def mentions(value, entity) -> bool:
        if isinstance(value, dict):
            return any(mentions(v, entity) for v in value.values())
        if isinstance(value, list):
            return any(mentions(v, entity) for v in value)
        return value == entity

    choose_action(secret_game, "bury", card="a")
    assert secret_game.state.zones["deck"][-1] == "a"
    for event in secret_game.events_for("p2"):
        assert not mentions(event, "a"), event


def test_a_list_of_hidden_cards_as_an_argument_names_none_of_them_to_the_others(secret_game):
    """A pair chosen with `combinations` is told item by item, as one thing is: the card
    from the hand only to its owner, the card on the table to everyone."""
    choose_action(secret_game, "bury_two", pair=["a", "f"])
    [mine] = [e for e in secret_game.events_for("p1") if e["type"] == "action_taken"]
    [theirs] = [e for e in secret_game.events_for("p2") if e["type"] == "action_taken"]
    assert mine["args"] == {"pair": ["a", "f"]}
    assert theirs["args"] == {"pair": ["?", "f"]}
    for event in secret_game.events_for("p2"):
        assert "'a'" not in repr(event), event


def test_changes_made_while_hidden_stay_hidden_after_a_reveal(secret_game):
    choose_action(secret_game, "scribble", card="a")
    def ranks(player):
        return [e["value"] for e in secret_game.events_for(player)
                if e["type"] == "changed" and e["entity"] == "a"]
    assert ranks("p1") == [9, 2]
    assert ranks("p2") == []
    choose_action(secret_game, "reveal", card="a")
    assert secret_game.view("p2")["entities"]["a"]["props"]["rank"] == 2, "the card itself is public now"
    assert ranks("p2") == [], "but the history of its hidden changes is not"


def test_a_card_passed_between_hands_is_seen_by_both_players_only(tmp_path):
    rules = RULES + """
action give:
    with card: card in contents(hand(current_player))
    with q: player where q != current_player
    do:
        move card to hand(q)
"""
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 3)) + DATA, "main.rules": rules})
    game = Game(rs, 3, 1)
    choose_action(game, "give", card="a", q="p2")

    def passes(player):
        return [e["entity"] for e in game.events_for(player)
                if e["type"] == "moved" and e["source"] == "hand:p1" and e["destination"] == "hand:p2"]

    assert passes("p1") == ["a"]
    assert passes("p2") == ["a"]
    assert passes("p3") == ["?"]
    assert game.view("p2")["zones"]["hand:p2"] == ["a", "b"]
    assert game.view("p3")["zones"]["hand:p2"] == {"count": 2}


def test_an_event_told_to_everyone_names_a_hidden_card_only_to_who_may_see_it(tmp_path):
    """`emit` without `to` naming a card in a hand: the card is "?" to the others, as in
    a move or an action's argument; told `to` players, it is named to them as the rule chose."""
    rules = RULES + """
action announce:
    with card: card in contents(hand(current_player))
    limit 1 per turn
    do:
        emit dealt(player: current_player, card: card, cards: [card, f])
        emit whispered(card: card) to players
"""
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 3)) + DATA, "main.rules": rules})
    game = Game(rs, 2, 1)
    choose_action(game, "announce", card="a")
    [mine] = [e for e in game.events_for("p1") if e["type"] == "dealt"]
    [theirs] = [e for e in game.events_for("p2") if e["type"] == "dealt"]
    assert (mine["card"], mine["cards"]) == ("a", ["a", "f"])
    assert (theirs["player"], theirs["card"], theirs["cards"]) == ("p1", "?", ["?", "f"])
    assert [e["card"] for e in game.events_for("p2") if e["type"] == "whispered"] == ["a"]
