"""``game_setup: vars`` and ``game_setup: props``: values a game starts with, in place
before its own setup runs (``setup: vars`` comes after it, too late for what the setup
does with them). So a scenario can begin later in a game, from the counter the rules
keep, rather than play every turn before. The names and values are checked as in
``setup``; a turn variable is refused, its value would be gone by the first turn."""

from __future__ import annotations

import textwrap

import pytest
from engine_rulesets import build, game_yaml
from scenario_runs import caret_text as at, explain, only_error_in, run_one

from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.interpreter.game import Game, state_digest
from rulecraft.validator import FAIL, PASS, load_text, run_scenario

GAME = game_yaml("dealer", players=(2, 3)) + """\
kinds:
  player:
    properties:
      bonus: {type: number, default: 0}
  card:
    located_in: zone
zones:
  pile: {visible_to: nobody}
  hand: {per_player: true, ordered: false}
components:
  - {name: coin, kind: card, count: 12, zone: pile}
variables:
  game:
    size: {type: number, default: 1}
    mood: {type: text, values: [calm, wild], default: calm}
  turn:
    spent: {type: bool, default: false}
"""

# The setup reads the variable and the property: their values before it decide the deal.
RULES = """\
procedure setup():
    do:
        for each p in players:
            repeat game.size + p.bonus times:
                move top(pile) to hand(p)

procedure round():
    do:
        for each p in players:
            play_turn(p)

action spend:
    with c: card in contents(hand(current_player))
    do:
        move c to pile
        set turn.spent = true
"""

FILE = "seeds/dealer/start.yaml"


@pytest.fixture(scope="module")
def dealer(tmp_path_factory):
    return build(tmp_path_factory.mktemp("dealer"), {"game.yaml": GAME, "main.rules": RULES}, name="dealer")


def run(ruleset, text: str, **kw):
    if kw:
        bag = DiagnosticBag()
        loaded = load_text(textwrap.dedent(text), FILE, bag)
        assert loaded.ok, bag.render()
        return run_scenario(ruleset, loaded.scenarios[0], **kw)
    return run_one(ruleset, text, FILE)


DEALT_THREE = """\
    title: the setup deals as many cards as game.size says
    cite: "house: deal"
    players: 2
    game_setup:
      vars: {game: {size: 3}}
    expect:
      vars: {game: {size: 3}}
      zone:
        "hand:*": {count: 3}
        pile: {count: 6}
"""


def test_a_game_variable_given_before_the_setup_changes_what_the_setup_does(dealer):
    result = run(dealer, DEALT_THREE)
    assert result.status == PASS, explain(result)


def test_the_same_value_given_in_setup_comes_after_the_deal(dealer):
    # why game_setup is needed at all: setup's vars change the variable, not the deal
    late = DEALT_THREE.replace("game_setup:", "setup:")
    result = run(dealer, late)
    assert result.status == FAIL, explain(result)
    assert {m.actual for m in result.divergence.mismatches} == {1, 10}


def test_a_wrong_expectation_still_fails(dealer):
    result = run(dealer, DEALT_THREE.replace("{count: 3}", "{count: 2}"))
    assert result.status == FAIL, explain(result)


def test_properties_before_the_setup_a_kind_for_all_and_a_named_entity_after_it(dealer):
    result = run(dealer, """\
        title: the bonus property adds to the deal
        cite: "house: deal"
        players: 3
        game_setup:
          props: {p2: {bonus: 2}, player: {bonus: 1}}
        expect:
          props: {p1: {bonus: 1}, p2: {bonus: 2}, p3: {bonus: 1}}
          zone:
            "hand:p1": {count: 2}
            "hand:p2": {count: 3}
            "hand:p3": {count: 2}
    """)
    assert result.status == PASS, explain(result)


def test_a_misspelt_variable_is_broken_at_its_name(dealer):
    text = DEALT_THREE.replace("{size: 3}}", "{sise: 3}}", 1)
    d = only_error_in(run(dealer, text), FILE)
    assert "there is no game variable 'sise'" in d.message and "size" in d.hint
    assert at(text, d) == (5, "sise")


