"""A rule set's glossaries: the words of the game in each language, and their check.

A glossary is ``<rule set>/glossary/<lang>.yaml`` (checked by
``schemas/glossary.schema.json``); a variant may add or override entries in
``<rule set>/variants/<variant>/glossary/<lang>.yaml``. Each section maps names of the
rule set (kinds, zones, properties, definitions, local names, …) to the words a reader
sees. :func:`check_glossaries` lists every name the renderer needs that a glossary
lacks, located in the glossary file.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path

from rulecraft.dsl import ast
from rulecraft.dsl.builtins import ACTION_WINDOW, ACTION_WINDOW_FIELDS, ENGINE_EVENTS
from rulecraft.dsl.diagnostics import Diagnostic, DiagnosticBag, Position, did_you_mean_among, with_article
from rulecraft.dsl.model import RuleSet
from rulecraft.dsl.writes import changed_properties
from rulecraft.dsl.ruleset_files import inside, refuse_link_out
from rulecraft.dsl.yaml_data import Located, load_and_validate

SCHEMA = "glossary.schema.json"

# Sections of a glossary file, in the order the renderer looks a bare name up.
# a local name that is a letter or two, maybe numbered (p, s2, ms): said as written,
# without an article, so a glossary need not give it a word
LETTER_NAME = re.compile(r"[A-Za-z]{1,2}[0-9]*")

SECTIONS = ("names", "fields", "kinds", "zones", "components", "parameters", "properties", "variables", "values",
            "tables", "dice", "events", "groups", "definitions", "engine")

_SLOT = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass(frozen=True)
class Term:
    """How a game word is written in one language."""

    one: str  # singular (or the title of a definition)
    many: str | None = None  # plural; defaults to the singular plus "s"
    gender: str = "m"  # "m", "f" or "n", for languages whose articles agree; "p"/"fp"/"np" for a word used only in the plural
    article: bool = True  # false for words that never take an article
    elide: bool | None = None  # French "l'": defaults to the first letter being a vowel
    say: str | None = None  # a phrase with {slots}: a definition's parameters, or {obj} for a property
    deny: str | None = None  # the negation of `say`, with the same slots
    bare: str | None = None  # a value's word without the article `one` carries, for tables
    feminine_form: str | None = None  # an adjective value after a feminine subject ("noire")
    # a variable the screens show at all times (a clock, a track, a score): true, or the
    # word to show it by when it is not `one`
    shown: bool | str = False
    # for a kind: the word of each of its things that has no entry of its own, made from
    # its properties' values ("{rank} of {suit}"), with its own gender and article
    called: "Term | None" = None
    # for a property: its changes are the rules' bookkeeping, not news to tell a player
    quiet: bool = False

    @property
    def plural_only(self) -> bool:
        return self.gender in ("p", "fp", "np")

    @property
    def feminine(self) -> bool:
        return self.gender in ("f", "fp")

    @property
    def plural(self) -> str:
        return self.many if self.many is not None else self.one + "s"


# The engine's own notions, which a glossary may name in the rule set's words (section
# `engine`): a French rulebook may call a round a "tour de jeu", not a "manche". These are
# the words of a rule set that names none.
ENGINE_WORDS = ("round",)  # each language's word for them: its file's `engine_words`


def engine_term(glossary: "Glossary", key: str) -> Term:
    """The word for one of the engine's notions: the glossary's, else the language's default."""
    from rulecraft.languages import ByLanguage

    given = glossary.get("engine", key)
    if given is not None:
        return given
    words = ByLanguage("engine_words")
    raw = (words[glossary.language] if glossary.language in words else words["en"])[key]
    return Term(raw["one"], raw.get("many"), raw.get("gender", "m"))


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
    # The prompts the rules write (``choose … prompt "…"``, as written) in this language,
    # for the play screens and the worked examples
    prompts: dict[str, str] = field(default_factory=dict)
    # A word to the reader about the glossary itself (whose translation it is), shown on
    # the overview page of the rules site in this language; a variant's replaces the base's
    note: str | None = None
    # every entry as each file writes it, base file first: (entry, the variant whose
    # glossary the file is, None for the base's)
    written: list[tuple["Written", str | None]] = field(default_factory=list)
    # where each text comes from: the variant whose glossary gives it (None: the base's)
    text_owner: dict[str, str | None] = field(default_factory=dict)

    def get(self, section: str, key: str) -> Term | None:
        return self.terms.get((section, key))

    def prompt_shown(self, prompt: str, parameters: dict) -> str | None:
        """This language's words for a prompt as the game shows it, its parameters' values
        in place of their ``{name}`` (the glossary keys a prompt as the rules write it, and
        its words may put the same ``{name}``s where this language wants them)."""
        for written, words in self.prompts.items():
            if ast.fill_parameters(written, parameters) == prompt:
                return ast.fill_parameters(words, parameters)
        return None

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


