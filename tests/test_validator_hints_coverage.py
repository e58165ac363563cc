"""Coverage counts the scenarios a variant keeps in its own folder (variants/NAME/),
whichever variant is asked for, and names the variant that covers a section; a cited
part that names no section gets the section it may be a slip for. Nothing here knows a
shipped game."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.validator import coverage, load_file, load_sections
from rulecraft.validator.coverage import Section, citation_hint, cited_by

SECTIONS = """\
source: house rules
sections:
  - Setup
  - Bidding
  - Turn, 2. Draw
  - "Variant: pairs"
"""

BASE = """\
scenarios:
  - title: Every player starts with coins
    cite: "house rules: Setup"
  - title: Bids are sealed
    cite: "house rules: Bidding; Turn, 2. Draw"
"""

PAIRS = """\
scenarios:
  - title: Two lots at once
    cite: "house rules: Variant: pairs"
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.fixture
def root(tmp_path) -> Path:
    root = tmp_path / "house"
    write(root / "scenarios" / "sections.yaml", SECTIONS)
    write(root / "scenarios" / "base.yaml", BASE)
    write(root / "variants" / "pairs.yaml", "variant: {name: pairs, base: house}\n")
    write(root / "variants" / "pairs" / "scenarios.yaml", PAIRS)
    write(root / "variants" / "plain.yaml", "variant: {name: plain, base: house}\n")  # no scenarios of its own
    return root


def loaded(root: Path):
    bag = DiagnosticBag()
    sections = load_sections(root / "scenarios" / "sections.yaml", bag)
    scenarios = load_file(root / "scenarios" / "base.yaml", bag).scenarios
    assert not bag.items, bag.render()
    return sections, scenarios


def test_a_variants_own_scenarios_cover_its_section_without_asking_for_the_variant(root):
    sections, scenarios = loaded(root)
    assert [s.name for s in coverage(sections, scenarios).uncovered] == ["Variant: pairs"]
    bag = DiagnosticBag()
    cov = coverage(sections, scenarios, root, bag)
    assert not bag.items, bag.render()
    assert cov.uncovered == []
    assert cov.variants_of("Variant: pairs") == ["pairs"] and cov.variants_of("Bidding") == []
    assert [cited_by(sc) for sc in cov.citing["Variant: pairs"]] == ["Two lots at once (variant pairs)"]
    assert [cited_by(sc) for sc in cov.citing["Setup"]] == ["Every player starts with coins"]
    assert [Path(f).name for f in cov.variant_files] == ["scenarios.yaml"]


def test_a_variants_scenarios_already_read_are_not_counted_twice(root):
    sections, scenarios = loaded(root)
    from rulecraft.validator.scenario import load_variant_scenarios

    bag = DiagnosticBag()
    own = [sc for f in load_variant_scenarios(root, ["pairs"], bag) for sc in f.scenarios]
    cov = coverage(sections, scenarios + own, root, bag)
    assert len(cov.citing["Variant: pairs"]) == 1 and cov.variant_files == []


@pytest.mark.parametrize("part, hint", [
    ("Biding", "did you mean 'Bidding'?"),
    ("Setpu", "did you mean 'Setup'?"),
    ("2. Drwa", "did you mean 'Turn, 2. Draw'?"),
    ("Endgame scoring of the purses", None),
])
def test_a_citation_naming_no_section_gets_the_closest_one(part, hint):
    sections = [Section("Setup"), Section("Bidding"), Section("Turn, 2. Draw"), Section("Variant: pairs")]
    assert citation_hint(part, sections) == hint


def test_coverage_gives_the_hint_of_each_unmatched_part(root):
    sections, scenarios = loaded(root)
    write(root / "scenarios" / "slip.yaml", 'scenarios:\n  - title: slip\n    cite: "house rules: Biding"\n')
    slip = load_file(root / "scenarios" / "slip.yaml", DiagnosticBag()).scenarios
    cov = coverage(sections, scenarios + slip)
    assert [(sc.title, part, cov.hint(part)) for sc, part in cov.unmatched] == [("slip", "Biding", "did you mean 'Bidding'?")]
