"""Tie-breaks in a comprehension's best items: `with highest K1, K2, ...` (and `with
lowest`) keeps the items best on K1, of those tied the items best on K2, and so on;
every item tied on all the keys is kept, in list order. The first key keeps its rules
(an item whose key is none is never the best); on a later key, an item whose key is
none loses to any item with a value among those still tied, and when all of them are
none on it they stay tied. Each key is typed like the first, with the same error and
hint; the rules site says the tie-break, in English and in French. Both execution paths
(the closures of a first game and the generated code of later ones) agree."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_rulesets import QUIET_SETUP_AND_ROUND, emitted, game_yaml, load_errors, write_ruleset

from rulecraft.docgen.prose import Prose
from rulecraft.dsl.compiler import Compiler, generate_statement_code
from rulecraft.dsl.loader import load_checked, load_ruleset
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import RuleRuntimeError

DATA = """
kinds:
  player:
    properties:
      score: {type: number, default: 0}
      pudding: {type: number, default: 0}
  card:
    located_in: zone
    properties:
      rank: number
      value: number
      suit: text
      face_up: {type: bool, default: false}
      bonus: {type: number}
      extra: {type: number}
  token:
    located_in: zone
    properties:
      rank: text
zones:
  deck: {}
  pile: {}
components:
  - {name: c1, kind: card, zone: deck, properties: {rank: 3, value: 1, suit: "clubs", bonus: 2}}
  - {name: c2, kind: card, zone: deck, properties: {rank: 9, value: 4, suit: "clubs"}}
  - {name: c3, kind: card, zone: deck, properties: {rank: 9, value: 4, suit: "hearts", bonus: 5}}
  - {name: c4, kind: card, zone: deck, properties: {rank: 9, value: 6, suit: "hearts", bonus: 1}}
  - {name: c5, kind: card, zone: deck, properties: {rank: 9, value: 6, suit: "hearts", bonus: 3}}
  - {name: c6, kind: card, zone: deck, properties: {rank: 3, value: 6, suit: "spades", bonus: 7}}
  - {name: c7, kind: card, zone: deck, properties: {rank: 3, value: 1, suit: "clubs", bonus: 2}}
  - {name: t1, kind: token, zone: pile, properties: {rank: "seven"}}
"""

# p1: 5 points, 9 puddings; p2: 7 points, 2 puddings; p3: 7 points, 3 puddings
SCORES = """
let p1 = players[0]
let p2 = players[1]
let p3 = players[2]
set p1.score = 5
set p1.pudding = 9
set p2.score = 7
set p2.pudding = 2
set p3.score = 7
set p3.pudding = 3
"""

FUNCTIONS = """
function pudding_count(p: player) -> number:
    = p.pudding
"""


def _rules(setup_body: str) -> str:
    body = "\n".join("        " + line for line in (SCORES + setup_body).strip("\n").splitlines())
    return "procedure setup():\n    do:\n" + body + "\n\nprocedure round():\n    do:\n        stop\n" + FUNCTIONS


def _compiled(folder: Path, generate: bool):
    """The rule set on closures alone (a first game), or with its expressions generated."""
    ruleset = load_ruleset(folder)
    assert ruleset.ok, ruleset.bag.render()
    ruleset.compiled = Compiler(ruleset, generate=generate).compile()
    if generate:
        assert generate_statement_code(ruleset)
    return ruleset


def both_paths(tmp_path: Path, setup_body: str) -> dict:
    """What ``emit q(name: ..., value: ...)`` gave in setup, the same on both paths."""
    folder = write_ruleset(tmp_path / "ties", {"game.yaml": game_yaml(round_limit=1) + DATA,
                                               "main.rules": _rules(setup_body)})
    results = [emitted(Game(_compiled(folder, generate), 3, 1)) for generate in (False, True)]
    assert results[0] == results[1], "the closures and the generated code disagree"
    return results[0]


# ---------------------------------------------------------------- choosing


def test_a_second_key_chooses_among_the_items_tied_on_the_first(tmp_path):
    q = both_paths(tmp_path, """
