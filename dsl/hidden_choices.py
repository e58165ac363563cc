"""Choices that would show a player the contents of a zone hidden from them.

A choice lists its options to the one who chooses. When those options are the things
in another player's private zone (a zone ``visible_to: owner``), the chooser would see
what that zone holds, and could pick from a hand that is not theirs. This check runs
on checked definitions (names resolved) and is conservative: it only looks at the
options' own source (``contents(Z(x))``, joins, ``take``/``reversed``/``without`` of
it, a comprehension's list), never at filters, and a zone of the chooser themselves,
written the same way as the chooser, is fine.
"""

from __future__ import annotations

import dataclasses

from . import ast
from .diagnostics import DiagnosticBag
from .model import RuleSetData

_READS_ZONE = {"contents", "top", "bottom"}
_KEEPS_ITEMS = {"take", "reversed", "without", "distinct", "first", "last"}


def private_zones_offered(e: ast.Expr | None, data: RuleSetData) -> list[tuple[str, ast.Expr]]:
    """(zone, owner expression) of each owner-only zone whose things ``e`` offers."""
    if e is None:
        return []
    if isinstance(e, ast.Call) and getattr(e, "ref", None) and e.args:
        kind, name = e.ref
        if kind == "builtin" and name in _READS_ZONE:
            zone = e.args[0]
            ref = getattr(zone, "ref", None)
            if isinstance(zone, ast.Call) and ref and ref[0] == "player_zone" and zone.args:
                spec = data.zones.get(ref[1])
                if spec is not None and spec.visible_to == "owner" and spec.per_player:
                    return [(ref[1], zone.args[0])]
            return []
        if kind == "builtin" and name in _KEEPS_ITEMS:
            return private_zones_offered(e.args[0], data)
        return []
    if isinstance(e, ast.Binary) and e.op == "+":
        return private_zones_offered(e.left, data) + private_zones_offered(e.right, data)
    if isinstance(e, ast.Comprehension):
        return private_zones_offered(e.iterable, data)
    if isinstance(e, ast.Ternary):
        return private_zones_offered(e.then, data) + private_zones_offered(e.otherwise, data)
    return []


def same_expression(a, b) -> bool:
    """The two expressions are written the same way (positions aside)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same_expression(x, y) for x, y in zip(a, b))
    if not isinstance(a, ast.Node):
        return a == b
    return all(same_expression(getattr(a, f.name), getattr(b, f.name))
               for f in dataclasses.fields(a) if f.name not in ("pos", "name_pos"))


def check_offer(bag: DiagnosticBag, data: RuleSetData, what: str, options: ast.Expr | None,
                chooser: ast.Expr | None, chooser_text: str, several: bool = False) -> None:
    """Warn where ``options`` offers another player's private things to ``chooser``
    (``several``: the chooser is any of several players, who cannot be told apart)."""
    for zone, owner in private_zones_offered(options, data):
        if not several and chooser is not None and same_expression(owner, chooser):
            continue
        if several:
            hint = f"name the reacting player ('by p: player in ...') and offer {zone}(p)"
        else:
            hint = f"offer the chooser's own {zone}, or let the owner of that {zone} choose"
        bag.warning(f"{what} offers the things in a '{zone}' that {chooser_text} may not see", options.pos,
                    hint, code="hidden")
