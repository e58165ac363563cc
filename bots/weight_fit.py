"""Weights for a rule set's heuristic features, fitted to who won simulated games.

A heuristic's weights (``feature "label" weight W: ...``) are a designer's guess at how
much each feature is worth. The search bot judges cut-off playouts by them and the
greedy bot plays by them, so a guess that points the wrong way costs both. This module
measures the guess and offers a better one:

1. **Readings.** Bots play games; every ``every`` decisions each seat's features are
   read from that seat's own view, with what the seat remembers (``seen(...)``), as
   the greedy bot reads them. A reading is labelled by the result for the side the seat
   was on when it was taken: 1 when that side won, 0 when it lost; a game nobody won
   gives 0.5 (0 in a cooperative game, where the game beat the players). Without
   declared sides, the seat's own result.
2. **The fit.** A logistic regression of that label on the raw feature values (each
   column standardized, an intercept for each heuristic, a small ridge (L2) shrinkage so that
   features that always move together share the weight instead of trading it). Solved
   by Newton's method, in plain Python: the columns are few.
3. **Back to weights.** A feature's fitted weight is its coefficient per unit of value,
   scaled, heuristic by heuristic, so that the fitted worth spreads over the readings as
   much as the written one did (its standard deviation), and rounded to a whole number.
   Preferences (``prefer ... weight``) are added to the worth by the greedy bot, so
   keeping the spread keeps their pull about what it was.
4. **The check.** Every third game is held out of the fit. For each group of seats
   judged by the same heuristics, the AUC on the held-out readings (the chance that a
   reading from a game the seat's side won is worth more than one from a game it lost;
   0.5 is no signal) is given for the written weights and the fitted ones.

A feature whose value never changed in the games keeps its written weight: the games
say nothing of it. So does a feature whose weight is not a number written in place
(an expression): it is fitted and reported, but nothing can be written back for it.
"""

from __future__ import annotations

import bisect
import copy
import dataclasses
import math
from collections import defaultdict
from dataclasses import dataclass, field

from rulecraft.dsl import ast
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.sides import winning_side
from rulecraft.interpreter.state import seat_players
from rulecraft.interpreter.views import player_view

from . import make_bot, view_for
from .evaluation import Evaluation
from .paired import sides_or_none

RIDGE = 1.0  # the ridge term on each standardized coefficient (the data's log-likelihood is summed)
NEWTON_STEPS = 30
HELD_OUT_EVERY = 3  # game i is held out when i % 3 == 2
# why a feature keeps its written weight
NEVER_CHANGED = "its value never changed in these games"
NOT_A_NUMBER = "its weight is an expression, not a number written in place"


@dataclass
class Reading:
    """One seat's features at one moment: ``values`` by (heuristic, feature index)."""

    game: int
    seat: str
    heuristics: tuple[str, ...]  # the heuristics judging for the seat, in order
    values: dict[tuple[str, int], float]
    weights: dict[tuple[str, int], float]  # each feature's weight as the rules gave it then
    label: float = 0.5  # filled when the game ends


@dataclass
class FittedFeature:
    heuristic: str
    index: int  # the feature's place in its heuristic
    label: str
    written: float  # the weight the rules give it now
    fitted: int  # the whole-number weight the games point to
    kept: str | None = None  # why the written weight stays (None: the fitted one may replace it)


@dataclass
class Fit:
    features: list[FittedFeature]
    # per group of judging heuristics: (readings held out, games won, AUC written, AUC fitted)
    checks: dict[tuple[str, ...], tuple[int, int, float | None, float | None]] = field(default_factory=dict)
    readings: int = 0
    games: int = 0


