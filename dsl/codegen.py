"""Checked expressions → Python source, compiled in one go per rule set.

The compiler's closures (``compiler.Compiler.expr``) evaluate an expression by calling
one Python function per node; conditions are evaluated thousands of times per game, so
here each expression becomes a single Python function whose body is the whole
expression. The generated code does exactly what the closures do, in the same order
(the closures remain the reference, and the fallback when generation fails).

Every value taken from the rule set (names, literals, tables) enters the generated
module as a constant bound by name, never as source text, so no rule text is executed.
"""

from __future__ import annotations

from typing import Any, Callable

from . import ast
from .dependencies import CURRENT
from .ordering import arrange, arrange_tied
from .types import ANY

Fn = Callable[[Any, dict], Any]

_ORDERED = ("<", "<=", ">", ">=")
_ARITH = ("+", "-", "*")
_DIVIDE = ("//", "%")
# Standard-library functions of one list written in place (as interpreter.library has them)
_INLINE = {
    "any": "any({0} or [])",
    "all": "all({0} or [])",
    "count": "(0 if ({1} := {0}) is None else len({1}))",
    "sum": "sum({0} or [])",
}
# The same of a comprehension, which is always a list
_INLINE_OF_LIST = {"any": "any({0})", "all": "all({0})", "count": "len({0})", "sum": "sum({0})"}


_MISSING = object()  # a function's result not remembered yet
LEFT_OUT = object()  # a kept comprehension's item that its filter leaves out (see kept_comprehension)
# A kind with fewer entities is looked over again rather than kept (comparing the state
# with the one last seen would cost more)
FEW = 16
# Standard functions that only read a thing's place or a zone, and those of one list
# written in place: a comprehension calling no more is computed again rather than kept
_CHEAP_READS = frozenset({"on_board", "contents", "top", "bottom", "count", "any", "all", "sum", "kind_of"})


# The Python faults a rule's expression may meet at run time (a none in arithmetic, a
# text compared with a number): the machine tells them in the rules' words.
FAULTS = (KeyError, TypeError, ValueError, IndexError, AttributeError)


def mark_call(err: BaseException, name: str, env: dict) -> None:
    """Write on a fault met inside rule-set function ``name`` (called with ``env``) that
    it was, unless a function it called already did (the innermost call marks it). The
    machine then looks in that call for the expression the fault happened at (see
    interpreter/fault_place.py), rather than blaming the statement that called it."""
    if getattr(err, "rule_call", None) is None:
        try:
            err.rule_call = (name, env)
        except AttributeError:  # (a fault whose class takes no attributes: left as it is)
            pass


class Slot:
    """Stands for a generated function until the module is built."""

    __slots__ = ("index",)

    def __init__(self, index: int):
        self.index = index


class Unsupported(Exception):
    """An expression this generator does not handle: the caller uses closures instead."""


