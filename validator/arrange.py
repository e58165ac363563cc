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
from rulecraft.interpreter.state import RANDOM_PICKS, forced_shuffle_key

from .expect import resolved_args
from .names import Names
from .scenario import HAND

# Decisions allowed while ending turns on the way to a player's turn.
TURN_SEARCH_LIMIT = 500


class ScenarioError(Exception):
    """A step or a setup could not be carried out; the message says why."""


def apply_setup(game: Game, names: Names, setup: dict, start_tiles: set[str]) -> set[str]:
    """Apply a setup block, in a fixed order (see docs/scenarios.md); return the
    entities it moved (the scenario knows where those lie)."""
    s = game.state
    moved: set[str] = set()
    copies = _CopyPicker(names, setup)
    hand_zone = setup.get("hand_zone", HAND)
    stated_hands = {f"{hand_zone}:{p}" for key in ("deal", "hands") for p in (setup.get(key) or {})}
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
    if "restore" in setup:
        # Back where the components table starts them, in the table's order (so a
        # supply hands them out again in that order), whatever the setup did with them.
        chosen = set(names.restored(setup["restore"]))
        ordered = [eid for eid in names.entities if eid in chosen]
        was = {eid: s.entities[eid]["at"] for eid in ordered}
        for eid in ordered:
            s.tiles.pop(eid, None)
            put(game, eid, None)
        for eid in ordered:
            put(game, eid, names.home.get(eid), "bottom")
            moved.add(eid)
        for eid in ordered:
            if _dealt_hand(was[eid], stated_hands, hand_zone) and names.home.get(eid) is not None \
                    and names.home[eid] != was[eid]:
                _replace_dealt(game, was[eid], names.home[eid], copies)
    for player, cards in (setup.get("deal") or {}).items():
        hand = f"{hand_zone}:{player}"
        # The cards dealt into the hand go back where the components table keeps them;
        # those the table starts in the hand stay.
        for eid in [e for e in s.zones[hand] if names.home.get(e) != hand]:
            put(game, eid, names.home.get(eid), "bottom")
        for card in copies.resolve(cards):
            _take_into_hand(game, names, card, hand, stated_hands, copies, hand_zone)
            moved.add(card)
    for source, destination in (setup.get("move_all") or {}).items():
        for eid in list(s.zones[source]):
            put(game, eid, destination, "bottom")
            moved.add(eid)
    for key in ("pieces", "place"):
        for eid, where in (setup.get(key) or {}).items():
            if eid not in names.entities:  # a component of several copies: one of them
                eid = copies.resolve([eid])[0]
            if where is None and eid in s.tiles:
                del s.tiles[eid]
            put(game, eid, names.space(where))
            moved.add(eid)
    for player, cards in (setup.get("hands") or {}).items():
        for card in copies.resolve(cards):
            _take_into_hand(game, names, card, f"{hand_zone}:{player}", stated_hands, copies, hand_zone)
            moved.add(card)
    for zone, ids in (setup.get("deck_top") or {}).items():
        cards = copies.resolve(ids)
        dealt_from = [s.entities[c]["at"] for c in cards if _dealt_hand(s.entities[c]["at"], stated_hands, hand_zone)]
        for eid in reversed(cards):
            put(game, eid, zone, "top")
            moved.add(eid)
        for hand in dealt_from:
            _replace_dealt(game, hand, zone, copies)
    # A kind stands for every entity of that kind; named entities are set after it.
    props = setup.get("props") or {}
    for key in sorted(props, key=lambda k: k in names.entities):
        for eid in ([key] if key in names.entities else [e for e, kind in names.entities.items() if kind == key]):
            for name, value in props[key].items():
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
    if "picks" in setup:
        s.forced_rolls[RANDOM_PICKS] = fixed_picks(names, setup["picks"])
    fix_shuffles(s.forced_rolls, names, setup.get("shuffles") or {})
    reoffer(game)
    return moved


