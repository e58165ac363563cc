"""The research interfaces keep their promises: every episode is a game of its own,
names tell games apart, histories fit the declared length, an undecided game is
truncated, observers give what they name, and a rule set is given as the command line
takes it. (Same requirements as tests/test_98_research.py.)"""

from __future__ import annotations

import os
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import numpy as np
    import pyspiel
except ImportError:  # pragma: no cover - depends on the machine
    if os.environ.get("RULECRAFT_REQUIRE_RESEARCH") == "1":
        raise
    pytest.skip("the research extra is not installed (pip install -e '.[research]'); "
                "set RULECRAFT_REQUIRE_RESEARCH=1 to fail instead", allow_module_level=True)

from rulecraft.dsl.loader import load_checked
from rulecraft.env import env, raw_env
from rulecraft.interpreter.views import player_view
from rulecraft import spiel
from rulecraft.spiel import load, register

RULES = Path(__file__).resolve().parent.parent / "rules"


def _deal(state) -> tuple:
    """The cards dealt in a Kuhn poker game: of an OpenSpiel state, or of a rulecraft game."""
    table = state._held.state if hasattr(state, "_held") else state.state
    return tuple(table.zones[f"hand:{p}"][0] for p in ("p1", "p2"))


def _copy(tmp_path: Path, game: str, name: str, **settings) -> Path:
    """A copy of a shipped rule set under another game name, with game.yaml settings changed."""
    folder = tmp_path / name
    shutil.copytree(RULES / game, folder)
    text = (folder / "game.yaml").read_text()
    text = re.sub(rf"(?m)^  name: {game}$", f"  name: {name}", text)
    for key, value in settings.items():
        text = re.sub(rf"(?m)^  {key}: .*$", f"  {key}: {value}", text)
    (folder / "game.yaml").write_text(text)
    return folder


# 1. every episode is a game of its own seed, drawn from the game's seed


def test_each_new_state_of_a_sampled_game_is_another_deal_and_the_seed_fixes_the_sequence():
    game = load(RULES / "kuhn_poker", seed=4)
    deals = [_deal(game.new_initial_state()) for _ in range(20)]
    assert len(set(deals)) > 1
    again = load(RULES / "kuhn_poker", seed=4)
    assert [_deal(again.new_initial_state()) for _ in range(20)] == deals


def test_copying_or_saving_a_state_keeps_its_deal_and_does_not_move_the_episodes_on():
    game, twin = load(RULES / "kuhn_poker", seed=6), load(RULES / "kuhn_poker", seed=6)
    game.new_initial_state().current_player()  # the first episode; the second is copied and saved below
    second = game.new_initial_state()
    second.apply_action(1)
    for copied in (second.clone(), pickle.loads(pickle.dumps(second)),
                   game.deserialize_state(second.serialize())):
        assert str(copied) == str(second) and copied.history() == second.history()
    unused = game.new_initial_state()
    assert str(unused.clone()) == str(unused)  # a copy of a state not yet used is the same game
    # clones and saves made no episodes: the twin game, never cloned, has the same third episode
    twin.new_initial_state().current_player(), twin.new_initial_state().current_player()
    assert str(twin.new_initial_state()) == str(unused)


def test_openspiels_rl_environment_plays_other_deals():
    from open_spiel.python import rl_environment

    e = rl_environment.Environment(load(RULES / "kuhn_poker"), seed=123)
    firsts = {tuple(e.reset().observations["info_state"][0]) for _ in range(12)}
    assert len(firsts) > 1


def test_each_reset_of_the_environment_is_another_deal_and_reset_with_a_seed_starts_over():
    def firsts(e, count):
        out = []
        for _ in range(count):
            e.reset()
            out.append(_deal(e.unwrapped.game))
        return out

    e = env(RULES / "kuhn_poker", seed=9)
    seen = firsts(e, 12)
    assert len(set(seen)) > 1
    assert firsts(env(RULES / "kuhn_poker", seed=9), 12) == seen  # same seed, same episodes
    e.reset(seed=9)  # reseeds: the sequence starts again
    assert _deal(e.unwrapped.game) == seen[0]
    # and OpenSpiel's game of the same seed plays the same first deal
    assert _deal(load(RULES / "kuhn_poker", seed=9).new_initial_state()) == seen[0]


# 2. the registered name tells every game apart


