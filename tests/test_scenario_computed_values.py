"""A scenario may check what the rule set computes, not only what the game stores: the
value a rule-set function gives (``expect: functions:``) and the payoffs of the finished
game (``expect: payoffs:``). A misspelt function, a wrong argument or a procedure asked
as a function makes the scenario BROKEN at that place; a value that differs makes it
FAIL with both values; asking changes nothing in the game.

And a variant may set a parameter whose base value is none, when the parameter
declares its type (``type: number?``), checked against that type."""

from __future__ import annotations

import textwrap

import pytest
from engine_rulesets import QUIET_SETUP_AND_ROUND, build, write_ruleset
from scenario_runs import caret_text as at, explain, only_error_in, run_one

from rulecraft.cli.main import main
from rulecraft.dsl.diagnostics import RuleSetError
from rulecraft.dsl.loader import load_checked, load_ruleset
from rulecraft.interpreter.game import Game
from rulecraft.validator import FAIL, PASS
from rulecraft.validator.expect import Expectations
from rulecraft.validator.mutants import generate, judging_only, mutant_files
from rulecraft.validator.mutation import KILLED, SURVIVED, Checker, Target, functions_asked
from rulecraft.validator.names import names_for

GAME = """\
game:
  name: tallies
  players: {min: 2, max: 3}
  setup: setup
  round: round
  round_limit: 2
  payoff: {function: lead, min: -4, max: 4}
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
components:
  - {name: coin, kind: card, count: 4, zone: pile}
  - {name: crown, kind: card, count: 1, zone: pile, properties: {worth: 3}}
"""

RULES = QUIET_SETUP_AND_ROUND + """
action take:
    with c: card in contents(pile)
    do:
        move c to hand(current_player)

function score(p: player) -> number:
    = sum([c.worth for c in contents(hand(p))]) + p.score

function cards_of(p: player) -> list of card:
    = contents(hand(p))

function lead(p: player) -> number:
    = score(p) - max([score(q) for q in players where q != p])

procedure bonus(p: player):
    do:
        set p.score += 1
"""

FILE = "seeds/tallies/computed.yaml"


def run(ruleset, text: str):
    return run_one(ruleset, text, FILE)


def only_error(result):
    return only_error_in(result, FILE)


@pytest.fixture(scope="module")
def tallies(tmp_path_factory):
    return build(tmp_path_factory.mktemp("tallies"), {"game.yaml": GAME, "main.rules": RULES}, name="tallies")


# p1 takes the crown (worth 3), p2 a coin (worth 1)
TAKEN = """\
        setup:
          current: p1
        steps:
          - do: take
            args: {c: crown}
          - end_turn: true
          - do: take
            args: {c: coin.1}
"""


# ---------------------------------------------------------------- functions


def test_a_function_expectation_passes_when_the_function_gives_the_value(tallies):
    result = run(tallies, """\
        title: scores
        cite: "tallies: Scoring"
""" + TAKEN + """\
        expect:
          functions:
            - {function: score, args: [p1], value: 3}
            - {function: score, args: [p2], value: 1}
            - {function: cards_of, args: [p1], value: [crown]}
            - {function: lead, args: [p2], value: -2}
""")
    assert result.status == PASS, explain(result)


def test_a_function_expectation_may_be_a_step(tallies):
    result = run(tallies, """\
        title: scores as they grow
        cite: "tallies: Scoring"
        setup:
          current: p1
        steps:
          - expect:
              functions: [{function: score, args: [p1], value: 0}]
          - do: take
            args: {c: crown}
          - expect:
              functions: [{function: score, args: [p1], value: 3}]
""")
    assert result.status == PASS, explain(result)


SEVEN = """\
        title: p2 scores 7
        cite: "tallies: Scoring"
""" + TAKEN + """\
        expect:
          functions:
            - {function: score, args: [p2], value: 7}
"""


