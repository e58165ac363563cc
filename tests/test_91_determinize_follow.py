"""The search bot's copy of a game follows what its seat saw where setup shuffled the
visible hands: in Star Trek: Panic (hands on the table, decks of many kinds of card
shuffled in setup, threats drawn from a bag) the copy follows setup and its first eight
searches without being put back in step (`Tracker._resync`), every decision the seat saw
is one the copy made, and the copy has shown the seat every event it saw, no more.

The copy used to be put back in step in about half of such games: setup's hands were
dealt only where the copy had drawn a card of the same kind there, the seat's own passes
(which show nothing) were not played in the copy, and a choice inside a rule that showed
only a property's change was guessed among all its options."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecraft.bots import make_bot, view_for
from rulecraft.bots.determinize import DECISION_EVENTS, _decision_key
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game

RULES = Path(__file__).resolve().parent.parent / "rules"


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_copy_follows_a_game_dealt_by_shuffles(seed):
    rs = load_checked(RULES / "star_trek_panic")
    game = Game(rs, 2, seed)
    searcher = make_bot("mcts:1", 1000)
    bots = {"p1": searcher, "p2": make_bot("random", 1001)}
    searched = 0
    while not game.over and searched < 8:
        choice = game.pending
        bot = bots[choice.player]
        view = view_for(game, bot, choice.player)
        index = bot.choose(view)
        if bot is searcher and len(choice.options) > 1:
            tracker = searcher._tracker
            assert not tracker.lost and tracker.resyncs == 0, f"search {searched}"
            seen = [_decision_key(e) for e in view["events"] if e["type"] in DECISION_EVENTS]
            assert [d for d in tracker._seen if d[0] != "answered"] == seen
            assert tracker._pos == len(view["events"]), f"search {searched}"
            searched += 1
        game.choose(index)
    assert searched == 8