def test_a_variant_registers_under_its_own_name_and_its_states_load_with_its_rules():
    base = load_checked(RULES / "panic_station")
    variant = load_checked(RULES / "panic_station", variant="four_gas_cans")
    base_game, variant_game = load(base, players=4), load(variant, players=4)
    assert base_game.get_type().short_name == "rulecraft_panic_station_4p"
    assert variant_game.get_type().short_name == "rulecraft_panic_station_four_gas_cans_4p"
    state = base_game.new_initial_state()
    state.apply_action(0)
    assert pickle.loads(pickle.dumps(state))._held.ruleset is base
    assert pyspiel.load_game("rulecraft_panic_station_4p").ruleset is base


def test_max_options_is_part_of_the_name():
    wide = load(RULES / "tic_tac_toe", max_options=20)
    assert wide.get_type().short_name == "rulecraft_tic_tac_toe_2p_20options"
    assert load(RULES / "tic_tac_toe").num_distinct_actions() == 9
    assert load(RULES / "tic_tac_toe", max_options=9).get_type().short_name == "rulecraft_tic_tac_toe_2p"
    state = wide.new_initial_state()
    state.apply_action(3)
    assert pickle.loads(pickle.dumps(wide)).num_distinct_actions() == 20
    assert pickle.loads(pickle.dumps(state)).get_game().num_distinct_actions() == 20


def test_another_rule_set_of_the_same_game_name_is_refused(tmp_path):
    register(RULES / "tic_tac_toe")
    other = _copy(tmp_path, "tic_tac_toe", "tic_tac_toe")
    with pytest.raises(ValueError, match=r"rulecraft_tic_tac_toe_2p is registered already, for the rule set at "
                                         r".*rules/tic_tac_toe: the one at .* has the same game name"):
        register(other)
    assert pyspiel.load_game("rulecraft_tic_tac_toe_2p").ruleset.root == load_checked(RULES / "tic_tac_toe").root


# 3. a history, chance actions included, fits max_game_length


def test_max_game_length_counts_the_chance_actions_of_explicit_chance():
    from open_spiel.python.algorithms import get_all_states

    # Kuhn poker: at most 3 decisions, and 2 chance actions (the shuffle's steps)
    explicit = load(RULES / "kuhn_poker", chance="explicit")
    assert explicit.max_game_length() == 4 * (3 + 2)
    assert load(RULES / "kuhn_poker").max_game_length() == 4 * 3  # sampled: decisions only
    states = get_all_states.get_all_states(explicit, to_string=str)
    assert max(len(s.history()) for s in states.values()) == 5


# 7. a game the rules stop undecided is truncated, nobody's win or loss


def test_an_undecided_game_is_truncated_in_the_environment(tmp_path):
    # two rounds of tic-tac-toe: four marks, never a line
    e = env(_copy(tmp_path, "tic_tac_toe", "tic_tac_toe_short", round_limit=2), seed=1)
    e.reset()
    last = {}
    for agent in e.agent_iter():
        _, reward, termination, truncation, _ = last[agent] = e.last()
        e.step(None if termination or truncation else 0)
    assert e.unwrapped.game.result["decided"] is False
    # every agent: reward 0, terminated no, truncated yes
    assert {agent: seen[1:4] for agent, seen in last.items()} == {"p1": (0, False, True), "p2": (0, False, True)}


def test_an_undecided_cooperative_game_returns_nothing_in_openspiel(tmp_path):
    # a cooperative game stopped at its round limit: neither won nor lost (it was -1)
    folder = _copy(tmp_path, "star_trek_panic", "star_trek_panic_short", round_limit=1)
    game = load(folder, players=1)
    state = game.new_initial_state()
    pick = np.random.default_rng(0)
    while not state.is_terminal():
        state.apply_action(int(pick.choice(state.legal_actions())))
    assert state._held.state.result["decided"] is False
    assert state.returns() == [0.0]


# 8. no information-state tensor where none is declared


def test_an_information_state_tensor_is_refused_and_the_string_stays():
    from open_spiel.python.observation import make_observation

    game = load(RULES / "kuhn_poker", chance="explicit")
    assert not game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    state.apply_action(0), state.apply_action(0)
    assert "hand:p1" in state.information_state_string(0)
    with pytest.raises(pyspiel.SpielError, match="InformationStateTensorShape unimplemented"):
        state.information_state_tensor(0)
    with pytest.raises(pyspiel.SpielError, match="InformationStateTensorShape unimplemented"):
        game.information_state_tensor_size()
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert recall.tensor is None
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()


# 9. a public observer gives what every player sees


