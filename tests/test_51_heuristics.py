"""Heuristics: how a position looks to a seat, declared in the rules language, read from
that seat's view alone, and the greedy bot and the search bot that play by them."""

from __future__ import annotations

import pytest
from engine_rulesets import build, game_yaml, load_errors, write_ruleset

from rulecraft.bots import make_bot, view_for
from rulecraft.bots.evaluation import Evaluation, cutoff_rewards
from rulecraft.bots.greedy import GreedyBot
from rulecraft.bots.idle_turns import count_idle_turns
from rulecraft.bots.mcts import MCTSBot
from rulecraft.interpreter.game import Game

DATA = game_yaml("scores", players=(2, 3), round_limit=3, actions_per_turn_limit=2) + """\
  sides:
    teams:
      - {name: bright, member: is_bright}
      - {name: plain, member: is_plain}
kinds:
  player:
    properties:
      score: {type: number, default: 0}
      colour: {type: text, default: plain}
      secret: {type: number, default: 0, visible_to: owner}
"""

RULES = """
procedure setup():
    do:
        for each p in players:
            set p.secret = 7

procedure round():
    do:
        for each p in players:
            play_turn(p)

function is_bright(p: player) -> bool:
    = p.colour != "plain"

function is_plain(p: player) -> bool:
    = p.colour == "plain"

action take:
    with n: number in [1, 2, 3]
    do:
        set current_player.score += n

action gift:
    with other: player where other != current_player
    do:
        set other.score += 1

action paint:
    require current_player.colour == "plain"
    do:
        choose c from ["red", "blue", "green"] by current_player prompt "Which colour?"
        set current_player.colour = c
"""

HEURISTICS = """
heuristic grow(me: player):
    text "Score more than the others."
    feature "own score" weight 2: me.score
    feature "the others' score" weight -1: sum([p.score for p in players where p != me])
    feature "own secret" weight 1: me.secret
    feature "the others' secrets" weight 1: sum([p.secret for p in players where p != me])
    feature "painted" weight 100: me.colour != "plain"
    prefer choice where choice == "blue" weight 5

heuristic shine(me: player) for bright:
    feature "painted" weight 100: me.colour != "plain"
"""


def ruleset(tmp_path, heuristics: str = HEURISTICS):
    return build(tmp_path, {"game.yaml": DATA, "play.rules": RULES, "judge.rules": heuristics})


def errors(tmp_path, heuristics: str) -> str:
    return load_errors(tmp_path, {"game.yaml": DATA, "play.rules": RULES, "judge.rules": heuristics})


# ---------------------------------------------------------------- the language


def test_a_heuristic_compiles_to_weighted_features_and_preferences(tmp_path):
    rs = ruleset(tmp_path)
    grow = rs.compiled.heuristics["grow"]
    assert (grow.seat, grow.side) == ("me", None)
    assert [label for label, _, _ in grow.features] == ["own score", "the others' score", "own secret", "the others' secrets", "painted"]
    assert [target for target, _, _ in grow.prefers] == ["choice"]
    assert rs.compiled.heuristics["shine"].side == "bright"


@pytest.mark.parametrize("text, message, where", [
    ("heuristic h(a: player, b: player):\n    feature \"x\" weight 1: 1\n",
     "heuristic 'h' must take exactly one player", "judge.rules:1:11"),
    ("heuristic h(me: player) for shiny:\n    feature \"x\" weight 1: 1\n",
     "heuristic 'h' is for side 'shiny', which game.sides does not declare", "judge.rules:1:29"),
    ("heuristic h(me: player):\n    feature \"x\" weight 1: me.colour\n",
     "feature 'x' must be a number or a bool, not a text", "judge.rules:2:27"),
    ("heuristic h(me: player):\n    feature \"x\" weight \"big\": 1\n",
     "a feature's weight must be a number, not a text", "judge.rules:2:24"),
    ("heuristic h(me: player):\n    feature \"x\" weight 1: 1\n    feature \"x\" weight 2: 2\n",
     "feature 'x' given twice in heuristic 'h'", "judge.rules:3:5"),
    ("heuristic h(me: player):\n    prefer tkae weight 1\n",
     "heuristic 'h' prefers unknown 'tkae'", "judge.rules:2:12"),
    ("heuristic h(me: player):\n    prefer take where n == 3\n",
     "a preference of heuristic 'h' needs a weight", "judge.rules:2:5"),
    ("heuristic h(me: player):\n    text \"nothing\"\n",
     "heuristic 'h' has no feature", "judge.rules:1:11"),
    ("script s(me: player):\n    prefer take weight 2\n",
     "a preference of script 's' takes no weight", "judge.rules:2:24"),
])
def test_a_wrong_heuristic_is_reported_where_it_is(tmp_path, text, message, where):
    report = errors(tmp_path, text)
    assert message in report
    assert where in report


