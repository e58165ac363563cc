"""Which triggers cannot change what an obligation's lookahead looks at.

The obligation lookahead (``Machine.keep_obligations``) plays each option on a copy of
the state, then reads the obligation's ``when`` and ``possible`` and whether a choice is
pending, the turn has passed or the game has ended. A trigger set off while playing
ahead whose statements write nothing that this reads, and nothing that a statement
which matters reads, cannot change the answer: the lookahead passes it over.

What matters is found backwards from the obligation's tests, as a fixed point over the
statements that may run while an option is played ahead: the option's action (every
action when the lookahead plays more than one), every trigger, procedure and reaction.
A statement matters when it may decide the lookahead's answer directly (a choice, a
window, a turn given, the game ended, a component's effect run), when it writes a
place that something that matters reads, or when a statement in it (or in a procedure
it calls) matters; then what it reads matters too. A trigger matters when a statement
in it does; then its condition, and the statements emitting its event, matter too.
What decides who is asked in a window and how a scripted seat answers matters from
the start.

Places are coarse: a variable by scope and name, a property by name (of any entity),
``where`` (locations and zones' contents), the board of laid tiles, windows' records,
the generator, whose turn it is, a local variable of a definition, an event by name.
Anything not understood reads or writes ``*`` (everything), which leaves no trigger to
pass over.
"""

from __future__ import annotations

from . import ast
from .builtins import ACTION_WINDOW
from .dependencies import BOARD_BUILTINS, FIXED_BUILTINS, TURN_VALUES, child_nodes
from .model import RuleSet

ALL = "*"
WHERE = "where"  # entities' locations and zones' contents
BOARD = "board"  # the laid tiles
RECORDS = "records"  # windows' records (and the fields of the events triggers read)
RNG = "rng"
TURN = "turn"  # whose turn it is, the turn and round numbers
REVEALED = "revealed"

_WHERE_BUILTINS = frozenset({"contents", "top", "bottom"})
_MORE_BOARD_BUILTINS = frozenset({"placements", "placements_anywhere", "placed"})
_EXPRESSIONS = (ast.Literal, ast.Index, ast.Unary, ast.Binary, ast.Ternary, ast.ListExpr, ast.Comprehension)


def skippable_triggers(ruleset: RuleSet, obligation: ast.ObligationDef, action: str | None) -> frozenset[str]:
    """The triggers the lookahead of ``obligation`` may pass over while it plays an
    option of ``action`` (None: any action, for a lookahead playing more than one)."""
    return _Slice(ruleset, obligation, action).skippable()


