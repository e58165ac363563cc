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
        "the fr glossary has no entry 'broke' in 'definitions'",
        # the French docs need the variant's title (its name, when it has none) in French
        "the fr glossary has no text 'variants.bonus.title' in 'texts' (to say: \"bonus\")"]
    for lang, say in (("en", "{p} is broke"), ("fr", "{p} est ruiné")):
        own = folder / "variants" / "bonus" / "glossary"
        own.mkdir(parents=True, exist_ok=True)
        (own / f"{lang}.yaml").write_text(
            f'language: {lang}\ndefinitions:\n  broke: {{one: Broke, say: "{say}"}}\n'
            + ("texts:\n  variants.bonus.title: Prime\n" if lang == "fr" else ""), encoding="utf-8")
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



def test_a_glossary_key_naming_nothing_is_a_warning_with_a_hint(tmp_path, capsys):
    """A misspelt key is never looked up: its word silently goes unused. Every key must
    name something of the rule set: for the base glossary, of the base or any variant
    (it is read under each); for a variant's, of that variant (or one built on it)."""
    en = (GLOSSARY_EN.replace("  hoard: Hoard\n", "  hoard: Hoard\n  hoadr: typo\n  bag: wrong section\n")
          .replace("  k: {one: token, elide: true}\n", "  k: {one: token, elide: true}\n  pay.zz: typo\n  pay.amuont: typo\n")
          .replace("  asker: asker\n", "  asker: asker\n  tokne: typo\n")
          .replace("  d6: die\n", "  d6: die\n  d7: typo\n"))
    en += ("texts:\n  rich: fine\n  components.coni: typo\n  variants.bonus.title: fine\n  variants.bonsu.title: typo\n"
           "  broke: the base glossary may give a variant's words\n")
    folder = write_tiny(tmp_path, en=en)
    (folder / "variants").mkdir()
    (folder / "variants" / "bonus.yaml").write_text(VARIANT.lstrip(), encoding="utf-8")
    (folder / "variants" / "bonus.rules").write_text(VARIANT_RULES.lstrip(), encoding="utf-8")
    own = folder / "variants" / "bonus" / "glossary"
    own.mkdir(parents=True)
    for lang in ("en", "fr"):
        (own / f"{lang}.yaml").write_text(f"language: {lang}\ndefinitions:\n  broke: Broke\n  brok: typo\n",
                                          encoding="utf-8")
    en_file = folder / "glossary" / "en.yaml"
    lines = en_file.read_text(encoding="utf-8").splitlines()

    def at(key):  # line and column of a key in the base en glossary (its last entry of that name)
        line = max(i for i, text in enumerate(lines, 1) if text.startswith(f"  {key}:"))
        return str(en_file), line, 3

    expected = {
        "'d7' under 'dice' names no die": (at("d7"), "did you mean 'd6'?"),
        "'tokne' under 'fields' names no event field": (at("tokne"), "did you mean 'token'?"),
        "'hoadr' under 'definitions' names no definition": (at("hoadr"), "did you mean 'hoard'?"),
        "'bag' under 'definitions' names no definition": (at("bag"), "'bag' is a zone: move it under 'zones:'"),
        "'pay.zz' under 'names' names no local name": (at("pay.zz"), "'pay' has no local name 'zz'; its names: "),
        "'pay.amuont' under 'names' names no local name": (at("pay.amuont"), "did you mean 'pay.amount'?"),
        "'components.coni' under 'texts' names no definition, component, parameter, ruling or variant":
            (at("components.coni"), "did you mean 'components.coin'?"),
        "'variants.bonsu.title' under 'texts' names no definition, component, parameter, ruling or variant":
            (at("variants.bonsu.title"), "did you mean 'variants.bonus.title'?"),
    }
    base = [d for d in check_glossaries(load_ruleset(folder)) if " names no " in d.message]
    got = {d.message.removeprefix("the en glossary entry ").removesuffix(" of the rule set"):
           ((d.position.file, d.position.line, d.position.column), d.hint) for d in base}
    assert set(got) == set(expected), "\n".join(d.message for d in base)
    for message, (where, hint) in expected.items():
        assert got[message][0] == where, message
        assert got[message][1].startswith(hint), (message, got[message][1])
    assert "p, " in got["'pay.zz' under 'names' names no local name"][1]
    assert all(d.severity == "warning" and d.code == "glossary" for d in base)

    # with the variant: its own glossary is checked against the variant's names
    variant = [d for d in check_glossaries(load_ruleset(folder, variant="bonus")) if " names no " in d.message]
    mine = sorted((Path(d.position.file).relative_to(folder).as_posix(), d.position.line, d.message, d.hint)
                  for d in variant if "/variants/" in d.position.file)
    assert mine == [(f"variants/bonus/glossary/{lang}.yaml", 4,
                     f"the {lang} glossary entry 'brok' under 'definitions' names no definition of the rule set",
                     "did you mean 'broke'?") for lang in ("en", "fr")]

    # the command line shows the entry with a caret, and --strict fails on it
    assert main(["check", str(folder), "--variant", "bonus", "--strict"]) == 1
    out = capsys.readouterr().out
    assert f"{own / 'fr.yaml'}:4:3: warning: the fr glossary entry 'brok' under 'definitions' names no definition" in out
    assert "    4 |   brok: typo\n      |   ^^^^\n      = hint: did you mean 'broke'?" in out


