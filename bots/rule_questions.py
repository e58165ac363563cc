"""Ask a rule set's own functions about what one player sees.

A strategy should not restate a rule in Python ("a door of this kind can be passed
when..."): the rule set already says it in a function. :class:`ViewQuestions` answers
such questions by running the rule set's function on a table rebuilt from a player's
view alone: the board, the pieces and cards the player can see, the public variables.
Everything hidden from the player is absent from that table (a hidden zone is empty), so
an answer can never depend on something the player may not know; a function that needs
hidden things fails with :class:`UnanswerableQuestion` instead of guessing.
"""

from __future__ import annotations

from typing import Any

from rulecraft.dsl.model import RuleSet
from rulecraft.interpreter.machine import Machine
from rulecraft.interpreter.state import GameState


class UnanswerableQuestion(ValueError):
    """The rule set's function needs what the player's view does not show."""


def table_seen_by(ruleset: RuleSet, view: dict) -> GameState:
    """A game state holding only what ``view`` shows; hidden zones are empty.

    It shares the view's entities, tiles and variables rather than copying them: the
    rule set's functions have no effects, so nothing writes to them."""
    zones = {z: items if isinstance(items, list) else [] for z, items in view["zones"].items()}
    return GameState(ruleset.name, 0, 0, view["players"], view["entities"], zones, tiles=view["tiles"],
                     vars=view["vars"], current=view.get("current"), round=view.get("round", 0))


class ViewQuestions:
    """The rule set's functions, evaluated on one view's table (answers are remembered
    for this view only)."""

    def __init__(self, ruleset: RuleSet, view: dict):
        self._machine = Machine(ruleset, table_seen_by(ruleset, view))
        self._functions = ruleset.compiled.functions
        self._answers: dict[tuple, Any] = {}

    def ask(self, function: str, *args) -> Any:
        key = (function, *args)
        if key in self._answers:
            return self._answers[key]
        try:
            params, fn = self._functions[function]
        except KeyError:
            raise UnanswerableQuestion(f"the rule set has no function '{function}'") from None
        try:
            answer = fn(self._machine, dict(zip(params, args)))
        except (KeyError, TypeError) as err:  # it reached for something the view hides
            raise UnanswerableQuestion(f"'{function}' needs more than this player's view shows ({err})") from err
        self._answers[key] = answer
        return answer