def test_a_function_giving_another_value_fails_with_both_values(tallies):
    result = run(tallies, SEVEN)
    assert result.status == FAIL, explain(result)
    [miss] = result.divergence.mismatches
    assert (miss.what, miss.expected, miss.actual) == ("what score(p2) gives", 7, 1)
    assert at(SEVEN, miss) == (13, "7")


def test_verify_prints_the_expected_and_the_actual_value(tmp_path, capsys):
    rules = write_ruleset(tmp_path / "rules" / "tallies", {"game.yaml": GAME, "main.rules": RULES})
    seeds = tmp_path / "seeds" / "tallies"
    seeds.mkdir(parents=True)
    (seeds / "computed.yaml").write_text(textwrap.dedent(SEVEN), encoding="utf-8")
    assert main(["verify", str(rules), "--redeals", "0"]) == 1
    out = capsys.readouterr().out
    assert "what score(p2) gives" in out
    assert "expected: 7" in out and "actual:   1" in out


def test_asking_a_function_changes_nothing_in_the_game(tallies):
    game = Game(tallies, 2, 1)
    game.choose_option({"action": "take", "args": {"c": "crown"}})
    before, events, decisions = game.state.dumps(), len(game.events), list(game.decisions)
    names = names_for(tallies, 2)
    checker = Expectations(game, names, 0, lambda path: None)
    assert checker.check({"functions": [{"function": "score", "args": ["p1"], "value": 3},
                                        {"function": "lead", "args": ["p1"], "value": 3}]}) == []
    assert (game.state.dumps(), len(game.events), list(game.decisions)) == (before, events, decisions)


MISSPELT = """\
    title: misspelt
    cite: "tallies: Scoring"
    expect:
      functions:
        - {function: scroe, args: [p2], value: 7}
"""


def test_a_misspelt_function_is_broken_at_its_name_with_a_did_you_mean(tallies):
    error = only_error(run(tallies, MISSPELT))
    assert error.message == "unknown function 'scroe'"
    assert error.hint == "did you mean 'score'?"
    assert at(MISSPELT, error) == (5, "scroe")


def test_the_wrong_number_of_arguments_is_broken_with_the_signature(tallies):
    text = MISSPELT.replace("scroe, args: [p2]", "score, args: [p1, p2]")
    error = only_error(run(tallies, text))
    assert error.message == "'score' takes 1 argument(s), not 2"
    assert error.hint == "score(p: player)"
    assert at(text, error) == (5, "[p1, p2]")


def test_an_argument_of_the_wrong_type_is_broken_at_the_argument(tallies):
    text = MISSPELT.replace("scroe, args: [p2]", "score, args: [coin.1]")
    error = only_error(run(tallies, text))
    assert error.message == "'coin.1' is a card (the argument 'p' of score is a player)"
    assert at(text, error) == (5, "coin.1")
    text = MISSPELT.replace("scroe, args: [p2]", "score, args: [p9]")
    error = only_error(run(tallies, text))
    assert "no thing 'p9'" in error.message and "p1, p2" in error.hint


def test_an_expected_value_of_the_wrong_type_is_broken_at_the_value(tallies):
    text = MISSPELT.replace("scroe, args: [p2], value: 7", 'score, args: [p2], value: "7"')
    error = only_error(run(tallies, text))
    assert error.message == "'7' is a text (what score gives is a number)"
    assert error.hint == "write 7 without quotes"
    text = MISSPELT.replace("scroe, args: [p2], value: 7", "cards_of, args: [p2], value: [coin.9]")
    error = only_error(run(tallies, text))
    assert at(text, error) == (5, "coin.9")


def test_a_procedure_is_not_asked_as_a_function(tallies):
    # a procedure changes the game; an expectation only looks
    text = MISSPELT.replace("scroe", "bonus")
    error = only_error(run(tallies, text))
    assert error.message.startswith("'bonus' is a procedure, not a function")
    assert "{call: bonus, args: [...]}" in error.hint
    assert at(text, error) == (5, "bonus")


