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
        todo.extend(child_nodes(node))
    return False


def child_nodes(node):
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
FIXED_BUILTINS = frozenset({"count", "sum", "min", "max", "any", "all", "first", "last", "take", "numbers", "reversed", "combinations",
                            "without", "distinct", "flatten", "kind_of", "next_player", "seats_from", "spot", "tile_of",
                            "rooms_of"})
# ... and those that only read the board: fixed on a board declared whole, not on one of
# laid tiles, which grows.
BOARD_BUILTINS = frozenset({"step", "line", "lines", "direction_for", "link", "connection", "connected", "adjacent",
                            "rooms_towards", "sides_of", "open_sides", "tiles_around", "region", "region_avoiding",
                            "path", "path_avoiding", "distance", "distance_avoiding", "within", "within_avoiding"})


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


def steady_value(ruleset: RuleSet, expr, fixed: set[str] | None = None) -> bool:
    """Whether ``expr`` has the same value for a whole game: no local variable, and it
    reads only what fixed functions may read (see fixed_functions), e.g. ``lines(3)`` on
    a board declared whole."""
    board = ruleset.data.board
    allowed = FIXED_BUILTINS | (BOARD_BUILTINS if board is not None and board.kind != "tiles" else frozenset())
    fixed = fixed_functions(ruleset) if fixed is None else fixed
    if any(isinstance(node, ast.Name) and getattr(node, "ref", None) is not None and node.ref[0] == "local"
           for node in _all_nodes(expr)):
        return False
    return _reads_nothing_changing(expr, allowed, fixed.__contains__)


def _all_nodes(expr):
    todo = [expr]
    while todo:
        node = todo.pop()
        yield node
        todo.extend(child_nodes(node))


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
        todo.extend(child_nodes(node))
    return True


# ---------------------------------------------------------------- footprints
#
# The listing of legal actions keeps a parameter's passing candidates from one decision
# to the next and recomputes only those whose inputs changed (interpreter/listing.py).
# That is sound when a filter reads the state only through a few known values, its
# *roots* (the candidate itself, an earlier parameter, the current player): the
# *footprint* of a value v is entity v's location and properties, zone v's contents, and
# the locations and properties of the things in zone v; the footprint of a list (a line
# of squares) is that of each value in it. A filter is local when, besides
# its roots' footprints, it reads only what a game never changes (arguments, players,
# kinds, tables, a board declared whole, functions fixed for the game) and, by value, the
# current player. Anything else (a variable, a record, the turn number, a zone named by
# a constant, a property of a value found elsewhere) makes it non-local: never kept.

CURRENT = "$current"  # the root standing for the current player


class _NotLocal(Exception):
    pass


# What an expression's value is, for reading through it: a root itself, a list of the
# things in a root's zone, one of those things, or a value that must not be read through.
_PLAIN = ("plain",)


def footprint_reads(ruleset: RuleSet, expr, roots, properties: set | None = None,
                    fixed: set[str] | None = None) -> tuple[frozenset, bool] | None:
    """For an expression whose local variables ``roots`` (names) are roots: the roots
    whose footprint it may read and whether it reads the current player, or None when it
    may read more than that (see above). ``expr`` None reads nothing. The names of the
    properties it reads through footprints (``at`` for a location) are added to
    ``properties``: a footprint changes only by them and by zones' contents. ``fixed``:
    the rule set's fixed_functions, when the caller has them already."""
    if expr is None:
        return frozenset(), False
    board = ruleset.data.board
    declared = board is not None and board.kind != "tiles"
    analysis = _Footprints({d.name: d for d in ruleset.of_kind("function")},
                           fixed_functions(ruleset) if fixed is None else fixed,
                           FIXED_BUILTINS | (BOARD_BUILTINS | {"on_board"} if declared else frozenset()))
    try:
        analysis.value(expr, {name: ("root", name) for name in roots})
    except _NotLocal:
        return None
    if properties is not None:
        properties |= analysis.properties
    return frozenset(analysis.read), analysis.current


class _Footprints:
    def __init__(self, functions: dict, fixed: set[str], builtins: frozenset):
        self.functions = functions
        self.fixed = fixed
        self.builtins = builtins
        self.read: set[str] = set()
        self.properties: set[str] = set()
        self.current = False
        self.calls = 0  # rule-set function bodies looked into, bounded (no recursion)

    def value(self, e, scope: dict) -> tuple:
        """What ``e``'s value is (see _PLAIN); records the roots read."""
        if isinstance(e, ast.Literal):
            return _PLAIN
        if isinstance(e, ast.Name):
            ref = getattr(e, "ref", None)
            if ref is None:
                raise _NotLocal
            kind, name = ref
            if kind == "local":
                if name not in scope:
                    raise _NotLocal
                return scope[name]
            if kind == "value":
                if name == "current_player":
                    self.current = True
                    return ("root", CURRENT)
                if name == "players":
                    return _PLAIN
                raise _NotLocal
            if kind in ("kind", "parameter", "table", "die"):
                return _PLAIN
            raise _NotLocal  # a zone or entity named by a constant, a scope
        if isinstance(e, ast.Attr):
            if getattr(e.obj, "type", None) == "scope" or str(getattr(e.obj, "type", "")).startswith("event "):
                raise _NotLocal
            obj = self.value(e.obj, scope)
            if e.name == "id":
                return obj
            self._read_through(obj)
            self.properties.add(e.name)
            return _PLAIN
        if isinstance(e, ast.Call):
            return self.call(e, scope)
        if isinstance(e, ast.Comprehension):
            items = self.value(e.iterable, scope)
            # (the values of a root that is a list are read through it: its footprint)
            item = ("thing in", items[1]) if items[0] == "contents" else (
                ("value in", items[1]) if items[0] == "root" else _PLAIN)
            inner = {**scope, e.var: item}
            for part in (e.item, e.where, e.best, *e.best_then, *e.order):
                if part is not None:
                    self.value(part, inner)
            return _PLAIN
        if isinstance(e, (ast.Index, ast.Unary, ast.Binary, ast.Ternary, ast.ListExpr)):
            for child in child_nodes(e):
                self.value(child, scope)
            return _PLAIN
        raise _NotLocal

    def _read_through(self, value: tuple) -> None:
        if value[0] not in ("root", "thing in", "value in"):
            raise _NotLocal
        self.read.add(value[1])

    def call(self, e: ast.Call, scope: dict) -> tuple:
        ref = getattr(e, "ref", None)
        if ref is None:
            raise _NotLocal
        kind, name = ref
        args = [self.value(a, scope) for a in e.args]
        if kind == "function":
            if name in self.fixed:
                return _PLAIN  # reads nothing a game changes, whatever its arguments
            definition = self.functions.get(name)
            self.calls += 1
            if definition is None or definition.value is None or self.calls > 200:
                raise _NotLocal
            return self.value(definition.value, {p.name: a for p, a in zip(definition.params, args)})
        if kind != "builtin":
            raise _NotLocal  # a player's zone: named by a value, not a root
        if name in ("contents", "top", "bottom"):
            (zone,) = args
            if zone[0] != "root":
                raise _NotLocal
            self.read.add(zone[1])
            return ("contents", zone[1]) if name == "contents" else ("thing in", zone[1])
        if name == "on_board" and name in self.builtins:
            self._read_through(args[0])
            self.properties.add("at")
            return _PLAIN
        if name in self.builtins:
            if args and args[0][0] == "contents" and name in ("first", "last"):
                return ("thing in", args[0][1])
            if args and args[0][0] == "contents" and name in ("take", "reversed", "without"):
                return args[0]
            return _PLAIN
        raise _NotLocal
