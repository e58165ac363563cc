"""What a rule set holds, sorted the way a reader looks for it: setup, the round and its
phases, actions, cards, room types, victory, rulings — each in the rulebook's order.

Everything is read from the rule set itself: which procedure sets up and which plays a
round (game.yaml), what a definition calls or names (its AST), which sections its
``cite`` names (ordered by the scenario folder's list of rulebook sections). No game
word appears here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path

from rulecraft.dsl import ast
from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.dsl.model import ComponentSpec, RuleSet
from rulecraft.validator.coverage import SECTIONS_FILE, Section, cite_parts, load_sections, match_sections

# Events the engine itself emits around turns (interpreter/machine.py).
TURN_EVENTS = ("round_started", "turn_started", "turn_ended")
# The engine's own statements that end a game (dsl/builtins.py).
GAME_ENDING_CALLS = ("end_game",)
FAR = 10**6  # the order of what cites no listed section: after everything that does


def walk(node):
    """Every AST node under ``node`` (itself included), depth first, in source order."""
    if isinstance(node, list | tuple):
        for item in node:
            yield from walk(item)
        return
    if not is_dataclass(node):
        return
    yield node
    for f in fields(node):
        if f.name in ("pos", "name_pos", "event_pos"):
            continue
        yield from walk(getattr(node, f.name))


# Comparisons that ask whether a property holds a value.
_EQUALITIES = ("==", "!=")
_MEMBERSHIPS = ("in", "notin")


@dataclass
class References:
    """The names a definition uses: calls, plain names, text literals, and the property
    values it compares with (``t.size == "big"``, ``t`` declared of kind ``box`` →
    ``("box", "size", "big")``)."""

    calls: list[str] = field(default_factory=list)
    names: set[str] = field(default_factory=set)
    texts: set[str] = field(default_factory=set)
    compared: set[tuple[str | None, str, str]] = field(default_factory=set)  # (kind of x, property, value)
    reads: set[tuple[str | None, str]] = field(default_factory=set)  # (kind of x, property) of every `x.p`

    def compares(self, kind: str, prop: str, value: str) -> bool:
        """Whether the rule asks if a thing of ``kind`` (or of a kind it does not declare)
        has ``value`` as its ``prop``."""
        return (kind, prop, value) in self.compared or (None, prop, value) in self.compared

    def reads_property(self, kind: str, prop: str, only_kind: bool) -> bool:
        """Whether the rule reads ``prop`` of a thing of ``kind``, or of a thing whose kind it
        does not declare when ``prop`` is ``kind``'s alone (``only_kind``): otherwise it could
        be reading another kind's property of that name."""
        return (kind, prop) in self.reads or (only_kind and (None, prop) in self.reads)

    def mentions(self, word: str) -> bool:
        # A word a thing is called by is written as a name or a text, never as a call:
        # calling the built-in `any` or a procedure `draw_card` names no thing whose
        # property reads "any" or "draw_card".
        return word in self.names or word in self.texts


def _written_value(node) -> str | None:
    """A value written in the rule itself: a text literal or a plain name."""
    if isinstance(node, ast.Literal) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return node.id
    return None


def _compared(node: ast.Binary, kinds: dict[str, str]) -> list[tuple[str | None, str, str]]:
    """``x.p == v``, ``v != x.p``, ``x.p in [v, w]``: the kind of ``x`` (None when the rule
    does not declare it), the property and the values it is compared with."""
    if node.op in _EQUALITIES:
        for prop, other in ((node.left, node.right), (node.right, node.left)):
            value = _written_value(other)
            if isinstance(prop, ast.Attr) and value is not None:
                return [(_kind_of(prop.obj, kinds), prop.name, value)]
    elif node.op in _MEMBERSHIPS and isinstance(node.left, ast.Attr) and isinstance(node.right, ast.ListExpr):
        kind = _kind_of(node.left.obj, kinds)
        values = [_written_value(item) for item in node.right.items]
        return [(kind, node.left.name, v) for v in values if v is not None]
    return []


def _kind_of(obj, kinds: dict[str, str]) -> str | None:
    return kinds.get(obj.id) if isinstance(obj, ast.Name) else None


