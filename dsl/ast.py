"""The typed syntax tree of the rules language. Every node carries its source position.

The parser builds these nodes; the checker annotates expressions with types; the
compiler turns them into what the interpreter runs. Nodes hold no game knowledge.
"""

from __future__ import annotations

import re

from dataclasses import dataclass, field
from typing import Any

from .diagnostics import Position


@dataclass
class Node:
    pos: Position


# ---------------------------------------------------------------- types


@dataclass
class TypeRef(Node):
    name: str  # a kind name, a base type (number, bool, text, ...) or "list"
    optional: bool = False
    item: "TypeRef | None" = None  # the element type of a list

    def __str__(self) -> str:
        if self.name == "list":
            return f"list of {self.item}"
        return self.name + ("?" if self.optional else "")


# ---------------------------------------------------------------- expressions


@dataclass
class Expr(Node):
    pass


@dataclass
class Literal(Expr):
    value: Any


@dataclass
class Name(Expr):
    id: str


@dataclass
class Attr(Expr):
    obj: Expr
    name: str
    name_pos: Position | None = None


@dataclass
class Index(Expr):
    obj: Expr
    key: Expr


@dataclass
class Call(Expr):
    func: str
    args: list[Expr]


@dataclass
class Unary(Expr):
    op: str  # "-" or "not"
    operand: Expr


@dataclass
class Binary(Expr):
    op: str  # + - * // % == != < <= > >= in notin and or
    left: Expr
    right: Expr


@dataclass
class Ternary(Expr):
    cond: Expr
    then: Expr
    otherwise: Expr


@dataclass
class ListExpr(Expr):
    items: list[Expr]


@dataclass
class Comprehension(Expr):
    item: Expr
    var: str
    iterable: Expr
    where: Expr | None
    # `with highest KEY` / `with lowest KEY`: of the items the filter passes, only those
    # whose key is the highest (lowest); every one tied for it, in list order
    best: Expr | None = None
    highest: bool = True
    # `with highest K1, K2, ...`: the keys after the first (``best`` is K1), each keeping,
    # of the items tied on the keys before it, those whose own key is the highest
    # (lowest); an item whose key is none loses to any with a value, and when all of
    # those tied have none they stay tied
    best_then: list[Expr] = field(default_factory=list)
    # `by KEY [ascending | descending], ...`: the items in the order of these keys, the
    # first key first (a stable sort: items with equal keys keep their list order)
    order: list[Expr] = field(default_factory=list)
    descending: list[bool] = field(default_factory=list)

    @property
    def arranged(self) -> bool:
        """Whether a `with highest/lowest` or a `by` clause chooses or orders the items."""
        return self.best is not None or bool(self.order)


# ---------------------------------------------------------------- statements


@dataclass
class Stmt(Node):
    pass


@dataclass
class Block(Node):
    statements: list[Stmt]


@dataclass
class Let(Stmt):
    name: str
    value: Expr


@dataclass
class Set(Stmt):
    target: list[str]  # ["c", "health"] or ["turn", "explored"]
    op: str  # "=", "+=", "-="
    value: Expr
    # where each name of the target is, for a caret under the wrong one
    target_pos: list[Position] | None = field(default=None, compare=False)


@dataclass
class If(Stmt):
    branches: list[tuple[Expr, Block]]
    otherwise: Block | None


@dataclass
class ForEach(Stmt):
    var: str
    iterable: Expr
    body: Block


@dataclass
class Repeat(Stmt):
    count: Expr
    body: Block


@dataclass
class Choose(Stmt):
    var: str
    options: Expr
    chooser: Expr | None
    prompt: str | None
    prompt_pos: Position | None = field(default=None, compare=False)  # where the prompt's text is written


@dataclass
class Move(Stmt):
    item: Expr
    destination: Expr
    end: str | None  # "top" / "bottom" of an ordered zone; None = where the zone puts it


@dataclass
class Shuffle(Stmt):
    zone: Expr


@dataclass
class Emit(Stmt):
    event: str
    fields: list[tuple[str, Expr]]
    audience: Expr | None


@dataclass
class Window(Stmt):
    """Open a reaction window: players may answer out of turn before play goes on."""

    event: str
    fields: list[tuple[str, Expr]]
    var: str


@dataclass
class CallStmt(Stmt):
    func: str
    args: list[Expr]


@dataclass
class ResourceChange(Stmt):
    """`gain N R of x`, `spend N R of x`, `reset R of x [to N]`: a resource kept in bounds."""

    op: str  # "gain" / "spend" / "reset"
    resource: str
    holder: Expr
    amount: Expr | None  # None: `reset` to the resource's declared value
    resource_pos: Position | None = field(default=None, compare=False)  # where the resource is named


@dataclass
class Reveal(Stmt):
    """`reveal x [to p]` / `hide x [from p]`: who sees a thing (or `x.prop`: one property)."""

    target: Expr
    players: Expr | None  # None: every player
    hide: bool = False


@dataclass
class RunEffect(Stmt):
    """`run effect of x`: the procedure named as x's effect in the components table, given x."""

    thing: Expr


@dataclass
class Stop(Stmt):
    """Leave the procedure, action or trigger being run."""


@dataclass
class Break(Stmt):
    """Leave the innermost `for each` or `repeat` loop."""


# ---------------------------------------------------------------- definitions


@dataclass
class Param(Node):
    name: str
    type: TypeRef
    source: Expr | None = None  # `with x: T in <source>`
    where: Expr | None = None