emit q(name: "leaders", value: [p for p in players with highest p.score, pudding_count(p)])
emit q(name: "one key", value: [p for p in players with highest p.score])
emit q(name: "cards", value: [c for c in card with highest c.rank, c.value])
emit q(name: "ids", value: [c.id for c in contents(deck) where c.suit != "spades" with highest c.value, c.rank])
emit q(name: "then ordered", value: [c for c in card with highest c.rank, c.value by c.bonus descending])
emit q(name: "first", value: first([c for c in card with highest c.rank, c.value]))
""")
    assert q["leaders"] == ["p3"]  # p2 and p3 tie on score, p3 has more puddings
    assert q["one key"] == ["p2", "p3"]
    assert q["cards"] == ["c4", "c5"]  # rank 9, then value 6
    assert q["ids"] == ["c4", "c5"]
    assert q["then ordered"] == ["c5", "c4"]
    assert q["first"] == "c4"


def test_three_keys_break_ties_in_turn(tmp_path):
    q = both_paths(tmp_path, """
emit q(name: "three", value: [c for c in card with highest c.rank, c.value, c.bonus])
emit q(name: "texts", value: [c for c in card with highest c.rank, c.suit, c.value])
emit q(name: "numbers", value: [n for n in [3, 1, 2, 1] with highest 0, n * 0, n])
""")
    assert q["three"] == ["c5"]
    assert q["texts"] == ["c4", "c5"]  # "hearts" after "clubs", then value 6 before 4
    assert q["numbers"] == [3]


def test_items_tied_on_every_key_are_all_kept_in_list_order(tmp_path):
    q = both_paths(tmp_path, """
emit q(name: "all tied", value: [c for c in card with highest c.rank, c.value, c.suit])
emit q(name: "twins", value: [c for c in card with lowest c.rank, c.value, c.bonus, c.suit])
emit q(name: "count", value: count([c for c in card with highest c.rank, c.value]))
""")
    assert q["all tied"] == ["c4", "c5"]
    assert q["twins"] == ["c1", "c7"]  # the same on all four keys
    assert q["count"] == 2


def test_with_lowest_takes_the_lowest_on_each_key(tmp_path):
    q = both_paths(tmp_path, """
emit q(name: "lowest", value: [c for c in card with lowest c.rank, c.value])
emit q(name: "lowest of nines", value: [c for c in card where c.rank == 9 with lowest c.value, c.bonus])
emit q(name: "trailing", value: [p for p in players with lowest p.score * 0, pudding_count(p)])
""")
    assert q["lowest"] == ["c1", "c7"]  # rank 3 (c1, c6, c7), then value 1
    assert q["lowest of nines"] == ["c3"]  # value 4 (c2 without a bonus, c3), then c3's bonus
    assert q["trailing"] == ["p2"]


def test_a_none_key_after_the_first_loses_to_a_value_and_all_none_stay_tied(tmp_path):
    q = both_paths(tmp_path, """
emit q(name: "highest", value: [c for c in card where c.value == 4 with highest c.rank, c.bonus])
emit q(name: "lowest", value: [c for c in card where c.value == 4 with lowest c.rank, c.bonus])
emit q(name: "all none", value: [c for c in card with highest c.rank, c.extra])
emit q(name: "then decided", value: [c for c in card with highest c.rank, c.extra, c.value])
emit q(name: "only none", value: [c for c in card where c.id == "c2" with lowest c.rank, c.bonus])
emit q(name: "first none", value: [c for c in card with highest c.extra, c.rank])
""")
    assert q["highest"] == ["c3"]  # c2 has no bonus: it loses, highest or lowest
    assert q["lowest"] == ["c3"]
    assert q["all none"] == ["c2", "c3", "c4", "c5"]  # no card has an extra: the nines stay tied
    assert q["then decided"] == ["c4", "c5"]
    assert q["only none"] == ["c2"]
    assert q["first none"] == []  # the first key keeps its rule: none is never the best


@pytest.mark.parametrize(("key", "told"), [
    ("x.rank", "cannot compare a"),  # a token's text rank and a card's number rank
    ("x.face_up", "is a yes/no (true or false)"),
], ids=["numbers-and-texts", "yes-no"])
def test_a_later_key_the_checker_cannot_type_stops_the_game_when_wrong(tmp_path, key, told):
    folder = write_ruleset(tmp_path / "mixed", {"game.yaml": game_yaml(round_limit=1) + DATA, "main.rules": _rules(f"""
