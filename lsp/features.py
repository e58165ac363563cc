"""What the server answers, computed from one check of a rule set: diagnostics, hover,
definitions, references, completion and rename. Positions here are the protocol's
(lines and characters from 0); nothing here talks to the client."""

from __future__ import annotations

import re
from pathlib import Path

from lsprotocol import types as lsp

from rulecraft.dsl import types as T
from rulecraft.dsl.builtins import EFFECTS, FUNCTIONS, VALUES
from rulecraft.dsl.diagnostics import Diagnostic, with_article
from rulecraft.dsl.parser import CONTEXTUAL, RESERVED
from rulecraft.dsl.ruleset_files import is_name

from . import yaml_names
from .symbols import RENAMEABLE, SHARED_NAME, UNSURE, Key, Occurrence, SymbolTable
from .workspace import Checked, display_of, file_path

SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}
WORD_AT_END = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")


# ---------------------------------------------------------------- diagnostics
def diagnostics(checked: Checked, text_of) -> dict[Path, list[lsp.Diagnostic]]:
    """The check's diagnostics by file; every file of the rule set has an entry (an
    empty list clears what the editor showed before)."""
    out: dict[Path, list[lsp.Diagnostic]] = {file_path(f): [] for f in checked.ruleset.files}
    first = next(iter(out), None)
    for d in checked.bag.sorted():
        path = file_path(d.position.file) if d.position else first
        if path is None:
            continue
        out.setdefault(path, []).append(_diagnostic(d, text_of(path)))
    return out


def _diagnostic(d: Diagnostic, text: str | None) -> lsp.Diagnostic:
    pos = d.position
    if pos is None:
        rng = lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))
    else:
        line, start = pos.line - 1, pos.column - 1
        if pos.end_column and pos.end_column > pos.column:
            end = pos.end_column - 1
        else:  # the caret's one character, widened to the word it starts
            lines = text.splitlines() if text else []
            source = lines[line] if 0 <= line < len(lines) else ""
            m = re.match(r"[A-Za-z0-9_]+", source[start:])
            end = start + (len(m.group()) if m else 1)
        rng = lsp.Range(lsp.Position(line, start), lsp.Position(line, end))
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    return lsp.Diagnostic(rng, message, severity=SEVERITY.get(d.severity, lsp.DiagnosticSeverity.Error),
                          source="rulecraft", code=d.code or None)


# ---------------------------------------------------------------- finding the symbol under the cursor
def occurrence_at(checked: Checked, path: Path, line: int, character: int) -> Occurrence | None:
    display = display_of(checked, path)
    return checked.symbols.at(display, line, character) if display else None


def _location(o: Occurrence) -> lsp.Location:
    return lsp.Location(file_path(o.file).as_uri(), _range(o))


def _range(o: Occurrence) -> lsp.Range:
    return lsp.Range(lsp.Position(o.line, o.start), lsp.Position(o.line, o.end))


def definition(checked: Checked, path: Path, line: int, character: int) -> list[lsp.Location]:
    o = occurrence_at(checked, path, line, character)
    if o is None:
        return []
    return [_location(d) for d in checked.symbols.declarations(o.key)]


def references(checked: Checked, path: Path, line: int, character: int,
               include_declaration: bool = True, trial=None) -> list[lsp.Location]:
    """Every place that names the symbol under the cursor. With ``trial`` (a
    :class:`~.workspace.Trial`), also the places outside the checked files that a rename
    follows: the scenario files, the variants' files (and the base's, from a variant)."""
    o = occurrence_at(checked, path, line, character)
    if o is None:
        return []
    found = [r for r in checked.symbols.of(o.key) if include_declaration or not r.declaration]
    if trial is not None and o.key[0] in RENAMEABLE:
        found += [r for r in _elsewhere(checked, o.key, trial) if r.key == o.key]
    seen: set[tuple] = set()
    out = []
    for r in found:
        where = (file_path(r.file), r.line, r.start)
        if where not in seen:
            seen.add(where)
            out.append(_location(r))
    return out


