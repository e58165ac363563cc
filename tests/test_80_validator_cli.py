"""`rulecraft verify`: the shipped Panic Station scenarios pass; failures, broken files,
coverage and bad command lines on a tiny rule set laid out like the repository
(``rules/<game>`` next to ``seeds/<game>``)."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
from test_80_validator import GAME, RULES

from rulecraft.cli.main import main

REPO = Path(__file__).resolve().parent.parent
PANIC_STATION = REPO / "rules" / "panic_station"


def verify(capsys, *args: str) -> tuple[int, str]:
    code = main(["verify", *map(str, args)])
    out = capsys.readouterr()
    return code, out.out + out.err


# ---------------------------------------------------------------- Panic Station


def test_verify_panic_station_passes(capsys):
    code, out = verify(capsys, PANIC_STATION)
    assert code == 0, out
    assert "PASS" in out and "\nFAIL" not in out
    assert " 0 failed, 0 broken" in out


def test_verify_panic_station_coverage_lists_covered_and_uncovered_sections(capsys):
    code, out = verify(capsys, PANIC_STATION, "--coverage")
    assert code == 0, out
    assert "Coverage of rulebook-en" in out
    assert "covered: " in out and " section(s) with rules" in out
    assert "Team Phase, 1. Explore" in out and "Game Setup" in out
    assert "nothing to verify" in out  # Strategy tips and the story
    assert "names no section" not in out  # every citation of the scenarios is a real section


def test_every_panic_station_scenario_cites_a_section_and_there_are_enough():
    from rulecraft.dsl.diagnostics import DiagnosticBag
    from rulecraft.validator import coverage, load_file, load_sections, scenario_files

    seeds = REPO / "seeds" / "panic_station"
    bag = DiagnosticBag()
    scenarios = [sc for p in scenario_files(seeds) for sc in load_file(p, bag).scenarios]
    sections = load_sections(seeds / "sections.yaml", bag)
    assert not bag.items, bag.render()
    assert len(scenarios) >= 25
    cov = coverage(sections, scenarios)
    assert cov.unmatched == []
    assert len(cov.covered) >= 12


# ---------------------------------------------------------------- a tiny repository


OK = """\
scenarios:
  - title: Drawing costs an action point
    cite: "tiny-rules: Drawing"
    steps:
      - do: draw
    expect:
      props:
        p1: {ap: 1}
  - title: Playing a card scores
    cite: "tiny-rules: Scoring; tiny-rules: Playing"
    setup:
      hands: {p1: [card.1]}
    steps:
      - do: play
        args: {c: card.1}
    expect:
      props:
        p1: {score: 1}
"""

WRONG = """\
title: Drawing is free (wrong on purpose)
cite: "tiny-rules: Drawing"
steps:
  - do: draw
  - expect:
      props:
        p1: {ap: 2}
"""

SECTIONS = """\
source: tiny-rules
sections:
  - Setup
  - Drawing
  - Playing
  - Scoring
  - {name: Tips, rules: false}