move c1 to pile
emit q(name: "mixed", value: [x for x in contents(pile) with highest 1, {key}])
""")})
    for generate in (False, True):
        with pytest.raises(RuleRuntimeError) as err:
            Game(_compiled(folder, generate), 3, 1)
        assert "main.rules:" in str(err.value) and told in str(err.value)
        assert "OrderKeyFault" not in str(err.value)


# ---------------------------------------------------------------- the parser


def test_the_keys_after_the_first_are_best_then_and_both_parsers_read_them_alike(monkeypatch):
    from test_12_direct_parser import parsed

    from rulecraft.dsl import parser
    from rulecraft.dsl.diagnostics import DiagnosticBag

    text = """function f(p: player) -> list of card:
    = [c.id for c in contents(hand(p)) where c.rank > 1 with lowest c.bonus, c.rank,
       c.suit by c.id descending]
"""
    direct, lark = parsed(text, True, monkeypatch), parsed(text, False, monkeypatch)
    assert direct == lark and not direct[1]
    (function,) = parser.parse_text(text, "some.rules", DiagnosticBag()).definitions
    e = function.value
    assert (e.highest, e.best.name, e.best.pos.line, e.best.pos.column) == (False, "bonus", 2, 69)
    assert [(k.name, k.pos.line, k.pos.column) for k in e.best_then] == [("rank", 2, 78), ("suit", 3, 8)]
    assert [k.name for k in e.order] == ["id"] and e.descending == [True]
    (one,) = parser.parse_text("function g() -> list of card:\n    = [c for c in card with highest c.rank]\n",
                               "some.rules", DiagnosticBag()).definitions
    assert one.value.best.name == "rank" and one.value.best_then == []


# ---------------------------------------------------------------- the checker


def _errors(tmp_path: Path, expression: str) -> str:
    rules = "function f() -> any:\n    = " + expression + "\n" + _rules("emit q(name: \"f\", value: f())")
    return load_errors(tmp_path, {"game.yaml": game_yaml(round_limit=1) + DATA, "main.rules": rules})


def caret(column: int, width: int) -> str:
    return "      | " + " " * (column - 1) + "^" * width + "\n"


def test_a_later_key_of_a_thing_is_a_located_error_with_its_hint(tmp_path):
    text = _errors(tmp_path, "[q for q in players with highest q.score, q]")
    assert "main.rules:2:49: error: a 'with highest' key must be a number or a text, not a player" in text
    assert "    2 |     = [q for q in players with highest q.score, q]\n" + caret(49, 1) in text
    assert "hint: things are compared by one of their number or text properties (score, pudding): " \
           "'with highest q.score'" in text
    assert "unexpected ','" not in text


def test_a_later_key_of_a_condition_or_a_list_is_a_located_error(tmp_path):
    text = _errors(tmp_path, "[c for c in card with lowest c.rank, c.value, c.face_up]")
    assert "main.rules:2:53: error: a 'with lowest' key must be a number or a text, not a bool" in text
    assert "    2 |     = [c for c in card with lowest c.rank, c.value, c.face_up]\n" + caret(53, 9) in text
    assert "hint: to keep the items for which it holds, write 'with lowest (0 if c.face_up else 1)'" in text
    text = _errors(tmp_path, "[c for c in card with highest c.rank, [c.value]]")
    assert "main.rules:2:45: error: a 'with highest' key must be a number or a text, not a list of number" in text
    assert "hint: to compare lists by their length, write 'with highest count([c.value])'" in text


# ---------------------------------------------------------------- the rules site


SITE_RULES = QUIET_SETUP_AND_ROUND + """
function pudding_count(p: player) -> number:
    = p.pudding

