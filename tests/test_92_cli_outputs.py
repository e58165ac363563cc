"""What the command line writes, and the arguments it takes, as a user's tour found them.

A save never replaces a device, a pipe or a folder, and a save that fails says so and
the game goes on; every game log resumes; seeds and game counts stay in range; an
output that cannot be written is one line and exit code 1, not a bug; a log of rules
that are not shipped asks for ``--rules``; every option of every command is documented.
"""

from __future__ import annotations

import getpass
import io
import json
import os
import re
import shutil
import stat
from pathlib import Path

import pytest
from rich.console import Console

from rulecraft.cli.main import build_parser, main
from rulecraft.cli.play import PlaySession
from rulecraft.dsl.loader import load_checked, shipped_ruleset
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.gamelog import final_line

ROOT = Path(__file__).resolve().parent.parent
GAME = "tic_tac_toe"  # a short game: every command here runs in a moment
SEED_MOST = 2 ** 63 - 1


def run(*args) -> int:
    try:
        return main([str(a) for a in args])
    except SystemExit as stop:
        return stop.code


def one_line(err: str) -> str:
    assert err.count("\n") == 1, err
    return err


def typed(monkeypatch, *answers: str) -> None:
    """What the people at the table type, in order; then the input is closed."""
    rest = iter(answers)

    def read(prompt: str = "") -> str:
        try:
            return next(rest)
        except StopIteration:
            raise EOFError from None
    monkeypatch.setattr("builtins.input", read)


def simulated_log(folder: Path, game: str = GAME, players: int = 2, *more) -> Path:
    log = folder / "game.jsonl"
    assert run("simulate", game, "--players", players, "--games", 1, "--workers", 1, "--quiet", "--log", log,
               *more) == 0
    return log


def reseal(path: Path, records: list[dict]) -> None:
    lines = [json.dumps(r) for r in records]
    lines[-1] = final_line(lines[:-1], records[-1]["state"])
    path.write_text("\n".join(lines) + "\n")


# ---------------------------------------------------------------- 1. saves

@pytest.mark.parametrize("kind", ["fifo", "link to a device", "link to a fifo"])
def test_a_save_path_that_is_not_an_ordinary_file_is_refused_before_the_game(tmp_path, capsys, monkeypatch, kind):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    # kept open for reading, so that a program writing the pipe is never left waiting
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    save = {"fifo": fifo, "link to a device": tmp_path / "device.jsonl", "link to a fifo": tmp_path / "pipe.jsonl"}[kind]
    if kind == "link to a device":
        save.symlink_to(os.devnull)
    elif kind == "link to a fifo":
        save.symlink_to(fifo)
    typed(monkeypatch, "", "s", "q")
    try:
        assert run("play", GAME, "--seed", 1, "--save", save) == 2
    finally:
        os.close(reader)
    out, err = capsys.readouterr()
    assert "argument --save:" in one_line(err) and str(save) in err
    assert "Tic-tac-toe" not in out, "no game was started"
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert save.is_symlink() or save == fifo


def test_a_save_through_a_link_replaces_the_file_it_leads_to_and_keeps_the_link(tmp_path, capsys, monkeypatch):
    target = tmp_path / "saves" / "tonight.jsonl"
    target.parent.mkdir()
    target.write_text("an older save\n")
    link = tmp_path / "tonight.jsonl"
    link.symlink_to(target)
    typed(monkeypatch, "", "1", "", "s", "q")
    assert run("play", GAME, "--seed", 1, "--save", link) == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert json.loads(target.read_text().splitlines()[0])["seed"] == 1
    assert target.stat().st_mode & 0o777 == 0o600  # a save holds every hidden card
    capsys.readouterr()
    assert run("replay", link, "--quiet") == 0
    assert "IDENTICAL" in capsys.readouterr().out


def test_a_save_that_fails_later_is_not_saved_and_the_game_goes_on_elsewhere(tmp_path):
    rs = load_checked(shipped_ruleset(GAME))
    game = Game(rs, 2, 5, settings={"ask_every_eligible": True})
    save = tmp_path / "save.jsonl"
    elsewhere = tmp_path / "Elsewhere.jsonl"
    os.mkfifo(save)  # the save path became a pipe during the game
    answers = iter(["", "s", "1", "", f"s {elsewhere}", "q"])
    out = io.StringIO()
    session = PlaySession(rs, game, {p: "human" for p in game.state.players}, console=Console(file=out, width=200),
                          read=lambda prompt: next(answers), save_path=str(save))
    assert session.run() == 0
    text = out.getvalue()
    assert f"cannot save to {save}: it is a device, a pipe or a socket" in text and "not saved" in text
    assert f"saved to {save}" not in text
    assert stat.S_ISFIFO(save.lstat().st_mode), "the pipe is still a pipe"
    assert len(game.decisions) == 1, "the player chose after the failed save"
    # saved to another file, named as typed, and the game knows where it is saved
    assert f"saved to {elsewhere}" in text and f"the game is saved in {elsewhere}" in text
    assert json.loads(elsewhere.read_text().splitlines()[1]) == {"type": "decision", "option": 0}


