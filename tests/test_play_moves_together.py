"""`rulecraft play` tells a row of moves from one place to another in one sentence,
of things the viewer sees as of hidden ones: a hand dealt or passed on is one line,
not one a card, so what else happened stays on the screen."""

from __future__ import annotations

import io

from engine_rulesets import build, game_yaml
from rich.console import Console

from rulecraft.cli.play import PlaySession

from rulecraft.interpreter.game import Game
from rulecraft.narration import Words

DEAL = game_yaml(players=(2, 2)) + """
kinds:
  player: {properties: {}}
  card: {located_in: zone, properties: {}}
zones:
  deck: {visible_to: nobody}
  hand: {per_player: true, visible_to: owner}
  table: {}
components:
  - {name: card, kind: card, count: 8, zone: deck}
"""

RULES = """
procedure setup():
    do:
        for each p in players:
            repeat 3 times:
                move top(deck) to hand(p)
        move top(deck) to table
        move top(deck) to hand(first(players))

procedure round():
    do:
        stop
"""


def told(tmp_path, lang: str) -> tuple[list[str], list[str]]:
    """What p1 is told of the deal, and the cards dealt to p1 in the order dealt."""
    rs = build(tmp_path, {"game.yaml": DEAL, "play.rules": RULES})
    game = Game(rs, 2, 1)
    words = Words(rs, lang)
    view = game.view("p1")
    words.know_view(view)
    dealt = [e["entity"] for e in view["events"] if e["type"] == "moved" and e["destination"] == "hand:p1"]
    return [t for t in words.tell(view["events"]) if t], dealt


def test_the_cards_dealt_to_the_viewer_are_one_sentence_and_the_others_one_more(tmp_path):
    lines, dealt = told(tmp_path, "en")
    assert lines[:4] == [f"{dealt[0]}, {dealt[1]} and {dealt[2]} move from deck to p1's hand.",
                         "3 hidden items move from deck to p2's hand.",
                         # a move elsewhere parts the row: each of these is alone
                         f"{lines[2].split(' ')[0]} moves from deck to table.",
                         f"{dealt[3]} moves from deck to p1's hand."], lines


def test_in_french_too(tmp_path):
    lines, dealt = told(tmp_path, "fr")
    assert lines[0] == f"{dealt[0]}, {dealt[1]} et {dealt[2]} passent de deck à hand de p1.", lines


ONE_WAY = """
procedure setup():
    do:
        stop

procedure round():
    do:
        for each p in players:
            choose w from ["on", "off"] by p prompt "Go on?"
            # how many options there are follows p's secret answer: one is asked all the same
            choose x from (["only"] if w == "off" else ["a", "b"]) by p prompt "Then:"
"""


def test_enter_takes_an_only_option_and_only_then(tmp_path):
    rs = build(tmp_path, {"game.yaml": DEAL, "play.rules": ONE_WAY}, name="one_way")
    game = Game(rs, 2, 1, settings={"ask_secret_single_options": True})
    typed = iter(["", "2", ""])
    buffer = io.StringIO()
    session = PlaySession(rs, game, {"p1": "human", "p2": "human"},
                          console=Console(file=buffer, width=80, color_system=None), read=lambda _: next(typed))
    # two options: Enter chooses nothing and says what to type
    assert session.ask("p1") == 1
    assert "type the number of an option (1 to 2)" in buffer.getvalue()
    game.choose(1)
    assert game.pending.player == "p1" and len(game.pending.options) == 1
    buffer.truncate(0)
    assert session.ask("p1") == 0
    assert "Enter (or 1) takes the only option" in buffer.getvalue(), buffer.getvalue()


ENDING = """
procedure setup():
    do:
        stop

procedure round():
    do:
        for each p in players:
            choose w from ["on", "off"] by p prompt "Go on?"
        for each p in players:
            emit scored(player: p, points: 3)
        end_game([first(players)], "final scoring")
"""


def test_the_last_screen_tells_how_the_game_ended(tmp_path):
    """The final scoring a round runs after the last decision was on no screen: the last
    one showed the statuses and the winners only."""
    rs = build(tmp_path, {"game.yaml": DEAL, "play.rules": ENDING}, name="ending")
    game = Game(rs, 2, 1)
    game.choose(0)
    game.choose(1)
    assert game.over
    buffer = io.StringIO()
    session = PlaySession(rs, game, {"p1": "human", "p2": "human"},
                          console=Console(file=buffer, width=80, color_system=None), read=lambda _: "")
    session.final_screen()
    shown = buffer.getvalue()
    assert "At the end:" in shown, shown
    assert "Scored (player: p1; points: 3)." in shown and "Scored (player: p2; points: 3)." in shown, shown
    assert shown.index("At the end:") < shown.index("Winners: p1")


def test_a_sentence_opening_with_an_id_of_words_keeps_its_case(tmp_path):
    """Without a glossary a thing is named by its id: "fair_day moves …", not "Fair_day
    moves …", as "card.1 moves …" keeps its case."""
    deal = DEAL.replace("  - {name: card, kind: card, count: 8, zone: deck}",
                        "  - {name: card, kind: card, count: 7, zone: deck}\n  - {name: fair_day, kind: card, zone: table}")
    rules = RULES.replace("        move top(deck) to table\n", "        move fair_day to deck\n")
    rs = build(tmp_path, {"game.yaml": deal, "play.rules": rules}, name="ids")
    game = Game(rs, 2, 1)
    words = Words(rs)
    view = game.view("p1")
    words.know_view(view)
    lines = [t for t in words.tell(view["events"]) if t]
    assert "fair_day moves from table to deck." in lines, lines
