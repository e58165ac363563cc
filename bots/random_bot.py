"""A bot that picks uniformly among the legal options."""

from __future__ import annotations

import random


class RandomBot:
    name = "random"
    needs_events = False  # it only looks at the options

    def __init__(self, seed: int):
        # Bots draw from their own generator: the game's RNG stays the only source of
        # the game's randomness, and a bot's picks are reproducible from its seed.
        self._random = random.Random(seed)

    def choose(self, view: dict) -> int:
        return self._random.randrange(len(view["choice"]["options"]))
