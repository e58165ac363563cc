"""The search bot's ``loyal`` setting: each seat is rewarded by the side it was on when
the search started, so a seat chosen to play for a side does not gain by changing sides.
Uses the test rule set in which a player may defect and the defectors then win alone."""

from __future__ import annotations

import pytest
from test_90_simulate_sides import TEAMS, ruleset_folder
from test_92_bot_for_side import TEAM_SIDES

from rulecraft.bots import make_bot
from rulecraft.bots.mcts import loyal_rewards, parse_spec
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game


@pytest.fixture(scope="module")
def teams(tmp_path_factory):
    return load_checked(ruleset_folder(tmp_path_factory.mktemp("teams"), TEAM_SIDES, TEAMS))


def first_choice(ruleset, spec: str, seed: int) -> str:
    game = Game(ruleset, 2, seed)
    view = game.view(game.pending.player)
    bot = make_bot(spec, seed)
    bot.learn_rules(ruleset)
    return view["choice"]["options"][bot.choose(view)].get("action")


def test_a_loyal_seat_does_not_defect_where_a_plain_search_does(teams):
    # Defecting wins the game alone, so the plain search defects at once in most games;
    # played for the side it starts on, a defection is a loss.
    plain = [first_choice(teams, "mcts:64", seed) for seed in range(6)]
    loyal = [first_choice(teams, "mcts:64:loyal", seed) for seed in range(6)]
    assert plain.count("defect") >= 4
    assert "defect" not in loyal


def test_loyal_rewards_follow_the_side_at_the_root(teams):
    state = Game(teams, 3, 0).state
    root = {"p1": ["loyalists"], "p2": ["loyalists"], "p3": ["loyalists"]}
    state.entities["p3"]["props"]["turncoat"] = True  # p3 defected in the playout
    # The defectors won: p3 has won by the rules, but lost the side it started on.
    finished = {"p1": 0.0, "p2": 0.0, "p3": 1.0}
    assert loyal_rewards(teams, state, finished, root) == {"p1": 0.0, "p2": 0.0, "p3": 0.0}
    # A cut-off playout: each seat gets the average of those still on its first side.
    standing = {"p1": 1.0, "p2": 0.5, "p3": 0.2}
    assert loyal_rewards(teams, state, standing, root) == pytest.approx({"p1": 0.75, "p2": 0.75, "p3": 0.75})
    # Nobody left on a seat's first side: nothing for it.
    started_defector = dict(root, p1=["defectors"])
    state.entities["p3"]["props"]["turncoat"] = False
    assert loyal_rewards(teams, state, standing, started_defector)["p1"] == 0.0


def test_the_spec_reads_loyal():
    assert parse_spec("32:loyal:team") == {"iterations": 32, "loyal": True, "team": True}
    assert make_bot("mcts:8:loyal", 0).loyal and not make_bot("mcts:8", 0).loyal
    with pytest.raises(ValueError, match="sets loyal a second time"):
        parse_spec("8:loyal:loyal")
