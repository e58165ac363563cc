"""The rules site reads the newer parts of the language and of scenarios as a reader would.

A comprehension's ``with highest/lowest KEY`` and ``by KEY [descending], …`` clauses are
said in the rule's plain words ("the players with the highest points", "…, by suit, then
by rank from highest to lowest"), in English and in French, each clause with its own
words: none is dropped, so the text never reads as the unordered list of every item. A
worked example tells a scenario's ``functions`` and ``payoffs`` expectations in sentences
("the score of player 2 is 7", "at the end, player 1 gets −4 and player 2 gets 4"), with
the words of the rule set's glossary, from the scenario run while the site is built.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from engine_rulesets import QUIET_SETUP_AND_ROUND, game_yaml, write_ruleset

from rulecraft.docgen.narration import Narrator
from rulecraft.docgen.prose import Prose
from rulecraft.docgen.site import collect
from rulecraft.dsl import ast
from rulecraft.dsl.loader import load_checked

PAYOFF = "  payoff: {function: margin, min: -10, max: 10, sum: 0}\n"

DATA = """
kinds:
  player:
    properties:
      points: {type: number, default: 0}
      ready: {type: bool, default: false}
  card:
    properties:
      rank: {type: number, default: 1}
      suit: {type: text, default: "b"}
      value: {type: number, default: 0}
zones:
  deck: {holds: card}
  hand: {per_player: true, holds: card}
components:
  - {name: ace, kind: card, zone: deck, properties: {rank: 3, suit: "a", value: 2}}
  - {name: deuce, kind: card, zone: deck, properties: {rank: 2, suit: "b", value: 1}}
"""

RULES = QUIET_SETUP_AND_ROUND + """
action finish:
    do:
        end_game([p for p in players with highest p.points], "most")

function leaders() -> list of player:
    = [p for p in players with highest p.points]

function trailing() -> list of player:
    = [p for p in players where p.ready with lowest p.points]

function sorted_hand(p: player) -> list of card:
    = [c for c in contents(hand(p)) by c.suit, c.rank descending]

function low_cards(p: player) -> list of card:
    = [c for c in contents(hand(p)) where c.rank > 1 with lowest c.rank by c.suit descending]

function ranks(p: player) -> list of number:
    = [c.rank for c in contents(hand(p)) by c.rank]

function top_cards() -> list of card:
    = [c for c in card where c.rank > 1 with highest c.value]

function busiest() -> list of player:
    = [p for p in players with highest p.points + count(contents(hand(p)))]

function tied() -> bool:
    = count([p for p in players with highest p.points]) > 1

function leader_ready() -> bool:
    = any([p.ready for p in players with highest p.points])

function leader_unready() -> bool:
    = not any([p.ready for p in players with highest p.points])

function ready_leaders() -> number:
    = count([p for p in players where p.ready with highest p.points])

function score(p: player) -> number:
    = p.points

function leads(p: player) -> bool:
    = p in leaders()

function is_ready(p: player) -> bool:
    = p.ready

function spread() -> number:
    = max([p.points for p in players]) - min([p.points for p in players])

function margin(p: player) -> number:
    = p.points - max([q.points for q in players where q != p])
"""

SCENARIO = """
scenarios:
  - title: The most points win
    cite: "rules: End"
    players: 2
    setup:
      props: {p1: {points: 3}, p2: {points: 7}}
    steps:
      - expect:
          functions:
            - {function: score, args: [p2], value: 7, text: "seven points"}
            - {function: leads, args: [p1], value: false}
            - {function: leads, args: [p2], value: true}
            - {function: leaders, value: [p2]}
            - {function: spread, value: 4}
      - {do: finish, by: p1}
    expect:
      over: true
      winners: [p2]
      payoffs: {p1: -4, p2: 4}
"""

GLOSSARY_EN = """
language: en
kinds:
  player: player
  card: card
properties:
  player.points: {one: points, gender: p}
  player.ready: {one: readiness, say: "{obj} is ready"}
  card.rank: rank
  card.suit: suit
  card.value: value
zones:
  deck: deck
  hand: hand
components:
  ace: ace
  deuce: deuce