# ---------------------------------------------------------------- outline
SYMBOL_KINDS = {"action": lsp.SymbolKind.Event, "procedure": lsp.SymbolKind.Method, "function": lsp.SymbolKind.Function,
                "trigger": lsp.SymbolKind.Event, "victory": lsp.SymbolKind.Boolean, "obligation": lsp.SymbolKind.Boolean,
                "reaction": lsp.SymbolKind.Event, "kind": lsp.SymbolKind.Class, "property": lsp.SymbolKind.Property,
                "zone": lsp.SymbolKind.Module, "entity": lsp.SymbolKind.EnumMember, "parameter": lsp.SymbolKind.Constant,
                "table": lsp.SymbolKind.Struct, "die": lsp.SymbolKind.Enum, "variable": lsp.SymbolKind.Variable}


def outline(checked: Checked, path: Path) -> list[lsp.SymbolInformation]:
    """What a file declares, in file order: its definitions, or its YAML entries."""
    display = display_of(checked, path)
    if display is None:
        return []
    out = []
    for o in sorted(checked.symbols.occurrences, key=lambda o: (o.line, o.start)):
        if o.file != display or not o.declaration or o.key[0] == "local":
            continue
        what = o.key[0]
        if what == "definition":
            d = checked.ruleset.definitions.get(o.key[1])
            what = d.kind if d is not None else what
        container = o.key[1] if o.key[0] in ("property", "variable") else None
        out.append(lsp.SymbolInformation(name=o.key[-1], kind=SYMBOL_KINDS.get(what, lsp.SymbolKind.Object),
                                         location=_location(o), container_name=container))
    return out


# ---------------------------------------------------------------- rename
class RenameRefused(ValueError):
    """A rename that would break the rule set, with the reason to show."""


def prepare_rename(checked: Checked, path: Path, line: int, character: int) -> lsp.Range | None:
    o = occurrence_at(checked, path, line, character)
    if o is None or o.key[0] not in RENAMEABLE:
        return None
    return _range(o)


def rename(checked: Checked, path: Path, line: int, character: int, new_name: str,
           check_renamed=None) -> lsp.WorkspaceEdit | None:
    """Every edit that renames the symbol under the cursor. ``check_renamed``, when
    given (a :class:`~.workspace.Trial`), has ``text(path)`` and ``check(texts,
    variant)`` (the rule set checked with those texts laid over it): the rename then
    follows the name into the variants' files and the scenario files too, and a rename
    that would add an error (to the rule set, a variant of it, or a scenario) is
    refused, naming every place to change by hand."""
    o = occurrence_at(checked, path, line, character)
    if o is None:
        return None
    if o.key[0] not in RENAMEABLE:
        raise RenameRefused(f"'{o.key[-1]}' is part of the language and cannot be renamed")
    if not is_name(new_name) or new_name in RESERVED:
        raise RenameRefused(f"'{new_name}' is not a name the rules language accepts")
    clash = o.key[:-1] + (new_name,)
    if checked.symbols.of(clash) or (o.key[0] == "definition" and new_name in checked.ruleset.definitions):
        raise RenameRefused(f"'{new_name}' is already taken")
    places = list(checked.symbols.of(o.key))
    if check_renamed is not None:
        places += _elsewhere(checked, o.key, check_renamed)
    if o.key[0] == "property":
        places += checked.symbols.of((UNSURE, o.key[2]))
    if o.key[0] == "local" and not any(k[0] == "local" and k[2] == o.key[2] and k[1] != o.key[1]
                                       for k in {r.key for r in checked.symbols.occurrences}):
        # the glossary's word for the name serves this definition alone: it is renamed too
        places += [Occurrence(o.key, r.file, r.line, r.start, r.end) for r in checked.symbols.of((SHARED_NAME, o.key[2]))]
    unsure = [r for r in places if r.key[0] == UNSURE]
    if unsure:
        kinds = ", ".join(sorted(k for k, spec in checked.ruleset.data.kinds.items() if o.key[2] in spec.properties))
        shown = "; ".join(f"{_where(r)}" for r in unsure[:SHOWN_PLACES])
        more = f"; and {len(unsure) - SHOWN_PLACES} more" if len(unsure) > SHOWN_PLACES else ""
        raise RenameRefused(f"'{o.key[2]}' is read from things whose kind the checker does not know, and "
                            f"several kinds have a property of that name ({kinds}): {shown}{more}; "
                            "rename it by hand there, or give those things a known kind first")
    places = [r for r in places if r.key == o.key]
    by_file: dict[Path, list[Occurrence]] = {}
    seen = set()
    for r in places:
        where = (file_path(r.file), r.line, r.start)
        if where not in seen:
            seen.add(where)
            by_file.setdefault(where[0], []).append(r)
    if check_renamed is not None:
        _refuse_if_it_breaks(checked, o, new_name, by_file, check_renamed)
    return lsp.WorkspaceEdit(changes={path.as_uri(): [lsp.TextEdit(_range(r), new_name) for r in rs]
                                      for path, rs in by_file.items()})


