"""Every YAML table error has a hint, in plain words: a key twice, a number too large,
data nested too deep, aliases that multiply or never end, a tag, a '<<' merge key, a
second document, a value breaking a schema pattern, an empty value where one is
expected; and the follow-on warning of a file that did not load names the file, not a
path where a section name belongs."""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from pathlib import Path

import pytest

from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.dsl.loader import load_ruleset
from rulecraft.dsl.yaml_data import load_yaml_text, validate

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "rules" / "tic_tac_toe"
SCHEMA = "ruleset.schema.json"
# The hint once attached to every PyYAML message it had no words for, tags and documents
# included: about indentation, which they have nothing to do with.
INDENTATION_HINT = "check the indentation and that every 'key: value' has a space after the colon"
# Words of PyYAML, jsonschema or Python that a rule author should not have to read.
JARGON = re.compile(r"NoneType|constructor|^but found|, but found|\bstr '|does not match '|\^\[|tag:yaml\.org")


def load(text: str, schema: str | None = SCHEMA):
    bag = DiagnosticBag()
    data, located = load_yaml_text(textwrap.dedent(text), "game.yaml", bag, schema)
    if located.root is not None and schema is not None:
        validate(data, schema, located, bag)
    return data, bag


def only_error(bag: DiagnosticBag):
    assert len(bag.items) == 1, bag.render()
    (d,) = bag.items
    assert d.is_error
    assert d.hint, f"no hint for: {d.message}"
    assert d.hint != INDENTATION_HINT, d.message
    assert not JARGON.search(d.message), d.message
    assert not JARGON.search(d.hint), d.hint
    return d


