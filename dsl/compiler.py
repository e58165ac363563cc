"""Checked AST → the form the interpreter runs.

Expressions become Python closures ``f(m, env)`` (``m`` is the running machine,
``env`` the local variables). Statement blocks become lists of instructions, each
numbered block addressable by an integer id so the machine's frame stack is plain,
serializable data. The compiler relies on the checker's ``ref`` and ``type``
annotations and never resolves a name itself.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any, Callable

from .dependencies import CURRENT, fixed_functions, footprint_reads, steady_value
from . import ast, codegen
from .codegen import FAULTS, mark_call
from .limits import bounded
from .ordering import arrange, arrange_tied
from .public_reads import CountReader
from .model import RuleSet
from .types import ANY

Fn = Callable[[Any, dict], Any]


# ---------------------------------------------------------------- program


@dataclass
class ParamInfo:
    name: str
    kind: str | None  # draw candidates from all entities of this kind
    source: Fn | None  # or from this list
    where: Fn | None
    # Parameters of different definitions often filter alike (`with c: character where
    # c.owner == current_player`). Filters of the same shape share this number, and
    # `reads` names the earlier parameters they read: with those values, the candidates
    # that pass are the same, so the machine may remember them while it only reads.
    shape: int | None = None
    reads: tuple[str, ...] = ()
    # select(m, env, candidates) -> the candidates passing ``where``, in one call
    # (generated code only; None: the machine calls ``where`` for each candidate)
    select: Fn | None = None
    # What the candidates that pass may be kept by (interpreter/listing.py), or None when
    # the source or filter reads more than footprints (dependencies.footprint_reads):
    # (the roots besides the candidate whose footprints they read, by name or
    # dependencies.CURRENT; whether the filter reads the candidate's footprint; whether
    # either reads the current player)
    footprint: tuple[tuple[str, ...], bool, bool] | None = None
    # whether the source or filter calls more than reads of a thing's place or contents
    # (codegen.ExpressionModule.costly): only then is keeping its candidates worth the
    # comparing it needs
    costly: bool = True


@dataclass
class ActionInfo:
    name: str
    params: list[ParamInfo]
    requires: list[tuple[Fn, str | None, str]]  # (condition, message, source text)
    costs: list[tuple[Fn, str]]
    limits: list[tuple[Fn, str, str]]  # (count, period, group key)
    block: int
    definition: ast.ActionDef
    # `cost N R of x`: (amount, resource, payer), paid by x (their check is in fixed/varying)
    payer_costs: list[tuple[Fn, str, Fn]] = field(default_factory=list)
    # The same checks split by whether they read a parameter: legality is their
    # conjunction, so the fixed ones are decided once per action, not per binding.
    fixed: "Checks | None" = None
    varying: "Checks | None" = None


@dataclass
class Checks:
    requires: list[Fn] = field(default_factory=list)
    costs: list[tuple[Fn, str]] = field(default_factory=list)
    limits: list[tuple[Fn, str, str]] = field(default_factory=list)
    # passes(m, env, props, limits, player) -> bool: all of the above hold (props: the
    # acting player's properties; limits: the state's counters)
    passes: Callable | None = None


@dataclass
class ReactionInfo:
    name: str
    event: str
    by: Fn | None  # None when the reacting player is named (responder)
    params: list[ParamInfo]
    requires: list[tuple[Fn, str | None, str]]
    block: int
    definition: ast.ReactionDef
    responder: ParamInfo | None = None


@dataclass
class TriggerInfo:
    name: str
    where: Fn | None
    block: int
    # (event field, kind) of the tests `kind_of(event.field) == "kind"` the condition
    # starts with: where one fails, the condition is false without being evaluated
    kinds: tuple[tuple[str, str], ...] = ()
    # (event field, value) of the tests `event.field == constant` that follow them
    equals: tuple[tuple[str, Any], ...] = ()


@dataclass
class Program:
    blocks: list[list["Instr"]] = field(default_factory=list)
    procedures: dict[str, tuple[list[str], int]] = field(default_factory=dict)
    functions: dict[str, tuple[list[str], Fn]] = field(default_factory=dict)
    actions: list[ActionInfo] = field(default_factory=list)
    triggers: dict[str, list[TriggerInfo]] = field(default_factory=dict)
    victories: list[tuple[str, Fn, Fn]] = field(default_factory=list)
    reactions: dict[str, list[ReactionInfo]] = field(default_factory=dict)
    # (name, condition under which the current player still owes it, actions to look
    # ahead, the rule set's test that it can still be met or None)
    obligations: list[tuple[str, Fn, int, Fn | None]] = field(default_factory=list)
    end_turn_allowed: str | None = None
    # script name → (the seat's parameter name, [(preferred target, condition or None)])
    scripts: dict[str, tuple[str, list[tuple[str, Fn | None]]]] = field(default_factory=dict)
    # heuristic name → HeuristicInfo (what bots and search read a position's worth from)
    heuristics: dict[str, "HeuristicInfo"] = field(default_factory=dict)
    block_names: list[str] = field(default_factory=list)
    # The properties read through footprints by the kept listing and comprehensions
    # (dependencies.footprint_reads; ``at`` for a location): interpreter/listing.py
    # compares only these (and the zones) with the state it last saw.
    footprint_properties: set[str] = field(default_factory=set)
    # What the interpreter derives once per rule set and shares between games (a rule
    # set never changes once loaded): the board geometry, a new game's layout.
    shared: dict = field(default_factory=dict)
    # What runs as generated code (see codegen): "none" (closures only), "conditions",
    # or "statements" too (see generate_statement_code)
    code: str = "none"


@dataclass
class HeuristicInfo:
    """A compiled heuristic: the seat's parameter name, the side it is for (None: every
    seat), its features as (label, weight, value) and its preferences as (target,
    condition or None, weight)."""

    name: str
    seat: str
    side: str | None
    features: list[tuple[str, Fn, Fn]]
    prefers: list[tuple[str, Fn | None, Fn]]
    # beliefs as (entity name, entity kind, property, value, condition or None, odds or
    # None for a sure belief): see bots/evaluation.py
    beliefs: list[tuple[str, str, str, Fn, Fn | None, Fn | None]] = field(default_factory=list)


# ---------------------------------------------------------------- instructions


class Instr:
    pos: Any = None

    def run(self, m, env: dict) -> None:  # pragma: no cover - interface
        raise NotImplementedError


class LetI(Instr):
    def __init__(self, name, fn):
        self.name, self.fn = name, fn

    def run(self, m, env):
        env[self.name] = bounded(self.fn(m, env))


class SetVarI(Instr):
    def __init__(self, scope, name, op, fn):
        self.scope, self.name, self.op, self.fn = scope, name, op, fn

    def run(self, m, env):
        m.set_var(self.scope, self.name, self.op, self.fn(m, env))


class SetPropI(Instr):
    def __init__(self, obj, prop, op, fn):
        self.obj, self.prop, self.op, self.fn = obj, prop, op, fn

    def run(self, m, env):
        m.set_prop(self.obj(m, env), self.prop, self.op, self.fn(m, env))


class SetListedPropI(Instr):
    """A `set` of a property whose values a kind lists: the machine holds the new value
    to them (``allowed``: each such kind → its values). Decided when the `set` is
    compiled, so a property without values pays nothing for the test."""

    def __init__(self, obj, prop, op, fn, allowed):
        self.obj, self.prop, self.op, self.fn, self.allowed = obj, prop, op, fn, allowed

    def run(self, m, env):
        m.set_listed_prop(self.obj(m, env), self.prop, self.op, self.fn(m, env), self.allowed)


class SetListedVarI(Instr):
    """A `set` of a game or turn variable that lists its values (see SetListedPropI)."""

    def __init__(self, scope, name, op, fn, values):
        self.scope, self.name, self.op, self.fn, self.values = scope, name, op, fn, values

    def run(self, m, env):
        m.set_listed_var(self.scope, self.name, self.op, self.fn(m, env), self.values)


class ResourceI(Instr):
    def __init__(self, op, resource, holder, amount):
        self.op, self.resource, self.holder, self.amount = op, resource, holder, amount

    def run(self, m, env):
        amount = self.amount(m, env) if self.amount is not None else None
        m.change_resource(self.op, self.holder(m, env), self.resource, amount)


class RevealI(Instr):
    def __init__(self, entity, prop, players, hide):
        self.entity, self.prop, self.players, self.hide = entity, prop, players, hide

    def run(self, m, env):
        players = self.players(m, env) if self.players is not None else None
        m.reveal(self.entity(m, env), self.prop, players, self.hide)


class RunEffectI(Instr):
    def __init__(self, thing):
        self.thing = thing

    def run(self, m, env):
        m.run_effect(self.thing(m, env))


class IfI(Instr):
    def __init__(self, branches, otherwise):
        self.branches, self.otherwise = branches, otherwise

    def run(self, m, env):
        for cond, block in self.branches:
            if cond(m, env):
                m.push_block(block)
                return
        if self.otherwise is not None:
            m.push_block(self.otherwise)


class ForI(Instr):
    def __init__(self, var, fn, block):
        self.var, self.fn, self.block = var, fn, block

    def run(self, m, env):
        items = list(self.fn(m, env) or [])
        if items:
            env[self.var] = items[0]
            m.push_loop(self.block, self.var, items)


class RepeatI(Instr):
    def __init__(self, fn, block):
        self.fn, self.block = fn, block

    def run(self, m, env):
        n = self.fn(m, env) or 0
        if n > 0:
            m.push_repeat(self.block, n)


class ChooseI(Instr):
    def __init__(self, var, fn, chooser, prompt, secret_count=False):
        # secret_count: how many options there are may be a secret (see public_reads.CountReader)
        self.var, self.fn, self.chooser, self.prompt, self.secret_count = var, fn, chooser, prompt, secret_count

    def run(self, m, env):
        # without `by`, the player whose turn is under way: between turns nobody (the last
        # turn's player is still current_player then, but is not the one to ask)
        chooser = self.chooser(m, env) if self.chooser else m.turn_player()
        m.choose(self.var, list(self.fn(m, env) or []), chooser, self.prompt, env, self.secret_count)


class MoveI(Instr):
    def __init__(self, item, dest, end):
        self.item, self.dest, self.end = item, dest, end

    def run(self, m, env):
        m.move(self.item(m, env), self.dest(m, env), self.end)


class ShuffleI(Instr):
    def __init__(self, zone):
        self.zone = zone

    def run(self, m, env):
        m.shuffle(self.zone(m, env))


class EmitI(Instr):
    def __init__(self, name, fields, audience):
        self.name, self.fields, self.audience = name, fields, audience

    def run(self, m, env):
        fields = {k: fn(m, env) for k, fn in self.fields}
        audience = self.audience(m, env) if self.audience else None
        if isinstance(audience, str):
            audience = [audience]
        m.emit(self.name, fields, audience)


class SetRecordI(Instr):
    def __init__(self, obj, prop, op, fn):
        self.obj, self.prop, self.op, self.fn = obj, prop, op, fn

    def run(self, m, env):
        m.set_record_field(self.obj(m, env), self.prop, self.op, self.fn(m, env))


class WindowI(Instr):
    def __init__(self, name, fields, var):
        self.name, self.fields, self.var = name, fields, var

    def run(self, m, env):
        m.open_window(self.name, {k: fn(m, env) for k, fn in self.fields}, self.var, env)


class CallProcI(Instr):
    def __init__(self, name, args):
        self.name, self.args = name, args

    def run(self, m, env):
        m.call_procedure(self.name, [a(m, env) for a in self.args])


class EffectI(Instr):
    def __init__(self, name, args):
        self.name, self.args = name, args

    def run(self, m, env):
        m.effect(self.name, [a(m, env) for a in self.args])


class StopI(Instr):
    def run(self, m, env):
        m.stop()


class BreakI(Instr):
    def run(self, m, env):
        m.break_loop()


# ---------------------------------------------------------------- expressions

_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


class Compiler:
    def __init__(self, ruleset: RuleSet, generate: bool = True, statements: bool = False):
        """``statements``: generate the code of statements' expressions too (see stmt)."""
        self.rs = ruleset
        self.statements = statements and generate
        self.data = ruleset.data
        self.program = Program()
        self.shapes: dict[tuple, int] = {}
        self._counts: CountReader | None = None  # made at the first choose
        functions = {d.name: [x.name for x in d.params] for d in ruleset.definitions.values()
                     if isinstance(d, ast.FunctionDef)}
        bodies = {d.name: d.value for d in ruleset.definitions.values() if isinstance(d, ast.FunctionDef)}
        fixed = self.fixed = fixed_functions(ruleset)
        self.gen = codegen.ExpressionModule(
            self.data, functions, fixed, bodies,
            lambda expr, roots: footprint_reads(ruleset, expr, roots, self.program.footprint_properties, fixed),
            lambda expr: steady_value(ruleset, expr, fixed)
        ) if generate else None

    def compile(self) -> Program:
        if self.gen is None:
            return self._compile()
        try:
            program = self._compile()
            functions = self.gen.build()
        except (codegen.Unsupported, SyntaxError, RecursionError, ValueError):
            # generated source Python will not take (e.g. nested too deep): closures do the same
            return Compiler(self.rs, generate=False).compile()
        _fill_slots(program, functions)
        program.code = "conditions"
        return program

    def _compile(self) -> Program:
        p = self.program
        for d in self.rs.definitions.values():
            if isinstance(d, ast.FunctionDef):
                value = self.gen.function_body(d.name, d.value) if self.gen is not None else self.expr(d.value)
                p.functions[d.name] = ([x.name for x in d.params], value)
        for d in self.rs.definitions.values():
            if isinstance(d, ast.ProcedureDef):
                p.procedures[d.name] = ([x.name for x in d.params], self.block(d.body, f"procedure {d.name}"))
            elif isinstance(d, ast.ActionDef):
                p.actions.append(self.action(d))
            elif isinstance(d, ast.TriggerDef):
                # the machine makes the leading kind tests itself (TriggerInfo.kinds): the
                # compiled condition is what follows them, if anything
                kinds = _leading_kind_tests(d.where)
                terms = _and_terms(d.where)[len(kinds):]
                equals = _leading_equal_tests(terms)
                rest = terms[len(equals):]
                where = self.expr(_and_of(rest)) if rest else None
                p.triggers.setdefault(d.event, []).append(TriggerInfo(d.name, where, self.block(d.body, f"trigger {d.name}"),
                                                                      kinds, equals))
            elif isinstance(d, ast.VictoryDef):
                p.victories.append((d.name, self.expr(d.when), self.expr(d.winners)))
            elif isinstance(d, ast.ObligationDef):
                p.obligations.append((d.name, self.expr(d.when), d.within,
                                      self.expr(d.possible) if d.possible is not None else None))
            elif isinstance(d, ast.ScriptDef):
                p.scripts[d.name] = (d.params[0].name if d.params else "me",
                                     [(x.target, self.expr(x.where) if x.where is not None else None) for x in d.prefers])
            elif isinstance(d, ast.HeuristicDef):
                p.heuristics[d.name] = self.heuristic(d)
            elif isinstance(d, ast.ReactionDef):
                p.reactions.setdefault(d.event, []).append(ReactionInfo(
                    d.name, d.event, self.expr(d.by) if d.by is not None else None, self.params(d.params),
                    [(self.expr(r.cond), self.message(r.message), _source_text(self.rs, r.cond)) for r in d.requires],
                    self.block(d.body, f"reaction {d.name}"), d,
                    self.params([d.responder])[0] if d.responder is not None else None))
        p.end_turn_allowed = self.data.game.end_turn_allowed if self.data.game else None
        return p

    def statement_blocks(self) -> list[list[Instr]]:
        """The statement blocks alone, numbered as ``_compile`` numbers them."""
        definitions = self.rs.definitions.values()
        for d in definitions:
            if isinstance(d, ast.FunctionDef):
                self.gen.function_body(d.name, d.value)
        for d in definitions:
            if isinstance(d, ast.ProcedureDef):
                self.block(d.body, f"procedure {d.name}")
            elif isinstance(d, ast.ActionDef):
                self.block(d.body, f"action {d.name}")
            elif isinstance(d, ast.TriggerDef):
                self.block(d.body, f"trigger {d.name}")
            elif isinstance(d, ast.ReactionDef):
                self.block(d.body, f"reaction {d.name}")
        _fill_slots(self.program, self.gen.build())
        return self.program.blocks

    def heuristic(self, d: ast.HeuristicDef) -> HeuristicInfo:
        return HeuristicInfo(
            d.name, d.params[0].name if d.params else "me", d.side,
            [(f.label, self.expr(f.weight), self.expr(f.value)) for f in d.features],
            [(x.target, self.expr(x.where) if x.where is not None else None, self.expr(x.weight))
             for x in d.prefers if x.weight is not None],
            [(b.param.name, b.param.type.name, b.target.name, self.expr(b.value),
              self.expr(b.param.where) if b.param.where is not None else None,
              self.expr(b.odds) if b.odds is not None else None) for b in d.beliefs])

    def params(self, params: list[ast.Param]) -> list[ParamInfo]:
        out = []
        for i, prm in enumerate(params):
            source = self.expr(prm.source) if prm.source is not None else None
            kind = None if source is not None else prm.type.name
            read = free_locals(prm.source) | free_locals(prm.where)
            reads = tuple(q.name for q in params[:i] if q.name in read)
            names = {name: f"${k}" for k, name in enumerate(reads)}
            names[prm.name] = "$self"
            key = (kind, _shape(prm.source, names), _shape(prm.where, names))
            shape = self.shapes.setdefault(key, len(self.shapes))
            select = self.gen.select(prm.where, prm.name) if self.gen is not None and prm.where is not None else None
            out.append(ParamInfo(prm.name, kind, source, self.expr(prm.where) if prm.where is not None else None,
                                 shape, reads, select, self.footprint(prm, reads),
                                 self.gen is None or self.gen.costly(prm.source) or self.gen.costly(prm.where)))
        return out

    def footprint(self, prm: ast.Param, earlier: tuple[str, ...]) -> tuple | None:
        """ParamInfo.footprint of a parameter whose earlier parameters ``earlier`` its
        source or filter reads."""
        if prm.where is None:
            return None  # nothing to keep: the candidates are the source's
        read = self.program.footprint_properties
        source = footprint_reads(self.rs, prm.source, earlier, read, self.fixed)
        where = footprint_reads(self.rs, prm.where, (*earlier, prm.name), read, self.fixed)
        if source is None or where is None:
            return None
        read = source[0] | where[0]
        # (by the order of ``earlier``, so the same parameter keeps the same tuple)
        roots = tuple(name for name in (*earlier, CURRENT) if name in read)
        return roots, prm.name in where[0], source[1] or where[1]

    def message(self, text: str | None) -> str | None:
        """A refusal message or a prompt with every ``{parameter}`` replaced by the
        parameter's value, so the text follows a variant that changes the number."""
        if text is None:
            return None
        return ast.fill_parameters(text, self.data.parameters)

    def action(self, d: ast.ActionDef) -> ActionInfo:
        params = self.params(d.params)
        requires = [(self.expr(r.cond), self.message(r.message), _source_text(self.rs, r.cond)) for r in d.requires]
        player_costs = [c for c in d.costs if c.payer is None]
        costs = [(self.expr(c.amount), c.resource) for c in player_costs]
        payer_costs = [(self.expr(c.amount), c.resource, self.expr(c.payer)) for c in d.costs if c.payer is not None]
        limits = [(self.expr(lim.count), lim.period, lim.group or d.name) for lim in d.limits]
        names = {p.name for p in d.params}
        fixed, varying = Checks(), Checks()
        nodes: dict[int, tuple[list, list, list]] = {id(fixed): ([], [], []), id(varying): ([], [], [])}
        # a cost paid by another holder is checked as the condition `payer.R >= amount`
        affordable = [_affordable(c) for c in d.costs if c.payer is not None]
        for fn, cond in [(fn, r.cond) for (fn, _, _), r in zip(requires, d.requires)] + \
                [(self.expr(cond), cond) for cond in affordable]:
            checks = varying if free_locals(cond) & names else fixed
            checks.requires.append(fn)
            nodes[id(checks)][0].append(cond)
        for cost, c in zip(costs, player_costs):
            checks = varying if free_locals(c.amount) & names else fixed
            checks.costs.append(cost)
            nodes[id(checks)][1].append((c.amount, c.resource))
        for limit, lim in zip(limits, d.limits):
            checks = varying if free_locals(lim.count) & names else fixed
            checks.limits.append(limit)
            nodes[id(checks)][2].append((lim.count, lim.period, lim.group or d.name))
        for checks in (fixed, varying):
            if self.gen is not None:
                checks.passes = self.gen.checks(*nodes[id(checks)])
            else:
                checks.passes = _checks_closure(checks)
        return ActionInfo(d.name, params, requires, costs, limits, self.block(d.body, f"action {d.name}"), d,
                          payer_costs, fixed, varying)

    # ---- statements
    def block(self, block: ast.Block | None, name: str) -> int:
        index = len(self.program.blocks)
        self.program.blocks.append([])
        self.program.block_names.append(name)
        instrs = []
        for s in (block.statements if block else []):
            instr = self.stmt(s, name)
            instr.pos = s.pos
            instrs.append(instr)
        self.program.blocks[index] = instrs
        return index

    def stmt(self, s: ast.Stmt, name: str) -> Instr:
        # Statements run once each time they are reached, conditions many times over
        # while options are listed: generating code only for the latter halves the
        # compile time of a first load for most of the speed. The rest comes later,
        # once a rule set plays more than one game (generate_statement_code).
        if self.statements:
            return self._stmt(s, name)
        gen, self.gen = self.gen, None
        try:
            return self._stmt(s, name)
        finally:
            self.gen = gen

    def _stmt(self, s: ast.Stmt, name: str) -> Instr:
        if isinstance(s, ast.Let):
            return LetI(s.name, self.expr(s.value))
        if isinstance(s, ast.Set):
            head, *middle, prop = s.target
            if getattr(s, "object", None) is None:
                spec = self.data.variables.get(head, {}).get(prop)
                if spec is not None and spec.values is not None:
                    return SetListedVarI(head, prop, s.op, self.expr(s.value), tuple(spec.values))
                return SetVarI(head, prop, s.op, self.expr(s.value))
            if getattr(s, "event_field", False):
                return SetRecordI(self.expr(s.object), prop, s.op, self.expr(s.value))
            # the kinds that list the values of a property of this name (the checker knows
            # the thing's kind only where the rules say it; the machine reads it)
            allowed = {kind.name: tuple(kind.properties[prop].values) for kind in self.data.kinds.values()
                       if prop in kind.properties and kind.properties[prop].values is not None}
            if allowed:
                return SetListedPropI(self.expr(s.object), prop, s.op, self.expr(s.value), allowed)
            return SetPropI(self.expr(s.object), prop, s.op, self.expr(s.value))
        if isinstance(s, ast.If):
            branches = [(self.expr(c), self.block(b, name)) for c, b in s.branches]
            return IfI(branches, self.block(s.otherwise, name) if s.otherwise else None)
        if isinstance(s, ast.ForEach):
            return ForI(s.var, self.expr(s.iterable), self.block(s.body, name))
        if isinstance(s, ast.Repeat):
            return RepeatI(self.expr(s.count), self.block(s.body, name))
        if isinstance(s, ast.Choose):
            if self._counts is None:
                self._counts = CountReader(self.rs)
            return ChooseI(s.var, self.expr(s.options), self.expr(s.chooser) if s.chooser else None,
                           self.message(s.prompt), not self._counts.count_public(s.options))
        if isinstance(s, ast.Move):
            return MoveI(self.expr(s.item), self.expr(s.destination), s.end)
        if isinstance(s, ast.Shuffle):
            return ShuffleI(self.expr(s.zone))
        if isinstance(s, ast.Emit):
            return EmitI(s.event, [(k, self.expr(v)) for k, v in s.fields], self.expr(s.audience) if s.audience else None)
        if isinstance(s, ast.Window):
            return WindowI(s.event, [(k, self.expr(v)) for k, v in s.fields], s.var)
        if isinstance(s, ast.CallStmt):
            kind, target = s.ref
            args = [self.expr(a) for a in s.args]
            return CallProcI(target, args) if kind == "procedure" else EffectI(target, args)
        if isinstance(s, ast.ResourceChange):
            return ResourceI(s.op, s.resource, self.expr(s.holder),
                             self.expr(s.amount) if s.amount is not None else None)
        if isinstance(s, ast.Reveal):
            prop = getattr(s, "property", None)
            entity = s.target.obj if prop is not None else s.target
            return RevealI(self.expr(entity), prop, self.expr(s.players) if s.players is not None else None, s.hide)
        if isinstance(s, ast.RunEffect):
            return RunEffectI(self.expr(s.thing))
        if isinstance(s, ast.Stop):
            return StopI()
        if isinstance(s, ast.Break):
            return BreakI()
        raise TypeError(f"cannot compile {type(s).__name__}")

    # ---- expressions
    def expr(self, e: ast.Expr) -> Fn:
        """The function evaluating ``e``: generated Python (see codegen) when possible."""
        if self.gen is not None:
            return self.gen.add(e)  # a Slot, replaced by the function once all are built
        return self.closure(e)

    def closure(self, e: ast.Expr) -> Fn:
        if isinstance(e, ast.Literal):
            v = e.value
            return lambda m, env: v
        if isinstance(e, ast.Name):
            return self.name(e)
        if isinstance(e, ast.Attr):
            return self.attr(e)
        if isinstance(e, ast.Index):
            obj, key = e.obj, self.closure(e.key)
            if isinstance(obj, ast.Name) and obj.ref and obj.ref[0] == "table":
                table = self.data.tables[obj.id]
                lookup = dict(table)
                lookup.update({str(k): v for k, v in table.items()})

                def table_get(m, env):
                    k = key(m, env)
                    return lookup.get(k, lookup.get(str(k)))
                return table_get
            ofn = self.closure(obj)

            def list_get(m, env):
                items, k = ofn(m, env), key(m, env)
                return items[k] if items is not None and 0 <= k < len(items) else None
            return list_get
        if isinstance(e, ast.Call):
            return self.call(e)
        if isinstance(e, ast.Unary):
            f = self.closure(e.operand)
            if e.op == "not":
                return lambda m, env: not f(m, env)
            return lambda m, env: -f(m, env)
        if isinstance(e, ast.Binary):
            return self.binary(e)
        if isinstance(e, ast.Ternary):
            c, a, b = self.closure(e.cond), self.closure(e.then), self.closure(e.otherwise)
            return lambda m, env: a(m, env) if c(m, env) else b(m, env)
        if isinstance(e, ast.ListExpr):
            items = [self.closure(i) for i in e.items]
            return lambda m, env: [f(m, env) for f in items]
        if isinstance(e, ast.Comprehension):
            var, it, item = e.var, self.closure(e.iterable), self.closure(e.item)
            where = self.closure(e.where) if e.where is not None else None
            if e.arranged:
                return self.arranged_comprehension(e, it, item, where)

            def comprehension(m, env):
                out = []
                inner = dict(env)
                for x in it(m, env) or []:
                    inner[var] = x
                    if where is None or where(m, inner):
                        out.append(item(m, inner))
                return out
            return comprehension
        raise TypeError(f"cannot compile {type(e).__name__}")

    def arranged_comprehension(self, e: ast.Comprehension, it: Fn, item: Fn, where: Fn | None) -> Fn:
        """A comprehension with ``with highest/lowest`` or ``by``: the items the filter
        passes, with their keys, chosen and ordered by ordering.arrange (by
        ordering.arrange_tied when tie-break keys follow the best key: ``with highest K1,
        K2``); the item expression is then computed for those kept, in their order."""
        var = e.var
        best = self.closure(e.best) if e.best is not None else None
        highest = e.highest if e.best is not None else None
        keys = [self.closure(k) for k in e.order]
        descending = tuple(e.descending)
        if e.best_then:  # `with highest K1, K2, ...`: the best keys as one tuple, ties broken in turn
            best_keys = [best, *(self.closure(k) for k in e.best_then)]

            def best(m, inner):
                return tuple(k(m, inner) for k in best_keys)
        choose = arrange_tied if e.best_then else arrange

        def comprehension(m, env):
            rows = []
            inner = dict(env)
            for x in it(m, env) or []:
                inner[var] = x
                if where is None or where(m, inner):
                    rows.append((best(m, inner) if best is not None else None,
                                 tuple(k(m, inner) for k in keys), x))
            out = []
            for x in choose(rows, highest, descending):
                inner[var] = x
                out.append(item(m, inner))
            return out
        return comprehension

    def name(self, e: ast.Name) -> Fn:
        kind, n = e.ref
        if kind == "local":
            return lambda m, env: env.get(n)
        if kind == "value":
            if n == "current_player":  # by far the most read value: read it directly
                return lambda m, env: m.state.current
            return lambda m, env: m.value(n)
        if kind in ("zone", "entity", "die"):
            return lambda m, env: n
        if kind == "kind":
            return lambda m, env: m.kind_list(n)
        if kind == "parameter":
            v = self.data.parameters[n]["value"]
            return lambda m, env: v
        if kind == "scope":
            return lambda m, env: n
        raise TypeError(f"cannot compile name {n}")

    def attr(self, e: ast.Attr) -> Fn:
        name = e.name
        if getattr(e.obj, "type", None) == "scope":
            scope = e.obj.id
            return lambda m, env: m.state.vars[scope].get(name)
        obj = self.closure(e.obj)
        if str(getattr(e.obj, "type", "")).startswith("event "):
            return lambda m, env: m.record(obj(m, env)).get(name)
        if name == "id":
            return obj
        if getattr(e.obj, "type", None) == ANY and name != "at":
            return lambda m, env: m.field(obj(m, env), name)  # a record's field, or a property
        if isinstance(e.obj, ast.Name) and e.obj.ref and e.obj.ref[0] == "local":
            # the commonest shape, `x.prop` of a local: one closure instead of two
            var = e.obj.ref[1]
            if name == "at":
                def local_at(m, env):
                    x = env.get(var)
                    return None if x is None else m.state.entities[x]["at"]
                return local_at

            def local_prop(m, env):
                x = env.get(var)
                return None if x is None else m.state.entities[x]["props"].get(name)
            return local_prop
        if name == "at":
            return lambda m, env: m.location(obj(m, env))
        return lambda m, env: m.prop(obj(m, env), name)

    def call(self, e: ast.Call) -> Fn:
        kind, n = e.ref
        args = [self.closure(a) for a in e.args]
        if kind == "function":
            return self.function_call(n, args)
        if kind == "player_zone":
            a0 = args[0]
            return lambda m, env: f"{n}:{a0(m, env)}"
        if len(args) == 1:
            a0 = args[0]
            return lambda m, env: m.lib[n](m, a0(m, env))
        return lambda m, env: m.lib[n](m, *[a(m, env) for a in args])

    def function_call(self, n: str, args: list[Fn]) -> Fn:
        """A call of a rule-set function. Functions have no effects (the checker keeps
        dice and random draws out of them), so while the machine holds a memo (``m.memo``,
        only while it evaluates conditions and changes nothing) a call with the same
        arguments returns the value already computed."""
        program = self.program
        resolved: list = []  # (params, body), found at the first call: functions may come later

        def target():
            if not resolved:
                resolved.append(program.functions[n])
            return resolved[0]

        # A fault met in the body is marked with the call (codegen.mark_call), as the
        # generated code's functions do.
        if not args:
            def call0(m, env):
                try:
                    memo = m.memo
                    if memo is not None:
                        key = (n,)
                        if key in memo:
                            return memo[key]
                        value = memo[key] = target()[1](m, {})
                        return value
                    return target()[1](m, {})
                except FAULTS as err:
                    mark_call(err, n, {})
                    raise
            return call0

        def call(m, env):
            params, body = resolved[0] if resolved else target()
            values = [a(m, env) for a in args]
            try:
                memo = m.memo
                if memo is not None:
                    key = (n, *values)
                    try:
                        return memo[key]
                    except KeyError:
                        value = memo[key] = body(m, dict(zip(params, values)))
                        return value
                    except TypeError:  # an unhashable argument (a list): not remembered
                        pass
                return body(m, dict(zip(params, values)))
            except FAULTS as err:
                mark_call(err, n, dict(zip(params, values)))
                raise
        return call

    def binary(self, e: ast.Binary) -> Fn:
        a, b = self.closure(e.left), self.closure(e.right)
        op = e.op
        if op == "and":
            return lambda m, env: a(m, env) and b(m, env)
        if op == "or":
            return lambda m, env: a(m, env) or b(m, env)
        if op == "in":
            return lambda m, env: a(m, env) in (b(m, env) or [])
        if op == "not in":
            return lambda m, env: a(m, env) not in (b(m, env) or [])
        if op in _COMPARE:
            f = _COMPARE[op]
            if op in ("==", "!="):
                if isinstance(e.right, ast.Literal):
                    v = e.right.value
                    if op == "==":
                        return lambda m, env: a(m, env) == v
                    return lambda m, env: a(m, env) != v
                if op == "==":
                    return lambda m, env: a(m, env) == b(m, env)
                return lambda m, env: a(m, env) != b(m, env)

            def ordered(m, env):
                x, y = a(m, env), b(m, env)
                return x is not None and y is not None and f(x, y)
            return ordered
        f = _ARITH[op]
        if op in ("//", "%"):
            def divide(m, env):
                y = b(m, env)
                return 0 if not y else f(a(m, env), y)
            return divide
        return lambda m, env: f(a(m, env), b(m, env))