def _variants_naming(root: Path, name: str, text_of) -> list[str]:
    """The variants some file of which (its YAML, rules, glossaries, scenarios) writes
    ``name``: a variant that never writes it cannot be broken by its rename."""
    from rulecraft.dsl.variants import available_variants

    folder = root / "variants"
    out = []
    for variant in available_variants(root):
        files = [p for p in folder.glob(f"{variant}.*") if p.is_file()]
        files += [p for p in (folder / variant).rglob("*") if p.is_file() and p.suffix in (".yaml", ".yml", ".rules")]
        if any(name in (text_of(p.resolve()) or "") for p in files):
            out.append(variant)
    return out


def _scenarios_naming(root: Path, ruleset, name: str, text_of) -> list[tuple[Path, str | None]]:
    return [(p, v) for p, v in yaml_names.scenario_files(root, ruleset) if name in (text_of(p) or "")]


def _where(o: Occurrence) -> str:
    """``file:line:column`` of an occurrence, as the checker writes a place (from 1)."""
    path = file_path(o.file)
    try:
        shown = str(path.relative_to(Path.cwd().resolve()))
    except ValueError:
        shown = str(path)
    return f"{shown}:{o.line + 1}:{o.start + 1}"


def _elsewhere(checked: Checked, key: Key, trial) -> list[Occurrence]:
    """Where ``key`` is named outside the files of ``checked``: the base's files (for a
    rename begun in a variant's file), each variant's rule files and YAML, and the
    scenario files, the base's and each variant's own."""
    root, name = checked.root, key[-1]
    out: list[Occurrence] = []
    base = trial.check({}) if checked.variant is not None else checked.ruleset

    def text_of(display: str) -> str | None:
        return trial.text(file_path(display))

    unsure = [(UNSURE, key[2])] if key[0] == "property" else []
    if checked.variant is not None:
        table = SymbolTable(base, text_of)
        out += table.of(key) + [o for k in unsure for o in table.of(k)]
    variants = root / "variants"
    for variant in _variants_naming(root, name, trial.text):
        if variant != checked.variant and any(name in (trial.text(p) or "") for p in variants.glob(f"{variant}*.rules")):
            table = SymbolTable(trial.check({}, variant), text_of)
            out += [o for k in [key] + unsure for o in table.of(k)
                    if file_path(o.file).is_relative_to(variants) and o.file.endswith(".rules")]
    known = yaml_names.Known(base)
    if key[0] in ("parameter", "entity", "definition", "kind", "property", "zone"):
        out += yaml_names.find(key, yaml_names.variant_files(root), yaml_names.variant_spans, known, trial.text)
    if key[0] in ("entity", "zone"):  # a component's starting property naming a thing or a zone
        tables = sorted(p.resolve() for p in root.glob("*.yaml")) + yaml_names.variant_files(root)
        out += yaml_names.find(key, tables, yaml_names.table_spans, known, trial.text)
    if _scenarios_may_name(key, base):
        scenarios = [p for p, _ in _scenarios_naming(root, base, name, trial.text)]
        out += yaml_names.find(key, scenarios, yaml_names.scenario_spans, known, trial.text)
    return out


def _scenarios_may_name(key: Key, ruleset) -> bool:
    """Whether a scenario can name ``key``: not a parameter or a table, nor a local name
    other than an action's or a reaction's parameter (a step's ``args``)."""
    if key[0] in ("parameter", "table"):
        return False
    if key[0] == "local":
        d = ruleset.definitions.get(key[1])
        return d is not None and d.kind in ("action", "reaction") and any(p.name == key[2] for p in d.params)
    return True


SHOWN_PLACES = 5  # the places a refused rename names before counting the rest


