"""Choices that would show a player the contents of a zone hidden from them, or a value
hidden from them by the filter that picks the options.

A choice lists its options to the one who chooses. When those options are the things
in another player's private zone (a zone ``visible_to: owner``), the chooser would see
what that zone holds, and could pick from a hand that is not theirs. When an action's
options are filtered by a property the chooser may not see (``with c: card in
contents(hand(current_player)) where c.rank == 1``, the rank ``visible_to: others``),
which options are offered tells the chooser that value. This check runs
on checked definitions (names resolved) and is conservative: it only looks at the
options' own source (``contents(Z(x))``, joins, ``take``/``reversed``/``without`` of
it, a comprehension's list), never at filters, and a zone of the chooser themselves,
written the same way as the chooser, is fine.
"""

from __future__ import annotations

import dataclasses

from . import ast
from .dependencies import child_nodes
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


def _own_zone_offered(e: ast.Expr | None, chooser: ast.Expr) -> bool:
    """Whether ``e`` offers the things of a per-player zone of the chooser (written the same
    way as the chooser): the chooser then owns what is offered."""
    if isinstance(e, ast.Call) and getattr(e, "ref", None) and e.args:
        kind, name = e.ref
        if kind == "builtin" and name in _READS_ZONE:
            zone = e.args[0]
            ref = getattr(zone, "ref", None)
            return bool(isinstance(zone, ast.Call) and ref and ref[0] == "player_zone" and zone.args
                        and same_expression(zone.args[0], chooser))
        if kind == "builtin" and name in _KEEPS_ITEMS:
            return _own_zone_offered(e.args[0], chooser)
        return False
    if isinstance(e, ast.Comprehension):
        return _own_zone_offered(e.iterable, chooser)
    return False


def check_filter(bag: DiagnosticBag, data: RuleSetData, param: ast.Param, kind: str | None,
                 chooser: ast.Expr, chooser_text: str) -> None:
    """Warn where an action's ``with x: KIND in … where COND`` reads a property of x that
    the chooser may not see: nobody sees it, or every player but the owner does and the
    options are the chooser's own things. Offering only the options that pass tells the
    chooser what it hides."""
    spec = data.kinds.get(kind) if kind else None
    if spec is None or param.where is None:
        return
    stack = [param.where]
    while stack:
        x = stack.pop()
        stack.extend(child_nodes(x))
        if not (isinstance(x, ast.Attr) and isinstance(x.obj, ast.Name) and x.obj.id == param.name):
            continue
        prop = spec.properties.get(x.name)
        if prop is None:
            continue
        if prop.visible_to == "nobody" or (prop.visible_to == "others" and _own_zone_offered(param.source, chooser)):
            who = "nobody sees" if prop.visible_to == "nobody" else f"{chooser_text} does not see on its own things"
            bag.warning(f"'with {param.name}' offers only the {kind} whose {x.name} passes the filter, and {kind}.{x.name} "
                        f"is a value {who}: the options offered tell it", x.pos,
                        f"offer every {kind} and let the rule find out after the choice (an 'if' in the action's "
                        f"'do'), as a player acts without knowing it", code="hidden")
            return
