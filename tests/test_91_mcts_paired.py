"""The search bot's ``paired`` setting: a flat check of the seat's policy on shared
samples, which keeps the policy's favourite unless another candidate is clearly better
sample by sample."""

from __future__ import annotations

from test_91_mcts_prior import _answer, _game, likes, tic_tac_toe  # noqa: F401 (fixtures)

from rulecraft.bots import bot_problem, make_bot
from rulecraft.bots.mcts import parse_spec
from rulecraft.bots.paired import PAIRED_MIN_SAMPLES, _clearly_better


def test_a_clearly_better_option_overturns_the_policy(tic_tac_toe, likes):
    # x on a1 and b1 (o on a2, b2): x wins at c1; the policy likes a3 best and c1 next,
    # and every sample shows c1 winning where a3 lets o win at c2
    likes({"a3": 2.0, "c1": 1.0})
    for seed in range(4):
        game = _game(tic_tac_toe, ["a1", "a2", "b1", "b2"], seed)
        assert _answer(game, make_bot("mcts:8:top2:paired", seed)) == "c1"


def test_the_favourite_stays_when_the_samples_do_not_clearly_say_otherwise(tic_tac_toe, likes):
    # On an empty grid no square wins or loses by force: random playouts from a corner
    # and from an edge differ by chance, so the favourite stays in nearly every seed,
    # where a search that does not defer to the policy takes whatever chance says
    likes({"a2": 2.0, "a1": 1.0, "c3": 1.0})
    paired = [_answer(_game(tic_tac_toe, [], seed), make_bot("mcts:6:top3:paired", seed)) for seed in range(10)]
    assert paired.count("a2") >= 8
    plain = [_answer(_game(tic_tac_toe, [], seed), make_bot("mcts:6:top3", seed)) for seed in range(10)]
    assert plain.count("a2") < paired.count("a2")


def test_clearly_better_needs_a_consistent_difference():
    ones, zeros, halves = [1.0] * 8, [0.0] * 8, [0.5] * 8
    assert _clearly_better(ones, zeros)
    assert not _clearly_better(zeros, ones)
    assert not _clearly_better(halves, halves)  # level: the favourite stays
    # better in half the samples, worse in the other half: chance
    assert not _clearly_better([1.0, 0.0] * 4, [0.0, 1.0] * 4)
    # better on average but mostly by one lucky sample
    assert not _clearly_better([1.0] + [0.4] * 7, [0.0] + [0.5] * 7)
    # too few samples to judge, however consistent
    short = PAIRED_MIN_SAMPLES - 1
    assert not _clearly_better([1.0] * short, [0.0] * short)


def test_same_seed_same_answers(tic_tac_toe, likes):
    likes({"b2": 3.0, "a1": 2.0, "c3": 1.0})
    answers = {_answer(_game(tic_tac_toe, ["c3"]), make_bot("mcts:6:top3:play:paired", 11)) for _ in range(3)}
    assert len(answers) == 1


def test_the_spec_reads_paired():
    assert parse_spec("16:top3:paired") == {"iterations": 16, "top": 3, "paired": True}
    bot = make_bot("mcts:16:paired", 0)
    assert bot.paired and bot.prior
    assert not make_bot("mcts:16", 0).paired
    assert "'paired' sets paired a second time" in bot_problem("mcts:8:paired:paired")


def test_a_lost_copy_leaves_the_choice_to_the_policy(tic_tac_toe, likes, monkeypatch):
    """When the bot's copy of the game cannot follow the view, nothing can be sampled:
    a bot with a policy then plays the policy's favourite, as the heuristic bot would,
    and one without plays at random."""
    from rulecraft.bots.determinize import Tracker

    monkeypatch.setattr(Tracker, "follow", lambda self, view: False)
    likes({"b2": 2.0, "a1": 1.0})
    with_policy = {_answer(_game(tic_tac_toe, ["c3"], seed), make_bot("mcts:8:top3:paired", seed)) for seed in range(6)}
    assert with_policy == {"b2"}
    without = {_answer(_game(tic_tac_toe, ["c3"], seed), make_bot("mcts:8", seed)) for seed in range(6)}
    assert len(without) > 1


# ---------------------------------------------------------------- uptoK: an undecided check grows


