"""The board of a view as a few lines of text for an 80-column terminal.

Laid tiles become a small grid of cells (a short name of each tile's space, a star where
the viewer has a piece, how many pieces stand there) joined by the first letter of the
connection between neighbours; a grid or hex board becomes its squares with what marks
them; a ring becomes its ranges by sectors; any other board lists its occupied spaces.
A map taller or wider than it may be is cut to the part around the viewer's pieces,
and says so. Every word comes from the rule set through :class:`~rulecraft.narration.Words`.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

from rulecraft.interpreter.board import Board, Geometry
from rulecraft.interpreter.state import tile_layouts

CELL = 7  # characters of a tile's short name


@dataclass
class MapText:
    lines: list[str]
    cut: bool = False  # only part of the board is shown
    legend: list[str] = field(default_factory=list)
    # a grid wider than the screen is read in strips: where its columns start and how wide each is
    margin: int = 0
    column: int = 0


def short_names(names: list[str]) -> dict[str, str]:
    """The shortest unique prefix of each name (open → o, security → s)."""
    out = {}
    for name in names:
        for n in range(1, len(name) + 1):
            if sum(1 for other in names if other.startswith(name[:n])) == 1:
                out[name] = name[:n]
                break
        else:
            out[name] = name
    return out


def owned_pieces(ruleset, view: dict, player: str) -> list[str]:
    """The viewer's pieces on the board: entities their kind says ``player`` owns, in a space."""
    out = []
    for eid, e in view["entities"].items():
        kind = ruleset.data.kinds.get(e["kind"])
        owner = kind.owner_property if kind else None
        if owner and e["props"].get(owner) == player and e["at"] and ruleset.data.zones.get(
                e["at"].split(":", 1)[0]) is None:
            out.append(eid)
    return out


def _count(here) -> int:
    return len(here) if isinstance(here, list) else (here or {}).get("count", 0)


def _abbreviation(name: str) -> str:
    """A space's name in a few letters: its capitalised words run together (a trailing
    common noun such as "room" adds nothing), else its first letters."""
    words = name.split(" (")[0].split()
    proper = [w for w in words if w[:1].isupper()] or words
    return "".join(proper)[:CELL]


def board_lines(ruleset, view: dict, words, ui: dict, *, width: int = 80, max_lines: int = 9,
                whole: bool = False, details: bool = True) -> MapText:
    """The board in ``max_lines`` (``whole``: all of it); ``details``: the pieces a
    board lists with what their properties say, where that fits."""
    spec = ruleset.data.board
    if spec is None:
        return MapText([])
    if spec.kind == "tiles":
        return _tiles(ruleset, view, words, ui, width, max_lines, whole)
    if spec.kind in ("grid", "hex") and all("x" in (view["entities"].get(s) or {}).get("props", {})
                                           for s in spec.spaces):
        return _squares(ruleset, view, words, width, max_lines, whole)
    if spec.kind == "ring" and all("sector" in (view["entities"].get(s) or {}).get("props", {})
                                   for s in spec.spaces):
        return _ring(ruleset, view, words, width, max_lines, whole, details)
    return _listed(ruleset, view, words, list(spec.spaces), width, max_lines, whole, details)