def with_weights(ruleset, features: list[FittedFeature]):
    """A copy of ``ruleset`` whose heuristics weigh each feature of ``features`` that is
    not kept by its fitted weight; the rule set itself is untouched (its other parts
    are shared, not copied)."""
    fitted = {(f.heuristic, f.index): f.fitted for f in features if f.kept is None}
    heuristics = {}
    for name, info in ruleset.compiled.heuristics.items():
        terms = [(label, _constant(fitted[(name, i)]) if (name, i) in fitted else weight, value)
                 for i, (label, weight, value) in enumerate(info.features)]
        heuristics[name] = dataclasses.replace(info, features=terms)
    compiled = copy.copy(ruleset.compiled)
    compiled.heuristics = heuristics
    out = copy.copy(ruleset)
    out.compiled = compiled
    return out


def _constant(number: float):
    return lambda machine, env: number


def head_to_head(ruleset, fitted_rules, players: int, seeds: list[int], bot: str = "greedy") -> dict[str, int]:
    """Games in which one seat plays ``bot`` by ``fitted_rules`` (a copy of ``ruleset``
    with other weights, :func:`with_weights`) and every other seat by ``ruleset``'s own
    weights; the fitted seat goes round the table, game after game. Counts ``fitted``
    (games that seat won), ``written`` (games another seat won) and ``drawn``."""
    counts = {"fitted": 0, "written": 0, "drawn": 0}
    seats = seat_players(players)
    for n, seed in enumerate(seeds):
        game = Game(ruleset, players, seed)
        trial = seats[n % players]
        bots = _seat_bots(bot, seed, seats)
        bots[trial] = _OwnRules(bots[trial], fitted_rules)
        while not game.over:
            player = game.pending.player
            game.choose(bots[player].choose(view_for(game, bots[player], player)))
        winners = game.state.result["winners"]
        counts["drawn" if not winners else "fitted" if trial in winners else "written"] += 1
    return counts


class _OwnRules:
    """A bot that keeps to rules of its own (the same game, other weights) whatever
    rules the driver hands it."""

    def __init__(self, bot, rules):
        self._bot, self._rules = bot, rules
        self.name = bot.name
        self.needs_events = getattr(bot, "needs_events", True)

    def learn_rules(self, ruleset) -> None:
        if hasattr(self._bot, "learn_rules"):
            self._bot.learn_rules(self._rules)

    def choose(self, view: dict) -> int:
        return self._bot.choose(view)


def auc(won: list[float], lost: list[float]) -> float | None:
    """The chance that a value from a won game beats one from a lost game (ties count
    half); None when either list is empty."""
    if not won or not lost:
        return None
    lost_sorted = sorted(lost)
    total = 0.0
    for w in won:
        below = bisect.bisect_left(lost_sorted, w)
        equal = bisect.bisect_right(lost_sorted, w) - below
        total += below + equal / 2
    return total / (len(won) * len(lost))


# ---- readings

def play_and_read(ruleset, players: int, seed: int, bot: str, every: int, game_index: int = 0,
                  evaluation: Evaluation | None = None, decided_only: bool = False) -> list[Reading]:
    """The readings of one game (seed ``seed``, every seat played by ``bot``); none for a
    game stopped undecided (the round limit) when ``decided_only``."""
    evaluation = evaluation or Evaluation(ruleset)
    evaluation.forget()  # each game's seats remember that game only
    game = Game(ruleset, players, seed)
    seats = _seat_bots(bot, seed, seat_players(players))
    heard = {p: 0 for p in game.state.players}  # how many of its events each seat has been handed
    readings: list[tuple[Reading, list[str]]] = []
    decision = 0
    while not game.over:
        if decision % every == 0:
            sides = sides_or_none(ruleset, game.state) or {}
            for p in game.state.players:
                evaluation.remember(p, game.events_for(p, since=heard[p]))
                heard[p] = game.visible_count(p)
                reading = _read(evaluation, player_view(ruleset, game.state, p), game_index, p)
                if reading is not None:
                    readings.append((reading, sides.get(p, [])))
        player = game.pending.player
        game.choose(seats[player].choose(view_for(game, seats[player], player)))
        decision += 1
    if decided_only and not game.state.result.get("decided", True):
        return []
    for reading, sides in readings:
        reading.label = _result_for(ruleset, game.state, reading.seat, sides)
    return [r for r, _ in readings]