GREEDY = """
variant:
  name: greedy
  title: Greedy
  base: tiny
  text: Taking costs nothing.
replaces: [take]
"""

GREEDY_RULES = """
action take:
    text "Take a token for free."
    with t: token in contents(bag)
    do:
        move t to purse(current_player)
        emit taken(token: t)
"""


def _variants_with_texts(tmp_path: Path) -> Path:
    """The tiny rule set, whose action 'take' has a text (translated in the base's French
    glossary), with two variants: 'bonus' adds a function, 'greedy' replaces 'take'."""
    rules = RULES.replace("action take:\n", 'action take:\n    text "Take a token from the bag."\n')
    folder = write_ruleset(tmp_path / "tiny", {"game.yaml": game_yaml() + DATA, "main.rules": rules})
    (folder / "glossary").mkdir()
    (folder / "glossary" / "en.yaml").write_text(
        GLOSSARY_EN.lstrip().replace("  hoard: Hoard\n", "  hoard: Hoard\n  broke: Broke\n"), encoding="utf-8")
    (folder / "glossary" / "fr.yaml").write_text(
        GLOSSARY_FR.lstrip().replace("  hoard: Thésauriser\n", "  hoard: Thésauriser\n  broke: Ruiné\n")
        + 'texts:\n  take: "Prenez un jeton du sac."\n', encoding="utf-8")
    variants = folder / "variants"
    variants.mkdir()
    (variants / "bonus.yaml").write_text(VARIANT.lstrip() + "  title: Bonus\n  text: A bonus rule.\n", encoding="utf-8")
    (variants / "bonus.rules").write_text(VARIANT_RULES.lstrip(), encoding="utf-8")
    (variants / "greedy.yaml").write_text(GREEDY.lstrip(), encoding="utf-8")
    (variants / "greedy.rules").write_text(GREEDY_RULES.lstrip(), encoding="utf-8")
    greedy = variants / "greedy" / "glossary"
    greedy.mkdir(parents=True)
    (greedy / "fr.yaml").write_text(
        'language: fr\ntexts:\n  variants.greedy.title: "Glouton"\n  variants.greedy.text: "Prendre est gratuit."\n',
        encoding="utf-8")
    return folder


def _docs_refusal(folder: Path, variant: str | None) -> set[tuple[str, str, str]]:
    """What `rulecraft docs --lang fr` refuses the site for: (file, message, hint)."""
    from rulecraft.docgen.authored import MissingWords
    from rulecraft.docgen.site import collect

    try:
        collect(folder, "fr", variant)
    except MissingWords as err:
        return {(d.position.file, d.message, d.hint) for d in err.bag.errors}
    return set()


