"""Table lookups whose key the parameters decide, checked against the table's keys.

While a game runs, a table read with a key it lacks gives none, and the game stops
later, wherever that none is used (a sum, a comparison): a variant that raises a
parameter past a table's keys passes every other check and fails only once played.
When the key is known before any game (it is made of parameters and written values,
with arithmetic, comparisons and the rule set's own functions given known arguments),
or when it is a property or variable read that a rule sets from such a value (its
starting value), the key is computed here and a key the table lacks is an error.

What the check never guesses: a key that depends on anything of the game (a die, a
count, a choice) is not known, and a lookup that a condition, a 'where', a 'require'
or an earlier 'stop' could keep from running with that key is left alone unless the
condition itself is known to let it through. Runs after the checker, whose annotations
(``ref``, ``type``) tell parameters from locals and the kind of a property's owner.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import ast
from .dependencies import child_nodes
from .diagnostics import Position
from .model import RuleSet

# How deep a rule-set function or procedure given known arguments is followed into
# others (each level is walked again with its own arguments).
MAX_CALL_DEPTH = 4


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()


@dataclass(frozen=True)
class Known:
    """A value known before the game, and the parameters it was computed from."""

    value: Any
    params: frozenset = frozenset()


@dataclass(frozen=True)
class Bound:
    """A local bound to an expression (by 'let', or as the argument of a call), read
    lazily so that a property read in it can still be given a starting value."""

    expr: ast.Expr
    env: dict = field(hash=False, compare=False)


@dataclass
class _Lookup:
    node: ast.Index
    env: dict
    # what must hold for it to run: (condition, the locals it sees, what it must give:
    # True, False, or None when that cannot be told, e.g. a list that must not be empty)
    guards: list
    calls: tuple  # (callee name, call position) from the definition walked down to here
    within: str  # the definition the lookup is written in


@dataclass
class _SetFrom:
    target: tuple  # ("prop", kind, name) or ("var", scope, name)
    written: str
    stmt: ast.Set
    env: dict
    guards: list


def _prop_key(e: ast.Expr, data) -> tuple | None:
    """What a property or variable read names, ("prop", kind, name) or ("var", scope,
    name), when the checker could tell whose property it is."""
    if not isinstance(e, ast.Attr) or e.name in ("at", "id"):
        return None
    if isinstance(e.obj, ast.Name) and getattr(e.obj, "ref", None) == ("scope", e.obj.id):
        return ("var", e.obj.id, e.name)
    owner = getattr(e.obj, "type", None)
    if isinstance(owner, str) and owner in data.kinds:
        return ("prop", owner, e.name)
    return None


class _Values:
    """Computes what can be known before a game, and what an expression reads."""

    def __init__(self, ruleset: RuleSet):
        self.rs = ruleset
        self.data = ruleset.data
        self._body_reads: dict[str, frozenset] = {}

    # ------------------------------------------------------------ values
    def value(self, e: ast.Expr | None, env: dict, given: dict | None = None, depth: int = 0) -> Known | _Unknown:
        """The value of ``e`` when it is known before the game; ``given``: starting
        values of properties and variables, by what they name."""
        if e is None or depth > 20:
            return UNKNOWN
        try:
            return self._value(e, env, given or {}, depth)
        except (TypeError, ValueError, ArithmeticError, RecursionError):
            return UNKNOWN

    def _value(self, e: ast.Expr, env: dict, given: dict, depth: int) -> Known | _Unknown:
        v = self.value
        if isinstance(e, ast.Literal):
            return Known(e.value)
        if isinstance(e, ast.Name):
            ref = getattr(e, "ref", None)
            if ref == ("parameter", e.id) and e.id in self.data.parameters:
                return Known(self.data.parameters[e.id].get("value"), frozenset({e.id}))
            if ref == ("value", e.id) and e.id == "none":
                return Known(None)
            if ref == ("local", e.id):
                bound = env.get(e.id)
                if isinstance(bound, Bound):
                    return v(bound.expr, bound.env, given, depth + 1)
            return UNKNOWN
        if isinstance(e, ast.Attr):
            key = _prop_key(e, self.data)
            return given.get(key, UNKNOWN) if key is not None else UNKNOWN
        if isinstance(e, ast.Unary):
            a = v(e.operand, env, given, depth + 1)
            if isinstance(a, _Unknown):
                return a
            return Known(not a.value if e.op == "not" else -a.value, a.params)
        if isinstance(e, ast.Ternary):
            c = v(e.cond, env, given, depth + 1)
            if isinstance(c, _Unknown):
                return c
            r = v(e.then if c.value else e.otherwise, env, given, depth + 1)
            return r if isinstance(r, _Unknown) else Known(r.value, r.params | c.params)
        if isinstance(e, ast.Binary):
            return self._binary(e, env, given, depth)
        if isinstance(e, ast.ListExpr):
            items = [v(i, env, given, depth + 1) for i in e.items]
            if any(isinstance(i, _Unknown) for i in items):
                return UNKNOWN
            return Known([i.value for i in items], frozenset().union(*(i.params for i in items)))
        if isinstance(e, ast.Call):
            return self._call(e, env, given, depth)
        return UNKNOWN

    def _binary(self, e: ast.Binary, env: dict, given: dict, depth: int) -> Known | _Unknown:
        # as the compiled rules compute them (dsl/compiler.py, Compiler.binary)
        a = self.value(e.left, env, given, depth + 1)
        if isinstance(a, _Unknown):
            return a
        if e.op in ("and", "or") and (not a.value if e.op == "and" else a.value):
            return a  # the right side is never computed
        b = self.value(e.right, env, given, depth + 1)
        if isinstance(b, _Unknown):
            return b
        x, y, params = a.value, b.value, a.params | b.params
        op = e.op
        if op in ("and", "or"):
            return Known(y, params)
        if op in ("in", "not in"):
            found = x in (y or [])
            return Known(found if op == "in" else not found, params)
        if op == "==":
            return Known(x == y, params)
        if op == "!=":
            return Known(x != y, params)
        if op in ("<", "<=", ">", ">="):
            if x is None or y is None:
                return Known(False, params)
            return Known({"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op], params)
        if any(isinstance(n, bool) or not isinstance(n, (int, float)) for n in (x, y)):
            return UNKNOWN
        if op in ("//", "%"):
            return Known(0 if not y else (x // y if op == "//" else x % y), params)
        if op in ("+", "-", "*"):
            return Known(x + y if op == "+" else x - y if op == "-" else x * y, params)
        return UNKNOWN

    def _call(self, e: ast.Call, env: dict, given: dict, depth: int) -> Known | _Unknown:
        ref = getattr(e, "ref", None)
        if ref == ("builtin", e.func) and e.func in ("min", "max") and len(e.args) == 1:
            items = self.value(e.args[0], env, given, depth + 1)
            if isinstance(items, _Unknown) or not isinstance(items.value, list):
                return UNKNOWN
            # an empty list gives 0, as the standard library's min and max do
            values = items.value
            return Known((min if e.func == "min" else max)(values) if values else 0, items.params)
        if ref == ("function", e.func):
            d = self.rs.definitions.get(e.func)
            if isinstance(d, ast.FunctionDef) and d.value is not None and len(d.params) == len(e.args):
                inner = {p.name: Bound(a, env) for p, a in zip(d.params, e.args)}
                return self.value(d.value, inner, given, depth + 1)
        return UNKNOWN

    # ------------------------------------------------------------ reads
    def reads(self, e: ast.Node | None, env: dict, depth: int = 0) -> frozenset:
        """The parameters (("param", name)) and the properties and variables (as
        :func:`_prop_key` names them) that ``e`` reads, through its locals and the rule
        set's functions it calls."""
        if e is None or depth > 20:
            return frozenset()
        found: set = set()
        stack = [e]
        while stack:
            n = stack.pop()
            if isinstance(n, ast.Name):
                ref = getattr(n, "ref", None)
                if ref == ("parameter", n.id):
                    found.add(("param", n.id))
                elif ref == ("local", n.id) and isinstance(env.get(n.id), Bound):
                    bound = env[n.id]
                    found |= self.reads(bound.expr, bound.env, depth + 1)
                continue
            if isinstance(n, ast.Attr):
                key = _prop_key(n, self.data)
                if key is not None:
                    found.add(key)
            if isinstance(n, ast.Call) and getattr(n, "ref", None) == ("function", n.func):
                found |= self._function_reads(n.func)
            stack.extend(child_nodes(n))
        return frozenset(found)

    def _function_reads(self, name: str) -> frozenset:
        """What a function of the rule set reads, whatever it is given (read as written:
        its own parameters stand for anything)."""
        if name in self._body_reads:
            return self._body_reads[name]
        self._body_reads[name] = frozenset()  # a function calling itself adds nothing more
        d = self.rs.definitions.get(name)
        found = self.reads(getattr(d, "value", None), {}) if isinstance(d, ast.FunctionDef) else frozenset()
        self._body_reads[name] = found
        return found


