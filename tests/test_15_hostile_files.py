"""Files no rule author meant to write (wrong encoding, control characters, absurd
nesting or numbers, folders and broken links where files are expected) get a located
error from loading, never an exception."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from engine_rulesets import game_yaml, write_ruleset

from rulecraft.cli.main import main
from rulecraft.dsl import limits
from rulecraft.dsl.diagnostics import SHOWN_AT_MOST, DiagnosticBag
from rulecraft.dsl.loader import load_ruleset
TIC_TAC_TOE = Path(__file__).resolve().parent.parent / "rules" / "tic_tac_toe"

KINDS = """
kinds:
  player:
    properties:
      score: {type: number, default: 0}
"""

RULES = """\
procedure setup():
    do:
        stop

procedure round():
    do:
        for each p in players:
            play_turn(p)
"""


def folder_with(tmp_path: Path, rules: str | bytes = RULES, yaml: str | bytes | None = None, **extra: bytes) -> Path:
    folder = write_ruleset(tmp_path / "rs", {})
    for name, content in {"game.yaml": game_yaml() + KINDS if yaml is None else yaml, "main.rules": rules, **extra}.items():
        data = content.encode("utf-8") if isinstance(content, str) else content
        (folder / name).write_bytes(data)
    return folder


def located_errors(folder: Path) -> list[tuple[str, int, int, str]]:
    """(file name, line, column, message) of every error; loading must not raise."""
    bag = load_ruleset(folder).bag
    return [(Path(d.position.file).name if d.position else "", d.position.line if d.position else 0,
             d.position.column if d.position else 0, d.message) for d in bag.errors]


# ---------------------------------------------------------------- encodings


def test_a_latin1_rule_file_is_located_at_its_first_foreign_byte(tmp_path):
    folder = folder_with(tmp_path, ("# café au lait\n" + RULES).encode("latin-1"))
    errors = located_errors(folder)
    assert ("main.rules", 1, 6, "byte 0xe9 is not UTF-8 text (is the file Latin-1 or binary?)") in errors


def test_a_utf16_rule_file_is_named_as_such(tmp_path):
    folder = folder_with(tmp_path, RULES.encode("utf-16"))
    assert ("main.rules", 1, 1, "the file is UTF-16 text; rule-set files are read as UTF-8") in located_errors(folder)


def test_a_utf8_byte_order_mark_is_accepted_in_rules_and_yaml(tmp_path):
    bom = b"\xef\xbb\xbf"
    folder = folder_with(tmp_path, bom + RULES.encode(), bom + (game_yaml() + KINDS).encode())
    assert located_errors(folder) == []


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x0c", "\x85", "\x1c"])
def test_a_line_separator_inside_a_comment_or_text_does_not_shift_later_lines(tmp_path, separator, capsys):
    # Editors and the grammar end a line at a newline only; Python's splitlines also at
    # these, which put every error after one a line too low
    rules = RULES + f"""
function note() -> text:
    # a{separator}b
    = "c{separator}d"

function broken() -> bool:
    = flase
