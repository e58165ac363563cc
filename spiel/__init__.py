"""An OpenSpiel game for any rule set, so OpenSpiel's algorithms run on rulecraft games.

``register(ruleset, players=N)`` registers the rule set (a loaded rule set, a folder or
a shipped rule set's name, as the command line takes it) with ``pyspiel.register_game``
and returns its name; ``pyspiel.load_game(name)`` then makes it, or ``load(ruleset,
players=N)`` does both. Each OpenSpiel state holds a rulecraft game state and runs it
with the rulecraft interpreter.

- **Names** tell apart everything that makes another game:
  ``rulecraft_<game>[_<variant>]_<N>p[_chance][_<W>options|_catalog]`` (``_chance``:
  explicit chance; ``_<W>options``: a ``max_options`` other than the measured width;
  ``_catalog``: actions numbered by the catalog). A second
  rule set (another folder, or another variant) that would register under a name taken
  is refused: the first one's saved states would load with its rules.
- **Players** are the seats in order (OpenSpiel player 0 is ``p1``); the player to move
  is whoever must answer the pending choice. A seat the rules play by a script
  (``game.scripted_seats``) is not an OpenSpiel player: it answers its own choices.
- **Actions** are option indexes by default (``actions="options"``): action ``i`` is the
  i-th legal option of the pending choice, in the order the rules give them;
  ``num_distinct_actions`` is measured from seeded random games as ``rulecraft.env``
  measures its action space (:mod:`rulecraft.survey`), or the ``max_options`` given (a
  positive whole number). With ``actions="catalog"`` an action is a move's number in
  the rule set's action catalog (:mod:`rulecraft.action_catalog`), the same move in every
  state, and ``num_distinct_actions`` is the catalog's length.
- **Chance**, with ``chance="sampled"`` (the default), stays inside the game: rulecraft
  draws every die roll, random pick and shuffle from the seeded generator in its state,
  so a game whose rules draw anything is declared ``SAMPLED_STOCHASTIC``. Each new state
  is a game of its own seed, drawn from a generator the game holds, seeded by the game
  parameter ``seed`` (:func:`rulecraft.survey.episode_seeds`): episodes differ, and the
  same ``seed`` gives the same sequence of them. A state draws its seed when first used
  (played, asked who is to play, observed), not when made, because OpenSpiel's ``clone``
  makes a new state before copying the original into it; copies share their original's
  seed and draw nothing. (OpenSpiel's C++ code also makes a state to size a tensor, which
  then draws a seed: the same calls still give the same episodes.)
  With ``chance="explicit"`` it is ``EXPLICIT_STOCHASTIC``: every draw is an OpenSpiel
  chance node whose outcomes are equally likely (a die's faces, a pick's items, a
  shuffle's Fisher-Yates step; :mod:`rulecraft.interpreter.chance`), as the exact
  algorithms (CFR, exploitability, best response, ``get_all_states``) need: with sampled
  chance every new state is another game, so OpenSpiel's Python walks of the whole
  game are refused before they begin (:class:`SampledChanceError`, naming the explicit
  game). Each outcome plays the step under way again from the state before it, so
  explicit chance suits small games. A rule set whose random games never depend on the
  seed is ``DETERMINISTIC`` either way.
- **Length**: ``max_game_length`` bounds a whole history, chance actions included:
  ``LENGTH_HEADROOM`` times the longest of the surveyed random games, counting its
  draws with explicit chance (:meth:`rulecraft.survey.Survey.history_bound`).
- **Information**: perfect when every zone and property of the rule set is visible to
  everyone, otherwise imperfect. Observers: :mod:`rulecraft.spiel.observer` (a player's
  view, or with ``private_info=NONE`` what every player sees; information-state strings
  but no information-state tensors).
- **Saving**: ``pickle`` saves games and states in every chance mode (a state as its
  game's name, parameters, its own seed and its actions, replayed when loaded), and
  ``pyspiel.serialize_game_and_state`` saves them with ``chance="explicit"`` or in a
  game without chance (OpenSpiel asks a sampled game for a random generator of its own,
  which rulecraft games keep in each state instead). Either is loaded in a process
  where the rule set was registered with the same name; :func:`deserialize` loads an
  OpenSpiel save, saying what to register when it is not.
- **Returns**: the payoffs the rule set declares (``game.payoff``: its range and, when
  they always add up to one number, that sum); else +1 to every seat the result names
  among the winners, -1 to the others, 0 to all when nobody won (-1 in a cooperative
  game), zero-sum for two seats who play for themselves
  (:mod:`rulecraft.interpreter.payoffs`). A game the rules stop undecided (their round
  limit) returns 0 to everyone: OpenSpiel has no flag for a truncated game.

Requires the ``research`` extra: ``pip install -e ".[research]"``.
"""

