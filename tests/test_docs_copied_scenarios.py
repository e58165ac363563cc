"""A copied rule set whose worked examples are elsewhere: `rulecraft check --scenarios DIR`
reads them as `docs --scenarios DIR` does, so that `check --strict` passes exactly when
the docs can be written; and `docs` without `--scenarios` says where it looked for them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulecraft.cli.main import main

HERE = Path(__file__).resolve().parent.parent
RULES = HERE / "rules" / "star_trek_panic"
SEEDS = HERE / "seeds" / "star_trek_panic"
CITED = "summary: 4. Play Cards and Maneuver (hit cards); "


@pytest.fixture(scope="module")
def copied(tmp_path_factory) -> tuple[Path, Path]:
    """The rule set copied alone (no seeds/ beside it), and its scenarios in another folder,
    one of them citing a section no glossary translates."""
    top = tmp_path_factory.mktemp("copied")
    rules = top / "mine" / "star_trek_panic"
    shutil.copytree(RULES, rules, ignore=shutil.ignore_patterns("__pycache__"))
    examples = top / "examples"
    shutil.copytree(SEEDS, examples)
    cards = examples / "details_cards.yaml"
    text = cards.read_text(encoding="utf-8")
    assert CITED in text
    cards.write_text(text.replace(CITED, "house notes: hits; ", 1), encoding="utf-8")
    return rules, examples


def test_check_reads_the_worked_examples_of_scenarios_dir(copied, capsys):
    rules, examples = copied
    code = main(["check", str(rules), "--scenarios", str(examples), "--strict"])
    out = capsys.readouterr().out
    assert "house notes: hits" in out and "citations" in out
    assert code == 1


def test_check_strict_passes_exactly_when_the_docs_can_be_written(copied, capsys, tmp_path):
    rules, examples = copied
    assert main(["docs", str(rules), "--lang", "fr", "--scenarios", str(examples),
                 "--out", str(tmp_path / "site")]) == 1
    assert "house notes: hits" in capsys.readouterr().err


def test_docs_of_a_copy_without_scenarios_says_where_it_looked(copied, capsys, tmp_path):
    rules, _ = copied
    assert main(["docs", str(rules), "--out", str(tmp_path / "site")]) == 0
    out = capsys.readouterr().out
    [note] = [line for line in out.splitlines() if "no worked examples" in line]
    assert str(rules.resolve().parent.parent / "seeds" / "star_trek_panic") in note and "--scenarios DIR" in note


def test_docs_of_a_rule_set_with_no_examples_anywhere_says_nothing_of_them(tmp_path, capsys):
    rules = tmp_path / "mine" / "my_game"
    shutil.copytree(HERE / "rules" / "tic_tac_toe", rules, ignore=shutil.ignore_patterns("__pycache__"))
    game = rules / "game.yaml"
    text = game.read_text(encoding="utf-8")
    assert "name: tic_tac_toe" in text
    game.write_text(text.replace("name: tic_tac_toe", "name: my_game", 1), encoding="utf-8")
    assert main(["docs", str(rules), "--out", str(tmp_path / "site")]) == 0
    assert "no worked examples" not in capsys.readouterr().out