def test_the_verify_command_reports_a_misspelt_function_as_broken(tmp_path, capsys):
    rules = write_ruleset(tmp_path / "rules" / "tallies", {"game.yaml": GAME, "main.rules": RULES})
    seeds = tmp_path / "seeds" / "tallies"
    seeds.mkdir(parents=True)
    (seeds / "computed.yaml").write_text(textwrap.dedent(MISSPELT), encoding="utf-8")
    assert main(["verify", str(rules)]) == 1
    out = capsys.readouterr().out
    assert "BROKEN" in out and "unknown function 'scroe'" in out and "did you mean 'score'?" in out
    assert "^^^^^" in out


# ---------------------------------------------------------------- payoffs

OVER = """\
        title: the game's end
        cite: "tallies: End of the game"
        setup:
          current: p1
        steps:
          - do: take
            args: {c: crown}
          - end_turn: true
          - do: take
            args: {c: coin.1}
          - end_turn: true
          - do: take
            args: {c: coin.2}
          - end_turn: true
          - do: take
            args: {c: coin.3}
          - end_turn: true
        expect:
          over: true
"""


def test_the_payoffs_of_the_finished_game(tallies):
    result = run(tallies, OVER + "          payoffs: {p1: 2, p2: -2}\n")
    assert result.status == PASS, explain(result)


def test_other_payoffs_fail_with_both_values_and_every_seat_s(tallies):
    result = run(tallies, OVER + "          payoffs: {p1: 1, p2: -2}\n")
    assert result.status == FAIL, explain(result)
    [miss] = result.divergence.mismatches
    assert (miss.what, miss.expected, miss.actual) == ("p1's payoff", 1, 2)
    assert miss.note == "the payoffs (game.payoff's function lead): {p1: 2, p2: -2}"


def test_payoffs_before_the_end_fail(tallies):
    result = run(tallies, """\
        title: too early
        cite: "tallies: End of the game"
        expect:
          payoffs: {p1: 0, p2: 0}
""")
    assert result.status == FAIL, explain(result)
    [miss] = result.divergence.mismatches
    assert miss.actual == "none yet" and "not over" in miss.note


def test_a_payoff_outside_the_declared_range_or_of_no_player_is_broken(tallies):
    text = OVER + "          payoffs: {p1: 9}\n"
    error = only_error(run(tallies, text))
    assert error.message == "9 is outside the payoffs -4 to 4 that game.payoff declares"
    assert at(text, error)[1] == "9"
    error = only_error(run(tallies, OVER + "          payoffs: {p7: 1}\n"))
    assert error.message == "unknown player 'p7'"


def test_without_game_payoff_the_winners_get_1_and_the_others_minus_1(tmp_path):
    game = GAME.replace("  payoff: {function: lead, min: -4, max: 4}\n", "")
    rules = RULES + """
victory crowned:
    when count(contents(pile)) == 1
    winners [p for p in players where score(p) >= 3]
"""
    ruleset = build(tmp_path, {"game.yaml": game, "main.rules": rules}, name="tallies")
    # the game ends at p2's second take, before the turn could end
    won = OVER.replace("            args: {c: coin.3}\n          - end_turn: true\n", "            args: {c: coin.3}\n")
    result = run(ruleset, won + "          winners: [p1]\n          payoffs: {p1: 1, p2: -1}\n")
    assert result.status == PASS, explain(result)


# ---------------------------------------------------------------- the mutation check

HEURISTIC = """
heuristic greedy(me: player):
    feature "cards held" weight 1: held(me)

function held(p: player) -> number:
    = count([c for c in contents(hand(p)) where c.worth > 0])
"""


