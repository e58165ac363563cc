"""An output path never replaces what the run reads: a file of the rule set or of its
scenarios, a new rule or table file inside the rule set (its next load would read it),
or another output of the same run. Each is refused before any game, with exit 2."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulecraft.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
TIC_TAC_TOE = ROOT / "rules" / "tic_tac_toe"


@pytest.fixture
def rules(tmp_path) -> Path:
    folder = tmp_path / "ttt"
    shutil.copytree(TIC_TAC_TOE, folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def run(*args) -> int:
    try:
        return main([str(a) for a in args])
    except SystemExit as stop:
        return stop.code


def refused(capsys, *args) -> str:
    assert run(*args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    return err


def test_simulate_will_not_write_over_a_rule_file(rules, capsys):
    before = (rules / "play.rules").read_bytes()
    err = refused(capsys, "simulate", rules, "--games", 2, "--quiet", "--log", rules / "play.rules")
    assert f"argument --log: '{rules / 'play.rules'}' is inside '{rules}', which this run reads" in err
    assert (rules / "play.rules").read_bytes() == before
    # nor add a table file the rule set's next load would read
    refused(capsys, "simulate", rules, "--games", 2, "--quiet", "--log", rules / "extra.yaml")
    assert not (rules / "extra.yaml").exists()


def test_simulate_will_not_write_two_outputs_to_one_file(rules, tmp_path, capsys):
    out = tmp_path / "games.json"
    err = refused(capsys, "simulate", rules, "--games", 2, "--quiet", "--out", out, "--log", out)
    assert f"--out and --log name the same file '{out}'" in err
    assert not out.exists()
    # two files of their own are written as before
    log = tmp_path / "games.jsonl"
    assert run("simulate", rules, "--games", 2, "--quiet", "--out", out, "--log", log) == 0
    assert out.is_file() and log.is_file()


def test_mutate_will_not_write_its_report_over_the_rules_or_the_scenarios(rules, tmp_path, capsys):
    scenarios = tmp_path / "seeds"
    shutil.copytree(ROOT / "seeds" / "tic_tac_toe", scenarios)
    game = (rules / "game.yaml").read_bytes()
    refused(capsys, "mutate", rules, "--scenarios", scenarios, "--sample", 2, "--out", rules / "game.yaml")
    assert (rules / "game.yaml").read_bytes() == game
    [scenario] = sorted(scenarios.glob("*.yaml"))[:1]
    text = scenario.read_bytes()
    err = refused(capsys, "mutate", rules, "--scenarios", scenarios, "--sample", 2, "--out", scenario)
    assert "which this run reads" in err and scenario.read_bytes() == text


def test_play_will_not_save_over_a_rule_file(rules, capsys, monkeypatch):
    before = (rules / "play.rules").read_bytes()
    err = refused(capsys, "play", rules, "--players", 2, "--seed", 1, "--save", rules / "play.rules")
    assert f"argument --save: '{rules / 'play.rules'}' is inside '{rules}', which this run reads" in err
    # nor during the game, with 's FILE': the game goes on, unsaved
    lines = iter(["", f"s {rules / 'game.yaml'}", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    game = (rules / "game.yaml").read_bytes()
    assert run("play", rules, "--players", 2, "--seed", 1) == 0
    assert "not saved" in capsys.readouterr().out
    assert (rules / "game.yaml").read_bytes() == game and (rules / "play.rules").read_bytes() == before


def test_a_save_of_a_variant_the_rule_set_lacks_says_whose_save_it_is(rules, tmp_path, capsys, monkeypatch):
    # a house variant made in a copy: its save names it, and the shipped rule set lacks it
    assert run("variant", "new", "house", "--base", rules) == 0
    save = tmp_path / "house.save.jsonl"
    lines = iter(["", "s", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    assert run("play", rules, "--players", 2, "--seed", 1, "--variant", "house", "--save", save) == 0
    capsys.readouterr()
    err = refused(capsys, "play", "tic_tac_toe", "--resume", save)
    assert "the saved game is a game of the variant 'house', which " in err and "tic_tac_toe does not have" in err
    assert "fix them first" not in err  # not told that the rules are broken
