"""A board declared whole (grid, hex grid, ring, graph) as SVG, from its spaces and
connections: where each space lies, its shape and title, the connections between
spaces (an arrow on a one-way one; a connection with properties dashed and labelled),
and what stands in each space.

A grid or hex grid lies by its spaces' x and y, a ring by sector and range. A graph
lies by its spaces' x and y when the rule set gives every space both (its space kind
declares them as number properties); otherwise networkx lays it out, each connected
part on its own with a fixed seed, the parts side by side and the lone spaces in rows
below, so the same rule set always gives the same picture.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from xml.sax.saxutils import escape, quoteattr

import networkx as nx

from rulecraft.dsl.model import BoardSpec, ConnectionSpec

from .svg import Piece

SPACE = 64  # distance between neighbouring spaces of a grid or ring, in SVG units
GRAPH_SPACE = 120  # the least distance between two spaces of a laid-out graph: room for titles
MARGIN = 40
ROW = 1100  # how wide a row of graph parts may grow before the next row starts
LAYOUT_SEED = 7
CONNECTION_COLOURS = ["#999999", "#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
COORDINATE_PROPS = ("x", "y", "sector", "range")

Words = Callable[[str], str]
Inside = Callable[[str, float, float, float], list[str]]


def _humanise(word: str) -> str:
    return word.replace("_", " ")


def _has(spaces: dict, *names: str) -> bool:
    return bool(spaces) and all(all(isinstance(p.get(n), (int, float)) for n in names) for p in spaces.values())


def positions(spec: BoardSpec) -> dict[str, tuple[float, float]]:
    """Where each space lies, in SVG units (y grows down), before margins."""
    spaces = spec.spaces
    if spec.kind in ("grid", "hex") and _has(spaces, "x", "y"):
        top = max(p["y"] for p in spaces.values())
        out = {}
        for name, p in spaces.items():
            x, y = p["x"], top - p["y"]  # y grows northwards; the screen's grows down
            if spec.kind == "hex":
                x = x + (top - y) * 0.5  # axial rows lean by half a space
            out[name] = (x * SPACE, y * SPACE * (math.sqrt(3) / 2 if spec.kind == "hex" else 1))
        return out
    if spec.kind == "ring" and _has(spaces, "sector", "range"):
        sectors = max(p["sector"] for p in spaces.values())
        out = {}
        for name, p in spaces.items():
            angle = 2 * math.pi * (p["sector"] - 0.5) / sectors - math.pi / 2
            radius = (p["range"] + 1) * SPACE
            out[name] = (radius * math.cos(angle), radius * math.sin(angle))
        return out
    if _has(spaces, "x", "y"):  # a graph with its own coordinates, y northwards as on a grid
        return {n: (p["x"] * GRAPH_SPACE, -p["y"] * GRAPH_SPACE) for n, p in spaces.items()}
    return _graph_layout(spec)


def _graph_layout(spec: BoardSpec) -> dict[str, tuple[float, float]]:
    graph = nx.Graph()
    graph.add_nodes_from(spec.spaces)
    graph.add_edges_from((c.source, c.target) for c in spec.connections)
    order = {n: i for i, n in enumerate(spec.spaces)}
    parts = sorted((sorted(p, key=order.__getitem__) for p in nx.connected_components(graph)),
                   key=lambda p: (-len(p), order[p[0]]))
    out: dict[str, tuple[float, float]] = {}
    left = top = row_height = 0.0
    lone = [p[0] for p in parts if len(p) == 1]
    for part in (p for p in parts if len(p) > 1):
        sub = nx.Graph()
        sub.add_nodes_from(part)
        sub.add_edges_from(e for e in graph.edges(part))
        laid = nx.spring_layout(sub, seed=LAYOUT_SEED, iterations=300)
        laid = {n: (float(x), float(y)) for n, (x, y) in laid.items()}
        closest = min(math.dist(laid[a], laid[b]) for i, a in enumerate(part) for b in part[i + 1:])
        scale = GRAPH_SPACE / max(closest, 1e-6)
        xs = [x * scale for x, _ in laid.values()]
        ys = [y * scale for _, y in laid.values()]
        width, height = max(xs) - min(xs), max(ys) - min(ys)
        if left and left + width > ROW:
            left, top, row_height = 0.0, top + row_height + GRAPH_SPACE, 0.0
        for n in part:
            out[n] = (round(left + laid[n][0] * scale - min(xs), 1), round(top + laid[n][1] * scale - min(ys), 1))
        left += width + GRAPH_SPACE
        row_height = max(row_height, height)
    if lone:
        top = top + row_height + GRAPH_SPACE if out else 0.0
        per_row = max(1, int(max(ROW, left) // GRAPH_SPACE))
        for i, n in enumerate(lone):
            out[n] = (float((i % per_row) * GRAPH_SPACE), top + (i // per_row) * GRAPH_SPACE * 0.6)
    return {n: out[n] for n in spec.spaces}


def _ways(connections: Iterable[ConnectionSpec]) -> list[tuple[ConnectionSpec, bool]]:
    """Each link once, with whether it is one-way (no connection back with the same properties)."""
    seen: dict[tuple, ConnectionSpec] = {}
    back: set[tuple] = set()
    for c in connections:
        props = tuple(sorted((k, str(v)) for k, v in c.properties.items()))
        key = (c.source, c.target, props)
        if (c.target, c.source, props) in seen:
            back.add((c.target, c.source, props))
        elif key not in seen:
            seen[key] = c
    return [(c, key not in back) for key, c in seen.items()]


def _connection_words(c: ConnectionSpec, describe: Words, kind: str | None) -> str:
    """What a connection's properties say: a yes/no property by its name when set, a text by its value."""
    words = []
    for k, v in c.properties.items():
        if v is True:
            words.append(describe(f"properties.{kind}.{k}") if kind else _humanise(k))
        elif isinstance(v, str) and v:
            words.append(_humanise(v))
        elif v not in (False, None, "", 0, []):
            shown = ", ".join(_humanise(str(x)) for x in v) if isinstance(v, list) else v  # never a list's repr
            words.append(f"{describe(f'properties.{kind}.{k}') if kind else _humanise(k)} {shown}")
    return ", ".join(words)