def glossary_path(root: str | Path, lang: str, level: str | None) -> Path:
    """Where the glossary of ``lang`` of a level lives: the base's (``level`` None) or a
    variant's own, whether or not it exists yet."""
    root = Path(root)
    return root / "glossary" / f"{lang}.yaml" if level is None else \
        root / "variants" / level / "glossary" / f"{lang}.yaml"


def levels_of(ruleset: RuleSet) -> list[str | None]:
    """The levels a rule set is made of, base first: None for the base, then each variant
    of its chain."""
    return [None] + (list(ruleset.variant.chain) if ruleset.variant is not None else [])


def ruleset_at(root: str | Path, level: str | None) -> RuleSet | None:
    """The rule set with variant ``level`` applied (None: the base), as loaded for the
    docs (reused while its files are unchanged); None when it does not load."""
    from rulecraft.dsl.diagnostics import RuleSetError
    from rulecraft.dsl.loader import load_checked

    try:
        return load_checked(root, level)
    except RuleSetError:
        return None


def definition_level(ruleset: RuleSet, name: str) -> str | None:
    """The level whose glossaries may give the ``texts`` entry of definition ``name``: the
    first level of the rule set's chain whose definition of that name has the same
    ``text``. A variant that replaces a definition with another text needs that text's
    translation in its own glossary: the base's was written for the base's rule."""
    info = ruleset.variant
    d = ruleset.definitions.get(name)
    if info is None or d is None or (name not in info.added and name not in info.replaced):
        return None
    if name in info.replaced and info.replaced[name][0].text == d.text and len(info.chain) == 1:
        return None
    for level in levels_of(ruleset)[:-1]:
        rs = ruleset_at(ruleset.root, level)
        old = rs.definitions.get(name) if rs is not None else None
        if old is not None and old.text == d.text:
            return level
    return info.chain[-1]


def languages(ruleset: RuleSet) -> list[str]:
    """The languages the rule set has a glossary for."""
    folder = Path(ruleset.root) / "glossary"
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def _term(raw) -> Term:
    if isinstance(raw, str):
        return Term(raw)
    return Term(raw.get("one", ""), raw.get("many"), raw.get("gender", "m"), raw.get("article", True),
                raw.get("elide"), raw.get("say"), raw.get("deny"), raw.get("bare"),
                raw.get("feminine_form"), raw.get("shown", False),
                _term(raw["called"]) if raw.get("called") is not None else None, raw.get("quiet", False))


@dataclass(frozen=True)
class Written:
    """One entry of one glossary file, where the file writes it."""

    section: str
    key: str
    position: Position


def glossary_owner(ruleset: RuleSet, path: Path) -> str | None:
    """The variant whose own glossary ``path`` (one of :func:`glossary_files`) is; None
    for the base's."""
    return None if path.parent.parent == Path(ruleset.root) else path.parent.parent.name


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
        _merge(glossary, content, located, glossary_owner(ruleset, path))
    _name_by_kinds(glossary, ruleset)
    _name_spaces_by_title(glossary, ruleset)
    return glossary


def _name_spaces_by_title(glossary: Glossary, ruleset: RuleSet) -> None:
    """Give each space of a declared board without an entry of its own its ``title``
    (the name the board's table writes for it, as the pictures show it): a proper name,
    without an article ("Aft Airlocks", not "the aft airlocks")."""
    board = ruleset.data.board
    if board is None or board.kind == "tiles":
        return
    for name, props in board.spaces.items():
        title = (props or {}).get("title")
        if isinstance(title, str) and title.strip() and ("components", name) not in glossary.terms:
            glossary.terms[("components", name)] = Term(one=title, many=title, article=False)


def called_slots(kind_term: Term | None) -> set[str]:
    """The properties a kind's ``called`` makes each thing's name from ("{rank} of
    {suit}"): what that name says already."""
    called = kind_term.called if kind_term is not None else None
    return set(_SLOT.findall((called.one or "") + (called.many or ""))) if called is not None else set()


def _name_by_kinds(glossary: Glossary, ruleset: RuleSet) -> None:
    """Give each component without an entry of its own the word its kind's ``called`` makes
    from its properties: a deck of every colour and number is named by one line, not one
    entry per thing. A value is said by its word under ``values`` (without the article a
    value's word may carry), a number as written."""
    data = ruleset.data
    for comp in data.components:
        kind = glossary.terms.get(("kinds", comp.kind))
        if kind is None or kind.called is None or ("components", comp.name) in glossary.terms:
            continue
        spec = data.kinds.get(comp.kind)
        values = {p: q.default for p, q in spec.properties.items()} if spec is not None else {}
        values.update(comp.properties)
        called = kind.called

        def word(value) -> str:
            if isinstance(value, str):
                term = glossary.terms.get(("values", value))
                return (term.bare or term.one) if term is not None else value.replace("_", " ")
            return str(value)

        def made(template: str | None) -> str | None:
            if template is None:
                return None
            return _SLOT.sub(lambda m: word(values[m.group(1)]) if m.group(1) in values else m.group(0), template)

        glossary.terms[("components", comp.name)] = dataclasses.replace(
            called, one=made(called.one), many=made(called.many), called=None)
        glossary.where[("components", comp.name)] = glossary.where.get(("kinds", comp.kind))


