"""benchmarks/heuristic_signal.py: how well a rule set's heuristics foretell who wins."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmark_scripts import load_script

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def signal():
    return load_script("heuristic_signal")


def test_auc_is_the_chance_a_winning_reading_beats_a_losing_one(signal):
    assert signal.auc([3.0, 4.0], [1.0, 2.0]) == 1.0
    assert signal.auc([1.0, 2.0], [3.0, 4.0]) == 0.0
    assert signal.auc([2.0], [1.0, 2.0, 3.0]) == pytest.approx(0.5)  # one below, one level, one above
    assert signal.auc([], [1.0]) is None


def test_readings_are_labelled_by_the_result(signal):
    from rulecraft.bots.evaluation import Evaluation
    from rulecraft.dsl.loader import load_checked

    connect_four = load_checked(ROOT / "rules" / "connect_four")
    readings = signal.play(connect_four, Evaluation(connect_four), 2, 3, "random", 5)
    assert {side for side, *_ in readings} == {"p1", "p2"}
    won = {side for side, _, _, did in readings if did}
    assert len(won) <= 1  # one winner, or nobody in a draw
    # a reading's worth is the sum of its weighted features (read late, when lines are on the board)
    last = readings[-1][1]
    assert any(v != 0 for k, v in last.items() if k != "worth")
    assert last["worth"] == pytest.approx(sum(v for k, v in last.items() if k != "worth"))
    assert last["own lines two discs long"] % 2 == 0  # weighted: the feature's weight is 2


def test_the_script_prints_a_table_per_side(signal, capsys):
    assert signal.main([str(ROOT / "rules" / "connect_four"), "--players", "2", "--games", "3", "--bot", "random",
                        "--every", "4", "--features"]) == 0
    out = capsys.readouterr().out
    assert "AUC overall" in out and "own lines three discs long" in out
    assert signal.main([str(ROOT / "rules" / "tic_tac_toe"), "--players", "2", "--games", "1"]) == 2


def test_games_stopped_undecided_can_be_left_out(signal):
    """Star Trek: Panic with one greedy player: seed 1 stops at the round limit (the
    missions done, a Tholian out of reach), seed 2 ends with the hull destroyed."""
    from rulecraft.bots.evaluation import Evaluation
    from rulecraft.dsl.loader import load_checked

    trek = load_checked(ROOT / "rules" / "star_trek_panic")
    evaluation = Evaluation(trek)
    stopped = signal.play(trek, evaluation, 1, 1, "greedy", 5)
    assert stopped and not any(won for *_, won in stopped)  # counted as lost for the crew
    assert signal.play(trek, evaluation, 1, 1, "greedy", 5, decided_only=True) == []
    ended = signal.play(trek, evaluation, 1, 2, "greedy", 5)
    assert ended and signal.play(trek, evaluation, 1, 2, "greedy", 5, decided_only=True) == ended
