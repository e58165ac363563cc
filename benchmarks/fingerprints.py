"""Fingerprints of seeded random-bot games of every shipped rule set and variant.

    python benchmarks/fingerprints.py [--games N] [--out FILE]

Plays, for each shipped rule set (and each of its variants), a fixed list of seeded
random-bot games and prints one line per game: the rule set, variant, players, seed, the
number of decisions and a hash of the game's whole log (decisions, events, final state)
and of its final state's ``dumps()``. Run it before and after a change of the engine
that must not change any game (a speed-up) and compare the two outputs with ``diff``:
any difference is a game that no longer plays the same.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from rulecraft.cli.simulate import play_game
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.machine import RuleRuntimeError

RULES = Path(__file__).resolve().parent.parent / "rules"

# (rule set, players to play, share of --games): the slow rule sets play fewer games
PLAN = [
    ("tic_tac_toe", [2], 1.0),
    ("connect_four", [2], 1.0),
    ("breakthrough", [2], 0.5),
    ("hex", [2], 0.5),
    ("kuhn_poker", [2], 1.0),
    ("panic_station", [4, 5, 6], 1.0),
    ("star_trek_panic", [1, 2, 3, 4, 5, 6, 7], 0.5),
    ("stationfall", [3], 0.3),
]


def variants_of(name: str) -> list[str | None]:
    folder = RULES / name / "variants"
    found = sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []
    return [None] + found


def fingerprint(ruleset, players: int, seed: int) -> str:
    try:
        game = play_game(ruleset, players, seed)
        error = ""
    except RuleRuntimeError as err:
        game, error = err.game, str(err)
    log = hashlib.sha256("\n".join(game.log_lines()).encode()).hexdigest()[:16]
    state = hashlib.sha256(game.state.dumps().encode()).hexdigest()[:16]
    suffix = f" error={error!r}" if error else ""
    return f"decisions={len(game.decisions)} log={log} state={state}{suffix}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per rule set and variant (default 30)")
    parser.add_argument("--out", help="also write the lines to this file")
    parser.add_argument("--only", help="only this rule set")
    args = parser.parse_args(argv)
    lines = []
    for name, player_counts, share in PLAN:
        if args.only and name != args.only:
            continue
        for variant in variants_of(name):
            ruleset = load_checked(RULES / name, variant)
            lo, hi = ruleset.data.game.min_players, ruleset.data.game.max_players
            counts = [p for p in player_counts if lo <= p <= hi]
            games = max(1, int(args.games * share))
            for i in range(games):
                players = counts[i % len(counts)]
                seed = 1000 + i
                line = f"{name} {variant or '-'} players={players} seed={seed} {fingerprint(ruleset, players, seed)}"
                print(line, flush=True)
                lines.append(line)
    if args.out:
        Path(args.out).write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
