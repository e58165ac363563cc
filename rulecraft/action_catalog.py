"""Every answer a rule set can ever offer, numbered once: actions whose number means the
same move in every state, seed and seat, as learning algorithms expect of an action id.

The research interfaces number a pending choice's options by default (action *i* is the
*i*-th legal option, so the same number means another move in another state). A catalog
instead lists, from the rule set alone, every option each decision could offer:

- an action by its name and a value for each of its parameters (``with x: T ...``), then
  ending the turn when the rule set may offer it;
- a ``choose`` by the name it binds and one of the values it could pick (with ``none``
  when an empty choice may be asked: see ``ask_secret_empty_options``);
- a reaction by its name and its parameters' values, and passing.

A value's possible values come from its type: the entities of a kind (a game's entities
are known before it starts: the players, the board's spaces, the components), true and
false, the zones; or, for a list written out in the rules (``choose way from ["left",
"right"]``, ``with loud: bool in [false, true]``), the values written there. A
number, a text read from the state, a placement or a list of things has no such list:
a rule set whose decisions offer one has no catalog, and :class:`CatalogError` says
which decision and where, in one line.

The catalog depends on the rule set (its variant applied) and the player count only.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from rulecraft.dsl import ast
from rulecraft.dsl import types as T
from rulecraft.dsl.lookahead import statements_in
from rulecraft.interpreter.machine import END_TURN, PASS
from rulecraft.interpreter.state import new_state

# A catalog longer than this is refused: an action space of millions of ids helps no learner.
MOST_ENTRIES = 1_000_000

_END_TURN = ("action", END_TURN["action"], ())
_PASS = ("reaction", PASS["reaction"], ())


class CatalogError(ValueError):
    """The rule set's decisions cannot all be listed in advance (one line: which and why)."""


@dataclass(frozen=True)
class ActionCatalog:
    """The numbered answers: ``entries[i]`` is action id *i*, as a key (``("action",
    name, values)``, ``("choose", name, value)`` or ``("reaction", name, values)``)."""

    entries: tuple
    index: dict

    def __len__(self) -> int:
        return len(self.entries)

    def id_of(self, kind: str, pending: dict, option) -> int:
        """The id of ``option``, one of the options of a pending choice of this ``kind``
        (``"action"``, ``"choose"``, ``"reaction"``); ``pending`` is the state's pending
        choice (a choose names what it binds there)."""
        key = option_key(kind, pending, option)
        found = self.index.get(key)
        if found is None:
            raise CatalogError(f"the option {label(key)} is not in the rule set's action catalog: "
                               f"the catalog left out a value this decision can take")
        return found

    def ids(self, pending: dict) -> list[int]:
        """The id of each option of ``pending``, in the options' order."""
        return [self.id_of(pending["kind"], pending, o) for o in pending["options"]]

    def label(self, action: int) -> str:
        return label(self.entries[action])


def option_key(kind: str, pending: dict, option) -> tuple:
    if kind == "choose":
        return ("choose", pending.get("var"), _hashable(option))
    name = option["action"] if kind == "action" else option["reaction"]
    args = option.get("args") or {}
    return (kind, name, tuple(_hashable(v) for v in args.values()))


def _hashable(value):
    """A value as a catalog key holds it. A list is a set of things (the rules language
    makes lists of lists with ``combinations`` only, whose order follows the list it picks
    from): the same things in another order are the same answer."""
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    if isinstance(value, (list, frozenset)):
        return frozenset(_hashable(v) for v in value)
    return value


def label(key: tuple) -> str:
    """An entry as one reads it: ``mark(a1)``, ``choose f: fore``, ``pass``."""
    kind, name, values = key
    if kind == "choose":
        return f"choose {name}: {_written(values)}"
    if not values:
        return name
    return f"{name}({', '.join(_written(v) for v in values)})"


