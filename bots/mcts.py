"""A search bot for any rule set: single-observer information-set Monte Carlo tree search.

At each decision the bot grows one tree over the options of every player, from its own
seat's information set. Each iteration samples a full state consistent with the seat's
view (:mod:`rulecraft.bots.determinize`: built from the view and the bot's own record of
the game, never from the real state), walks the tree down by UCB1 among the options
legal in that state (a child's UCB bonus counts the times it was available, as in
Cowling, Powley and Whitehouse's ISMCTS), adds one node, plays the rest of the game at
random and backs up each seat's reward from the game's result:

- 1 to every seat on the winning side (``game.sides``: a team, the cooperative side, or
  the winner itself; without declared sides, to each winner), 0 to the others;
- 0.5 to everyone when nobody won, except in a cooperative game, where the game beat the
  players (0).

The answer is the root's most visited option. The budget is a number of iterations per
decision (``mcts`` plays 200, ``mcts:N`` plays N) and optionally a time limit
(``mcts:N:S`` stops after S seconds if the iterations are not done). All randomness comes
from the bot's seeded generator: the same seed gives the same answers to the same views.
"""

from __future__ import annotations

import math
import random
import time

from rulecraft.interpreter.machine import Machine, RuleRuntimeError
from rulecraft.interpreter.sides import seat_sides, winning_side

from .determinize import Tracker, determinize, option_key
from .evaluation import Evaluation, cutoff_rewards, declares_heuristics

DEFAULT_ITERATIONS = 200
UCB_C = 0.7  # UCB1's constant, for rewards in [0, 1]
# A rule set that declares heuristics has its random playouts stopped after this many
# decisions and judged by them (see _playout_cutoff).
ROLLOUT_CUTOFF = 60


class _Node:
    __slots__ = ("player", "children", "visits", "total", "available")

    def __init__(self, player: str | None):
        self.player = player  # who chose the option leading here
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 0