from __future__ import annotations

import copy
import functools
import json
import re
import sys
from pathlib import Path

import pyspiel

from rulecraft.env.arguments import (cached_catalog, cached_survey, check_actions, check_players, check_seed,
                                     ruleset_with_variant)
from rulecraft.env.observation import ObservationLayout
from rulecraft.interpreter.chance import ChanceNeeded, ChanceScript
from rulecraft.interpreter.game import PLAYER_FACING
from rulecraft.interpreter.machine import Machine
from rulecraft.interpreter.payoffs import returns
from rulecraft.interpreter.state import GameState, new_state, seat_players
from rulecraft.interpreter.views import record_event
from rulecraft.survey import check_max_options, episode_seeds, next_seed

from .observer import ViewObserver

CHANCE_MODES = ("sampled", "explicit")
# The rule set registered under each name, and where it came from (its folder and
# variant), for states loaded from a save and to refuse a second rule set of the same name.
_REGISTERED: dict[str, tuple[object, tuple]] = {}
_START = "start"  # the step of a new game: setup, up to the first choice


def load(ruleset, players: int | None = None, seed: int = 0, max_options: int | None = None,
         chance: str = "sampled", variant: str | None = None, actions: str = "options"):
    """The OpenSpiel game of ``ruleset`` (a loaded rule set, a folder or a shipped rule
    set's name; ``variant``: a variant of a folder or a name); ``chance`` is
    ``"sampled"`` or ``"explicit"`` (see the module doc); ``seed`` a whole number that
    an OpenSpiel game parameter holds (32 bits, signed); ``actions``: ``"options"`` or
    ``"catalog"`` (see the module doc)."""
    seed = check_seed(seed, allow_none=False, bits=32, why="an OpenSpiel game parameter holds")
    return pyspiel.load_game(register(ruleset, players, max_options, chance, variant=variant, actions=actions),
                             {"seed": seed})


def game_name(ruleset, players: int, chance: str, width: int, measured: int, actions: str = "options") -> str:
    """The name a rule set registers by: everything that makes another game, readably:
    ``rulecraft_<game>[_<variant>]_<N>p[_chance][_<W>options|_catalog]`` (``_chance``:
    explicit chance; ``_<W>options``: a ``max_options`` other than the measured width;
    ``_catalog``: actions numbered by the rule set's catalog)."""
    variant = getattr(ruleset, "variant", None)
    if actions == "catalog":
        numbering = "_catalog"
    else:
        numbering = f"_{width}options" if width != measured else ""
    return (f"rulecraft_{ruleset.data.game.name}" + (f"_{variant.name}" if variant is not None else "")
            + f"_{players}p" + ("_chance" if chance == "explicit" else "") + numbering)


