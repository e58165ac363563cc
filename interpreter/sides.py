"""Which side each seat plays for and which side won, as the rule set declares it.

A rule set names its sides in ``game.sides`` (game.yaml):

- ``teams``: named teams, each with a member function ``(player) -> bool`` of the rule
  set; a seat is on the team whose function says so when the game ends, so a seat may
  change team during play and ends on the team it finished with;
- ``cooperative``: one named side holding every seat, playing against the game;
- ``free_for_all``: every seat is its own side, named after its player.

A finished game is won by the side of its winners; by ``nobody`` when nobody won. A rule
set that declares no sides has one side, ``winners``, and ``none`` when nobody won.
"""

from __future__ import annotations

from rulecraft.dsl.model import RuleSet

from .state import GameState

NOBODY = "nobody"
UNDECLARED_WIN = "winners"
UNDECLARED_NONE = "none"


def side_names(ruleset: RuleSet, players: list[str]) -> list[str]:
    """Every side a game of these players may be won by, in the declared order."""
    sides = ruleset.data.game.sides
    if not sides:
        return [UNDECLARED_WIN]
    if "teams" in sides:
        return [team["name"] for team in sides["teams"]]
    if "cooperative" in sides:
        return [sides["cooperative"]]
    return list(players)


def seat_sides(ruleset: RuleSet, state: GameState) -> dict[str, list[str]]:
    """Player → the sides they are on in ``state`` (one, unless the rule set's team
    functions overlap; none if no team claims them)."""
    sides = ruleset.data.game.sides
    if not sides:
        return {p: [UNDECLARED_WIN] for p in state.players}
    if "cooperative" in sides:
        return {p: [sides["cooperative"]] for p in state.players}
    if "teams" not in sides:
        return {p: [p] for p in state.players}
    from .machine import Machine

    machine = Machine(ruleset, state)
    functions = ruleset.compiled.functions
    out: dict[str, list[str]] = {}
    for p in state.players:
        out[p] = []
        for team in sides["teams"]:
            params, fn = functions[team["member"]]
            if fn(machine, {params[0]: p}):
                out[p].append(team["name"])
    return out


def winning_side(ruleset: RuleSet, state: GameState, winners: list[str]) -> str:
    """The side that won a finished game: the winners' side (several joined by " + "
    when the winners are on different sides), or ``nobody``."""
    if not ruleset.data.game.sides:
        return UNDECLARED_WIN if winners else UNDECLARED_NONE
    if not winners:
        return NOBODY
    of = seat_sides(ruleset, state)
    found = [s for s in side_names(ruleset, state.players) if any(s in of.get(w, []) for w in winners)]
    return " + ".join(found) if found else NOBODY


def seats_on_winning_side(ruleset: RuleSet, state: GameState, winners: list[str]) -> dict[str, bool]:
    """Player → whether they are on the side that won a finished game with ``winners``
    (without declared sides, whether they are among the winners)."""
    if not ruleset.data.game.sides:  # no sides declared: each winner for itself
        return {p: p in winners for p in state.players}
    won = set(winning_side(ruleset, state, winners).split(" + "))
    sides = seat_sides(ruleset, state)
    return {p: bool(won & set(sides.get(p, ()))) for p in state.players}
