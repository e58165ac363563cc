"""Where in a rule-set function a run-time fault happened, and what likely caused it.

A fault met inside a function (a none in arithmetic, say) surfaces as a Python exception
at the statement or condition that called the function, which is not where the mistake
is. The call it happened in marks the exception (``dsl.codegen.mark_call``: the function
and its arguments); from there the function's body is evaluated again, part by part, to
find the innermost expression that meets the fault, following calls into the functions
they call. Functions have no effects (the checker keeps dice and random draws out of
them), so evaluating one again changes nothing and meets the same fault. The parts are
evaluated by the compiler's closures whichever code the rule set runs on, so the place
found is the same for generated code (which writes small functions in place) and closures.

When an operand of the expression found is none and it is a parameter, a variable or a
property, the message names it, and for a parameter declared ``T?`` that a variant sets
to none, the variant.
"""

from __future__ import annotations

from typing import Any

from rulecraft.dsl import ast
from rulecraft.dsl.codegen import FAULTS
from rulecraft.dsl.compiler import Compiler

from .faults import NONE_HINT, fault_text

# How deep the search follows calls into calls (a function may not call itself, so the
# chain is finite; this only bounds the work an error report does)
_MOST_CALLS = 50


class _Search:
    def __init__(self, m):
        self.m = m
        self.ruleset = m.ruleset
        compiler = Compiler(m.ruleset, generate=False)
        compiler.program = m.program  # calls run the rule set's own functions
        self.compiler = compiler
        self.closures: dict[int, Any] = {}
        self.functions = {d.name: d for d in m.ruleset.definitions.values() if isinstance(d, ast.FunctionDef)}

    def value(self, e: ast.Expr, env: dict):
        fn = self.closures.get(id(e))
        if fn is None:
            fn = self.closures[id(e)] = self.compiler.closure(e)
        return fn(self.m, env)

    def fails(self, e: ast.Expr, env: dict) -> bool:
        try:
            self.value(e, env)
        except FAULTS:
            return True
        return False

    def find(self, e: ast.Expr, env: dict, function: str, depth: int = 0):
        """(expression, function it is in, its local values) of the innermost part of
        ``e`` that meets a fault, or None when ``e`` meets none."""
        if not self.fails(e, env):
            return None
        for part, part_env in self.parts(e, env):
            found = self.find(part, part_env, function, depth)
            if found is not None:
                return found
        if isinstance(e, ast.Call) and getattr(e, "ref", None) and e.ref[0] == "function" and depth < _MOST_CALLS:
            d = self.functions.get(e.ref[1])
            if d is not None and d.value is not None:
                inner = dict(zip([p.name for p in d.params], [self.value(a, env) for a in e.args]))
                found = self.find(d.value, inner, d.name, depth + 1)
                if found is not None:
                    return found
        return e, function, env

    def parts(self, e: ast.Expr, env: dict):
        """The parts of ``e`` with their local values, in the order ``e`` evaluates them
        (only those it evaluates: 'and' stops at a false left side, 'if … else' takes one
        branch). A part is yielded only after the ones before it evaluated without fault."""
        if isinstance(e, ast.Attr):
            if getattr(e.obj, "type", None) != "scope":
                yield e.obj, env
        elif isinstance(e, ast.Index):
            if not (isinstance(e.obj, ast.Name) and e.obj.ref and e.obj.ref[0] == "table"):
                yield e.obj, env
            yield e.key, env
        elif isinstance(e, ast.Call):
            for a in e.args:
                yield a, env
        elif isinstance(e, ast.Unary):
            yield e.operand, env
        elif isinstance(e, ast.Binary):
            yield e.left, env
            if e.op in ("and", "or"):
                left = self.value(e.left, env)
                if (e.op == "and" and not left) or (e.op == "or" and left):
                    return
            yield e.right, env
        elif isinstance(e, ast.Ternary):
            yield e.cond, env
            yield (e.then if self.value(e.cond, env) else e.otherwise), env
        elif isinstance(e, ast.ListExpr):
            for item in e.items:
                yield item, env
        elif isinstance(e, ast.Comprehension):
            yield e.iterable, env
            inner = dict(env)
            for x in self.value(e.iterable, env) or []:
                inner = {**env, e.var: x}
                if e.where is not None:
                    yield e.where, inner
                    if not self.value(e.where, inner):
                        continue
                if e.best is not None:
                    yield e.best, inner
                for key in e.best_then:
                    yield key, inner
                for key in e.order:
                    yield key, inner
                yield e.item, inner


