"""The rules site, as a designer who wrote a rule set of their own from the docs reported
it: a small rule set kept in one folder (not under ``rules/``), with its worked examples
in ``scenarios/``, a variant keeping its own scenarios in ``variants/big/`` and one whose
scenario lies in the base's folder marked ``variant: small`` (the shipped rule sets' way).

- A variant's site runs the variant's own scenarios, and counts the base's examples the
  variant supersedes apart, as superseded, never as skipped failures.
- A worked example tells the results its scenario fixes for the game's own setup
  (``game_setup``): where the setup put what a fixed shuffle put on top, every player's
  tiles whole, so a reader can follow the steps.
- The game's description (``game: text:``) opens the overview.
- Rule and scenario files are labelled where the rule set was given, not ``rules/<game>``.
- A component page lists a rule "through" a number only when the number sets the
  component apart: not for a number every component of its kind holds, each its own.
- A worked example tells an event by the glossary's phrase for it, as the screens do.
- ``variant diff`` names what a variant adds like the rest of its lines.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

from engine_rulesets import write_ruleset

from rulecraft.cli.main import main
from rulecraft.docgen.narration import Narrator
from rulecraft.docgen.prose import Prose
from rulecraft.docgen.site import collect
from rulecraft.dsl.loader import load_checked

REPO = Path(__file__).resolve().parent.parent

GAME = """
game:
  name: relay
  title: Tile Relay
  text: "Each player draws *two* tiles from the bag <b>and</b> plays one."
  players: {min: 2, max: 2}
  setup: setup
  round: round
  round_limit: 3
  actions_per_turn_limit: 1
kinds:
  player:
    properties:
      points: {type: number, default: 0}
  tile:
    properties:
      value: {type: number}
      bonus: {type: number, default: 0}
zones:
  bag: {visible_to: nobody, holds: tile}
  rack: {per_player: true, visible_to: owner, holds: tile}
  table: {visible_to: everyone, holds: tile}
parameters:
  dealt: {value: 2, text: Tiles each player draws.}
"""

# every tile holds a value of its own, with no default; only one holds a bonus
COMPONENTS = """
components:
  - {name: t1, kind: tile, zone: bag, properties: {value: 1}}
  - {name: t2, kind: tile, zone: bag, properties: {value: 2, bonus: 3}}
  - {name: t3, kind: tile, zone: bag, properties: {value: 3}}
  - {name: t4, kind: tile, zone: bag, properties: {value: 4}}
  - {name: t5, kind: tile, zone: bag, properties: {value: 5}}
  - {name: t6, kind: tile, zone: bag, properties: {value: 6}}
  - {name: blank, kind: tile, count: 3, zone: bag, properties: {value: 7}}
"""

RULES = """
procedure setup():
    text "Shuffle the bag and give each player their tiles."
    cite "house rules: Setup"
    do:
        shuffle bag
        for each p in players:
            repeat dealt times:
                move top(bag) to rack(p)
        emit dealt_out(count: dealt)

procedure round():
    do:
        for each p in players:
            play_turn(p)

action play:
    text "Put a tile of your rack on the table."
    cite "house rules: Play"
    with t: tile in contents(rack(current_player))
    do:
        move t to table
        emit played(player: current_player, tile: t)

function bonus_of(t: tile) -> number:
    text "A tile's bonus counts double."
    = t.bonus * 2

function high(t: tile) -> bool:
    text "A tile above 3 is high."
    = t.value > 3
"""

SCENARIOS = """
scenarios:
  - title: The shuffle fills the racks
    cite: "house rules: Setup"
    players: 2
    game_setup:
      shuffles: {bag: [t5, t4, t3, t2]}
    expect:
      zone:
        "rack:p1": {contains: [t5, t4]}
  - title: A tile is played to the table
    cite: "house rules: Play"
    players: 2
    game_setup:
      shuffles: {bag: [t5, t4, t3, t2]}
    steps:
      - {do: play, args: {t: t5}, by: p1}
    expect:
      zone: {table: [t5]}
      events: [{type: played, player: p1, tile: t5}]
"""

# the shipped rule sets' layout: a variant's scenario in the base's folder, marked
SMALL_SCENARIOS = """
scenarios:
  - title: One tile each
    cite: "house rules: Setup"
    variant: small
    players: 2
    expect:
      zone: {"rack:p1": {count: 1}}
