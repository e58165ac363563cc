"""`rulecraft check --variant V` reports V's own words (and its base chain's) whatever
the other variants hold: a broken variant hides nothing, and another variant's missing
glossary words are that variant's check's, not this one's (docs/glossaries.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulecraft.cli.main import main

RULES = Path(__file__).resolve().parent.parent / "rules" / "star_trek_panic"

THREE_THREATS = """variant:
  name: three_threats
  title: Three threats
  base: star_trek_panic
  text: Three threat tokens are drawn at the end of every turn instead of two.
parameters:
  threats_per_turn: 3
"""

BROKEN = """variant:
  name: extra_security
  title: Extra security
  base: star_trek_panic
  text: Two more Security cards.
components:
  security_card: {count: 8}
manifest:
  enterprise_card: 60
  enterprise_card.effect=security: 8
"""


@pytest.fixture
def trek(tmp_path) -> Path:
    folder = tmp_path / "star_trek_panic"
    shutil.copytree(RULES, folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "variants" / "three_threats.yaml").write_text(THREE_THREATS, encoding="utf-8")
    (folder / "variants" / "extra_security.yaml").write_text(BROKEN, encoding="utf-8")
    return folder


def _check(capsys, *args) -> tuple[int, str]:
    code = main(["check", *map(str, args)])
    return code, capsys.readouterr().out


def test_a_broken_variant_hides_no_warning_of_another(trek, capsys):
    code, out = _check(capsys, trek, "--variant", "three_threats", "--strict")
    assert "variants.three_threats.title" in out and "variants.three_threats.text" in out
    assert code == 1  # the docs of three_threats would be refused for those words
    assert "extra_security" not in out


def test_the_base_check_leaves_the_variants_own_words_to_their_checks(trek, capsys):
    (trek / "variants" / "extra_security.yaml").write_text(BROKEN.replace("60", "52"), encoding="utf-8")
    code, out = _check(capsys, trek)
    assert "three_threats" not in out and "extra_security" not in out
    assert code == 0


def test_one_variants_check_leaves_anothers_words_out(trek, capsys):
    (trek / "variants" / "extra_security.yaml").write_text(BROKEN.replace("60", "52"), encoding="utf-8")
    code, out = _check(capsys, trek, "--variant", "extra_security")
    assert "variants.extra_security.title" in out
    assert "three_threats" not in out
