"""Beliefs: what a seat takes hidden properties to be, declared in a heuristic
(``believe p.prop = value for p: kind where cond [odds n]``), read from the seat's view
and memory, and used by the search bot to deal the states it samples."""

from __future__ import annotations

import random

import pytest
import panic_station
from engine_rulesets import build, choose_action, game_yaml, load_errors

from rulecraft.bots import make_bot, view_for
from rulecraft.bots.determinize import Tracker, deal_values, determinize
from rulecraft.bots.evaluation import Evaluation
from rulecraft.bots.mcts import MCTSBot, parse_spec
from rulecraft.dsl.compiler import Compiler
from rulecraft.dsl.loader import load_ruleset
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.state import seat_players

DATA = game_yaml("marks", players=(3, 3), round_limit=4, actions_per_turn_limit=1) + """\
kinds:
  player:
    properties:
      marked: {type: bool, default: false, visible_to: owner}
      pokes: {type: number, default: 0}
"""

# Only the marked player may poke: a poke proves the poker marked to whoever saw it.
RULES = """
procedure setup():
    do:
        let p = first(players)
        set p.marked = true

procedure round():
    do:
        for each p in players:
            play_turn(p)

action poke:
    with target: player where target != current_player
    require current_player.marked
    do:
        set target.pokes += 1

action wait:
    do:
        set current_player.pokes += 0
"""

HEURISTICS = """
function poked(p: player, me: player) -> bool:
    = count([e for e in seen("action_taken") where e.player == p and e.action == "poke" and e.args.target == me]) > 0

heuristic watch(me: player):
    feature "pokes" weight -1: me.pokes
    believe p.marked = true for p: player where poked(p, me)
    believe p.marked = false for p: player where p.pokes > 0 and p != me odds 2
"""


def ruleset(tmp_path, heuristics: str = HEURISTICS):
    return build(tmp_path, {"game.yaml": DATA, "play.rules": RULES, "judge.rules": heuristics})


def errors(tmp_path, heuristics: str) -> str:
    return load_errors(tmp_path, {"game.yaml": DATA, "play.rules": RULES, "judge.rules": heuristics})


# ---------------------------------------------------------------- the language


def test_a_belief_compiles_with_its_kind_property_and_odds(tmp_path):
    watch = ruleset(tmp_path).compiled.heuristics["watch"]
    assert [(var, kind, prop, odds is None) for var, kind, prop, _, _, odds in watch.beliefs] == \
        [("p", "player", "marked", True), ("p", "player", "marked", False)]


@pytest.mark.parametrize("line, message, where", [
    ("believe p.marked = 3 for p: player", "a belief about 'marked' must be a bool, not a number", "judge.rules:2:24"),
    ("believe p.painted = true for p: player", "kind 'player' has no property 'painted'", "judge.rules:2:15"),
    ("believe q.marked = true for p: player", "a belief about 'q.marked' binds 'p', not 'q'", "judge.rules:2:33"),
    ("believe p.marked = true for p: player where p.pokes", "a 'where' condition must be a bool, not a number",
     "judge.rules:2:49"),
    ("believe p.marked = true for p: player odds \"high\"", "a belief's odds must be a number, not a text",
     "judge.rules:2:48"),
])
def test_a_wrong_belief_is_reported_where_it_is(tmp_path, line, message, where):
    report = errors(tmp_path, f"heuristic h(me: player):\n    {line}\n    feature \"x\" weight 1: 1\n")
    assert message in report
    assert where in report


def test_believe_and_odds_are_reserved_words(tmp_path):
    assert "'odds' is a reserved word" in errors(tmp_path, "function odds() -> number:\n    = 1\n")


# ---------------------------------------------------------------- reading beliefs


def poked_game(tmp_path):
    """p1 (marked) pokes p2; p3 sees the poke too, but was not poked."""
    rs = ruleset(tmp_path)
    game = Game(rs, 3, seed=4)
    assert game.pending.player == "p1"
    choose_action(game, "poke", target="p2")
    return rs, game


def test_a_seat_believes_what_its_memory_proves_and_no_more(tmp_path):
    rs, game = poked_game(tmp_path)
    evaluation = Evaluation(rs)
    seen = {}
    for seat in ("p2", "p3"):
        view = game.view(seat)
        evaluation.remember(seat, view["events"])
        seen[seat] = evaluation.beliefs(view)
    # p2 was poked: sure p1 is marked (read through the event's action arguments); the
    # poked p2 is, with odds, believed unmarked by p3 only (p2 sees its own mark)
    assert seen["p2"] == {("p1", "marked"): [(True, None)]}
    assert seen["p3"] == {("p2", "marked"): [(False, 2.0)]}


