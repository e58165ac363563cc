"""Every place a checked rule set names something, keyed by what the name denotes.

The checker has already resolved each name (``ref`` on names and calls, ``type`` on
expressions), so this module only walks the tree and the YAML declarations and writes
down where each symbol is declared and used. Go-to-definition, references, rename and
hover all read this one table.

A symbol key is a tuple: ``("definition", name)``, ``("kind", name)``,
``("property", kind, name)``, ``("zone", name)``, ``("entity", name)``,
``("parameter", name)``, ``("table", name)``, ``("die", name)``,
``("variable", scope, name)``, ``("local", definition, name)``, ``("builtin", name)``.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator

from rulecraft.dsl import ast
from rulecraft.dsl import types as T
from rulecraft.dsl.model import RuleSet

Key = tuple

# A property read from something whose kind the checker does not know (an event's field),
# when several kinds have a property of that name: ("unsure property", name).
UNSURE = "unsure property"
# A glossary's word for a local name in every definition that has one (`names: {c: card}`):
# ("shared local name", name). A rename of the local changes it only where no other
# definition has a local of that name.
SHARED_NAME = "shared local name"
# Keys a rename may change: names the rule set itself declares.
RENAMEABLE = {"definition", "kind", "property", "zone", "entity", "parameter", "table", "die", "variable", "local"}


@dataclass(frozen=True)
class Occurrence:
    key: Key
    file: str  # as the rule set's positions name it
    line: int  # from 0, as in the protocol
    start: int  # from 0
    end: int
    declaration: bool = False
    type: str | None = None  # the checker's type of the expression, where it has one


class SymbolTable:
    """Occurrences of a rule set's names, found from its checked tree and YAML."""

    def __init__(self, ruleset: RuleSet, text_of: Callable[[str], str | None]):
        self.ruleset = ruleset
        self._lines: dict[str, list[str]] = {}
        self._text_of = text_of
        self.occurrences: list[Occurrence] = []
        self._declared: dict[str, str] = {}  # the parameters of the definition being walked
        self._files: set[str] | None = None
        self._having: dict[str, list[str]] | None = None
        self._owners: dict[str, str] = {}  # in a preference: the action each of its names is an argument of
        for d in ruleset.definitions.values():
            self._definition(d)
        self._yaml()

    # ------------------------------------------------------------ queries
    @property
    def files(self) -> set[str]:
        """The files some occurrence is in."""
        if self._files is None:
            self._files = {o.file for o in self.occurrences}
        return self._files

    def at(self, file: str, line: int, character: int) -> Occurrence | None:
        """The occurrence under a cursor (an end counts, as an editor's caret after a word)."""
        best = None
        for o in self.occurrences:
            if o.file == file and o.line == line and o.start <= character <= o.end:
                if best is None or (o.end - o.start) < (best.end - best.start):
                    best = o
        return best

    def of(self, key: Key) -> list[Occurrence]:
        return [o for o in self.occurrences if o.key == key]

    def declarations(self, key: Key) -> list[Occurrence]:
        return [o for o in self.of(key) if o.declaration]

    # ------------------------------------------------------------ locating names in text
    def line_text(self, file: str, line: int) -> str | None:
        """Line ``line`` (from 1) of ``file``, as the editor holds it."""
        lines = self._lines.get(file)
        if lines is None:
            text = self._text_of(file)
            lines = text.splitlines() if text is not None else []
            self._lines[file] = lines
        return lines[line - 1] if 1 <= line <= len(lines) else None

    def _add(self, key: Key, name: str, pos, declaration: bool = False, type_: str | None = None,
             search_lines: int = 1) -> None:
        """Record ``name`` at ``pos``: exactly there, or its first whole-word match after
        ``pos`` on that line (some nodes are placed at their statement's first word)."""
        if pos is None or not name:
            return
        word = _word(name)
        for n in range(pos.line, pos.line + search_lines):
            text = self.line_text(pos.file, n)
            if text is None:
                return
            m = word.search(text, max(pos.column - 1, 0) if n == pos.line else 0)
            if m is not None:
                self.occurrences.append(Occurrence(key, pos.file, n - 1, m.start(), m.end(), declaration, type_))
                return

    # ------------------------------------------------------------ rule files
    def _definition(self, d: ast.Definition) -> None:
        self._add(("definition", d.name), d.name, d.name_pos, declaration=True)
        # a parameter's type as written: the checker does not track optionality, so the
        # type it gives a use of 'p: player?' is 'player'
        self._declared = {p.name: str(p.type) for p in getattr(d, "params", [])}
        for p in getattr(d, "params", []):
            self._add(("local", d.name, p.name), p.name, p.pos, declaration=True, type_=str(p.type))
        # a script's or heuristic's `prefer ACTION where ...` names the action, and reads
        # its arguments under their own names: those are the action's locals
        in_preferences: set[int] = set()
        for pref in getattr(d, "prefers", None) or []:
            target = self.ruleset.definitions.get(pref.target)
            own = dict(self._declared)
            if target is not None and target.kind in ("action", "reaction"):
                self._add(("definition", target.name), target.name, pref.target_pos or pref.pos)
                self._owners = {p.name: target.name for p in target.params if p.name not in own}
                self._declared = {**own, **{p.name: str(p.type) for p in target.params if p.name not in own}}
            for node in [pref, *_walk(pref)]:
                in_preferences.add(id(node))
                self._node(d, node)
            self._owners, self._declared = {}, own
        for node in _walk(d):
            if id(node) not in in_preferences:
                self._node(d, node)

    def _node(self, d: ast.Definition, node) -> None:
        ref = getattr(node, "ref", None)
        if isinstance(node, ast.Name):
            key = _name_key(d, ref, node.id)
            if key is not None and key[0] == "local" and node.id in self._owners:
                key = ("local", self._owners[node.id], node.id)
            if key is not None:
                type_ = getattr(node, "type", None)
                if key[0] == "local" and node.id in self._declared:
                    type_ = self._declared[node.id]
                self._add(key, node.id, node.pos, type_=type_)
        elif isinstance(node, ast.Call):
            key = _call_key(ref, node.func)
            if key is not None:
                self._add(key, node.func, node.pos, type_=getattr(node, "type", None))
        elif isinstance(node, ast.CallStmt):
            key = _call_key(ref, node.func)
            if key is not None:
                self._add(key, node.func, node.pos)
        elif isinstance(node, ast.Attr):
            key = self._attr_key(node)
            if key is not None:
                self._add(key, node.name, node.name_pos or node.pos, type_=getattr(node, "type", None))
        elif isinstance(node, ast.TypeRef):
            if node.name in self.ruleset.data.kinds:
                self._add(("kind", node.name), node.name, node.pos)
        elif isinstance(node, ast.Set):
            self._set_target(d, node)
        elif isinstance(node, ast.Cost):  # `cost 1 coins`: a property of the acting player (or of x, `of x`)
            holder = getattr(node.payer, "type", None) if node.payer is not None else "player"
            self._resource(holder, node.resource, node.resource_pos or node.pos)
        elif isinstance(node, ast.ResourceChange):  # `gain 1 coins of x`
            self._resource(getattr(node.holder, "type", None), node.resource, node.resource_pos or node.pos)
        elif isinstance(node, ast.Let):
            self._add(("local", d.name, node.name), node.name, node.pos, declaration=True,
                      type_=getattr(node.value, "type", None))
        elif isinstance(node, (ast.ForEach, ast.Choose, ast.Window, ast.Comprehension)):
            source = getattr(node, "iterable", None) or getattr(node, "options", None)
            items = getattr(source, "type", None)
            pos = node.pos
            if isinstance(node, ast.Comprehension):  # placed at '[': the name follows 'for'
                text = self.line_text(pos.file, pos.line) or ""
                m = re.compile(r"\bfor\s+").search(text, pos.column - 1)
                pos = dataclasses.replace(pos, column=m.end() + 1) if m else pos
            self._add(("local", d.name, node.var), node.var, pos, declaration=True,
                      type_=T.item_type(items) if items and T.is_list(items) else None)

    def _resource(self, holder: str | None, name: str, pos) -> None:
        holder = (holder or "").removesuffix("?")
        kind = self.ruleset.data.kinds.get(holder)
        if kind is not None and name in kind.properties:
            self._add(("property", holder, name), name, pos)

    def _attr_key(self, node: ast.Attr) -> Key | None:
        owner = getattr(node.obj, "type", None)
        if owner == T.SCOPE and isinstance(node.obj, ast.Name):
            return ("variable", node.obj.id, node.name)
        if node.name in ("at", "id"):
            return None
        owner = owner.removesuffix("?") if isinstance(owner, str) else owner
        if owner in self.ruleset.data.kinds:
            return ("property", owner, node.name)
        if owner in (None, T.ANY) and not isinstance(node.obj, ast.Name) or owner == T.ANY:
            # a property of something the checker does not know the kind of (`event.by.x`,
            # a field of an event): the property of the one kind that has it; when several
            # have one of that name, a rename of either cannot tell (see UNSURE)
            having = self._kinds_with().get(node.name, [])
            if len(having) == 1:
                return ("property", having[0], node.name)
            if having:
                return (UNSURE, node.name)
        return None

    def _kinds_with(self) -> dict[str, list[str]]:
        if self._having is None:
            self._having = {}
            for kind, spec in self.ruleset.data.kinds.items():
                for prop in spec.properties:
                    self._having.setdefault(prop, []).append(kind)
        return self._having

    def _set_target(self, d: ast.Definition, s: ast.Set) -> None:
        """`set a.b = ...`: the target's names are placed at 'set'; find them on its line."""
        head, *middle, prop = s.target
        obj = getattr(s, "object", None)
        if obj is None:  # a game or turn variable
            if head in ("game", "turn"):
                self._add(("variable", head, prop), prop, s.pos)
            return
        chain = []
        while isinstance(obj, ast.Attr):
            chain.append(obj)
            obj = obj.obj
        if isinstance(obj, ast.Name):
            key = _name_key(d, getattr(obj, "ref", None), obj.id)
            if key is not None:
                type_ = getattr(obj, "type", None)
                if key[0] == "local" and obj.id in self._declared:
                    type_ = self._declared[obj.id]
                self._add(key, obj.id, s.pos, type_=type_)
        for attr in reversed(chain):
            key = self._attr_key(attr)
            if key is not None:
                self._add(key, attr.name, s.pos)
        owner = getattr(s.object, "type", None)
        if owner in self.ruleset.data.kinds:
            self._add(("property", owner, prop), prop, s.pos)

    # ------------------------------------------------------------ YAML
    def _yaml(self) -> None:
        data = self.ruleset.data
        for key, pos in data.where.items():
            what = key[0]
            if what in ("kind", "zone", "table", "die", "parameter") and len(key) == 2:
                self._add(key, key[1], pos, declaration=True)
            elif what in ("property", "variable") and len(key) == 3:
                self._add(key, key[2], pos, declaration=True)
            elif what == "component" and len(key) == 2:
                self._add(("entity", key[1]), key[1], pos, declaration=True, search_lines=4)
            elif what == "component" and len(key) == 3 and key[2] in ("kind", "zone"):
                component = next((c for c in data.components if c.name == key[1]), None)
                value = getattr(component, key[2], None) if component else None
                if value:
                    self._add((key[2], value), value, pos)
            elif what == "game" and key[1] in ("setup", "round", "end_turn_allowed") and data.game is not None:
                name = getattr(data.game, key[1], None)
                if name:
                    self._add(("definition", name), name, pos)
            elif what == "game" and key[1] == "sides" and data.game is not None:
                teams = (data.game.sides or {}).get("teams") or []
                if key[2] < len(teams):
                    self._add(("definition", teams[key[2]]["member"]), teams[key[2]]["member"], pos)
            elif what == "manifest":  # `kind: 12`, or `kind.property=value: 3`
                kind, _, condition = key[1].partition(".")
                prop = condition.partition("=")[0]
                if kind in data.kinds:
                    self._add(("kind", kind), kind, pos)
                    if prop in data.kinds[kind].properties:
                        self._add(("property", kind, prop), prop, dataclasses.replace(pos, column=pos.column + len(kind) + 1))
            elif what == "ruling" and key[1] < len(data.rulings):
                self._ruling_definitions(data.rulings[key[1]], pos)
        self._kinds_named_in_yaml()
        self._glossary_entries()

    def _ruling_definitions(self, ruling: dict, pos) -> None:
        """The definitions a ruling names, on its `definitions:` line (or the lines under it)."""
        names = ruling.get("definitions") or []
        for n in range(pos.line, pos.line + 40):
            text = self.line_text(pos.file, n)
            if text is None or (n > pos.line and text.lstrip().startswith("- ") and
                                len(text) - len(text.lstrip()) <= pos.column - 1):
                return
            if text.lstrip().startswith("definitions:"):
                start = dataclasses.replace(pos, line=n, column=1)
                for name in names:
                    self._add(("definition", name), name, start, search_lines=1 + len(names))
                return

    def _glossary_entries(self) -> None:
        """The names a glossary gives words for (``glossary/<language>.yaml``, and a
        variant's ``variants/<variant>/glossary/<language>.yaml``: a kind, a zone,
        ``kind.property``, ``game.variable``, a definition's text under ``texts``...),
        its keys quoted or not: a rename must change them too, or `rulecraft check` warns
        of an entry for a name that is gone and a name with none."""
        root = Path(self.ruleset.root)
        paths = sorted((root / "glossary").glob("*.yaml")) + sorted((root / "variants").glob("*/glossary/*.yaml"))
        declared = {o.key for o in self.occurrences if o.declaration}
        for path in paths:
            file, section, indent, n = str(path.resolve()), None, None, 0
            while (text := self.line_text(file, n + 1)) is not None:
                n += 1
                top = _GLOSSARY_SECTION.match(text)
                if top:
                    section, indent = top.group(1), None
                    continue
                m = _GLOSSARY_KEY.match(text)
                if m is None or section is None or indent not in (None, len(m.group(1))):
                    continue
                indent = len(m.group(1))
                for key, start, end in glossary_key_names(section, m.group(3), m.start(3)):
                    if key in declared or key[0] == SHARED_NAME:
                        self.occurrences.append(Occurrence(key, file, n - 1, start, end))

    def _kinds_named_in_yaml(self) -> None:
        """Kinds written as the types of properties and variables, what zones hold (or
        whose things each have one) and where kinds are located: a rename of a kind must
        change them too."""
        data = self.ruleset.data
        kinds = set(data.kinds)
        for key, pos in data.where.items():
            if key[0] in ("property", "variable") and len(key) == 3:
                self._kinds_in_block(pos, kinds, _TYPE_FIELD)
            elif key[0] == "zone":
                self._kinds_in_block(pos, kinds, _HOLDS_FIELD)
            elif key[0] == "kind":
                self._kinds_in_block(pos, kinds, _LOCATED_FIELD)

    def _kinds_in_block(self, pos, kinds: set[str], field: re.Pattern) -> None:
        """Kind names that ``field`` matches in the YAML value after the key at ``pos``
        (its own line after the key, then the lines indented under it)."""
        if pos is None or pos.end_column is None:
            return
        n, start = pos.line, pos.end_column - 1
        while True:
            text = self.line_text(pos.file, n)
            if text is None or (n > pos.line and text.strip() and len(text) - len(text.lstrip()) <= pos.column - 1):
                return
            for m in field.finditer(text[start:]):  # sliced: '^' is where the value starts
                if m.group(1) in kinds:
                    self.occurrences.append(Occurrence(("kind", m.group(1)), pos.file, n - 1,
                                                       start + m.start(1), start + m.end(1)))
            n, start = n + 1, 0


