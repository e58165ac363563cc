"""`rulecraft simulate`'s figures per seat: how often each seat won, alone or sharing the
win, and its mean payoff, for a designer looking for a seat-order advantage.

A seat *won* a game when the game's result names it among the winners: the players the
victory condition that ended it named. A side's win is shared by the seats it names, so
a seat on the winning side that the victory leaves out did not win. A seat won *alone*
when it was the only winner, *shared* when other seats won with it (a tie for the best
score, a cooperative win, a team of several seats).

Every figure is read from the games' result rows (``seat_wins`` and ``payoffs``), so a
run on Ray, whose rows are those of a local run, prints the same table.
"""

from __future__ import annotations

import statistics

from rich.table import Table

from rulecraft.interpreter.state import all_seats, scripted_seats

from .rates import percent, wilson

ALONE = "alone"
SHARED = "shared"
NO_WIN = "no"


def seat_outcomes(winners: list[str], seats: list[str]) -> dict[str, str]:
    """Seat → ``alone``, ``shared`` or ``no``: whether the game's ``winners`` name it, and
    whether another seat won with it."""
    shared = len(winners) > 1
    return {seat: (SHARED if shared else ALONE) if seat in winners else NO_WIN for seat in seats}


def seat_labels(ruleset, players: int) -> dict[str, str]:
    """Every seat of a game of ``players`` players → how the table names it: a seat its
    rules play (``game.scripted_seats``) is marked, since its wins are its script's, not
    a bot's."""
    scripted = scripted_seats(ruleset, players)
    return {seat: f"{seat} (scripted)" if seat in scripted else seat for seat in all_seats(ruleset, players)}


def summarize_seats(rows: list[dict], labels: dict[str, str]) -> list[dict]:
    """Each seat's wins (alone, shared), win rate over the games played to the end (as the
    side table counts them) with its Wilson interval, and mean payoff with its standard
    deviation when the rows carry payoffs."""
    played = [r for r in rows if r["error"] is None]
    n = len(played)
    out = []
    for seat, label in labels.items():
        outcomes = _outcome_counts(played, seat)
        won = outcomes[ALONE] + outcomes[SHARED]
        paid = [r["payoffs"][seat] for r in played if r.get("payoffs") and seat in r["payoffs"]]
        payoff = None
        if paid:
            payoff = {"mean": statistics.mean(paid), "sd": statistics.stdev(paid) if len(paid) > 1 else 0.0}
        out.append({"seat": seat, "label": label, "won": won, "alone": outcomes[ALONE], "shared": outcomes[SHARED],
                    "rate": won / n if n else 0.0, "ci": wilson(won, n), "payoff": payoff})
    return out


def _outcome_counts(rows: list[dict], seat: str) -> dict[str, int]:
    """How many of ``rows`` the seat won alone, won shared and did not win."""
    counts = {ALONE: 0, SHARED: 0, NO_WIN: 0}
    for r in rows:
        counts[r["seat_wins"].get(seat, NO_WIN)] += 1
    return counts


def repeats_sides(rows: list[dict]) -> bool:
    """Whether a table per seat would only repeat the table of sides: every game that had
    a winner was won by one seat alone, on a side named after that seat (every seat for
    itself, no tie), so each seat's wins are its side's row."""
    return all(len(r["winners"]) == 1 and r["side"] == r["winners"][0]
               for r in rows if r["error"] is None and r["winners"])


def seat_table(seats: list[dict]) -> Table:
    """The table per seat; the payoff columns only when the rule set declares payoffs."""
    table = Table(title="Wins per seat",
                  caption="won: among the winners the game's victory named; alone: the only winner; "
                          "shared: with other seats")
    with_payoffs = any(s["payoff"] for s in seats)
    headings = ["seat", "won", "alone", "shared", "win rate", "95% CI (Wilson)"]
    headings += ["mean payoff", "sd"] if with_payoffs else []
    for heading in headings:
        table.add_column(heading, justify="left" if heading == "seat" else "right")
    for s in seats:
        lo, hi = s["ci"]
        cells = [s["label"], str(s["won"]), str(s["alone"]), str(s["shared"]), percent(s["rate"]),
                 f"{percent(lo)} – {percent(hi)}"]
        if with_payoffs:
            paid = s["payoff"]
            cells += [f"{paid['mean']:.3f}", f"{paid['sd']:.3f}"] if paid else ["—", "—"]
        table.add_row(*cells)
    return table


def seat_note(seats: list[dict]) -> str:
    """What is printed instead of a table that would repeat the sides' (see ``repeats_sides``)."""
    if not any(s["won"] for s in seats):
        return "wins per seat: none (no game named a winner)"
    return "wins per seat: as the sides above (every seat its own side; no win shared)"


def seat_comparison(configs: list, summaries: dict) -> Table | None:
    """Each seat's win rate (with its 95% interval) and mean payoff under the base game
    and every variant: a row per seat, a column per rules, since a game may have more
    seats than a terminal has room for as columns. None when it would repeat the
    comparison of sides and there are no payoffs; the win rates are shown when any
    run's table per seat was."""
    with_rates = any(not summaries[v]["seats_repeat_sides"] for v in configs)
    with_payoffs = any(s["payoff"] for v in configs for s in summaries[v]["seats"])
    if not (with_rates or with_payoffs):
        return None
    what = ", ".join((["win rate, 95% interval"] if with_rates else []) + (["mean payoff"] if with_payoffs else []))
    table = Table(title=f"How each variant moves the seats ({what})")
    table.add_column("seat")
    for variant in configs:
        # a cell too wide for the terminal folds onto a second line rather than losing its end
        table.add_column("base game" if variant is None else variant, justify="right", overflow="fold")
    labels = {s["seat"]: s["label"] for v in configs for s in summaries[v]["seats"]}
    by_seat = {v: {s["seat"]: s for s in summaries[v]["seats"]} for v in configs}
    for seat, label in labels.items():
        cells = []
        for variant in configs:
            s, parts = by_seat[variant].get(seat), []
            if with_rates:
                # no game played to the end: no rate, rather than 0% of nothing
                parts.append(f"{percent(s['rate'])} [{percent(s['ci'][0])}–{percent(s['ci'][1])}]"
                             if s and summaries[variant]["played"] else "—")
            if with_payoffs:
                parts.append(f"payoff {s['payoff']['mean']:.3f}" if s and s["payoff"] else "payoff —")
            cells.append("; ".join(parts))
        table.add_row(label, *cells)
    return table
