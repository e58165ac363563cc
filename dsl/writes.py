"""Which properties the rules ever change: those a `set` writes, a `gain`, `spend` or
`reset` moves, or an action's cost takes. The others keep, all game long, the values
the tables give the things (a card's printed rank), which a screen need not repeat and
a name may be made from."""

from __future__ import annotations

from . import ast
from .lookahead import statements_in
from .model import RuleSet

# the first name of a `set` target that is a scope, not a thing
_SCOPES = frozenset({"game", "turn"})


def changed_properties(ruleset: RuleSet) -> frozenset[str]:
    """The names of the properties some rule changes, of whatever kind (a name changed on
    one kind counts for every kind: a cautious answer, never a wrong "never changes")."""
    names: set[str] = set()
    for d in ruleset.definitions.values():
        names.update(c.resource for c in getattr(d, "costs", None) or [])
        for s in statements_in(getattr(d, "body", None)):
            if isinstance(s, ast.Set) and len(s.target) >= 2 and s.target[0] not in _SCOPES:
                names.add(s.target[-1])
            elif isinstance(s, ast.ResourceChange):
                names.add(s.resource)
    return frozenset(names)
