"""Star Trek: Panic's heuristic (rules/star_trek_panic/strategy.rules): what its features
read on a position set up by hand, that the greedy bot playing by it saves the ship
more often than random play, and how the search bot judges a cooperative game's
playouts that it cuts short."""

from functools import lru_cache
from pathlib import Path

from rulecraft.bots import mcts as mcts_module
from rulecraft.bots.evaluation import CutoffShares, Evaluation
from rulecraft.bots.mcts import MCTSBot
from rulecraft.cli.simulate import play_row
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.views import player_view

RULES = Path(__file__).resolve().parent.parent / "rules" / "star_trek_panic"


@lru_cache(maxsize=None)
def ruleset():
    return load_checked(RULES)


def features(state, seat="p1") -> dict[str, float]:
    return {label: value for _, label, _, value in Evaluation(ruleset()).features(player_view(ruleset(), state, seat))}


def board(state, placed: dict[str, str]) -> None:
    """Clear the board, then put each named threat on the named space, face up."""
    for eid, entity in state.entities.items():
        if entity["kind"] == "threat" and entity["at"] not in ("threat_bag", "threat_discard"):
            state.zones[entity["at"]].remove(eid)
            state.zones["threat_discard"].append(eid)
            entity["at"] = "threat_discard"
    for eid, space in placed.items():
        entity = state.entities[eid]
        state.zones[entity["at"]].remove(eid)
        state.zones[space].append(eid)
        entity["at"] = space


def facing(state, name):
    return state.entities[name]["props"]


def test_fire_is_read_by_what_each_threat_will_do_in_phase_6():
    game = Game(ruleset(), 2, seed=3)
    state = game.state
    # bow_starboard points at sector 1, starboard at 2, port at 5
    board(state, {"romulan_battle_cruiser.1": "medium_1",  # moves to short range, then fires 1
                  "klingon_cruiser.1": "short_2",  # no shield before it: boards for its defence, 2
                  "romulan_bird_of_prey.1": "long_5",  # face up and cloaking: it cloaks, no fire
                  "romulan_bird_of_prey.2": "medium_5",  # cloaked: it uncloaks and fires 2
                  "tholian_ship.1": "short_1"})  # a Tholian at short range neither moves nor fires
    state.entities["romulan_bird_of_prey.2"]["props"]["cloaked"] = True
    facing(state, "starboard")["shield_hits"] = 2
    read = features(state)
    assert read["fire at the shields"] == 1 + 2
    assert read["fire at the bare hull"] == 2
    assert read["enemy defence on the board"] == 3 + 2 + 2 + 2 + 2
    assert read["shield hits"] == 2 and read["hull hits"] == 0
    # with the shield rebuilt the same cruiser stays at short range and fires 1 instead
    facing(state, "starboard")["shield_hits"] = 0
    read = features(state)
    assert read["fire at the shields"] == 1 + 1 + 2 and read["fire at the bare hull"] == 0


def test_damage_missions_and_lost_cards_are_read_from_the_table():
    game = Game(ruleset(), 2, seed=3)
    state = game.state
    facing(state, "port")["hull_hits"] = 2
    facing(state, "bow_port")["hull_hits"] = 1
    state.vars["game"]["missions_completed"] = 2
    for card in state.zones["enterprise_deck"][:3]:
        state.zones["enterprise_deck"].remove(card)
        state.zones["removed_cards"].append(card)
        state.entities[card]["at"] = "removed_cards"
    read = features(state)
    assert read["hull hits"] == 3 and read["hull sections destroyed"] == 1
    assert read["missions complete"] == 2 and read["cards removed from the game"] == 3
    # both seats judge alike: nothing in the heuristic reads a hand
    assert features(state, "p2") == read


def test_the_greedy_crew_saves_the_ship_far_more_often_than_random_play():
    seeds = range(10)
    greedy = sum(play_row(ruleset(), 0, s, 4, ["greedy"] * 4)["side"] == "crew" for s in seeds)
    random_play = sum(play_row(ruleset(), 0, s, 4, ["random"] * 4)["side"] == "crew" for s in seeds)
    assert greedy >= random_play + 3, (greedy, random_play)


def test_a_cut_off_is_worth_the_share_of_the_searchs_earlier_cut_offs_it_beats():
    shares = CutoffShares()
    assert shares.place(10.0) == 0.5  # nothing to compare with yet
    assert shares.place(20.0) == 1.0  # better than all before it
    assert shares.place(0.0) == 0.0  # worse than all
    assert shares.place(10.0) == (1 + 0.5) / 3  # above one of three, level with one
    assert shares.place(15.0) == 3 / 4


def test_the_search_compares_a_cooperative_games_cut_offs_not_its_seats(monkeypatch):
    """Every seat of a cooperative game shares one worth, so comparing the seats gives
    0.5 to all of them; the search compares each cut-off with its other playouts instead."""
    rewards = []

    class Recording(CutoffShares):
        def reward(self, evaluation, state, memories=None):
            share = super().reward(evaluation, state, memories)
            rewards.append(share)
            return share

    monkeypatch.setattr(mcts_module, "CutoffShares", Recording)
    bot = MCTSBot(5, iterations=12, cutoff=4)
    bot.learn_rules(ruleset())
    game = Game(ruleset(), 2, seed=7)
    while not rewards and game.result is None:
        view = game.view(game.pending.player)
        game.choose(bot.choose(view))
    assert len(rewards) >= 6
    assert len(set(rewards)) > 2 and min(rewards) < 0.5 < max(rewards)
