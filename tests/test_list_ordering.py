"""Ordering a comprehension's items (`by KEY [ascending | descending], ...`) and keeping
only the best of them (`with highest KEY`, `with lowest KEY`, every item tied for it):
stable, without randomness, typed by the checker, and the same on both execution paths
(the closures a rule set's first game runs on, and the generated code of later games)."""

from __future__ import annotations

import pytest
from engine_rulesets import emitted, game_yaml, load_errors, write_ruleset
from pygments.token import Keyword

from rulecraft.docgen.lexer import RulesLexer
from rulecraft.dsl.compiler import Compiler, generate_statement_code
from rulecraft.dsl.loader import load_ruleset
from rulecraft.dsl import parser
from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.dsl.parser import CONTEXTUAL, RESERVED
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import RuleRuntimeError
from rulecraft.lsp.features import KEYWORDS

DATA = """
kinds:
  player:
    properties:
      points: {type: number, default: 0}
  card:
    located_in: zone
    properties:
      rank: number
      suit: text
      face_up: {type: bool, default: false}
      bonus: {type: number}
  chip:
    located_in: zone
    properties:
      a: {type: number, default: 0}
      b: {type: number, default: 0}
  token:
    located_in: zone
    properties:
      rank: text
zones:
  deck: {}
  trick: {}
  pile: {}
  bag: {}
components:
  - {name: c1, kind: card, zone: deck, properties: {rank: 3, suit: "hearts", bonus: 2}}
  - {name: c2, kind: card, zone: deck, properties: {rank: 9, suit: "clubs"}}
  - {name: c3, kind: card, zone: deck, properties: {rank: 3, suit: "clubs", bonus: 5}}
  - {name: c4, kind: card, zone: deck, properties: {rank: 9, suit: "hearts"}}
  - {name: c5, kind: card, zone: deck, properties: {rank: 1, suit: "spades", bonus: 5}}
  - {name: c6, kind: card, zone: deck, properties: {rank: 7, suit: "diamonds", bonus: 1}}
  - {name: chip, kind: chip, count: 20, zone: bag}
  - {name: t1, kind: token, zone: pile, properties: {rank: "seven"}}
variables:
  game:
    led_suit: {type: text, default: "hearts"}
"""

ROUND = """
procedure round():
    do:
        stop
"""

# Points of the players p1, p2, p3, given in setup before the statements of a test.
POINTS = """
for each p in players:
    set p.points = 7
let first_seat = p1_of()
set first_seat.points = 5
"""

FUNCTIONS = """
function p1_of() -> player:
    = players[0]

function p2_of() -> player:
    = players[1]

function p3_of() -> player:
    = players[2]

function leaders() -> list of player:
    = [p for p in players with highest p.points]

function winning_card() -> card:
    = first([c for c in contents(deck) where c.suit == game.led_suit with highest c.rank])

function chips_level_with_best() -> number:
    = count([x for x in chip where first([v for v in [x.a, x.b] with highest v]) == 0])
"""


def _rules(setup_body: str) -> str:
    body = "\n".join("        " + line for line in (POINTS + setup_body).strip("\n").splitlines())
    return "procedure setup():\n    do:\n" + body + "\n" + ROUND + FUNCTIONS


def _statements_generated(ruleset) -> bool:
    codes = [getattr(fn, "__code__", None) for block in ruleset.compiled.blocks for instr in block
             for fn in vars(instr).values() if callable(fn)]
    return any(c is not None and c.co_filename == "<rule set expressions>" for c in codes)


def _compiled(folder, generate: bool):
    """The rule set on closures alone (a first game), or with every expression generated
    (the code a rule set gets from its second game on)."""
    ruleset = load_ruleset(folder)
    assert ruleset.ok, ruleset.bag.render()
    ruleset.compiled = Compiler(ruleset, generate=generate).compile()
    if generate:
        assert generate_statement_code(ruleset) and _statements_generated(ruleset)
    else:
        assert not _statements_generated(ruleset)
    return ruleset


def both_paths(tmp_path, setup_body: str, players: int = 3) -> dict:
    """What ``emit q(name: ..., value: ...)`` gave in setup, the same on both paths."""
    folder = write_ruleset(tmp_path / "ordering", {"game.yaml": game_yaml(round_limit=1) + DATA,
                                                   "main.rules": _rules(setup_body)})
    results = [emitted(Game(_compiled(folder, generate), players, 1)) for generate in (False, True)]
    assert results[0] == results[1], "the closures and the generated code disagree"
    return results[0]