@dataclass
class Require(Node):
    cond: Expr
    message: str | None


# In a refusal message or a choose's prompt, '{name}' stands for the value of the parameter 'name'.
MESSAGE_PARAMETER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
# A '{...}' of a message or prompt that reads as a value: a name, a dotted name or a sum of
# them ("{game.stage}", "{n + 1}"). One that names no parameter would be shown as written,
# so the checker refuses it; other braces ("{not a name}") are text.
MESSAGE_SLOT = re.compile(r"\{(\s*[A-Za-z_][\w.]*(?:\s*[-+*/%]\s*[\w.]+)*\s*)\}")


def written_name(e: Expr) -> str:
    """A name or a chain of properties as written (p.coins); "…" for anything else."""
    if isinstance(e, Attr):
        return f"{written_name(e.obj)}.{e.name}"
    return e.id if isinstance(e, Name) else "…"


def fill_parameters(text: str, parameters: dict) -> str:
    """``text`` with each ``{name}`` of a parameter replaced by the parameter's value (a
    brace naming no parameter stays as written)."""
    return MESSAGE_PARAMETER.sub(
        lambda m: str(parameters[m.group(1)]["value"]) if m.group(1) in parameters else m.group(0), text)


@dataclass
class Cost(Node):
    amount: Expr
    resource: str
    payer: Expr | None = None  # `cost N R of x`: paid by x, not by the acting player
    resource_pos: Position | None = field(default=None, compare=False)  # where the resource is named


@dataclass
class Limit(Node):
    count: Expr
    period: str  # turn / round / game
    group: str | None
    period_pos: Position | None = field(default=None, compare=False)  # where the period is written


@dataclass
class Definition(Node):
    name: str
    name_pos: Position
    file: str
    text: str | None = None
    cite: str | None = None

    kind: str = "definition"


@dataclass
class ActionDef(Definition):
    params: list[Param] = field(default_factory=list)
    requires: list[Require] = field(default_factory=list)
    costs: list[Cost] = field(default_factory=list)
    limits: list[Limit] = field(default_factory=list)
    body: Block | None = None
    kind: str = "action"


@dataclass
class ProcedureDef(Definition):
    params: list[Param] = field(default_factory=list)
    body: Block | None = None
    kind: str = "procedure"


@dataclass
class FunctionDef(Definition):
    params: list[Param] = field(default_factory=list)
    returns: TypeRef | None = None
    value: Expr | None = None
    kind: str = "function"


@dataclass
class TriggerDef(Definition):
    event: str | None = None
    event_pos: Position | None = None
    where: Expr | None = None
    body: Block | None = None
    kind: str = "trigger"


@dataclass
class VictoryDef(Definition):
    when: Expr | None = None
    winners: Expr | None = None
    kind: str = "victory"


@dataclass
class ObligationDef(Definition):
    """Something the player whose turn it is still owes while ``when`` holds: while it
    can be met within ``within`` actions, only options that keep it reachable are legal."""

    when: Expr | None = None
    within: int | None = None
    within_pos: Position | None = None
    possible: Expr | None = None  # the rule set's own test that it can still be met
    kind: str = "obligation"


@dataclass
class Preference(Node):
    """One line of a script: the options it prefers (an action, a reaction, ``choice``
    for a `choose`, ``end_turn`` or ``pass``) and the condition they must meet."""

    target: str = ""
    target_pos: Position | None = None
    where: Expr | None = None
    weight: Expr | None = None  # in a heuristic: how much the option is liked


@dataclass
class ScriptDef(Definition):
    """How a scripted seat answers its choices: preferences in order, first that any
    option meets wins; ties are broken by the game's seeded random generator."""

    params: list[Param] = field(default_factory=list)
    prefers: list[Preference] = field(default_factory=list)
    kind: str = "script"


@dataclass
class Feature(Node):
    """One term of a heuristic: a number read from the seat's view, times its weight."""

    label: str = ""
    weight: Expr | None = None
    value: Expr | None = None


@dataclass
class Belief(Node):
    """One line of a heuristic: what its seat takes a hidden property of some entities to
    be (``believe p.prop = value for p: kind where cond [odds n]``). ``param`` binds the
    entity and carries the condition; ``odds`` None means the seat is sure."""

    target: "Attr | None" = None
    value: Expr | None = None
    param: "Param | None" = None
    odds: Expr | None = None


@dataclass
class HeuristicDef(Definition):
    """How good a position looks to the seat it is given (``me: player``), read from
    that seat's view alone: the weighted sum of its features, plus the weights of the
    preferences an option meets. ``side`` limits it to the seats on a declared side."""

    params: list[Param] = field(default_factory=list)
    side: str | None = None
    side_pos: Position | None = None
    features: list[Feature] = field(default_factory=list)
    # preferences with a weight (Preference.weight): a liking, not an order
    prefers: list["Preference"] = field(default_factory=list)
    beliefs: list[Belief] = field(default_factory=list)
    kind: str = "heuristic"


@dataclass
class ReactionDef(Definition):
    """What a player may do out of turn while a window of the named event is open."""

    event: str | None = None
    event_pos: Position | None = None
    by: Expr | None = None
    # `by p: player [in <list>] [where <cond>]`: the reacting player, named (else None)
    responder: Param | None = None
    params: list[Param] = field(default_factory=list)
    requires: list[Require] = field(default_factory=list)
    body: Block | None = None
    kind: str = "reaction"


@dataclass
class RuleFile(Node):
    path: str
    definitions: list[Definition]