def _written(value) -> str:
    """A value in a label. Not dsl.types.written_value: that quotes a text, and here most
    texts are the ids of things (``mark(b2)``, not ``mark("b2")``)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, frozenset):
        return "[" + ", ".join(sorted(_written(v) for v in value)) + "]"
    if isinstance(value, tuple):  # a placement: its fields by name
        return "{" + ", ".join(f"{k}: {_written(v)}" for k, v in value) + "}"
    return str(value)


def action_catalog(ruleset, players: int) -> ActionCatalog:
    """The catalog of ``ruleset`` for ``players`` players; :class:`CatalogError` when a
    decision offers values that cannot be listed in advance, or too many."""
    domains = _Domains(ruleset, players)
    program = ruleset.compiled
    entries: list[tuple] = []

    def add_product(kind: str, name: str, params: list[ast.Param], where: str) -> None:
        lists = [domains.of_param(p, f"parameter '{p.name}' of {where}") for p in params]
        size = 1
        for values in lists:
            size *= len(values)
        if len(entries) + size > MOST_ENTRIES:
            raise CatalogError(f"{where} alone has {size:,} combinations of values, more than an action catalog "
                               f"holds ({MOST_ENTRIES:,}): use actions='options'")
        entries.extend((kind, name, tuple(_hashable(v) for v in values)) for values in itertools.product(*lists))

    for info in program.actions:
        d = info.definition
        add_product("action", info.name, d.params, f"action '{info.name}'")
    if _may_end_turn(ruleset):
        entries.append(_END_TURN)
    for var, values in domains.of_chooses().items():
        entries.extend(("choose", var, _hashable(v)) for v in values)
    # a reaction open to several windows is listed under each: it gets one set of ids
    reactions = {r.name: r for group in program.reactions.values() for r in group}
    if reactions:
        entries.append(_PASS)
        for name, r in reactions.items():
            add_product("reaction", name, r.definition.params, f"reaction '{name}'")
    if len(entries) > MOST_ENTRIES:
        raise CatalogError(f"the rule set's decisions have {len(entries):,} answers in all, more than an action "
                           f"catalog holds ({MOST_ENTRIES:,}): use actions='options'")
    ordered = tuple(dict.fromkeys(entries))  # a value listed twice keeps its first id
    return ActionCatalog(ordered, {key: i for i, key in enumerate(ordered)})


def _at(pos) -> str:
    return f"{pos.file}:{pos.line}"


def _may_end_turn(ruleset) -> bool:
    """Whether a turn may ever be ended by choice: not when the rule set's say on it is
    a function that is plainly false (``= false``)."""
    name = ruleset.compiled.end_turn_allowed
    if name is None:
        return True
    d = ruleset.definitions.get(name)
    value = getattr(d, "value", None)
    return not (isinstance(value, ast.Literal) and value.value is False)


class _Domains:
    """The values a decision's slot can take, from its type or its written list."""

    def __init__(self, ruleset, players: int):
        self.ruleset = ruleset
        state = new_state(ruleset, players, 0)
        self.by_kind: dict[str, list[str]] = {}
        for eid, e in state.entities.items():
            self.by_kind.setdefault(e["kind"], []).append(eid)
        self.zones = list(state.zones)
        self.entities = list(state.entities)
        board = ruleset.data.board
        self.tiles = len(self.by_kind.get(board.tile_kind, [])) if board is not None and board.tile_kind else 0
        self.turns = len(board.directions) if board is not None else 0
        self.bounds = _Bounds(ruleset, self.by_kind)
        self.inside: set[str] = set()  # the functions whose lists are being read (a recursive one is read once)

    def of_type(self, t: str, what: str, pos) -> list:
        t = t.removesuffix("?")
        if t in self.ruleset.data.kinds:
            return list(self.by_kind.get(t, []))
        if t == T.BOOL:
            return [False, True]
        if t == T.ZONE:
            return list(self.zones)
        if t == T.NONE:
            return [None]
        if t == T.ANY:
            # what the checker cannot type is taken to be a thing of the game (a target that
            # may be a character or a creature); any other value stops the game, naming it
            return list(self.entities)
        if t == T.PLACEMENT and self.tiles:
            return self.placements()
        if T.is_list(t):
            why = "a list of values, whose every combination cannot be listed"
        else:
            why = f"any {t}, which cannot be listed in advance"
        raise CatalogError(f"{what} ({_at(pos)}) takes {why}: write its values out (as in [\"a\", \"b\"], or "
                           f"numbers(a, b) with declared bounds), or use actions='options'")

    def placements(self) -> list[dict]:
        """Every spot a tile may be laid at: tiles are laid touching the ones laid before,
        from the first one's cell, so no cell lies farther than one fewer than the tiles
        in either direction; each turned by a multiple of a full turn over the directions."""
        reach = self.tiles - 1
        step = 360 // self.turns
        return [{"x": x, "y": y, "rotation": r} for x in range(-reach, reach + 1) for y in range(-reach, reach + 1)
                for r in range(0, 360, step)]

    def of_expr(self, e: ast.Expr, item_type: str, what: str):
        """The values a list written ``e`` can hold: those written out, else by type."""
        if isinstance(e, ast.ListExpr) and all(isinstance(x, ast.Literal) for x in e.items):
            return [x.value for x in e.items]
        if isinstance(e, ast.Call) and getattr(e, "ref", None) == ("builtin", "numbers") and len(e.args) == 2:
            return self.numbers(e, what)
        if isinstance(e, ast.Call) and getattr(e, "ref", None) == ("builtin", "combinations") and len(e.args) == 2:
            return self.combinations(e, item_type, what)
        if isinstance(e, ast.Call) and getattr(e, "ref", None) == ("function", e.func) and e.func not in self.inside:
            function = self.ruleset.definitions.get(e.func)
            if getattr(function, "value", None) is not None:  # the list the rules' function gives
                self.inside.add(e.func)
                try:
                    return self.of_expr(function.value, item_type, what)
                finally:
                    self.inside.discard(e.func)
        if isinstance(e, ast.Comprehension) and isinstance(e.item, ast.Name) and e.item.id == e.var:
            return self.of_expr(e.iterable, item_type, what)  # a filter keeps some of the list's own items
        if isinstance(e, ast.Binary) and e.op == "+":
            return self.of_expr(e.left, item_type, what) + self.of_expr(e.right, item_type, what)
        if isinstance(e, ast.Ternary):
            return self.of_expr(e.then, item_type, what) + self.of_expr(e.otherwise, item_type, what)
        return self.of_type(item_type, what, e.pos)

    def numbers(self, e: ast.Call, what: str) -> list[int]:
        """``numbers(a, b)``: every whole number from the least ``a`` can be to the most
        ``b`` can be, where both are known (see :class:`_Bounds`)."""
        low, high = self.bounds_of(e.args[0], what, e, "least"), self.bounds_of(e.args[1], what, e, "most")
        if high[1] - low[0] + 1 > MOST_ENTRIES:
            raise CatalogError(f"{what} ({_at(e.pos)}) takes numbers from {low[0]} to {high[1]}, more than an action "
                               f"catalog holds ({MOST_ENTRIES:,}): use actions='options'")
        return list(range(low[0], high[1] + 1))

    def bounds_of(self, e: ast.Expr, what: str, call: ast.Call, side: str) -> tuple[int, int]:
        try:
            return self.bounds.of(e)
        except _Unknown as unknown:
            raise CatalogError(f"{what} ({_at(call.pos)}) takes numbers, and the {side} of them is not known in "
                               f"advance: {self.bounds.why(unknown.expr)}; or use actions='options'") from None

    def combinations(self, e: ast.Call, item_type: str, what: str) -> list[frozenset]:
        """``combinations(list, n)``: every set of n of the things the list can hold, for
        every n the count can be."""
        sizes = self.bounds_of(e.args[1], what, e, "most")
        things = self.of_expr(e.args[0], T.item_type(item_type) if T.is_list(item_type) else T.ANY, what)
        things = list({_hashable(t): t for t in things})
        total = sum(math.comb(len(things), n) for n in range(max(sizes[0], 0), sizes[1] + 1))
        if total > MOST_ENTRIES:
            raise CatalogError(f"{what} ({_at(e.pos)}) picks {total:,} sets of things, more than an action catalog "
                               f"holds ({MOST_ENTRIES:,}): use actions='options'")
        return [frozenset(_hashable(t) for t in picked) for n in range(max(sizes[0], 0), sizes[1] + 1)
                for picked in itertools.combinations(things, n)]

    def of_param(self, p: ast.Param, what: str) -> list:
        if p.source is not None:
            return self.of_expr(p.source, _type_text(p.type), what)
        return self.of_type(_type_text(p.type), what, p.pos)

    def of_chooses(self) -> dict[str, list]:
        """Per name a ``choose`` binds, the values any choose of that name can pick, in the
        order first written (``none`` last, when an empty choice may be asked)."""
        found: dict[str, list] = {}
        for d in self.ruleset.definitions.values():
            for s in statements_in(getattr(d, "body", None) if isinstance(getattr(d, "body", None), ast.Block)
                                   else None):
                if isinstance(s, ast.Choose):
                    what = f"'choose {s.var}' in {d.kind} '{d.name}'"
                    values = self.of_expr(s.options, getattr(s, "item_type", T.ANY), what)
                    found.setdefault(s.var, []).extend(values)
        secret = {i.var for block in self.ruleset.compiled.blocks for i in block
                  if getattr(i, "secret_count", False)}
        for var in secret & set(found):
            found[var].append(None)
        return {var: list({_hashable(v): v for v in values}.values()) for var, values in found.items()}


