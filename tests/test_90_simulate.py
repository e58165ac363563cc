"""`rulecraft simulate`: reproducible across worker counts, per-game rows, plots, bad usage."""

from __future__ import annotations

import csv
import json
import stat
from pathlib import Path

import pytest
from engine_rulesets import game_yaml, write_ruleset
from panic_station import RULES, ruleset

from rulecraft.bots import REGISTRY, make_bot, register
from rulecraft.cli.main import main
from rulecraft.cli.simulate import ROW_FIELDS, play_game, play_row, summarize, wilson, write_plot
from rulecraft.interpreter.sides import winning_side

GAMES = ["--players", "4", "--games", "4", "--seed", "11", "--quiet"]


def simulate(*args) -> int:
    try:
        return main(["simulate", str(RULES), *map(str, args)])
    except SystemExit as stop:  # argparse's own errors
        return stop.code


def report(out: str) -> str:
    """The printed report without the timing line."""
    return "\n".join(line for line in out.splitlines() if " games in " not in line)


def test_one_and_two_workers_give_identical_results(tmp_path, capsys):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    assert simulate(*GAMES, "--workers", 1, "--out", one) == 0
    first = capsys.readouterr().out
    assert simulate(*GAMES, "--workers", 2, "--out", two) == 0
    second = capsys.readouterr().out
    assert json.loads(one.read_text()) == json.loads(two.read_text())
    assert report(first) == report(second)
    assert "2 worker(s)" in second and "1 worker(s)" in first
    assert "95% CI" in first and "How the games ended" in first and "game length" in first


def test_json_rows_describe_each_game(tmp_path):
    out = tmp_path / "rows.json"
    assert simulate(*GAMES, "--workers", 1, "--out", out) == 0
    rows = json.loads(out.read_text())
    assert [r["index"] for r in rows] == [0, 1, 2, 3]
    assert [r["seed"] for r in rows] == [11, 12, 13, 14]
    for row in rows:
        assert list(row) == ROW_FIELDS
        game = play_game(ruleset(), 4, row["seed"])  # game i: seed S+i, bots seeded from it
        assert row["players"] == 4
        assert row["winners"] == game.result["winners"]
        assert row["reason"] == game.result["reason"]
        assert row["decided"] == game.result["decided"]
        assert row["rounds"] == game.state.round
        assert row["decisions"] == len(game.decisions)
        assert row["side"] == winning_side(ruleset(), game.state, game.result["winners"])
        assert row["error"] is None