definitions:
  setup: Setup
  round: Round
  finish: Finish
  leaders: {one: Leaders, say: "the leaders", gender: p}
  trailing: {one: Trailing, say: "the trailing players", gender: p}
  sorted_hand: {one: Sorted hand, say: "the sorted cards of {p}", gender: p}
  low_cards: {one: Low cards, say: "the low cards of {p}", gender: p}
  ranks: {one: Ranks, say: "the ranks of {p}", gender: p}
  top_cards: {one: Top cards, say: "the top cards", gender: p}
  busiest: {one: Busiest, say: "the busiest players", gender: p}
  tied: {one: Tied, say: "the lead is shared"}
  leader_ready: {one: Leader ready, say: "a leader is ready"}
  leader_unready: {one: Leader unready, say: "no leader is ready"}
  ready_leaders: {one: Ready leaders, say: "the count of ready leaders"}
  score: {one: Score, say: "the score of {p}"}
  leads: {one: Leads, say: "{p} leads", deny: "{p} does not lead"}
  spread: Spread
  is_ready: Ready
  margin: {one: Margin, say: "the margin of {p}"}
values:
  most: the most points
  a: A
  b: B
names:
  p: player
"""

GLOSSARY_FR = """
language: fr
kinds:
  player: joueur
  card: {one: carte, gender: f}
properties:
  player.points: {one: points, gender: p}
  player.ready: {one: préparation, gender: f, say: "{obj} est prêt"}
  card.rank: rang
  card.suit: {one: couleur, gender: f}
  card.value: {one: valeur, gender: f}
zones:
  deck: {one: pioche, gender: f}
  hand: {one: main, gender: f}
components:
  ace: as
  deuce: deux
definitions:
  setup: Mise en place
  round: Tour
  finish: Finir
  leaders: {one: Meneurs, say: "les meneurs", gender: p}
  trailing: {one: Derniers, say: "les derniers", gender: p}
  sorted_hand: {one: Main triée, say: "les cartes triées de {p}", gender: fp}
  low_cards: {one: Petites cartes, say: "les petites cartes de {p}", gender: fp}
  ranks: {one: Rangs, say: "les rangs de {p}", gender: p}
  top_cards: {one: Meilleures cartes, say: "les meilleures cartes", gender: fp}
  busiest: {one: Plus occupés, say: "les joueurs les plus occupés", gender: p}
  tied: {one: Égalité, say: "la tête est partagée"}
  leader_ready: {one: Meneur prêt, say: "un meneur est prêt"}
  leader_unready: {one: Meneur pas prêt, say: "aucun meneur n'est prêt"}
  ready_leaders: {one: Meneurs prêts, say: "le compte des meneurs prêts"}
  score: {one: Score, say: "le score de {p}"}
  leads: {one: Mène, say: "{p} mène", deny: "{p} ne mène pas"}
  spread: {one: Écart}
  is_ready: Prêt
  margin: {one: Marge, gender: f, say: "la marge de {p}"}
values:
  most: le plus de points
  a: A
  b: B
names:
  p: joueur
citations:
  "rules: End": "règles : Fin"
