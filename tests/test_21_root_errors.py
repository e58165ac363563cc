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
                   "{name: gas_can, kind: search_card, count: twelve,", "expected integer"),
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
