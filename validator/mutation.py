"""Running mutants: does what `rulecraft verify` runs notice each change?

A mutant is loaded from memory (the changed text stands in for its file while the rule
set loads, see ``dsl.sources``), checked statically, compiled, then run against the
scenarios until the first one fails. It is KILLED by a static error (a cheap kill,
counted apart) or by a failing, broken or crashing scenario; it SURVIVES when every
scenario passes; it TIMES OUT when it runs past the per-mutant limit (a changed rule
can make a game loop). Each worker puts first the scenarios that killed most mutants
so far, so a mutant usually dies on its first scenario.
"""

from __future__ import annotations

import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

from rulecraft.dsl import disk_cache
from rulecraft.dsl.compiler import compile_ruleset
from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.dsl.loader import load_ruleset
from rulecraft.dsl.sources import replaced_texts
from rulecraft.dsl.variants import load_variant_chain

from .mutants import Mutant
from .names import default_players, names_for
from .runner import FAILING, SKIP, run_scenario
from .scenario import ScenarioFile, asked_functions, load_file, load_variant_scenarios, scenario_files

KILLED, STATIC, SURVIVED, TIMEOUT, EQUIVALENT = "killed", "static", "survived", "timeout", "equivalent"


@dataclass
class Outcome:
    status: str  # killed, static, survived, timeout
    by: str = ""  # the scenario that killed it, or the static error
    seconds: float = 0.0


class MutantTimeout(BaseException):
    """Raised by the per-mutant alarm; not an Exception, so no handler of rule errors takes it."""


@dataclass
class Target:
    """What a run mutates and checks: a rule-set folder, a variant, a scenario folder."""

    root: Path
    variant: str | None
    scenarios: Path


def target_scenario_files(target: Target) -> list[ScenarioFile]:
    """The scenario files a target runs: its folder's, and with a variant, those of the
    variant and of the variants it builds on (what verify --variant runs)."""
    bag = DiagnosticBag()
    folder = target.scenarios
    files = [load_file(p, bag, str(p)) for p in (scenario_files(folder) if folder.is_dir() else [])]
    if target.variant:
        chain = [c[0] for c in load_variant_chain(target.root, target.variant, None, DiagnosticBag())]
        files += load_variant_scenarios(target.root, chain, bag)
    return files


def functions_asked(target: Target) -> set[str]:
    """The functions the target's scenarios ask (``expect: functions:``, in the last
    expectation or in a step): a change to one is noticed even if only heuristics call it."""
    return {name for f in target_scenario_files(target) for sc in f.scenarios for name in asked_functions(sc)}


@dataclass
class Checker:
    """Checks mutants of one target; one per worker process."""

    target: Target
    timeout: float
    texts: dict[str, str] = field(default_factory=dict)
    kills: dict[int, int] = field(default_factory=dict)  # scenario index → mutants it killed
    base_events: dict[str, set[str]] | None = None  # the unchanged rule set's events and their fields

    def __post_init__(self) -> None:
        files = target_scenario_files(self.target)
        self.broken_files = [f.file for f in files if not f.ok]
        self.scenarios = [sc for f in files for sc in f.scenarios]

    def _text(self, file: str) -> str:
        if file not in self.texts:
            self.texts[file] = (self.target.root / file).read_text(encoding="utf-8")
        return self.texts[file]

    def baseline(self) -> tuple[Outcome, int, int]:
        """The unchanged rule set: its outcome, scenarios run and skipped."""
        return self._check({})

    def _base_events(self) -> dict[str, set[str]]:
        """The events the unchanged rule set gives, with their fields (read once)."""
        if self.base_events is None:
            with disk_cache.read_only():
                ruleset = load_ruleset(self.target.root, variant=self.target.variant)
            self.base_events = names_for(ruleset, ruleset.data.game.min_players).event_fields
        return self.base_events

    def check(self, mutant: Mutant) -> Outcome:
        self._base_events()  # read before the mutant's time starts
        texts = {self.target.root / mutant.file: mutant.apply(self._text(mutant.file))}
        return self._check(texts)[0]

    def _check(self, texts) -> tuple[Outcome, int, int]:
        run = skipped = 0
        previous = signal.signal(signal.SIGALRM, _alarm) if self.timeout else None
        if self.timeout:
            signal.setitimer(signal.ITIMER_REAL, self.timeout)
        try:
            with replaced_texts(texts), disk_cache.read_only():
                try:
                    ruleset = load_ruleset(self.target.root, variant=self.target.variant)
                except MutantTimeout:
                    raise
                except Exception as err:  # noqa: BLE001 - verify would stop too
                    return Outcome(STATIC, f"loading crashed: {type(err).__name__}: {err}"), 0, 0
            if ruleset.bag.errors:
                first = ruleset.bag.errors[0]
                where = f"{first.position}: " if first.position else ""
                return Outcome(STATIC, f"{where}{first.message}"), 0, 0
            try:
                compile_ruleset(ruleset)
            except MutantTimeout:
                raise
            except Exception as err:  # noqa: BLE001
                return Outcome(STATIC, f"compiling crashed: {type(err).__name__}: {err}"), 0, 0
            if self.broken_files:
                return Outcome(KILLED, f"scenario file does not load: {self.broken_files[0]}"), 0, 0
            order = sorted(range(len(self.scenarios)), key=lambda i: -self.kills.get(i, 0))
            for i in order:
                sc = self.scenarios[i]
                if texts:  # a mutant: the scenarios still name what the rules named before it
                    names_for(ruleset, default_players(ruleset, sc)).know_events(self._base_events())
                try:
                    result = run_scenario(ruleset, sc, self.target.variant)
                    status = result.status
                except MutantTimeout:
                    raise
                except Exception:  # noqa: BLE001 - an engine crash fails verify too
                    status = "crash"
                if status == SKIP:
                    skipped += 1
                    continue
                run += 1
                if status in FAILING or status == "crash":
                    self.kills[i] = self.kills.get(i, 0) + 1
                    by = sc.title + (" (crashed)" if status == "crash" else "")
                    return Outcome(KILLED, by), run, skipped
            return Outcome(SURVIVED), run, skipped
        except MutantTimeout:
            return Outcome(TIMEOUT, f"ran past {self.timeout:g}s"), run, skipped
        finally:
            if self.timeout:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)

    def timed(self, mutant: Mutant) -> tuple[str, Outcome]:
        start = time.perf_counter()
        outcome = self.check(mutant)
        outcome.seconds = time.perf_counter() - start
        return mutant.id, outcome


def _alarm(_signum, _frame):
    raise MutantTimeout()


# ---- worker processes: one Checker each, built once

_WORKER: Checker | None = None


def init_worker(target: Target, timeout: float) -> None:
    global _WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    _WORKER = Checker(target, timeout)


def check_in_worker(mutant: Mutant) -> tuple[str, Outcome]:
    assert _WORKER is not None
    return _WORKER.timed(mutant)
