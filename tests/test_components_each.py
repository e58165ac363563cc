"""One line of a components table makes a family of things: ``each`` lists values per
property, and one component is made for every combination, named by the line's name
with its ``{property}`` slots filled in. A glossary names them all by their kind's
``called`` ("{rank} of {colour}"), not one entry per thing. A slip in such a line is
reported once, where it is written."""

from __future__ import annotations

import textwrap

from engine_rulesets import write_ruleset

from rulecraft.docgen.glossary import check_glossaries, load_glossary
from rulecraft.dsl.loader import load_ruleset

GAME = """\
game:
  name: families
  players: {min: 2, max: 2}
  setup: setup
  round: round
  round_limit: 2
kinds:
  player:
    properties: {}
  tile:
    properties:
      colour: {type: text, values: [red, blue, green]}
      rank: {type: number, default: 0}
      shiny: {type: bool, default: false}
zones:
  bag: {visible_to: nobody}
manifest:
  tile: 6
  tile.colour=red: 2
"""

RULES = """\
procedure setup():
    do:
        shuffle bag

procedure round():
    do:
        for each p in players:
            play_turn(p)

function reds() -> number:
    = count([t for t in tile where t.colour == "red"])
"""

LINE = '  - {name: "{colour}_{rank}", kind: tile, zone: bag, each: {colour: [red, blue, green], rank: [1, 2]}}\n'


def _folder(tmp_path, line: str = LINE, glossary: str | None = None):
    files = {"game.yaml": GAME, "play.rules": RULES, "components.yaml": "components:\n" + line}
    root = write_ruleset(tmp_path / "families", files)
    if glossary is not None:
        (root / "glossary").mkdir()
        (root / "glossary" / "en.yaml").write_text(textwrap.dedent(glossary), encoding="utf-8")
    return root


def _errors(tmp_path, line: str) -> list:
    ruleset = load_ruleset(str(_folder(tmp_path, line)))
    return [d for d in ruleset.bag.errors]


def test_each_makes_one_component_per_combination_named_by_the_slots(tmp_path):
    ruleset = load_ruleset(str(_folder(tmp_path)))
    assert not ruleset.bag.errors, ruleset.bag.render()
    made = [(c.name, c.properties) for c in ruleset.data.components]
    assert made == [("red_1", {"colour": "red", "rank": 1}), ("red_2", {"colour": "red", "rank": 2}),
                    ("blue_1", {"colour": "blue", "rank": 1}), ("blue_2", {"colour": "blue", "rank": 2}),
                    ("green_1", {"colour": "green", "rank": 1}), ("green_2", {"colour": "green", "rank": 2})]
    # each is a component the rules can name, and the manifest counts them
    assert all(c.zone == "bag" and c.kind == "tile" for c in ruleset.data.components)


def test_properties_beside_each_go_to_every_component_made(tmp_path):
    line = LINE.replace("zone: bag,", "zone: bag, properties: {shiny: true},")
    ruleset = load_ruleset(str(_folder(tmp_path, line)))
    assert not ruleset.bag.errors, ruleset.bag.render()
    assert {c.properties["shiny"] for c in ruleset.data.components} == {True}


def test_a_name_without_a_slot_for_each_property_is_one_located_error(tmp_path):
    errors = _errors(tmp_path, LINE.replace('"{colour}_{rank}"', '"tile_{colour}"'))
    assert len(errors) == 1, [e.message for e in errors]
    assert "would give several components the same name" in errors[0].message
    assert errors[0].position.file.endswith("components.yaml") and errors[0].position.line == 2
    assert "add {rank} to it" in errors[0].hint


def test_a_misspelt_slot_is_the_one_mistake(tmp_path):
    errors = _errors(tmp_path, LINE.replace("{rank}", "{rnak}", 1))
    assert [e.message for e in errors] == ["the name's slot {rnak} is no property listed under 'each'"]
    assert errors[0].hint == "did you mean 'rank'?"


def test_a_value_slip_is_reported_once_at_the_value(tmp_path):
    line = LINE.replace("[red, blue, green]", "[red, bleu, green]")
    errors = _errors(tmp_path, line)
    assert len(errors) == 1, [e.message for e in errors]
    assert "'bleu' is not one of" in errors[0].message and errors[0].hint.startswith("did you mean 'blue'?")
    column = line.index("bleu") + 1
    assert (errors[0].position.line, errors[0].position.column) == (2, column)


def test_a_misspelt_kind_is_reported_once_without_a_manifest_echo(tmp_path):
    errors = _errors(tmp_path, LINE.replace("kind: tile", "kind: tiel"))
    assert [e.message.split(" has ")[-1] for e in errors] == ["unknown kind 'tiel'"]


def test_a_property_both_listed_and_given_is_an_error(tmp_path):
    errors = _errors(tmp_path, LINE.replace("zone: bag,", "zone: bag, properties: {rank: 3},"))
    assert [e.message for e in errors] == ["'rank' is both under 'properties' and under 'each'"]


def test_a_made_name_that_is_no_name_is_an_error(tmp_path):
    errors = _errors(tmp_path, LINE.replace('"{colour}_{rank}"', '"{rank}_{colour}"'))
    assert len(errors) == 1 and "makes the name '1_red', which is not a name" in errors[0].message


def test_slots_without_each_are_told_to_use_each(tmp_path):
    line = '  - {name: "{colour}_1", kind: tile, zone: bag, properties: {colour: red}}\n'
    errors = _errors(tmp_path, line)
    assert len(errors) == 1 and "only with 'each'" in errors[0].hint


GLOSSARY = """\
    language: en
    kinds:
      player: player
      tile: {one: tile, called: {one: "{colour} {rank}", article: false}}
    properties:
      tile.colour: colour
      tile.rank: rank
      tile.shiny: shine
    zones:
      bag: bag
    values:
      red: {one: the red, bare: red}
      blue: blue
      green: green
    definitions:
      setup: setting up
      round: a round
      reds: the red tiles
    engine:
      round: round
    """


def test_a_kinds_called_names_every_component_made_from_its_values(tmp_path):
    ruleset = load_ruleset(str(_folder(tmp_path, glossary=GLOSSARY)))
    glossary = load_glossary(ruleset, "en")
    assert glossary.get("components", "red_2").one == "red 2"  # a value's word without its article
    assert glossary.get("components", "green_1").one == "green 1"
    assert glossary.get("components", "green_1").article is False
    # no entry per component is asked for
    assert not [d.message for d in check_glossaries(ruleset, docs_words=False) if "'components'" in d.message]


def test_a_called_slot_naming_no_property_is_a_located_warning(tmp_path):
    ruleset = load_ruleset(str(_folder(tmp_path, glossary=GLOSSARY.replace("{colour} {rank}", "{color} {rank}"))))
    found = [d for d in check_glossaries(ruleset, docs_words=False) if "slot {color}" in d.message]
    assert len(found) == 1 and found[0].hint == "did you mean 'colour'?"
    assert found[0].position.file.endswith("en.yaml") and found[0].position.line == 4
