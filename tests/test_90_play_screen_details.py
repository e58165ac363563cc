"""`rulecraft play`: what a player's screen says of their own things, of a thing shown
or hidden again, and of an option's plain values.

A tiny dice game: each player holds two dice in a cup only they see and one token dealt
in the setup; a die keeps its face, and one that shows its default face (1) was never
changed, so no event ever told it."""

from __future__ import annotations

import pytest
from engine_rulesets import choose_action, game_yaml, write_ruleset
from test_90_play import assert_fits, assert_sentences, screens  # noqa: F401  (a fixture)

from rulecraft.cli.play_screen import Screens
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game
from rulecraft.narration import Words

CUPS = {
    "game.yaml": game_yaml(name="cups", players=(2, 3), actions_per_turn_limit=1) + """
kinds:
  player: {}
  die:
    owner: owner
    properties:
      owner: player
      face: {type: number, default: 1, values: [1, 2, 3, 4, 5, 6]}
      lucky: {type: bool, default: false}
  token: {}
zones:
  cup: {per_player: true, ordered: false, visible_to: owner, holds: die}
  pool: {visible_to: nobody, holds: token}
  purse: {per_player: true, visible_to: owner, holds: token}
components:
  - {name: die, kind: die, count: 2, per_player: true, zone: cup}
  - {name: token, kind: token, count: 4, zone: pool}
""",
    "play.rules": """
procedure setup():
    do:
        for each p in players:
            move top(pool) to purse(p)
            let d = first(contents(cup(p)))
            set d.face = 6
            set d.lucky = true

procedure round():
    do:
        for each p in players:
            play_turn(p)

action peek:
    with who: player where who != current_player
    with n: number in numbers(1, 2)
    do:
        reveal first(contents(cup(who))) to current_player

action show_to:
    with who: player where who != current_player
    do:
        reveal first(contents(cup(current_player))) to who

action show_all:
    do:
        for each d in contents(cup(current_player)):
            reveal d

action cover:
    do:
        for each q in players:
            for each d in contents(cup(q)):
                hide d
""",
    "glossary/en.yaml": """
language: en
properties:
  die.face: {one: pip, many: pips}
  die.lucky: lucky
names:
  n: guess
""",
    "glossary/fr.yaml": """
language: fr
properties:
  die.face: {one: point, many: points}
  die.lucky: chanceux
names:
  n: pari
""",
}


def build(folder, files: dict[str, str]):
    """The rule set of ``files``, written into ``folder`` (a glossary in its own folder)."""
    (folder / "glossary").mkdir(parents=True, exist_ok=True)
    return load_checked(write_ruleset(folder, files))


@pytest.fixture
def cups(tmp_path):
    return build(tmp_path / "cups", CUPS)


def test_the_players_own_things_show_what_their_properties_say(cups):
    """F3: a cup lists each die with its face, the die at its default face too (no event
    ever told it), a yes/no only where it differs from the default, and not its owner."""
    game = Game(cups, 2, 1)
    view = game.view("p1")
    screen = Screens(cups, Words(cups))
    text = [t for t, _ in screen.main(view, view["events"], 0, 0)[0]]
    assert "Cup (2): die.p1.1 (6 pips, lucky), die.p1.2 (1 pip)" in text, text
    assert "Purse (1): token.1" in text
    fr = Screens(cups, Words(cups, "fr"), "fr")
    assert "Cup (2)\u00a0: die.p1.1 (6 points, chanceux), die.p1.2 (1 point)" in [  # the French colon
        t for t, _ in fr.main(view, view["events"], 0, 0)[0]]


def test_a_long_cup_breaks_between_dice_and_falls_back_to_names_when_it_cannot_fit(cups):
    game = Game(cups, 2, 1)
    view = game.view("p1")
    screen = Screens(cups, Words(cups), width=40)
    screen.words.know_view(view)
    lines = screen._me(view)
    # a die and its face stay on one line
    assert lines[:2] == ["Cup (2): die.p1.1 (6 pips, lucky),", "  die.p1.2 (1 pip)"], lines
    narrow = Screens(cups, Words(cups), width=24)
    narrow.words.know_view(view)
    assert narrow._me(view)[:2] == ["Cup (2): die.p1.1,", "  die.p1.2"]


def test_the_table_shows_the_faces_of_dice_shown_to_everyone(cups):
    game = Game(cups, 2, 1)
    choose_action(game, "show_all")
    view = game.view("p2")
    table = " ".join(Screens(cups, Words(cups)).table(view)).replace("   ", " ")
    assert "p1: cup 2 face down, shown: die.p1.1 (6 pips, lucky), die.p1.2 (1 pip) · purse 1 face down" in table, table


def test_the_opening_deal_of_the_players_own_token_is_not_marked(cups):
    """F11b: the `!` mark is for what concerns the player in another player's turn; the
    setup is nobody's turn, and the token it deals them shows in their purse anyway."""
    game = Game(cups, 3, 1)
    view = game.view("p2")
    screen = Screens(cups, Words(cups))
    screen.words.know_view(view)
    for_you, other = screen.news(view["events"], 0, view)
    assert for_you == [], for_you
    # an id as the rules write it keeps its case at the start of a sentence
    assert any(line.startswith("token.") and line.endswith("moves from pool to p2's purse.") for line in other), other