def _refuse_if_it_breaks(checked: Checked, o: Occurrence, new_name: str, by_file: dict[Path, list[Occurrence]],
                         check_renamed) -> None:
    """Check the rule set, its variants and its scenarios as the rename would leave
    them; refuse a rename that adds an error (the old name is still written somewhere
    the checker reads but no rule resolves, such as a board's list of kinds), saying
    where, every place."""
    from rulecraft.dsl.variants import available_variants

    texts = {}
    for path, rs in by_file.items():
        lines = (check_renamed.text(path) or "").split("\n")
        for r in sorted(rs, key=lambda r: (r.line, r.start), reverse=True):
            lines[r.line] = lines[r.line][:r.start] + new_name + lines[r.line][r.end:]
        texts[path] = "\n".join(lines)
    old = o.key[-1]
    base = checked.ruleset if checked.variant is None else check_renamed.check({})
    scenarios = (_scenarios_naming(checked.root, base, old, check_renamed.text)
                 if _scenarios_may_name(o.key, base) else [])
    # the variants that write the name, and those whose scenarios do (checked with them)
    written_for = _scenario_variants(scenarios, check_renamed.text) & set(available_variants(checked.root))
    levels = [None] + sorted(set(_variants_naming(checked.root, old, check_renamed.text)) | written_for)
    after = {v: check_renamed.check(texts, v) for v in levels}
    added: list[Diagnostic] = []
    for v in levels:  # the errors before the rename are looked for only when there are some after it
        if after[v].bag.errors:
            added += _added(check_renamed.check({}, v).bag.errors, after[v].bag.errors, old, new_name)
    if scenarios:
        broken = yaml_names.scenario_errors(scenarios, after.get,
                                            lambda p: texts[p] if p in texts else check_renamed.text(p))
        if broken:
            before = {v: check_renamed.check({}, v) for v in levels}
            added += _added(yaml_names.scenario_errors(scenarios, before.get, check_renamed.text), broken,
                            old, new_name)
    unique, seen = [], set()
    for d in added:
        where = (str(d.position), d.message)
        if where not in seen:
            seen.add(where)
            unique.append(d)
    if unique:
        shown = "; ".join(f"{d.position}: {d.message}" for d in unique[:SHOWN_PLACES])
        more = f"; and {len(unique) - SHOWN_PLACES} more" if len(unique) > SHOWN_PLACES else ""
        raise RenameRefused(f"renaming '{old}' would leave {len(unique)} error(s): {shown}{more}; "
                            "change " + ("that place" if len(unique) == 1 else "these places") + " by hand")


def _scenario_variants(files: list[tuple[Path, str | None]], text_of) -> set[str]:
    """The variants the scenarios of ``files`` are written for: a variant's own files', and
    those a scenario names (``variant: NAME``)."""
    out = {v for _, v in files if v}
    for path, _ in files:
        out |= set(re.findall(r"^\s*-?\s*variant:\s*[\"']?([A-Za-z_][A-Za-z0-9_]*)", text_of(path) or "", re.M))
    return out


def _added(before: list[Diagnostic], after: list[Diagnostic], old: str, new: str) -> list[Diagnostic]:
    """The errors of ``after`` that ``before`` has not, a message that names the new name
    read as naming the old one (the same error, renamed)."""
    word = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(new) + r"(?![A-Za-z0-9_])")

    def where(d: Diagnostic, renamed: bool) -> tuple:
        message = word.sub(old, d.message) if renamed else d.message
        return (d.position.file if d.position else None, d.position.line if d.position else None, message)

    counts: dict[tuple, int] = {}
    for d in before:
        counts[where(d, False)] = counts.get(where(d, False), 0) + 1
    out = []
    for d in after:
        k = where(d, True)
        if counts.get(k, 0) > 0:
            counts[k] -= 1
        else:
            out.append(d)
    return out


# ---------------------------------------------------------------- hover
def hover(checked: Checked, path: Path, line: int, character: int) -> lsp.Hover | None:
    o = occurrence_at(checked, path, line, character)
    if o is None:
        return None
    text = describe(checked, o.key, o.type)
    if not text:
        return None
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text), _range(o))