# ---------------------------------------------------------------- 2. any log resumes

@pytest.mark.parametrize(("game", "players"), [(GAME, 2), ("panic_station", 4)])
def test_play_resumes_a_log_of_simulate(tmp_path, capsys, monkeypatch, game, players):
    log = simulated_log(tmp_path, game, players)
    typed(monkeypatch, "q")
    assert run("play", game, "--resume", log) == 0
    out, err = capsys.readouterr()
    assert "error" not in out + err
    assert "game over" in out  # a log of simulate is of a game played to its end


def test_a_resumed_log_goes_on_with_its_own_settings(tmp_path, capsys, monkeypatch):
    rs = load_checked(shipped_ruleset(GAME))
    game = Game(rs, 2, 9)  # as simulate plays: without play's settings
    game.choose(0)
    log = tmp_path / "begun.jsonl"
    log.write_text("\n".join(game.log_lines()) + "\n")
    typed(monkeypatch, "", "1", "", "s", "q")
    assert run("play", GAME, "--resume", log) == 0
    out = " ".join(capsys.readouterr().out.split())  # wrapped to the console, where the path's length falls
    assert "note:" in out and "goes on with them" in out
    header, *decisions = [json.loads(line) for line in log.read_text().splitlines()[:3]]
    assert header["settings"] == {} and [d["option"] for d in decisions] == [0, 0]
    assert run("replay", log, "--quiet") == 0


# ---------------------------------------------------------------- 3. seeds and counts in range

@pytest.mark.parametrize("args", [
    ["simulate", GAME, "--seed", 2 ** 63],
    ["simulate", GAME, "--seed", -2 ** 63 - 1],
    ["simulate", GAME, "--seed", 99999999999999999999999999],
    ["play", GAME, "--seed", 2 ** 63],
    ["tune", GAME, "--seed", 2 ** 64],
    ["tune", GAME, "--seed", SEED_MOST - 4, "--games", 3, "--check", 3],  # the last check's seed is past it
    ["mutate", GAME, "--seed", 2 ** 64, "--list"],
], ids=lambda args: " ".join(map(str, [args[0], *args[2:]])))
def test_a_seed_a_log_cannot_hold_is_refused(tmp_path, capsys, monkeypatch, args):
    typed(monkeypatch)
    # were a game played, its log could not be written: the refusal must be the seed's
    assert run(*args, *(["--log", tmp_path / "nowhere" / "x.jsonl"] if args[0] == "simulate" else [])) == 2
    assert f"rulecraft {args[0]}: error: argument --seed:" in one_line(capsys.readouterr().err)


def test_every_game_of_a_simulation_needs_a_seed_in_range(tmp_path, capsys):
    log = simulated_log(tmp_path, GAME, 2, "--seed", SEED_MOST)
    assert run("replay", log, "--quiet") == 0
    capsys.readouterr()
    # the second game's seed would be past the range
    assert run("simulate", GAME, "--seed", SEED_MOST, "--games", 2, "--log", tmp_path / "nowhere" / "x.jsonl") == 2
    err = one_line(capsys.readouterr().err)
    assert "argument --seed:" in err and f"give a seed of at most {SEED_MOST - 1}" in err


@pytest.mark.parametrize("args", [
    ["simulate", GAME, "--games", 10 ** 20],
    ["tune", GAME, "--games", 10 ** 20],
    ["tune", GAME, "--check", 10 ** 20],
], ids=lambda args: f"{args[0]} {args[2]}")
def test_an_absurd_number_of_games_is_refused(tmp_path, capsys, args):
    # were the games played, the log could not be written: the refusal must be the count's
    assert run(*args, *(["--log", tmp_path / "nowhere" / "x.jsonl"] if args[0] == "simulate" else [])) == 2
    err = one_line(capsys.readouterr().err)
    assert f"argument {args[2]}: must be at most 1000000 games a run" in err


# ---------------------------------------------------------------- 4. outputs that cannot be written

@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full, a device every write to fails")
def test_an_output_that_cannot_be_written_is_one_line_and_loses_nothing_else(tmp_path, capsys):
    rows = tmp_path / "rows.json"
    assert run("simulate", GAME, "--games", 2, "--workers", 1, "--quiet", "--log", "/dev/full", "--out", rows) == 1
    out, err = capsys.readouterr()
    assert one_line(err) == "rulecraft simulate: error: cannot write '/dev/full': No space left on device\n"
    assert "internal error" not in err
    assert "2 games in" in out, "the tables are printed"
    assert len(json.loads(rows.read_text())) == 2, "the other output is written"
    assert stat.S_ISCHR(Path("/dev/full").stat().st_mode)


# ---------------------------------------------------------------- 5. logs of rules that are not shipped

def test_a_log_of_a_rule_set_that_is_not_shipped_asks_for_rules(tmp_path, capsys):
    log = simulated_log(tmp_path)
    records = [json.loads(line) for line in log.read_text().splitlines()]
    records[0]["ruleset"] = "no_such_game"
    reseal(log, records)
    assert run("replay", log) == 2
    err = one_line(capsys.readouterr().err)
    assert "no_such_game" in err and "--rules PATH" in err
    assert run("replay", log, "--rules", GAME, "--quiet") == 0


