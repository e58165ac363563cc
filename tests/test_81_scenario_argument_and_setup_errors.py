"""A scenario's own mistakes are BROKEN, at the value in the YAML, with a hint, not a
FAIL that blames the rules: an action argument naming no thing, a component of several
copies the options offer more than one of, a thing a setup block uses twice. And a
component written without its number in a step's arguments stands for the copy the
options offer, as it does in ``deal``."""

from __future__ import annotations

import pytest
from engine_rulesets import build
from scenario_runs import errors_in, explain, only_error_in, run_one

from rulecraft.validator import FAIL, PASS

GAME = """\
game:
  name: swaps
  players: {min: 2, max: 3}
  setup: setup
  round: round
  round_limit: 4
kinds:
  player:
    properties:
      score: {type: number, default: 0}
  card:
    located_in: zone
    properties:
      worth: {type: number, default: 1}
zones:
  pile: {visible_to: nobody}
  hand: {per_player: true, ordered: false}
  spent: {}
components:
  - {name: coin, kind: card, count: 3, zone: pile}
  - {name: crown, kind: card, count: 1, zone: pile, properties: {worth: 5}}
  - {name: pebble, kind: card, count: 4, zone: pile, properties: {worth: 0}}
"""

RULES = """\
procedure setup():
    do:
        shuffle pile
        for each p in players:
            move top(pile) to hand(p)

procedure round():
    do:
        for each p in players:
            play_turn(p)

action spend:
    with c: card in contents(hand(current_player))
    with target: player where target != current_player
    do:
        move c to spent
        set target.score += c.worth
        emit spent_card(card: c, target: target)

procedure reward(p: player, c: card):
    do:
        set p.score += c.worth
"""

FILE = "seeds/swaps/example.yaml"


def run(ruleset, text: str):
    return run_one(ruleset, text, FILE)


def only_error(result):
    return only_error_in(result, FILE)


@pytest.fixture(scope="module")
def swaps(tmp_path_factory):
    return build(tmp_path_factory.mktemp("swaps"), {"game.yaml": GAME, "main.rules": RULES}, name="swaps")


# ---------------------------------------------------------------- arguments that name no thing


def test_a_misspelt_thing_in_a_steps_arguments_is_broken_at_the_value(swaps):
    result = run(swaps, """\
        title: typo
        cite: "swaps: Spend"
        setup:
          current: p1
          deal: {p1: [coin.1], p2: [crown]}
        steps:
          - {do: spend, args: {c: cion.1, target: p2}}
        """)
    d = only_error(result)
    assert d.message == "no thing 'cion.1' (the argument 'c' is a card)"
    assert d.hint == "did you mean 'coin.1'?"
    assert (d.position.line, d.position.column) == (7, 27)
    assert d.position.end_column == 33  # the caret runs under the whole value


def test_a_misspelt_player_in_a_steps_arguments_is_broken(swaps):
    result = run(swaps, """\
        title: typo
        cite: "swaps: Spend"
        setup:
          current: p1
          deal: {p1: [coin.1]}
        steps:
          - {do: spend, args: {c: coin.1, target: p5}}
        """)
    d = only_error(result)
    assert d.message == "no thing 'p5' (the argument 'target' is a player)"
    assert d.hint == "the players are p1, p2"
    assert (d.position.line, d.position.column) == (7, 43)


def test_a_misspelt_thing_in_an_illegal_option_is_broken_not_passed(swaps):
    # Nothing is called 'crwn': "not offered" would hold for ever.
    result = run(swaps, """\
        title: typo
        cite: "swaps: Spend"
        setup:
          current: p1
          deal: {p1: [coin.1], p2: [crown]}
        expect:
          illegal:
            - {do: spend, args: {c: crwn}}
        """)
    d = only_error(result)
    assert d.message == "no thing 'crwn' (the argument 'c' is a card)"
    assert d.hint == "did you mean 'crown'?"
    assert d.position.line == 8


# ---------------------------------------------------------------- a component for one of its copies


def test_a_component_in_a_steps_arguments_is_the_copy_the_options_offer(swaps):
    result = run(swaps, """\
        title: one coin
        cite: "swaps: Spend"
        setup:
          current: p1
          deal: {p1: [coin.2], p2: [crown]}
        steps:
          - {do: spend, args: {c: coin, target: p2}}
        expect:
          at: {coin.2: spent}
          props: {p2: {score: 1}}
          legal: []
        """)
    assert result.status == PASS, explain(result)


def test_a_component_in_legal_and_illegal_options_is_any_of_its_copies(swaps):
    result = run(swaps, """\
        title: options
        cite: "swaps: Spend"
        setup:
          current: p1
          deal: {p1: [coin.3], p2: [crown]}
        expect:
          legal:
            - {do: spend, args: {c: coin}}
          illegal:
            - {do: spend, args: {c: pebble}}
        """)
    assert result.status == PASS, explain(result)


def test_a_component_the_options_offer_two_copies_of_is_broken_at_the_value(swaps):
    result = run(swaps, """\
        title: two coins
        cite: "swaps: Spend"
        setup:
          current: p1
          deal: {p1: [coin, coin], p2: [crown]}
        steps:
          - {do: spend, args: {c: coin, target: p2}}
        """)
    d = only_error(result)
    assert d.message == "'coin' stands for any of its copies, and p1 may use 2 of them here: coin.1, coin.2"
    assert d.hint == "write which: c: coin.1"
    assert (d.position.line, d.position.column) == (7, 27)


