"""Mutants of a rule set: small deliberate changes derived from the syntax tree.

Each rule file is parsed with the rules grammar (keeping every keyword token, so
``and``, ``not`` and ``top`` have positions too) and every YAML table is composed
with its marks; each mutation operator then proposes one-token or one-clause changes
at exact source offsets. A mutant is a file, a span and its replacement text: applied
to the file's text it gives the changed rule set. The operators follow the classic
mutation tools (relational boundary and negation, logical connectors, literals,
removed statements) plus what this language has of its own: ``require`` clauses,
costs, limits, ``where`` filters, trigger conditions and zone ends.

A mutant's id hashes its file, definition, operator, old and new text and the text
of its line (not the line number), so it stays the same while unrelated lines move.
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import yaml
from lark import Lark, Token, Tree
from lark.exceptions import LarkError

from rulecraft.dsl.loader import EQUIVALENTS_FILE
from rulecraft.dsl.parser import _RulesIndenter, _split_definitions

# operator name → what it changes (shown by --list and in the docs)
OPERATORS: dict[str, str] = {
    "boundary": "a comparison's boundary: < ↔ <=, > ↔ >=",
    "negate-comparison": "a comparison negated: == ↔ !=, < ↔ >=, > ↔ <=",
    "membership": "in ↔ not in",
    "logic": "and ↔ or",
    "drop-not": "a `not` removed",
    "boolean": "true ↔ false",
    "condition": "an `if`/`elif` condition replaced by true, then by false",
    "number": "a number in an expression ±1",
    "arithmetic": "+ ↔ -, * ↔ //, % → //",
    "assign": "set … += ↔ -=",
    "builtin": "any ↔ all, min ↔ max, first ↔ last",
    "drop-require": "a `require` clause removed",
    "drop-where": "a `where` filter of a `with` or a list removed",
    "drop-when": "a trigger's `when` condition removed",
    "drop-statement": "a statement removed from a block of several (not `let`, `choose`, `window`: they name a value)",
    "drop-else": "an `else` branch removed",
    "cost": "a cost ±1, or removed",
    "limit": "a limit's count ±1, its period changed, or the limit removed",
    "zone-end": "move … to top ↔ bottom of a zone",
    "parameter": "a YAML parameter ±1 (in a variant too)",
    "table": "a number in a YAML table ±1 (board tables, component counts, defaults)",
    "visibility": "a `visible_to` in a YAML table widened to everyone (owner's also to nobody), a `top_visible` flipped",
}
# who sees a zone, property or variable → what a visibility mutant makes of it
_WIDER = {"owner": ("everyone", "nobody"), "others": ("everyone", "owner"), "nobody": ("everyone",)}
# … and of what a variant's `visibility:` gives (a variant may open what the base hides)
_CHANGED_SIGHT = {**_WIDER, "everyone": ("nobody",)}

_COMPARISON = {
    "<": [("boundary", "<="), ("negate-comparison", ">=")],
    "<=": [("boundary", "<"), ("negate-comparison", ">")],
    ">": [("boundary", ">="), ("negate-comparison", "<=")],
    ">=": [("boundary", ">"), ("negate-comparison", "<")],
    "==": [("negate-comparison", "!=")],
    "!=": [("negate-comparison", "==")],
}
_ARITHMETIC = {"+": "-", "-": "+", "*": "//", "//": "*", "%": "//"}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BUILTIN = {"any": "all", "all": "any", "min": "max", "max": "min", "first": "last", "last": "first"}
_BINDING = {"let_stmt", "choose_stmt", "window_stmt"}  # statements that name a value for later ones
_LAYOUT = {"_NL", "_INDENT", "_DEDENT"}
_PERIOD = {"turn": "round", "round": "game", "game": "turn"}
# YAML sections that describe the game or the rulings rather than rules a game plays by
# (the manifest is a checksum of the component counts: changing it is only a static error)
_YAML_SKIP_SECTIONS = {"game", "rulings", "variant", "superseded", "glossary", "manifest"}


@dataclass(frozen=True)
class Mutant:
    id: str
    operator: str
    file: str  # relative to the rule-set folder: "rooms.rules", "variants/x.yaml"
    line: int
    column: int
    start: int  # offsets into the file's text
    end: int
    old: str
    new: str
    definition: str | None = None  # the enclosing definition or YAML section entry
    # what a YAML number sets, where a variant may set it again ("parameters.x",
    # "components.y.count", "components.y.properties.z"); not part of the id
    sets: str | None = None

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    @property
    def change(self) -> str:
        return f"{_short(self.old)} → {_short(self.new) if self.new else '(removed)'}"

    def apply(self, text: str) -> str:
        return text[: self.start] + self.new + text[self.end :]


def _short(text: str, width: int = 70) -> str:
    one = " ⏎ ".join(line.strip() for line in text.strip("\n").splitlines())
    return one if len(one) <= width else one[: width - 1] + "…"


@lru_cache(maxsize=1)
def _full_parser() -> Lark:
    """The rules grammar, keeping keyword tokens (and, or, not, if …) in the tree."""
    grammar = resources.files("rulecraft.dsl").joinpath("grammar.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", postlex=_RulesIndenter(), propagate_positions=True,
                maybe_placeholders=True, keep_all_tokens=True)


class _Source:
    """A file's text with line starts, to turn (line, column) into offsets."""

    def __init__(self, file: str, text: str):
        self.file, self.text = file, text
        self.starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self.starts.append(i + 1)

    def offset(self, line: int, column: int) -> int:
        return self.starts[line - 1] + column - 1

    def line_of(self, offset: int) -> int:
        return bisect_right(self.starts, offset)

    def line_text(self, line: int) -> str:
        end = self.starts[line] if line < len(self.starts) else len(self.text)
        return self.text[self.starts[line - 1] : end]

    def lines_span(self, first: int, last: int) -> tuple[int, int]:
        """Offsets of whole lines first..last, their line ends included."""
        end = self.starts[last] if last < len(self.starts) else len(self.text)
        return self.starts[first - 1], end


