"""combinations(list, n): every way to pick n items of a list, so that an action can
offer a team (a hidden-role game's proposal) as one choice."""

from __future__ import annotations

import pytest

from engine_rulesets import build, choose_action, game_yaml

from rulecraft.docgen.prose import Prose
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.library import FUNCTIONS
from rulecraft.interpreter.machine import RuleRuntimeError

DATA = """
kinds:
  player:
    properties:
      on_team: {type: bool, default: false}
"""

RULES = """
procedure setup():
    do:
        stop

procedure round():
    do:
        play_turn(players[0])

action propose:
    with team: list of player in combinations(players, SIZE) where current_player in team
    do:
        for each p in team:
            set p.on_team = true
        end_turn()
"""


def _ruleset(tmp_path, size="2"):
    return build(tmp_path, {"game.yaml": game_yaml(players=(3, 5), round_limit=1) + DATA,
                            "main.rules": RULES.replace("SIZE", size)})


def test_every_way_to_pick_n_in_order():
    combinations = FUNCTIONS["combinations"]
    assert combinations(None, ["a", "b", "c"], 2) == [["a", "b"], ["a", "c"], ["b", "c"]]
    assert combinations(None, ["a", "b"], 0) == [[]]
    assert combinations(None, ["a", "b"], 3) == []


def test_an_action_offers_each_team_and_plays_the_one_chosen(tmp_path):
    game = Game(_ruleset(tmp_path), 4, 1)
    teams = [o["args"]["team"] for o in game.pending.options if o.get("action") == "propose"]
    assert teams == [["p1", "p2"], ["p1", "p3"], ["p1", "p4"]]  # those with the proposer
    choose_action(game, "propose", team=["p1", "p3"])
    assert [p for p in ("p1", "p2", "p3", "p4") if game.state.entities[p]["props"]["on_team"]] == ["p1", "p3"]


def test_a_size_that_is_no_whole_number_stops_the_game_with_the_reason(tmp_path):
    with pytest.raises(RuleRuntimeError, match="combinations"):
        Game(_ruleset(tmp_path, size="-1"), 3, 1).pending  # noqa: B018 - the options are listed at once


def test_the_rules_site_says_it(tmp_path):
    rs = _ruleset(tmp_path)
    told = Prose(rs, "en").definition("propose")
    assert "Choose the team among every way to pick 2 of the players, such that" in told