def _declared_kinds(d: ast.Definition, ruleset: RuleSet | None) -> dict[str, str]:
    """The kinds (of the rule set's, not `player` or `any`) a definition declares its names
    of: its parameters and, in a script or a heuristic, the parameters of the actions it
    prefers. A name bound again inside the rule (a loop, a `let`, a comprehension) could be
    anything there, so it has none."""
    if ruleset is None:
        return {}
    definitions = ruleset.definitions
    params = list(getattr(d, "params", []))
    if getattr(d, "responder", None) is not None:
        params.append(d.responder)
    for pref in getattr(d, "prefers", []):
        params += getattr(definitions.get(pref.target), "params", [])
    kinds = {p.name: p.type.name for p in params if p.type is not None and p.type.name in ruleset.data.kinds}
    for node in walk(d):
        bound = node.name if isinstance(node, ast.Let) else getattr(node, "var", None)
        if isinstance(bound, str):
            kinds.pop(bound, None)
    return kinds


def references(d: ast.Definition, ruleset: RuleSet | None = None) -> References:
    refs = References()
    kinds = _declared_kinds(d, ruleset)
    for node in walk(d):
        if isinstance(node, ast.Call | ast.CallStmt):
            if node.func not in refs.calls:
                refs.calls.append(node.func)
        elif isinstance(node, ast.Name):
            refs.names.add(node.id)
        elif isinstance(node, ast.Literal) and isinstance(node.value, str):
            refs.texts.add(node.value)
        elif isinstance(node, ast.Set) and len(node.target) > 1:
            refs.names.add(node.target[0])  # `set thing.property = ...` names the thing
        if isinstance(node, ast.Binary):
            refs.compared.update(_compared(node, kinds))
        if isinstance(node, ast.Attr):
            refs.reads.add((_kind_of(node.obj, kinds), node.name))
    return refs


@dataclass
class Catalogue:
    ruleset: RuleSet
    sections: list[Section]
    refs: dict[str, References]
    setup: list[str]  # the setup procedure and what it calls, in call order
    round: list[str]  # the round procedure, then the turn triggers
    phases: list[str]  # procedures the round procedure calls
    actions: list[str]  # actions and reactions, rulebook order
    victory: list[str]  # victory definitions and whatever ends the game
    cards: list[ComponentSpec]
    room_types: list[str]
    others: list[str]  # everything not shown on another page, by file

    def order(self, name: str) -> tuple[int, str, int]:
        d = self.ruleset.definitions[name]
        return (section_index(d.cite, self.sections), d.file, d.pos.line)

    def mentioning(self, *words: str, exclude: set[str] = frozenset()) -> list[str]:
        """Definitions that name any of ``words``, in rulebook order."""
        found = [n for n, r in self.refs.items() if n not in exclude and any(r.mentions(w) for w in words if w)]
        return sorted(found, key=self.order)

    def concerning(self, comp: ComponentSpec) -> list[str]:
        """Definitions about one component, in rulebook order: those naming it, its kind when
        it is the only one of its kind, or (a tile) its rooms' types; those comparing one of
        its properties with the value it holds; and those writing a value only it holds.
        A value it shares with others is no name of it unless compared with its property."""
        data = self.ruleset.data
        words = [comp.name]
        if sum(c.kind == comp.kind for c in data.components) == 1:
            words.append(comp.kind)  # the only one of its kind: rules about the kind are about it
        if data.board is not None and comp.layout in data.board.layouts:
            # a tile does what its rooms do
            words += [(info or {}).get("type") for info in data.board.layouts[comp.layout].rooms.values()]
        own = own_values(data.components, comp)
        held = [(prop, value) for prop, value in comp.properties.items() if isinstance(value, str)]
        marks = marking_properties(self.ruleset, comp)
        found = [n for n, r in self.refs.items()
                 if any(r.mentions(w) for w in words if w) or any(r.compares(comp.kind, p, v) for p, v in held)
                 or any(v in r.texts for v in own)  # a value is written as a text, never as a name
                 or any(r.reads_property(comp.kind, p, alone) for p, alone in marks)]
        return sorted(found, key=self.order)


def marking_properties(ruleset: RuleSet, comp: ComponentSpec) -> list[tuple[str, bool]]:
    """The properties that set ``comp`` apart from the plain things of its kind, each with
    whether no other kind declares a property of that name: a yes/no other than its kind's
    default (``hidden: true``, ``usable: false``), or a number where its kind's is
    0 or unset (``deadline: 3``). A rule reading one of them is about the things that
    hold it; a number whose default is a real amount (a strength of 1) marks none of them."""
    kinds = ruleset.data.kinds
    spec = kinds.get(comp.kind)
    if spec is None:
        return []
    marks = []
    for prop, value in comp.properties.items():
        declared = spec.properties.get(prop)
        if declared is None or isinstance(value, str) or value is None:
            continue
        flag = declared.type == "bool" and value != bool(declared.default)
        amount = declared.type == "number" and value and not declared.default
        if flag or amount:
            alone = not any(prop in k.properties for name, k in kinds.items() if name != comp.kind)
            marks.append((prop, alone))
    return marks


