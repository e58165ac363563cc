"""The PettingZoo environment after a researcher's trial: an environment is freed when
dropped, a thing shown to the viewer is placed in the observation, arguments are
checked in one line, rulecraft's bots play agents with their seat's events, variants
are taken by name, and the action width is surveyed once per rule set.

Needs the ``research`` extra, as tests/test_98_research.py."""

from __future__ import annotations

import gc
import os
import weakref
from pathlib import Path

import pytest

try:
    import numpy as np
    from pettingzoo.test import api_test
except ImportError:  # pragma: no cover - depends on the machine
    if os.environ.get("RULECRAFT_REQUIRE_RESEARCH") == "1":
        raise
    pytest.skip("the research extra is not installed (pip install -e '.[research]'); "
                "set RULECRAFT_REQUIRE_RESEARCH=1 to fail instead", allow_module_level=True)

from rulecraft import bots
from rulecraft.dsl.loader import load_checked
from rulecraft.env import arguments, bot_policy, env, raw_env
from rulecraft.interpreter.views import player_view

RULES = Path(__file__).resolve().parent.parent / "rules"


def _play(e, steps: int, seed: int = 0) -> None:
    pick = np.random.default_rng(seed)
    for _, agent in zip(range(steps), e.agent_iter()):
        observation, _, termination, truncation, _ = e.last()
        e.step(None if termination or truncation else int(pick.choice(np.flatnonzero(observation["action_mask"]))))


# ------------------------------------------------------------------ memory


def test_an_environment_dropped_is_freed_with_its_spaces():
    e = env("tic_tac_toe", seed=1)
    e.reset()
    _play(e, 4)
    spaces = (e.observation_space("p1"), e.action_space("p2"))
    assert e.observation_space("p1") is spaces[0] and e.action_space("p2") is spaces[1]  # one per agent
    e.close()
    held = weakref.ref(e.unwrapped)
    del e, spaces
    gc.collect()
    assert held() is None, "the environment is kept alive after it was dropped"


def test_a_space_of_no_agent_is_refused_naming_the_agents():
    with pytest.raises(KeyError, match="p1, p2"):
        raw_env("tic_tac_toe").action_space("p9")


# ------------------------------------------------------------------ observation


def _location_slot(e, view, component: str) -> float:
    layout = e.layout
    vector = layout.encode(view)
    start = 2 * len(layout.players) + 1 + len(layout.zones)
    return vector[start + 2 * layout.components.index(component)]


def test_a_thing_shown_to_the_viewer_is_placed_in_the_observation():
    e = raw_env(RULES / "kuhn_poker", seed=0)
    e.reset()
    state = e.game.state
    theirs = state.zones["hand:p2"][0]
    before = player_view(e.ruleset, state, "p1")
    assert _location_slot(e, before, theirs) == 0.0  # hidden before the showdown
    while not e.game.over:  # both pass: the showdown shows both cards to both players
        e.step(e.game.pending.options.index(next(o for o in e.game.pending.options if o["action"] == "pass")))
    assert theirs in e.game.state.revealed
    view = player_view(e.ruleset, e.game.state, "p1")
    assert theirs in view["zones"]["hand:p2"]["shown"]
    assert _location_slot(e, view, theirs) == 1.0 + e.layout.zone_index["hand:p2"]
    # the observation says so too, for the agent and only where it was shown
    slot = 2 * len(e.layout.players) + 1 + len(e.layout.zones) + 2 * e.layout.components.index(theirs)
    assert e.observe("p1")["observation"][slot] == 1.0 + e.layout.zone_index["hand:p2"]
    deck_card = e.game.state.zones["deck"][0]
    assert _location_slot(e, view, deck_card) == 0.0  # the card left in the deck stays unseen


# ------------------------------------------------------------------ arguments


@pytest.mark.parametrize("players, error, words", [
    (0, ValueError, "players=0: Tic-tac-toe is played by 2 players"),
    (3, ValueError, "played by 2 players"),
    (-1, ValueError, "played by 2 players"),
    ("2", TypeError, "players='2': give a whole number"),
    (True, TypeError, "give a whole number"),
    (2.0, TypeError, "give a whole number"),
])
def test_a_player_count_the_rule_set_is_not_played_by_is_refused(players, error, words):
    with pytest.raises(error, match=words):
        env("tic_tac_toe", players=players)


def test_no_player_count_is_the_rule_sets_least():
    assert env("tic_tac_toe").unwrapped.players_count == 2
    assert env("tic_tac_toe", players=np.int64(2)).unwrapped.players_count == 2


@pytest.mark.parametrize("mode", ["bogus", "rgb_array", "ANSI"])
def test_a_render_mode_the_environment_has_not_is_refused(mode):
    with pytest.raises(ValueError, match="one of human, ansi"):
        env("tic_tac_toe", render_mode=mode)


@pytest.mark.parametrize("seed, error", [("abc", TypeError), (1.5, TypeError), (True, TypeError),
                                         (2 ** 70, ValueError), (-2 ** 63 - 1, ValueError)])
def test_a_seed_that_is_no_64_bit_whole_number_is_refused(seed, error):
    with pytest.raises(error, match="seed="):
        env("tic_tac_toe", seed=seed)
    e = env("tic_tac_toe")
    with pytest.raises(error, match="seed="):
        e.reset(seed=seed)


