"""Names a rename must follow where the checker does not resolve them: the scenario
files (``seeds/<game>/*.yaml`` or the rule set's ``scenarios/``, and each variant's own
``variants/NAME/scenarios.yaml`` or ``scenarios/``) and the variants' YAML files.

A scenario names the rule set's actions, procedures and functions (``do:``, ``call:``,
``function:``, ``react:``), an action's parameters (the keys of ``args:``), kinds,
properties and variables (the keys of ``props:`` and ``vars:``, a ``where:`` filter,
``THING.PROPERTY`` in ``sees``), zones (``deck``, ``hand:p1``), components and their
copies (``card``, ``card.3``, ``piece.p1``, ``tile.2/room``) and dice (the keys of
``rolls:``). A variant file names the base's parameters, components, kinds and
definitions (``parameters:``, ``components:``, ``manifest:``, ``replaces:``,
``removes:``, the kinds and zones of what it adds). Each is found as a YAML scalar, a
key or a value, by the place it has in the file; only a scalar written as it reads
(plain, or quoted without escapes, on one line) is changed, and never a text (a title,
a citation, a scenario's own words). What is missed is caught by checking the rule set
and its scenarios as the rename leaves them (see ``features.rename``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import yaml

from rulecraft.dsl.diagnostics import Diagnostic, DiagnosticBag
from rulecraft.dsl.model import RuleSet

from .symbols import Key, Occurrence

# keys whose values are the author's words, never names
PROSE = {"title", "cite", "text", "known_failure", "because", "prompt", "reason", "scenario", "note", "message"}
# keys whose values name a definition
DEFINITION_KEYS = {"do", "call", "function", "react"}
# lists of event patterns: a pattern's keys are the event's fields, its values what they hold
FIELD_LISTS = {"events", "no_events", "events_in_order"}
_STR = "tag:yaml.org,2002:str"
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's, when built: the same marks, ten times faster


@dataclass(frozen=True)
class Scalar:
    """A key or a value of a YAML file, written as it reads, with where it is."""

    value: str
    line: int  # from 0
    column: int  # of the value's first character, from 0
    is_key: bool
    path: tuple  # the keys (and list indexes) leading to it; a key's path ends with itself
    frames: tuple  # each mapping around it, outermost first: its keys → their values when scalar

    @property
    def context(self) -> str | None:
        """The key this scalar is under: a value's own key (or its list's), the key of
        the mapping a key belongs to."""
        names = [p for p in (self.path[:-1] if self.is_key else self.path) if isinstance(p, str)]
        return names[-1] if names else None


def scalars(text: str) -> list[Scalar]:
    """Every key and string value of a YAML text that is written as it reads."""
    try:
        root = yaml.compose(text, Loader=_LOADER)
    except yaml.YAMLError:
        return []
    out: list[Scalar] = []

    def walk(node, path: tuple, frames: tuple) -> None:
        if isinstance(node, yaml.MappingNode):
            siblings = {k.value: (v.value if isinstance(v, yaml.ScalarNode) else None)
                        for k, v in node.value if isinstance(k, yaml.ScalarNode)}
            inner = frames + (siblings,)
            for k, v in node.value:
                if isinstance(k, yaml.ScalarNode):
                    found = _literal(k, text, path + (k.value,), inner, True)
                    if found is not None:
                        out.append(found)
                    walk(v, path + (k.value,), inner)
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                walk(item, path + (i,), frames)
        elif isinstance(node, yaml.ScalarNode):
            found = _literal(node, text, path, frames, False)
            if found is not None:
                out.append(found)

    if root is not None:
        walk(root, (), ())
    return out


def _literal(node, text: str, path: tuple, frames: tuple, is_key: bool) -> Scalar | None:
    start, end = node.start_mark, node.end_mark
    if node.tag != _STR or start.line != end.line or not node.value:
        return None
    if not node.style:  # plain: None, or '' from libyaml
        offset = 0
    elif node.style in ("'", '"'):
        offset = 1
    else:
        return None
    written = text[start.index + offset:end.index - offset]
    if written != node.value:
        return None
    return Scalar(node.value, start.line, start.column + offset, is_key, path, frames)


class Known:
    """What the rule set has, to read a scenario's names by: the things (each id and its
    kind), the kinds and which of them have a property, the types of properties,
    variables and parameters, and what each field of an event holds."""

    def __init__(self, ruleset: RuleSet):
        from rulecraft.dsl import ast
        from rulecraft.dsl.builtins import ACTION_WINDOW

        data = ruleset.data
        self.kinds = set(data.kinds)
        self.zones = set(data.zones)
        self.components = {c.name: c.kind for c in data.components}
        self.entities: dict[str, str] = {}
        game = data.game
        if game is not None and "player" in data.kinds:
            try:
                from rulecraft.validator.names import names_for

                self.entities = dict(names_for(ruleset, game.max_players).entities)
            except Exception:  # noqa: BLE001 - a rule set being written may not lay out
                self.entities = {}
        self.entities.update({c: k for c, k in self.components.items() if c not in self.entities})
        self._with: dict[str, set[str]] = {}
        self._types: dict[tuple[str, str], str] = {}
        for kind, spec in data.kinds.items():
            for prop, p in spec.properties.items():
                self._with.setdefault(prop, set()).add(kind)
                self._types[(kind, prop)] = str(p.type)
        self.variables = {(scope, n): str(v.type) for scope, vs in data.variables.items() for n, v in vs.items()}
        self.params = {d.name: [(p.name, str(p.type)) for p in getattr(d, "params", [])]
                       for d in ruleset.definitions.values()}
        self.returns = {d.name: str(d.returns) for d in ruleset.definitions.values() if getattr(d, "returns", None)}
        # event → field → what it holds: the engine's own events, then every emit's (and
        # window's) field by the type of the value it gives
        self.events: dict[str, dict[str, str]] = {
            "moved": {"entity": "entity", "source": "zone", "destination": "zone"},
            "shuffled": {"zone": "zone"}, "placed": {"tile": "entity"}, "rolled": {"die": "die"},
            "action_taken": {"action": "definition"}, "reacted": {"reaction": "definition"},
            "action_declined": {"action": "definition"}, ACTION_WINDOW: {"action": "definition"},
            **{e: {"entity": "entity", "property": "property"} for e in ("changed", "revealed", "hidden")}}
        from .symbols import _walk

        for d in ruleset.definitions.values():
            for node in _walk(d):
                if isinstance(node, (ast.Emit, ast.Window)):
                    fields = self.events.setdefault(node.event, {})
                    for name, expr in node.fields:
                        fields.setdefault(name, str(getattr(expr, "type", None) or "?"))

    def kind_of(self, thing: str) -> str | None:
        return self.entities.get(thing)

    def kinds_with(self, prop: str) -> set[str]:
        return self._with.get(prop, set())

    def property_type(self, kind: str | None, prop: str) -> str:
        if kind is None:
            kinds = self.kinds_with(prop)
            kind = next(iter(kinds)) if len(kinds) == 1 else None
        return self._types.get((kind, prop), "?") if kind else "?"

    def holds(self, type_: str | None, what: str) -> bool:
        """Whether a value of ``type_`` (None: a place where only names are written) may
        be a ``what`` (an entity, a zone, a die...)."""
        if type_ is None or type_ == what:
            return True
        base = type_.removesuffix("?")
        base = base[len("list of "):].removesuffix("?") if base.startswith("list of ") else base
        if what == "entity":
            return base in self.kinds
        if what == "zone":
            return base in ("zone", "placement")
        return False


def _whole(s: Scalar) -> list[tuple[int, int]]:
    return [(0, len(s.value))]


def _names_a_property(s: Scalar) -> bool:
    """A key that is a property's, a variable's or an argument's name, or an event's field."""
    path, ctx = s.path, s.context
    return s.is_key and ((len(path) >= 3 and path[-3] in ("props", "vars")) or ctx in ("where", "args")
                         or (len(path) >= 3 and path[-3] in FIELD_LISTS))


def _event_field(s: Scalar) -> tuple[str | None, str] | None:
    """(event type, field) when ``s`` is the value of a field of an event pattern."""
    path = [p for p in s.path]
    while path and isinstance(path[-1], int):
        path.pop()
    if s.is_key or len(path) < 3 or path[-3] not in FIELD_LISTS or not isinstance(path[-2], int) or not s.frames:
        return None
    return s.frames[-1].get("type"), path[-1]


def _value_type(s: Scalar, known: Known) -> str | None:
    """The type of the value ``s`` where the scenario's place for it declares one (a
    property's, a variable's, an argument's, an event's field); None where the place
    holds names (a piece's place, a deck's cards)."""
    if s.is_key:
        return None
    path = list(s.path)
    index = None
    while path and isinstance(path[-1], int):
        index = path.pop()
    frames = s.frames
    if len(path) >= 3 and path[-3] == "props" and isinstance(path[-2], str):
        owner = path[-2]
        kind = known.kind_of(owner) or (owner if owner in known.kinds else None)
        return known.property_type(kind, path[-1]) if kind else "?"
    if len(path) >= 2 and path[-2] == "where" and len(frames) >= 2:
        return known.property_type(frames[-2].get("kind"), path[-1])
    if len(path) >= 3 and path[-3] == "vars" and isinstance(path[-2], str):
        return known.variables.get((path[-2], path[-1]), "?")
    if len(path) >= 2 and path[-2] == "args" and len(frames) >= 2:  # an action's argument, by name
        step = frames[-2]
        owner = step.get("do") or step.get("react") or step.get("action") or step.get("reaction")
        params = dict(known.params.get(owner or "", []))
        return params.get(path[-1], "?")
    if path and path[-1] == "args" and index is not None and frames:  # a procedure's or function's, by place
        step = frames[-1]
        params = known.params.get(step.get("call") or step.get("function") or "", [])
        return params[index][1] if index < len(params) else "?"
    if path and path[-1] == "value" and frames and "function" in frames[-1]:
        return known.returns.get(frames[-1]["function"], "?")
    event = _event_field(s)
    if event is not None:
        return known.events.get(event[0] or "", {}).get(event[1], "?")
    return None


def scenario_spans(key: Key, s: Scalar, known: Known) -> list[tuple[int, int]]:
    """Where in scalar ``s`` of a scenario file the symbol ``key`` is named."""
    from rulecraft.dsl.builtins import ACTION_WINDOW

    v, ctx, what = s.value, s.context, key[0]
    if not s.is_key and ctx in PROSE:
        return []
    event = _event_field(s)
    held = known.events.get(event[0] or "", {}).get(event[1]) if event else None
    if what == "definition":
        if not s.is_key and v == key[1] and (ctx in DEFINITION_KEYS or held == "definition"):
            return _whole(s)
        return []
    if what == "local":  # an action's or reaction's parameter: a key of the step's args
        if not s.is_key or v != key[2] or not s.frames:
            return []
        owners = ("do", "react", "action", "reaction")
        if ctx == "args" and len(s.frames) >= 2 and key[1] in (s.frames[-2].get(k) for k in owners):
            return _whole(s)
        pattern = s.frames[-1]
        if (len(s.path) >= 3 and s.path[-3] in FIELD_LISTS and pattern.get("type") == ACTION_WINDOW
                and pattern.get("action") == key[1]):
            return _whole(s)  # the window on a chosen action holds the action's arguments
        return []
    if what == "kind":
        if v != key[1] or v in known.entities:
            return []
        if (s.is_key and ctx in ("props", "kinds")) or (not s.is_key and ctx in ("restore", "kind")):
            return _whole(s)
        return []
    if what == "property":
        kind, prop = key[1], key[2]
        if s.is_key and v == prop:
            if len(s.path) >= 3 and s.path[-3] == "props" and isinstance(s.path[-2], str):
                owner = s.path[-2]
                if known.kind_of(owner) == kind or (owner == kind and owner not in known.entities):
                    return _whole(s)
            if ctx == "where" and len(s.frames) >= 2:
                filtered = s.frames[-2].get("kind")
                if filtered == kind or (filtered is None and known.kinds_with(prop) == {kind}):
                    return _whole(s)
            return []
        if not s.is_key and v == prop and held == "property":
            owner = s.frames[-1].get("entity")
            if known.kind_of(owner) == kind or (owner is None and known.kinds_with(prop) == {kind}):
                return _whole(s)
        if not s.is_key and ctx in ("shown", "hidden"):
            owner, dot, name = v.rpartition(".")
            if dot and name == prop and known.kind_of(owner) == kind:
                return [(len(owner) + 1, len(v))]
        return []
    if what == "variable":
        scope, name = key[1], key[2]
        if s.is_key and v == name and len(s.path) >= 3 and s.path[-3] == "vars" and s.path[-2] == scope:
            return _whole(s)
        if not s.is_key and ctx in ("shown", "hidden") and v == f"{scope}.{name}":
            return [(len(scope) + 1, len(v))]
        return []
    if what == "die":
        if v == key[1] and ((s.is_key and ctx in ("rolls", "roll")) or (not s.is_key and held == "die")):
            return _whole(s)
        return []
    if what in ("zone", "entity"):
        if ctx in DEFINITION_KEYS or ctx == "type" or _names_a_property(s):
            return []
        name = key[1]
        if what == "zone":
            exact = v == name and v not in known.entities and v not in known.kinds
            named = exact or v.startswith(name + ":")
        elif ":" in v:  # the zone of a thing: `cargo:ship` (a zone declared `per: KIND`)
            zone, _, owner = v.partition(":")
            if zone in known.zones and (owner == name or owner.startswith(name + ".")):
                return [(len(zone) + 1, len(zone) + 1 + len(name))]
            return []
        else:
            exact = v == name
            named = exact or v.startswith(name + ".") or v.startswith(name + "/")
        # an id with its copy or owner (card.3, hand:p1) is a name wherever it is written; the
        # name alone is one where the place holds things (not a text that reads the same)
        if named and (not exact or known.holds(_value_type(s, known), what)):
            return [(0, len(name))]
    return []


_TYPE = re.compile(r"(list of\s+)?([A-Za-z_][A-Za-z0-9_]*)\??")


def variant_spans(key: Key, s: Scalar, known: Known) -> list[tuple[int, int]]:
    """Where in scalar ``s`` of a variant file (``variants/NAME.yaml``) the base's
    symbol ``key`` is named."""
    v, path, ctx, what = s.value, s.path, s.context, key[0]
    top = path[0] if path else None
    if not s.is_key and ctx in PROSE:
        return []
    if what == "parameter":
        return _whole(s) if s.is_key and len(path) == 2 and top == "parameters" and v == key[1] else []
    if what == "entity":
        return _whole(s) if s.is_key and len(path) == 2 and top == "components" and v == key[1] else []
    if what == "definition":
        return _whole(s) if not s.is_key and len(path) == 2 and top in ("replaces", "removes") and v == key[1] else []
    if what == "kind":
        kind = key[1]
        if s.is_key and len(path) == 2 and top == "manifest" and (v == kind or v.startswith(kind + ".")):
            return [(0, len(kind))]  # `kind: 12`, `kind.property=value: 3`
        if s.is_key and top == "add" and len(path) == 3 and path[1] in ("properties", "values") and v.startswith(kind + "."):
            return [(0, len(kind))]
        if not s.is_key and top in ("add", "variables") and ctx in ("kind", "type", "holds", "per", "located_in"):
            m = _TYPE.fullmatch(v)
            if m and m.group(2) == kind:
                return [(m.start(2), m.end(2))]
        return []
    if what == "property":
        kind, prop = key[1], key[2]
        if s.is_key and top == "add" and len(path) == 3 and path[1] == "values" and v == f"{kind}.{prop}":
            return [(len(kind) + 1, len(v))]
        if s.is_key and len(path) == 2 and top == "manifest" and v.startswith(f"{kind}.{prop}="):
            return [(len(kind) + 1, len(kind) + 1 + len(prop))]
        if s.is_key and v == prop and len(path) >= 3 and path[-2] == "properties":
            if top == "components" and len(path) == 4 and known.components.get(path[1]) == kind:
                return _whole(s)
            if top == "add" and len(path) == 5 and path[1] == "components" and len(s.frames) >= 2 \
                    and s.frames[-2].get("kind") == kind:
                return _whole(s)
        return []
    if what == "zone":
        return _whole(s) if not s.is_key and ctx == "zone" and top == "add" and v == key[1] else []
    return []


def table_spans(key: Key, s: Scalar, known: Known) -> list[tuple[int, int]]:
    """Where in scalar ``s`` of a table of the rule set (or a variant's file) a thing or a
    zone is named as the value of a component's starting property of its type
    (``properties: {owner: ship}`` for a property ``owner: vessel``)."""
    if key[0] not in ("entity", "zone") or s.is_key or s.value.partition(":")[0] != key[1] and \
            not s.value.startswith(key[1] + "."):
        return []
    path = list(s.path)
    while path and isinstance(path[-1], int):
        path.pop()
    if len(path) < 3 or path[-2] != "properties" or len(s.frames) < 2:
        return []
    kind = s.frames[-2].get("kind") or known.components.get(s.frames[-2].get("name") or "") \
        or known.components.get(path[-3] if isinstance(path[-3], str) else "")
    if kind is None or not known.holds(known.property_type(kind, path[-1]), key[0]):
        return []
    return [(0, len(key[1]))]


def find(key: Key, files: list[Path], spans: Callable[[Key, Scalar, Known], list[tuple[int, int]]],
         known: Known, text_of: Callable[[Path], str | None]) -> list[Occurrence]:
    """The occurrences of ``key`` in ``files``, each a YAML file read by ``text_of``."""
    out = []
    name = key[-1]
    for path in files:
        text = text_of(path)
        if not text or name not in text:
            continue
        for s in scalars(text):
            for start, end in spans(key, s, known):
                out.append(Occurrence(key, str(path), s.line, s.column + start, s.column + end))
    return out


# ---------------------------------------------------------------- where the files are
def scenario_files(root: Path, ruleset: RuleSet) -> list[tuple[Path, str | None]]:
    """Every scenario file of the rule set, with the variant whose own file it is (None
    for the scenario folder's, whose scenarios may name their variant)."""
    from rulecraft.dsl.variants import available_variants, variant_scenario_files
    from rulecraft.validator.scenario import default_folder
    from rulecraft.validator.scenario import scenario_files as in_folder

    out: list[tuple[Path, str | None]] = []
    game = ruleset.data.game
    if game is not None and game.name:
        folder = default_folder(root, game.name)
        if folder.is_dir():
            out += [(p.resolve(), None) for p in in_folder(folder)]
    for variant in available_variants(root):
        out += [(p.resolve(), variant) for _, p in variant_scenario_files(root, [variant])]
    return out


def variant_files(root: Path) -> list[Path]:
    from rulecraft.dsl.variants import available_variants, variants_folder

    return [(variants_folder(root) / f"{v}.yaml").resolve() for v in available_variants(root)]


def display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def scenario_errors(files: list[tuple[Path, str | None]], rulesets: Callable[[str | None], RuleSet | None],
                    text_of: Callable[[Path], str | None]) -> list[Diagnostic]:
    """What ``verify`` would find broken in the scenarios, before running any: each file
    read by ``text_of``, each scenario checked against the rule set of its variant."""
    from rulecraft.validator.names import check_scenario
    from rulecraft.validator.scenario import load_text

    bag = DiagnosticBag()
    for path, owner in files:
        text = text_of(path)
        if text is None:
            continue
        loaded = load_text(text, display(path), bag)
        for sc in loaded.scenarios:
            ruleset = rulesets(sc.variant or owner)
            if ruleset is None or ruleset.data.game is None:
                continue
            try:
                check_scenario(sc, ruleset, bag)
            except Exception:  # noqa: BLE001 - a rule set with errors may not lay out; its errors say why
                continue
    # a step that does nothing is found by the load and again by the scenario's check
    unique = {(d.position, d.message): d for d in bag.errors}
    return list(unique.values())
