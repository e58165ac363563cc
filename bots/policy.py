"""A seat's default answer to its own choices, as prior odds over the options: what a
search bot starts from before its playouts say otherwise.

Where the default comes from, best first:

- the strategy registered for the game (:mod:`rulecraft.bots.heuristic`: the rule set's
  ``game.name`` in the ``rulecraft.strategies`` entry points, or
  :func:`~rulecraft.bots.heuristic.register_strategy`), when it can play the rule set in
  play: it reads the seat's views, as it does for the heuristic bot, and scores each
  option;
- else the rule set's declared heuristics' preferences (``prefer ...``,
  :meth:`rulecraft.bots.evaluation.Evaluation.liking`);
- else nothing: every option is as likely (:meth:`SeatPolicy.priors` returns None).

Scores in a strategy's or heuristics' own units are turned into odds by their order
alone, so their scale never matters: the best-scored options share the largest odds,
each step down the order halves the odds, and equal scores have equal odds.

A policy is made per game and seat and reads only the views it is handed; a strategy
gets its own generator, drawn from the search bot's, so the bot's answers stay a
function of its seed.
"""

from __future__ import annotations

import random

from rulecraft.interpreter.views import player_view

from .evaluation import Evaluation, declares_heuristics
from .heuristic import strategy_for

# What a strategy may raise on a sample that no real game reaches (a character the
# sample put elsewhere than the strategy's own bookkeeping expects): that seat's move in
# that playout is then made at random.
_STRATEGY_ERRORS = (KeyError, IndexError, TypeError, ValueError, AttributeError, ZeroDivisionError)

# each step down the order of scores keeps this share of the odds of the step above
STEP_DECAY = 0.5


def has_policy(ruleset) -> bool:
    """Whether a seat of this rule set has a policy to go by: a strategy registered for
    the game (that takes the rule set), or ``prefer`` lines in its heuristics."""
    factory = strategy_for(ruleset.data.game.name)
    check = getattr(factory, "rules_problem", None)
    if factory is not None and (check is None or check(ruleset) is None):
        return True
    return any(h.prefers for h in ruleset.of_kind("heuristic"))


class SeatPolicy:
    def __init__(self, ruleset, rng: random.Random):
        self._strategy = None
        self._evaluation: Evaluation | None = None
        factory = strategy_for(ruleset.data.game.name)
        check = getattr(factory, "rules_problem", None)
        if factory is not None and (check is None or check(ruleset) is None):
            self._strategy = factory(random.Random(rng.getrandbits(64)), ruleset)
            self.source = "strategy"
        elif declares_heuristics(ruleset):
            self._evaluation = Evaluation(ruleset)
            self.source = "preferences"
        else:
            self.source = None
        self._read = 0  # how many of the game's events the strategy has been handed

    def priors(self, view: dict) -> list[float] | None:
        """Odds for each option of the view's choice (summing to 1), or None when the
        policy has nothing to go by. ``view["events"]`` is the seat's whole history:
        each event is handed to the strategy once."""
        scores = self.scores(view)
        return None if scores is None else odds_by_order(scores)

    def scores(self, view: dict) -> list[float] | None:
        options = view["choice"]["options"]
        events = view.get("events") or []
        if self._strategy is not None:
            self._strategy.observe(dict(view, events=events[self._read:]))
            self._read = len(events)
            return [float(self._strategy.score(view, option)) for option in options]
        if self._evaluation is not None:
            self._evaluation.remember(view["viewer"], events[self._read:])
            self._read = len(events)
            return self._evaluation.liking(view)
        return None


def odds_by_order(scores: list[float]) -> list[float]:
    """Odds from scores by their order (see the module doc): scores 5, 3, 5, 1 get odds in the
    ratio 1 : 1/2 : 1 : 1/4. Scores within 1e-9 of each other are equal."""
    rounded = [round(s, 9) for s in scores]
    step = {s: i for i, s in enumerate(sorted(set(rounded), reverse=True))}
    raw = [STEP_DECAY ** step[s] for s in rounded]
    total = sum(raw)
    return [r / total for r in raw]


class PlayoutPolicy:
    """Every seat's policy in a search's playouts: each seat is played as its policy
    would play it from the sample's view of that seat, ties broken at random. Without
    ``memories`` a seat plays with no memory of the game so far (a sample carries no
    seat's history); with them (:class:`rulecraft.bots.recall.PlayoutMemories`), with
    what it remembers from before the playout and saw during it. Made per playout, or
    per search without memories."""

    def __init__(self, ruleset, rng: random.Random, memories=None):
        self.ruleset = ruleset
        self.rng = rng
        self.memories = memories
        self._factory = None
        self._evaluation: Evaluation | None = None
        factory = strategy_for(ruleset.data.game.name)
        check = getattr(factory, "rules_problem", None)
        if factory is not None and (check is None or check(ruleset) is None):
            self._factory = factory
        elif declares_heuristics(ruleset):
            self._evaluation = Evaluation(ruleset)
        self._strategies: dict[str, object] = {}

    @property
    def usable(self) -> bool:
        return self._factory is not None or self._evaluation is not None

    def choose(self, state) -> int:
        pending = state.pending
        options = pending["options"]
        if len(options) == 1:
            return 0
        seat = pending["player"]
        view = player_view(self.ruleset, state, seat)
        # each event a seat remembers is handed to its policy once, as bots are handed new events
        view["events"] = self.memories.unread(seat) if self.memories is not None else []
        try:
            if self._factory is not None:
                strategy = self._strategies.get(seat)
                if strategy is None:
                    strategy = self._strategies[seat] = self._factory(random.Random(self.rng.getrandbits(64)),
                                                                      self.ruleset)
                strategy.observe(view)
                scores = [strategy.score(view, option) for option in options]
            else:
                self._evaluation.remember(seat, view["events"])
                scores = self._evaluation.liking(view)
        except _STRATEGY_ERRORS:
            return self.rng.randrange(len(options))
        best = max(scores)
        ties = [i for i, v in enumerate(scores) if v >= best - 1e-9]
        return ties[0] if len(ties) == 1 else ties[self.rng.randrange(len(ties))]