def register(ruleset, players: int | None = None, max_options: int | None = None, chance: str = "sampled",
             variant: str | None = None, actions: str = "options") -> str:
    """Register ``ruleset`` with OpenSpiel; returns the name to load it by (see
    :func:`game_name`). A second rule set (another folder or variant) whose name would be
    the same is refused: the first one's saved states would load with its rules."""
    if chance not in CHANCE_MODES:
        raise ValueError(f"chance={chance!r}: one of {', '.join(CHANCE_MODES)}")
    check_max_options(max_options)
    check_actions(actions, max_options)
    ruleset = ruleset_with_variant(ruleset, variant)
    players = check_players(ruleset, players)
    catalog = cached_catalog(ruleset, players) if actions == "catalog" else None
    found = cached_survey(ruleset, players, chance=True, settings=PLAYER_FACING)
    width = len(catalog) if catalog is not None else int(max_options or found.action_width)
    name = game_name(ruleset, players, chance, width, found.action_width, actions)
    variant = getattr(ruleset, "variant", None)
    origin = (str(Path(ruleset.root).resolve()), variant.name if variant is not None else None)
    held = _REGISTERED.get(name)
    if held is not None and held[1] != origin:
        raise ValueError(f"{name} is registered already, for the rule set at {held[1][0]}"
                         + (f" (variant {held[1][1]})" if held[1][1] else "")
                         + f": the one at {origin[0]} has the same game name; give one of them another "
                         f"game.name, or use it in another process")
    layout = ObservationLayout(ruleset, players)
    explicit = chance == "explicit" and found.seeded
    if not found.seeded:
        chance_mode = pyspiel.GameType.ChanceMode.DETERMINISTIC
    elif explicit:
        chance_mode = pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    else:
        chance_mode = pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    sampled = chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    outcomes_bound = _outcomes_bound(ruleset, players)
    perfect = _all_visible(ruleset)
    utility, low, high, total = _utility(ruleset, players)
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"rulecraft {ruleset.data.game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance_mode,
        information=(pyspiel.GameType.Information.PERFECT_INFORMATION if perfect
                     else pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"seed": 0},
    )
    info = pyspiel.GameInfo(
        num_distinct_actions=width,
        max_chance_outcomes=outcomes_bound if explicit else 0,
        num_players=players,
        min_utility=low,
        max_utility=high,
        utility_sum=total,
        # the longest surveyed history, decisions and (explicit chance) chance actions, with room
        max_game_length=found.history_bound(draws=explicit),
    )

    class RulecraftGame(pyspiel.Game):
        def __init__(self, params=None):
            super().__init__(game_type, info, params or {})
            self.ruleset = ruleset
            self.players_count = players
            self.seed = int((params or {}).get("seed", 0))
            self.layout = layout
            self.catalog = catalog  # None: actions are option indexes
            self.explicit = explicit
            self.sampled = sampled
            # with sampled chance, each new state's seed comes from here (see RulecraftState)
            self._episode_seeds = episode_seeds(self.seed)

        def new_initial_state(self):
            if self.sampled and _walker_calls():
                raise SampledChanceError(name)
            return RulecraftState(self, None if self.sampled else self.seed)

        def new_initial_states(self):
            # OpenSpiel's walks of the whole game (get_all_states: CFR, TabularPolicy,
            # best response, exploitability) begin here; with sampled chance each new state
            # is another game, so such a walk sees one of them, and OpenSpiel's own code
            # then fails far from the cause (a policy missing a state, or a crash). The
            # walks that begin at new_initial_state are refused there (_WALKERS).
            if self.sampled:
                raise SampledChanceError(name)
            return [self.new_initial_state()]

        def next_episode_seed(self) -> int:
            return next_seed(self._episode_seeds)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return ViewObserver(self, iig_obs_type)

        # sized from the layout: OpenSpiel would size them by observing a new state
        def observation_tensor_size(self):
            return self.layout.size

        def observation_tensor_shape(self):
            return [self.layout.size]

        def information_state_tensor_size(self):
            raise pyspiel.SpielError("InformationStateTensorShape unimplemented: a rulecraft game has "
                                     "information-state strings only")

        information_state_tensor_shape = information_state_tensor_size

        def __reduce__(self):
            # OpenSpiel's own pickling would ask a sampled game for its generator's state
            return _loaded_game, (name, self.get_parameters())

    pyspiel.register_game(game_type, RulecraftGame)
    _REGISTERED[name] = (ruleset, origin)
    return name