def load_glossary_file(path: Path, lang: str, owner: str | None = None) -> Glossary:
    """One glossary file alone (empty when it does not exist or does not load): where its
    sections are, to place a word it lacks."""
    glossary = Glossary(lang)
    if path.is_file():
        bag = DiagnosticBag()
        content, located = load_and_validate(path, SCHEMA, bag, _display(path))
        glossary.files.append(_display(path))
        if not bag.errors and isinstance(content, dict):
            _merge(glossary, content, located, owner)
    return glossary


# Sections of plain texts, not terms: the author's words translated.
TEXT_SECTIONS = ("texts", "citations", "prompts")


def _merge(glossary: Glossary, content: dict, located: Located, owner: str | None = None) -> None:
    if isinstance(content.get("note"), str):
        glossary.note = content["note"].strip()
    for section in TEXT_SECTIONS:
        entries = content.get(section)
        if entries is None:
            continue
        glossary.sections[section] = located.key_position([section])
        for key, text in entries.items():
            getattr(glossary, section)[str(key)] = str(text)
            glossary.where[(section, str(key))] = located.key_position([section, key])
            glossary.written.append((Written(section, str(key), located.key_position([section, key])), owner))
            if section == "texts":
                glossary.text_owner[str(key)] = owner
    for section in SECTIONS:
        entries = content.get(section)
        if entries is None:
            continue
        glossary.sections[section] = located.key_position([section])
        for key, raw in entries.items():
            glossary.terms[(section, str(key))] = _term(raw)
            glossary.where[(section, str(key))] = located.key_position([section, key])
            glossary.written.append((Written(section, str(key), located.key_position([section, key])), owner))


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

    users: dict[str, list[str]] = {}  # local name -> the definitions that use it
    # A value the checker rejects (a text that no property lists, a text where a number is
    # due) or an event no rule emits is reported where it is written: its word in a
    # glossary would be the slip's.
    rejected = {d.position for d in ruleset.bag.errors if d.position is not None}

    def need(section: str, key: str, slots: tuple[str, ...] = (), where: Position | None = None) -> None:
        if where is None or where not in rejected:
            needs.setdefault((section, key), Need(section, key, slots))

    def need_value(value: str, pos: Position | None = None) -> None:
        if pos is None or pos not in rejected:
            need("values", value)

    for kind in data.kinds.values():
        need("kinds", kind.name)
        for prop in kind.properties:
            need("properties", f"{kind.name}.{prop}")
    for zone in data.zones:
        need("zones", zone)
    # every component, and every text value the data gives (shown in component and tile lists)
    for comp in data.components:
        need("components", comp.name)
        for prop, value in comp.properties.items():
            if isinstance(value, str) and _may_hold(data, comp.kind, prop, value):
                need_value(value)
    if data.board is not None:
        for name in list(data.board.directions) + list(data.board.edges) + sorted(
                {c for c in data.board.joins.values() if c and c != "none"}):
            need("values", name)
        for layout in data.board.layouts.values():
            for props in layout.rooms.values():
                for prop, value in (props or {}).items():
                    if isinstance(value, str) and _may_hold(data, data.board.space_kind, prop, value):
                        need_value(value)
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
            _needs_of(node, need, lambda name, d=d: users.setdefault(name, []).append(d.name), data, need_value)
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


def loop_name_word(own: Term, kind_word: Term, specific: bool = False) -> bool:
    """Whether the glossary's word for a `for each` or comprehension name over things of a
    kind is that loop's word, rather than the kind's: an entry for the definition alone
    (``definition.name``) always is; a plain entry, which every definition using the name
    shares, when it says more of the same things: it holds the kind's word ("other player"
    for a loop over players). Otherwise the kind's word stays: a plain ``x``, written for the
    definitions where ``x`` is a thing of one kind, does not rename a loop over another kind,
    and a word the kind's word holds (the kind's last word alone) does not make such a loop
    less precise."""
    if specific:
        return True
    a, b = own.one.strip().lower(), kind_word.one.strip().lower()
    return bool(a and b) and _holds_word(a, b)


def _holds_word(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w]){re.escape(word)}(?![\w])", text) is not None


def _may_hold(data, kind: str, prop: str, value) -> bool:
    """Whether a property of a kind may hold a value its data gives it: not when the
    property lists its values and this one is not among them (an error of the check)."""
    spec = data.kinds[kind].properties.get(prop) if kind in data.kinds else None
    return spec is None or spec.values is None or value in spec.values


def _needs_of(node, need, local, data, need_value) -> None:
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
        need_value(node.value, node.pos)
    if isinstance(node, (ast.Emit, ast.Window)):
        if node.event not in ENGINE_EVENTS:
            need("events", node.event)
        for name, _ in node.fields:
            need("fields", name)
    elif isinstance(node, (ast.TriggerDef, ast.ReactionDef)) and node.event and node.event not in ENGINE_EVENTS:
        need("events", node.event, where=node.event_pos)
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


# ---------------------------------------------------------------- what a glossary may name


