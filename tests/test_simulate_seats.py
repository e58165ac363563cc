"""`rulecraft simulate`'s figures per seat: each seat's wins (alone or shared), win rate
with its Wilson interval and mean payoff, recomputed here from the per-game rows of
``--out``; the table is left out, with a note, where it would repeat the table of sides;
the rows carry each seat's outcome in JSON and CSV; variants compare seats side by side."""

from __future__ import annotations

import csv
import json
import statistics
from pathlib import Path

import pytest
from engine_rulesets import QUIET_SETUP_AND_ROUND, game_yaml, write_ruleset

from rulecraft.cli.main import main
from rulecraft.cli.rates import percent, wilson
from rulecraft.cli.simulate import ROW_FIELDS

RULES = Path(__file__).resolve().parent.parent / "rules"
# printed instead of a table per seat that would repeat the table of sides
SAME_AS_SIDES = "wins per seat: as the sides above (every seat its own side; no win shared)"


@pytest.fixture(autouse=True)
def wide_tables(monkeypatch):
    """Tables as wide as they need, so that no cell is wrapped onto a second line."""
    monkeypatch.setenv("COLUMNS", "220")


def simulate(capsys, ruleset, *args, out: Path) -> tuple[list[dict], str]:
    code = main(["simulate", str(ruleset), "--quiet", "--workers", "1", "--out", str(out), *map(str, args)])
    printed = capsys.readouterr().out
    assert code == 0, printed
    return json.loads(out.read_text()) if out.suffix == ".json" else [], printed


def table(printed: str, title: str) -> dict[str, list[str]]:
    """The rows of the printed table titled ``title``: first cell → the other cells."""
    lines = printed.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith(title))
    rows = {}
    for line in lines[start + 1:]:
        if line.startswith("└"):
            break
        if line.startswith("│"):
            cells = [c.strip() for c in line.split("│")[1:-1]]
            rows[cells[0]] = cells[1:]
    return rows


def expected_seat_cells(rows: list[dict], seat: str) -> list[str]:
    """A seat's cells of the table per seat, recomputed from the rows' winners."""
    played = [r for r in rows if r["error"] is None]
    alone = sum(r["winners"] == [seat] for r in played)
    shared = sum(seat in r["winners"] and len(r["winners"]) > 1 for r in played)
    won = alone + shared
    lo, hi = wilson(won, len(played))
    return [str(won), str(alone), str(shared), percent(won / len(played)), f"{percent(lo)} – {percent(hi)}"]


def assert_rows_say_each_seats_outcome(rows: list[dict], seats: list[str]) -> None:
    for r in rows:
        assert list(r) == ROW_FIELDS
        expected = {s: ("shared" if len(r["winners"]) > 1 else "alone") if s in r["winners"] else "no" for s in seats}
        assert r["seat_wins"] == expected


# ---------------------------------------------------------------- shipped rule sets

def test_a_team_game_shows_each_seats_wins_alone_and_shared(tmp_path, capsys):
    rows, printed = simulate(capsys, RULES / "panic_station", "--players", "5", "--games", "10", "--seed", "0",
                             out=tmp_path / "rows.json")
    seats = ["p1", "p2", "p3", "p4", "p5"]
    assert_rows_say_each_seats_outcome(rows, seats)
    shown = table(printed, "Wins per seat")
    assert list(shown) == seats  # every seat, even one that never won
    for seat in seats:
        assert shown[seat] == expected_seat_cells(rows, seat)
    # the sample has team wins of one seat and of several: both columns are exercised
    assert any(len(r["winners"]) == 1 for r in rows) and any(len(r["winners"]) > 1 for r in rows)
    assert "won: among the winners the game's victory named" in printed


@pytest.mark.parametrize("ruleset, games", [("tic_tac_toe", 60), ("connect_four", 20)])
def test_where_every_seat_is_its_own_side_the_side_table_already_gives_the_seats(tmp_path, capsys, ruleset, games):
    rows, printed = simulate(capsys, RULES / ruleset, "--games", games, out=tmp_path / "rows.json")
    assert_rows_say_each_seats_outcome(rows, ["p1", "p2"])
    assert "Wins per seat" not in printed
    assert SAME_AS_SIDES in printed
    # the note is true: each seat's row of the side table is its wins, recomputed from the rows
    sides = table(printed, "┃ winning side")
    for seat in ("p1", "p2"):
        won, _alone, _shared, rate, interval = expected_seat_cells(rows, seat)
        assert sides[seat] == [won, rate, interval]
    assert any(r["winners"] for r in rows)


