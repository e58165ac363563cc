"""A position's worth to one seat, as the rule set's own heuristics say, read from that
seat's view alone.

A rule set may declare heuristics in its rules (``heuristic NAME(me: player) [for
SIDE]:``, see docs/language.md): weighted features, numbers read from what the seat
sees, and weighted preferences for kinds of options. :class:`Evaluation` runs them on
a table rebuilt from a view (:func:`rulecraft.bots.rule_questions.table_seen_by`:
hidden zones empty, hidden properties absent), so a score can never depend on what the
seat may not know. The greedy bot scores positions with it; the search bot cuts its
random playouts short with it.

**Memory.** A heuristic may read what its seat remembers (``seen("kind")``: the events of
that kind the seat saw so far). A bot hands the events of its views to
:meth:`Evaluation.remember`; each seat's memory is its own, so judging another seat's
view (as the search bot does) never reads what this seat saw.

Which heuristics judge for a seat: those without ``for``, and those ``for`` a side the
seat is on as far as its own view tells (the side's member function run on the view's
table; a function that needs what the view hides counts as "not on that side"). Their
features add up.

**Beliefs.** A heuristic may also say what its seat takes hidden properties to be
(``believe p.prop = value for p: kind where cond [odds n]``): :meth:`Evaluation.beliefs`
reads them from the view and the seat's memory, and the search bot deals its samples by
them (:func:`rulecraft.bots.determinize.determinize`) instead of uniformly.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort

from rulecraft.dsl.model import RuleSet
from rulecraft.interpreter.machine import Machine, RuleRuntimeError

from .rule_questions import table_seen_by

# A feature that reaches for what the view hides (a hidden zone's contents, a hidden
# property) fails on the view's table; it then counts 0 in that position.
_UNREADABLE = (KeyError, TypeError, IndexError, AttributeError, ValueError, RuleRuntimeError)


def declares_heuristics(ruleset: RuleSet) -> bool:
    program = ruleset.compiled
    return bool(program is not None and getattr(program, "heuristics", None))


class Evaluation:
    """The rule set's heuristics, ready to judge views (one per rule set and bot)."""

    def __init__(self, ruleset: RuleSet):
        self.ruleset = ruleset
        self.heuristics = list(ruleset.compiled.heuristics.values())
        sides = (ruleset.data.game.sides or {}) if ruleset.data.game else {}
        self._teams = {t["name"]: t["member"] for t in sides.get("teams") or []}
        # reaction name → the name its responder goes by, for preferences on reactions
        self._responders = {r.name: r.responder.name for rs in ruleset.compiled.reactions.values()
                            for r in rs if r.responder is not None}
        self._memory: dict[str, dict[str, list[dict]]] = {}  # seat → event kind → events it saw

    def remember(self, seat: str, events) -> None:
        """Note events ``seat`` saw (each once: the new events of each of its views)."""
        memory = self._memory.setdefault(seat, {})
        for event in events or ():
            memory.setdefault(event["type"], []).append(event)

    def forget(self) -> None:
        """Forget every seat's memory (a new game starts)."""
        self._memory.clear()

    def _machine(self, view: dict, memory: dict | None = None) -> Machine:
        machine = Machine(self.ruleset, table_seen_by(self.ruleset, view))
        machine.memory = memory if memory is not None else self._memory.get(view["viewer"])  # read by seen()
        return machine

    def judging(self, view: dict, machine: Machine | None = None) -> list:
        """The heuristics that judge for the view's seat (see the module doc)."""
        machine = machine or self._machine(view)
        me = view["viewer"]
        out = []
        for h in self.heuristics:
            if h.side is None or self._on_side(machine, h.side, me):
                out.append(h)
        return out

    def _on_side(self, machine: Machine, side: str, me: str) -> bool:
        member = self._teams.get(side)
        if member is None:  # the cooperative side holds every seat
            return True
        params, fn = machine.program.functions[member]
        try:
            with machine.reading():
                return bool(fn(machine, {params[0]: me}))
        except _UNREADABLE:
            return False

    def features(self, view: dict) -> list[tuple[str, str, float, float]]:
        """(heuristic, feature label, weight, value) of every feature judging for the seat."""
        machine = self._machine(view)
        me = view["viewer"]
        out = []
        with machine.reading():
            for h in self.judging(view, machine):
                env = {h.seat: me}
                for label, weight, value in h.features:
                    out.append((h.name, label, _number(weight, machine, env), _number(value, machine, env)))
        return out

    def value(self, view: dict, heuristics: list | None = None, memory: dict | None = None) -> float:
        """The weighted sum of the features judging for the view's seat; ``heuristics``
        (from :meth:`judging`) spares finding them again when the seat's side is known;
        ``memory`` (event kind → events) is what the seat remembers, instead of what
        :meth:`remember` noted for it."""
        machine = self._machine(view, memory)
        me = view["viewer"]
        total = 0.0
        with machine.reading():
            for h in heuristics if heuristics is not None else self.judging(view, machine):
                env = {h.seat: me}
                for _, weight, value in h.features:
                    total += _number(weight, machine, env) * _number(value, machine, env)
        return total

    def liking(self, view: dict, heuristics: list | None = None) -> list[float]:
        """For each option of the view's choice, the total weight of the preferences it meets."""
        choice = view["choice"]
        machine = self._machine(view)
        me = view["viewer"]
        out = []
        with machine.reading():
            judging = heuristics if heuristics is not None else self.judging(view, machine)
            for option in choice["options"]:
                total = 0.0
                for h in judging:
                    for target, cond, weight in h.prefers:
                        env = self._option_env(choice["kind"], option, target, h.seat, me)
                        if env is None:
                            continue
                        try:
                            met = cond is None or bool(cond(machine, env))
                        except _UNREADABLE:
                            met = False
                        if met:
                            total += _number(weight, machine, env)
                out.append(total)
        return out

    def has_beliefs(self) -> bool:
        return any(h.beliefs for h in self.heuristics)

    def beliefs(self, view: dict) -> dict[tuple[str, str], list[tuple[object, float | None]]]:
        """What the view's seat believes of hidden properties, by the beliefs of the
        heuristics judging for it: (entity, property) → [(value, odds or None when
        sure)]. Read from the view's table and the seat's memory, as features are; a
        belief whose condition cannot be read from the view is not held."""
        machine = self._machine(view)
        me = view["viewer"]
        out: dict[tuple[str, str], list[tuple[object, float | None]]] = {}
        with machine.reading():
            for h in self.judging(view, machine):
                for var, kind, prop, value, cond, odds in h.beliefs:
                    for eid, entity in machine.state.entities.items():
                        if entity["kind"] != kind:
                            continue
                        env = {h.seat: me, var: eid}
                        try:
                            if cond is not None and not cond(machine, env):
                                continue
                            held = (value(machine, env), None if odds is None else float(odds(machine, env)))
                        except _UNREADABLE:
                            continue
                        out.setdefault((eid, prop), []).append(held)
        return out

    def _option_env(self, kind: str, option, target: str, seat: str, me: str) -> dict | None:
        """The names a preference on ``target`` reads for this option, or None when the
        option is not of that kind."""
        env = {seat: me}
        if kind == "choose":
            if target != "choice":
                return None
            env["choice"] = option
            return env
        name = option.get("action") if kind == "action" else option.get("reaction")
        if name != target:
            return None
        env.update(option.get("args") or {})
        responder = self._responders.get(name)
        if responder is not None:
            env[responder] = me
        return env


