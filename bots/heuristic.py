"""A bot that scores every legal option with a strategy for the game being played.

The framework knows no game: it asks the strategy registered for the view's game
(``view["game"]``, which every player view carries) to read the view, then to
score each option, and plays the best one (ties broken by the bot's own seeded
generator). What a good option is in a given game lives in that game's strategy module,
e.g. :mod:`rulecraft.bots.panic_station`.

A strategy is an object made per game and seat by a factory taking a ``random.Random``:

- ``observe(view)`` is called once per decision, before scoring; the strategy updates its
  memory from the events new in this view (the bot asks for new events only) and
  prepares what scoring needs;
- ``score(view, option) -> float`` rates one legal option; higher is better.
"""

from __future__ import annotations

import random
from typing import Callable, Protocol


class Strategy(Protocol):
    def observe(self, view: dict) -> None: ...

    def score(self, view: dict, option) -> float: ...


StrategyFactory = Callable[[random.Random], Strategy]


def _panic_station(rng: random.Random) -> Strategy:
    from .panic_station import PanicStationStrategy

    return PanicStationStrategy(rng)


# game name (game.yaml's ``game.name``) → strategy factory
STRATEGIES: dict[str, StrategyFactory] = {
    "panic_station": _panic_station,
}


class UnknownGame(ValueError):
    """The heuristic bot has no strategy for the game it was asked to play."""


class HeuristicBot:
    name = "heuristic"
    needs_events = "new"  # it remembers what it read, so only new events are needed

    def __init__(self, seed: int):
        self._random = random.Random(seed)
        self._strategy: Strategy | None = None
        self._game: str | None = None

    @staticmethod
    def plays(game: str) -> bool:
        return game in STRATEGIES

    @staticmethod
    def known_games() -> list[str]:
        return sorted(STRATEGIES)

    def _strategy_for(self, view: dict) -> Strategy:
        game = view.get("game")
        if game is None:
            raise UnknownGame("the heuristic bot needs the game's name in its view (view['game'], as Game.view gives it)")
        if self._strategy is None or game != self._game:
            if game not in STRATEGIES:
                raise UnknownGame(f"the heuristic bot has no strategy for '{game}' (it plays: {', '.join(self.known_games())})")
            self._strategy = STRATEGIES[game](self._random)
            self._game = game
        return self._strategy

    def choose(self, view: dict) -> int:
        strategy = self._strategy_for(view)
        strategy.observe(view)
        options = view["choice"]["options"]
        scores = [strategy.score(view, option) for option in options]
        best = max(scores)
        picks = [i for i, s in enumerate(scores) if s >= best - 1e-9]
        return picks[0] if len(picks) == 1 else self._random.choice(picks)
