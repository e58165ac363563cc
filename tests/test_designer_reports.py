"""Defects a designer met writing a new rule set: each is written here as a tiny rule set
of its own (no real game), and each test failed before its fix.

- a YAML mistake reported at its own line when the file also holds a valid `{type: T?}`;
- a fault inside a function located in the function (with the caller as context), and a
  none parameter named as its likely cause; a static warning for arithmetic on a
  parameter declared `T?` that its definition never compares with none;
- a conditional expression whose branches disagree, and a written-out list whose items
  disagree, checked against the type their place needs;
- a table read with a number key it lacks: the hint gives the table's keys;
- `check` counts a function a scenario asks as used.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from engine_rulesets import QUIET_SETUP_AND_ROUND, game_yaml, write_ruleset

from rulecraft.cli.main import main
from rulecraft.cli.simulate import play_game
from rulecraft.dsl.compiler import Compiler
from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.dsl.loader import load_ruleset
from rulecraft.dsl.yaml_data import load_yaml_text
from rulecraft.interpreter.machine import RuleRuntimeError

PLAYERS = "kinds:\n  player:\n    properties: {}\n"

# ---------------------------------------------------------------- B1: YAML errors

# libyaml reads `player?` inside '{...}' as a plain value; PyYAML's pure-Python parser,
# read again to word an error, refuses the '?' there
OPTIONAL_TYPE_LINE = '      owner: {type: player?, text: "Who holds it."}\n'
YAML_HEAD = ("kinds:\n"
             "  token:\n"
             "    properties:\n"
             + OPTIONAL_TYPE_LINE +
             "      weight: {type: number, default: 0}\n"
             "      size: {type: number, default: 1}\n")


def yaml_errors(text: str):
    bag = DiagnosticBag()
    data, _ = load_yaml_text(text, "game.yaml", bag)
    return data, bag.errors


def test_a_valid_optional_type_in_braces_reads_alone():
    data, errors = yaml_errors(YAML_HEAD)
    assert not errors
    assert data["kinds"]["token"]["properties"]["owner"]["type"] == "player?"


def test_a_key_twice_is_reported_at_its_line_not_at_an_optional_type_above_it():
    _, errors = yaml_errors(YAML_HEAD + "tables:\n  heights: {2: 3, 2: 4, 3: 5}\n")
    assert len(errors) == 1
    d = errors[0]
    assert "the key 2 appears twice" in d.message
    assert (d.position.line, d.position.column) == (8, 19)


def test_a_key_indented_short_is_reported_at_its_line_not_at_an_optional_type_above_it():
    text = YAML_HEAD.replace("      size:", "     size:")
    _, errors = yaml_errors(text)
    assert len(errors) == 1
    d = errors[0]
    assert "indented differently" in d.message
    assert (d.position.line, d.position.column) == (6, 6)


@pytest.mark.parametrize("rest", [
    'tables:\n  names: {a: "one, b: "two"}\n  other: {c: 1}\n',
    'tables:\n  names: {a: "one}\n  other: {c: "x"}\n  more: {d: 2}\n',
])
def test_a_mistake_after_an_optional_type_in_braces_is_told_as_if_it_were_quoted(rest):
    _, errors = yaml_errors(YAML_HEAD + rest)
    _, quoted = yaml_errors(YAML_HEAD.replace("player?", '"player?"') + rest)
    assert errors and all(d.position.line != 4 for d in errors)
    assert [(d.message, d.position.line, d.position.column) for d in errors] == \
        [(d.message, d.position.line, d.position.column) for d in quoted]


# ---------------------------------------------------------------- B5: a fault in a function

DATA = """
parameters:
  most: {value: 3, type: number?, text: The most there may be; none for no limit.}
"""

# `gap` is small enough for the generated code to write it in place inside `room`'s
# comprehension; the fault is found in it all the same
FUNCTIONS = """
function gap(n: number) -> number:
    = most - n

function room(p: player) -> number:
    = sum([gap(x) for x in [1, 2]])
"""

SETUP_CALLING = """
procedure setup():
    do:
        let r = room(first(players))
        stop

procedure round():
    do:
        for each p in players:
            play_turn(p)