def _last_line(node: Tree) -> int:
    """The line of a clause's or statement's last token. (Its meta end counts the line
    break after it, which ends on the next line.)"""
    tokens = list(_tokens(node))
    return max(t.end_line for t in tokens) if tokens else node.meta.end_line


def _tokens(node: Tree):
    """The tokens of a tree that are text (not line breaks and indentation)."""
    return node.scan_values(lambda v: isinstance(v, Token) and v.type not in _LAYOUT)


class _Collector:
    def __init__(self, src: _Source):
        self.src = src
        self.found: list[tuple[str, int, int, str, str | None]] = []  # operator, start, end, new, definition
        self.definition: str | None = None

    def add(self, operator: str, start: int, end: int, new: str) -> None:
        if self.src.text[start:end] != new:
            self.found.append((operator, start, end, new, self.definition))

    # -- positions
    def tok_span(self, tok: Token) -> tuple[int, int]:
        start = self.src.offset(tok.line, tok.column)
        return start, start + len(tok.value)

    def node_span(self, node) -> tuple[int, int]:
        if isinstance(node, Token):
            return self.tok_span(node)
        tokens = list(_tokens(node))
        first = min(tokens, key=lambda t: (t.line, t.column))
        last = max(tokens, key=lambda t: (t.end_line, t.end_column))
        return self.src.offset(first.line, first.column), self.src.offset(last.end_line, last.end_column)

    def drop_lines(self, operator: str, node: Tree) -> None:
        start, end = self.src.lines_span(node.meta.line, _last_line(node))
        self.add(operator, start, end, "")

    # -- the walk
    def walk(self, node, context: tuple[str, ...] = ()) -> None:
        if not isinstance(node, Tree):
            return
        kind = node.data
        handler = getattr(self, f"on_{kind}", None)
        if handler is not None:
            handler(node, context)
        inner = context + (kind,)
        for child in node.children:
            self.walk(child, inner)

    def _definition(self, node: Tree, _context) -> None:
        name = next((c for c in node.children if isinstance(c, Token) and c.type == "NAME"), None)
        self.definition = str(name) if name is not None else None

    on_action_def = on_procedure_def = on_function_def = on_trigger_def = on_victory_def = on_reaction_def = _definition
    on_obligation_def = on_script_def = on_heuristic_def = _definition

    def on_compare(self, node: Tree, _context) -> None:
        op = node.children[1]
        start, end = self.tok_span(op)
        for operator, new in _COMPARISON.get(str(op), []):
            self.add(operator, start, end, new)

    def on_contains(self, node: Tree, _context) -> None:
        start, end = self.tok_span(node.children[1])
        self.add("membership", start, end, "not in")

    def on_not_contains(self, node: Tree, _context) -> None:
        start, _ = self.tok_span(node.children[1])
        _, end = self.tok_span(node.children[2])
        self.add("membership", start, end, "in")

    def on_or_(self, node: Tree, _context) -> None:
        self.add("logic", *self.tok_span(node.children[1]), "and")

    def on_and_(self, node: Tree, _context) -> None:
        self.add("logic", *self.tok_span(node.children[1]), "or")

    def on_not_(self, node: Tree, _context) -> None:
        start, _ = self.tok_span(node.children[0])
        operand_start, _ = self.node_span(node.children[1])
        self.add("drop-not", start, operand_start, "")

    def on_true(self, node: Tree, _context) -> None:
        self.add("boolean", *self.node_span(node), "false")

    def on_false(self, node: Tree, _context) -> None:
        self.add("boolean", *self.node_span(node), "true")

    def on_number(self, node: Tree, context) -> None:
        tok = node.children[0]
        value = int(tok)
        operator = "cost" if "cost_clause" in context else "limit" if "limit_clause" in context else "number"
        start, end = self.tok_span(tok)
        self.add(operator, start, end, str(value + 1))
        if value > 0:
            self.add(operator, start, end, str(value - 1))

    def on_binary(self, node: Tree, _context) -> None:
        op = node.children[1]
        new = _ARITHMETIC.get(str(op))
        if new:
            self.add("arithmetic", *self.tok_span(op), new)

    def on_set_stmt(self, node: Tree, _context) -> None:
        op = next(c for c in node.children if isinstance(c, Token) and c.type == "ASSIGN_OP")
        new = {"+=": "-=", "-=": "+="}.get(str(op))
        if new:
            self.add("assign", *self.tok_span(op), new)

    def on_call(self, node: Tree, _context) -> None:
        name = node.children[0]
        new = _BUILTIN.get(str(name))
        if new:
            self.add("builtin", *self.tok_span(name), new)

    def on_move_stmt(self, node: Tree, _context) -> None:
        for c in node.children:
            if isinstance(c, Token) and c.type == "DECK_END":
                self.add("zone-end", *self.tok_span(c), "bottom" if c == "top" else "top")

    def _condition(self, node: Tree) -> None:
        cond = node.children[1]
        if isinstance(cond, Tree) and cond.data in ("true", "false"):
            return
        start, end = self.node_span(cond)
        self.add("condition", start, end, "true")
        self.add("condition", start, end, "false")

    def on_if_stmt(self, node: Tree, _context) -> None:
        self._condition(node)
        otherwise = node.children[-1]
        if isinstance(otherwise, Tree) and otherwise.data == "else_part":
            self.drop_lines("drop-else", otherwise)

    def on_elif_part(self, node: Tree, _context) -> None:
        self._condition(node)

    def on_require_clause(self, node: Tree, _context) -> None:
        self.drop_lines("drop-require", node)

    def on_when_clause(self, node: Tree, context) -> None:
        if "trigger_def" in context:  # a victory needs its `when`
            self.drop_lines("drop-when", node)

    def on_cost_clause(self, node: Tree, _context) -> None:
        self.drop_lines("cost", node)

    def on_limit_clause(self, node: Tree, _context) -> None:
        self.drop_lines("limit", node)
        period = [c for c in node.children if isinstance(c, Token) and c.type == "NAME"]
        if period and str(period[0]) in _PERIOD:
            self.add("limit", *self.tok_span(period[0]), _PERIOD[str(period[0])])

    def on_where_part(self, node: Tree, context) -> None:
        # from the end of what precedes `where` (keeps the line's own spacing right)
        start, end = self.node_span(node)
        while start > 0 and self.src.text[start - 1] == " ":
            start -= 1
        self.add("drop-where", start, end, "")

    def on_block(self, node: Tree, _context) -> None:
        statements = [c for c in node.children if isinstance(c, Tree)]
        if len(statements) < 2:
            return  # a block may not be empty
        for stmt in statements:
            if stmt.data not in _BINDING:  # dropped, it would only leave an unknown name
                self.drop_lines("drop-statement", stmt)


