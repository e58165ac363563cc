"""A rule set's glossaries: the words of the game in each language, and their check.

A glossary is ``<rule set>/glossary/<lang>.yaml`` (checked by
``schemas/glossary.schema.json``); a variant may add or override entries in
``<rule set>/variants/<variant>/glossary/<lang>.yaml``. Each section maps names of the
rule set (kinds, zones, properties, definitions, local names, …) to the words a reader
sees. :func:`check_glossaries` lists every name the renderer needs that a glossary
lacks, located in the glossary file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from rulecraft.dsl import ast
from rulecraft.dsl.builtins import ENGINE_EVENTS
from rulecraft.dsl.diagnostics import Diagnostic, DiagnosticBag, Position
from rulecraft.dsl.model import RuleSet
from rulecraft.dsl.ruleset_files import inside, refuse_link_out
from rulecraft.dsl.yaml_data import Located, load_and_validate

SCHEMA = "glossary.schema.json"

# Sections of a glossary file, in the order the renderer looks a bare name up.
SECTIONS = ("names", "fields", "kinds", "zones", "components", "parameters", "properties", "variables", "values",
            "tables", "dice", "events", "groups", "definitions")

_SLOT = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass(frozen=True)
class Term:
    """How a game word is written in one language."""

    one: str  # singular (or the title of a definition)
    many: str | None = None  # plural; defaults to the singular plus "s"
    gender: str = "m"  # "m" or "f", for languages whose articles agree; "p"/"fp" for a word used only in the plural
    article: bool = True  # false for words that never take an article
    elide: bool | None = None  # French "l'": defaults to the first letter being a vowel
    say: str | None = None  # a phrase with {slots}: a definition's parameters, or {obj} for a property
    deny: str | None = None  # the negation of `say`, with the same slots
    bare: str | None = None  # a value's word without the article `one` carries, for tables
    feminine_form: str | None = None  # an adjective value after a feminine subject ("noire")

    @property
    def plural_only(self) -> bool:
        return self.gender in ("p", "fp")

    @property
    def feminine(self) -> bool:
        return self.gender in ("f", "fp")

    @property
    def plural(self) -> str:
        return self.many if self.many is not None else self.one + "s"


@dataclass
class Glossary:
    language: str
    terms: dict[tuple[str, str], Term] = field(default_factory=dict)
    where: dict[tuple[str, str], Position] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)  # base first, then each variant's
    sections: dict[str, Position] = field(default_factory=dict)  # section -> where the last file declares it
    # The author's words in this language: text lines (``texts``) and rulebook citations
    # (``citations``), for a rule set whose files are written in another language.
    texts: dict[str, str] = field(default_factory=dict)
    citations: dict[str, str] = field(default_factory=dict)

    def get(self, section: str, key: str) -> Term | None:
        return self.terms.get((section, key))

    def slots(self, section: str, key: str) -> set[str]:
        term = self.get(section, key)
        return set(_SLOT.findall((term.say or "") + (term.deny or ""))) if term else set()


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def glossary_files(ruleset: RuleSet, lang: str) -> list[Path]:
    """The base glossary of ``lang``, then the glossary of each applied variant, base-most first."""
    root = Path(ruleset.root)
    paths = [root / "glossary" / f"{lang}.yaml"]
    if ruleset.variant is not None:
        paths += [root / "variants" / v / "glossary" / f"{lang}.yaml" for v in ruleset.variant.chain]
    return [p for p in paths if p.is_file()]


def languages(ruleset: RuleSet) -> list[str]:
    """The languages the rule set has a glossary for."""
    folder = Path(ruleset.root) / "glossary"
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def _term(raw) -> Term:
    if isinstance(raw, str):
        return Term(raw)
    return Term(raw.get("one", ""), raw.get("many"), raw.get("gender", "m"), raw.get("article", True),
                raw.get("elide"), raw.get("say"), raw.get("deny"), raw.get("bare"),
                raw.get("feminine_form"))


def load_glossary(ruleset: RuleSet, lang: str, bag: DiagnosticBag | None = None) -> Glossary:
    """Read the glossary of ``lang`` with the variant's additions; problems go to ``bag``."""
    bag = bag if bag is not None else DiagnosticBag()
    glossary = Glossary(lang)
    for path in glossary_files(ruleset, lang):
        display = _display(path)
        if not inside(path, Path(ruleset.root)):
            refuse_link_out(path, display, bag)
            continue
        before = len(bag.errors)
        content, located = load_and_validate(path, SCHEMA, bag, display)
        glossary.files.append(display)
        if len(bag.errors) > before or not isinstance(content, dict):
            continue
        if content.get("language") != lang:
            bag.error(f"glossary {display} says it is in '{content.get('language')}', not '{lang}'",
                      located.position(["language"]), f"write 'language: {lang}' or rename the file")
        _merge(glossary, content, located)
    return glossary


