"""The search bot's prior at the root: the seat's policy (a registered strategy, else the
rule set's preferences) orders, biases and with topK prunes the root's options; the spec
that asks for it is checked like the budget."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulecraft.bots import bot_problem, heuristic, make_bot, view_for
from rulecraft.bots.mcts import parse_spec
from rulecraft.bots.policy import PlayoutPolicy, SeatPolicy, odds_by_order
from rulecraft.cli.main import main
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game

RULES = Path(__file__).resolve().parent.parent / "rules"


@pytest.fixture(scope="module")
def tic_tac_toe():
    return load_checked(RULES / "tic_tac_toe")


class _Likes:
    """A strategy that scores squares by a fixed table (others 0), and counts the events
    it is handed."""

    table: dict[str, float] = {}
    events_read: list[int] = []
    viewers: list[str] = []

    def __init__(self, rng, ruleset):
        pass

    def observe(self, view):
        _Likes.events_read.append(len(view.get("events") or []))
        _Likes.viewers.append(view["viewer"])

    def score(self, view, option):
        return self.table.get((option.get("args") or {}).get("s"), 0.0)


@pytest.fixture
def likes(monkeypatch):
    """Registers _Likes as tic-tac-toe's strategy for one test."""
    monkeypatch.setitem(heuristic._REGISTERED, "tic_tac_toe", _Likes)
    monkeypatch.setattr(_Likes, "events_read", [])
    monkeypatch.setattr(_Likes, "viewers", [])

    def with_table(table: dict[str, float]):
        monkeypatch.setattr(_Likes, "table", table)
    return with_table


def _game(ruleset, squares, seed=0) -> Game:
    game = Game(ruleset, 2, seed)
    for square in squares:
        game.choose_option({"action": "mark", "args": {"s": square}})
    return game


def _answer(game: Game, bot) -> str:
    choice = game.pending
    return choice.options[bot.choose(view_for(game, bot, choice.player))]["args"]["s"]


def test_odds_follow_the_order_not_the_scale():
    assert odds_by_order([5.0, 3.0, 5.0, 1.0]) == pytest.approx([1 / 2.75, 0.5 / 2.75, 1 / 2.75, 0.25 / 2.75])
    assert odds_by_order([500.0, 300.0, 500.0, -9.0]) == odds_by_order([5.0, 3.0, 5.0, 1.0])
    assert odds_by_order([2.0, 2.0]) == [0.5, 0.5]


def test_the_prior_decides_a_search_too_short_to(tic_tac_toe, likes):
    """Two iterations on an empty board visit two squares once each: with the prior they
    are the policy's two favourites and the tie goes to its first; without, any two."""
    likes({"c3": 2.0, "a1": 1.0})
    answers = {_answer(_game(tic_tac_toe, []), make_bot("mcts:2:prior", seed)) for seed in range(8)}
    assert answers == {"c3"}
    flat = {_answer(_game(tic_tac_toe, []), make_bot("mcts:2", seed)) for seed in range(8)}
    assert flat != {"c3"}


def test_top_k_searches_only_the_policys_favourites(tic_tac_toe, likes):
    # x on a1 and b1 (o on a2, b2): x wins at c1, which a policy that likes a3 and b3
    # best keeps out of a top-2 search, but not out of a search with the prior alone
    likes({"a3": 2.0, "b3": 1.0})
    for seed in range(3):
        game = _game(tic_tac_toe, ["a1", "a2", "b1", "b2"], seed)
        assert _answer(game, make_bot("mcts:60:top2", seed)) in {"a3", "b3"}
        assert _answer(game, make_bot("mcts:60:prior", seed)) == "c1"


def test_the_strategy_reads_each_event_once(tic_tac_toe, likes):
    """The search bot's views carry the whole history; its strategy is handed each event
    once, as the heuristic bot hands it new events only."""
    likes({})
    game = _game(tic_tac_toe, [])
    bot = make_bot("mcts:2:prior", 3)
    for _ in range(3):  # x marks by the bot, o marks the first free square
        view = view_for(game, bot, game.pending.player)
        game.choose(bot.choose(view))
        game.choose(0)
    assert len(_Likes.events_read) == 3 and _Likes.events_read[1] > 0
    assert sum(_Likes.events_read) == len(view["events"])


def test_without_a_strategy_the_preferences_are_the_prior():
    """Connect Four registers no strategy; its heuristics prefer the middle column."""
    connect_four = load_checked(RULES / "connect_four")
    game = Game(connect_four, 2, 0)
    policy = SeatPolicy(connect_four, random.Random(0))
    assert policy.source == "preferences"
    view = view_for(game, make_bot("mcts", 0), game.pending.player)
    odds = policy.priors(view)
    squares = [o["args"]["s"] for o in view["choice"]["options"]]
    assert odds[squares.index("d1")] == max(odds) > min(odds)
    assert odds.count(max(odds)) == 1


def test_same_seed_same_answers_with_a_prior(tic_tac_toe, likes):
    likes({"b2": 3.0, "a1": 2.0, "c3": 1.0})

    def duel(seed):
        game = Game(tic_tac_toe, 2, seed)
        bots = [make_bot("mcts:20:top3:cut5", seed), make_bot("random", seed + 1)]
        while not game.over:
            seat = game.state.players.index(game.pending.player)
            game.choose(bots[seat].choose(view_for(game, bots[seat], game.pending.player)))
        return game.decisions
    assert duel(5) == duel(5)


