"""What each seat gets at the end of a game, as the rule set declares it.

A rule set may name in ``game.payoff`` (game.yaml) a function ``(player) -> number``
of its rules and the range of its values (``min``, ``max``; ``sum`` when the seats'
payoffs always add up to the same number): the money a hand wins or loses, a game's final
score. The research interfaces reward a finished game's seats with it
(:func:`returns`); without it, with +1 to every seat the game's result names among its
winners, -1 to the others, and 0 to all when nobody won (-1 in a cooperative game, which
the game won). The winners are the rules' own: a seat of the winning side that the
victory leaves out (a player who died, or joined the side too late to share its victory)
did not win, as ``simulate`` counts it, and is not rewarded as if it had.
"""

from __future__ import annotations

from rulecraft.dsl.model import RuleSet

from .state import GameState, people_seats


class PayoffError(ValueError):
    """A payoff outside the range the rule set declares, or payoffs that do not add up
    to the declared sum: interfaces that promised the range cannot go on."""


def payoffs(ruleset: RuleSet, state: GameState) -> dict[str, float] | None:
    """Each seat's payoff in the finished game ``state`` (the seats of people and bots,
    scripted seats aside), or None when the rule set declares none."""
    spec = ruleset.data.game.payoff
    if not spec:
        return None
    from .machine import Machine

    machine = Machine(ruleset, state)
    params, fn = ruleset.compiled.functions[spec["function"]]
    with machine.reading():
        out = {p: float(fn(machine, {params[0]: p})) for p in people_seats(ruleset, state)}
    for seat, value in out.items():
        if not spec["min"] <= value <= spec["max"]:
            raise PayoffError(f"{spec['function']}({seat}) gives {value:g}, outside the payoff range "
                              f"{spec['min']:g} to {spec['max']:g} that game.payoff declares")
    if "sum" in spec and abs(sum(out.values()) - spec["sum"]) > 1e-9:
        raise PayoffError(f"the payoffs add up to {sum(out.values()):g}, not the {spec['sum']:g} game.payoff declares")
    return out


def returns(ruleset: RuleSet, state: GameState) -> dict[str, float]:
    """A finished game's return to each seat of people and bots (see the module doc)."""
    paid = payoffs(ruleset, state)
    if paid is not None:
        return paid
    people = people_seats(ruleset, state)
    winners = state.result["winners"]
    if not winners:
        cooperative = "cooperative" in (ruleset.data.game.sides or {})
        return {p: -1.0 if cooperative else 0.0 for p in people}
    return {p: 1.0 if p in winners else -1.0 for p in people}