def _leading_kind_tests(cond: ast.Expr | None) -> tuple[tuple[str, str], ...]:
    """The (field, kind) of the tests ``kind_of(event.field) == "kind"`` that ``cond``, a
    trigger's condition, evaluates first, one after the other (``and`` evaluates left to
    right and stops at the first false: a condition whose leading test fails is false,
    and nothing after that test, a die roll say, is evaluated)."""
    out = []
    for e in _and_terms(cond):
        test = _kind_test(e)
        if test is None:
            break
        out.append(test)
    return tuple(out)


def _and_terms(cond: ast.Expr | None) -> list[ast.Expr]:
    """The terms of the `and` chain ``cond``, left to right (``cond`` alone if it is not one)."""
    terms: list[ast.Expr] = []
    stack = [cond] if cond is not None else []
    while stack:
        e = stack.pop()
        if isinstance(e, ast.Binary) and e.op == "and":
            stack += [e.right, e.left]
        else:
            terms.append(e)
    return terms


def _and_of(terms: list[ast.Expr]) -> ast.Expr:
    """``terms`` joined by `and`, left to right: true exactly when all are, evaluated in
    the same order and stopping at the same first false term as the chain they came from."""
    cond = terms[0]
    for term in terms[1:]:
        cond = ast.Binary(cond.pos, "and", cond, term)
        cond.type = "bool"
    return cond