"""


@pytest.fixture
def repo(tmp_path) -> Path:
    """tmp/rules/tiny (the rule set) and tmp/seeds/tiny (its scenarios)."""
    rules = tmp_path / "rules" / "tiny"
    rules.mkdir(parents=True)
    (rules / "game.yaml").write_text(GAME, encoding="utf-8")
    (rules / "main.rules").write_text(RULES, encoding="utf-8")
    seeds = tmp_path / "seeds" / "tiny"
    seeds.mkdir(parents=True)
    (seeds / "ok.yaml").write_text(OK, encoding="utf-8")
    (seeds / "sections.yaml").write_text(SECTIONS, encoding="utf-8")
    return tmp_path


def test_scenarios_are_found_next_to_the_rules_folder(repo, capsys):
    code, out = verify(capsys, repo / "rules" / "tiny")
    assert code == 0, out
    assert "Drawing costs an action point" in out
    assert "2 scenario(s): 2 passed, 0 failed, 0 broken" in out


def test_a_failing_scenario_exits_1_naming_the_step_and_expected_versus_actual(repo, capsys):
    (repo / "seeds" / "tiny" / "wrong.yaml").write_text(WRONG, encoding="utf-8")
    code, out = verify(capsys, repo / "rules" / "tiny")
    assert code == 1
    assert "FAIL" in out
    assert "wrong.yaml:1:1: Drawing is free (wrong on purpose)" in out
    assert "diverged at step 2 (expect), " in out and "wrong.yaml:5:5" in out
    assert "- p1.ap" in out and "wrong.yaml:7:18" in out
    assert "expected: 2" in out and "actual:   1" in out
    assert "3 scenario(s): 2 passed, 1 failed, 0 broken" in out


def test_a_broken_scenario_file_is_reported_with_file_line_and_column(repo, capsys):
    (repo / "seeds" / "tiny" / "broken.yaml").write_text("title: x\ncite: y\nstesp: []\n", encoding="utf-8")
    (repo / "seeds" / "tiny" / "typo.yaml").write_text("title: x\ncite: y\nsteps:\n  - do: drew\n", encoding="utf-8")
    code, out = verify(capsys, repo / "rules" / "tiny")
    assert code == 1
    assert "broken.yaml:3:1: error: unknown key 'stesp' in the file" in out
    assert "did you mean 'steps'?" in out
    assert "typo.yaml:4:9: error: unknown action 'drew'" in out
    assert "1 file(s) do not load" in out and "1 broken" in out


def test_coverage_lists_covered_uncovered_and_unknown_sections(repo, capsys):
    (repo / "seeds" / "tiny" / "odd.yaml").write_text(
        'title: Odd citation\ncite: "tiny-rules: Shuffling; other-book: Page 3"\n', encoding="utf-8")
    code, out = verify(capsys, repo / "rules" / "tiny", "--coverage")
    assert code == 0, out
    assert "Coverage of tiny-rules" in out
    assert "covered: 3 of 4 section(s) with rules" in out
    assert "uncovered: Setup" in out
    assert "nothing to verify" in out  # Tips
    assert "'Shuffling' names no section" in out
    assert "cited from other sources: other-book: Page 3" in out


def test_an_unknown_citation_is_warned_about_without_coverage(repo, capsys):
    (repo / "seeds" / "tiny" / "odd.yaml").write_text('title: Odd\ncite: "tiny-rules: Shufling"\n', encoding="utf-8")
    code, out = verify(capsys, repo / "rules" / "tiny")
    assert code == 0
    assert "odd.yaml:2:1: 'Shufling' names no section" in out


def test_the_scenarios_option_and_a_missing_default_folder(repo, capsys):
    elsewhere = repo / "elsewhere"
    shutil.copytree(repo / "seeds" / "tiny", elsewhere)
    shutil.rmtree(repo / "seeds")
    code, out = verify(capsys, repo / "rules" / "tiny")
    assert code == 0 and "no scenarios" in out
    code, out = verify(capsys, repo / "rules" / "tiny", "--scenarios", elsewhere)
    assert code == 0 and "2 passed" in out


def test_variant_scenarios_are_skipped_unless_asked_for(repo, capsys):
    (repo / "seeds" / "tiny" / "variant.yaml").write_text(
        'title: Hard mode\ncite: "tiny-rules: Setup"\nvariant: hard\n', encoding="utf-8")
    # a scenario of a variant the rule set does not have would never run: it is broken
    code, out = verify(capsys, repo / "rules" / "tiny")
    assert code == 1 and "variant.yaml:3:10: error: the rule set has no variant 'hard'" in out, out
    assert "hint: the rule set has no variants: remove the 'variant:' line" in out
    # asking for a variant the rule set does not have is bad usage, not a silent base run
    code, out = verify(capsys, repo / "rules" / "tiny", "--variant", "hard")
    assert code == 2 and "no variant 'hard'" in out
    # with the variant present, its scenarios are skipped in a base run ...
    (repo / "rules" / "tiny" / "variants").mkdir()
    (repo / "rules" / "tiny" / "variants" / "hard.yaml").write_text(
        "variant:\n  name: hard\n  base: tiny\n", encoding="utf-8")
    code, out = verify(capsys, repo / "rules" / "tiny")
    assert code == 0 and "SKIP" in out and "1 skipped (scenarios of variants: run them with --variant hard)" in out
    # ... and run on the patched rules when it is asked for
    code, out = verify(capsys, repo / "rules" / "tiny", "--variant", "hard")
    assert code == 0 and "3 passed" in out


def test_the_summary_says_why_scenarios_were_skipped(repo, capsys):
    (repo / "seeds" / "tiny" / "variant.yaml").write_text(
        'title: Hard mode\ncite: "tiny-rules: Setup"\nvariant: other\n', encoding="utf-8")
    (repo / "rules" / "tiny" / "variants").mkdir()
    (repo / "rules" / "tiny" / "variants" / "other.yaml").write_text(
        "variant:\n  name: other\n  base: tiny\n", encoding="utf-8")
    (repo / "rules" / "tiny" / "variants" / "hard.yaml").write_text(
        "variant:\n  name: hard\n  base: tiny\nsuperseded:\n  - scenario: Playing a card scores\n"
        "    reason: cards score nothing here\n", encoding="utf-8")
    code, out = verify(capsys, repo / "rules" / "tiny", "--variant", "hard")
    assert code == 0, out
    assert "2 skipped (scenarios of variants: run them with --variant other; 1 superseded by hard)" in out


def test_a_superseded_title_no_scenario_has_is_located_in_the_variant(repo, capsys):
    (repo / "rules" / "tiny" / "variants").mkdir()
    (repo / "rules" / "tiny" / "variants" / "hard.yaml").write_text(
        "variant:\n  name: hard\n  base: tiny\nsuperseded:\n  - scenario: Playing a card scorez\n"
        "    reason: cards score nothing here\n  - scenario: Kept in the broken file\n    reason: x\n",
        encoding="utf-8")
    # a title in a scenario file that does not load is that file's error, not the variant's
    (repo / "seeds" / "tiny" / "broken.yaml").write_text(
        'title: Kept in the broken file\ncite: [unclosed\n', encoding="utf-8")
    code, out = verify(capsys, repo / "rules" / "tiny", "--variant", "hard")
    assert code == 1
    assert "variants/hard.yaml:5:15: error: the variant supersedes a scenario that does not exist" in out, out
    assert "hint: did you mean 'Playing a card scores'?" in out
    assert out.count("supersedes a scenario") == 1


def test_known_failures_do_not_fail_the_run_until_they_pass(repo, capsys):
    known = WRONG.replace("steps:", "known_failure: the tiny rules charge for drawing\nsteps:")
    path = repo / "seeds" / "tiny" / "known.yaml"
    path.write_text(known, encoding="utf-8")
    code, out = verify(capsys, repo / "rules" / "tiny")
    assert code == 0, out
    assert "KNOWN FAILURE" in out and "known: the tiny rules charge for drawing" in out
    assert "expected: 2" in out and "actual:   1" in out
    assert "2 passed, 0 failed, 0 broken, 1 known failure(s)" in out
    path.write_text(known.replace("{ap: 2}", "{ap: 1}"), encoding="utf-8")
    code, out = verify(capsys, repo / "rules" / "tiny")
    assert code == 1
    assert "remove the known_failure line" in out and "1 known failure(s) passing" in out


def test_a_rule_set_with_errors_is_reported_and_no_scenario_runs(repo, capsys):
    rules = repo / "rules" / "tiny" / "main.rules"
    rules.write_text(rules.read_text().replace("move top(deck) to hand(current_player)",
                                               "move top(dek) to hand(current_player)"), encoding="utf-8")
    code, out = verify(capsys, repo / "rules" / "tiny")
    assert code == 1
    assert "unknown name 'dek'" in out
    assert "scenario(s)" not in out


@pytest.mark.parametrize("argv, message", [
    (["verify", "no/such/rules"], "no rule set at 'no/such/rules'"),
    (["verify", "rules/panic_station", "--scenarios", "no/such/folder"], "no folder at 'no/such/folder'"),
    (["verify", "rules/panic_station", "--frobnicate"], "unrecognized arguments"),
])
def test_bad_usage_is_one_line_and_exit_2(argv, message, capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_scenario_file_written_by_hand_follows_the_documented_example(tmp_path):
    """The example in docs/scenarios.md is a real, passing scenario."""
    from rulecraft.dsl.loader import load_checked
    from rulecraft.validator import PASS, load_text, run_scenario
    from rulecraft.dsl.diagnostics import DiagnosticBag

    doc = (REPO / "docs" / "scenarios.md").read_text(encoding="utf-8")
    start = doc.index("```yaml\n# example") + len("```yaml\n")
    text = textwrap.dedent(doc[start:doc.index("```", start)])
    bag = DiagnosticBag()
    loaded = load_text(text, "docs/scenarios.md", bag)
    assert loaded.ok, bag.render()
    ruleset = load_checked(PANIC_STATION)
    for sc in loaded.scenarios:
        result = run_scenario(ruleset, sc)
        assert result.status == PASS, (result.divergence, result.bag and result.bag.render())


def test_coverage_under_a_variant_leaves_out_the_examples_it_supersedes(capsys):
    # a section covered only by examples humans_advantage supersedes was counted as covered
    code, base = verify(capsys, PANIC_STATION, "--coverage")
    code, varied = verify(capsys, PANIC_STATION, "--coverage", "--variant", "humans_advantage")
    assert code == 0, varied
    covered = lambda out: int(out.split("covered: ")[1].split(" of ")[0])  # noqa: E731
    assert covered(varied) < covered(base)
    assert "uncovered: " in varied and "Components" in varied.split("uncovered: ")[1]