def game(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of the shipped tic-tac-toe with one line of game.yaml changed."""
    folder = tmp_path / "copy"
    shutil.copytree(SHIPPED, folder, ignore=shutil.ignore_patterns("__pycache__", "__init__.py"))
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    assert old in text
    (folder / "game.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


GAME = textwrap.dedent("""\
    game:
      name: g
      players: {min: 2, max: 2}
      setup: s
      round: r
      round_limit: 5
    """)


# ------------------------------------------------------------------ refused YAML, with a hint

def test_a_key_twice_names_the_line_of_the_first_and_says_to_keep_one():
    _, bag = load(GAME + "  round_limit: 7\n")
    d = only_error(bag)
    assert d.message == "YAML syntax: the key 'round_limit' appears twice in this mapping (first on line 6)"
    assert (d.position.line, d.position.column) == (7, 3)
    assert "keep one" in d.hint and "lines 6 and 7" in d.hint


def test_a_key_twice_on_one_line_says_so():
    _, bag = load(GAME.replace("{min: 2, max: 2}", "{min: 2, max: 2, min: 3}"))
    d = only_error(bag)
    assert d.message.endswith("appears twice in this mapping (first earlier on the same line)")
    assert "keep one" in d.hint


def test_a_number_too_large_says_how_many_digits_to_write_or_to_quote_it():
    _, bag = load(GAME.replace("round_limit: 5", "round_limit: 99999999999999999999999"))
    d = only_error(bag)
    assert d.message == "YAML syntax: a number of 23 characters is too large (at most 15 digits)"
    assert "at most 15 digits" in d.hint and "quote it" in d.hint


@pytest.mark.parametrize("levels", [60, 5000], ids=["past our limit", "past the parser's limit"])
def test_data_nested_too_deep_says_to_nest_less(levels):
    _, bag = load(GAME + "tables:\n  t: " + "[" * levels + "]" * levels + "\n")
    d = only_error(bag)
    assert d.message == "YAML syntax: the data nests deeper than 50 levels"
    assert "nest fewer" in d.hint


def test_aliases_that_multiply_past_the_limit_say_to_write_the_values_out():
    levels = ["    l0: &l0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]"] + [
        f"    l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]" for i in range(1, 8)]
    _, bag = load(GAME + "tables:\n  t:\n" + "\n".join(levels) + "\n")
    d = only_error(bag)
    assert "holds more than 1,000,000 values once its aliases are expanded" in d.message
    assert "write out the values" in d.hint


def test_an_alias_inside_its_own_value_is_named_in_the_hint():
    _, bag = load(GAME + "tables:\n  t: &loop\n    again: *loop\n")
    d = only_error(bag)
    assert d.message == "YAML syntax: an alias inside the value it names makes an endless value"
    assert "*loop" in d.hint and "&loop" in d.hint


@pytest.mark.parametrize("tag", ["!custom", "!!python/object/apply:os.system", "!!int", "!!set", "!<x>"])
def test_a_tag_is_refused_with_its_own_words_not_an_indentation_hint(tag):
    data, bag = load(GAME.replace("round_limit: 5", f"round_limit: {tag} [echo, hi]"))
    assert data is None  # refused: nothing is made from a tag, safely or not
    d = only_error(bag)
    assert d.message == f"YAML syntax: tags such as '{tag}' are not used in these tables"
    assert d.hint.startswith("remove")
    assert (d.position.line, d.position.column) == (6, 16)


def test_a_merge_key_says_to_write_the_keys_out():
    _, bag = load(GAME.replace("{min: 2, max: 2}", "{<<: {min: 2}, max: 2}"))
    d = only_error(bag)
    assert d.message == "YAML syntax: '<<' merge keys are not supported"
    assert "write the keys out" in d.hint
    assert (d.position.line, d.position.column) == (3, 13)


def test_a_second_document_says_a_file_holds_one():
    _, bag = load(GAME + "---\ntables: {}\n")
    d = only_error(bag)
    assert d.message == "YAML syntax: a second YAML document ('---') starts here, but a table file holds only one"
    assert "remove the line" in d.hint and "file of its own" in d.hint
    assert d.position.line == 7


def test_data_after_an_end_of_document_line_names_that_line():
    _, bag = load(GAME + "...\ntables: {}\n")
    d = only_error(bag)
    assert "'...' on line 7" in d.message and d.hint == "remove the '...' on line 7"


@pytest.mark.parametrize("value, kind", [("2001-02-30", "a date"), ("0x_", "a number")])
def test_a_value_yaml_reads_as_a_date_or_number_that_cannot_be_is_located_not_a_crash(value, kind):
    _, bag = load(GAME.replace("round_limit: 5", f"round_limit: {value}"))
    d = only_error(bag)
    assert d.message == f"YAML syntax: '{value}' reads as {kind} in YAML, but it is not a valid one"
    assert f"quote it ('{value}')" in d.hint
    assert d.position.line == 6


def test_a_list_as_a_key_is_located_not_a_crash():
    _, bag = load(GAME + "[a, b]: 1\n")
    d = only_error(bag)
    assert d.message == "YAML syntax: a list cannot be a key" and d.position.line == 7


@pytest.mark.parametrize("line, message", [
    ("  t: @x", "a value cannot start with '@' in YAML"),
    ("  t: & x", "a '&' or '*' must be followed by a name (an anchor or an alias)"),
    ('  t: "a\\qb"', "this one is not an escape YAML knows"),
    ("  t: |x", "after '|' or '>' only '-', '+' or a digit may follow on the same line"),
])
def test_other_yaml_slips_get_their_own_words(line, message):
    _, bag = load(GAME + "tables:\n" + line + "\n", None)
    d = only_error(bag)
    assert message in d.message


# ------------------------------------------------------------------ schema errors, in words

def test_a_name_breaking_the_rule_is_told_in_words_with_a_fixed_name():
    _, bag = load(GAME.replace("name: g", "name: 1tic-tac"))
    d = only_error(bag)
    assert d.message == "game/name: '1tic-tac' is not a name"
    assert d.hint == "a name is made of letters, digits and _, and does not start with a digit: write 'tic_tac'"


def test_a_key_breaking_the_naming_rule_is_told_at_the_key():
    _, bag = load(GAME + "board:\n  kind: graph\n  space_kind: room\n  spaces:\n    hall: {}\n    2nd-room: {}\n")
    d = next(d for d in bag.errors if "2nd-room" in d.message)
    assert d.message == "board/spaces: the key '2nd-room' is not a name"
    assert d.hint.endswith("write 'nd_room'")
    assert (d.position.line, d.position.column) == (12, 5)


def test_every_pattern_of_the_schemas_is_told_in_words():
    from rulecraft.dsl.yaml_data import _PATTERN_WORDS

    patterns = set()

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                patterns.add(node["pattern"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    for path in sorted((ROOT / "schemas").glob("*.json")):
        walk(json.loads(path.read_text(encoding="utf-8")))
    assert patterns and patterns <= set(_PATTERN_WORDS), patterns - set(_PATTERN_WORDS)


def test_a_glossary_language_and_a_mutant_id_are_told_in_words():
    _, bag = load("language: English\n", "glossary.schema.json")
    d = only_error(bag)
    assert d.message == "language: 'English' is not a language code"
    _, bag = load("equivalent:\n  - {id: x12, reason: a reason long enough}\n", "mutants.schema.json")
    d = only_error(bag)
    assert d.message == "equivalent/0/id: 'x12' is not a mutant id" and "rulecraft mutate --list" in d.hint


def test_an_empty_value_where_a_number_is_expected_is_told_in_words():
    _, bag = load(GAME.replace("round_limit: 5", "round_limit:"))
    d = only_error(bag)
    assert d.message == "game/round_limit: expected a whole number, found an empty value"
    assert d.hint == "write a whole number (digits, no quotes)"


def test_a_file_holding_only_a_tilde_is_told_in_words():
    _, bag = load("~\n")
    d = only_error(bag)
    assert d.message == "the file: expected a table of keys and values, found an empty value"
    assert "'key: value'" in d.hint


@pytest.mark.parametrize("value, found", [("'3'", "the text '3'"), ("[1]", "a list"), ("2.5", "the number 2.5"),
                                          ("yes", "the yes/no value yes"), ("2001-01-01", "which YAML reads as a date")])
def test_a_wrong_type_names_what_was_found_in_words(value, found):
    _, bag = load(GAME.replace("round_limit: 5", f"round_limit: {value}"))
    d = only_error(bag)
    assert d.message.startswith("game/round_limit: expected a whole number, found ") and found in d.message


def test_a_text_written_as_a_number_is_told_to_be_quoted():
    _, bag = load(GAME.replace("name: g", "name: g\n  title: 3"))
    d = only_error(bag)
    assert d.message == "game/title: expected a text, found the whole number 3"
    assert "quote it" in d.hint


def test_each_missing_key_is_named_in_its_own_hint():
    _, bag = load("game:\n  name: g\n")
    hints = {d.message: d.hint for d in bag.errors}
    assert hints["game: 'setup' is a required property"] == "add 'setup: ...' to it"
    assert hints["game: 'round' is a required property"] == "add 'round: ...' to it"


# ------------------------------------------------------------------ a whole rule set

@pytest.mark.parametrize("text", ["- a\n- b\n", "~\n"], ids=["a list", "a tilde"])
def test_the_follow_on_warning_of_a_file_that_is_no_mapping_names_the_file(tmp_path, text):
    folder = tmp_path / "copy"
    shutil.copytree(SHIPPED, folder, ignore=shutil.ignore_patterns("__pycache__", "__init__.py"))
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    bag = load_ruleset(folder).bag
    (warning,) = [d for d in bag.warnings if d.code == "follow-on"]
    assert warning.message.endswith("the file game.yaml did not load"), warning.message
    assert str(tmp_path) not in warning.message and "section" not in warning.message
    assert "that file" in warning.hint


def test_the_follow_on_warning_of_a_broken_section_still_names_the_section(tmp_path):
    bag = load_ruleset(game(tmp_path, "  round_limit: 5", "  round_limit: 5\n  round_limit: 7")).bag
    (warning,) = [d for d in bag.warnings if d.code == "follow-on"]
    assert warning.message.endswith("the YAML section(s) board, game, kinds did not load")


@pytest.mark.parametrize("old, new", [
    ("  round_limit: 5", "  round_limit: 5\n  round_limit: 7"),
    ("  round_limit: 5", "  round_limit: 99999999999999999999999"),
    ("  columns: 3", "  columns: !custom 3"),
    ("  columns: 3", "  columns: !!python/object/apply:os.system [echo, hi]"),
    ("  players: {min: 2, max: 2}", "  players: {<<: {min: 2}, max: 2}"),
    ("\nkinds:", "\n---\nkinds:"),
    ("  name: tic_tac_toe", "  name: 1tic-tac"),
    ("  round_limit: 5", "  round_limit:"),
], ids=["key twice", "number too large", "tag", "python tag", "merge key", "second document", "name", "empty value"])
def test_check_prints_each_error_with_a_plain_hint(tmp_path, capsys, monkeypatch, old, new):
    from rulecraft.cli.main import main

    folder = game(tmp_path, old, new)
    monkeypatch.chdir(tmp_path)
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr().out
    assert out.count("error:") == 1, out
    error = out[out.index("error:"):]
    assert "      = hint: " in error.split("warning:")[0], out
    assert INDENTATION_HINT not in out
    assert not JARGON.search(out), out