# Sections of plain texts, not terms: the author's words translated.
TEXT_SECTIONS = ("texts", "citations")


def _merge(glossary: Glossary, content: dict, located: Located) -> None:
    for section in TEXT_SECTIONS:
        entries = content.get(section)
        if entries is None:
            continue
        glossary.sections[section] = located.key_position([section])
        for key, text in entries.items():
            getattr(glossary, section)[str(key)] = str(text)
            glossary.where[(section, str(key))] = located.key_position([section, key])
    for section in SECTIONS:
        entries = content.get(section)
        if entries is None:
            continue
        glossary.sections[section] = located.key_position([section])
        for key, raw in entries.items():
            glossary.terms[(section, str(key))] = _term(raw)
            glossary.where[(section, str(key))] = located.key_position([section, key])


# ---------------------------------------------------------------- what the renderer needs


@dataclass(frozen=True)
class Need:
    """A glossary entry the renderer needs: section and key, and slots a phrase must use."""

    section: str
    key: str
    slots: tuple[str, ...] = ()  # a definition's parameters (its `say` may name them); for a local name, its definitions


def needed_terms(ruleset: RuleSet) -> list[Need]:
    """Every glossary entry rendering this rule set's definitions and data may ask for."""
    data = ruleset.data
    needs: dict[tuple[str, str], Need] = {}

    def need(section: str, key: str, slots: tuple[str, ...] = ()) -> None:
        needs.setdefault((section, key), Need(section, key, slots))

    users: dict[str, list[str]] = {}  # local name -> the definitions that use it

    for kind in data.kinds.values():
        need("kinds", kind.name)
        for prop in kind.properties:
            need("properties", f"{kind.name}.{prop}")
    for zone in data.zones:
        need("zones", zone)
    # every component, and every text value the data gives (shown in component and tile lists)
    for comp in data.components:
        need("components", comp.name)
        for value in comp.properties.values():
            if isinstance(value, str):
                need("values", value)
    if data.board is not None:
        for name in list(data.board.directions) + list(data.board.edges) + sorted(
                {c for c in data.board.joins.values() if c and c != "none"}):
            need("values", name)
        for layout in data.board.layouts.values():
            for props in layout.rooms.values():
                for value in (props or {}).values():
                    if isinstance(value, str):
                        need("values", value)
    for section, names in (("parameters", data.parameters), ("tables", data.tables), ("dice", data.dice)):
        for name in names:
            need(section, name)
    for scope, variables in data.variables.items():
        for name in variables:
            need("variables", f"{scope}.{name}")
    for d in ruleset.definitions.values():
        params = tuple(p.name for p in getattr(d, "params", []))
        need("definitions", d.name, params)
        for node in walk(d):
            _needs_of(node, need, lambda name, d=d: users.setdefault(name, []).append(d.name), data)
    for name, definitions in users.items():
        needs[("names", name)] = Need("names", name, tuple(dict.fromkeys(definitions)))
    return list(needs.values())