def test_closures_read_a_record_s_field_as_the_generated_code_does(tmp_path):
    """``e.args.target`` (a record inside an event) is read by the closure compiler too,
    the fallback when code cannot be generated."""
    rs, game = poked_game(tmp_path)
    closures = load_ruleset(rs.root)
    closures.compiled = Compiler(closures, generate=False).compile()
    view = game.view("p2")
    seen = []
    for ruleset in (rs, closures):
        evaluation = Evaluation(ruleset)
        evaluation.remember("p2", view["events"])
        seen.append(evaluation.beliefs(view))
    assert seen[0] == seen[1] == {("p1", "marked"): [(True, None)]}


def test_a_seat_without_memory_believes_only_what_the_table_shows(tmp_path):
    rs, game = poked_game(tmp_path)
    assert Evaluation(rs).beliefs(game.view("p2")) == {}  # nothing remembered: the poke is unknown


# ---------------------------------------------------------------- dealing by beliefs


def test_a_sure_belief_is_dealt_its_value():
    rng = random.Random(1)
    beliefs = {("b", "x"): [(True, None)]}
    for _ in range(50):
        pool = [True, False, False]
        rng.shuffle(pool)
        dealt = deal_values(["a", "b", "c"], "x", pool, beliefs, rng)
        assert dealt[1] is True and sorted(dealt) == [False, False, True]


def test_a_sure_belief_the_pool_cannot_meet_is_met_anyway():
    dealt = deal_values(["a", "b"], "x", [False, False], {("a", "x"): [(True, None)]}, random.Random(2))
    assert dealt[0] is True and len(dealt) == 2


def test_odds_weigh_the_deal_as_conditioning_on_the_evidence_gives():
    # one true among four, odds 3 on "a": a is dealt true with chance 3 / (3 + 3) = 0.5
    rng = random.Random(3)
    beliefs = {("a", "x"): [(True, 3.0)]}
    trials = 4000
    hits = 0
    for _ in range(trials):
        pool = [True, False, False, False]
        rng.shuffle(pool)
        hits += deal_values(["a", "b", "c", "d"], "x", pool, beliefs, rng)[0] is True
    assert abs(hits / trials - 0.5) < 0.03


def test_without_a_belief_about_the_property_the_deal_is_the_shuffle():
    pool = [3, 1, 2]
    assert deal_values(["a", "b", "c"], "x", pool, {("a", "y"): [(9, None)]}, random.Random(4)) == pool


def test_the_search_bot_s_samples_follow_the_seat_s_beliefs(tmp_path):
    rs, game = poked_game(tmp_path)
    evaluation = Evaluation(rs)
    view = game.view("p2")
    evaluation.remember("p2", view["events"])
    beliefs = evaluation.beliefs(view)
    # play on to p2's turn, as the tracker needs the seat's own choice to follow to
    assert game.pending.player == "p2"
    view = game.view("p2")
    rng = random.Random(5)
    tracker = Tracker(rs, 3, "p2", rng)
    assert tracker.follow(view)
    believed = [determinize(tracker, view, rng, beliefs=beliefs).entities["p1"]["props"]["marked"] for _ in range(40)]
    uniform = [determinize(tracker, view, rng).entities["p1"]["props"]["marked"] for _ in range(40)]
    assert all(believed)
    assert 0 < sum(uniform) < 40  # dealt uniformly, the mark goes to p1 or p3


def test_the_search_bot_reads_beliefs_unless_told_to_deal_uniformly(tmp_path):
    rs, game = poked_game(tmp_path)
    assert parse_spec("8:uniform") == {"iterations": 8, "uniform": True}
    believing, uniform = MCTSBot(1, iterations=4), MCTSBot(1, iterations=4, uniform=True)
    for bot in (believing, uniform):
        bot.choose(view_for(game, bot, "p2"))
    assert believing._beliefs(game.view("p2")) == {("p1", "marked"): [(True, None)]}
    assert uniform._beliefs(game.view("p2")) is None


# ---------------------------------------------------------------- a shipped rule set


def test_panic_station_s_sure_beliefs_are_never_wrong():
    """What a Panic Station seat is sure of (known_infected: it was infected by the player,
    handed their own infection card, or shown the Host in their hand) is what the game
    holds, in every reading of ten games played by the heuristic bots."""
    rs = panic_station.ruleset()
    evaluation = Evaluation(rs)
    sure = 0
    for seed in range(10):
        game = Game(rs, 5, seed)
        seats = {p: make_bot("heuristic", seed * 31 + i) for i, p in enumerate(seat_players(5))}
        decision = 0
        while not game.over:
            if decision % 40 == 0:
                for seat in game.state.players:
                    view = game.view(seat)
                    evaluation.forget()
                    evaluation.remember(seat, view["events"])
                    for (eid, name), held in evaluation.beliefs(view).items():
                        for value, odds in held:
                            if odds is None:
                                sure += 1
                                assert game.state.entities[eid]["props"][name] == value, (seed, decision, seat, eid)
            player = game.pending.player
            game.choose(seats[player].choose(view_for(game, seats[player], player)))
            decision += 1
    assert sure > 0
