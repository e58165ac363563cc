"""Loading a rule set again in the same process reuses the first load while its files
are unchanged, and loads anew when one changed."""

from __future__ import annotations

import os

from engine_rulesets import game_yaml, write_ruleset

from rulecraft.dsl.loader import load_checked

RULES = """
procedure setup():
    do:
        set game.score = {score}

procedure round():
    do:
        stop
"""

VARS = """
kinds:
  player:
    properties: {}
variables:
  game:
    score: {type: number, default: 0}
"""


def folder(tmp_path, score: int):
    return write_ruleset(tmp_path / "rs", {"game.yaml": game_yaml() + VARS, "main.rules": RULES.format(score=score)})


def setup_score(ruleset) -> int:
    from rulecraft.interpreter.game import Game

    return Game(ruleset, 1, 0).state.vars["game"]["score"]


def test_a_second_load_of_unchanged_files_is_the_same_rule_set(tmp_path):
    path = folder(tmp_path, 1)
    first = load_checked(path)
    assert load_checked(path) is first
    assert load_checked(str(path)) is first


def test_a_changed_file_is_loaded_anew(tmp_path):
    path = folder(tmp_path, 1)
    first = load_checked(path)
    assert setup_score(first) == 1
    rules = path / "main.rules"
    stat = rules.stat()
    folder(tmp_path, 2)
    # same size, so only the modification time tells the change
    os.utime(rules, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    second = load_checked(path)
    assert second is not first
    assert setup_score(second) == 2
    assert setup_score(first) == 1


def test_a_new_file_is_loaded_anew(tmp_path):
    path = folder(tmp_path, 1)
    first = load_checked(path)
    (path / "more.rules").write_text("function five() -> number:\n    = 5\n", encoding="utf-8")
    second = load_checked(path)
    assert second is not first
    assert "five" in second.definitions and "five" not in first.definitions
