"""A value a scenario gives a property or a variable (in ``setup``, an ``arrange`` step,
or what it expects in ``expect``) must be one that property or variable can hold: of
its declared type, among its ``values:``, and, for a kind of thing, the id of a thing
of that kind. A typo there (``p9`` for a player) is the scenario's mistake: BROKEN at
the value, with a hint, not a FAIL that blames the rules."""

from __future__ import annotations

import pytest
from engine_rulesets import build
from scenario_runs import caret_text as at, errors_in, explain, only_error_in, run_one

from rulecraft.validator import PASS

GAME = """\
game:
  name: tallies
  players: {min: 2, max: 3}
  setup: setup
  round: round
  round_limit: 4
kinds:
  player:
    properties:
      score: {type: number, default: 0}
      ready: {type: bool, default: false}
      colour: {type: text, values: [red, blue], default: red}
      partner: {type: "player?"}
      favourite: {type: "card?"}
      allies: {type: list of player}
  card:
    located_in: zone
    properties:
      worth: {type: number, default: 1}
zones:
  pile: {visible_to: nobody}
  hand: {per_player: true, ordered: false}
components:
  - {name: coin, kind: card, count: 3, zone: pile}
  - {name: crown, kind: card, count: 1, zone: pile, properties: {worth: 5}}
variables:
  game:
    leader: {type: "player?", default: null}
    rounds_left: {type: number, default: 3}
  turn:
    spent: {type: bool, default: false}
"""

RULES = """\
procedure setup():
    do:
        for each p in players:
            move top(pile) to hand(p)

procedure round():
    do:
        for each p in players:
            play_turn(p)

action spend:
    with c: card in contents(hand(current_player))
    do:
        move c to pile
        set current_player.score += c.worth
        set game.leader = current_player
        set turn.spent = true
"""

FILE = "seeds/tallies/example.yaml"


def run(ruleset, text: str):
    return run_one(ruleset, text, FILE)


def errors(result) -> list:
    return errors_in(result, FILE)


def only_error(result):
    return only_error_in(result, FILE)


@pytest.fixture(scope="module")
def tallies(tmp_path_factory):
    return build(tmp_path_factory.mktemp("tallies"), {"game.yaml": GAME, "main.rules": RULES}, name="tallies")


# ---------------------------------------------------------------- a property typed as a kind


def test_an_unknown_player_as_a_property_value_is_broken_at_the_value(tallies):
    text = """\
        title: partner
        cite: "tallies: Partners"
        setup:
          props:
            p1: {partner: p9}
        expect:
          props: {p1: {partner: p9}}
        """
    result = run(tallies, text)
    found = errors(result)
    assert [d.message for d in found] == [
        "no thing 'p9' (the property 'partner' of a player is a player)"] * 2
    assert all(d.hint == "the players are p1, p2" for d in found)
    # the setup's value, then the expected one: each at its own value
    assert [at(text, d) for d in found] == [(5, "p9"), (7, "p9")]


def test_a_number_for_a_player_is_broken(tallies):
    text = """\
        title: partner
        cite: "tallies: Partners"
        setup:
          props:
            p1: {partner: 42}
        """
    result = run(tallies, text)
    d = only_error(result)
    assert d.message == "42 is a number (the property 'partner' of a player is a player)"
    assert d.hint == "the players are p1, p2"
    assert at(text, d) == (5, "42")


def test_a_thing_of_another_kind_is_broken_with_the_near_thing_of_the_right_kind(tallies):
    text = """\
        title: favourite
        cite: "tallies: Favourites"
        setup:
          props:
            p1: {favourite: p2}
            p2: {favourite: cion.2}
        """
    result = run(tallies, text)
    wrong_kind, typo = errors(result)
    assert wrong_kind.message == "'p2' is a player (the property 'favourite' of a player is a card)"
    assert at(text, wrong_kind) == (5, "p2")
    assert typo.message == "no thing 'cion.2' (the property 'favourite' of a player is a card)"
    assert typo.hint == "did you mean 'coin.2'?"
    assert at(text, typo) == (6, "cion.2")


def test_a_component_of_several_copies_must_name_the_copy(tallies):
    text = """\
        title: favourite
        cite: "tallies: Favourites"
        setup:
          props:
            p1: {favourite: coin}
        """
    result = run(tallies, text)
    d = only_error(result)
    assert d.message == "coin has 3 copies: write coin.N (coin.1 … coin.3) (the property 'favourite' of a player is a card)"
    assert at(text, d) == (5, "coin")


def test_a_list_of_players_is_checked_item_by_item(tallies):
    text = """\
        title: allies
        cite: "tallies: Allies"
        setup:
          props:
            p1: {allies: [p2, p8]}
            p2: {allies: p1}
        """
    result = run(tallies, text)
    item, not_a_list = errors(result)
    assert item.message == "no thing 'p8' (the property 'allies' of a player is a list of player)"
    assert at(text, item) == (5, "p8")
    assert not_a_list.message == "'p1' is a text (the property 'allies' of a player is a list of player)"
    assert not_a_list.hint == "write a list: [p1]"
    assert at(text, not_a_list) == (6, "p1")


# ---------------------------------------------------------------- numbers, texts, true or false, listed values


