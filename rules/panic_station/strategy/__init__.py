"""How the heuristic bot plays Panic Station.

Installed with rulecraft and registered under the game's name in the
``rulecraft.strategies`` entry-point group (pyproject.toml); the heuristic bot finds it
there, never by importing Python from a rule-set folder. Every rule fact it plays by is
read from the rule set in play (:mod:`.rules`).
"""

from .scoring import PanicStationStrategy

__all__ = ["PanicStationStrategy"]
