"""The board: tiles placed on a grid, seen as a graph of spaces (networkx on demand).

A tile's layout (from the rule set's YAML) gives the edge kind of each side and
which of its spaces touch that side; the rule set's join table says what two touching
edges make. Adjacency (touching, walls included) and passability (a doorway) are both
read from the graph; which connection kinds a rule lets a piece through is up to the
rule set.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from functools import cached_property

import networkx as nx

from rulecraft.dsl.model import BoardSpec


@dataclass(frozen=True)
class Geometry:
    """Static facts of a board spec: directions, rotations, tile layouts."""

    spec: BoardSpec
    tile_layouts: dict  # tile id → layout name

    @property
    def directions(self) -> list[str]:
        return list(self.spec.directions)

    @cached_property
    def direction_names(self) -> tuple[str, ...]:
        return tuple(self.spec.directions)

    @cached_property
    def _turns(self) -> dict:
        # (direction, degrees) → direction: rotations are asked thousands of times per game
        return {}

    def opposite(self, d: str) -> str:
        turns = self._turns
        found = turns.get((d, "opposite"))
        if found is None:
            names = self.directions
            found = turns[(d, "opposite")] = names[(names.index(d) + len(names) // 2) % len(names)]
        return found

    def rotate(self, d: str, degrees: int) -> str:
        turns = self._turns
        found = turns.get((d, degrees))
        if found is None:
            names = self.directions
            step = 360 // len(names)
            found = turns[(d, degrees)] = names[(names.index(d) + degrees // step) % len(names)]
        return found

    @cached_property
    def boards(self) -> "OrderedDict[tuple, Board]":
        """Boards already built from these facts, by placed tiles (see board_for)."""
        return OrderedDict()

    @cached_property
    def _parts(self) -> dict:
        # (tile, direction, rotation) → ((edge, spaces), ...): asked for every side of
        # every tile each time a board is built
        return {}

    def parts(self, tile: str, direction: str, rotation: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The stretches of a tile's side facing ``direction`` when turned by ``rotation``,
        clockwise around the tile, each as (edge, spaces); one for a side of one edge."""
        key = (tile, direction, rotation)
        found = self._parts.get(key)
        if found is None:
            layout = self.spec.layouts[self.tile_layouts[tile]]
            s = layout.sides[self.rotate(direction, -rotation % 360)]
            found = self._parts[key] = tuple((p.edge, tuple(f"{tile}/{r}" for r in p.rooms)) for p in s.parts)
        return found

    def side(self, tile: str, direction: str, rotation: int) -> tuple[str | None, tuple[str, ...]]:
        """(edge, spaces) of a tile's side facing ``direction`` when turned by ``rotation``:
        the edge is none for a side of several stretches (see ``parts``)."""
        parts = self.parts(tile, direction, rotation)
        if len(parts) == 1:
            return parts[0]
        return None, tuple(dict.fromkeys(r for _, rooms in parts for r in rooms))

    def facing(self, tile: str, direction: str, rotation: int, other: str, other_rotation: int):
        """The pairs of stretches that meet where a tile's side facing ``direction`` touches
        the other tile: ((edge, spaces), (facing edge, facing spaces)), clockwise along the
        first. Both sides list theirs clockwise around their own tile, so they run opposite
        ways along the shared side: the first stretch meets the other's last."""
        key = (tile, direction, rotation, other, other_rotation)
        found = self._facing.get(key)
        if found is None:
            mine = self.parts(tile, direction, rotation)
            theirs = self.parts(other, self.opposite(direction), other_rotation)
            found = self._facing[key] = tuple(zip(mine, reversed(theirs)))
        return found

    @cached_property
    def _facing(self) -> dict:
        return {}

    def rooms_of(self, tile: str) -> list[str]:
        layout = self.spec.layouts[self.tile_layouts[tile]]
        return [f"{tile}/{r}" for r in layout.rooms]

    @cached_property
    def _spaces(self) -> dict:
        return {}

    def spaces_of(self, tile: str) -> frozenset[str]:
        """The spaces a board gives a placed tile, whatever else is placed: its printed
        spaces and those its inner links name (a board's spaces are theirs for its tiles)."""
        found = self._spaces.get(tile)
        if found is None:
            layout = self.spec.layouts[self.tile_layouts[tile]]
            names = list(layout.rooms) + [x for link in layout.links for x in (link["from"], link["to"])]
            found = self._spaces[tile] = frozenset(f"{tile}/{r}" for r in names)
        return found


def room_tile(room: str) -> str:
    return room.rsplit("/", 1)[0]


