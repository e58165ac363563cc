"""A bot that scores every legal option with a strategy for the game being played.

The framework knows no game: it asks the strategy registered for the view's game
(``view["game"]``, which every player view carries) to read the view, then to score
each option, and plays the best one (ties broken by the bot's own seeded generator).
What a good option is in a given game lives with that game's rules.

**Registering a strategy.** Strategies are found by game name (``game.name`` in the
rule set's ``game.yaml``) in the ``rulecraft.strategies`` entry-point group, which only
installed Python packages can fill::

    [project.entry-points."rulecraft.strategies"]
    my_game = "my_package.strategy:MyGameStrategy"

or, from Python code already running, with :func:`register_strategy`. Nothing is ever
imported from a rule-set folder given on the command line: loading a stranger's rule set
runs no code of theirs.

A strategy is an object made per game and seat by a factory called as
``factory(rng, ruleset)``: the bot's ``random.Random`` and the rule set in play (its
variant applied), from which it reads every rule fact it plays by. Then:

- ``observe(view)`` is called once per decision, before scoring; the strategy updates its
  memory from the events new in this view (the bot asks for new events only) and
  prepares what scoring needs;
- ``score(view, option) -> float`` rates one legal option; higher is better.

A factory may also offer ``rules_problem(ruleset) -> str | None``: why it cannot play
by a rule set that bears its game's name (a missing parameter, say), which the command
line reports before any game starts.
"""

from __future__ import annotations

import random
from functools import lru_cache
from importlib.metadata import entry_points
from typing import Callable, Protocol

from rulecraft.dsl.model import RuleSet

ENTRY_POINT_GROUP = "rulecraft.strategies"


class Strategy(Protocol):
    def observe(self, view: dict) -> None: ...

    def score(self, view: dict, option) -> float: ...


StrategyFactory = Callable[[random.Random, RuleSet], Strategy]

# strategies registered by running code, by game name; they win over entry points
_REGISTERED: dict[str, StrategyFactory] = {}


@lru_cache(maxsize=1)
def _installed() -> dict[str, object]:
    """Game name → entry point of the installed strategies (loaded when first used)."""
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def register_strategy(game: str, factory: StrategyFactory) -> None:
    """Make ``factory`` the heuristic bot's strategy for the game named ``game``."""
    _REGISTERED[game] = factory


def strategy_games() -> list[str]:
    return sorted(set(_REGISTERED) | set(_installed()))


def strategy_for(game: str) -> StrategyFactory | None:
    factory = _REGISTERED.get(game)
    if factory is None and game in _installed():
        factory = _REGISTERED[game] = _installed()[game].load()
    return factory


class UnknownGame(ValueError):
    """The heuristic bot has no strategy for the game it was asked to play."""


class HeuristicBot:
    name = "heuristic"
    needs_events = "new"  # it remembers what it read, so only new events are needed

    def __init__(self, seed: int):
        self._random = random.Random(seed)
        self._strategy: Strategy | None = None
        self._game: str | None = None
        self._rules: RuleSet | None = None

    @staticmethod
    def plays(game: str) -> bool:
        return game in strategy_games()

    @staticmethod
    def known_games() -> list[str]:
        return strategy_games()

    @staticmethod
    def rules_problem(ruleset: RuleSet) -> str | None:
        """Why the game's strategy cannot play by this rule set (a strategy may say so
        with its own ``rules_problem(ruleset)``), or None."""
        factory = strategy_for(ruleset.data.game.name)
        check = getattr(factory, "rules_problem", None)
        problem = check(ruleset) if check is not None else None
        return f"the {ruleset.data.game.name} strategy cannot play this rule set: {problem}" if problem else None

    def learn_rules(self, ruleset: RuleSet) -> None:
        """The rules on the table (public knowledge); drivers hand them over with each
        view (:func:`rulecraft.bots.view_for`)."""
        if ruleset is not self._rules:
            self._rules = ruleset
            self._strategy = None

    def _strategy_for(self, view: dict) -> Strategy:
        game = view.get("game")
        if game is None:
            raise UnknownGame("the heuristic bot needs the game's name in its view (view['game'], as Game.view gives it)")
        if self._strategy is None or game != self._game:
            factory = strategy_for(game)
            if factory is None:
                raise UnknownGame(f"the heuristic bot has no strategy for '{game}' "
                                  f"(it plays: {', '.join(self.known_games()) or 'nothing yet'})")
            if self._rules is None or self._rules.data.game.name != game:
                raise UnknownGame(f"the heuristic bot was not handed the rules of '{game}': "
                                  "drivers give it its views through rulecraft.bots.view_for")
            self._strategy = factory(self._random, self._rules)
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
