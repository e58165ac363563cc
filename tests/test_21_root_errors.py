"""One slip in a rule set's YAML is reported once, at the slip, with a hint: not again
as the schema errors of every alternative, nor as the unknown names, variables and
counts of the section it broke."""

import shutil
from pathlib import Path

import pytest

from dsl.loader import load_ruleset

SHIPPED = Path(__file__).resolve().parent.parent / "rules" / "panic_station"

# (file, text, the slip, the line of the slip, what the message says)
SLIPS = {
    "misspelt key": ("game.yaml", "  players: {min: 4, max: 6}", "  playrs: {min: 4, max: 6}",
                     "unknown key 'playrs'"),
    "wrong type": ("components.yaml", "{name: gas_can, kind: search_card, count: 12,",
                   "{name: gas_can, kind: search_card, count: twelve,", "expected a whole number"),
    "list item at the wrong indentation": (
        "game.yaml", "      - {name: infected, member: on_infected_side}",
        "    - {name: infected, member: on_infected_side}", "indented differently"),
    "missing required key": ("components.yaml", "{name: armor, kind: search_card,", "{kind: search_card,",
                             "'name' is a required property"),
    "YAML syntax error": ("game.yaml", "  round_limit: 40", "  round_limit: 40:", "would start a key"),
    "misspelt key in one alternative of several shapes": (
        "game.yaml", "{name: humans, member: on_humans_side}", "{name: humans, membr: on_humans_side}",
        "unknown key 'membr'"),
    "section indented into the one above": ("game.yaml", "\nparameters:\n", "\n  parameters:\n",
                                            "'parameters' is a section of its own"),
    "unknown type of a property the rules read": ("kinds.yaml", "      health: number",
                                                  "      health: nmber", "unknown type 'nmber'"),
    # indentation slips: each is one error, at the slipped line, whatever it moved
    "section indented into a section of named entries": ("game.yaml", "\nvariables:\n", "\n  variables:\n",
                                                         "'variables' is a section of its own"),
    "section indented into a table of dice": ("board.yaml", "\ntables:\n", "\n  tables:\n",
                                              "'tables' is a section of its own"),
    "key indented into the entry above it": ("game.yaml", "  setup: setup_game", "    setup: setup_game",
                                             "'setup' belongs to 'game', but it is indented inside 'seats'"),
    "board key indented into the one above": ("board.yaml", "  edges: [open", "    edges: [open",
                                              "'edges' belongs to 'board', but it is indented inside 'directions'"),
    "section key indented as far as its entries": ("kinds.yaml", "\nkinds:\n", "\n  kinds:\n",
                                                   "'kinds:' is indented, so the lines under it are read beside it"),
    "key swallowed by the text written over several lines above it": (
        "game.yaml", "  players: {min: 4, max: 6}", "    players: {min: 4, max: 6}", "read as part of the text of 'text'"),
    "list item indented one space too far": ("components.yaml", "  - {name: armor,", "   - {name: armor,",
                                             "list item is indented differently"),
    "list item indented too little": ("components.yaml", "  - {name: keycard,", "- {name: keycard,",
                                      "list item is indented differently"),
    "key indented too little, closing the mapping above": ("kinds.yaml", "\n  character:\n", "\ncharacter:\n",
                                                           "indented differently"),
    # slips the parser notices only at a later line
    "first entry indented too far": ("game.yaml", "\n    value: 4\n", "\n      value: 4\n",
                                     "indented differently from the lines around it"),
    "first entry indented too little": ("game.yaml", "\n    value: 4\n", "\n  value: 4\n",
                                        "indented differently from the lines around it"),
    "key indented into the entry above, so that a key appears twice": (
        "game.yaml", "\n  cards_dealt_at_setup:\n", "\n    cards_dealt_at_setup:\n",
        "indented differently from the lines around it"),
    "the only section key indented": ("game.yaml", "\ngame:\n  name:", "\n  game:\n  name:",
                                      "indented differently from the lines around it"),
    "a key of an entry indented as far as the entry": ("kinds.yaml", "\n    properties:\n      colour: text",
                                                       "\n  properties:\n      colour: text",
                                                       "'properties' belongs to 'player'"),
    "an entry's key not indented under it": ("game.yaml", "\n      type: room?\n    traded:",
                                             "\n    type: room?\n    traded:", "'type' is not indented under"),
}


