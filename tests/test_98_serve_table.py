"""What a served table shows around a choice: a tile to lay previewed on the board where
each option would lay it, placing options and the rooms of laid tiles in words."""

from __future__ import annotations

import random
import re

import pytest

from rulecraft.cli.common import shipped_rulesets
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game
from rulecraft.server.boards import board_picture
from rulecraft.server.words import Words

SPOT = {"x", "y", "rotation"}


@pytest.fixture(scope="module")
def laid_tiles():
    """A game of a rule set whose board is laid tile by tile, stopped at a placing choice."""
    rs = load_checked(str(shipped_rulesets()["panic_station"]))
    game = Game(rs, 4, 3)
    rng = random.Random(1)
    while game.pending is not None:
        options = game.pending.options
        if len(options) > 1 and all(isinstance(o, dict) and set(o) == SPOT for o in options):
            return rs, game
        game.choose(rng.randrange(len(options)))
    pytest.fail("no placing choice in the game")


def test_a_tile_to_lay_is_previewed_where_each_option_would_lay_it(laid_tiles):
    rs, game = laid_tiles
    view = game.view(game.pending.player)
    options = view["choice"]["options"]
    svg = board_picture(rs, view)
    cells = re.findall(r'class="spot" data-spot="(-?\d+),(-?\d+)" x="(-?\d+)" y="(-?\d+)"', svg)
    assert {(int(x), int(y)) for x, y, _, _ in cells} == {(o["x"], o["y"]) for o in options}
    ghosts = re.findall(r'<g class="ghost" data-option="(\d+)" visibility="hidden"[^>]*'
                        r'transform="rotate\((\d+) ', svg)
    assert [(int(i), int(r)) for i, r in ghosts] == [(i, o["rotation"]) for i, o in enumerate(options)]
    # a ghost is the tile on top of the pile, printed, its rooms not clickable
    ghost = svg[svg.index('<g class="ghost"'):]
    assert 'class="ghost-room"' in ghost and "data-room" not in ghost
    # the picture grows to take in every cell, laid or free
    left, top, width, height = map(int, re.search(r'viewBox="(-?\d+) (-?\d+) (\d+) (\d+)"', svg).groups())
    for _, _, x, y in cells:
        assert left <= int(x) and int(x) + 120 <= left + width and top <= int(y) and int(y) + 120 <= top + height
    # without a choice of where to lay a tile: no cell, no ghost, the laid tiles only
    plain = board_picture(rs, {**view, "choice": None})
    assert "data-spot" not in plain and "ghost" not in plain
    assert svg.startswith(plain[:plain.index("width=")]) and plain.count('class="room"') == svg.count('class="room"')


def test_placing_options_and_laid_rooms_in_words(laid_tiles):
    rs, game = laid_tiles
    english, french = Words(rs, "en"), Words(rs, "fr")
    assert english.option({"x": 1, "y": -2, "rotation": 90}) == {"label": "at (1, -2), turned 90°", "cost": None}
    assert english.option({"x": 0, "y": 1, "rotation": 0})["label"] == "at (0, 1)"
    assert french.option({"x": 1, "y": -2, "rotation": 90})["label"] == "en (1, -2), tournée de 90°"
    # a room of a laid tile is named by its room type's word, not its id
    room = next(z for z in game.view("p1")["zones"] if "/" in z)
    assert english.name(room) != room and "/" not in english.name(room)
    assert english.event({"type": "moved", "entity": "x", "source": None, "destination": room}).endswith(
        f"to {english.name(room)}.")
    assert "/" not in french.name(room)


def test_what_a_view_hides_is_said_to_be_hidden(laid_tiles):
    rs, _ = laid_tiles
    english, french = Words(rs, "en"), Words(rs, "fr")
    played = {"type": "action_taken", "player": "p1", "action": "play_item", "args": {"card": "?"}}
    assert english.event(played).endswith(": a hidden item.") and "?" not in english.event(played)
    assert french.event(played).endswith(": un élément caché.")