"""

VARIANT = """\
variant:
  name: no_limit
  title: No limit
  base: tiny
  text: There is no limit.
  cite: "house rules: limits"
parameters:
  most: null
"""


def fault_folder(tmp_path: Path, functions: str = FUNCTIONS) -> Path:
    folder = write_ruleset(tmp_path / "tiny", {"game.yaml": game_yaml(players=(2, 2)) + PLAYERS + DATA,
                                                "main.rules": functions + SETUP_CALLING})
    (folder / "variants").mkdir()
    (folder / "variants" / "no_limit.yaml").write_text(VARIANT, encoding="utf-8")
    return folder


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def rule_error(folder: Path, generate: bool, games: int = 1) -> RuleRuntimeError:
    ruleset = load_ruleset(folder, variant="no_limit")
    assert ruleset.ok, ruleset.bag.render()
    ruleset.compiled = Compiler(ruleset, generate=generate).compile()
    assert (ruleset.compiled.code == "conditions") == generate
    found = []
    for seed in range(games):  # a second game plays the statements on generated code too
        with pytest.raises(RuleRuntimeError) as caught:
            play_game(ruleset, 2, seed)
        found.append(str(caught.value))
    assert len(set(found)) == 1
    return caught.value


@pytest.mark.parametrize("generate", [True, False])
def test_a_fault_inside_a_function_is_located_where_it_happens(tmp_path, generate):
    folder = fault_folder(tmp_path)
    rules = folder / "main.rules"
    err = rule_error(folder, generate, games=2 if generate else 1)
    assert (err.pos.line, err.pos.column) == (line_of(rules, "= most - n"), 7)
    caller = line_of(rules, "let r = room(")
    assert f"cannot compute none - a number (in gap, called from {rules}:{caller}:9)" in str(err)


def test_both_code_paths_tell_a_fault_in_a_function_alike(tmp_path):
    folder = fault_folder(tmp_path)
    assert str(rule_error(folder, True, games=2)) == str(rule_error(folder, False))


def test_a_parameter_a_variant_sets_to_none_is_named_as_the_cause(tmp_path):
    err = rule_error(fault_folder(tmp_path), True)
    assert ("most is none here: the variant no_limit sets it to none; test it with `== none` first"
            in str(err))
    assert "a table read with a key it lacks" not in str(err)


def test_a_none_function_parameter_declared_optional_is_named_as_the_cause(tmp_path):
    functions = """
function gap(n: number?) -> number:
    = n - 1

function room(p: player) -> number:
    = gap(first([x for x in [1, 2] where x > 5]))
"""
    err = rule_error(fault_folder(tmp_path, functions), False)
    assert "n is none here: gap's parameter n is declared number?, and was given none" in str(err)


def check_warnings(folder: Path) -> list[str]:
    ruleset = load_ruleset(folder)
    assert ruleset.ok, ruleset.bag.render()
    return [d.message for d in ruleset.bag.warnings]


def test_arithmetic_on_an_optional_parameter_never_tested_with_none_is_warned(tmp_path):
    warnings = check_warnings(fault_folder(tmp_path))
    assert ("parameter 'most' is declared number?, so it may be none, and arithmetic on none stops the game"
            in warnings)


def test_arithmetic_on_an_optional_parameter_tested_with_none_is_not_warned(tmp_path):
    functions = FUNCTIONS.replace("= most - n", "= 99 if most == none else most - n")
    assert not [w for w in check_warnings(fault_folder(tmp_path, functions)) if "most" in w]


# ---------------------------------------------------------------- C1, C2: parts that disagree

def check_errors(tmp_path: Path, rules: str, data: str = "") -> list:
    folder = write_ruleset(tmp_path / "tiny", {"game.yaml": game_yaml() + PLAYERS + data,
                                                "main.rules": rules + QUIET_SETUP_AND_ROUND})
    return load_ruleset(folder).bag.errors


def test_a_branch_of_a_typed_function_that_gives_another_type_is_an_error_at_the_branch(tmp_path):
    errors = check_errors(tmp_path, """
function needed(p: player) -> number:
    = 0 if p == current_player else "1"

