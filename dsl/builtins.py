"""Signatures of the functions and effects every rule set can use.

This is the language's standard library as the checker sees it; the interpreter
provides the implementations (``interpreter/library.py``) under the same names, and a
test keeps the two in step. Nothing here knows any game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from . import types as T


@dataclass(frozen=True)
class Signature:
    params: tuple[str, ...]  # expected parameter types; ANY accepts everything
    returns: Callable[[list[str]], str] | str
    text: str
    effect: bool = False  # an effect: only allowed as a statement
    random: bool = False  # draws from the game's RNG: only allowed as the value of a `let`

    def result(self, arg_types: list[str]) -> str:
        return self.returns(arg_types) if callable(self.returns) else self.returns


def _item(args: list[str]) -> str:
    return T.item_type(args[0]) if args else T.ANY


def _same_list(args: list[str]) -> str:
    return args[0] if args else T.ANY


FUNCTIONS: dict[str, Signature] = {
    # collections
    "count": Signature((T.ANY,), T.NUMBER, "How many items a list holds."),
    "sum": Signature(("list of number",), T.NUMBER, "The total of a list of numbers (0 when empty)."),
    "min": Signature(("list of number",), T.NUMBER, "The smallest number of a non-empty list."),
    "max": Signature(("list of number",), T.NUMBER, "The largest number of a non-empty list."),
    "any": Signature(("list of bool",), T.BOOL, "True when at least one item is true."),
    "all": Signature(("list of bool",), T.BOOL, "True when every item is true (also when empty)."),
    "first": Signature((T.ANY,), _item, "The first item of a list, or none when it is empty."),
    "last": Signature((T.ANY,), _item, "The last item of a list, or none when it is empty."),
    "take": Signature((T.ANY, T.NUMBER), _same_list, "The first N items of a list (all of it when shorter)."),
    "reversed": Signature((T.ANY,), _same_list, "The list in the opposite order."),
    "without": Signature((T.ANY, T.ANY), _same_list, "The list without the given item."),
    "numbers": Signature((T.NUMBER, T.NUMBER), "list of number",
                         "The whole numbers from the first to the second, both included (none when the second is smaller)."),
    "combinations": Signature((T.ANY, T.NUMBER), lambda a: T.list_of(a[0]) if a and T.is_list(a[0]) else "list of list of any",
                              "Every way to pick N items of a list (a team of 3 of the players), each a list in "
                              "the list's order; the ways in order too."),
    "distinct": Signature((T.ANY,), lambda a: a[0] if a and T.is_list(a[0]) else "list of any",
                          "The list without its repeats: each item once, where it first comes."),
    "flatten": Signature((T.ANY,), lambda a: T.item_type(a[0]) if a and T.is_list(T.item_type(a[0])) else "list of any",
                         "One list made of the items of a list of lists, in order."),
    # zones
    "contents": Signature((T.ZONE,), "list of any", "What a zone holds, top first."),
    "top": Signature((T.ZONE,), T.ANY, "The top item of a zone, or none when it is empty."),
    "bottom": Signature((T.ZONE,), T.ANY, "The bottom item of a zone, or none when it is empty."),
    # entities
    "on_board": Signature((T.ANY,), T.BOOL, "True when the entity stands in a space of the board."),
    "kind_of": Signature((T.ANY,), T.TEXT, "The kind name of an entity."),
    # players
    "next_player": Signature(("player",), "player", "The next player clockwise."),
    "can_act": Signature(("player",), T.BOOL, "True when the player, to move now, would be offered an action "
                         "(a player who cannot move: a draw or a loss in many games)."),
    "seats_from": Signature(("player", T.NUMBER), "list of player", "N players clockwise starting with the given one, wrapping around."),
    # board
    "spot": Signature((T.NUMBER, T.NUMBER, T.NUMBER), T.PLACEMENT, "A placement at grid column x, row y with a rotation in degrees."),
    "placements": Signature((T.ANY, T.ANY, "list of number"), "list of placement",
                            "Every legal spot for a tile that joins the given space through a doorway, in the given rotations."),
    "placements_anywhere": Signature((T.ANY, "list of number"), "list of placement",
                                     "Every legal spot for a tile next to any placed space, in the given rotations."),
    "rooms_towards": Signature((T.ANY, T.TEXT), "list of any",
                               "The spaces that touch a space on its side in a direction, walls or not."),
    "tiles_around": Signature((T.ANY,), "list of any",
                              "The laid tiles around a laid tile, corners included (the 8 around a square tile)."),
    "region": Signature((T.ANY,), "list of any",
                        "A space and every space reached from it through the ways, with no bound (a whole road, city or field)."),
    "region_avoiding": Signature((T.ANY, T.ANY), "list of any",
                                 "The region when the given spaces and connections may not be used."),
    "sides_of": Signature((T.ANY,), "list of text",
                          "The directions in which a laid space reaches its tile's edge, clockwise."),
    "open_sides": Signature((T.ANY,), "list of text",
                            "The directions in which a laid space reaches its tile's edge with no tile laid beyond."),
    "connection": Signature((T.ANY, T.ANY), T.TEXT, "The connection kind between two touching spaces, or none."),
    "connected": Signature((T.ANY,), "list of any", "Spaces joined to a space through a doorway (open or not)."),
    "adjacent": Signature((T.ANY,), "list of any", "Spaces touching a space, walls included."),
    "tile_of": Signature((T.ANY,), T.ANY, "The tile a space is printed on."),
    "rooms_of": Signature((T.ANY,), "list of any", "The spaces printed on a tile."),
    "placed": Signature((T.ANY,), T.BOOL, "True when a tile lies on the board."),
    # declared boards (graph, grid, ring): lines and directions
    "step": Signature((T.ANY, T.TEXT), T.ANY, "The space one step from a space in a direction, or none at the board's edge."),
    "line": Signature((T.ANY, T.TEXT, T.NUMBER), "list of any",
                      "A space and the spaces after it in a direction: N in all, fewer at the board's edge."),
    "lines": Signature((T.NUMBER,), "list of list of any",
                       "Every straight line of N spaces on the board (rows, columns, diagonals), each once."),
    "direction_for": Signature(("player", T.TEXT), T.TEXT,
                               "The board direction a seat-relative direction (e.g. forward) means for a player."),
    "link": Signature((T.ANY, T.ANY), T.ANY,
                      "The connection from one space to another as an entity (boards with a connection_kind), or none."),
    # paths over the ways through (doorways on laid tiles; connections on declared boards)
    "path": Signature((T.ANY, T.ANY), "list of any", "The spaces of a shortest way from one space to another, both included; empty when none."),
    "path_avoiding": Signature((T.ANY, T.ANY, T.ANY), "list of any",
                               "A shortest path that enters none of the given spaces and uses none of the given connections."),
    "distance": Signature((T.ANY, T.ANY), T.NUMBER, "How many steps a shortest way takes from one space to another; none when there is no way."),
    "distance_avoiding": Signature((T.ANY, T.ANY, T.ANY), T.NUMBER,
                                   "The distance when the given spaces and connections may not be used; none when there is no way."),
    "within": Signature((T.ANY, T.NUMBER), "list of any", "The spaces reachable from a space in 1 to N steps, nearest first."),
    "within_avoiding": Signature((T.ANY, T.NUMBER, T.ANY), "list of any",
                                 "The spaces within N steps when the given spaces and connections may not be used."),
    # memory: what the judging seat saw (heuristics, and the functions only they call)
    "seen": Signature((T.TEXT,), "list of any",
                      "The events of the named kind the judging seat has seen so far, oldest first; "
                      "read by heuristics only (empty while rules run)."),
    # randomness (only as the value of a `let`)
    "roll": Signature((T.DIE,), T.ANY, "Roll a die declared in the rule set's data.", random=True),
    "random": Signature((T.ANY,), _item, "One item of a non-empty list, chosen at random.", random=True),
}

EFFECTS: dict[str, Signature] = {
    "place": Signature((T.ANY, T.PLACEMENT), T.NONE, "Put a tile on the board at a placement.", effect=True),
    "remove": Signature((T.ANY,), T.NONE, "Take an entity off the table (out of every zone).", effect=True),
    "play_turn": Signature(("player",), T.NONE, "Give the player a turn: they choose actions until they end it.", effect=True),
    "end_game": Signature(("list of player", T.TEXT), T.NONE, "End the game now with these winners.", effect=True),
    "end_turn": Signature((), T.NONE, "End the turn under way once the rule running now is done.", effect=True),
}

# Names every rule can read.
VALUES: dict[str, tuple[str, str]] = {
    "players": ("list of player", "Every player in seat order."),
    "current_player": ("player", "The player whose turn it is."),
    "round_number": (T.NUMBER, "The current round, from 1."),
    "turn_number": (T.NUMBER, "How many turns have started so far."),
}

# Events the engine itself emits, with their fields' types.
ENGINE_EVENTS: dict[str, dict[str, str]] = {
    "moved": {"entity": T.ANY, "source": T.ANY, "destination": T.ANY},
    "shuffled": {"zone": T.ZONE},
    "placed": {"tile": T.ANY, "x": T.NUMBER, "y": T.NUMBER, "rotation": T.NUMBER},
    "rolled": {"die": T.TEXT, "value": T.ANY},
    "turn_started": {"player": "player"},
    "turn_ended": {"player": "player"},
    "round_started": {"round": T.NUMBER},
    "action_taken": {"player": "player", "action": T.TEXT, "args": T.ANY},
    "reacted": {"player": "player", "reaction": T.TEXT, "args": T.ANY},
    "changed": {"entity": T.ANY, "property": T.TEXT, "value": T.ANY},
    "revealed": {"entity": T.ANY, "property": T.TEXT, "players": "list of player"},
    "hidden": {"entity": T.ANY, "property": T.TEXT, "players": "list of player"},
    "game_ended": {"reason": T.TEXT},
    "action_declined": {"player": "player", "action": T.TEXT},
}

# The window the engine itself opens between choosing an action and running its steps,
# only in a rule set with a reaction to it: a reaction may read the chosen action and
# decline it. Its record holds these fields and one field per argument of the action.
ACTION_WINDOW = "action_chosen"
ACTION_WINDOW_FIELDS: dict[str, str] = {"player": "player", "action": T.TEXT, "declined": T.BOOL}
