"""A served game is stored as its seed and decisions, which mean what they meant under
the settings it was run with: a server of a later rulecraft, whose player-facing
settings ask other questions, replays a stored game under its own."""

from __future__ import annotations

import json
import sqlite3

from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import PLAYER_FACING
from rulecraft.server.store import EARLIER_SETTINGS, GameStore, StoredGame
from rulecraft.server.tables import Table


def _game(**settings) -> StoredGame:
    return StoredGame("0123456789ab", "star_trek_panic", None, 2, 5, {"p1": "human", "p2": "random"},
                      {"p1": "t1", "spectator": "t2"}, [], **settings)


def test_a_new_game_keeps_the_settings_it_is_run_with(tmp_path):
    store = GameStore(tmp_path / "games.db")
    store.create(_game())
    assert store.games()[0].settings == PLAYER_FACING
    store.create(StoredGame("ba9876543210", "tic_tac_toe", None, 2, 1, {"p1": "human", "p2": "human"}, {}, [],
                            settings={"ask_every_eligible": True}))
    assert [g.settings for g in GameStore(tmp_path / "games.db").games()] == [PLAYER_FACING,
                                                                              {"ask_every_eligible": True}]


def test_a_game_stored_before_settings_were_kept_replays_with_the_earlier_ones(tmp_path):
    path = tmp_path / "games.db"
    GameStore(path).create(_game())
    with sqlite3.connect(path) as db:  # as a file written before the settings table
        db.execute("DELETE FROM settings")
    stored = GameStore(path).games()[0]
    assert stored.settings == EARLIER_SETTINGS
    table = Table(stored, load_checked("rules/star_trek_panic"))
    assert table.game.state.settings == EARLIER_SETTINGS  # its decisions are replayed as they were asked
    assert json.dumps(EARLIER_SETTINGS) != json.dumps(PLAYER_FACING)  # else the case would prove nothing