function leaders() -> list of player:
    = [p for p in players with highest p.score, pudding_count(p)]

function top_cards() -> list of card:
    = [c for c in card with lowest c.rank, c.value, c.suit]
"""

GLOSSARY_EN = """
language: en
kinds:
  player: player
  card: card
  token: token
properties:
  player.score: score
  player.pudding: pudding
  card.rank: rank
  card.value: value
  card.suit: suit
  card.face_up: {one: face up, say: "{obj} is face up"}
  card.bonus: bonus
  card.extra: extra
  token.rank: rank
zones:
  deck: deck
  pile: pile
definitions:
  setup: Setup
  round: Round
  pudding_count: {one: Pudding count, say: "the pudding count of {p}"}
  leaders: {one: Leaders, say: "the leaders", gender: p}
  top_cards: {one: Low cards, say: "the low cards", gender: p}
names:
  p: player
  c: card
"""

GLOSSARY_FR = """
language: fr
kinds:
  player: joueur
  card: {one: carte, gender: f}
  token: jeton
properties:
  player.score: score
  player.pudding: pudding
  card.rank: rang
  card.value: {one: valeur, gender: f}
  card.suit: {one: couleur, gender: f}
  card.face_up: {one: face visible, gender: f, say: "{obj} est face visible"}
  card.bonus: bonus
  card.extra: extra
  token.rank: rang
zones:
  deck: {one: pioche, gender: f}
  pile: {one: pile, gender: f}
definitions:
  setup: Mise en place
  round: Tour
  pudding_count: {one: Nombre de puddings, say: "le nombre de puddings de {p}"}
  leaders: {one: Meneurs, say: "les meneurs", gender: p}
  top_cards: {one: Petites cartes, say: "les petites cartes", gender: fp}
names:
  p: joueur
  c: {one: carte, gender: f}
"""


@pytest.fixture(scope="module")
def site_rules(tmp_path_factory):
    folder = write_ruleset(tmp_path_factory.mktemp("ties_site") / "ties",
                           {"game.yaml": game_yaml(players=(2, 3), round_limit=1) + DATA, "main.rules": SITE_RULES})
    (folder / "glossary").mkdir()
    for lang, text in (("en", GLOSSARY_EN), ("fr", GLOSSARY_FR)):
        (folder / "glossary" / f"{lang}.yaml").write_text(text.lstrip(), encoding="utf-8")
    return load_checked(folder)


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", {
        "leaders": "The leaders are the players with the highest score, and among them those for whom the pudding "
                   "count of the player is the highest.",
        "top_cards": "The low cards are the cards with the lowest rank, and among them those with the lowest value, "
                     "and among them those with the lowest suit.",
    }),
    ("fr", {
        "leaders": "Les meneurs sont les joueurs ayant le score le plus élevé, et parmi eux ceux où le nombre de "
                   "puddings du joueur est le plus élevé.",
        "top_cards": "Les petites cartes sont les cartes ayant le rang le plus bas, et parmi elles celles ayant la "
                     "valeur la plus basse, et parmi elles celles ayant la couleur la plus basse.",
    }),
], ids=["en", "fr"])
def test_the_rules_site_says_each_tie_break(site_rules, lang, expected):
    prose = Prose(site_rules, lang)
    for name, sentence in expected.items():
        assert prose.definition(name) == sentence + "\n", f"{lang} {name}"
    assert prose.missing == set()
