"""``game.payoff``: what each seat gets at the end of a game, declared by the rule set
(interpreter/payoffs.py), checked when the rules load and when a game ends."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from engine_rulesets import game_yaml, write_ruleset

from rulecraft.dsl.diagnostics import RuleSetError
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.payoffs import PayoffError, payoffs, returns

RULES = Path(__file__).resolve().parent.parent / "rules"

DATA = """
kinds:
  player:
    properties:
      ap: {type: number, default: 0}
      score: {type: number, default: 0}
"""

RULES_TEXT = """
procedure setup():
    do:
        for each p in players:
            set p.score = 0

procedure round():
    do:
        for each p in players:
            play_turn(p)

trigger refill:
    on turn_started
    do:
        set event.player.ap = 1

action work:
    cost 1 ap
    do:
        set current_player.score += 1

victory done:
    when any([p.score >= 2 for p in players])
    winners [p for p in players where p.score >= 2]

function points(p: player) -> number:
    = p.score * 10

function is_first(p: player) -> bool:
    = p == players[0]
"""


def folder(tmp_path, payoff: str):
    return write_ruleset(tmp_path / "race", {
        "game.yaml": game_yaml(name="race", players=(2, 2), round_limit=4) + payoff + DATA,
        "main.rules": RULES_TEXT,
    })


def finished(ruleset) -> Game:
    game = Game(ruleset, 2, 1)
    pick = random.Random(1)
    while not game.over:
        game.choose(pick.randrange(len(game.pending.options)))
    return game


def test_a_declared_payoff_is_each_seats_return(tmp_path):
    ruleset = load_checked(folder(tmp_path, "  payoff: {function: points, min: 0, max: 20}\n"))
    game = finished(ruleset)
    scores = {p: game.state.entities[p]["props"]["score"] for p in ("p1", "p2")}
    assert payoffs(ruleset, game.state) == returns(ruleset, game.state) == {p: 10.0 * s for p, s in scores.items()}


def test_without_a_payoff_the_winners_side_gets_one_and_the_others_minus_one(tmp_path):
    ruleset = load_checked(folder(tmp_path, ""))
    game = finished(ruleset)
    assert payoffs(ruleset, game.state) is None
    won = set(game.result["winners"])
    assert returns(ruleset, game.state) == {p: 1.0 if p in won else -1.0 for p in ("p1", "p2")}


def test_a_payoff_outside_its_declared_range_or_sum_stops_with_the_reason(tmp_path):
    narrow = load_checked(folder(tmp_path / "a", "  payoff: {function: points, min: 0, max: 5}\n"))
    with pytest.raises(PayoffError, match=r"points\(p\d\) gives \d+, outside the payoff range 0 to 5"):
        payoffs(narrow, finished(narrow).state)
    summed = load_checked(folder(tmp_path / "b", "  payoff: {function: points, min: 0, max: 20, sum: 0}\n"))
    with pytest.raises(PayoffError, match="the payoffs add up to [1-9]"):
        payoffs(summed, finished(summed).state)


@pytest.mark.parametrize("payoff, message", [
    ("{function: pints, min: 0, max: 20}", "game.payoff names unknown function 'pints'"),
    ("{function: is_first, min: 0, max: 20}", "game.payoff: 'is_first' must take one player and give a number"),
    ("{function: points, min: 20, max: 0}", "game.payoff: min is larger than max"),
])
def test_a_payoff_declared_wrong_is_an_error_in_game_yaml(tmp_path, payoff, message):
    with pytest.raises(RuleSetError) as err:
        load_checked(folder(tmp_path, f"  payoff: {payoff}\n"))
    text = err.value.bag.render()
    assert message in text and "game.yaml:" in text


def test_a_payoff_without_its_range_is_refused_by_the_schema(tmp_path):
    with pytest.raises(RuleSetError) as err:
        load_checked(folder(tmp_path, "  payoff: {function: points}\n"))
    assert "min" in err.value.bag.render()


def test_kuhn_pokers_payoff_is_the_chips_won():
    ruleset = load_checked(RULES / "kuhn_poker")
    for seed in range(6):
        game = Game(ruleset, 2, seed)
        pick = random.Random(seed)
        while not game.over:
            game.choose(pick.randrange(len(game.pending.options)))
        stakes = {p: game.state.entities[p]["props"]["stake"] for p in ("p1", "p2")}
        (winner,) = game.result["winners"]
        loser = "p2" if winner == "p1" else "p1"
        assert payoffs(ruleset, game.state) == {winner: float(stakes[loser]), loser: -float(stakes[loser])}


def test_simulate_reports_each_seats_payoffs(tmp_path, capsys):
    import json

    from rulecraft.cli.main import main

    out = tmp_path / "rows.json"
    assert main(["simulate", str(RULES / "kuhn_poker"), "--games", "40", "--seed", "3", "--quiet",
                 "--workers", "1", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    rows = json.loads(out.read_text())
    assert all(sorted(r["payoffs"].values()) in ([-1.0, 1.0], [-2.0, 2.0]) for r in rows)
    assert all(r["payoffs"][r["winners"][0]] > 0 for r in rows)
    mean = sum(r["payoffs"]["p1"] for r in rows) / len(rows)
    assert "Payoffs (game.payoff)" in printed and f"{mean:.3f}" in printed
    # a rule set that declares none: no payoffs, no table
    assert main(["simulate", str(RULES / "tic_tac_toe"), "--games", "4", "--quiet", "--workers", "1",
                 "--out", str(out)]) == 0
    assert "Payoffs" not in capsys.readouterr().out
    assert all(r["payoffs"] is None for r in json.loads(out.read_text()))


def test_a_seat_of_the_winning_side_the_victory_leaves_out_is_not_rewarded():
    """Only the seats the rules name as winners get +1: in Panic Station a player of the winning
    side who died (or was infected too late to share the infected's win) did not win, as
    simulate counts it, and a learner must not be rewarded as if it had."""
    from rulecraft.interpreter.sides import seats_on_winning_side

    ruleset = load_checked(RULES / "panic_station")
    for seed in range(40):
        game = Game(ruleset, 4, seed)
        pick = random.Random(seed)
        while game.state.result is None:
            game.choose(pick.randrange(len(game.pending.options)))
        winners = game.state.result["winners"]
        on_side = seats_on_winning_side(ruleset, game.state, winners)
        if winners and any(on_side[p] and p not in winners for p in on_side):
            break
    else:
        pytest.fail("no game in 40 where the victory leaves out a seat of the winning side")
    assert returns(ruleset, game.state) == {p: 1.0 if p in winners else -1.0 for p in game.state.players}