def describe(checked: Checked, key: Key, type_: str | None = None) -> str:
    """Markdown about a symbol: what it is, its type, its text, and for a definition
    the rule in plain words as the rules site shows it."""
    rs, data = checked.ruleset, checked.ruleset.data
    what, name = key[0], key[-1]
    parts: list[str] = []
    if what == "definition" and name in rs.definitions:
        d = rs.definitions[name]
        parts.append(f"```rules\n{_signature(checked, d)}\n```")
        prose = _prose(rs, name)
        if prose:
            parts.append(prose)
        elif d.text:
            parts.append(d.text)
        if d.cite:
            parts.append(f"*{d.cite}*")
    elif what == "kind" and name in data.kinds:
        k = data.kinds[name]
        parts.append(f"kind **{name}**" + (f", located in {k.located_in}" if k.located_in else ""))
        if k.text:
            parts.append(k.text)
        if k.properties:
            parts.append("\n".join(f"- `{p.name}`: {p.type}" for p in k.properties.values()))
    elif what == "property" and key[1] in data.kinds and name in data.kinds[key[1]].properties:
        p = data.kinds[key[1]].properties[name]
        parts.append(f"property **{key[1]}.{name}**: `{p.type}`")
        if p.values:
            parts.append("one of: " + ", ".join(map(str, p.values)))
        if p.text:
            parts.append(p.text)
    elif what == "variable" and name in data.variables.get(key[1], {}):
        v = data.variables[key[1]][name]
        parts.append(f"{key[1]} variable **{name}**: `{v.type}`")
        if v.text:
            parts.append(v.text)
    elif what == "zone" and name in data.zones:
        z = data.zones[name]
        parts.append(f"zone **{name}**" + (" of each player: `" + name + "(player)`" if z.per_player else "")
                     + (f" of each {z.per}: `{name}({z.per})`" if z.per_entity else "")
                     + (f", holds {z.holds}" if z.holds else ""))
        parts.append(_who_sees(z))
        if z.text:
            parts.append(z.text)
    elif what == "entity":
        c = next((c for c in data.components if c.name == name), None)
        if c is not None:
            parts.append(f"component **{name}**: {with_article(c.kind)}" + (f" ×{c.count}" if c.count != 1 else "")
                         + (" for each player" if c.per_player else ""))
            if c.text:
                parts.append(c.text)
    elif what == "parameter" and name in data.parameters:
        p = data.parameters[name]
        parts.append(f"parameter **{name}** = `{p.get('value')!r}`")
        if p.get("text"):
            parts.append(str(p["text"]))
    elif what == "table" and name in data.tables:
        parts.append(f"table **{name}**: " + ", ".join(f"{k} → {v}" for k, v in data.tables[name].items()))
    elif what == "die" and name in data.dice:
        parts.append(f"die **{name}**: faces " + ", ".join(map(str, data.dice[name])))
    elif what == "local":
        if not type_:  # a use the checker gave no type (a glossary's entry): the declaration's
            type_ = next((o.type for o in checked.symbols.declarations(key) if o.type), None)
        parts.append(f"local **{name}**" + (f": `{type_}`" if type_ else ""))
        type_ = None
    elif what == "builtin":
        sig = FUNCTIONS.get(name) or EFFECTS.get(name)
        if sig is not None:
            kind = "effect" if sig.effect or name in EFFECTS else "function"
            parts.append(f"```rules\n{name}({', '.join(sig.params)})\n```\nbuilt-in {kind}. {sig.text}")
        elif name in VALUES:
            parts.append(f"built-in value **{name}**: `{VALUES[name][0]}`")
    if type_ and type_ != T.ANY and what not in ("definition", "builtin") and type_ != what:
        parts.append(f"type: `{type_}`")
    return "\n\n".join(parts)


def _who_sees(z) -> str:
    """Who sees what a zone holds (``visible_to``), and its top when only that is shown."""
    who = {"everyone": "every player sees what it holds", "nobody": "nobody sees what it holds",
           "owner": "only its owner sees what it holds"}.get(z.visible_to, f"seen by {z.visible_to}")
    if z.top_visible and z.visible_to != "everyone":
        who += "; its top is shown to all"
    return f"visible to: `{z.visible_to}` ({who})"


def _signature(checked: Checked, d) -> str:
    """The definition's first line, as written."""
    text = checked.symbols.line_text(d.name_pos.file, d.name_pos.line)
    return (text or f"{d.kind} {d.name}").strip()


def _prose(rs, name: str) -> str | None:
    """The definition in plain English, as the rules site renders it (None if it cannot
    be rendered, as in a rule set still being written)."""
    try:
        from rulecraft.docgen.prose import Prose

        return Prose(rs, "en").definition(name).strip()
    except Exception:  # noqa: BLE001 - a half-written rule set must not stop hover
        return None