def test_csv_rows_match_the_json_rows(tmp_path):
    js, cs = tmp_path / "rows.json", tmp_path / "rows.csv"
    assert simulate(*GAMES, "--workers", 1, "--out", js) == 0
    assert simulate(*GAMES, "--workers", 1, "--out", cs) == 0
    with open(cs, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == ROW_FIELDS
        table = list(reader)
    for row, line in zip(json.loads(js.read_text()), table, strict=True):
        assert line["index"] == str(row["index"]) and line["seed"] == str(row["seed"])
        assert line["winners"].split() == row["winners"]
        assert line["side"] == row["side"] and line["reason"] == row["reason"]
        assert line["decided"] == str(row["decided"])
        assert (line["rounds"], line["decisions"]) == (str(row["rounds"]), str(row["decisions"]))


def test_plot_writes_a_png(tmp_path):
    png = tmp_path / "outcomes.png"
    assert simulate("--players", 4, "--games", 2, "--seed", 3, "--quiet", "--workers", 1, "--plot", png) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_of_a_side_that_never_wins(tmp_path):
    # Wilson's lower bound at 0 of 100 lies a rounding error above 0: the error bar
    # below the 0% bar must not come out negative.
    assert 0 < wilson(0, 100)[0] < 1e-9
    rows = [{"error": None, "decided": True, "side": "nobody", "reason": "lost", "rounds": 3, "decisions": 9}] * 100
    png = tmp_path / "never.png"
    write_plot(str(png), "a side that never wins", summarize(rows, ("crew", "nobody")))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_log_of_the_first_game_is_still_written(tmp_path):
    log = tmp_path / "first.jsonl"
    assert simulate("--players", 4, "--games", 2, "--seed", 5, "--quiet", "--workers", 2, "--log", log) == 0
    game = play_game(ruleset(), 4, 5)
    assert log.read_text().splitlines() == list(game.log_lines())
    # every hand of the game is in it: readable by its owner only, as a save of play is
    assert stat.S_IMODE(log.stat().st_mode) == 0o600


def test_a_bot_per_seat_or_one_for_all(tmp_path, capsys):
    seats = ["--bot", "random"] * 4
    assert simulate("--players", 4, "--games", 1, "--quiet", *seats) == 0
    assert "bots: random" in capsys.readouterr().out


def test_a_registered_bot_is_used_by_name(tmp_path):
    class FirstBot:
        name = "first"
        needs_events = True

        def __init__(self, seed):
            self.views = 0

        def choose(self, view):
            assert "events" in view and view["choice"]["options"]
            return 0

    register("first_option", FirstBot)
    try:
        row = play_row(ruleset(), 0, 1, 4, ["first_option"])
        assert row["error"] is None and row["decisions"] > 0
        assert isinstance(make_bot("first_option", 1), FirstBot)
    finally:
        REGISTRY.pop("first_option")


@pytest.mark.parametrize("args, message", [
    (["--bot", "clever"], "unknown bot 'clever' (known bots: greedy, heuristic, mcts, random)"),
    (["--players", "4", "--bot", "random", "--bot", "random"], "one --bot for every seat (4) or one for all, not 2"),
    (["--out", "rows.txt"], "must end in .json or .csv"),
    (["--plot", "outcomes.svg"], "must end in .png"),
    (["--players", "9"], "played by 4 to 6 players, not 9"),
    (["--workers", "0"], "must be at least 1"),
])
def test_bad_arguments_exit_2_with_one_line(capsys, args, message):
    assert simulate(*args, "--quiet") == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1 and err.startswith("rulecraft simulate: error:")


def test_a_rule_error_exits_1_and_is_reported(tmp_path, capsys):
    folder = write_ruleset(tmp_path / "broken", {
        "game.yaml": game_yaml(players=(1, 2)) + """
zones:
  deck: {}
  discard: {}
kinds:
  player:
    properties: {}
  card:
    located_in: zone
components:
  - {name: a, kind: card, zone: deck}
""",
        "main.rules": """
procedure setup():
    do:
        stop

procedure round():
    do:
        move top(deck) to discard
        move top(deck) to discard
""",
    })
    out = tmp_path / "rows.json"
    assert main(["simulate", str(folder), "--games", "2", "--quiet", "--workers", "2", "--out", str(out)]) == 1
    printed = capsys.readouterr().out
    assert "rule error" in printed and "cannot move nothing" in printed
    rows = json.loads(out.read_text())
    assert [r["reason"] for r in rows] == ["rule error", "rule error"]
    assert all("main.rules" in r["error"] for r in rows)
    # more than five: the others are counted and named by their seeds, not left out unsaid
    assert main(["simulate", str(folder), "--games", "8", "--seed", "20", "--quiet", "--workers", "1"]) == 1
    printed = capsys.readouterr().out
    assert printed.count("cannot move nothing") == 5
    assert "… and 3 more game(s) with a rule error (seeds 25, 26, 27; --out lists every one)" in printed


def test_a_slow_run_says_seconds_a_game(capsys):
    from rulecraft.cli.simulate import _rate

    assert _rate(2, 61.1) == "30.6 s a game"  # it said "0.0 games/s"
    assert _rate(300, 5.8) == "51.7 games/s"


def test_panic_station_sides_follow_infection_at_the_end():
    """Panic Station declares its teams in game.yaml; a seat's team is read from the
    final state, so an infection during play moves the seat to the infected."""
    from panic_station import new_game

    game = new_game(4, 1)
    props = {p: game.state.entities[p]["props"] for p in game.state.players}
    for p, infected in zip(game.state.players, [True, False, False, False]):
        props[p]["infected"] = infected
    rules = ruleset()
    assert winning_side(rules, game.state, ["p1"]) == "infected"
    assert winning_side(rules, game.state, ["p2", "p3"]) == "humans"
    assert winning_side(rules, game.state, []) == "nobody"
    props["p2"]["infected"] = True
    assert winning_side(rules, game.state, ["p2"]) == "infected"


def test_wilson_interval():
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0 and hi == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_endings_name_victories_by_their_glossary_title(tmp_path, capsys):
    out = tmp_path / "rows.json"
    assert simulate(*GAMES, "--workers", 1, "--out", out) == 0
    printed = capsys.readouterr().out
    from rulecraft.docgen.prose import Prose

    prose = Prose(ruleset(), "en")
    reasons = {row["reason"] for row in json.loads(out.read_text()) if row["decided"]}
    victories = {d.name for d in ruleset().of_kind("victory")}
    shown = [r for r in reasons if r in victories]
    assert shown, "some game ended by a victory condition"
    for name in shown:
        assert prose.title(name) in printed and prose.title(name) != name
        assert name not in printed  # rows keep the name; the table shows the title


def test_plot_compares_the_base_game_and_its_variants_in_one_chart(tmp_path):
    import matplotlib.image

    png = tmp_path / "balance.png"
    assert simulate("--players", 4, "--games", 3, "--seed", 3, "--quiet", "--workers", 1,
                    "--variant", "four_gas_cans", "--plot", png) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["balance.png"]  # no second file per variant
    assert matplotlib.image.imread(png).shape[:2] == (450, 1100)


def test_the_lengths_plotted_are_those_of_the_decided_games():
    rows = [{"error": None, "decided": True, "side": "crew", "rounds": 4, "decisions": 9, "reason": "won"},
            {"error": None, "decided": False, "side": None, "rounds": 60, "decisions": 300, "reason": None}]
    summary = summarize(rows, ("crew",))
    assert summary["rounds"] == [4, 60] and summary["decided_rounds"] == [4]


class _FaultyBot:
    """Answers the first option; the third bot made (the first seat of the second game,
    games being played one after another) fails on its second choice."""

    made = 0

    def __init__(self, seed: int):
        _FaultyBot.made += 1
        self.faulty, self.chosen = _FaultyBot.made == 3, 0

    def choose(self, view: dict) -> int:
        self.chosen += 1
        if self.faulty and self.chosen == 2:
            raise KeyError("reaction")
        return 0


def test_a_bot_that_fails_loses_that_game_only(tmp_path, capsys, monkeypatch):
    from rulecraft.bots import REGISTRY

    monkeypatch.setitem(REGISTRY, "faulty", _FaultyBot)
    monkeypatch.setattr(_FaultyBot, "made", 0)
    out = tmp_path / "rows.json"
    assert main(["simulate", "tic_tac_toe", "--games", "6", "--quiet", "--workers", "1", "--bot", "faulty",
                 "--out", str(out)]) == 1
    printed = capsys.readouterr().out
    assert "bot error" in printed
    rows = json.loads(out.read_text())
    assert [r["reason"] for r in rows].count("bot error") == 1 and rows[1]["reason"] == "bot error"
    assert rows[1]["error"] == "p1's bot (_FaultyBot) failed at decision 3: KeyError: 'reaction'"
    assert rows[1]["decisions"] == 2  # p1, p2, then p1's second choice failed
    assert all(r["error"] is None and r["decisions"] > 0 for r in rows[:1] + rows[2:])  # the others were played


def test_the_rates_say_they_count_only_the_games_played_to_the_end(tmp_path, capsys, monkeypatch):
    from rulecraft.bots import REGISTRY

    monkeypatch.setitem(REGISTRY, "faulty", _FaultyBot)
    monkeypatch.setattr(_FaultyBot, "made", 0)
    assert main(["simulate", "tic_tac_toe", "--games", "6", "--quiet", "--workers", "1", "--bot", "faulty"]) == 1
    printed = " ".join(capsys.readouterr().out.split())
    assert "6 games, 2 players; rates of the 5 played to the end" in printed


def test_a_variant_whose_games_all_stopped_has_no_rate_in_the_comparison():
    import io

    from rich.console import Console

    from rulecraft.cli.simulate import main_sides, print_comparison, summarize
    from rulecraft.dsl.loader import load_checked

    rs = load_checked(Path(__file__).resolve().parent.parent / "rules" / "tic_tac_toe")
    sides = main_sides(rs, 2)
    won = [{"error": None, "decided": True, "side": "p1", "reason": "line", "rounds": 3, "decisions": 5}] * 4
    stopped = [{"error": "main.rules:3:9: cannot move nothing", "decided": False, "side": None,
                "reason": "rule error", "rounds": 1, "decisions": 0}] * 4
    buffer = io.StringIO()
    print_comparison(Console(file=buffer, width=200, color_system=None), [None, "broken"],
                     {None: rs, "broken": rs}, {None: summarize(won, sides), "broken": summarize(stopped, sides)}, 2)
    # a row per side, a column per rules: the base game, then the variant
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:-1]]
            for line in buffer.getvalue().splitlines() if line.startswith("│")}
    assert rows["p1"][0].startswith("100.0%") and rows["games played"][0] == "4"
    assert [rows[side][1] for side in sides] == ["—"] * len(sides)  # not 0% of nothing
    assert rows["games played"][1] == "0 of 4"


