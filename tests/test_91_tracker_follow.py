"""benchmarks/tracker_follow.py: how well the search bot's copy follows a game."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmark_scripts import load_script

from rulecraft.dsl.loader import load_checked

RULES = Path(__file__).resolve().parent.parent / "rules"


def test_a_followed_game_gives_its_figures():
    script = load_script("tracker_follow")
    ruleset = load_checked(RULES / "star_trek_panic")
    figures = script.follow_game(ruleset, 2, 1, "p1", 6)
    assert figures["decisions"] == 6
    assert figures["put back in step"] == 0 and not figures["lost"]
    assert figures["shown every event"] == 6
    assert figures["table unlike the view"] == 0


def test_it_prints_the_figures(capsys):
    script = load_script("tracker_follow")
    assert script.main([str(RULES / "star_trek_panic"), "--players", "2", "--games", "2", "--searches", "3"]) == 0
    out = capsys.readouterr().out
    assert "2 games of 2, seeds 1-2, seat p1, up to 3 decisions a game: 6 decisions followed" in out
    assert "put back in step: 0 games (0 times); lost: 0 games" in out
    assert "shown every event: 6 of 6 decisions" in out


@pytest.mark.parametrize("argv, message", [
    (["--players", "9"], "played by 1 to 6 players, not 9"),
    (["--players", "2", "--seat", "p3"], "--seat p3: no such seat with 2 players"),
    (["--players", "2", "--games", "0"], "--games and --searches need a positive whole number"),
])
def test_a_bad_argument_gives_one_line_and_exit_2(capsys, argv, message):
    script = load_script("tracker_follow")
    with pytest.raises(SystemExit) as exit_:
        script.main([str(RULES / "star_trek_panic")] + argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err