class _Unknown(Exception):
    """A number whose bounds nothing declares (``expr``: the part of it that lacks them)."""

    def __init__(self, expr: ast.Expr):
        super().__init__()
        self.expr = expr


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Bounds:
    """The least and the most whole number an expression can be, from what the rule set
    declares: a number written; a parameter; a property or variable whose values are
    listed, or that is a resource with a maximum (a resource is never below 0); a
    table's numbers; how many things a list of things holds (at most every thing of
    their kind, or every player); and sums, differences, products, negations, ``min``
    and ``max`` of those. :meth:`of` raises :class:`_Unknown` naming the part that has
    none, and :meth:`why` says what to declare."""

    def __init__(self, ruleset, by_kind: dict[str, list[str]]):
        self.ruleset = ruleset
        self.data = ruleset.data
        self.by_kind = by_kind

    def of(self, e: ast.Expr) -> tuple[int, int]:
        data = self.data
        ref = getattr(e, "ref", None)
        if isinstance(e, ast.Literal) and _whole(e.value):
            return e.value, e.value
        if isinstance(e, ast.Name) and ref == ("parameter", e.id) and _whole(data.parameters[e.id].get("value")):
            value = data.parameters[e.id]["value"]
            return value, value
        if isinstance(e, ast.Index) and isinstance(e.obj, ast.Name) and getattr(e.obj, "ref", None) == ("table", e.obj.id):
            numbers = list(_leaves(data.tables.get(e.obj.id)))
            if numbers and all(_whole(n) for n in numbers):
                return min(numbers), max(numbers)
        if isinstance(e, ast.Attr):
            specs = self._specs(e)
            if specs:
                found = _spec_bounds(specs, data)
                if found is not None:
                    return found
        if isinstance(e, ast.Unary) and e.op == "-":
            low, high = self.of(e.operand)
            return -high, -low
        if isinstance(e, ast.Binary) and e.op in ("+", "-", "*"):
            a, b = self.of(e.left), self.of(e.right)
            if e.op == "+":
                return a[0] + b[0], a[1] + b[1]
            if e.op == "-":
                return a[0] - b[1], a[1] - b[0]
            corners = [x * y for x in a for y in b]
            return min(corners), max(corners)
        if isinstance(e, ast.Call) and ref == ("builtin", "count") and len(e.args) == 1:
            kind = T.item_type(getattr(e.args[0], "type", None) or T.ANY)
            if kind in self.by_kind:
                return 0, len(self.by_kind[kind])
            inner = e.args[0]
            if isinstance(inner, ast.Call) and getattr(inner, "ref", None) == ("builtin", "contents"):
                return 0, sum(len(ids) for ids in self.by_kind.values())  # a zone holds things only
        if isinstance(e, ast.Call) and ref in (("builtin", "min"), ("builtin", "max")) and len(e.args) == 1 \
                and isinstance(e.args[0], ast.ListExpr) and e.args[0].items:
            parts = [self.of(x) for x in e.args[0].items]
            pick = min if ref[1] == "min" else max
            return pick(p[0] for p in parts), pick(p[1] for p in parts)
        if isinstance(e, ast.Call) and ref == ("function", e.func):
            function = self.ruleset.definitions.get(e.func)
            value = getattr(function, "value", None)
            if value is not None:
                return self.of(value)
        raise _Unknown(e)

    def _specs(self, e: ast.Attr) -> list:
        """The declarations of the property or variable ``e`` reads (of every kind that
        has a property of that name, when its owner's kind is not known)."""
        data = self.data
        if isinstance(e.obj, ast.Name) and getattr(e.obj, "ref", None) == ("scope", e.obj.id):
            spec = data.variables.get(e.obj.id, {}).get(e.name)
            return [spec] if spec is not None else []
        owner = (getattr(e.obj, "type", None) or "").removesuffix("?")
        if owner in data.kinds:
            spec = data.kinds[owner].properties.get(e.name)
            return [spec] if spec is not None else []
        return [k.properties[e.name] for k in data.kinds.values() if e.name in k.properties]

    def why(self, e: ast.Expr) -> str:
        """What to declare so that ``e`` has bounds, told with where it is written."""
        written = _source_text(self.ruleset, e)
        if isinstance(e, ast.Attr):
            if isinstance(e.obj, ast.Name) and getattr(e.obj, "ref", None) == ("scope", e.obj.id):
                where = f"the variable {e.obj.id}.{e.name}"
            else:
                owner = (getattr(e.obj, "type", None) or "").removesuffix("?")
                where = f"the property {e.name} of {owner}" if owner in self.data.kinds else f"the property {e.name}"
            return (f"{written} ({_at(e.pos)}) has no declared bounds: give {where} its values "
                    f"(values: [0, 1, 2, ...]) or, for a resource, a max")
        if isinstance(e, ast.Name) and getattr(e, "ref", None) == ("local", e.id):
            return (f"{written} ({_at(e.pos)}) is a value the rules work out as they run: write the bounds "
                    f"with parameters or declared properties instead")
        return f"{written} ({_at(e.pos)}) has no bounds the rule set declares"


