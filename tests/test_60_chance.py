"""Chance played from outside (interpreter/chance.py): every draw of a game goes
through ``Machine.draw``, so a driver handing in the outcomes sees all of the game's
chance, and the rules run exactly as with the seeded generator."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter import rng
from rulecraft.interpreter.chance import ChanceNeeded, ChanceScript
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import Machine
from rulecraft.interpreter.state import new_state

RULES = Path(__file__).resolve().parent.parent / "rules"


class _DrawsFromTheGenerator:
    """Outcomes handed in from outside, taken from the state's own generator as the
    machine would take them, and counted."""

    def __init__(self, state):
        self.state = state
        self.outcomes: list[int] = []

    def outcome(self, count: int) -> int:
        self.state.rng, i = rng.below(self.state.rng, count)
        self.outcomes.append(i)
        return i


@pytest.mark.parametrize("game, players, seed", [("panic_station", 5, 3), ("star_trek_panic", 3, 1),
                                                 ("stationfall", 3, 2), ("kuhn_poker", 2, 4)])
def test_outcomes_handed_in_play_the_game_the_generator_plays(game, players, seed):
    ruleset = load_checked(RULES / game)
    played = Game(ruleset, players, seed, record_events=False)
    pick = random.Random(seed)
    while not played.over and len(played.decisions) < 400:
        played.choose(pick.randrange(len(played.pending.options)))
    state = new_state(ruleset, players, seed)
    machine = Machine(ruleset, state)
    machine.chance = outside = _DrawsFromTheGenerator(state)
    machine.start()
    for index in played.decisions:
        machine.answer(index)
    assert state.dumps() == played.state.dumps()
    # the same outcomes alone, the state's generator set elsewhere: no draw goes around them
    again = new_state(ruleset, players, seed + 1)
    machine = Machine(ruleset, again)
    machine.chance = ChanceScript(outside.outcomes)
    machine.start()
    for index in played.decisions:
        machine.answer(index)
    assert machine.chance.used == len(outside.outcomes) > 0
    again.seed, again.rng = state.seed, state.rng
    assert again.dumps() == state.dumps()


def test_a_draw_past_the_outcomes_given_names_how_many_it_has():
    ruleset = load_checked(RULES / "kuhn_poker")
    machine = Machine(ruleset, new_state(ruleset, 2, 0))
    machine.chance = ChanceScript([])
    with pytest.raises(ChanceNeeded) as need:
        machine.start()
    assert need.value.count == 3  # the deck's shuffle: its first step picks one of three cards
    machine = Machine(ruleset, new_state(ruleset, 2, 0))
    machine.chance = ChanceScript([2, 1])  # the two steps of a three-card shuffle: no draw is left
    machine.start()
    assert machine.state.pending["player"] == "p1"


def test_an_outcome_beyond_the_draw_is_refused():
    with pytest.raises(ValueError, match="chance outcome 3 given for a draw among 3"):
        ChanceScript([3]).outcome(3)