def own_values(components: list[ComponentSpec], comp: ComponentSpec) -> list[str]:
    """The text values of ``comp``'s properties that identify it: held by no other component
    (under any property) and naming no other component."""
    others = {c.name for c in components if c is not comp}
    for c in components:
        if c is not comp:
            others.update(v for v in c.properties.values() if isinstance(v, str))
    return [v for v in comp.properties.values() if isinstance(v, str) and v not in others]


def section_index(cite: str | None, sections: list[Section]) -> int:
    """Position of the first listed rulebook section a cite names."""
    best = FAR
    for _, part in cite_parts(cite or ""):
        for s in match_sections(part, sections):
            best = min(best, sections.index(s))
    return best


def load_rulebook_sections(scenario_folder: Path | None) -> list[Section]:
    if scenario_folder is None or not (scenario_folder / SECTIONS_FILE).is_file():
        return []
    listed = load_sections(scenario_folder / SECTIONS_FILE, DiagnosticBag())
    return listed.sections if listed else []


def _callees(ruleset: RuleSet, refs: dict[str, References], start: str, kinds: tuple[str, ...]) -> list[str]:
    """``start`` and the definitions of ``kinds`` it calls, transitively, in first-call order."""
    seen = [start]
    i = 0
    while i < len(seen):
        for callee in refs[seen[i]].calls:
            d = ruleset.definitions.get(callee)
            if d is not None and d.kind in kinds and callee not in seen:
                seen.append(callee)
        i += 1
    return seen


def card_components(ruleset: RuleSet) -> list[ComponentSpec]:
    """Components that lie in zones (cards, tiles), not pieces standing on the board: of a
    kind located in zones, or of a kind that says nothing of where it lies and starting in a zone."""
    data = ruleset.data
    out = []
    for comp in data.components:
        kind = data.kinds.get(comp.kind)
        if kind is not None and (kind.located_in == "zone" or (kind.located_in is None and comp.zone is not None)):
            out.append(comp)
    return out


def room_types(ruleset: RuleSet) -> list[str]:
    board = ruleset.data.board
    found: list[str] = []
    if board is None:
        return found
    for layout in board.layouts.values():
        for info in layout.rooms.values():
            t = (info or {}).get("type")
            if t and t not in found:
                found.append(t)
    return found


def catalogue(ruleset: RuleSet, scenario_folder: Path | None = None) -> Catalogue:
    defs = ruleset.definitions
    sections = load_rulebook_sections(scenario_folder)
    refs = {name: references(d, ruleset) for name, d in defs.items()}
    game = ruleset.data.game
    setup = _callees(ruleset, refs, game.setup, ("procedure",)) if game.setup in defs else []
    rounds = [game.round] if game.round in defs else []
    phases = [c for c in refs[game.round].calls if defs.get(c) is not None and defs[c].kind == "procedure"] if rounds else []
    turn_triggers = [n for n, d in defs.items()
                     if (d.kind == "trigger" and d.event in TURN_EVENTS) or d.kind == "obligation"]
    cat = Catalogue(ruleset, sections, refs, setup, rounds + turn_triggers, phases, [], [], card_components(ruleset),
                    room_types(ruleset), [])
    cat.actions = sorted((n for n, d in defs.items() if d.kind in ("action", "reaction")), key=cat.order)
    cat.victory = sorted((n for n, d in defs.items()
                          if d.kind == "victory" or any(c in GAME_ENDING_CALLS for c in refs[n].calls)), key=cat.order)
    shown = set(cat.setup) | set(cat.round) | set(cat.phases) | set(cat.actions) | set(cat.victory)
    cat.others = [n for n in defs if n not in shown]
    return cat


def source_of(ruleset: RuleSet, d: ast.Definition) -> str:
    """A definition's text in its rule file: its header and every indented line after it."""
    lines = []
    n = d.pos.line
    while True:
        line = ruleset.bag.sources.line(d.pos.file, n)
        if line is None or (n > d.pos.line and line and not line[0].isspace()):
            break
        lines.append(line)
        n += 1
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines)