# ---------------------------------------------------------------- completion
KEYWORDS = sorted(RESERVED | CONTEXTUAL)  # the contextual words too (`gain`, `highest`, `descending`, ...)
# Where a type is written: `with x: T`, a parameter `(x: T`, a result `-> T`, `list of T`
TYPE_POSITION = re.compile(r"(\bwith\s+[A-Za-z_]\w*\s*:|[(,]\s*[A-Za-z_]\w*\s*:|->|\bof)\s*[A-Za-z_]*$")
BASE_TYPES = sorted(T.BASE_TYPES - {T.ANY}) + ["player"]


def in_string_or_comment(before: str) -> bool:
    """Whether the end of ``before`` (a line up to the cursor) is inside a string (`text
    "…"`, `cite "…"`, `prompt "…"`) or a comment."""
    quoted = escaped = False
    for char in before:
        if quoted:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                quoted = False
        elif char == '"':
            quoted = True
        elif char == "#":
            return True
    return quoted


def wants_completion(path: Path, line: int, character: int, text: str, trigger: str | None = None) -> bool:
    """Whether completion has anything to offer here: not in a string or a comment of a
    rule file, nor in YAML that is no table of the rule set (a glossary, a variant's
    file, a scenario), nor after a trigger character that starts nothing here (a ':'
    ending `do:`)."""
    lines = text.splitlines()
    before = lines[line][:character] if 0 <= line < len(lines) else ""
    if path.suffix != ".rules":
        from .workspace import ruleset_of

        key = ruleset_of(path)
        return key is not None and key[1] is None and path.parent == key[0] and "#" not in before
    if in_string_or_comment(before):
        return False
    if trigger == ":":
        return TYPE_POSITION.search(before) is not None
    if trigger == ".":
        return re.search(r"[A-Za-z_][A-Za-z0-9_]*\.$", before) is not None
    return True


def completion(checked: Checked | None, path: Path, line: int, character: int, text: str) -> list[lsp.CompletionItem]:
    lines = text.splitlines()
    before = lines[line][:character] if 0 <= line < len(lines) else ""
    if not wants_completion(path, line, character, text):
        return []
    if path.suffix != ".rules":  # a table of the rule set: its names, no word of the rules language
        return _yaml_names(checked) if checked is not None else []
    if checked is None:
        return [_item(k, lsp.CompletionItemKind.Keyword) for k in KEYWORDS]
    data = checked.ruleset.data
    dotted = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)?$", before)
    if dotted:
        return _members(checked, path, line, dotted.start(1), dotted.group(1), lines)
    if TYPE_POSITION.search(before):
        return ([_item(k, lsp.CompletionItemKind.Class, "kind", data.kinds[k].text) for k in sorted(data.kinds)]
                + [_item(t, lsp.CompletionItemKind.TypeParameter, "type") for t in BASE_TYPES if t not in data.kinds]
                + [_item("list of", lsp.CompletionItemKind.TypeParameter, "type")])
    items: list[lsp.CompletionItem] = []
    for name, d in sorted(checked.ruleset.definitions.items()):
        if d.kind in ("function", "procedure"):
            params = ", ".join(f"{p.name}: {p.type}" for p in d.params)
            items.append(_item(name, lsp.CompletionItemKind.Function, f"{d.kind}({params})", d.text))
    for name, sig in sorted({**FUNCTIONS, **EFFECTS}.items()):
        items.append(_item(name, lsp.CompletionItemKind.Function, f"built-in({', '.join(sig.params)})", sig.text))
    for name, (type_, *_rest) in sorted(VALUES.items()):
        items.append(_item(name, lsp.CompletionItemKind.Constant, type_))
    for name in sorted(data.kinds):
        items.append(_item(name, lsp.CompletionItemKind.Class, "kind", data.kinds[name].text))
    for name, z in sorted(data.zones.items()):
        items.append(_item(name, lsp.CompletionItemKind.Module, "zone of each player" if z.per_player else "zone", z.text))
    for c in data.components:
        if c.count == 1 and not c.per_player:
            items.append(_item(c.name, lsp.CompletionItemKind.EnumMember, c.kind, c.text))
    for name, p in sorted(data.parameters.items()):
        items.append(_item(name, lsp.CompletionItemKind.Constant, f"parameter = {p.get('value')!r}", p.get("text")))
    for name in sorted(data.tables):
        items.append(_item(name, lsp.CompletionItemKind.Struct, "table"))
    for name in sorted(data.dice):
        items.append(_item(name, lsp.CompletionItemKind.Value, "die"))
    for scope in ("game", "turn"):
        items.append(_item(scope, lsp.CompletionItemKind.Variable, f"{scope} variables"))
    enclosing = _enclosing_definition(checked, path, line)
    if enclosing is not None:
        seen = set()
        for o in checked.symbols.occurrences:
            if o.key[0] == "local" and o.key[1] == enclosing and o.key[2] not in seen:
                seen.add(o.key[2])
                items.append(_item(o.key[2], lsp.CompletionItemKind.Variable, o.type or "local"))
    items.extend(_item(k, lsp.CompletionItemKind.Keyword) for k in KEYWORDS)
    return items


