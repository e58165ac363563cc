"""The obligation lookahead passes over the triggers that cannot change its answer
(dsl/lookahead.py): what the analysis keeps and passes over, and the options it offers
checked against the lookahead that plays every trigger, at every decision of random
games, with a driver changing the state behind the machine's back now and then."""

from __future__ import annotations

import random

import pytest
from engine_rulesets import QUIET_SETUP_AND_ROUND, build, game_yaml

from rulecraft.dsl.lookahead import skippable_triggers
from rulecraft.interpreter.game import Game

DATA = """
kinds:
  player:
    properties:
      ap: {type: number, default: 0}
      pos: {type: number, default: 0}
dice:
  coin: [1, 2]
variables:
  game:
    tally: {type: number, default: 0}
    armed: {type: bool, default: false}
    noise: {type: number, default: 0}
  turn:
    dug: {type: bool, default: false}
"""

# A walk along a line; digging is possible at position 2. `tally` and `note_tally` write
# only what nothing else reads; `spring` emits an event whose trigger moves the walker
# back, `coin_toss` asks a choice: those matter.
RULES = QUIET_SETUP_AND_ROUND + """
trigger refill:
    on turn_started
    do:
        set event.player.ap = START_AP
        set event.player.pos = 0

action forward:
    cost 1 ap
    do:
        set current_player.pos += 1

action back:
    cost 1 ap
    do:
        set current_player.pos -= 1

action gamble:
    cost 1 ap
    do:
        let face = roll(coin)
        set current_player.pos -= face

action leap:
    cost 1 ap
    do:
        choose n from [1, 5] by current_player prompt "Land where?"
        set current_player.pos = n

action arm:
    cost 1 ap
    do:
        set game.armed = not game.armed

action fidget:
    do:
        set game.noise += 1

action dig:
    require current_player.pos == 2 else "nothing to dig here"
    cost 1 ap
    do:
        set turn.dug = true

trigger tally:
    on changed
    do:
        set game.tally += 1

trigger note_tally:
    on changed
    when game.tally > 3
    do:
        set game.tally = 0

trigger spring:
    on changed
    when event.property == "pos" and game.armed
    do:
        emit sprung(player: event.entity)

trigger sprung_back:
    on sprung
    do:
        set event.player.pos = 0

trigger coin_toss:
    on changed
    when event.property == "ap" and game.noise == 2
    do:
        choose x from [1, 2] by current_player prompt "Heads or tails?"
        set game.noise += x

obligation must_dig:
    text "Every turn a player must dig once, when digging can be reached."
    when not turn.dug
    POSSIBLE
    within WITHIN actions
"""


def load(tmp_path, within: int, start_ap: int = 3):
    possible = "possible current_player.ap > 0 and current_player.pos >= 1 and current_player.pos <= 3" if within == 1 else ""
    rules = RULES.replace("START_AP", str(start_ap)).replace("WITHIN", str(within)).replace("POSSIBLE", possible)
    return build(tmp_path, {"game.yaml": game_yaml(round_limit=4) + DATA, "main.rules": rules},
                 name=f"walk_{within}_{start_ap}")


@pytest.mark.parametrize("within", [1, 3])
def test_only_triggers_writing_what_nothing_that_matters_reads_are_passed_over(tmp_path, within):
    rs = load(tmp_path, within)
    (obligation,) = rs.of_kind("obligation")
    actions = [d.name for d in rs.of_kind("action")]
    for action in actions + [None]:
        assert skippable_triggers(rs, obligation, action) == {"tally", "note_tally"}, action


def test_what_a_relevant_statement_reads_becomes_relevant(tmp_path):
    rs = load(tmp_path, 1)
    (obligation,) = rs.of_kind("obligation")
    # once the tally decides a move, the triggers writing it matter too
    text = RULES.replace("set event.player.pos = 0\n\nac", "set event.player.pos = game.tally\n\nac")
    assert text != RULES
    rules = text.replace("START_AP", "3").replace("WITHIN", "1").replace(
        "POSSIBLE", "possible current_player.ap > 0 and current_player.pos >= 1 and current_player.pos <= 3")
    rs = build(tmp_path, {"game.yaml": game_yaml(round_limit=4) + DATA, "main.rules": rules}, name="tally_read")
    (obligation,) = rs.of_kind("obligation")
    assert skippable_triggers(rs, obligation, "forward") == frozenset()


def _both_lookaheads(game: Game):
    """keep_obligations at the pending decision, passing over triggers and not."""
    m = game.machine
    original = m.state
    player = original.pending["player"]
    answers = []
    try:
        for pass_over in (True, False):
            state = original.clone()
            state.pending = None  # as while the turn step decides what to offer
            m.state = state
            m.invalidate()
            m.pass_over_triggers = pass_over
            with m.reading():
                options = m.legal_actions(player)
            answers.append(m.keep_obligations(player, options))
            assert m.state is state and state.dumps() == _without_pending(original).dumps()
    finally:
        del m.pass_over_triggers
        m.state = original
        m.invalidate()
    return answers


def _without_pending(state):
    copy = state.clone()
    copy.pending = None
    return copy


def _tamper(game: Game, rnd: random.Random) -> None:
    """Change the state directly, as a driver arranging a table may."""
    s = game.state
    player = rnd.choice(s.players)
    what = rnd.randrange(5)
    if what == 0:
        s.entities[player]["props"]["pos"] = rnd.randrange(-1, 4)
    elif what == 1:
        s.entities[player]["props"]["ap"] = rnd.randrange(0, 4)
    elif what == 2:
        s.vars["game"]["armed"] = not s.vars["game"].get("armed")
    elif what == 3:
        s.vars["game"]["noise"] = rnd.randrange(0, 3)
    else:
        s.vars["game"]["tally"] = rnd.randrange(0, 6)


@pytest.mark.parametrize("within", [1, 3])
def test_the_options_are_those_of_the_full_lookahead_at_every_decision(tmp_path, within):
    rs = load(tmp_path, within, start_ap=4)
    checked = in_force = 0
    for seed in range(40):
        rnd = random.Random(seed)
        game = Game(rs, 2, seed)
        while not game.over:
            pending = game.state.pending
            if pending["kind"] == "action":
                fast, full = _both_lookaheads(game)
                assert fast == full, (seed, game.state.steps)
                checked += 1
                in_force += fast[1] is False
            if rnd.random() < 0.15:
                _tamper(game, rnd)
            game.choose(rnd.randrange(len(game.state.pending["options"])))
    assert checked > 300
    assert in_force > 20, "the obligation was in force at some decisions"


def test_a_game_plays_the_same_with_every_trigger_played_ahead(tmp_path):
    rs = load(tmp_path, 1, start_ap=4)
    logs = []
    for pass_over in (True, False):
        game = Game(rs, 2, 7)
        game.machine.pass_over_triggers = pass_over
        rnd = random.Random(7)
        while not game.over:
            game.choose(rnd.randrange(len(game.state.pending["options"])))
        logs.append((game.decisions, game.events, game.state.dumps()))
    assert logs[0] == logs[1]
