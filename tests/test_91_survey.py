"""rulecraft.survey: the sizes the research interfaces declare, measured from random games."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecraft.dsl.loader import load_checked
from rulecraft.survey import Survey, survey

RULES = Path(__file__).resolve().parent.parent / "rules"


def test_a_width_every_game_reaches_is_taken_as_it_is():
    found = survey(load_checked(RULES / "tic_tac_toe"), 2)
    assert (found.widest, found.widest_everywhere, found.action_width) == (9, True, 9)
    assert found.longest == 9 and not found.seeded  # chance not asked for


def test_widths_that_differ_get_headroom_and_chance_is_found():
    found = survey(load_checked(RULES / "panic_station"), 5, chance=True)
    assert not found.widest_everywhere
    assert found.action_width >= 2 * found.widest
    assert found.seeded


def test_the_same_games_give_the_same_survey():
    ruleset = load_checked(RULES / "breakthrough")
    assert survey(ruleset, 2) == survey(ruleset, 2)
    assert survey(ruleset, 2, games=3) != survey(ruleset, 2)


@pytest.mark.parametrize("widest, width", [(2, 4), (7, 16), (21, 64), (32, 64), (33, 128)])
def test_headroom_is_the_power_of_two_at_or_above_twice_the_widest(widest, width):
    assert Survey(widest, False, 1, False).action_width == width
    assert Survey(widest, True, 1, False).action_width == widest


def test_the_widths_benchmark_prints_its_figures(capsys):
    from benchmark_scripts import load_script

    script = load_script("option_widths")
    assert script.main([str(RULES / "tic_tac_toe"), "--players", "2", "--games", "5", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Tic-tac-toe, 2 players: the survey's widest choice 9 (in every surveyed game), action width 9" in out
    assert "5 random games, seeds 3-7: widest choice median 9, 99th percentile 9, most 9" in out
    assert "games with a choice wider than the width: 0 of 5" in out
    assert "the widest choice: mark 9" in out


@pytest.mark.parametrize("argv, message", [
    (["--players", "3"], "is played by 2 players, not 3"),
    (["--players", "2", "--games", "0"], "--games needs a positive whole number"),
])
def test_the_widths_benchmark_refuses_a_bad_argument_with_one_line(capsys, argv, message):
    from benchmark_scripts import load_script

    with pytest.raises(SystemExit) as exit_:
        load_script("option_widths").main([str(RULES / "tic_tac_toe")] + argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err
