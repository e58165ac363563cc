"""The board of a view as SVG: laid tiles through the rules site's picture code, a board
declared whole (grid, hex grid, ring, graph) from its spaces and connections.

Every space carries ``data-space`` so the page can offer the options naming it; what
stands in or marks a space is drawn from the viewer's view only.
"""

from __future__ import annotations

import math
import re
from xml.sax.saxutils import escape, quoteattr

from rulecraft.docgen.svg import CELL, PIECE_COLOURS, Piece, board_svg, tile_svg
from rulecraft.docgen.svg import MARGIN as TILE_MARGIN
from rulecraft.interpreter.state import tile_layouts

SPOT = {"x", "y", "rotation"}  # an option of a placing choice: where a tile would be laid

SPACE = 64  # distance between neighbouring spaces, in SVG units
MARGIN = 40


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


def _pieces(ruleset, view: dict, spaces) -> list[Piece]:
    colours = player_colours(view["players"])
    out = []
    for space in spaces:
        here = view["zones"].get(space)
        if not isinstance(here, list):
            continue
        for eid in here:
            owner = _owner(ruleset, view, eid)
            kind = (view["entities"].get(eid) or {}).get("kind", "")
            out.append(Piece(eid, space, (kind or eid)[:1].upper(), eid, colours.get(owner, "#555555")))
    return out


def board_picture(ruleset, view: dict, label=None) -> str:
    """The board of ``view``; ``label`` words a room type on laid tiles (default: its name)."""
    spec = ruleset.data.board
    if spec is None:
        return ""
    if spec.kind == "tiles":
        rooms = [z for z in view["zones"] if ruleset.data.zones.get(z.split(":", 1)[0]) is None]
        # its rooms carry data-room, which the page treats as it does data-space
        layouts = tile_layouts(ruleset)
        worded = {"label": label} if label else {}
        svg = board_svg(spec, layouts, view["tiles"], _pieces(ruleset, view, rooms), "the board", **worded)
        return _with_spots(spec, layouts, view, svg, worded)
    return _declared(ruleset, spec, view)


def _with_spots(spec, layouts: dict[str, str], view: dict, svg: str, worded: dict) -> str:
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
        picture = tile_svg(spec, layouts[tile], **worded)
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


def _positions(spec) -> dict[str, tuple[float, float]]:
    spaces = spec.spaces
    if spec.kind in ("grid", "hex") and all("x" in p and "y" in p for p in spaces.values()):
        top = max(p["y"] for p in spaces.values())
        out = {}
        for name, p in spaces.items():
            x, y = p["x"], top - p["y"]  # y grows northwards; the screen's grows down
            if spec.kind == "hex":
                x = x + (top - y) * 0.5  # axial rows lean by half a space
            out[name] = (x * SPACE, y * SPACE * (math.sqrt(3) / 2 if spec.kind == "hex" else 1))
        return out
    if spec.kind == "ring" and all("sector" in p and "range" in p for p in spaces.values()):
        sectors = max(p["sector"] for p in spaces.values())
        out = {}
        for name, p in spaces.items():
            angle = 2 * math.pi * (p["sector"] - 0.5) / sectors - math.pi / 2
            radius = (p["range"] + 1) * SPACE
            out[name] = (radius * math.cos(angle), radius * math.sin(angle))
        return out
    names = list(spaces)  # a graph: its spaces on a circle, in declared order
    radius = max(SPACE, SPACE * len(names) / (2 * math.pi))
    return {n: (radius * math.cos(2 * math.pi * i / len(names) - math.pi / 2),
                radius * math.sin(2 * math.pi * i / len(names) - math.pi / 2)) for i, n in enumerate(names)}


def _declared(ruleset, spec, view: dict) -> str:
    pos = _positions(spec)
    if not pos:
        return ""
    minx = min(x for x, _ in pos.values())
    miny = min(y for _, y in pos.values())
    pos = {n: (x - minx + MARGIN, y - miny + MARGIN) for n, (x, y) in pos.items()}
    width = max(x for x, _ in pos.values()) + MARGIN
    height = max(y for _, y in pos.values()) + MARGIN
    colours = player_colours(view["players"])
    grid = spec.kind in ("grid", "hex")
    body = []
    if not grid:  # on a grid the squares touch; elsewhere the connections are drawn
        drawn = set()
        for c in spec.connections:
            key = tuple(sorted((c.source, c.target)))
            if key in drawn:
                continue
            drawn.add(key)
            (x1, y1), (x2, y2) = pos[c.source], pos[c.target]
            body.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#999"/>')
    half = SPACE / 2 - 2
    for name, (x, y) in pos.items():
        entity = view["entities"].get(name) or {}
        marks = [v for v in entity.get("props", {}).values() if isinstance(v, str) and v in colours]
        title = name + "".join(f", {k} {v}" for k, v in entity.get("props", {}).items()
                               if k not in ("x", "y", "sector", "range") and v is not None)
        body.append(f'<g class="space" data-space={quoteattr(name)}><title>{escape(title)}</title>')
        if spec.kind == "hex":  # pointy-top hexagons that tile at this spacing
            r = SPACE / math.sqrt(3)
            corners = " ".join(f"{x + r * math.cos(math.radians(60 * k - 30)):.1f},"
                               f"{y + r * math.sin(math.radians(60 * k - 30)):.1f}" for k in range(6))
            body.append(f'<polygon points="{corners}" fill="#f4f1e8" stroke="#333"/>')
        elif grid:
            body.append(f'<rect x="{x - half:.1f}" y="{y - half:.1f}" width="{2 * half:.1f}" height="{2 * half:.1f}" '
                        f'rx="4" fill="#f4f1e8" stroke="#333"/>')
        else:
            body.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{half * 0.8:.1f}" fill="#f4f1e8" stroke="#333"/>')
        label_y = y - SPACE / math.sqrt(3) + 18 if spec.kind == "hex" else y - half + 12
        label_x = x - 8 if spec.kind == "hex" else x - half + 4
        body.append(f'<text x="{label_x:.1f}" y="{label_y:.1f}" font-size="10" fill="#888">{escape(name)}</text>')
        for i, who in enumerate(marks):
            body.append(f'<circle cx="{x:.1f}" cy="{y + 4 + i * 6:.1f}" r="{half * 0.6:.1f}" '
                        f'fill={quoteattr(colours[who])} class="mark" data-player={quoteattr(who)}/>'
                        f'<text x="{x:.1f}" y="{y + 10 + i * 6:.1f}" text-anchor="middle" font-size="16" '
                        f'fill="#fff" font-weight="bold">{escape(player_mark(view, who))}</text>')
        here = view["zones"].get(name)
        if isinstance(here, list):
            for i, eid in enumerate(here):
                owner = _owner(ruleset, view, eid)
                if len(here) == 1:  # one piece: in the middle, large
                    px, py, r = x, y + 4, half * 0.5
                else:
                    px, py, r = x - half + 10 + (i % 4) * 14, y + half - 10 - (i // 4) * 14, 6
                body.append(f'<circle class="piece" cx="{px:.1f}" cy="{py:.1f}" r="{r:.1f}" '
                            f'fill={quoteattr(colours.get(owner, "#555"))} data-player={quoteattr(owner or "")}>'
                            f'<title>{escape(eid)}</title></circle>')
        body.append("</g>")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="rulecraft-board" viewBox="0 0 {width:.0f} {height:.0f}" '
            f'width="{width:.0f}" height="{height:.0f}" role="img"><title>the board</title>' + "".join(body) + "</svg>")
