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

   or, for every process (a cluster's workers too), install it through the
   ``rulecraft.bots`` entry-point group (see docs/bots.md).

A bot must take all of its randomness from the seed it is given, so that a simulation
with ``--seed`` is reproducible.

A bot may take a setting after its name, ``NAME:SETTING`` (``mcts:500`` searches 500
iterations per decision): its factory is then called as ``factory(seed, SETTING)``, and
the factory's optional ``setting_problem(SETTING) -> str | None`` says why a setting is
wrong before any game starts.
"""

from __future__ import annotations

import weakref
from typing import Callable

from .greedy import GreedyBot
from .heuristic import HeuristicBot
from .mcts import MCTSBot, budget_problem, make_mcts, policy_problem
from .protocol import Bot
from .random_bot import RandomBot

BotFactory = Callable[[int], Bot]

REGISTRY: dict[str, BotFactory] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "greedy": GreedyBot,
    "mcts": make_mcts,
}
make_mcts.setting_problem = budget_problem
make_mcts.setting_rules_problem = policy_problem
_BUILT_IN_FACTORIES = dict(REGISTRY)


# Installed packages may bring bots through this entry-point group: each entry's name is
# the bot's name, its object the factory. Every process that makes bots finds them there,
# the workers of a Ray cluster included; a bot registered by running code is known to the
# process that registered it only.
ENTRY_POINT_GROUP = "rulecraft.bots"
_loaded_entry_points = False


def _load_installed() -> None:
    """Add the bots installed through the entry-point group (once; a registered name wins)."""
    global _loaded_entry_points
    if _loaded_entry_points:
        return
    _loaded_entry_points = True
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name not in REGISTRY:
            REGISTRY[ep.name] = ep.load()
            _INSTALLED.add(ep.name)


_INSTALLED: set[str] = set()


def register(name: str, factory: BotFactory) -> None:
    """Make a bot available under ``name`` (replacing any bot of that name), in this
    process (other processes, such as a cluster's workers, find installed bots only)."""
    _load_installed()
    REGISTRY[name] = factory
    _INSTALLED.discard(name)


def installed_everywhere(name: str) -> bool:
    """Whether every process finds the bot ``name`` (``NAME`` or ``NAME:SETTING``): one of
    rulecraft's own, or one installed through the ``rulecraft.bots`` entry points."""
    _load_installed()
    base = name.partition(":")[0]
    return base in _INSTALLED or (base in _BUILT_IN_FACTORIES and REGISTRY.get(base) is _BUILT_IN_FACTORIES[base])


def bot_names() -> list[str]:
    _load_installed()
    return sorted(REGISTRY)


# Where each "new events only" bot stopped reading a game's event list, per player.
_EVENT_CURSORS: "weakref.WeakKeyDictionary[object, dict]" = weakref.WeakKeyDictionary()


def view_for(game, bot: Bot, player: str) -> dict:
    """The view a driver hands ``bot`` playing ``player``: ``game.view(player)``, whose
    ``view["game"]`` names the game on the table. A bot with ``learn_rules`` is handed
    the rules in play first (see :func:`hand_rules`).

    The event history follows the bot's ``needs_events``: all of it (True, the default),
    none (False), or ``"new"``: only the events since the previous view handed to this
    bot for this game and player, which keeps a long game's views cheap for a bot that
    remembers what it has read.
    """
    from rulecraft.interpreter.views import player_view

    hand_rules(game, bot)
    wants = getattr(bot, "needs_events", True)
    if wants == "new":
        view = player_view(game.ruleset, game.state, player)
        view["events"] = _unread_events(game, bot, player)
    elif wants:
        view = game.view(player)
    else:
        view = player_view(game.ruleset, game.state, player)
    return view


def hand_rules(game, bot: Bot) -> None:
    """Give ``bot`` the rules on the table, if it asks for them with ``learn_rules``.

    The rules (the rule set in play, its variant applied) are public: a bot reads the
    game's facts from them instead of restating them in Python."""
    learn = getattr(bot, "learn_rules", None)
    if learn is not None:
        learn(game.ruleset)


def _unread_events(game, bot: Bot, player: str) -> list[dict]:
    """The player's visible events this bot has not been handed yet (numbered, like
    every view's events, in the player's own stream)."""
    try:
        cursors = _EVENT_CURSORS.setdefault(bot, {})
    except TypeError:  # a bot that cannot be weakly referenced gets the whole history
        return game.events_for(player)
    key = (id(game), game.seed, player)
    start = cursors.get(key, 0)
    total = game.visible_count(player)
    if start > total:  # another game reused the same id
        start = 0
    cursors.clear()  # one game at a time: forget older games
    cursors[key] = total
    return game.events_for(player, since=start)


def bot_problem(name: str) -> str | None:
    """Why ``name`` (``NAME`` or ``NAME:SETTING``) names no bot (one line), or None."""
    base, colon, setting = name.partition(":")
    _load_installed()
    factory = REGISTRY.get(base)
    if factory is None:
        return f"unknown bot '{base}' (known bots: {', '.join(bot_names())})"
    if colon:
        check = getattr(factory, "setting_problem", None)
        if check is None:
            return f"the {base} bot takes no setting (give '{base}', not '{name}')"
        return check(setting)
    return None


def make_bot(name: str, seed: int) -> Bot:
    """A new bot of the named kind (``NAME`` or ``NAME:SETTING``); ``KeyError`` names the known bots."""
    problem = bot_problem(name)
    if problem is not None:
        raise KeyError(problem)
    base, colon, setting = name.partition(":")
    return REGISTRY[base](seed, setting) if colon else REGISTRY[base](seed)


def cannot_play(name: str, ruleset) -> str | None:
    """Why the bot ``name`` cannot play the rule set's game (one line), or None.

    A factory may say which games it knows with a ``plays(game_name) -> bool``
    attribute and name them with ``known_games() -> list[str]``; bots without one play
    any game (as the random bot does). A factory's ``rules_problem(ruleset)`` may still
    refuse a rule set of a game it knows."""
    name, colon, setting = name.partition(":")
    factory = REGISTRY[name]
    plays = getattr(factory, "plays", None)
    game = ruleset.data.game
    if plays is None or plays(game.name):
        check = getattr(factory, "rules_problem", None)
        problem = check(ruleset) if check is not None else None
        # a setting the rule set gives nothing to work with (a search guided by a policy
        # the game does not have): refused rather than silently ignored
        check_setting = getattr(factory, "setting_rules_problem", None)
        if problem is None and colon and check_setting is not None:
            problem = check_setting(setting, ruleset)
        return problem
    known = getattr(factory, "known_games", lambda: [])()
    from .evaluation import declares_heuristics

    greedy = "; its rules declare a heuristic, which --bot greedy plays by" if declares_heuristics(ruleset) else ""
    return (f"the {name} bot has no strategy for {game.title} ('{game.name}'); "
            f"it plays: {', '.join(known) or 'nothing yet'}{greedy}")


__all__ = ["Bot", "BotFactory", "GreedyBot", "HeuristicBot", "MCTSBot", "RandomBot", "REGISTRY", "bot_names", "bot_problem",
           "cannot_play", "hand_rules", "make_bot", "register", "view_for"]
