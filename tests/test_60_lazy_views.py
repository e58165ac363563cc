"""Lazy player views: what a bot reads from one is exactly what player_view gives,
hidden information included, whichever way it reads it, and a kept view keeps its moment."""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest
from engine_rulesets import build, choose_action, game_yaml
from test_60_hidden_info import DATA, RULES

from rulecraft.interpreter.game import Game
from rulecraft.interpreter.views import lazy_player_view, player_view


@pytest.fixture
def game(tmp_path):
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 3)) + DATA, "main.rules": RULES})
    return Game(rs, 2, 1)


READINGS = {
    "equality": lambda v: v,
    "reflected equality": lambda v: {"v": v},
    "json": lambda v: json.dumps(v),
    "dict()": lambda v: list(dict(v).items()),
    "unpacking": lambda v: list({**v}.items()),
    "items": lambda v: list(v.items()),
    "values": lambda v: list(v.values()),
    "iteration": lambda v: [(k, v[k]) for k in v],
    "zones": lambda v: v["zones"],
    "entities via get": lambda v: v.get("entities"),
    "tiles and variables": lambda v: (v["tiles"], v.get("vars")),
    "copy": lambda v: list(v.copy().items()),
    "deepcopy": lambda v: list(copy.deepcopy(v).items()),
    "pickle": lambda v: list(pickle.loads(pickle.dumps(v)).items()),
    "repr": lambda v: repr(v),
}


@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("viewer", ["p1", "p2"])
def test_every_reading_of_a_lazy_view_matches_the_full_view(game, reading, viewer):
    read = READINGS[reading]
    full = player_view(game.ruleset, game.state, viewer)
    assert read(lazy_player_view(game.ruleset, game.state, viewer)) == read(full)


def test_a_lazy_view_hides_what_the_full_view_hides(game):
    view = lazy_player_view(game.ruleset, game.state, "p2")
    assert view["zones"]["hand:p1"] == {"count": 1}
    assert "a" not in view["entities"]
    assert "secret" not in view["entities"]["p1"]["props"]
    assert "fate" not in view["entities"]["p2"]["props"]


def test_the_options_are_read_without_building_the_table(game):
    view = lazy_player_view(game.ruleset, game.state, game.pending.player)
    assert view["choice"]["options"] == game.pending.options
    assert "zones" in view and len(view) == len(player_view(game.ruleset, game.state, "p1"))
    assert view._build is not None  # the costly parts were never needed


def test_a_settled_view_that_was_kept_shows_its_moment(game):
    before = player_view(game.ruleset, game.state, "p1")
    kept = []
    view = lazy_player_view(game.ruleset, game.state, "p1")
    kept.append(view)
    view.settle()
    del view
    choose_action(game, "reveal", card="a")
    assert kept[0] == before
    assert kept[0] != player_view(game.ruleset, game.state, "p1")


def test_events_seen_so_far_are_the_same_whether_asked_often_or_once(tmp_path):
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 3)) + DATA, "main.rules": RULES})
    often, once = Game(rs, 2, 1), Game(rs, 2, 1)
    picks = random.Random(4)
    for _ in range(8):
        if often.over:
            break
        index = picks.randrange(len(often.pending.options))
        often.choose(index)
        once.choose(index)
        often.view("p1"), often.view("p2")
    assert often.view("p1")["events"] == once.view("p1")["events"]
    assert often.view("p2")["events"] == once.view("p2")["events"]
    assert any(e["type"] == "moved" for e in often.view("p2")["events"])


def test_changing_the_events_of_a_view_changes_no_later_view(game):
    choose_action(game, "reveal", card="a")
    first = game.view("p2")["events"]
    first[-1]["type"] = "tampered"
    first.append({"type": "extra"})
    again = game.view("p2")["events"]
    assert "tampered" not in [e["type"] for e in again] and again[-1]["type"] != "extra"
