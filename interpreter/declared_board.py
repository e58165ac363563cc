"""A board declared whole in the rule set (a graph, a grid, a ring): its spaces and
connections never change during a game, so one board object serves every game of the
rule set. What may change (a connection's lock) lives in the state, on the connection's
entity, and is read through the machine.
"""

from __future__ import annotations

import networkx as nx

from rulecraft.dsl.model import BoardSpec


class DeclaredBoard:
    def __init__(self, spec: BoardSpec):
        self.spec = spec
        self.graph = nx.DiGraph()
        self.graph.add_nodes_from(spec.spaces)
        self._towards: dict[tuple[str, str], list[str]] = {}
        for c in spec.connections:
            self.graph.add_edge(c.source, c.target, direction=c.direction, name=c.name)
            if c.direction is not None:
                self._towards.setdefault((c.source, c.direction), []).append(c.target)
        self.rooms = frozenset(spec.spaces)  # the spaces on the board
        self.order = {s: i for i, s in enumerate(spec.spaces)}
        self._memo: dict[tuple, list] = {}
        self._seat_directions: dict[tuple[int, str], str | None] = {}

    # ---- the queries tile boards answer too
    def has(self, space: str) -> bool:
        return space in self.rooms

    def towards(self, space: str, direction: str) -> list[str]:
        return list(self._towards.get((space, direction), ()))

    def connection(self, a: str, b: str) -> str | None:
        """The connection's entity id (boards whose connections have a kind), else none."""
        data = self.graph.get_edge_data(a, b)
        return data["name"] if data else None

    def adjacent(self, space: str) -> list[str]:
        key = ("adjacent", space)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = list(self.graph.successors(space)) if space in self.graph else []
        return list(found)

    connected = adjacent  # every declared connection is a way through; locks are the rules' business

    def sides_of(self, space: str) -> list[str]:
        return []  # no tile is laid on a declared board: its spaces reach no tile's edge

    open_sides = sides_of

    def tiles_around(self, tile: str) -> list[str]:
        return []  # nothing is laid on a declared board

    def placements(self, tile, anchor, rotations) -> list[dict]:
        return []  # nothing is laid on a declared board

    def placements_anywhere(self, tile, rotations) -> list[dict]:
        return []

    # ---- lines
    def step(self, space: str, direction: str) -> str | None:
        found = self._towards.get((space, direction))
        return found[0] if found else None

    def line(self, space: str, direction: str, n: int) -> list[str]:
        """``space`` and the spaces after it in ``direction``: n in all, fewer at the edge."""
        out = []
        at = space if space in self.rooms else None
        while at is not None and len(out) < n:
            out.append(at)
            at = self.step(at, direction)
        return out

    def lines(self, n: int) -> list[list[str]]:
        """Every straight line of n spaces, each once (read in the first of its two directions)."""
        key = ("lines", n)
        found = self._memo.get(key)
        if found is None:
            names = list(self.spec.directions)
            opposites = self.spec.opposites
            ways = [d for d in names if opposites.get(d) is None or names.index(d) < names.index(opposites[d])]
            found = self._memo[key] = [line for s in self.spec.spaces for d in ways
                                       if len(line := self.line(s, d, n)) == n]
        return list(found)  # rules never change a list in place: the lines themselves are shared

    def direction_for(self, seat: int, name: str) -> str | None:
        """A seat-relative direction (forward) as the board direction it means for a seat."""
        key = (seat, name)
        try:
            return self._seat_directions[key]
        except KeyError:
            pass
        if name in self.spec.directions:
            found = name
        else:
            per_seat = self.spec.seat_directions.get(name)
            found = per_seat[seat] if per_seat and 0 <= seat < len(per_seat) else None
        self._seat_directions[key] = found
        return found