"""
    folder = folder_with(tmp_path, rules)
    line = rules.split("\n").index("    = flase") + 1
    assert [(e[1], e[2]) for e in located_errors(folder) if "flase" in e[3]] == [(line, 7)]
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr().out
    assert f"main.rules:{line}:7: error: unknown name 'flase'" in out
    assert f"{line:>5} |     = flase" in out  # the line quoted is the one reported


def test_a_lone_carriage_return_ends_a_line_as_editors_show_it(tmp_path, capsys):
    # an old Mac line end after a comment: the grammar read the next line as part of the
    # comment, so the code an editor shows there was silently never run
    rules = RULES + "\nfunction broken() -> bool:\n    = true # note\r    flase\n"
    folder = folder_with(tmp_path, rules)
    line = rules.replace("\r", "\n").split("\n").index("    flase") + 1
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr().out
    assert f"main.rules:{line}:5: error:" in out and f"{line:>5} |     flase" in out
    # a whole file with old Mac line ends reads as it does with newlines
    assert located_errors(folder_with(tmp_path / "mac", RULES.replace("\n", "\r"))) == []


def test_a_latin1_yaml_file_is_located(tmp_path):
    folder = folder_with(tmp_path, yaml=(game_yaml() + KINDS + "# déjà\n").encode("latin-1"))
    assert ("game.yaml", 12, 4, "byte 0xe9 is not UTF-8 text (is the file Latin-1 or binary?)") in located_errors(folder)


def test_a_control_character_in_yaml_is_located(tmp_path):
    folder = folder_with(tmp_path, yaml=game_yaml() + KINDS + "# a \x07 bell\n")
    assert ("game.yaml", 12, 5, "YAML syntax: the character '\\x07' is not allowed in YAML") in located_errors(folder)


def test_binary_bytes_in_a_rule_file_are_located(tmp_path):
    folder = folder_with(tmp_path, RULES.encode() + b"\x00\xff\xfe garbage\n")
    assert ("main.rules", 9, 2, "byte 0xff is not UTF-8 text (is the file Latin-1 or binary?)") in located_errors(folder)


# ---------------------------------------------------------------- nesting and sizes


def deep_ifs(levels: int) -> str:
    lines = ["procedure deep():", "    do:"]
    for level in range(levels):
        lines.append("    " * (level + 2) + "if true:")
    lines.append("    " * (levels + 2) + "stop")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("definition", [
    deep_ifs(240),
    "function deep() -> number:\n    = " + " + ".join(["1"] * 1500) + "\n",
    "function deep() -> bool:\n    = " + "not " * 600 + "true\n",
    "function deep() -> number:\n    = " + "-" * 600 + "1\n",
    "function deep() -> list of number:\n    = " + "[" * 300 + "]" * 300 + "\n",
    "function deep() -> number:\n    = players" + ".id" * 400 + "\n",
], ids=["blocks", "sums", "nots", "negations", "lists", "attributes"])
def test_nesting_beyond_the_limit_is_a_located_error(tmp_path, definition):
    errors = located_errors(folder_with(tmp_path, RULES + "\n" + definition))
    assert len(errors) == 1
    file, line, _, message = errors[0]
    assert (file, message) == ("main.rules", f"this definition nests deeper than {limits.MAX_NESTING} levels")
    assert line >= 10


NEAR = limits.MAX_NESTING - 10


@pytest.mark.parametrize("value, expected", [
    (" + ".join(["1"] * NEAR), NEAR),
    (" - ".join(["1"] * NEAR), 2 - NEAR),
    ("-" * NEAR + "1", 1),
    ("0 if " + "not " * (NEAR + 1) + "true else 1", 1),
    ("count(" + "[" * (NEAR // 2) + "1" + "]" * (NEAR // 2) + ")", 1),
], ids=["sums", "differences", "negations", "nots", "lists"])
def test_nesting_just_inside_the_limit_checks_compiles_and_runs_quickly(tmp_path, value, expected):
    from rulecraft.dsl.loader import load_checked
    from rulecraft.interpreter.game import Game

    rules = RULES.replace("        stop\n", "        set game.total = deep()\n", 1)
    rules += "\nfunction deep() -> number:\n    = " + value + "\n"
    yaml = game_yaml() + KINDS + "variables:\n  game:\n    total: {type: number, default: 0}\n"
    folder = folder_with(tmp_path, rules, yaml)
    started = time.monotonic()
    game = Game(load_checked(folder), 1, seed=1)
    assert time.monotonic() - started < 10  # a + b + c ... was checked in 2^n steps
    assert game.state.vars["game"]["total"] == expected


def test_blocks_nested_just_inside_the_limit_check_compile_and_run(tmp_path):
    from rulecraft.dsl.loader import load_checked
    from rulecraft.interpreter.game import Game

    levels = limits.MAX_NESTING // 2 - 10
    rules = RULES.replace("        stop\n", "        deep()\n", 1) + "\n" + deep_ifs(levels).replace(
        "stop\n", "set game.total = 7\n")
    yaml = game_yaml() + KINDS + "variables:\n  game:\n    total: {type: number, default: 0}\n"
    game = Game(load_checked(folder_with(tmp_path, rules, yaml)), 1, seed=1)
    assert game.state.vars["game"]["total"] == 7


def test_a_number_too_long_for_python_is_a_located_error_in_rules_and_yaml(tmp_path):
    rules = RULES + "\nfunction huge() -> number:\n    = " + "9" * 5000 + "\n"
    yaml = game_yaml() + KINDS + "parameters:\n  huge:\n    value: " + "7" * 5000 + "\n"
    errors = located_errors(folder_with(tmp_path, rules, yaml))
    assert ("main.rules", 11, 7, f"this number has 5000 digits; a number in the rules has at most {limits.MAX_NUMBER_DIGITS}") in errors
    assert ("game.yaml", 14, 12,
            f"YAML syntax: a number of 5000 characters is too large (at most {limits.MAX_NUMBER_DIGITS} digits)") in errors


def test_yaml_nested_too_deep_is_a_located_error(tmp_path):
    yaml = game_yaml() + KINDS + "tables:\n  t: " + "[" * 5000 + "]" * 5000 + "\n"
    errors = located_errors(folder_with(tmp_path, yaml=yaml))
    assert [e[:2] for e in errors if e[3].startswith("YAML syntax")] == [("game.yaml", 13)]


def test_yaml_nested_past_the_limit_without_aliases_is_a_located_error(tmp_path):
    deep = limits.MAX_YAML_DEPTH + 5
    yaml = game_yaml() + KINDS + "tables:\n  t: " + "[" * deep + "]" * deep + "\n"
    errors = located_errors(folder_with(tmp_path, yaml=yaml))
    assert [(e[0], e[1], e[3]) for e in errors if e[3].startswith("YAML syntax")] == [
        ("game.yaml", 13, f"YAML syntax: the data nests deeper than {limits.MAX_YAML_DEPTH} levels")]


def test_yaml_aliases_that_never_end_or_explode_are_located_errors(tmp_path):
    endless = game_yaml() + KINDS + "tables:\n  t: &a [*a]\n"
    assert ("game.yaml", 13, 6, "YAML syntax: an alias inside the value it names makes an endless value") in \
        located_errors(folder_with(tmp_path / "endless", yaml=endless))
    levels = ["    l0: &l0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]"] + [
        f"    l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]" for i in range(1, 9)]
    laughs = game_yaml() + KINDS + "tables:\n  t:\n" + "\n".join(levels) + "\n"
    started = time.monotonic()
    errors = located_errors(folder_with(tmp_path / "laughs", yaml=laughs))
    assert time.monotonic() - started < 10
    assert any(e[0] == "game.yaml" and "once its aliases are expanded" in e[3] for e in errors)


def test_a_file_beyond_the_size_limit_is_refused_at_once(tmp_path):
    rules = RULES + "# padding\n" * (limits.MAX_FILE_BYTES // 10 + 1)
    errors = located_errors(folder_with(tmp_path, rules))
    assert ("main.rules", 1, 1, f"'main.rules' is larger than {limits.MAX_FILE_BYTES:,} bytes; a rule-set file is far smaller") in errors


def test_syntax_errors_stop_being_collected_after_the_limit(tmp_path):
    rules = RULES + "oops\n" * 5000
    errors = located_errors(folder_with(tmp_path, rules))
    assert len(errors) <= limits.MAX_SYNTAX_ERRORS_PER_FILE + 3
    assert errors[-1][3] == f"more than {limits.MAX_SYNTAX_ERRORS_PER_FILE} syntax errors: the rest of the file is not read" \
        or any("the rest of the file is not read" in e[3] for e in errors)


# ---------------------------------------------------------------- folders and links


@pytest.mark.parametrize("name", ["x.rules", "x.yaml"])
def test_a_folder_named_like_a_rule_file_is_a_located_error(tmp_path, name):
    folder = folder_with(tmp_path)
    (folder / name).mkdir()
    assert (name, 1, 1, f"'{name}' is a folder, not a file") in located_errors(folder)


def test_a_dangling_link_is_a_located_error(tmp_path):
    folder = folder_with(tmp_path)
    os.symlink(folder / "nowhere.rules", folder / "gone.rules")
    assert ("gone.rules", 1, 1, "'gone.rules' is a link to a file that does not exist") in located_errors(folder)


def test_a_dangling_link_out_of_the_rule_set_says_nothing_of_what_lies_outside(tmp_path):
    # whether a file outside exists is not the rule set's business: the link is refused
    # as leading out, before anything is looked up there
    folder = folder_with(tmp_path)
    os.symlink(tmp_path / "nowhere.rules", folder / "gone.rules")
    assert ("gone.rules", 1, 1, "'gone.rules' links to a file outside the rule set; it is not read") \
        in located_errors(folder)


def test_a_looping_link_is_a_located_error_in_check_and_simulate(tmp_path, capsys):
    folder = folder_with(tmp_path)
    os.symlink("loop.yaml", folder / "loop.yaml")
    # a loop of links cannot be resolved, so it is refused before it is read, as a link out would be
    assert ("loop.yaml", 1, 1, "'loop.yaml' links to a file outside the rule set; it is not read") \
        in located_errors(folder)
    assert main(["check", str(folder)]) == 1
    assert main(["simulate", str(folder), "--players", "1", "--games", "1", "--seed", "1"]) == 1
    assert "internal error" not in capsys.readouterr().err


# ---------------------------------------------------------------- values against types


def test_a_default_that_does_not_fit_its_type_is_a_check_error(tmp_path):
    yaml = game_yaml() + KINDS + "variables:\n  game:\n    count: {type: number, default: abc}\n"
    errors = located_errors(folder_with(tmp_path, yaml=yaml))
    assert errors == [("game.yaml", 14, 5, "the default of game variable 'count' is 'abc', but its type is number")]


def test_a_property_default_and_a_component_value_are_checked_against_their_types(tmp_path):
    yaml = game_yaml() + """
