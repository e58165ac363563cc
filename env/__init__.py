"""A PettingZoo AEC environment for any rule set: ``rulecraft.env.env(ruleset, players=N, seed=S)``.

Agents are the seats (``p1``, ``p2``, ...); the agent to act is whoever must answer the
pending choice (an action, a ``choose`` or a reaction), so a game where a player answers
out of turn is played as it is. A seat the rules play by a script is not an agent. Each
agent observes ``{"observation", "action_mask"}``:

- ``observation``: the agent's view (never the full state) as a fixed-length float32
  vector laid out from the rule set's tables (see :mod:`rulecraft.env.observation`);
- ``action_mask``: 1 for each legal option of the agent's pending choice, 0 elsewhere.

By default (``actions="options"``) an action is the index of an option in the pending
choice's list of legal options, in the order the rules give them. The action space is
``Discrete(max_options)``: give ``max_options`` or let it be measured from seeded random
games of the rule set, the same for every seed (:mod:`rulecraft.survey`: the widest
choice seen, with headroom when games differ; a choice with more options later is an
error naming the argument to raise). With ``actions="catalog"`` an action is the number
of a move in the rule set's action catalog (:mod:`rulecraft.action_catalog`), the same
move in every state (on a 3×3 grid, ``4`` always marks the middle square), and the action
space is the catalog's length.

Rewards come at the end: the payoffs the rule set declares (``game.payoff``), else, from
the game's result, +1 to every seat it names among the winners (a seat of the winning
side the victory leaves out, one that died, did not win), -1 to the others, 0 to all when
nobody won (-1 in a cooperative game, which the game itself won);
see :mod:`rulecraft.interpreter.payoffs`. A game the rule set stops undecided (its
round limit) is truncated, not terminated: every agent gets ``truncation=True`` and
reward 0.

Each episode is a game of its own seed, drawn from a generator seeded by ``seed``
(``reset(seed=S)`` reseeds it, as PettingZoo's convention is; ``reset()`` plays the
generator's next seed): the same seed gives the same sequence of episodes
(:func:`rulecraft.survey.episode_seeds`). All chance is then the game's own seeded
generator. ``seed=None`` draws that sequence at random, as PettingZoo takes it: another
on every run.

Arguments are checked before anything is played (:mod:`rulecraft.env.arguments`), each
refusal one line naming the argument; ``variant=`` names a variant of a rule set given
by its folder or name. The action width is surveyed once per rule set, player count and
process. :func:`bot_policy` plays one of rulecraft's own bots for an agent, handing it
its seat's events (:mod:`rulecraft.env.policy`).

Requires the ``research`` extra: ``pip install -e ".[research]"``.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from rulecraft.interpreter.game import PLAYER_FACING, Game
from rulecraft.interpreter.payoffs import returns
from rulecraft.interpreter.state import seat_players
from rulecraft.interpreter.views import player_view
from rulecraft.narration import Words
from rulecraft.survey import check_max_options, episode_seeds, next_seed

from .arguments import cached_catalog, cached_survey, check_actions, check_players, check_seed, ruleset_with_variant
from .observation import ObservationLayout
from .policy import bot_policy


def env(ruleset, players: int | None = None, seed: int | None = 0, max_options: int | None = None,
        actions: str = "options", **kwargs):
    """The environment wrapped as PettingZoo's own classic games are (illegal moves end
    the game for the player who made them; order of calls enforced). ``ruleset``: a
    loaded rule set, a folder or a shipped rule set's name, as the command line takes it;
    the other arguments as :class:`raw_env` takes them (``actions``, ``variant``,
    ``render_mode``, ``record_events``)."""
    e = raw_env(ruleset, players=players, seed=seed, max_options=max_options, actions=actions, **kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """The environment (see the module doc). ``players``: None for the rule set's least;
    ``seed``: a whole number, or None for a random sequence of episodes (PettingZoo's
    convention: another each run); ``actions``: ``"options"`` (an action is an option's
    place in the pending choice) or ``"catalog"`` (its number in the rule set's action
    catalog, the same move in every state); ``variant``: a variant of a rule set given by its
    folder or name; ``render_mode``: None, ``"ansi"`` or ``"human"``; ``record_events``:
    keep each seat's events, as a bot's view holds them (:func:`bot_policy` turns it
    on), which rendering does too."""

    metadata = {"render_modes": ["human", "ansi"], "name": "rulecraft_v0", "is_parallelizable": False}

    def __init__(self, ruleset, players: int | None = None, seed: int | None = 0, max_options: int | None = None,
                 render_mode: str | None = None, variant: str | None = None, record_events: bool = False,
                 actions: str = "options"):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: one of {', '.join(self.metadata['render_modes'])}, "
                             f"or None for no rendering")
        check_max_options(max_options)
        self.actions = check_actions(actions, max_options)
        seed = check_seed(seed, allow_none=True)
        ruleset = ruleset_with_variant(ruleset, variant)
        self.ruleset = ruleset
        self.players_count = check_players(ruleset, players)
        self.seed = seed
        self._episode_seeds = episode_seeds(seed)  # each reset() plays the next of these
        self.render_mode = render_mode
        self.record_events = bool(record_events)
        self.layout = ObservationLayout(ruleset, self.players_count)
        # the catalog, when actions are numbered by it (its length is the action space)
        self.catalog = cached_catalog(ruleset, self.players_count) if self.actions == "catalog" else None
        if self.catalog is not None:
            self.max_options = len(self.catalog)
        else:
            self.max_options = max_options or cached_survey(ruleset, self.players_count,
                                                            settings=PLAYER_FACING).action_width
        # the seats of people and bots: a scripted seat answers its own choices and is no agent
        self.possible_agents = seat_players(self.players_count)
        held = getattr(ruleset, "variant", None)
        name = ruleset.data.game.name + (f"_{held.name}" if held is not None else "")
        self.metadata = dict(self.metadata, name=f"rulecraft_{name}_v0")
        self.game: Game | None = None
        self._words = Words(ruleset) if render_mode is not None else None
        # one space per agent, the same object at every call, as PettingZoo expects; kept
        # by the environment itself, so that it is freed with it
        observation = spaces.Dict({
            "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(self.layout.size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.max_options,), dtype=np.int8),
        })
        self._observation_spaces = {a: observation for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(self.max_options) for a in self.possible_agents}

    def observation_space(self, agent):
        return self._observation_spaces[self._agent(agent)]

    def action_space(self, agent):
        return self._action_spaces[self._agent(agent)]

    def _agent(self, agent):
        if agent not in self._action_spaces:
            raise KeyError(f"{agent!r} is no agent of this environment: its agents are "
                           f"{', '.join(self.possible_agents)}")
        return agent

    def observe(self, agent):
        view = player_view(self.ruleset, self.game.state, agent)
        mask = np.zeros(self.max_options, dtype=np.int8)
        if view["choice"] is not None and not self.game.over:
            if self.catalog is not None:
                mask[self.catalog.ids(self.game.state.pending)] = 1
            else:
                mask[:len(view["choice"]["options"])] = 1
        return {"observation": np.asarray(self.layout.encode(view), dtype=np.float32), "action_mask": mask}

    def reset(self, seed=None, options=None):
        if seed is not None:
            self.seed = check_seed(seed, allow_none=False)
            self._episode_seeds = episode_seeds(self.seed)
        # events are kept only to be told by render() or read by a bot (bot_policy)
        # run as for players at a table: who is asked to react shows nobody's cards
        self.game = Game(self.ruleset, self.players_count, next_seed(self._episode_seeds),
                         record_events=self.render_mode is not None or self.record_events, settings=PLAYER_FACING)
        self._told: dict[str, int] = {}  # per seat, how many of its events render() has told
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.game.pending.player
        self._check_width()

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.game.choose(self.option_of(action))
        if self.game.over:
            # a game the rules stopped undecided (a round limit) is truncated: no win, no loss
            decided = self.game.result.get("decided", True) is not False
            paid = returns(self.ruleset, self.game.state) if decided else {}
            for a in self.agents:
                self.rewards[a] = paid.get(a, 0)
                self.terminations[a] = decided
                self.truncations[a] = not decided
        else:
            self.agent_selection = self.game.pending.player
            self._check_width()
        self._accumulate_rewards()

    def option_of(self, action) -> int:
        """The index, among the pending choice's options, of ``action`` (with
        ``actions="catalog"``, its number in the catalog); ValueError when it is no
        legal option now."""
        action = int(action)
        if self.catalog is None:
            return action
        ids = self.catalog.ids(self.game.state.pending)
        if action not in ids:
            shown = self.catalog.label(action) if 0 <= action < len(self.catalog) else "no move"
            raise ValueError(f"action {action} ({shown}) is not legal now: the legal actions are those the "
                             f"action_mask marks")
        return ids.index(action)

    def action_of(self, option: int) -> int:
        """The action that answers with the pending choice's ``option``-th option."""
        if self.catalog is None:
            return int(option)
        return self.catalog.ids(self.game.state.pending)[int(option)]

    def _check_width(self) -> None:
        if self.catalog is not None:
            return  # every option has its number in the catalog
        count = len(self.game.pending.options)
        if count > self.max_options:
            raise ValueError(f"a choice offers {count} options, more than max_options={self.max_options}: "
                             f"make the environment with a larger max_options")

    def render(self):
        """The game in plain sentences, as the agent to act sees it (after the game, the
        first seat): what it saw happen since the last render, then its options by
        action number; returned with ``render_mode="ansi"``, printed with ``"human"``."""
        if self.render_mode is None:
            return None
        game = self.game
        pending = game.pending
        seat = pending.player if pending is not None else self.possible_agents[0]
        view = game.view(seat)
        words = self._words
        words.know_view(view)
        told = words.tell(view["events"][self._told.get(seat, 0):])  # as the play screens tell them
        self._told[seat] = len(view["events"])
        lines = [f"round {game.state.round}, as {seat} sees it:"] + [f"  {t}" for t in told if t]
        if pending is None:
            lines.append(words.result(game.result, seat))
        else:
            lines.append(f"{seat} to choose:")
            numbers = (self.catalog.ids(game.state.pending) if self.catalog is not None
                       else range(len(view["choice"]["options"])))
            lines += [f"  {i}: {words.option(o)['label']}" for i, o in zip(numbers, view["choice"]["options"])]
        text = "\n".join(lines)
        if self.render_mode == "human":  # printed, and nothing returned, as PettingZoo's render_test asks
            print(text)
            return None
        return text

    def close(self):
        pass


__all__ = ["env", "raw_env", "bot_policy", "ObservationLayout"]
