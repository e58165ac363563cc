"""Exact legal options: what the engine offers equals what the rules allow, computed
here by brute force from the same conditions; why_not explains the refusals."""

from __future__ import annotations

import random

import pytest
from engine_rulesets import QUIET_SETUP_AND_ROUND, action_options, build, choose_action, game_yaml, option_key

from rulecraft.interpreter.game import Game

DATA = """
kinds:
  player:
    properties:
      ap: {type: number, default: 0}
  gem:
    located_in: zone
    properties:
      color: {type: text, values: [red, blue]}
      size: number
zones:
  pool: {ordered: false}
  stash: {per_player: true, ordered: false}
components:
  - {name: ruby, kind: gem, zone: pool, properties: {color: red, size: 1}}
  - {name: garnet, kind: gem, zone: pool, properties: {color: red, size: 3}}
  - {name: sapphire, kind: gem, zone: pool, properties: {color: blue, size: 2}}
  - {name: topaz, kind: gem, zone: pool, properties: {color: blue, size: 1}}
"""

RULES = QUIET_SETUP_AND_ROUND + """
trigger refill:
    on turn_started
    do:
        set event.player.ap = 3

action take:
    with g: gem in contents(pool)
    require g.size <= current_player.ap else "too heavy"
    require count(contents(stash(current_player))) < 2 else "stash full"
    cost 1 ap
    do:
        move g to stash(current_player)

action give:
    with g: gem in contents(stash(current_player))
    with q: player where q != current_player
    require g.color == "red" else "only red gems can be given"
    do:
        move g to stash(q)

action drop:
    with g: gem where g.at == stash(current_player)
    require g.size > 1
    cost 2 ap
    do:
        move g to pool
"""


@pytest.fixture
def ruleset(tmp_path):
    return build(tmp_path, {"game.yaml": game_yaml(round_limit=4) + DATA, "main.rules": RULES})


def brute_force(game: Game) -> set[tuple]:
    """Every legal (action, args) by reading the state and applying the rules' conditions."""
    s = game.state
    me = s.current
    ap = s.entities[me]["props"]["ap"]
    gems = [e for e, v in s.entities.items() if v["kind"] == "gem"]
    props = {g: s.entities[g]["props"] for g in gems}
    mine = s.zones[f"stash:{me}"]
    legal = set()
    for g in s.zones["pool"]:
        if props[g]["size"] <= ap and len(mine) < 2 and ap >= 1:
            legal.add(("take", (("g", g),)))
    for g in mine:
        for q in s.players:
            if q != me and props[g]["color"] == "red":
                legal.add(("give", (("g", g), ("q", q))))
    for g in gems:
        if s.entities[g]["at"] == f"stash:{me}" and props[g]["size"] > 1 and ap >= 2:
            legal.add(("drop", (("g", g),)))
    return legal


def offered(game: Game) -> set[tuple]:
    keys = [option_key(o) for o in action_options(game)]
    assert len(keys) == len(set(keys)), "no option is listed twice"
    return set(keys)


def test_first_options_are_exactly_the_legal_ones(ruleset):
    game = Game(ruleset, 2, 1)
    assert offered(game) == brute_force(game)
    assert offered(game) == {("take", (("g", g),)) for g in ("ruby", "garnet", "sapphire", "topaz")}


def test_options_track_the_state(ruleset):
    game = Game(ruleset, 2, 1)
    choose_action(game, "take", g="garnet")  # ap 3 → 2
    assert offered(game) == brute_force(game)
    assert ("take", (("g", "sapphire"),)) in offered(game)
    assert ("drop", (("g", "garnet"),)) in offered(game)
    assert ("give", (("g", "garnet"), ("q", "p2"))) in offered(game)
    choose_action(game, "take", g="sapphire")  # ap 1, stash full
    assert offered(game) == brute_force(game) == {
        ("give", (("g", "garnet"), ("q", "p2"))),
    }


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("players", [2, 3])
def test_options_equal_brute_force_along_random_games(ruleset, seed, players):
    game = Game(ruleset, players, seed)
    pick = random.Random(seed)
    checked = 0
    while not game.over:
        if game.pending.kind == "action":
            assert offered(game) == brute_force(game)
            checked += 1
        game.choose(pick.randrange(len(game.pending.options)))
    assert checked > 4


def test_every_illegal_binding_has_a_reason(ruleset):
    game = Game(ruleset, 3, 1)
    choose_action(game, "take", g="ruby")
    choose_action(game, "take", g="sapphire")
    legal = offered(game)
    gems = ["ruby", "garnet", "sapphire", "topaz"]
    candidates = [("take", {"g": g}) for g in gems]
    candidates += [("give", {"g": g, "q": q}) for g in gems for q in game.state.players]
    candidates += [("drop", {"g": g}) for g in gems]
    for action, args in candidates:
        reason = game.why_not(action, args)
        key = (action, tuple(sorted(args.items())))
        if key in legal:
            assert reason is None, (action, args, reason)
        else:
            assert isinstance(reason, str) and reason, (action, args)


def test_why_not_gives_the_require_message(ruleset):
    game = Game(ruleset, 2, 1)
    game.state.entities["p1"]["props"]["ap"] = 2
    assert game.why_not("take", {"g": "garnet"}) == "too heavy"
    game.state.entities["p1"]["props"]["ap"] = 3
    assert game.why_not("take", {"g": "ruby"}) is None
    choose_action(game, "take", g="sapphire")
    choose_action(game, "take", g="ruby")
    assert game.why_not("take", {"g": "topaz"}) == "stash full"
    assert game.why_not("give", {"g": "sapphire", "q": "p2"}) == "only red gems can be given"
    assert game.why_not("give", {"g": "ruby", "q": "p2"}) is None


def test_why_not_for_a_require_without_message_quotes_the_condition(ruleset):
    game = Game(ruleset, 2, 1)
    choose_action(game, "take", g="ruby")
    assert "g.size > 1" in game.why_not("drop", {"g": "ruby"})


def test_why_not_for_targets_outside_the_with_clauses(ruleset):
    game = Game(ruleset, 2, 1)
    choose_action(game, "take", g="ruby")
    # each says which argument its `with` line refuses, and by what
    not_allowed = "those targets are not allowed for this action: "
    assert game.why_not("give", {"g": "ruby", "q": "p1"}) == not_allowed + "q = p1 fails 'where q != current_player'"
    assert game.why_not("give", {"g": "topaz", "q": "p2"}) == \
        not_allowed + "g = topaz is not among contents(stash(current_player))"  # not in the stash
    assert game.why_not("take", {"g": "ruby"}) == not_allowed + "g = ruby is not among contents(pool)"  # taken
    assert "fly" in game.why_not("fly", {})


def test_why_not_for_costs(ruleset):
    game = Game(ruleset, 2, 1)
    choose_action(game, "take", g="sapphire")
    choose_action(game, "take", g="ruby")
    assert game.state.entities["p1"]["props"]["ap"] == 1
    assert game.pending.player == "p1"
    assert game.why_not("drop", {"g": "sapphire"}) == "not enough ap"


def test_choosing_an_offered_option_runs_that_action(ruleset):
    game = Game(ruleset, 2, 1)
    choose_action(game, "take", g="topaz")
    choose_action(game, "end_turn")
    choose_action(game, "take", g="ruby")
    choose_action(game, "give", g="ruby", q="p1")
    assert game.state.zones["stash:p1"] == ["topaz", "ruby"]
    assert game.state.zones["stash:p2"] == []
    assert sorted(game.state.zones["pool"]) == ["garnet", "sapphire"]