def test_payoffs_of_a_game_of_single_winners_stay_in_their_own_table(tmp_path, capsys):
    rows, printed = simulate(capsys, RULES / "kuhn_poker", "--games", "40", "--seed", "3", out=tmp_path / "rows.json")
    assert_rows_say_each_seats_outcome(rows, ["p1", "p2"])
    assert "Wins per seat" not in printed and SAME_AS_SIDES in printed
    paid = table(printed, "Payoffs (game.payoff)")
    for seat in ("p1", "p2"):
        assert paid[seat][0] == f"{statistics.mean(r['payoffs'][seat] for r in rows):.3f}"


def test_a_game_nobody_won_says_so_instead_of_a_table_of_zeros(tmp_path, capsys):
    folder = write_ruleset(tmp_path / "stalemate", {
        "game.yaml": game_yaml(name="stalemate", players=(2, 2)) + "  sides: {cooperative: crew}\n"
                     + "kinds:\n  player: {}\n",
        "main.rules": """
procedure setup():
    do:
        stop

procedure round():
    do:
        stop

victory lost:
    when round_number >= 1
    winners []
""",
    })
    rows, printed = simulate(capsys, folder, "--games", "3", out=tmp_path / "rows.json")
    assert [r["seat_wins"] for r in rows] == [{"p1": "no", "p2": "no"}] * 3
    assert "wins per seat: none (no game named a winner)" in printed and "Wins per seat" not in printed


# ---------------------------------------------------------------- shared wins, on tiny rule sets

SCORES = """
kinds:
  player:
    properties:
      ap: {type: number, default: 0}
      score: {type: number, default: 0}
      camp: {type: text, values: [gold, blue], default: gold}
"""

TURNS = QUIET_SETUP_AND_ROUND + """
trigger refill:
    on turn_started
    do:
        set event.player.ap = 1

action work:
    cost 1 ap
    do:
        set current_player.score += 1

function points(p: player) -> number:
    = p.score
"""

# the best score after two rounds wins: often several seats tie for it and share the win
BEST_SCORE = TURNS + """
victory best_score:
    when round_number >= 3
    winners [p for p in players where p.score == max([q.score for q in players])]
"""

# two camps; the camp that scored more wins, but only its seats that scored are named
CAMPS = TURNS + """
function in_gold(p: player) -> bool:
    = p.camp == "gold"

function in_blue(p: player) -> bool:
    = p.camp == "blue"

function camp_points(p: player) -> number:
    = sum([q.score for q in players where q.camp == p.camp])

function rival_points(p: player) -> number:
    = sum([q.score for q in players where q.camp != p.camp])

victory gold_ahead:
    when round_number >= 3 and any([in_gold(p) and camp_points(p) > rival_points(p) for p in players])
    winners [p for p in players where in_gold(p) and p.score > 0]

victory blue_ahead:
    when round_number >= 3 and any([in_blue(p) and camp_points(p) > rival_points(p) for p in players])
    winners [p for p in players where in_blue(p) and p.score > 0]

victory level:
    when round_number >= 3
    winners []
"""


def best_score_folder(tmp_path: Path) -> Path:
    return write_ruleset(tmp_path / "best_score", {
        "game.yaml": game_yaml(name="best_score", players=(2, 4)) + "  sides: {free_for_all: true}\n"
                     + "  payoff: {function: points, min: 0, max: 5}\n" + SCORES,
        "main.rules": BEST_SCORE,
    })


def test_shared_wins_are_counted_for_every_seat_that_shares_them(tmp_path, capsys):
    rows, printed = simulate(capsys, best_score_folder(tmp_path), "--players", "3", "--games", "40", "--seed", "2",
                             out=tmp_path / "rows.json")
    seats = ["p1", "p2", "p3"]
    assert_rows_say_each_seats_outcome(rows, seats)
    assert any(len(r["winners"]) == 1 for r in rows) and any(len(r["winners"]) > 1 for r in rows)
    shown = table(printed, "Wins per seat")
    assert list(shown) == seats
    for seat in seats:
        paid = [r["payoffs"][seat] for r in rows]
        assert shown[seat] == expected_seat_cells(rows, seat) + [f"{statistics.mean(paid):.3f}",
                                                                 f"{statistics.stdev(paid):.3f}"]
    # a shared win is one game for each of its seats: the seats' wins add up to more games
    assert sum(int(shown[s][0]) for s in seats) == sum(len(r["winners"]) for r in rows) > len(rows)
    assert "Payoffs (game.payoff)" in printed  # the payoff table stays, with its interval and range