def test_a_function_a_scenario_asks_is_mutated_even_if_only_heuristics_call_it(tmp_path):
    root = write_ruleset(tmp_path / "rules" / "tallies", {"game.yaml": GAME, "main.rules": RULES + HEURISTIC})
    texts = {f: (root / f).read_text(encoding="utf-8") for f in mutant_files(root)}
    assert "held" in judging_only(texts)  # nothing in the rules would notice a change
    assert "held" not in judging_only(texts, {"held"})
    seeds = tmp_path / "seeds" / "tallies"
    seeds.mkdir(parents=True)
    (seeds / "held.yaml").write_text(textwrap.dedent("""\
        title: a card taken is held
        cite: "tallies: Taking"
        setup:
          current: p1
        steps:
          - do: take
            args: {c: crown}
        expect:
          functions:
            - {function: held, args: [p1], value: 1}
        """), encoding="utf-8")
    target = Target(root, None, seeds)
    assert functions_asked(target) == {"held"}
    assert not [m for m in generate(root, mutant_files(root)) if m.definition == "held"]
    mutants = [m for m in generate(root, mutant_files(root), asked=functions_asked(target)) if m.definition == "held"]
    assert mutants
    checker = Checker(target, timeout=60)
    assert checker.baseline()[0].status == SURVIVED
    # the expectation kills a changed function like any other expectation kills a changed rule
    negated = next(m for m in mutants if m.operator == "negate-comparison")  # c.worth <= 0
    outcome = checker.check(negated)
    assert (outcome.status, outcome.by) == (KILLED, "a card taken is held")


# ---------------------------------------------------------------- a parameter none by default

LIMIT_GAME = GAME.replace("  payoff: {function: lead, min: -4, max: 4}\n", "") + """\
parameters:
  hand_limit: {value: null, type: number?, text: Most cards a hand holds; none for no limit.}
"""

LIMIT_RULES = RULES.replace("""action take:
    with c: card in contents(pile)
""", """action take:
    with c: card in contents(pile)
    require room_in_hand(current_player) else "the hand is full"
""") + """
function room_in_hand(p: player) -> bool:
    = hand_limit == none or count(contents(hand(p))) < hand_limit

action discard:
    with c: card in contents(hand(current_player))
    do:
        move c to pile
"""

LIMITED = """\
variant:
  name: limited
  title: A hand limit
  base: tallies
parameters:
  hand_limit: 1
"""

FULL_HAND = """\
        title: a hand of one card is full
        cite: "house rule: hand limit"
        setup:
          current: p1
          hands: {p1: [coin.1]}
        expect:
          functions:
            - {function: room_in_hand, args: [p1], value: VALUE}
"""


def limit_rules(tmp_path, **variants):
    root = write_ruleset(tmp_path / "tallies", {"game.yaml": LIMIT_GAME, "main.rules": LIMIT_RULES})
    (root / "variants").mkdir()
    for name, text in variants.items():
        (root / "variants" / f"{name}.yaml").write_text(text, encoding="utf-8")
    return root


def test_a_variant_sets_a_parameter_that_is_none_in_the_base_and_the_game_sees_it(tmp_path):
    root = limit_rules(tmp_path, limited=LIMITED)
    base, variant = load_checked(root), load_checked(root, "limited")
    assert base.data.parameters["hand_limit"]["value"] is None
    assert variant.data.parameters["hand_limit"]["value"] == 1
    assert variant.variant.parameters == {"hand_limit": (None, 1)}
    assert run(base, FULL_HAND.replace("VALUE", "true")).status == PASS
    result = run(variant, FULL_HAND.replace("VALUE", "true"))
    assert result.status == FAIL and result.divergence.mismatches[0].actual is False, explain(result)
    result = run(variant, FULL_HAND.replace("VALUE", "false") + """\
          illegal: [{do: take, args: {c: crown}, because: the hand is full}]
""")
    assert result.status == PASS, explain(result)


def test_a_variant_may_set_such_a_parameter_back_to_none(tmp_path):
    back = "variant:\n  name: back\n  title: No limit again\n  base: limited\nparameters:\n  hand_limit: null\n"
    root = limit_rules(tmp_path, limited=LIMITED, back=back)
    assert load_checked(root, "back").data.parameters["hand_limit"]["value"] is None


def errors_of(root, variant=None) -> list:
    return load_ruleset(root, variant=variant).bag.errors


