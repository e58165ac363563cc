"""`rulecraft play`: the terminal game driven by scripted input, never by hand only."""

from __future__ import annotations

import io
import json
import re

import pytest
from panic_station import RULES, ruleset
from rich.console import Console

from rulecraft.cli.main import main
from rulecraft.cli.play import PlaySession, event_text, option_label, board_map
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.gamelog import final_line


def play(*args) -> int:
    try:
        return main(["play", str(RULES), *map(str, args)])
    except SystemExit as stop:
        return stop.code


@pytest.fixture
def typed(monkeypatch):
    """Feed lines to input(); running out of lines is end of input."""
    lines: list[str] = []
    prompts: list[str] = []

    def fake_input(prompt=""):
        prompts.append(prompt)
        if not lines:
            raise EOFError
        return lines.pop(0)

    monkeypatch.setattr("builtins.input", fake_input)
    monkeypatch.setenv("COLUMNS", "200")

    def feed(*new):
        lines.extend(new)
        return prompts
    return feed


def choices_of(path, player):
    """How many choices ``player`` answered in a saved game."""
    header = json.loads(path.read_text().splitlines()[0])
    decisions = [json.loads(x)["option"] for x in path.read_text().splitlines()
                 if json.loads(x).get("type") == "decision" and len(json.loads(x)) == 2]
    game = Game(ruleset(), header["players"], header["seed"], settings=header.get("settings"))
    n = 0
    for d in decisions:
        n += game.pending.player == player
        game.choose(d)
    return n, game


def test_invalid_input_reprompts_and_save_writes_the_log(tmp_path, typed, capsys):
    save = tmp_path / "game.jsonl"
    typed("", "abc", "0", "99", "", "1", "s", "q")
    assert play("--players", 4, "--human", "p1", "--seed", 3, "--save", save) == 0
    out = capsys.readouterr().out
    assert "Pass the device to p1 (red)" in out
    assert "'abc' is not a number" in out
    assert "there is no option 0" in out and "there is no option 99" in out
    assert "type the number of an option" in out
    assert f"saved to {save}" in out
    assert "the game is saved" in out
    header = json.loads(save.read_text().splitlines()[0])
    assert header["seed"] == 3 and header["players"] == 4
    assert header["seats"] == {"p1": "human", "p2": "random", "p3": "random", "p4": "random"}
    made, game = choices_of(save, "p1")
    assert made == 1  # the invalid answers chose nothing
    assert json.loads(save.read_text().splitlines()[-1])["state"] == json.loads(game.state.dumps())


def test_save_and_resume_give_the_same_state(tmp_path, typed, capsys):
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    typed("", "2", "1", "s", "q")
    assert play("--players", 4, "--human", "p1", "--human", "p3", "--seed", 8, "--save", first) == 0
    capsys.readouterr()
    typed("", "s", "q")
    assert play("--resume", first, "--save", second) == 0
    out = capsys.readouterr().out
    assert "human seats: p1, p3" in out  # the seats come from the save
    assert second.read_text() == first.read_text()
    # and the game goes on from there
    typed("", "1", "s", "q")
    assert play("--resume", second) == 0
    assert len(second.read_text()) > len(first.read_text())


def test_a_save_that_does_not_replay_is_refused(tmp_path, typed, capsys):
    save = tmp_path / "game.jsonl"
    typed("", "1", "s", "q")
    assert play("--players", 4, "--human", "p2", "--seed", 4, "--save", save) == 0
    lines = save.read_text().splitlines()
    final = json.loads(lines[-1])
    final["state"]["round"] += 3
    # edited by hand: the digest of the file no longer matches
    lines[-1] = json.dumps(final)
    save.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert play("--resume", save) == 1
    assert "altered after it was written" in capsys.readouterr().out
    # intact, but its state is not where its decisions lead (other rules wrote it)
    lines[-1] = final_line(lines[:-1], final["state"])
    save.write_text("\n".join(lines) + "\n")
    assert play("--resume", save) == 1
    assert "does not replay to its saved state" in capsys.readouterr().out
    # cut short: refused, not resumed from its decisions alone
    save.write_text("\n".join(lines[:-1]) + "\n")
    assert play("--resume", save) == 1
    assert "incomplete game log" in capsys.readouterr().out


def test_quit_at_the_pass_screen_and_end_of_input(typed, capsys):
    typed("q")
    assert play("--players", 4, "--seed", 1) == 0
    assert "not saved" in capsys.readouterr().out
    typed()  # no input at all
    assert play("--players", 4, "--seed", 1) == 0
    assert "input closed" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["--human", "p7"], "there is no player 'p7' (players: p1, p2, p3, p4)"),
    (["--bot", "clever"], "unknown bot 'clever'"),
    (["--players", "3"], "played by 4 to 6 players, not 3"),
])
def test_bad_arguments(typed, capsys, args, message):
    assert play(*args) == 2
    assert message in capsys.readouterr().err