class _Walker:
    """Every table lookup and every 'set' of the rules, each with what must hold for it
    to run, and the locals it sees; definitions called with known arguments are walked
    again with them."""

    def __init__(self, ruleset: RuleSet, values: _Values):
        self.rs = ruleset
        self.data = ruleset.data
        self.values = values
        self.lookups: list[_Lookup] = []
        self.sets: list[_SetFrom] = []
        self._walked: set = set()
        self._within = ""

    def definition(self, d: ast.Definition, bindings: dict, guards: list, calls: tuple) -> None:
        outer, self._within = self._within, d.name
        try:
            self._definition(d, bindings, guards, calls)
        finally:
            self._within = outer

    def _definition(self, d: ast.Definition, bindings: dict, guards: list, calls: tuple) -> None:
        env: dict = {}
        for p in getattr(d, "params", None) or []:
            env[p.name] = bindings.get(p.name, UNKNOWN)
        guards = list(guards)
        if isinstance(d, (ast.ActionDef, ast.ReactionDef)):
            env = {}
            if isinstance(d, ast.ReactionDef) and d.responder is not None:
                guards += self._param(d.responder, env, guards, calls)
            elif isinstance(d, ast.ReactionDef) and d.by is not None:
                self.expr(d.by, env, guards, calls)
            for p in d.params:
                guards += self._param(p, env, guards, calls)
            for r in d.requires:
                self.expr(r.cond, env, guards, calls)
                guards.append((r.cond, dict(env), True))
            for c in getattr(d, "costs", []):
                self.expr(c.amount, env, guards, calls)
            self.block(d.body, env, guards, calls)
        elif isinstance(d, ast.ProcedureDef):
            self.block(d.body, env, guards, calls)
        elif isinstance(d, ast.FunctionDef):
            self.expr(d.value, env, guards, calls)
        elif isinstance(d, ast.TriggerDef):
            self.expr(d.where, env, guards, calls)
            if d.where is not None:
                guards.append((d.where, {}, True))
            self.block(d.body, env, guards, calls)
        elif isinstance(d, ast.VictoryDef):
            self.expr(d.when, env, guards, calls)
            if d.when is not None:
                guards.append((d.when, {}, True))
            self.expr(d.winners, env, guards, calls)
        else:  # obligations, scripts, heuristics: their names stand for anything
            self._any(d, env, guards, calls)

    def _param(self, p: ast.Param, env: dict, guards: list, calls: tuple) -> list:
        """Walk an action's (or a reaction's) parameter; the guards it adds for what follows."""
        added = []
        if p.source is not None:
            self.expr(p.source, env, guards, calls)
            added.append((p.source, dict(env), None))
        env[p.name] = UNKNOWN
        if p.where is not None:
            self.expr(p.where, env, guards + added, calls)
            added.append((p.where, dict(env), True))
        return added

    def _any(self, node: ast.Node, env: dict, guards: list, calls: tuple) -> None:
        for child in child_nodes(node):
            if isinstance(child, ast.Block):
                self.block(child, env, guards, calls)
            elif isinstance(child, ast.Expr):
                self.expr(child, env, guards, calls)
            elif isinstance(child, ast.Param):
                env[child.name] = UNKNOWN
                self._any(child, env, guards, calls)
            else:
                self._any(child, env, guards, calls)

    # ------------------------------------------------------------ statements
    def block(self, b: ast.Block | None, env: dict, guards: list, calls: tuple) -> None:
        if b is None:
            return
        env = dict(env)  # what a block binds is not seen after it
        guards = list(guards)
        statements = b.statements
        for i, s in enumerate(statements):
            if isinstance(s, ast.Let):
                self.expr(s.value, env, guards, calls)
                env[s.name] = Bound(s.value, dict(env))
            elif isinstance(s, ast.Set):
                self.expr(s.value, env, guards, calls)
                self._set(s, statements[i + 1:], env, guards)
            elif isinstance(s, ast.If):
                self._if(s, env, guards, calls)
                guards += self._after_stop(s, env)
            elif isinstance(s, ast.ForEach):
                self.expr(s.iterable, env, guards, calls)
                self.block(s.body, {**env, s.var: UNKNOWN}, guards + [(s.iterable, dict(env), None)], calls)
            elif isinstance(s, ast.Repeat):
                self.expr(s.count, env, guards, calls)
                runs = ast.Binary(s.count.pos, ">", s.count, ast.Literal(s.count.pos, 0))
                self.block(s.body, env, guards + [(runs, dict(env), True)], calls)
            elif isinstance(s, (ast.Choose, ast.Window)):
                self._any(s, env, guards, calls)
                env[s.var] = UNKNOWN
            elif isinstance(s, ast.CallStmt):
                for a in s.args:
                    self.expr(a, env, guards, calls)
                self._follow(s.func, s.args, s.pos, env, guards, calls)
            else:
                self._any(s, env, guards, calls)

    def _set(self, s: ast.Set, after: list, env: dict, guards: list) -> None:
        if len(s.target) == 1:
            env[s.target[0]] = UNKNOWN
            return
        if s.op != "=":
            return
        # a value set again further down the same block is not the one the rules go on with
        if any(isinstance(later, ast.Set) and later.target == s.target for later in after):
            return
        head = s.target[0]
        if len(s.target) == 2 and head in ("game", "turn") and head not in env:
            target = ("var", head, s.target[1])
        else:
            owner = getattr(getattr(s, "object", None), "type", None)
            if not (isinstance(owner, str) and owner in self.data.kinds):
                return
            target = ("prop", owner, s.target[-1])
        self.sets.append(_SetFrom(target, ".".join(s.target), s, dict(env), list(guards)))

    def _if(self, s: ast.If, env: dict, guards: list, calls: tuple) -> None:
        earlier: list = []
        for cond, body in s.branches:
            self.expr(cond, env, guards + earlier, calls)
            self.block(body, env, guards + earlier + [(cond, dict(env), True)], calls)
            earlier.append((cond, dict(env), False))
        self.block(s.otherwise, env, guards + earlier, calls)

    def _after_stop(self, s: ast.If, env: dict) -> list:
        """What must hold for the rest of a block to run after an 'if' that may stop it."""
        stopping = [_stops(body) for _, body in s.branches]
        if not any(stopping) and not _stops(s.otherwise):
            return []
        if len(s.branches) == 1 and s.otherwise is None:
            return [(s.branches[0][0], dict(env), False)]
        return [(cond, dict(env), None) for cond, _ in s.branches]

    # ------------------------------------------------------------ expressions
    def expr(self, e: ast.Expr | None, env: dict, guards: list, calls: tuple) -> None:
        if e is None:
            return
        if isinstance(e, ast.Index):
            self.expr(e.obj, env, guards, calls)
            self.expr(e.key, env, guards, calls)
            if isinstance(e.obj, ast.Name) and getattr(e.obj, "ref", None) == ("table", e.obj.id) \
                    and e.obj.id in self.data.tables:
                self.lookups.append(_Lookup(e, dict(env), list(guards), calls, self._within))
            return
        if isinstance(e, ast.Binary) and e.op in ("and", "or"):
            self.expr(e.left, env, guards, calls)
            self.expr(e.right, env, guards + [(e.left, dict(env), e.op == "and")], calls)
            return
        if isinstance(e, ast.Ternary):
            self.expr(e.cond, env, guards, calls)
            self.expr(e.then, env, guards + [(e.cond, dict(env), True)], calls)
            self.expr(e.otherwise, env, guards + [(e.cond, dict(env), False)], calls)
            return
        if isinstance(e, ast.Comprehension):
            self.expr(e.iterable, env, guards, calls)
            inner = {**env, e.var: UNKNOWN}
            kept = guards + [(e.iterable, dict(env), None)]
            self.expr(e.where, inner, kept, calls)
            if e.where is not None:
                kept = kept + [(e.where, inner, True)]
            for part in [e.item, e.best, *e.best_then, *e.order]:
                self.expr(part, inner, kept, calls)
            return
        if isinstance(e, ast.Call):
            for a in e.args:
                self.expr(a, env, guards, calls)
            if getattr(e, "ref", None) == ("function", e.func):
                self._follow(e.func, e.args, e.pos, env, guards, calls)
            return
        for child in child_nodes(e):
            if isinstance(child, ast.Expr):
                self.expr(child, env, guards, calls)

    def _follow(self, name: str, args: list, pos: Position, env: dict, guards: list, calls: tuple) -> None:
        """Walk a function or procedure of the rule set again with the arguments of this
        call that are known (it is also walked on its own, where they stand for anything)."""
        d = self.rs.definitions.get(name)
        if not isinstance(d, (ast.FunctionDef, ast.ProcedureDef)) or len(d.params) != len(args):
            return
        if len(calls) >= MAX_CALL_DEPTH or any(n == name for n, _ in calls):
            return
        known = {p.name: self.values.value(a, env) for p, a in zip(d.params, args)}
        if all(isinstance(k, _Unknown) for k in known.values()):
            return
        stamp = (name, pos, calls)
        if stamp in self._walked:
            return
        self._walked.add(stamp)
        bindings = {p.name: Bound(a, dict(env)) for p, a in zip(d.params, args)
                    if not isinstance(known[p.name], _Unknown)}
        self.definition(d, bindings, guards, calls + ((name, pos),))


