"""Helpers for the Panic Station tests: load the rule set once, arrange situations."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game

RULES = Path(__file__).resolve().parent.parent / "rules" / "panic_station"


@lru_cache(maxsize=1)
def ruleset():
    return load_checked(RULES)


def new_game(players: int = 5, seed: int = 1) -> Game:
    return Game(ruleset(), players, seed)


def relocate(game: Game, entity: str, zone: str | None, end: str = "top") -> None:
    """Put an entity somewhere directly, as a scenario would set the table up."""
    s = game.state
    e = s.entities[entity]
    if e["at"] is not None:
        s.zones[e["at"]].remove(entity)
    e["at"] = zone
    if zone is not None:
        if end == "top":
            s.zones[zone].insert(0, entity)
        else:
            s.zones[zone].append(entity)


def lay_tile(game: Game, tile: str, x: int, y: int, rotation: int) -> None:
    s = game.state
    e = s.entities[tile]
    if e["at"] is not None:
        s.zones[e["at"]].remove(tile)
        e["at"] = None
    s.tiles[tile] = [x, y, rotation]
    game.machine.invalidate()


def run_procedure(game: Game, name: str, *args) -> None:
    """Run one procedure of the rule set now, in the middle of the current turn."""
    s = game.state
    s.pending = None
    game.machine.call_procedure(name, list(args))
    game.machine.run()


def options(game: Game, action: str) -> list[dict]:
    return [o["args"] for o in game.pending.options if o["action"] == action]


def take(game: Game, action: str, **args) -> None:
    game.choose_option({"action": action, "args": args})


def end_turn(game: Game) -> None:
    """End the current turn. Tests of other rules waive the first-turn search duty
    (phases.rules, may_end_turn) rather than play a search they do not care about."""
    if game.pending.kind == "action" and {"action": "end_turn"} not in game.pending.options:
        game.state.vars["turn"]["first_turn"] = False
        game.state.pending = None
        game.machine.run()
    game.choose_option({"action": "end_turn"})


def room(tile: str, part: str = "main") -> str:
    return f"{tile}/{part}"


def put(game: Game, thing: str, where: str | None) -> None:
    """Put a piece somewhere; a character put on the board counts as having entered."""
    relocate(game, thing, where)
    if thing.startswith(("trooper.", "android.")):
        game.state.entities[thing.split(".")[1]]["props"]["entered"] = True


def quiet_start(players: int = 5, seed: int = 1, first_turn: bool = False) -> tuple[Game, str, list[str]]:
    """A fresh game at the first player's first action with no parasite on the board and,
    unless ``first_turn``, the first-turn search duty waived (it has its own tests).
    Returns the game, the current player and the others."""
    game = new_game(players, seed)
    s = game.state
    for x, e in s.entities.items():
        if e["kind"] == "parasite" and e["at"] != "parasite_supply":
            relocate(game, x, "parasite_supply")
    s.vars["turn"]["first_turn"] = first_turn
    p = s.current
    return game, p, [q for q in s.players if q != p]


def own_infection_cards(p: str) -> list[str]:
    return [f"infection.{p}.{i}" for i in (1, 2, 3)]


def nobody_infected(game: Game) -> None:
    """Every player human: the Host leaves the game and each player holds exactly their
    own three infection cards."""
    relocate(game, "host", "out_of_game")
    for q in game.state.players:
        game.state.entities[q]["props"]["infected"] = False
        set_hand(game, q, own_infection_cards(q))


def set_hand(game: Game, p: str, cards: list[str]) -> None:
    """Make a player's hand exactly these cards (the others leave the game)."""
    for c in list(game.state.zones[f"hand:{p}"]):
        relocate(game, c, "out_of_game")
    for c in cards:
        relocate(game, c, f"hand:{p}")


def reoffer(game: Game) -> None:
    """Offer the pending choice again after the table was arranged."""
    game.state.pending = None
    game.machine.run()


def health(game: Game, c: str) -> int:
    return game.state.entities[c]["props"]["health"]


def ap(game: Game, p: str) -> int:
    return game.state.entities[p]["props"]["ap"]
