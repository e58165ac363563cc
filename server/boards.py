"""The board of a view as SVG: laid tiles through the rules site's picture code, a board
declared whole (grid, hex grid, ring, graph) from its spaces and connections.

Every space carries ``data-space`` so the page can offer the options naming it; what
stands in or marks a space is drawn from the viewer's view only.
"""

from __future__ import annotations

import re
from dataclasses import replace
from xml.sax.saxutils import escape, quoteattr

from rulecraft.docgen.board_picture import COORDINATE_PROPS, declared_board_svg
from rulecraft.docgen.svg import CELL, NEUTRAL_PIECE, PIECE_COLOURS, Piece, board_svg, tile_svg
from rulecraft.docgen.svg import MARGIN as TILE_MARGIN
from rulecraft.interpreter.state import tile_layouts
from rulecraft.narration import HIDDEN, Words
from rulecraft.screen_words import PAGE

SPOT = {"x", "y", "rotation"}  # an option of a placing choice: where a tile would be laid


def player_colours(players: list[str]) -> dict[str, str]:
    return {p: PIECE_COLOURS[i % len(PIECE_COLOURS)] for i, p in enumerate(players)}


def player_mark(view: dict, player: str) -> str:
    """A short mark for a player's pieces: the first word of its seat properties (x, o)."""
    props = (view["entities"].get(player) or {}).get("props", {})
    word = next((v for v in props.values() if isinstance(v, str) and v), None)
    return (word or player)[:2]


def _owner(ruleset, view: dict, eid: str) -> str | None:
    e = view["entities"].get(eid)
    if e is None:
        return None
    kind = ruleset.data.kinds.get(e["kind"])
    owner_prop = getattr(kind, "owner_property", None) if kind else None
    if owner_prop:
        return e["props"].get(owner_prop)
    # no declared owner: the player a property names, if one does (a pawn's side)
    return next((v for v in e["props"].values() if isinstance(v, str) and v in view["players"]), None)


# The colours of things no player owns, one per kind (in the order the rules declare the
# kinds), apart from the players' colours: things of different kinds look different.
KIND_COLOURS = ["#6b6b6b", "#8c6d31", "#7b4173", "#393b79", "#637939", "#843c39", "#17706e", "#a55194",
                "#5254a3", "#b5651d"]


def kind_colour(ruleset, kind: str) -> str:
    kinds = list(ruleset.data.kinds)
    return KIND_COLOURS[kinds.index(kind) % len(KIND_COLOURS)] if kind in kinds else NEUTRAL_PIECE


def short_label(name: str, players=()) -> str:
    """A thing's mark on the board: the initials of its name's words, numbers and the
    ``players``' ids left out ("Red Dragon 2": RD; "Scout p1": Sc, its owner being told by
    its colour), two letters at most."""
    words = [w for w in re.split(r"[\s_.-]+", re.sub(r"['’]", "", name))
             if w and not w[0].isdigit() and w not in players]
    if len(words) == 1:
        return words[0][:2].capitalize()
    return "".join(w[0] for w in words[:2]).upper() or name[:1].upper()


def piece_title(words: Words, view: dict, eid: str, holder: str | None = None) -> str:
    """A thing's tooltip: its name, with what its properties say (as the seat's view
    shows them)."""
    if eid == HIDDEN:
        return words.name(eid)
    details = words.details(eid, view["entities"].get(eid), holder)
    return f"{words.name(eid)} ({', '.join(details)})" if details else words.name(eid)


def _pieces(ruleset, view: dict, spaces, words: Words) -> list[Piece]:
    colours = player_colours(view["players"])
    out = []
    for space in spaces:
        here = view["zones"].get(space)
        if not isinstance(here, list):
            continue
        for eid in here:
            owner = _owner(ruleset, view, eid)
            # marked as on a board declared whole: by its name's initials, in the page's language
            mark = "?" if eid == HIDDEN else short_label(words.name(eid), view["players"])
            out.append(Piece(eid, space, mark, piece_title(words, view, eid, owner), colours.get(owner, NEUTRAL_PIECE)))
    return out


def board_title(words: Words) -> str:
    """The picture's own title (a tooltip, what a screen reader says), in the page's language."""
    return PAGE.get(words.lang, PAGE["en"])["board_title"]