"""

BIG = """
variant:
  name: big
  title: Big racks
  base: relay
  text: Each player draws three tiles.
parameters:
  dealt: 3
superseded:
  - scenario: The shuffle fills the racks
    reason: each rack holds three tiles.
"""

# docs/variants.md's layout: a variant's own scenarios in its own folder
BIG_SCENARIOS = """
scenarios:
  - title: Three tiles each
    cite: "house rules: Setup"
    players: 2
    game_setup:
      shuffles: {bag: [t6, t5, t4, t3, t2, t1]}
    expect:
      zone:
        "rack:p1": {count: 3, contains: [t6, t5, t4]}
"""

SMALL = """
variant:
  name: small
  title: Small racks
  base: relay
parameters:
  dealt: 1
add:
  parameters:
    limit: {value: 4, text: The most tiles on the table.}
superseded:
  - scenario: The shuffle fills the racks
    reason: each rack holds one tile.
"""

GLOSSARY_EN = """
language: en
kinds:
  player: player
  tile: tile
components:
  t1: one-tile
  t2: two-tile
  t3: three-tile
  t4: four-tile
  t5: five-tile
  t6: six-tile
  blank: blank tile
events:
  played: {one: a tile is played, say: "{player} lays down {tile}"}
  dealt_out: the racks are filled
"""

GLOSSARY_FR = """
language: fr
kinds:
  player: joueur
  tile: {one: tuile, gender: f}
properties:
  tile.value: {one: valeur, gender: f}
  tile.bonus: bonus
  player.points: {one: points, gender: p}
zones:
  bag: sac
  rack: chevalet
  table: {one: table, gender: f}
components:
  t1: {one: tuile un, gender: f}
  t2: {one: tuile deux, gender: f}
  t3: {one: tuile trois, gender: f}
  t4: {one: tuile quatre, gender: f}
  t5: {one: tuile cinq, gender: f}
  t6: {one: tuile six, gender: f}
  blank: {one: tuile blanche, many: tuiles blanches, gender: f}
parameters:
  dealt: {one: tuiles tirées, gender: fp}
  limit: {one: limite, gender: f}
events:
  played: {one: une tuile est posée, say: "{player} pose {tile}"}
  dealt_out: les chevalets sont remplis
fields:
  count: nombre
  player: joueur
  tile: {one: tuile, gender: f}
names:
  t: {one: tuile, gender: f}
  p: joueur
