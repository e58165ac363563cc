"""Options that name a thing a player cannot tell from its fellows by its id.

Breakthrough has no glossary: its pieces are copies of a component, `white_piece.9`,
whose number nothing on the board shows. Its options say each piece by its component's
word and the square it stands on (*advance: white piece on a2 → a3*), in the terminal,
in the browser's menu and in a decision told afterwards. Things the glossary names
(Panic Station's *Trooper p1*, Star Trek: Panic's threats, Stationfall's characters)
are said as before: their options must keep their length."""

from __future__ import annotations

import random
import re
from functools import lru_cache

import pytest
from panic_station import RULES

from rulecraft.choices import option_menu
from rulecraft.cli.play_screen import Screens
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game
from rulecraft.narration import Words

ROOT = RULES.parent


@lru_cache(maxsize=None)
def ruleset(name: str):
    return load_checked(str(ROOT / name))


def words_for(game: Game, seat: str, lang: str = "en") -> Words:
    words = Words(game.ruleset, lang)
    words.know_view(game.view(seat))
    return words


def test_each_breakthrough_option_says_the_square_its_piece_leaves():
    game = Game(ruleset("breakthrough"), 2, 1)
    words = words_for(game, "p1")
    at = {eid: e["at"] for eid, e in game.view("p1")["entities"].items()}
    labels = [words.option(o)["label"] for o in game.pending.options]
    for option, label in zip(game.pending.options, labels):
        args = option["args"]
        assert label == f"advance: white piece on {at[args['piece']]} → {args['target']}"
    # two moves to one square from two pieces read apart
    assert "advance: white piece on a2 → b3" in labels and "advance: white piece on b2 → b3" in labels
    assert len(set(labels)) == len(labels)


def test_french_says_the_square_in_its_own_words():
    game = Game(ruleset("breakthrough"), 2, 1)
    labels = [words_for(game, "p1", "fr").option(o)["label"] for o in game.pending.options]
    assert labels[0] == "advance\u00a0: white piece en a2 → a3"
    assert not any("white_piece" in label for label in labels)


def test_a_capture_names_the_piece_by_its_square():
    game = Game(ruleset("breakthrough"), 2, 1)
    rng = random.Random(3)
    while not any(o["action"] == "capture" for o in game.pending.options):
        game.choose(rng.randrange(len(game.pending.options)))
    seat = game.pending.player
    words = words_for(game, seat)
    entities = game.view(seat)["entities"]
    captures = [o for o in game.pending.options if o["action"] == "capture"]
    for option in captures:
        piece, target = option["args"]["piece"], option["args"]["target"]
        colour = "white" if seat == "p1" else "black"
        assert words.option(option)["label"] == f"capture: {colour} piece on {entities[piece]['at']} → {target}"


def test_the_terminal_screen_lists_the_squares():
    rs = ruleset("breakthrough")
    game = Game(rs, 2, 1)
    view = game.view("p1")
    screen = Screens(rs, Words(rs))
    lines, _ = screen.main(view, view["events"], 0, 0)
    text = "\n".join(t for t, _ in lines)
    assert re.search(r"^ 1 advance: white piece on a2 → a3 ", text, re.M), text
    assert "white_piece" not in text
    assert all(len(t) <= 80 for t, _ in lines) and len(lines) <= 23


def test_the_browser_menu_asks_for_a_piece_by_its_square():
    game = Game(ruleset("breakthrough"), 2, 1)
    [group] = option_menu(game.pending.options, words_for(game, "p1"))
    pieces = [item["label"] for item in group["items"]]
    assert pieces[:3] == ["white piece on a2", "white piece on b2", "white piece on c2"]
    assert [leaf["label"] for leaf in group["items"][0]["items"]] == ["a3", "b3"]


def test_a_decision_told_afterwards_names_the_square_the_piece_left():
    game = Game(ruleset("breakthrough"), 2, 1)
    seen = len(game.view("p2")["events"])
    option = next(o for o in game.pending.options if o["args"]["target"] == "a3"
                  and game.state.entities[o["args"]["piece"]]["at"] == "a2")
    game.choose(game.pending.options.index(option))
    words = words_for(game, "p2")
    told = [t for t in words.tell(game.view("p2")["events"][seen:]) if t]
    assert told[:2] == ["p1: advance: white piece on a2 → a3.", "White piece moves from a2 to a3."]


@pytest.mark.parametrize("name", ["tic_tac_toe", "connect_four", "hex"])
def test_games_whose_options_name_a_space_alone_read_as_before(name):
    game = Game(ruleset(name), 2, 1)
    label = words_for(game, "p1").option(game.pending.options[0])["label"]
    assert re.fullmatch(r"[a-z ]+: a1", label), label


@pytest.mark.parametrize("name,players", [("panic_station", 4), ("star_trek_panic", 1), ("stationfall", 3)])
def test_things_the_glossary_names_keep_their_names(name, players):
    """A guard, not a test of the new wording: no thing of these games is one that only
    its place tells apart, so no option of theirs is said that way."""
    rs = ruleset(name)
    game = Game(rs, players, 7)
    words = Words(rs)
    assert not [eid for eid in game.state.entities if words.alike(eid)]
    rng = random.Random(7)
    for _ in range(40):
        if game.over:
            break
        words.know_view(game.view(game.pending.player))
        labels = [words.option(o)["label"] for o in game.pending.options]
        assert not [label for label in labels if " on " in label], labels
        game.choose(rng.randrange(len(game.pending.options)))
