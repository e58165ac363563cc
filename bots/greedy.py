"""A bot for any rule set that declares heuristics: it plays the option whose outcome
its seat's heuristics rate best, one step ahead.

For each option the bot plays it on a table of its own, built from its view alone,
and rates the position its seat then sees (:class:`rulecraft.bots.evaluation.Evaluation`),
plus the weights of the heuristics' preferences the option meets:

- **the table**: a new game of the rule set laid out, everything the view shows copied
  over it, and the components the seat has not seen dealt at random into the hidden
  zones, as many as each zone's public count (:func:`rulecraft.bots.determinize.determinize`).
  One deal per decision is shared by all options, so options differ only by what they do.
  An option that then draws on chance (a roll) is played again with other draws, its
  worths averaged (``greedy:N`` draws, 4 by default).
- **playing an option** works where the view says enough about where the rules are:
  an action at the top of the seat's own turn runs on a turn of the seat's own, with
  every rule it sets off, until someone must decide again within it (the turn ended, the
  seat is still the one to move). Heuristics that read whose turn it is get a copy of
  the game followed along the seat's events instead (:class:`Tracker`), on which the
  action runs on into the next player's turn. A choice the action asks of
  the seat itself on the way (a target, a card) is looked ahead the same way, and the
  best line is remembered: when the real game asks those questions, the bot answers as
  planned while the planned answer is offered.
- **a choice outside that line** (a choice asked during another player's turn, a reaction
  window): the view cannot say where the rules stand, so only the preferences rate
  the options.

A finished game rates far above or below any position: won by the seat's side (the
side its own view puts it on), lost, or a draw (0).

**No idle turns.** A seat that has not acted yet in its turn does not end it while an
action is offered: one step ahead, every step out of a comfortable position can look
worse than staying, and a seat that ended its turns on that ground sat out a seventh of
its turns in a shipped game (docs/bots.md). Once it has acted, ending the turn is rated
like any option.

All randomness (the deal, ties) comes from the bot's seeded generator.
"""

from __future__ import annotations

import random
import types

from rulecraft.dsl import ast
from rulecraft.dsl.dependencies import reads_turn
from rulecraft.interpreter.machine import Machine, RuleRuntimeError
from rulecraft.interpreter.sides import seat_sides, winning_side
from rulecraft.interpreter.state import GameState, new_state
from rulecraft.interpreter.views import player_view

from .determinize import Tracker, determinize, option_key
from .evaluation import Evaluation, declares_heuristics

WIN = 1e6
# How many deals of the hidden components each decision averages over (a search draws a
# guess; more deals weigh it better, at that many times the cost: 3 did not play better).
DEALS = 1
# How many times an option that draws on chance (a roll, a shuffle) is played, with other
# draws, to average its worth (see GreedyBot._after); `--bot greedy:N` sets it.
CHANCE_DRAWS = 4
MOST_DRAWS = 64
# How many of its own choices inside one action the bot looks ahead, and over how many options at most.
PLAN_DEPTH = 3
PLAN_WIDTH = 16
_LOOKAHEAD_ERRORS = (RuleRuntimeError, KeyError, IndexError, TypeError, ValueError, AttributeError)


