"""`rulecraft variant new|diff`: scaffold a house variant, or show what one changes."""

from __future__ import annotations

import argparse
import difflib
import re
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from rulecraft.dsl.loader import load_ruleset, shipped_ruleset
from rulecraft.dsl.variants import available_variants, scaffold, variants_folder

from .common import ruleset_arg, shipped_rulesets, usage_error, variant_arg, variant_problem


def add_parser(sub) -> None:
    p = sub.add_parser("variant", help="create a house variant or show what one changes",
                       description="House variants are patches on a rule set: see docs/variants.md.")
    vsub = p.add_subparsers(dest="variant_command", metavar="new|diff|list")
    vsub.required = True
    new = vsub.add_parser("new", help="scaffold rules/<game>/variants/NAME.yaml")
    new.add_argument("name", type=_name, help="the variant's name (letters, digits, _)")
    new.add_argument("--base", type=_new_base, required=True, help="the folder of the rule set it changes "
                                                                      "(rules/<game>)")
    new.set_defaults(run=run_new)
    diff = vsub.add_parser("diff", help="show what a variant changes, rule by rule")
    diff.add_argument("name", type=variant_arg, help="the variant's name")
    diff.add_argument("--base", type=ruleset_arg, default=None,
                      help="the rule set (default: the shipped rule set that has this variant)")
    diff.set_defaults(run=run_diff)
    lst = vsub.add_parser("list", help="list the variants of a rule set")
    lst.add_argument("--base", type=ruleset_arg, default=None,
                     help="the rule set (default: every shipped rule set that has variants)")
    lst.set_defaults(run=run_list)


def _default_base(command: str, variant: str | None = None) -> str | None:
    """The shipped rule set meant when --base is left out: the one holding ``variant``
    (or the only one); None after saying why on stderr (a usage error)."""
    shipped = shipped_rulesets()
    found = [name for name, path in shipped.items() if variant is None or variant in available_variants(path)]
    if len(found) == 1:
        return str(shipped[found[0]])
    if not found:
        why = f"no shipped rule set has a variant '{variant}'" if variant else "no rule set is shipped"
    else:
        why = f"give --base, one of: {', '.join(found)}"
    usage_error(f"variant {command}", why)
    return None


def _name(text: str) -> str:
    import argparse

    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", text):
        raise argparse.ArgumentTypeError(f"'{text}' is not a valid name (letters, digits and _, not starting with a digit)")
    return text


def _seen_line(seen: dict) -> str:
    """Who sees a zone, property or variable, as a variant's file writes it."""
    line = seen["visible_to"]
    return line + (", top card shown" if seen.get("top_visible") else "")


def _new_base(text: str) -> str:
    """The folder a new variant is written into: a folder given as such, never a shipped
    rule set's name, whose folder is where rulecraft is installed."""
    if text and not Path(text).is_dir() and shipped_ruleset(text) is not None:
        here = Path("rules") / text
        instead = (f"give the folder of your copy: --base {here}" if (here / "game.yaml").is_file() else
                   f"copy it first (cp -r {shipped_ruleset(text)} {here}), then give --base {here}")
        raise argparse.ArgumentTypeError(f"'{text}' names the rule set installed with rulecraft, which a house "
                                         f"variant is not written into; {instead}")
    return ruleset_arg(text)


def run_new(args) -> int:
    root = Path(args.base)
    base = load_ruleset(root)
    game = base.data.game.name if base.data.game else root.name
    if args.name == game:  # 'base: NAME' names the game: such a variant could never be told from it
        return usage_error("variant new", f"argument name: '{args.name}' is the game's own name; give the variant "
                                          f"a name of its own, e.g. {args.name}_house")
    path = variants_folder(root) / f"{args.name}.yaml"
    if path.exists():
        return usage_error("variant new", f"{path} already exists: give the new variant another name, or see "
                                          f"what it changes with: rulecraft variant diff {args.name} --base {args.base}")
    written = scaffold(root, args.name, game)
    print(f"wrote {written}\nedit it, then: rulecraft check {args.base} --variant {args.name}")
    return 0


def run_list(args) -> int:
    if args.base:
        bases = [Path(args.base)]
    else:
        # Without --base, every shipped rule set that has variants, each under its name.
        bases = [path for path in shipped_rulesets().values() if available_variants(path)]
        if not bases:
            return usage_error("variant list", "no shipped rule set has variants: give --base")
    for root in bases:
        if len(bases) > 1:
            print(f"{root.name}:")
        if not available_variants(root):
            print(f"{root} has no variants (create one with: rulecraft variant new NAME --base {root})")
        for name in available_variants(root):
            rs = load_ruleset(root, variant=name)
            status = "ok" if rs.ok else f"{len(rs.bag.errors)} error(s)"
            title = rs.variant.title if rs.variant else name
            print(f"{'  ' if len(bases) > 1 else ''}{name:24} {title}  [{status}]")
    return 0


def _source_lines(rs, d) -> list[str]:
    """The definition's lines as written in its file: from its first line to the line
    before the next definition, without the blank and comment lines that lead into it."""
    lines = []
    for n in range(d.pos.line, 10**6):
        line = rs.bag.sources.line(d.pos.file, n)
        if line is None or (n > d.pos.line and line and not line[0].isspace() and not line.startswith("#")):
            break
        lines.append(line)
    while len(lines) > 1 and (not lines[-1].strip() or lines[-1].startswith("#")):
        lines.pop()
    return lines


