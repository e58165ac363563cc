"""What parts of a game's state a checked expression may read.

The machine remembers a condition's value while nothing it may read has changed. Most
conditions read the board, the entities and the variables, which only statements
change; a few also read whose turn it is (``current_player``, ``turn_number``,
``round_number`` or a per-turn variable), which changes at every turn. Knowing which,
a condition that does not read the turn keeps its value from one turn to the next.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass

from . import ast
from .model import RuleSet

# the names whose value changes when a turn (or a round) begins
TURN_VALUES = frozenset({"current_player", "turn_number", "round_number"})


def reads_turn(ruleset: RuleSet, exprs) -> bool:
    """Could any of ``exprs`` (or a rule-set function it calls, at any depth) read whose
    turn it is, the turn or round number or a per-turn variable?"""
    functions = {d.name: d for d in ruleset.of_kind("function")}
    seen: set[str] = set()
    todo = [e for e in exprs if e is not None]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Name):
            ref = getattr(node, "ref", None)
            if ref is None or (ref[0] == "value" and ref[1] in TURN_VALUES):
                return True  # unresolved: assume the worst
            continue
        if isinstance(node, ast.Attr) and getattr(node.obj, "type", None) == "scope" and node.obj.id == "turn":
            return True
        if isinstance(node, ast.Call):
            ref = getattr(node, "ref", None)
            if ref is None:
                return True
            if ref[0] == "function" and ref[1] not in seen:
                seen.add(ref[1])
                definition = functions.get(ref[1])
                if definition is None:
                    return True
                todo.append(definition.value)
        if is_dataclass(node):
            for f in fields(node):
                value = getattr(node, f.name)
                if isinstance(value, ast.Node):
                    todo.append(value)
                elif isinstance(value, (list, tuple)):
                    todo.extend(_nodes(value))
    return False


def _nodes(items):
    for item in items:
        if isinstance(item, ast.Node):
            yield item
        elif isinstance(item, (list, tuple)):
            yield from _nodes(item)
