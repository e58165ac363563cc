"""A view reveals nothing about what it leaves out.

Two games that differ only in something hidden from a player (a secret property, an
event only its owner sees, a hidden card) must give that player identical views and
identical event streams, numbers included: the game's own event numbering counts
every event, so a gap in it would show where, and how many, events were hidden.
"""

from __future__ import annotations

import pytest
from engine_rulesets import build, choose_action, game_yaml

from rulecraft.bots import view_for
from rulecraft.interpreter.game import Game

DATA = """
kinds:
  player:
    properties:
      secret: {type: number, default: 0, visible_to: owner}
  card:
    located_in: zone
    properties:
      rank: number
zones:
  deck: {visible_to: nobody}
  table: {}
  hand: {per_player: true, visible_to: owner}
components:
  - {name: a, kind: card, zone: deck, properties: {rank: 1}}
  - {name: b, kind: card, zone: deck, properties: {rank: 2}}
  - {name: c, kind: card, zone: deck, properties: {rank: 3}}
  - {name: d, kind: card, zone: deck, properties: {rank: 4}}
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

action brood:
    limit 1 per turn
    do:
        if current_player.secret > 0:
            set current_player.secret += 1
            emit brooded(player: current_player) to current_player

action reveal:
    with card: card in contents(hand(current_player))
    do:
        move card to table
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    return build(tmp_path_factory.mktemp("streams"), {"game.yaml": game_yaml(players=(2, 3)) + DATA,
                                                      "main.rules": RULES})


def _play(rules, p1_secret: int) -> Game:
    """p1 broods (which, with a secret, changes it and tells p1 alone), then reveals
    their card (their second action ends the turn); p2 reveals theirs."""
    game = Game(rules, 2, 5)
    game.state.entities["p1"]["props"]["secret"] = p1_secret
    choose_action(game, "brood")
    card = game.state.zones["hand:p1"][0]
    choose_action(game, "reveal", card=card)
    assert game.pending.player == "p2"
    choose_action(game, "reveal", card=game.state.zones["hand:p2"][0])
    return game


def test_hidden_events_leave_no_trace_in_another_players_stream(rules):
    quiet, secret = _play(rules, 0), _play(rules, 1)
    # the two games differ: p1 saw two more events (their secret changed, brooded)
    assert len(secret.events) == len(quiet.events) + 2
    assert len(secret.events_for("p1")) == len(quiet.events_for("p1")) + 2
    # p2 can tell nothing apart: not the events, not their numbers, not the view
    assert secret.events_for("p2") == quiet.events_for("p2")
    assert secret.view("p2") == quiet.view("p2")


def test_each_viewer_numbers_their_own_stream_without_gaps(rules):
    game = _play(rules, 1)
    for player in game.state.players:
        stream = game.events_for(player)
        assert [e["seq"] for e in stream] == list(range(len(stream)))
        # a later part of the stream keeps its numbers
        assert game.events_for(player, since=3) == stream[3:]
        assert game.visible_count(player) == len(stream)
    assert [e["seq"] for e in game.events] == list(range(len(game.events))), "the log keeps the game's numbering"


def test_a_bot_reading_new_events_only_sees_the_same_stream(rules):
    class Reader:
        needs_events = "new"

    def streams(p1_secret: int) -> list[dict]:
        game = Game(rules, 2, 5)
        game.state.entities["p1"]["props"]["secret"] = p1_secret
        reader, seen = Reader(), []
        for action in ("brood", "end_turn"):
            seen += view_for(game, reader, "p2")["events"]
            choose_action(game, action)
        seen += view_for(game, reader, "p2")["events"]
        return seen

    quiet, secret = streams(0), streams(1)
    assert quiet == secret
    assert [e["seq"] for e in quiet] == list(range(len(quiet)))