def _seat_bots(bot: str, seed: int, seats: list[str]) -> dict:
    """A bot per seat, seeded as ``rulecraft simulate`` seeds them, so a game here is the
    game simulate plays with the same seed and bots."""
    return {p: make_bot(bot, seed * 7919 + i) for i, p in enumerate(seats)}


def _read(evaluation: Evaluation, view: dict, game_index: int, seat: str) -> Reading | None:
    values: dict[tuple[str, int], float] = {}
    weights: dict[tuple[str, int], float] = {}
    order: list[str] = []
    counter: dict[str, int] = defaultdict(int)
    for heuristic, _label, weight, value in evaluation.features(view):
        if heuristic not in order:
            order.append(heuristic)
        key = (heuristic, counter[heuristic])
        values[key], weights[key] = value, weight
        counter[heuristic] += 1
    if not order:
        return None
    return Reading(game_index, seat, tuple(order), values, weights)


def written_weights(ruleset, readings: list[Reading]) -> dict[tuple[str, int], tuple[str, float, bool]]:
    """Each feature's (label, weight as written, whether the weight is a number written
    in place), by (heuristic, index). A weight written as an expression is given as its
    average over the readings."""
    out = {}
    for d in ruleset.of_kind("heuristic"):
        for i, feature in enumerate(d.features):
            number = literal_number(feature.weight)
            if number is None:
                seen = [r.weights[(d.name, i)] for r in readings if (d.name, i) in r.weights]
                number = sum(seen) / len(seen) if seen else 0.0
                out[(d.name, i)] = (feature.label, number, False)
            else:
                out[(d.name, i)] = (feature.label, number, True)
    return out


def literal_number(expr) -> float | None:
    """The number an expression writes out (``12``, ``-3``), or None for anything else."""
    if isinstance(expr, ast.Unary) and expr.op == "-":
        inner = literal_number(expr.operand)
        return None if inner is None else -inner
    if isinstance(expr, ast.Literal) and isinstance(expr.value, (int, float)) and not isinstance(expr.value, bool):
        return float(expr.value)
    return None


def _result_for(ruleset, state, seat: str, sides: list[str]) -> float:
    """1, 0 or 0.5 for the seat's side (as it was at the reading) in the finished game."""
    winners = state.result["winners"]
    if not winners:
        return 0.0 if "cooperative" in (ruleset.data.game.sides or {}) else 0.5
    if not sides:
        return 1.0 if seat in winners else 0.0
    won = set(winning_side(ruleset, state, winners).split(" + "))
    return 1.0 if won & set(sides) else 0.0


# ---- the fit

def fit_weights(readings: list[Reading], written: dict[tuple[str, int], tuple[str, float, bool]]) -> Fit:
    """Fitted weights from ``readings``; ``written`` gives each (heuristic, index) its
    label, written weight and whether that weight is a number written in place."""
    train = [r for r in readings if r.game % HELD_OUT_EVERY != HELD_OUT_EVERY - 1]
    held = [r for r in readings if r.game % HELD_OUT_EVERY == HELD_OUT_EVERY - 1]
    keys = sorted(written)
    mean, spread = {}, {}
    for k in keys:
        column = [r.values.get(k, 0.0) for r in train if k[0] in r.heuristics]
        mean[k] = sum(column) / len(column) if column else 0.0
        spread[k] = _sd(column)
    varying = [k for k in keys if spread[k] > 1e-12]
    heuristics = sorted({k[0] for k in keys})
    rows = [_row(r, varying, mean, spread, heuristics) for r in train]
    beta = _logistic(rows, [r.label for r in train], len(varying))
    per_unit = {k: beta[j] / spread[k] for j, k in enumerate(varying)}

    features = []
    for h in heuristics:
        mine = [k for k in keys if k[0] == h]
        scale = _scale(train, h, mine, per_unit, written)
        for k in mine:
            label, weight, literal = written[k]
            if k not in per_unit:
                features.append(FittedFeature(h, k[1], label, weight, round(weight), NEVER_CHANGED))
                continue
            fitted = round(per_unit[k] * scale)
            kept = None if literal else NOT_A_NUMBER
            features.append(FittedFeature(h, k[1], label, weight, fitted, kept))
    fit = Fit(features, readings=len(readings), games=len({r.game for r in readings}))
    new_weight = {(f.heuristic, f.index): (f.fitted if f.kept is None else f.written) for f in features}
    old_weight = {k: written[k][1] for k in keys}
    for group in sorted({r.heuristics for r in held}):
        mine = [r for r in held if r.heuristics == group]
        won = [r for r in mine if r.label == 1.0]
        lost = [r for r in mine if r.label == 0.0]
        fit.checks[group] = (
            len(mine), len({r.game for r in won}),
            auc([_worth(r, old_weight) for r in won], [_worth(r, old_weight) for r in lost]),
            auc([_worth(r, new_weight) for r in won], [_worth(r, new_weight) for r in lost]))
    return fit


