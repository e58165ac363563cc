"""`rulecraft play` on a game of secret choices shown all at once: a property each player
sets in secret, then revealed to everyone and hidden again; a question put to another
player in the middle of a turn; copies of one card told apart only by what they show.

The screens say a revealed value when the viewer sees it, tell a row of reveals (and of
hides) as one sentence, name the player who must decide, keep marked news where it
happened, tell the options' copies apart by their details, and name no seat by a
number."""

from __future__ import annotations

import io

from engine_rulesets import build, choose_action, game_yaml
from rich.console import Console

from rulecraft.cli.play import PlaySession
from rulecraft.cli.play_screen import Screens
from rulecraft.interpreter.game import Game
from rulecraft.narration import Words

PICKS = game_yaml(players=(3, 3)) + """
kinds:
  player:
    properties:
      pick: {type: "text?", values: [left, right, null], visible_to: owner}
"""

PICKS_RULES = """
procedure setup():
    do:
        stop

procedure round():
    do:
        for each p in players:
            choose v from ["left", "right"] by p prompt "Which way?"
            set p.pick = v
        for each p in players:
            reveal p.pick
        for each p in players:
            choose w from ["on", "off"] by p prompt "Go on?"
        for each p in players:
            hide p.pick
            set p.pick = none
        for each p in players:
            choose w from ["on", "off"] by p prompt "Again?"
"""


def told(rs, game, viewer: str) -> list[str]:
    words = Words(rs)
    view = game.view(viewer)
    words.know_view(view)
    return [t for t in words.tell(view["events"]) if t]


def picked(tmp_path):
    rs = build(tmp_path, {"game.yaml": PICKS, "main.rules": PICKS_RULES})
    game = Game(rs, 3, 1)
    for index in (0, 1, 0):  # p1 left, p2 right, p3 left
        game.choose(index)
    return rs, game


def test_a_property_revealed_to_everyone_is_told_with_the_values_the_viewer_sees(tmp_path):
    rs, game = picked(tmp_path)
    for viewer in ("p1", "p2"):
        lines = told(rs, game, viewer)
        assert "Everyone sees each pick: p1 left, p2 right and p3 left." in lines, lines
        assert not any(" see the pick of " in line for line in lines), lines


def test_one_reveal_says_its_value_and_everyone_in_french_too(tmp_path):
    rs, game = picked(tmp_path)
    view = game.view("p2")
    for lang, sentence in (("en", "Everyone sees the pick of p3: left."), ("fr", "Tout le monde voit le pick de p3 : left.")):
        words = Words(rs, lang)
        words.know_view(view)
        reveal = next(e for e in view["events"] if e["type"] == "revealed" and e["entity"] == "p3")
        assert words.tell([reveal]) == [sentence]


def test_a_french_reveal_gives_the_property_its_article_by_gender(tmp_path):
    """"Tout le monde voit la direction de p3", not "voit direction de p3": the
    glossary's feminine word takes "la", and "cachée" agrees with it."""
    rs = build(tmp_path, {"game.yaml": PICKS, "play.rules": PICKS_RULES, "glossary/fr.yaml": (
        "language: fr\nproperties:\n  player.pick: {one: direction, gender: f}\n")}, name="feminine")
    game = Game(rs, 3, 1)
    for index in (0, 1, 0, 0, 0, 0):
        game.choose(index)
    words = Words(rs, "fr")
    view = game.view("p2")
    words.know_view(view)
    lines = [t for t in words.tell(view["events"]) if t]
    assert "Tout le monde voit la direction de chacun : p1 left, p2 right et p3 left." in lines, lines
    assert "La direction de chacun de p1, p2 et p3 est de nouveau cachée à tout le monde." in lines, lines
    reveal = next(e for e in view["events"] if e["type"] == "revealed" and e["entity"] == "p3")
    assert words.tell([reveal]) == ["Tout le monde voit la direction de p3 : left."]
    # a stream whose reveal carries no value, once the value has changed, says none
    assert words.tell([{k: v for k, v in reveal.items() if k != "value"}]) == ["Tout le monde voit la direction de p3."]


def test_reveals_hidden_again_since_are_told_with_the_values_they_showed_and_the_hides_in_one_sentence(tmp_path):
    rs, game = picked(tmp_path)
    for _ in range(3):
        game.choose(0)
    lines = told(rs, game, "p2")
    # the picks are none now: the reveals say what they showed then
    assert "Everyone sees each pick: p1 left, p2 right and p3 left." in lines, lines
    assert "The pick of each of p1, p2 and p3 is hidden again from everyone." in lines, lines
    assert not any("is hidden again from p1" in line for line in lines), lines
    # a text set to nothing is none, not "nobody"
    assert "p2: pick is now none." in lines, lines
    # what another player set in secret, before the reveal or after the hide, is never told
    assert not any(line.startswith(("p1: pick", "p3: pick")) for line in lines), lines
    # the others' values are on no line but the reveal's, which everyone saw
    assert [line for line in lines if "left" in line] == ["Everyone sees each pick: p1 left, p2 right and p3 left."]