def _check_texts(folder: Path, variant: str | None) -> set[tuple[str, str, str]]:
    return {(d.position.file, d.message, d.hint) for d in check_glossaries(load_ruleset(folder, variant=variant))
            if d.message.startswith("the fr glossary has no")}


def test_a_strict_check_of_a_variant_lists_what_its_french_docs_need_each_word_in_its_own_glossary(tmp_path, capsys):
    folder = _variants_with_texts(tmp_path)
    bonus_fr = str(folder / "variants" / "bonus" / "glossary" / "fr.yaml")
    greedy_fr = str(folder / "variants" / "greedy" / "glossary" / "fr.yaml")
    base_fr = str(folder / "glossary" / "fr.yaml")

    # (a) the check lists exactly what the docs refuse the site for
    refused = _docs_refusal(folder, "greedy")
    # the words of greedy and its base; bonus's own (its page of the site) are bonus's check's
    assert refused and _check_texts(folder, "greedy") == {r for r in refused if r[0] != bonus_fr}
    assert {r for r in refused if r[0] == bonus_fr} <= _check_texts(folder, "bonus")
    assert main(["check", str(folder), "--variant", "greedy", "--strict"]) == 1
    capsys.readouterr()
    by_key = {message.split("'")[1]: (file, hint) for file, message, hint in refused}
    # (b) each variant's words are asked for in its own glossary: bonus's title in bonus's,
    # not in greedy's (bonus has no glossary yet: its file is named all the same)
    assert set(by_key) == {"variants.bonus.title", "variants.bonus.text", "take"}
    assert by_key["variants.bonus.title"] == (
        bonus_fr, f"add 'variants.bonus.title: \"…\"' under 'texts:' in {bonus_fr}")
    # (c) the base's French text was written for the base's 'take': greedy's needs its own
    file, hint = by_key["take"]
    assert file == greedy_fr
    assert hint == (f"add 'take: \"…\"' under 'texts:' in {greedy_fr} "
                    f"(the text in {base_fr} is for the rule that variant 'greedy' replaces)")
    assert all(d.message != "the fr glossary has no text 'take' in 'texts'"
               for d in check_glossaries(load_ruleset(folder)))  # the base's own text serves the base

    # the words, each in its own glossary: the check passes, the docs are written
    bonus = folder / "variants" / "bonus" / "glossary"
    bonus.mkdir(parents=True)
    (bonus / "fr.yaml").write_text('language: fr\ntexts:\n  variants.bonus.title: "Prime"\n'
                                   '  variants.bonus.text: "Une règle de prime."\n', encoding="utf-8")
    assert _check_texts(folder, "greedy") == {(greedy_fr, *rest) for _, *rest in refused if "'take'" in rest[0]}
    with open(greedy_fr, "a", encoding="utf-8") as f:
        f.write('  take: "Prenez un jeton, gratuitement."\n')
    assert _check_texts(folder, "greedy") == set() == _docs_refusal(folder, "greedy")
    assert main(["check", str(folder), "--variant", "greedy", "--strict"]) == 0
    from rulecraft.docgen.site import collect

    site = collect(folder, "fr", "greedy")
    page = next(text for path, text in site.pages.items() if path.startswith("actions/") and "Prenez" in text)
    assert "Prenez un jeton, gratuitement." in page and "Prenez un jeton du sac." not in page
    variants_index = site.pages["variants/index.md"]
    assert "Prime" in variants_index and "Glouton" in variants_index
    base_page = next(text for path, text in collect(folder, "fr").pages.items()
                     if path.startswith("actions/") and "Prenez" in text)
    assert "Prenez un jeton du sac." in base_page


