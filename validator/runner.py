"""Running a scenario: the game, its setup, its steps, and what must then be true.

A scenario stops at the first step that cannot be carried out or whose expectations
do not hold; its result names that step (number, what it does, YAML position) and
gives every expected-versus-actual difference found there.
"""

from __future__ import annotations

from collections.abc import Callable
import dataclasses
from dataclasses import dataclass, field

from rulecraft.dsl.diagnostics import DiagnosticBag, Position
from rulecraft.dsl.model import RuleSet
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import END_TURN, IllegalAnswer, RuleRuntimeError
from rulecraft.interpreter.state import RANDOM_PICKS, forced_shuffle_key

from .arrange import ScenarioError, apply_setup, fix_shuffles, fixed_picks, forced_rolls_left, starting_values
from .expect import (Expectations, Mismatch, action_options, copy_ambiguity, find_options, fmt, fmt_option, fmt_options,
                     full_args, value_parameters)
from .names import Names, check_scenario, check_variant, default_players, names_for
from .randomness import RandomnessWatch, placed_by_shuffles
from .scenario import Scenario, step_verb

PASS, FAIL, BROKEN, SKIP = "pass", "fail", "broken", "skip"
# A scenario marked known_failure: it failed as expected, or it passed (remove the mark).
KNOWN, FIXED = "known", "fixed"
# Results that make `rulecraft verify` exit 1.
FAILING = (FAIL, BROKEN, FIXED)


@dataclass
class Divergence:
    """Where a scenario stopped agreeing with the game."""

    label: str  # "setup", "step 3 (do move)", "expect (after the steps)"
    position: Position | None
    message: str | None = None
    mismatches: list[Mismatch] = field(default_factory=list)


@dataclass
class ScenarioResult:
    scenario: Scenario
    status: str  # pass, fail, broken, skip, known, fixed
    divergence: Divergence | None = None
    bag: DiagnosticBag | None = None  # the problems of a broken scenario
    reason: str | None = None  # why it was skipped
    # Randomness the steps relied on without arranging it (cards drawn, dice rolled).
    unarranged: list[str] = field(default_factory=list)
    # A passing scenario that relied on it, played again with it dealt otherwise: how
    # many other deals it passed, and the first that failed (its number and where).
    redeals_passed: int = 0
    redeal_failed: tuple[int, Divergence] | None = None
    # A passing scenario that names no seed, played again on the game's setup dealt by
    # other seeds: the first seed it failed with, and where (it relied on the default
    # seed's deal: who starts, what the hands hold).
    seed_failed: tuple[int, Divergence] | None = None

    @property
    def passed(self) -> bool:
        return self.status == PASS


