"""Chance played from outside the game: each draw's outcome handed in by a driver.

A game draws all its chance (die rolls, random picks, the steps of a shuffle) through
``Machine.draw(n)``: a whole number in [0, n), each as likely. Left alone, the machine
takes it from the state's seeded generator. A driver that must see every chance event
as a choice of its own (OpenSpiel's explicit chance nodes, an exact search over chance)
gives the machine a :class:`ChanceScript` instead: the outcomes chosen so far, in order.
A draw past the last of them stops the step with :class:`ChanceNeeded`, naming how many
outcomes the draw has; the driver picks one and plays the same step again, from the same
state, with one outcome more. The rules run exactly as with the generator: a shuffle is
the generator's own Fisher-Yates steps, one draw a step.
"""

from __future__ import annotations


class ChanceNeeded(Exception):
    """A draw that the outcomes given do not reach: ``count`` outcomes, each as likely."""

    def __init__(self, count: int):
        super().__init__(f"a draw among {count} outcomes")
        self.count = count


class ChanceScript:
    """The outcomes a driver chose for a step's draws, in order (see the module doc)."""

    def __init__(self, outcomes: list[int]):
        self.outcomes = list(outcomes)
        self.used = 0

    def outcome(self, count: int) -> int:
        if self.used == len(self.outcomes):
            raise ChanceNeeded(count)
        value = self.outcomes[self.used]
        if not 0 <= value < count:
            raise ValueError(f"chance outcome {value} given for a draw among {count} (0 to {count - 1})")
        self.used += 1
        return value
