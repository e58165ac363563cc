"""Players that answer a game's choices from a player's view, never the full state.

Bots are found by name in :data:`REGISTRY`, which maps a name to a *factory*: a callable
taking one integer seed and returning a fresh bot (an object with ``name`` and
``choose(view) -> int``, see :mod:`rulecraft.bots.protocol`). The command line's
``--bot NAME`` options look names up here, so adding a bot is two steps:

1. write it in a module of this folder, following the protocol: it is given only the
   view of the player it plays (``Game.view(player)``) and returns an option index;
2. register it, here or from anywhere before the command line runs::

       from rulecraft.bots import register
       register("cautious", lambda seed: CautiousBot(seed))

A bot must take all of its randomness from the seed it is given, so that a simulation
with ``--seed`` is reproducible.
"""

from __future__ import annotations

from typing import Callable

from .protocol import Bot
from .random_bot import RandomBot

BotFactory = Callable[[int], Bot]

REGISTRY: dict[str, BotFactory] = {
    "random": RandomBot,
}


def register(name: str, factory: BotFactory) -> None:
    """Make a bot available under ``name`` (replacing any bot of that name)."""
    REGISTRY[name] = factory


def bot_names() -> list[str]:
    return sorted(REGISTRY)


def view_for(game, bot: Bot, player: str) -> dict:
    """The view a driver hands ``bot`` playing ``player``: ``game.view(player)``, without
    the event history for a bot that declares ``needs_events = False``."""
    if getattr(bot, "needs_events", True):
        return game.view(player)
    from rulecraft.interpreter.views import player_view

    return player_view(game.ruleset, game.state, player)


def make_bot(name: str, seed: int) -> Bot:
    """A new bot of the named kind; ``KeyError`` names the known bots."""
    try:
        factory = REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown bot '{name}' (known bots: {', '.join(bot_names())})") from None
    return factory(seed)


__all__ = ["Bot", "BotFactory", "RandomBot", "REGISTRY", "bot_names", "make_bot", "register", "view_for"]