def rules_mutants(file: str, text: str) -> list[tuple[str, int, int, str, str | None]]:
    """(operator, start, end, new text, definition) for every mutation of a rule file."""
    src = _Source(file, text)
    collector = _Collector(src)
    for start, chunk in _split_definitions(text):
        if not chunk.strip():
            continue
        try:
            tree = _full_parser().parse("\n" * (start - 1) + chunk)
        except LarkError:
            continue  # the checks report it; no mutant of a definition that does not parse
        collector.definition = None
        collector.walk(tree)
    return collector.found


def yaml_mutants(file: str, text: str, variant_file: bool) -> list[tuple[str, int, int, str, str | None]]:
    """Numbers of YAML parameters and tables, ±1, and who sees what the tables declare."""
    return [m[:5] for m in _yaml_numbers(text, variant_file)[0]]


def _yaml_numbers(text: str, variant_file: bool) -> tuple[list[tuple], set[str]]:
    """(operator, start, end, new text, definition, what it sets) for every number of a
    YAML file to change ±1, and every parameter, component count and component property
    the file sets (numbers or not: a later file setting one makes this file's value
    unreachable). A variant file's numbers are those it sets at its top level
    (``parameters:``, ``components:``, ``variables:``) and those it adds (``add:``,
    written as in the base's files)."""
    try:
        root = yaml.compose(text)
    except yaml.YAMLError:
        return [], set()
    found: list[tuple] = []
    sets: set[str] = set()
    if not isinstance(root, yaml.MappingNode):
        return found, sets

    def number(node, operator: str, where: str, key: str | None = None) -> None:
        if key is not None:
            sets.add(key)
        if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:int":
            try:
                value = int(node.value)
            except ValueError:
                return
            start, end = node.start_mark.index, node.end_mark.index
            found.append((operator, start, end, str(value + 1), where, key))
            if value > 0:
                found.append((operator, start, end, str(value - 1), where, key))

    def visibility(key: str, node, where: str, path: tuple[str, ...]) -> None:
        """Who sees a zone, a property or a variable: a secret shown to everyone (and an
        owner's own view taken away), a public top card hidden or shown."""
        start, end = node.start_mark.index, node.end_mark.index
        sight = _sight_key(path, key)
        if sight is not None:
            sets.add(sight)
        if key == "visible_to" and node.value in _WIDER:
            found.extend(("visibility", start, end, new, where, sight) for new in _WIDER[node.value])
        elif key == "top_visible" and node.value in ("true", "false"):
            found.append(("visibility", start, end, "false" if node.value == "true" else "true", where, sight))

    def table(node, where: str, path: tuple[str, ...] = ()) -> None:
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if isinstance(value, yaml.ScalarNode) and key.value in ("visible_to", "top_visible"):
                    visibility(key.value, value, where, path)
                elif isinstance(value, yaml.ScalarNode):
                    number(value, "table", where)
                else:
                    table(value, where, path + (str(key.value),))
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                if not isinstance(item, yaml.ScalarNode):
                    table(item, where, path)

    def parameters(section) -> None:
        if not isinstance(section, yaml.MappingNode):
            return
        for pkey, pvalue in section.value:
            where = f"parameters.{pkey.value}"
            if isinstance(pvalue, yaml.MappingNode):
                for k, v in pvalue.value:
                    if k.value == "value":
                        number(v, "parameter", where, where)
            else:
                number(pvalue, "parameter", where, where)

    def component(name: str, entries) -> None:
        """A component's entries (a base's list item, or a variant's change to one)."""
        for k, v in entries:
            if k.value == "count":
                number(v, "table", "components", f"components.{name}.count")
            elif k.value == "properties" and isinstance(v, yaml.MappingNode):
                for pk, pv in v.value:
                    key = f"components.{name}.properties.{pk.value}"
                    if isinstance(pv, yaml.ScalarNode):
                        number(pv, "table", "components", key)
                    else:
                        sets.add(key)
                        table(pv, "components")
            elif isinstance(v, yaml.ScalarNode):
                number(v, "table", "components")
            else:
                table(v, "components")

    def sections(mapping) -> None:
        """The sections of a base file (or of a variant's ``add:``, written the same way)."""
        for key, section in mapping.value:
            name = key.value
            if name == "parameters":
                parameters(section)
            elif name == "components" and isinstance(section, yaml.SequenceNode):
                for item in section.value:
                    if isinstance(item, yaml.MappingNode):
                        cname = next((v.value for k, v in item.value
                                      if k.value == "name" and isinstance(v, yaml.ScalarNode)), None)
                        component(str(cname), item.value)
                    elif not isinstance(item, yaml.ScalarNode):
                        table(item, name)
            elif name not in _YAML_SKIP_SECTIONS:
                table(section, name, (name,))

    if not variant_file:
        sections(root)
        return found, sets
    for key, section in root.value:
        name = key.value
        if name == "parameters":
            parameters(section)
        elif name == "components" and isinstance(section, yaml.MappingNode):
            for ckey, patch in section.value:
                if isinstance(patch, yaml.MappingNode):
                    component(str(ckey.value), patch.value)
        elif name == "variables":
            table(section, name, (name,))
        elif name == "visibility" and isinstance(section, yaml.MappingNode):
            # who sees what the variant changes: each value it gives, turned to another;
            # what it gives makes the base's (or an earlier variant's) value unplayed
            for what, entries in section.value:
                for key, value in (entries.value if isinstance(entries, yaml.MappingNode) else []):
                    if isinstance(value, yaml.ScalarNode):
                        sight = _variant_sight_key(str(what.value), str(key.value), "visible_to")
                        if sight is not None:
                            sets.add(sight)
                        start, end = value.start_mark.index, value.end_mark.index
                        found.extend(("visibility", start, end, other, name, sight)
                                     for other in _CHANGED_SIGHT.get(value.value, ()))
                    else:
                        table(value, name, ("visibility", str(what.value), str(key.value)))
        elif name == "add" and isinstance(section, yaml.MappingNode):
            sections(section)
    return found, sets