@pytest.mark.parametrize("slip", list(SLIPS))
def test_one_slip_gives_one_located_error_with_a_hint(slip, tmp_path):
    file, old, new, words = SLIPS[slip]
    folder = tmp_path / "rules"
    shutil.copytree(SHIPPED, folder)
    text = (folder / file).read_text(encoding="utf-8")
    assert old in text
    slipped = text.replace(old, new, 1)
    (folder / file).write_text(slipped, encoding="utf-8")
    line = slipped[:slipped.index(new) + len(new) - len(new.lstrip("\n"))].count("\n") + 1

    bag = load_ruleset(folder).bag

    assert len(bag.errors) == 1, [d.message for d in bag.errors]
    error = bag.errors[0]
    assert words in error.message
    assert Path(error.position.file).name == file
    assert error.position.line == line
    assert error.hint
    # the follow-on findings are withheld, and said to be
    assert all(d.code == "follow-on" for d in bag.warnings)


def test_a_sound_rule_set_withholds_nothing():
    bag = load_ruleset(SHIPPED).bag
    assert not bag.errors
    assert not [d for d in bag.warnings if d.code == "follow-on"]


def _broken_copy(tmp_path, file, old, new) -> Path:
    folder = tmp_path / "panic_station"
    shutil.copytree(SHIPPED, folder, ignore=shutil.ignore_patterns("__pycache__"))
    text = (folder / file).read_text(encoding="utf-8")
    assert old in text
    (folder / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


@pytest.mark.parametrize("file, old, new", [
    ("game.yaml", "  round_limit: 40", "  round_limit: 40:"),        # a YAML syntax error
    ("game.yaml", "  setup: setup_game", "    setup: setup_game"),    # an indentation slip the schema sees
    ("components.yaml", "  - {name: armor,", "   - {name: armor,"),   # a YAML syntax error in another file
])
def test_a_variant_adds_no_error_of_its_own_to_a_broken_base(file, old, new, tmp_path):
    """The base's game section, or its components, did not load: the variant's chain and
    what it changes are not reported as missing from the base."""
    folder = _broken_copy(tmp_path, file, old, new)
    bag = load_ruleset(folder, variant="humans_advantage").bag
    assert len(bag.errors) == 1, [d.message for d in bag.errors]
    assert Path(bag.errors[0].position.file).name == file


def test_a_syntax_error_in_a_variant_is_its_one_error(tmp_path):
    folder = tmp_path / "panic_station"
    shutil.copytree(SHIPPED, folder, ignore=shutil.ignore_patterns("__pycache__"))
    path = folder / "variants" / "four_gas_cans.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  base: panic_station", "   base: panic_station"), encoding="utf-8")
    bag = load_ruleset(folder, variant="four_gas_cans").bag
    assert len(bag.errors) == 1, [d.message for d in bag.errors]
    assert bag.errors[0].position.file.endswith("variants/four_gas_cans.yaml")


def test_check_prints_one_error_for_an_indentation_slip(tmp_path, capsys, monkeypatch):
    from rulecraft.cli.main import main

    folder = _broken_copy(tmp_path, "components.yaml", "  - {name: keycard,", "- {name: keycard,")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "panic_station"]) == 1
    out = capsys.readouterr().out
    assert out.count("error:") == 1, out
    assert "panic_station/components.yaml:12:1: error: YAML syntax: this list item is indented differently" in out
    assert "no 'game' section" not in out and "unknown" not in out


def test_check_prints_the_error_before_the_findings_it_withholds(tmp_path, capsys, monkeypatch):
    from rulecraft.cli.main import main

    folder = _broken_copy(tmp_path, "game.yaml", "  round_limit: 40", "  round_limit: 40:")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "panic_station"]) == 1
    out = capsys.readouterr().out
    assert "withheld" in out
    assert out.index("error:") < out.index("warning: checks of names and counts were skipped"), out


def test_a_schema_error_in_one_section_leaves_the_sections_above_it_loaded(tmp_path):
    # parameters is the second of game.yaml's four sections: game, above it, still counts
    folder = _broken_copy(tmp_path, "game.yaml", "  starting_health:\n    value: 4", "  starting_health:\n    valu: 4")
    ruleset = load_ruleset(folder)
    assert len(ruleset.bag.errors) == 1, [d.message for d in ruleset.bag.errors]
    assert ruleset.data.broken == {"parameters"}
    assert ruleset.data.game is not None and ruleset.data.game.name == "panic_station"
    withheld = [d for d in ruleset.bag.warnings if d.code == "follow-on"]
    assert len(withheld) == 1 and withheld[0].message.endswith("the YAML section(s) parameters did not load")
