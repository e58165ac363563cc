"""One slip, one report, where the slip is: what `check` tells of the mistakes a
designer made writing a new game (a syntax error, a misspelt type, a value slip in a
table or in a rule, a number quoted in YAML, a comma in an unquoted text, a kind in a
scenario's expectations).

Each test writes a small rule set with a complete glossary (clean under `check
--strict`), makes one slip and reads the diagnostics of the check and of the glossary
check together, as `rulecraft check` shows them."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from engine_rulesets import build, write_ruleset
from scenario_runs import explain, only_error_in, run_one

from rulecraft.cli.main import main
from rulecraft.docgen.glossary import check_glossaries
from rulecraft.dsl.loader import load_ruleset
from rulecraft.validator import BROKEN, FAIL, PASS

GAME = """\
game:
  name: slips
  players: {min: 2, max: 2}
  setup: setup
  round: round
  round_limit: 4
kinds:
  player:
    properties:
      score: {type: number, default: 0}
  piece:
    properties:
      colour: {type: text, values: [red, blue]}
zones:
  box: {holds: piece, text: The box.}
components:
  - {name: red_1, kind: piece, zone: box, properties: {colour: red}}
  - {name: red_2, kind: piece, zone: box, properties: {colour: red}}
  - {name: blue_1, kind: piece, zone: box, properties: {colour: blue}}
parameters:
  target: {value: 2}
  open: {value: true}
manifest:
  piece: 3
  piece.colour=red: 2
"""

RULES = """\
procedure setup():
    do:
        stop

procedure round():
    do:
        for each p in players:
            play_turn(p)

action take:
    with x: piece in contents(box) where x.colour == "red"
    require open
    do:
        set current_player.score += 1
        emit taken(piece: x)

victory done:
    when any([p.score >= target for p in players])
    winners [p for p in players where p.score >= target]
"""

GLOSSARY = """\
language: en
kinds:
  player: player
  piece: piece
properties:
  player.score: score
  piece.colour: colour
zones:
  box: box
components:
  red_1: red piece
  red_2: red piece
  blue_1: blue piece
parameters:
  target: target
  open: open
values:
  red: red
  blue: blue
definitions:
  setup: Setup
  round: Round
  take: Take a piece
  done: Done
events:
  taken: a piece is taken
fields:
  piece: piece
names:
  x: piece
