"""Panic Station setup (rulebook-en: Game Setup), checked over many seeds."""

import shutil
from pathlib import Path

import pytest
from panic_station import new_game

from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game

RULES = Path(__file__).resolve().parent.parent / "rules" / "panic_station"


@pytest.mark.parametrize("players", [4, 5, 6])
@pytest.mark.parametrize("seed", range(12))
def test_opening_hands_and_the_top_stack(players, seed):
    game = new_game(players, seed)
    s = game.state
    alerts_dealt = [e for e in game.events if e["type"] == "parasite_alert_revealed"]
    for p in s.players:
        hand = s.zones[f"hand:{p}"]
        infection = [c for c in hand if s.entities[c]["kind"] == "infection_card"]
        search = [c for c in hand if s.entities[c]["kind"] == "search_card"]
        # 3 infection cards of one's own colour plus 2 search cards: 5 cards
        assert len(hand) == 5
        assert len(infection) == 3 and all(s.entities[c]["props"]["owner"] == p for c in infection)
        assert len(search) == 2
        assert all(s.entities[c]["props"]["item"] != "parasite_alert" for c in search)
    # The 3P-card top stack holds P gas cans and the Host: whatever was not dealt of it
    # is still on top of the search deck.
    dealt = [c for p in s.players for c in s.zones[f"hand:{p}"] if s.entities[c]["kind"] == "search_card"]
    rest_of_stack = s.zones["search_deck"][: 3 * players - len(dealt) - len(alerts_dealt)]
    stack = dealt + rest_of_stack + [e["card"] for e in alerts_dealt]
    assert len(stack) == 3 * players
    items = [s.entities[c]["props"]["item"] for c in stack]
    assert items.count("host") == 1
    assert items.count("gas_can") >= players
    assert len(s.zones["search_deck"]) == 46 - len(dealt) - len(alerts_dealt)


@pytest.mark.parametrize("seed", range(40))
def test_a_parasite_alert_dealt_in_setup_puts_a_gray_parasite_in_the_reactor(seed):
    game = new_game(5, seed)
    alerts = [e for e in game.events if e["type"] == "parasite_alert_revealed"]
    parasites = [x for x in game.state.zones["reactor/main"] if game.state.entities[x]["kind"] == "parasite"]
    # The first parasite phase may already have moved them: count every parasite out.
    out = [x for x, e in game.state.entities.items() if e["kind"] == "parasite" and e["at"] != "parasite_supply"]
    assert len(out) == len(alerts)
    assert all(not game.state.entities[x]["props"]["two_sided"] for x in out)
    assert len(parasites) <= len(alerts)


def test_some_seed_deals_a_parasite_alert_in_setup():
    # keeps the test above meaningful: the situation does occur
    assert any(e["type"] == "parasite_alert_revealed" for seed in range(40) for e in new_game(5, seed).events)


@pytest.mark.parametrize("seed", range(30))
def test_exploration_deck_hive_in_the_bottom_three_and_open_terminal_in_the_lower_pile(seed):
    s = new_game(5, seed).state
    deck = s.zones["exploration_deck"]
    assert len(deck) == 19 and "reactor" not in deck
    assert deck.index("hive") >= len(deck) - 3
    # 17 other cards: 9 on top, 8 below with the Open Terminal and the Hive
    assert deck.index("open_terminal") >= 9
    assert s.tiles["reactor"] == [0, 0, 0]


def test_the_hive_takes_each_of_the_bottom_three_positions():
    positions = {new_game(5, seed).state.zones["exploration_deck"].index("hive") for seed in range(60)}
    assert positions == {16, 17, 18}


def test_setup_is_identical_for_a_seed_and_differs_between_seeds():
    assert new_game(5, 7).state.dumps() == new_game(5, 7).state.dumps()
    assert new_game(5, 7).state.zones["search_deck"] != new_game(5, 8).state.zones["search_deck"]


def test_player_count_outside_the_rule_set_is_refused():
    with pytest.raises(ValueError, match="4 to 6"):
        new_game(3, 1)


def test_characters_start_at_the_starting_health_the_rule_set_gives(tmp_path):
    # The Character Cards in Detail: a character starts at full health, which is the
    # parameter a house rule changes; healing stops at it too.
    rules = tmp_path / "panic_station"
    shutil.copytree(RULES, rules, ignore=shutil.ignore_patterns("__pycache__"))
    (rules / "variants" / "tough.yaml").write_text(
        "variant:\n  name: tough\n  base: panic_station\n  title: Tough\n  text: Three health.\n"
        "parameters:\n  starting_health: 3\n", encoding="utf-8")
    for variant, health in (("tough", 3), (None, 4)):
        game = Game(load_checked(rules, variant=variant), 4, seed=7)
        characters = [e for e in game.state.entities.values() if e["kind"] == "character"]
        assert len(characters) == 8
        assert {e["props"]["health"] for e in characters} == {health}
