"""SVG pictures drawn from a rule set's board data: one tile with its doors, and a
whole board (placed tiles, the doors between rooms, the pieces in them; or a ring
board's sectors and ranges with the pieces in them).

Everything comes from the board spec (directions, layouts, edge kinds) and, for a
board, from the interpreter's board graph, so a picture shows what the engine plays.
Tiles are drawn as squares on a square grid; a tile's rooms are bands along the
direction of the links between them. Pure string generation: no drawing library.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from rulecraft.dsl.model import BoardSpec, LayoutSpec

CELL = 120  # side of a tile, in SVG user units
WALL = 5  # wall stroke width
DOOR = 0.38  # a doorway's share of the side it is on
MARGIN = 12

# Edge kinds are the rule set's own words; these colours only tell the doorway kinds
# apart (the first doorway kind, the others, walls).
DOORWAY_COLOURS = ["#2e9e4f", "#e07b00", "#7a4fd0", "#0077aa"]
ROOM_FILL = "#f4f1e8"
FLAGGED_FILL = "#fff7d6"  # a room with a yes/no mark of its layout set (the rule set's own word)
WALL_COLOUR = "#333333"
PIECE_COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#e6b800", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"]
NEUTRAL_PIECE = "#555555"

Label = Callable[[str], str]
# The words of a doorway's tooltip and of a room's marks: (what, id) → its word, what being
# "edge" (a doorway's kind), "side" (a direction, or "inside" for an inner door) or "flag"
# (a yes/no mark a layout sets on a room). Default: the id in words.
Term = Callable[[str, str], str]


def _humanise(word: str) -> str:
    return word.replace("_", " ")


def _term(what: str, key: str) -> str:
    return _humanise(key)


@dataclass
class _Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.w / 2, self.y + self.h / 2


def _attrs(**attrs) -> str:
    return "".join(f" {k.rstrip('_').replace('_', '-')}={quoteattr(str(v))}" for k, v in attrs.items() if v is not None)


def _unit(spec: BoardSpec, direction: str) -> tuple[int, int]:
    dx, dy = spec.directions[direction]
    return (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)


def room_rects(spec: BoardSpec, layout: LayoutSpec, x0: float = 0, y0: float = 0) -> dict[str, _Rect]:
    """Where each room of a tile lies, in the tile's printed (unrotated) frame.

    One room fills the tile. Several rooms are bands, stacked along the direction of
    the tile's first internal link (a link going south stacks them top to bottom)."""
    rooms = list(layout.rooms)
    if len(rooms) == 1:
        return {rooms[0]: _Rect(x0, y0, CELL, CELL)}
    if _cut_sides(layout) and len(rooms) <= 9:
        return _rooms_by_sides(spec, layout, x0, y0)
    ux, uy = (0, 1)
    order = rooms
    if layout.links:
        link = layout.links[0]
        ux, uy = _unit(spec, link["direction"])
        # Follow the links from the room that no link enters, so bands keep their order.
        after = {lk["from"]: lk["to"] for lk in layout.links}
        start = next((r for r in rooms if r not in after.values()), rooms[0])
        order = [start]
        while after.get(order[-1]) is not None and after[order[-1]] not in order:
            order.append(after[order[-1]])
        order += [r for r in rooms if r not in order]
        if ux < 0 or uy < 0:
            order.reverse()
            ux, uy = abs(ux), abs(uy)
    n = len(order)
    out = {}
    for i, room in enumerate(order):
        if ux:
            out[room] = _Rect(x0 + i * CELL / n, y0, CELL / n, CELL)
        else:
            out[room] = _Rect(x0, y0 + i * CELL / n, CELL, CELL / n)
    return out


def _cut_sides(layout: LayoutSpec) -> bool:
    return any(len(side.parts) > 1 for side in layout.sides.values())