@pytest.mark.parametrize("value, caret, words", [
    ('"3"', '"3"', "is a text"),
    ("null", "null", "null is not a number"),
])
def test_a_wrong_typed_value_is_broken_at_the_value(dealer, value, caret, words):
    text = DEALT_THREE.replace("{size: 3}}", "{size: " + value + "}}", 1)
    d = only_error_in(run(dealer, text), FILE)
    assert words in d.message and "the game variable 'size'" in d.message
    assert at(text, d) == (5, caret)


def test_a_value_the_variable_does_not_list_is_broken_with_a_did_you_mean(dealer):
    text = DEALT_THREE.replace("{size: 3}}", "{mood: wyld}}", 1)
    d = only_error_in(run(dealer, text), FILE)
    assert "'wyld' is not one of the values of the game variable 'mood'" in d.message and "wild" in d.hint
    assert at(text, d) == (5, "wyld")


def test_a_misspelt_property_or_entity_is_broken_at_its_name(dealer):
    text = DEALT_THREE.replace("vars: {game: {size: 3}}", "props: {p9: {bonus: 1}, p1: {bonsu: 1}}", 1)
    result = run(dealer, text)
    messages = sorted(d.message for d in result.bag.errors)
    assert messages == ["a player has no property 'bonsu'", "unknown entity or kind 'p9'"], result.bag.render()


def test_turn_variables_are_refused_they_start_afresh_at_every_turn(dealer):
    text = DEALT_THREE.replace("vars: {game: {size: 3}}", "vars: {turn: {spent: true}}", 1)
    d = only_error_in(run(dealer, text), FILE)
    assert "turn variables start afresh at every turn" in d.message
    assert "setup: {vars: {turn:" in d.hint
    assert at(text, d) == (5, "turn")


def test_it_is_deterministic_on_every_redeal_and_seed(dealer):
    digests = []
    for _ in range(2):
        result = run(dealer, DEALT_THREE, watch=lambda moment, game: digests.append(state_digest(game.state)),
                     redeals=2, seeds=2)
        assert result.status == PASS and result.seed_failed is None, explain(result)
    assert digests[:2] == digests[2:]


def test_a_game_started_with_values_replays_and_does_not_reach_the_kept_start(dealer):
    plain = Game(dealer, 2, 5)  # a setup that draws nothing: kept, copied for the next games
    given = Game(dealer, 2, 5, starting_vars={"game": {"size": 4}}, starting_props={"p1": {"bonus": 1}})
    assert [len(given.state.zones[f"hand:{p}"]) for p in ("p1", "p2")] == [5, 4]
    assert len(Game(dealer, 2, 5).state.zones["hand:p1"]) == len(plain.state.zones["hand:p1"]) == 1
    given.choose(0)
    again = Game.replay(dealer, 2, 5, given.decisions, starting_vars={"game": {"size": 4}},
                        starting_props={"p1": {"bonus": 1}})
    assert state_digest(again.state) == state_digest(given.state)


def test_the_rules_site_tells_the_values_the_game_starts_from(dealer):
    from types import SimpleNamespace

    from rulecraft.docgen.narration import Narrator
    from rulecraft.docgen.prose import Prose

    scenario = SimpleNamespace(players=2, game_setup={"vars": {"game": {"size": 3}}, "props": {"p1": {"bonus": 1}}},
                               setup={})
    told = Narrator(dealer, Prose(dealer, "en", markdown=True), "en").situation(scenario)
    assert told[0] == "2 players play."
    lines = told[1].splitlines()
    assert lines[0] == "The game starts from these values, in place before its setup runs:"
    assert lines[1:] == ["    - Size: 3.", "    - The bonus of player 1 is 1."]


def test_the_rules_site_tells_a_setup_naming_its_hand_zone_and_a_key_it_has_no_sentence_for(dealer):
    from types import SimpleNamespace

    from rulecraft.docgen.narration import Narrator
    from rulecraft.docgen.prose import Prose

    tell = Narrator(dealer, Prose(dealer, "en", markdown=True), "en")
    # hand_zone says which zone 'deal' fills: the deal's sentence tells it, nothing more
    told = tell.situation(SimpleNamespace(players=2, game_setup={}, setup={"hand_zone": "hand", "deal": {"p1": []}}))
    assert told[1:] == [tell.arranged({"deal": {"p1": []}})[0]]
    # a key with no sentence of its own is told as written (a 'key' slot, like any other)
    assert tell.arranged({"someday": 3}) == ["Someday: 3."]
