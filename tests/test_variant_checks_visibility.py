"""A `visibility:` entry of a variant that changes nothing is a warning at its line, and
`variant diff` leaves it out (docs/variants.md, "Who sees what")."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulecraft.cli.main import main
from rulecraft.dsl.loader import load_ruleset

RULES = Path(__file__).resolve().parent.parent / "rules" / "star_trek_panic"

OPEN_DECK = """variant:
  name: open_deck
  title: Open hands and a visible deck top
  base: star_trek_panic
  text: Everyone sees every hand, and the top Enterprise card is shown.
visibility:
  zones:
    hand: everyone
    enterprise_deck: {top_visible: true}
    threat_bag: everyone
"""


@pytest.fixture
def trek(tmp_path) -> Path:
    folder = tmp_path / "star_trek_panic"
    shutil.copytree(RULES, folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "variants" / "open_deck.yaml").write_text(OPEN_DECK, encoding="utf-8")
    return folder


def test_a_visibility_line_that_changes_nothing_is_a_warning_at_its_line(trek):
    base = load_ruleset(trek)
    assert base.data.zones["hand"].visible_to == "everyone"  # a cooperative game's open hands
    rs = load_ruleset(trek, variant="open_deck")
    [warning] = [d for d in rs.bag.warnings if "changes nothing" in d.message]
    assert warning.position.file.endswith("open_deck.yaml") and warning.position.line == 8
    assert "everyone already sees zone 'hand'" in warning.message
    assert ("zones", "hand") not in rs.variant.visibility
    assert ("zones", "threat_bag") in rs.variant.visibility


def test_variant_diff_leaves_out_what_changes_nothing(trek, capsys):
    assert main(["variant", "diff", "open_deck", "--base", str(trek)]) == 0
    out = capsys.readouterr().out
    assert "zone threat_bag" in out and "zone hand" not in out
