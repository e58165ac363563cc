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


@dataclass
class References:
    """The names a definition uses: calls, plain names and text literals."""

    calls: list[str] = field(default_factory=list)
    names: set[str] = field(default_factory=set)
    texts: set[str] = field(default_factory=set)

    def mentions(self, word: str) -> bool:
        return word in self.names or word in self.texts or word in self.calls


def references(d: ast.Definition) -> References:
    refs = References()
    for node in walk(d):
        if isinstance(node, ast.Call | ast.CallStmt):
            if node.func not in refs.calls:
                refs.calls.append(node.func)
        elif isinstance(node, ast.Name):
            refs.names.add(node.id)
        elif isinstance(node, ast.Literal) and isinstance(node.value, str):
            refs.texts.add(node.value)
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
    refs = {name: references(d) for name, d in defs.items()}
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
