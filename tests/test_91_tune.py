"""rulecraft tune: heuristic weights fitted to who wins, checked on held-out games,
written back into the rule files without touching anything else."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest

from rulecraft.bots.weight_fit import (NEVER_CHANGED, HELD_OUT_EVERY, Reading, _logistic, fit_weights, literal_number,
                                       play_and_read, written_weights)
from rulecraft.cli.main import main
from rulecraft.dsl.loader import load_checked

ROOT = Path(__file__).resolve().parent.parent
WRONG = 'feature "own lines three discs long" weight -8:'


def test_the_regression_finds_the_coefficients_that_made_the_labels():
    rng = random.Random(5)
    rows, labels = [], []
    for _ in range(4000):
        x = [rng.gauss(0, 1), rng.gauss(0, 1)]
        p = 1 / (1 + pow(2.718281828459045, -(2.0 * x[0] - 1.0 * x[1] + 0.5)))
        rows.append(x + [1.0])
        labels.append(1.0 if rng.random() < p else 0.0)
    slope_a, slope_b, intercept = _logistic(rows, labels, 2)
    assert slope_a == pytest.approx(2.0, abs=0.25)
    assert slope_b == pytest.approx(-1.0, abs=0.2)
    assert intercept == pytest.approx(0.5, abs=0.2)


def test_a_feature_that_never_changed_keeps_its_weight():
    rng = random.Random(1)
    readings = []
    for game in range(30):
        won = game % 2 == 0
        for _ in range(5):
            signal = rng.gauss(1.0 if won else -1.0, 1.0)
            readings.append(Reading(game, "p1", ("h",), {("h", 0): signal, ("h", 1): 3.0},
                                    {("h", 0): 1.0, ("h", 1): 7.0}, 1.0 if won else 0.0))
    written = {("h", 0): ("signal", -5.0, True), ("h", 1): ("constant", 7.0, True)}
    fit = fit_weights(readings, written)
    by_label = {f.label: f for f in fit.features}
    assert by_label["constant"].kept == NEVER_CHANGED and by_label["constant"].fitted == 7
    # the written weight pointed the wrong way; the fit turns it round, same spread
    assert by_label["signal"].kept is None and by_label["signal"].fitted == pytest.approx(5, abs=1)
    count, won, before, after = fit.checks[("h",)]
    assert count == sum(1 for r in readings if r.game % HELD_OUT_EVERY == HELD_OUT_EVERY - 1)
    assert before < 0.3 < 0.7 < after


def test_literal_weights_are_told_from_expressions():
    from rulecraft.dsl import ast
    from rulecraft.dsl.diagnostics import Position

    here = Position("f", 1, 1)
    assert literal_number(ast.Literal(here, 12)) == 12
    assert literal_number(ast.Unary(here, "-", ast.Literal(here, 3))) == -3
    assert literal_number(ast.Name(here, "gas_cans_to_burn")) is None
    assert literal_number(ast.Literal(here, True)) is None


def test_readings_come_from_each_seat_and_carry_its_sides_result():
    ruleset = load_checked(ROOT / "rules" / "connect_four")
    readings = play_and_read(ruleset, 2, 11, "greedy", 4)
    assert {r.seat for r in readings} == {"p1", "p2"}
    labels = {r.seat: r.label for r in readings}
    assert sorted(labels.values()) in ([0.0, 1.0], [0.5, 0.5])  # one winner and one loser, or a draw
    assert all(r.heuristics == ("open_lines",) for r in readings)
    assert any(v != 0 for r in readings for v in r.values.values())


@pytest.fixture
def wrong_way_connect_four(tmp_path: Path) -> Path:
    folder = tmp_path / "connect_four"
    shutil.copytree(ROOT / "rules" / "connect_four", folder)
    rules = folder / "strategy.rules"
    text = rules.read_text()
    assert 'feature "own lines three discs long" weight 8:' in text
    rules.write_text(text.replace('feature "own lines three discs long" weight 8:', WRONG))
    return folder


def test_tune_writes_the_fitted_weights_and_nothing_else(wrong_way_connect_four: Path, capsys):
    rules = wrong_way_connect_four / "strategy.rules"
    before = rules.read_text()
    code = main(["tune", str(wrong_way_connect_four), "--games", "30", "--workers", "1", "--quiet", "--write",
                 "--check", "0", "--force"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "Held out" in out and "wrote" in out and "Greedy bots" not in out
    after = rules.read_text()
    weight = re.compile(r"(feature \"[^\"]+\" weight )-?\d+")
    assert weight.sub(r"\1N", after) == weight.sub(r"\1N", before)  # only weight numbers changed
    fitted = int(re.search(r'feature "own lines three discs long" weight (-?\d+):', after).group(1))
    assert fitted > 0  # more of one's own open lines goes with winning
    assert load_checked(wrong_way_connect_four).ok


def test_writing_keeps_a_files_line_endings(wrong_way_connect_four: Path):
    from rulecraft.bots.weight_fit import FittedFeature
    from rulecraft.cli.tune import write_weights

    rules = wrong_way_connect_four / "strategy.rules"
    rules.write_bytes(rules.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    before = rules.read_bytes()
    ruleset = load_checked(wrong_way_connect_four)
    assert write_weights(ruleset, [FittedFeature("open_lines", 0, "own lines three discs long", -8, 12)]) == 1
    after = rules.read_bytes()
    assert after == before.replace(b'long" weight -8:', b'long" weight 12:')
    assert after.count(b"\r\n") == before.count(b"\r\n")


def test_the_fit_beats_a_weight_written_the_wrong_way_on_held_out_games(wrong_way_connect_four: Path):
    ruleset = load_checked(wrong_way_connect_four)
    readings = []
    for i in range(30):
        readings += play_and_read(ruleset, 2, 40 + i, "greedy", 5, i)
    fit = fit_weights(readings, written_weights(ruleset, readings))
    _, _, before, after = fit.checks[("open_lines",)]
    assert after > before + 0.05


def test_the_check_plays_greedy_bots_by_both_sets_of_weights(wrong_way_connect_four: Path, capsys):
    rules = wrong_way_connect_four / "strategy.rules"
    before = rules.read_text()
    assert main(["tune", str(wrong_way_connect_four), "--games", "9", "--check", "6", "--workers", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    # each player for itself: one seat by the fitted weights against the written ones
    assert "Greedy bots, 6 games (seeds 9-14), one seat by the fitted weights (each seat in turn)" in out
    assert rules.read_text() == before  # without --write nothing is written


def test_in_a_team_game_the_check_compares_whole_tables(capsys):
    assert main(["tune", "panic_station", "--players", "4", "--games", "3", "--check", "2", "--workers", "1",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Greedy bots in every seat, 2 games (seeds 3-4)" in out
    assert "written weights" in out and "fitted weights" in out and "humans" in out


def test_fitted_weights_beat_a_weight_written_the_wrong_way_head_to_head(wrong_way_connect_four: Path):
    from rulecraft.bots.weight_fit import head_to_head, with_weights

    ruleset = load_checked(wrong_way_connect_four)
    readings = []
    for i in range(30):
        readings += play_and_read(ruleset, 2, i, "greedy", 10, i)
    fit = fit_weights(readings, written_weights(ruleset, readings))
    counts = head_to_head(ruleset, with_weights(ruleset, fit.features), 2, list(range(30, 50)))
    assert sum(counts.values()) == 20
    assert counts["fitted"] >= 15 > counts["written"]


def test_a_copy_with_fitted_weights_leaves_the_rule_set_alone():
    from rulecraft.bots.evaluation import Evaluation
    from rulecraft.bots.weight_fit import FittedFeature, NOT_A_NUMBER, with_weights
    from rulecraft.interpreter.game import Game

    ruleset = load_checked(ROOT / "rules" / "connect_four")
    game = Game(ruleset, 2, 3)
    for move in (3, 0, 4, 0, 2, 6):  # p1 lines up three in the bottom row
        game.choose(move)
    view = game.view("p1")
    written = Evaluation(ruleset).value(view)
    flipped = with_weights(ruleset, [FittedFeature("open_lines", i, "", 0, -w)
                                      for i, w in enumerate([8, 2, -10, -2])] +
                                     [FittedFeature("open_lines", 0, "", 0, 99, NOT_A_NUMBER)])
    assert written != 0
    assert Evaluation(flipped).value(view) == pytest.approx(-written)
    assert Evaluation(ruleset).value(view) == pytest.approx(written)


@pytest.mark.parametrize("argv, reason", [
    (["tune", "tic_tac_toe"], "declares no heuristic"),
    (["tune", "connect_four", "--games", "2"], "--games must be at least 3"),
    (["tune", "connect_four", "--players", "5"], "not 5"),
    (["tune", "connect_four", "--check", "-1"], "argument --check: must be at least 0, not -1"),
    (["tune", "panic_station", "--variant", "four_gas_cans", "--write"], "--write changes the rule set's own files"),
    (["tune", "connect_four", "--write", "--check", "0"], "--write keeps fitted weights only when the check's games "
                                                            "show they play better: give --check K (K > 0), or --force"),
    (["tune", "connect_four", "--force"], "--force only goes with --write"),
])
def test_bad_usage_is_one_line_and_exit_2(argv, reason, capsys):
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse's own refusal
        code = stop.code
    assert code == 2
    err = capsys.readouterr().err
    assert reason in err and len(err.strip().splitlines()) == 1


def test_games_stopped_undecided_can_be_left_out_of_the_fit(capsys, monkeypatch):
    """Star Trek: Panic with one greedy player: seeds 1 and 4 stop at the round limit,
    which counts as lost for the crew; seeds 2 and 3 end with the hull destroyed."""
    trek = load_checked(ROOT / "rules" / "star_trek_panic")
    assert play_and_read(trek, 1, 1, "greedy", 5) != []
    assert play_and_read(trek, 1, 1, "greedy", 5, decided_only=True) == []
    ended = play_and_read(trek, 1, 2, "greedy", 5, 2)
    assert [r.values for r in play_and_read(trek, 1, 2, "greedy", 5, 2, decided_only=True)] == [r.values for r in ended]
    # (one crew member alone loses every decided game: two players win some, so there is a fit)
    assert main(["tune", "star_trek_panic", "--players", "2", "--games", "6", "--seed", "1", "--decided",
                 "--check", "0", "--workers", "1", "--quiet"]) == 0
    assert "5 games of 2 players by bot greedy (1 more stopped undecided, left out)" in capsys.readouterr().out
    # nothing left to fit: one line and exit 1, no traceback
    import rulecraft.cli.tune as tune
    monkeypatch.setattr(tune, "play_and_read", lambda *task: [])
    assert main(["tune", "star_trek_panic", "--players", "1", "--games", "3", "--decided", "--check", "0",
                 "--workers", "1", "--quiet"]) == 1
    assert "every one of the 3 games stopped undecided" in capsys.readouterr().err


@pytest.mark.parametrize("label, said", [(1.0, "won"), (0.0, "lost")])
def test_games_all_won_or_all_lost_fit_nothing_and_write_nothing(tmp_path, capsys, monkeypatch, label, said):
    """A designer's cooperative game where greedy bots won every game: the fit had no lost
    position to tell apart, set every weight to 0 and wrote the zeros with --write."""
    import dataclasses

    import rulecraft.cli.tune as tune

    folder = tmp_path / "star_trek_panic"
    shutil.copytree(ROOT / "rules" / "star_trek_panic", folder)
    before = {p.name: p.read_text(encoding="utf-8") for p in folder.glob("*.rules")}
    real = tune.play_and_read
    monkeypatch.setattr(tune, "play_and_read",
                        lambda *task, **kw: [dataclasses.replace(r, label=label) for r in real(*task, **kw)])
    assert main(["tune", str(folder), "--players", "1", "--games", "3", "--seed", "2", "--check", "0",
                 "--workers", "1", "--quiet", "--write", "--force"]) == 1
    err = capsys.readouterr().err
    assert f"every reading comes from a game its side {said}" in err and "nothing is fitted or written" in err
    assert {p.name: p.read_text(encoding="utf-8") for p in folder.glob("*.rules")} == before


@pytest.mark.parametrize("verdict, said", [
    (False, "the check's games say they play no better than the written ones"),
    (None, "the check cannot tell: every seat of both sides plays by the same weights"),
])
def test_weights_the_check_does_not_find_better_are_not_written(wrong_way_connect_four: Path, capsys, monkeypatch,
                                                                 verdict, said):
    # --write wrote weights with which its own check's greedy crew had just won fewer games
    import rulecraft.cli.tune as tune

    rules = wrong_way_connect_four / "strategy.rules"
    before = rules.read_text()
    monkeypatch.setattr(tune, "_check", lambda *a, **k: verdict)
    argv = ["tune", str(wrong_way_connect_four), "--games", "6", "--check", "2", "--workers", "1", "--quiet", "--write"]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert f"nothing written: {said}; --force writes them anyway" in out
    assert rules.read_text() == before
    assert main(argv + ["--force"]) == 0
    assert rules.read_text() != before


def test_the_check_says_whether_the_fitted_weights_played_better(wrong_way_connect_four: Path, capsys):
    import rulecraft.cli.tune as tune

    seen = []
    real = tune._check

    def check(*args, **kw):
        seen.append(real(*args, **kw))
        return seen[-1]

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(tune, "_check", check)
        main(["tune", str(wrong_way_connect_four), "--games", "30", "--check", "10", "--workers", "1", "--quiet",
              "--write"])
    # a weight written the wrong way: the fitted seat wins more than its even share
    assert seen == [True]
    assert "wrote" in capsys.readouterr().out


def test_a_rule_set_installed_as_a_package_is_not_written(tmp_path):
    from rulecraft.cli.tune import _installed

    assert _installed(str(tmp_path / "venv" / "lib" / "python3.11" / "site-packages" / "rulecraft" / "rules" / "x"))
    assert not _installed(str(ROOT / "rules" / "connect_four"))  # a clone's own folder
