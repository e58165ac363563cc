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
    # text literals written anywhere but as the value a property is compared with: a
    # compared value names a value of that property only (see ``compared``)
    texts: set[str] = field(default_factory=set)
    compared: set[tuple[str | None, str, str]] = field(default_factory=set)  # (kind of x, property, value)
    reads: set[tuple[str | None, str]] = field(default_factory=set)  # (kind of x, property) of every `x.p`
    variables_read: set[str] = field(default_factory=set)  # `turn.x`, `game.x` the rule reads
    variables_set: set[str] = field(default_factory=set)  # … and those it sets
    size: int = 0  # how many syntax-tree nodes the definition has
    # the variables set under a condition: (what the condition names, the variables set in its branch)
    guarded_sets: list[tuple["References", set[str]]] = field(default_factory=list)
    # variable set → the variables its new values are made from (`set turn.seen += [turn.here]`)
    set_from: dict[str, set[str]] = field(default_factory=dict)

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


def _compared(node: ast.Binary, kinds: dict[str, str], consumed: set[int] | None = None
              ) -> list[tuple[str | None, str, str]]:
    """``x.p == v``, ``v != x.p``, ``x.p in [v, w]``: the kind of ``x`` (None when the rule
    does not declare it), the property and the values it is compared with. The text
    literals compared go to ``consumed`` (by id): they are values of that property only."""
    consumed = consumed if consumed is not None else set()
    if node.op in _EQUALITIES:
        for prop, other in ((node.left, node.right), (node.right, node.left)):
            value = _written_value(other)
            if isinstance(prop, ast.Attr) and value is not None:
                if isinstance(other, ast.Literal):
                    consumed.add(id(other))
                return [(_kind_of(prop.obj, kinds), prop.name, value)]
    elif node.op in _MEMBERSHIPS and isinstance(node.left, ast.Attr) and isinstance(node.right, ast.ListExpr):
        kind = _kind_of(node.left.obj, kinds)
        values = [_written_value(item) for item in node.right.items]
        consumed.update(id(item) for item in node.right.items if isinstance(item, ast.Literal))
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
    kinds = _declared_kinds(d, ruleset)
    variables = ruleset.data.variables if ruleset is not None else {}
    refs = _collect(d, kinds, variables)
    for node in walk(d):
        if isinstance(node, ast.If):
            for cond, body in node.branches:
                assigned = _collect(body, kinds, variables).variables_set
                if assigned:
                    refs.guarded_sets.append((_collect(cond, kinds, variables), assigned))
        elif isinstance(node, ast.Set) and len(node.target) == 2 and node.target[0] in variables:
            read = _collect(node.value, kinds, variables).variables_read
            refs.set_from.setdefault(".".join(node.target), set()).update(read)
    return refs


def _collect(top, kinds: dict[str, str], variables: dict) -> References:
    """What a definition, or one of its parts, names, compares, reads and sets."""
    refs = References()
    consumed: set[int] = set()  # text literals compared with a property (walked before them)
    for node in walk(top):
        refs.size += 1
        if isinstance(node, ast.Call | ast.CallStmt):
            if node.func not in refs.calls:
                refs.calls.append(node.func)
        elif isinstance(node, ast.Name):
            refs.names.add(node.id)
        elif isinstance(node, ast.Literal) and isinstance(node.value, str):
            if id(node) not in consumed:
                refs.texts.add(node.value)
        elif isinstance(node, ast.Set) and len(node.target) > 1:
            head, prop = node.target[0], node.target[1]
            if head in variables and prop in variables[head]:
                refs.variables_set.add(f"{head}.{prop}")
            else:
                refs.names.add(head)  # `set thing.property = ...` names the thing
        if isinstance(node, ast.Binary):
            refs.compared.update(_compared(node, kinds, consumed))
        if isinstance(node, ast.Attr):
            obj = node.obj
            if isinstance(obj, ast.Name) and getattr(obj, "ref", None) == ("scope", obj.id):
                refs.variables_read.add(f"{obj.id}.{node.name}")
            else:
                refs.reads.add((_kind_of(obj, kinds), node.name))
    return refs