def _sight_key(path: tuple[str, ...], key: str) -> str | None:
    """What a ``visible_to`` or ``top_visible`` at ``path`` of a table sets, named as a
    variant's ``visibility:`` names it (so a variant giving it again makes it unplayed):
    a zone's, a kind's property's or a game or turn variable's."""
    if len(path) == 2 and path[0] == "zones":
        return f"sight.zones.{path[1]}.{key}"
    if len(path) == 4 and path[0] == "kinds" and path[2] == "properties":
        return f"sight.properties.{path[1]}.{path[3]}"
    if len(path) == 3 and path[0] == "variables":
        return f"sight.variables.{path[1]}.{path[2]}"
    if len(path) == 3 and path[0] == "visibility":  # a variant's own {visible_to: …, top_visible: …}
        return _variant_sight_key(path[1], path[2], key)
    return None


def _variant_sight_key(what: str, name: str, key: str) -> str | None:
    """The same for an entry of a variant's ``visibility:`` (``zones: {hand: everyone}``,
    ``properties: {KIND.PROPERTY: …}``, ``variables: {game.NAME: …}``)."""
    if what == "zones":
        return f"sight.zones.{name}.{key}"
    if what in ("properties", "variables"):
        return f"sight.{what}.{name}"
    return None


def _variant_files(root: Path, name: str) -> tuple[dict, list[str]]:
    """A variant's content (read leniently: the loader reports its errors) and its files
    relative to the rule set's folder: its .yaml, then the rule files it names under
    ``rules:`` (by default NAME.rules beside it, if it exists). Files outside the folder
    are left out (the loader refuses them)."""
    folder = root / "variants"
    path = folder / f"{name}.yaml"
    if not path.is_file():
        return {}, []
    try:
        content = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, OSError, UnicodeDecodeError):
        content = None
    content = content if isinstance(content, dict) else {}
    files = [f"variants/{name}.yaml"]
    names = content.get("rules")
    if isinstance(names, list) and names:
        wanted = [str(n) for n in names]
    else:
        wanted = [f"{name}.rules"] if (folder / f"{name}.rules").is_file() else []
    base = root.resolve()
    for rule_name in wanted:
        try:
            relative = (folder / rule_name).resolve().relative_to(base)
        except (ValueError, OSError):
            continue
        if (root / relative).is_file() and relative.suffix == ".rules":
            files.append(relative.as_posix())
    return content, files


