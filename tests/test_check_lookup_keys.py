"""`rulecraft check`: a table lookup whose key the parameters decide, checked against the
table's keys, for the base and for each variant with the values it gives.

A key the table lacks gives none while a game runs, and the game stops later, where
that none is used: without this check only `simulate` finds a variant that raises a
parameter past a table's keys."""

from __future__ import annotations

import re
import shutil
import textwrap
from pathlib import Path

import pytest

from rulecraft.cli.main import main
from rulecraft.dsl.loader import load_ruleset

PANIC = Path(__file__).resolve().parent.parent / "rules" / "panic_station"

GAME = """\
game:
  name: tiny
  players: {min: 1, max: 3}
  setup: setup
  round: round
  round_limit: 3
parameters:
  start_level: {value: 3}
  step: {value: 1}
kinds:
  player:
    properties:
      level: {type: number, default: 1}
      coins: {type: number, default: 0}
tables:
  bonus_for_level: {1: 0, 2: 1, 3: 2}
dice:
  d6: [1, 2, 3, 4, 5, 6]
"""

SETUP = """\
procedure setup():
    do:
        for each p in players:
            set p.level = start_level

"""

# the level starts at a parameter's value, and each turn the table is read by it
ROUND = """\
procedure round():
    do:
        for each p in players:
            set p.coins = p.coins + bonus_for_level[p.level]
            play_turn(p)
"""


def ruleset(tmp_path: Path, rules: str, variants: dict[str, str] | None = None, game: str = GAME) -> Path:
    folder = tmp_path / "tiny"
    (folder / "variants").mkdir(parents=True)
    (folder / "game.yaml").write_text(game)
    (folder / "main.rules").write_text(rules)
    for name, parameters in (variants or {}).items():
        (folder / "variants" / f"{name}.yaml").write_text(
            f"variant:\n  name: {name}\n  title: {name}\n  base: tiny\nparameters:\n{textwrap.indent(parameters, '  ')}")
    return folder


def check(folder: Path, capsys, variant: str | None = None) -> tuple[int, str]:
    code = main(["check", str(folder)] + (["--variant", variant] if variant else []))
    return code, capsys.readouterr().out


def lookup_errors(folder: Path, variant: str | None = None) -> list:
    return [d for d in load_ruleset(folder, variant=variant).bag.errors if d.code == "lookup-key"]


def test_a_variant_pushing_a_starting_value_out_of_the_table_is_an_error_at_its_line(tmp_path, capsys):
    folder = ruleset(tmp_path, SETUP + ROUND, {"high": "start_level: 4\n"})
    code, out = check(folder, capsys, "high")
    assert code == 1
    lines = out.splitlines()
    head = next(i for i, line in enumerate(lines) if "error:" in line)
    # the variant's value is where the designer made the change: the error is there,
    # and names the lookup and the 'set' the value starts at
    assert re.fullmatch(
        r".*variants/high\.yaml:6:16: error: variant 'high' sets 'start_level' to 4, so table 'bonus_for_level' is "
        r"read with the key 4, which it lacks: .*main\.rules:9:37 reads bonus_for_level\[p\.level\] when p\.level "
        r"starts at start_level \(set at .*main\.rules:4:13\)", lines[head])
    assert lines[head + 1] == "    6 |   start_level: 4"
    assert lines[head + 2] == "      |                ^"
    assert re.fullmatch(r"      = hint: table 'bonus_for_level' \(.*game\.yaml:16:3\): its keys are 1 to 3; give "
                        r"'start_level' a value that keeps the key among them, or list procedure 'round' under "
                        r"'replaces:' and have its new version read a table the variant adds under 'add: tables:'",
                        lines[head + 3])
    assert "1 error(s), 0 warning(s)" in lines[-1]


def test_the_same_variant_with_a_value_among_the_keys_checks_clean(tmp_path, capsys):
    folder = ruleset(tmp_path, SETUP + ROUND, {"low": "start_level: 2\n"})
    assert check(folder, capsys, "low")[0] == 0
    assert check(folder, capsys)[0] == 0  # and so does the base


def test_a_key_from_the_game_is_not_known_and_not_reported(tmp_path):
    # the die has faces the table lacks, the level changes as the game goes: neither
    # can be known before a game
    rules = SETUP + """\
procedure round():
    do:
        for each p in players:
            let face = roll(d6)
            set p.coins = p.coins + bonus_for_level[face]
            set p.level = p.level + face
            set p.coins = p.coins + bonus_for_level[p.level + count(players)]
            play_turn(p)
"""
    assert lookup_errors(ruleset(tmp_path, rules)) == []