def _stops(block: ast.Block | None) -> bool:
    """Whether a block may leave what it is in ('stop', or 'break' out of a loop)."""
    if block is None:
        return False
    stack: list = list(block.statements)
    while stack:
        s = stack.pop()
        if isinstance(s, (ast.Stop, ast.Break)):
            return True
        stack.extend(c for c in child_nodes(s) if isinstance(c, (ast.Stmt, ast.Block)))
    return False


def _in_table(key, table: dict) -> bool:
    # as the compiled rules read a table: the key, else the key written as a text
    try:
        return key in table or str(key) in {str(k) for k in table}
    except TypeError:  # a list as a key: the checker's type error, not a missing entry
        return True


def _keys_hint(table: dict) -> str:
    """The keys of a table, their range when they are whole numbers without a gap."""
    numbers = []
    for k in table:
        text = str(k).strip()
        if isinstance(k, bool) or not text.lstrip("-").isdigit():
            numbers = None
            break
        numbers.append(int(text))
    if numbers:
        numbers = sorted(set(numbers))
        if len(numbers) > 1 and numbers == list(range(numbers[0], numbers[-1] + 1)):
            return f"its keys are {numbers[0]} to {numbers[-1]}"
        shown = [str(n) for n in numbers]
    else:
        shown = [repr(k) if isinstance(k, str) else str(k) for k in table]
    if len(shown) == 1:
        return f"its only key is {shown[0]}"
    listed = ", ".join(shown[:12]) + (", …" if len(shown) > 12 else "")
    return f"its keys are {listed}"


