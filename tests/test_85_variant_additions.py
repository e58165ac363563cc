"""A variant adds what its base lacks under `add:`, and changes what it has outside it;
a mix-up either way is an error located in the variant, with a hint."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulecraft.dsl.loader import load_checked, load_ruleset

RULES = Path(__file__).resolve().parent.parent / "rules" / "panic_station"
HEAD = "variant:\n  name: {name}\n  base: {base}\n"


@pytest.fixture
def rules(tmp_path) -> Path:
    folder = tmp_path / "panic_station"
    shutil.copytree(RULES, folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def write(folder: Path, name: str, body: str, rules: str | None = None, base: str = "panic_station") -> Path:
    path = folder / "variants" / f"{name}.yaml"
    path.write_text(HEAD.format(name=name, base=base) + body, encoding="utf-8")
    if rules is not None:
        (folder / "variants" / f"{name}.rules").write_text(rules, encoding="utf-8")
    return path


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


EVERYTHING = """add:
  kinds:
    drone:
      text: A flying helper.
      located_in: room
      properties:
        battery: {type: number, default: 3}
  properties:
    room.lit: {type: bool, default: true}
  values:
    room.type: [armory]
  zones:
    drone_bay: {text: Drones not yet launched.}
  layouts:
    armory_oowo:
      rooms: {main: {type: armory, icon: true}}
      sides: {north: open, east: open, south: wall, west: open}
  components:
    - {name: stim_pack, kind: search_card, count: 2, zone: search_deck, properties: {item: stim_pack}}
    - {name: armory, kind: exploration_card, layout: armory_oowo, zone: exploration_deck}
    - {name: drone, kind: drone, count: 2, zone: drone_bay}
  tables:
    drone_range: {3: 2, 2: 1, 1: 0}
  dice:
    d2: [1, 2]
  parameters:
    stim_pack_healing: {value: 1}
  variables:
    game:
      drones_launched: {type: number, default: 0}