def _leading_equal_tests(terms: list[ast.Expr]) -> tuple[tuple[str, Any], ...]:
    """The (field, value) of the tests ``event.field == constant`` (a text, number or
    truth value, an entity or a zone named in the rules) that ``terms`` start with."""
    out = []
    for e in terms:
        if not (isinstance(e, ast.Binary) and e.op == "==" and _event_field(e.left) is not None):
            break
        right = e.right
        if isinstance(right, ast.Literal) and isinstance(right.value, (str, int, float, bool)):
            out.append((_event_field(e.left), right.value))
        elif isinstance(right, ast.Name) and getattr(right, "ref", None) in (("entity", right.id), ("zone", right.id)):
            out.append((_event_field(e.left), right.id))
        else:
            break
    return tuple(out)


def _event_field(e: ast.Expr) -> str | None:
    """``f`` when ``e`` reads ``event.f`` of a trigger's event."""
    if (isinstance(e, ast.Attr) and isinstance(e.obj, ast.Name) and e.obj.id == "event"
            and getattr(e.obj, "ref", None) == ("local", "event")):
        return e.name
    return None


def _kind_test(e: ast.Expr) -> tuple[str, str] | None:
    if not (isinstance(e, ast.Binary) and e.op == "==" and isinstance(e.right, ast.Literal)
            and isinstance(e.right.value, str) and isinstance(e.left, ast.Call)
            and getattr(e.left, "ref", None) == ("builtin", "kind_of") and len(e.left.args) == 1):
        return None
    arg = e.left.args[0]
    if not (isinstance(arg, ast.Attr) and isinstance(arg.obj, ast.Name) and arg.obj.id == "event"
            and getattr(arg.obj, "ref", None) == ("local", "event")):
        return None
    return arg.name, e.right.value