def test_a_seat_of_the_winning_side_that_the_victory_leaves_out_did_not_win(tmp_path, capsys):
    folder = write_ruleset(tmp_path / "camps", {
        "game.yaml": game_yaml(name="camps", players=(4, 4)) + "  seats:\n    camp: [gold, blue, gold, blue]\n"
                     + "  sides:\n    teams:\n      - {name: gold, member: in_gold}\n"
                       "      - {name: blue, member: in_blue}\n" + SCORES,
        "main.rules": CAMPS,
    })
    rows, printed = simulate(capsys, folder, "--players", "4", "--games", "40", "--seed", "1",
                             out=tmp_path / "rows.json")
    seats = ["p1", "p2", "p3", "p4"]
    assert_rows_say_each_seats_outcome(rows, seats)
    camp = {"gold": ["p1", "p3"], "blue": ["p2", "p4"]}
    left_out = [r for r in rows if r["side"] in camp and set(r["winners"]) < set(camp[r["side"]])]
    assert left_out, "some camp won with a seat that did not score"
    for r in left_out:
        for seat in set(camp[r["side"]]) - set(r["winners"]):
            assert r["seat_wins"][seat] == "no"
    shown = table(printed, "Wins per seat")
    for seat in seats:
        assert shown[seat] == expected_seat_cells(rows, seat)


# ---------------------------------------------------------------- rows and variants

def test_csv_rows_give_each_seats_outcome_as_the_json_rows_do(tmp_path, capsys):
    folder = best_score_folder(tmp_path)
    rows, _ = simulate(capsys, folder, "--players", "3", "--games", "12", out=tmp_path / "rows.json")
    simulate(capsys, folder, "--players", "3", "--games", "12", out=tmp_path / "rows.csv")
    with open(tmp_path / "rows.csv", newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == ROW_FIELDS and "seat_wins" in ROW_FIELDS
        lines = list(reader)
    for row, line in zip(rows, lines, strict=True):
        assert dict(pair.split("=") for pair in line["seat_wins"].split()) == row["seat_wins"]
        assert line["seat_wins"].split()[0].startswith("p1=")  # in seat order


def test_variants_compare_each_seats_win_rate(tmp_path, capsys):
    rows, printed = simulate(capsys, RULES / "panic_station", "--players", "4", "--games", "4", "--seed", "5",
                             "--variant", "four_gas_cans", out=tmp_path / "rows.json")
    compared = table(printed, "How each variant moves the seats")
    assert list(compared) == ["p1", "p2", "p3", "p4"]  # a row per seat, a column per rules
    for seat, cells in compared.items():
        expected = []
        for variant in ("base", "four_gas_cans"):
            played = [r for r in rows if r["variant"] == variant]
            won, n = sum(seat in r["winners"] for r in played), len(played)
            lo, hi = wilson(won, n)
            expected.append(f"{percent(won / n)} [{percent(lo)}–{percent(hi)}]")
        assert cells == expected


def test_variants_compare_each_seats_mean_payoff_too(tmp_path, capsys):
    folder = write_ruleset(tmp_path / "best_score", {
        "game.yaml": game_yaml(name="best_score", players=(2, 4)) + "  sides: {free_for_all: true}\n"
                     + "  payoff: {function: points, min: 0, max: 5}\n" + SCORES
                     + "parameters:\n  work_points:\n    value: 1\n",
        "main.rules": BEST_SCORE.replace("current_player.score += 1", "current_player.score += work_points"),
    })
    write_ruleset(folder / "variants", {"double.yaml": "variant:\n  name: double\n  base: best_score\n"
                                                       "parameters:\n  work_points: 2\n"})
    rows, printed = simulate(capsys, folder, "--players", "3", "--games", "20", "--variant", "double",
                             out=tmp_path / "rows.json")
    compared = table(printed, "How each variant moves the seats (win rate, 95% interval, mean payoff)")
    assert list(compared) == ["p1", "p2", "p3"]
    for seat, cells in compared.items():
        for variant, cell in zip(("base", "double"), cells, strict=True):
            paid = [r["payoffs"][seat] for r in rows if r["variant"] == variant]
            assert cell.endswith(f"; payoff {statistics.mean(paid):.3f}")
    assert any(r["payoffs"]["p1"] == 2 for r in rows if r["variant"] == "double")  # the variant was played