class MCTSBot:
    name = "mcts"
    needs_events = True  # the tracker follows the game through the events the seat saw

    def __init__(self, seed: int, iterations: int = DEFAULT_ITERATIONS, seconds: float | None = None):
        self._random = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self._ruleset = None
        self._tracker: Tracker | None = None
        self.last_iterations = 0  # how many iterations the last decision ran
        self._evaluation: Evaluation | None = None

    def learn_rules(self, ruleset) -> None:
        if ruleset is not self._ruleset:
            self._ruleset = ruleset
            self._tracker = None
            self._evaluation = self._playout_cutoff(ruleset)

    def choose(self, view: dict) -> int:
        options = view["choice"]["options"]
        if len(options) == 1:
            return 0
        tracker = self._tracker_for(view)
        if tracker is None or not tracker.follow(view):
            return self._random.randrange(len(options))
        return self._search(tracker, view)

    def _tracker_for(self, view: dict) -> Tracker | None:
        if self._ruleset is None:  # no rules handed over: nothing to search with
            return None
        events = view.get("events") or []
        new_game = self._tracker is None or self._tracker.viewer != view["viewer"] or not events or \
            len(events) < getattr(self, "_events_seen", 0)
        if new_game:
            self._tracker = Tracker(self._ruleset, len(view["players"]), view["viewer"], self._random)
        self._events_seen = len(events)
        return self._tracker

    # ---- the search
    def _search(self, tracker: Tracker, view: dict) -> int:
        rng = self._random
        cooperative = "cooperative" in (self._ruleset.data.game.sides or {})
        root = _Node(None)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        done = failed = 0
        while done < self.iterations and (deadline is None or time.perf_counter() < deadline):
            done += 1
            state = determinize(tracker, view, rng)
            try:
                rewards, path = self._iterate(root, state, cooperative)
            except RuleRuntimeError:
                # the sample put the rules somewhere the real game is not (a copy put
                # back in step with the view): it is dropped, with the node it added
                failed += 1
                continue
            for n in path[1:]:
                n.visits += 1
                n.total += rewards.get(n.player, 0.5)
        self.last_iterations = done - failed
        if not root.children:
            return rng.randrange(len(view["choice"]["options"]))
        keys = [option_key(o) for o in view["choice"]["options"]]
        visits = [root.children[k].visits if k in root.children else -1 for k in keys]
        best = max(visits)
        ties = [i for i, v in enumerate(visits) if v == best]
        return ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]

    def _iterate(self, root: _Node, state, cooperative: bool) -> tuple[dict[str, float], list[_Node]]:
        """One iteration from a sampled state: down the tree, one node added, a random
        playout; each seat's reward and the path of nodes to back it up along."""
        rng = self._random
        machine = Machine(self._ruleset, state)
        node, path = root, [root]
        added = None
        try:
            while state.result is None and state.pending is not None:
                pending = state.pending
                keys = [option_key(o) for o in pending["options"]]
                untried = []
                for i, key in enumerate(keys):
                    child = node.children.get(key)
                    if child is None:
                        untried.append(i)
                    else:
                        child.available += 1
                if untried:
                    index = untried[rng.randrange(len(untried))]
                    child = node.children[keys[index]] = _Node(pending["player"])
                    added = (node, keys[index])
                    child.available = 1
                    machine.answer(index)
                    path.append(child)
                    break
                index = self._select(node, keys)
                node = node.children[keys[index]]
                path.append(node)
                machine.answer(index)
            played = 0
            while state.result is None:  # random rollout
                if self._evaluation is not None and played >= ROLLOUT_CUTOFF:
                    break
                machine.answer(rng.randrange(len(state.pending["options"])))
                played += 1
        except RuleRuntimeError:
            if added is not None:
                del added[0].children[added[1]]
            raise
        if state.result is None:  # cut off: the seats judged by the rule set's heuristics
            return cutoff_rewards(self._evaluation, state), path
        return seat_rewards(self._ruleset, state, cooperative), path

    # ---- the hook for rule sets that declare heuristics
    @staticmethod
    def _playout_cutoff(ruleset) -> Evaluation | None:
        """The rule set's heuristics, which end a playout after ROLLOUT_CUTOFF decisions
        and judge the position each seat then sees (bots.evaluation.cutoff_rewards), or
        None: without heuristics every playout runs to the end of the game."""
        return Evaluation(ruleset) if declares_heuristics(ruleset) else None

    @staticmethod
    def _select(node: _Node, keys: list[str]) -> int:
        best, best_value = 0, -1.0
        for i, key in enumerate(keys):
            child = node.children[key]
            value = child.total / child.visits + UCB_C * math.sqrt(math.log(child.available) / child.visits)
            if value > best_value:
                best, best_value = i, value
        return best


def seat_rewards(ruleset, state, cooperative: bool) -> dict[str, float]:
    """Each seat's reward from a finished game (see the module doc)."""
    winners = state.result["winners"]
    if not winners:
        return {p: (0.0 if cooperative else 0.5) for p in state.players}
    if not ruleset.data.game.sides:  # no sides declared: each winner for itself
        return {p: 1.0 if p in winners else 0.0 for p in state.players}
    won = set(winning_side(ruleset, state, winners).split(" + "))
    sides = seat_sides(ruleset, state)
    return {p: 1.0 if won & set(sides.get(p, ())) else 0.0 for p in state.players}


def make_mcts(seed: int, budget: str | None = None) -> MCTSBot:
    """The ``mcts`` bot; ``budget`` is "N" (iterations) or "N:S" (iterations, seconds)."""
    if budget is None:
        return MCTSBot(seed)
    iterations, _, seconds = budget.partition(":")
    return MCTSBot(seed, int(iterations), float(seconds) if seconds else None)


def budget_problem(budget: str) -> str | None:
    """Why ``budget`` is not an mcts budget (one line), or None."""
    iterations, _, seconds = budget.partition(":")
    if not iterations.isdigit() or int(iterations) < 1:
        return f"mcts:{budget}: the iterations per decision must be a positive whole number (e.g. mcts:200)"
    if seconds:
        try:
            if float(seconds) <= 0:
                raise ValueError
        except ValueError:
            return f"mcts:{budget}: the time per decision must be a positive number of seconds (e.g. mcts:200:1.5)"
    return None
