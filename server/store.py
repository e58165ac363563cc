"""Where served games live: an SQLite file holding, per game, how it was set up (rule
set, variant, seed, seats and their secret tokens, the host's token, the settings it
is run with), the names people
gave their seats, the seat tokens replaced by new links, and every decision in order.

A game's state is never stored: seed and decisions replay to it exactly, so a restarted
server loses nothing, and an undo is a deleted decision.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path

from rulecraft.interpreter.game import PLAYER_FACING

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
-- A person's name at a seat: public, shown to every page of the game.
CREATE TABLE IF NOT EXISTS names (
    game TEXT NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (game, seat)
);
-- The token of whoever created the game: it issues new seat links (games created before
-- host links have none).
CREATE TABLE IF NOT EXISTS hosts (
    game TEXT PRIMARY KEY REFERENCES games(id),
    token TEXT NOT NULL
);
-- How the game is run (interpreter.game.Game's settings, JSON): its decisions mean what
-- they meant under these. A game stored before this table has no row, and was run with
-- EARLIER_SETTINGS.
CREATE TABLE IF NOT EXISTS settings (
    game TEXT PRIMARY KEY REFERENCES games(id),
    settings TEXT NOT NULL
);
-- Seat tokens a new link replaced: kept so that an old link is told it was replaced,
-- rather than that it never was one.
CREATE TABLE IF NOT EXISTS replaced_tokens (
    game TEXT NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    token TEXT NOT NULL
);
"""

# People at separate screens: a new game is run as every player-facing driver runs games
# (who is asked to react, or to choose, shows nobody's cards).
SETTINGS = PLAYER_FACING
# The settings every served game was run with before each game's own were stored.
EARLIER_SETTINGS = {"ask_every_eligible": True}


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
    names: dict[str, str] = field(default_factory=dict)  # seat → the name its person gave
    host: str | None = None  # the host's token
    replaced: dict[str, str] = field(default_factory=dict)  # a replaced seat token → its seat
    settings: dict = field(default_factory=lambda: dict(SETTINGS))  # how the game is run


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
            if game.host is not None:
                self.db.execute("INSERT INTO hosts (game, token) VALUES (?,?)", (game.id, game.host))
            self.db.execute("INSERT INTO settings (game, settings) VALUES (?,?)", (game.id, json.dumps(game.settings)))

    def set_name(self, game_id: str, seat: str, name: str | None) -> None:
        with self.lock:
            if name is None:
                self.db.execute("DELETE FROM names WHERE game = ? AND seat = ?", (game_id, seat))
            else:
                self.db.execute("INSERT OR REPLACE INTO names (game, seat, name) VALUES (?,?,?)", (game_id, seat, name))

    def replace_token(self, game_id: str, seat: str, old: str, tokens: dict[str, str]) -> None:
        """``seat``'s token ``old`` replaced: ``tokens`` are the game's tokens now."""
        with self.lock:
            # both or neither: a new link that works while the old one still does is no replacement
            self.db.execute("BEGIN")
            try:
                self.db.execute("UPDATE games SET tokens = ? WHERE id = ?", (json.dumps(tokens), game_id))
                self.db.execute("INSERT INTO replaced_tokens (game, seat, token) VALUES (?,?,?)", (game_id, seat, old))
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

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
            names = dict(self.db.execute("SELECT seat, name FROM names WHERE game = ?", (gid,)).fetchall())
            host = self.db.execute("SELECT token FROM hosts WHERE game = ?", (gid,)).fetchone()
            replaced = {token: seat for seat, token in self.db.execute(
                "SELECT seat, token FROM replaced_tokens WHERE game = ?", (gid,))}
            settings = self.db.execute("SELECT settings FROM settings WHERE game = ?", (gid,)).fetchone()
            out.append(StoredGame(gid, ruleset, variant, players, seed, json.loads(seats), json.loads(tokens),
                                  decisions, names, host[0] if host else None, replaced,
                                  json.loads(settings[0]) if settings else dict(EARLIER_SETTINGS)))
        return out
