"""Arranging a situation: a scenario's ``setup`` (and ``arrange`` steps) applied to a game.

The game's normal setup has already run to its first choice; the scenario only says
what differs. The state is plain data, so arranging is editing it directly, the way a
person would rearrange the table, without events: only ``current`` plays (it ends
turns until that player's turn starts). Afterwards the board views are refreshed and,
when a player was choosing an action, the choice is offered anew so that its options
match the new situation.
"""

from __future__ import annotations

import copy
from typing import Any

from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import END_TURN, IllegalAnswer

from .names import Names

# Decisions allowed while ending turns on the way to a player's turn.
TURN_SEARCH_LIMIT = 500


class ScenarioError(Exception):
    """A step or a setup could not be carried out; the message says why."""


def apply_setup(game: Game, names: Names, setup: dict, start_tiles: set[str]) -> None:
    """Apply a setup block, in a fixed order (see docs/scenarios.md)."""
    s = game.state
    if "current" in setup:
        reach_turn(game, setup["current"])
    if "tiles" in setup:
        keep = set() if setup.get("clear_board") else set(start_tiles)
        for tile in [t for t in s.tiles if t not in keep and t not in setup["tiles"]]:
            _take_off_board(game, names, tile)
        for tile, spot in setup["tiles"].items():
            if spot is None:
                _take_off_board(game, names, tile, home=False)
            else:
                put(game, tile, None)
                s.tiles[tile] = list(spot)
    for source, destination in (setup.get("move_all") or {}).items():
        for eid in list(s.zones[source]):
            put(game, eid, destination, "bottom")
    for key in ("pieces", "place"):
        for eid, where in (setup.get(key) or {}).items():
            if where is None and eid in s.tiles:
                del s.tiles[eid]
            put(game, eid, names.space(where))
    for player, cards in (setup.get("hands") or {}).items():
        for card in cards:
            put(game, card, f"hand:{player}")
    for zone, ids in (setup.get("deck_top") or {}).items():
        for eid in reversed(ids):
            put(game, eid, zone, "top")
    for eid, props in (setup.get("props") or {}).items():
        for name, value in props.items():
            s.entities[eid]["props"][name] = copy.deepcopy(value)
    for scope, values in (setup.get("vars") or {}).items():
        for name, value in values.items():
            s.vars.setdefault(scope, {})[name] = copy.deepcopy(value)
    if "ap" in setup:
        if s.current is None:
            raise ScenarioError("'ap' is the current player's, but no player has had a turn yet")
        s.entities[s.current]["props"]["ap"] = setup["ap"]
    for die, results in (setup.get("rolls") or {}).items():
        s.forced_rolls[die] = list(results)
    reoffer(game)


def reoffer(game: Game) -> None:
    """Refresh the board and, at an action choice, list the legal options again."""
    game.machine.invalidate()
    pending = game.state.pending
    if pending is not None and pending["kind"] == "action":
        game.state.pending = None
        game.machine.run()


def put(game: Game, eid: str, zone: str | None, end: str | None = None) -> None:
    """Move an entity to a zone (None: off the table) without any rule running.

    ``end`` is "top" or "bottom"; by default an ordered zone takes it on top and any
    other zone at the end, as the rules' own ``move`` does."""
    s = game.state
    e = s.entities[eid]
    if eid in s.tiles and zone is not None:
        del s.tiles[eid]
    if e["at"] is not None:
        s.zones[e["at"]].remove(eid)
    e["at"] = zone
    if zone is None:
        return
    target = s.zones[zone]
    if end is None:
        spec = game.ruleset.data.zones.get(zone.split(":", 1)[0])
        end = "top" if spec is not None and spec.ordered else "bottom"
    if end == "top":
        target.insert(0, eid)
    else:
        target.append(eid)


def _take_off_board(game: Game, names: Names, tile: str, home: bool = True) -> None:
    """A tile leaves the board: back under the zone it started in, or off the table."""
    s = game.state
    s.tiles.pop(tile, None)
    put(game, tile, names.home.get(tile) if home else None, "bottom")


def _force_end_turn(game: Game) -> None:
    """End the turn of the player choosing an action although the rules do not offer it
    (the rule set's ``end_turn_allowed`` says not yet): arranging the table is not playing."""
    try:
        game.machine.force_end_turn()
    except IllegalAnswer as err:
        raise ScenarioError(f"{game.state.pending['player'] if game.state.pending else 'nobody'}'s turn cannot be ended here: {err}") from None


def reach_turn(game: Game, player: str) -> None:
    """End turns (answering any other choice with its first option, a reaction window
    with 'pass') until ``player`` is choosing an action. Nothing happens when they
    already are. A turn the rules do not let end yet is ended anyway."""
    s = game.state
    for _ in range(TURN_SEARCH_LIMIT):
        pending = s.pending
        if game.over:
            raise ScenarioError(f"the game ended ({game.result['reason']}) before {player}'s turn came")
        if pending is None:
            raise ScenarioError(f"nothing is pending: {player}'s turn cannot be reached")
        kind = pending["kind"]
        if kind == "action" and pending["player"] == player and s.current == player:
            return
        options = pending["options"]
        if kind == "action":
            if END_TURN in options:
                game.choose(options.index(END_TURN))
            else:
                _force_end_turn(game)
        elif kind == "reaction" and {"reaction": "pass"} in options:
            game.choose(options.index({"reaction": "pass"}))
        else:
            game.choose(0)
    raise ScenarioError(f"{player}'s turn did not come within {TURN_SEARCH_LIMIT} decisions")


def forced_rolls_left(game: Game) -> dict[str, list[Any]]:
    return {die: list(rest) for die, rest in game.state.forced_rolls.items() if rest}
