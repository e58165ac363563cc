"""Where served games live: an SQLite file holding, per game, how it was set up (rule
set, variant, seed, seats and their secret tokens) and every decision in order.

A game's state is never stored: seed and decisions replay to it exactly, so a restarted
server loses nothing, and an undo is a deleted decision.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    variant TEXT,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,        -- JSON: player -> "human" or a bot's name
    tokens TEXT NOT NULL,       -- JSON: player (or "spectator") -> secret token
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS decisions (
    game TEXT NOT NULL REFERENCES games(id),
    step INTEGER NOT NULL,
    option INTEGER NOT NULL,
    PRIMARY KEY (game, step)
);
"""


@dataclass
class StoredGame:
    id: str
    ruleset: str
    variant: str | None
    players: int
    seed: int
    seats: dict[str, str]
    tokens: dict[str, str]
    decisions: list[int]


class GameStore:
    def __init__(self, path: str | Path):
        self.path = str(path)
        # The file holds every game's seed and every seat's token, from which each hidden
        # card can be worked out and any seat taken: readable by its owner only, as a
        # play save is (SQLite gives its write-ahead log the file's own permissions).
        if self.path != ":memory:":
            Path(self.path).touch(mode=0o600, exist_ok=True)
            os.chmod(self.path, 0o600)
        # One connection: bots decide (and their decisions are written) in worker threads,
        # one table at a time, while the event loop writes other tables' decisions; every
        # use of the connection holds this lock.
        self.lock = threading.Lock()
        self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        # Each decision is committed at once; with a write-ahead log, NORMAL syncs at
        # checkpoints rather than at every commit, so a stopped or crashed server loses
        # nothing (only a power cut could lose the last moments), at a fraction of the cost.
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        with self.lock:
            self.db.close()

    def create(self, game: StoredGame) -> None:
        with self.lock:
            self.db.execute("INSERT INTO games (id, ruleset, variant, players, seed, seats, tokens) VALUES (?,?,?,?,?,?,?)",
                            (game.id, game.ruleset, game.variant, game.players, game.seed,
                             json.dumps(game.seats), json.dumps(game.tokens)))

    def add_decision(self, game_id: str, step: int, option: int) -> None:
        with self.lock:
            self.db.execute("INSERT INTO decisions (game, step, option) VALUES (?,?,?)", (game_id, step, option))

    def drop_decisions_from(self, game_id: str, step: int) -> None:
        with self.lock:
            self.db.execute("DELETE FROM decisions WHERE game = ? AND step >= ?", (game_id, step))

    def games(self) -> list[StoredGame]:
        with self.lock:
            return self._games()

    def _games(self) -> list[StoredGame]:
        rows = self.db.execute("SELECT id, ruleset, variant, players, seed, seats, tokens FROM games "
                               "ORDER BY created, id").fetchall()
        out = []
        for gid, ruleset, variant, players, seed, seats, tokens in rows:
            decisions = [d for (d,) in self.db.execute(
                "SELECT option FROM decisions WHERE game = ? ORDER BY step", (gid,))]
            out.append(StoredGame(gid, ruleset, variant, players, seed, json.loads(seats), json.loads(tokens),
                                  decisions))
        return out