def _affordable(cost: ast.Cost) -> ast.Expr:
    """``payer.R >= amount``, typed as the checker would have typed it."""
    held = ast.Attr(cost.pos, cost.payer, cost.resource)
    held.type = "number"
    cond = ast.Binary(cost.pos, ">=", held, cost.amount)
    cond.type = "bool"
    return cond


def _checks_closure(checks: Checks) -> Callable:
    requires, costs, limits = checks.requires, checks.costs, checks.limits

    def passes(m, env: dict, props: dict, counters: dict, player: str) -> bool:
        # costs and limits first: they are cheap, and legality is the conjunction anyway
        for amount, resource in costs:
            if (props.get(resource) or 0) < amount(m, env):
                return False
        for count, period, group in limits:
            # the key of interpreter.machine._limit_key: limits count per player
            if counters[period].get(f"{player}:{group}", 0) >= count(m, env):
                return False
        for req in requires:
            if not req(m, env):
                return False
        return True
    return passes


def _fill_slots(program: Program, functions: list[Fn]) -> None:
    """Replace every codegen.Slot in the program by its generated function."""

    def fill(x):
        if isinstance(x, codegen.Slot):
            return functions[x.index]
        if isinstance(x, list):
            x[:] = [fill(v) for v in x]
            return x
        if isinstance(x, tuple):
            return tuple(fill(v) for v in x)
        if isinstance(x, dict):
            for k, v in x.items():
                x[k] = fill(v)
            return x
        if isinstance(x, (Instr, ActionInfo, ReactionInfo, TriggerInfo, ParamInfo, Checks, HeuristicInfo)):
            for k, v in vars(x).items():
                if not isinstance(v, ast.Node):
                    setattr(x, k, fill(v))
        return x

    for name in ("blocks", "functions", "actions", "triggers", "victories", "obligations", "reactions", "scripts",
                 "heuristics"):
        fill(getattr(program, name))


