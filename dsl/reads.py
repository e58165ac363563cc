"""Which entity properties and variables a checked expression may read, when that is all
it reads of what changes in a game.

While a game runs, properties change only through ``set``, resources and the costs of
actions, and variables only through ``set`` (and the turn's at each turn): a condition
reading nothing else keeps its value until one of the properties or variables it reads
is written. Conditions that may read a location, a zone's contents, the board, a
window's record or a standard function reading the state get no such list.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import ast
from .dependencies import FIXED_BUILTINS, child_nodes
from .model import RuleSet

# the names an expression may read that never change in a game, or that change only at
# a turn's start (which the machine counts apart, see dependencies.reads_turn)
_STEADY_NAMES = frozenset({"local", "zone", "entity", "die", "parameter", "table", "kind", "scope"})


@dataclass(frozen=True)
class Reads:
    properties: frozenset[str]  # property names, of any entity
    variables: frozenset[tuple[str, str]]  # (scope, name)


def reads_of(ruleset: RuleSet, exprs) -> Reads | None:
    """The properties and variables ``exprs`` (and the rule-set functions they call, at
    any depth) may read, or None if they may read anything else that changes."""
    functions = {d.name: d for d in ruleset.of_kind("function")}
    properties: set[str] = set()
    variables: set[tuple[str, str]] = set()
    seen: set[str] = set()
    todo = [e for e in exprs if e is not None]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Name):
            ref = getattr(node, "ref", None)
            if ref is None or not (ref[0] in _STEADY_NAMES or ref[0] == "value"):
                return None
            continue
        if isinstance(node, ast.Attr):
            if getattr(node.obj, "type", None) == "scope":
                variables.add((node.obj.id, node.name))
                continue
            if str(getattr(node.obj, "type", "")).startswith("event ") or node.name == "at":
                return None  # a record's field or a location
            if node.name != "id":
                properties.add(node.name)
        elif isinstance(node, ast.Call):
            ref = getattr(node, "ref", None)
            if ref is None:
                return None
            kind, name = ref
            if kind == "function":
                if name not in seen:
                    seen.add(name)
                    definition = functions.get(name)
                    if definition is None or definition.value is None:
                        return None
                    todo.append(definition.value)
            elif not (kind == "builtin" and name in FIXED_BUILTINS or kind == "player_zone"):
                return None
        elif not isinstance(node, (ast.Literal, ast.Index, ast.Unary, ast.Binary, ast.Ternary, ast.ListExpr,
                                   ast.Comprehension)):
            return None
        todo.extend(child_nodes(node))
    return Reads(frozenset(properties), frozenset(variables))