class GreedyBot:
    name = "greedy"
    needs_events = "new"  # each event once: to see its turns start, and for what its heuristics remember (seen)

    def __init__(self, seed: int, setting: str | None = None):
        self._random = random.Random(seed)
        self._draws = int(setting) if setting else CHANCE_DRAWS
        self._ruleset = None
        self._evaluation: Evaluation | None = None
        self._plan: list[str] = []
        self._acted = False  # whether the seat acted in the turn under way
        # heuristics that read whose turn it is judge each option where the game will be
        # when someone must decide next: a copy of the game followed along the seat's events
        self._reads_turn = False
        self._tracker: Tracker | None = None
        self._seen_events: list[dict] = []
        self._full_view: dict | None = None  # the view with every event the seat saw, for the copy
        self._followed = False  # whether the copy stands at this decision

    @staticmethod
    def setting_problem(setting: str) -> str | None:
        """``greedy:N``: how many draws an option that draws on chance is averaged over."""
        if not setting.isdigit() or not 1 <= int(setting) <= MOST_DRAWS:
            return (f"'greedy:{setting}': the greedy bot's setting is how many draws an option that draws on "
                    f"chance is averaged over, a whole number from 1 to {MOST_DRAWS} (greedy alone: {CHANCE_DRAWS})")
        return None

    @staticmethod
    def rules_problem(ruleset) -> str | None:
        if not declares_heuristics(ruleset):
            return (f"{ruleset.data.game.title} declares no heuristic "
                    "(the greedy bot plays rule sets with 'heuristic' definitions; see docs/language.md)")
        return None

    def learn_rules(self, ruleset) -> None:
        if ruleset is not self._ruleset:
            self._ruleset = ruleset
            self._evaluation = Evaluation(ruleset) if declares_heuristics(ruleset) else None
            self._reads_turn = self._evaluation is not None and reads_turn(ruleset, [
                x for h in ruleset.of_kind("heuristic") for f in h.features for x in (f.value, f.weight)
                if isinstance(x, ast.Expr)])
            self._tracker = None

    def choose(self, view: dict) -> int:
        index = self._choose(view)
        if self._tracker is not None and self._followed:
            self._tracker.answered(self._full_view, index)
        return index

    def _follow(self, view: dict) -> None:
        """Move the copy of the game to this decision (heuristics reading whose turn it is)."""
        self._followed = False
        if not self._reads_turn:
            return
        events = view.get("events") or []
        if events and events[0].get("seq") == 0:  # a new game: its stream starts again
            self._seen_events, self._tracker = [], None
        self._seen_events.extend(events)
        self._full_view = dict(view, events=self._seen_events)
        if self._tracker is None or self._tracker.viewer != view["viewer"]:
            self._tracker = Tracker(self._ruleset, len(view["players"]), view["viewer"], self._random)
        self._followed = self._tracker.follow(self._full_view)

    def _choose(self, view: dict) -> int:
        choice = view["choice"]
        options = choice["options"]
        if self._ruleset is not None:
            self._follow(view)
        if any(e["type"] == "turn_started" and e.get("player") == view["viewer"] for e in view.get("events") or ()):
            self._acted = False
        if self._evaluation is not None:
            self._evaluation.remember(view["viewer"], view.get("events"))
        if len(options) == 1:
            self._note(choice, options[0])
            return 0
        if self._evaluation is None:
            return self._random.randrange(len(options))
        if choice["kind"] == "choose" and self._plan:
            planned = self._plan.pop(0)
            keys = [option_key(o) for o in options]
            if planned in keys:
                return keys.index(planned)
            self._plan = []
        self._plan = []
        judging = self._evaluation.judging(view)
        liking = self._evaluation.liking(view, judging)
        scores = list(liking)
        plans: list[list[str]] = [[] for _ in options]
        if choice["kind"] == "action" and view.get("current") == view["viewer"]:
            if self._reads_turn and self._followed:
                tables = [self._tracked_table(view) for _ in range(DEALS)]
            else:
                tables = [t for t in (self._table(view) for _ in range(DEALS)) if t is not None]
            for table in tables:
                for i in range(len(options)):
                    worth, plan = self._after(table, i, view["viewer"], judging, PLAN_DEPTH)
                    scores[i] += worth / len(tables)
                    plans[i] = plans[i] or plan
        index = self._best(choice, options, scores)
        self._plan = plans[index]
        self._note(choice, options[index])
        return index

    def _note(self, choice: dict, option) -> None:
        if choice["kind"] == "action":
            self._acted = option.get("action") != "end_turn"

    def _best(self, choice: dict, options: list, scores: list[float]) -> int:
        ending = [i for i, o in enumerate(options) if choice["kind"] == "action" and o.get("action") == "end_turn"]
        acting = [i for i in range(len(options)) if i not in ending]
        if ending and acting and not self._acted:
            options_left = acting  # a turn in which the seat can act is played, not passed
        else:
            options_left = list(range(len(options)))
        best = max(scores[i] for i in options_left)
        ties = [i for i in options_left if scores[i] >= best - 1e-9]
        return ties[0] if len(ties) == 1 else ties[self._random.randrange(len(ties))]

    # ---- looking one step ahead
    def _table(self, view: dict) -> GameState | None:
        """A full state consistent with the view, waiting for the seat's action on a turn
        of its own (see the module doc)."""
        ruleset = self._ruleset
        base = new_state(ruleset, len(view["players"]), 0)
        base.players = list(view["players"])
        base.tiles = {tile: list(at) for tile, at in (view.get("tiles") or {}).items()}
        base.pending = {"kind": "action", "player": view["viewer"], "prompt": view["choice"].get("prompt", ""),
                        "options": []}
        copy_source = types.SimpleNamespace(ruleset=ruleset, viewer=view["viewer"], state=base)
        try:
            state = determinize(copy_source, view, self._random)
        except _LOOKAHEAD_ERRORS:
            return None
        # the turn's last allowed action: once it is done, the turn ends (victories are
        # checked) without listing the next options, which the bot does not need
        last = max(0, ruleset.data.game.actions_per_turn_limit - 1)
        state.stack = [{"k": "turn", "player": view["viewer"], "actions": last}]
        state.result = None
        return state

    def _tracked_table(self, view: dict) -> GameState:
        """A full state consistent with the view whose rules stand where the real game's
        do (the copy's frames and counters): an option played on it runs on to the next
        decision, whoever's it is, so a heuristic that reads whose turn it is reads the
        turn that follows."""
        return determinize(self._tracker, self._full_view, self._random, seen_in=self._tracker.places.read(view))

    def _after(self, table: GameState, index: int, me: str, judging: list, depth: int) -> tuple[float, list[str]]:
        """The worth to ``me`` of answering ``index`` on ``table`` (a copy is played), and
        the seat's best answers to the choices that follow inside the same action. An
        option whose play draws on chance (a reroll) is played again with other draws and
        its worths averaged over the bot's number of draws (``CHANCE_DRAWS``): one roll
        alone would rate a reroll by its luck."""
        worths, plan = [], []
        for draw in range(self._draws if depth == PLAN_DEPTH else 1):
            state = table.clone()
            if draw:
                state.rng = self._random.getrandbits(64)
            try:
                Machine(self._ruleset, state).answer(index)
            except _LOOKAHEAD_ERRORS:
                return 0.0, []
            worth, answers = self._worth(state, me, judging, depth)
            worths.append(worth)
            plan = plan or answers
            if state.rng == table.rng:
                break  # it drew nothing: every play of it is this one
        return sum(worths) / len(worths), plan

    def _worth(self, state: GameState, me: str, judging: list, depth: int) -> tuple[float, list[str]]:
        if state.result is not None:
            return self._outcome(state, me), []
        pending = state.pending
        if (pending is not None and pending["player"] == me and pending["kind"] == "choose" and depth > 0
                and 1 < len(pending["options"]) <= PLAN_WIDTH):
            best, best_plan = None, []
            liking = self._evaluation.liking(player_view(self._ruleset, state, me), judging)
            for i, option in enumerate(pending["options"]):
                worth, plan = self._after(state, i, me, judging, depth - 1)
                worth += liking[i]
                if best is None or worth > best:
                    best, best_plan = worth, [option_key(option)] + plan
            return best, best_plan
        view = player_view(self._ruleset, state, me)
        return self._evaluation.value(view, judging), []

    def _outcome(self, state: GameState, me: str) -> float:
        winners = state.result.get("winners") or []
        if not winners:
            return 0.0
        if not self._ruleset.data.game.sides:
            return WIN if me in winners else -WIN
        won = set(winning_side(self._ruleset, state, winners).split(" + "))
        return WIN if won & set(seat_sides(self._ruleset, state).get(me, ())) else -WIN
