"""A variant's restated manifest count is the box as the variant changes it; the
components it adds under `add: components:` are counted on top of it (docs/variants.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulecraft.dsl.loader import load_ruleset

RULES = Path(__file__).resolve().parent.parent / "rules" / "star_trek_panic"

EXTRA_SECURITY = """variant:
  name: extra_security
  title: Extra security and a phaser barrage
  base: star_trek_panic
  text: Two more Security cards, and two new hit cards.
components:
  security_card: {{count: 8}}
manifest:
  enterprise_card: {restated}
  enterprise_card.effect=security: 8
add:
  components:
    - {{name: phaser_barrage, kind: enterprise_card, count: 2, zone: enterprise_deck, properties: {{effect: hit, arc: any, range: any}}}}
"""


@pytest.fixture
def trek(tmp_path) -> Path:
    folder = tmp_path / "star_trek_panic"
    shutil.copytree(RULES, folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def _write(folder: Path, restated: int) -> None:
    (folder / "variants").mkdir(exist_ok=True)
    (folder / "variants" / "extra_security.yaml").write_text(EXTRA_SECURITY.format(restated=restated),
                                                             encoding="utf-8")


def _manifest_errors(rs):
    return [d for d in rs.bag.errors if "manifest says" in d.message]


def test_a_restated_count_is_the_changed_box_and_added_components_come_on_top(trek):
    _write(trek, 52)  # the base's 50, with two more Security cards; the two phaser barrages on top
    rs = load_ruleset(trek, variant="extra_security")
    assert _manifest_errors(rs) == []
    assert rs.data.manifest["enterprise_card"] == 54
    assert rs.variant.manifest["enterprise_card"] == (50, 54)


def test_a_restated_count_with_the_added_components_in_it_is_told_so(trek):
    _write(trek, 54)
    rs = load_ruleset(trek, variant="extra_security")
    [error] = _manifest_errors(rs)
    assert error.position.file.endswith("extra_security.yaml")
    assert "2 it adds under 'add: components:' (2 phaser_barrage)" in error.message
    assert "without the components it adds" in error.hint and "write 'enterprise_card: 52'" in error.hint