def test_by_orders_lowest_first_and_descending_highest_first_keeping_ties_in_list_order(tmp_path):
    q = both_paths(tmp_path, """
emit q(name: "up", value: [c for c in card by c.rank])
emit q(name: "ascending", value: [c for c in card by c.rank ascending])
emit q(name: "down", value: [c for c in card by c.rank descending])
emit q(name: "from a zone", value: [c for c in contents(deck) where c.rank > 1 by c.rank descending])
emit q(name: "numbers", value: [n for n in [4, 1, 3, 1] by n])
""")
    # c1 and c3 share rank 3, c2 and c4 rank 9: each pair stays in the list's order
    assert q["up"] == ["c5", "c1", "c3", "c6", "c2", "c4"]
    assert q["ascending"] == q["up"]
    assert q["down"] == ["c2", "c4", "c6", "c1", "c3", "c5"]
    assert q["from a zone"] == ["c2", "c4", "c6", "c1", "c3"]
    assert q["numbers"] == [1, 1, 3, 4]


def test_several_keys_break_ties_in_turn_and_texts_order_alphabetically(tmp_path):
    q = both_paths(tmp_path, """
emit q(name: "suit then rank", value: [c for c in card by c.suit, c.rank descending])
emit q(name: "rank then suit", value: [c for c in card by c.rank descending, c.suit descending])
emit q(name: "suits", value: [c.suit for c in card by c.suit descending])
""")
    assert q["suit then rank"] == ["c2", "c3", "c6", "c4", "c1", "c5"]  # clubs, diamonds, hearts, spades
    assert q["rank then suit"] == ["c4", "c2", "c6", "c1", "c3", "c5"]
    assert q["suits"] == ["spades", "hearts", "hearts", "diamonds", "clubs", "clubs"]


def test_with_highest_and_lowest_keep_every_item_tied_for_the_best_in_list_order(tmp_path):
    q = both_paths(tmp_path, """
emit q(name: "highest", value: [c for c in card with highest c.rank])
emit q(name: "lowest clubs", value: [c for c in card where c.suit == "clubs" with lowest c.rank])
emit q(name: "lowest", value: [c for c in card with lowest c.rank])
emit q(name: "tied", value: count([c for c in card with highest c.rank]))
emit q(name: "first of the tied", value: first([c for c in card with highest c.rank]))
emit q(name: "none passes", value: [c for c in card where c.rank > 100 with highest c.rank])
emit q(name: "text", value: [c for c in card with highest c.suit])
""")
    assert q["highest"] == ["c2", "c4"]
    assert q["lowest clubs"] == ["c3"]
    assert q["lowest"] == ["c5"]
    assert q["tied"] == 2
    assert q["first of the tied"] == "c2"
    assert q["none passes"] == []
    assert q["text"] == ["c5"]  # "spades", the last alphabetically


def test_the_players_with_the_most_points_and_the_winning_card_of_a_suit(tmp_path):
    q = both_paths(tmp_path, """
emit q(name: "leaders", value: leaders())
emit q(name: "leader but p2", value: [p for p in players where p != p2_of() with highest p.points])
emit q(name: "winning card", value: winning_card())
set game.led_suit = "clubs"
emit q(name: "winning club", value: winning_card())
set game.led_suit = "none at all"
emit q(name: "no card of the suit", value: winning_card())
set first_seat.points = 8
emit q(name: "new leaders", value: leaders())
""")
    assert q["leaders"] == ["p2", "p3"]
    assert q["leader but p2"] == ["p3"]
    assert q["winning card"] == "c4"
    assert q["winning club"] == "c2"
    assert q["no card of the suit"] is None
    assert q["new leaders"] == ["p1"]


def test_with_highest_then_by_orders_the_tied_items_and_the_item_is_computed_last(tmp_path):
    q = both_paths(tmp_path, """
emit q(name: "tied by suit", value: [c for c in card with highest c.rank by c.suit])
emit q(name: "ids by rank", value: [c.id for c in card where c.rank < 9 by c.rank descending])
emit q(name: "ranks", value: [c.rank * 10 for c in card with lowest c.rank by c.suit])
emit q(name: "nested", value: [[d for d in card where d.suit == c.suit by d.rank descending] for c in card by c.rank])
emit q(name: "top two", value: take([p for p in players by p.points descending], 2))
""")
    assert q["tied by suit"] == ["c2", "c4"]  # clubs before hearts
    assert q["ids by rank"] == ["c6", "c1", "c3", "c5"]
    assert q["ranks"] == [10]
    assert q["nested"] == [["c5"], ["c4", "c1"], ["c2", "c3"], ["c6"], ["c2", "c3"], ["c4", "c1"]]
    assert q["top two"] == ["p2", "p3"]


