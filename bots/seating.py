"""Which bot answers a seat's choice: the bot named for the seat, or the one named for
every seat of a side (``--bot-for SIDE=BOT``).

Sides are the rule set's (``game.sides``, :mod:`rulecraft.interpreter.sides`): teams, the
cooperative side, or each player in a free-for-all. A seat's side is read at each of its
decisions, not once at the start: a seat whose side changes during the game (a team's
member function that says otherwise later) plays for its new side from then on, with the
bot chosen for that side. A bot chosen for a side is chosen for what that side is trying
to do, and a seat that changed sides is trying to do something else.

Reading the side is the driver's business, as dealing the cards is: the bots still see
only their seat's view. A seat on several sides (team functions that overlap) gets the
bot of the first of them, in the rule set's declared order, that has one; a seat on none
of the named sides gets its own bot.

Each bot is made once per seat and kind, seeded from the seat alone, so a seat that goes
back to an earlier side finds its earlier bot with what it had learnt, and a game with
the same seed and options plays the same.
"""

from __future__ import annotations

from typing import Callable

from rulecraft.interpreter.sides import seat_sides, side_names
from rulecraft.interpreter.state import all_seats, scripted_seats

from . import make_bot
from .protocol import Bot


def side_bot_problem(ruleset, players: int, side_bots: dict[str, str]) -> str | None:
    """Why a side named in ``side_bots`` is no side of the rule set's game (one line), or None."""
    sides = side_names(ruleset, all_seats(ruleset, players))
    scripted = scripted_seats(ruleset, players)
    for side in side_bots:
        if side in scripted:  # a free-for-all's side of a seat the rules play themselves
            return (f"--bot-for: '{side}' is played by the script '{scripted[side]}' of the rules, not by a bot "
                    f"(the seats bots play: {', '.join(s for s in sides if s not in scripted)})")
        if side not in sides:
            return (f"--bot-for: '{side}' is no side of {ruleset.data.game.title} "
                    f"(its sides: {', '.join(sides)})")
    return None


class Seating:
    """The bots of a game's seats: ``seat_bots`` player → bot name, ``side_bots`` side →
    bot name (empty: every seat keeps its own bot), ``seed_of(player)`` a seat's bot seed."""

    def __init__(self, ruleset, seat_bots: dict[str, str], side_bots: dict[str, str] | None,
                 seed_of: Callable[[str], int]):
        self.ruleset = ruleset
        self.seat_bots = seat_bots
        self.side_bots = dict(side_bots or {})
        self._seed_of = seed_of
        self._made: dict[tuple[str, str], Bot] = {}
        self._order: list[str] | None = None

    def name_for(self, state, player: str) -> str:
        """The name of the bot that answers ``player``'s choice now."""
        if self.side_bots:
            if self._order is None:
                self._order = side_names(self.ruleset, list(state.players))
            on = seat_sides(self.ruleset, state).get(player, [])
            for side in self._order:
                if side in on and side in self.side_bots:
                    return self.side_bots[side]
        return self.seat_bots[player]

    def bot_for(self, state, player: str) -> Bot:
        """The bot that answers ``player``'s choice now (see the module doc)."""
        name = self.name_for(state, player)
        bot = self._made.get((player, name))
        if bot is None:
            bot = self._made[(player, name)] = make_bot(name, self._seed_of(player))
        return bot
