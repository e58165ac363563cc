"""Star Trek: Panic with random bots: whole games for every player count, ended by a
condition of the rules, reported for the cooperative side, and reproducible."""

from functools import lru_cache
from pathlib import Path

import pytest

from rulecraft.cli.simulate import main_sides, play_one, play_row
from rulecraft.dsl.loader import load_checked

RULES = Path(__file__).resolve().parent.parent / "rules" / "star_trek_panic"
ENDINGS = {"hull_destroyed_everywhere", "no_cards_left", "board_cleared_after_missions", "round limit"}


@lru_cache(maxsize=None)
def ruleset(variant=None):
    return load_checked(RULES, variant)


def test_the_crew_is_one_cooperative_side():
    assert main_sides(ruleset(), 4) == ("crew",)


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_random_games_end_by_a_condition_of_the_rules(players):
    for seed in range(3):
        row = play_row(ruleset(), 0, seed, players, ["random"] * players)
        assert row["error"] is None, row["error"]
        assert row["reason"] in ENDINGS, row
        if row["reason"] == "board_cleared_after_missions":
            assert row["side"] == "crew" and len(row["winners"]) == players
        else:
            assert row["winners"] == [] and row["side"] == "nobody"


def test_a_lost_ship_is_a_real_loss():
    """A defeat leaves six destroyed hull sections, or a player who could not draw after
    damage removed cards from the game."""
    for seed in range(6):
        game = play_one(ruleset(), 4, seed)
        props = {eid: e["props"] for eid, e in game.state.entities.items()}
        facings = [p for eid, p in props.items() if game.state.entities[eid]["kind"] == "facing"]
        if game.result["reason"] == "hull_destroyed_everywhere":
            assert all(f["hull_hits"] >= 2 for f in facings)
        elif game.result["reason"] == "no_cards_left":
            assert game.state.zones["removed_cards"]
            assert not game.state.zones["enterprise_deck"] and not game.state.zones["enterprise_discard"]


def test_same_seed_same_game():
    a = play_one(ruleset(), 4, 11)
    b = play_one(ruleset(), 4, 11)
    assert list(a.log_lines()) == list(b.log_lines())


@pytest.mark.parametrize("variant", ["no_missions", "ten_missions"])
def test_the_variants_play_whole_games(variant):
    for seed in range(2):
        row = play_row(ruleset(variant), 0, seed, 3, ["random"] * 3)
        assert row["error"] is None and row["reason"] in ENDINGS, row
