"""The yardstick games checked move for move against OpenSpiel.

Over hundreds of seeded random games, at every decision rulecraft's legal options,
mapped to OpenSpiel's action ids, are exactly OpenSpiel's legal actions; the chosen
move is applied to both; both games end at the same step with the same result.

OpenSpiel is an optional dependency (``pip install -e ".[yardsticks]"``): without it
these tests skip, unless ``RULECRAFT_REQUIRE_OPENSPIEL=1`` (as in CI), where its
absence fails them.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game

RULES = Path(__file__).resolve().parent.parent / "rules"

try:
    import pyspiel
except ImportError:  # pragma: no cover - depends on the machine
    if os.environ.get("RULECRAFT_REQUIRE_OPENSPIEL") == "1":
        raise
    pytest.skip("OpenSpiel is not installed (pip install -e '.[yardsticks]'); "
                "set RULECRAFT_REQUIRE_OPENSPIEL=1 to fail instead", allow_module_level=True)


def tic_tac_toe_action(game: Game, option: dict, spiel) -> int:
    # OpenSpiel numbers the cells row by row from the top-left; rulecraft's row 1 is the bottom
    square = game.state.entities[option["args"]["s"]]["props"]
    return (2 - square["y"]) * 3 + square["x"]


def connect_four_action(game: Game, option: dict, spiel) -> int:
    return game.state.entities[option["args"]["s"]]["props"]["x"]  # OpenSpiel's action is the column


def breakthrough_action(game: Game, option: dict, spiel) -> int:
    """OpenSpiel's first player (black) starts on rows 7–8 and moves down; rulecraft's,
    as in the standard rules, is white on rows 1–2 moving up. The board is the same
    seen from the other side: rulecraft's row r is OpenSpiel's row 9 - r."""
    def seen_from_the_other_side(square: str) -> str:
        return f"{square[0]}{9 - int(square[1:])}"

    source = game.state.entities[option["args"]["piece"]]["at"]
    move = seen_from_the_other_side(source) + seen_from_the_other_side(option["args"]["target"])
    move += "*" if option["action"] == "capture" else ""
    by_name = {spiel.action_to_string(a): a for a in spiel.legal_actions()}
    return by_name.get(move, -1 - len(move))  # a move OpenSpiel does not offer: no legal id


def hex_action(game: Game, option: dict, spiel) -> int:
    # OpenSpiel's row 1 is the top one; each row lies half a cell right of the one above,
    # which is rulecraft's hex board read from the bottom up
    cell = game.state.entities[option["args"]["c"]]["props"]
    return (10 - cell["y"]) * 11 + cell["x"]


YARDSTICKS = [
    # (rule set, OpenSpiel game, maps an option to an action id, games, the game can be drawn)
    ("tic_tac_toe", "tic_tac_toe", tic_tac_toe_action, 300, True),
    ("connect_four", "connect_four", connect_four_action, 150, True),
    ("breakthrough", "breakthrough", breakthrough_action, 100, False),
    ("hex", "hex", hex_action, 40, False),
]


def _action_ids(game: Game, to_action, spiel) -> list[int]:
    """The pending options as OpenSpiel action ids, in rulecraft's order."""
    ids = []
    for option in game.pending.options:
        assert option["action"] != "end_turn", "a turn is one move: ending it is never offered"
        ids.append(to_action(game, option, spiel))
    return ids


def _returns(game: Game) -> list[float]:
    winners = game.result["winners"]
    if not winners:
        return [0.0, 0.0]
    return [1.0, -1.0] if winners == ["p1"] else [-1.0, 1.0]


def _play_both(ruleset, spiel_game, to_action, seed: int, pick_action) -> tuple[list, int]:
    """One game played on both engines; ``pick_action(ids)`` chooses among the legal
    action ids. Returns rulecraft's winners and the number of moves compared."""
    game = Game(ruleset, 2, seed, record_events=False)
    spiel = spiel_game.new_initial_state()
    steps = 0
    while not game.over:
        assert not spiel.is_terminal(), f"seed {seed}: OpenSpiel ended at step {steps}, rulecraft goes on"
        ids = _action_ids(game, to_action, spiel)
        assert len(set(ids)) == len(ids), f"seed {seed}: two options are the same move"
        assert sorted(ids) == spiel.legal_actions(), (
            f"seed {seed}: legal moves differ at step {steps}: rulecraft {game.pending.options}, "
            f"OpenSpiel {[spiel.action_to_string(a) for a in spiel.legal_actions()]}")
        assert game.pending.player == f"p{spiel.current_player() + 1}"
        action = pick_action(ids)
        game.choose(ids.index(action))
        spiel.apply_action(action)
        steps += 1
    assert spiel.is_terminal(), f"seed {seed}: rulecraft ended, OpenSpiel goes on"
    assert _returns(game) == spiel.returns(), f"seed {seed}: different result"
    return game.result["winners"], steps


def _drawn_game(spiel_game) -> list[int]:
    """The moves of a random game OpenSpiel scores a draw (rare at random in Connect Four)."""
    for seed in range(100_000):
        pick, spiel, moves = random.Random(seed), spiel_game.new_initial_state(), []
        while not spiel.is_terminal():
            moves.append(pick.choice(spiel.legal_actions()))
            spiel.apply_action(moves[-1])
        if spiel.returns() == [0.0, 0.0]:
            return moves
    raise AssertionError("no drawn game found")


@pytest.mark.parametrize("ruleset_name,spiel_name,to_action,games,drawable", YARDSTICKS, ids=[y[0] for y in YARDSTICKS])
def test_same_moves_and_results_as_openspiel(ruleset_name, spiel_name, to_action, games, drawable):
    ruleset = load_checked(RULES / ruleset_name)
    spiel_game = pyspiel.load_game(spiel_name)
    steps = 0
    outcomes = {"p1": 0, "p2": 0, "draw": 0}
    for seed in range(games):
        pick = random.Random(seed)
        winners, n = _play_both(ruleset, spiel_game, to_action, seed, lambda ids: ids[pick.randrange(len(ids))])
        steps += n
        outcomes[winners[0] if winners else "draw"] += 1
    if drawable and not outcomes["draw"]:  # random play seldom fills a large board: play one drawn game too
        moves = iter(_drawn_game(spiel_game))
        winners, n = _play_both(ruleset, spiel_game, to_action, games, lambda ids: next(moves))
        steps += n
        outcomes[winners[0] if winners else "draw"] += 1
    # every kind of ending was met: wins of both players, and a draw where the game has them
    assert outcomes["p1"] and outcomes["p2"] and bool(outcomes["draw"]) == drawable, outcomes
    print(f"{ruleset_name}: {sum(outcomes.values())} games, {steps} moves compared, outcomes {outcomes}")
