"""Bot seats do not sit out turns they could play (bots.idle_turns counts them)."""

from __future__ import annotations

from rulecraft.bots.idle_turns import count_idle_turns
from rulecraft.dsl.loader import load_checked


def test_heuristic_seats_in_panic_station_act_in_nearly_every_turn():
    # Ending a turn before acting used to cost nothing while every step out of a safe
    # room scored below zero: 28% of turns were idle over 100 games, up to 41 in a row.
    # A seat may still wait when every way on is worse than waiting: in seed 7 a lone
    # wounded Trooper holding gas cans waits six turns in a row rather than walk
    # into the Parasite Alert room that is its only way out.
    ruleset = load_checked("rules/panic_station")
    counted = count_idle_turns(ruleset, 5, range(20), ["heuristic"])
    assert counted.turns > 800
    assert counted.share < 0.02
    assert counted.longest_run <= 6


def test_greedy_seats_in_panic_station_never_end_a_turn_before_acting():
    # One step ahead, every step out of a comfortable room can look worse than staying:
    # rated like any option, ending at once took 14.5% of the greedy seats' turns.
    ruleset = load_checked("rules/panic_station")
    counted = count_idle_turns(ruleset, 5, range(3), ["greedy"])
    assert counted.turns > 100
    assert counted.idle == 0


def test_search_seats_end_no_turn_before_acting_unless_told_they_may():
    # With a few playouts an option each, ending the turn at once looked as good as any
    # action: a designer's cooperative game saw mcts:8 seats end whole turns unused.
    ruleset = load_checked("rules/star_trek_panic")
    counted = count_idle_turns(ruleset, 2, range(2), ["mcts:2"])
    assert counted.turns > 20
    assert counted.idle == 0
    allowed = count_idle_turns(ruleset, 2, range(2), ["mcts:2:idle"])
    assert allowed.idle > 0  # the setting is what keeps them playing