def test_the_comparison_of_variants_keeps_shared_wins_and_undecided_games():
    """Every game is counted in its column: a win shared by two seats that only a variant
    had, and the games stopped undecided, get rows of their own, so a column adds up to
    100%."""
    import io

    from rich.console import Console

    from rulecraft.cli.simulate import main_sides, print_comparison, summarize
    from rulecraft.dsl.loader import load_checked

    rs = load_checked(Path(__file__).resolve().parent.parent / "rules" / "tic_tac_toe")
    sides = main_sides(rs, 2)

    def game(side, decided=True):
        return {"error": None, "decided": decided, "side": side, "reason": "r", "rounds": 3, "decisions": 5}

    base = [game("p1")] * 3 + [game("p2")]
    house = [game("p1"), game("p1 + p2"), game("p1 + p2"), game(None, decided=False)]
    buffer = io.StringIO()
    print_comparison(Console(file=buffer, width=200, color_system=None), [None, "a_long_house_variant_name"],
                     {None: rs, "a_long_house_variant_name": rs},
                     {None: summarize(base, sides), "a_long_house_variant_name": summarize(house, sides)}, 2)
    text = buffer.getvalue()
    assert "a_long_house_variant_name" in text
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:-1]]
            for line in text.splitlines() if line.startswith("│")}
    assert rows["p1 + p2"][1].startswith("50.0%") and rows["p1 + p2"][0].startswith("0.0%")
    assert rows["undecided"][1].startswith("25.0%")
    for column in (0, 1):
        shares = [float(cells[column].split("%")[0]) for name, cells in rows.items() if name != "games played"]
        assert sum(shares) == pytest.approx(100.0)


def test_an_output_that_replaces_a_file_says_so(tmp_path, capsys):
    out = tmp_path / "rows.csv"
    assert simulate(*GAMES, "--workers", 1, "--out", out) == 0
    assert "replaced the earlier" not in capsys.readouterr().out
    assert simulate(*GAMES, "--workers", 1, "--out", out) == 0
    assert f"replaced the earlier {out}" in capsys.readouterr().out