def _rooms_by_sides(spec: BoardSpec, layout: LayoutSpec, x0: float, y0: float) -> dict[str, _Rect]:
    """Rooms of a tile whose sides are cut into parts (a road between two verges), each in
    the cell of a 3 × 3 grid nearest the middle of the stretches it lies along: the road
    across the middle, a verge along its side, a field inside a bend in its corner. Rooms
    along fewer stretches choose first, and of those the farther from the middle, so that a
    corner's small field keeps the corner."""
    third = CELL / 3
    tile = _Rect(x0, y0, CELL, CELL)
    along: dict[str, list[tuple[float, float]]] = {r: [] for r in layout.rooms}
    for direction, side in layout.sides.items():
        if direction not in spec.directions:
            continue
        ux, uy = _unit(spec, direction)
        for (a, b, c, d), part in zip(_stretches(_segment(tile, ux, uy), ux, uy, len(side.parts)), side.parts):
            for room in part.rooms:
                if room in along:
                    along[room].append(((a + c) / 2, (b + d) / 2))
    def middle(room: str) -> tuple[float, float]:
        points = along[room] or [tile.centre]
        return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)

    def off_centre(room: str) -> float:
        x, y = middle(room)
        return (x - tile.centre[0]) ** 2 + (y - tile.centre[1]) ** 2

    free = [(i, j) for j in range(3) for i in range(3)]
    rooms = list(layout.rooms)
    out = {}
    for room in sorted(rooms, key=lambda r: (len(along[r]), -off_centre(r), rooms.index(r))):
        cx, cy = middle(room)
        cell = min(free, key=lambda c: (x0 + (c[0] + 0.5) * third - cx) ** 2 + (y0 + (c[1] + 0.5) * third - cy) ** 2)
        free.remove(cell)
        out[room] = _Rect(x0 + cell[0] * third, y0 + cell[1] * third, third, third)
    return {r: out[r] for r in rooms}


def _segment(rect: _Rect, ux: int, uy: int) -> tuple[float, float, float, float]:
    """The side of a rectangle facing (ux, uy), as x1, y1, x2, y2."""
    if uy < 0:
        return rect.x, rect.y, rect.x + rect.w, rect.y
    if uy > 0:
        return rect.x, rect.y + rect.h, rect.x + rect.w, rect.y + rect.h
    if ux > 0:
        return rect.x + rect.w, rect.y, rect.x + rect.w, rect.y + rect.h
    return rect.x, rect.y, rect.x, rect.y + rect.h


def _door_colour(spec: BoardSpec, edge: str) -> str:
    # the doorways by the edges that are doorways, then those that are only connections (a
    # link inside a tile is drawn by its connection: an edge name need not be one)
    doorways = [e for e in spec.edges if e in spec.doorways]
    doorways += sorted(d for d in spec.doorways if d not in doorways)
    return DOORWAY_COLOURS[doorways.index(edge) % len(DOORWAY_COLOURS)]


def _side(spec: BoardSpec, seg, edge: str, *, side: str, term: Term = _term) -> list[str]:
    """A wall, or a wall with a doorway of the given kind in its middle."""
    x1, y1, x2, y2 = seg
    if edge not in spec.doorways:
        return [f"<line{_attrs(x1=x1, y1=y1, x2=x2, y2=y2, class_='wall', data_side=side)}"
                f" stroke={quoteattr(WALL_COLOUR)} stroke-width=\"{WALL}\" stroke-linecap=\"square\"/>"]
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    hx, hy = (x2 - x1) * DOOR / 2, (y2 - y1) * DOOR / 2
    out = [f"<line{_attrs(x1=x1, y1=y1, x2=mx - hx, y2=my - hy, class_='wall')} stroke={quoteattr(WALL_COLOUR)} stroke-width=\"{WALL}\"/>",
           f"<line{_attrs(x1=mx + hx, y1=my + hy, x2=x2, y2=y2, class_='wall')} stroke={quoteattr(WALL_COLOUR)} stroke-width=\"{WALL}\"/>"]
    # Every doorway shows as a coloured bar across the gap; its kind is also in the
    # class and the tooltip, for readers who cannot tell the colours apart.
    out.append(f"<line{_attrs(x1=mx - hx, y1=my - hy, x2=mx + hx, y2=my + hy, class_=f'door door-{edge}', data_side=side, data_edge=edge)}"
               f" stroke={quoteattr(_door_colour(spec, edge))} stroke-width=\"{WALL + 3}\">"
               f"<title>{escape(term('edge', edge))} {escape(term('side', side))}</title></line>")
    return out