def test_the_variant_s_value_is_checked_against_the_declared_type(tmp_path):
    root = limit_rules(tmp_path, limited=LIMITED.replace("hand_limit: 1", 'hand_limit: "one"'))
    [error] = errors_of(root, "limited")
    assert error.message == "parameter 'hand_limit' is declared number? in the base, so it cannot be \"one\""
    assert error.hint == "write a number or null (none)"
    assert error.position.file.endswith("variants/limited.yaml") and error.position.line == 6


def test_a_misspelt_parameter_is_still_an_error_with_a_did_you_mean(tmp_path):
    root = limit_rules(tmp_path, limited=LIMITED.replace("hand_limit: 1", "hand_limt: 1"))
    [error] = errors_of(root, "limited")
    assert error.message == "the base has no parameter 'hand_limt'"
    assert error.hint == "did you mean 'hand_limit'?"
    assert (error.position.line, error.position.column) == (6, 3)


def test_a_none_parameter_without_a_type_says_to_declare_one(tmp_path):
    root = limit_rules(tmp_path, limited=LIMITED)
    game = root / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace(", type: number?", ""), encoding="utf-8")
    (root / "main.rules").write_text(RULES, encoding="utf-8")  # rules that do not read it
    [error] = errors_of(root, "limited")
    assert error.message == ("parameter 'hand_limit' is none in the base and declares no type, "
                             "so it cannot become a number")
    assert error.hint == ("declare the type it takes where the base sets it: "
                          "'hand_limit: {value: null, type: number?}' (none stays its default)")


def test_a_declared_type_must_fit_the_base_value_and_allow_none_with_a_question_mark(tmp_path):
    root = limit_rules(tmp_path)
    game = root / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("type: number?", "type: number"), encoding="utf-8")
    with pytest.raises(RuleSetError) as err:
        load_checked(root)
    messages = [e.message for e in err.value.bag.errors]
    assert "parameter 'hand_limit' is none, but its type, number, does not allow none" in messages
    game.write_text(game.read_text(encoding="utf-8").replace("value: null, type: number", "value: two, type: number"),
                    encoding="utf-8")
    with pytest.raises(RuleSetError) as err:
        load_checked(root)
    assert "parameter 'hand_limit' is \"two\", but its type is number" in [e.message for e in err.value.bag.errors]


def test_without_a_declared_type_a_none_parameter_is_no_number_to_the_rules(tmp_path):
    # without the type, 'count(...) < hand_limit' compares a number with none
    root = limit_rules(tmp_path)
    game = root / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace(", type: number?", ""), encoding="utf-8")
    assert any("must be a number, not none" in e.message for e in errors_of(root))


def test_a_heuristic_named_in_a_tables_words_is_still_only_judging():
    # a designer's game.yaml said "A field greedy." in a description: the word was read as
    # the table naming the heuristic, and its functions' mutants survived every scenario
    rules = HEURISTIC.lstrip()
    described = {"game.yaml": "game:\n  name: tallies\n  text: Each seat plays a greedy hand; held cards count.\n",
                 "main.rules": rules}
    assert judging_only(described) == {"greedy", "held"}
    named = {"game.yaml": "game:\n  name: tallies\n  payoff: {function: held}\n", "main.rules": rules}
    assert judging_only(named) == {"greedy"}  # a table naming the function makes the rules reach it


def test_a_function_meeting_none_in_arithmetic_fails_the_scenario_at_its_place(tmp_path):
    # a Python fault of the compiled function (none - a number) is told as the game tells
    # it, where it happened, not a crash of verify
    rs = build(tmp_path, {"game.yaml": GAME.replace("worth: {type: number, default: 1}", "worth: {type: number?}"),
                          "play.rules": RULES + """
function short(c: card) -> number:
    = c.worth - 1
"""})
    result = run(rs, """
        scenarios:
          - title: a worth not set
            cite: "tallies: scoring"
            steps:
              - expect:
                  functions:
                    - {function: short, args: [coin.1], value: 0}
        """)
    assert result.status == FAIL, explain(result)
    told = explain(result)
    assert "no value: the rules stopped with an error" in told
    assert "play.rules:" in told and "cannot compute none - a number (in short)" in told