def fault_place(m, err: BaseException):
    """(expression, function, its local values) where the fault ``err``, met in a call of a
    rule-set function (marked by dsl.codegen.mark_call), happened; None when it cannot be
    found again (then the caller's place stands)."""
    call = getattr(err, "rule_call", None)
    if call is None:
        return None
    name, env = call
    try:
        search = _Search(m)
        d = search.functions.get(name)
        if d is None or d.value is None:
            return None
        return search.find(d.value, dict(env), name) or (d.value, name, dict(env))
    except Exception:  # noqa: BLE001 - a report of a fault must not fail in its turn
        return None


def none_cause(m, e: ast.Expr, function: str | None, env: dict) -> str | None:
    """When an operand of ``e`` (the expression a fault happened at) is none and names a
    parameter, a variable or a property, what made it none, in the words of a hint."""
    if isinstance(e, ast.Binary):
        operands = [e.left, e.right]
    elif isinstance(e, ast.Unary):
        operands = [e.operand]
    elif isinstance(e, ast.Call):
        operands = list(e.args)
    else:
        return None
    try:
        search = _Search(m)
        for x in operands:
            if search.fails(x, env) or search.value(x, env) is not None:
                continue
            told = _named_none(m.ruleset, x, function, search)
            if told is not None:
                return told
    except Exception:  # noqa: BLE001 - a report of a fault must not fail in its turn
        return None
    return None


def _named_none(ruleset, x: ast.Expr, function: str | None, search: _Search) -> str | None:
    test = "test it with `== none` first"
    if isinstance(x, ast.Name) and getattr(x, "ref", None) == ("parameter", x.id):
        declared = str(ruleset.data.parameters[x.id].get("type") or "")
        variant = ruleset.variant
        if variant is not None and x.id in variant.parameters and variant.parameters[x.id][1] is None:
            return f"{x.id} is none here: the variant {variant.name} sets it to none; {test}"
        if declared.endswith("?"):
            return f"{x.id} is none here: the parameter is declared {declared} and its value is none; {test}"
        return f"{x.id} is none here: the parameter's value is none"
    if isinstance(x, ast.Name) and getattr(x, "ref", None) and x.ref[0] == "local":
        d = search.functions.get(function) if function else None
        param = next((p for p in (d.params if d else []) if p.name == x.id), None)
        if param is not None and param.type is not None and param.type.optional:
            return f"{x.id} is none here: {function}'s parameter {x.id} is declared {param.type}, and was given none; {test}"
        return f"{x.id} is none here; {NONE_HINT}"
    if isinstance(x, ast.Attr):
        if getattr(x.obj, "type", None) == "scope" and isinstance(x.obj, ast.Name):
            spec = ruleset.data.variables.get(x.obj.id, {}).get(x.name)
            written = f"{x.obj.id}.{x.name}"
            return (f"{written} is none here: the variable has no value now (its default is none, or a rule set it "
                    f"to none); {test}" if spec is not None else None)
        obj = x.obj.id if isinstance(x.obj, ast.Name) else None
        written = f"{obj}.{x.name}" if obj else x.name
        return (f"{written} is none here: the property has no value (its default is none, or a rule set it to "
                f"none); {test}")
    return None


def located_fault(m, err: BaseException, pos) -> tuple[str, Any]:
    """(message, position) of the rule error for the fault ``err`` met at the statement or
    condition at ``pos``: at the expression inside a function where it happened when it
    happened in one ("… (in f, called from main.rules:14:9)"), with what
    made a value none when that can be named; else at ``pos``, as the fault says it."""
    told = fault_text(err)
    found = fault_place(m, err)
    if found is None:
        return told, pos
    e, function, env = found
    cause = none_cause(m, e, function, env) if NONE_HINT in told else None
    if cause is not None:
        told = told.replace(NONE_HINT, cause)
    what, sep, rest = told.partition("; ")
    where = f"in {function}, called from {pos}" if pos else f"in {function}"
    return f"{what} ({where}){sep}{rest}", e.pos
