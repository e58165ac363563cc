"""The command line never crashes on bad files, bad paths or odd rule text.

Output paths are checked before any game is played; a save that cannot be written is
reported and the game goes on; a log or save with a malformed header, bytes that are
no text, or a missing final line is refused with one clear line; rule-set text shown
by `play` is never read as terminal markup.
"""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import pytest
from engine_rulesets import build, game_yaml
from panic_station import RULES, ruleset
from rich.console import Console

from rulecraft.cli.main import main
from rulecraft.cli.play import PlaySession
from rulecraft.cli.simulate import play_game
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.gamelog import final_line


def run(*args) -> int:
    try:
        return main([str(a) for a in args])
    except SystemExit as stop:
        return stop.code


# ---------------------------------------------------------------- output paths

@pytest.mark.parametrize("option", ["--out", "--plot", "--log"])
@pytest.mark.parametrize("where", ["missing folder", "a folder", "under a file"])
def test_simulate_checks_its_outputs_before_playing(tmp_path, capsys, option, where):
    (tmp_path / "file.txt").write_text("x")
    name = {"--out": "rows.json", "--plot": "plot.png", "--log": "game.jsonl"}[option]
    target = {"missing folder": tmp_path / "nowhere" / name,
              "a folder": tmp_path / "folder.json" if option == "--out" else tmp_path / "folder.png"
              if option == "--plot" else tmp_path / "folder",
              "under a file": tmp_path / "file.txt" / name}[where]
    if where == "a folder":
        target.mkdir()
    # a hundred thousand games would take hours: the refusal must come first
    assert run("simulate", RULES, "--players", 4, "--games", 100000, "--workers", 1, option, target) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and f"argument {option}:" in err and str(target) in err
    assert "seeds" not in out, "no game was started"
    assert not (tmp_path / "nowhere").exists()


def test_play_checks_its_save_path_first(tmp_path, capsys):
    assert run("play", RULES, "--players", 4, "--save", tmp_path / "nowhere" / "game.jsonl") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "argument --save: cannot write" in err


def test_a_save_that_cannot_be_written_is_reported_and_the_game_goes_on(tmp_path):
    game = Game(ruleset(), 4, 3, settings={"ask_every_eligible": True})
    seats = {p: "human" for p in game.state.players}
    answers = iter(["", "s", "1", "q"])
    out = io.StringIO()
    blocked = tmp_path / "save.jsonl"
    blocked.mkdir()  # the save path became a folder during the game
    session = PlaySession(ruleset(), game, seats, console=Console(file=out, width=200),
                          read=lambda prompt: next(answers), save_path=str(blocked))
    assert session.run() == 0
    text = out.getvalue()
    assert "cannot save to" in text and "the game goes on" in text
    assert len(game.decisions) == 1, "the player chose after the failed save"
    assert "not saved" in text


def test_a_save_is_readable_by_its_owner_only(tmp_path, monkeypatch):
    monkeypatch.setattr("builtins.input", iter(["", "s", "q"]).__next__)
    save = tmp_path / "game.jsonl"
    assert run("play", RULES, "--players", 4, "--human", "p1", "--seed", 2, "--save", save) == 0
    assert save.stat().st_mode & 0o777 == 0o600


# ---------------------------------------------------------------- malformed logs and saves

@pytest.fixture(scope="module")
def log_lines():
    return play_game(ruleset(), 4, 8).log_lines()


def _sealed(lines: list[str], header: dict | None = None) -> list[str]:
    """The log with its header replaced and sealed again, as a writer would."""
    lines = list(lines)
    if header is not None:
        lines[0] = json.dumps(header)
    lines[-1] = final_line(lines[:-1], json.loads(lines[-1])["state"])
    return lines


HEADER_CHANGES = {
    "seed as text": ("seed", "11"),
    "a billion players": ("players", 1_000_000_000),
    "no players": ("players", None),
    "players as a list": ("players", [4]),
    "a seed too large": ("seed", 10 ** 40),
    "a rule set as a path": ("ruleset", "../../etc"),
    "settings as text": ("settings", "fast"),
    "seats of another shape": ("seats", {"p1": 3}),
    "an unknown field": ("colour", "red"),
}


@pytest.mark.parametrize("change", list(HEADER_CHANGES))
def test_a_malformed_header_is_refused_with_its_line(tmp_path, capsys, log_lines, change):
    key, value = HEADER_CHANGES[change]
    header = json.loads(log_lines[0])
    if value is None:
        del header[key]
    else:
        header[key] = value
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(_sealed(log_lines, header)) + "\n")
    assert run("replay", bad, "--quiet") == 1
    out = capsys.readouterr().out
    assert f"{bad}:1: a bad header line" in out or f"{bad}:1: not a log record" in out, out
    assert run("play", RULES, "--resume", bad) == 1
    assert f"{bad}:1:" in capsys.readouterr().out