def test_feature_and_weight_are_reserved_words(tmp_path):
    report = errors(tmp_path, "function weight() -> number:\n    = 1\n")
    assert "'weight' is a reserved word" in report


# ---------------------------------------------------------------- judging from a view


def test_a_heuristic_reads_the_seat_s_view_only(tmp_path):
    rs = ruleset(tmp_path)
    game = Game(rs, 2, seed=1)
    game.state.entities["p1"]["props"]["score"] = 4
    game.state.entities["p2"]["props"]["score"] = 1
    features = {label: (weight, value) for _, label, weight, value in Evaluation(rs).features(game.view("p1"))}
    assert features["own score"] == (2.0, 4.0)
    assert features["the others' score"] == (-1.0, 1.0)
    # p2's secret is 7 in the game, but only p1's own shows in p1's view: a feature
    # that reaches for a hidden value counts 0
    assert game.state.entities["p2"]["props"]["secret"] == 7
    assert features["own secret"] == (1.0, 7.0)
    assert features["the others' secrets"] == (1.0, 0.0)
    assert Evaluation(rs).value(game.view("p1")) == 2 * 4 - 1 + 7


def test_a_heuristic_for_a_side_judges_only_the_seats_on_it(tmp_path):
    rs = ruleset(tmp_path)
    game = Game(rs, 2, seed=1)
    game.state.entities["p2"]["props"]["colour"] = "red"
    evaluation = Evaluation(rs)
    assert [h.name for h in evaluation.judging(game.view("p1"))] == ["grow"]
    assert [h.name for h in evaluation.judging(game.view("p2"))] == ["grow", "shine"]


def test_preferences_weigh_the_options_they_name(tmp_path):
    rs = ruleset(tmp_path)
    game = Game(rs, 2, seed=1)
    paint = next(i for i, o in enumerate(game.pending.options) if o.get("action") == "paint")
    game.choose(paint)
    view = game.view(game.pending.player)
    assert view["choice"]["options"] == ["red", "blue", "green"]
    assert Evaluation(rs).liking(view) == [0.0, 5.0, 0.0]


# ---------------------------------------------------------------- the greedy bot


def play(rs, players: int, seed: int, bot: str = "greedy") -> Game:
    game = Game(rs, players, seed)
    bots = {p: make_bot(bot, seed * 10 + i) for i, p in enumerate(game.state.players)}
    while not game.over:
        player = game.pending.player
        game.choose(bots[player].choose(view_for(game, bots[player], player)))
    return game


def test_the_greedy_bot_plays_the_option_its_heuristics_rate_best(tmp_path):
    rs = ruleset(tmp_path)
    game = play(rs, 2, seed=3)
    taken = [(e["player"], e["action"], e.get("args")) for e in game.events if e["type"] == "action_taken"]
    # painting is worth 100, and the choice inside it is planned with the action: blue is liked
    assert all(game.state.entities[p]["props"]["colour"] == "blue" for p in ("p1", "p2"))
    # then it takes 3, never 1 or 2, and never gives a point away
    assert {a for _, a, _ in taken} == {"paint", "take"}
    assert all(args == {"n": 3} for _, a, args in taken if a == "take")


