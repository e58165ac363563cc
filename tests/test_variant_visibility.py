"""A house variant changes who sees what (`visibility:`): open hands, a secret made
public, a deck's top card hidden. The views every seat is handed follow, `variant diff`
and the variant's page say it, and a name the base lacks is an error at the variant's line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulecraft.cli.main import main
from rulecraft.dsl.loader import load_checked, load_ruleset
from rulecraft.interpreter.game import Game

RULES = Path(__file__).resolve().parent.parent / "rules" / "panic_station"

OPEN_HANDS = """variant:
  name: open_hands
  title: Open hands
  base: panic_station
  text: Everyone plays with their hand face up.
visibility:
  zones:
    hand: everyone
    exploration_deck: {top_visible: false}
  properties:
    player.infected: everyone
  variables:
    game.infections: everyone
"""


@pytest.fixture(scope="module")
def station(tmp_path_factory):
    folder = tmp_path_factory.mktemp("vis") / "panic_station"
    shutil.copytree(RULES, folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "variants" / "open_hands.yaml").write_text(OPEN_HANDS, encoding="utf-8")
    return folder


def test_the_views_follow_the_variants_visibility(station):
    base, open_hands = Game(load_checked(station), 4, 1), Game(load_checked(station, "open_hands"), 4, 1)
    seen_base, seen = base.view("p2"), open_hands.view("p2")
    assert isinstance(seen_base["zones"]["hand:p1"], dict)  # a count only
    assert seen["zones"]["hand:p1"] == open_hands.state.zones["hand:p1"]
    assert "infected" not in seen_base["entities"]["p1"]["props"]
    assert "infected" in seen["entities"]["p1"]["props"]
    assert "top" in seen_base["zones"]["exploration_deck"] and "top" not in seen["zones"]["exploration_deck"]
    assert "infections" in seen["vars"]["game"] and "infections" not in seen_base["vars"]["game"]


def test_the_base_is_left_as_it_was(station):
    load_checked(station, "open_hands")
    assert load_checked(station).data.zones["hand"].visible_to == "owner"


def test_variant_diff_and_the_variants_page_say_who_sees_what(station, tmp_path, capsys):
    assert main(["variant", "diff", "open_hands", "--base", str(station)]) == 0
    out = capsys.readouterr().out
    assert "who sees zone hand: owner → everyone" in out
    assert "who sees zone exploration_deck: nobody, top card shown → nobody" in out
    assert "who sees property player.infected: owner → everyone" in out
    assert main(["docs", str(station), "--variant", "open_hands", "--lang", "en", "--out", str(tmp_path / "site")]) == 0
    page = (tmp_path / "site" / "docs" / "variants" / "open_hands.md").read_text(encoding="utf-8")
    assert "## Who sees what" in page
    assert "| Hand | its owner only | every player |" in page


def test_a_name_the_base_lacks_is_an_error_at_the_variants_line(station):
    (station / "variants" / "peek.yaml").write_text(
        "variant:\n  name: peek\n  base: panic_station\nvisibility:\n  zones:\n    hnd: everyone\n"
        "  properties:\n    player.infectd: everyone\n  variables:\n    game.infection: everyone\n", encoding="utf-8")
    errors = load_ruleset(station, variant="peek").bag.errors
    found = {e.message: e for e in errors}
    assert set(found) == {"the base has no zone 'hnd'", "the base has no property 'player.infectd'",
                          "the base has no variable 'game.infection'"}, [e.message for e in errors]
    assert all(e.position.file.endswith("variants/peek.yaml") for e in errors)
    assert found["the base has no zone 'hnd'"].hint == "did you mean 'hand'?"
    assert "infected" in found["the base has no property 'player.infectd'"].hint
    assert "infections" in found["the base has no variable 'game.infection'"].hint


def test_mutate_changes_who_sees_what_a_variant_says(station, capsys):
    # a variant's visibility: was never mutated: its scenarios could not be shown to check it
    assert main(["mutate", str(station), "--variant", "open_hands", "--operator", "visibility", "--list",
                 "--scenarios", str(RULES.parent.parent / "seeds" / "panic_station")]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if "variants/open_hands.yaml" in line]
    assert len(rows) == 4, out
    assert sum("everyone → nobody" in row for row in rows) == 3
    assert sum("false → true" in row for row in rows) == 1


def test_mutate_variant_leaves_out_the_base_s_sight_the_variant_gives_again(station):
    # a base's `visible_to: owner` of hand cannot change a game where the variant opens hands:
    # such mutants would only survive; what the variant leaves alone is still mutated
    from rulecraft.validator.mutants import generate, mutant_files, reachable
    chain = ["open_hands"]
    got = reachable(station, generate(station, mutant_files(station, chain)), chain)
    sights = {(m.file, m.line) for m in got if m.operator == "visibility"}
    zones = (station / "zones.yaml").read_text(encoding="utf-8").splitlines()
    kinds = (station / "kinds.yaml").read_text(encoding="utf-8").splitlines()
    hand = next(i for i, t in enumerate(zones, 1) if "visible_to: owner" in t)
    deck_top = next(i for i, t in enumerate(zones, 1) if "top_visible: true" in t)
    deck_sight = deck_top - 1
    assert "visible_to: nobody" in zones[deck_sight - 1]
    infected = next(i for i, t in enumerate(kinds, 1) if "infected:" in t)
    assert ("zones.yaml", hand) not in sights
    assert ("zones.yaml", deck_top) not in sights  # the variant sets the top card
    assert ("zones.yaml", deck_sight) in sights  # … but not who sees the deck
    assert ("kinds.yaml", infected) not in sights
    assert sum(file == "variants/open_hands.yaml" for file, _ in sights) == 4
    base_only = reachable(station, generate(station, mutant_files(station)), [])
    assert ("zones.yaml", hand) in {(m.file, m.line) for m in base_only if m.operator == "visibility"}