def test_a_key_made_of_parameters_in_the_base_is_an_error_at_the_lookup(tmp_path, capsys):
    rules = SETUP + """\
procedure round():
    do:
        for each p in players:
            set p.coins = p.coins + bonus_for_level[start_level + step]
            play_turn(p)
"""
    code, out = check(ruleset(tmp_path, rules), capsys)
    assert code == 1
    lines = out.splitlines()
    head = next(i for i, line in enumerate(lines) if "error:" in line)
    assert re.fullmatch(r".*main\.rules:9:53: error: table 'bonus_for_level' has no entry 4, the value of "
                        r"start_level \+ step with 'start_level' = 3, 'step' = 1", lines[head])
    assert lines[head + 1] == "    9 |             set p.coins = p.coins + bonus_for_level[start_level + step]"
    assert lines[head + 2] == "      |                                                     " + "^" * len("start_level + step")
    assert re.fullmatch(r"      = hint: table 'bonus_for_level' \(.*game\.yaml:16:3\): its keys are 1 to 3; change "
                        r"'start_level' \(.*game\.yaml:8:24\) or 'step' \(.*game\.yaml:9:17\), or give the table an "
                        r"entry 4", lines[head + 3])


def test_a_function_given_a_known_argument_is_followed_to_its_lookup(tmp_path):
    rules = SETUP + """\
function bonus(n: number) -> number:
    = bonus_for_level[n]

procedure round():
    do:
        for each p in players:
            set p.coins = p.coins + bonus(start_level - step)
            play_turn(p)
"""
    folder = ruleset(tmp_path, rules, {"far": "step: -2\n", "near": "step: 2\n"})
    assert lookup_errors(folder) == [] and lookup_errors(folder, "near") == []
    [error] = lookup_errors(folder, "far")
    assert error.position.file.endswith("variants/far.yaml") and error.position.line == 6
    assert "read with the key 5" in error.message and "inside function bonus called at" in error.message


@pytest.mark.parametrize("guarded", [
    "if p.level <= 3:\n                set p.coins = p.coins + bonus_for_level[p.level]",
    "set p.coins = p.coins + sum([bonus_for_level[q.level] for q in players where q.level < 4])",
    "if p.level > 3:\n                stop\n            set p.coins = p.coins + bonus_for_level[p.level]",
])
def test_a_lookup_a_condition_keeps_from_the_value_is_not_reported(tmp_path, guarded):
    rules = SETUP + f"""\
procedure round():
    do:
        for each p in players:
            {guarded}
            play_turn(p)
"""
    folder = ruleset(tmp_path, rules, {"high": "start_level: 4\n"})
    assert lookup_errors(folder, "high") == []


def test_a_condition_known_to_let_the_value_through_keeps_the_error(tmp_path):
    rules = SETUP + """\
procedure round():
    do:
        for each p in players:
            if p.level >= 1:
                set p.coins = p.coins + bonus_for_level[p.level]
            play_turn(p)
"""
    folder = ruleset(tmp_path, rules, {"high": "start_level: 4\n"})
    assert len(lookup_errors(folder, "high")) == 1


def test_a_written_starting_value_is_left_alone(tmp_path):
    # a written value may stand for "not yet" (a level 0 no rule reads before it changes):
    # only a parameter's value, which a variant changes, is checked
    rules = """\
procedure setup():
    do:
        for each p in players:
            set p.level = 0

""" + ROUND
    assert lookup_errors(ruleset(tmp_path, rules)) == []


@pytest.fixture
def panic(tmp_path) -> Path:
    folder = tmp_path / "panic_station"
    shutil.copytree(PANIC, folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def test_a_variant_raising_a_starting_value_past_a_table_of_the_shipped_rules(panic):
    for name, value in (("tougher", 5), ("weaker", 3)):
        (panic / "variants" / f"{name}.yaml").write_text(
            f"variant:\n  name: {name}\n  title: {name}\n  base: panic_station\nparameters:\n  starting_health: {value}\n")
    [error] = lookup_errors(panic, "tougher")
    assert error.position.file.endswith("variants/tougher.yaml") and error.position.line == 6
    assert "reads ap_for_health[c.health] when c.health starts at starting_health" in error.message
    assert "phases.rules:45:31" in error.message
    assert error.hint.startswith("table 'ap_for_health' (") and "its keys are 0 to 4" in error.hint
    assert lookup_errors(panic, "weaker") == []


def test_the_documented_error_is_the_one_check_gives(panic, monkeypatch):
    from rulecraft.dsl.diagnostics import render

    doc = (PANIC.parent.parent / "docs" / "variants.md").read_text(encoding="utf-8")
    start = doc.index("rules/panic_station/variants/tough.yaml:7:20: error:")
    documented = doc[start:doc.index("\n```", start)]
    (panic / "variants" / "tough.yaml").write_text(
        "variant:\n  name: tough\n  title: Tough characters\n  base: panic_station\n"
        "  text: Characters start with five health.\nparameters:\n  starting_health: 5\n")
    monkeypatch.chdir(panic.parent)  # the folder that holds rules/, as in the documentation
    (panic.parent / "rules").mkdir()
    shutil.move(str(panic), "rules/panic_station")
    ruleset = load_ruleset(Path("rules") / "panic_station", variant="tough")
    [error] = ruleset.bag.errors
    assert render(error, ruleset.bag.sources) == documented
