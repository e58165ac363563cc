"""Generated expression code does exactly what the compiler's closures do: the same
games, event for event, and the closures take over when generation is not possible."""

from __future__ import annotations

import pytest
from engine_rulesets import build, game_yaml
from panic_station import RULES
from test_50_legal_options import DATA, RULES as GEM_RULES

from rulecraft.cli.simulate import play_game
from rulecraft.dsl import codegen
from rulecraft.dsl.compiler import Compiler
from rulecraft.dsl.loader import load_ruleset


def compiled(folder, generate: bool):
    ruleset = load_ruleset(folder)
    assert ruleset.ok
    ruleset.compiled = Compiler(ruleset, generate=generate).compile()
    return ruleset


def uses_generated_code(ruleset) -> bool:
    fn = ruleset.compiled.actions[0].requires[0][0] if ruleset.compiled.actions[0].requires else None
    return fn is not None and fn.__code__.co_filename == "<rule set expressions>"


@pytest.mark.parametrize("seed", [3, 8])
def test_generated_and_closure_code_play_the_same_panic_station_game(seed):
    generated, closures = compiled(RULES, True), compiled(RULES, False)
    assert uses_generated_code(generated) and not uses_generated_code(closures)
    a, b = play_game(generated, 5, seed), play_game(closures, 5, seed)
    assert a.decisions == b.decisions
    assert list(a.log_lines()) == list(b.log_lines())


def test_generated_and_closure_code_play_the_same_small_games(tmp_path):
    folder = build(tmp_path, {"game.yaml": game_yaml(players=(2, 3)) + DATA, "main.rules": GEM_RULES}).root
    for seed in range(5):
        a, b = play_game(compiled(folder, True), 3, seed), play_game(compiled(folder, False), 3, seed)
        assert list(a.log_lines()) == list(b.log_lines())


def test_closures_take_over_when_generation_fails(monkeypatch):
    def refuse(self):
        raise codegen.Unsupported("test")

    monkeypatch.setattr(codegen.ExpressionModule, "build", refuse)
    ruleset = compiled(RULES, True)
    assert not uses_generated_code(ruleset)
    assert play_game(ruleset, 4, 1).over


def test_closures_take_over_when_an_expression_cannot_be_generated(monkeypatch):
    def refuse(self, e, env):
        raise codegen.Unsupported("test")

    monkeypatch.setattr(codegen.ExpressionModule, "binary", refuse)
    ruleset = compiled(RULES, True)
    assert not uses_generated_code(ruleset)
    assert play_game(ruleset, 4, 1).over


@pytest.mark.parametrize("name", ["breakthrough", "tic_tac_toe"])
def test_small_functions_written_in_place_play_as_the_closures_do(name):
    """Breakthrough's listing calls small functions (an empty square) that the generated
    code writes in place rather than calling; the games are those of the closures."""
    from pathlib import Path

    folder = Path(RULES).parent / name
    generated, closures = compiled(folder, True), compiled(folder, False)
    for seed in range(3):
        a, b = play_game(generated, 2, seed), play_game(closures, 2, seed)
        assert a.decisions and a.decisions == b.decisions
        assert list(a.log_lines()) == list(b.log_lines())