def test_the_round_is_called_by_the_glossarys_word_or_the_languages(tmp_path):
    from rulecraft.docgen.prose import Prose
    from rulecraft.docgen.ui import UI
    from rulecraft.narration import Words

    def words_of(folder):
        rs = load_ruleset(folder)
        words = Words(rs, "fr")
        return (words.event({"type": "round_started", "round": 2}), words.round_word(),
                Prose(rs, "fr").ph["values"]["round_number"])

    # a rule set that names no round is told in the language's own word
    assert words_of(write_tiny(tmp_path / "plain")) == ("La manche 2 commence.", "Manche", "le numéro de la manche")
    named = write_tiny(tmp_path / "named", fr=GLOSSARY_FR + "engine:\n  round: {one: tour de jeu, many: tours de jeu}\n")
    assert check_glossaries(load_ruleset(named)) == []
    assert words_of(named) == ("Le tour de jeu 2 commence.", "Tour de jeu", "le numéro du tour de jeu")
    assert UI("fr", {"round": "tour de jeu", "rounds": "tours de jeu"})("turn_structure_intro") == \
        "Une partie se joue en tours de jeu ; chaque tour de jeu applique ces règles."


def test_the_engine_section_names_only_the_engines_notions(tmp_path):
    folder = write_tiny(tmp_path, fr=GLOSSARY_FR + "engine:\n  rund: {one: tour de jeu}\n")
    errors = [d for d in check_glossaries(load_ruleset(folder)) if d.is_error]
    assert [(e.message, e.hint, e.position.line) for e in errors] == [
        ("unknown key 'rund' in engine", "did you mean 'round'?", line_of(folder / "glossary" / "fr.yaml", "  rund:"))]


def test_a_yaml_section_that_did_not_load_brings_no_glossary_warnings(tmp_path, capsys):
    # the section declares nothing, so every word for what it holds would name nothing
    folder = tmp_path / "ps"
    shutil.copytree(PANIC_STATION, folder, ignore=shutil.ignore_patterns("__pycache__"))
    components = folder / "components.yaml"
    text = components.read_text(encoding="utf-8")
    assert "kind: search_card, count: 12" in text
    components.write_text(text.replace("kind: search_card, count: 12", "kind: search_card, count: 0", 1),
                          encoding="utf-8")
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "glossary" not in out
    assert "1 error(s), 1 warning(s)" in out  # the error, and the note that checks waited


def test_an_event_phrase_tells_the_event_with_its_fields_and_may_name_only_them(tmp_path):
    from rulecraft.narration import Words

    phrased = GLOSSARY_EN.replace("  taken: a token is taken", '  taken: {one: a token is taken, say: "{token} is taken"}')
    rs = load_ruleset(write_tiny(tmp_path / "said", en=phrased))
    assert check_glossaries(rs) == []
    words = Words(rs, "en")
    assert words.event({"type": "taken", "token": "t1"}) == "T1 is taken."
    # without the phrase, the word and the fields
    plain = Words(load_ruleset(write_tiny(tmp_path / "plain")), "en")
    assert plain.event({"type": "taken", "token": "t1"}) == "A token is taken (token: t1)."
    # a slot that is no field of the event is a warning at the entry
    wrong = GLOSSARY_EN.replace("  taken: a token is taken", '  taken: {one: a token is taken, say: "{tokn} is taken"}')
    folder = write_tiny(tmp_path / "wrong", en=wrong)
    [warning] = check_glossaries(load_ruleset(folder))
    assert warning.message == "the en glossary entry 'taken' names tokn, which is not a field of the event 'taken'"
    assert warning.hint == "use its fields: {token}"
    assert warning.position.line == line_of(folder / "glossary" / "en.yaml", "  taken:")


def test_a_name_of_a_letter_or_two_needs_no_word(tmp_path):
    """`p`, `t`, `w` read as written, as in algebra (docs/glossaries.md): a glossary that
    gives them no word lacks none; a longer name (`face`) is still listed."""
    en = GLOSSARY_EN
    for line in ("  p: player\n", "  t: token\n", "  w: choice\n", "  face: roll\n"):
        assert line in en
        en = en.replace(line, "", 1)
    ruleset = load_ruleset(write_tiny(tmp_path, en=en))
    missing = sorted(d.message for d in check_glossaries(ruleset) if "in 'names'" in d.message and "the en " in d.message)
    assert missing == ["the en glossary has no entry 'face' in 'names'"], missing