def test_seed_none_draws_a_random_sequence_of_episodes_as_pettingzoo_does():
    e = env("tic_tac_toe", seed=None)
    assert e.unwrapped.seed is None
    e.reset()
    _play(e, 3)
    e.reset(seed=5)  # and a seed given later fixes it
    first = e.unwrapped.game.seed
    e.reset(seed=5)
    assert e.unwrapped.game.seed == first


# ------------------------------------------------------------------ variants


def test_a_variant_is_taken_by_name_and_named_in_the_metadata():
    e = env("panic_station", players=4, variant="four_gas_cans", max_options=64)
    assert e.unwrapped.ruleset.variant.name == "four_gas_cans"
    assert e.unwrapped.metadata["name"] == "rulecraft_panic_station_four_gas_cans_v0"
    assert env("panic_station", players=4, max_options=64).unwrapped.metadata["name"] == "rulecraft_panic_station_v0"


def test_a_variant_the_rule_set_has_not_is_refused_naming_those_it_has():
    with pytest.raises(ValueError, match=r"no such variant .*four_gas_cans"):
        env("panic_station", players=4, variant="nope")
    with pytest.raises(ValueError, match="none"):
        env("tic_tac_toe", variant="nope")
    loaded = load_checked(RULES / "tic_tac_toe")
    with pytest.raises(ValueError, match="loaded already"):
        env(loaded, variant="nope")


# ------------------------------------------------------------------ the survey, once


def test_the_action_width_is_surveyed_once_per_rule_set(monkeypatch):
    calls = []
    real = arguments.survey
    monkeypatch.setattr(arguments, "survey", lambda *a, **k: calls.append(1) or real(*a, **k))
    first = env("connect_four", seed=1).unwrapped.max_options
    surveyed = len(calls)
    assert surveyed <= 1
    again = [env("connect_four", seed=s).unwrapped.max_options for s in (2, 3)]
    again.append(env(load_checked(RULES / "connect_four"), seed=4).unwrapped.max_options)
    assert again == [first] * 3
    assert len(calls) == surveyed, "the survey's games were played again for another environment"


# ------------------------------------------------------------------ rulecraft's bots as agents


class _Recorder:
    """A bot that notes how many events each view it is handed holds, and plays first."""

    name = "recorder"
    views: list = []

    def __init__(self, seed: int):
        self.seed = seed

    def choose(self, view) -> int:
        _Recorder.views.append((view["viewer"], len(view["events"]), self.seed))
        return 0


@pytest.fixture
def recorder(monkeypatch):
    _Recorder.views = []
    monkeypatch.setitem(bots.REGISTRY, "recorder", _Recorder)
    return _Recorder


@pytest.mark.parametrize("policy_first", [True, False], ids=["policy before reset", "policy after reset"])
def test_a_bot_policy_hands_the_bot_its_seats_events(recorder, policy_first):
    e = env("kuhn_poker", seed=3)  # no render mode: the environment alone keeps no events
    policy = bot_policy(e, "recorder") if policy_first else None
    e.reset()
    if policy is None:
        policy = bot_policy(e, "recorder")
    game_seed = e.unwrapped.game.seed
    for agent in e.agent_iter():
        _, _, termination, truncation, _ = e.last()
        if termination or truncation:
            e.step(None)
            continue
        action = policy(agent)
        assert e.unwrapped.game.record_events  # a game begun without events was replayed with them
        assert recorder.views[-1][:2] == (agent, len(e.unwrapped.game.events_for(agent)))
        e.step(action)
    assert all(count > 0 for _, count, _ in recorder.views)
    # each seat its own bot, seeded as rulecraft simulate seeds it
    assert {seed for viewer, _, seed in recorder.views if viewer == "p1"} == {game_seed * 7919}
    assert {seed for viewer, _, seed in recorder.views if viewer == "p2"} == {game_seed * 7919 + 1}


def test_a_bot_policy_plays_the_same_game_again_from_the_same_seed():
    def play() -> list[int]:
        e = env("connect_four", seed=11)
        policy = bot_policy(e, "mcts:8")
        e.reset()
        actions = []
        for agent in e.agent_iter():
            _, _, termination, truncation, _ = e.last()
            action = None if termination or truncation else policy(agent)
            actions.append(action)
            e.step(action)
        return actions

    assert play() == play()


def test_a_bot_policy_refuses_bots_it_cannot_play_and_agents_not_to_act():
    e = env("tic_tac_toe", seed=1)
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        bot_policy(e, "nobody")
    with pytest.raises(ValueError, match="has no strategy for"):
        bot_policy(e, "heuristic")
    policy = bot_policy(e, "random")
    with pytest.raises(ValueError, match="reset"):
        policy("p1")
    e.reset()
    with pytest.raises(ValueError, match="p2 is not to act"):
        policy("p2")
    assert policy("p1") in range(9)


def test_an_environment_with_a_bot_policy_still_passes_the_api_test():
    e = env("tic_tac_toe", seed=2)
    bot_policy(e, "random")
    api_test(e, num_cycles=20)