# What the keys of each section name, for the warning about a key that names nothing.
_WHAT = {"names": "local name", "fields": "event field", "kinds": "kind", "zones": "zone", "components": "component",
         "parameters": "parameter", "properties": "property (kind.property)",
         "variables": "variable (game.name or turn.name)", "values": "value",
         "tables": "table", "dice": "die", "events": "event", "groups": "group", "definitions": "definition",
         "engine": "notion of the engine (round)", "texts": "definition, component, parameter, ruling or variant",
         "prompts": "prompt (of a choose statement, as written)"}
_WHAT_PLURAL = {"names": "local names", "fields": "event fields", "kinds": "kinds", "zones": "zones",
                "components": "components", "parameters": "parameters", "properties": "properties",
                "variables": "variables", "values": "values", "tables": "tables", "dice": "dice", "events": "events",
                "groups": "groups", "definitions": "definitions", "engine": "notions of the engine", "texts": "texts",
                "prompts": "prompts"}
# The sections whose keys the rules' definitions give (the others: the YAML tables').
_RULES_SECTIONS = frozenset({"definitions", "names", "events", "fields", "groups", "values", "prompts", "texts"})
_RULING_PARTS = ("question", "ruling", "reason")
_VARIANT_PARTS = ("title", "text")


def _strings(value, out: set[str], seen: set[int]) -> None:
    """Every text in the rule set's data (component properties, tables, board, defaults…)."""
    if isinstance(value, str):
        out.add(value)
        return
    if id(value) in seen:
        return
    if isinstance(value, dict):
        seen.add(id(value))
        for k, v in value.items():
            _strings(k, out, seen)
            _strings(v, out, seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        seen.add(id(value))
        for v in value:
            _strings(v, out, seen)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        seen.add(id(value))
        for f in dataclasses.fields(value):
            if f.name not in ("where", "broken", "pos"):
                _strings(getattr(value, f.name), out, seen)


def _locals_of(d: ast.Definition, definitions: dict) -> set[str]:
    """Every local name a definition uses: parameters, ``with``, ``let``, ``for each`` and
    comprehension names (also those called by their kind), ``choose``, ``window … as``; in
    a script or heuristic, the arguments of the definitions it prefers and ``choice``."""
    found: set[str] = set()
    for node in walk(d):
        if isinstance(node, (ast.Param, ast.Let)):
            found.add(node.name)
        elif isinstance(node, (ast.ForEach, ast.Comprehension, ast.Choose, ast.Window)):
            found.add(node.var)
        elif isinstance(node, ast.Preference):
            target = definitions.get(node.target)
            found.update(p.name for p in getattr(target, "params", []) or [])
            if node.target == "choice":
                found.add("choice")
    return found


def known_keys(ruleset: RuleSet) -> dict[str, set[str]]:
    """Every key a glossary of this rule set may give, by section: its kinds, properties,
    zones, components, parameters, variables, tables, dice, events (its own and the
    engine's) and their fields, groups, definitions, local names (plain, and
    ``definition.name`` for a name that definition uses), values (any text of the rules
    or their data, or any name), the keys of ``texts``, and the prompts of the rules'
    ``choose`` statements (the keys of ``prompts``)."""
    data = ruleset.data
    known: dict[str, set[str]] = {s: set() for s in (*SECTIONS, "texts", "prompts")}
    for n in needed_terms(ruleset):
        known[n.section].add(n.key)
    known["kinds"] |= set(data.kinds)
    known["engine"] |= set(ENGINE_WORDS)
    for kind in data.kinds.values():
        known["properties"] |= {f"{kind.name}.{prop}" for prop in kind.properties}
    known["zones"] |= set(data.zones)
    known["components"] |= {c.name for c in data.components}
    # a declared board's spaces: rules name them directly, as single components, and the
    # renderer looks their words up under `components`
    if data.board is not None:
        known["components"] |= set(data.board.spaces)
    known["parameters"] |= set(data.parameters)
    known["tables"] |= set(data.tables)
    known["dice"] |= set(data.dice)
    known["variables"] |= {f"{scope}.{name}" for scope, names in data.variables.items() for name in names}
    known["events"] |= set(ENGINE_EVENTS) | {"game_ended", "reacted", ACTION_WINDOW}
    known["fields"] |= {f for fields in ENGINE_EVENTS.values() for f in fields}
    known["fields"] |= set(ACTION_WINDOW_FIELDS) | {"reaction", "args", "winners", "decided"}
    literals: set[str] = set()
    for d in ruleset.definitions.values():
        known["definitions"].add(d.name)
        names = _locals_of(d, ruleset.definitions)
        known["names"] |= names | {f"{d.name}.{n}" for n in names}
        if d.kind in ("action", "reaction"):  # the engine's records carry their arguments
            known["fields"] |= {p.name for p in d.params}
        for node in walk(d):
            if isinstance(node, (ast.TriggerDef, ast.ReactionDef)) and node.event:
                known["events"].add(node.event)
            elif isinstance(node, (ast.Emit, ast.Window)):
                known["events"].add(node.event)
                known["fields"] |= {name for name, _ in node.fields}
            elif isinstance(node, ast.Literal) and isinstance(node.value, str):
                literals.add(node.value)
            if isinstance(node, ast.Choose) and node.prompt:
                known["prompts"].add(node.prompt)
    _strings(data, literals, set())
    # a value held by a property of a kind may be worded for that kind alone: `VALUE_KIND`
    # (a room type `alarm` and a card's `alarm` need a word each)
    for kind in data.kinds.values():
        for prop in kind.properties.values():
            literals |= {f"{v}_{kind.name}" for v in prop.values or [] if isinstance(v, str)}
    for comp in data.components:
        literals |= {f"{v}_{comp.kind}" for v in comp.properties.values() if isinstance(v, str)}
    if data.board is not None:
        for layout in data.board.layouts.values():
            for info in layout.rooms.values():
                literals |= {f"{v}_{data.board.space_kind}" for v in (info or {}).values() if isinstance(v, str)}
    # a value is a text the rules or the scenarios write: any text of the rule set, or any name
    known["values"] |= literals
    for section in SECTIONS:
        if section != "values":
            known["values"] |= known[section]
    known["texts"] |= known["definitions"]
    known["texts"] |= {f"components.{c}" for c in known["components"]}
    known["texts"] |= {f"parameters.{p}" for p in known["parameters"]}
    if data.board is not None:
        known["texts"] |= {f"layouts.{name}" for name in data.board.layouts}
    known["texts"] |= {f"rulings.{r.get('id')}.{part}" for r in data.rulings if isinstance(r, dict)
                       for part in _RULING_PARTS}
    from rulecraft.dsl.variants import available_variants

    known["texts"] |= {f"variants.{v}.{part}" for v in available_variants(Path(ruleset.root)) for part in _VARIANT_PARTS}
    return known


class _Levels:
    """What the glossaries of a rule set may name, for each of its levels: the base
    glossary may name what the base or any of its variants has (it is read under every
    variant); a variant's glossary what that variant or any variant built on it has.
    The other levels are loaded only when a key is not a name of the rule set checked."""

    def __init__(self, ruleset: RuleSet):
        self.ruleset = ruleset
        self.root = Path(ruleset.root)
        self.own = known_keys(ruleset)
        self._others: dict[str | None, list[dict[str, set[str]]]] = {}
        self._rulesets: dict[str | None, list[RuleSet]] = {}
        # the text of the definitions that did not parse, in the rule set checked and in the
        # other levels loaded (None: a rule file that could not be read at all)
        self.unparsed: list[str | None] = list(ruleset.unparsed)

    def _load(self, variant: str | None):
        from rulecraft.dsl.loader import load_ruleset

        try:
            return load_ruleset(self.root, variant=variant)
        except Exception:  # a level that does not load names nothing more
            return None

    def others(self, owner: str | None) -> list[dict[str, set[str]]]:
        """The known keys of the other levels a glossary of ``owner`` is read under."""
        if owner not in self._others:
            from rulecraft.dsl.variants import available_variants

            checked = self.ruleset.variant.name if self.ruleset.variant is not None else None
            found, loaded = [], []
            for name in [None, *available_variants(self.root)]:
                if name == checked:
                    continue
                rs = self._load(name)
                if rs is None:
                    continue
                chain = rs.variant.chain if rs.variant is not None else []
                if owner is None or owner in chain:
                    found.append(known_keys(rs))
                    loaded.append(rs)
                    self.unparsed += [text for text in rs.unparsed if text not in self.unparsed]
            self._others[owner] = found
            self._rulesets[owner] = loaded
        return self._others[owner]

    def rulesets(self, owner: str | None) -> list[RuleSet]:
        """The rule set checked, then those of the other levels a glossary of ``owner`` is read
        under (see :meth:`others`)."""
        self.others(owner)
        return [self.ruleset] + self._rulesets.get(owner, [])

    def names(self, section: str, key: str, owner: str | None) -> bool:
        return key in self.own[section] or any(key in k[section] for k in self.others(owner))

    def may_be_unparsed(self, section: str, key: str) -> bool:
        """Whether a key of a section the rules' definitions fill (definitions, their local
        names, events and fields, groups, the values and prompts they write, their texts)
        may name what a definition that did not parse has: its syntax error is then the one
        mistake, and a warning that the key names nothing (with a hint to rename or move a
        good entry) would be false. Such a key is one the unparsed text holds as a word."""
        if not self.unparsed or section not in _RULES_SECTIONS:
            return False
        if any(text is None for text in self.unparsed):
            return True  # a rule file that could not be read may define anything
        if "." in key and section == "names":  # 'definition.name': the definition's own names
            definition = key.partition(".")[0]
            if definition in self.ruleset.definitions:
                return False  # it parsed: its names are all known
            key = definition
        elif "." in key and section == "texts":
            return False  # a component's, parameter's, ruling's or variant's text: not the rules'
        word = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(key)}(?![A-Za-z0-9_])")
        return any(word.search(text) for text in self.unparsed)

    def candidates(self, section: str, owner: str | None) -> set[str]:
        out = set(self.own[section])
        for k in self.others(owner):
            out |= k[section]
        return out


