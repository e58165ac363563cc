"""Scenarios: a rulebook's worked examples and rule statements, run against a rule set.

A scenario (YAML, ``schemas/scenario.schema.json``) sets up a situation on top of a
game's normal setup, takes steps (actions, answers, procedure calls, forced dice) and
states what must then be true. ``rulecraft verify`` runs every scenario of a game and
reports, for a failure, the step where the game and the scenario parted ways.
Nothing here knows any game.
"""

from .coverage import Coverage, SectionList, coverage, load_sections
from .runner import BROKEN, FAIL, FAILING, FIXED, KNOWN, PASS, SKIP, Divergence, ScenarioResult, run_all, run_scenario
from .scenario import Scenario, ScenarioFile, load_file, load_text, scenario_files

__all__ = [
    "BROKEN", "FAIL", "FAILING", "FIXED", "KNOWN", "PASS", "SKIP", "Coverage", "Divergence", "Scenario", "ScenarioFile", "ScenarioResult",
    "SectionList", "coverage", "load_file", "load_sections", "load_text", "run_all", "run_scenario", "scenario_files",
]