# Boards kept per geometry: the same tiles in the same order build the same board, and
# games of a rule set often place the same first tiles.
BOARDS_KEPT = 128


def board_for(geometry: Geometry, tiles: dict[str, list[int]]) -> "Board":
    """The board of these placed tiles: one built before for the same tiles in the same
    order (a board never changes once built, and its answers follow from its tiles and
    their order), or a new one."""
    key = tuple((t, *v) for t, v in tiles.items())
    boards = geometry.boards
    board = boards.get(key)
    if board is None:
        board = boards[key] = Board(geometry, tiles)
        if len(boards) > BOARDS_KEPT:
            boards.popitem(last=False)
    else:
        boards.move_to_end(key)
    return board


class Board:
    """The placed tiles of one state. Built on demand and rebuilt when a tile is placed."""

    def __init__(self, geometry: Geometry, tiles: dict[str, list[int]]):
        self.geo = geometry
        self.tiles = {t: tuple(v) for t, v in tiles.items()}
        self.cells = {(x, y): t for t, (x, y, _) in self.tiles.items()}
        # space → {neighbouring space → connection}, in the order a networkx graph built
        # the same way keeps them (the order of options follows it): plain dicts, as a
        # board is built after every placement, also on the states played ahead
        self._adj: dict[str, dict[str, str | None]] = {}
        self._node_tile: dict[str, str] = {}
        self._edges: list[tuple[str, str, str | None]] = []  # as added, for ``graph``
        self._towards: dict[tuple[str, str], list[str]] = {}
        self._faces: dict[str, list[str]] = {}
        # Answers depend only on the placed tiles, which never change for this object
        # (a placement builds a new Board), so they can be remembered.
        self._memo: dict[tuple, list] = {}
        self._build()
        self.rooms = frozenset(self._adj)  # the spaces on the board

    @cached_property
    def graph(self) -> nx.Graph:
        """The board as a networkx graph (spaces with their tile, edges with their
        connection), for path searches and other readers; built on first use."""
        g = nx.Graph()
        for room, tile in self._node_tile.items():
            g.add_node(room, tile=tile)
        for a, b, conn in self._edges:
            g.add_edge(a, b, connection=conn)
        return g

    def _add_edge(self, a: str, b: str, conn: str | None) -> None:
        # networkx's add_edge: a new space goes last, a known edge keeps its place
        adj = self._adj
        if a not in adj:
            adj[a] = {}
        if b not in adj:
            adj[b] = {}
        adj[a][b] = conn
        adj[b][a] = conn
        self._edges.append((a, b, conn))

    # ---- layout after rotation
    def side(self, tile: str, direction: str, rotation: int | None = None):
        """(edge, [spaces]) of a tile's side facing ``direction`` on the table."""
        if rotation is None:
            rotation = self.tiles[tile][2]
        edge, rooms = self.geo.side(tile, direction, rotation)
        return edge, list(rooms)

    def _links(self, tile: str):
        layout = self.geo.spec.layouts[self.geo.tile_layouts[tile]]
        rot = self.tiles[tile][2]
        for link in layout.links:
            d = self.geo.rotate(link["direction"], rot)
            yield f"{tile}/{link['from']}", f"{tile}/{link['to']}", d, link["connection"]

    def _build(self) -> None:
        adj, node_tile = self._adj, self._node_tile
        add_edge = self._add_edge
        spec = self.geo.spec
        for tile, (x, y, rot) in self.tiles.items():
            for room in self.geo.rooms_of(tile):
                if room not in adj:
                    adj[room] = {}
                node_tile[room] = tile
                self._faces[room] = []
            for d in self.geo.direction_names:
                for _, rooms in self.geo.parts(tile, d, rot):
                    for r in rooms:
                        if d not in self._faces[r]:
                            self._faces[r].append(d)
        for tile, (x, y, rot) in self.tiles.items():
            for a, b, d, conn in self._links(tile):
                self._towards.setdefault((a, d), []).append(b)
                self._towards.setdefault((b, self.geo.opposite(d)), []).append(a)
                add_edge(a, b, None if conn == "none" else conn)
            for d in self.geo.direction_names:
                dx, dy = spec.directions[d]
                other = self.cells.get((x + dx, y + dy))
                if other is None:
                    continue
                for (edge, rooms), (oedge, orooms) in self.geo.facing(tile, d, rot, other, self.tiles[other][2]):
                    conn = spec.joins.get((edge, oedge))
                    for r in rooms:
                        # a field along all three parts of a side faces the same field three times
                        towards = self._towards.setdefault((r, d), [])
                        towards.extend(o for o in orooms if o not in towards)
                        for o in orooms:
                            add_edge(r, o, None if conn in (None, "none") else conn)

    # ---- queries
    def has(self, room: str) -> bool:
        return room in self.rooms

    def towards(self, room: str, direction: str) -> list[str]:
        return list(self._towards.get((room, direction), []))

    def connection(self, a: str, b: str) -> str | None:
        return self._adj.get(a, {}).get(b)

    def tiles_around(self, tile: str) -> list[str]:
        """The laid tiles around a laid one, clockwise: one step in each direction and, at
        the corners, one step in each of two neighbouring directions (the 8 around a
        square tile)."""
        if tile not in self.tiles:
            return []
        x, y, _ = self.tiles[tile]
        steps = [self.geo.spec.directions[d] for d in self.geo.direction_names]
        cells = []
        for i, (dx, dy) in enumerate(steps):
            ex, ey = steps[(i + 1) % len(steps)]
            cells += [(x + dx, y + dy), (x + dx + ex, y + dy + ey)]
        found = []
        for cell in cells:
            other = self.cells.get(cell)
            if other is not None and other != tile and other not in found:
                found.append(other)
        return found

    def sides_of(self, room: str) -> list[str]:
        """The directions on the table in which a placed space reaches its tile's edge."""
        return list(self._faces.get(room, ()))

    def open_sides(self, room: str) -> list[str]:
        """Those of ``sides_of`` with no tile laid beyond them."""
        if room not in self._node_tile:
            return []
        x, y, _ = self.tiles[self._node_tile[room]]
        steps = self.geo.spec.directions
        return [d for d in self._faces[room] if (x + steps[d][0], y + steps[d][1]) not in self.cells]

    def connected(self, room: str) -> list[str]:
        key = ("connected", room)
        found = self._memo.get(key)
        if found is None:
            doorways = self.geo.spec.doorways
            ways = self._adj.get(room)
            found = self._memo[key] = [o for o, conn in ways.items() if conn in doorways] if ways is not None else []
        return list(found)

    def adjacent(self, room: str) -> list[str]:
        key = ("adjacent", room)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = list(self._adj[room]) if room in self._adj else []
        return list(found)

    def fits(self, tile: str, cell: tuple[int, int], rotation: int) -> bool:
        """No edge of the tile at this spot meets an edge it is forbidden to meet."""
        spec = self.geo.spec
        for d in self.geo.direction_names:
            dx, dy = spec.directions[d]
            other = self.cells.get((cell[0] + dx, cell[1] + dy))
            if other is None:
                continue
            for (edge, _), (oedge, _) in self.geo.facing(tile, d, rotation, other, self.tiles[other][2]):
                if spec.joins.get((edge, oedge)) is None:
                    return False
        return True

    def placements(self, tile: str, anchor: str, rotations: list[int]) -> list[dict]:
        """Legal spots for ``tile`` that join ``anchor`` through a doorway."""
        key = ("at", tile, anchor, tuple(rotations))
        if key not in self._memo:
            self._memo[key] = self._placements(tile, anchor, rotations)
        return [dict(spot) for spot in self._memo[key]]

    def _placements(self, tile: str, anchor: str, rotations: list[int]) -> list[dict]:
        if anchor not in self._adj or tile in self.tiles:
            return []
        spec = self.geo.spec
        ax, ay, _ = self.tiles[room_tile(anchor)]
        found = []
        for d in self._faces.get(anchor, []):
            dx, dy = spec.directions[d]
            cell = (ax + dx, ay + dy)
            if cell in self.cells:
                continue
            here = self.tiles[room_tile(anchor)][2]
            for rot in rotations:
                # the anchor must meet the new tile through a doorway on a stretch it lies along
                through = any(anchor in rooms and spec.joins.get((edge, tedge)) in spec.doorways
                              for (edge, rooms), (tedge, _) in self.geo.facing(room_tile(anchor), d, here, tile, rot))
                if through and self.fits(tile, cell, rot):
                    spot = {"x": cell[0], "y": cell[1], "rotation": rot}
                    if spot not in found:
                        found.append(spot)
        return found

    def placements_anywhere(self, tile: str, rotations: list[int]) -> list[dict]:
        key = ("anywhere", tile, tuple(rotations))
        if key not in self._memo:
            found = []
            for room in self._adj:
                for spot in self.placements(tile, room, rotations):
                    if spot not in found:
                        found.append(spot)
            self._memo[key] = found
        return [dict(spot) for spot in self._memo[key]]
