"""A text a property holds is said by its word under `values`, not by the word of a
thing or space that happens to share its id."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecraft.dsl.loader import load_checked
from rulecraft.narration import Words

TREK = Path(__file__).resolve().parent.parent / "rules" / "star_trek_panic"


@pytest.mark.parametrize("lang, said", [("fr", "arc tribord"), ("en", "arc starboard")])
def test_a_text_value_is_said_by_its_values_word(lang, said):
    # the facing `starboard` holds the arc `starboard`: "côté tribord : arc côté tribord" before
    words = Words(load_checked(TREK), lang)
    assert words.status("facing", "arc", "starboard") == said
    assert words.name("starboard") != words.property_value("facing", "arc", "starboard") or lang == "en"


def test_a_spot_is_told_by_the_space_its_side_would_touch(tmp_path):
    """A laid tile of two rooms, top along its north side and bottom along its south:
    a spot north of it touches top, one south of it bottom (the tile's first room by
    name was named for both)."""
    from test_60_board import board_game

    game = board_game(tmp_path, "place(annex, spot(0, 0, 0))")
    words = Words(game.ruleset)
    words.know_view(game.view("p1"))
    assert words.placement({"x": 0, "y": -1, "rotation": 0}).endswith("with annex (top) to its south")
    assert words.placement({"x": 0, "y": 1, "rotation": 0}).endswith("with annex (bottom) to its north")
    # turned half round, its top lies south
    turned = board_game(tmp_path / "turned", "place(annex, spot(0, 0, 180))")
    words.know_view(turned.view("p1"))
    assert words.placement({"x": 0, "y": 1, "rotation": 0}).endswith("with annex (top) to its north")


def test_a_spot_given_to_an_action_is_told_as_a_chosen_one_is(tmp_path):
    """`with spot: placement in ...`: the option says the cell, the turn and what it
    would touch, as a `choose` of a spot does, not its fields ("x 0, y 1, rotation 90")."""
    from test_60_board import board_game

    game = board_game(tmp_path, "place(annex, spot(0, 0, 0))")
    words = Words(game.ruleset)
    words.know_view(game.view("p1"))
    label = words.option({"action": "lay", "args": {"spot": {"x": 0, "y": 1, "rotation": 90}}})["label"]
    assert "x 0" not in label and "at (0, 1), turned 90°, with annex (bottom) to its north" in label, label


def test_a_zone_without_a_word_opening_a_sentence_keeps_its_id(tmp_path):
    """Without a glossary a zone is named by its id, which is no word to capitalise:
    "building_deck is shuffled.", not "Building_deck is shuffled." (a zone id without an
    underscore reads as a word, and is capitalised as one)."""
    from engine_rulesets import QUIET_SETUP_AND_ROUND, build, game_yaml

    ruleset = build(tmp_path, {
        "game.yaml": game_yaml("piles", players=(1, 2)) + """
kinds:
  player:
    properties: {}
zones:
  building_deck: {visible_to: nobody}
  pile: {visible_to: nobody}
""",
        "play.rules": QUIET_SETUP_AND_ROUND,
    })
    words = Words(ruleset)
    assert words.event({"type": "shuffled", "zone": "building_deck"}) == "building_deck is shuffled."
    assert words.event({"type": "shuffled", "zone": "pile"}) == "Pile is shuffled."


def test_a_laid_space_without_a_word_is_told_by_its_tile_and_which_space(tmp_path):
    """No glossary: `annex_b/top` is "annex b (top)" (the tile, and which of its two
    spaces), a tile of one space is its tile: never "annex b/top" half read."""
    from test_60_board import board_game

    game = board_game(tmp_path, "place(annex_b, spot(0, 0, 0))\nplace(hub, spot(0, 1, 0))")
    words = Words(game.ruleset)
    assert words.name("annex_b/top") == "annex b (top)"
    assert words.name("hub/main") == "hub"
