"""The OpenSpiel game after a researcher's trial: walks of the whole game (CFR,
exploitability, best response, tabular policies) on a game of sampled chance are
refused in one short line naming explicit chance, before OpenSpiel's C++ code can
fail; arguments are checked in one line; variants are taken by name.

Needs the ``research`` extra, as tests/test_98_research.py."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

try:
    from open_spiel.python import policy
    from open_spiel.python.algorithms import cfr, exploitability, get_all_states
except ImportError:  # pragma: no cover - depends on the machine
    if os.environ.get("RULECRAFT_REQUIRE_RESEARCH") == "1":
        raise
    pytest.skip("the research extra is not installed (pip install -e '.[research]'); "
                "set RULECRAFT_REQUIRE_RESEARCH=1 to fail instead", allow_module_level=True)

from rulecraft.spiel import SampledChanceError, load

RULES = Path(__file__).resolve().parent.parent / "rules"


def test_whole_game_walks_of_a_sampled_game_are_refused_naming_explicit_chance():
    game = load("kuhn_poker")
    walks = [lambda: exploitability.exploitability(game, policy.UniformRandomPolicy(game)),
             lambda: exploitability.nash_conv(game, policy.UniformRandomPolicy(game)),
             lambda: cfr.CFRSolver(game),
             lambda: policy.TabularPolicy(game),
             lambda: get_all_states.get_all_states(game)]
    for walk in walks:
        with pytest.raises(SampledChanceError) as refused:
            walk()
        message = str(refused.value)
        assert 'chance="explicit"' in message and "rulecraft_kuhn_poker_2p_chance" in message
        assert len(message) < 300 and "\n" not in message
        assert isinstance(refused.value, ValueError)


def test_a_sampled_game_asked_twice_stops_with_the_same_line_and_no_crash():
    # OpenSpiel's C++ best response crashed the process on the second call: run apart
    script = textwrap.dedent("""
        from open_spiel.python import policy
        from open_spiel.python.algorithms import exploitability
        from rulecraft.spiel import load
        game = load("kuhn_poker")
        for _ in range(3):
            try:
                exploitability.exploitability(game, policy.UniformRandomPolicy(game))
            except ValueError as err:
                print(type(err).__name__)
        print("done")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["SampledChanceError"] * 3 + ["done"]


def test_walks_of_explicit_and_chanceless_games_still_work():
    game = load("kuhn_poker", chance="explicit")
    assert exploitability.exploitability(game, policy.UniformRandomPolicy(game)) == pytest.approx(0.4583333, abs=1e-6)
    assert len(get_all_states.get_all_states(load("tic_tac_toe"), to_string=str)) == 5478


@pytest.mark.parametrize("players, error", [(0, ValueError), (3, ValueError), ("2", TypeError), (1.0, TypeError)])
def test_a_player_count_the_rule_set_is_not_played_by_is_refused(players, error):
    with pytest.raises(error, match="players="):
        load("kuhn_poker", players=players)


@pytest.mark.parametrize("seed, error", [(None, TypeError), ("1", TypeError), (2 ** 31, ValueError),
                                         (2 ** 63, ValueError), (-2 ** 31 - 1, ValueError)])
def test_a_seed_an_openspiel_parameter_cannot_hold_is_refused(seed, error):
    with pytest.raises(error, match=r"seed=.*(whole number|32-bit)"):
        load("kuhn_poker", seed=seed)


def test_the_largest_seed_an_openspiel_parameter_holds_is_taken():
    assert load("kuhn_poker", seed=2 ** 31 - 1).get_parameters() == {"seed": 2 ** 31 - 1}


def test_a_variant_is_taken_by_name():
    game = load("panic_station", players=4, variant="four_gas_cans", max_options=20)
    assert game.get_type().short_name == "rulecraft_panic_station_four_gas_cans_4p_20options"
    assert game.ruleset.variant.name == "four_gas_cans"
    with pytest.raises(ValueError, match="no such variant"):
        load("panic_station", players=4, variant="nope")
