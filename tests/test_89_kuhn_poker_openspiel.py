"""Kuhn poker, the hidden-information yardstick, checked move for move against OpenSpiel.

Rulecraft deals with its own seeded generator; OpenSpiel's chance nodes are then
given the same cards (OpenSpiel numbers the jack, queen and king 0, 1, 2, and deals
to its player 0 first). At every decision rulecraft's options, with pass as action 0
and bet as action 1, are exactly OpenSpiel's legal actions; both games end at the
same step; the player who wins takes the loser's stake, which is OpenSpiel's returns.

OpenSpiel is an optional dependency, as for the other yardsticks: without it the
comparison skips unless ``RULECRAFT_REQUIRE_OPENSPIEL=1``. The test that a view never
shows the other player's card needs no OpenSpiel and always runs.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game

RULES = Path(__file__).resolve().parent.parent / "rules"
ACTION_ID = {"pass": 0, "bet": 1}  # OpenSpiel's Pass and Bet


def _ruleset():
    return load_checked(RULES / "kuhn_poker")


def _card(game: Game, player: str) -> str:
    (card,) = game.state.zones[f"hand:{player}"]
    return card


def _returns(game: Game) -> list[float]:
    """The chips each player ends with, won or lost: the winner takes the loser's stake."""
    (winner,) = game.result["winners"]
    loser = "p2" if winner == "p1" else "p1"
    won = game.state.entities[loser]["props"]["stake"]
    return [float(won), float(-won)] if winner == "p1" else [float(-won), float(won)]


def _play_both(ruleset, pyspiel, spiel_game, seed: int) -> tuple[str, list[float], int, str]:
    game = Game(ruleset, 2, seed, record_events=False)
    spiel = spiel_game.new_initial_state()
    for player in ("p1", "p2"):  # OpenSpiel's chance nodes deal the cards rulecraft dealt
        assert spiel.is_chance_node()
        rank = game.state.entities[_card(game, player)]["props"]["rank"]
        spiel.apply_action(rank - 1)
    pick = random.Random(seed)
    steps, history = 0, ""
    while not game.over:
        assert not spiel.is_terminal(), f"seed {seed}: OpenSpiel ended at step {steps}, rulecraft goes on"
        options = game.pending.options
        ids = [ACTION_ID[o["action"]] for o in options]
        assert sorted(ids) == spiel.legal_actions(), f"seed {seed}: legal moves differ at step {steps}: {options}"
        assert game.pending.player == f"p{spiel.current_player() + 1}"
        action = ids[pick.randrange(len(ids))]
        game.choose(ids.index(action))
        spiel.apply_action(action)
        history += "pb"[action]
        steps += 1
    assert spiel.is_terminal(), f"seed {seed}: rulecraft ended, OpenSpiel goes on"
    returns = _returns(game)
    assert returns == spiel.returns(), f"seed {seed}: {history}: rulecraft {returns}, OpenSpiel {spiel.returns()}"
    return game.result["winners"][0], returns, steps, history


def test_same_moves_deals_and_results_as_openspiel():
    try:
        import pyspiel
    except ImportError:  # pragma: no cover - depends on the machine
        if os.environ.get("RULECRAFT_REQUIRE_OPENSPIEL") == "1":
            raise
        pytest.skip("OpenSpiel is not installed (pip install -e '.[yardsticks]')")
    ruleset = _ruleset()
    spiel_game = pyspiel.load_game("kuhn_poker")
    games, steps = 600, 0
    histories, payoffs, winners, deals = set(), set(), {"p1": 0, "p2": 0}, set()
    for seed in range(games):
        winner, returns, n, history = _play_both(ruleset, pyspiel, spiel_game, seed)
        game = Game(ruleset, 2, seed, record_events=False)
        deals.add((_card(game, "p1"), _card(game, "p2")))
        steps += n
        histories.add(history)
        payoffs.add(returns[0])
        winners[winner] += 1
    # every betting line, every deal and every payoff was met, and both seats won
    assert histories == {"pp", "pbp", "pbb", "bp", "bb"}, histories
    assert len(deals) == 6, deals
    assert payoffs == {-2.0, -1.0, 1.0, 2.0}, payoffs
    assert winners["p1"] and winners["p2"], winners
    print(f"kuhn_poker: {games} games, {steps} moves compared, winners {winners}, lines {sorted(histories)}")


def test_the_same_seed_deals_the_same_cards_and_seeds_differ():
    ruleset = _ruleset()
    deal = lambda seed: (_card(Game(ruleset, 2, seed), "p1"), _card(Game(ruleset, 2, seed), "p2"))  # noqa: E731
    assert deal(3) == deal(3)
    assert len({deal(seed) for seed in range(40)}) == 6


def _shows(view: dict, card: str) -> bool:
    """Does a player's view name the card anywhere (as a thing, in a zone, in an event)?"""
    return card in repr({k: v for k, v in view.items()})


def test_a_view_never_shows_the_other_players_card_before_the_showdown():
    ruleset = _ruleset()
    showdowns = 0
    for seed in range(200):
        game = Game(ruleset, 2, seed)
        pick = random.Random(seed)
        cards = {p: _card(game, p) for p in ("p1", "p2")}
        while True:
            for me, other in (("p1", "p2"), ("p2", "p1")):
                view = game.view(me)
                assert _shows(view, cards[me]), f"seed {seed}: {me} does not see their own card"
                if not game.over or game.result["reason"] == "fold":
                    assert not _shows(view, cards[other]), f"seed {seed}: {me} sees {other}'s card"
                else:
                    assert _shows(view, cards[other]), f"seed {seed}: the showdown does not show {other}'s card"
            if game.over:
                showdowns += game.result["reason"] == "showdown"
                break
            game.choose(pick.randrange(len(game.pending.options)))
    assert showdowns > 0