def _row(reading: Reading, varying, mean, spread, heuristics) -> list[float]:
    row = [((reading.values.get(k, 0.0) - mean[k]) / spread[k]) if k[0] in reading.heuristics else 0.0
           for k in varying]
    return row + [1.0 if h in reading.heuristics else 0.0 for h in heuristics]


def _worth(reading: Reading, weights: dict[tuple[str, int], float]) -> float:
    return sum(weights.get(k, 0.0) * v for k, v in reading.values.items())


def _scale(train: list[Reading], heuristic: str, keys, per_unit, written) -> float:
    """The factor that gives the fitted worth of ``heuristic`` the spread of the written one."""
    judged = [r for r in train if heuristic in r.heuristics]
    old = [sum(written[k][1] * r.values.get(k, 0.0) for k in keys) for r in judged]
    new = [sum(per_unit.get(k, 0.0) * r.values.get(k, 0.0) for k in keys) for r in judged]
    old_spread, new_spread = _sd(old), _sd(new)
    if new_spread < 1e-12:
        return 0.0
    if old_spread < 1e-12:  # the written weights never told positions apart: largest weight 100
        largest = max((abs(v) for k, v in per_unit.items() if k in keys), default=0.0)
        return 100.0 / largest if largest else 0.0
    return old_spread / new_spread


def _sd(values: list[float]) -> float:
    if not values:
        return 0.0
    m = sum(values) / len(values)
    return (sum((v - m) ** 2 for v in values) / len(values)) ** 0.5


def _logistic(rows: list[list[float]], labels: list[float], shrunk: int) -> list[float]:
    """Coefficients of a ridge logistic regression (the first ``shrunk``
    columns shrunk, the intercepts not), by Newton's method."""
    width = len(rows[0]) if rows else 0
    beta = [0.0] * width
    for _ in range(NEWTON_STEPS):
        gradient = [0.0] * width
        hessian = [[0.0] * width for _ in range(width)]
        for x, y in zip(rows, labels):
            z = sum(b * v for b, v in zip(beta, x))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            g, h = p - y, p * (1.0 - p)
            for i, xi in enumerate(x):
                if xi == 0.0:
                    continue
                gradient[i] += g * xi
                hi = h * xi
                row = hessian[i]
                for j, xj in enumerate(x):
                    row[j] += hi * xj
        for i in range(width):
            hessian[i][i] += RIDGE if i < shrunk else 1e-9
            if i < shrunk:
                gradient[i] += RIDGE * beta[i]
        step = _solve(hessian, gradient)
        beta = [b - s for b, s in zip(beta, step)]
        if max((abs(s) for s in step), default=0.0) < 1e-9:
            break
    return beta


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix · x = vector (Gaussian elimination with partial pivoting)."""
    n = len(vector)
    m = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        if abs(m[c][c]) < 1e-15:
            continue
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] if abs(m[i][i]) >= 1e-15 else 0.0 for i in range(n)]