def starting_values(names: Names, game_setup: dict) -> dict:
    """``game_setup``'s values for the game to start with (``Game``'s ``starting_vars``
    and ``starting_props``), a kind standing for every entity of it, as in ``setup``."""
    props: dict[str, dict] = {}
    given = game_setup.get("props") or {}
    for key in sorted(given, key=lambda k: k in names.entities):  # the kinds first: entities named win
        for eid in ([key] if key in names.entities else [e for e, kind in names.entities.items() if kind == key]):
            props.setdefault(eid, {}).update(given[key] or {})
    return {"starting_vars": {scope: dict(values or {}) for scope, values in (game_setup.get("vars") or {}).items()},
            "starting_props": props}


def fixed_picks(names: Names, picks: list) -> list:
    """The picks as the machine takes them: a value for ``random(…)``, or an option
    written as a step (``{do: ACTION, args: {…}}``, ``{react: …}``, ``{choose: v}``) for a
    scripted seat whose preference ties, with a space's shorthand resolved."""
    out = []
    for pick in picks:
        if isinstance(pick, dict) and ("do" in pick or "react" in pick):
            key, name = ("action", pick["do"]) if "do" in pick else ("reaction", pick["react"])
            out.append({"option": {key: name, "args": resolved_args(names, name, pick.get("args"))}})
        elif isinstance(pick, dict) and "choose" in pick:
            out.append({"option": {"choice": pick["choose"]}})
        else:
            out.append(pick)
    return out


def fix_shuffles(forced: dict, names: Names, shuffles: dict) -> None:
    """What the next shuffle of each zone puts on top; a component of several copies
    stands for any of its copies the zone then holds (chosen when it shuffles)."""
    for zone, cards in shuffles.items():
        forced[forced_shuffle_key(zone)] = [[c if c in names.entities else list(names.copies[c]) for c in cards]]


def _dealt_hand(zone: str | None, stated_hands: set[str], hand_zone: str) -> bool:
    """A player's hand whose content the setup block leaves to the game's deal."""
    return zone is not None and zone.startswith(f"{hand_zone}:") and zone not in stated_hands


def _replace_dealt(game: Game, hand: str, deck: str, copies: "_CopyPicker") -> None:
    """A card the scenario puts elsewhere was never dealt: the hand the game's deal put
    it in gets the next card of its deck that the scenario does not name instead, so no
    hand's size depends on the deal."""
    spare = next((c for c in game.state.zones[deck] if c not in copies.taken), None)
    if spare is not None:
        copies.taken.add(spare)
        put(game, spare, hand)


def _take_into_hand(game: Game, names: Names, card: str, hand: str, stated_hands: set[str], copies: "_CopyPicker",
                    hand_zone: str) -> None:
    was = game.state.entities[card]["at"]
    put(game, card, hand)
    if was != hand and _dealt_hand(was, stated_hands, hand_zone) and names.home.get(card) is not None:
        _replace_dealt(game, was, names.home[card], copies)


class _CopyPicker:
    """Card lists of a setup block may name a component with several copies
    (``card``) for one of them: the lowest-numbered copy that the block does not
    name and has not picked already. Where the copies lay before does not matter, so the
    choice does not depend on the shuffle."""

    def __init__(self, names: Names, setup: dict):
        self.names = names
        self.taken: set[str] = set()
        for key in ("pieces", "place"):
            self.taken.update(setup.get(key) or {})
        for key in ("deal", "hands", "deck_top"):
            for cards in (setup.get(key) or {}).values():
                self.taken.update(c for c in cards if c in names.entities)

    def resolve(self, cards: list[str]) -> list[str]:
        out = []
        for card in cards:
            if card in self.names.entities:
                out.append(card)
                continue
            free = [c for c in self.names.copies[card] if c not in self.taken]
            if not free:
                raise ScenarioError(f"no copy of '{card}' is left to pick: the setup already uses all "
                                    f"{len(self.names.copies[card])}")
            self.taken.add(free[0])
            out.append(free[0])
        return out


def reoffer(game: Game) -> None:
    """Refresh the board and list the pending choice's options again from the arranged table:
    an action choice's legal actions, a ``choose``'s items (the cards of a hand dealt anew). A
    reaction window's options stay: they answer the event that opened it."""
    game.machine.invalidate()
    pending = game.state.pending
    if pending is not None and pending["kind"] == "action":
        game.state.pending = None
        game.machine.run()
    elif pending is not None and pending["kind"] == "choose":
        game.machine.choose_again()


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
