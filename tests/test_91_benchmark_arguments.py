"""The benchmark scripts that play a rule set refuse a player count it is not played by,
and a rule set with errors, with one line (or the diagnostics) and exit code 2, not a
traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmark_scripts import load_script

RULES = Path(__file__).resolve().parent.parent / "rules"
SCRIPTS = {
    "heuristic_signal": [],
    "paired_checks": ["--side", "humans=mcts:2:paired"],
    "decision_value": ["--side", "humans"],
    "belief_accuracy": [],
    "tracker_follow": [],
    "option_widths": [],
}


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_a_player_count_the_game_is_not_played_by_is_one_line_and_exit_2(capsys, script):
    with pytest.raises(SystemExit) as exit_:
        load_script(script).main([str(RULES / "panic_station"), "--players", "9", "--games", "1", *SCRIPTS[script]])
    assert exit_.value.code == 2
    assert "error: Panic Station is played by 4 to 6 players, not 9" in capsys.readouterr().err


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_a_rule_set_with_errors_gives_its_diagnostics_and_exit_2(capsys, tmp_path, script):
    broken = tmp_path / "broken"
    broken.mkdir()
    for f in (RULES / "panic_station").iterdir():
        if f.is_file():
            (broken / f.name).write_bytes(f.read_bytes())
    with (broken / "actions.rules").open("a") as rules:
        rules.write("\naction oops(:\n")
    code = load_script(script).main([str(broken), "--players", "5", "--games", "1", *SCRIPTS[script]])
    assert code == 2
    err = capsys.readouterr().err
    assert "actions.rules" in err and "fix them first" in err