def _unknown_key_hint(levels: _Levels, entry: Written, owner: str | None) -> str:
    """A key that names nothing: the close name of its section, the section it belongs
    in when it names something else, or the names the section may give."""
    section, key = entry.section, entry.key
    candidates = levels.candidates(section, owner)
    if section == "names" and "." in key:
        definition, _, name = key.partition(".")
        if definition in levels.candidates("definitions", owner):
            mine = sorted(c.partition(".")[2] for c in candidates if c.startswith(definition + "."))
            close = difflib.get_close_matches(name, mine, n=1, cutoff=0.6)
            if close:
                return f"did you mean '{definition}.{close[0]}'?"
            return (f"'{definition}' has no local name '{name}'; its names: " + ", ".join(mine)) if mine else \
                f"'{definition}' has no local names: remove the entry"
    hint = did_you_mean_among(key, candidates, _WHAT_PLURAL[section])
    if hint.startswith("did you mean"):
        return hint
    elsewhere = [s for s in SECTIONS if s not in (section, "values") and levels.names(s, key, owner)]
    if elsewhere:
        return f"'{key}' is {with_article(_WHAT[elsewhere[0]])}: move it under '{elsewhere[0]}:'"
    return f"remove it; {hint}"


def _event_fields(ruleset: RuleSet) -> dict[str, set[str]]:
    """Each event's fields: the engine's, and those of every `emit` and window of the rules."""
    fields: dict[str, set[str]] = {name: set(f) for name, f in ENGINE_EVENTS.items()}
    for d in ruleset.definitions.values():
        for node in walk(d):
            if isinstance(node, (ast.Emit, ast.Window)):
                fields.setdefault(node.event, set()).update(name for name, _ in node.fields)
    return fields