def tile_terms(ruleset, words: Words):
    """The words of a laid tile's doorways and marks (docgen.svg's ``Term``): a doorway's
    kind and side by the glossary's words for them, an inner door's side by the page's
    word, a room's mark by the glossary's word for that property of the space kind."""
    space_kind = ruleset.data.board.space_kind
    inside = PAGE.get(words.lang, PAGE["en"])["board_inside"]

    def term(what: str, key: str) -> str:
        if what == "side" and key == "inside" and key not in ruleset.data.board.directions:
            return inside
        if what == "flag":
            return words.prop(space_kind, key)
        return words.label(key)
    return term


def board_picture(ruleset, view: dict, label=None, words: Words | None = None) -> str:
    """The board of ``view``; ``label`` words a room type on laid tiles (default: its
    name); ``words`` names spaces and things (default: the rule set's English glossary)."""
    spec = ruleset.data.board
    if spec is None:
        return ""
    if words is None:
        words = Words(ruleset)
        words.know_view(view)
    if spec.kind == "tiles":
        rooms = [z for z in view["zones"] if ruleset.data.zones.get(z.split(":", 1)[0]) is None]
        # its rooms carry data-room, which the page treats as it does data-space
        layouts = tile_layouts(ruleset)
        worded = {"label": label} if label else {}
        worded["term"] = tile_terms(ruleset, words)
        svg = board_svg(spec, layouts, view["tiles"], _pieces(ruleset, view, rooms, words), board_title(words), **worded)
        return _with_spots(spec, layouts, view, svg, worded, words)
    return _declared(ruleset, spec, view, words)


def _with_spots(spec, layouts: dict[str, str], view: dict, svg: str, worded: dict, words: Words) -> str:
    """While a tile is being placed, the board shows where it may go: each free cell an
    option names, outlined (``data-spot="x,y"``), and for each option the tile as it would
    lie there, turned as the option turns it (``data-option``: its index among the
    options), hidden until the page previews that option. The tile is the one the view
    shows on top of a pile; when it shows none, only the cells are outlined."""
    choice = view.get("choice") or {}
    spots = [(i, o) for i, o in enumerate(choice.get("options") or []) if isinstance(o, dict) and set(o) == SPOT]
    if not spots or not view.get("tiles"):
        return svg
    shown = {z.get("top") for z in view["zones"].values() if isinstance(z, dict)}
    tile = next((t for t in shown if t in layouts), None)
    xs = [v[0] for v in view["tiles"].values()]
    ys = [v[1] for v in view["tiles"].values()]
    minx, miny = min(xs), min(ys)

    def corner(x: int, y: int) -> tuple[int, int]:  # as board_svg lays a tile
        return TILE_MARGIN + (x - minx) * CELL, TILE_MARGIN + (y - miny) * CELL
    body = []
    for x, y in dict.fromkeys((o["x"], o["y"]) for _, o in spots):
        x0, y0 = corner(x, y)
        body.append(f'<rect class="spot" data-spot="{x},{y}" x="{x0}" y="{y0}" width="{CELL}" height="{CELL}" '
                    f'fill="#1f77b4" fill-opacity="0.08" stroke="#1f77b4" stroke-width="2" stroke-dasharray="8 5">'
                    f'<title>({x}, {y})</title></rect>')
    if tile is not None:
        picture = tile_svg(spec, layouts[tile], words.name(tile), **worded)
        # the printed tile, its rooms not clickable: they are not on the board yet
        picture = re.sub(r' data-room="[^"]*"', "", picture).replace('class="room"', 'class="ghost-room"')
        for i, o in spots:
            x0, y0 = corner(o["x"], o["y"])
            cx, cy = x0 + CELL / 2, y0 + CELL / 2
            nested = picture.replace("<svg ", f'<svg x="{x0 - TILE_MARGIN}" y="{y0 - TILE_MARGIN}" ', 1)
            body.append(f'<g class="ghost" data-option="{i}" visibility="hidden" opacity="0.75" '
                        f'transform="rotate({o["rotation"]} {cx} {cy})" pointer-events="none">{nested}</g>')
    # the cells may lie beyond the laid tiles: the picture grows to show them
    cells = [corner(o["x"], o["y"]) for _, o in spots] + [corner(x, y) for x, y in zip(xs, ys)]
    left = min(0, min(x for x, _ in cells) - TILE_MARGIN)
    top = min(0, min(y for _, y in cells) - TILE_MARGIN)
    right = max(x for x, _ in cells) + CELL + TILE_MARGIN
    bottom = max(y for _, y in cells) + CELL + TILE_MARGIN
    width, height = right - left, bottom - top
    svg = re.sub(r'width="\d+" height="\d+" viewBox="[^"]*"',
                 f'width="{width}" height="{height}" viewBox="{left} {top} {width} {height}"', svg, count=1)
    end = svg.rindex("</svg>")
    return svg[:end] + "\n".join(body) + "\n" + svg[end:]