def _span(rects: list[_Rect], ux: int, uy: int) -> tuple[float, float, float, float]:
    """The outer side facing (ux, uy) of the union of some rooms of a tile."""
    segs = [_segment(r, ux, uy) for r in rects]
    xs = [s[0] for s in segs] + [s[2] for s in segs]
    ys = [s[1] for s in segs] + [s[3] for s in segs]
    if uy:
        y = max(ys) if uy > 0 else min(ys)
        return min(xs), y, max(xs), y
    x = max(xs) if ux > 0 else min(xs)
    return x, min(ys), x, max(ys)


def _stretches(seg, ux: int, uy: int, n: int) -> list[tuple[float, float, float, float]]:
    """A tile's side cut into n equal stretches, clockwise around the tile (on screen, y
    grows downwards: the side facing north runs west to east, the one facing east north
    to south), as the layout lists its parts."""
    x1, y1, x2, y2 = seg
    along = (-uy, ux)  # clockwise along the side facing (ux, uy)
    if (x2 - x1) * along[0] + (y2 - y1) * along[1] < 0:
        x1, y1, x2, y2 = x2, y2, x1, y1
    dx, dy = (x2 - x1) / n, (y2 - y1) / n
    return [(x1 + i * dx, y1 + i * dy, x1 + (i + 1) * dx, y1 + (i + 1) * dy) for i in range(n)]


def _tile_body(spec: BoardSpec, layout: LayoutSpec, x0: float, y0: float, label: Label, room_ids: dict[str, str] | None = None,
               term: Term = _term) -> list[str]:
    rects = room_rects(spec, layout, x0, y0)
    out = []
    if _cut_sides(layout):  # the rooms are cells of the tile: the rest of it is land too
        out.append(f"<rect{_attrs(x=x0, y=y0, width=CELL, height=CELL, class_='ground')} fill={quoteattr(ROOM_FILL)}/>")
    for name, r in rects.items():
        info = layout.rooms[name] or {}
        rtype = info.get("type", name)
        fill = FLAGGED_FILL if _flags(info) else ROOM_FILL
        rid = (room_ids or {}).get(name)
        out.append(f"<rect{_attrs(x=r.x, y=r.y, width=r.w, height=r.h, class_='room', data_room=rid or name, data_type=rtype)}"
                   f" fill={quoteattr(fill)}><title>{escape(label(rtype))}</title></rect>")
    for direction in spec.directions:
        side = layout.sides.get(direction)
        if side is None:
            continue
        ux, uy = _unit(spec, direction)
        if len(side.parts) == 1 and not _cut_sides(layout):
            touching = [rects[r] for r in side.rooms if r in rects] or list(rects.values())
            out += _side(spec, _span(touching, ux, uy), side.parts[0].edge, side=direction, term=term)
            continue
        whole = _segment(_Rect(x0, y0, CELL, CELL), ux, uy)
        for seg, part in zip(_stretches(whole, ux, uy, len(side.parts)), side.parts):
            out += _side(spec, seg, part.edge, side=direction, term=term)
    for link in layout.links:
        # An inner door sits on the side of the first room that faces the second.
        conn = link["connection"]
        seg = _segment(rects[link["from"]], *_unit(spec, link["direction"]))
        out += _side(spec, seg, conn if conn in spec.doorways else "wall", side="inside", term=term)
    return out


def _labels(spec: BoardSpec, layout: LayoutSpec, x0: float, y0: float, rotation: int, label: Label,
            term: Term = _term) -> list[str]:
    """Room names, written upright whatever the tile's rotation."""
    out = []
    for name, r in room_rects(spec, layout, x0, y0).items():
        info = layout.rooms[name] or {}
        cx, cy = _rotate_point(r.centre, (x0 + CELL / 2, y0 + CELL / 2), rotation)
        words = label(info.get("type", name)).split()
        lines = _wrap(words, 6 if _cut_sides(layout) else 12)  # a room of a cut tile is a third as wide
        flags = _flags(info)
        top = cy - (len(lines) - 1) * 7 - (8 if flags else 0)
        for i, line in enumerate(lines):
            out.append(f"<text{_attrs(x=round(cx, 1), y=round(top + i * 14, 1), class_='room-label')}"
                       f" text-anchor=\"middle\" font-size=\"12\" font-family=\"sans-serif\" fill=\"#222\">{escape(line)}</text>")
        if flags:
            out.append(f"<circle{_attrs(cx=round(cx, 1), cy=round(top + len(lines) * 14 - 2, 1), r=5, class_='flag')}"
                       f" fill=\"#c9a400\"><title>{escape(', '.join(term('flag', f) for f in flags))}</title></circle>")
    return out


