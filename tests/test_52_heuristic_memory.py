"""What a seat remembers: heuristics read the events their seat saw (``seen``), never
another seat's, and rules that run the game cannot read them at all."""

from __future__ import annotations

import pytest
from engine_rulesets import build, choose_action, game_yaml, load_errors

from rulecraft.bots import make_bot, view_for
from rulecraft.bots.evaluation import Evaluation
from rulecraft.interpreter.game import Game

DATA = game_yaml("gifts", players=(3, 3), round_limit=3, actions_per_turn_limit=1) + """\
kinds:
  player:
    properties:
      score: {type: number, default: 0}
"""

RULES = """
procedure setup():
    do:
        for each p in players:
            set p.score = 0

procedure round():
    do:
        for each p in players:
            play_turn(p)

action gift:
    with other: player where other != current_player
    do:
        set other.score += 1
        emit gifted(giver: current_player, receiver: other) to other
"""

HEURISTICS = """
function gifts_from(p: player, me: player) -> number:
    = count([e for e in seen("gifted") where e.giver == p and e.receiver == me])

heuristic grateful(me: player):
    feature "gifts remembered" weight 1: count(seen("gifted"))
    feature "gifts the first player gave me" weight 1: gifts_from(first(players), me)
    prefer gift where gifts_from(other, me) > 0 weight 10
"""


def ruleset(tmp_path, heuristics: str = HEURISTICS):
    return build(tmp_path, {"game.yaml": DATA, "play.rules": RULES, "judge.rules": heuristics})


def errors(tmp_path, rules: str) -> str:
    return load_errors(tmp_path, {"game.yaml": DATA, "play.rules": RULES, "judge.rules": rules})


def features(evaluation: Evaluation, view: dict) -> dict[str, float]:
    return {label: value for _, label, _, value in evaluation.features(view)}


def test_a_seat_remembers_only_the_events_it_saw(tmp_path):
    rs = ruleset(tmp_path)
    game = Game(rs, 3, seed=1)
    first = game.pending.player
    others = [p for p in game.state.players if p != first]
    evaluation = Evaluation(rs)
    seen_from = {p: 0 for p in game.state.players}
    choose_action(game, "gift", other=others[0])
    for p in game.state.players:  # each seat hands over the events of its views, each once
        events = game.events_for(p)
        evaluation.remember(p, events[seen_from[p]:])
        seen_from[p] = len(events)
    # the gift was shown to its receiver only: the receiver remembers it, nobody else
    assert features(evaluation, game.view(others[0]))["gifts remembered"] == 1
    assert features(evaluation, game.view(others[1]))["gifts remembered"] == 0
    assert features(evaluation, game.view(first))["gifts remembered"] == 0
    # a seat's memory is not another's, even when one evaluation judges both
    assert features(Evaluation(rs), game.view(others[0]))["gifts remembered"] == 0


def test_functions_called_by_a_heuristic_read_the_seat_s_memory(tmp_path):
    rs = ruleset(tmp_path)
    game = Game(rs, 3, seed=2)
    giver = game.pending.player
    receiver = next(p for p in game.state.players if p != giver)
    choose_action(game, "gift", other=receiver)
    evaluation = Evaluation(rs)
    evaluation.remember(receiver, game.events_for(receiver))
    from_first = features(evaluation, game.view(receiver))["gifts the first player gave me"]
    assert from_first == (1 if giver == game.state.players[0] else 0)


def test_the_greedy_bot_plays_by_what_its_seat_remembers(tmp_path):
    rs = ruleset(tmp_path)
    game = Game(rs, 3, seed=3)
    giver = game.pending.player
    receiver = game.state.players[(game.state.players.index(giver) + 1) % 3]
    choose_action(game, "gift", other=receiver)
    assert game.pending.player == receiver
    # every gift raises a score the same; only the memory of who gave tells them apart
    for seed in range(5):
        bot = make_bot("greedy", seed)
        chosen = game.pending.options[bot.choose(view_for(game, bot, receiver))]
        assert chosen == {"action": "gift", "args": {"other": giver}}


@pytest.mark.parametrize("text, message, where", [
    ("action peek:\n    require count(seen(\"gifted\")) > 0 else \"no\"\n    do:\n        set current_player.score += 1\n",
     "action 'peek' reads seen(), which only heuristics may read", "judge.rules:2:19"),
    ("function gifts() -> number:\n    = count(seen(\"gifted\"))\n\n"
     "action peek:\n    require gifts() > 0 else \"no\"\n    do:\n        set current_player.score += 1\n",
     "action 'peek' calls 'gifts', which reads seen(); only heuristics may", "judge.rules:5:13"),
    ("heuristic h(me: player):\n    feature \"x\" weight 1: count(seen(\"gifed\"))\n",
     "'seen' names event 'gifed', which nothing emits", "judge.rules:2:38"),
    ("heuristic h(me: player):\n    feature \"x\" weight 1: count(seen(me))\n",
     "'seen' takes the name of one event, in quotes", "judge.rules:2:33"),
    ("heuristic h(me: player):\n    feature \"x\" weight 1: count([e for e in seen(\"gifted\") where e.givr == me])\n",
     "event 'gifted' has no field 'givr'", "judge.rules:2:68"),
])
def test_a_wrong_memory_read_is_reported_where_it_is(tmp_path, text, message, where):
    report = errors(tmp_path, text)
    assert message in report, report
    assert where in report, report