def test_bytes_that_are_not_text_are_refused(tmp_path, capsys, log_lines):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\xff\xfe" + "\n".join(log_lines).encode())
    assert run("replay", bad) == 1
    assert "not UTF-8 text at byte 0" in capsys.readouterr().out
    assert run("play", RULES, "--resume", bad) == 1
    assert "not UTF-8 text" in capsys.readouterr().out


def test_a_save_with_more_players_than_the_game_allows_is_refused(tmp_path, capsys, log_lines):
    header = json.loads(log_lines[0])
    header["players"] = 99
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(_sealed(log_lines, header)) + "\n")
    assert run("play", RULES, "--resume", bad) == 1
    assert "not 99" in capsys.readouterr().out
    assert run("replay", bad, "--quiet") == 1
    assert "cannot be set up" in capsys.readouterr().out


# ---------------------------------------------------------------- rule text is not markup

ODD = "[/] odd [bold]"

ODD_DATA = """
  title: "[/] Odd [bold]game"
kinds:
  player:
    properties:
      motto: {type: text, default: "[/red] hi"}
"""

ODD_RULES = f"""
procedure setup():
    do:
        let one = first(players)
        set one.motto = "{ODD}"

procedure round():
    do:
        for each p in players:
            play_turn(p)

action pick:
    limit 1 per turn
    do:
        choose q from players by current_player prompt "{ODD} whom?"
        set q.motto = "[/]"
"""


def test_rule_set_text_is_shown_as_written_in_play(tmp_path, capsys, monkeypatch):
    rules = build(tmp_path, {"game.yaml": game_yaml(name="odd", players=(2, 2)) + ODD_DATA,
                             "main.rules": ODD_RULES})
    # p1: pass screen, pick, choose p1; p2: pass screen, quit
    monkeypatch.setattr("builtins.input", iter(["", "1", "1", "", "q"]).__next__)
    monkeypatch.setenv("COLUMNS", "200")
    assert run("play", tmp_path / "ruleset", "--players", 2, "--seed", 1) == 0
    out = " ".join(capsys.readouterr().out.split())  # the prompt may wrap in its menu
    assert "Pass the device to p2" in out
    assert "[/] Odd [bold]game" in out
    assert f"{ODD} whom?" in out
    assert "[/red] hi" in out and f"p1: motto is now {ODD}." in out
    assert rules.data.game.title == "[/] Odd [bold]game"


# ---------------------------------------------------------------- saves locked with a passphrase