class _Report:
    def __init__(self, ruleset: RuleSet, values: _Values):
        self.rs = ruleset
        self.data = ruleset.data
        self.values = values
        self.seen: set = set()

    def written(self, e: ast.Expr) -> str:
        pos = e.pos
        line = self.rs.bag.sources.line(pos.file, pos.line) if pos is not None else None
        if line is not None and pos.end_column is not None:
            text = line[pos.column - 1:pos.end_column - 1].strip()
            if text:
                return text
        return "…"

    def blocked(self, guards: list, what: frozenset, given: dict) -> bool:
        """Whether a guard may keep the lookup from running with the key found: one known
        to be false for it, or one not known that reads what the key is made of."""
        for cond, env, want in guards:
            got = self.values.value(cond, env, given)
            if isinstance(got, Known) and want is not None:
                if bool(got.value) != want:
                    return True
                continue
            if self.values.reads(cond, env) & what:
                return True
        return False

    def check(self, lookup: _Lookup, sets: list[_SetFrom]) -> None:
        e = lookup.node
        if isinstance(e.key, ast.Literal):
            return  # a written key the table lacks is the checker's own error
        table = self.data.tables[e.obj.id]
        reads = self.values.reads(e.key, lookup.env)
        read_props = {r for r in reads if r[0] in ("prop", "var")}
        if not read_props:
            key = self.values.value(e.key, lookup.env)
            if isinstance(key, Known) and key.value is not None and not _in_table(key.value, table) \
                    and not self.blocked(lookup.guards, reads, {}):
                self.report(lookup, key, None)
            return
        if len(read_props) > 1:
            return  # several values of the game: their starting values need not meet
        target = next(iter(read_props))
        for s in sets:
            if s.target != target:
                continue
            start = self.values.value(s.stmt.value, s.env)
            if not isinstance(start, Known) or start.value is None or not start.params:
                continue  # only a parameter's value is checked: a written one may stand for "not yet"
            if self.blocked(s.guards, frozenset(), {}):
                continue  # a 'set' that never runs
            given = {target: start}
            key = self.values.value(e.key, lookup.env, given)
            if not isinstance(key, Known) or key.value is None or _in_table(key.value, table):
                continue
            what = reads | {("param", p) for p in start.params}
            if not self.blocked(lookup.guards, frozenset(what), given):
                self.report(lookup, key, s)

    def report(self, lookup: _Lookup, key: Known, start: _SetFrom | None) -> None:
        e = lookup.node
        name = e.obj.id
        table = self.data.tables[name]
        info = self.rs.variant
        changed = [p for p in sorted(key.params) if info is not None and p in info.parameters_at]
        how = ""
        if start is not None:
            how = f" when {start.written} starts at {self.written(start.stmt.value)} (set at {start.stmt.pos})"
        if lookup.calls:
            callee, at = lookup.calls[-1]
            kind = getattr(self.rs.definitions.get(callee), "kind", "definition")
            how += f", inside {kind} {callee} called at {at}"
        table_at = self.data.where.get(("table", name))
        table_named = f"table '{name}'" + (f" ({table_at})" if table_at else "")
        keys = _keys_hint(table)
        if changed:
            # the base's files are not the variant's to change: the error is at the value
            # that broke them, and names the lookup
            pname = changed[0]
            vname, where = info.parameters_at[pname]
            value = self.data.parameters[pname].get("value")
            message = (f"variant '{vname}' sets '{pname}' to {value!r}, so table '{name}' is read with the key "
                       f"{key.value!r}, which it lacks: {e.pos} reads {name}[{self.written(e.key)}]{how}")
            kind = getattr(self.rs.definitions.get(lookup.within), "kind", "definition")
            hint = (f"{table_named}: {keys}; give '{pname}' a value that keeps the key among them, or list "
                    f"{kind} '{lookup.within}' under 'replaces:' and have its new version read a table the "
                    f"variant adds under 'add: tables:'")
        else:
            uses = [(p, self.data.parameters[p].get("value"), self.data.where.get(("parameter", p, "value")))
                    for p in sorted(key.params)]
            given = ", ".join(f"'{p}' = {v!r}" for p, v, _ in uses)
            message = (f"table '{name}' has no entry {key.value!r}, the value of {self.written(e.key)}{how}"
                       + (f" with {given}" if given else ""))
            change = " or ".join(f"'{p}'" + (f" ({at})" if at else "") for p, _, at in uses)
            hint = f"{table_named}: {keys}; " + (f"change {change}, or " if change else "") + \
                f"give the table an entry {key.value!r}"
            where = e.key.pos
        stamp = (e.pos, key.value, where)
        if stamp in self.seen:
            return
        self.seen.add(stamp)
        self.rs.bag.error(message, where, hint, code="lookup-key")


def check_lookup_keys(ruleset: RuleSet) -> None:
    """Report every table lookup whose key, known before the game, the table lacks."""
    if not ruleset.data.tables:
        return
    values = _Values(ruleset)
    walker = _Walker(ruleset, values)
    for d in ruleset.definitions.values():
        walker.definition(d, {}, [], ())
    report = _Report(ruleset, values)
    for lookup in walker.lookups:
        report.check(lookup, walker.sets)