def test_none_keys_come_last_whichever_the_direction_and_are_never_the_best(tmp_path):
    q = both_paths(tmp_path, """
emit q(name: "bonus up", value: [c for c in card by c.bonus])
emit q(name: "bonus down", value: [c for c in card by c.bonus descending])
emit q(name: "most bonus", value: [c for c in card with highest c.bonus])
emit q(name: "least bonus", value: [c for c in card with lowest c.bonus])
emit q(name: "no bonus at all", value: [c for c in card where c.rank == 9 with highest c.bonus])
""")
    assert q["bonus up"] == ["c6", "c1", "c3", "c5", "c2", "c4"]  # c2 and c4 have none
    assert q["bonus down"] == ["c3", "c5", "c1", "c6", "c2", "c4"]
    assert q["most bonus"] == ["c3", "c5"]
    assert q["least bonus"] == ["c6"]
    assert q["no bonus at all"] == []


def test_ordering_is_the_same_every_time_whatever_the_seed(tmp_path):
    folder = write_ruleset(tmp_path / "seeds", {"game.yaml": game_yaml(round_limit=1) + DATA, "main.rules": _rules("""
shuffle deck
emit q(name: "sorted", value: [c for c in contents(deck) by c.rank descending, c.suit])
emit q(name: "best", value: [c for c in contents(deck) with highest c.rank by c.suit])
""")})
    ruleset = _compiled(folder, False)
    seen = {repr(emitted(Game(ruleset, 3, seed))) for seed in range(6)}
    assert seen == {repr({"sorted": ["c2", "c4", "c6", "c3", "c1", "c5"], "best": ["c2", "c4"]})}


def test_a_choice_offers_the_ordered_items_in_their_order(tmp_path):
    folder = write_ruleset(tmp_path / "choice", {"game.yaml": game_yaml(round_limit=1) + DATA, "main.rules": _rules("""
choose c from [c for c in contents(deck) where c.rank > 1 by c.rank descending, c.suit] by p1_of()
emit q(name: "chosen", value: c)
""")})
    for generate in (False, True):
        game = Game(_compiled(folder, generate), 3, 1)
        assert game.pending.options == ["c2", "c4", "c6", "c3", "c1"]
        game.choose(2)
        assert emitted(game)["chosen"] == "c6"


def test_an_action_chooses_among_the_best_and_a_count_over_many_things_sees_ties(tmp_path):
    rules = _rules("stop") + """
action play_best:
    with c: card in [c for c in contents(deck) with highest c.rank]
    require count(leaders()) > 1 else "no tie"
    do:
        move c to trick
        emit q(name: "level chips", value: chips_level_with_best())
        emit q(name: "best chips", value: count([x for x in chip with highest x.a]))
"""
    rules = rules.replace("procedure round():\n    do:\n        stop",
                          "procedure round():\n    do:\n        for each p in players:\n            play_turn(p)")
    folder = write_ruleset(tmp_path / "action", {"game.yaml": game_yaml(round_limit=1) + DATA, "main.rules": rules})
    for generate in (False, True):
        game = Game(_compiled(folder, generate), 3, 1)
        options = [o for o in game.pending.options if o["action"] != "end_turn"]
        assert options == [{"action": "play_best", "args": {"c": "c2"}}, {"action": "play_best", "args": {"c": "c4"}}]
        game.choose(game.pending.options.index(options[1]))
        assert emitted(game) == {"level chips": 20, "best chips": 20}
        options = [o for o in game.pending.options if o["action"] != "end_turn"]
        assert options == [{"action": "play_best", "args": {"c": "c2"}}]  # c4 left the deck


@pytest.mark.parametrize(("key", "told"), [
    # the pile holds a token (a text rank) and a card (a number rank, a yes/no face_up):
    # the checker cannot type x.rank nor x.face_up, the game finds the keys wrong
    ("x.rank", "cannot compare a"),
    ("x.face_up", "is a yes/no (true or false)"),
], ids=["numbers-and-texts", "yes-no"])
def test_keys_the_checker_cannot_type_stop_the_game_with_a_located_error_when_wrong(tmp_path, key, told):
    folder = write_ruleset(tmp_path / "mixed", {"game.yaml": game_yaml(round_limit=1) + DATA, "main.rules": _rules(f"""
move c1 to pile
emit q(name: "mixed", value: [x for x in contents(pile) by {key}])
""")})
    for generate in (False, True):
        with pytest.raises(RuleRuntimeError) as err:
            Game(_compiled(folder, generate), 3, 1)
        assert "main.rules:" in str(err.value) and told in str(err.value)
        assert "OrderKeyFault" not in str(err.value)


# ---------------------------------------------------------------- the parser