def test_a_thing_shown_to_everyone_or_hidden_again_is_not_marked_but_one_shown_privately_is(cups):
    """F10: a thing shown to every player or hidden again singles nobody out; a die
    shown to the player alone, or theirs shown to another, concerns them."""
    game = Game(cups, 3, 1)
    view = game.view("p2")
    screen = Screens(cups, Words(cups))
    screen.words.know_view(view)
    events = [{"type": "turn_started", "player": "p1"},
              {"type": "revealed", "entity": "die.p1.1", "property": None, "players": ["p1", "p2", "p3"]},
              {"type": "revealed", "entity": "die.p2.1", "property": None, "players": ["p1", "p2", "p3"]},
              {"type": "hidden", "entity": "die.p3.1", "property": None, "players": ["p1", "p2", "p3"]},
              {"type": "hidden", "entity": "die.p2.1", "property": None, "players": ["p1", "p2", "p3"]},
              {"type": "revealed", "entity": "die.p1.2", "property": None, "players": ["p2"]},
              {"type": "revealed", "entity": "die.p2.2", "property": "face", "players": ["p1"]},
              {"type": "revealed", "entity": "die.p3.2", "property": None, "players": ["p1"]},
              {"type": "turn_ended", "player": "p1"}]
    for_you, other = screen.news(events, 0, view)
    # p2 sees their own die's pip: what p1 was shown of it is said
    assert for_you == ["! p2 sees die.p1.2.", "! p1 sees the pip of die.p2.2: 1."], for_you
    # shown to (or hidden from) every player of the game: everyone, not the list of all the seats
    assert "die.p3.1 is hidden again from everyone." in other  # an id keeps its case, in view or not
    assert "Everyone sees die.p2.1." in other
    # the existing mark still stands: a player's own property changed in another's turn
    assert screen.news([events[0], {"type": "changed", "entity": "p2", "property": "x", "value": 1}], 0, view)[0]


@pytest.mark.parametrize("lang, one, several, prop", [
    ("en", "p1 sees die.p2.1.", "p1, p2 see die.p2.1.", "p1 sees the pip of die.p2.1."),
    ("fr", "p1 voit die.p2.1.", "p1, p2 voient die.p2.1.", "p1 voit le point de die.p2.1."),
])
def test_one_player_sees_several_see(cups, lang, one, several, prop):
    """F11a: the verb agrees with the players who see the thing."""
    words = Words(cups, lang)
    words.know_entities({"die.p2.1": {"kind": "die", "at": None, "props": {}}, "p1": {"kind": "player"},
                         "p2": {"kind": "player"}})
    reveal = {"type": "revealed", "entity": "die.p2.1", "property": None, "players": ["p1"]}
    assert words.event(reveal) == one
    assert words.event({**reveal, "players": ["p1", "p2"]}) == several
    assert words.event({**reveal, "property": "face"}) == prop


def test_a_thing_shown_to_a_player_is_said_where_it_is_while_that_is_sure(cups):
    """F11a: the place the view shows the thing in, unless the stream moved it (or hid it
    again) since the showing."""
    game = Game(cups, 2, 1)
    choose_action(game, "peek", who="p2", n=2)
    view = game.view("p1")
    screen = Screens(cups, Words(cups))
    lines = [t for t, _ in screen.main(view, view["events"], 0, 0)[0]]
    assert "p1 sees die.p2.1 in p2's cup." in lines, lines
    history = screen.history(game.events_for("p1"), 1)
    assert "p1 sees die.p2.1 in p2's cup." in history
    words = screen.words
    moved = {"type": "moved", "entity": "die.p2.1", "source": "cup:p2", "destination": "cup:p1"}
    reveal = {"type": "revealed", "entity": "die.p2.1", "property": None, "players": ["p1"]}
    assert words.tell([reveal, moved])[0] == "p1 sees die.p2.1."  # where it was is not where it is
    assert words.tell([moved, reveal])[1] == "p1 sees die.p2.1 in p2's cup."
    hidden = {"type": "hidden", "entity": "die.p2.1", "property": None, "players": ["p1"]}
    assert words.tell([reveal, hidden])[0] == "p1 sees die.p2.1."


def test_options_name_their_plain_values(cups, tmp_path):
    """F11c: a number in an option says what it is, by the glossary's word for the
    parameter ("guess 2"); a player or a thing is named by itself."""
    words = Words(cups)
    game = Game(cups, 2, 1)
    words.know_view(game.view("p1"))
    assert words.option({"action": "peek", "args": {"who": "p2", "n": 2}})["label"] == "peek: p2, guess 2"
    assert words.option({"action": "show_to", "args": {"who": "p2"}})["label"] == "show to: p2"
    assert words.event({"type": "action_taken", "player": "p1", "action": "peek",
                        "args": {"who": "p2", "n": 1}}) == "p1: peek: p2, guess 1."
    fr = Words(cups, "fr")
    assert fr.option({"action": "peek", "args": {"who": "p2", "n": 2}})["label"] == "peek\u00a0: p2, pari 2"
    # without a glossary: the parameter's own name
    bare = build(tmp_path / "bare", {k: v for k, v in CUPS.items() if not k.startswith("glossary")})
    assert Words(bare).option({"action": "peek", "args": {"who": "p2", "n": 2}})["label"] == "peek: p2, n 2"


def test_playing_the_dice_game_fits_and_shows_the_cup(screens, cups):  # noqa: F811
    code, shown = screens(cups.root, ["", "1", "", "t", "h", "q"], "--players", 2, "--seed", 1)
    assert code == 0
    assert_fits(shown)
    assert_sentences(shown)
    assert any("Cup (2): die.p1.1 (6 pips, lucky), die.p1.2 (1 pip)" in s for s in shown), shown
    assert any(" 1 peek: p2, guess 1" in s for s in shown)
