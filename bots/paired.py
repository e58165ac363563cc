"""The search bot's ``paired`` setting: a flat Monte Carlo check of the seat's own
policy, option against option on the same samples, that leaves the policy's choice
alone unless the playouts clearly say otherwise.

A tree search spreads a few dozen noisy playouts over many options: in a long game of
hidden roles the noise then picks, and a whole side played that way loses to the
policy it started from. ``paired`` asks a narrower question at each decision: among the
policy's K likeliest options (``topK``), is one clearly better than the policy's
favourite? Each iteration samples one state consistent with the seat's view
(:func:`~rulecraft.bots.determinize.determinize`) and plays every candidate from it
with the same generator seed (common random numbers, as in Tesauro and Galperin's
on-line policy improvement): the playouts of one sample differ only by what the
candidate changed, so the comparison is far less noisy than playouts drawn apart.

How a sample's playouts are compared: each ends with a result or, with heuristics
declared, at the cut-off, and gets a worth for the side the seat was on when the search
started (:func:`side_worth`). Within the sample the candidates are scored by worth (the
best 1, the worst 0, the others in proportion; all 0.5 when level). A candidate beats the
favourite only when its score is higher sample by sample by more than chance explains
(:func:`_clearly_better`); the bot plays the best-scored of those, otherwise, and
whenever too few samples could be played, the favourite.
"""

from __future__ import annotations

import random

from rulecraft.interpreter.machine import Machine, RuleRuntimeError
from rulecraft.interpreter.sides import seat_sides, winning_side

from .determinize import determinize, option_key
from .evaluation import seat_worth
from .policy import PlayoutPolicy

# How clearly a candidate must beat the policy's favourite for the bot to play it: its
# mean score difference over the samples, in standard errors of that mean (a paired test
# at about 5%, in one direction, for this many samples), and the fewest samples to judge by.
PAIRED_Z = 2.0
PAIRED_MIN_SAMPLES = 4
# With ``uptoK``, how far ahead of the favourite a candidate must be, in standard errors
# of the mean difference, for its check to grow: a lead of less is taken for chance.
PAIRED_GROW_Z = 1.0
# A finished playout's worth lies beyond any heuristic worth, so a win comes above every
# cut-off position and a loss scores below them all.
_FINISHED = 1e9


def paired_choice(ruleset, tracker, view: dict, rng: random.Random, candidates: list[int], favourite: int,
                  samples: int, evaluation, cutoff: int, policy_playouts: bool,
                  deadline_check=None, defer: bool = True, beliefs: dict | None = None,
                  recall=None, most: int | None = None, z: float = PAIRED_Z) -> tuple[int, dict]:
    """The option to play (an index into the view's options) and what the check found:
    ``{"samples": played, "scores": {index: average score}}``. ``defer`` False: there is
    no policy to defer to, and the best-scored candidate is played. ``beliefs`` deal the
    samples' hidden properties (:func:`~rulecraft.bots.determinize.determinize`);
    ``recall`` (:class:`~rulecraft.bots.recall.Recall`) gives the playouts' seats their
    memories. ``most``: when after ``samples`` samples a candidate leads the favourite
    by PAIRED_GROW_Z standard errors or more without being clearly better, the check
    plays as many again, and so on, doubling, up to ``most`` samples in all (the test is
    read only at each doubling, so that many looks do not make chance look clear).
    ``z``: how many standard errors a candidate must beat the favourite by
    (:func:`_clearly_better`)."""
    seat = view["viewer"]
    options = view["choice"]["options"]
    keys = {i: option_key(options[i]) for i in candidates}
    scores: dict[int, list[float]] = {i: [] for i in candidates}  # each candidate's score in each sample
    budget = samples
    drawn = 0
    seen_in = tracker.places.read(view)  # where the seat saw things go, kept in every sample
    while True:
        if drawn >= budget:
            if most is None or budget >= most or not defer or not _undecided(scores, candidates, favourite, z):
                break
            budget = min(most, budget * 2)
        drawn += 1
        if deadline_check is not None and deadline_check():
            break
        sample = determinize(tracker, view, rng, beliefs=beliefs, seen_in=seen_in)
        root_sides = sides_or_none(ruleset, sample)
        seed = rng.getrandbits(64)
        worths: dict[int, float] | None = {}
        for i in candidates:
            try:
                worth = _play_candidate(ruleset, sample.clone(), keys[i], seed, evaluation, cutoff, policy_playouts,
                                        seat, root_sides, recall.playout() if recall is not None else None)
            except RuleRuntimeError:
                worth = None  # the sample put the rules somewhere the real game is not
            if worth is None:  # ... or does not offer this option: the sample is dropped
                worths = None
                break
            worths[i] = worth
        if worths is None:
            continue
        low, high = min(worths.values()), max(worths.values())
        for i, w in worths.items():
            scores[i].append(0.5 if high - low < 1e-9 else (w - low) / (high - low))
    played = len(scores[favourite])
    if played == 0:
        return favourite, {"samples": 0, "scores": {}}
    average = {i: sum(r) / played for i, r in scores.items()}
    if not defer:
        best = max(candidates, key=lambda i: average[i])
        return best, {"samples": played, "scores": average}
    clearly_better = [i for i in candidates if i != favourite and _clearly_better(scores[i], scores[favourite], z)]
    choice = max(clearly_better, key=lambda i: average[i]) if clearly_better else favourite
    return choice, {"samples": played, "scores": average}


