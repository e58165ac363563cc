"""Glossaries are checked with the rule set: `rulecraft check` reports a term a glossary
lacks, and a glossary's schema errors, at their place in the glossary file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine_rulesets import game_yaml, write_ruleset
from test_40_prose import DATA, GLOSSARY_EN, GLOSSARY_FR, RULES

from rulecraft.cli.main import main
from rulecraft.docgen.glossary import check_glossaries, load_glossary
from rulecraft.dsl.loader import load_ruleset
from rulecraft.dsl.variants import available_variants

PANIC_STATION = Path(__file__).resolve().parent.parent / "rules" / "panic_station"


def write_tiny(tmp_path: Path, en: str = GLOSSARY_EN, fr: str = GLOSSARY_FR) -> Path:
    folder = write_ruleset(tmp_path / "tiny", {"game.yaml": game_yaml() + DATA, "main.rules": RULES})
    (folder / "glossary").mkdir()
    (folder / "glossary" / "en.yaml").write_text(en.lstrip(), encoding="utf-8")
    (folder / "glossary" / "fr.yaml").write_text(fr.lstrip(), encoding="utf-8")
    return folder


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if line.startswith(text))


@pytest.mark.parametrize("variant", [None] + available_variants(PANIC_STATION))
def test_panic_station_glossaries_are_complete(variant):
    ruleset = load_ruleset(PANIC_STATION, variant=variant)
    assert ruleset.ok
    assert check_glossaries(ruleset) == []


def test_a_complete_glossary_checks_clean(tmp_path, capsys):
    assert main(["check", str(write_tiny(tmp_path)), "--strict"]) == 0
    assert "0 error(s), 0 warning(s)" in capsys.readouterr().out


def test_a_missing_term_is_a_warning_located_in_the_glossary(tmp_path, capsys):
    folder = write_tiny(tmp_path, fr=GLOSSARY_FR.replace("  bag: sac\n", ""))
    fr = folder / "glossary" / "fr.yaml"
    assert main(["check", str(folder)]) == 0  # a warning does not fail the check...
    out = capsys.readouterr().out
    assert f"{fr}:{line_of(fr, 'zones:')}:1: warning: the fr glossary has no entry 'bag' in 'zones'" in out
    assert f"= hint: add 'bag' under 'zones:' in {fr}" in out
    assert "^^^^^" in out  # the line is quoted with a caret under 'zones'
    assert "0 error(s), 1 warning(s)" in out
    assert main(["check", str(folder), "--strict"]) == 1  # ...unless warnings count as errors


def test_a_section_left_out_is_reported_at_the_top_of_the_file(tmp_path):
    text = GLOSSARY_EN.split("dice:")[0] + "variables:" + GLOSSARY_EN.split("variables:")[1]
    ruleset = load_ruleset(write_tiny(tmp_path, en=text))
    missing = [d for d in check_glossaries(ruleset) if "'dice'" in d.message]
    assert [(d.message, d.position.line, d.position.column) for d in missing] == [
        ("the en glossary has no entry 'd6' in 'dice'", 1, 1)]


def test_a_schema_error_in_a_glossary_is_located(tmp_path, capsys):
    folder = write_tiny(tmp_path, fr=GLOSSARY_FR.replace("  pile: {one: pile, gender: f}",
                                                         "  pile: {one: pile, gendre: f}"))
    fr = folder / "glossary" / "fr.yaml"
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr().out
    line = line_of(fr, "  pile:")
    column = fr.read_text(encoding="utf-8").splitlines()[line - 1].index("gendre") + 1
    assert f"{fr}:{line}:{column}: error: unknown key 'gendre' in zones/pile" in out
    assert "= hint: did you mean 'gender'?" in out
    # a broken glossary is not also reported term by term
    assert "1 error(s), 0 warning(s)" in out


def test_a_wrong_gender_is_a_schema_error(tmp_path):
    folder = write_tiny(tmp_path, fr=GLOSSARY_FR.replace("  bourse, gender: f}", "  bourse, gender: x}")
                        .replace("{one: bourse, gender: f}", "{one: bourse, gender: x}"))
    errors = [d for d in check_glossaries(load_ruleset(folder)) if d.is_error]
    assert len(errors) == 1
    assert errors[0].position.line == line_of(folder / "glossary" / "fr.yaml", "  purse:")
    assert "not an allowed value" in errors[0].message


def test_a_phrase_naming_no_parameter_is_reported(tmp_path):
    folder = write_tiny(tmp_path, en=GLOSSARY_EN.replace('say: "{p} pays {amount}"', 'say: "{p} pays {sum}"'))
    problems = check_glossaries(load_ruleset(folder))
    assert [(d.severity, d.message, d.hint) for d in problems] == [
        ("warning", "the en glossary entry 'pay' names sum, which is not a parameter of 'pay'",
         "use the parameters: {p}, {amount}")]
    assert problems[0].position.line == line_of(folder / "glossary" / "en.yaml", "  pay:")


def test_a_denial_naming_no_parameter_is_reported(tmp_path):
    folder = write_tiny(tmp_path, en=GLOSSARY_EN.replace('say: "{p} is rich"', 'say: "{p} is rich", deny: "{who} is poor"'))
    problems = check_glossaries(load_ruleset(folder))
    assert [(d.severity, d.message) for d in problems] == [
        ("warning", "the en glossary entry 'rich' names who, which is not a parameter of 'rich'")]


def test_denials_bare_words_and_feminine_plurals_are_accepted(tmp_path):
    fr = (GLOSSARY_FR.replace('say: "{p} est riche"', 'say: "{p} est riche", deny: "{p} n\'est pas riche"')
          .replace('  done: "« fini »"', '  done: {one: "« fini »", bare: fini, article: false}')
          .replace("{one: noms, gender: p}", "{one: noms, gender: fp}"))
    ruleset = load_ruleset(write_tiny(tmp_path, fr=fr))
    assert check_glossaries(ruleset) == []
    glossary = load_glossary(ruleset, "fr")
    assert glossary.get("definitions", "rich").deny == "{p} n'est pas riche"
    assert glossary.get("values", "done").bare == "fini"
    assert glossary.get("names", "l").plural_only and glossary.get("names", "l").feminine


def test_a_glossary_in_the_wrong_language_is_an_error(tmp_path):
    folder = write_tiny(tmp_path, fr=GLOSSARY_FR.replace("language: fr", "language: en"))
    errors = [d for d in check_glossaries(load_ruleset(folder)) if d.is_error]
    assert [d.message for d in errors] == ["glossary " + str(folder / "glossary" / "fr.yaml")
                                           + " says it is in 'en', not 'fr'"]


def test_a_rule_set_without_glossaries_has_nothing_to_report(tmp_path):
    folder = write_ruleset(tmp_path / "bare", {"game.yaml": game_yaml() + DATA, "main.rules": RULES})
    assert check_glossaries(load_ruleset(folder)) == []


VARIANT = """
variant:
  name: bonus
  base: tiny