"""


def test_a_variant_adds_every_kind_of_table_entry_and_the_base_stays_as_it_was(rules):
    write(rules, "everything", EVERYTHING)
    rs = load_checked(rules, "everything")
    data = rs.data
    assert data.kinds["drone"].properties["battery"].default == 3
    assert data.kinds["room"].properties["lit"].default is True
    assert "armory" in data.kinds["room"].properties["type"].values
    assert "drone_bay" in data.zones
    assert data.board.layouts["armory_oowo"].rooms == {"main": {"type": "armory", "icon": True}}
    assert {c.name: c.count for c in data.components}["stim_pack"] == 2
    assert data.tables["drone_range"] == {3: 2, 2: 1, 1: 0} and data.dice["d2"] == [1, 2]
    assert data.parameters["stim_pack_healing"]["value"] == 1
    assert "drones_launched" in data.variables["game"]
    # the added components are counted on top of the base's box
    assert data.manifest["search_card"] == 48 and data.manifest["exploration_card"] == 21
    assert ("components", "stim_pack") in rs.variant.additions and ("values", "room.type=armory") in rs.variant.additions
    base = load_checked(rules).data
    assert "drone" not in base.kinds and "armory" not in base.kinds["room"].properties["type"].values
    assert "armory_oowo" not in base.board.layouts and "stim_pack" not in {c.name for c in base.components}
    assert base.manifest["search_card"] == 46


def test_changes_may_name_what_the_variant_or_its_base_variant_added(rules):
    write(rules, "stims", "add:\n  components:\n    - {name: stim_pack, kind: search_card, count: 2, "
                          "zone: search_deck, properties: {item: stim_pack}}\n  parameters:\n    stim_heal: {value: 1}\n")
    write(rules, "more_stims", "parameters:\n  stim_heal: 2\ncomponents:\n  stim_pack: {count: 4}\nmanifest:\n"
                               "  search_card: 50\n", base="stims")
    rs = load_checked(rules, "more_stims")
    assert {c.name: c.count for c in rs.data.components}["stim_pack"] == 4
    assert rs.data.parameters["stim_heal"]["value"] == 2


def test_changing_what_the_base_lacks_says_how_to_add_it(rules):
    path = write(rules, "stims", "parameters:\n  stim_pack_healing: 1\ncomponents:\n  stim_pack: {count: 2}\n"
                                 "removes: [use_stim_pack]\n")
    bag = load_ruleset(rules, variant="stims").bag
    by_message = {e.message: e for e in bag.errors}
    component = by_message["the base has no component 'stim_pack'"]
    assert component.position.file.endswith("variants/stims.yaml")
    assert component.position.line == line_of(path, "stim_pack: {count") and component.position.column == 3
    assert "add: components:" in component.hint
    # a name as close to a base name as a new one may be gets both hints
    assert by_message["the base has no parameter 'stim_pack_healing'"].hint == (
        "did you mean 'sick_bay_healing'? If 'stim_pack_healing' is new: to add a new parameter, put it under "
        "'add: parameters:' (stim_pack_healing: {value: ...})")
    assert "write it in the variant's .rules file" in \
        by_message["variant 'stims' removes 'use_stim_pack', which the base does not define"].hint
    assert len(bag.errors) == 3


def test_a_change_close_to_a_base_name_gets_a_did_you_mean(rules):
    write(rules, "typos", "components:\n  gas_cans: {count: 2}\nadd:\n  values:\n    room.typ: [armory]\n"
                          "    rooms.type: [armory]\n")
    bag = load_ruleset(rules, variant="typos").bag
    hints = {e.message: e.hint for e in bag.errors}
    assert hints["the base has no component 'gas_cans'"] == "did you mean 'gas_can'?"
    assert hints["'room.typ': kind 'room' has no property 'typ'"] == "did you mean 'type'?"
    assert hints["'rooms.type': the base has no kind 'rooms'"] == "did you mean 'room'?"


@pytest.mark.parametrize("body, message, hint", [
    ("add:\n  components:\n    - {name: gas_can, kind: search_card, count: 2}\n",
     "the base already has the component 'gas_can'", "list it under 'components:'"),
    ("add:\n  parameters:\n    hand_minimum: {value: 4}\n",
     "the base already has the parameter 'hand_minimum'", "list it under 'parameters:'"),
    ("add:\n  kinds:\n    room: {properties: {lit: bool}}\n",
     "the base already has the kind 'room'", "add: properties: room.NAME"),
    ("add:\n  properties:\n    room.type: text\n",
     "the base already has the property 'room.type'", "add: values: room.type"),
    ("add:\n  values:\n    room.type: [storage]\n", "'room.type' already allows 'storage'", None),
    ("add:\n  values:\n    search_card.item: [stim_pack]\n", "'search_card.item' takes any text: it lists no values to add to", None),
    ("add:\n  layouts:\n    hive:\n      sides: {north: wall, east: wall, south: open, west: wall}\n",
     "the base already has the layout 'hive'", None),
    ("add:\n  variables:\n    game:\n      infections: number\n", "the base already has the game variable 'infections'", None),
])
def test_adding_what_the_base_has_is_an_error_in_the_variant(rules, body, message, hint):
    path = write(rules, "again", body)
    bag = load_ruleset(rules, variant="again").bag
    assert [e.message for e in bag.errors] == [message]
    error = bag.errors[0]
    assert error.position.file.endswith("variants/again.yaml") and error.position.line > 3
    assert error.position.line <= len(path.read_text().splitlines())
    if hint:
        assert hint in error.hint


def test_what_is_added_is_checked_like_the_base_files_at_its_line_in_the_variant(rules):
    path = write(rules, "sloppy", "add:\n  compnents:\n    - {name: x, kind: search_card}\n  components:\n"
                                  "    - {name: stim_pack, kind: search_crd, count: two}\n")
    bag = load_ruleset(rules, variant="sloppy").bag
    messages = {e.message: e for e in bag.errors}
    unknown = messages["unknown key 'compnents' in add"]
    assert unknown.hint == "did you mean 'components'?" and unknown.position.line == line_of(path, "compnents")
    count = next(e for e in bag.errors if "expected a whole number" in e.message)
    assert count.position.file.endswith("variants/sloppy.yaml") and count.position.line == line_of(path, "count: two")


def test_the_words_an_addition_lacks_are_asked_of_the_variants_glossary(rules):
    from rulecraft.docgen.glossary import check_glossaries

    write(rules, "stims", "add:\n  components:\n    - {name: stim_pack, kind: search_card, count: 2, "
                          "zone: search_deck, properties: {item: stim_pack}}\n")
    missing = [d for d in check_glossaries(load_checked(rules, "stims")) if "'stim_pack' in 'components'" in d.message]
    assert len(missing) == 2  # English and French
    assert all(d.hint.endswith(f"variants/stims/glossary/{lang}.yaml") for d, lang in zip(missing, ["en", "fr"]))
    (rules / "variants" / "stims" / "glossary").mkdir(parents=True)
    for lang, word in (("en", "Stim Pack"), ("fr", "Stimulant")):
        (rules / "variants" / "stims" / "glossary" / f"{lang}.yaml").write_text(
            f"language: {lang}\ncomponents:\n  stim_pack: {word}\n", encoding="utf-8")
    assert not [d for d in check_glossaries(load_checked(rules, "stims")) if "'stim_pack' in 'components'" in d.message]


def test_a_tile_with_a_room_type_the_base_does_not_list_says_how_to_add_the_type(rules):
    path = write(rules, "lab", "add:\n  layouts:\n    lab_oowo:\n      rooms: {main: {type: laboratory}}\n"
                               "      sides: {north: open, east: open, south: wall, west: open}\n")
    bag = load_ruleset(rules, variant="lab").bag
    [error] = bag.errors
    assert error.message.startswith("layout 'lab_oowo': room 'main' type = 'laboratory' is not one of")
    assert error.position.file.endswith("variants/lab.yaml") and error.position.line == line_of(path, "lab_oowo:")
    assert error.hint.endswith("'add: values: room.type: [laboratory]')")


def test_a_misspelt_base_is_located_at_the_base_line_with_a_did_you_mean(rules):
    path = write(rules, "stims", "parameters:\n  hand_minimum: 4\n", base="panic_statoin")
    [error] = load_ruleset(rules, variant="stims").bag.errors
    assert error.message == "variant 'stims' builds on 'panic_statoin', which is neither the game nor one of its variants"
    assert error.position.file.endswith("variants/stims.yaml") and error.position.line == line_of(path, "base:")
    assert error.hint == "did you mean 'panic_station'?"


# A small graph board (not a shipped game): a variant adds a space and the ways to it.
GRAPH_RULES = {
    "game.yaml": """
        game:
          name: corridors
          players: {min: 1, max: 2}
          setup: setup
          round: round
          round_limit: 1
        kinds:
          player: {}
          room:
            properties:
              lit: {type: bool, default: false}
          door:
            properties:
              locked: {type: bool, default: false}
        """,
    "board.yaml": """
        board:
          kind: graph
          space_kind: room
          connection_kind: door
          directions: {fore: aft, aft: fore}
          properties: {lit: true}
          spaces:
            bridge:
            hall: {lit: false}
          connections:
            - {from: bridge, to: hall, direction: aft}
        """,
    "main.rules": """
        procedure setup():
            do:
                stop

        procedure round():
            do:
                stop
        """,
}


def test_a_variant_adds_spaces_and_connections_to_a_graph_board(tmp_path):
    from engine_rulesets import write_ruleset

    folder = write_ruleset(tmp_path / "corridors", GRAPH_RULES)
    (folder / "variants").mkdir()
    write(folder, "annex", "add:\n  spaces:\n    annex:\n  connections:\n"
                                  "    - {from: hall, to: annex, direction: aft, name: annex_door, "
                                  "properties: {locked: true}}\n", base="corridors")
    board = load_checked(folder, "annex").data.board
    assert board.spaces["annex"] == {"lit": True}  # the board's defaults apply to a new space
    ways = {(c.source, c.target): c for c in board.connections}
    assert ways[("hall", "annex")].direction == "aft" and ways[("annex", "hall")].direction == "fore"
    assert ways[("annex", "hall")].name == "annex_door" and ways[("hall", "annex")].properties == {"locked": True}
    assert "annex" not in load_checked(folder).data.board.spaces

    write(folder, "broken", "add:\n  spaces:\n    hall:\n  connections:\n    - {from: hall, to: anex}\n",
          base="corridors")
    errors = {e.message: e for e in load_ruleset(folder, variant="broken").bag.errors}
    assert "the base already has the space 'hall'" in errors
    unknown = errors["connection names unknown space 'anex'"]
    assert unknown.position.file.endswith("variants/broken.yaml") and unknown.position.line == 8
    assert unknown.hint == "known spaces: bridge, hall"  # none close to 'anex': the hint lists them
    assert len(errors) == 2


def test_spaces_are_added_to_a_graph_board_only(rules):
    write(rules, "spaces", "add:\n  spaces:\n    annex:\n")
    [error] = load_ruleset(rules, variant="spaces").bag.errors
    assert error.message == "the base has no graph board to add spaces to"
    assert "new layouts" in error.hint
