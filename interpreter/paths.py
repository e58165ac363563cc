"""Paths over a board's ways through, with networkx: distances, shortest paths and the
spaces within reach. A rule may name spaces or connections to avoid (occupied spaces,
locked doors): the search then neither enters those spaces nor uses those connections.

On laid tiles the ways through are the doorways (open or not); on a declared board,
every connection in its direction.
"""

from __future__ import annotations

import networkx as nx

from .declared_board import DeclaredBoard


def _ways(board):
    found = board._memo.get(("ways",))
    if found is None:
        if isinstance(board, DeclaredBoard):
            found = board.graph
        else:
            g, doorways = board.graph, board.geo.spec.doorways
            found = nx.subgraph_view(g, filter_edge=lambda a, b: g[a][b]["connection"] in doorways)
        board._memo[("ways",)] = found
    return found


def _avoiding(board, start: str, avoid) -> "nx.Graph":
    ways = _ways(board)
    avoid = set(avoid or ())
    if not avoid:
        return ways
    spaces = {x for x in avoid if x in board.rooms and x != start}  # the start is where one already stands
    return nx.subgraph_view(
        ways, filter_node=lambda s: s not in spaces,
        filter_edge=lambda a, b: ways[a][b].get("name") not in avoid if isinstance(board, DeclaredBoard) else True)


def shortest_path(board, a: str, b: str, avoid=()) -> list[str]:
    """The spaces from a to b (both included) along a shortest way; [] when none."""
    if a not in board.rooms or b not in board.rooms:
        return []
    g = _avoiding(board, a, avoid)
    if b not in g:
        return []
    try:
        return list(nx.shortest_path(g, a, b))
    except nx.NetworkXNoPath:
        return []


def distance(board, a: str, b: str, avoid=()) -> int | None:
    path = shortest_path(board, a, b, avoid)
    return len(path) - 1 if path else None


def within(board, a: str, n: int, avoid=()) -> list[str]:
    """Spaces other than a reachable from a in 1 to n steps, nearest first."""
    if a not in board.rooms or n is None or n < 1:
        return []
    lengths = nx.single_source_shortest_path_length(_avoiding(board, a, avoid), a, cutoff=n)
    return [s for s, d in lengths.items() if d >= 1]


def region(board, a: str, avoid=()) -> list[str]:
    """The space a and every space reached from it through the ways, step by step, with
    no bound: a road, a city, a field of laid tiles (nearest first, a first)."""
    if a not in board.rooms:
        return []
    return list(nx.single_source_shortest_path_length(_avoiding(board, a, avoid), a))
