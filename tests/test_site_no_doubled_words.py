"""The rules site says a thing once: a list kept from another is not named twice ("a token
among the tokens among the tokens in the pile"), a phrase written for play does not take
the rule's words where only a value fits ("are sent the heading"), and a value's words
are not said again by the word beside them ("(the points points)", "along row the row
number", "(token token 1)")."""

from __future__ import annotations

import textwrap

import pytest

from rulecraft.docgen.narration import Narrator
from rulecraft.docgen.prose import Prose

from engine_rulesets import QUIET_SETUP_AND_ROUND, build, game_yaml

GAME = game_yaml(name="doubles", players=(2, 2)) + textwrap.dedent("""\
    kinds:
      player: {}
      token:
        properties:
          row: {type: number, default: 0}
          weight: {type: number, default: 0}
          heavy: {type: bool, default: false}
    zones:
      pile: {holds: token}
      hand: {per_player: true, holds: token}
    components:
      - {name: token, kind: token, count: 3, zone: pile}
    variables:
      game:
        heading: {type: text, default: "north"}
        points: {type: number, default: 0}
    """)

RULES = QUIET_SETUP_AND_ROUND + """
action pick:
    with t: token in [x for x in contents(hand(current_player)) by x.weight]
    do:
        move t to pile

action sweep:
    do:
        for each t in [x for x in contents(pile) where x.heavy]:
            move t to hand(current_player)
        for each t in take([x for x in contents(pile) where x.heavy], 2):
            set t.row = 1
        choose c from [x for x in contents(pile) where x.heavy]
        move c to hand(current_player)

action announce:
    with t: token in contents(pile)
    do:
        emit sent(heading: game.heading)
        emit scored(player: current_player, points: game.points)
        emit placed(token: t, row: t.row)
        emit cheered(player: current_player)
"""

EN = """
language: en
names:
  t: token
  c: token
  x: token
variables:
  game.heading: heading
  game.points: points
properties:
  token.row: {one: row number}
fields:
  heading: heading
  points: points
  row: row
  token: token
events:
  sent: {one: the tokens are sent, say: "The tokens are sent {heading}"}
  scored: {one: a score is made, say: "{player} scores ({points} points)"}
  placed: {one: a token is placed, say: "{token} is placed along row {row}"}
  cheered: {one: a cheer, say: "{player} cheers!"}
"""

FR = """
language: fr
kinds:
  token: {one: jeton, gender: m}
components:
  token: {one: jeton, gender: m}
zones:
  pile: {one: pile, gender: f}
  hand: {one: main, gender: f}
names:
  t: {one: jeton, gender: m}
  c: {one: jeton, gender: m}
  x: {one: jeton, gender: m}
variables:
  game.heading: {one: cap, gender: m}
  game.points: {one: points, gender: p}
properties:
  token.row: {one: rangée, gender: f}
fields:
  heading: {one: cap, gender: m}
  points: {one: points, gender: p}
  row: {one: rangée, gender: f}
  token: {one: jeton, gender: m}
events:
  sent: {one: les jetons sont envoyés, say: "Les jetons partent {heading}"}
  scored: {one: un score est fait, say: "{player} marque ({points} points)"}
  placed: {one: un jeton est posé, say: "{token} est posé le long de la rangée {row}"}
  cheered: {one: une acclamation, say: "{player} acclame !"}
"""


@pytest.fixture
def ruleset(tmp_path):
    (tmp_path / "ruleset" / "glossary").mkdir(parents=True)
    return build(tmp_path, {"game.yaml": GAME, "main.rules": RULES, "glossary/en.yaml": EN, "glossary/fr.yaml": FR})


@pytest.mark.parametrize("lang, among", [("en", "among"), ("fr", "parmi")])
def test_a_list_kept_from_another_is_not_named_twice(ruleset, lang, among):
    prose = Prose(ruleset, lang)
    for action in ("pick", "sweep"):
        text = prose.definition(action)
        for line in text.splitlines():
            assert line.count(f" {among} ") <= 1, line


def test_a_list_kept_from_another_reads_as_that_list_and_its_condition(ruleset):
    en = Prose(ruleset, "en")
    assert "Choose the token: a token among the tokens in the hand of the current player, by weight " \
           "from lowest to highest." in en.definition("pick")
    sweep = en.definition("sweep").splitlines()
    assert "- For each token among the tokens in the pile for which the token is heavy:" in sweep
    assert any(line.lstrip().startswith("- For each token among the first tokens of the tokens in the pile for which")
               for line in sweep), sweep
    assert any("chooses the token among the tokens in the pile for which" in line for line in sweep), sweep
    fr = Prose(ruleset, "fr").definition("sweep").splitlines()
    assert any(line.lstrip().startswith("- Pour chaque jeton parmi les jetons de la pile où") for line in fr), fr


def test_a_value_slot_after_a_verb_tells_the_event_by_its_name_and_fields(ruleset):
    # "The tokens are sent {heading}" was written for "north": "are sent the heading" misreads
    en = Prose(ruleset, "en").definition("announce")
    assert "sent the heading" not in en
    assert "- Announce: the tokens are sent (the heading)." in en.splitlines()
    fr = Prose(ruleset, "fr").definition("announce")
    assert "partent le cap" not in fr
    assert "- Annoncez : les jetons sont envoyés (le cap)." in fr.splitlines()


@pytest.mark.parametrize("lang, said", [
    ("en", ["- Announce: the current player scores (the points).",
            "- Announce: the token is placed along the row number of the token.",
            "- Announce: the current player cheers!"]),
    ("fr", ["- Annoncez : le joueur actif marque (les points).",
            "- Annoncez : le jeton est posé le long de la rangée du jeton.",
            "- Annoncez : le joueur actif acclame !"]),
])
def test_a_word_beside_a_value_slot_is_not_said_again(ruleset, lang, said):
    lines = Prose(ruleset, lang).definition("announce").splitlines()
    for line in said:
        assert line in lines, lines


@pytest.mark.parametrize("lang, told", [("en", " (token 2)"), ("fr", " (jeton 2)")])
def test_an_example_names_a_thing_once_when_its_name_holds_the_field_word(ruleset, lang, told):
    narrator = Narrator(ruleset, Prose(ruleset, lang), lang)
    _, fields = narrator._event({"type": "placed", "token": "token.2", "extra": 1})
    assert fields.startswith(told.rstrip(")") + ","), fields
