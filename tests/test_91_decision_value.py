"""benchmarks/decision_value.py: what one decision is worth, played out from the true state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmark_scripts import load_script

from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game, state_digest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def worth():
    return load_script("decision_value")


@pytest.fixture(scope="module")
def connect_four():
    return load_checked(ROOT / "rules" / "connect_four")


def drop(game: Game, square: str) -> None:
    game.choose_option({"action": "drop", "args": {"s": square}})


def test_a_branch_plays_on_without_touching_the_game(worth):
    panic = load_checked(ROOT / "rules" / "panic_station")
    game = Game(panic, 5, 3)
    for _ in range(40):
        game.choose(0)
    before, events, zones = state_digest(game.state), len(game.events), {k: list(v) for k, v in game.state.zones.items()}
    one, two, other = worth.branch(game, 11), worth.branch(game, 11), worth.branch(game, 12)
    assert one.state.zones == zones  # the cards in place stay where they are
    for copy in (one, two, other):
        worth.play_on(panic, copy, "random", 5)
    # the same seed draws the same chance; the game branched from is untouched
    assert one.decisions == two.decisions and one.result == two.result
    assert [e["type"] for e in one.events] == [e["type"] for e in two.events]
    assert state_digest(game.state) == before and len(game.events) == events and not game.over
    # another seed draws other chance (dice, shuffles) with the same bots
    assert [e for e in one.events[events:]] != [e for e in other.events[events:]]
    # a branch's players see what they saw before it, then the branch's own events
    assert one.events_for("p1")[:len(game.events_for("p1"))] == game.events_for("p1")


def test_a_winning_drop_wins_every_continuation(worth, connect_four):
    game = Game(connect_four, 2, 1)
    for square in ("a1", "a2", "b1", "b2", "c1", "c2"):
        drop(game, square)
    options = game.pending.options
    win = options.index({"action": "drop", "args": {"s": "d1"}})
    elsewhere = options.index({"action": "drop", "args": {"s": "g1"}})
    values = worth.option_values(connect_four, game, [win, elsewhere], "p1", "random", 8, 4)
    assert values[win] == [1.0] * 8
    # elsewhere, p2 may block at d1 and go on to win: not every continuation is won
    assert len(values[elsewhere]) == 8 and sum(values[elsewhere]) < 8


def record(odds: dict, results: dict, picks: dict | None = None) -> dict:
    top = sorted(odds, key=lambda i: -odds[i])
    return {"odds": odds, "results": results, "top": top, "picks": picks or {}, "kind": "action", "cpu": 1.0, "continued": 1,
            "keys": {i: f'{{"action": "a{i}"}}' for i in results}}


def test_headroom_is_chosen_on_half_the_continuations_and_valued_on_the_other(worth):
    # option 1 looks best on the odd continuations (1, 0, 0 against 0, 0, 0), worse on the
    # even ones (0, 0, 0 against 1, 1, 1) and over all of them: it is chosen, then valued
    # on continuations that did not choose it, so its luck is not counted as headroom
    lucky = record({0: 0.5, 1: 0.25}, {0: [1, 0, 1, 0, 1, 0], 1: [0, 1, 0, 0, 0, 0]})
    assert worth.headroom(lucky) == pytest.approx(-1.0)
    better = record({0: 0.5, 1: 0.25}, {0: [0, 0, 0, 0], 1: [1, 1, 0, 1]})
    assert worth.headroom(better) == pytest.approx(0.5)


def test_equal_favourites_are_worth_their_average(worth):
    tied = record({0: 0.4, 1: 0.4, 2: 0.2}, {0: [1, 1], 1: [0, 0], 2: [1, 0]})
    assert worth.tied_favourites(tied) == [0, 1]
    assert worth.baseline(tied) == pytest.approx(0.5)
    assert worth.value(tied, 2) == pytest.approx(0.5)


def test_the_report_tells_changes_from_tie_breaks(worth, capsys):
    records = [record({0: 0.5, 1: 0.25}, {0: [0, 0], 1: [1, 1]}, {"s": 1}),  # a change, worth +1
               record({0: 0.4, 1: 0.4}, {0: [1, 1], 1: [0, 0]}, {"s": 1}),  # a tie-break, worth -0.5
               record({0: 0.5, 1: 0.25}, {0: [1, 0], 1: [1, 0]}, {"s": 0})]  # the favourite kept
    worth.report(records, ["s"], 1, 10)
    out = capsys.readouterr().out
    assert "picks another than the policy's favourites: 1, advantage +1.0000" in out
    assert "picks among equal favourites: 1, advantage -0.5000" in out
    # (1 - 0.5 + 0) / 3 a measured decision, 3 measured in a game, one in 10 measured
    assert "every measured decision: +0.1667" in out and "+5.000" in out
    # two records have another option than equal favourites: the first's differs in every continuation, the last's in none
    assert "2 pairs, 1 of them differ in some continuation" in out
    # a gap of 1 with no spread is told apart at once; the median of one is that one
    assert "median 0 " in out


def test_the_script_measures_a_search_bot_on_real_games(worth, capsys, tmp_path):
    out_file = tmp_path / "decisions.json"
    assert worth.main([str(ROOT / "rules" / "connect_four"), "--players", "2", "--games", "1", "--side", "p1",
                       "--bot", "random", "--every", "3", "--continuations", "2", "--top", "2",
                       "--search", "mcts:10", "--workers", "1", "--out", str(out_file)]) == 0
    out = capsys.readouterr().out
    assert "decisions measured in 1 games" in out and "mcts:10" in out
    assert worth.main(["--report", str(out_file)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == out.splitlines()[0]
    # another bot measured at the same decisions reuses the file's continuations
    again = tmp_path / "again.json"
    assert worth.main(["--against", str(out_file), "--search", "greedy", "--workers", "1", "--out", str(again)]) == 0
    first, second = (json.loads(f.read_text())["decisions"] for f in (out_file, again))
    assert [(r["seed"], r["decision"]) for r in first] == [(r["seed"], r["decision"]) for r in second]
    for one, two in zip(first, second):
        assert set(two["picks"]) == {"greedy"}
        assert all(two["results"][k] == v for k, v in one["results"].items())
    with pytest.raises(SystemExit) as bad:
        worth.main([str(ROOT / "rules" / "connect_four"), "--players", "2", "--side", "p3"])
    assert bad.value.code == 2
    with pytest.raises(SystemExit) as bad:
        worth.main(["--report", str(tmp_path / "missing.json")])
    assert bad.value.code == 2
    # a file whose records lack a field the report reads is refused, not half read
    older = json.loads(out_file.read_text())
    for record in older["decisions"]:
        del record["continued"]
    (tmp_path / "older.json").write_text(json.dumps(older))
    capsys.readouterr()
    with pytest.raises(SystemExit) as bad:
        worth.main(["--report", str(tmp_path / "older.json")])
    assert bad.value.code == 2 and "lacks continued" in capsys.readouterr().err
    # tic-tac-toe has neither a strategy nor preferences to rank the options by
    with pytest.raises(SystemExit) as bad:
        worth.main([str(ROOT / "rules" / "tic_tac_toe"), "--players", "2", "--side", "p1"])
    assert bad.value.code == 2
    assert "no policy to rank" in capsys.readouterr().err
