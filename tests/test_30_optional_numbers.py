"""A property or variable declared with '?' holds none as one of its values, whatever its
type: ``number?`` and ``bool?`` as ``text?`` always did (language.md, properties).

"No bid yet" is none until a player bids; without this, a number had to hold a stand-in
such as -1, which the play screens then told as a bid of -1."""

from __future__ import annotations

from engine_rulesets import QUIET_SETUP_AND_ROUND, build, emitted, game_yaml, load_errors, play_randomly
from scenario_runs import explain, run_one

from rulecraft.interpreter.game import Game
from rulecraft.validator.runner import PASS

GAME = game_yaml("bids", players=(2, 2), round_limit=2) + """
kinds:
  player:
    properties:
      bid: {type: "number?", default: null}
      ready: {type: "bool?"}
variables:
  game:
    highest: {type: "number?", default: null}
"""

RULES = QUIET_SETUP_AND_ROUND + """
action bid:
    with n: number in [1, 2, 3]
    require current_player.bid == none else "you have bid"
    do:
        set current_player.bid = n
        set current_player.ready = true
        if game.highest == none or n > game.highest:
            set game.highest = n
        emit q(name: "highest", value: game.highest)

action withdraw:
    require current_player.bid != none else "no bid to take back"
    do:
        set current_player.bid = none
        set current_player.ready = none
        emit q(name: "withdrawn", value: current_player.bid)
"""


def test_none_is_set_and_compared_on_a_number_or_bool_declared_with_a_question_mark(tmp_path):
    ruleset = build(tmp_path, {"game.yaml": GAME, "play.rules": RULES})
    game = Game(ruleset, 2, 1)
    assert game.state.entities["p1"]["props"]["bid"] is None
    options = [o for o in game.pending.options if o["action"] != "end_turn"]
    assert {o["action"] for o in options} == {"bid"}, "withdrawing needs a bid"
    game.choose_option({"action": "bid", "args": {"n": 2}})
    assert emitted(game)["highest"] == 2
    assert game.state.entities["p1"]["props"]["bid"] == 2
    play_randomly(game, 3)
    assert game.over


def test_without_the_question_mark_none_is_still_refused(tmp_path):
    strict = GAME.replace('"number?"', "number").replace('default: null}\n      ready', 'default: 0}\n      ready')
    errors = load_errors(tmp_path, {"game.yaml": strict, "play.rules": RULES})
    assert "bid is a number; cannot set it to none" in errors
    assert "comparing a number with none is always" in errors
    assert "ready is a bool" not in errors, "still declared bool?"


def test_a_scenario_expects_none_of_such_a_property(tmp_path):
    ruleset = build(tmp_path, {"game.yaml": GAME, "play.rules": RULES})
    result = run_one(ruleset, """
        scenarios:
          - title: a bid taken back is none again
            cite: "house rules: bidding"
            players: 2
            steps:
              - {do: bid, args: {n: 3}}
              - do: withdraw
              - expect:
                  props: {p1: {bid: null, ready: null}}
                  vars: {game: {highest: 3}}
        """, "s.yaml")
    assert result.status == PASS, explain(result)