def _number(fn, machine: Machine, env: dict) -> float:
    try:
        value = fn(machine, env)
    except _UNREADABLE:
        return 0.0
    if value is None:
        return 0.0
    return float(value)


def seat_worth(evaluation: Evaluation, state, seat: str, memories=None) -> float:
    """What ``state`` is worth to ``seat``, judged from its own view and, with
    ``memories`` (:class:`rulecraft.bots.recall.PlayoutMemories`), with what it remembers."""
    from rulecraft.interpreter.views import player_view

    return evaluation.value(player_view(evaluation.ruleset, state, seat),
                            memory=memories.of(seat) if memories is not None else None)


def cutoff_rewards(evaluation: Evaluation, state, memories=None) -> dict[str, float]:
    """Each seat's reward in [0, 1] for an unfinished game, from its own view's worth:
    the best-placed seat 1, the worst 0, the others in proportion (all 0.5 when they are
    level). Scale-free, so the weights' units do not matter; a search that stops a
    playout early backs these up instead of a result. ``memories``
    (:class:`rulecraft.bots.recall.PlayoutMemories`): what each seat remembers."""
    worth = {p: seat_worth(evaluation, state, p, memories) for p in state.players}
    low, high = min(worth.values()), max(worth.values())
    if high - low < 1e-9:
        return {p: 0.5 for p in worth}
    return {p: (v - low) / (high - low) for p, v in worth.items()}


class CutoffShares:
    """Rewards for the cut-off playouts of one search in a cooperative game. Every seat
    is on the one side there, so comparing the seats with each other
    (:func:`cutoff_rewards`) says nothing: all are level. Instead a cut-off position is
    compared with those the same search reached before it: its reward is the share of
    them it is better than (ties count half; the first is 0.5). Scale-free like
    :func:`cutoff_rewards`, and between a loss (0) and a win (1)."""

    def __init__(self):
        self._seen: list[float] = []

    def reward(self, evaluation: Evaluation, state, memories=None) -> float:
        """The share for ``state``'s worth (the seats' average, each from its own view)."""
        return self.place(sum(seat_worth(evaluation, state, p, memories) for p in state.players) / len(state.players))

    def place(self, worth: float) -> float:
        """The share of the earlier worths below ``worth`` (half of those level with it)."""
        seen = self._seen
        below, level = bisect_left(seen, worth), bisect_right(seen, worth)
        share = (below + (level - below) / 2) / len(seen) if seen else 0.5
        insort(seen, worth)
        return share
