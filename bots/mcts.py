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

**A prior at the root** (``prior``, ``topK``; see :func:`parse_spec`). The seat's own
policy (:mod:`rulecraft.bots.policy`: the game's registered strategy, else the rule
set's declared preferences) gives odds to the root's options. The search then tries the
options in the policy's order, adds a progressive bias (PRIOR_WEIGHT × odds / (visits +
1)) to each root child's UCB1 value, breaks ties in visits by the odds, and with
``topK`` searches only the policy's K likeliest options: a few dozen iterations then
refine a good default instead of spreading over every option. Only the root has a prior
(other seats' policies would need what those seats remember). ``cutK`` judges playouts
by the heuristics after K decisions instead of ROLLOUT_CUTOFF; ``play`` plays every
seat of a playout by its policy (:class:`rulecraft.bots.policy.PlayoutPolicy`, without
memory of the game) instead of at random, at about twice the cost per iteration;
``team`` rewards each seat of a cut-off playout by its side's average (:func:`side_rewards`).
In a cooperative game every seat shares one worth, so a cut-off playout is instead
rewarded by the share of this search's earlier cut-offs it ends better than
(:class:`rulecraft.bots.evaluation.CutoffShares`).

**Loyal seats** (``loyal``). By the rules a seat wins with whatever side it is on when
the game ends, so a seat that may change sides (be won over, converted) can
gain by changing: the search then plays for the side it may join. ``loyal`` rewards
each seat of a sample by the side it was on when the search started
(:func:`loyal_rewards`): changing sides is losing. This is what a bot chosen to play for
one side (``--bot-for SIDE=…``) is for.

**A paired check instead of a tree** (``paired``, :mod:`rulecraft.bots.paired`): the
policy's favourite and the other ``topK`` options are played from the same samples
with the same generator seeds, and another option replaces the favourite only when it
is clearly better sample by sample. With ``uptoK`` a check in which another option
leads by a standard error or more without being clearly better doubles its samples, up to K;
``zX`` asks a candidate to win by X standard errors instead of 2.

**Beliefs** (the rule set's ``believe`` lines, :meth:`Evaluation.beliefs`): at each
decision the bot reads what its seat believes of hidden properties, with the seat's
memory of the game, and deals its samples by it; ``uniform`` deals them uniformly.

**Memories in the playouts** (``recall``, :mod:`rulecraft.bots.recall`): each seat of a
playout is played by its policy and judged at the cut-off with what it remembers (the
searching seat its own history, the others what the searching seat can tell they saw,
and everyone what they see during the playout) instead of as if the game had just begun.

**When the bot's copy of the game is lost** (the tracker cannot follow what the seat
saw), nothing can be sampled: the bot then plays its policy's favourite, as the
heuristic bot would, or at random without a policy.
"""

from __future__ import annotations

import math
import random
import time

from rulecraft.interpreter.machine import Machine, RuleRuntimeError
from rulecraft.interpreter.sides import seat_sides, seats_on_winning_side

from .determinize import Tracker, determinize, option_key
from .evaluation import CutoffShares, Evaluation, cutoff_rewards, declares_heuristics
from .paired import PAIRED_Z, paired_choice, sides_or_none
from .policy import PlayoutPolicy, SeatPolicy, has_policy
from .recall import Recall

DEFAULT_ITERATIONS = 200
UCB_C = 0.7  # UCB1's constant, for rewards in [0, 1]
# A rule set that declares heuristics has its random playouts stopped after this many
# decisions and judged by them (see _playout_cutoff).
ROLLOUT_CUTOFF = 60
# With a prior (``prior`` in the spec), how strongly it biases the root's choice: a
# child's value gains PRIOR_WEIGHT * odds / (visits + 1), which fades as playouts come in.
PRIOR_WEIGHT = 1.0


class _Node:
    __slots__ = ("player", "children", "visits", "total", "available", "odds", "allowed")

    def __init__(self, player: str | None):
        self.player = player  # who chose the option leading here
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.odds: dict[str, float] | None = None  # the policy's odds per option key (the root only)
        self.allowed: set[str] | None = None  # the option keys the root may pick (None: all)


class MCTSBot:
    name = "mcts"
    needs_events = True  # the tracker follows the game through the events the seat saw

    def __init__(self, seed: int, iterations: int = DEFAULT_ITERATIONS, seconds: float | None = None,
                 prior: bool = False, top: int | None = None, cutoff: int = ROLLOUT_CUTOFF,
                 playouts: str = "random", team: bool = False, loyal: bool = False, paired: bool = False,
                 uniform: bool = False, recall: bool = False, most: int | None = None, z: float = PAIRED_Z,
                 idle: bool = False):
        self._random = random.Random(seed)
        self.idle = idle  # may end a turn before acting in it (see _played_turn)
        self.iterations = iterations
        self.seconds = seconds
        self.prior = prior or top is not None  # pruning orders the options by the prior
        self.top = top
        self.cutoff = cutoff
        self.playouts = playouts  # "random", or "policy": every seat played by its policy
        self._playout_policy: PlayoutPolicy | None = None
        self.team = team  # a cut-off playout rewards each seat by its side's standing
        self.loyal = loyal  # each seat is rewarded by the side it was on at the root
        self.paired = paired  # a flat, paired check of the policy's choice (bots/paired.py)
        if paired:
            self.prior = True  # the check starts from the policy's favourite
        self._policy: SeatPolicy | None = None
        self._ruleset = None
        self._tracker: Tracker | None = None
        self.last_iterations = 0  # how many iterations the last decision ran
        # with paired, the last check: its samples and whether it replaced the favourite
        self.last_check: dict | None = None
        self._evaluation: Evaluation | None = None
        self.uniform = uniform  # deal hidden properties uniformly, whatever the rules' beliefs
        self._believer: Evaluation | None = None  # reads the seat's beliefs, with its memory
        self._belief_read = 0  # how many of the game's events the believer has been handed
        self.recall = recall  # the playouts' seats remember the game (bots/recall.py)
        self.most = most  # with paired: the most samples an undecided check may grow to
        self.z = z  # with paired: the standard errors a candidate must win by
        self._recall: Recall | None = None
        self._cutoff_shares: CutoffShares | None = None  # a cooperative game's, for one search

    def learn_rules(self, ruleset) -> None:
        if ruleset is not self._ruleset:
            self._ruleset = ruleset
            self._tracker = None
            self._evaluation = self._playout_cutoff(ruleset)
            believer = Evaluation(ruleset) if declares_heuristics(ruleset) and not self.uniform else None
            self._believer = believer if believer is not None and believer.has_beliefs() else None

    def choose(self, view: dict) -> int:
        self.last_check = None
        options = view["choice"]["options"]
        if len(options) == 1:
            return 0
        tracker = self._tracker_for(view)
        if tracker is None or not tracker.follow(view):
            return self._unsearched(view)
        index = self._search(tracker, view)
        tracker.answered(view, index)
        return index

    def _unsearched(self, view: dict) -> int:
        """The answer when the bot's copy of the game is lost (nothing to sample from):
        the policy's favourite, ties at random, as the heuristic bot would play; at
        random without a policy."""
        keys = [option_key(o) for o in view["choice"]["options"]]
        allowed = None if self.idle else _played_turn(view, keys, None)
        candidates = [i for i, k in enumerate(keys) if allowed is None or k in allowed]
        odds = self._policy.priors(view) if self._policy is not None else None
        if odds is None:
            return candidates[self._random.randrange(len(candidates))]
        best = max(odds[i] for i in candidates)
        ties = [i for i in candidates if odds[i] == best]
        return ties[0] if len(ties) == 1 else ties[self._random.randrange(len(ties))]

    def _tracker_for(self, view: dict) -> Tracker | None:
        if self._ruleset is None:  # no rules handed over: nothing to search with
            return None
        events = view.get("events") or []
        new_game = self._tracker is None or self._tracker.viewer != view["viewer"] or not events or \
            len(events) < getattr(self, "_events_seen", 0)
        if new_game:
            self._tracker = Tracker(self._ruleset, len(view["players"]), view["viewer"], self._random)
            self._policy = SeatPolicy(self._ruleset, self._random) if self.prior else None
            self._belief_read = 0
            self._recall = Recall(self._ruleset, view["viewer"]) if self.recall else None
            if self._believer is not None:
                self._believer.forget()
        self._events_seen = len(events)
        return self._tracker

    # ---- the search
    def _root_odds(self, view: dict) -> tuple[list[float] | None, set[str] | None]:
        """The policy's odds for the root's options (None without a prior or a policy)
        and the option keys the search may pick from (None: all of them)."""
        odds = self._policy.priors(view) if self._policy is not None else None
        if odds is None or self.top is None or self.top >= len(odds):
            return odds, None
        order = list(range(len(odds)))
        self._random.shuffle(order)  # equal odds: a random one of them is kept
        order.sort(key=lambda i: -odds[i])
        return odds, {option_key(view["choice"]["options"][i]) for i in order[:self.top]}

    def _beliefs(self, view: dict) -> dict | None:
        """What the seat believes of hidden properties now (the rules' ``believe``
        lines, read with its memory of the game), or None to deal them uniformly."""
        if self._believer is None:
            return None
        events = view.get("events") or []
        self._believer.remember(view["viewer"], events[self._belief_read:])
        self._belief_read = len(events)
        return self._believer.beliefs(view) or None

    def _search(self, tracker: Tracker, view: dict) -> int:
        rng = self._random
        cooperative = "cooperative" in (self._ruleset.data.game.sides or {})
        odds, allowed = self._root_odds(view)
        keys = [option_key(o) for o in view["choice"]["options"]]
        if not self.idle:
            allowed = _played_turn(view, keys, allowed)
        if allowed is not None and len(allowed) == 1:
            return keys.index(next(iter(allowed)))
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        beliefs = self._beliefs(view)
        if self._recall is not None:
            self._recall.update(view, tracker.state)
        if self.paired:
            return self._paired(tracker, view, keys, odds, allowed, deadline, beliefs)
        if self.playouts == "policy":
            self._playout_policy = PlayoutPolicy(self._ruleset, rng)
            if not self._playout_policy.usable:
                self._playout_policy = None
        # a cooperative game's cut-offs are compared with this search's other cut-offs
        self._cutoff_shares = CutoffShares() if cooperative and self._evaluation is not None else None
        root = _Node(None)
        root.odds = dict(zip(keys, odds)) if odds is not None else None
        root.allowed = allowed
        done = failed = 0
        seen_in = tracker.places.read(view)  # where the seat saw things go, kept in every sample
        while done < self.iterations and (deadline is None or time.perf_counter() < deadline):
            done += 1
            state = determinize(tracker, view, rng, beliefs=beliefs, seen_in=seen_in)
            root_sides = sides_or_none(self._ruleset, state) if self.loyal else None
            try:
                rewards, path = self._iterate(root, state, cooperative, root_sides)
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
            if odds is not None:  # no playout ran: the policy's choice
                return max(range(len(keys)), key=lambda i: odds[i])
            return rng.randrange(len(keys))
        visits = [root.children[k].visits if k in root.children else -1 for k in keys]
        best = max(visits)
        ties = [i for i, v in enumerate(visits) if v == best]
        if odds is not None:  # equally visited: the policy's favourite among them
            top_odds = max(odds[i] for i in ties)
            ties = [i for i in ties if odds[i] == top_odds]
        return ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]

    def _paired(self, tracker: Tracker, view: dict, keys: list[str], odds: list[float] | None,
                allowed: set[str] | None, deadline: float | None, beliefs: dict | None = None) -> int:
        """The ``paired`` setting: the policy's favourite, unless a flat check on shared
        samples finds one of the other candidates clearly better (bots/paired.py)."""
        candidates = [i for i, k in enumerate(keys) if allowed is None or k in allowed]
        if odds is not None:
            favourite = max(candidates, key=lambda i: odds[i])  # the first of equals, as the policy lists them
        else:
            favourite = candidates[self._random.randrange(len(candidates))]
        choice, found = paired_choice(
            self._ruleset, tracker, view, self._random, candidates, favourite, self.iterations, self._evaluation,
            self.cutoff, self.playouts == "policy",
            deadline_check=(lambda: time.perf_counter() >= deadline) if deadline is not None else None,
            defer=odds is not None, beliefs=beliefs, recall=self._recall, most=self.most, z=self.z)
        self.last_iterations = found["samples"]
        self.last_check = {"samples": found["samples"], "replaced": choice != favourite}
        return choice

    def _iterate(self, root: _Node, state, cooperative: bool,
                 root_sides: dict[str, list[str]] | None = None) -> tuple[dict[str, float], list[_Node]]:
        """One iteration from a sampled state: down the tree, one node added, a random
        playout; each seat's reward and the path of nodes to back it up along
        (``root_sides``: each seat's sides in the sample at the root, for ``loyal``)."""
        rng = self._random
        memories = self._recall.playout() if self._recall is not None else None
        machine = memories.machine(state) if memories is not None else Machine(self._ruleset, state)
        playout_policy = self._playout_policy
        if playout_policy is not None and memories is not None:  # its seats remember this playout alone
            playout_policy = PlayoutPolicy(self._ruleset, rng, memories)
        node, path = root, [root]
        added = None
        try:
            while state.result is None and state.pending is not None:
                pending = state.pending
                keys = [option_key(o) for o in pending["options"]]
                allowed = node.allowed if node is root else None
                if allowed is not None and allowed.isdisjoint(keys):
                    allowed = None  # a sample put back in step offers other options: all count
                untried = []
                for i, key in enumerate(keys):
                    if allowed is not None and key not in allowed:
                        continue
                    child = node.children.get(key)
                    if child is None:
                        untried.append(i)
                    else:
                        child.available += 1
                if untried:
                    if node.odds is not None:  # the policy's likeliest untried option first
                        most = max(node.odds.get(keys[i], 0.0) for i in untried)
                        untried = [i for i in untried if node.odds.get(keys[i], 0.0) == most]
                    index = untried[rng.randrange(len(untried))]
                    child = node.children[keys[index]] = _Node(pending["player"])
                    added = (node, keys[index])
                    child.available = 1
                    machine.answer(index)
                    path.append(child)
                    break
                index = self._select(node, keys, allowed)
                node = node.children[keys[index]]
                path.append(node)
                machine.answer(index)
            played = 0
            while state.result is None:  # random rollout
                if self._evaluation is not None and played >= self.cutoff:
                    break
                if playout_policy is not None:
                    machine.answer(playout_policy.choose(state))
                else:
                    machine.answer(rng.randrange(len(state.pending["options"])))
                played += 1
        except RuleRuntimeError:
            if added is not None:
                del added[0].children[added[1]]
            raise
        if state.result is None:  # cut off: the seats judged by the rule set's heuristics
            if self._cutoff_shares is not None:
                share = self._cutoff_shares.reward(self._evaluation, state, memories)
                return {p: share for p in state.players}, path
            rewards = cutoff_rewards(self._evaluation, state, memories)
            if root_sides is not None:
                return loyal_rewards(self._ruleset, state, rewards, root_sides), path
            return (side_rewards(self._ruleset, state, rewards) if self.team else rewards), path
        if root_sides is not None:
            return loyal_rewards(self._ruleset, state, seat_rewards(self._ruleset, state, cooperative), root_sides), path
        return seat_rewards(self._ruleset, state, cooperative), path

    # ---- the hook for rule sets that declare heuristics
    @staticmethod
    def _playout_cutoff(ruleset) -> Evaluation | None:
        """The rule set's heuristics, which end a playout after ROLLOUT_CUTOFF decisions
        and judge the position each seat then sees (bots.evaluation.cutoff_rewards), or
        None: without heuristics every playout runs to the end of the game."""
        return Evaluation(ruleset) if declares_heuristics(ruleset) else None

    @staticmethod
    def _select(node: _Node, keys: list[str], allowed: set[str] | None) -> int:
        best, best_value = 0, -1.0
        for i, key in enumerate(keys):
            if allowed is not None and key not in allowed:
                continue
            child = node.children[key]
            value = child.total / child.visits + UCB_C * math.sqrt(math.log(child.available) / child.visits)
            if node.odds is not None:  # progressive bias: the prior counts until playouts outweigh it
                value += PRIOR_WEIGHT * node.odds.get(key, 0.0) / (child.visits + 1)
            if value > best_value:
                best, best_value = i, value
        return best


def _played_turn(view: dict, keys: list[str], allowed: set[str] | None) -> set[str] | None:
    """The root's options with ending the turn left out while the seat has not acted yet
    in its turn and may (as the greedy and heuristic bots play): with a few playouts
    each, ending the turn at once can look no worse than acting, and a seat that ends its
    turns on that ground sits the game out."""
    options = view["choice"]["options"]
    if view["choice"]["kind"] != "action" or view.get("current") != view["viewer"]:
        return allowed
    ending = {k for k, o in zip(keys, options) if o.get("action") == "end_turn"}
    acting = {k for k in keys if k not in ending} & (allowed if allowed is not None else set(keys))
    if not ending or not acting or _acted_this_turn(view):
        return allowed
    return acting


def _acted_this_turn(view: dict) -> bool:
    """Whether the seat took an action since its turn started (its own events, read
    back to the start of its turn)."""
    me = view["viewer"]
    for event in reversed(view.get("events") or []):
        if event.get("player") != me:
            continue
        if event["type"] == "action_taken":
            return True
        if event["type"] == "turn_started":
            return False
    return False


def seat_rewards(ruleset, state, cooperative: bool) -> dict[str, float]:
    """Each seat's reward from a finished game (see the module doc)."""
    winners = state.result["winners"]
    if not winners:
        return {p: (0.0 if cooperative else 0.5) for p in state.players}
    return {p: 1.0 if won else 0.0 for p, won in seats_on_winning_side(ruleset, state, winners).items()}


def side_rewards(ruleset, state, rewards: dict[str, float]) -> dict[str, float]:
    """Each seat's reward as the average of the rewards of the seats on its side in
    ``state`` (itself included): a seat gains nothing by standing better than its own
    teammates, only by its side standing better. Unchanged without teams, or when the
    sides cannot be read from the sample."""
    if not ruleset.data.game.sides:
        return rewards
    try:
        sides = seat_sides(ruleset, state)
    except (RuleRuntimeError, KeyError, IndexError, TypeError, ValueError):
        return rewards
    out = {}
    for p, own in sides.items():
        mates = [q for q, theirs in sides.items() if set(own) & set(theirs)] or [p]
        out[p] = sum(rewards[q] for q in mates) / len(mates)
    return out


def loyal_rewards(ruleset, state, rewards: dict[str, float], root_sides: dict[str, list[str]]) -> dict[str, float]:
    """Each seat's reward as that of the side it was on at the root (``root_sides``):
    the average of ``rewards`` over the seats on that side in ``state`` (itself only if
    it stayed), 0 when none is left on it. From a finished game's rewards (1 to the
    winning side's seats) this is 1 when the seat's side at the root won, whatever side
    the seat ended on; from a cut-off playout's, that side's average standing."""
    now = sides_or_none(ruleset, state)
    if now is None:
        return rewards
    out = {}
    for p in state.players:
        was = set(root_sides.get(p, ()))
        mates = [q for q in state.players if was & set(now.get(q, ()))]
        out[p] = sum(rewards[q] for q in mates) / len(mates) if mates else 0.0
    return out


def make_mcts(seed: int, spec: str | None = None) -> MCTSBot:
    """The ``mcts`` bot; ``spec`` is what follows ``mcts:`` (see :func:`parse_spec`)."""
    if spec is None:
        return MCTSBot(seed)
    return MCTSBot(seed, **parse_spec(spec))


# The most a spec may ask per decision: beyond these a game would in practice never end.
MOST_ITERATIONS = 1_000_000
MOST_SECONDS = 3600
SPEC_HELP = "mcts:N[:S][:prior][:topK][:cutK][:play][:team][:loyal][:paired][:uptoK][:zX][:uniform][:recall][:idle], e.g. mcts:200, mcts:200:1.5 or mcts:48:top3:cut20"


def parse_spec(spec: str) -> dict:
    """The settings in ``spec``, the part of a bot name after ``mcts:``: N iterations per
    decision, then in any order S seconds at most per decision, ``prior`` (the root's
    options biased by the seat's policy, :mod:`rulecraft.bots.policy`), ``topK`` (only
    the policy's K likeliest options looked at; implies ``prior``), ``cutK`` (playouts
    judged by the rule set's heuristics after K decisions instead of 60) and ``play``
    (every seat of a playout played by its policy instead of at random), ``team``
    (cut-off playouts rewarded by side, :func:`side_rewards`), ``loyal`` (each seat
    rewarded by the side it was on at the root, :func:`loyal_rewards`), ``paired``
    (a flat check of the policy's choice on shared samples, :mod:`rulecraft.bots.paired`),
    ``uptoK`` (with ``paired``: an undecided check doubles its samples up to K), ``zX``
    (with ``paired``: a candidate must win by X standard errors, not 2), ``uniform``
    (hidden properties dealt uniformly, whatever the rule set's ``believe`` lines say)
    ``recall`` (the playouts' seats remember the game, :mod:`rulecraft.bots.recall`) and
    ``idle`` (the turn may be ended before acting in it, see :func:`_played_turn`).
    ValueError with a one-line reason when the spec is wrong."""
    iterations, *rest = spec.split(":")
    if not iterations.isdigit() or int(iterations) < 1:
        raise ValueError(f"mcts:{spec}: the iterations per decision must be a positive whole number ({SPEC_HELP})")
    if int(iterations) > MOST_ITERATIONS:
        raise ValueError(f"mcts:{spec}: at most {MOST_ITERATIONS:,} iterations per decision (a game would never end); "
                         "give a time per decision instead, e.g. mcts:100000:10")
    settings: dict = {"iterations": int(iterations)}
    for part in rest:
        name = next((n for n in ("seconds", "prior", "top", "cutoff", "playouts", "team", "loyal", "paired", "uniform",
                                  "recall", "idle", "most", "z") if _claims(n, part)), None)
        if name is None:
            raise ValueError(f"mcts:{spec}: '{part}' is no setting of the search bot ({SPEC_HELP})")
        if name in settings:
            raise ValueError(f"mcts:{spec}: '{part}' sets {name} a second time")
        if name == "prior":
            settings["prior"] = True
            continue
        if name == "playouts":
            settings["playouts"] = "policy"
            continue
        if name in ("team", "loyal", "paired", "uniform", "recall", "idle"):
            settings[name] = True
            continue
        number = part[len("upto"):] if name == "most" else part[1:] if name == "z" else \
            part[3:] if name in ("top", "cutoff") else part
        try:
            value = float(number) if name in ("seconds", "z") else int(number)
        except ValueError:
            value = 0
        if not math.isfinite(value):  # inf and nan read as numbers
            value = 0
        if name == "seconds" and value > MOST_SECONDS:
            raise ValueError(f"mcts:{spec}: at most {MOST_SECONDS:,} seconds per decision")
        if value <= 0:
            what = {"seconds": "the time per decision must be a positive number of seconds",
                    "top": "topK needs a positive whole number of options",
                    "cutoff": "cutK needs a positive whole number of decisions",
                    "most": "uptoK needs a positive whole number of samples",
                    "z": "zX needs a positive number of standard errors"}[name]
            raise ValueError(f"mcts:{spec}: {what} ({SPEC_HELP})")
        settings[name] = value
    if "z" in settings and not settings.get("paired"):
        raise ValueError(f"mcts:{spec}: {next(p for p in rest if p.startswith('z'))} sets how clearly the paired "
                         "check must be won: it needs paired")
    if "most" in settings:
        if not settings.get("paired"):
            raise ValueError(f"mcts:{spec}: upto{settings['most']} grows the paired check's samples: it needs paired")
        if settings["most"] <= settings["iterations"]:
            raise ValueError(f"mcts:{spec}: upto{settings['most']} must be more than the "
                             f"{settings['iterations']} samples the check starts with")
    return settings


def _claims(name: str, part: str) -> bool:
    """Whether ``part`` of a spec is meant as the setting ``name`` (right or wrong)."""
    if name == "prior":
        return part == "prior"
    if name == "playouts":
        return part == "play"
    if name in ("team", "loyal", "paired", "uniform", "recall", "idle"):
        return part == name
    if name == "top":
        return part.startswith("top")
    if name == "cutoff":
        return part.startswith("cut")
    if name == "most":
        return part.startswith("upto")
    if name == "z":
        return part.startswith("z")
    return bool(part) and (part[0].isdigit() or part[0] in ".-+")


# the settings that follow the seat's policy (rulecraft.bots.policy), by their written form
_POLICY_SETTINGS = {"prior": "prior", "top": "topK", "paired": "paired", "playouts": "play"}


def policy_problem(spec: str, ruleset) -> str | None:
    """Why a setting of ``spec`` that follows the seat's policy cannot be played on this
    rule set (one line), or None: without a strategy for the game nor ``prefer`` lines in
    its heuristics there is no policy, and the setting would be silently ignored."""
    try:
        settings = parse_spec(spec)
    except ValueError:
        return None  # told by budget_problem
    wanted = [written for name, written in _POLICY_SETTINGS.items() if settings.get(name)]
    if not wanted or has_policy(ruleset):
        return None
    game = ruleset.data.game
    return (f"mcts:{spec}: {', '.join(wanted)} follow{'s' if len(wanted) == 1 else ''} the seat's policy, and "
            f"{game.title} has none (no strategy for '{game.name}' and no 'prefer' line in its heuristics): "
            f"leave {'it' if len(wanted) == 1 else 'them'} out")


def budget_problem(spec: str) -> str | None:
    """Why ``spec`` is not a setting of the mcts bot (one line), or None."""
    try:
        parse_spec(spec)
    except ValueError as exc:
        return str(exc)
    return None