kinds:
  player:
    properties:
      score: {type: number, default: "ten"}
  card:
    located_in: zone
    properties:
      power: number
zones:
  deck: {}
components:
  - {name: ace, kind: card, zone: deck, properties: {power: high}}
"""
    messages = [e[3] for e in located_errors(folder_with(tmp_path, yaml=yaml))]
    assert "the default of player.score is 'ten', but its type is number" in messages
    assert "component 'ace': power is 'high', but its type is number" in messages


# ---------------------------------------------------------------- many diagnostics


def test_tens_of_thousands_of_diagnostics_are_collected_in_linear_time():
    bag = DiagnosticBag()
    started = time.monotonic()
    for i in range(30_000):
        bag.error(f"problem {i}", None)
    # a bag that searched a list for duplicates made 450 million comparisons here
    assert time.monotonic() - started < 3
    assert len(bag.errors) == 30_000


def test_rendering_shows_the_first_diagnostics_and_counts_the_rest():
    bag = DiagnosticBag()
    for i in range(SHOWN_AT_MOST + 5):
        bag.error(f"problem {i}", None)
    bag.warning("a warning", None)
    bag.error("problem 0", None)  # the same problem twice is kept once
    lines = bag.render().splitlines()
    assert len(lines) == SHOWN_AT_MOST + 1
    assert lines[-1].startswith("... and 6 more (5 error(s), 1 warning(s)) not shown")


@pytest.mark.parametrize("char, says", [
    ("\u00a0", "this is a no-break space (U+00A0), often pasted from a document"),
    ("\u200b", "this is a zero width space (U+200B)"),
    ("\u0430", "it is Cyrillic Small Letter A, not the Latin letter it may look like"),
    ("\u00e9", "names are written with the letters a-z, digits and _ only: write 'e'"),
    ("\x07", "a control character (U+0007) the file should not hold"),
])
def test_a_character_outside_the_language_is_named_with_what_to_write(tmp_path, char, says):
    rules = RULES + f"\nfunction broken() -> bool:\n    = tru{char}e\n"
    bag = load_ruleset(folder_with(tmp_path, rules)).bag
    [error] = [d for d in bag.errors if d.message.startswith("unexpected character")]
    assert error.message == f"unexpected character {char!r}" and says in error.hint


def test_a_bracket_never_closed_is_pointed_at(tmp_path):
    # inside brackets a line break does not end the line: the error shows where the
    # reading stopped, and the hint points back at the bracket left open
    text = (TIC_TAC_TOE / "play.rules").read_text(encoding="utf-8")
    assert "    when any([has_line(p) for p in players])\n" in text
    folder = tmp_path / "ttt"
    shutil.copytree(TIC_TAC_TOE, folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "play.rules").write_text(text.replace("    when any([has_line(p) for p in players])\n",
                                                    "    when any([has_line(p) for p in players]\n"), encoding="utf-8")
    line = text.split("\n").index("    when any([has_line(p) for p in players])") + 1
    [error] = load_ruleset(folder).bag.errors
    assert error.position.line == line + 1
    assert error.hint == ("the '(' on the line above, at column 13, is never closed, so this line was read as part "
                          "of it: add the ')' where it ends")
    # on the line that ends too early, its column
    bag = load_ruleset(folder_with(tmp_path / "eof", RULES + "\nfunction z() -> number:\n    = (1 + 2\n")).bag
    [error] = bag.errors
    assert error.message == "the line ends too early"
    assert error.hint == "the '(' at column 7 is never closed: add the ')' where it ends"
