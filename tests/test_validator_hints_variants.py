"""Problems a variant's own lines cause are told at those lines, with hints that say
what a variant can do: a bad value its `components:` patch gives (at the value, not the
base's component), an unknown type it declares under `add: properties:` or `variables:`
(at the type, not the key), and a property of the base declared again under `add:`.
Nothing here knows a shipped game."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from engine_rulesets import QUIET_SETUP_AND_ROUND, write_ruleset

from rulecraft.dsl.loader import load_ruleset

GAME = """\
game:
  name: tiny
  players: {min: 2, max: 3}
  setup: setup
  round: round
  round_limit: 3
kinds:
  player:
    properties:
      coins: {type: number, default: 0, visible_to: owner}
      colour: {type: text, default: red, values: [red, blue]}
      score: {type: number, default: 0}
  card:
    located_in: zone
    properties:
      suit: {type: text, default: hearts, values: [hearts, spades]}
      worth: {type: number, default: 1}
zones:
  deck: {visible_to: nobody}
components:
  - {name: ace, kind: card, count: 2, zone: deck, properties: {suit: spades, worth: 3}}
"""

HEAD = "variant:\n  name: {name}\n  base: tiny\n"


@pytest.fixture
def folder(tmp_path) -> Path:
    return write_ruleset(tmp_path / "tiny", {"game.yaml": GAME, "main.rules": QUIET_SETUP_AND_ROUND})


def errors(folder: Path, name: str, body: str):
    (folder / "variants").mkdir(exist_ok=True)
    path = folder / "variants" / f"{name}.yaml"
    path.write_text(HEAD.format(name=name) + textwrap.dedent(body), encoding="utf-8")
    ruleset = load_ruleset(folder, variant=name)
    return ruleset.bag.errors, path.read_text().splitlines()


def caret(lines: list[str], d) -> str:
    """The text a diagnostic's caret runs under."""
    line = lines[d.position.line - 1]
    end = d.position.end_column or d.position.column + 1
    return line[d.position.column - 1:end - 1]


def test_a_bad_value_of_a_components_patch_is_told_at_the_patch(folder):
    found, lines = errors(folder, "patch", """\
        components:
          ace: {properties: {suit: clubs, worth: "three"}}
        """)
    assert len(found) == 2, [d.message for d in found]
    by_message = {("suit" if "suit" in d.message else "worth"): d for d in found}
    for d in found:
        assert d.position.file.endswith("variants/patch.yaml"), d
        assert d.hint
    assert caret(lines, by_message["suit"]) == "clubs"
    assert caret(lines, by_message["worth"]) == '"three"'
    assert "add: values: card.suit: [clubs]" in by_message["suit"].hint


def test_a_components_patch_of_a_good_value_loads(folder):
    found, _ = errors(folder, "good", """\
        components:
          ace: {properties: {suit: hearts, worth: 5}}
        """)
    assert found == []


def test_an_unknown_type_a_variant_declares_is_told_at_the_type(folder):
    found, lines = errors(folder, "types", """\
        add:
          properties:
            card.rank: {type: nmber, default: 0}
            player.luck: {default: 0, type: list of intgr}
        variables:
          game:
            pot: {type: integr, default: 0}
        """)
    assert sorted(caret(lines, d) for d in found) == ["integr", "intgr", "nmber"], [str(d.position) for d in found]
    assert all(d.message.startswith("unknown type") and d.hint for d in found)
    nmber = next(d for d in found if "nmber" in d.message)
    assert nmber.hint == "did you mean 'number'?"


def test_a_property_of_the_base_declared_again_says_what_a_variant_can_do(folder):
    found, lines = errors(folder, "again", """\
        add:
          properties:
            player.coins: {type: number, default: 0, visible_to: everyone}
            player.colour: {type: text, default: red, values: [red, blue, green]}
            player.score: {type: number, default: 5}
        """)
    hints = {caret(lines, d): d.hint for d in found}
    assert set(hints) == {"player.coins", "player.colour", "player.score"}
    for hint in hints.values():
        assert "a variant cannot declare a property of the base again" in hint
    # a number without values: no 'add: values:', but what to do about who sees it
    assert "add: values" not in hints["player.coins"]
    assert "visible_to: owner" in hints["player.coins"] and "reveal p.coins" in hints["player.coins"]
    # a property that lists its values: the values to add, named
    assert "add: values: player.colour: [green]" in hints["player.colour"]
    # another default: set it in the rules
    assert "add: values" not in hints["player.score"] and "set x.score" in hints["player.score"]