# a glossary's sections that are keyed by one name, and what the name denotes
_GLOSSARY_SECTIONS = {"kinds": "kind", "zones": "zone", "components": "entity", "parameters": "parameter",
                      "tables": "table", "dice": "die", "definitions": "definition"}
# the keys of `texts` naming something besides a definition: `components.NAME`, `parameters.NAME`
_TEXT_PREFIXES = {"components": "entity", "parameters": "parameter"}
_GLOSSARY_SECTION = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*:")
# a key under a section, quoted or not: `card`, `"card.value"`, `'texts'`
_GLOSSARY_KEY = re.compile(r"""(\s+)(["']?)([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\2\s*:""")


def glossary_key_names(section: str, key: str, column: int) -> list[tuple[Key, int, int]]:
    """The symbols a glossary key names in a section, each with its columns: ``kinds``'
    ``card``, ``properties``' ``card.value`` (the kind and the property), ``names``'
    ``move.c`` (the definition and its local name; a plain ``c`` serves every definition
    that has a ``c``), ``texts``' ``move`` or ``components.NAME``."""
    parts, spans, at = key.split("."), [], column
    for part in parts:
        spans.append((at, at + len(part)))
        at += len(part) + 1
    if len(parts) == 1 and section in _GLOSSARY_SECTIONS:
        return [((_GLOSSARY_SECTIONS[section], key), *spans[0])]
    if len(parts) == 1 and section == "texts":
        return [(("definition", key), *spans[0])]
    if len(parts) == 1 and section == "names":
        return [((SHARED_NAME, key), *spans[0])]
    if len(parts) != 2:
        return []
    first, second = parts
    if section == "properties":
        return [(("kind", first), *spans[0]), (("property", first, second), *spans[1])]
    if section == "variables":
        return [(("variable", first, second), *spans[1])]
    if section == "names":
        return [(("definition", first), *spans[0]), (("local", first, second), *spans[1])]
    if section == "texts" and first in _TEXT_PREFIXES:
        return [((_TEXT_PREFIXES[first], second), *spans[1])]
    return []