def item_kind(iterable: ast.Expr, data) -> str | None:
    """The kind of the items of a list expression, when the checker or the zone it reads tells."""
    t = (getattr(iterable, "type", None) or "").rstrip("?")
    if t.startswith("list of ") and t[len("list of "):] in data.kinds:
        return t[len("list of "):]
    if isinstance(iterable, ast.Call) and iterable.func == "contents" and iterable.args:
        zone = iterable.args[0]
        name = zone.id if isinstance(zone, ast.Name) else zone.func if isinstance(zone, ast.Call) else None
        spec = data.zones.get(name)
        if spec is not None and spec.holds in data.kinds:
            return spec.holds
    return None


def _needs_of(node, need, local, data) -> None:
    if isinstance(node, ast.Param):
        local(node.name)
    elif isinstance(node, ast.Let):
        local(node.name)
    elif isinstance(node, (ast.ForEach, ast.Comprehension)):
        if item_kind(node.iterable, data) is None:  # otherwise the item is called by its kind
            local(node.var)
    elif isinstance(node, (ast.Choose, ast.Window)):
        local(node.var)
    elif isinstance(node, ast.Literal) and isinstance(node.value, str):
        need("values", node.value)
    if isinstance(node, (ast.Emit, ast.Window)):
        if node.event not in ENGINE_EVENTS:
            need("events", node.event)
        for name, _ in node.fields:
            need("fields", name)
    elif isinstance(node, (ast.TriggerDef, ast.ReactionDef)) and node.event and node.event not in ENGINE_EVENTS:
        need("events", node.event)
    elif isinstance(node, ast.Limit) and node.group:
        need("groups", node.group)


def walk(node):
    """Every AST node under ``node`` (itself included), depth first."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(reversed(n))
            continue
        if not isinstance(n, ast.Node):
            continue
        yield n
        for name in getattr(n, "__dataclass_fields__", {}):
            if name not in ("pos", "name_pos", "event_pos"):
                value = getattr(n, name)
                if isinstance(value, (list, tuple, ast.Node)):
                    stack.append(value)


# ---------------------------------------------------------------- the check


def check_glossaries(ruleset: RuleSet) -> list[Diagnostic]:
    """Schema errors of every glossary, and every term a glossary lacks (as warnings)."""
    bag = DiagnosticBag()
    langs = languages(ruleset)
    if not langs:
        return []
    needs = needed_terms(ruleset)
    for lang in langs:
        before = len(bag.errors)
        glossary = load_glossary(ruleset, lang, bag)
        if not glossary.files or len(bag.errors) > before:
            continue  # a broken file is left out: listing every term it would give adds only noise
        target = glossary.files[-1]
        for n in needs:
            term = glossary.get(n.section, n.key)
            if term is None and n.section == "names":
                # a name given per definition, `definition.name`, in every definition that uses it
                term = all(glossary.get("names", f"{d}.{n.key}") for d in n.slots) or None
            if term is None:
                where = glossary.sections.get(n.section) or Position(target, 1, 1)
                # a variant's words go in its own glossary, never in the base's
                into = where.file if ruleset.variant is None else \
                    _display(Path(ruleset.root) / "variants" / ruleset.variant.name / "glossary" / f"{lang}.yaml")
                bag.warning(f"the {lang} glossary has no entry '{n.key}' in '{n.section}'", where,
                            f"add '{n.key}' under '{n.section}:' in {into}", code="glossary")
                continue
            unknown = glossary.slots(n.section, n.key) - set(n.slots)
            if n.section == "definitions" and unknown:
                bag.warning(f"the {lang} glossary entry '{n.key}' names {', '.join(sorted(unknown))}, "
                            f"which is not a parameter of '{n.key}'", glossary.where[(n.section, n.key)],
                            "use the parameters: " + (", ".join("{%s}" % s for s in n.slots) or "none"),
                            code="glossary")
    return bag.items