# ------------------------------------------------------------------ laid tiles
def _tiles(ruleset, view, words, ui, width, max_lines, whole) -> MapText:
    spec = ruleset.data.board
    if not view["tiles"]:
        return MapText([])
    board = Board(Geometry(spec, tile_layouts(ruleset)), view["tiles"])
    cells = {(x, y): t for t, (x, y, _) in view["tiles"].items()}
    mine_at = {view["entities"][e]["at"] for e in owned_pieces(ruleset, view, view["viewer"])}
    # the first declared direction points up the screen
    first = next(iter(spec.directions.values()))
    down = 1 if first[1] < 0 else -1
    step = {d: (dx, dy) for d, (dx, dy) in spec.directions.items()}
    right = next((d for d, v in step.items() if v == (1, 0)), None)
    below = next((d for d, v in step.items() if v == (0, down)), None)
    kinds = sorted({c for c in spec.joins.values() if c and c != "none"})
    # sides cut into parts (a road between two verges): a tile is told by what the middle
    # of each of its sides is, in the board's order of directions, as laid ("crff": city
    # north, road east, fields south and west), and a link by the middle parts' join
    cut = any(len(side.parts) > 1 for layout in spec.layouts.values() for side in layout.sides.values())
    if cut:
        kinds = sorted(set(kinds) | set(spec.edges))
    letter = short_names(kinds)

    def middle(parts):
        return parts[len(parts) // 2]

    def sides_of(tile: str) -> str:
        rot = view["tiles"][tile][2]
        return "".join(letter.get(middle(board.geo.parts(tile, d, rot))[0], "?")[:1] for d in board.geo.direction_names)

    def link(a: tuple, b: tuple) -> str:
        ta, tb = cells.get(a), cells.get(b)
        if ta is None or tb is None:
            return " "
        if cut:
            d = next(d for d, v in step.items() if v == (b[0] - a[0], b[1] - a[1]))
            (edge, _), (other, _) = middle(board.geo.facing(ta, d, view["tiles"][ta][2], tb, view["tiles"][tb][2]))
            kind = spec.joins.get((edge, other))
            return letter.get(kind, kind)[:1] if kind and kind != "none" else " "
        for room in board.geo.rooms_of(ta):
            for other in board.geo.rooms_of(tb):
                kind = board.connection(room, other) if board.has(room) and board.has(other) else None
                if kind and kind != "none":
                    return letter.get(kind, kind)[:1]
        return " "

    xs = sorted({x for x, _ in cells})
    ys = sorted({y for _, y in cells}, reverse=down < 0)
    xs_all = list(range(xs[0], xs[-1] + 1))
    ys_all = list(range(min(ys), max(ys) + 1))
    if down < 0:
        ys_all.reverse()
    label_w = max(len(str(y)) for y in ys_all) + 1
    cell_w = CELL + 3  # name, the viewer's star, a count of two digits
    max_cols = max(1, (width - label_w) // (cell_w + 3))
    max_rows = max(1, (max_lines - 1 + 1) // 2)  # a row of cells, then a row of links
    shown_cut = False
    if not whole and (len(xs_all) > max_cols or len(ys_all) > max_rows):
        shown_cut = True
        mine_cells = [c for c, t in cells.items() if any(r in mine_at for r in board.geo.rooms_of(t))] or [(0, 0)]
        cx = sorted(x for x, _ in mine_cells)[len(mine_cells) // 2]
        cy = sorted(y for _, y in mine_cells)[len(mine_cells) // 2]
        xs_all = _window(xs_all, cx, max_cols)
        ys_all = _window(ys_all, cy, max_rows)
    lines = [" " * label_w + "".join(f"{x:<{cell_w}}   " for x in xs_all).rstrip()]
    for i, y in enumerate(ys_all):
        row, links = f"{y:>{label_w - 1}} ", " " * label_w
        for j, x in enumerate(xs_all):
            tile = cells.get((x, y))
            if tile is None:
                text = " " * cell_w
            else:
                rooms = [r for r in board.geo.rooms_of(tile)]
                name = sides_of(tile) if cut else _abbreviation(words.name(rooms[0])) if rooms else tile[:CELL]
                star = "*" if any(r in mine_at for r in rooms) else " "
                count = sum(_count(view["zones"].get(r)) for r in rooms)
                text = f"{name:<{CELL}}{star}{count if count else '':>2}"
            row += text
            if j + 1 < len(xs_all):
                row += f" {link((x, y), (x + 1, y)) if right else ' '} "
            if i + 1 < len(ys_all) and below:
                mark = link((x, y), (x, y + down))
                links += f"{mark:^{CELL}}   " + " " * (cell_w - CELL)
        lines.append(row.rstrip())
        if i + 1 < len(ys_all):
            lines.append(links.rstrip())
    legend = [ui["map_legend"] + ", "
              + ", ".join(f"{letter[k][:1]} {words.value_word(k)}" for k in kinds)]
    if cut:
        # "tiles by side n e s w": each letter of a tile is the middle of one side, in this order
        legend.append(ui["map_sides"].format(directions=" ".join(str(words.value_word(d))[:1]
                                                                 for d in board.geo.direction_names)))
    if whole:
        return MapText(lines, False, legend, label_w, cell_w + 3)
    return MapText([line[:width] for line in lines], shown_cut, legend)


def _window(values: list[int], centre: int, size: int) -> list[int]:
    i = values.index(centre) if centre in values else len(values) // 2
    start = max(0, min(i - size // 2, len(values) - size))
    return values[start:start + size]


# ------------------------------------------------------------------ boards declared whole
def _marks(ruleset, view, words, space: str) -> str:
    """What stands on or marks a space: a player's mark (the space's own, or that of the
    one piece standing there, whose player it names), else its pieces' count."""
    mark = _seat_mark(view, words, (view["entities"].get(space) or {}).get("props", {}))
    if mark:
        return mark
    here = view["zones"].get(space)
    if isinstance(here, list) and len(here) == 1:  # one piece: whose it is, not "1"
        mark = _seat_mark(view, words, (view["entities"].get(here[0]) or {}).get("props", {}))
        if mark:
            return mark
    n = _count(here)
    return str(n) if n else "·"


def _seat_mark(view, words, props: dict) -> str | None:
    """The mark of the player a thing's properties name: the first two letters of that
    seat's first text (its colour, its symbol), else of its id."""
    for value in props.values():
        if isinstance(value, str) and value in view["players"]:
            seat = (view["entities"].get(value) or {}).get("props", {})
            word = next((v for v in seat.values() if isinstance(v, str) and v), value)
            return str(words.value_word(word))[:2]
    return None


def _squares(ruleset, view, words, width, max_lines, whole) -> MapText:
    spaces = list(ruleset.data.board.spaces)
    pos = {s: (view["entities"][s]["props"]["x"], view["entities"][s]["props"]["y"]) for s in spaces}
    at = {p: s for s, p in pos.items()}
    xs = sorted({x for x, _ in pos.values()})
    ys = sorted({y for _, y in pos.values()}, reverse=True)  # y grows up the board
    name_w = max(len(s) for s in spaces)
    cell_w = name_w + 4
    if len(xs) * cell_w > width or (len(ys) > max_lines and not whole):
        if whole:
            return _listed(ruleset, view, words, spaces, width, max_lines, whole)
        # too large for the main screen: the marked spaces in a few lines (a space's mark is
        # no piece, so a list of pieces would leave it out), and a note that m shows it
        marked = [f"{s} {m}" for s in spaces if (m := _marks(ruleset, view, words, s)) != "·"]
        packed = textwrap.wrap(" · ".join(marked), width) if marked else []
        return MapText(packed[:max(0, max_lines)], cut=True)
    lines = []
    for y in ys:
        row = ""
        for x in xs:
            s = at.get((x, y))
            row += f"{s:>{name_w}} {_marks(ruleset, view, words, s):<2} " if s else " " * cell_w
        lines.append(row.rstrip())
    return MapText(lines)


def _ring(ruleset, view, words, width, max_lines, whole, details=True) -> MapText:
    spaces = list(ruleset.data.board.spaces)
    props = {s: view["entities"][s]["props"] for s in spaces}
    sectors = sorted({p["sector"] for p in props.values()})
    ranges = sorted({p["range"] for p in props.values()}, reverse=True)  # the outermost first
    names = {r: next(s for s in spaces if props[s]["range"] == r) for r in ranges}
    range_names = {r: words.value_word(names[r].rsplit("_", 1)[0]) for r in ranges}
    label_w = max(len(n) for n in range_names.values()) + 1
    lines = [" " * label_w + "".join(f"{s:>3}" for s in sectors)]
    for r in ranges:
        row = f"{range_names[r]:<{label_w}}"
        for sector in sectors:
            s = next(s for s in spaces if props[s]["range"] == r and props[s]["sector"] == sector)
            n = _count(view["zones"].get(s))
            row += f"{n if n else '·':>3}"
        lines.append(row)
    rest = max(0, max_lines - len(lines))
    occupied = [s for s in spaces if _count(view["zones"].get(s))]
    if whole:
        return MapText(lines + _listed(ruleset, view, words, occupied, width, 10 ** 6, whole).lines)
    # on the main screen, the occupied spaces run on as one paragraph: its pieces with what
    # their properties say when that fits, else by name
    packed = []
    for said in ((True, False) if details else (False,)):
        parts = []
        for s in occupied:
            here = view["zones"][s]
            things = ([_thing(words, view, e, said, glue="\x00") for e in here]
                      if isinstance(here, list) else [f"{_count(here)} ?"])
            parts.append(f"{words.name(s)}{words.say['colon']} {', '.join(things)}")
        text = " · ".join(parts)
        packed = [line.replace("\x00", " ")
                  for line in textwrap.wrap(text, width, subsequent_indent="  ", break_on_hyphens=False)]
        if len(packed) <= rest:
            break
    cut = len(packed) > rest
    if cut:
        packed = packed[:rest]
        if packed:
            packed[-1] = packed[-1][:width - 1] + "…"
    return MapText(lines + packed, cut)


def _thing(words, view, eid: str, details: bool, glue: str = " ") -> str:
    """A piece by name, with what its properties say (its numbers, what differs from its
    kind's defaults) when ``details``: a copy's number in its name is no value of it.
    ``glue``: the space within its name and within each of its details (a line breaks
    between them, not inside one)."""
    entity = view["entities"].get(eid)
    said = words.details(eid, entity, view.get("viewer")) if details and entity is not None else []
    name = words.name(eid).replace(" ", glue)
    return f"{name} ({', '.join(d.replace(' ', glue) for d in said)})" if said else name


def _listed(ruleset, view, words, spaces, width, max_lines, whole, details=True) -> MapText:
    """Every occupied space with what stands there: on the whole map each piece with
    what its properties say, wrapped; on the main screen one line a space, the pieces'
    details only when the line has room for them."""
    lines = []
    for s in spaces:
        here = view["zones"].get(s)
        if not _count(here):
            continue
        if not isinstance(here, list):
            lines.append(f"{words.name(s)}{words.say['colon']} {_count(here)} ?"[:width])
            continue
        detailed = f"{words.name(s)}{words.say['colon']} " + ", ".join(_thing(words, view, e, details) for e in here)
        if whole:
            lines += textwrap.wrap(detailed, width, subsequent_indent="    ") or [detailed]
        elif len(detailed) <= width:
            lines.append(detailed)
        else:
            lines.append(f"{words.name(s)}{words.say['colon']} {', '.join(words.name(e) for e in here)}"[:width])
    if not whole and len(lines) > max_lines:
        return MapText(lines[:max(0, max_lines)], cut=True)
    return MapText(lines)