definitions:
  setup: Mise en place
  round: Tour
  play: Poser
  bonus_of: {one: Bonus d'une tuile, say: "le bonus de {t}"}
  high: {one: Haute, say: "{t} est haute"}
texts:
  parameters.dealt: "Les tuiles que tire chaque joueur."
  parameters.limit: "Le plus de tuiles sur la table."
  setup: "Mélangez le sac et donnez à chacun ses tuiles."
  play: "Posez une tuile de votre chevalet sur la table."
  bonus_of: "Le bonus d'une tuile compte double."
  high: "Une tuile au-dessus de 3 est haute."
  variants.big.title: "Grands chevalets"
  variants.big.text: "Chaque joueur tire trois tuiles."
  variants.small.title: "Petits chevalets"
citations:
  "house rules: Setup": "règles maison : Mise en place"
  "house rules: Play": "règles maison : Jeu"
"""


@contextlib.contextmanager
def working_in(folder: Path):
    """The current folder, for the labels a site gives files (relative to it)."""
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


@pytest.fixture(scope="module")
def top(tmp_path_factory) -> Path:
    """A designer's folder holding the rule set ``relay/`` (no ``rules/`` around it)."""
    top = tmp_path_factory.mktemp("designer")
    root = write_ruleset(top / "relay", {"game.yaml": GAME, "components.yaml": COMPONENTS, "play.rules": RULES})
    write_ruleset(root / "scenarios", {"play.yaml": SCENARIOS, "variants.yaml": SMALL_SCENARIOS})
    write_ruleset(root / "variants", {"big.yaml": BIG, "small.yaml": SMALL})
    write_ruleset(root / "variants" / "big", {"scenarios.yaml": BIG_SCENARIOS})
    write_ruleset(root / "glossary", {"en.yaml": GLOSSARY_EN, "fr.yaml": GLOSSARY_FR})
    return top


@pytest.fixture(scope="module")
def sites(top):
    """The sites built from the designer's folder, by (language, variant)."""
    with working_in(top):
        return {(lang, variant): collect("relay", lang, variant)
                for lang in ("en", "fr") for variant in (None, "big", "small")}


def row(index: str, link: str) -> str:
    return next(line for line in index.splitlines() if f"]({link})" in line)


# ---------------------------------------------------------------- A2: a variant's own examples
def test_a_variants_site_runs_the_scenarios_of_the_variants_own_folder(sites):
    site = sites["en", "big"]
    assert "examples/big.md" in site.pages
    assert row(site.pages["examples/index.md"], "big.md#example-1").endswith("| PASS |")
    assert "## Three tiles each" in site.pages["examples/big.md"]
    # the base's site runs what `verify` runs without the variant: not the variant's own folder
    assert "examples/big.md" not in sites["en", None].pages


def test_a_variants_site_counts_the_examples_it_supersedes_apart_and_never_as_skipped(sites):
    index = sites["en", "big"].pages["examples/index.md"]
    # run here: the base's play example and the variant's own; the small variant's is skipped
    assert ("2 of 3 pass. 1 is an example of a variant, skipped here: it runs on that variant's site. "
            "1 is superseded by the variant [Big racks](../variants/big.md): it holds for the rules without it, "
            "and is not run here.") in index
    superseded = row(index, "play.md#example-1")
    assert superseded.endswith("| SUPERSEDED |") and "SKIPPED" not in superseded
    page = sites["en", "big"].pages["examples/play.md"]
    assert '<span class="rulecraft-status rulecraft-superseded">SUPERSEDED</span>' in page
    assert "*Superseded by the variant [Big racks](../variants/big.md): each rack holds three tiles.*" in page
    french = sites["fr", "big"].pages["examples/index.md"]
    assert row(french, "play.md#example-1").endswith("| REMPLACÉ |")
    assert "1 est remplacé par la variante [Grands chevalets](../variants/big.md)" in french


def test_a_variants_scenario_in_the_bases_folder_runs_on_its_site_too(sites):
    index = sites["en", "small"].pages["examples/index.md"]
    assert row(index, "variants.md#example-1").endswith("| PASS |")
    assert index.count("SKIPPED") == 0
    assert row(sites["en", None].pages["examples/index.md"], "variants.md#example-1").endswith("| SKIPPED |")


def test_the_base_site_counts_every_example_it_runs(sites):
    index = sites["en", None].pages["examples/index.md"]
    assert "2 of 3 pass. 1 is an example of a variant, skipped here" in index
    assert "superseded" not in index.lower()


# ---------------------------------------------------------------- D1: what the game's setup deals
@pytest.mark.parametrize("lang, told", [
    ("en", "- The game's setup shuffles the bag in an order fixed in advance; here is where its top 4 tiles go:\n"
           "    - Rack of player 1: five-tile, four-tile\n"
           "    - Rack of player 2: three-tile, two-tile\n"),
    ("fr", "- La mise en place mélange le sac dans un ordre fixé d'avance ; voici où vont les 4 tuiles du dessus :\n"
           "    - Chevalet du joueur 1 : tuile cinq, tuile quatre\n"
           "    - Chevalet du joueur 2 : tuile trois, tuile deux\n"),
])
def test_a_worked_example_tells_what_the_game_setup_deals_every_player(sites, lang, told):
    page = sites[lang, None].pages["examples/play.md"]
    assert told in page, page
    # the scenario as written shows it too
    assert "    game_setup:\n      shuffles:\n        bag:\n" in page


def test_what_is_dealt_follows_the_rules_the_site_describes(sites):
    # under the variant three tiles each are dealt: the same four fixed tiles fall otherwise
    page = sites["en", "big"].pages["examples/play.md"]
    assert ("    - Rack of player 1: five-tile, four-tile, three-tile\n"
            "    - Rack of player 2: two-tile\n") in page


def test_fixed_picks_and_a_shuffle_whose_things_have_copies_are_told_as_fixed(top):
    rs = load_checked(top / "relay")
    en = Narrator(rs, Prose(rs, "en", markdown=True), "en")
    fr = Narrator(rs, Prose(rs, "fr", markdown=True), "fr")
    fixed = {"picks": ["p2"], "shuffles": {"bag": ["blank", "blank", "t1"]}}
    # a component of several copies: which copy went where is not kept, so the order is told
    assert en.game_setup(fixed, {}) == [
        "What the game's setup picks at random is fixed: player 2.",
        "The shuffle of the bag at the game's setup puts on top, from the top: 2 blank tiles, one-tile."]
    assert fr.game_setup(fixed, {}) == [
        "Ce que la mise en place tire au hasard est fixé : joueur 2.",
        "Le mélange du sac à la mise en place met dessus, depuis le dessus : 2 tuiles blanches, tuile un."]


# ---------------------------------------------------------------- D2: the game's own description
def test_the_overview_opens_with_the_games_description_escaped(sites):
    overview = sites["en", None].pages["index.md"]
    text = "Each player draws \\*two\\* tiles from the bag &#60;b&#62;and&#60;/b&#62; plays one."
    assert overview.startswith(f"# Tile Relay\n\n{text}\n"), overview[:300]
    assert "<b>" not in overview
    # no glossary translates it: another language shows it as written, and says so
    french = sites["fr", None].pages["index.md"]
    assert french.startswith(f"# Tile Relay\n\n*Le jeu, dans les mots de ses fichiers de règles (non traduits) :* "
                             f"{text}\n"), french[:300]


# ---------------------------------------------------------------- D3: where the files are
def test_a_rule_set_outside_rules_is_labelled_where_it_was_given(sites):
    pages = "\n".join(sites["en", "big"].pages.values())
    assert "(`relay/play.rules:1`)" in pages
    assert "rules/relay" not in pages
    assert '"The scenario as written — relay/scenarios/play.yaml"' in pages
    assert '"The scenario as written — relay/variants/big/scenarios.yaml"' in pages


def test_a_rule_set_given_from_elsewhere_is_labelled_by_the_path_given(top, tmp_path):
    from rulecraft.docgen.pages import shown_path

    root = top / "relay"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    with working_in(elsewhere):
        given = Path(os.path.relpath(root, elsewhere))
        assert shown_path(given / "play.rules", given) == (given / "play.rules").as_posix()
        assert shown_path(root / "play.rules", root) == (root / "play.rules").as_posix()


def test_a_shipped_rule_set_keeps_its_place_in_a_checkout(tmp_path):
    from rulecraft.docgen.pages import shown_path

    root = REPO / "rules" / "panic_station"
    with working_in(tmp_path):
        assert shown_path(root / "setup.rules", root) == "rules/panic_station/setup.rules"
        assert shown_path(REPO / "seeds" / "panic_station" / "turns.yaml", root) == "seeds/panic_station/turns.yaml"


# ---------------------------------------------------------------- D4: what sets a component apart
def test_a_number_every_component_of_the_kind_holds_sets_none_apart(sites):
    # every tile has a value of its own, and the kind gives none by default
    for page in ("cards/t5.md", "cards/t2.md"):
        assert "*value*" not in sites["en", None].pages[page].split("| Properties |")[0]
    # the value is still a plain fact of each
    assert "| value | 5 |" in sites["en", None].pages["cards/t5.md"]
    # a bonus only one tile has does set it apart
    assert "Through its *bonus*: 3" in sites["en", None].pages["cards/t2.md"]


# ---------------------------------------------------------------- D5: events in the glossary's phrase
@pytest.mark.parametrize("lang, told", [
    ("en", "- It happened: player 1 lays down five-tile."),
    ("fr", "- Il s'est produit : le joueur 1 pose tuile cinq."),
])
def test_a_worked_example_tells_an_event_by_the_glossarys_phrase(sites, lang, told):
    assert told in sites[lang, None].pages["examples/play.md"]


def test_an_event_checked_by_part_of_its_fields_is_told_by_its_word(top):
    rs = load_checked(top / "relay")
    tell = Narrator(rs, Prose(rs, "en", markdown=True), "en")
    assert tell.outcome({"events": [{"type": "played", "player": "p1"}]}) == ["It happened: a tile is played (player 1)."]


# ---------------------------------------------------------------- D7: variant diff
def test_variant_diff_names_what_a_variant_adds_like_its_other_lines(top, capsys):
    assert main(["variant", "diff", "small", "--base", str(top / "relay")]) == 0
    out = capsys.readouterr().out
    assert "new parameter limit: 4 (The most tiles on the table.)" in out
    assert "added to" not in out
    assert "parameter dealt: 2 → 1" in out