def test_the_greedy_bot_refuses_a_rule_set_without_heuristics(tmp_path):
    rs = build(tmp_path, {"game.yaml": DATA, "play.rules": RULES})
    problem = GreedyBot.rules_problem(rs)
    assert problem is not None and "declares no heuristic" in problem


def test_no_seat_ends_a_turn_before_acting_over_a_tie(tmp_path):
    # every option is worth the same to this heuristic: the turn is still played
    rs = ruleset(tmp_path, "heuristic flat(me: player):\n    feature \"nothing\" weight 1: 0\n")
    counted = count_idle_turns(rs, 3, range(4), ["greedy"])
    assert counted.turns == 4 * 3 * 3
    assert counted.idle == 0


def test_idle_turns_are_counted(tmp_path):
    rs = ruleset(tmp_path)

    class Idle:
        name = "idle"
        needs_events = False

        def choose(self, view):
            options = view["choice"]["options"]
            return options.index({"action": "end_turn"}) if {"action": "end_turn"} in options else 0

    from rulecraft.bots import REGISTRY
    REGISTRY["idle-for-test"] = lambda seed: Idle()
    try:
        counted = count_idle_turns(rs, 2, range(2), ["idle-for-test", "greedy"])
    finally:
        del REGISTRY["idle-for-test"]
    assert counted.turns == 2 * 3 * 2
    assert counted.idle == 2 * 3  # every turn of p1, none of p2
    assert counted.by_seat == {"p1": 6}
    assert counted.longest_run == 3


# ---------------------------------------------------------------- the search bot


def test_the_search_bot_judges_unfinished_playouts_by_the_heuristics(tmp_path):
    rs = ruleset(tmp_path)
    assert isinstance(MCTSBot._playout_cutoff(rs), Evaluation)
    plain = build(tmp_path, {"game.yaml": DATA, "play.rules": RULES}, name="plain")
    assert MCTSBot._playout_cutoff(plain) is None
    game = Game(rs, 3, seed=1)
    for p, score in (("p1", 5), ("p2", 1), ("p3", 3)):
        game.state.entities[p]["props"]["score"] = score
    rewards = cutoff_rewards(Evaluation(rs), game.state)
    assert rewards["p1"] == 1.0 and rewards["p2"] == 0.0
    assert 0.0 < rewards["p3"] < 1.0


# ---------------------------------------------------------------- mutation testing


def test_mutation_testing_leaves_heuristics_and_their_own_functions_alone(tmp_path):
    from rulecraft.validator.mutants import generate, mutant_files

    heuristics = HEURISTICS + """
function doubled(p: player) -> number:
    = 2 * p.score

heuristic twice(me: player):
    feature "doubled" weight 1: doubled(me) + count([p for p in players where is_plain(p)])
"""
    from pathlib import Path

    root = Path(ruleset(tmp_path, heuristics).root)
    mutants = generate(root, mutant_files(root))
    assert mutants and not [m for m in mutants if m.file == "judge.rules"]
    # a function the rules call keeps its mutants though a heuristic calls it too
    assert [m for m in mutants if m.definition == "is_plain"]


def test_a_feature_reading_a_variable_no_seat_sees_is_warned_at_its_place(tmp_path):
    """A variable visible to nobody reads as hidden in every view: a feature on it never
    moves the score, so check says so where the feature reads it."""
    from rulecraft.dsl.loader import load_ruleset

    data = DATA + """\
variables:
  game:
    tally: {type: number, default: 0, visible_to: nobody}
    shown: {type: number, default: 0}
"""
    judge = """
heuristic count_up(me: player):
    feature "tally" weight 1: game.tally + me.score
    feature "shown" weight 1: game.shown
"""
    folder = write_ruleset(tmp_path / "hidden", {"game.yaml": data, "play.rules": RULES, "judge.rules": judge})
    rs = load_ruleset(folder)
    warnings = [w for w in rs.bag.warnings if w.code == "unseen"]
    assert len(warnings) == 1
    assert "game.tally" in warnings[0].message and "'tally'" in warnings[0].message
    assert (warnings[0].position.line, warnings[0].position.column) == (2, 31)