class ExpressionModule:
    def __init__(self, data, functions: dict[str, list[str]], fixed: set[str] | frozenset = frozenset(),
                 bodies: dict[str, ast.Expr] | None = None, footprints: Callable | None = None,
                 steady: Callable | None = None):
        self.data = data
        # steady(expr) -> whether its value holds for the whole game (dependencies.steady_value)
        self.steady = steady
        # footprints(expr, roots) -> (roots read, reads the current player) or None
        # (dependencies.footprint_reads of the rule set): which comprehensions over a
        # kind's entities the machine may keep item by item (see kept_comprehension)
        self.footprints = footprints
        self.kept = 0  # kept comprehensions, numbered
        # rule-set function name → its body, for writing small ones in place (see call)
        self.function_asts = bodies or {}
        self._inlinable: dict[str, bool] = {}
        # functions whose results hold for the whole game (dependencies.fixed_functions)
        self.fixed = fixed
        self.consts: dict[Any, str] = {}  # id(value) → constant name
        self.namespace: dict[str, Any] = {"_MISSING": _MISSING, "LEFT_OUT": LEFT_OUT, "_arrange": arrange,
                                          "_arrange_tied": arrange_tied,
                                          "_FAULTS": FAULTS, "_mark_call": mark_call}
        self.defs: list[str] = []
        self.count = 0  # generated functions, their number is their slot
        self.temps = 0
        # rule-set function name → (wrapper name, parameter names); bodies come later
        self.functions = {name: (f"_fn{i}", params) for i, (name, params) in enumerate(functions.items())}
        self.bodies: dict[str, int] = {}
        # Local variables held in a Python variable of the function being generated (a
        # comprehension's or a filter's item, ``x``), read from it rather than from env.
        self.bound: dict[str, str] = {}
        # How the function being generated reaches the state's entities and the current
        # player (a loop reads them once: conditions never change the state).
        self.ents = "m.state.entities"
        self.current = "m.state.current"
        # Locals of ``env`` read inside a loop of the function being generated, each read
        # once into a Python variable at its head (None: not for this function). No
        # expression writes to its variables, so the value read first is the value.
        self.hoisted: dict[str, str] | None = None
        self.loops = 0  # depth of in-place comprehensions around the expression generated
        self.iterables = 0  # > 0 while a comprehension's iterable is generated

    # ---- building
    def add(self, e: ast.Expr) -> Slot:
        """A new top-level function ``(m, env) -> value`` for ``e``."""
        index = self.count
        self.count += 1
        outer = self.ents, self.current
        self.ents, self.current = "_ents", "_cur"
        self.hoisted = {}
        try:
            body = self.expr(e, "env")
        finally:
            self.ents, self.current = outer
            hoisted, self.hoisted = self.hoisted, None
        # the entities and the current player, read once if read at all (conditions
        # never change the state)
        head = self._hoisted_head(hoisted)
        if "_ents" in body:
            head += "    _ents = m.state.entities\n"
        if "_cur" in body:
            head += "    _cur = m.state.current\n"
        self.defs.append(f"def _x{index}(m, env):\n{head}    return {body}\n")
        return Slot(index)

    def checks(self, requires: list[ast.Expr], costs: list[tuple[ast.Expr, str]],
               limits: list[tuple[ast.Expr, str, str]]) -> Slot:
        """A function ``(m, env, props, counters, player) -> bool``: every cost is
        affordable from ``props``, every limit has room in ``counters``, every condition
        holds (the result of compiler._checks_closure, which checks in another order)."""
        index = self.count
        self.count += 1
        lines = [f"def _x{index}(m, env, props, counters, player):"]
        # costs and limits first: they are cheap, and legality is the conjunction anyway
        for amount, resource in costs:
            lines.append(f"    if (props.get({self.const(resource)}) or 0) < {self.expr(amount, 'env')}:\n"
                         f"        return False")
        for count, period, group in limits:
            # the key of interpreter.machine._limit_key: limits count per player
            lines.append(f"    if counters[{self.const(period)}].get(f'{{player}}:' + {self.const(group)}, 0) >= "
                         f"{self.expr(count, 'env')}:\n        return False")
        for cond in requires:
            lines.append(f"    if not {self.expr(cond, 'env')}:\n        return False")
        lines.append("    return True\n")
        self.defs.append("\n".join(lines))
        return Slot(index)

    def select(self, where: ast.Expr, var: str) -> Slot:
        """A function ``(m, env, items) -> list``: the items for which ``where`` holds with
        local ``var`` bound to the item (the machine's parameter filter, in one call)."""
        index = self.count
        self.count += 1
        self.hoisted, self.loops = {}, 1
        try:
            cond = self.looping(where, var)
        finally:
            hoisted, self.hoisted, self.loops = self.hoisted, None, 0
        self.defs.append(f"def _x{index}(m, env, items):\n{self._hoisted_head(hoisted)}"
                         f"    _ents, _cur = m.state.entities, m.state.current\n"
                         f"    return [x for x in items or [] if {cond}]\n")
        return Slot(index)

    def _hoisted_head(self, hoisted: dict[str, str]) -> str:
        return "".join(f"    {var} = env.get({self.const(n)})\n" for n, var in hoisted.items())

    def looping(self, e: ast.Expr, var: str) -> str:
        """Source of ``e`` inside a loop over ``x``, which holds local ``var``; other locals
        come from ``env``, the entities from ``_ents``."""
        outer = self.bound, self.ents, self.current
        self.bound, self.ents, self.current = {var: "x"}, "_ents", "_cur"
        try:
            return self.expr(e, "env")
        finally:
            self.bound, self.ents, self.current = outer

    def env_of(self, env: str) -> str:
        """Source of the env dict as the expressions generated here see it: ``env`` with
        the bound locals put back."""
        if not self.bound:
            return env
        return "{**" + env + ", " + ", ".join(f"{self.const(n)}: {v}" for n, v in self.bound.items()) + "}"

    def function_body(self, name: str, e: ast.Expr) -> Slot:
        slot = self.add(e)
        self.bodies[name] = slot.index
        return slot

    def build(self) -> list[Fn]:
        """Compile the module; the generated functions, by slot."""
        for name, (wrapper, params) in self.functions.items():
            self.defs.append(self._wrapper(name, wrapper, params))
        source = "\n".join(self.defs)
        # compiled afresh each time: a code object could only be cached in a format
        # (marshal) that runs whatever a planted entry holds, and compiling costs little
        code = compile(source, "<rule set expressions>", "exec")
        exec(code, self.namespace)  # noqa: S102 - source made here, rule values bound as constants
        return [self.namespace[f"_x{i}"] for i in range(self.count)]

    def _wrapper(self, name: str, wrapper: str, params: list[str]) -> str:
        """The function called for rule-set function ``name``: its body, remembered (see
        _remembering), and a fault met in it marked with the call (codegen.mark_call)."""
        source = self._remembering(name, wrapper, params)
        head, _, body = source.partition("\n")
        args = [f"a{i}" for i in range(len(params))]
        env = "{" + ", ".join(f"{self.const(p)}: {a}" for p, a in zip(params, args)) + "}"
        inside = "".join(f"    {line}\n" for line in body.rstrip("\n").split("\n"))
        return (f"{head}\n    try:\n{inside}"
                f"    except _FAULTS as err:\n"
                f"        _mark_call(err, {self.const(name)}, {env})\n"
                f"        raise\n")

    def _remembering(self, name: str, wrapper: str, params: list[str]) -> str:
        # Functions have no effects (the checker keeps dice and random draws out of
        # them), so while the machine holds a memo (m.memo: only while it reads
        # conditions) a call with the same arguments returns the value computed before.
        if name not in self.bodies:
            raise Unsupported(f"function {name} has no body")
        body = f"_x{self.bodies[name]}"
        key = self.const(name)
        args = [f"a{i}" for i in range(len(params))]
        env = "{" + ", ".join(f"{self.const(p)}: {a}" for p, a in zip(params, args)) + "}"
        signature = ", ".join(["m", *args])
        if name in self.fixed and args:
            # its value for these arguments holds for the whole game: remembered by the
            # machine for the game, whether it is reading or running statements
            return (f"def {wrapper}({signature}):\n"
                    f"    memo = m.fixed_memo\n"
                    f"    key = ({key}, {', '.join(args)})\n"
                    f"    try:\n"
                    f"        value = memo.get(key, _MISSING)\n"
                    f"    except TypeError:  # an unhashable argument (a list): not remembered\n"
                    f"        return {body}(m, {env})\n"
                    f"    if value is _MISSING:\n"
                    f"        value = memo[key] = {body}(m, {env})\n"
                    f"    return value\n")
        if not args:
            return (f"def {wrapper}(m):\n"
                    f"    memo = m.memo\n"
                    f"    if memo is not None:\n"
                    f"        key = ({key},)\n"
                    f"        if key in memo:\n"
                    f"            return memo[key]\n"
                    f"        value = memo[key] = {body}(m, {{}})\n"
                    f"        return value\n"
                    f"    return {body}(m, {{}})\n")
        # a miss is read with get(), not as a KeyError: raising costs more than a lookup
        return (f"def {wrapper}({signature}):\n"
                f"    memo = m.memo\n"
                f"    if memo is not None:\n"
                f"        key = ({key}, {', '.join(args)})\n"
                f"        try:\n"
                f"            value = memo.get(key, _MISSING)\n"
                f"        except TypeError:  # an unhashable argument (a list): not remembered\n"
                f"            return {body}(m, {env})\n"
                f"        if value is _MISSING:\n"
                f"            value = memo[key] = {body}(m, {env})\n"
                f"        return value\n"
                f"    return {body}(m, {env})\n")

    def const(self, value: Any) -> str:
        name = self.consts.get(id(value))
        if name is None or self.namespace[name] is not value:
            name = f"_k{len(self.namespace)}"
            self.namespace[name] = value
            self.consts[id(value)] = name
        return name

    def temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    # ---- expressions (each mirrors the closure of compiler.Compiler)
    def expr(self, e: ast.Expr, env: str) -> str:
        if isinstance(e, ast.Literal):
            return self.const(e.value)
        if isinstance(e, ast.Name):
            return self.name(e, env)
        if isinstance(e, ast.Attr):
            return self.attr(e, env)
        if isinstance(e, ast.Index):
            return self.index(e, env)
        if isinstance(e, ast.Call):
            return self.call(e, env)
        if isinstance(e, ast.Unary):
            x = self.expr(e.operand, env)
            return f"(not {x})" if e.op == "not" else f"(-{x})"
        if isinstance(e, ast.Binary):
            return self.binary(e, env)
        if isinstance(e, ast.Ternary):
            c, a, b = self.expr(e.cond, env), self.expr(e.then, env), self.expr(e.otherwise, env)
            return f"({a} if {c} else {b})"
        if isinstance(e, ast.ListExpr):
            return "[" + "".join(f"{self.expr(i, env)}, " for i in e.items) + "]"
        if isinstance(e, ast.Comprehension):
            return self.comprehension(e, env)
        raise Unsupported(type(e).__name__)

    def name(self, e: ast.Name, env: str) -> str:
        kind, n = e.ref
        if kind == "local":
            if n in self.bound:
                return self.bound[n]
            if self.loops and self.hoisted is not None and env == "env":
                var = self.hoisted.get(n)
                if var is None:
                    var = self.hoisted[n] = f"_l{len(self.hoisted)}"
                return var
            return f"{env}.get({self.const(n)})"
        if kind == "value":
            if n == "current_player":
                return self.current
            return f"m.value({self.const(n)})"
        if kind in ("zone", "entity", "die", "scope"):
            return self.const(n)
        if kind == "kind":
            return f"m.kind_list({self.const(n)})"
        if kind == "parameter":
            return self.const(self.data.parameters[n]["value"])
        raise Unsupported(f"name {n}")

    def attr(self, e: ast.Attr, env: str) -> str:
        name = self.const(e.name)
        if getattr(e.obj, "type", None) == "scope":
            return f"m.state.vars[{self.const(e.obj.id)}].get({name})"
        obj = self.expr(e.obj, env)
        if str(getattr(e.obj, "type", "")).startswith("event "):
            return f"m.record({obj}).get({name})"
        if e.name == "id":
            return obj
        if obj.isidentifier():  # a variable or constant: read it again rather than name it
            t = head = obj
        else:
            t = self.temp()
            head = f"({t} := {obj})"
        if e.name == "at":
            return f"(None if {head} is None else {self.ents}[{t}]['at'])"
        if getattr(e.obj, "type", None) == ANY:  # a record's field, or an entity's property
            return f"m.field({obj}, {name})"  # as the closures read it: a name no kind has stops the game
        return f"(None if {head} is None else {self.ents}[{t}]['props'].get({name}))"

    def index(self, e: ast.Index, env: str) -> str:
        obj = e.obj
        key = self.expr(e.key, env)
        k = self.temp()
        if isinstance(obj, ast.Name) and obj.ref and obj.ref[0] == "table":
            table = self.data.tables[obj.id]
            lookup = dict(table)
            lookup.update({str(x): v for x, v in table.items()})
            t = self.const(lookup)
            return f"{t}.get(({k} := {key}), {t}.get(str({k})))"
        items = self.temp()
        return (f"({items}[{k}] if (({items} := {self.expr(obj, env)}), ({k} := {key}))[0] is not None "
                f"and 0 <= {k} < len({items}) else None)")

    def call(self, e: ast.Call, env: str) -> str:
        kind, n = e.ref
        if kind == "builtin" and n in ("any", "all", "count") and len(e.args) == 1 and \
                isinstance(e.args[0], ast.Comprehension):
            counted = self.counted_comprehension(e.args[0], env, n)
            if counted is not None:
                return counted
        args = [self.expr(a, env) for a in e.args]
        if kind == "function":
            wrapper, params = self.functions[n]
            if self.inlinable(n) and all(a.isidentifier() for a in args):
                # a small function of Python variables and constants, written in place:
                # its body with its parameters read from them (a function has no effects,
                # so its value is the same, only no longer remembered)
                outer = self.bound
                self.bound = {**outer, **dict(zip(params, args))}
                try:
                    body = self.expr(self.function_asts[n], env)
                finally:
                    self.bound = outer
                if not self.iterables or ":=" not in body:
                    return body  # (a temporary would keep a comprehension over it from being in place)
            return f"{wrapper}({', '.join(['m', *args])})"
        if kind == "player_zone":
            return f"({self.const(f'{n}:')} + format({args[0]}))"
        if kind == "builtin" and n == "contents" and len(args) == 1:
            # interpreter.library's contents without the call: a zone's things, a new list
            # (no zone, or none of that name: empty); no temporary, so a comprehension over
            # it is still written in place
            return f"list(m.state.zones.get({args[0]}) or ())"
        if kind == "builtin" and n == "on_board" and len(args) == 1 and not self.iterables:
            # interpreter.library's on_board without the call (a victory or a filter asks
            # it of every piece): a thing that is somewhere on the board. (Temporaries
            # cannot stand in a comprehension's iterable.)
            thing, entity, at = args[0], self.temp(), self.temp()
            head = thing
            if not thing.isidentifier():
                thing = self.temp()
                head = f"({thing} := {args[0]})"
            return (f"({head} is not None and ({entity} := {self.ents}.get({thing})) is not None "
                    f"and ({at} := {entity}['at']) is not None and {at} in (m._board or m.board()).rooms)")
        if kind == "builtin" and n in _INLINE_OF_LIST and len(args) == 1 and (
                isinstance(e.args[0], ast.Comprehension) or getattr(e.args[0], "ref", None) == ("builtin", "contents")):
            return _INLINE_OF_LIST[n].format(args[0])
        if kind == "builtin" and n in _INLINE and len(args) == 1:
            # what interpreter.library's function of that name does, without the call
            return _INLINE[n].format(args[0], self.temp())
        return f"m.lib[{self.const(n)}]({', '.join(['m', *args])})"

    def inlinable(self, name: str) -> bool:
        """Whether calls of function ``name`` are written in place: a small body with no
        loop, calling no rule-set function (so nothing recursive), not remembered for the
        whole game."""
        found = self._inlinable.get(name)
        if found is None:
            body = self.function_asts.get(name)
            found = body is not None and name not in self.fixed and _small_and_calling_no_function(body)
            self._inlinable[name] = found
        return found

    def binary(self, e: ast.Binary, env: str) -> str:
        a, b = self.expr(e.left, env), self.expr(e.right, env)
        op = e.op
        if op in ("and", "or"):
            return f"({a} {op} {b})"
        if op in ("in", "not in"):
            return f"({a} {op} ({b} or []))"
        if op in ("==", "!="):
            return f"({a} {op} {b})"
        if op in _ORDERED:
            x, y = self.temp(), self.temp()
            return f"((({x} := {a}), ({y} := {b}))[0] is not None and {y} is not None and {x} {op} {y})"
        if op in _ARITH:
            return f"({a} {op} {b})"
        if op in _DIVIDE:
            y = self.temp()
            return f"(0 if not ({y} := {b}) else ({a} {op} {y}))"
        raise Unsupported(f"operator {op}")

    def comprehension(self, e: ast.Comprehension, env: str, keep: bool = True) -> str:
        if e.arranged:
            return self.arranged_comprehension(e, env)
        self.iterables += 1
        try:
            if getattr(e.iterable, "ref", None) == ("value", "players"):
                iterable = "m.state.players"  # only read: no copy (m.value gives one)
            else:
                iterable = self.expr(e.iterable, env)
        finally:
            self.iterables -= 1
        kept = self.kept_comprehension(e, env) if keep else None
        if kept is not None:
            # (kept only for a kind of many entities: see interpreter.listing.FEW)
            return f"({kept} if len({self.expr(e.iterable, env)}) >= {FEW} else {self.comprehension(e, env, False)})"
        kept = self.kept_steady_comprehension(e, env) if keep else None
        if kept is not None:
            # (kept only for a list of many items, as for a kind: see interpreter.listing.FEW)
            kept, index, source = kept
            return f"({kept} if m.steady_many({index}, {source}) else {self.comprehension(e, env, False)})"
        # Python forbids an assignment expression (a temporary) in a comprehension's
        # iterable; without one, the comprehension is written in place, its item a
        # Python variable, rather than as a function called with a copy of env.
        if ":=" not in iterable:
            var = f"_v{self.temp()}"
            outer = self.bound
            self.bound = {**outer, e.var: var}
            self.loops += 1
            try:
                item = self.expr(e.item, env)
                where = f" if {self.expr(e.where, env)}" if e.where is not None else ""
            finally:
                self.bound = outer
                self.loops -= 1
            return f"[{item} for {var} in ({iterable} or []){where}]"
        comprehension_fn = f"_c{len(self.defs)}_{self.temp()}"
        hoisted, self.hoisted = self.hoisted, None  # a function of its own, reading its own env
        try:
            item = self.looping(e.item, e.var)
            where = f" if {self.looping(e.where, e.var)}" if e.where is not None else ""
        finally:
            self.hoisted = hoisted
        self.defs.append(f"def {comprehension_fn}(m, env, items):\n"
                         f"    _ents, _cur = m.state.entities, m.state.current\n"
                         f"    return [{item} for x in items or []{where}]\n")
        return f"{comprehension_fn}(m, {self.env_of(env)}, {self.expr(e.iterable, env)})"

    def arranged_comprehension(self, e: ast.Comprehension, env: str) -> str:
        """A comprehension with ``with highest/lowest`` or ``by`` (the closure of
        compiler.Compiler.arranged_comprehension): a function of its own makes the rows
        (best key, order keys, item of the list) of the items its filter passes,
        ordering.arrange chooses and orders them (with tie-break keys, the best key is a
        tuple of them all and arrange_tied chooses), and the item expression is computed for
        those kept. Its env holds only the locals it reads, so it may stand anywhere,
        a kept comprehension's item included (whose function has no env)."""
        fn = f"_c{len(self.defs)}_{self.temp()}"
        hoisted, self.hoisted = self.hoisted, None  # a function of its own, reading its own env
        try:
            where = f" if {self.looping(e.where, e.var)}" if e.where is not None else ""
            best = self.looping(e.best, e.var) if e.best is not None else "None"
            if e.best_then:  # `with highest K1, K2, ...`: the best keys as one tuple (see arrange_tied)
                best = f"({best}, " + "".join(f"{self.looping(k, e.var)}, " for k in e.best_then) + ")"
            keys = "".join(f"{self.looping(k, e.var)}, " for k in e.order)
            item = self.looping(e.item, e.var)
        finally:
            self.hoisted = hoisted
        highest = self.const(e.highest if e.best is not None else None)
        descending = self.const(tuple(e.descending))
        self.defs.append(f"def {fn}(m, env, items):\n"
                         f"    _ents, _cur = m.state.entities, m.state.current\n"
                         f"    rows = [({best}, ({keys}), x) for x in items or []{where}]\n"
                         f"    return [{item} for x in {'_arrange_tied' if e.best_then else '_arrange'}"
                         f"(rows, {highest}, {descending})]\n")
        values = []
        for name in sorted(_free_names(e)):
            node = ast.Name(e.pos, name)
            node.ref = ("local", name)
            values.append(f"{self.const(name)}: {self.name(node, env)}")
        return f"{fn}(m, {{{', '.join(values)}}}, {self.expr(e.iterable, env)})"

    def counted_comprehension(self, e: ast.Comprehension, env: str, only: str) -> str | None:
        """``any``, ``all`` or ``count`` (``only``) of a comprehension the machine keeps
        item by item, kept as counts: a move that changes one item changes the counts,
        and no list is made again. Kept even when its items are cheap to compute (a
        count of the pieces a player has left looks at every piece otherwise). None
        when the comprehension is not kept."""
        kept = self.kept_comprehension(e, env, only)
        if kept is not None:
            plain = _INLINE_OF_LIST[only].format(self.comprehension(e, env, False))
            return f"({kept} if len({self.expr(e.iterable, env)}) >= {FEW} else {plain})"
        steady = self.kept_steady_comprehension(e, env, only)
        if steady is not None:
            kept, index, source = steady
            plain = _INLINE_OF_LIST[only].format(self.comprehension(e, env, False))
            return f"({kept} if m.steady_many({index}, {source}) else {plain})"
        return None

    def _kept_reads(self, e: ast.Comprehension, parts: list) -> tuple | None:
        """What a kept comprehension's item and filter (``parts``) read through
        footprints: its free variables (sorted), the properties read, whether the current
        player is read, and the positions of the free variables read through; None when
        some part reads the state otherwise."""
        free = sorted(_free_names(e.item, e.where) - {e.var})
        found = [self.footprints(x, (e.var, *free)) for x in parts]
        if any(f is None for f in found):
            return None
        read = set().union(*(f[0] for f in found))
        roots = tuple(i for i, name in enumerate(free) if name in read)
        return free, read, any(f[1] for f in found), roots

    def kept_comprehension(self, e: ast.Comprehension, env: str, only: str | None = None) -> str | None:
        """A comprehension over all entities of a kind whose item and filter read the
        state only through footprints (dependencies.footprint_reads, the item's and the
        free variables'): the machine keeps each entity's result while the footprints it
        read stay as they were (``Machine.kept_items``), so a victory or function that
        looks over every piece after each move only looks again at what the move
        changed. None when the comprehension is not such a one."""
        iterable = e.iterable
        if self.footprints is None or not isinstance(iterable, ast.Name) or \
                getattr(iterable, "ref", None) is None or iterable.ref[0] != "kind" or e.arranged:
            return None  # (the items of an arranged one depend on each other: none is kept alone)
        if only is None and not self.costly(e.item) and not self.costly(e.where):
            return None  # a few properties compared: a list made again costs more than that
        read_through = self._kept_reads(e, [x for x in (e.item, e.where) if x is not None])
        if read_through is None:
            return None
        free, read, current, roots = read_through
        index = self.kept
        self.kept += 1
        helper = self._kept_item_function(e, free, index)
        spec, args, counted = self._kept_call_arguments(e, free, env, index, roots, read, current, only)
        return f"m.kept_items({spec}, {args}, {self.expr(iterable, env)}, {helper}{counted})"

    def _kept_item_function(self, e: ast.Comprehension, free: list[str], index: int) -> str:
        """Define ``_kc{index}(m, x, a0, …)``: one item of a kept comprehension, or
        LEFT_OUT when its filter fails; the free variables come as arguments."""
        helper = f"_kc{index}"
        outer = (self.bound, self.ents, self.current, self.hoisted, self.loops, self.iterables)
        self.bound = {e.var: "x", **{name: f"a{i}" for i, name in enumerate(free)}}
        self.ents, self.current, self.hoisted, self.loops, self.iterables = "_ents", "_cur", None, 0, 0
        try:
            item = self.expr(e.item, "env")
            where = self.expr(e.where, "env") if e.where is not None else None
        finally:
            self.bound, self.ents, self.current, self.hoisted, self.loops, self.iterables = outer
        params = "".join(f", a{i}" for i in range(len(free)))
        test = f"    if not {where}:\n        return LEFT_OUT\n" if where is not None else ""
        self.defs.append(f"def {helper}(m, x{params}):\n"
                         f"    _ents, _cur = m.state.entities, m.state.current\n"
                         f"{test}    return {item}\n")
        return helper

    def _kept_call_arguments(self, e: ast.Comprehension, free: list[str], env: str, index: int,
                             roots: tuple, read: set, current: bool, only: str | None) -> tuple[str, str, str]:
        """The spec, the free variables' values and the counting argument of a call to
        the machine's keeper of a comprehension."""
        values = []
        for name in free:
            node = ast.Name(e.pos, name)
            node.ref = ("local", name)
            values.append(self.name(node, env))
        spec = self.const((index, roots, e.var in read, current, CURRENT in read))
        args = "(" + "".join(f"{v}, " for v in values) + ")"
        counted = f", {self.const(only)}" if only is not None else ""
        return spec, args, counted

    def kept_steady_comprehension(self, e: ast.Comprehension, env: str,
                                  only: str | None = None) -> tuple[str, int, str] | None:
        """A comprehension over a list that is the same for the whole game (the lines of
        a board declared whole: ``dependencies.steady_value``) whose item and filter read
        the state only through footprints (the item's, which for a list is each of its
        values', and the free variables'), and loop over the item or call more than
        reads: the machine keeps each item's result while what it read stays as it was
        (``Machine.kept_steady``), so a victory asking whether some line is one player's
        looks again only at the lines through the square a move changed. The call, the
        comprehension's number and the name of the function that makes the list; None when
        the comprehension is not such a one."""
        iterable = e.iterable
        if self.footprints is None or self.steady is None or not isinstance(iterable, ast.Call) or e.arranged:
            return None
        parts = [x for x in (e.item, e.where) if x is not None]
        if not any(isinstance(node, ast.Comprehension) for x in parts for node in _walk(x)) and \
                not self.costly(e.item) and not self.costly(e.where):
            return None  # a few properties compared: computed again faster than kept
        if not self.steady(iterable):
            return None
        read_through = self._kept_reads(e, parts)
        if read_through is None:
            return None
        free, read, current, roots = read_through
        index = self.kept
        self.kept += 1
        source = f"_ks{index}"
        outer = (self.bound, self.ents, self.current, self.hoisted, self.loops, self.iterables)
        self.bound, self.ents, self.current, self.hoisted, self.loops, self.iterables = {}, "_ents", "_cur", None, 0, 0
        try:
            items = self.expr(iterable, "env")
        finally:
            self.bound, self.ents, self.current, self.hoisted, self.loops, self.iterables = outer
        helper = self._kept_item_function(e, free, index)
        self.defs.append(f"def {source}(m):\n"
                         f"    env, _ents, _cur = {{}}, m.state.entities, m.state.current\n"
                         f"    return list({items} or [])\n")
        spec, args, counted = self._kept_call_arguments(e, free, env, index, roots, read, current, only)
        return f"m.kept_steady({spec}, {args}, {source}, {helper}{counted})", index, source

    def costly(self, e: ast.Expr | None, depth: int = 0) -> bool:
        """Whether ``e`` calls more than reads of a thing's place or contents: a standard
        function (a board's step, a path...) or a rule-set function not written in place
        (looked into when it is)."""
        for node in _walk(e):
            ref = getattr(node, "ref", None) if isinstance(node, ast.Call) else None
            if ref is None:
                continue
            kind, name = ref
            if kind == "builtin" and name not in _CHEAP_READS:
                return True
            if kind == "function":
                if not self.inlinable(name) or depth > 8 or self.costly(self.function_asts[name], depth + 1):
                    return True
        return False