def test_the_direct_parser_and_lark_read_the_clauses_alike(monkeypatch):
    from test_12_direct_parser import parsed

    text = """function f(p: player) -> list of card:
    = [c.id for c in contents(hand(p)) where c.rank > 1 with lowest c.bonus
       by c.suit descending, c.rank ascending, c.id]
"""
    direct, lark = parsed(text, True, monkeypatch), parsed(text, False, monkeypatch)
    assert direct == lark and not direct[1]
    bag = DiagnosticBag()
    (function,) = parser.parse_text(text, "some.rules", bag).definitions
    e = function.value
    assert (e.highest, e.best.name, e.best.pos.line, e.best.pos.column) == (False, "bonus", 2, 69)
    assert [(k.name, k.pos.line, k.pos.column) for k in e.order] == [("suit", 3, 11), ("rank", 3, 30), ("id", 3, 48)]
    assert e.descending == [True, False, False]


# ---------------------------------------------------------------- the checker


def _errors(tmp_path, expression: str) -> str:
    rules = "function f(p: player) -> any:\n    = " + expression + "\n" + _rules("emit q(name: \"f\", value: f(p1_of()))")
    return load_errors(tmp_path, {"game.yaml": game_yaml(round_limit=1) + DATA, "main.rules": rules})


def caret(column: int, width: int) -> str:
    """The line under a quoted source line: carets from ``column``, ``width`` long."""
    return "      | " + " " * (column - 1) + "^" * width + "\n"


def test_a_key_of_a_thing_is_a_located_error_with_the_properties_it_could_be(tmp_path):
    text = _errors(tmp_path, "[q for q in players with highest q]")
    assert "main.rules:2:40: error: a 'with highest' key must be a number or a text, not a player" in text
    assert "    2 |     = [q for q in players with highest q]\n" + caret(40, 1) in text
    assert "hint: things are compared by one of their number or text properties (points): " \
           "'with highest q.points'" in text


def test_a_key_of_a_condition_or_a_list_is_a_located_error(tmp_path):
    text = _errors(tmp_path, "[c for c in card by c.rank, c.face_up descending]")
    assert "main.rules:2:35: error: a 'by' key must be a number or a text, not a bool" in text
    assert caret(35, len("c.face_up")) in text
    assert "hint: to put first the items for which it holds, write 'by (0 if c.face_up else 1)'" in text
    # to keep the items for which a condition holds, 'with highest' ranks them 1, the rest 0
    text = _errors(tmp_path, "[c for c in card with highest c.face_up]")
    assert "hint: to keep the items for which it holds, write 'with highest (1 if c.face_up else 0)'" in text
    text = _errors(tmp_path, "[c for c in card with lowest c.face_up]")
    assert "hint: to keep the items for which it holds, write 'with lowest (0 if c.face_up else 1)'" in text
    text = _errors(tmp_path, "[c for c in card with lowest [c.rank]]")
    assert "main.rules:2:36: error: a 'with lowest' key must be a number or a text, not a list of number" in text
    assert "hint: to compare lists by their length, write 'with lowest count([c.rank])'" in text


def test_a_key_reads_the_comprehension_name_and_is_checked_like_any_expression(tmp_path):
    text = _errors(tmp_path, "[c for c in card by c.rnk]")
    assert "main.rules:2:29: error: kind 'card' has no property 'rnk'" in text
    text = _errors(tmp_path, "first([c for c in card with highest c.rank]) + 1")
    # the best of a list of cards is a card
    assert "main.rules:2:7: error: the left side of '+' must be a number, not a card" in text


def test_clauses_in_the_wrong_order_are_a_syntax_error_saying_the_order(tmp_path):
    text = _errors(tmp_path, "[c for c in card by c.rank where c.rank > 1]")
    assert "main.rules:2:34: error: unexpected 'where'" in text
    assert "hint: a comprehension's clauses come in this order, each at most once: " \
           "[ITEM for NAME in LIST where COND with highest KEY by KEY descending]" in text


def test_the_new_words_are_keywords_only_in_their_place(tmp_path):
    rules = _rules("""
let highest = 3
let descending = [c for c in card where c.rank >= highest by c.rank descending]
emit q(name: "names", value: [c for c in descending with lowest lowest(c)])
""") + """
function lowest(ascending: card) -> number:
    = ascending.rank
"""
    folder = write_ruleset(tmp_path / "words", {"game.yaml": game_yaml(round_limit=1) + DATA, "main.rules": rules})
    for generate in (False, True):
        assert emitted(Game(_compiled(folder, generate), 3, 1)) == {"names": ["c1", "c3"]}
    assert not CONTEXTUAL & RESERVED
    assert {"highest", "lowest", "ascending", "descending"} <= CONTEXTUAL


def test_editors_and_the_language_server_know_the_new_words():
    assert {"highest", "lowest", "ascending", "descending"} <= set(KEYWORDS)
    tokens = list(RulesLexer().get_tokens("    = [c for c in x with highest c.rank by c.suit descending]\n"))
    assert (Keyword, "highest") in tokens and (Keyword, "descending") in tokens and (Keyword, "by") in tokens