# A function this small (syntax-tree nodes) is a predicate or a lookup, read as part of the
# rules that call it: `at_gate(c)`, `main_hall()`.
SMALL_FUNCTION = 20
# How many times what a rule is about is passed on to its callers and to the readers of what it sets.
FOLLOW_DEPTH = 2


@dataclass
class Concern:
    """The rules about one component: those about it (``rules``), those about it only
    through a yes/no or number it holds against its kind's default (``through``: (property,
    value) → rules), and the bots' judgement that reads it (``bots``); each in rulebook order."""

    rules: list[str] = field(default_factory=list)
    through: dict[tuple[str, object], list[str]] = field(default_factory=dict)
    bots: list[str] = field(default_factory=list)

    def all(self) -> list[str]:
        return self.rules + [n for names in self.through.values() for n in names] + self.bots


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
    _bots: set[str] | None = None

    def order(self, name: str) -> tuple[int, str, int]:
        d = self.ruleset.definitions[name]
        return (section_index(d.cite, self.sections), d.file, d.pos.line)

    def mentioning(self, *words: str, exclude: set[str] = frozenset()) -> list[str]:
        """Definitions that name any of ``words``, in rulebook order."""
        found = [n for n, r in self.refs.items() if n not in exclude and any(r.mentions(w) for w in words if w)]
        return sorted(found, key=self.order)

    def space_kind(self) -> str | None:
        board = self.ruleset.data.board
        return board.space_kind if board is not None else None

    def _holding(self, r: References, kind: str | None, prop: str, value: str) -> bool:
        """Whether a rule is about the things whose ``prop`` holds ``value``: it compares that
        property with it, or writes the value as a text of its own (not compared with another
        property: a value two properties share names only the one it is compared on)."""
        return r.compares(kind, prop, value) or value in r.texts

    def room_type_rules(self, room_type: str) -> Concern:
        """The rules about a room type: those comparing a room's type with it or writing it,
        those naming the only card that carries it, and the rules that reach them (see
        :meth:`_followed`)."""
        kind = self.space_kind()
        board = self.ruleset.data.board
        carriers = [c.name for c in self.ruleset.data.components
                    if board is not None and c.layout in board.layouts
                    and any((info or {}).get("type") == room_type for info in board.layouts[c.layout].rooms.values())]
        only = carriers[0] if len(carriers) == 1 else None

        def match(r: References):
            return None if self._holding(r, kind, "type", room_type) or (only and only in r.names) else False

        return self._sorted(self._followed(match))

    def concerning(self, comp: ComponentSpec) -> Concern:
        """Definitions about one component, in rulebook order: those naming it, its kind when
        it is the only one of its kind, or (a tile) its rooms' types; those comparing one of
        its properties with the value it holds; and those writing a value only it holds.
        A value it shares with others is no name of it unless compared with its property.
        Those reading a yes/no or number it holds against its kind's default are about it
        through that property; the bots' judgement is apart (see :class:`Concern`)."""
        data = self.ruleset.data
        words = [comp.name]
        if sum(c.kind == comp.kind for c in data.components) == 1:
            words.append(comp.kind)  # the only one of its kind: rules about the kind are about it
        rooms: list[tuple[str, str]] = []  # (property, value) of its rooms: a tile does what its rooms do
        if data.board is not None and comp.layout in data.board.layouts:
            rooms = [(p, v) for info in data.board.layouts[comp.layout].rooms.values()
                     for p, v in (info or {}).items() if isinstance(v, str)]
        space = self.space_kind()
        own = own_values(data.components, comp)
        held = [(prop, value) for prop, value in comp.properties.items() if isinstance(value, str)]
        marks = marking_properties(self.ruleset, comp)

        def match(r: References):
            if any(r.mentions(w) for w in words if w) or any(r.compares(comp.kind, p, v) for p, v in held) \
                    or any(v in r.texts for v in own) or any(self._holding(r, space, p, v) for p, v in rooms):
                return None
            for p, alone in marks:
                if r.reads_property(comp.kind, p, alone):
                    return (p, comp.properties[p])
            return False

        return self._sorted(self._followed(match))

    def _followed(self, match) -> dict[str, object]:
        """The rules ``match`` finds (rule → why: None when it is about the thing itself,
        else what ``match`` says), with the rules that reach them: the callers of a small
        function found (`at_gate(c)`), and the readers of a game or turn variable that only
        rules found set, set under a condition about the thing (`if r.type == "gate": set
        turn.gate = r`) or from such a variable; each for the same reason, up to
        :data:`FOLLOW_DEPTH` times."""
        defs = self.ruleset.definitions
        found: dict[str, object] = {}
        for n, r in self.refs.items():
            why = match(r)
            if why is not False:
                found[n] = why
        setters: dict[str, set[str]] = {}
        for n, r in self.refs.items():
            for v in r.variables_set:
                setters.setdefault(v, set()).add(n)
        owned: dict[str, object] = {}
        for _ in range(FOLLOW_DEPTH):
            for v, who in setters.items():
                if v in owned or not who <= set(found):
                    continue
                for n in who:
                    r = self.refs[n]
                    if any(v in assigned and match(cond) is not False for cond, assigned in r.guarded_sets) \
                            or r.set_from.get(v, set()) & set(owned):
                        owned[v] = found[n]
                        break
            small = {n for n in found if defs[n].kind == "function" and self.refs[n].size <= SMALL_FUNCTION}
            added: dict[str, object] = {}
            for n, r in self.refs.items():
                if n in found:
                    continue
                via = [found[f] for f in r.calls if f in small] + [owned[v] for v in r.variables_read if v in owned]
                if via:
                    added[n] = None if None in via else via[0]
            if not added:
                break
            found.update(added)
        return found

    def _sorted(self, found: dict[str, object]) -> Concern:
        """Rules sorted into a :class:`Concern`: the bots' judgement apart, each group in rulebook order."""
        out = Concern()
        bots = self.bots_only()
        for n in sorted(found, key=self.order):
            if n in bots:
                out.bots.append(n)
            elif found[n] is None:
                out.rules.append(n)
            else:
                out.through.setdefault(found[n], []).append(n)
        return out

    def bots_only(self) -> set[str]:
        """The bots' judgement, which changes no rule: every heuristic, and every function or
        procedure only they use (directly or through one another)."""
        if self._bots is None:
            defs = self.ruleset.definitions
            callers: dict[str, set[str]] = {}
            for n, r in self.refs.items():
                for c in r.calls:
                    if c in defs and c != n:
                        callers.setdefault(c, set()).add(n)
            bots = {n for n, d in defs.items() if d.kind == "heuristic"}
            grown = True
            while grown:
                grown = False
                for n, d in defs.items():
                    if n not in bots and d.kind in ("function", "procedure") and callers.get(n) \
                            and callers[n] <= bots:
                        bots.add(n)
                        grown = True
            self._bots = bots
        return self._bots