def _public(perfect_recall: bool):
    return pyspiel.IIGObservationType(perfect_recall=perfect_recall, public_info=True,
                                      private_info=pyspiel.PrivateInfoType.NONE)


def test_the_public_observer_shows_no_private_card():
    from open_spiel.python.observation import make_observation

    game = load(RULES / "kuhn_poker", chance="explicit")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(0)
    state.apply_action(1)  # the first player bets
    cards = _deal(state)
    for recall in (False, True):
        public = make_observation(game, _public(recall))
        seen = [public.string_from(state, p) for p in (0, 1)]
        assert seen[0] == seen[1]  # what every player sees is the same for each
        assert not any(card in seen[0] for card in cards)
    assert "bet" in make_observation(game, _public(True)).string_from(state, 0)  # a public event is kept
    public = make_observation(game, _public(False))
    tensors = []
    for p in (0, 1):
        public.set_from(state, p)
        tensors.append(public.tensor.copy())
    assert np.array_equal(tensors[0], tensors[1])
    # a player's own observer still shows their card
    own = make_observation(game)
    assert cards[0] in own.string_from(state, 0) and cards[1] not in own.string_from(state, 0)
    with pytest.raises(ValueError, match="ALL_PLAYERS"):
        make_observation(game, pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                                          private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


# 10a. a rule set is a folder or a shipped rule set's name, as on the command line


def test_a_shipped_rule_sets_name_is_taken_and_a_missing_folder_is_named():
    assert env("connect_four").unwrapped.ruleset.data.game.name == "connect_four"
    assert load("tic_tac_toe").get_type().short_name == "rulecraft_tic_tac_toe_2p"
    for wrong in ("/nonexistent", "rules/no_such_game"):
        for make in (env, load):
            with pytest.raises(FileNotFoundError, match=f"no rule set at '{wrong}': give a rule-set folder or "
                                                        "the name of a shipped rule set .*tic_tac_toe"):
                make(wrong)


# 10d. max_options is a positive whole number or None


@pytest.mark.parametrize("bad", [0, -3, 2.5, True, "9"])
def test_a_max_options_that_is_no_positive_whole_number_is_refused(bad):
    with pytest.raises(ValueError, match=f"max_options={re.escape(repr(bad))}: give a positive whole number"):
        env(RULES / "tic_tac_toe", max_options=bad)
    with pytest.raises(ValueError, match=f"max_options={re.escape(repr(bad))}: give a positive whole number"):
        load(RULES / "tic_tac_toe", max_options=bad)


# 6. the placed tiles are in the observation


def test_moving_or_turning_a_placed_tile_changes_the_observation():
    e = raw_env(RULES / "panic_station", players=5)
    e.reset(seed=1)
    pick = np.random.default_rng(1)
    for _ in range(60):
        e.step(int(pick.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    tiles = e.game.state.tiles
    tile = next(t for t in tiles if tiles[t] != [0, 0, 0])
    before = e.observe("p1")["observation"].copy()
    for change in ([0, 0, 90], [3, -2, 0]):
        moved = [v + d for v, d in zip(tiles[tile], change)]
        kept, tiles[tile] = tiles[tile], moved
        after = e.observe("p1")["observation"]
        tiles[tile] = kept
        assert not np.array_equal(before, after)
        # four slots per tile: placed, x, y, rotation
        at = e.layout.size - 4 * (len(e.layout.tiles) - e.layout.tiles.index(tile))
        assert after[at:at + 4].tolist() == [1.0] + [float(v) for v in moved]
    assert player_view(e.ruleset, e.game.state, "p1")["tiles"][tile] == kept


# 10b. a save loads where its rule set is registered, else says what to register


def test_a_save_is_loaded_with_deserialize_which_names_what_to_register(tmp_path):
    game = load(RULES / "kuhn_poker", chance="explicit", seed=2)
    state = game.new_initial_state()
    state.apply_action(2), state.apply_action(1), state.apply_action(0)
    saved = pyspiel.serialize_game_and_state(game, state)
    loaded_game, loaded = spiel.deserialize(saved)
    assert str(loaded) == str(state) and loaded.history() == state.history()
    (tmp_path / "save.txt").write_text(saved)
    script = ("from rulecraft.spiel import deserialize\n"
              f"text = open({str(tmp_path / 'save.txt')!r}).read()\n"
              "try:\n    deserialize(text)\nexcept ValueError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.strip()
    assert out.startswith("rulecraft_kuhn_poker_2p_chance is not registered in this process: "
                          "call rulecraft.spiel.register")
    assert "Available games" not in out