def test_scalar_values_of_the_wrong_type_are_broken_with_a_hint(tallies):
    text = """\
        title: scalars
        cite: "tallies: Scores"
        setup:
          props:
            p1: {score: "3", ready: 1}
            p2: {score: null}
        """
    result = run(tallies, text)
    quoted, one, none = errors(result)
    assert quoted.message == "'3' is a text (the property 'score' of a player is a number)"
    assert quoted.hint == "write 3 without quotes"
    assert at(text, quoted) == (5, '"3"')
    assert one.message == "1 is a number (the property 'ready' of a player is a bool)"
    assert one.hint == "write true or false (1 and true are different)"
    assert at(text, one) == (5, "1")
    assert none.message == "null is not a number (the property 'score' of a player is a number)"
    assert at(text, none) == (6, "null")


def test_a_value_outside_the_listed_values_is_broken_with_did_you_mean(tallies):
    text = """\
        title: colours
        cite: "tallies: Colours"
        setup:
          props:
            player: {colour: blu}
        expect:
          props: {p2: {colour: green}}
        """
    result = run(tallies, text)
    kind_wide, expected = errors(result)
    assert kind_wide.message == "'blu' is not one of the values of the property 'colour' of a player"
    assert kind_wide.hint == "did you mean 'blue'?"
    assert at(text, kind_wide) == (5, "blu")
    assert expected.message == "'green' is not one of the values of the property 'colour' of a player"
    assert expected.hint == "its values: 'red', 'blue'"
    assert at(text, expected) == (7, "green")


# ---------------------------------------------------------------- variables, arrange steps, filters


def test_variable_values_are_checked_in_setup_and_expect(tallies):
    text = """\
        title: variables
        cite: "tallies: Leader"
        setup:
          vars: {game: {leader: p7, rounds_left: two}}
        expect:
          vars: {turn: {spent: "true"}}
        """
    result = run(tallies, text)
    leader, rounds, spent = errors(result)
    assert leader.message == "no thing 'p7' (the game variable 'leader' is a player)"
    assert leader.hint == "the players are p1, p2"
    assert at(text, leader) == (4, "p7")
    assert rounds.message == "'two' is a text (the game variable 'rounds_left' is a number)"
    assert at(text, rounds) == (4, "two")
    assert spent.message == "'true' is a text (the turn variable 'spent' is a bool)"
    assert spent.hint == "write true without quotes"
    assert at(text, spent) == (6, '"true"')


def test_an_arrange_step_and_an_expect_step_are_checked_too(tallies):
    text = """\
        title: steps
        cite: "tallies: Partners"
        setup:
          current: p1
        steps:
          - arrange:
              props: {p2: {partner: p3}}
          - expect:
              props: {p1: {score: one}}
        """
    result = run(tallies, text)
    arranged, expected = errors(result)
    # two players: there is no p3
    assert arranged.message == "no thing 'p3' (the property 'partner' of a player is a player)"
    assert at(text, arranged) == (7, "p3")
    assert expected.message == "'one' is a text (the property 'score' of a player is a number)"
    assert at(text, expected) == (9, "one")


def test_a_misspelt_property_and_a_wrong_value_are_both_reported(tallies):
    text = """\
        title: both
        cite: "tallies: Scores"
        setup:
          props:
            p1: {scroe: 1, partner: p5}
        """
    result = run(tallies, text)
    name, value = errors(result)
    assert name.message == "a player has no property 'scroe'"
    assert name.hint == "did you mean 'score'?"
    assert at(text, name) == (5, "scroe")
    assert value.message == "no thing 'p5' (the property 'partner' of a player is a player)"
    assert at(text, value) == (5, "p5")


def test_where_filters_check_the_property_and_its_value(tallies):
    text = """\
        title: filters
        cite: "tallies: Piles"
        expect:
          zone:
            pile: {kind: card, where: {worth: "5"}, count: 2}
            "hand:p1": {where: {wroth: 1}, count: 1}
          tally:
            - {zones: [pile], where: {worth: five}, count: 1}
        """
    result = run(tallies, text)
    quoted, misspelt, tallied = errors(result)
    assert quoted.message == "'5' is a text (the property 'worth' of a card is a number)"
    assert quoted.hint == "write 5 without quotes"
    assert at(text, quoted) == (5, '"5"')
    assert misspelt.message == "no kind has a property 'wroth'"
    assert misspelt.hint == "did you mean 'worth'?"
    assert at(text, misspelt) == (6, "wroth")
    assert tallied.message == "'five' is a text (the property 'worth' of a card is a number)"
    assert at(text, tallied) == (8, "five")


# ---------------------------------------------------------------- what is right still runs


def test_values_of_the_declared_types_still_pass(tallies):
    text = """\
        title: all fit
        cite: "tallies: Scores"
        setup:
          current: p1
          props:
            player: {colour: blue, ready: true}
            p1: {partner: p2, favourite: crown, allies: [p2], score: 2}
            p2: {partner: null, favourite: null, allies: []}
          vars: {game: {leader: p2, rounds_left: 2}, turn: {spent: false}}
        steps:
          - {do: spend, args: {c: coin.1}}
        expect:
          props:
            p1: {partner: p2, favourite: crown, allies: [p2], score: 3, colour: blue, ready: true}
            p2: {partner: null, favourite: null}
          vars: {game: {leader: p1, rounds_left: 2}}
          zone:
            pile: {kind: card, where: {worth: 5}, count: 1}
          tally:
            - {zones: [pile], where: {worth: 1}, min: 1}
        """
    result = run(tallies, text)
    assert result.status == PASS, explain(result)