def definition_diff(rs, old, new, context: int = 3) -> list[str]:
    """A unified diff of two definitions' source texts, with the line numbers of their
    own files, so a one-character change shows as one line out and one line in."""
    a, b = _source_lines(rs, old), _source_lines(rs, new)
    out = [f"--- {old.pos.file}", f"+++ {new.pos.file}"]
    for group in difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(context):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        out.append(f"@@ -{old.pos.line + i1},{i2 - i1} +{new.pos.line + j1},{j2 - j1} @@")
        for tag, a1, a2, b1, b2 in group:
            if tag == "equal":
                out.extend(" " + line for line in a[a1:a2])
                continue
            out.extend("-" + line for line in a[a1:a2])
            out.extend("+" + line for line in b[b1:b2])
    return out


_DIFF_STYLES = {"---": "bold", "+++": "bold", "@@": "cyan", "-": "red", "+": "green"}


def _print_diff(console: Console, lines: list[str]) -> None:
    for line in lines:
        style = next((s for prefix, s in _DIFF_STYLES.items() if line.startswith(prefix)), None)
        # soft_wrap: a long rule line stays one line, as in the file
        console.print(Text(line, style=style or ""), soft_wrap=True)


def _value(value) -> str:
    """A value as the rule set's YAML files write it: true, 3, red, [a, b]."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def component_changes(name: str, old: dict, new: dict) -> list[str]:
    """What a variant changes of a component, in the terms of its components table: the
    count on the first line, then each changed property on a line of its own."""
    head = name
    if old["count"] != new["count"]:
        head += f": count {old['count']} → {new['count']}" + (" (removed)" if new["count"] == 0 else "")
    lines = [head]
    for pname in dict.fromkeys([*old["properties"], *new["properties"]]):
        before, after = old["properties"].get(pname), new["properties"].get(pname)
        if before != after:
            lines.append(f"{pname}: {_value(before)} → {_value(after)}")
    if len(lines) == 1 and old["count"] == new["count"]:
        lines[0] += ": unchanged"
    return lines


# What one entry of each section of `add:` is, as the diff names it ("new parameter ...").
_ADDED = {"kinds": "kind", "properties": "property", "values": "value", "zones": "zone", "components": "component",
          "layouts": "tile layout", "spaces": "space", "connections": "connection", "tables": "table", "dice": "die",
          "parameters": "parameter"}


def addition_line(rs, section: str, name: str) -> str:
    """One entry a variant's `add:` brings, after "new KIND", in the terms of the base's
    files and like the diff's other lines: a parameter with its value and its text
    (``NAME: 3 (what it is for)``), a component with its kind and count, a property with
    its type, a value with the property it is a value of."""
    data = rs.data
    if section == "parameters":
        spec = data.parameters.get(name)
        value = spec.get("value") if isinstance(spec, dict) else spec
        text = spec.get("text") if isinstance(spec, dict) else None
        return f"{name}: {_value(value)}" + (f" ({text})" if text else "")
    if section == "components":
        comp = next((c for c in data.components if c.name == name), None)
        if comp is not None:
            count = f"{comp.count} per player" if comp.per_player else str(comp.count)
            return f"{name} ({comp.kind}): count {count}"
    if section == "properties":
        kname, _, pname = name.partition(".")
        prop = data.kinds[kname].properties.get(pname) if kname in data.kinds else None
        if prop is not None:
            return f"{name}: {prop.type}" + (f", default {_value(prop.default)}" if prop.default is not None else "")
    if section == "values":
        prop, _, value = name.partition("=")
        return f"{value} (of {prop})"
    return name


def run_diff(args) -> int:
    # lines are never wrapped, piped or not: a rule line and a message stay one line each
    console = Console(highlight=False, soft_wrap=True)
    base = args.base or _default_base("diff", args.name)
    if base is None:
        return 2
    problem = variant_problem(base, args.name)
    if problem:
        return usage_error("variant diff", f"argument name: {problem}")
    rs = load_ruleset(base, variant=args.name)
    if not rs.ok:
        console.print(escape(rs.bag.render()))
        return 1
    v = rs.variant
    console.print(f"[bold]{escape(v.title)}[/] ({escape(v.name)}), built on: {escape(' → '.join([rs.name] + v.chain))}")
    if v.text:
        console.print(escape(v.text))
    if v.cite:
        console.print(f"[dim]{escape(v.cite)}[/]")
    for name, (old, new) in v.parameters.items():
        console.print(f"\n[yellow]parameter[/] {escape(name)}: {escape(_value(old))} → {escape(_value(new))}")
    for name, (old, new) in v.components.items():
        for n, line in enumerate(component_changes(name, old, new)):
            console.print(("\n[yellow]component[/] " if n == 0 else "    ") + escape(line))
    for key, (old, new) in v.manifest.items():
        console.print(f"\n[yellow]manifest[/] {escape(key)}: {'none' if old is None else old} → {new}")
    for section, name in v.additions:
        console.print(f"\n[green]new {_ADDED[section]}[/] {escape(addition_line(rs, section, name))}")
    for name in v.variables:
        console.print(f"\n[green]new variable[/] {escape(name)}")
    for (section, name), (old, new) in v.visibility.items():
        what = {"zones": "zone", "properties": "property", "variables": "variable"}[section]
        console.print(f"\n[yellow]who sees[/] {what} {escape(name)}: {escape(_seen_line(old))} → "
                      f"{escape(_seen_line(new))}")
    for name, (old, new) in v.replaced.items():
        console.print(f"\n[yellow]replaced[/] {old.kind} {escape(name)}")
        _print_diff(console, definition_diff(rs, old, new))
    for name, d in v.removed.items():
        console.print(f"\n[red]removed[/] {d.kind} {escape(name)}")
    for name, d in v.added.items():
        console.print(f"\n[green]added[/] {d.kind} {escape(name)}")
        _print_diff(console, ["+" + line for line in _source_lines(rs, d)])
    for title, reason in v.superseded.items():
        console.print(f"\n[magenta]scenario superseded[/] {escape(title)}: {escape(reason)}")
    return 0
