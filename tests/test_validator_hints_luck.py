"""What ``game_setup: shuffles`` fixes counts as arranged: a scenario drawing the card
it put on top of the setup's shuffle is neither warned about nor dealt again as lucky.
Nothing here knows a shipped game."""

from __future__ import annotations

import textwrap

import pytest
from engine_rulesets import build
from scenario_runs import explain
from test_81_scenario_arrange import GAME, RULES

from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.interpreter.game import Game
from rulecraft.validator import PASS, load_text, run_scenario
from rulecraft.validator.randomness import placed_by_shuffles


@pytest.fixture(scope="module")
def dealt(tmp_path_factory):
    return build(tmp_path_factory.mktemp("dealt"), {"game.yaml": GAME, "main.rules": RULES}, name="dealt")


def run_redealt(ruleset, text: str, redeals: int = 8):
    bag = DiagnosticBag()
    loaded = load_text(textwrap.dedent(text), "seeds/dealt/example.yaml", bag)
    assert loaded.ok, bag.render()
    return run_scenario(ruleset, loaded.scenarios[0], redeals=redeals)


# The setup shuffles the deck and deals two cards to p1, then two to p2: the fifth card
# fixed on top of the shuffle is the deck's top once the setup is done.
FIXED_TOP = """
    title: {title}
    cite: "dealt: Luck"
    seed: {seed}
    players: 2
    game_setup: {{shuffles: {{deck: [coin, coin, crown, coin, crown]}}}}
    setup: {{current: p1}}
    steps:
      - do: draw
    expect:
      zone:
        "hand:p1": {{where: {{points: 5}}, count: 1}}
"""


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_card_the_setups_fixed_shuffle_put_on_top_is_arranged(dealt, seed):
    result = run_redealt(dealt, FIXED_TOP.format(title="fixed top", seed=seed))
    assert result.status == PASS, explain(result)
    assert result.unarranged == [], result.unarranged
    assert result.redeal_failed is None


def test_placed_by_shuffles_names_the_copies_the_shuffle_took(dealt):
    coins = [f"coin.{i}" for i in range(1, 9)]
    crowns = [f"crown.{i}" for i in range(1, 4)]
    top = [coins, "coin.5", crowns, coins, crowns]
    game = Game(dealt, 2, 7, forced_rolls=_forced(top))
    assert game.state.zones["deck"][0] == "crown.2"
    assert placed_by_shuffles(game, {"deck": top}) == {"coin.1", "coin.5", "crown.1", "coin.2", "crown.2"}
    # a zone the setup never shuffled places nothing
    assert placed_by_shuffles(game, {"discard": ["coin.3"]}) == set()


def _forced(top: list) -> dict:
    from rulecraft.interpreter.state import forced_shuffle_key
    return {forced_shuffle_key("deck"): [top]}


def test_without_the_fixed_top_the_same_draw_is_luck(dealt):
    # The same draw with the setup's shuffle left to the seed: warned about.
    result = run_redealt(dealt, FIXED_TOP.format(title="unfixed", seed=1).replace(
        "game_setup: {shuffles: {deck: [coin, coin, crown, coin, crown]}}", "game_setup: {}"), 0)
    assert result.unarranged and result.unarranged[0].startswith("draws 1 card(s) from deck")


def test_what_a_later_shuffle_of_the_setup_finds_in_the_deck_is_not_arranged(tmp_path):
    # the setup deals two cards each, then shuffles the deck again: the dealt cards stay
    # arranged, the fixed fifth card is back to chance
    twice = build(tmp_path, {"game.yaml": GAME, "main.rules": RULES.replace(
        "        move first(contents(supply)) to pool\n", "        move first(contents(supply)) to pool\n        shuffle deck\n")},
        name="dealt")
    top = ["coin.1", "coin.2", "crown.1", "coin.3", "crown.2"]
    game = Game(twice, 2, 3, forced_rolls=_forced(top))
    assert placed_by_shuffles(game, {"deck": top}) == {"coin.1", "coin.2", "crown.1", "coin.3"}
