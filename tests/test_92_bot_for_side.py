"""`--bot-for SIDE=BOT`: one bot for every seat of a side of the rule set, read at each
decision, so a seat that changes sides changes bots; bad values are one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_90_simulate_sides import TEAMS, ruleset_folder

from rulecraft.bots import REGISTRY
from rulecraft.cli.main import main

TEAM_SIDES = ("  sides:\n    teams:\n      - {name: loyalists, member: loyal}\n"
              "      - {name: defectors, member: defector}\n")

# (bot, player, whether its seat had defected, as the view shows) for every choice
ASKED: list[tuple[str, str, bool]] = []


class _Recorder:
    """Defects when it can (the loyal bot), else takes the first option; records each choice."""

    needs_events = False

    def __init__(self, name: str):
        self.name = name

    def choose(self, view: dict) -> int:
        me = view["viewer"]
        ASKED.append((self.name, me, bool(view["entities"][me]["props"]["turncoat"])))
        options = view["choice"]["options"]
        for i, option in enumerate(options):
            if self.name == "eager" and option.get("action") == "defect":
                return i
        return 0


@pytest.fixture
def recorders(monkeypatch):
    ASKED.clear()
    monkeypatch.setitem(REGISTRY, "eager", lambda seed: _Recorder("eager"))
    monkeypatch.setitem(REGISTRY, "steady", lambda seed: _Recorder("steady"))
    yield ASKED
    ASKED.clear()


@pytest.fixture
def teams(tmp_path):
    return ruleset_folder(tmp_path, TEAM_SIDES, TEAMS)


def simulate(folder, *args) -> int:
    try:
        return main(["simulate", str(folder), "--players", "3", "--games", "3", "--seed", "1", "--quiet",
                     "--workers", "1", *map(str, args)])
    except SystemExit as stop:
        return stop.code


def test_a_seat_plays_with_the_bot_of_the_side_it_is_on_at_each_decision(teams, recorders, capsys):
    assert simulate(teams, "--bot-for", "loyalists=eager", "--bot-for", "defectors=steady") == 0
    assert "loyalists: eager, defectors: steady" in capsys.readouterr().out
    # every seat starts loyal and defects at once: from then on the defectors' bot
    # answers for it, and the loyalists' bot never sees a defector
    assert {(name, defected) for name, _, defected in recorders} == {("eager", False), ("steady", True)}
    for player in ("p1", "p2"):  # (the game is over before p3's turn)
        mine = [name for name, p, _ in recorders if p == player]
        assert mine[0] == "eager" and "steady" in mine


def test_seats_on_no_named_side_keep_their_own_bot(teams, recorders, capsys):
    assert simulate(teams, "--bot", "eager", "--bot-for", "defectors=steady") == 0
    assert {(name, defected) for name, _, defected in recorders} == {("eager", False), ("steady", True)}


def test_the_same_seed_plays_the_same_games(teams, recorders, tmp_path, capsys):
    rows = []
    for run in range(2):
        out = tmp_path / f"rows{run}.json"
        assert simulate(teams, "--bot-for", "defectors=mcts:5", "--out", out) == 0
        rows.append(json.loads(out.read_text()))
    assert rows[0] == rows[1]


@pytest.mark.parametrize("value, message", [
    ("traitors=random", "--bot-for: 'traitors' is no side of race (its sides: loyalists, defectors)"),
    ("defectors", "argument --bot-for: 'defectors' must be SIDE=BOT, e.g. humans=mcts:200"),
    ("defectors=wizard", "argument --bot-for: unknown bot 'wizard'"),
    ("defectors=mcts:lots", "argument --bot-for: mcts:lots: the iterations per decision must be"),
])
def test_a_bad_value_is_one_line_and_exit_2(teams, capsys, value, message):
    assert simulate(teams, "--bot-for", value) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_play_takes_it_too_and_keeps_it_in_the_save(teams, recorders, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("builtins.input", lambda prompt="": "q")  # the human seat quits at once
    save = tmp_path / "game.jsonl"

    def play(*args) -> int:
        try:
            return main(["play", str(teams), "--players", "3", *map(str, args)])
        except SystemExit as stop:
            return stop.code

    assert play("--bot-for", "traitors=random") == 2
    assert "(its sides: loyalists, defectors)" in capsys.readouterr().err
    # p2 is a person, who saves and quits at its first choice; p1 and p3 are bots, which
    # p1's first turn shows changing bots when it changes sides
    monkeypatch.setattr("builtins.input", _inputs("", "s", "q"))
    assert play("--human", "p2", "--bot", "eager", "--bot-for", "defectors=steady", "--seed", "2",
                "--save", save) == 0
    header = json.loads(save.read_text().splitlines()[0])
    assert header["bot_for"] == {"defectors": "steady"}
    assert [(name, p) for name, p, _ in recorders][:2] == [("eager", "p1"), ("steady", "p1")]
    # a resumed game goes on with the bots chosen by side, and saves them again
    again = tmp_path / "again.jsonl"
    monkeypatch.setattr("builtins.input", _inputs("", "s", "q"))
    assert play("--resume", save, "--save", again) == 0
    assert json.loads(again.read_text().splitlines()[0])["bot_for"] == {"defectors": "steady"}


def _inputs(*lines):
    queue = list(lines)

    def read(prompt=""):
        if not queue:
            raise EOFError
        return queue.pop(0)
    return read


def test_reading_the_sides_leaves_the_game_alone(teams, tmp_path, capsys):
    """The same bot given by side and by seat plays the very same games: reading a seat's
    side at each decision changes nothing in the game."""
    rows = []
    for args in ((), ("--bot-for", "loyalists=random", "--bot-for", "defectors=random")):
        out = tmp_path / f"rows{len(rows)}.json"
        assert simulate(teams, "--bot", "random", "--out", out, *args) == 0
        rows.append(json.loads(out.read_text()))
    assert rows[0] == rows[1]


def test_a_seat_the_rules_play_takes_no_bot(capsys):
    # accepted and ignored: Stationfall's fourth seat follows its script whatever bot was named
    stationfall = Path(__file__).resolve().parent.parent / "rules" / "stationfall"
    try:
        code = main(["simulate", str(stationfall), "--games", "1", "--bot-for", "p4=random"])
    except SystemExit as stop:
        code = stop.code
    assert code == 2
    err = capsys.readouterr().err
    assert "--bot-for: 'p4' is played by the script 'lindsey' of the rules, not by a bot" in err
    assert len(err.strip().splitlines()) == 1
