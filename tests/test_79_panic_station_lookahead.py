"""Panic Station's first-turn search duty: the lookahead passes over the triggers that
cannot change its answer (the meeting and Run-room bookkeeping), and offers exactly the
options of the lookahead that plays every trigger, at every decision of the first two
rounds of random games."""

import random

from panic_station import ruleset
from rulecraft.dsl.lookahead import skippable_triggers
from rulecraft.interpreter.game import Game


def test_a_move_played_ahead_passes_over_the_bookkeeping_of_meetings_and_run_rooms():
    rs = ruleset()
    (duty,) = rs.of_kind("obligation")
    skipped = skippable_triggers(rs, duty, "move")
    assert {"meet_on_entering", "run_room_entered"} <= skipped
    assert "parasite_alert_room" not in skipped, "a parasite appearing changes where a search can be reached"
    assert "run_room_entered" not in skippable_triggers(rs, duty, "run_through"), "running on reads its records"


def test_the_duty_offers_the_options_of_the_full_lookahead():
    checked = in_force = 0
    for seed in range(6):
        game = Game(ruleset(), 5, 100 + seed)
        rnd = random.Random(seed)
        while not game.over and game.state.round <= 2:
            pending = game.state.pending
            if pending["kind"] == "action":
                m = game.machine
                original = m.state
                answers = []
                try:
                    for pass_over in (True, False):
                        state = original.clone()
                        state.pending = None
                        m.state = state
                        m.invalidate()
                        m.pass_over_triggers = pass_over
                        with m.reading():
                            options = m.legal_actions(pending["player"])
                        answers.append(m.keep_obligations(pending["player"], options))
                finally:
                    del m.pass_over_triggers
                    m.state = original
                    m.invalidate()
                assert answers[0] == answers[1], (seed, game.state.steps)
                checked += 1
                in_force += answers[0][1] is False
            game.choose(rnd.randrange(len(game.state.pending["options"])))
    assert checked > 100 and in_force > 20