def test_a_component_in_a_fixed_pick_must_name_the_copy(swaps):
    result = run(swaps, """\
        title: pick
        cite: "swaps: Spend"
        setup:
          picks: [{do: spend, args: {c: pebble}}]
        """)
    d = only_error(result)
    assert d.message == "pebble has 4 copies: write pebble.N (pebble.1 … pebble.4)"
    assert d.position.line == 4


def test_because_with_a_component_must_name_the_copy(swaps):
    result = run(swaps, """\
        title: because
        cite: "swaps: Spend"
        setup:
          current: p1
          deal: {p1: [coin.1], p2: [crown]}
        expect:
          illegal:
            - {do: spend, args: {c: pebble, target: p2}, because: "not allowed"}
        """)
    d = only_error(result)
    assert d.message == "pebble has 4 copies: write pebble.N (pebble.1 … pebble.4)"
    assert (d.position.line, d.position.column) == (8, 29)


def test_because_without_every_argument_is_broken_at_because(swaps):
    # the option then stands for several, and the check could only fail as if the rules did
    result = run(swaps, """\
        title: because
        cite: "swaps: Spend"
        setup:
          current: p1
          deal: {p1: [coin.1], p2: [crown]}
        expect:
          illegal:
            - {do: spend, args: {c: coin.1}, because: "not allowed"}
        """)
    d = only_error(result)
    assert d.message == "'because' needs every argument of spend: target is missing"
    assert d.hint == "give target: ... in args, or drop 'because'"
    assert d.position.line == 8


# ---------------------------------------------------------------- a thing used twice in a setup


def test_a_single_thing_dealt_to_two_hands_is_broken_at_the_second(swaps):
    result = run(swaps, """\
        title: two crowns
        cite: "swaps: Deal"
        setup:
          deal: {p1: [coin, crown], p2: [crown]}
        expect:
          zone: {"hand:p1": {count: 2}}
        """)
    d = only_error(result)
    assert d.message == "crown has 1 copy and it is dealt to p1 already"
    assert d.hint == "a thing is in one place at a time: name it once"
    assert (d.position.line, d.position.column) == (4, 34)


def test_one_copy_named_in_a_hand_and_on_the_pile_is_broken(swaps):
    result = run(swaps, """\
        title: twice
        cite: "swaps: Deal"
        setup:
          hands: {p1: [coin.2]}
          deck_top: {pile: [pebble.1, coin.2]}
        """)
    d = only_error(result)
    assert d.message == "coin.2 is put in p1's hand already"
    assert d.hint == "a thing is in one place at a time: name it once (other copies: coin.1, coin.3)"
    assert (d.position.line, d.position.column) == (5, 31)


def test_more_copies_than_a_component_has_is_broken_at_the_one_too_many(swaps):
    result = run(swaps, """\
        title: four coins
        cite: "swaps: Deal"
        setup:
          deal: {p1: [coin, coin.3], p2: [coin]}
          deck_top: {pile: [coin]}
        """)
    d = only_error(result)
    assert d.message == "coin has 3 copies and the block already uses all of them"
    assert d.hint == "coin: dealt to p1; dealt to p1; dealt to p2 (a thing is in one place at a time)"
    assert (d.position.line, d.position.column) == (5, 21)


def test_a_placed_thing_dealt_again_is_broken(swaps):
    result = run(swaps, """\
        title: placed then dealt
        cite: "swaps: Deal"
        setup:
          place: {crown: spent}
          hands: {p2: [crown]}
        """)
    d = only_error(result)
    assert d.message == "crown has 1 copy and it is placed at spent already"
    assert d.position.line == 5


def test_distinct_copies_and_components_in_one_block_still_pass(swaps):
    result = run(swaps, """\
        title: all coins
        cite: "swaps: Deal"
        setup:
          current: p1
          deal: {p1: [coin, coin.1], p2: [crown]}
          deck_top: {pile: [coin, pebble, pebble]}
        expect:
          zone:
            "hand:p1": {count: 2, contains: [coin.1, coin.2]}
            "hand:p2": [crown]
          tally:
            - zones: [{zone: pile, top: 3}]
              ids: [coin.3, pebble.1, pebble.2]
              count: 3
        """)
    assert result.status == PASS, explain(result)


def test_a_procedure_called_with_a_value_of_another_type_is_broken_at_the_value(swaps):
    # a number for a player ran the rules, which stopped at 'unknown zone hand:3' in a
    # rule file the scenario's author never touched
    text = """
        title: a reward
        cite: "swaps: Rewards"
        steps:
          - {call: reward, args: [3, crown]}
          - {call: reward, args: [p1, p2]}
    """
    result = run(swaps, text)
    found = errors_in(result, FILE)
    assert [d.message for d in found] == [
        "3 is a number (the argument 'p' of reward is a player)",
        "'p2' is a player (the argument 'c' of reward is a card)"], result.bag.render()


def test_a_check_read_after_the_turn_passed_says_so(swaps):
    # a designer's 4th action ended the turn by itself: the failed 'because' did not say
    # that the check was now read in the next player's turn
    result = run(swaps, """
        title: after the turn
        cite: "swaps: Spending"
        players: 2
        setup:
          current: p1
          deal: {p1: [crown], p2: [coin.1]}
        steps:
          - end_turn: true
        expect:
          illegal:
            - {do: spend, args: {c: crown, target: p2}, because: "not your card"}
    """)
    assert result.status == FAIL, explain(result)
    [miss] = result.divergence.mismatches
    assert "the turn passed during the steps (p2's turn started); it is p2's now" in miss.note
