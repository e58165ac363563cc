"""What stands beside a board: the things of a view in no space nor zone (a ship's
facings, a marker), each with what its properties say, as the terminal and the browser
list them next to the board."""

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