def test_a_locked_save_hides_the_game_and_resumes_with_its_passphrase(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("RULECRAFT_SAVE_PASSPHRASE", "purple elephant")
    monkeypatch.setenv("COLUMNS", "200")
    save = tmp_path / "night.save"
    monkeypatch.setattr("builtins.input", iter(["", "1", "s", "q"]).__next__)
    assert run("play", RULES, "--players", 4, "--human", "p1", "--seed", 6, "--save", save, "--passphrase") == 0
    locked = json.loads(save.read_bytes())
    # nothing of the game can be read from the file: no card, no player, no seed, neither
    # around the encrypted token nor in its bytes (its base64 text, being random, may
    # spell a short word by chance)
    around = json.dumps({k: v for k, v in locked.items() if k != "token"}).encode()
    sealed = base64.urlsafe_b64decode(locked["token"])
    for word in (b"infection", b"host", b"hand:p1", b"seed", b"\"p1\"", b"gas_can"):
        assert word not in around and word not in sealed
    assert save.stat().st_mode & 0o777 == 0o600
    # resumed with the passphrase, the game goes on and later saves stay locked
    monkeypatch.setattr("builtins.input", iter(["", "s", "q"]).__next__)
    assert run("play", RULES, "--resume", save) == 0
    assert b"infection" not in save.read_bytes()
    capsys.readouterr()
    assert run("replay", save, "--quiet") == 0
    assert "IDENTICAL" in capsys.readouterr().out
    # the wrong passphrase opens nothing
    monkeypatch.setenv("RULECRAFT_SAVE_PASSPHRASE", "grey mouse")
    assert run("play", RULES, "--resume", save) == 1
    assert "wrong passphrase" in capsys.readouterr().out
    assert run("replay", save) == 1
    assert "wrong passphrase" in capsys.readouterr().out


def test_a_damaged_locked_save_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("RULECRAFT_SAVE_PASSPHRASE", "purple elephant")
    bad = tmp_path / "bad.save"
    for content in ('{"type": "locked_save", "kdf": "scrypt", "n": 1099511627776, "r": 8, "p": 1, "salt": "", '
                    '"token": ""}',
                    '{"type": "locked_save", "kdf": "scrypt", "n": 16, "r": 8, "p": 1, "salt": "AAAA", "token": "x"}',
                    '{"type": "locked_save"'):
        bad.write_text(content + "\n")
        assert run("play", RULES, "--resume", bad) == 1
        assert "locked save" in capsys.readouterr().out


def test_a_random_seed_is_never_shown_nor_small(tmp_path, capsys, monkeypatch):
    """Whoever knows a game's seed can deal it again and see every hand."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("builtins.input", iter(["", "s", "q"]).__next__)
    assert run("play", RULES, "--players", 4, "--human", "p1") == 0
    out = capsys.readouterr().out
    (save,) = tmp_path.glob("*.save.jsonl")
    seed = json.loads(save.read_text().splitlines()[0])["seed"]
    assert str(seed) not in out and str(seed) not in save.name
    assert "a secret random seed" in out
    assert seed >= 2 ** 32  # from 2**63 seeds: none could be tried out one by one (fails once in 2**31 runs)


# ---------------------------------------------------------------- variants

@pytest.mark.parametrize("command", [
    ["check", RULES],
    ["verify", RULES],
    ["simulate", RULES, "--players", 4, "--games", 100000, "--workers", 1],
    ["play", RULES, "--players", 4, "--human", "p1"],
    ["mutate", RULES, "--list"],
    ["tune", RULES, "--players", 4],
])
def test_a_variant_the_rule_set_does_not_have_is_bad_usage(capsys, command):
    """A misspelt variant is a slip on the command line: one line naming the closest
    variant and exit 2, as for any bad argument, before any rule is loaded or game played."""
    assert run(*command, "--variant", "four_gas_can") == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and f"rulecraft {command[0]}: error: argument --variant: no variant 'four_gas_can'" in err
    assert "did you mean 'four_gas_cans'?" in err


def test_a_rule_set_without_variants_says_how_to_make_one(tmp_path, capsys):
    rs = build(tmp_path, {"game.yaml": game_yaml() + "kinds:\n  player: {}\n", "play.rules": """
        procedure setup():
            do:
                stop

        procedure round():
            do:
                stop
        """})
    assert run("check", rs.root, "--variant", "hard") == 2
    err = capsys.readouterr().err
    assert "it has none (create one with: rulecraft variant new hard --base" in err


def test_errors_of_a_variant_point_to_the_check_with_that_variant(tmp_path, capsys):
    rs = build(tmp_path, {"game.yaml": game_yaml() + "kinds:\n  player: {}\n", "play.rules": """
        procedure setup():
            do:
                stop

        procedure round():
            do:
                stop
        """})
    (Path(rs.root) / "variants").mkdir()
    (Path(rs.root) / "variants" / "hard.yaml").write_text("variant:\n  name: hard\n  base: nowhere\n", encoding="utf-8")
    assert run("simulate", rs.root, "--games", 1, "--variant", "hard") == 1
    err = capsys.readouterr().err
    assert f"fix them first (rulecraft check {rs.root} --variant hard)" in err


# ---------------------------------------------------------------- Ctrl-C

def test_ctrl_c_in_simulate_says_interrupted_once_and_no_worker_traceback(tmp_path):
    """Ctrl-C goes to every process of the terminal's group, the workers of the pool too:
    the command stops with exit 130 and one line, whatever the workers were doing."""
    import os
    import signal
    import subprocess
    import sys
    import time

    def as_a_terminal_starts_it():
        # A child inherits an ignored or blocked SIGINT: the test suite run as a
        # background job of a script (`cmd &`, where the shell ignores SIGINT) would
        # hand that on, and the command would never see the Ctrl-C. A terminal does not.
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])

    env = dict(os.environ, PYTHONUNBUFFERED="1")
    command = [sys.executable, "-m", "rulecraft.cli.main", "simulate", str(RULES), "--players", 5,
               "--games", 100000, "--workers", 2, "--quiet"]
    process = subprocess.Popen([str(a) for a in command], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True, env=env, cwd=tmp_path, preexec_fn=as_a_terminal_starts_it)
    try:
        assert process.stdout.readline().startswith(b"seeds"), "the games have started"
        time.sleep(2)  # the workers are playing
        os.killpg(process.pid, signal.SIGINT)  # what the terminal does on Ctrl-C
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130
    told = err.decode()
    # one line: what was kept, or that nothing finished (a worker's batch may still be out)
    assert len(told.splitlines()) == 1 and "Traceback" not in told, told
    assert told.startswith("interrupted after ") or told == "interrupted before any game finished; nothing written\n"


@pytest.mark.parametrize("command", ["check", "verify"])
def test_a_reader_that_goes_away_stops_the_command_quietly(command, tmp_path):
    """'rulecraft verify X | head': the pipe closes before the output is written. The
    command stops without an internal error or a traceback, and not with success."""
    import os
    import subprocess
    import sys

    process = subprocess.Popen([sys.executable, "-m", "rulecraft.cli.main", command, str(RULES)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path,
                               env=dict(os.environ, PYTHONUNBUFFERED="1"))
    process.stdout.close()  # the reader is gone before the first line
    err = process.stderr.read().decode()
    process.wait(timeout=300)
    assert "internal error" not in err and "Traceback" not in err and "Exception ignored" not in err, err
    assert process.returncode == 1


# ---------------------------------------------------------------- extras

@pytest.mark.parametrize("command, module, extra", [
    (["serve"], "uvicorn", "serve"),
    (["lsp"], "rulecraft.lsp.server", "lsp"),
])
def test_a_missing_extra_is_named_with_the_install_that_works_in_a_clone(monkeypatch, capsys, command, module, extra):
    """The README installs from a clone (pip install -e .): the way to add an extra there
    is said too, not only the package index's name."""
    import sys

    monkeypatch.setitem(sys.modules, module, None)  # as if the extra were not installed
    assert run(*command) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"pip install -e \".[{extra}]\"" in err


def test_a_player_count_of_a_game_for_exactly_two_is_said_plainly(capsys):
    assert run("simulate", "tic_tac_toe", "--players", 3, "--games", 1) == 2
    assert "Tic-tac-toe is played by 2 players, not 3 " in capsys.readouterr().err
    assert run("simulate", "star_trek_panic", "--players", 1, "--games", 1, "--workers", 1, "--quiet") == 0
    assert "Star Trek: Panic: 1 game, 1 player" in capsys.readouterr().out


# ---------------------------------------------------------------- rule-set paths

@pytest.mark.parametrize("given, said", [
    ("panic_statoin", "no rule set at 'panic_statoin' (did you mean 'panic_station'?)"),
    ("RULES/panic_statoin", "(did you mean 'RULES/panic_station'?)"),
    ("RULES/panic_station/game.yaml", "a rule set is a folder: give the folder 'RULES/panic_station'"),
    ("RULES", "holds rule sets, it is not one: give one of them (RULES/breakthrough, "),
    ("nowhere/else", "give a folder or the name of a shipped rule set: breakthrough, connect_four"),
])
def test_a_wrong_rule_set_path_says_what_to_give(capsys, given, said):
    given, said = (text.replace("RULES", str(RULES.parent)) for text in (given, said))
    assert run("check", given) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err, err


def test_a_project_folder_holding_a_rule_set_names_it(tmp_path, capsys):
    """A designer's project keeps its rule set in rules/<game>/ next to seeds/: given the project's
    folder, the command names the rule set inside, instead of checking an empty rule set."""
    import shutil

    shutil.copytree(RULES.parent / "tic_tac_toe", tmp_path / "rules" / "my_game")
    (tmp_path / "seeds").mkdir()
    assert run("check", tmp_path) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"give one of them ({tmp_path / 'rules' / 'my_game'})" in err, err


def test_a_clones_rule_set_path_typed_elsewhere_points_to_the_shipped_name(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert run("check", "rules/connect_four") == 2
    assert "the shipped rule set of that name is 'connect_four'" in capsys.readouterr().err


# ---------------------------------------------------------------- the README's examples

@pytest.mark.parametrize("lead, file, line, old, new", [
    ("A broken rule reads like this:", "actions.rules", 59, "if card.searched:", "if card_s.searched:"),
    ("fix the error and check again:", "game.yaml", 25, "      - {name: infected", "    - {name: infected"),
])
def test_the_readmes_error_examples_are_what_check_prints(tmp_path, monkeypatch, capsys, lead, file, line, old, new):
    """The README shows what a slip looks like; that slip, made, prints exactly that."""
    import re
    import shutil

    readme = (RULES.parent.parent / "README.md").read_text(encoding="utf-8")
    shown = re.search(re.escape(lead) + r"\s*```text\n(.*?)```", readme, re.S).group(1)
    copy = tmp_path / "rules" / "panic_station"
    shutil.copytree(RULES, copy)
    lines = (copy / file).read_text(encoding="utf-8").split("\n")
    assert old in lines[line - 1], "the README's example names a line that changed: update both"
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    (copy / file).write_text("\n".join(lines), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert run("check", "rules/panic_station") == 1
    assert shown in capsys.readouterr().out


@pytest.mark.parametrize("command", [["variant", "list"], ["check", RULES]])
def test_an_extra_word_is_told_by_the_command_it_was_given_to(capsys, command):
    """'rulecraft variant list panic_station' pointed to 'rulecraft --help', which does
    not say how variant list takes its rule set."""
    assert run(*command, "panic_station") == 2
    err = capsys.readouterr().err
    name = " ".join(str(w) for w in command if w != RULES)
    assert err == f"rulecraft {name}: error: unrecognized arguments: panic_station (see 'rulecraft {name} --help')\n"