def test_hot_seat_screens_show_only_the_players_own_view():
    """Four people at one device: a screen shows nothing its player may not see, and every
    change of player passes through an empty 'pass the device' screen."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=160, color_system=None)
    game = Game(ruleset(), 4, 12)
    checked = {"screens": 0, "passes": 0}
    marks = {"start": 0}
    answers = iter([1, 2, 1, 3, 1, 1, 2, 1, 4, 1, 2, 1, 1, 3, 2, 1, 1, 1, 2, 1, 1, 5, 1, 1, 2, 1, 1, 1, 3, 1] * 2)

    def hidden_from(player):
        """Entities neither in the player's view nor named by an event they may see
        (a player knows which card they gave away)."""
        seen = set(game.view(player)["entities"])
        seen.update(v for e in game.events_for(player) for v in e.values() if isinstance(v, str))
        return [eid for eid in game.state.entities if eid not in seen]

    def shown(text, eid):
        return re.search(rf"(?<![\w.]){re.escape(eid)}(?![\w])", text)

    def read(prompt):
        text = buffer.getvalue()[marks["start"]:]
        marks["start"] = len(buffer.getvalue())
        if prompt == "> ":  # the pass screen: nobody's cards on it
            checked["passes"] += 1
            assert "Pass the device to" in text
            assert not any(shown(text, eid) for eid in game.state.entities if game.state.entities[eid]["at"])
            return ""
        player = prompt.rstrip("> ")
        checked["screens"] += 1
        leaks = [eid for eid in hidden_from(player) if shown(text, eid)]
        assert not leaks, f"{player}'s screen shows {leaks}"
        if checked["screens"] > 40:
            return "q"
        n = next(answers)
        return str(min(n, len(game.pending.options)))

    session = PlaySession(ruleset(), game, {p: "human" for p in game.state.players}, console=console, read=read)
    assert session.run() == 0
    assert checked["passes"] >= 3 and checked["screens"] > 40
    out = buffer.getvalue()
    assert "since your last choice" in out and "board" in out and "hand and status" in out


def test_labels_and_map():
    assert option_label({"action": "move", "args": {"c": "trooper.p1", "r": "run_b.1/main"}}) == \
        "move  trooper.p1 → run_b.1/main"
    assert option_label({"action": "end_turn"}) == "end_turn"
    assert option_label({"reaction": "pass"}) == "pass"
    assert option_label({"x": 0, "y": -1, "rotation": 180}) == "x=0 y=-1 rotation=180"
    assert event_text({"type": "moved", "entity": "?", "source": "hand:p1", "destination": "hand:p2", "seq": 4}) == \
        "moved  ?: hand:p1 → hand:p2"
    game = Game(ruleset(), 4, 2)
    buffer = io.StringIO()
    Console(file=buffer, width=160, color_system=None).print(board_map(ruleset(), game.view("p1")))
    text = buffer.getvalue()
    for tile in game.state.tiles:
        assert tile in text
    assert "reactor/main" in text and "N:o E:o S:o W:o" in text  # the Reactor's four open sides
    for eid in game.state.zones["reactor/main"]:
        assert eid in text


def test_a_declared_board_shows_its_occupied_spaces_and_the_things_off_it(tmp_path):
    """A ring (or grid) board is listed space by space, with what stands there and the
    spaces' own properties; things in no zone nor space are listed with theirs."""
    from engine_rulesets import build, game_yaml

    rs = build(tmp_path, {
        "game.yaml": game_yaml() + """
kinds:
  player: {}
  cell: {properties: {lit: {type: bool, default: false}}}
  piece: {located_in: cell}
  gauge: {properties: {level: {type: number, default: 3}}}
board: {kind: ring, space_kind: cell, sectors: 4, ranges: [near, far]}
components:
  - {name: scout, kind: piece, space: far_2}
  - {name: fuel, kind: gauge}
""",
        "play.rules": """
procedure setup():
    do:
        set near_3.lit = true

procedure round():
    do:
        for each p in players:
            play_turn(p)
""",
    })
    game = Game(rs, 1, 1)
    buffer = io.StringIO()
    Console(file=buffer, width=120, color_system=None).print(board_map(rs, game.view("p1")))
    text = buffer.getvalue()
    assert re.search(r"far_2\s+scout", text)
    assert re.search(r"near_3\s+lit", text)
    assert "near_1" not in text and "sector" not in text  # empty spaces and the ring's own numbers stay out
    assert re.search(r"fuel\s+level 3", text)
