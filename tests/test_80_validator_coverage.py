"""Citations matched to a rulebook's sections, and the sections file itself."""

from __future__ import annotations

import textwrap

from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.validator import coverage, load_sections, load_text
from rulecraft.validator.coverage import Section, cite_parts, match_sections

SECTIONS = [Section(n) for n in (
    "Game Setup", "Team Phase", "Team Phase, 1. Explore", "Team Phase, 7. Use Item",
    "Room Types, Parasite Alert", "Item Cards, Parasite Alert!", "Item Cards, Keycard", "Master & Servant variant")]


def names(found):
    return [s.name for s in found]


def test_a_citation_splits_into_sections_each_with_its_source():
    assert cite_parts("rulebook-en: Team Phase, 1. Explore") == [("rulebook-en", "Team Phase, 1. Explore")]
    assert cite_parts("rulebook-en: Keycard; 7. Use Item; rulebook-fr: Echanges") == [
        ("rulebook-en", "Keycard"), ("rulebook-en", "7. Use Item"), ("rulebook-fr", "Echanges")]
    assert cite_parts("Game Setup") == [(None, "Game Setup")]


def test_exact_names_match_whatever_the_case_and_spacing():
    assert names(match_sections("team phase,  1. explore", SECTIONS)) == ["Team Phase, 1. Explore"]
    assert names(match_sections("Master & Servant variant", SECTIONS)) == ["Master & Servant variant"]


def test_a_more_precise_citation_counts_for_the_most_precise_section_it_starts_with():
    assert names(match_sections("Game Setup (exploration deck)", SECTIONS)) == ["Game Setup"]
    assert names(match_sections("Team Phase, 1. Explore, the Hive", SECTIONS)) == ["Team Phase, 1. Explore"]
    assert names(match_sections("Team Phase, 2. Move", SECTIONS)) == ["Team Phase"]


def test_a_short_citation_counts_for_the_section_whose_name_ends_with_it():
    assert names(match_sections("7. Use Item", SECTIONS)) == ["Team Phase, 7. Use Item"]
    assert names(match_sections("Keycard", SECTIONS)) == ["Item Cards, Keycard"]
    assert names(match_sections("Parasite Alert", SECTIONS)) == ["Room Types, Parasite Alert"]
    assert names(match_sections("Parasite Alert!", SECTIONS)) == ["Item Cards, Parasite Alert!"]
    assert match_sections("Explore", SECTIONS) == []  # part of a segment is not enough
    assert match_sections("Trading", SECTIONS) == []


def _sections(tmp_path, text: str):
    bag = DiagnosticBag()
    path = tmp_path / "sections.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return load_sections(path, bag, "seeds/tiny/sections.yaml"), bag


def test_the_sections_file_is_checked_with_located_errors(tmp_path):
    sections, bag = _sections(tmp_path, """\
        source: tiny-rules
        sections:
          - Setup
          - {name: Tips, rules: false, note: advice}
          - {name: Odd, rulez: false}
          - Setup
        extra: 1
    """)
    assert [s.name for s in sections.sections] == ["Setup", "Tips"]
    assert sections.sections[1].rules is False and sections.sections[1].note == "advice"
    text = bag.render()
    assert "seeds/tiny/sections.yaml:5:5: error: a section is a name, or {name: ..., rules: false, note: ...}" in text
    assert "seeds/tiny/sections.yaml:6:5: error: section 'Setup' is listed twice" in text
    assert "seeds/tiny/sections.yaml:7:1: error: unknown key 'extra' in the sections file" in text
    assert all(d.hint for d in bag.errors), text
    assert "hint: it is first listed at line 3: keep one of them" in text
    assert "'rules' is true or false" in text


def test_coverage_counts_scenarios_per_section_and_lists_the_rest(tmp_path):
    sections, bag = _sections(tmp_path, """\
        source: tiny-rules
        sections: [Setup, Drawing, Playing, {name: Tips, rules: false}]
    """)
    loaded = load_text(textwrap.dedent("""\
        scenarios:
          - {title: a, cite: "tiny-rules: Drawing; Playing"}
          - {title: b, cite: "tiny-rules: Drawing (an empty deck)"}
          - {title: c, cite: "tiny-rules: Shuffling; other: Page 2"}
    """), "s.yaml", bag)
    assert not bag.items, bag.render()
    cov = coverage(sections, loaded.scenarios)
    assert [sc.title for sc in cov.citing["Drawing"]] == ["a", "b"]
    assert [sc.title for sc in cov.citing["Playing"]] == ["a"]
    assert [s.name for s in cov.covered] == ["Drawing", "Playing"]
    assert [s.name for s in cov.uncovered] == ["Setup"]  # Tips has nothing to verify
    assert [(sc.title, part) for sc, part in cov.unmatched] == [("c", "Shuffling")]
    assert [part for _, part in cov.other_sources] == ["other: Page 2"]


def test_a_source_of_several_words_is_a_source():
    """The yardsticks cite 'standard rules: Play': read as a section with no source, no
    scenario counted for their sections and coverage showed every one uncovered."""
    from rulecraft.docgen import authored

    assert cite_parts("standard rules: Setup; Play") == [("standard rules", "Setup"), ("standard rules", "Play")]
    assert authored.cite_parts("standard rules: Setup; Play") == [("standard rules", "Setup"),
                                                                   ("standard rules", "Play")]
    # a section's own name with a colon is still a section, not a source
    assert cite_parts("rulebook-en: Team Phase, 2. Move: doors") == [("rulebook-en", "Team Phase, 2. Move: doors")]