def marking_properties(ruleset: RuleSet, comp: ComponentSpec) -> list[tuple[str, bool]]:
    """The properties that set ``comp`` apart from the plain things of its kind, each with
    whether no other kind declares a property of that name: a yes/no other than its kind's
    default (``hidden: true``, ``usable: false``), or a number where its kind's is
    0 or unset (``deadline: 3``) and some of the kind's components have none (no number,
    or 0): those are the plain ones. A rule reading one of them is about the things that
    hold it. A number whose default is a real amount (a strength of 1) marks none of them,
    and nor does a number every component of the kind holds, each its own, with no
    default (a number printed on every one): it is a fact of each, which the component's
    properties show, not what sets one apart."""
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
        amount = declared.type == "number" and value and not declared.default \
            and any(not c.properties.get(prop) for c in ruleset.data.components if c.kind == comp.kind)
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
    kind located in zones, or of a kind that says nothing of where it lies and starting in a
    zone; and every tile of a board of laid tiles, also one the setup lays from the box
    (a start tile in no zone)."""
    data = ruleset.data
    tile_kind = data.board.tile_kind if data.board is not None and data.board.kind == "tiles" else None
    out = []
    for comp in data.components:
        kind = data.kinds.get(comp.kind)
        if kind is not None and (kind.located_in == "zone" or (kind.located_in is None and comp.zone is not None)
                                 or comp.kind == tile_kind):
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