"""


def tiny(tmp_path: Path, payoff: bool = True) -> Path:
    """The tiny rule set under ``tmp_path/rules/tiny``, its scenario under ``tmp_path/seeds/tiny``."""
    game = game_yaml(players=(2, 2), round_limit=3) + (PAYOFF if payoff else "")
    folder = write_ruleset(tmp_path / "rules" / "tiny", {"game.yaml": game + DATA, "main.rules": RULES})
    (folder / "glossary").mkdir()
    for lang, text in (("en", GLOSSARY_EN), ("fr", GLOSSARY_FR)):
        (folder / "glossary" / f"{lang}.yaml").write_text(text.lstrip(), encoding="utf-8")
    write_ruleset(tmp_path / "seeds" / "tiny", {"end.yaml": SCENARIO})
    return folder


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tiny(tmp_path_factory.mktemp("ordering"))


@pytest.fixture(scope="module")
def rs(folder):
    return load_checked(folder)


# ---------------------------------------------------------------- the rules in plain words

ENGLISH = {
    "leaders": "The leaders are the players with the highest points.",
    "trailing": "The trailing players are the players with the lowest points among those for whom the player is "
                "ready.",
    "sorted_hand": "The sorted cards of the player are the cards among the cards in the hand of the player, by suit, "
                   "then by rank from highest to lowest.",
    "low_cards": "The low cards of the player are the cards with the lowest rank among the cards in the hand of the "
                 "player for which the rank of the card is more than 1, by suit in reverse order.",
    "ranks": "The ranks of the player are the rank of the card for each card among the cards in the hand of the "
             "player, by rank from lowest to highest.",
    "top_cards": "The top cards are the cards with the highest value among those for which the rank of the card is "
                 "more than 1.",
    "busiest": "The busiest players are the players for whom the points of the player plus the number of cards in "
               "the hand of the player is the highest.",
    "tied": "The lead is shared when the number of players with the highest points is more than 1.",
    "leader_ready": "A leader is ready when for at least one player with the highest points, the player is ready.",
    "leader_unready": "No leader is ready when for every player with the highest points, it is not the case that "
                      "the player is ready.",
    # of the players the condition passes, the best: said as that list, never "for every X for which C with …"
    "ready_leaders": "The count of ready leaders is the number of the players with the highest points among those "
                     "for whom the player is ready.",
}

FRENCH = {
    "leaders": "Les meneurs sont les joueurs ayant le plus de points.",
    "trailing": "Les derniers sont les joueurs ayant le moins de points parmi ceux où le joueur est prêt.",
    "sorted_hand": "Les cartes triées du joueur sont les cartes parmi les cartes de la main du joueur, par couleur, "
                   "puis par ordre décroissant de rang.",
    "low_cards": "Les petites cartes du joueur sont les cartes ayant le rang le plus bas parmi les cartes de la main "
                 "du joueur où le rang de la carte est supérieur à 1, par couleur en ordre inverse.",
    "ranks": "Les rangs du joueur sont le rang de la carte pour chaque carte parmi les cartes de la main du joueur, "
             "par ordre croissant de rang.",
    "top_cards": "Les meilleures cartes sont les cartes ayant la valeur la plus élevée parmi celles où le rang de la "
                 "carte est supérieur à 1.",
    "busiest": "Les joueurs les plus occupés sont les joueurs où les points du joueur plus le nombre de cartes dans "
               "la main du joueur est le plus élevé.",
    "tied": "La tête est partagée quand le nombre de joueurs ayant le plus de points est supérieur à 1.",
    "leader_ready": "Un meneur est prêt quand pour au moins un joueur ayant le plus de points, le joueur est prêt.",
    "leader_unready": "Aucun meneur n'est prêt quand pour chaque joueur ayant le plus de points, il est faux que le "
                      "joueur est prêt.",
    "ready_leaders": "Le compte des meneurs prêts est le nombre des joueurs ayant le plus de points parmi ceux où le "
                     "joueur est prêt.",
}


@pytest.mark.parametrize("lang, expected", [("en", ENGLISH), ("fr", FRENCH)])
def test_each_ordering_clause_reads_as_designed(rs, lang, expected):
    prose = Prose(rs, lang)
    for name, sentence in expected.items():
        assert prose.definition(name) == sentence + "\n", f"{lang} {name}"
    assert prose.missing == set()


def _arranged(rs) -> list[ast.Comprehension]:
    """Every comprehension of the tiny rule set with a `with highest/lowest` or a `by` clause."""
    from rulecraft.docgen.glossary import walk
    return [n for d in rs.definitions.values() for n in walk(d) if isinstance(n, ast.Comprehension) and n.arranged]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_clause_is_dropped(rs, lang):
    """Each clause changes the words: without it, or in the other direction, the text differs."""
    prose = Prose(rs, lang)
    found = _arranged(rs)
    assert len(found) >= 8
    for c in found:
        text = prose.ex(c)
        others = []
        if c.best is not None:
            others += [dataclasses.replace(c, best=None), dataclasses.replace(c, highest=not c.highest)]
        for i in range(len(c.order)):
            others.append(dataclasses.replace(c, order=c.order[:i] + c.order[i + 1:],
                                              descending=c.descending[:i] + c.descending[i + 1:]))
            flipped = list(c.descending)
            flipped[i] = not flipped[i]
            others.append(dataclasses.replace(c, descending=flipped))
        assert others
        for other in others:
            assert prose.ex(other) != text, (lang, text)


def test_a_quantifier_says_the_best_items_and_leaves_out_an_order_that_changes_nothing(rs):
    """count/any/all over the best items keep the choice (the sentences above); over an ordered list,
    the order changes no count and no truth: it is not said, and nothing else is lost."""
    en = Prose(rs, "en")
    c = next(n for n in _arranged(rs) if n.order and n.best is None and n.item.id == n.var)
    count = ast.Call(c.pos, "count", [c])
    count.ref = ("builtin", "count")
    unordered = dataclasses.replace(c, order=[], descending=[])
    plain = ast.Call(c.pos, "count", [unordered])
    plain.ref = ("builtin", "count")
    assert en.ex(count) == en.ex(plain) == "the number of cards among the cards in the hand of the player"


# ---------------------------------------------------------------- worked examples


def _told(site) -> list[str]:
    page = next(text for path, text in site.pages.items() if path.startswith("examples/") and "index" not in path)
    return [re.sub(r"^(- |\d+\. )", "", line) for line in page.splitlines() if re.match(r"(- |\d+\. )", line)]


@pytest.mark.parametrize("lang, sentences", [
    ("en", ["Check: The score of player 2 is 7. *seven points* Player 1 does not lead. Player 2 leads. "
            "The leaders are player 2. *Spread* gives 4.",
            "At the end, player 1 gets −4 and player 2 gets 4 (*Margin*)."]),
    ("fr", ["Vérification : Le score du joueur 2 est 7. Le joueur 1 ne mène pas. Le joueur 2 mène. "
            "Les meneurs sont le joueur 2. *Écart* donne 4.",
            "À la fin, le joueur 1 reçoit −4 et le joueur 2 reçoit 4 (*Marge*)."]),
])
def test_functions_and_payoffs_read_as_sentences_in_a_worked_example(folder, lang, sentences):
    site = collect(folder, lang)
    told = _told(site)
    for sentence in sentences:
        assert sentence in told, f"{sentence!r} not in\n" + "\n".join(told)
    page = "\n".join(told)
    assert "functions:" not in page and "payoffs:" not in page  # no generic "key: value" fallback
    assert "rulecraft-pass" in next(text for path, text in site.pages.items() if path.startswith("examples/")
                                    and "index" not in path)  # the scenario was run, and its checks held


@pytest.mark.parametrize("lang, sentence", [
    ("en", "At the end, player 1 gets −1 and player 2 gets 1."),
    ("fr", "À la fin, le joueur 1 reçoit −1 et le joueur 2 reçoit 1."),
])
def test_payoffs_without_a_declared_payoff_function_name_none(tmp_path, lang, sentence):
    rs = load_checked(tiny(tmp_path, payoff=False))
    tell = Narrator(rs, Prose(rs, lang, markdown=True), lang)
    assert tell.outcome({"payoffs": {"p1": -1, "p2": 1}}) == [sentence]


def test_a_function_value_naming_players_and_cards_reads_their_words(rs):
    en = Narrator(rs, Prose(rs, "en", markdown=True), "en")
    fr = Narrator(rs, Prose(rs, "fr", markdown=True), "fr")
    item = {"function": "leaders", "value": ["p1", "p2"]}
    assert en.outcome({"functions": [item]}) == ["The leaders are player 1 and player 2."]
    assert fr.outcome({"functions": [item]}) == ["Les meneurs sont le joueur 1 et le joueur 2."]
    item = {"function": "low_cards", "args": ["p1"], "value": ["ace"]}
    assert en.outcome({"functions": [item]}) == ["The low cards of player 1 are ace."]
    # the French note is left out, as every English text of a scenario is
    item = {"function": "tied", "value": True, "text": "a note"}
    assert fr.outcome({"functions": [item]}) == ["La tête est partagée."]
    assert not re.search(r"\bfunction\b", " ".join(en.outcome({"functions": [item]})))
    # a yes/no function the glossary gives no phrase: its title holds or does not
    items = [{"function": "is_ready", "args": ["p1"], "value": False}, {"function": "is_ready", "args": ["p2"],
                                                                       "value": True}]
    assert en.outcome({"functions": items}) == ["*Ready* (player 1) does not hold.", "*Ready* (player 2) holds."]
    assert fr.outcome({"functions": items}) == ["*Prêt* (joueur 1) est faux.", "*Prêt* (joueur 2) est vrai."]