action go:
    require needed(current_player) == 0
    do:
        stop
""")
    assert len(errors) == 1
    d = errors[0]
    assert d.message == "function 'needed' should give a number, but this branch of '… if … else …' gives a text"
    assert (d.position.line, d.position.column) == (2, 37)
    assert d.hint


def test_a_branch_of_a_condition_that_gives_another_type_is_an_error_at_the_branch(tmp_path):
    errors = check_errors(tmp_path, """
action go:
    require (true if current_player == none else 3)
    do:
        stop
""")
    assert [d.message for d in errors] == ["a requirement must be a bool, but this branch of '… if … else …' gives a number"]


def test_a_branch_that_is_none_still_fits(tmp_path):
    assert not check_errors(tmp_path, """
function best(p: player) -> player:
    = p if p == current_player else none

action go:
    require best(current_player) != none
    do:
        stop
""")


VARIABLES = """
variables:
  game:
    marks: {type: list of number, default: null}
"""


def test_a_written_out_list_with_an_item_of_another_type_is_an_error_at_the_item(tmp_path):
    errors = check_errors(tmp_path, """
action go:
    do:
        let a = 1
        set game.marks = [a, 2, "c", 4]
""", VARIABLES)
    assert len(errors) == 1
    d = errors[0]
    assert d.message == "the value set to game.marks must be a list of number, but this item of the list is a text"
    assert (d.position.line, d.position.column) == (4, 33)
    assert d.hint == "every item of the list must be a number"


def test_a_written_out_list_of_the_right_items_sets_cleanly(tmp_path):
    assert not check_errors(tmp_path, """
action go:
    do:
        let a = 1
        set game.marks = [a, 2, 3]
        set game.marks += [4]
""", VARIABLES)


# ---------------------------------------------------------------- G3: a number key a table lacks

@pytest.mark.parametrize("table, hint", [
    ("{2: 3, 3: 5, 4: 7, 5: 9, 6: 11, 7: 13, 8: 11, 9: 9, 10: 7, 11: 5, 12: 3}", "the table's keys are 2 to 12"),
    ("{1: 0, 3: 1, 5: 1}", "the table's keys are 1, 3, 5"),
])
def test_a_number_key_a_table_lacks_is_hinted_with_the_tables_keys(tmp_path, table, hint):
    errors = check_errors(tmp_path, """
function height() -> number:
    = heights[13]

action go:
    require height() > 0
    do:
        stop
""", f"tables:\n  heights: {table}\n")
    assert [(d.message, d.hint) for d in errors] == [("table 'heights' has no entry 13", hint)]


# ---------------------------------------------------------------- G5: a function a scenario asks

ASKING_SCENARIO = """\
scenarios:
  - title: The ranking asks the standings
    cite: "house rules: end"
    players: 2
    steps:
      - expect:
          functions:
            - {function: ranking, args: [], value: [p1, p2]}
"""


def ranking_rules(tmp_path: Path, scenario: str | None) -> Path:
    rules = """
function ranking() -> list of player:
    = [p for p in players]

action go:
    do:
        stop
"""
    folder = write_ruleset(tmp_path / "rules" / "tiny", {"game.yaml": game_yaml() + PLAYERS,
                                                        "main.rules": rules + QUIET_SETUP_AND_ROUND})
    if scenario is not None:
        write_ruleset(tmp_path / "seeds" / "tiny", {"ranking.yaml": scenario})
    return folder


def test_check_counts_a_function_a_scenario_asks_as_used(tmp_path, capsys):
    folder = ranking_rules(tmp_path, ASKING_SCENARIO)
    assert main(["check", str(folder), "--strict"]) == 0
    assert "never used" not in capsys.readouterr().out


def test_check_still_warns_of_a_function_nothing_asks(tmp_path, capsys):
    folder = ranking_rules(tmp_path, textwrap.dedent(ASKING_SCENARIO).replace("functions:", "vars:").replace(
        "            - {function: ranking, args: [], value: [p1, p2]}", "            game: {}"))
    assert main(["check", str(folder), "--strict"]) == 1
    assert "function 'ranking' is never used" in capsys.readouterr().out
