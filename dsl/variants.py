"""House variants: small patches on a rule set, checked like the base game.

A variant is ``<rule set>/variants/NAME.yaml`` (checked by ``schemas/variant.schema.json``)
plus optional ``.rules`` files and a folder ``variants/NAME/`` (its glossary words and
its own scenarios). It names its base (the rule set itself, or another variant, so
variants build on variants), changes parameters and components, adds what the base
lacks under ``add:`` (components, kinds, properties and their values, zones, tile
layouts, graph spaces and connections, tables, dice, parameters, variables), and
replaces, removes or adds definitions. Every mistake in a variant is reported in the
variant's own files.
"""

from __future__ import annotations

import os
import dataclasses
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from . import ast
from . import types as T
from .board_shapes import add_graph_connection, name_connections
from .checker import UNREADABLE_NAME, parameter_value_problem
from .diagnostics import DiagnosticBag, Position, did_you_mean, did_you_mean_among, did_you_mean_or
from .model import RuleSetData, _prop, _type_position, layout_spec, merge_section
from .parser import DEFINITION_START, parse_text, unparsed_parts
from .ruleset_files import inside, is_name, refuse_link_out
from .source_text import read_source_text
from .yaml_data import Located, load_and_validate

SCHEMA = "variant.schema.json"


@dataclass
class VariantInfo:
    """What a variant (with the variants it builds on) changes, for diff, docs and verify."""

    name: str
    title: str
    chain: list[str]  # base-most variant first, this one last
    text: str | None = None
    cite: str | None = None
    parameters: dict[str, tuple] = field(default_factory=dict)  # name → (old, new)
    components: dict[str, tuple] = field(default_factory=dict)  # name → (old patch, new patch)
    manifest: dict[str, tuple] = field(default_factory=dict)  # entry → (old count or None, new count)
    variables: list[str] = field(default_factory=list)
    replaced: dict[str, tuple] = field(default_factory=dict)  # name → (old definition, new definition)
    removed: dict[str, ast.Definition] = field(default_factory=dict)
    added: dict[str, ast.Definition] = field(default_factory=dict)
    superseded: dict[str, str] = field(default_factory=dict)  # scenario title → reason
    superseded_at: dict[str, Position] = field(default_factory=dict)  # scenario title → where it is named
    files: list[str] = field(default_factory=list)
    # what `add:` brought: (section, name) pairs in the order written, e.g. ("components", "x")
    additions: list[tuple[str, str]] = field(default_factory=list)
    # where each change was written, for the findings it causes in the base's files:
    # name → (the variant that made the change, the place in its file)
    removed_at: dict[str, tuple[str, Position]] = field(default_factory=dict)
    counted_at: dict[str, tuple[str, Position]] = field(default_factory=dict)  # components changed or added
    taken_out: dict[str, object] = field(default_factory=dict)  # components given count 0: name → component
    # who sees what, changed: (section, name) → (before, after), each {"visible_to": …, "top_visible": …}
    visibility: dict[tuple[str, str], tuple[dict, dict]] = field(default_factory=dict)
    # manifest entries a variant restates, counted on top of the restated count for the
    # components it adds: entry → (variant, restated count, [(component, copies), ...])
    restated_on_top: dict[str, tuple[str, int, list[tuple[str, int]]]] = field(default_factory=dict)
    # parameters a variant changes: name → (the variant, the place of the value it gives), so
    # that a check of the patched rules tells what the new value breaks at the variant's line
    parameters_at: dict[str, tuple[str, Position]] = field(default_factory=dict)


def variants_folder(root: Path) -> Path:
    return root / "variants"


def available_variants(root: Path) -> list[str]:
    folder = variants_folder(root)
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def variant_folder(root: Path, name: str) -> Path:
    """``variants/NAME/``: the variant's glossary words and its own scenarios."""
    return variants_folder(root) / name