def _check_event_phrases(ruleset: RuleSet, glossary: Glossary, lang: str, levels: _Levels,
                         bag: DiagnosticBag) -> None:
    """An event's phrase (``say``) may name only the event's fields: a slot naming no field
    leaves the phrase unused, and the event is told by its word and fields instead. (An
    event a definition that did not parse may emit may have fields unknown here.)"""
    fields = None
    for (section, key), term in glossary.terms.items():
        if section != "events" or not term.say or levels.may_be_unparsed(section, key):
            continue
        fields = fields if fields is not None else _event_fields(ruleset)
        unknown = glossary.slots(section, key) - fields.get(key, set())
        if unknown and key in fields:
            bag.warning(f"the {lang} glossary entry '{key}' names {', '.join(sorted(unknown))}, which is not a field "
                        f"of the event '{key}'", glossary.where[(section, key)],
                        "use its fields: " + (", ".join("{%s}" % f for f in sorted(fields[key])) or "none"),
                        code="glossary")


def _name_uses(ruleset: RuleSet, glossary: Glossary | None, key: str) -> list[tuple[str, str | None]]:
    """Where the renderer may read the plain ``names`` entry ``key``: each definition using the
    name (but those with an entry of their own in ``glossary``, ``definition.key``), with the kind its items
    are of where it names a `for each` or comprehension over things of a known kind (None for
    any other use: a parameter, ``with``, ``let``, ``choose``, a window's record, another loop)."""
    uses = []
    for d in ruleset.definitions.values():
        if glossary is not None and glossary.get("names", f"{d.name}.{key}") is not None:
            continue
        for node in walk(d):
            if isinstance(node, (ast.ForEach, ast.Comprehension)) and node.var == key:
                uses.append((d.name, item_kind(node.iterable, ruleset.data)))
            elif isinstance(node, (ast.Param, ast.Let)) and node.name == key or \
                    isinstance(node, (ast.Choose, ast.Window)) and node.var == key:
                uses.append((d.name, None))
            elif isinstance(node, ast.Preference):
                target = ruleset.definitions.get(node.target)
                if key in {p.name for p in getattr(target, "params", []) or []} or \
                        (node.target == "choice" and key == "choice"):
                    uses.append((d.name, None))
    return uses


