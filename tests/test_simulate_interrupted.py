"""Ctrl-C during `rulecraft simulate` keeps the games that finished: their table is
printed and --out, --log and --plot hold them; the exit code says it was interrupted."""

from __future__ import annotations

import json

from panic_station import RULES

from rulecraft.cli import simulate as simulate_module
from rulecraft.cli.main import main


def interrupted_after(finished: int):
    """run_games that plays the first ``finished`` games, then is interrupted (as Ctrl-C does)."""
    real = simulate_module.run_games

    def run_games(path, ruleset, tasks, workers, on_row, variant=None, play=None):
        real(path, ruleset, tasks[:finished], 1, on_row, variant, play)
        raise KeyboardInterrupt

    return run_games


def test_an_interrupted_run_reports_and_writes_the_games_that_finished(tmp_path, capsys, monkeypatch):
    # every finished game was lost: no table, no --out, no log
    monkeypatch.setattr(simulate_module, "run_games", interrupted_after(3))
    out, log = tmp_path / "rows.json", tmp_path / "first.jsonl"
    code = main(["simulate", str(RULES), "--players", "4", "--games", "10", "--seed", "5", "--quiet",
                 "--out", str(out), "--log", str(log), "--variant", "humans_advantage"])
    assert code == 130
    captured = capsys.readouterr()
    assert "3 of 10 games (interrupted)" in captured.out
    assert "humans_advantage" not in captured.out.split("(interrupted)")[1].split("\n")[0]
    rows = json.loads(out.read_text())
    assert sorted(r["index"] for r in rows) == [0, 1, 2]
    assert {r["variant"] for r in rows} == {"base"}  # the variant's games were never begun
    assert log.read_text().strip()
    assert captured.err.strip().endswith("interrupted after 3 of 10 games: the tables and files hold the games "
                                         "that finished")


def test_an_interrupt_before_any_game_finished_writes_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(simulate_module, "run_games", interrupted_after(0))
    out = tmp_path / "rows.json"
    assert main(["simulate", str(RULES), "--players", "4", "--games", "4", "--quiet", "--out", str(out)]) == 130
    assert "nothing written" in capsys.readouterr().err and not out.exists()
