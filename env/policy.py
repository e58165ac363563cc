"""rulecraft's own bots as players of an environment: ``bot_policy(env, "mcts:50")``.

A bot reads its seat's view, with the events that seat saw so far (a search bot follows
the game by them), as ``rulecraft simulate`` hands it. The environment keeps events only
when asked (``record_events``; rendering does too), so :func:`bot_policy` turns that on;
a game under way without them is replayed once with them, the very same game.

Each seat gets a bot of its own, new for each episode and seeded as ``simulate`` seeds
it from the episode's game seed (seat *k*, counted from 0: ``seed * 7919 + k``), so an
environment's seed fixes the bots' play too.
"""

from __future__ import annotations

from typing import Callable

from rulecraft.interpreter.game import Game

# as rulecraft simulate seeds the bot of a seat (cli/simulate.bot_seed)
_BOT_SEED_STEP = 7919


def bot_policy(environment, bot: str = "random") -> Callable[[str], int]:
    """A policy playing ``bot`` (a bot's name as ``--bot`` takes it: ``random``,
    ``greedy``, ``heuristic``, ``mcts:N``...) for whichever agent it is asked about:
    ``policy(agent)`` returns the action (an option's index, or with ``actions="catalog"``
    its number in the catalog) the bot chooses for
    ``agent``, which must be the agent to act. Unknown bots, and bots that cannot play
    the rule set, are refused with ``ValueError``."""
    from rulecraft.bots import bot_problem, cannot_play

    raw = environment.unwrapped
    if not isinstance(bot, str):
        raise TypeError(f"bot={bot!r}: give a bot's name, as --bot takes it")
    problem = bot_problem(bot) or cannot_play(bot, raw.ruleset)
    if problem:
        raise ValueError(problem)
    raw.record_events = True
    return _BotPolicy(raw, bot)


class _BotPolicy:
    def __init__(self, raw, name: str):
        self.raw = raw
        self.name = name
        self._game: Game | None = None  # the episode the bots below play
        self._bots: dict = {}

    def __call__(self, agent: str) -> int:
        from rulecraft.bots import make_bot, view_for

        raw = self.raw
        game = raw.game
        if game is None:
            raise ValueError("the environment has no game yet: call reset() first")
        if game.over or game.pending is None:
            raise ValueError(f"the game is over: {agent} has nothing to choose")
        if agent != game.pending.player:
            raise ValueError(f"{agent} is not to act: {game.pending.player} is (env.agent_selection)")
        if not game.record_events:
            # begun before events were asked for: the same game again, with its events
            game = raw.game = Game.replay(raw.ruleset, raw.players_count, game.seed, list(game.decisions),
                                          settings=game.state.settings)
        if game is not self._game:
            self._game, self._bots = game, {}
        bot = self._bots.get(agent)
        if bot is None:
            seat = raw.possible_agents.index(agent)
            bot = self._bots[agent] = make_bot(self.name, game.seed * _BOT_SEED_STEP + seat)
        return raw.action_of(bot.choose(view_for(game, bot, agent)))