"""

VARIANT_RULES = """
function broke(p: player) -> bool:
    = p.gold == 0
"""


def test_a_variant_brings_its_own_glossary_entries(tmp_path):
    folder = write_tiny(tmp_path)
    (folder / "variants").mkdir()
    (folder / "variants" / "bonus.yaml").write_text(VARIANT.lstrip(), encoding="utf-8")
    (folder / "variants" / "bonus.rules").write_text(VARIANT_RULES.lstrip(), encoding="utf-8")
    missing = check_glossaries(load_ruleset(folder, variant="bonus"))
    assert sorted(d.message for d in missing) == [
        "the en glossary has no entry 'broke' in 'definitions'",
        "the fr glossary has no entry 'broke' in 'definitions'"]
    for lang, say in (("en", "{p} is broke"), ("fr", "{p} est ruiné")):
        own = folder / "variants" / "bonus" / "glossary"
        own.mkdir(parents=True, exist_ok=True)
        (own / f"{lang}.yaml").write_text(
            f'language: {lang}\ndefinitions:\n  broke: {{one: Broke, say: "{say}"}}\n', encoding="utf-8")
    ruleset = load_ruleset(folder, variant="bonus")
    assert check_glossaries(ruleset) == []
    assert load_glossary(ruleset, "fr").get("definitions", "broke").say == "{p} est ruiné"
    assert check_glossaries(load_ruleset(folder)) == []  # the base game does not need it


def test_a_copy_of_panic_station_missing_a_french_term_fails_a_strict_check(tmp_path, capsys):
    copy = tmp_path / "panic_station"
    shutil.copytree(PANIC_STATION, copy)
    fr = copy / "glossary" / "fr.yaml"
    fr.write_text(fr.read_text(encoding="utf-8").replace("  hive: Nid\n", ""), encoding="utf-8")
    assert main(["check", str(copy), "--strict"]) == 1
    out = capsys.readouterr().out
    assert f"{fr}:{line_of(fr, 'components:')}:1: warning: the fr glossary has no entry 'hive' in 'components'" in out