def _flags(info: dict) -> list[str]:
    """The yes/no marks a layout sets on a room (printed symbols, say), by their names."""
    return [k for k, v in info.items() if v is True]


def _wrap(words: list[str], width: int) -> list[str]:
    lines: list[str] = []
    for w in words:
        if lines and len(lines[-1]) + 1 + len(w) <= width:
            lines[-1] += " " + w
        else:
            lines.append(w)
    return lines or [""]


def _rotate_point(p, centre, degrees: int):
    # Quarter turns only; clockwise on screen (y grows downwards), as the board rotates.
    x, y = p[0] - centre[0], p[1] - centre[1]
    for _ in range((degrees // 90) % 4):
        x, y = -y, x
    return centre[0] + x, centre[1] + y


def _svg(width: float, height: float, title: str, body: list[str], css_class: str) -> str:
    return (f"<svg xmlns=\"http://www.w3.org/2000/svg\"{_attrs(width=int(width), height=int(height), viewBox=f'0 0 {int(width)} {int(height)}', class_=css_class)}"
            f" role=\"img\"><title>{escape(title)}</title>\n" + "\n".join(body) + "\n</svg>\n")


def tile_svg(spec: BoardSpec, layout_name: str, title: str | None = None, label: Label = _humanise,
             term: Term = _term) -> str:
    """One tile as printed: its rooms, its walls and doorways, and its inner doors."""
    layout = spec.layouts[layout_name]
    x0 = y0 = MARGIN
    body = [f"<rect{_attrs(x=x0, y=y0, width=CELL, height=CELL, class_='tile', data_layout=layout_name)} fill=\"none\" stroke=\"#999\"/>"]
    body += _tile_body(spec, layout, x0, y0, label, term=term)
    body += _labels(spec, layout, x0, y0, 0, label, term)
    return _svg(CELL + 2 * MARGIN, CELL + 2 * MARGIN, title or _humanise(layout_name), body, "rulecraft-tile")


@dataclass
class Piece:
    """Something standing in a room: its id, a short mark, a tooltip and its colour."""

    id: str
    room: str
    mark: str
    title: str
    colour: str = NEUTRAL_PIECE


def board_svg(spec: BoardSpec, tile_layouts: dict[str, str], tiles: dict[str, list[int]], pieces: list[Piece],
              title: str, label: Label = _humanise, term: Term = _term) -> str:
    """Placed tiles (id → [x, y, rotation]) with their doors, and the pieces in their rooms."""
    if not tiles:
        return _svg(2 * MARGIN + CELL, 2 * MARGIN + 20, title,
                    [f"<text x=\"{MARGIN}\" y=\"{MARGIN + 10}\" font-size=\"12\" font-family=\"sans-serif\">—</text>"],
                    "rulecraft-board")
    xs = [v[0] for v in tiles.values()]
    ys = [v[1] for v in tiles.values()]
    minx, miny = min(xs), min(ys)
    width = (max(xs) - minx + 1) * CELL + 2 * MARGIN
    height = (max(ys) - miny + 1) * CELL + 2 * MARGIN
    body: list[str] = []
    centres: dict[str, tuple[float, float]] = {}
    below: dict[str, float] = {}  # how far under a room's centre its pieces stand
    labels: list[str] = []
    for tile, (x, y, rot) in tiles.items():
        layout = spec.layouts[tile_layouts[tile]]
        x0, y0 = MARGIN + (x - minx) * CELL, MARGIN + (y - miny) * CELL
        ids = {r: f"{tile}/{r}" for r in layout.rooms}
        body.append(f"<g{_attrs(class_='tile', data_tile=tile, transform=f'rotate({rot} {x0 + CELL / 2} {y0 + CELL / 2})')}>")
        body += _tile_body(spec, layout, x0, y0, label, ids, term)
        body.append("</g>")
        labels += _labels(spec, layout, x0, y0, rot, label, term)
        for name, r in room_rects(spec, layout, x0, y0).items():
            centres[ids[name]] = _rotate_point(r.centre, (x0 + CELL / 2, y0 + CELL / 2), rot)
            if _cut_sides(layout):  # a room a third of the tile: its pieces just under its label
                below[ids[name]] = 14
    body += labels
    by_room: dict[str, list[Piece]] = {}
    for p in pieces:
        if p.room in centres:
            by_room.setdefault(p.room, []).append(p)
    for room, here in by_room.items():
        cx, cy = centres[room]
        per_row = 4
        for i, p in enumerate(here):
            px = cx - (min(len(here), per_row) - 1) * 11 + (i % per_row) * 22
            py = cy + below.get(room, 22) + (i // per_row) * 20
            body.append(f"<g{_attrs(class_='piece', data_piece=p.id)}><title>{escape(p.title)}</title>"
                        f"<circle{_attrs(cx=round(px, 1), cy=round(py, 1), r=9)} fill={quoteattr(p.colour)} stroke=\"#fff\"/>"
                        f"<text{_attrs(x=round(px, 1), y=round(py + 4, 1))} text-anchor=\"middle\" font-size=\"10\""
                        f" font-family=\"sans-serif\" fill=\"#fff\">{escape(p.mark)}</text></g>")
    return _svg(width, height, title, body, "rulecraft-board")


RING_BAND = 46  # width of one range of a ring board
RING_HUB = 30  # radius of the empty middle of a ring board


def _ring_point(sector: float, radius: float, sectors: int, centre: float) -> tuple[float, float]:
    """Sector 1 starts at the top; sectors run clockwise, as the ring's 'clockwise'."""
    angle = math.radians(sector * 360 / sectors)
    return round(centre + radius * math.sin(angle), 1), round(centre - radius * math.cos(angle), 1)


def ring_svg(spec: BoardSpec, pieces: list[Piece], title: str) -> str:
    """A ring board: its ranges as bands around an empty middle, its sectors as wedges
    numbered clockwise, and the pieces in each space."""
    places = {name: (props["sector"], props["range"]) for name, props in spec.spaces.items()}
    sectors = max(s for s, _ in places.values())
    ranges = max(r for _, r in places.values())
    outer = RING_HUB + ranges * RING_BAND
    centre = MARGIN + outer + 14
    size = 2 * centre
    body = [f"<circle{_attrs(cx=centre, cy=centre, r=RING_HUB + r * RING_BAND)} fill=\"none\" stroke=\"#999\"/>"
            for r in range(ranges, 0, -1)]
    body.append(f"<circle{_attrs(cx=centre, cy=centre, r=RING_HUB)} fill=\"none\" stroke=\"#999\"/>")
    for s in range(sectors):
        x1, y1 = _ring_point(s, RING_HUB, sectors, centre)
        x2, y2 = _ring_point(s, outer, sectors, centre)
        body.append(f"<line{_attrs(x1=x1, y1=y1, x2=x2, y2=y2)} stroke=\"#999\"/>")
        tx, ty = _ring_point(s + 0.5, outer + 8, sectors, centre)
        body.append(f"<text{_attrs(x=tx, y=ty + 4)} text-anchor=\"middle\" font-size=\"11\" font-family=\"sans-serif\""
                    f" fill=\"#666\">{s + 1}</text>")
    by_space: dict[str, list[Piece]] = {}
    for p in pieces:
        if p.room in places:
            by_space.setdefault(p.room, []).append(p)
    for space, here in by_space.items():
        sector, band = places[space]
        for i, p in enumerate(here):
            spread = (i - (len(here) - 1) / 2) * 0.22  # side by side across the wedge
            px, py = _ring_point(sector - 0.5 + spread, RING_HUB + (band - 0.5) * RING_BAND, sectors, centre)
            body.append(f"<g{_attrs(class_='piece', data_piece=p.id)}><title>{escape(p.title)}</title>"
                        f"<circle{_attrs(cx=px, cy=py, r=9)} fill={quoteattr(p.colour)} stroke=\"#fff\"/>"
                        f"<text{_attrs(x=px, y=round(py + 4, 1))} text-anchor=\"middle\" font-size=\"9\""
                        f" font-family=\"sans-serif\" fill=\"#fff\">{escape(p.mark)}</text></g>")
    return _svg(size, size, title, body, "rulecraft-board")