def _undecided(scores: dict[int, list[float]], candidates: list[int], favourite: int, z: float = PAIRED_Z) -> bool:
    """Whether a candidate leads the favourite by at least PAIRED_GROW_Z standard errors
    without being clearly better (more samples may then decide)."""
    mine = scores[favourite]
    if not mine:
        return False
    leads = [i for i in candidates if i != favourite and _clearly_better(scores[i], mine, PAIRED_GROW_Z)]
    return bool(leads) and not any(_clearly_better(scores[i], mine, z) for i in leads)


def _clearly_better(scores: list[float], favourite_scores: list[float], z: float = PAIRED_Z) -> bool:
    """Whether a candidate's scores beat the favourite's, sample by sample, by more than
    the samples' own spread allows for chance: the mean difference is positive and at
    least ``z`` standard errors (a paired test in one direction; identical samples that all
    favour the candidate count as clear)."""
    n = len(scores)
    if n < PAIRED_MIN_SAMPLES:
        return False
    differences = [a - b for a, b in zip(scores, favourite_scores)]
    mean = sum(differences) / n
    if mean <= 0:
        return False
    spread = (sum((d - mean) ** 2 for d in differences) / (n - 1)) ** 0.5
    return spread < 1e-12 or mean >= z * spread / n ** 0.5


def _play_candidate(ruleset, state, key: str, seed: int, evaluation, cutoff: int, policy_playouts: bool,
                    seat: str, root_sides: dict[str, list[str]] | None, memories=None) -> float | None:
    """The worth to ``seat``'s side of playing option ``key`` in ``state`` and then the
    playout drawn from ``seed``; None when the state does not offer ``key``. ``memories``
    (:class:`~rulecraft.bots.recall.PlayoutMemories`): what the seats remember."""
    keys = [option_key(o) for o in state.pending["options"]]
    if key not in keys:
        return None
    machine = memories.machine(state) if memories is not None else Machine(ruleset, state)
    machine.answer(keys.index(key))
    rng = random.Random(seed)
    policy = PlayoutPolicy(ruleset, rng, memories) if policy_playouts else None
    if policy is not None and not policy.usable:
        policy = None
    played = 0
    while state.result is None:
        if evaluation is not None and played >= cutoff:
            break
        if policy is not None:
            machine.answer(policy.choose(state))
        else:
            machine.answer(rng.randrange(len(state.pending["options"])))
        played += 1
    return side_worth(ruleset, state, seat, root_sides, evaluation, memories)


def side_worth(ruleset, state, seat: str, root_sides: dict[str, list[str]] | None, evaluation,
               memories=None) -> float:
    """What ``state`` is worth to the side ``seat`` was on at the root (``root_sides``;
    without declared sides, to the seat itself). A finished game: ``_FINISHED`` when that
    side won, its negative when it lost, half that when nobody won (all of it in a
    cooperative game, where the game then beat the players). An unfinished one: the average
    worth, by the rule set's heuristics, of the seats still on that side, each judged from
    its own view (``-_FINISHED`` when none is left on it) and, with ``memories``, with
    what it remembers."""
    now = sides_or_none(ruleset, state)
    by_side = root_sides is not None and now is not None
    if state.result is not None:
        winners = state.result["winners"]
        if not winners:  # over without a winner: below any unfinished position, above a loss
            return -_FINISHED if "cooperative" in (ruleset.data.game.sides or {}) else -_FINISHED / 2
        if not by_side:
            return _FINISHED if seat in winners else -_FINISHED
        won = set(winning_side(ruleset, state, winners).split(" + "))
        return _FINISHED if won & set(root_sides.get(seat, ())) else -_FINISHED
    if not by_side:
        mates = [seat]
    else:
        was = set(root_sides.get(seat, ()))
        mates = [q for q in state.players if was & set(now.get(q, ()))]
        if not mates:
            return -_FINISHED
    return sum(seat_worth(evaluation, state, q, memories) for q in mates) / len(mates)


def sides_or_none(ruleset, state) -> dict[str, list[str]] | None:
    """Each seat's sides in ``state``, or None without declared sides or when a sample's
    sides cannot be read."""
    if not ruleset.data.game.sides:
        return None
    try:
        return seat_sides(ruleset, state)
    except (RuleRuntimeError, KeyError, IndexError, TypeError, ValueError):
        return None