"""


def checked(tmp_path: Path, *changes: tuple[str, str, str]):
    """The rule set with each (file, old, new) change made, and every diagnostic of its
    check and its glossary check, as `rulecraft check` gathers them."""
    texts = {"game.yaml": GAME, "main.rules": RULES, "glossary/en.yaml": GLOSSARY}
    for file, old, new in changes:
        assert old in texts[file], old
        texts[file] = texts[file].replace(old, new, 1)
    folder = tmp_path / "slips"
    (folder / "glossary").mkdir(parents=True)
    for file, text in texts.items():
        (folder / file).write_text(text, encoding="utf-8")
    ruleset = load_ruleset(folder)
    ruleset.bag.extend(check_glossaries(ruleset))
    return ruleset.bag


def only(bag):
    assert len(bag.items) == 1, bag.render()
    return bag.items[0]


def where(d) -> tuple[str, int, int, int | None]:
    p = d.position
    return Path(p.file).name, p.line, p.column, p.end_column


def test_the_rule_set_as_written_is_clean(tmp_path):
    bag = checked(tmp_path)
    assert not bag.items, bag.render()


# ---------------------------------------------------------------- a syntax error (A3)


@pytest.mark.parametrize("old, new", [
    ("procedure round():", "procedure round()"),  # a colon missing
    ("        emit taken(piece: x)", "        emit taken(piece: x"),  # a bracket left open
    ('where x.colour == "red"', "where x.colour == 'red'"),  # single quotes
])
def test_a_syntax_error_brings_no_glossary_warning_about_what_did_not_parse(tmp_path, old, new):
    # the definitions, names, events, fields and values of the unparsed text are missing:
    # the glossary's entries for them are not reported as naming nothing
    bag = checked(tmp_path, ("main.rules", old, new))
    d = only(bag)
    assert d.is_error and where(d)[0] == "main.rules", bag.render()


def test_after_a_syntax_error_a_glossary_key_no_text_holds_is_still_reported(tmp_path):
    bag = checked(tmp_path, ("main.rules", "        emit taken(piece: x)", "        emit taken(piece: x"),
                  ("glossary/en.yaml", "  done: Done\n", "  done: Done\n  dnoe: typo\n"))
    [warning] = bag.warnings
    assert warning.message == "the en glossary entry 'dnoe' under 'definitions' names no definition of the rule set"
    assert warning.hint == "did you mean 'done'?"


def test_after_a_syntax_error_a_local_name_of_a_definition_that_parsed_is_still_checked(tmp_path):
    bag = checked(tmp_path, ("main.rules", "        emit taken(piece: x)", "        emit taken(piece: x"),
                  ("glossary/en.yaml", "  x: piece\n", "  x: piece\n  done.x: piece\n"))
    [warning] = bag.warnings
    assert warning.message == "the en glossary entry 'done.x' under 'names' names no local name of the rule set"


# ---------------------------------------------------------------- an unknown type (A7)


@pytest.mark.parametrize("old, new, name, hint", [
    ("score: {type: number, default: 0}", "score: {type: integer, default: 0}", "integer", "did you mean 'number'?"),
    ("colour: {type: text,", "colour: {type: string,", "string", "did you mean 'text'?"),
    ("colour: {type: text,", "colour: {type: str,", "str", "did you mean 'text'?"),
    ("score: {type: number, default: 0}", "score: {type: boolean, default: 0}", "boolean", "did you mean 'bool'?"),
    ("score: {type: number, default: 0}", "score: {type: nmber, default: 0}", "nmber", "did you mean 'number'?"),
    ("score: {type: number, default: 0}", "score: {type: lst, default: 0}", "lst",
     "did you mean 'list of TYPE'? (a list says what it holds)"),
])
def test_an_unknown_type_has_its_caret_on_the_type_and_names_the_type_meant(tmp_path, old, new, name, hint):
    bag = checked(tmp_path, ("game.yaml", old, new))
    d = only(bag)
    assert (d.message, d.hint) == (f"unknown type '{name}'", hint)
    line = new.split("type: ")[0]
    column = GAME.splitlines()[where(d)[1] - 1].index(old) + len(line) + len("type: ") + 1
    assert where(d) == ("game.yaml", where(d)[1], column, column + len(name))


def test_an_unknown_type_with_no_near_type_lists_the_types_with_a_list_as_written(tmp_path):
    d = only(checked(tmp_path, ("game.yaml", "score: {type: number, default: 0}", "score: {type: gizmo, default: 0}")))
    assert d.hint == "known types: any, bool, list of TYPE, number, piece, placement, player, text, zone"


def test_the_caret_of_an_unknown_type_stands_under_the_item_type_of_a_list(tmp_path):
    bag = checked(tmp_path, ("game.yaml", "      score: {type: number, default: 0}\n",
                             "      score: {type: number, default: 0}\n      seen: list of peice\n"))
    [d] = bag.errors  # (and the glossary's word for the new property)
    assert d.message == "unknown type 'peice'" and d.hint == "did you mean 'piece'?"
    assert where(d) == ("game.yaml", 11, 21, 26)


def test_the_caret_of_an_unknown_type_of_a_variable_is_on_the_type(tmp_path):
    bag = checked(tmp_path, ("game.yaml", "manifest:", "variables:\n  game:\n    turns: {type: int, default: 0}\nmanifest:"))
    [d] = bag.errors  # (and the glossary's word for the new variable)
    assert (d.message, d.hint) == ("unknown type 'int'", "did you mean 'number'?")
    assert where(d) == ("game.yaml", GAME.splitlines().index("manifest:") + 3, 19, 22)


# ---------------------------------------------------------------- a value slip in a table (A8)


def test_a_component_value_slip_is_one_error_at_the_value(tmp_path):
    # not also the manifest count of that property, nor the glossary word of the slip
    bag = checked(tmp_path, ("game.yaml", "{name: red_2, kind: piece, zone: box, properties: {colour: red}}",
                             "{name: red_2, kind: piece, zone: box, properties: {colour: rde}}"))
    d = only(bag)
    assert d.message == "component 'red_2': colour = 'rde' is not one of ['red', 'blue']"
    assert d.hint.startswith("did you mean 'red'?")
    line = GAME.splitlines().index("  - {name: red_2, kind: piece, zone: box, properties: {colour: red}}") + 1
    column = GAME.splitlines()[line - 1].index("colour: red") + len("colour: ") + 1
    assert where(d) == ("game.yaml", line, column, column + 3)


def test_a_misspelt_component_property_is_one_error_at_its_name(tmp_path):
    bag = checked(tmp_path, ("game.yaml", "{name: red_2, kind: piece, zone: box, properties: {colour: red}}",
                             "{name: red_2, kind: piece, zone: box, properties: {color: red}}"))
    d = only(bag)
    assert d.message == "component 'red_2': kind 'piece' has no property 'color'"
    line = GAME.splitlines()[where(d)[1] - 1].replace("colour: red", "color: red")
    assert line.startswith("  - {name: red_2") and line[where(d)[2] - 1:where(d)[3] - 1] == "color"


def test_a_variant_value_slip_is_not_placed_at_the_bases_value(tmp_path):
    # the base's value is right; the caret stays off it (the variant's own line is
    # dsl/variants.py's to tell), and the manifest does not echo the slip either
    folder = tmp_path / "slips"
    checked(tmp_path)
    (folder / "variants").mkdir()
    (folder / "variants" / "pink.yaml").write_text(
        "variant: {name: pink, title: Pink, base: slips, text: A pink piece.}\n"
        "components:\n  red_2: {properties: {colour: pnik}}\n", encoding="utf-8")
    bag = load_ruleset(folder, variant="pink").bag
    [d] = bag.errors
    assert d.message == "component 'red_2': colour = 'pnik' is not one of ['red', 'blue']"
    line = GAME.splitlines()[d.position.line - 1]
    assert line[d.position.column - 1:(d.position.end_column or 0) - 1] != "red"


def test_a_manifest_count_that_is_wrong_is_still_reported(tmp_path):
    bag = checked(tmp_path, ("game.yaml", "piece.colour=red: 2", "piece.colour=red: 3"))
    assert only(bag).message == "the rule set has 2 piece.colour=red component(s) (at 2 players) but the manifest says 3"


# ---------------------------------------------------------------- a value slip in a rule (A9)


@pytest.mark.parametrize("old, new, message", [
    ('x.colour == "red"', 'x.colour == "Red"', 'piece.colour is never "Red", so this comparison is always false'),
    ("set current_player.score += 1", 'set current_player.score += "one"',
     "score is a number; cannot set it to a text"),
])
def test_a_text_the_checker_rejects_is_not_asked_of_the_glossary(tmp_path, old, new, message):
    d = only(checked(tmp_path, ("main.rules", old, new)))
    assert d.message == message


def test_a_misspelt_event_a_trigger_waits_for_is_not_asked_of_the_glossary(tmp_path):
    # the slip's did-you-mean came with a warning to add the slip to the glossary
    trigger = "\ntrigger counted:\n    on taken\n    do:\n        stop\n"
    bag = checked(tmp_path, ("main.rules", "victory done:", trigger.replace("taken", "takn") + "\nvictory done:"),
                  ("glossary/en.yaml", "  done: Done\n", "  done: Done\n  counted: Counted\n"))
    d = only(bag)
    assert d.message == "trigger 'counted' waits for event 'takn' that nothing emits"
    assert d.hint == "did you mean 'taken'?"


def test_a_new_text_a_rule_writes_is_still_asked_of_the_glossary(tmp_path):
    bag = checked(tmp_path, ("main.rules", "emit taken(piece: x)", 'emit taken(piece: x, note: "fresh")'),
                  ("glossary/en.yaml", "fields:\n  piece: piece\n", "fields:\n  piece: piece\n  note: note\n"))
    assert [d.message for d in bag.items] == ["the en glossary has no entry 'fresh' in 'values'"], bag.render()


# ---------------------------------------------------------------- a quoted parameter (A10)


def test_a_number_parameter_quoted_by_mistake_is_told_where_its_quotes_are(tmp_path):
    bag = checked(tmp_path, ("game.yaml", "target: {value: 2}", 'target: {value: "2"}'))
    assert len(bag.errors) == 2, bag.render()  # each rule that reads it as a number
    line = GAME.splitlines().index("  target: {value: 2}") + 1
    for d in bag.errors:
        assert d.message == "the right side of '>=' must be a number, not a text"
        assert d.hint == f"target is a text because its value is quoted in {tmp_path / 'slips' / 'game.yaml'}:{line}:19: " \
                         "write 2 without quotes"


def test_a_yes_no_parameter_quoted_by_mistake_is_told_where_its_quotes_are(tmp_path):
    d = only(checked(tmp_path, ("game.yaml", "open: {value: true}", 'open: {value: "yes"}')))
    assert d.message == "a requirement must be a bool, not a text"
    assert d.hint.startswith("open is a text because its value is quoted in ")
    assert d.hint.endswith(": write true without quotes")


def test_a_text_where_a_number_is_due_has_a_hint(tmp_path):
    d = only(checked(tmp_path, ("main.rules", "p.score >= target for", 'p.score >= "2" for')))
    assert d.message == "the right side of '>=' must be a number, not a text"
    assert d.hint.startswith("a text is not a number, even one made of digits: write the number without quotes")


# ---------------------------------------------------------------- a comma in a text (C4)


def test_a_comma_in_an_unquoted_text_inside_braces_is_told_as_such(tmp_path):
    bag = checked(tmp_path, ("game.yaml", "box: {holds: piece, text: The box.}",
                             "box: {holds: piece, text: The box, shaken first.}"))
    d = bag.errors[0]
    assert len(bag.errors) == 1, bag.render()
    assert d.message == "unknown key 'shaken first.' in zones/box"
    assert d.hint == ("inside { } a comma ends an unquoted text, so 'text' reads only 'The box' and the rest as a "
                      'key: quote the whole text, text: "The box, shaken first."')


def test_a_comma_in_a_propertys_text_is_told_as_such_too(tmp_path):
    # a property may be written short or long: the schema's two forms hid the hint
    bag = checked(tmp_path, ("game.yaml", "score: {type: number, default: 0}",
                             "score: {type: number, default: 0, text: Points, counted at the end}"))
    d = bag.errors[0]
    assert len(bag.errors) == 1, bag.render()
    assert d.message == "unknown key 'counted at the end' in kinds/player/properties/score"
    assert d.hint == ("inside { } a comma ends an unquoted text, so 'text' reads only 'Points' and the rest as a "
                      'key: quote the whole text, text: "Points, counted at the end"')


def test_an_unknown_key_that_is_no_rest_of_a_text_keeps_its_hint(tmp_path):
    bag = checked(tmp_path, ("game.yaml", "box: {holds: piece, text: The box.}",
                             "box: {holds: piece, text: The box, ordred: true}"))
    d = bag.errors[0]
    assert (d.message, d.hint) == ("unknown key 'ordred' in zones/box", "did you mean 'ordered'?")


# ---------------------------------------------------------------- a kind in expect: props (C2)

FILE = "seeds/slips/example.yaml"


@pytest.fixture(scope="module")
def slips(tmp_path_factory):
    return build(tmp_path_factory.mktemp("slips"), {"game.yaml": GAME, "main.rules": RULES}, name="slips")


def test_a_kind_in_expected_props_stands_for_every_entity_of_it(slips):
    result = run_one(slips, """\
        title: scores
        cite: "slips: Setup"
        setup:
          props: {player: {score: 1}, p2: {score: 2}}
        expect:
          props: {player: {score: 1}, p2: {score: 2}, piece: {colour: red}, blue_1: {colour: blue}}
        """, FILE)
    assert result.status == PASS, explain(result)


def test_a_kind_in_expected_props_names_each_entity_that_does_not_match(slips):
    result = run_one(slips, """\
        title: scores
        cite: "slips: Setup"
        setup:
          props: {p2: {score: 2}}
        expect:
          props: {player: {score: 2}}
        """, FILE)
    assert result.status == FAIL, explain(result)
    [mismatch] = result.divergence.mismatches
    assert (mismatch.what, mismatch.expected, mismatch.actual) == ("p1.score", 2, 0)
    assert mismatch.position.line == 6


def test_an_unknown_name_in_expected_props_is_told_as_no_entity_nor_kind(slips):
    result = run_one(slips, """\
        title: scores
        cite: "slips: Setup"
        expect:
          props: {plyer: {score: 0}}
        """, FILE)
    assert result.status == BROKEN
    d = only_error_in(result, FILE)
    assert (d.message, d.hint) == ("unknown entity or kind 'plyer'", "did you mean 'player'?")


def test_check_on_the_command_line_shows_each_slip_once(tmp_path, capsys):
    folder = write_ruleset(tmp_path / "slips", {"game.yaml": GAME.replace("colour: red}}", "colour: rde}}", 1),
                                                "main.rules": RULES})
    (folder / "glossary").mkdir()
    (folder / "glossary" / "en.yaml").write_text(textwrap.dedent(GLOSSARY), encoding="utf-8")
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr().out
    assert out.count("error:") == 1 and "warning:" not in out, out


def test_a_misspelt_glossary_key_is_told_once_at_the_entry(tmp_path):
    # the did-you-mean came with a second warning that the word it meant was missing
    bag = checked(tmp_path, ("glossary/en.yaml", "  take: Take a piece\n", "  tkae: Take a piece\n"))
    d = only(bag)
    assert d.message == "the en glossary entry 'tkae' under 'definitions' names no definition of the rule set"
    assert d.hint == "did you mean 'take'?"


def test_many_components_of_a_kind_without_words_are_pointed_at_called(tmp_path):
    # a designer's family of eight cards got eight hints to add eight entries
    game = ("game:\n  name: cards\n  players: {min: 2, max: 2}\n  setup: setup\n  round: round\n"
            "kinds:\n  player:\n    properties: {}\n  card:\n    located_in: zone\n    properties:\n"
            "      suit: {type: text, default: red}\n      rank: {type: number, default: 1}\n"
            "zones:\n  deck: {}\ncomponents:\n"
            "  - {name: \"{suit}_{rank}\", kind: card, zone: deck, each: {suit: [red, blue], rank: [1, 2, 3]}}\n")
    rules = "procedure setup():\n    do:\n        stop\n\nprocedure round():\n    do:\n        stop\n"
    root = write_ruleset(tmp_path / "cards", {"game.yaml": game, "main.rules": rules})
    (root / "glossary").mkdir()
    (root / "glossary" / "en.yaml").write_text("language: en\nkinds:\n  card: card\n", encoding="utf-8")
    found = [d for d in check_glossaries(load_ruleset(root), docs_words=False) if "'red_1' in 'components'" in d.message]
    assert len(found) == 1
    assert "name every card at once with 'called:'" in found[0].hint and '"{rank}' in found[0].hint
