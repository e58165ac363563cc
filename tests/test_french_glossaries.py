"""The French glossaries of Star Trek: Panic and Stationfall: every English entry has a
French one, the phrases (`say`, `deny`) fill the same slots, the same variables are shown
on the play screens, the French rules site is complete (the check and the site find no
missing word), and a played game tells its events in French.

These glossaries are the project's own translations (no French edition of either game
is available to the project): see docs/glossaries.md and each rule set's README.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from rulecraft.docgen.glossary import check_glossaries
from rulecraft.docgen.site import collect
from rulecraft.dsl.loader import load_checked
from rulecraft.dsl.variants import available_variants
from rulecraft.interpreter.game import Game
from rulecraft.narration import Words

RULES = Path(__file__).resolve().parent.parent / "rules"
GAMES = ["star_trek_panic", "stationfall"]
# the sections of game words; `texts` and `citations` are the French site's own (English
# needs none: the rule files are written in English)
WORD_SECTIONS = ("kinds", "properties", "zones", "components", "parameters", "variables", "tables", "dice",
                 "values", "events", "fields", "groups", "definitions", "names", "engine")
SLOT = re.compile(r"\{(\w+)\}")


def entries(path: Path) -> dict[tuple[str, str], object]:
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {(section, str(key)): value for section in WORD_SECTIONS for key, value in (data.get(section) or {}).items()}


def french_entries(game: str) -> dict[tuple[str, str], object]:
    """The base French glossary, with the French glossaries of the game's variants (a
    variant's own words may live in its own glossary, read on top of the base's)."""
    root = RULES / game
    found = entries(root / "glossary" / "fr.yaml")
    for variant in sorted((root / "variants").glob("*/glossary/fr.yaml")):
        for key, value in entries(variant).items():
            found.setdefault(key, value)
    return found


def field(entry: object, name: str):
    return entry.get(name) if isinstance(entry, dict) else None


def slots(phrase: str | None) -> set[str]:
    return set(SLOT.findall(phrase or ""))


@pytest.mark.parametrize("game", GAMES)
def test_every_english_entry_has_a_french_one(game):
    english = entries(RULES / game / "glossary" / "en.yaml")
    french = french_entries(game)
    assert english, "the English glossary is read"
    missing = sorted(f"{section}.{key}" for section, key in english if (section, key) not in french)
    assert missing == []


@pytest.mark.parametrize("game", GAMES)
def test_french_phrases_fill_the_same_slots_as_the_english_ones(game):
    english = entries(RULES / game / "glossary" / "en.yaml")
    french = french_entries(game)
    with_phrases = [(k, e) for k, e in english.items() if field(e, "say") or field(e, "deny")]
    assert with_phrases, "the English glossary gives phrases"
    for key, entry in with_phrases:
        for part in ("say", "deny"):
            if field(entry, part):
                assert field(french[key], part), f"{key}: no French '{part}'"
                assert slots(field(french[key], part)) == slots(field(entry, part)), f"{key}: '{part}' slots differ"


@pytest.mark.parametrize("game", GAMES)
def test_french_adds_no_slot_a_phrase_cannot_fill(game):
    # where French gives a phrase English lacks (Stationfall's yes/no properties), a
    # property's phrase names only the thing that has it, a variable's nothing
    english = entries(RULES / game / "glossary" / "en.yaml")
    for (section, key), entry in french_entries(game).items():
        if section in ("properties", "variables") and not field(english.get((section, key)), "say"):
            allowed = {"obj"} if section == "properties" else set()
            assert slots(field(entry, "say")) | slots(field(entry, "deny")) <= allowed, f"{section}.{key}"


@pytest.mark.parametrize("game", GAMES)
def test_the_same_variables_are_shown_on_the_play_screens(game):
    english = entries(RULES / game / "glossary" / "en.yaml")
    french = french_entries(game)
    shown_en = {key for (section, key), e in english.items() if section == "variables" and field(e, "shown")}
    shown_fr = {key for (section, key), e in french.items() if section == "variables" and field(e, "shown")}
    assert shown_en and shown_fr == shown_en
    for key in shown_en:  # `true` stays `true`; a word of its own is given in French too
        assert (field(english[("variables", key)], "shown") is True) == \
            (field(french[("variables", key)], "shown") is True), key


@pytest.mark.parametrize("game,variant", [(g, None) for g in GAMES]
                         + [(g, v) for g in GAMES for v in available_variants(RULES / g)])
def test_the_strict_check_finds_no_missing_french_word(game, variant):
    # the check lists, as warnings, every word `rulecraft docs --lang fr` would refuse
    ruleset = load_checked(RULES / game, variant=variant)
    assert [d.message for d in check_glossaries(ruleset)] == []


@pytest.mark.parametrize("game", GAMES)
def test_the_french_site_is_written_with_no_missing_word(game):
    # `collect` raises MissingWords for any word the French glossaries lack, as
    # `rulecraft docs --lang fr` does; it also runs the worked examples, whose board
    # pictures need the words of every value the rule set's data holds
    site = collect(RULES / game, "fr")
    assert site.lang == "fr"
    text = "\n".join(site.pages.values())
    assert "Mise en place" in text


def test_star_trek_panic_tells_a_placed_threat_in_french():
    ruleset = load_checked(RULES / "star_trek_panic")
    game = Game(ruleset, 2, 3)
    words = Words(ruleset, "fr")
    words.know_view(game.view("p1"))
    placed = [e for e in game.events if e.get("type") == "threat_placed"]
    assert placed, "the setup places the three threats set aside"
    assert words.event(placed[1]) == "Croiseur klingon 2 arrive à longue portée dans le secteur 3."
    revealed = next(e for e in game.events if e.get("type") == "mission_revealed")
    assert words.event(revealed) == "Mission L est révélée."


def test_stationfall_tells_the_station_ready_in_french():
    ruleset = load_checked(RULES / "stationfall")
    game = Game(ruleset, 3, 1)
    for _ in range(50):  # the station is ready once the scripted seat has laid out its start
        if any(e.get("type") == "station_ready" for e in game.events):
            break
        game.choose(0)
    words = Words(ruleset, "fr")
    words.know_view(game.view("p1"))
    ready = next(e for e in game.events if e.get("type") == "station_ready")
    assert words.event(ready) == "La station est en place ; le marqueur de Minute est sur la Minute 13."