_KIND_WORD = r"([A-Za-z_][A-Za-z0-9_]*)\??(?![A-Za-z0-9_])"
# `prop: kind`, `prop: {type: list of kind}`, or `type: kind` on a line of its own
_TYPE_FIELD = re.compile(r"(?:(?:^|[{,\s])type\s*:\s*|^:\s*)[\"']?(?:list of\s+)?" + _KIND_WORD)
# what a zone holds, or the kind each of whose things has one (`per: robot`)
_HOLDS_FIELD = re.compile(r"(?:^|[{,\s])(?:holds|per)\s*:\s*[\"']?" + _KIND_WORD)
_LOCATED_FIELD = re.compile(r"(?:^|[{,\s])located_in\s*:\s*[\"']?" + _KIND_WORD)


def _name_key(d: ast.Definition, ref, name: str) -> Key | None:
    if not ref:
        return None
    category = ref[0]
    if category == "local":
        return ("local", d.name, name)
    if category == "value":
        return ("builtin", name)
    if category in ("zone", "kind", "entity", "parameter", "die", "table"):
        return (category, name)
    return None


def _call_key(ref, name: str) -> Key | None:
    if not ref:
        return None
    category = ref[0]
    if category in ("function", "procedure"):
        return ("definition", name)
    if category == "player_zone":
        return ("zone", name)
    if category in ("builtin", "effect"):
        return ("builtin", name)
    return None


@lru_cache(maxsize=4096)
def _word(name: str) -> re.Pattern:
    return re.compile(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])")


@lru_cache(maxsize=None)
def _child_fields(cls: type) -> tuple[str, ...]:
    """The fields of a node class that may hold nodes (positions never do)."""
    return tuple(f.name for f in dataclasses.fields(cls) if f.name not in ("pos", "name_pos", "event_pos", "within_pos"))


def _walk(node) -> Iterator:
    """Every AST node under ``node`` (itself excluded), depth first."""
    for name in _child_fields(type(node)):
        yield from _children(getattr(node, name))


def _children(value) -> Iterator:
    if isinstance(value, ast.Node):
        yield value
        yield from _walk(value)
    elif isinstance(value, (list, tuple)):
        for v in value:
            if isinstance(v, (ast.Node, list, tuple)):
                yield from _children(v)