def mutant_files(root: Path, variant_chain: list[str] | None = None) -> list[str]:
    """The files of a rule set mutants are taken from, relative to its folder: the base's,
    then those of each variant of the chain, base-most first."""
    files = [p.name for p in sorted(root.glob("*.yaml")) if p.name != EQUIVALENTS_FILE]
    files += [p.name for p in sorted(root.glob("*.rules"))]
    for name in variant_chain or []:
        files += [f for f in _variant_files(root, name)[1] if f not in files]
    return files


def reachable(root: Path, mutants: list[Mutant], variant_chain: list[str]) -> list[Mutant]:
    """The mutants a game of the variant can notice. Of each definition, parameter, and
    component count or property, only the file that sets it last counts (the base's
    files, then each variant's, base-most first): the value or definition a later variant
    sets again, and a definition a variant removes, are never played, so their mutants
    are left out."""
    writer: dict[tuple[str, str], str] = {}

    def read(file: str) -> None:
        try:
            text = (root / file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return
        if file.endswith(".rules"):
            for _start, chunk in _split_definitions(text):
                header = _HEADER.match(chunk)
                if header is not None:
                    writer[("rules", header.group(2))] = file
        else:
            for key in _yaml_numbers(text, variant_file=file.startswith("variants/"))[1]:
                writer[("yaml", key)] = file

    for file in mutant_files(root):
        read(file)
    for name in variant_chain:
        content, files = _variant_files(root, name)
        for removed in content.get("removes") or []:  # before its own rules, as the loader does
            writer.pop(("rules", str(removed)), None)
        for file in files:
            read(file)

    def live(m: Mutant) -> bool:
        if m.file.endswith(".rules"):
            return m.definition is None or writer.get(("rules", m.definition)) == m.file
        return m.sets is None or writer.get(("yaml", m.sets)) == m.file

    return [m for m in mutants if live(m)]


# a definition's header, after any blank or comment lines
_HEADER = re.compile(r"^(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*([a-z]+)[ \t]+([A-Za-z_][A-Za-z0-9_]*)")
_CALLED = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def judging_only(texts: dict[str, str], asked: frozenset[str] | set[str] = frozenset()) -> set[str]:
    """Definitions that change no rule, so no scenario can notice a change to them: the
    heuristics (they judge positions for bots) and the functions that only heuristics
    call, directly or through other such functions, and no table names. Read from the
    texts of every file of the rule set (``{file: text}``). A function a scenario asks
    (``asked``: the functions of its ``expect: functions:``) is noticed like a rule,
    and so are the functions it calls."""
    kinds: dict[str, str] = {}
    calls: dict[str, set[str]] = {}
    named: set[str] = set()  # the names the tables give as values (game.setup: setup_game), not their prose
    for file, text in texts.items():
        if not file.endswith(".rules"):
            named |= _names_in_table(text)
            continue
        for _start, chunk in _split_definitions(text):
            header = _HEADER.match(chunk)
            if header is None:
                continue
            kind, name = header.groups()
            kinds[name] = kind
            calls[name] = set(_CALLED.findall(chunk[header.end():]))
    heuristics = {n for n, k in kinds.items() if k == "heuristic"}
    if not heuristics:
        return set()
    # what the rules reach: every definition but heuristics and functions, and the functions they call
    reached = {n for n, k in kinds.items() if k not in ("heuristic", "function")}
    reached |= {n for n in asked if kinds.get(n) == "function"}
    reached |= {n for n in kinds if n in named}
    frontier = list(reached)
    while frontier:
        for callee in calls.get(frontier.pop(), ()):
            if callee in kinds and callee not in reached:
                reached.add(callee)
                frontier.append(callee)
    judged = set(heuristics)
    frontier = list(heuristics)
    while frontier:
        for callee in calls.get(frontier.pop(), ()):
            if kinds.get(callee) == "function" and callee not in reached and callee not in judged:
                judged.add(callee)
                frontier.append(callee)
    return judged


def _names_in_table(text: str) -> set[str]:
    """Every value of a YAML file that is a single name: a table names a definition so (a
    description that mentions one in its words does not)."""
    try:
        content = yaml.safe_load(text)
    except yaml.YAMLError:
        return set()
    found: set[str] = set()
    stack = [content]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str) and _NAME.fullmatch(value):
            found.add(value)
    return found


