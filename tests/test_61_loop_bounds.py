"""Every loop finishes: a repeat count known before the game is bounded by check, one
computed during play by the machine's step budget, and values doubled in a loop by the
limits on stored numbers and lists. Each stops with an error at the rule's position."""

from __future__ import annotations

import time

import pytest
from engine_rulesets import game_yaml, write_ruleset

from rulecraft.dsl import limits
from rulecraft.dsl.loader import load_checked, load_ruleset
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import RuleRuntimeError

DATA = """
kinds:
  player:
    properties:
      score: {type: number, default: 0}
variables:
  game:
    n: {type: number, default: 0}
    things: list of number
parameters:
  many:
    value: 999999999999
  few:
    value: 3
"""

ROUND = """
procedure round():
    do:
        for each p in players:
            play_turn(p)
"""


def ruleset_folder(tmp_path, setup_body: str):
    rules = "procedure setup():\n    do:\n" + "".join(f"        {line}\n" for line in setup_body.strip().splitlines())
    return write_ruleset(tmp_path / "rs", {"game.yaml": game_yaml() + DATA, "main.rules": rules + ROUND})


def errors_of(folder) -> list[str]:
    return [f"{d.position.line}:{d.position.column}: {d.message}" for d in load_ruleset(folder).bag.errors]


def test_a_literal_repeat_count_beyond_the_bound_is_a_check_error(tmp_path):
    folder = ruleset_folder(tmp_path, "repeat 999999999999 times:\n    set game.n += 1")
    assert errors_of(folder) == [f"3:16: 'repeat 999999999999 times' is more than the {limits.MAX_REPEAT:,} repeats a rule may make"]


def test_a_parameter_repeat_count_beyond_the_bound_is_a_check_error(tmp_path):
    folder = ruleset_folder(tmp_path, "repeat many times:\n    set game.n += 1")
    assert len(errors_of(folder)) == 1 and "repeat 999999999999 times" in errors_of(folder)[0]


def test_repeat_counts_within_the_bound_pass_check(tmp_path):
    folder = ruleset_folder(tmp_path, f"repeat few times:\n    set game.n += 1\nrepeat {limits.MAX_REPEAT} times:\n    set game.n += 1")
    assert errors_of(folder) == []
    game = Game(load_checked(folder), 1, seed=1)
    assert game.state.vars["game"]["n"] == 3 + limits.MAX_REPEAT


def test_a_count_computed_in_play_runs_out_of_steps_with_the_definition_named(tmp_path):
    # 10,000 × 10,000 turns: finite, but a hundred million steps; the budget stops it
    folder = ruleset_folder(tmp_path, "let n = 10000\nrepeat n times:\n    repeat n times:\n        set game.n += 1")
    ruleset = load_checked(folder)
    started = time.monotonic()
    with pytest.raises(RuleRuntimeError) as caught:
        Game(ruleset, 1, seed=1)
    assert time.monotonic() - started < 30
    assert f"the rules took {limits.MAX_STEPS_PER_DECISION:,} steps in 'setup' without a decision" in str(caught.value)
    assert caught.value.pos is not None and caught.value.pos.file.endswith("main.rules")


def test_a_number_doubled_in_a_loop_stops_at_the_number_limit(tmp_path):
    folder = ruleset_folder(tmp_path, "set game.n = 2\nrepeat 200 times:\n    set game.n = game.n * game.n")
    with pytest.raises(RuleRuntimeError, match="a number grew beyond") as caught:
        Game(load_checked(folder), 1, seed=1)
    assert (caught.value.pos.line, caught.value.pos.column) == (5, 13)
    assert "ValueError" not in str(caught.value)  # told in the language's words, not Python's
    # and so on the generated code a later game of the process runs
    with pytest.raises(RuleRuntimeError, match="a number grew beyond") as again:
        Game(load_checked(folder), 1, seed=1)
    assert "ValueError" not in str(again.value)


def test_a_bound_variable_doubled_in_a_loop_stops_at_the_number_limit(tmp_path):
    folder = ruleset_folder(tmp_path, "let x = 2\nrepeat 200 times:\n    let x = x * x")
    with pytest.raises(RuleRuntimeError, match="a number grew beyond"):
        Game(load_checked(folder), 1, seed=1)


def test_a_list_doubled_in_a_loop_stops_at_the_list_limit(tmp_path):
    folder = ruleset_folder(tmp_path, "set game.things = [1]\nrepeat 100 times:\n    set game.things += game.things")
    with pytest.raises(RuleRuntimeError, match="a list grew beyond"):
        Game(load_checked(folder), 1, seed=1)


def test_the_shipped_budget_leaves_ordinary_rules_untouched(tmp_path):
    folder = ruleset_folder(tmp_path, "repeat 50 times:\n    repeat 50 times:\n        set game.n += 1")
    game = Game(load_checked(folder), 1, seed=1)
    assert game.state.vars["game"]["n"] == 2500


def test_triggers_that_set_each_other_off_run_out_of_steps(tmp_path, monkeypatch):
    import rulecraft.interpreter.machine as machine

    monkeypatch.setattr(machine, "MAX_STEPS_PER_DECISION", 5_000)  # the same stop, sooner
    rules = """
procedure setup():
    do:
        emit ping()

trigger echo:
    on ping
    do:
        emit pong()

trigger answer:
    on pong
    do:
        emit ping()
"""
    folder = write_ruleset(tmp_path / "rs", {"game.yaml": game_yaml() + DATA, "main.rules": rules + ROUND})
    with pytest.raises(RuleRuntimeError, match="steps in '(echo|answer)' without a decision") as caught:
        Game(load_checked(folder), 1, seed=1)
    assert "triggers keep setting each other off" in str(caught.value)