def _leaves(value):
    """Every value a table holds, through its lists and mappings."""
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


def _source_text(ruleset, e: ast.Expr) -> str:
    """``e`` as the rules write it, quoted (its dotted name when the text is not at hand)."""
    pos = e.pos
    line = ruleset.bag.sources.line(pos.file, pos.line) if pos is not None and ruleset.bag is not None else None
    if line is not None and pos.end_column is not None:
        end = pos.end_column - 1
        if isinstance(e, ast.Call) and line[end:end + 1] == "(":  # a call's position spans its name only
            depth = 0
            for i in range(end, len(line)):
                depth += {"(": 1, ")": -1}.get(line[i], 0)
                if depth == 0:
                    end = i + 1
                    break
        text = line[pos.column - 1:end].strip()
        if text:
            return f"'{text}'"
    return f"'{ast.written_name(e)}'"


def _spec_bounds(specs: list, data, seen: frozenset = frozenset()) -> tuple[int, int] | None:
    """Bounds every one of ``specs`` (properties or variables of one name) keeps to."""
    lows, highs = [], []
    for spec in specs:
        values = spec.values or []
        if values and all(_whole(v) for v in values):
            lows.append(min(values))
            highs.append(max(values))
            continue
        most = (spec.resource or {}).get("max")
        holding = [k.properties[most] for k in data.kinds.values() if most in k.properties] \
            if isinstance(most, str) else []
        if isinstance(most, str) and not holding:  # a maximum a parameter gives
            most = data.parameters.get(most, {}).get("value")
        elif isinstance(most, str) and most not in seen:  # a maximum read from another property
            found = _spec_bounds(holding, data, seen | {most})
            most = None if found is None else found[1]
        if _whole(most):
            lows.append(0)
            highs.append(most)
            continue
        return None
    return (min(lows), max(highs)) if lows else None


def _type_text(ref: ast.TypeRef) -> str:
    if ref.name == "list":
        return T.list_of(_type_text(ref.item))
    return ref.name