def declared_board_svg(spec: BoardSpec, title: str, *, pieces: Iterable[Piece] = (), describe: Words | None = None,
                       space_title: Words | None = None, inside: Inside | None = None) -> str:
    """The whole board. ``describe`` words a property by its glossary key
    (``properties.<kind>.<name>``); ``space_title`` gives a space's tooltip (default: its
    title); ``inside`` draws what stands in a space instead of ``pieces``."""
    describe = describe or (lambda key: _humanise(key.rsplit(".", 1)[-1]))
    pos = positions(spec)
    if not pos:
        return ""
    minx = min(x for x, _ in pos.values())
    miny = min(y for _, y in pos.values())
    graph = spec.kind not in ("grid", "hex", "ring")
    margin = MARGIN + (GRAPH_SPACE / 2 if graph else 0)
    pos = {n: (x - minx + margin, y - miny + margin) for n, (x, y) in pos.items()}
    width = max(x for x, _ in pos.values()) + margin
    height = max(y for _, y in pos.values()) + margin
    grid = spec.kind in ("grid", "hex")
    half = SPACE / 2 - 2
    radius = half * 0.8
    body = ['<defs><marker id="one-way" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" '
            'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>']
    if not grid:  # on a grid the squares touch; elsewhere the connections are drawn
        styles: list[str] = []
        for c, one_way in _ways(spec.connections):
            (x1, y1), (x2, y2) = pos[c.source], pos[c.target]
            words = _connection_words(c, describe, spec.connection_kind)
            if words not in styles:
                styles.append(words)
            colour = CONNECTION_COLOURS[styles.index(words) % len(CONNECTION_COLOURS)] if words else "#999999"
            length = math.dist((x1, y1), (x2, y2)) or 1
            # an arrow stops at the edge of the space it points to
            if one_way:
                x2, y2 = x2 - (x2 - x1) * radius / length, y2 - (y2 - y1) * radius / length
            attrs = (f' class="connection{" one-way" if one_way else ""}" data-from={quoteattr(c.source)} '
                     f'data-to={quoteattr(c.target)} stroke={quoteattr(colour)} stroke-width="2"')
            if any(v is True for v in c.properties.values()):
                attrs += ' stroke-dasharray="6 4"'
            if one_way:
                attrs += ' marker-end="url(#one-way)"'
            tip = f"<title>{escape(words)}</title>" if words else ""
            body.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"{attrs}>{tip}</line>')
            if words:
                mx, my = (x1 + x2) / 2, (y1 + y2) / 2
                body.append(f'<text class="connection-label" x="{mx:.1f}" y="{my - 4:.1f}" text-anchor="middle" '
                            f'font-size="10" font-family="sans-serif" fill={quoteattr(colour)}>{escape(words)}</text>')
    by_space: dict[str, list[Piece]] = {}
    for p in pieces:
        if p.room in pos:
            by_space.setdefault(p.room, []).append(p)
    for name, (x, y) in pos.items():
        props = spec.spaces[name]
        shown = props.get("title") if isinstance(props.get("title"), str) else None
        tip = space_title(name) if space_title else (shown or _humanise(name))
        body.append(f'<g class="space" data-space={quoteattr(name)}><title>{escape(tip)}</title>')
        if spec.kind == "hex":  # pointy-top hexagons that tile at this spacing
            r = SPACE / math.sqrt(3)
            corners = " ".join(f"{x + r * math.cos(math.radians(60 * k - 30)):.1f},"
                               f"{y + r * math.sin(math.radians(60 * k - 30)):.1f}" for k in range(6))
            body.append(f'<polygon points="{corners}" fill="#f4f1e8" stroke="#333"/>')
        elif grid:
            body.append(f'<rect x="{x - half:.1f}" y="{y - half:.1f}" width="{2 * half:.1f}" height="{2 * half:.1f}" '
                        f'rx="4" fill="#f4f1e8" stroke="#333"/>')
        else:
            body.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" fill="#f4f1e8" stroke="#333"/>')
        if graph:  # a graph's spaces are named by their titles, under them
            body.append(f'<text class="space-label" x="{x:.1f}" y="{y + radius + 13:.1f}" text-anchor="middle" '
                        f'font-size="12" font-family="sans-serif" fill="#222">{escape(shown or _humanise(name))}</text>')
        else:
            label_y = y - SPACE / math.sqrt(3) + 18 if spec.kind == "hex" else y - half + 12
            label_x = x - 8 if spec.kind == "hex" else x - half + 4
            body.append(f'<text x="{label_x:.1f}" y="{label_y:.1f}" font-size="10" fill="#888">{escape(name)}</text>')
        if inside is not None:
            body += inside(name, x, y, half)
        else:
            here = by_space.get(name, [])
            for i, p in enumerate(here):
                px = x - (min(len(here), 3) - 1) * 10 + (i % 3) * 20
                py = y - (min((len(here) - 1) // 3, 1)) * 9 + (i // 3) * 18
                body.append(f'<g class="piece" data-piece={quoteattr(p.id)}><title>{escape(p.title)}</title>'
                            f'<circle cx="{px:.1f}" cy="{py:.1f}" r="9" fill={quoteattr(p.colour)} stroke="#fff"/>'
                            f'<text x="{px:.1f}" y="{py + 4:.1f}" text-anchor="middle" font-size="9" '
                            f'font-family="sans-serif" fill="#fff">{escape(p.mark)}</text></g>')
        body.append("</g>")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="rulecraft-board" viewBox="0 0 {width:.0f} {height:.0f}" '
            f'width="{width:.0f}" height="{height:.0f}" role="img"><title>{escape(title)}</title>' + "".join(body) + "</svg>")