def _check_unused_names(glossary: Glossary, lang: str, levels: _Levels, bag: DiagnosticBag) -> None:
    """A plain ``names`` entry whose word the site never shows: every definition using the name
    gives it an entry of its own, or loops it over things of a kind and calls it by the kind's
    word, which neither holds the entry's word nor is held by it (see :func:`loop_name_word`).
    Silent, it would look like a word the site uses."""
    for entry, owner in glossary.written:
        term = glossary.get("names", entry.key)
        if entry.section != "names" or "." in entry.key or term is None \
                or levels.may_be_unparsed("names", entry.key):
            continue
        kinds: dict[str, list[str]] = {}  # the kind's word → the definitions that loop the name over it
        used, own = False, []  # own: the definitions using the name that give it an entry of their own
        for rs in levels.rulesets(owner):
            own += [d for d, _ in _name_uses(rs, None, entry.key)
                    if d not in own and glossary.get("names", f"{d}.{entry.key}") is not None]
            for definition, kind in _name_uses(rs, glossary, entry.key):
                word = (glossary.get("kinds", kind) or Term(kind.replace("_", " "))) if kind is not None else None
                # read by the site, or saying less than the kind's word the site shows (the kind's
                # last word alone): no word of the author's is lost
                if word is None or loop_name_word(term, word) or _holds_word(word.one.strip().lower(),
                                                                             term.one.strip().lower()):
                    used = True
                    break
                kinds.setdefault(word.one, []).append(definition)
            if used:
                break
        if not used and not kinds and own:
            bag.warning(f"the {lang} glossary entry '{entry.key}' under 'names' is never used: every definition using "
                        f"'{entry.key}' ({', '.join(own)}) has an entry of its own", entry.position,
                        "remove it", code="glossary")
            continue
        if used or not kinds:
            continue  # read somewhere; or naming nothing, which _check_keys reports
        word, definitions = next(iter(kinds.items()))
        every = sorted({d for ds in kinds.values() for d in ds})
        bag.warning(f"the {lang} glossary entry '{entry.key}' under 'names' is never used: every definition using "
                    f"'{entry.key}' ({', '.join(every)}) loops it over things of a kind, called by the kind's word "
                    f"({', '.join(repr(w) for w in kinds)})", entry.position,
                    f"to word it in one definition, write '{definitions[0]}.{entry.key}: {term.one}'; a plain entry "
                    f"words such a loop only when it holds the kind's word ('other {word}')",
                    code="glossary")


def _check_called(ruleset: RuleSet, glossary: Glossary, lang: str, bag: DiagnosticBag) -> None:
    """A kind's ``called`` may name only the kind's properties: a slot naming none would be
    shown as written in the name of every thing of the kind."""
    for (section, key), term in glossary.terms.items():
        if section != "kinds" or term.called is None or key not in ruleset.data.kinds:
            continue
        props = ruleset.data.kinds[key].properties
        unknown = sorted(called_slots(term) - set(props))
        for slot in unknown:
            bag.warning(f"the {lang} glossary's name of each {key}, '{term.called.one}', has the slot {{{slot}}}, "
                        f"which is no property of '{key}'", glossary.where.get((section, key)),
                        did_you_mean_among(slot, props, "properties"), code="glossary")
        # a name is made once, from the values a thing starts with
        for slot in sorted((called_slots(term) & set(props)) & changed_properties(ruleset)):
            bag.warning(f"the {lang} glossary's name of each {key}, '{term.called.one}', has the slot {{{slot}}}, "
                        f"which the rules change in play: a name is made once, from the values a thing "
                        f"starts with", glossary.where.get((section, key)),
                        f"leave {{{slot}}} out of the name: the screens show a changing {slot} beside it",
                        code="glossary")


def _unnamed_families(ruleset: RuleSet, glossary: Glossary, needs) -> dict[str, tuple[str, str]]:
    """Component → (its kind, a property of it) for components of a kind that has no
    `called:` and at least 4 components without a word: a kind's `called:` names them all."""
    missing = {n.key for n in needs if n.section == "components" and glossary.get("components", n.key) is None}
    by_kind: dict[str, list] = {}
    for comp in ruleset.data.components:
        if comp.name in missing:
            by_kind.setdefault(comp.kind, []).append(comp)
    out = {}
    for kind, comps in by_kind.items():
        term = glossary.get("kinds", kind)
        if len(comps) < 4 or (term is not None and term.called is not None):
            continue
        # the property that tells them apart best: the one with the most values among them
        names = {p for c in comps for p in c.properties}
        best = max(sorted(names), key=lambda p: len({str(c.properties.get(p)) for c in comps}), default="…")
        for c in comps:
            out[c.name] = (kind, best)
    return out


def _check_keys(glossary: Glossary, lang: str, levels: _Levels, bag: DiagnosticBag) -> set[tuple[str, str]]:
    """A warning for every entry whose key names nothing the glossary's level has; the
    (section, key) each such entry was meant for, when its hint says which."""
    meant: set[tuple[str, str]] = set()
    for entry, owner in glossary.written:
        if entry.section == "citations" or levels.names(entry.section, entry.key, owner):
            continue
        if levels.may_be_unparsed(entry.section, entry.key):
            continue  # what a definition that did not parse names: its syntax error is the mistake
        hint = _unknown_key_hint(levels, entry, owner)
        close = re.fullmatch(r"did you mean '([^']+)'\?", hint)
        if close:
            meant.add((entry.section, close.group(1)))
        bag.warning(f"the {lang} glossary entry '{entry.key}' under '{entry.section}' names no "
                    f"{_WHAT[entry.section].split(' (')[0]} of the rule set", entry.position, hint, code="glossary")
    return meant


# ---------------------------------------------------------------- the check