# OpenSpiel's Python modules that walk a whole game from a new state: each new state of a
# game of sampled chance is another game, so their walks would mix games (their own
# errors: a state "not found in policy", a KeyError; OpenSpiel's C++ best response then
# crashes the process). get_all_states begins at new_initial_states, refused below.
_WALKERS = frozenset(f"open_spiel.python.algorithms.{m}" for m in (
    "best_response", "exploitability", "cfr", "discounted_cfr", "fictitious_play", "policy_aggregator",
    "sequence_form_lp", "value_iteration", "lp_solver"))


def _walker_calls() -> bool:
    """Whether the caller of the caller (of ``new_initial_state``) is one of _WALKERS."""
    return sys._getframe(2).f_globals.get("__name__") in _WALKERS


class SampledChanceError(ValueError):
    """A walk of the whole game (OpenSpiel's ``get_all_states``, which CFR, tabular
    policies, best response and exploitability begin with) asked of a game whose chance
    is sampled inside each state: it would see one of its games only."""

    def __init__(self, name: str):
        explicit = re.sub(r"_(\d+)p(?=_|$)", r"_\1p_chance", name, count=1)
        super().__init__(f"{name} samples its chance inside each state, so a walk of the whole game (CFR, "
                         f"exploitability, best response, a tabular policy) would see one of its games only: "
                         f"load it with chance=\"explicit\" ({explicit}) for those")
        self.name = name


def deserialize(text: str):
    """``pyspiel.deserialize_game_and_state(text)``, for a save of a rulecraft game:
    the game and the state, or, when its rule set is not registered in this process,
    ValueError saying what to register (OpenSpiel's own would list every game it knows)."""
    lines = text.splitlines()
    try:
        name = lines[lines.index("[Game]") + 1].split("(", 1)[0].strip()
    except (ValueError, IndexError):
        raise ValueError("not a save of pyspiel.serialize_game_and_state: it has no [Game] section") from None
    if name.startswith("rulecraft_"):
        _registered(name)
    return pyspiel.deserialize_game_and_state(text)


class _Held:
    """The rulecraft state inside an OpenSpiel state, with the game's events so far;
    OpenSpiel copies states with deepcopy, which here clones the game state and shares
    the (read-only) rule set and the events already recorded. ``name`` is the name the
    rule set is registered by: a saved state is the rulecraft state as rulecraft saves
    it, and the name to find the rule set by when loaded."""

    def __init__(self, name: str, ruleset, state, events: list[dict]):
        self.name = name
        self.ruleset = ruleset
        self.state = state
        self.events = events
        self.machine = Machine(ruleset, state, on_event=functools.partial(record_event, ruleset, state, events))

    def __deepcopy__(self, memo):
        return _Held(self.name, self.ruleset, self.state.clone(), list(self.events))

    def __reduce__(self):
        return _saved_held, (self.name, self.state.dumps(), self.events)


def _registered(name: str):
    """The rule set registered as ``name``; ValueError saying what to call when none is."""
    try:
        return _REGISTERED[name][0]
    except KeyError:
        raise ValueError(f"{name} is not registered in this process: call rulecraft.spiel.register "
                         f"(or load) with its rule set, variant, player count, chance and max_options "
                         f"before loading a saved game") from None


def _saved_held(name: str, saved: str, events: list[dict]) -> _Held:
    return _Held(name, _registered(name), GameState.from_json(json.loads(saved)), events)


def _loaded_game(name: str, params: dict):
    _registered(name)
    return pyspiel.load_game(name, params)


def _replayed(name: str, params: dict, history: list[int], seed: int | None = None):
    """A state saved by pickle: its game's actions, replayed from its own seed (same
    seed, same game); a save without a seed is of a state whose seed was its game's."""
    game = _loaded_game(name, params)
    state = RulecraftState(game, game.seed if seed is None else seed)
    for action in history:
        state.apply_action(action)
    return state