def test_playouts_can_follow_each_seats_policy(tic_tac_toe, likes):
    """With ``play`` every seat of a playout answers as its policy would from the
    sample's view of that seat; the search still answers the same for the same seed."""
    likes({"b2": 3.0, "a1": 2.0})
    game = _game(tic_tac_toe, ["c3"])  # o to move
    playout = PlayoutPolicy(tic_tac_toe, random.Random(0))
    state = game.state.clone()
    options = state.pending["options"]
    assert options[playout.choose(state)]["args"]["s"] == "b2"
    assert _Likes.viewers == [state.pending["player"]]
    bots = [make_bot("mcts:12:play", 9) for _ in range(2)]
    answers = [_answer(_game(tic_tac_toe, ["c3"]), bot) for bot in bots]
    assert answers[0] == answers[1]
    assert set(_Likes.viewers[1:]) == set(game.state.players)  # both seats played by their policy
    assert make_bot("mcts:12", 9).playouts == "random"


def test_the_spec_reads_settings_in_any_order():
    assert parse_spec("48:top3:cut20") == {"iterations": 48, "top": 3, "cutoff": 20}
    assert parse_spec("16:play:top2") == {"iterations": 16, "playouts": "policy", "top": 2}
    assert parse_spec("32:cut10:1.5:prior") == {"iterations": 32, "cutoff": 10, "seconds": 1.5, "prior": True}
    bot = make_bot("mcts:48:top3:cut20", 0)
    assert (bot.iterations, bot.top, bot.cutoff, bot.prior) == (48, 3, 20, True)


@pytest.mark.parametrize("spec, says", [
    ("mcts:0", "the iterations per decision must be a positive whole number"),
    ("mcts:32:top0", "topK needs a positive whole number of options"),
    ("mcts:32:topx", "topK needs a positive whole number of options"),
    ("mcts:32:cut", "cutK needs a positive whole number of decisions"),
    ("mcts:32:-1", "the time per decision must be a positive number of seconds"),
    ("mcts:32:prior:prior", "'prior' sets prior a second time"),
    ("mcts:32:1:2", "'2' sets seconds a second time"),
    ("mcts:32:greedy", "'greedy' is no setting of the search bot"),
    ("mcts:32:play:play", "'play' sets playouts a second time"),
    ("mcts:32:teams", "'teams' is no setting of the search bot"),
    # beyond any game's patience: refused, not run until killed
    ("mcts:99999999999999999999999", "at most 1,000,000 iterations per decision"),
    ("mcts:32:86400", "at most 3,600 seconds per decision"),
    ("mcts:32:paired:zinf", "zX needs a positive number of standard errors"),
    ("mcts:32:paired:znan", "zX needs a positive number of standard errors"),
])
def test_a_bad_spec_says_why(spec, says):
    assert says in bot_problem(spec)


def test_simulate_refuses_a_bad_spec_in_one_line(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["simulate", str(RULES / "tic_tac_toe"), "--bot", "mcts:20:top0", "--games", "1"])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "mcts:20:top0" in err and "Traceback" not in err and len(err.splitlines()) <= 2


class _Confused:
    """A strategy whose bookkeeping does not fit the sample it is shown."""

    def __init__(self, rng, ruleset):
        pass

    def observe(self, view):
        pass

    def score(self, view, option):
        raise KeyError("a piece the strategy expected elsewhere")


def test_a_strategy_lost_on_a_sample_leaves_that_move_to_chance(tic_tac_toe, monkeypatch):
    monkeypatch.setitem(heuristic._REGISTERED, "tic_tac_toe", _Confused)
    state = _game(tic_tac_toe, []).state.clone()
    playout = PlayoutPolicy(tic_tac_toe, random.Random(1))
    picks = {playout.choose(state) for _ in range(20)}
    assert len(picks) > 1 and picks <= set(range(len(state.pending["options"])))


def test_team_rewards_average_each_side(tmp_path):
    """A cut-off playout's rewards with ``team``: each seat gets its side's average."""
    from test_90_simulate_sides import FREE_FOR_ALL, TEAMS, ruleset_folder
    from test_92_bot_for_side import TEAM_SIDES

    from rulecraft.bots.mcts import side_rewards

    teams = load_checked(ruleset_folder(tmp_path, TEAM_SIDES, TEAMS))
    state = Game(teams, 3, 0).state
    state.entities["p3"]["props"]["turncoat"] = True
    rewards = {"p1": 1.0, "p2": 0.2, "p3": 0.3}
    assert side_rewards(teams, state, rewards) == pytest.approx({"p1": 0.6, "p2": 0.6, "p3": 0.3})
    plain = load_checked(ruleset_folder(tmp_path / "plain", "", FREE_FOR_ALL))  # no sides declared
    assert side_rewards(plain, Game(plain, 2, 0).state, {"p1": 1.0, "p2": 0.0}) == {"p1": 1.0, "p2": 0.0}
    alone = load_checked(RULES / "tic_tac_toe")  # each seat for itself: its own side
    assert side_rewards(alone, Game(alone, 2, 0).state, {"p1": 1.0, "p2": 0.0}) == {"p1": 1.0, "p2": 0.0}
    assert make_bot("mcts:8:team", 0).team and not make_bot("mcts:8", 0).team