def _declared(ruleset, spec, view: dict, words: Words) -> str:
    """A board declared whole, drawn by the rules site's picture code; what stands in or
    marks each space is the view's. Spaces and things are named in the glossary's words:
    a space's label and tooltip, a thing's tooltip, and its mark (its name's initials),
    in its owner's colour, or its kind's when no player owns it."""
    colours = player_colours(view["players"])

    kind = ruleset.data.kinds.get(spec.space_kind)
    declared = kind.properties if kind else {}

    def space_name(name: str) -> str:
        """Its glossary word, else the title the board gives it, else its id in words."""
        word, title = words.name(name), spec.spaces[name].get("title")
        return title if isinstance(title, str) and word == name.replace("_", " ") else word

    def space_title(name: str) -> str:
        """A space's name and what its properties say, but its place on the board and
        what it says by default."""
        entity = view["entities"].get(name) or {}
        shown = {**entity, "props": {k: v for k, v in entity.get("props", {}).items()
                                     if k not in COORDINATE_PROPS and not (k in declared and declared[k].default == v)}}
        details = words.details(name, shown) if entity else []
        return space_name(name) + (f" ({', '.join(details)})" if details else "")

    def inside(name: str, x: float, y: float, half: float) -> list[str]:
        body = []
        entity = view["entities"].get(name) or {}
        marks = [v for v in entity.get("props", {}).values() if isinstance(v, str) and v in colours]
        for i, who in enumerate(marks):
            body.append(f'<circle cx="{x:.1f}" cy="{y + 4 + i * 6:.1f}" r="{half * 0.6:.1f}" '
                        f'fill={quoteattr(colours[who])} class="mark" data-player={quoteattr(who)}/>'
                        f'<text x="{x:.1f}" y="{y + 10 + i * 6:.1f}" text-anchor="middle" font-size="16" '
                        f'fill="#fff" font-weight="bold">{escape(player_mark(view, who))}</text>')
        here = view["zones"].get(name)
        if isinstance(here, list):
            for i, eid in enumerate(here):
                owner = _owner(ruleset, view, eid)
                kind = (view["entities"].get(eid) or {}).get("kind", "")
                if len(here) == 1:  # one piece: in the middle, large
                    px, py, r, size = x, y + 4, half * 0.5, 12
                else:  # three a row, from the bottom up
                    px, py, r, size = x + (i % 3 - 1) * 17, y + half - 12 - (i // 3) * 17, 8, 8
                fill = colours.get(owner) or kind_colour(ruleset, kind)
                who = f" data-player={quoteattr(owner)}" if owner else ""
                piece = "" if eid == HIDDEN else f" data-piece={quoteattr(eid)}"
                body.append(f'<g class="piece"{piece}{who} data-kind={quoteattr(kind)}>'
                            f'<title>{escape(piece_title(words, view, eid, owner))}</title>'
                            f'<circle cx="{px:.1f}" cy="{py:.1f}" r="{r:.1f}" fill={quoteattr(fill)} stroke="#fff"/>'
                            f'<text x="{px:.1f}" y="{py + size * 0.35:.1f}" text-anchor="middle" font-size="{size}" '
                            f'font-family="sans-serif" fill="#fff" font-weight="bold">'
                            f'{escape(short_label(words.name(eid), view["players"]))}</text></g>')
        return body
    svg = declared_board_svg(_worded_connections(spec, words), board_title(words), space_title=space_title,
                             inside=inside, describe=lambda key: _property_word(words, key))
    if spec.kind in ("grid", "hex", "ring"):  # their spaces are labelled by id: by name instead
        for name in spec.spaces:
            word = space_name(name)
            if word != name:
                svg = svg.replace(f'fill="#888">{escape(name)}</text>', f'fill="#888">{escape(word)}</text>', 1)
    return svg


def _property_word(words: Words, key: str) -> str:
    """A connection's property by the glossary's word (``properties.<kind>.<name>``)."""
    _, kind, name = key.split(".", 2)
    return words.prop(kind, name)


def _worded_connections(spec, words: Words):
    """The board with each connection's text values in the glossary's words (the kind of
    a way through), as its picture labels them; the same value, the same word, so that the
    connections of one look still share one colour."""
    def worded(value):
        return words.label(value) if isinstance(value, str) and value else value
    connections = [replace(c, properties={k: worded(v) for k, v in c.properties.items()}) for c in spec.connections]
    return replace(spec, connections=connections)
