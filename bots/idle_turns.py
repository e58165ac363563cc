"""How often bot seats let a whole turn go by without acting.

A turn is *idle* when its player ends it with their first answer although an action
other than ending the turn was offered (a turn that ends because nothing else is legal
is not idle: there was nothing to do). :func:`count_idle_turns` plays games with the
given bots and counts, per seat, the turns, the idle ones and the longest run of idle
turns in a row. It is a driver: the bots get their views as in any game, and the count
reads only what every player sees (whose turn it is and how many turns have started,
the options, the answers).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulecraft.interpreter.game import Game
from rulecraft.interpreter.state import seat_players

from . import make_bot, view_for


@dataclass
class IdleCount:
    turns: int = 0  # turns in which the seat had an action to take besides ending it
    idle: int = 0  # of those, turns ended at once
    longest_run: int = 0  # most idle turns in a row, by one seat
    by_seat: dict[str, int] = field(default_factory=dict)  # idle turns per seat

    @property
    def share(self) -> float:
        return self.idle / self.turns if self.turns else 0.0

    def add(self, other: "IdleCount") -> None:
        self.turns += other.turns
        self.idle += other.idle
        self.longest_run = max(self.longest_run, other.longest_run)
        for seat, n in other.by_seat.items():
            self.by_seat[seat] = self.by_seat.get(seat, 0) + n


def _ends_turn(option) -> bool:
    return isinstance(option, dict) and option.get("action") == "end_turn"


def count_idle_turns(ruleset, players: int, seeds, bots: list[str], bot_seed=lambda seed, seat: seed * 7919 + seat) -> IdleCount:
    """Play one game per seed (bots as ``simulate --bot``: one name for every seat or
    one per seat) and count the idle turns (see the module doc)."""
    total = IdleCount()
    names = bots if len(bots) > 1 else bots * players
    for seed in seeds:
        game = Game(ruleset, players, seed)
        seats = {p: make_bot(names[i], bot_seed(seed, i)) for i, p in enumerate(seat_players(players))}
        count = IdleCount()
        runs = {p: 0 for p in seats}
        turn_of: dict[str, int] = {}  # seat → the number of its turn under way
        fresh: dict[str, bool] = {}  # seat → no answer given yet in that turn
        while not game.over:
            choice = game.pending
            player = choice.player
            bot = seats[player]
            view = view_for(game, bot, player)
            index = bot.choose(view)
            if choice.kind == "action" and view.get("current") == player:
                turn = game.state.turn_number
                if turn_of.get(player) != turn:
                    turn_of[player], fresh[player] = turn, True
                if fresh[player]:
                    fresh[player] = False
                    if any(not _ends_turn(o) for o in choice.options):
                        count.turns += 1
                        if _ends_turn(choice.options[index]):
                            count.idle += 1
                            count.by_seat[player] = count.by_seat.get(player, 0) + 1
                            runs[player] += 1
                            count.longest_run = max(count.longest_run, runs[player])
                        else:
                            runs[player] = 0
            game.choose(index)
        total.add(count)
    return total