class _Slice:
    def __init__(self, ruleset: RuleSet, obligation: ast.ObligationDef, action: str | None):
        self.rs = ruleset
        self.functions = {d.name: d for d in ruleset.of_kind("function")}
        self.procedures = {d.name: d for d in ruleset.of_kind("procedure")}
        self.triggers = list(ruleset.of_kind("trigger"))
        # (unit name, body) of every definition whose statements may run playing ahead
        self.units: list[tuple[str, ast.Block | None]] = []
        for d in ruleset.of_kind("action"):
            if action is None or d.name == action:
                self.units.append((f"action:{d.name}", d.body))
        for d in self.procedures.values():
            self.units.append((f"procedure:{d.name}", d.body))
        for d in self.triggers:
            self.units.append((f"trigger:{d.name}", d.body))
        for d in ruleset.of_kind("reaction"):
            self.units.append((f"reaction:{d.name}", d.body))
        self.caps = {}  # resource → the properties bounding it (see PropertySpec.bound)
        for kind in ruleset.data.kinds.values():
            for name, spec in kind.properties.items():
                top = (spec.resource or {}).get("max")
                if isinstance(top, str) and top in kind.properties:  # (a parameter does not change in a game)
                    self.caps.setdefault(name, set()).add(("prop", top))
        self.reactions = list(ruleset.of_kind("reaction"))
        self.read: set = set()
        for e in (obligation.when, obligation.possible):
            self.read |= self.expr_reads(e, "obligation")
        # the engine's window on every chosen action, when reactions answer it
        if any(d.event == ACTION_WINDOW for d in self.reactions):
            # its reactions' conditions decide whether it asks anyone, and its record
            # whether the action's steps run (a reaction may decline the action)
            self.read |= self.window_reads(ACTION_WINDOW) | {RECORDS}
        # a scripted seat answers its choices by its preferences, ties drawn at random
        for d in ruleset.of_kind("script"):
            self.read.add(RNG)
            for preference in d.prefers:
                self.read |= self.expr_reads(preference.where, f"script:{d.name}")
        if action is None:
            # playing more than one action ahead lists the legal ones in between: what
            # their parameters, requirements and costs read decides what is played
            for d in ruleset.of_kind("action"):
                unit = f"action:{d.name}"
                exprs = ([x for p in d.params for x in (p.source, p.where)] + [r.cond for r in d.requires]
                         + [x for c in d.costs for x in (c.amount, c.payer)] + [x.count for x in d.limits])
                for e in exprs:
                    self.read |= self.expr_reads(e, unit)
                self.read |= {("prop", c.resource) for c in d.costs}
        self.relevant: set[int] = set()  # id() of the statements that matter
        self.unit_relevant: set[str] = set()

    # ---------------------------------------------------------------- fixed point
    def skippable(self) -> frozenset[str]:
        changed = True
        while changed and ALL not in self.read:
            changed = False
            for unit, body in self.units:
                if self.block(body, unit):
                    changed = True
                    self.unit_relevant.add(unit)
            for d in self.triggers:
                unit = f"trigger:{d.name}"
                if unit in self.unit_relevant:
                    more = self.expr_reads(d.where, unit) | {("event", d.event)}
                    if not more <= self.read:
                        self.read |= more
                        changed = True
        if ALL in self.read:
            return frozenset()
        return frozenset(d.name for d in self.triggers if f"trigger:{d.name}" not in self.unit_relevant)

    def block(self, block: ast.Block | None, unit: str) -> bool:
        """Mark the statements of ``block`` that matter now; True if any newly does."""
        changed = False
        for s in (block.statements if block else []):
            if self.stmt(s, unit):
                changed = True
        return changed

    def stmt(self, s: ast.Stmt, unit: str) -> bool:
        changed = False
        for child in _blocks(s):
            if self.block(child, unit):
                changed = True
        if id(s) in self.relevant:
            return changed
        writes, reads, control = self.effects(s, unit)
        if not (control or any(self.matters(w) for w in writes)
                or any(id(x) in self.relevant for b in _blocks(s) for x in statements_in(b))
                or (isinstance(s, (ast.Stop, ast.Break)) and unit in self.unit_relevant)):
            return changed
        self.relevant.add(id(s))
        self.read |= reads
        return True

    def matters(self, place) -> bool:
        if ALL in self.read or place == ALL:
            return True
        return place in self.read

    # ---------------------------------------------------------------- statements
    def effects(self, s: ast.Stmt, unit: str) -> tuple[set, set, bool]:
        """(places written, places read, whether it may decide the lookahead's answer
        itself) of one statement, not counting the statements inside it."""
        reads: set = set()
        writes: set = set()
        control = False
        if isinstance(s, ast.Let):
            reads = self.expr_reads(s.value, unit)
            writes = {("local", unit, s.name)}
            if _draws(s.value):
                reads.add(RNG)
                writes |= {RNG, ("event", "rolled")}
        elif isinstance(s, ast.Set):
            head, *_, prop = s.target
            reads = self.expr_reads(s.value, unit)
            obj = getattr(s, "object", None)
            if obj is None:
                place = ("var", head, prop)
                writes = {place}
            elif getattr(s, "event_field", False):
                reads |= self.expr_reads(obj, unit)
                place = RECORDS
                writes = {RECORDS}
            else:
                reads |= self.expr_reads(obj, unit)
                place = ("prop", prop)
                writes = {place, ("event", "changed")}
            if s.op != "=":
                reads.add(place)
        elif isinstance(s, ast.If):
            for cond, _ in s.branches:
                reads |= self.expr_reads(cond, unit)
        elif isinstance(s, ast.ForEach):
            reads = self.expr_reads(s.iterable, unit)
            writes = {("local", unit, s.var)}
        elif isinstance(s, ast.Repeat):
            reads = self.expr_reads(s.count, unit)
        elif isinstance(s, ast.Choose):
            control = True
            reads = self.expr_reads(s.options, unit) | self.expr_reads(s.chooser, unit)
        elif isinstance(s, ast.Move):
            reads = self.expr_reads(s.item, unit) | self.expr_reads(s.destination, unit) | {WHERE}
            writes = {WHERE, ("event", "moved")}
        elif isinstance(s, ast.Shuffle):
            reads = self.expr_reads(s.zone, unit) | {WHERE, RNG}
            writes = {WHERE, RNG, ("event", "shuffled")}
        elif isinstance(s, ast.Emit):
            for _, v in s.fields:
                reads |= self.expr_reads(v, unit)
            reads |= self.expr_reads(s.audience, unit)
            writes = {("event", s.event)}
        elif isinstance(s, ast.Window):
            control = True
            for _, v in s.fields:
                reads |= self.expr_reads(v, unit)
            reads |= self.window_reads(s.event)
        elif isinstance(s, ast.CallStmt):
            ref = getattr(s, "ref", None)
            for a in s.args:
                reads |= self.expr_reads(a, unit)
            if ref is None:
                control = True
                reads.add(ALL)
            elif ref[0] == "procedure":
                target = self.procedures.get(ref[1])
                if target is None:
                    control = True
                    reads.add(ALL)
                else:
                    callee = f"procedure:{target.name}"
                    writes = {("local", callee, p.name) for p in target.params}
                    control = callee in self.unit_relevant
            elif ref[1] == "place":
                reads.add(BOARD)
                writes = {BOARD, WHERE, ("event", "placed")}
            elif ref[1] == "remove":
                writes = {BOARD, WHERE, ("event", "moved")}
            else:  # play_turn, end_game, or anything else: decides the answer
                control = True
        elif isinstance(s, ast.ResourceChange):
            reads = self.expr_reads(s.holder, unit) | self.expr_reads(s.amount, unit)
            reads |= {("prop", s.resource)} | self.caps.get(s.resource, set())
            writes = {("prop", s.resource), ("event", "changed")}
        elif isinstance(s, ast.Reveal):
            reads = self.expr_reads(s.target, unit) | self.expr_reads(s.players, unit)
            writes = {REVEALED, ("event", "revealed"), ("event", "hidden")}
        elif isinstance(s, (ast.Stop, ast.Break)):
            pass
        else:  # a component's effect (any procedure), or a statement not known here
            control = True
            reads = {ALL}
        return writes, reads, control

    def window_reads(self, event: str) -> set:
        """What deciding who may react in a window of ``event`` reads (the reactions'
        conditions on who reacts, their parameters and requirements)."""
        out: set = set()
        for d in self.reactions:
            if d.event != event:
                continue
            unit = f"reaction:{d.name}"
            params = list(d.params) + ([d.responder] if d.responder is not None else [])
            exprs = [d.by] + [x for p in params for x in (p.source, p.where)] + [r.cond for r in d.requires]
            for e in exprs:
                out |= self.expr_reads(e, unit)
        return out

    # ---------------------------------------------------------------- expressions
    def expr_reads(self, e: ast.Expr | None, unit: str, seen: set | None = None) -> set:
        """The places ``e`` (and the rule-set functions it calls) may read."""
        out: set = set()
        if e is None:
            return out
        seen = set() if seen is None else seen
        todo = [e]
        while todo:
            node = todo.pop()
            if isinstance(node, ast.Name):
                ref = getattr(node, "ref", None)
                if ref is None:
                    out.add(ALL)
                elif ref[0] == "local":
                    if unit is not None:
                        out.add(("local", unit, ref[1]))
                elif ref[0] == "value":
                    if ref[1] in TURN_VALUES:
                        out.add(TURN)
                    elif ref[1] != "players":
                        out.add(ALL)
                elif ref[0] not in ("zone", "entity", "die", "parameter", "table", "kind", "scope"):
                    out.add(ALL)
                continue
            if isinstance(node, ast.Attr):
                obj_type = str(getattr(node.obj, "type", ""))
                if obj_type == "scope":
                    out.add(("var", node.obj.id, node.name))
                    continue
                if obj_type.startswith("event "):
                    out.add(RECORDS)
                elif node.name == "at":
                    out.add(WHERE)
                elif node.name != "id":
                    out.add(("prop", node.name))
            elif isinstance(node, ast.Call):
                ref = getattr(node, "ref", None)
                if ref is None:
                    out.add(ALL)
                elif ref[0] == "function":
                    if ref[1] not in seen:
                        seen.add(ref[1])
                        definition = self.functions.get(ref[1])
                        if definition is None or definition.value is None:
                            out.add(ALL)
                        else:  # its parameters are bound to the arguments, read here
                            out |= self.expr_reads(definition.value, None, seen)
                elif ref[0] == "builtin":
                    name = ref[1]
                    if name in _WHERE_BUILTINS:
                        out.add(WHERE)
                    elif name == "on_board":
                        out |= {WHERE, BOARD}
                    elif name in BOARD_BUILTINS or name in _MORE_BOARD_BUILTINS:
                        out.add(BOARD)
                    elif name in ("roll", "random"):
                        out.add(RNG)
                    elif name not in FIXED_BUILTINS:
                        out.add(ALL)
                elif ref[0] != "player_zone":
                    out.add(ALL)
            elif not isinstance(node, _EXPRESSIONS):
                out.add(ALL)
                continue
            todo.extend(child_nodes(node))
        return out


def _blocks(s: ast.Stmt) -> list[ast.Block]:
    if isinstance(s, ast.If):
        return [b for _, b in s.branches] + ([s.otherwise] if s.otherwise else [])
    if isinstance(s, (ast.ForEach, ast.Repeat)):
        return [s.body]
    return []


def statements_in(block: ast.Block | None):
    """Every statement of a block, those of the blocks inside it included, in order."""
    for s in (block.statements if block else []):
        yield s
        for b in _blocks(s):
            yield from statements_in(b)


def _draws(e: ast.Expr) -> bool:
    """Whether ``e`` draws from the generator (roll or random, allowed as a `let`'s value)."""
    todo = [e]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Call) and getattr(node, "ref", None) in (("builtin", "roll"), ("builtin", "random")):
            return True
        todo.extend(child_nodes(node))
    return False
