"""A rule set playing more than one game gets generated code for its statements'
expressions too (conditions have it from the load): the games are the same, event for
event, as with the closures a rule set starts with."""

from __future__ import annotations

import pytest
from engine_rulesets import build, game_yaml
from panic_station import RULES
from test_50_legal_options import DATA, RULES as GEM_RULES

from rulecraft.cli.simulate import play_game
from rulecraft.dsl.compiler import Compiler, generate_statement_code
from rulecraft.dsl.loader import load_ruleset
from rulecraft.interpreter.game import Game


def compiled(folder, generate: bool):
    ruleset = load_ruleset(folder)
    assert ruleset.ok
    ruleset.compiled = Compiler(ruleset, generate=generate).compile()
    return ruleset


def statements_generated(ruleset) -> bool:
    codes = [getattr(fn, "__code__", None) for block in ruleset.compiled.blocks for instr in block
             for fn in vars(instr).values() if callable(fn)]
    return any(c is not None and c.co_filename == "<rule set expressions>" for c in codes)


@pytest.mark.parametrize("seed", [3, 8])
def test_generated_statements_play_the_same_panic_station_game(seed):
    generated, closures = compiled(RULES, True), compiled(RULES, False)
    assert generate_statement_code(generated) and statements_generated(generated)
    assert not generate_statement_code(closures) and not statements_generated(closures)
    a, b = play_game(generated, 5, seed), play_game(closures, 5, seed)
    assert a.decisions == b.decisions
    assert list(a.log_lines()) == list(b.log_lines())


def test_statements_get_generated_code_at_a_rule_sets_second_game(tmp_path):
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 3)) + DATA, "main.rules": GEM_RULES})
    blocks = rs.compiled.blocks
    first = play_game(rs, 2, 1)
    assert rs.compiled.code == "conditions" and not statements_generated(rs)
    Game(rs, 2, 1)
    assert rs.compiled.code == "statements" and statements_generated(rs)
    assert rs.compiled.blocks is blocks  # replaced in place: frames keep their block numbers
    again = play_game(rs, 2, 1)
    assert list(again.log_lines()) == list(first.log_lines())