def _language_line(file: str) -> Position:
    """Where a glossary file says its language (``language: de``), else its start."""
    try:
        lines = Path(file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    line = next((i for i, text in enumerate(lines, 1) if text.startswith("language:")), 1)
    return Position(file, line, 1)


def _spoken(lang: str, glossary: Glossary, bag: DiagnosticBag) -> bool:
    """Whether rulecraft has its own words in ``lang`` (every sentence a site, a screen
    or a page says besides the game's words); if not, a warning at the glossary says
    that nothing can be had in it yet, and how a language is added."""
    from rulecraft.languages import UnknownLanguage, language

    try:
        language(lang)
        return True
    except UnknownLanguage as err:
        bag.warning(f"{err.reason}: the glossary is kept, but no rules site, play "
                    f"screen or browser page can be had in '{lang}' until rulecraft speaks it",
                    _language_line(glossary.files[0]),
                    "add rulecraft's own words in that language: copy docgen/phrases/en.yaml to "
                    f"{lang}.yaml and translate it (see docs/glossaries.md#adding-a-language)", code="glossary")
        return False


def check_glossaries(ruleset: RuleSet, docs_words: bool = True, scenarios: Path | None = None) -> list[Diagnostic]:
    """Schema errors of every glossary, and every term a glossary lacks (as warnings).
    ``docs_words``: also every text the rules site in another language than the rules'
    own would lack, found by rendering its pages (seconds for a large rule set: an
    editor's check on save leaves it to `rulecraft check`), its worked examples those of
    ``scenarios`` (default: the folder ``verify`` reads)."""
    bag = DiagnosticBag()
    langs = languages(ruleset)
    if not langs:
        return []
    if ruleset.data.broken:
        # a YAML section that did not load declares nothing: every glossary word for what
        # it holds would be reported as naming nothing, with the hint to remove a good
        # entry. As the rule set's own cross-checks, these wait until the section loads.
        for lang in langs:
            load_glossary(ruleset, lang, bag)
        return bag.items
    from .authored import WRITTEN_IN, MissingWord, WordOwners

    needs = needed_terms(ruleset)
    levels = _Levels(ruleset)
    for lang in langs:
        before = len(bag.errors)
        glossary = load_glossary(ruleset, lang, bag)
        if not glossary.files or len(bag.errors) > before:
            continue  # a broken file is left out: listing every term it would give adds only noise
        spoken = _spoken(lang, glossary, bag)
        misspelt = _check_keys(glossary, lang, levels, bag)  # a slip's word is not missing as well
        _check_event_phrases(ruleset, glossary, lang, levels, bag)
        _check_unused_names(glossary, lang, levels, bag)
        _check_called(ruleset, glossary, lang, bag)
        owners = WordOwners(lang)
        files: dict[Path, Glossary] = {}
        reported: set[str] = set()
        alike = _unnamed_families(ruleset, glossary, needs)
        for n in needs:
            term = glossary.get(n.section, n.key)
            if term is None and n.section == "names":
                # a name given per definition, `definition.name`, in every definition that uses it
                term = all(glossary.get("names", f"{d}.{n.key}") for d in n.slots) or None
            if term is None and (n.section, n.key) in misspelt:
                continue  # the entry meant for it is misspelt: told once, at the entry
            if term is None and n.section == "names" and LETTER_NAME.fullmatch(n.key):
                continue  # a letter or two reads as written, as in algebra: no word is missing
            if term is None:
                # in the glossary of the first level that has the word: the base's words in
                # the base's glossary, a variant's own words in its own
                path = glossary_path(ruleset.root, lang, owners.level(ruleset, MissingWord(n.section, n.key, n.key)))
                if path not in files:
                    files[path] = load_glossary_file(path, lang)
                where = files[path].sections.get(n.section) or Position(_display(path), 1, 1)
                message = f"the {lang} glossary has no entry '{n.key}' in '{n.section}'"
                reported.add(message)
                hint = f"add '{n.key}' under '{n.section}:' in {_display(path)}"
                family = alike.get(n.key) if n.section == "components" else None
                if family:  # many of one kind: one line names them all, from their properties
                    hint += (f", or name every {family[0]} at once with 'called:' in its entry under 'kinds:' "
                             f"(e.g. {family[0]}: {{one: …, called: \"{{{family[1]}}} …\"}})")
                bag.warning(message, where, hint, code="glossary")
                continue
            unknown = glossary.slots(n.section, n.key) - set(n.slots)
            if n.section == "definitions" and unknown:
                bag.warning(f"the {lang} glossary entry '{n.key}' names {', '.join(sorted(unknown))}, "
                            f"which is not a parameter of '{n.key}'", glossary.where[(n.section, n.key)],
                            "use the parameters: " + (", ".join("{%s}" % s for s in n.slots) or "none"),
                            code="glossary")
        if lang != WRITTEN_IN and docs_words and spoken:
            # everything `rulecraft docs --lang LANG` would refuse the site for: the texts
            # and citations of the rules, components, parameters, rulings and variants, and
            # the words of the pages of every variant
            from .site import site_missing_words

            site = site_missing_words(ruleset.root, lang, ruleset.variant.name if ruleset.variant else None, scenarios)
            for d in site.items if site is not None else []:
                if d.message not in reported:
                    bag.add(d)
    return bag.items
