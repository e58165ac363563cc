"""What parts of a game's state a checked expression may read.

The machine remembers a condition's value while nothing it may read has changed. Most
conditions read the board, the entities and the variables, which only statements
change; a few also read whose turn it is (``current_player``, ``turn_number``,
``round_number`` or a per-turn variable), which changes at every turn. Knowing which,
a condition that does not read the turn keeps its value from one turn to the next.

Some rule-set functions read nothing that changes during a game: only their arguments,
the players, the kinds' entities and a board declared whole (whose spaces and
connections never change). Their results hold for the whole game.
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
        todo.extend(_children(node))
    return False


def _children(node):
    """The syntax-tree nodes right under ``node``, lists of them flattened."""
    if is_dataclass(node):
        for f in fields(node):
            yield from _nodes(getattr(node, f.name))


def _nodes(value):
    if isinstance(value, ast.Node):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _nodes(item)


# Standard-library functions whose result depends on their arguments only, for a whole
# game (the players, the entities' kinds and a tile's printed spaces never change).
FIXED_BUILTINS = frozenset({"count", "sum", "min", "max", "any", "all", "first", "last", "take", "reversed",
                            "without", "flatten", "kind_of", "next_player", "seats_from", "spot", "tile_of",
                            "rooms_of"})
# ... and those that only read the board: fixed on a board declared whole, not on one of
# laid tiles, which grows.
BOARD_BUILTINS = frozenset({"step", "line", "lines", "direction_for", "link", "connection", "connected", "adjacent",
                            "rooms_towards", "path", "path_avoiding", "distance", "distance_avoiding", "within",
                            "within_avoiding"})


def fixed_functions(ruleset: RuleSet) -> set[str]:
    """The rule-set functions whose value, for given arguments, stays the same for a whole
    game: they read no property, location, zone, variable, record or turn value, and call
    only such functions and standard-library functions of the board when it is declared
    whole."""
    board = ruleset.data.board
    allowed = FIXED_BUILTINS | (BOARD_BUILTINS if board is not None and board.kind != "tiles" else frozenset())
    functions = {d.name: d for d in ruleset.of_kind("function")}
    verdict: dict[str, bool] = {}

    def fixed(name: str, visiting: set[str]) -> bool:
        if name in verdict:
            return verdict[name]
        definition = functions.get(name)
        if definition is None or name in visiting or definition.value is None:
            return False
        visiting.add(name)
        found = _reads_nothing_changing(definition.value, allowed, lambda n: fixed(n, visiting))
        visiting.discard(name)
        verdict[name] = found
        return found

    return {name for name in functions if fixed(name, set())}


def _reads_nothing_changing(expr, allowed, fixed_function) -> bool:
    todo = [expr]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Name):
            ref = getattr(node, "ref", None)
            if ref is None:
                return False
            kind, name = ref
            if kind == "value" and name != "players":
                return False
            if kind not in ("local", "value", "zone", "entity", "die", "parameter", "table", "kind"):
                return False
            continue
        if isinstance(node, ast.Attr):
            if node.name != "id":  # a property, a location, a record's field, a variable
                return False
        elif isinstance(node, ast.Call):
            ref = getattr(node, "ref", None)
            if ref is None:
                return False
            kind, name = ref
            if kind == "function":
                if not fixed_function(name):
                    return False
            elif kind == "builtin":
                if name not in allowed:
                    return False
            elif kind != "player_zone":
                return False
        elif not isinstance(node, (ast.Literal, ast.Index, ast.Unary, ast.Binary, ast.Ternary, ast.ListExpr,
                                   ast.Comprehension)):
            return False
        todo.extend(_children(node))
    return True