def _yaml_names(checked: Checked) -> list[lsp.CompletionItem]:
    """What a table of the rule set may name: its definitions, kinds, zones, components,
    parameters, tables and dice (as `game: setup:`, `holds:`, `type:` and the rulings do)."""
    data = checked.ruleset.data
    items = [_item(name, lsp.CompletionItemKind.Function, d.kind, d.text)
             for name, d in sorted(checked.ruleset.definitions.items())]
    items += [_item(name, lsp.CompletionItemKind.Class, "kind", data.kinds[name].text) for name in sorted(data.kinds)]
    items += [_item(name, lsp.CompletionItemKind.Module, "zone", z.text) for name, z in sorted(data.zones.items())]
    items += [_item(c.name, lsp.CompletionItemKind.EnumMember, c.kind, c.text) for c in data.components]
    items += [_item(name, lsp.CompletionItemKind.Constant, "parameter") for name in sorted(data.parameters)]
    items += [_item(name, lsp.CompletionItemKind.Struct, "table") for name in sorted(data.tables)]
    items += [_item(name, lsp.CompletionItemKind.Value, "die") for name in sorted(data.dice)]
    return items


def _members(checked: Checked, path: Path, line: int, start: int, word: str,
             text_lines: list[str]) -> list[lsp.CompletionItem]:
    """What may follow ``word.``: a scope's variables, or the properties of its kind."""
    data = checked.ruleset.data
    if word in ("game", "turn"):
        return [_item(n, lsp.CompletionItemKind.Field, v.type, v.text) for n, v in sorted(data.variables.get(word, {}).items())]
    o = occurrence_at(checked, path, line, start)
    type_ = o.type.removesuffix("?") if o is not None and o.type else None
    if type_ not in data.kinds:
        enclosing = _definition_written_above(text_lines, line)
        type_ = checked.local_types.get((enclosing, word)) if enclosing else None
        type_ = type_.removesuffix("?") if type_ else None
    if type_ not in data.kinds and word in data.kinds:
        type_ = word
    kinds = [type_] if type_ in data.kinds else list(data.kinds)
    items, seen = [], set()
    for k in kinds:
        for p in data.kinds[k].properties.values():
            if p.name not in seen:
                seen.add(p.name)
                items.append(_item(p.name, lsp.CompletionItemKind.Field, f"{k}.{p.name}: {p.type}", p.text))
    items += [_item("at", lsp.CompletionItemKind.Field, "where it is"), _item("id", lsp.CompletionItemKind.Field, "text")]
    return items


DEFINITION_LINE = re.compile(r"(?:action|procedure|function|trigger|victory|obligation|reaction)\s+([A-Za-z_][A-Za-z0-9_]*)")


def _definition_written_above(lines: list[str], line: int) -> str | None:
    """The name of the definition the cursor's line belongs to, read from the text (it
    may not parse while being typed)."""
    for n in range(min(line, len(lines) - 1), -1, -1):
        m = DEFINITION_LINE.match(lines[n])
        if m:
            return m.group(1)
    return None


def _enclosing_definition(checked: Checked, path: Path, line: int) -> str | None:
    display = display_of(checked, path)
    best = None
    for d in checked.ruleset.definitions.values():
        if d.name_pos.file == display and d.name_pos.line - 1 <= line:
            if best is None or d.name_pos.line > best.name_pos.line:
                best = d
    return best.name if best else None


def _item(label: str, kind: lsp.CompletionItemKind, detail: str | None = None, doc: str | None = None) -> lsp.CompletionItem:
    return lsp.CompletionItem(label=label, kind=kind, detail=detail, documentation=doc or None)
