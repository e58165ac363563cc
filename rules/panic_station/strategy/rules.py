"""The rule facts the Panic Station strategy plays by, read from the rule set in play.

Nothing here restates a rule: the numbers come from the rule set's parameters, tables and
components, and questions such as "may this player pass that door" are put to the rule
set's own functions (:mod:`rulecraft.bots.rule_questions`). A variant that changes a
fact (four gas cans to burn the Hive) therefore changes how the strategy plays.
"""

from __future__ import annotations

from rulecraft.dsl.model import RuleSet
from rulecraft.interpreter.board import Board, Geometry, board_for
from rulecraft.interpreter.state import tile_layouts


class RuleFacts:
    """What the strategy needs to know of one rule set; shared by every game of it."""

    def __init__(self, ruleset: RuleSet):
        data = ruleset.data
        params = {name: spec["value"] for name, spec in data.parameters.items()}
        self.ruleset = ruleset
        self.gas_cans_to_burn: int = params["gas_cans_to_burn"]
        self.full_health: int = params["starting_health"]  # healing never goes above it
        self.sick_bay_healing: int = params["sick_bay_healing"]
        self.parasite_damage: dict[str, int] = dict(data.tables["parasite_damage"])
        # a parasite's side when the view does not say: the one doing least damage
        self.mildest_side = min(self.parasite_damage, key=self.parasite_damage.get)
        infection = next(c for c in data.components if c.kind == "infection_card" and c.per_player)
        self.infection_card = infection.name  # ids read <name>.<player>.<n>
        self.own_infection_cards: int = infection.count  # each player starts with this many of their colour
        self.geometry = Geometry(data.board, tile_layouts(ruleset))
        self.directions = len(self.geometry.directions)

    def board(self, tiles: dict) -> Board:
        # tiles in sorted order: the board (and so the order of its rooms) depends only on
        # which tiles lie where, not on the order they were laid in
        return board_for(self.geometry, {t: list(v) for t, v in sorted(tiles.items())})

    def __deepcopy__(self, memo):  # fixed for a rule set: copies of a bot share it
        return self


# what the strategy asks the rule set's functions (station.py)
FUNCTIONS_ASKED = ("can_pass", "parasite_step", "meetings_force_trades")


class RulesDoNotFit(ValueError):
    """The rule set lacks a fact the strategy plays by (a rule set that only borrows the
    game's name, say)."""


def facts_of(ruleset: RuleSet) -> RuleFacts:
    """The facts of ``ruleset``, read once and kept with it."""
    shared = ruleset.compiled.shared
    facts = shared.get(__name__)
    if facts is None:
        missing = [f for f in FUNCTIONS_ASKED if f not in ruleset.compiled.functions]
        if missing:
            raise RulesDoNotFit(f"the rule set has no function {', '.join(missing)}")
        try:
            facts = RuleFacts(ruleset)
        except (KeyError, StopIteration, AttributeError, TypeError) as err:
            raise RulesDoNotFit(f"the rule set lacks a fact the strategy reads ({type(err).__name__}: {err})") from None
        shared[__name__] = facts
    return facts


def rules_problem(ruleset: RuleSet) -> str | None:
    """Why the strategy cannot play by ``ruleset`` (one line), or None."""
    try:
        facts_of(ruleset)
    except RulesDoNotFit as err:
        return str(err)
    return None
