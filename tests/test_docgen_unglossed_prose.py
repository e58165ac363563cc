"""A rule set without a glossary still reads as sentences on its site.

Its names are shown as written (underscores as spaces), but shaped by what they name: a
letter-like local name is said as in algebra ("s", not "the s"); a yes/no property reads
as a predicate of its thing ("the piece is face up", "the piece has moved"); a yes/no
variable as true or false ("rolled is true", never "only when the rolled"); a yes/no
function of one thing whose name is one word, or opens with a verb, as a predicate of
that thing ("the square is empty"); the arguments of another call are set apart by
semicolons when one of them is itself a list. A glossary's own words still win.
"""

from __future__ import annotations

import pytest
from engine_rulesets import build, game_yaml

from rulecraft.docgen.prose import Prose

DATA = """
kinds:
  player:
    properties: {}
  piece:
    properties:
      owner: player
      face_up: {type: bool, default: false}
      has_moved: {type: bool, default: false}
      height: {type: number, default: 0}
variables:
  turn:
    rolled: {type: bool, default: false}
zones:
  board: {holds: piece}
components:
  - {name: pawn, kind: piece, zone: board, properties: {owner: none}}
"""

RULES = """
procedure setup():
    do:
        stop

procedure round():
    do:
        for each p in players:
            play_turn(p)

function empty(z: number) -> bool:
    = z == 0

function can_climb(x: piece) -> bool:
    = not x.has_moved and x.face_up

function open_stack(x: piece) -> bool:
    = x.height < 3

function reach(p: player, hs: list of number) -> number:
    = count(hs)

function may_rest(p: player) -> bool:
    = false

function fits(x: piece) -> bool:
    = x.height < 2

function matches(x: piece) -> bool:
    = x.face_up

function carries(x: piece) -> bool:
    = x.height > 0

procedure tidy(x: piece):
    do:
        if fits(x) and not matches(x):
            set x.face_up = true
        if not carries(x):
            set x.height = 1

action roll:
    require not turn.rolled
    with x: piece where x.owner == current_player and can_climb(x)
    do:
        let a = roll(d6)
        let b = roll(d6)
        set turn.rolled = true
        set x.face_up = false
        set x.height = reach(current_player, [a, b])
"""


def _ruleset(tmp_path, glossary: str | None = None):
    files = {"game.yaml": game_yaml() + "dice:\n  d6: [1, 2, 3, 4, 5, 6]\n" + DATA, "play.rules": RULES}
    if glossary is not None:
        (tmp_path / "ruleset" / "glossary").mkdir(parents=True)
        files["glossary/en.yaml"] = glossary
    return build(tmp_path, files)


def test_a_letter_name_is_said_as_written_without_an_article(tmp_path):
    text = Prose(_ruleset(tmp_path), "en").definition("roll")
    assert "Roll the d6; a is what it shows." in text
    assert "the a " not in text and "the x" not in text


def test_yes_no_properties_and_variables_read_as_predicates(tmp_path):
    prose = Prose(_ruleset(tmp_path), "en")
    roll = prose.definition("roll")
    assert "Only when rolled is false." in roll
    assert "From now on, rolled is true." in roll
    assert "From now on, x is not face up." in roll
    # a name opening with a verb reads with that verb
    assert "x does not have moved and x is face up" in prose.definition("can_climb")


def test_a_one_word_or_verb_named_yes_no_function_reads_as_a_predicate_of_its_thing(tmp_path):
    prose = Prose(_ruleset(tmp_path), "en")
    assert "the owner of x is the current player and x can climb." in prose.definition("roll")
    assert prose.definition("empty").startswith("Z is empty when")
    # a noun phrase is no predicate: "x is open stack" would mislead, so its name stays
    assert prose.definition("open_stack").startswith("Open stack when")


def test_a_call_with_a_list_argument_separates_its_arguments_by_semicolons(tmp_path):
    text = Prose(_ruleset(tmp_path), "en").definition("roll")
    assert "Set the height of x to reach (the current player; a and b)." in text


def test_the_french_site_has_the_same_shapes_in_french(tmp_path):
    text = Prose(_ruleset(tmp_path), "fr").definition("roll")
    assert "rolled est vrai" in text
    assert "x n'est pas face up" in text


def test_a_glossary_word_still_wins(tmp_path):
    glossary = """
        language: en
        variables:
          turn.rolled: {one: roll made, say: "the dice were rolled", deny: "the dice were not rolled yet"}
        names:
          a: {one: first die, article: true}
        """
    text = Prose(_ruleset(tmp_path, glossary), "en").definition("roll")
    assert "Only when the dice were not rolled yet." in text
    assert "the first die is what it shows" in text


@pytest.mark.parametrize("lang, said", [("en", "P may rest: never."), ("fr", "P peut rest : jamais.")])
def test_a_yes_no_function_that_never_changes_says_so(tmp_path, lang, said):
    """`= false` read "… when false", a riddle; a constant says always or never."""
    assert Prose(_ruleset(tmp_path), lang).definition("may_rest").strip() == said


def test_a_one_word_yes_no_function_that_reads_as_a_verb_is_said_with_it(tmp_path):
    """`fits(x)` reads "x fits", not "x is fits"; denied, "x does not fit" (and "match",
    "carry": the verb's plain form); a name that reads as an adjective keeps "is"."""
    prose = Prose(_ruleset(tmp_path), "en")
    tidy = prose.definition("tidy")
    assert "If x fits and x does not match:" in tidy, tidy
    assert "If x does not carry:" in tidy, tidy
    assert prose.definition("empty").startswith("Z is empty when")
    assert "fits (x)" in Prose(_ruleset(tmp_path / "fr"), "fr").definition("tidy")


def test_a_function_without_a_word_is_summed_up_by_what_it_is_of(tmp_path):
    """Its bare name would restate the title ("Reach."): the summary says what it is of."""
    prose = Prose(_ruleset(tmp_path), "en")
    assert prose.summary("reach") == "Reach of p and hs."  # two letters: names, as in algebra
    assert Prose(_ruleset(tmp_path / "fr"), "fr").summary("reach") == "Reach de p et hs."


def test_a_name_that_reads_as_a_plural_is_one(tmp_path):
    # "coins" was made plural again ("costs 7 coinss") and took a singular verb
    rs = build(tmp_path, {"game.yaml": game_yaml() + """
kinds:
  player:
    properties:
      coins: {type: number, default: 3, resource: true}
      gas: {type: number, default: 0}
""", "play.rules": """
procedure setup():
    do:
        stop

procedure round():
    do:
        for each p in players:
            play_turn(p)

action buy:
    cost 7 coins
    do:
        set current_player.gas = 1
"""})
    prose = Prose(rs, "en")
    assert "an action that costs 7 coins." in prose.summary("buy").lower()
    assert "coinss" not in prose.definition("buy")
    assert "Set the gas of the current player to 1." in prose.definition("buy")
    from rulecraft.docgen.narration import Narrator

    told = Narrator(rs, Prose(rs, "en", markdown=True), "en").arranged({"props": {"player": {"coins": 2}}})
    assert told == ["The coins of every player are 2."]
