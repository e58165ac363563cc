"""A comprehension over a list that is the same for the whole game (the lines of a board
declared whole) keeps each item's result while the squares it read stay as they were
(dsl.codegen.kept_steady_comprehension, interpreter.listing.KeptCandidates.steady_items):
a victory asking whether some line is one player's looks again only at the lines through
the square a move changed. Checked against games played with nothing kept, and with a
driver changing the state between two answers."""

from __future__ import annotations

import random

import pytest
from engine_rulesets import QUIET_SETUP_AND_ROUND, build, game_yaml

from rulecraft.interpreter import machine as machine_module
from rulecraft.interpreter.game import Game

GAME = """
kinds:
  player: {}
  square:
    properties:
      marked_by: {type: "player?"}
      faded: {type: bool, default: false}

board:
  kind: grid
  space_kind: square
  columns: 5
  rows: 5
"""

RULES = QUIET_SETUP_AND_ROUND + """
action mark:
    with s: square where s.marked_by == none
    do:
        set s.marked_by = current_player

action fade:
    with s: square where s.marked_by == current_player and not s.faded
    do:
        set s.faded = true

function has_line(p: player) -> bool:
    = any([all([s.marked_by == p and not s.faded for s in line]) for line in lines(3)])

function open_lines(p: player) -> number:
    = count([line for line in lines(3) where all([s.marked_by == p or s.marked_by == none for s in line])])

victory line:
    when any([has_line(p) for p in players])
    winners [p for p in players where has_line(p)]

victory closed:
    when any([open_lines(p) == 0 for p in players])
    winners [p for p in players where open_lines(p) > 0]
"""


@pytest.fixture
def ruleset(tmp_path):
    return build(tmp_path, {"game.yaml": game_yaml(players=(2, 2), round_limit=30, actions_per_turn_limit=1)
                            + GAME, "play.rules": RULES})


def _play(ruleset, seed: int) -> Game:
    rand = random.Random(seed)
    game = Game(ruleset, 2, seed)
    while not game.over:
        game.choose(rand.randrange(len(game.state.pending["options"])))
    return game


def test_games_play_as_with_nothing_kept(ruleset, monkeypatch):
    played = []
    for seed in range(10):
        game = _play(ruleset, seed)
        assert any(key[0] == "steady" for key in game.machine._kept_candidates.kept)
        played.append((seed, game.decisions, game.events, game.state.dumps()))
    assert {e["reason"] for _, _, events, _ in played for e in events if e["type"] == "game_ended"} >= {"line"}
    with monkeypatch.context() as patched:
        patched.setattr(machine_module.Machine, "steady_many", lambda m, index, source_of: False)
        for seed, decisions, events, final in played:
            game = Game(ruleset, 2, seed)
            for index in decisions:
                game.choose(index)
            assert game.machine._kept_candidates is None  # nothing kept
            assert game.events == events and game.state.dumps() == final, f"seed {seed}"


def test_a_line_a_driver_marks_is_seen(ruleset):
    game = Game(ruleset, 2, 1)
    rand = random.Random(1)
    for _ in range(4):
        game.choose(rand.randrange(len(game.state.pending["options"])))
    assert not game.over and game.machine._kept_candidates is not None
    # the middle column, marked for p2 behind the machine's back, then said
    for square in ("c2", "c3", "c4"):
        game.state.entities[square]["props"].update(marked_by="p2", faded=False)
    game.machine.invalidate()
    game.machine.force_end_turn()
    assert game.over and game.result["winners"] == ["p2"]


def test_a_change_to_one_square_looks_again_at_its_lines_only(ruleset):
    game = Game(ruleset, 2, 2)
    game.choose(0)
    kept = game.machine._kept_candidates
    lines = [len(entry.source) for key, entry in kept.kept.items() if key[0] == "steady"]
    assert len(lines) == 4 and all(n >= 16 for n in lines)  # two functions, two players
    computed = []
    steady_items = kept.steady_items

    def counting(m, spec, args, source_of, helper, only=None):
        return steady_items(m, spec, args, source_of, lambda m, x, *a: (computed.append(x), helper(m, x, *a))[1],
                            only)

    kept.steady_items = counting
    game.choose(0)  # marks one square
    marked = [e for e in game.state.entities if game.state.entities[e]["props"].get("marked_by")]
    # (the lines through the square, for each function and player: a tenth of all)
    assert computed and len(computed) <= sum(lines) // 10
    assert all(any(s in line for s in marked) for line in computed)


STATEMENT_RULES = QUIET_SETUP_AND_ROUND + """
action light:
    with s: square where s.marked_by == none
    do:
        set s.lit = true
        set game.lit_squares = count([q for q in square where q.lit])
"""


def test_a_count_kept_in_a_statement_sees_the_properties_only_statements_read(tmp_path):
    """Statements get generated code at a rule set's second game, and their kept counts
    read properties no condition reads (here ``lit``): the keeper must compare those too,
    or the count is kept past the change that moves it."""
    ruleset = build(tmp_path, {
        "game.yaml": game_yaml(players=(2, 2), round_limit=30, actions_per_turn_limit=1) + GAME.replace(
            "      faded: {type: bool, default: false}",
            "      faded: {type: bool, default: false}\n      lit: {type: bool, default: false}")
        + "variables:\n  game:\n    lit_squares: {type: number, default: 0}\n",
        "play.rules": STATEMENT_RULES})
    for seed in range(3):  # the first game on closures, the others on generated statement code
        game = _play(ruleset, seed)
        lit = sum(1 for e in game.state.entities.values() if e["props"].get("lit"))
        assert lit > 16
        assert game.state.vars["game"]["lit_squares"] == lit
