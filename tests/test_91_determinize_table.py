"""The search bot's copy of a game keeps the table its seat sees.

Each test breaks one way the copy (`rulecraft.bots.determinize.Tracker`) used to drift
from the real game in Star Trek: Panic, where hands are on the table, the Enterprise deck
holds many kinds of card and threats come out of a bag:

- setup deals a hand card of another kind than the copy dealt there;
- the seat passes a reaction (which shows nothing to anyone) and the copy, still waiting
  at that reaction, took it for the seat's next choice;
- a choice inside a rule shows only in a property's change, or chance drew otherwise in
  the copy, and the copy went on from a table the seat does not see;
- in Panic Station, the card a trader hands over face down shows only when the trade
  ends, after the other trader's choice, and the copy had guessed it otherwise.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from benchmark_scripts import load_script

import rulecraft.bots.determinize as determinize
from rulecraft.bots import make_bot
from rulecraft.bots.determinize import Tracker, _put_in_place, _same_event
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.views import HIDDEN, player_view

RULES = Path(__file__).resolve().parent.parent / "rules"


@pytest.fixture(scope="module")
def star_trek():
    return load_checked(RULES / "star_trek_panic")


def _table(view: dict) -> dict:
    """The visible zones of a view, each as a set (a hand's order is the dealer's)."""
    return {z: sorted(v) for z, v in view["zones"].items() if isinstance(v, list)}


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_setup_deals_the_copy_the_hands_and_threats_the_seat_saw(star_trek, seed):
    """What the seat saw dealt in setup is dealt so in the copy, whatever kind of card
    the copy had drawn in its place: a fore hit where the real game dealt an any-arc one."""
    game = Game(star_trek, 2, seed)
    tracker = Tracker(star_trek, 2, "p1", random.Random(seed))
    view = game.view("p1")
    assert _table(player_view(star_trek, tracker.state, "p1")) != _table(view)  # a copy deals otherwise
    tracker._events = view["events"]
    tracker._align_setup()
    assert _table(player_view(star_trek, tracker.state, "p1")) == _table(view)
    counts = {z: v["count"] for z, v in view["zones"].items() if isinstance(v, dict)}
    mine = player_view(star_trek, tracker.state, "p1")["zones"]
    assert {z: mine[z]["count"] for z in counts} == counts  # swaps, nothing added or lost


def test_the_seats_own_pass_is_played_in_the_copy(star_trek):
    """Seed 4: the seat passes a reaction to boarders with a Security card in hand. The
    pass shows nothing; told of it, the copy plays it, and at the seat's next choice has
    shown the seat every event it saw. Untold, the copy would still wait at the reaction
    and take it for the next choice, events behind the real game."""
    game = Game(star_trek, 2, 4)
    tracker = Tracker(star_trek, 2, "p1", random.Random(3000))
    bots = {"p1": make_bot("random", 3000), "p2": make_bot("random", 3001)}
    passed_at = None
    while not game.over:
        choice = game.pending
        view = game.view(choice.player)
        mine = choice.player == "p1" and len(choice.options) > 1
        if mine:
            assert tracker.follow(view) and tracker.resyncs == 0
            assert tracker._pos == len(view["events"])
            if passed_at is not None:
                assert len(view["events"]) > passed_at  # the real game went on since
                break
        index = bots[choice.player].choose(view)
        if mine:
            tracker.answered(view, index)
            if choice.kind == "reaction" and choice.options[index].get("reaction") == "pass":
                passed_at = len(view["events"])
        game.choose(index)
    assert passed_at is not None, "the seat never passed a reaction it could have played"


def test_the_copy_takes_the_table_the_seat_sees(star_trek):
    """After following, what the copy shows its seat is the view: a card the copy holds
    in the wrong hand changes places, a property and a variable take the seen values."""
    game = Game(star_trek, 2, 3)
    tracker = Tracker(star_trek, 2, "p1", random.Random(1))
    view = game.view("p1")
    assert tracker.follow(view)
    state = tracker.state
    hand, deck = state.zones["hand:p1"], state.zones["enterprise_deck"]
    outsider, card = deck[5], hand[2]
    hand[2], deck[5] = outsider, card  # the copy drew another card than the real game
    state.entities[outsider]["at"], state.entities[card]["at"] = "hand:p1", "enterprise_deck"
    state.entities["bow_port"]["props"]["shield_hits"] = 2
    state.vars["game"]["timer"] = 99
    tracker._take_what_is_seen(view)
    mine = player_view(star_trek, tracker.state, "p1")
    assert mine["zones"]["hand:p1"] == view["zones"]["hand:p1"]
    assert tracker.state.zones["enterprise_deck"][5] == outsider  # it went where the other came from
    assert mine["zones"]["enterprise_deck"] == view["zones"]["enterprise_deck"]
    assert mine["entities"]["bow_port"]["props"] == view["entities"]["bow_port"]["props"]
    assert mine["vars"] == view["vars"]


def test_a_zone_is_put_in_place_by_exchanges(star_trek):
    game = Game(star_trek, 2, 1)
    state = game.state.clone()
    hand = list(state.zones["hand:p2"])
    deck = list(state.zones["enterprise_deck"])
    wanted = [deck[0]] + hand[1:]  # the seat sees the deck's top card where hand[0] is
    assert _put_in_place(state, "hand:p2", wanted)
    assert state.zones["hand:p2"] == wanted
    assert state.zones["enterprise_deck"] == [hand[0]] + deck[1:]
    assert state.entities[hand[0]]["at"] == "enterprise_deck"
    assert state.entities[deck[0]]["at"] == "hand:p2"
    assert not _put_in_place(state, "hand:p2", wanted)  # in place already


def test_an_event_is_the_one_seen_numbering_and_masks_aside():
    seen = {"type": "moved", "entity": HIDDEN, "source": "enterprise_deck", "destination": "hand:p2", "seq": 40}
    assert _same_event(seen, {"type": "moved", "entity": "security_card.3", "source": "enterprise_deck",
                              "destination": "hand:p2"})
    assert not _same_event(seen, {"type": "moved", "entity": "security_card.3", "source": "enterprise_deck",
                                  "destination": "removed_cards"})
    assert not _same_event(seen, {"type": "changed", "entity": "security_card.3"})
    assert not _same_event({"type": "rolled", "die": "d6", "value": 5, "seq": 3},
                           {"type": "rolled", "die": "d6", "value": 4})


@pytest.mark.parametrize("seed", [102, 141])
def test_hidden_choices_are_judged_by_every_event_they_lead_to(seed, monkeypatch):
    """Panic Station, 5 players, the copy following p1 over ten of its decisions: taking
    only options whose every event is the one the seat saw, and backing up when a later
    event disagrees, the copy is never put back in step and has shown the seat every
    event it saw. Following by the decisions alone (the first pass given no steps), the
    same games needed it (the check can fail)."""
    follow_game = load_script("tracker_follow").follow_game
    ruleset = load_checked(RULES / "panic_station")
    figures = follow_game(ruleset, 5, seed, "p1", 10)
    assert figures["decisions"] == 10 and figures["put back in step"] == 0
    assert figures["shown every event"] == 10
    monkeypatch.setattr(determinize, "STRICT_STEPS", 0)
    assert follow_game(ruleset, 5, seed, "p1", 10)["put back in step"] > 0
