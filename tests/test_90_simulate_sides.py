"""`rulecraft simulate` names winning sides from the rule set's own ``game.sides``:
free-for-all, cooperative and teams whose membership changes in play, on tiny rule sets."""

from __future__ import annotations

import csv
import json

import pytest
from engine_rulesets import game_yaml, write_ruleset

from rulecraft.cli.main import main
from rulecraft.dsl.diagnostics import RuleSetError
from rulecraft.dsl.loader import load_checked

RACE = """
kinds:
  player:
    properties:
      ap: {type: number, default: 0}
      score: {type: number, default: 0}
      turncoat: {type: bool, default: false}
variables:
  game:
    total: {type: number, default: 0}
"""

TURNS = """
procedure setup():
    do:
        set game.total = 0

procedure round():
    do:
        for each p in players:
            play_turn(p)

trigger refill:
    on turn_started
    do:
        set event.player.ap = 2

action work:
    cost 1 ap
    do:
        set current_player.score += 1
        set game.total += 1
"""

FREE_FOR_ALL = TURNS + """
victory first_to_three:
    when any([p.score >= 3 for p in players])
    winners [p for p in players where p.score >= 3]
"""

COOPERATIVE = TURNS + """
victory built:
    when game.total >= 4
    winners players

victory collapsed:
    when round_number >= 2 and game.total < 4
    winners [p for p in players where false]
"""

TEAMS = TURNS + """
action defect:
    limit 1 per game
    do:
        set current_player.turncoat = true

function loyal(p: player) -> bool:
    = not p.turncoat

function defector(p: player) -> bool:
    = p.turncoat

victory defectors_win:
    when game.total >= 3 and any([p.turncoat for p in players])
    winners [p for p in players where p.turncoat]

victory loyalists_win:
    when game.total >= 3 and not any([p.turncoat for p in players])
    winners players
"""


def ruleset_folder(tmp_path, sides: str, rules: str):
    return write_ruleset(tmp_path / "race", {
        "game.yaml": game_yaml(name="race", players=(2, 3), round_limit=4) + sides + RACE,
        "main.rules": rules,
    })


def simulate(folder, tmp_path, capsys, games: int = 12) -> tuple[list[dict], str]:
    out = tmp_path / "rows.json"
    code = main(["simulate", str(folder), "--players", "3", "--games", str(games), "--seed", "1", "--quiet",
                 "--workers", "1", "--out", str(out), "--plot", str(tmp_path / "sides.png")])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert (tmp_path / "sides.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return json.loads(out.read_text()), printed


def table_rows(printed: str) -> list[str]:
    """The side names of the win-rate table, in order."""
    win_table = printed.split("How the games ended")[0]
    return [line.split("│")[1].strip() for line in win_table.splitlines() if line.startswith("│")]


def test_free_for_all_every_seat_is_its_own_side(tmp_path, capsys):
    folder = ruleset_folder(tmp_path, "  sides: {free_for_all: true}\n", FREE_FOR_ALL)
    rows, printed = simulate(folder, tmp_path, capsys)
    decided = [r for r in rows if r["decided"]]
    assert decided
    for r in decided:
        assert r["side"] == " + ".join(r["winners"])  # the winner's own seat
    assert table_rows(printed)[:3] == ["p1", "p2", "p3"]  # every seat listed, even without a win


def test_cooperative_one_side_wins_or_nobody_does(tmp_path, capsys):
    folder = ruleset_folder(tmp_path, "  sides: {cooperative: crew}\n", COOPERATIVE)
    rows, printed = simulate(folder, tmp_path, capsys, games=20)
    sides = {r["reason"]: r["side"] for r in rows if r["decided"]}
    assert sides == {"built": "crew", "collapsed": "nobody"}  # both endings happen in 20 games
    assert table_rows(printed)[0] == "crew"


def test_teams_are_read_when_the_game_ends_so_a_seat_may_change_team(tmp_path, capsys):
    sides = ("  sides:\n    teams:\n      - {name: loyalists, member: loyal}\n"
             "      - {name: defectors, member: defector}\n")
    folder = ruleset_folder(tmp_path, sides, TEAMS)
    rows, printed = simulate(folder, tmp_path, capsys, games=20)
    found = {r["reason"]: r["side"] for r in rows if r["decided"]}
    # every seat starts loyal: the defectors' wins prove membership is read at the end
    assert found == {"defectors_win": "defectors", "loyalists_win": "loyalists"}
    assert table_rows(printed)[:2] == ["loyalists", "defectors"]
    out = tmp_path / "rows.csv"
    assert main(["simulate", str(folder), "--players", "3", "--games", "20", "--seed", "1", "--quiet",
                 "--workers", "1", "--out", str(out)]) == 0
    with open(out, newline="", encoding="utf-8") as f:
        assert [line["side"] for line in csv.DictReader(f)] == [r["side"] or "" for r in rows]


def test_a_team_whose_member_function_is_unknown_is_a_located_error(tmp_path):
    sides = "  sides:\n    teams:\n      - {name: loyalists, member: loyl}\n      - {name: defectors, member: defector}\n"
    folder = ruleset_folder(tmp_path, sides, TEAMS)
    with pytest.raises(RuleSetError) as err:
        load_checked(folder)
    text = err.value.bag.render()
    assert "game.sides: team 'loyalists' member names unknown function 'loyl'" in text
    assert "game.yaml:" in text and "did you mean 'loyal'" in text
