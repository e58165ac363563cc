"""Words of the rules sites and play screens that designers found wrong: a declared
board's space is named by its glossary entry, else by the `title` its board table gives
it (a proper name, no article), else by its name; a graph's neighbours are "joined", not
"through a doorway"; a restored kind is "every cube"; every player is called by the
glossary's word for a player; cards dealt in a worked example take their articles."""

from __future__ import annotations

from engine_rulesets import build, game_yaml

from rulecraft.docgen.glossary import load_glossary
from rulecraft.narration import Words

BOARD = """
kinds:
  player:
    properties:
      ap: {type: number, default: 0}
  city:
    properties:
      title: {type: text, default: ""}
board:
  kind: graph
  space_kind: city
  spaces:
    harbor: {title: "Old Harbor"}
    mill: {title: Mill}
    glen:
  connections:
    - {from: harbor, to: mill}
    - {from: mill, to: glen}
"""

RULES = """
procedure setup():
    do:
        stop

procedure round():
    do:
        for each p in players:
            play_turn(p)
"""


def test_spaces_are_named_by_their_title_unless_the_glossary_names_them(tmp_path):
    (tmp_path / "ruleset" / "glossary").mkdir(parents=True)
    (tmp_path / "ruleset" / "glossary" / "en.yaml").write_text(
        "language: en\ncomponents:\n  mill: {one: the old mill, article: false}\n", encoding="utf-8")
    ruleset = build(tmp_path, {"game.yaml": game_yaml() + BOARD, "main.rules": RULES})
    words = Words(ruleset, "en")
    assert words.name("harbor") == "Old Harbor"
    assert words.name("mill") == "the old mill"  # the glossary's own entry wins
    assert words.name("glen") == "glen"  # no title: its name
    term = load_glossary(ruleset, "en").get("components", "harbor")
    assert term.article is False


def test_a_declared_boards_neighbours_are_joined_not_through_doorways(tmp_path):
    from rulecraft.docgen.prose import Prose

    rules = RULES + """
function next_to(c: city) -> list of city:
    = connected(c)
"""
    ruleset = build(tmp_path, {"game.yaml": game_yaml() + BOARD, "main.rules": rules})
    for lang, said in (("en", "the spaces joined to"), ("fr", "les espaces reliés à")):
        text = Prose(ruleset, lang).definition("next_to")
        assert said in text and "doorway" not in text and "ouverture" not in text, text


def test_a_restored_kind_is_told_as_every_thing_of_it(tmp_path):
    from rulecraft.docgen.narration import Narrator
    from rulecraft.docgen.prose import Prose

    ruleset = build(tmp_path, {"game.yaml": game_yaml() + BOARD, "main.rules": RULES})
    lines = Narrator(ruleset, Prose(ruleset, "en", markdown=True), "en").arranged({"restore": ["city"]})
    assert lines == ["Back where the game starts them: every city."], lines


def test_every_player_is_told_by_the_glossarys_word_for_a_player(tmp_path):
    from rulecraft.docgen.prose import Prose

    rules = RULES + """
victory all_done:
    when round_number >= 2
    winners players
"""
    (tmp_path / "ruleset" / "glossary").mkdir(parents=True)
    (tmp_path / "ruleset" / "glossary" / "en.yaml").write_text(
        "language: en\nkinds:\n  player: {one: responder}\n", encoding="utf-8")
    ruleset = build(tmp_path, {"game.yaml": game_yaml() + BOARD, "main.rules": rules})
    assert Prose(ruleset, "en").ex(ruleset.definitions["all_done"].winners) == "the responders"


def test_cards_dealt_in_a_worked_example_are_told_with_their_articles():
    # "Player 1 is dealt security card." read as a note, not a sentence
    from rulecraft.docgen.narration import Narrator
    from rulecraft.docgen.prose import Prose
    from rulecraft.dsl.loader import load_checked

    station = load_checked("rules/panic_station")
    for lang, said in (("en", "Player 1 is dealt a keycard, an Armor."),
                       ("fr", "Le joueur 1 reçoit une Carte Magnétique, un Gilet pare-balles.")):
        lines = Narrator(station, Prose(station, lang, markdown=True), lang).arranged(
            {"deal": {"p1": ["keycard.1", "armor.1"]}})
        assert lines == [said], lines



def test_worked_examples_name_board_spaces_and_the_zones_of_things_by_their_words():
    # "Klingon Cruiser 1 is in `long_1`", "Item slots of `engineer`": ids in code font
    from rulecraft.docgen.narration import Narrator
    from rulecraft.docgen.prose import Prose
    from rulecraft.dsl.loader import load_checked

    trek, station = load_checked("rules/star_trek_panic"), load_checked("rules/stationfall")
    said = {lang: Narrator(trek, Prose(trek, lang, markdown=True), lang).thing("long_1") for lang in ("en", "fr")}
    assert said == {"en": "long 1", "fr": "longue 1"}
    en = Narrator(station, Prose(station, "en", markdown=True), "en")
    fr = Narrator(station, Prose(station, "fr", markdown=True), "fr")
    assert en.thing("slots:engineer") == "Item slots of Engineer"
    assert fr.thing("slots:engineer") == "emplacements d'Objet d'Engineer"
    assert "`" not in en.thing("medical")