def test_a_reveal_to_some_players_lists_them(tmp_path):
    rs, game = picked(tmp_path)
    words = Words(rs)
    words.know_view(game.view("p2"))
    event = {"type": "revealed", "entity": "p3", "property": "pick", "players": ["p1", "p2"]}
    assert words.tell([event]) == ["p1, p2 see the pick of p3: left."]


ASKING = game_yaml(players=(2, 3), actions_per_turn_limit=1) + """
kinds:
  player:
    properties:
      flag: {type: bool, default: false}
      mark: {type: number, default: 0}
"""

ASKING_RULES = """
procedure setup():
    do:
        stop

procedure round():
    do:
        for each p in players:
            play_turn(p)

action point_at:
    with q: player where q != current_player
    do:
        set q.flag = true
        set current_player.mark += 1
        choose v from ["yes", "no"] by q prompt "Agree?"
"""


def test_the_header_names_the_player_asked_in_another_players_turn(tmp_path):
    rs = build(tmp_path, {"game.yaml": ASKING, "main.rules": ASKING_RULES})
    game = Game(rs, 2, 1)
    choose_action(game, "point_at", q="p2")
    assert game.pending.player == "p2"
    view = game.view("p2")
    lines, _ = Screens(rs, Words(rs)).main(view, view["events"], 0, 0)
    assert lines[0][0].endswith("round 1 · p1's turn · p2 to choose · you are p2"), lines[0]
    fr = Screens(rs, Words(rs, "fr"), "fr").main(view, view["events"], 0, 0)[0]
    assert fr[0][0].endswith("tour de p1 · à p2 de choisir · vous êtes p2"), fr[0]


def test_a_marked_line_stays_where_it_happened(tmp_path):
    rs = build(tmp_path, {"game.yaml": ASKING, "main.rules": ASKING_RULES})
    game = Game(rs, 2, 1)
    choose_action(game, "point_at", q="p2")
    view = game.view("p2")
    lines = [(t, style) for t, style in Screens(rs, Words(rs)).main(view, view["events"], 0, 0)[0]]
    texts = [t for t, _ in lines]
    cause, effect, after = "! p1: point at: p2.", "! p2: flag is now yes.", "p1: mark is now 1."
    assert (cause, "bold yellow") in lines and (effect, "bold yellow") in lines, texts
    assert texts.index(cause) < texts.index(effect) < texts.index(after), texts


CARDS = game_yaml(players=(2, 2)) + """
kinds:
  player: {}
  card:
    owner: holder
    properties:
      holder: player
      face: {type: text, default: plain, values: [plain, odd], visible_to: owner}
zones:
  hand: {per_player: true, ordered: false, visible_to: owner, holds: card}
components:
  - {name: card, kind: card, count: 2, per_player: true, zone: hand}
"""

CARDS_RULES = """
procedure setup():
    do:
        let odd = last(contents(hand(first(players))))
        set odd.face = "odd"

procedure round():
    do:
        for each p in players:
            choose c from contents(hand(p)) by p prompt "Which card?"
"""


def test_options_of_copies_are_told_apart_by_what_the_viewer_sees_of_them(tmp_path):
    rs = build(tmp_path, {"game.yaml": CARDS, "main.rules": CARDS_RULES})
    game = Game(rs, 2, 1)
    view = game.view("p1")
    lines = [t for t, _ in Screens(rs, Words(rs)).main(view, view["events"], 0, 0)[0]]
    assert " 1 card.p1.1" in lines and " 2 card.p1.2 (face odd)" in lines, lines
    game.choose(0)
    view = game.view("p2")
    lines = [t for t, _ in Screens(rs, Words(rs)).main(view, view["events"], 0, 0)[0]]
    # copies that show the same are left as they are
    assert " 1 card.p2.1" in lines and " 2 card.p2.2" in lines, lines


SEATED = game_yaml(players=(2, 2)) + """  seats:
    seat: [1, 2]
    hue: [red, blue]
kinds:
  player:
    properties:
      seat: {type: number}
      hue: {type: text}
"""


def test_the_pass_screen_names_a_seat_by_its_marks_not_by_its_number(tmp_path):
    from engine_rulesets import QUIET_SETUP_AND_ROUND

    rs = build(tmp_path, {"game.yaml": SEATED, "main.rules": QUIET_SETUP_AND_ROUND})
    game = Game(rs, 2, 1)
    buffer = io.StringIO()
    session = PlaySession(rs, game, {"p1": "human", "p2": "human"},
                          console=Console(file=buffer, width=80, color_system=None), read=lambda _: "")
    assert session.pass_screen("p2")
    assert "Pass the device to p2 (blue)." in buffer.getvalue(), buffer.getvalue()
