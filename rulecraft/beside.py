"""What stands beside a board, as the terminal and the browser show it next to the
board: the things of a view in no space nor zone (a ship's facings, a marker), each with
what its properties say; the variables the rule set's glossary marks ``shown`` (a game
clock, a track), with their values; the zones on the table and what each holds, or how
many things lie there when the viewer does not see into it."""

from __future__ import annotations

from rulecraft.narration import HIDDEN, Words, says_nothing


def beside_board(ruleset, view: dict, words: Words, seat: str) -> list[dict]:
    """The things of the view in no space nor zone (a ship's facings, a marker): each by
    name, with the values that differ from its kind's defaults and its numbers but 0 (a
    number at its default may say as much as any other: a facing in sector 1; a count at
    0, nothing). A connection of the board, which the board
    draws as the rules declare it, only where it now differs from that (a door opened),
    named by the spaces it joins."""
    kinds = ruleset.data.kinds
    spec = ruleset.data.board
    skip = {"player", spec.space_kind if spec else None, spec.tile_kind if spec else None}
    drawn = {c.name: c for c in (spec.connections if spec else ()) if c.name}
    out = []
    for eid, e in view["entities"].items():
        kind = kinds.get(e["kind"])
        if e["at"] is not None or kind is None or kind.located_in or e["kind"] in skip or eid in view["players"]:
            continue
        details = []
        for k, v in e["props"].items():
            if v == HIDDEN or v == seat:
                continue
            default = kind.properties[k].default if k in kind.properties else object()
            if eid in drawn:
                if drawn[eid].properties.get(k, default) != v:
                    details.append(words.status(e["kind"], k, v))
                continue
            number = isinstance(v, (int, float)) and not isinstance(v, bool)
            if says_nothing(v) or (default == v and not (number and v != 0)):
                continue
            details.append(words.prop(e["kind"], k) if v is True else words.status(e["kind"], k, v))
        name = words.name(eid)
        if eid in drawn:
            if not details:
                continue
            if name == eid:
                name = " – ".join(words.name(end) for end in (drawn[eid].source, drawn[eid].target))
        out.append({"name": name, "details": details})
    return out


def shown_variables(ruleset, view: dict, words: Words) -> list[dict]:
    """The game and turn variables the glossary marks ``shown`` that the view shows (a
    turn variable only to the player whose turn it is, none hidden from the viewer), in
    the order the rule set declares them: each its word (``shown`` when a word, else the
    variable's own), its value in words and both as a screen reads them ("Clock 12")."""
    out = []
    for scope in ("game", "turn"):
        values = (view.get("vars") or {}).get(scope) or {}
        for name in ruleset.data.variables.get(scope, {}):
            term = words.glossary.get("variables", f"{scope}.{name}")
            if term is None or not term.shown or name not in values or values[name] == HIDDEN:
                continue
            word = term.shown if isinstance(term.shown, str) else term.one
            value = words.name(values[name])
            out.append({"name": word, "value": value, "text": words.say["counter"].format(name=word, value=value)})
    return out


def filled(items) -> bool:
    """Whether a zone as a view shows it holds anything, or shows that it does."""
    return bool(items if isinstance(items, list) else items.get("count") or items.get("shown"))


def table_zones(ruleset, view: dict) -> list[tuple[str, str, str]]:
    """The zones on the table that hold something: the shared zones, and those of a thing
    that is no player (a piece's own slots), as (zone, its name in the rules, its holder
    or ""), in the view's order. The players' own zones are with the players."""
    out = []
    for zone, items in view["zones"].items():
        base, _, owner = zone.partition(":")
        if base not in ruleset.data.zones or owner in view["players"] or not filled(items):
            continue
        out.append((zone, base, owner))
    return out


def unordered(ruleset, zone: str) -> bool:
    """Whether the order of a zone's things says nothing (its copies may be counted)."""
    spec = ruleset.data.zones.get(zone.partition(":")[0])
    return spec is not None and not spec.ordered


def pile(words: Words, view: dict, items, holder: str | None, grouped: bool = False) -> dict:
    """A zone's contents as the screens list them: ``things``, each (its name, what its
    properties say), or for a zone the viewer does not see into, ``count``, ``top`` (a
    name or None) and the things a reveal ``shown`` it. ``grouped`` (a zone whose order
    says nothing): copies of one component (``lamp.3``, ``token.p2.5``: the same id but
    its copy number) that say the same are one entry, "Lamp ×10"."""
    if isinstance(items, list):
        return {"things": _grouped(words, view, items, holder) if grouped else
                [_thing(words, view, e, holder) for e in items]}
    return {"count": items.get("count", 0), "top": words.name(items["top"]) if items.get("top") else None,
            "shown": [_thing(words, view, e, holder) for e in items.get("shown") or []]}


def _thing(words: Words, view: dict, eid: str, holder: str | None) -> tuple[str, list[str]]:
    details = words.details(eid, view["entities"].get(eid), holder) if eid in view["entities"] else []
    return words.name(eid), details


def _grouped(words: Words, view: dict, items: list, holder: str | None) -> list[tuple[str, list[str]]]:
    groups: dict[tuple, list[str]] = {}
    for e in items:
        base, dot, copy = e.rpartition(".")
        details = tuple(words.details(e, view["entities"].get(e), holder)) if e in view["entities"] else ()
        key = (base, details) if dot and copy.isdigit() else (e, None)
        groups.setdefault(key, []).append(e)
    out = []
    for (base, details), copies in groups.items():
        if details is None or len(copies) == 1:
            out += [_thing(words, view, e, holder) for e in copies]
        else:
            out.append((f"{words.name(base)} ×{len(copies)}", list(details)))
    return out