class _Seed:
    """A state's seed. With sampled chance it is drawn from the game's generator of
    episode seeds when the state is first used, not when it is made: OpenSpiel copies a
    state (``clone``) by making a new one and replacing its attributes with copies of the
    original's, and a draw there would move the episodes on. Copies share it (so a copy
    of a state not yet used is the same game), and a saved state saves its value."""

    __slots__ = ("value",)

    def __init__(self, value: int | None = None):
        self.value = value

    def of(self, game) -> int:
        if self.value is None:
            self.value = game.next_episode_seed()
        return self.value

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return _Seed, (self.value,)


# A state's attributes made when it is first used (RulecraftState._begin)
_BEGUN = ("_held", "_width", "_catalog", "_explicit", "_outcomes_bound", "_seats", "_step", "_outcomes", "_draw")


class RulecraftState(pyspiel.State):
    """An OpenSpiel state: a rulecraft game state run by the interpreter. ``seed`` is the
    game's seed; None (sampled chance) draws one from the game's generator of episode
    seeds, so each new state is another game and the game's ``seed`` fixes the sequence.
    The state begins (its setup runs) when first used."""

    def __init__(self, game, seed: int | None = None):
        super().__init__(game)
        self._seed = _Seed(seed)

    def __getattr__(self, name):
        # only for attributes not set yet: those of a state not begun
        if name in _BEGUN and "_held" not in self.__dict__:
            self._begin()
            return getattr(self, name)
        raise AttributeError(name)

    def _begin(self) -> None:
        game = self.get_game()
        state = new_state(game.ruleset, game.players_count, self._seed.of(game))
        # run as for players at a table: whose turn it is shows nobody's reaction cards
        state.settings = dict(PLAYER_FACING)
        self._held = _Held(game.get_type().short_name, game.ruleset, state, [])
        self._width = game.num_distinct_actions()
        self._catalog = game.catalog
        self._explicit = game.explicit
        self._outcomes_bound = game.max_chance_outcomes()
        # OpenSpiel's players are the seats of people and bots; a scripted seat plays itself
        self._seats = seat_players(game.players_count)
        # with explicit chance: the step under way (an option's number, or _START), the
        # outcomes drawn in it so far, and how many the next draw has (0: no chance node)
        self._step = _START
        self._outcomes: list[int] = []
        self._draw = 0
        self._run_step()

    @property
    def seed(self) -> int:
        """The seed of this state's game (with sampled chance, its own: see the class doc)."""
        self._held  # noqa: B018 - begins the state
        return self._seed.value

    @property
    def _state(self):
        return self._held.state

    def _run_step(self) -> None:
        """Play the step under way: at once, or (explicit chance) again from the state
        before it with the outcomes drawn so far, up to its next draw."""
        if not self._explicit:
            machine = self._held.machine
            machine.start() if self._step == _START else machine.answer(self._step)
            return
        trial = copy.deepcopy(self._held)
        trial.machine.chance = ChanceScript(self._outcomes)
        try:
            trial.machine.start() if self._step == _START else trial.machine.answer(self._step)
        except ChanceNeeded as need:
            if need.count > self._outcomes_bound:
                raise ValueError(f"a draw among {need.count} outcomes, more than max_chance_outcomes="
                                 f"{self._outcomes_bound}") from None
            self._draw = need.count
            return
        trial.machine.chance = None
        self._held, self._step, self._outcomes, self._draw = trial, None, [], 0

    def current_player(self):
        if self._draw:
            return pyspiel.PlayerId.CHANCE
        if self._state.result is not None:
            return pyspiel.PlayerId.TERMINAL
        return self._seats.index(self._state.pending["player"])

    def chance_outcomes(self):
        return [(i, 1.0 / self._draw) for i in range(self._draw)]

    def _legal_actions(self, player):
        if self._catalog is not None:
            return sorted(set(self._catalog.ids(self._state.pending)))
        count = len(self._state.pending["options"])
        if count > self._width:
            raise ValueError(f"a choice offers {count} options, more than num_distinct_actions={self._width}: "
                             f"register the rule set with a larger max_options")
        return list(range(count))

    def _apply_action(self, action):
        if self._draw:
            self._outcomes.append(int(action))
        elif self._catalog is not None:
            ids = self._catalog.ids(self._state.pending)
            if int(action) not in ids:
                raise ValueError(f"action {action} is not legal now: the legal actions are {sorted(set(ids))}")
            self._step = ids.index(int(action))
        else:
            self._step = int(action)
        self._draw = 0
        self._run_step()

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action} of {self._draw}"
        if self._catalog is not None:
            return self._catalog.label(action)
        return json.dumps(self._state.pending["options"][action], sort_keys=True)

    def is_terminal(self):
        return not self._draw and self._state.result is not None

    def returns(self):
        s = self._state
        # a game stopped undecided (the rule set's round limit) is nobody's win or loss
        if s.result is None or self._draw or s.result.get("decided", True) is False:
            return [0.0] * len(self._seats)
        paid = returns(self._held.ruleset, s)
        return [paid[p] for p in self._seats]

    def __reduce__(self):
        # pickled as its actions: OpenSpiel's own pickling goes through the game's
        # serialization, which a sampled game cannot give (see the module doc)
        game = self.get_game()
        self._held  # noqa: B018 - begins the state, so that its seed is known
        return _replayed, (game.get_type().short_name, game.get_parameters(), self.history(), self._seed.value)

    def observation_tensor(self, player=None):
        # as OpenSpiel's own, without the new state OpenSpiel makes to size the tensor
        view = ViewObserver(self.get_game())
        view.set_from(self, self.current_player() if player is None else player)
        return view.tensor.tolist()

    def __str__(self):
        # the whole state (OpenSpiel tells states apart by their strings), as rulecraft
        # saves it, and at a chance node the step under way and the outcomes drawn in it
        if self._draw:
            return f"{self._state.dumps()}\nstep {self._step!r}, outcomes {self._outcomes}"
        return self._state.dumps()