def free_locals(e: ast.Node | None) -> set[str]:
    """Names of the local variables an expression reads (comprehension variables included)."""
    found: set[str] = set()
    stack: list = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, ast.Name):
            ref = getattr(x, "ref", None)
            if ref and ref[0] == "local":
                found.add(ref[1])
        elif isinstance(x, ast.Node):
            stack.extend(v for k, v in vars(x).items() if k not in ("pos", "name_pos"))
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
    return found


def _shape(x, names: dict[str, str]):
    """The structure of an expression without positions, with the given local names
    replaced: two expressions of the same shape compile to the same function."""
    if isinstance(x, ast.Name):
        ref = getattr(x, "ref", None)
        if ref and ref[0] == "local" and ref[1] in names:
            return ("Name", "local", names[ref[1]], getattr(x, "type", None))
        return ("Name", x.id, ref, getattr(x, "type", None))
    if isinstance(x, ast.Node):
        return (type(x).__name__,) + tuple((k, _shape(v, names)) for k, v in sorted(vars(x).items())
                                           if k not in ("pos", "name_pos"))
    if isinstance(x, (list, tuple)):
        return tuple(_shape(v, names) for v in x)
    if isinstance(x, dict):
        return tuple(sorted((k, _shape(v, names)) for k, v in x.items()))
    return (type(x).__name__, repr(x))


