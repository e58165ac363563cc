"""An OpenSpiel game for any rule set, so OpenSpiel's algorithms run on rulecraft games.

``register(ruleset, players=N)`` registers the rule set with ``pyspiel.register_game``
under ``rulecraft_<game name>`` and returns the short name; ``pyspiel.load_game(name)``
then makes it, or ``load(ruleset, players=N)`` does both. Each OpenSpiel state holds a
rulecraft game state and runs it with the rulecraft interpreter.

- **Players** are the seats in order (OpenSpiel player 0 is ``p1``); the player to move
  is whoever must answer the pending choice. A seat the rules play by a script
  (``game.scripted_seats``) is not an OpenSpiel player: it answers its own choices.
- **Actions** are option indexes: action ``i`` is the i-th legal option of the pending
  choice, in the order the rules give them; ``num_distinct_actions`` is measured from
  seeded random games as ``rulecraft.env`` measures its action space
  (:mod:`rulecraft.survey`), or the ``max_options`` given.
- **Chance** stays inside the game: rulecraft draws every die roll and shuffle from the
  seeded generator in its state, so a game whose rules draw anything is declared
  ``SAMPLED_STOCHASTIC`` (OpenSpiel's mode for games that sample chance themselves,
  seeded by the game parameter ``seed``); a rule set whose random games never depend on
  the seed is ``DETERMINISTIC``, which OpenSpiel's exhaustive tools (``get_all_states``)
  need.
- **Information**: perfect when every zone and property of the rule set is visible to
  everyone, otherwise imperfect; observation strings are the player's view (never the
  full state) as JSON, observation tensors the same view as ``rulecraft.env`` encodes
  it.
- **Returns**: +1 to every seat on the winning side (``game.sides``), -1 to the others,
  0 to all when nobody won (-1 in a cooperative game); zero-sum for two seats who play
  for themselves.

Requires the ``research`` extra: ``pip install -e ".[research]"``.
"""

from __future__ import annotations

import json

import numpy as np
import pyspiel

from rulecraft.bots.mcts import seat_rewards
from rulecraft.dsl.loader import load_checked
from rulecraft.env.observation import ObservationLayout
from rulecraft.interpreter.machine import Machine
from rulecraft.interpreter.state import new_state, seat_players
from rulecraft.interpreter.views import player_view
from rulecraft.survey import survey


def load(ruleset, players: int | None = None, seed: int = 0, max_options: int | None = None):
    """The OpenSpiel game of ``ruleset`` (a loaded rule set or a folder)."""
    return pyspiel.load_game(register(ruleset, players, max_options), {"seed": seed})


def register(ruleset, players: int | None = None, max_options: int | None = None) -> str:
    """Register ``ruleset`` with OpenSpiel; returns the name to load it by."""
    if not hasattr(ruleset, "data"):
        ruleset = load_checked(ruleset)
    players = players or ruleset.data.game.min_players
    name = f"rulecraft_{ruleset.data.game.name}_{players}p"
    found = survey(ruleset, players, chance=True)
    layout = ObservationLayout(ruleset, players)
    perfect = _all_visible(ruleset)
    two_alone = players == 2 and "teams" not in (ruleset.data.game.sides or {}) \
        and "cooperative" not in (ruleset.data.game.sides or {}) and not ruleset.data.game.scripted_seats
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"rulecraft {ruleset.data.game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC if found.seeded
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.PERFECT_INFORMATION if perfect
                     else pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.ZERO_SUM if two_alone else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"seed": 0},
    )
    info = pyspiel.GameInfo(
        num_distinct_actions=max_options or found.action_width,
        max_chance_outcomes=0,
        num_players=players,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0 if two_alone else None,
        # the longest surveyed game, with room: a game longer than this is not an error of the rules
        max_game_length=4 * found.longest,
    )

    class RulecraftGame(pyspiel.Game):
        def __init__(self, params=None):
            super().__init__(game_type, info, params or {})
            self.ruleset = ruleset
            self.players_count = players
            self.seed = int((params or {}).get("seed", 0))
            self.layout = layout

        def new_initial_state(self):
            return RulecraftState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return _ViewObserver(self)

    pyspiel.register_game(game_type, RulecraftGame)
    return name


class _Held:
    """The rulecraft state inside an OpenSpiel state; OpenSpiel copies states with
    deepcopy, which here clones the game state and shares the (read-only) rule set."""

    def __init__(self, ruleset, state):
        self.ruleset = ruleset
        self.state = state
        self.machine = Machine(ruleset, state)

    def __deepcopy__(self, memo):
        return _Held(self.ruleset, self.state.clone())


class RulecraftState(pyspiel.State):
    def __init__(self, game):
        super().__init__(game)
        state = new_state(game.ruleset, game.players_count, game.seed)
        self._held = _Held(game.ruleset, state)
        self._held.machine.start()
        self._width = game.num_distinct_actions()
        # OpenSpiel's players are the seats of people and bots; a scripted seat plays itself
        self._seats = seat_players(game.players_count)

    @property
    def _state(self):
        return self._held.state

    def current_player(self):
        if self._state.result is not None:
            return pyspiel.PlayerId.TERMINAL
        return self._seats.index(self._state.pending["player"])

    def _legal_actions(self, player):
        count = len(self._state.pending["options"])
        if count > self._width:
            raise ValueError(f"a choice offers {count} options, more than num_distinct_actions={self._width}: "
                             f"register the rule set with a larger max_options")
        return list(range(count))

    def _apply_action(self, action):
        self._held.machine.answer(int(action))

    def _action_to_string(self, player, action):
        return json.dumps(self._state.pending["options"][action], sort_keys=True)

    def is_terminal(self):
        return self._state.result is not None

    def returns(self):
        s = self._state
        if s.result is None:
            return [0.0] * len(self._seats)
        ruleset = self._held.ruleset
        cooperative = "cooperative" in (ruleset.data.game.sides or {})
        if not s.result["winners"] and not cooperative:
            return [0.0] * len(self._seats)
        outcome = seat_rewards(ruleset, s, cooperative)
        return [2.0 * outcome[p] - 1.0 for p in self._seats]

    def __str__(self):
        # the whole state (OpenSpiel tells states apart by their strings), as rulecraft saves it
        return self._state.dumps()


class _ViewObserver:
    """A player's view as OpenSpiel's Python observer API gives it: the string is the
    view as JSON, the tensor the environment's vector of the same view
    (:mod:`rulecraft.env.observation`)."""

    def __init__(self, game):
        self.ruleset = game.ruleset
        self.layout = game.layout
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        s = state._held.state
        self.tensor[:] = self.layout.encode(player_view(self.ruleset, s, state._seats[player]))

    def string_from(self, state, player):
        s = state._held.state
        return json.dumps(player_view(self.ruleset, s, state._seats[player]), sort_keys=True, default=str)


def _all_visible(ruleset) -> bool:
    data = ruleset.data
    if any(z.visible_to != "everyone" for z in data.zones.values()):
        return False
    if any(p.visible_to != "everyone" for k in data.kinds.values() for p in k.properties.values()):
        return False
    return all(v.visible_to == "everyone" for scope in data.variables.values() for v in scope.values())


__all__ = ["load", "register", "RulecraftState"]