class StepBroken(Exception):
    """A step the scenario wrote wrongly (the rules are not at fault): the scenario is
    BROKEN, with the message at ``path`` (a part of the scenario) and a hint."""

    def __init__(self, message: str, path: list, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.hint = hint


class StepFailed(Exception):
    def __init__(self, message: str | None, mismatches: list[Mismatch] | None = None):
        super().__init__(message or "expectations not met")
        self.message = message
        self.mismatches = mismatches or []


# Called with ("before", game) once the scenario's setup is in place and with
# ("after", game) where it stopped, so a reader (the docs' board pictures) can look on.
Watcher = Callable[[str, Game], None]


def run_scenario(ruleset: RuleSet, sc: Scenario, variant: str | None = None, watch: Watcher | None = None,
                 redeals: int = 0, seeds: int = 0) -> ScenarioResult:
    """Check a scenario's names, then play it; never raises for a scenario's failure.

    With ``redeals``, a scenario that passes although it relies on randomness it did not
    arrange is played again up to that many times with that randomness dealt otherwise
    (:meth:`RandomnessWatch.redeal`), stopping at the first deal it fails. With ``seeds``,
    a passing scenario that names no seed is played again on that many other seeds'
    setups (who starts, what the hands hold), stopping at the first it fails."""
    info = ruleset.variant
    chain = info.chain if info is not None else ([variant] if variant else [])
    if sc.variant is not None and sc.variant not in chain:
        bag = DiagnosticBag()
        if not check_variant(sc, ruleset, bag):
            return ScenarioResult(sc, BROKEN, bag=bag)
        return ScenarioResult(sc, SKIP, reason=f"variant '{sc.variant}' (run with --variant {sc.variant})")
    if info is not None and sc.title in info.superseded:
        return ScenarioResult(sc, SKIP, reason=f"superseded by variant '{info.name}': {info.superseded[sc.title]}")
    bag = DiagnosticBag()
    if not check_scenario(sc, ruleset, bag):
        return ScenarioResult(sc, BROKEN, bag=bag)
    result = _Run(ruleset, sc, watch).run()
    if result.status == PASS and result.unarranged:
        for deal in range(1, redeals + 1):
            again = _Run(ruleset, sc, redeal=deal).run()
            if again.status != PASS:
                result.redeal_failed = (deal, again.divergence)
                break
            result.redeals_passed = deal
    if result.status == PASS and seeds and not sc.seed_given:
        # what the steps draw is dealt again above; what the game's own setup dealt
        # before them (the hands, who starts) only another seed deals again
        for deal in range(1, seeds + 1):
            seed = redeal_seed(sc.seed, deal)
            again = _Run(ruleset, dataclasses.replace(sc, seed=seed)).run()
            if again.status != PASS:
                result.seed_failed = (seed, again.divergence)
                break
    if sc.known_failure is not None:
        # Like a strict expected failure: failing is expected; passing means the rule
        # set now follows the rulebook and the mark must go.
        result.status = KNOWN if result.status == FAIL else FIXED
    return result


class _Run:
    def __init__(self, ruleset: RuleSet, sc: Scenario, watch: Watcher | None = None, redeal: int | None = None):
        self.ruleset = ruleset
        self.sc = sc
        self.watch = watch
        self.redeal = redeal  # play with the randomness it left to chance dealt again, this time
        self.players = default_players(ruleset, sc)
        self.names: Names = names_for(ruleset, self.players)
        self.game: Game | None = None
        self.events_from = 0
        self.decisions_from = 0
        self.start_tiles: set[str] = set()
        self.randomness: RandomnessWatch | None = None

    def run(self) -> ScenarioResult:
        result = self._play()
        if self.randomness is not None:
            self.randomness.stop()
            result.unarranged = self.randomness.warnings()
        if self.watch is not None and self.game is not None:
            self.watch("after", self.game)
        return result

    def _play(self) -> ScenarioResult:
        sc = self.sc
        fixed = dict(sc.game_setup.get("rolls") or {})
        if "picks" in sc.game_setup:
            fixed[RANDOM_PICKS] = fixed_picks(self.names, sc.game_setup["picks"])
        shuffles: dict = {}
        fix_shuffles(shuffles, self.names, sc.game_setup.get("shuffles") or {})
        fixed.update(shuffles)
        try:
            self.game = Game(self.ruleset, self.players, sc.seed, forced_rolls=fixed,
                             **starting_values(self.names, sc.game_setup))
        except (RuleRuntimeError, IllegalAnswer, ValueError) as err:
            return self._fail("the game's setup", sc.where, f"the game could not start: {err}")
        left = forced_rolls_left(self.game)
        if left:
            return self._fail("the game's setup", sc.key_position("game_setup"),
                              f"the game's setup did not use every result fixed for it: {fmt(left)} left")
        self.start_tiles = set(self.game.state.tiles)
        # what the scenario fixed the setup's shuffles to put on top is arranged too
        arranged: set[str] = placed_by_shuffles(self.game, {
            zone: shuffles[forced_shuffle_key(zone)][0] for zone in sc.game_setup.get("shuffles") or {}})
        if sc.setup:
            try:
                moved = apply_setup(self.game, self.names, sc.setup, self.start_tiles)
            except (ScenarioError, RuleRuntimeError, IllegalAnswer) as err:
                return self._fail("setup", sc.key_position("setup"), str(err))
            arranged |= moved
            # what the game's own setup showed of a thing the scenario then put elsewhere
            # belonged to where it lay before: the arranged table starts with it unseen
            # beyond what the tables show (a card dealt to p2 and shown to the others, then
            # dealt to p1 by the scenario, is not known to p1)
            for eid in moved:
                self.game.state.revealed.pop(eid, None)
            self.events_from = len(self.game.events)
        self.decisions_from = len(self.game.decisions)
        self.randomness = RandomnessWatch(self.game, self.names, arranged)
        if self.redeal is not None:
            self.randomness.redeal(redeal_seed(sc.seed, self.redeal))
        if self.watch is not None:
            self.watch("before", self.game)
        for i, step in enumerate(sc.steps):
            label = f"step {i + 1} ({describe_step(step)})"
            try:
                self._step(step, ["steps", i])
            except StepFailed as failed:
                return self._fail(label, sc.position("steps", i), failed.message, failed.mismatches)
            except StepBroken as broken:
                bag = DiagnosticBag()
                bag.error(broken.message, sc.position("steps", i, *broken.path), broken.hint, code="scenario")
                return ScenarioResult(sc, BROKEN, bag=bag)
            except ScenarioError as err:
                return self._fail(label, sc.position("steps", i), str(err))
            except (RuleRuntimeError, IllegalAnswer) as err:
                return self._fail(label, sc.position("steps", i), f"the rules stopped with an error: {err}")
        mismatches = []
        if sc.expect:
            mismatches = self._expect(sc.expect, ["expect"])
        left = forced_rolls_left(self.game)
        if left:
            mismatches.append(Mismatch("forced rolls used up", "all used", left, sc.key_position("expect") if sc.expect else sc.where,
                                       "a roll or pick the scenario fixed never happened"))
        if mismatches:
            return self._fail("expect (after the steps)", sc.key_position("expect") if sc.expect else sc.where,
                              None, mismatches)
        return ScenarioResult(sc, PASS)

    def _fail(self, label, position, message=None, mismatches=None) -> ScenarioResult:
        return ScenarioResult(self.sc, FAIL, Divergence(label, position, message, list(mismatches or [])))

    # ------------------------------------------------------------ steps
    def _expect(self, block: dict, path: list) -> list[Mismatch]:
        checker = Expectations(self.game, self.names, self.events_from, lambda p: self.sc.position(*path, *p))
        return checker.check(block)

    def _over(self) -> str:
        """Why nothing can be done: the game is over, and how. A game that ran to its
        round limit without one decision since the setup was left no action to take by
        the arranged table (every turn ended on its own)."""
        game = self.game
        said = f"the game is over ({game.result['reason']})"
        if game.result.get("reason") == "round limit" and len(game.decisions) == self.decisions_from:
            said += (f": no player was offered anything to do from the setup on, so turns ended by themselves "
                     f"until round {game.state.round}; does the setup leave each player something to act with?")
        return said

    def _pending(self, kind: str, by: str | None, what: str) -> dict:
        game = self.game
        pending = game.state.pending
        if pending is None:
            raise StepFailed(f"cannot {what}: " + (self._over() if game.over else "nothing is pending"))
        if by is not None and pending["player"] != by:
            raise StepFailed(f"cannot {what} as {by}: it is {pending['player']} who must answer now "
                             f"({pending['kind']}: {pending.get('prompt') or ''})")
        if pending["kind"] != kind:
            raise StepFailed(f"cannot {what}: {pending['player']} is answering {_a(pending['kind'])} "
                             f"({pending.get('prompt') or ''}), not {_a(kind)}; "
                             f"offered: {fmt_options(pending['options'])}")
        return pending

    def _step(self, step: dict, path: list) -> None:
        game = self.game
        verb = step_verb(step)
        by = step.get("by")
        if verb == "end_turn" or (verb == "do" and step["do"] == "end_turn"):
            pending = self._pending("action", by, "end the turn")
            if END_TURN not in pending["options"]:
                raise StepFailed(f"{pending['player']} may not end their turn now (the rules do not offer it); "
                                 f"offered: {fmt_options(pending['options'])}")
            game.choose(pending["options"].index(END_TURN))
        elif verb == "do":
            self._do(step["do"], step.get("args"), by)
        elif verb == "react":
            self._react(step["react"], step.get("args"), by)
        elif verb == "choose":
            pending = self._pending("choose", by, f"choose {fmt(step['choose'])}")
            found = find_options(pending["options"], step["choose"], self.names)
            if len(found) != 1:
                problem = "is not among the options" if not found else f"matches {len(found)} options: say more"
                raise StepFailed(f"{fmt(step['choose'])} {problem} of '{pending.get('prompt') or 'the choice'}'; "
                                 f"offered: {fmt_options(pending['options'])}")
            game.choose(found[0])
        elif verb == "choose_index":
            pending = game.state.pending
            if pending is None:
                raise StepFailed("cannot choose: nothing is pending")
            if by is not None and pending["player"] != by:
                raise StepFailed(f"cannot choose as {by}: it is {pending['player']} who must answer now")
            i = step["choose_index"]
            if i >= len(pending["options"]):
                raise StepFailed(f"there is no option {i}: the choice has {len(pending['options'])} "
                                 f"(numbered from 0): {fmt_options(pending['options'])}")
            game.choose(i)
        elif verb == "call":
            self._call(step["call"], step.get("args") or [])
        elif verb == "roll":
            for die, results in step["roll"].items():
                game.state.forced_rolls.setdefault(die, []).extend(results)
        elif verb == "arrange":
            self.randomness.arranged(apply_setup(game, self.names, step["arrange"], self.start_tiles))
        elif verb == "expect":
            mismatches = self._expect(step["expect"], path + ["expect"])
            if mismatches:
                raise StepFailed(None, mismatches)

    def _do(self, action: str, args: dict | None, by: str | None) -> None:
        label = fmt_option({"action": action, "args": args or {}})
        pending = self._pending("action", by, f"do {label}")
        options = pending["options"]
        found = action_options(options, action, args, self.names)
        if len(found) == 1:
            self.game.choose(found[0])
            return
        self._copy_ambiguity(options, found, args, pending["player"])
        if found:
            raise StepFailed(f"{label} matches {len(found)} options; give the arguments that tell them apart: "
                             f"{fmt_options([options[i] for i in found])}")
        full = full_args(self.names, action, args)
        why = self.game.why_not(action, full) if full is not None else None
        reason = f" ({why})" if why else ""
        values = value_parameters(self.names, action)
        for k, v in (args or {}).items():
            if isinstance(v, str) and v in self.names.copies and v not in self.names.entities and not why \
                    and k not in values:
                held = sorted({(o.get("args") or {}).get(k) for o in options if isinstance(o, dict) and o.get("action") == action}
                              & set(self.names.copies[v]), key=self.names.copies[v].index)
                reason = (f" (no option of {action} with these arguments names a copy of {v} as '{k}'; "
                          + (f"the copies offered: {', '.join(held)})" if held else "none is offered)"))
                break
        raise StepFailed(f"{label} is not legal for {pending['player']} now{reason}; offered: {fmt_options(options)}")

    def _react(self, reaction: str, args: dict | None, by: str | None) -> None:
        pending = self._pending("reaction", by, f"react with {reaction}")
        options = pending["options"]
        if reaction == "pass":
            found = [i for i, o in enumerate(options) if o == {"reaction": "pass"}]
        else:
            found = action_options(options, reaction, args, self.names, key="reaction")
            self._copy_ambiguity(options, found, args, pending["player"])
        if len(found) != 1:
            problem = "is not offered" if not found else f"matches {len(found)} options: give its arguments"
            raise StepFailed(f"reaction {fmt_option({'reaction': reaction, 'args': args or {}})} {problem}; "
                             f"offered: {fmt_options(options)}")
        self.game.choose(found[0])

    def _copy_ambiguity(self, options: list, found: list[int], args: dict | None, player: str) -> None:
        """A component written for one of its copies stands for the copy the options
        offer only when they offer one: several is the scenario's to settle."""
        ambiguous = copy_ambiguity(options, found, args, self.names) if len(found) > 1 else None
        if ambiguous is not None:
            arg, copies = ambiguous
            component = args[arg]
            raise StepBroken(f"'{component}' stands for any of its copies, and {player} may use "
                             f"{len(copies)} of them here: {', '.join(copies)}", ["args", arg],
                             f"write which: {arg}: {copies[0]}")

    def _call(self, name: str, args: list) -> None:
        game = self.game
        s = game.state
        if game.over:
            raise StepFailed(f"cannot call {name}: {self._over()}")
        if s.pending is not None and s.pending["kind"] != "action":
            raise StepFailed(f"cannot call {name} while {s.pending['player']} is answering a {s.pending['kind']} "
                             f"({s.pending.get('prompt') or ''}): answer it first")
        params = self.names.procedures[name]
        values = [self.names.space(v) if t == self.names.space_kind else v for v, (_, t) in zip(args, params)]
        # Like a rule calling the procedure in the middle of the turn: the action choice
        # is withdrawn, the procedure runs (asking any choice it has), then the turn goes on.
        s.pending = None
        game.machine.call_procedure(name, values)
        game.machine.run()


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def describe_step(step: dict) -> str:
    verb = step_verb(step)
    if verb == "do":
        return "do " + fmt_option({"action": step["do"], "args": step.get("args") or {}})
    if verb == "react":
        return "react " + fmt_option({"reaction": step["react"], "args": step.get("args") or {}})
    if verb == "call":
        return f"call {step['call']}({', '.join(fmt(a) for a in step.get('args') or [])})"
    if verb in ("choose", "choose_index", "roll"):
        return f"{verb} {fmt(step[verb])}"
    return verb or "?"


def redeal_seed(seed: int | None, deal: int) -> int:
    """The seed of a scenario's ``deal``-th other deal: apart from its own seed's stream."""
    return ((seed or 0) << 20) + 0x5EED + deal


def run_all(ruleset: RuleSet, scenarios: list[Scenario], variant: str | None = None,
            redeals: int = 0, seeds: int = 0) -> list[ScenarioResult]:
    return [run_scenario(ruleset, sc, variant, redeals=redeals, seeds=seeds) for sc in scenarios]