def _source_text(ruleset: RuleSet, e: ast.Expr) -> str:
    line = ruleset.bag.sources.line(e.pos.file, e.pos.line)
    if line is None:
        return ""
    end = e.pos.end_column or len(line) + 1
    return line[e.pos.column - 1:end - 1].strip()


def with_texts(ruleset: RuleSet, param: ast.Param) -> tuple[str, str]:
    """A `with` line's list and `where` condition as the rules write them ("" for a part
    it lacks). A call's position ends at its name, so each part runs to the next part or
    to the end of the line rather than to its expression's end."""
    def line_of(e):
        return ruleset.bag.sources.line(e.pos.file, e.pos.line) if e is not None and e.pos is not None else None

    source, where = "", ""
    where_line = line_of(param.where)
    if where_line is not None:
        where = where_line[param.where.pos.column - 1:].strip().removesuffix(":")
    source_line = line_of(param.source)
    if source_line is not None:
        end = None
        if where_line is not None and param.where.pos.line == param.source.pos.line:
            end = source_line.rfind(" where ", 0, param.where.pos.column)
        source = source_line[param.source.pos.column - 1:end if end and end > 0 else None].strip()
    return source, where


def generate_statement_code(ruleset: RuleSet) -> bool:
    """Give the compiled rule set's statements generated code for their expressions in
    place of closures (a few milliseconds more than a load spends on its conditions,
    which a rule set playing many games gets back many times over). The blocks keep
    their numbers, so frames already on a stack run on. False if nothing changed: code
    could not be generated, or the rule set runs on closures alone."""
    program = ruleset.compiled
    if program is None or program.code != "conditions":
        return False
    program.code = "statements"  # tried once, whatever comes of it
    compiler = Compiler(ruleset, statements=True)
    try:
        blocks = compiler.statement_blocks()
    except (codegen.Unsupported, SyntaxError, RecursionError, ValueError):
        return False
    if compiler.program.block_names != program.block_names:
        return False
    # The statements' kept comprehensions read properties through footprints that no
    # condition may read: the keepers must compare those too (interpreter.listing
    # sees the set grow, in place, and starts afresh).
    program.footprint_properties |= compiler.program.footprint_properties
    program.blocks[:] = blocks
    return True


def compile_ruleset(ruleset: RuleSet) -> Program:
    program = Compiler(ruleset).compile()
    ruleset.compiled = program
    return program