def generate(root: Path, files: list[str], texts: dict[str, str] | None = None,
             asked: frozenset[str] | set[str] = frozenset()) -> list[Mutant]:
    """Every mutant of the given files of a rule set, in file and position order; none
    of the definitions that change no rule (see :func:`judging_only`; ``asked``: the
    functions the scenarios ask, which they notice whatever calls them)."""
    mutants: list[Mutant] = []
    every = {f: texts[f] if texts and f in texts else (root / f).read_text(encoding="utf-8")
             for f in dict.fromkeys(mutant_files(root) + list(files))}
    skipped = judging_only(every, asked)
    for file in files:
        text = every[file]
        src = _Source(file, text)
        if file.endswith(".rules"):
            raw = [m + (None,) for m in rules_mutants(file, text) if m[4] not in skipped]
        else:
            raw = _yaml_numbers(text, variant_file=file.startswith("variants/"))[0]
        raw.sort(key=lambda m: (m[1], m[2], m[0], m[3]))
        seen: Counter = Counter()
        for operator, start, end, new, definition, sets in raw:
            line = src.line_of(start)
            column = start - src.starts[line - 1] + 1
            old = text[start:end]
            key = (file, definition, operator, old, new, src.line_text(line).strip())
            seen[key] += 1
            digest = "m" + hashlib.sha1(repr(key + (seen[key],)).encode()).hexdigest()[:9]  # never read as a YAML number
            mutants.append(Mutant(digest, operator, file, line, column, start, end, old, new, definition, sets))
    return mutants