def _utility(ruleset, players: int) -> tuple:
    """OpenSpiel's utility type, least and most return, and the returns' constant sum
    (None when they have none): from ``game.payoff`` when the rule set declares one;
    else -1 to 1, zero-sum for two seats that each play for themselves."""
    payoff = ruleset.data.game.payoff
    if payoff:
        total = payoff.get("sum")
        if total is None:
            kind = pyspiel.GameType.Utility.GENERAL_SUM
        elif total == 0:
            kind = pyspiel.GameType.Utility.ZERO_SUM
        else:
            kind = pyspiel.GameType.Utility.CONSTANT_SUM
        return kind, float(payoff["min"]), float(payoff["max"]), None if total is None else float(total)
    sides = ruleset.data.game.sides or {}
    two_alone = players == 2 and "teams" not in sides and "cooperative" not in sides \
        and not ruleset.data.game.scripted_seats
    if two_alone:
        return pyspiel.GameType.Utility.ZERO_SUM, -1.0, 1.0, 0.0
    return pyspiel.GameType.Utility.GENERAL_SUM, -1.0, 1.0, None


def _outcomes_bound(ruleset, players: int) -> int:
    """The most outcomes a draw can have, declared to OpenSpiel: a die's faces, or a pick
    or a shuffle step among the game's entities (a random pick from a longer list stops
    the game with an error naming the bound)."""
    faces = [len(f) for f in (ruleset.data.dice or {}).values()]
    return max([2, len(new_state(ruleset, players, 0).entities)] + faces)


def _all_visible(ruleset) -> bool:
    data = ruleset.data
    if any(z.visible_to != "everyone" for z in data.zones.values()):
        return False
    if any(p.visible_to != "everyone" for k in data.kinds.values() for p in k.properties.values()):
        return False
    return all(v.visible_to == "everyone" for scope in data.variables.values() for v in scope.values())


__all__ = ["load", "register", "deserialize", "RulecraftState", "SampledChanceError"]