def test_a_log_of_a_variant_made_in_a_copy_asks_for_rules(tmp_path, capsys):
    copy = tmp_path / GAME
    shutil.copytree(shipped_ruleset(GAME), copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert run("variant", "new", "house", "--base", copy) == 0
    simulated_log(tmp_path, str(copy), 2, "--variant", "house")
    log = tmp_path / "game.house.jsonl"  # the variant's first game
    capsys.readouterr()
    assert run("replay", log) == 2
    out, err = capsys.readouterr()
    assert "'house'" in one_line(err) and "--rules PATH" in err
    assert "rulecraft check" not in out + err, "no command that would fail too"
    assert run("replay", log, "--rules", copy, "--quiet") == 0


# ---------------------------------------------------------------- 6. small ones

def test_an_empty_rule_set_path_is_refused(capsys):
    assert run("check", "") == 2
    assert "empty path" in one_line(capsys.readouterr().err)


def test_variant_commands_say_what_is_wrong_as_usage_errors(tmp_path, capsys):
    assert run("variant", "list", "--base", GAME) == 0
    assert "has no variants" in capsys.readouterr().out
    assert run("variant", "diff", "house", "--base", GAME) == 2
    err = one_line(capsys.readouterr().err)  # one line, however narrow a pipe's columns
    assert err.startswith("rulecraft variant diff: error:") and "(see 'rulecraft variant diff --help')" in err
    assert run("variant", "diff", "no_such_variant") == 2
    assert one_line(capsys.readouterr().err).endswith("(see 'rulecraft variant diff --help')\n")
    copy = tmp_path / GAME
    shutil.copytree(shipped_ruleset(GAME), copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert run("variant", "new", "house", "--base", copy) == 0
    assert run("variant", "new", "house", "--base", copy) == 2
    err = one_line(capsys.readouterr().err)
    assert "already exists" in err and err.endswith("(see 'rulecraft variant new --help')\n")


def test_mutate_with_no_survivors_to_rerun_runs_nothing(tmp_path, capsys):
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"mutants": [{"id": "m1", "status": "killed"}]}))
    assert run("mutate", GAME, "--survivors-of", report) == 0
    out = capsys.readouterr().out
    assert "nothing to re-run" in out and "killed (" not in out


def test_a_locked_save_without_a_terminal_asks_for_the_passphrase_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("RULECRAFT_SAVE_PASSPHRASE", "purple elephant")
    save = tmp_path / "locked.jsonl"
    typed(monkeypatch, "", "1", "", "s", "q")
    assert run("play", GAME, "--seed", 4, "--save", save, "--passphrase") == 0
    capsys.readouterr()
    monkeypatch.delenv("RULECRAFT_SAVE_PASSPHRASE")
    # as getpass does with no terminal to open: it would read stdin, echoed, after a warning
    monkeypatch.setattr(getpass, "getpass", getpass.fallback_getpass)
    for args in (["replay", save], ["play", GAME, "--resume", save]):
        assert run(*args) == 2
        out, err = capsys.readouterr()
        assert "passphrase" in one_line(err) and "stdin is not a terminal" in err
        assert "Warning" not in out + err and "echo" not in out + err


# ---------------------------------------------------------------- 7. the documentation

def _sections(text: str) -> dict[str, str]:
    """docs/cli.md's sections by command: '## `rulecraft simulate RULESET`' → 'simulate'."""
    parts = re.split(r"^## `rulecraft (\w+)", text, flags=re.M)
    return {parts[i]: parts[i] + parts[i + 1] for i in range(1, len(parts), 2)}


def _commands():
    """(command, its parser) for every command, and for each word of 'variant'."""
    import argparse

    def subparsers(parser):
        return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices

    for name, parser in subparsers(build_parser()).items():
        if any(isinstance(a, argparse._SubParsersAction) for a in parser._actions):
            yield from ((name, sub) for sub in subparsers(parser).values())
        else:
            yield name, parser


def test_every_option_of_every_command_is_documented():
    sections = _sections((ROOT / "docs" / "cli.md").read_text(encoding="utf-8"))
    missing = []
    for name, parser in _commands():
        section = sections[name]
        # its usage: the heading and the text block; its options table, when it has one
        usage = section.split("\n", 1)[0] + "".join(re.findall(r"```text\n(.*?)```", section, re.S))
        table = "\n".join(line for line in section.splitlines() if line.startswith("| `"))
        for option in (o for a in parser._actions for o in a.option_strings if o.startswith("--") and o != "--help"):
            if option not in (usage if "```text" in section or name in ("check", "verify") else section):
                missing.append(f"{name}: {option} in its usage")
            if table and "| `--" in table and not re.search(rf"`{option}[ `=\]]", table):
                missing.append(f"{name}: {option} in its table")
    assert not missing, "docs/cli.md leaves out:\n" + "\n".join(missing)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    replay_row = next(line for line in readme.splitlines() if line.startswith("| `rulecraft replay"))
    assert "2 bad usage" in replay_row