def test_an_undecided_check_doubles_its_samples_up_to_the_most(tic_tac_toe, likes):
    # on an empty grid chance now and then puts a square ahead of the favourite by a
    # standard error or more, never clearly: those checks grow 6 → 12 → 24 → 32, the
    # others stop at 6
    likes({"a2": 2.0, "a1": 1.0, "c3": 1.0})
    sizes, answers = [], []
    for seed in range(10):
        bot = make_bot("mcts:6:top3:paired:upto32", seed)
        answers.append(_answer(_game(tic_tac_toe, [], seed), bot))
        sizes.append(bot.last_iterations)
    assert set(sizes) <= {6, 12, 24, 32}
    assert 6 in sizes and max(sizes) > 6
    assert answers.count("a2") >= 8  # more samples still do not make chance look clear


def test_a_decided_check_does_not_grow(tic_tac_toe, likes):
    # x on a1 and b1: c1 wins in every sample, so the check is clear at once
    likes({"a3": 2.0, "c1": 1.0})
    bot = make_bot("mcts:4:top2:paired:upto64", 0)
    assert _answer(_game(tic_tac_toe, ["a1", "a2", "b1", "b2"], 0), bot) == "c1"
    assert bot.last_iterations == 4


def test_undecided_means_a_lead_that_is_not_yet_clear():
    from rulecraft.bots.paired import _undecided

    assert _undecided({0: [0.5] * 4, 1: [1.0, 0.5, 1.0, 0.5]}, [0, 1], 0)  # ahead by 1.7 standard errors
    assert not _undecided({0: [0.0, 0.5, 0.5, 0.5], 1: [1.0, 0.5, 0.0, 0.5]}, [0, 1], 0)  # by one lucky sample
    assert not _undecided({0: [0.5] * 4, 1: [0.5] * 4}, [0, 1], 0)  # level: the favourite stays
    assert not _undecided({0: [0.0] * 4, 1: [1.0] * 4}, [0, 1], 0)  # clearly better: decided
    assert not _undecided({0: [1.0] * 4, 1: [0.0] * 4}, [0, 1], 0)  # behind


def test_the_spec_reads_upto():
    assert parse_spec("8:paired:upto32")["most"] == 32
    assert "needs paired" in bot_problem("mcts:8:upto32")
    assert "must be more than the 8 samples" in bot_problem("mcts:8:paired:upto8")
    assert "uptoK needs a positive whole number" in bot_problem("mcts:8:paired:upto")


def test_z_sets_how_clearly_a_candidate_must_win():
    favourite = [0.5] * 8
    candidate = [1.0, 0.5, 1.0, 0.5, 1.0, 0.5, 1.0, 0.5]  # ahead by 2.6 standard errors
    assert _clearly_better(candidate, favourite)
    assert not _clearly_better(candidate, favourite, 3.0)
    assert parse_spec("8:paired:z3")["z"] == 3.0
    assert make_bot("mcts:8:paired:z2.5", 0).z == 2.5
    assert "needs paired" in bot_problem("mcts:8:z3")
    assert "zX needs a positive number" in bot_problem("mcts:8:paired:z0")


def test_a_stricter_z_keeps_the_favourite_where_the_default_overturns_it(tic_tac_toe, likes):
    # x on a1 and b1 (o on a2, b2): c1 wins at once; a3 lets o win or play on. The
    # default overturns a3 for c1 in every seed; asked for a win by 50 standard errors,
    # the check keeps a3 unless every sample agrees exactly (no spread at all)
    likes({"a3": 2.0, "c1": 1.0})
    default = [_answer(_game(tic_tac_toe, ["a1", "a2", "b1", "b2"], seed), make_bot("mcts:8:top2:paired", seed))
               for seed in range(4)]
    strict = [_answer(_game(tic_tac_toe, ["a1", "a2", "b1", "b2"], seed), make_bot("mcts:8:top2:paired:z50", seed))
              for seed in range(4)]
    assert default == ["c1"] * 4
    assert strict.count("a3") >= 3


def test_the_bot_tells_what_its_last_check_did(tic_tac_toe, likes):
    likes({"a3": 2.0, "c1": 1.0})
    bot = make_bot("mcts:4:top2:paired", 0)
    assert _answer(_game(tic_tac_toe, ["a1", "a2", "b1", "b2"], 0), bot) == "c1"
    assert bot.last_check == {"samples": 4, "replaced": True}
    likes({"c1": 2.0, "a3": 1.0})
    assert _answer(_game(tic_tac_toe, ["a1", "a2", "b1", "b2"], 0), bot) == "c1"
    assert bot.last_check == {"samples": 4, "replaced": False}
    plain = make_bot("mcts:4", 0)
    _answer(_game(tic_tac_toe, ["a1", "a2", "b1", "b2"], 0), plain)
    assert plain.last_check is None  # no paired check ran