def variant_scenario_files(root: Path, chain: list[str]) -> list[tuple[str, Path]]:
    """(variant, file) of the scenarios written for each variant of ``chain``:
    ``variants/NAME/scenarios.yaml`` and every ``*.yaml`` in ``variants/NAME/scenarios/``.
    Files leading out of the rule set are left out (the loader reports such links)."""
    found = []
    for name in chain:
        folder = variant_folder(root, name)
        single = folder / "scenarios.yaml"
        files = [single] if single.is_file() else []
        if (folder / "scenarios").is_dir():
            files += sorted(p for p in (folder / "scenarios").iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
        found += [(name, p) for p in files if inside(p, root)]
    return found


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def load_variant_chain(root: Path, name: str, game_name: str | None, bag: DiagnosticBag) -> list[tuple[str, dict, Located, Path]]:
    """The variant and those it builds on, base-most first; errors go to ``bag``.

    ``game_name`` is None when the base's game section did not load (an error already
    reported): then the chain ends at the first base that is not a variant file, rather
    than reporting the game itself as a missing variant."""
    chain: list[tuple[str, dict, Located, Path]] = []
    seen: set[str] = set()
    current = name
    if not is_name(name):  # a variant is named, never a path: a path could lead out of the rule set
        known = available_variants(root)
        bag.error(f"'{name}' is not a variant name", None,
                  "a variant is named by its file in the rule set's variants/ folder (letters, digits and _, "
                  "not a path)" + (f"; known variants: {', '.join(known)}" if known else ""))
        return []
    if name == game_name:
        _named_after_the_game(root, name, bag)
        return []
    while current != game_name:
        if current in seen:
            # the base: line that closes the loop is the one to change
            loop = " → ".join([n for n, *_ in chain] + [current])
            bag.error(f"variant '{chain[-1][0]}' builds on '{current}', closing a loop: {loop}",
                      chain[-1][2].position(["variant", "base"]),
                      "a variant's bases must lead back to the game: name the game or a variant that does")
            return []
        seen.add(current)
        path = variants_folder(root) / f"{current}.yaml"
        if game_name is None and chain and not path.is_file():
            break
        if not path.is_file():
            known = available_variants(root)
            if chain:  # named as the base of the variant read last: the error is at that line
                bases = known + ([game_name] if game_name else [])
                bag.error(f"variant '{chain[-1][0]}' builds on '{current}', which is neither the game nor one of its "
                          f"variants", chain[-1][2].position(["variant", "base"]),
                          did_you_mean(current, bases) or "base: names the game (its game.yaml name) or another "
                          "variant: " + ", ".join(bases))
                return []
            bag.error(f"no variant '{current}' in {_display(variants_folder(root))}", None,
                      did_you_mean(current, known) or ("known variants: " + ", ".join(known) if known else
                                                       f"create one with: rulecraft variant new {current} --base {_display(root)}"))
            return []
        if not inside(path, root):
            refuse_link_out(path, _display(path), bag)
            return []
        before = len(bag.errors)
        content, located = load_and_validate(path, SCHEMA, bag, _display(path))
        if len(bag.errors) > before:
            return []
        if not isinstance(content, dict):  # empty, or comments only: the schema saw nothing to check
            bag.error(f"the file of variant '{current}' is empty", Position(_display(path), 1, 1),
                      f"start it with 'variant: {{name: {current}, base: {game_name or 'GAME'}, title: ...}}' "
                      f"(rulecraft variant new writes one to fill in), or delete the file")
            return []
        declared = content["variant"]["name"]
        if declared != current:  # a variant is named by its file: a second name would mislead
            bag.error(f"'name: {declared}' differs from the variant's file name, '{current}'", located.position(["variant", "name"]),
                      f"a variant is named by its file: write 'name: {current}', or rename the file to "
                      f"'{declared}.yaml' (and its rules and folder with it)")
        chain.append((current, content, located, path))
        current = content["variant"]["base"]
    return list(reversed(chain))


def _named_after_the_game(root: Path, name: str, bag: DiagnosticBag) -> None:
    """A variant file named after the game: 'base: NAME' means the game, so the file
    could never be a base nor be applied. The error is at its name, when it is there."""
    path = variants_folder(root) / f"{name}.yaml"
    pos = None
    if path.is_file() and inside(path, root):
        content, located = load_and_validate(path, SCHEMA, bag, _display(path))
        if isinstance(content, dict):
            pos = located.position(["variant", "name"])
    bag.error(f"a variant cannot be named '{name}', the game's own name", pos,
              f"'{name}' means the base game (as in 'base: {name}'): rename the file, e.g. to "
              f"variants/{name}_house.yaml, and its 'name:' with it")


def apply_variant(root: Path, name: str, data: RuleSetData, definitions: dict[str, ast.Definition],
                  files: list[str], bag: DiagnosticBag, chain: list | None = None,
                  unparsed: list[str | None] | None = None) -> VariantInfo | None:
    """Patch the loaded base in place with the variant ``name`` and its own bases
    (``chain``: as load_variant_chain gave it, if already read). The definitions of the
    variant's rule files that did not parse are added to ``unparsed`` as text (None for a
    file not read at all), as the loader does for the base's, so that the checks excuse
    what is missing only because of a syntax error already reported."""
    if unparsed is None:
        unparsed = []
    if chain is None:
        chain = load_variant_chain(root, name, data.game.name if data.game else None, bag)
    if not chain:
        return None
    info = VariantInfo(name, name, [c[0] for c in chain])
    manifest_before = dict(data.manifest)
    for vname, content, located, path in chain:
        meta = content["variant"]
        info.title, info.text, info.cite = meta.get("title", vname), meta.get("text"), meta.get("cite")
        info.files.append(_display(path))
        files.append(_display(path))
        # additions first, so that the changes below may name what was just added
        before = len(info.additions)
        _apply_additions(vname, content, located, data, info, bag)
        added_names = {n for section, n in info.additions[before:] if section == "components"}
        _apply_parameters(vname, content, located, data, info, bag)
        _apply_components(vname, content, located, data, info, bag)
        _apply_variables(content, located, data, info, bag)
        _apply_visibility(content, located, data, info, bag)
        # a restated count is the box of the variant's base as this variant changes it:
        # the components it adds under `add:` come on top, as they do on the base's counts
        added_here = [c for c in data.components if c.name in added_names]
        for key, count in (content.get("manifest") or {}).items():
            on_top = [(c.name, n) for c in added_here if (n := _copies_under(c, key, data))]
            data.manifest[key] = count + sum(n for _, n in on_top)
            data.where[("manifest", key)] = located.key_position(["manifest", key])
            if on_top:
                info.restated_on_top[key] = (vname, count, on_top)
        _apply_definitions(root, vname, content, located, path, data, definitions, files, info, bag, unparsed)
        for i, s in enumerate(content.get("superseded") or []):
            info.superseded[s["scenario"]] = s["reason"]
            info.superseded_at[s["scenario"]] = located.position(["superseded", i, "scenario"])
    # restated, and counted on top of the base's for the components added
    info.manifest = {key: (manifest_before.get(key), count) for key, count in data.manifest.items()
                     if manifest_before.get(key) != count}
    return info


# How to add each kind of thing a change may name, for the hint of a change to a name the
# base does not have.
_HOW_TO_ADD = {
    "parameter": "to add a new parameter, put it under 'add: parameters:' ({name}: {{value: ...}})",
    "component": "to add a new component, put it under 'add: components:' as in the base's components table "
                 "(- {{name: {name}, kind: ..., count: 1}})",
    "definition": "to add a new definition, write it in the variant's .rules file without listing it here",
    "zone": "a variant changes who sees the base's zones; a new zone goes under 'add: zones:'",
    "kind": "write KIND.PROPERTY of a kind of the base, e.g. player.role",
}


def _not_in_base(what: str, name: str, known) -> str:
    """The hint for a change to a name the base lacks: the close base name, or how to add it."""
    return did_you_mean_or(name, known, _HOW_TO_ADD[what].format(name=name))


def _apply_additions(vname, content, located, data, info, bag):
    """``add:``: new entries written as in the base's own files; a name the base already
    has is an error (it is changed with the sections outside ``add:``)."""
    add = content.get("add") or {}
    if not add:
        return
    at = located.within(["add"])  # paths inside add:, as in a base file
    new = RuleSetData()
    for section in ("kinds", "zones", "components", "tables", "dice", "parameters", "variables"):
        if section in add:
            merge_section(new, section, add[section], at, bag)

    def clash(what: str, name: str, pos, hint: str) -> None:
        bag.error(f"the base already has {what} '{name}'", pos, hint)

    for kname, kind in new.kinds.items():
        if kname in data.kinds:
            clash("the kind", kname, new.where[("kind", kname)],
                  f"to give '{kname}' a new property, use 'add: properties: {kname}.NAME: ...'; "
                  f"to allow a new value of one, 'add: values: {kname}.PROPERTY: [...]'")
            continue
        data.kinds[kname] = kind
        _copy_where(new, data, lambda k: k[:2] in (("kind", kname), ("property", kname)))
        info.additions.append(("kinds", kname))
    _add_properties(add, at, data, info, bag)
    _add_values(add, at, data, info, bag)
    for zname, zone in new.zones.items():
        if zname in data.zones:
            clash("the zone", zname, new.where[("zone", zname)], "give the new zone another name")
            continue
        data.zones[zname] = zone
        _copy_where(new, data, lambda k: k == ("zone", zname))
        info.additions.append(("zones", zname))
    _add_layouts(add, at, data, info, bag)
    _add_graph_entries(add, at, data, info, bag)
    base_components = {c.name for c in data.components}
    restated = set(content.get("manifest") or {})
    for comp in new.components:
        if comp.name in base_components:
            clash("the component", comp.name, new.where[("component", comp.name)],
                  f"to change it, list it under 'components:' ({comp.name}: {{count: ...}}) instead of 'add:'")
            continue
        data.components.append(comp)
        _copy_where(new, data, lambda k: k[:2] == ("component", comp.name))
        info.additions.append(("components", comp.name))
        info.counted_at[comp.name] = (vname, new.where[("component", comp.name)])
        _count_in_manifest(comp, data, restated)
    for section, label, key in (("tables", "table", "table"), ("dice", "die", "die"),
                                ("parameters", "parameter", "parameter")):
        target = getattr(data, section)
        for entry, value in getattr(new, section).items():
            if entry in target:
                hint = (f"to change its value, list it under 'parameters:' ({entry}: ...) instead of 'add:'"
                        if section == "parameters" else f"give the new {label} another name")
                clash(f"the {label}", entry, new.where[(key, entry)], hint)
                continue
            target[entry] = value
            data.where[(key, entry)] = new.where[(key, entry)]
            info.additions.append((section, entry))
    for scope, entries in new.variables.items():
        for vname, prop in entries.items():
            pos = new.where[("variable", scope, vname)]
            if vname in data.variables.get(scope, {}):
                clash(f"the {scope} variable", vname, pos, "a variant adds new variables; give it another name")
                continue
            data.variables.setdefault(scope, {})[vname] = prop
            _copy_where(new, data, lambda k: k[:3] == ("variable", scope, vname))
            info.variables.append(f"{scope}.{vname}")


def _copy_where(new: RuleSetData, data: RuleSetData, wanted) -> None:
    for key, pos in new.where.items():
        if wanted(key):
            data.where[key] = pos


def _kind_property(text: str, section: str, at: Located, data: RuleSetData, bag, must_exist: bool):
    """The kind (and property, if it must exist) named by 'kind.property' under add: SECTION."""
    kname, _, pname = text.partition(".")
    pos = at.key_position([section, text])
    kind = data.kinds.get(kname)
    if kind is None:
        bag.error(f"'{text}': the base has no kind '{kname}'", pos,
                  did_you_mean(kname, data.kinds) or "a new kind goes under 'add: kinds:' with its properties")
        return None, None
    if must_exist and pname not in kind.properties:
        bag.error(f"'{text}': kind '{kname}' has no property '{pname}'", pos,
                  did_you_mean(pname, kind.properties) or f"a new property goes under 'add: properties: {text}: ...'")
        return kind, None
    return kind, pname


def _add_properties(add, at, data, info, bag):
    for text, raw in (add.get("properties") or {}).items():
        kind, pname = _kind_property(text, "properties", at, data, bag, must_exist=False)
        if kind is None:
            continue
        pos = at.key_position(["properties", text])
        if pname in kind.properties:
            bag.error(f"the base already has the property '{text}'", pos,
                      _redeclared_hint(text, kind.properties[pname], raw))
            continue
        kind.properties[pname] = _prop(pname, raw)
        data.where[("property", kind.name, pname)] = pos
        # an unknown type is told at the type, as in the base's own tables
        path = ["properties", text] + (["type"] if isinstance(raw, dict) else [])
        data.where[("property", kind.name, pname, "type")] = _type_position(at, path, kind.properties[pname].type)
        if isinstance(raw, dict) and "drawn" in raw:
            data.where[("property", kind.name, pname, "drawn")] = at.key_position(["properties", text, "drawn"])
        info.additions.append(("properties", text))


# Who may see a property, from the fewest to every player ("others" lies between nobody
# and everyone, beside "owner": neither sees more than the other).
_VISIBILITY = ("nobody", "owner", "everyone")


def _redeclared_hint(text: str, prop, raw) -> str:
    """The hint for a property of the base declared again under 'add: properties:': a
    variant keeps the base's declaration (type, default, values, who sees it), and says
    what it can do instead of the change that declaration asked for."""
    kname, _, pname = text.partition(".")
    raw = raw if isinstance(raw, dict) else {"type": raw}
    ways = []
    if prop.values is not None:
        new = [v for v in raw.get("values") or [] if v not in prop.values]
        ways.append(f"to allow new values of it, use 'add: values: {text}: [{', '.join(map(str, new)) or '...'}]'")
    wanted = raw.get("visible_to", "everyone")
    if wanted != prop.visible_to and (wanted == "everyone" or prop.visible_to == "nobody"
                                      or (wanted in _VISIBILITY and prop.visible_to in _VISIBILITY)):
        if wanted == "everyone" or prop.visible_to == "nobody" \
                or _VISIBILITY.index(wanted) > _VISIBILITY.index(prop.visible_to):
            holder = "p" if kname == "player" else "x"
            ways.append(f"it stays 'visible_to: {prop.visible_to}': to show it in play, the variant's rules reveal it "
                        f"('reveal {holder}.{pname}' for each {kname} {holder}, in a trigger)")
        else:
            ways.append(f"it stays 'visible_to: {prop.visible_to}': a variant cannot hide what the base shows")
    if "default" in raw and raw["default"] != prop.default:
        ways.append(f"to start it at another value, the variant's rules set it ('set x.{pname} = ...')")
    if not ways:
        ways.append(f"a new property takes a new name ('add: properties: {kname}.NEW_NAME: ...')")
    return "a variant cannot declare a property of the base again (its type, default, values or who sees it); " \
        + "; ".join(ways)


def _add_values(add, at, data, info, bag):
    for text, values in (add.get("values") or {}).items():
        kind, pname = _kind_property(text, "values", at, data, bag, must_exist=True)
        if kind is None or pname is None:
            continue
        prop = kind.properties[pname]
        if prop.values is None:
            bag.error(f"'{text}' takes any {prop.type}: it lists no values to add to", at.key_position(["values", text]),
                      "use the new value directly; 'add: values:' is for properties whose base lists their values")
            continue
        if isinstance(prop.drawn, dict):  # drawn with one weight per value, which a variant cannot give
            bag.error(f"'{text}' is drawn with one weight per value, and a variant has no weight to give a new "
                      f"value", at.key_position(["values", text]),
                      "list the value with its weight in the base, or draw the property uniformly there "
                      "(drawn: uniform), which a variant's new values then join")
            continue
        for i, value in enumerate(values):
            if value in prop.values:
                bag.error(f"'{text}' already allows {value!r}", at.position(["values", text, i]),
                          "list only the values the base does not have")
                continue
            prop.values = [*prop.values, value]  # a new list: the base's stays as it was
            info.additions.append(("values", f"{text}={value}"))


def _add_layouts(add, at, data, info, bag):
    layouts = add.get("layouts") or {}
    if not layouts:
        return
    board = data.board
    if board is None or board.kind != "tiles":
        bag.error("the base has no board of tiles to add layouts to", at.key_position(["layouts"]),
                  "layouts describe tiles laid during play (board.yaml: board: layouts:)")
        return
    for lname, raw in layouts.items():
        pos = at.key_position(["layouts", lname])
        if lname in board.layouts:
            bag.error(f"the base already has the layout '{lname}'", pos, "give the new layout another name")
            continue
        board.layouts = {**board.layouts, lname: layout_spec(lname, raw)}
        data.where[("layout", lname)] = pos
        info.additions.append(("layouts", lname))


def _add_graph_entries(add, at, data, info, bag):
    """New spaces and connections of a board declared space by space (kind: graph)."""
    spaces, connections = add.get("spaces") or {}, add.get("connections") or []
    if not spaces and not connections:
        return
    board = data.board
    if board is None or board.kind != "graph":
        section = "spaces" if spaces else "connections"
        bag.error(f"the base has no graph board to add {section} to", at.key_position([section]),
                  "spaces and connections are added to a board of kind: graph; a board of tiles takes new "
                  "layouts, and a grid's or ring's spaces follow from its size")
        return
    for sname, props in spaces.items():
        pos = at.key_position(["spaces", sname])
        if sname in board.spaces:
            bag.error(f"the base already has the space '{sname}'", pos, "give the new space another name")
            continue
        board.spaces[sname] = dict(board.space_defaults, **(props or {}))
        data.where[("space", sname)] = pos
        info.additions.append(("spaces", sname))
    for i, raw in enumerate(connections):
        first = len(board.connections)
        add_graph_connection(board, raw)
        for n in range(first, len(board.connections)):  # each way is checked at the variant's line
            data.where[("connection", n)] = at.position(["connections", i])
            ends = ("from", "to") if n == first else ("to", "from")  # the way back starts at 'to'
            for end, key in zip(("source", "target"), ends):
                data.where[("connection", n, end)] = at.position(["connections", i, key])
        info.additions.append(("connections", f"{raw['from']}-{raw['to']}"))
    if board.connection_kind:
        name_connections(board)


def _copies_under(comp, key: str, data: RuleSetData) -> int:
    """How many copies of ``comp`` the manifest entry ``key`` (``kind`` or
    ``kind.property=value``) counts, at the most players."""
    kind, _, condition = key.partition(".")
    if kind != comp.kind:
        return 0
    if condition:
        pname, _, wanted = condition.partition("=")
        spec = data.kinds.get(kind)
        default = spec.properties[pname].default if spec and pname in spec.properties else None
        if str(comp.properties.get(pname, default)) != wanted:
            return 0
    players = data.game.max_players if data.game else 1
    return comp.count * (players if comp.per_player else 1)


def _count_in_manifest(comp, data: RuleSetData, restated: set[str]) -> None:
    """The manifest counts the base's box: a component the variant adds is counted on top
    of it, under every entry it falls under. An entry the variant restates is counted
    again once restated (the restated count, then the components it adds on top)."""
    for key in list(data.manifest):
        if key not in restated:
            data.manifest[key] += _copies_under(comp, key, data)


def _apply_parameters(vname, content, located, data, info, bag):
    for pname, value in (content.get("parameters") or {}).items():
        if pname not in data.parameters:
            bag.error(f"the base has no parameter '{pname}'", located.key_position(["parameters", pname]),
                      _not_in_base("parameter", pname, data.parameters))
            continue
        spec = data.parameters[pname]
        old = spec["value"]
        problem = _parameter_problem(pname, spec, value)
        if problem is not None:
            bag.error(problem[0], located.position(["parameters", pname]), problem[1])
            continue
        data.parameters[pname] = {**data.parameters[pname], "value": value}
        first = info.parameters.get(pname, (old, None))[0]
        info.parameters[pname] = (first, value)
        info.parameters_at[pname] = (vname, located.position(["parameters", pname]))


def _parameter_problem(pname: str, spec: dict, value) -> tuple[str, str] | None:
    """Why a variant cannot give a parameter this value: (message, hint), or None.

    A variant changes a parameter's value, never its type. The type is the one the
    parameter declares (``type: number?``: a number, or none), else that of its value in
    the base; a parameter whose value is none and that declares no type has no type a
    new value could keep, so it must declare one."""
    declared = spec.get("type")
    if declared:
        problem = parameter_value_problem(spec, value)
        if problem is None:
            return None
        wanted = T.phrase(T.parse_type_text(declared))
        return (f"parameter '{pname}' is declared {declared} in the base, so it cannot be {T.written_value(value)}",
                f"write {wanted}" + (" or null (none)" if declared.endswith("?") else
                                     f"; to let it be none, the base declares 'type: {declared}?'"))
    old = spec["value"]
    if old is None:
        if value is None:
            return None
        wanted = T.python_value_type(value)
        return (f"parameter '{pname}' is none in the base and declares no type, so it cannot become "
                f"{T.phrase(wanted)}",
                f"declare the type it takes where the base sets it: "
                f"'{pname}: {{value: null, type: {wanted}?}}' (none stays its default)")
    if type(old) is not type(value):
        was = T.phrase(T.python_value_type(old))  # the schema lets only texts, numbers, truths and null through
        return (f"parameter '{pname}' is {was} in the base, not {T.phrase(T.python_value_type(value))}",
                f"a variant changes a parameter's value, never its type: write {was}"
                + (f" (to let it be none, declare 'type: {T.python_value_type(old)}?' beside its value in the base)"
                   if value is None else ""))
    return None


def _apply_components(vname, content, located, data, info, bag):
    by_name = {c.name: c for c in data.components}
    for cname, patch in (content.get("components") or {}).items():
        comp = by_name.get(cname)
        if comp is None:
            bag.error(f"the base has no component '{cname}'", located.key_position(["components", cname]),
                      _not_in_base("component", cname, by_name))
            continue
        old = {"count": comp.count, "properties": dict(comp.properties)}
        if patch.get("count") == 0:  # none left: the component is taken out of the game
            data.components.remove(comp)
            del by_name[cname]
            info.taken_out[cname] = comp
            info.components[cname] = (info.components.get(cname, (old, None))[0], {"count": 0, "properties": {}})
            info.removed_at[cname] = (vname, located.key_position(["components", cname]))
            info.counted_at[cname] = info.removed_at[cname]
            continue
        if "count" in patch:
            comp.count = patch["count"]
        for pname, value in (patch.get("properties") or {}).items():
            kind = data.kinds.get(comp.kind)
            if kind is not None and pname not in kind.properties:
                bag.error(f"component '{cname}': kind '{comp.kind}' has no property '{pname}'",
                          located.key_position(["components", cname, "properties", pname]),
                          did_you_mean_among(pname, kind.properties, "properties"))
                continue
            comp.properties[pname] = value
            # the value is the variant's now: a problem with it is told at the variant's line
            # (the value there, or its name), not at the base's component
            comp.written[pname] = value
            data.where[("component", cname, "property", pname)] = located.position(["components", cname, "properties", pname])
            data.where[("component", cname, "property", pname, "name")] = located.key_position(
                ["components", cname, "properties", pname])
        new = {"count": comp.count, "properties": dict(comp.properties)}
        info.components[cname] = (info.components.get(cname, (old, None))[0], new)
        info.counted_at[cname] = (vname, located.key_position(["components", cname]))


def _seen(spec) -> dict:
    shown = {"visible_to": spec.visible_to}
    if hasattr(spec, "top_visible"):
        shown["top_visible"] = spec.top_visible
    return shown


def _apply_visibility(content, located, data, info, bag):
    """``visibility:``: who sees a zone, a property or a variable of the base (open hands,
    a secret made public), each at its name in the variant's file."""
    visibility = content.get("visibility") or {}
    for zname, change in (visibility.get("zones") or {}).items():
        zone = data.zones.get(zname)
        where = located.key_position(["visibility", "zones", zname])
        if zone is None:
            bag.error(f"the base has no zone '{zname}'", where, _not_in_base("zone", zname, data.zones))
            continue
        change = {"visible_to": change} if isinstance(change, str) else change
        now = _seen(zone)
        if all(now.get(k) == v for k, v in change.items()):
            _changes_nothing(bag, where, "zone", zname, now, change)
            continue
        before = info.visibility.get(("zones", zname), (now, None))[0]
        zone.visible_to = change.get("visible_to", zone.visible_to)
        zone.top_visible = change.get("top_visible", zone.top_visible)
        _seen_change(info, ("zones", zname), before, _seen(zone))
        data.where[("zone", zname)] = where  # what its new visibility breaks is told here
    for key, who in (visibility.get("properties") or {}).items():
        kname, _, pname = str(key).partition(".")
        where = located.key_position(["visibility", "properties", key])
        kind = data.kinds.get(kname)
        if kind is None or pname not in kind.properties:
            hint = (did_you_mean_among(pname, kind.properties, f"properties of {kname}") if kind is not None else
                    _not_in_base("kind", kname, data.kinds) if pname else "write KIND.PROPERTY, e.g. player.role")
            bag.error(f"the base has no property '{key}'", where, hint)
            continue
        spec = kind.properties[pname]
        if spec.visible_to == who:
            _changes_nothing(bag, where, "property", key, _seen(spec), {"visible_to": who})
            continue
        before = info.visibility.get(("properties", key), (_seen(spec), None))[0]
        spec.visible_to = who
        _seen_change(info, ("properties", key), before, _seen(spec))
    for key, who in (visibility.get("variables") or {}).items():
        scope, _, vname = str(key).partition(".")
        where = located.key_position(["visibility", "variables", key])
        declared = data.variables.get(scope) if scope in ("game", "turn") else None
        if declared is None or vname not in declared:
            hint = (did_you_mean_among(vname, declared, f"{scope} variables") if declared else
                    "write game.NAME or turn.NAME")
            bag.error(f"the base has no variable '{key}'", where, hint)
            continue
        spec = declared[vname]
        if spec.visible_to == who:
            _changes_nothing(bag, where, "variable", key, _seen(spec), {"visible_to": who})
            continue
        before = info.visibility.get(("variables", key), (_seen(spec), None))[0]
        spec.visible_to = who
        _seen_change(info, ("variables", key), before, _seen(spec))


def _seen_change(info, key: tuple[str, str], before: dict, after: dict) -> None:
    """Who sees what, changed by the chain so far; a change a later variant undoes is none."""
    if before == after:
        info.visibility.pop(key, None)
    else:
        info.visibility[key] = (before, after)


_WHO = {"everyone": "everyone", "owner": "only its owner", "others": "every player but its owner", "nobody": "nobody"}


def _changes_nothing(bag, where, what: str, name: str, now: dict, change: dict) -> None:
    """A ``visibility:`` entry that leaves who sees it as it was: a warning at its line."""
    said = []
    if "visible_to" in change:
        said.append(f"{_WHO.get(str(now['visible_to']), now['visible_to'])} already sees {what} '{name}'")
    if "top_visible" in change:
        top = "already shows its top card" if now.get("top_visible") else "already hides its top card"
        said.append(f"{what} '{name}' {top}" if not said else f"and it {top}")
    bag.warning(", ".join(said) + ": this line changes nothing", where,
                "remove the line: the base already has it so", code="visibility")


def _apply_variables(content, located, data, info, bag):
    for scope, entries in (content.get("variables") or {}).items():
        for vname, raw in (entries or {}).items():
            if vname in data.variables.get(scope, {}):
                bag.error(f"the base already has the {scope} variable '{vname}'", located.key_position(["variables", scope, vname]),
                          "a variant adds new variables; give it another name")
                continue
            data.variables.setdefault(scope, {})[vname] = _prop(vname, raw)
            data.where[("variable", scope, vname)] = located.key_position(["variables", scope, vname])
            # an unknown type is told at the type, as in the base's own tables
            path = ["variables", scope, vname] + (["type"] if isinstance(raw, dict) else [])
            data.where[("variable", scope, vname, "type")] = _type_position(located, path, data.variables[scope][vname].type)
            if isinstance(raw, dict) and "drawn" in raw:
                data.where[("variable", scope, vname, "drawn")] = located.key_position(["variables", scope, vname, "drawn"])
            info.variables.append(f"{scope}.{vname}")


def _apply_definitions(root, vname, content, located, path, data, definitions, files, info, bag, unparsed):
    replaces = list(content.get("replaces") or [])
    for i, dname in enumerate(content.get("removes") or []):
        if dname not in definitions:
            if any(c.name == dname for c in data.components):
                bag.error(f"variant '{vname}' removes '{dname}', which is a component of the base, not a definition",
                          located.position(["removes", i]),
                          f"'removes:' takes out definitions; to take the component out of the game, give it no copy: "
                          f"'components: {{{dname}: {{count: 0}}}}'")
                continue
            bag.error(f"variant '{vname}' removes '{dname}', which the base does not define",
                      located.position(["removes", i]), _not_in_base("definition", dname, definitions))
            continue
        info.removed[dname] = definitions.pop(dname)
        info.removed_at[dname] = (vname, located.position(["removes", i]))
    for i, dname in enumerate(replaces):
        if dname not in definitions:
            bag.error(f"variant '{vname}' replaces '{dname}', which the base does not define",
                      located.position(["replaces", i]), _not_in_base("definition", dname, definitions))
    rule_names = content.get("rules")
    rule_paths = [path.parent / r for r in rule_names] if rule_names else (
        [path.with_suffix(".rules")] if path.with_suffix(".rules").is_file() else [])
    for i, rp in enumerate(rule_paths):
        if not inside(rp, root):  # checked before anything else, so nothing tells what lies outside
            if rule_names:
                bag.error(f"variant '{vname}' names rule file '{rule_names[i]}', which is outside the rule set",
                          located.position(["rules", i]),
                          "a variant's rule files are in the rule set's folder, e.g. beside the variant's .yaml")
            else:
                refuse_link_out(rp, _display(rp), bag)
            continue
        if not rp.is_file():
            bag.error(f"variant '{vname}' names rule file '{rp.name}', which does not exist",
                      located.position(["rules", i]),
                      f"the names under 'rules:' are read beside {path.name}: check the spelling")
            continue
        display = _display(rp)
        files.append(display)
        info.files.append(display)
        text = read_source_text(rp, bag, display)
        if text is None:
            # what could be read of it (up to a byte that is not UTF-8), else nothing
            unparsed.append("\n".join(bag.sources.lines(display)) or None)
            continue
        rf = parse_text(text, display, bag)
        unparsed.extend(unparsed_parts(text, rf.definitions))
        for d in rf.definitions:
            if d.name in replaces:
                if d.name in definitions:
                    old = definitions[d.name]
                    first = info.replaced.get(d.name, (old, None))[0]
                    info.replaced[d.name] = (first, d)
                else:  # already reported as replacing nothing; still check its body
                    info.added[d.name] = d
                definitions[d.name] = d
                continue
            if d.name in definitions:
                bag.error(f"'{d.name}' is already defined by the base", d.name_pos,
                          f"to change it, list it under 'replaces:' in {_display(path)}")
                continue
            definitions[d.name] = d
            info.added[d.name] = d
    for dname in replaces:
        if dname in definitions and dname not in info.replaced and dname not in info.removed \
                and not _defined_unparsed(dname, unparsed):
            bag.error(f"variant '{vname}' lists '{dname}' under replaces but its rule files do not define it",
                      located.position(["replaces", replaces.index(dname)]),
                      "write the new definition in the variant's .rules file")


# ---------------------------------------------------------------- findings in the base

# How many places a hint lists before it only counts the rest.
_USES_LISTED = 4
_MANIFEST = re.compile(r"the rule set has (\d+) (\S+) component\(s\) \(at (\d+) players\) but the manifest says (\d+)")


def blame_variant(bag: DiagnosticBag, start: int, info: VariantInfo, data: RuleSetData,
                  definitions: dict[str, ast.Definition]) -> None:
    """The checks run on the patched rule set report in the base's files what only the
    variant caused: a use of a definition it removes, an event that only a removed
    definition emitted, a manifest count its component changes no longer meet. The base's
    files are not the variant's to change: each such finding (from ``bag.items[start:]``)
    is told again at the variant's line that caused it, with the places of the base that
    are concerned in its hint."""
    _explain_restated(bag, start, info)
    if not info.removed_at and not info.counted_at and not info.replaced:
        return
    own = set(info.files)
    blamed: dict[tuple, list] = {}  # (the variant's change, what kind of finding) → findings
    emitted_elsewhere = {e for d in definitions.values() for e in _emitted(d)} if info.removed else set()
    only_by: dict[str, str] = {}  # event → the removed definition that alone emitted it
    fields_of: dict[str, str] = {}  # a field only such events gave → the event
    for dname, d in info.removed.items():
        for event, fields in _emitted(d).items():
            if event not in emitted_elsewhere:
                only_by.setdefault(event, dname)
                for f in fields:
                    fields_of.setdefault(f, event)
    for d in bag.items[start:]:
        if not d.is_error or d.position is None or d.position.file in own:
            continue  # a warning stays one, where it is
        quoted = set(re.findall(r"'([A-Za-z_][A-Za-z0-9_]*)'", d.message))
        removed = next((n for n in info.removed_at if n in quoted), None)
        if removed is not None:
            blamed.setdefault(("uses", removed), []).append(d)
            continue
        event = next((e for e in quoted if e in only_by), None) if "emits" in d.message else None
        if event is None and d.code == UNREADABLE_NAME:
            # a field of an event nothing emits any more: the reading of that event
            event = next((fields_of[f] for f in quoted if f in fields_of), None)
        if event is not None:
            blamed.setdefault(("event", only_by[event], event), []).append(d)
            continue
        m = _MANIFEST.fullmatch(d.message)
        changed = _counted_under(m.group(2), info, data) if m else None
        if changed is not None:
            blamed.setdefault(("manifest", changed, m.group(2)), []).append(d)
            continue
        # a definition the variant replaces whose new version the base's uses no longer
        # fit (its parameters changed): the base's file is not the variant's to change
        replaced = next((n for n in info.replaced if n in quoted), None)
        if replaced is not None:
            blamed.setdefault(("replaced", replaced), []).append(d)
    if not blamed:
        return
    dropped = {id(d) for found in blamed.values() for d in found}
    bag.items[:] = [d for d in bag.items if id(d) not in dropped]
    for key, found in blamed.items():
        if key[0] == "manifest":
            _blame_count(bag, key[1], key[2], found[0], info)
            continue
        if key[0] == "replaced":
            new = info.replaced[key[1]][1]
            in_rules, elsewhere = _places(found, definitions)
            where = _listed(in_rules + elsewhere)
            bag.error(f"variant '{info.name}' replaces '{key[1]}', and the base's uses of it no longer fit: "
                      f"{found[0].message}", new.pos,
                      f"at {where}: keep the base's parameters, or write new versions of those definitions in the "
                      "variant's .rules file and list them under 'replaces:'")
            continue
        dname = key[1]
        vname, pos = info.removed_at[dname]
        in_rules, elsewhere = _places(found, definitions)
        parts = []
        if in_rules:
            them = "it" if len(in_rules) == 1 else "them"
            parts.append(f"{'read' if key[0] == 'event' else 'used'} by {_listed(in_rules)}: write new versions of "
                         f"{them} in the variant's .rules file and list {them} under 'replaces:'")
        if elsewhere:
            parts.append(f"named by {_listed(elsewhere)}, which a variant cannot change")
        hint = "; ".join(parts) + f"; or keep '{dname}'"
        if key[0] == "uses" and dname in info.taken_out:
            bag.error(f"variant '{vname}' takes component '{dname}' out of the game, but the base still names it",
                      pos, hint)
        elif key[0] == "uses":
            bag.error(f"variant '{vname}' removes '{dname}', which the base still uses", pos, hint)
        else:
            bag.error(f"variant '{vname}' removes '{dname}', the only definition that emits event '{key[2]}', "
                      f"which the base still reads", pos, hint)


def _explain_restated(bag: DiagnosticBag, start: int, info: VariantInfo) -> None:
    """A manifest entry the variant restates that does not hold, while components the
    variant adds count on top of it: the message and hint say so, with the count to write."""
    for i, d in enumerate(bag.items[start:], start):
        m = _MANIFEST.fullmatch(d.message) if d.is_error else None
        if m is None or m.group(2) not in info.restated_on_top:
            continue
        key = m.group(2)
        vname, restated, on_top = info.restated_on_top[key]
        added = sum(n for _, n in on_top)
        names = ", ".join(f"{n} {c}" for c, n in on_top)
        actual = int(m.group(1))
        bag.items[i] = dataclasses.replace(
            d, message=f"the rule set has {actual} {key} component(s) (at {m.group(3)} players) but the manifest "
                       f"says {m.group(4)}: {restated} restated by variant '{vname}' and {added} it adds under "
                       f"'add: components:' ({names})",
            hint=f"a restated count is the box as the variant changes it, without the components it adds "
                    f"(they are counted on top): write '{key}: {actual - added}'")


def _emitted(node, found: dict[str, set[str]] | None = None) -> dict[str, set[str]]:
    """The events a definition emits or opens a window on, wherever they are in it, each
    with the fields it gives them."""
    found = {} if found is None else found
    if isinstance(node, (ast.Emit, ast.Window)):
        found.setdefault(node.event, set()).update(f for f, _ in node.fields)
    if isinstance(node, list):
        for item in node:
            _emitted(item, found)
    elif hasattr(node, "__dataclass_fields__"):
        for name in node.__dataclass_fields__:
            value = getattr(node, name, None)
            if isinstance(value, (list, tuple)) or hasattr(value, "__dataclass_fields__"):
                _emitted(value, found)
    elif isinstance(node, tuple):
        for item in node:
            _emitted(item, found)
    return found


def _places(found: list, definitions: dict[str, ast.Definition]) -> tuple[list[str], list[str]]:
    """Where the findings are: in rule definitions ("action 'x' (items.rules:17:13)") and
    elsewhere ("ruling 'y' (rulings.yaml:107:5)", as the finding names it)."""
    in_rules, elsewhere = [], []
    for d in sorted(found, key=lambda d: (d.position.file, d.position.line, d.position.column)):
        by = _definition_at(d.position, definitions)
        if by is not None:
            in_rules.append(f"{by.kind} '{by.name}' ({d.position})")
            continue
        named = re.match(r"([a-z]+ '[^']+') ", d.message)
        elsewhere.append(f"{named.group(1)} ({d.position})" if named else str(d.position))
    return list(dict.fromkeys(in_rules)), list(dict.fromkeys(elsewhere))


def _listed(places: list[str]) -> str:
    """'a, b, c, d and 3 more'."""
    shown = places[:_USES_LISTED]
    rest = len(places) - len(shown)
    return ", ".join(shown) + (f" and {rest} more" if rest else "")


def _definition_at(pos: Position, definitions: dict[str, ast.Definition]) -> ast.Definition | None:
    """The definition of a rule file whose text holds ``pos``: the last one starting before it."""
    before = [d for d in definitions.values() if d.name_pos and d.name_pos.file == pos.file
              and d.name_pos.line <= pos.line]
    return max(before, key=lambda d: d.name_pos.line, default=None)


def _counted_under(key: str, info: VariantInfo, data: RuleSetData) -> str | None:
    """The component the variant changed or added that the manifest entry ``key``
    (``kind`` or ``kind.property=value``) counts: one that has its property value, else
    one of its kind (a changed property may have taken it out of the count)."""
    kind, _, condition = key.partition(".")
    pname, _, wanted = condition.partition("=")
    by_name = {**info.taken_out, **{c.name: c for c in data.components}}
    of_kind = [by_name[n] for n in info.counted_at if n in by_name and by_name[n].kind == kind]
    spec = data.kinds.get(kind)
    default = spec.properties[pname].default if spec and pname in spec.properties else None
    matching = [c for c in of_kind if not condition or str(c.properties.get(pname, default)) == wanted]
    chosen = (matching or of_kind)[:1]
    return chosen[0].name if chosen else None


def _blame_count(bag: DiagnosticBag, cname: str, key: str, found, info: VariantInfo) -> None:
    m = _MANIFEST.fullmatch(found.message)
    actual, players, expected = m.group(1), m.group(3), m.group(4)
    vname, pos = info.counted_at[cname]
    bag.error(f"with variant '{vname}' the rule set has {actual} {key} component(s) (at {players} players), "
              f"but the base's manifest says {expected}", pos,
              f"restate the count in the variant: 'manifest: {{{key}: {actual}}}' (the base's entry is at "
              f"{found.position})")


def _defined_unparsed(name: str, unparsed: list[str | None]) -> bool:
    """``name`` may be defined by a definition that did not parse (its syntax error is
    the mistake to report) or in a file that could not be read."""
    pattern = re.compile(DEFINITION_START.pattern + rf"[ \t]+{re.escape(name)}\b", re.MULTILINE)
    return any(text is None or pattern.search(text) for text in unparsed)


def _schema_link(folder: Path) -> str:
    """Where an editor finds the variant schema from a file in ``folder``: the project's
    own ``schemas/`` beside ``rules/`` when it has one (``../../../schemas/…``, as the
    shipped rule sets link it), else the schema installed with rulecraft, as a path
    relative to the folder, so that it also holds for a rule set kept anywhere else."""
    project = folder.resolve().parent.parent.parent / "schemas" / "variant.schema.json"
    if project.is_file():  # a project laid out as rulecraft's own (rules/<game>/, schemas/): its copy
        return Path(os.path.relpath(project, folder.resolve())).as_posix()
    schema = Path(str(resources.files("rulecraft.schemas").joinpath("variant.schema.json"))).resolve()
    return Path(os.path.relpath(schema, folder.resolve())).as_posix()


def scaffold(root: Path, name: str, base: str) -> Path:
    """Write a new variant file with commented examples; returns its path."""
    folder = variants_folder(root)
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.yaml"
    path.write_text(f"""# yaml-language-server: $schema={_schema_link(folder)}
# A house variant of {base}. Change what you need; delete the rest.
variant:
  name: {name}
  title: {name.replace('_', ' ').capitalize()}
  base: {base}
  text: What this variant changes and why.
  # cite: "rulebook-en: <section>"

# parameters:            # change a number of the base (see its game.yaml)
#   some_parameter: 4

# components:            # change how many of a component there are, or its properties
#   some_component: {{count: 2}}

# add:                   # what the base does not have, written as in the base's own files
#   components:
#     - {{name: new_card, kind: some_kind, count: 2, zone: some_zone}}
#   values:              # new allowed values of a base property, e.g. a new room type
#     some_kind.some_property: [new_value]
#   parameters:
#     new_parameter: {{value: 1, text: What it counts.}}
# (also kinds, properties, zones, layouts, tables, dice, variables: see docs/variants.md)

# replaces: [some_definition]   # definitions redefined in {name}.rules
# removes: [some_definition]    # definitions taken out
# Definitions in {name}.rules that the base does not have are added.
# Words for the docs go in variants/{name}/glossary/<lang>.yaml, and the variant's own
# scenarios in variants/{name}/scenarios.yaml (run by rulecraft verify --variant {name}).

# superseded:            # base scenarios that no longer hold, with the reason
#   - scenario: "Title of a base scenario"
#     reason: Why it does not apply here.
""", encoding="utf-8")
    return path