def _walk(node):
    """``node`` and every syntax-tree node under it."""
    if isinstance(node, ast.Node):
        yield node
        for key, value in vars(node).items():
            if key not in ("pos", "name_pos"):
                yield from _walk(value)
    elif isinstance(node, (list, tuple)):
        for value in node:
            yield from _walk(value)


def _free_names(*exprs) -> set[str]:
    """The local variables the expressions read that no comprehension inside binds."""
    found: set[str] = set()

    def walk(node, bound: frozenset) -> None:
        if isinstance(node, ast.Name):
            ref = getattr(node, "ref", None)
            if ref is not None and ref[0] == "local" and ref[1] not in bound:
                found.add(ref[1])
            return
        if isinstance(node, ast.Comprehension):
            walk(node.iterable, bound)
            inner = bound | {node.var}
            for part in (node.item, node.where, node.best, *node.best_then, *node.order):
                if part is not None:
                    walk(part, inner)
            return
        if isinstance(node, ast.Node):
            for key, value in vars(node).items():
                if key not in ("pos", "name_pos"):
                    walk(value, bound)
        elif isinstance(node, (list, tuple)):
            for value in node:
                walk(value, bound)

    for expr in exprs:
        if expr is not None:
            walk(expr, frozenset())
    return found


def _small_and_calling_no_function(body: ast.Expr, most: int = 30) -> bool:
    todo, seen = [body], 0
    while todo:
        node = todo.pop()
        seen += 1
        if seen > most:
            return False
        ref = getattr(node, "ref", None)
        if isinstance(node, ast.Comprehension) or (ref is not None and ref[0] == "function"):
            # a loop (better remembered than done again at each call) or a rule-set
            # function (nothing recursive)
            return False
        for value in vars(node).values():
            if isinstance(value, ast.Node):
                todo.append(value)
            elif isinstance(value, list):
                todo.extend(v for v in value if isinstance(v, ast.Node))
    return True
