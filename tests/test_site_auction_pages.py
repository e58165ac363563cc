"""The pages of a rules site that a designer of a sealed-offer game found reading badly:
the worked examples (verbs that agree with a word used only in the plural, a check of every
player, a property an event names, the title of a file of several topics), the pages of
the things kept in zones (called by their kind's word, not by a word of one game), and what
the rules keep from the players, said on the overview. English, and French where the site
has the words."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from test_site_auction_prose import GAME, GLOSSARY_EN, GLOSSARY_FR, SCENARIOS, sealed

from rulecraft.docgen.narration import Narrator
from rulecraft.docgen.prose import Prose
from rulecraft.docgen.site import collect
from rulecraft.docgen.ui import UI

ONE_TOPIC = """
scenarios:
  - title: Nobody has pledged yet
    cite: "house: Setup"
    players: 2
    expect:
      props: {p1: {pledge: 0}}
"""


def _site(tmp_path, lang: str, glossary: str = GLOSSARY_EN, one_topic: bool = False, name: str = "ruleset",
          game: str = GAME):
    sealed(tmp_path, glossary=glossary, fr=GLOSSARY_FR, scenarios=SCENARIOS, name=name, game=game)
    if one_topic:
        (tmp_path / name / "scenarios" / "only_setup.yaml").write_text(ONE_TOPIC, encoding="utf-8")
    return collect(tmp_path / name, lang)


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    folder = tmp_path_factory.mktemp("offers")
    return {lang: _site(folder / lang, lang, one_topic=True) for lang in ("en", "fr")}


# ---------------------------------------------------------------- (d5) verbs that agree


def test_an_expected_value_agrees_with_a_plural_word_and_a_kind_reads_every(sites):
    page = sites["en"].pages["examples/offers.md"]
    assert "- The gems of every player are 5." in page  # `props: {player: …}`: every player
    assert "- The pledge of player 1 is 0." in page
    assert "- The gems of player 1 are 0." in page  # gender p: the verb agrees
    assert "The gems of player is" not in page and "The gems of player 1 is" not in page
    assert "- Chaque joueur : gemmes = 5." in sites["fr"].pages["examples/offers.md"]


# ---------------------------------------------------------------- (d8) a property an event names


def test_a_property_an_engine_event_names_reads_by_its_glossary_word(sites):
    assert ("- It did not happen: something is shown (the gems of player 1, to player 1 and player 2)."
            in sites["en"].pages["examples/offers.md"])
    assert "`gems`" not in sites["en"].pages["examples/offers.md"]
    assert ("quelque chose est montré (les gemmes du joueur 1, pour le joueur 1 et le joueur 2)."
            in sites["fr"].pages["examples/offers.md"])


# ---------------------------------------------------------------- (d3) counts of one in examples


def test_the_examples_count_one_in_the_singular(tmp_path):
    rs = sealed(tmp_path)
    tell = Narrator(rs, Prose(rs, "en", markdown=True), "en")
    assert tell.outcome({"pending": {"player": "p1", "kind": "choose", "count": 1}}) == \
        ["The game waits for player 1 to choose, with a single option."]
    assert tell.outcome({"pending": 1}) == ["1 option is offered."]
    assert tell.situation(SimpleNamespace(players=1, game_setup={}, setup={})) == ["1 player plays."]
    fr = Narrator(rs, Prose(rs, "fr", markdown=True), "fr")
    assert fr.outcome({"pending": 1}) == ["1 option est proposée."]
    assert UI("en")("summary_line_one", passed=1, total=3) == "1 of 3 passes."
    assert UI("fr")("players_exactly_one", count=1) == "1 joueur."


# ---------------------------------------------------------------- (b6, d10) a file of several topics


def test_a_file_of_several_topics_is_titled_by_its_name_and_one_of_one_topic_by_it(sites):
    en = sites["en"]
    examples = next(item["Worked examples"] for item in en.nav if "Worked examples" in item)
    titles = {next(iter(e.values())): next(iter(e)) for e in examples if isinstance(e, dict)}
    # offers.yaml cites Setup and Offers: its own name, not its most cited section
    assert titles["examples/offers.md"] == "Offers"
    assert en.pages["examples/offers.md"].startswith("# Offers\n")
    assert titles["examples/only_setup.md"] == "Setup"  # one topic: its section
    # in another language, the file's name speaks to no reader: its most cited section, and more
    fr = next(item["Exemples commentés"] for item in sites["fr"].nav if "Exemples commentés" in item)
    fr_titles = {next(iter(e.values())): next(iter(e)) for e in fr if isinstance(e, dict)}
    assert fr_titles["examples/offers.md"] == "Offres, etc."
    assert fr_titles["examples/only_setup.md"] == "Mise en place"


def test_files_that_would_share_a_title_take_their_own_names(tmp_path):
    sealed(tmp_path, fr=GLOSSARY_FR, scenarios=SCENARIOS)
    for name in ("only_setup", "more_setup"):
        (tmp_path / "ruleset" / "scenarios" / f"{name}.yaml").write_text(ONE_TOPIC, encoding="utf-8")
    for lang, heading, expected in (("en", "Worked examples", {"Only setup", "More setup", "Offers"}),
                                    ("fr", "Exemples commentés", {"Mise en place (1)", "Mise en place (2)",
                                                                  "Offres, etc."})):
        site = collect(tmp_path / "ruleset", lang)
        examples = next(item[heading] for item in site.nav if heading in item)
        assert {next(iter(e)) for e in examples if isinstance(e, dict)} == expected


# ---------------------------------------------------------------- (d11) the things' own word


def test_the_pages_of_things_in_zones_take_their_kind_s_word(sites):
    en, fr = sites["en"], sites["fr"]
    assert any("Tokens" in item for item in en.nav) and not any("Cards" in item for item in en.nav)
    assert en.pages["cards/index.md"].startswith("# Tokens\n\nEvery token of the game, with how many there are.")
    assert "No rule names this token: it does what every token does, nothing more." in en.pages["cards/t_1.md"]
    assert any("Jetons" in item for item in fr.nav)
    assert "Aucune règle ne nomme ce jeton : il n'a pas d'autre effet que celui de son type (jeton)." \
        in fr.pages["cards/t_1.md"]
    assert "card" not in en.pages["cards/index.md"].lower()


@pytest.mark.parametrize("word, heading", [("plain token", "Tokens"), ("plain piece", "Components")])
def test_things_of_several_kinds_share_their_kinds_common_word_or_the_site_s(tmp_path, word, heading):
    glossary = GLOSSARY_EN.replace("plain: plain piece", f"plain: {word}")
    game = GAME.replace("components:\n", "components:\n  - {name: lone, kind: plain, zone: heap}\n")
    site = _site(tmp_path, "en", glossary=glossary, game=game)
    assert any(heading in item for item in site.nav)
    assert site.pages["cards/index.md"].startswith(f"# {heading}\n")


# ---------------------------------------------------------------- (c5) what players see


def test_the_overview_says_what_is_hidden_from_whom(sites):
    en = sites["en"].pages["index.md"]
    part = en.split("## What players see\n", 1)[1].split("\n## ", 1)[0]
    for line in ["- Pool: nobody sees which tokens it holds, only how many.",
                 "- Stash of each player: only that player sees which tokens it holds; the others see the token on "
                 "top and how many.",
                 "- Gems of each player: only that player sees them.",
                 "- Pledge of each player: only that player sees it.",
                 "- Mark of each token: only the player who owns the token sees it.",
                 "- Weight of each plain piece: nobody sees it; only the rules know it.",
                 "- Secret number: nobody sees it; only the rules know it.",
                 "Rules that show some of it in play: [Play a round](turn.md#round)."]:
        assert line in part, line
    assert "Line" not in part and "First player" not in part  # in plain sight: not listed
    fr = sites["fr"].pages["index.md"]
    part = fr.split("## Ce que voient les joueurs\n", 1)[1].split("\n## ", 1)[0]
    for line in ["- Réserve : personne n'en voit le contenu, seulement le nombre de jetons.",
                 "- Cachette de chaque joueur : seul ce joueur en voit le contenu ; les autres n'en voient que le "
                 "jeton du dessus et le nombre de jetons.",
                 "- Gemmes de chaque joueur : seul ce joueur en connaît la valeur.",
                 "- Marque de chaque jeton : seul le joueur à qui appartient ce jeton en connaît la valeur.",
                 "- Poids de chaque pièce simple : personne n'en connaît la valeur ; seules les règles la tiennent.",
                 "- Nombre secret : personne n'en connaît la valeur ; seules les règles la tiennent."]:
        assert line in part, line


def test_a_game_that_hides_nothing_has_no_such_section(tmp_path):
    game = GAME.replace(", visible_to: owner", "").replace(", visible_to: nobody", "") \
        .replace("{visible_to: nobody, holds: token}", "{holds: token}") \
        .replace("{per_player: true, visible_to: owner, holds: token, top_visible: true}", "{per_player: true, holds: token}")
    site = _site(tmp_path, "en", game=game)
    assert "What players see" not in site.pages["index.md"]
