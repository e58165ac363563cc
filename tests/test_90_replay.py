"""`rulecraft replay`: a log re-plays to its final state; tampering is found at its step;
`--as` shows a player only what they may see."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from panic_station import RULES, ruleset

from rulecraft.cli.main import main
from rulecraft.cli.play import event_text
from rulecraft.cli.simulate import play_game
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.gamelog import final_line

SEED = 21


@pytest.fixture(scope="module")
def played():
    return play_game(ruleset(), 4, SEED)


@pytest.fixture
def log(tmp_path, played):
    path = tmp_path / "game.jsonl"
    played.write_log(path)
    return path


def replay(*args) -> int:
    try:
        return main(["replay", *map(str, args)])
    except SystemExit as stop:
        return stop.code


def records(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def write(path, recs, seal: bool = True):
    """Write log records; sealed with a digest of the new content, as a log written by
    another version of the rules would be (unsealed: as a hand edit leaves it)."""
    lines = [json.dumps(r) for r in recs]
    if seal:
        assert recs[-1]["type"] == "final"
        lines[-1] = final_line(lines[:-1], recs[-1]["state"])
    path.write_text("\n".join(lines) + "\n")


def printed_seqs(out: str) -> set[int]:
    return {int(m.group(1)) for m in re.finditer(r"^ {4}\s*(\d+)  ", out, re.M)}


def test_a_log_replays_to_the_identical_final_state(log, played, capsys):
    assert replay(log) == 0
    out = capsys.readouterr().out
    assert "IDENTICAL" in out and f"{len(played.decisions)} decisions" in out
    assert printed_seqs(out) == set(range(len(played.events)))  # every event, step by step
    assert out.count("\n#") == len(played.decisions)


def test_a_changed_decision_is_reported_where_it_diverges(tmp_path, log, played, capsys):
    # find an action choice with several options, a few steps in, and answer differently
    game = Game(ruleset(), 4, SEED)
    for k, d in enumerate(played.decisions):
        pending = game.pending
        if k >= 5 and pending.kind == "action" and len(pending.options) > 1:
            break
        game.choose(d)
    recs = records(log)
    decision_lines = [i for i, r in enumerate(recs) if r.get("type") == "decision" and set(r) == {"type", "option"}]
    recs[decision_lines[k]]["option"] = (played.decisions[k] + 1) % len(pending.options)
    tampered = tmp_path / "tampered.jsonl"
    write(tampered, recs)
    assert replay(tampered, "--quiet") == 1
    out = capsys.readouterr().out
    assert "MISMATCH" in out
    assert f"after decision {k + 1} ({pending.player}:" in out
    assert re.search(r"diverges at event #\d+", out)
    assert "log: " in out and "replay: " in out


def test_an_impossible_decision_is_reported(tmp_path, log, capsys):
    recs = records(log)
    first = next(i for i, r in enumerate(recs) if r.get("type") == "decision")
    recs[first + 2]["option"] = 999
    bad = tmp_path / "bad.jsonl"
    write(bad, recs)
    assert replay(bad, "--quiet") == 1
    assert "diverges at decision 3" in capsys.readouterr().out


def test_edited_rules_are_reported_at_the_first_diverging_event(tmp_path, log, capsys):
    edited = tmp_path / "edited_rules"
    shutil.copytree(RULES, edited)
    board = edited / "board.yaml"
    text = board.read_text()
    assert "d4: [1, 2, 3, 4]" in text
    board.write_text(text.replace("d4: [1, 2, 3, 4]", "d4: [1, 1, 1, 1]"))
    assert replay(log, "--rules", edited, "--quiet") == 1
    out = capsys.readouterr().out
    assert re.search(r"diverges at event #\d+, (after decision \d+|during setup)", out)
    assert "rolled" in out


def test_a_changed_final_state_is_reported(tmp_path, log, capsys):
    recs = records(log)
    recs[-1]["state"]["round"] += 1
    bad = tmp_path / "final.jsonl"
    write(bad, recs)
    assert replay(bad, "--quiet") == 1
    assert "final state differs at state.round" in capsys.readouterr().out


def test_a_log_edited_by_hand_is_refused(tmp_path, log, capsys):
    recs = records(log)
    first = next(i for i, r in enumerate(recs) if r.get("type") == "decision")
    recs[first]["option"] = 1 - recs[first]["option"]
    edited = tmp_path / "edited.jsonl"
    write(edited, recs, seal=False)
    assert replay(edited, "--quiet") == 1
    assert "edited.jsonl:" in (out := capsys.readouterr().out) and "altered after it was written" in out
    # a log cut short (its final line gone) is refused as incomplete
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(log.read_text().splitlines()[:-1]) + "\n")
    assert replay(cut, "--quiet") == 1
    assert "incomplete game log: no final line" in capsys.readouterr().out


def test_a_corrupt_file_is_reported(tmp_path, log, capsys):
    lines = log.read_text().splitlines()
    lines[3] = lines[3][:10]
    bad = tmp_path / "corrupt.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    assert replay(bad) == 1
    assert "corrupt.jsonl:4: not JSON" in capsys.readouterr().out


def test_as_a_player_shows_only_what_they_may_see(log, played, capsys):
    viewer = "p1"
    hidden = {e["seq"] for e in played.events
              if viewer in e.get("_hidden_from", ()) or viewer not in e.get("audience", [viewer])}
    assert hidden, "this game should have events p1 may not see (another's infection, others' cards)"
    assert replay(log, "--as", viewer) == 0
    out = capsys.readouterr().out
    shown = printed_seqs(out)
    visible = played.events_for(viewer)
    # p1's own stream, numbered without gaps: nothing tells where hidden events were
    assert shown == set(range(len(visible))) and len(visible) == len(played.events) - len(hidden)
    printed = re.findall(r"^ {4}\s*\d+  (.*)$", out, re.M)
    assert printed == [event_text(e) for e in visible]
    # cards moving between zones p1 cannot see are shown without their identity
    masked = [e for e in played.events_for(viewer) if e["type"] == "moved" and e["entity"] == "?"]
    assert masked and all(re.search(rf"^ +{e['seq']}  moved  \?:", out, re.M) for e in masked)
    # the verdict counts what p1 saw, and gives no digest of the whole state to test guesses against
    assert f"p1 saw {len(visible)} events" in out and "digest" not in out and f"{len(played.events)} events" not in out
    # only p1's own decisions are listed
    deciders = set(re.findall(r"^#\d+ (p\d+) ", out, re.M))
    assert deciders == {viewer}


def test_as_an_unknown_player_is_bad_usage(log, capsys):
    assert replay(log, "--as", "p9") == 2
    assert "there is no player 'p9'" in capsys.readouterr().err


def test_an_unknown_rule_set_in_the_header_needs_rules(tmp_path, log, capsys):
    recs = records(log)
    recs[0]["ruleset"] = "no_such_game"
    bad = tmp_path / "other.jsonl"
    write(bad, recs)
    assert replay(bad) == 2  # the usage needs --rules, as for any rule set that is not shipped
    assert "give the rule set it was played on with --rules PATH" in capsys.readouterr().err
    assert replay(bad, "--rules", RULES, "--quiet") == 0


def test_a_log_cut_inside_a_line_says_so(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    assert main(["simulate", "tic_tac_toe", "--games", "1", "--quiet", "--log", str(log)]) == 0
    capsys.readouterr()
    text = log.read_text(encoding="utf-8")
    cut = tmp_path / "cut.jsonl"
    cut.write_text(text[: text.index('"type": "final"') + 5], encoding="utf-8")  # inside the final line
    assert main(["replay", str(cut)]) == 1
    out = capsys.readouterr().out
    assert f"cut.jsonl:{len(text.splitlines())}: the line stops short: the file was cut short" in out


def test_settings_no_game_has_are_a_bad_header(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    assert main(["simulate", "tic_tac_toe", "--games", "1", "--quiet", "--log", str(log)]) == 0
    capsys.readouterr()
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    for settings, says in (({"bogus": 1}, "'bogus' was unexpected"), ({"ask_every_eligible": "yes"}, "'yes' is not of type 'boolean'")):
        header["settings"] = settings
        edited = tmp_path / "edited.jsonl"
        edited.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
        assert main(["replay", str(edited)]) == 1
        out = capsys.readouterr().out
        assert "edited.jsonl:1: a bad header line: settings" in out and says in out
