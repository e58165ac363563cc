"""What games of one rule set share: a new game's layout and the boards built from the
geometry. Sharing must never let one game change another: each new game gets its own
copy of the layout, and a shared board answers exactly as one built for the game."""

from __future__ import annotations

from panic_station import ruleset

from rulecraft.cli.simulate import play_game
from rulecraft.interpreter.board import Board, board_for
from rulecraft.interpreter.state import _layout, new_state


def test_a_new_state_is_the_layout_made_afresh():
    rs = ruleset()
    fresh_ids, fresh_entities, fresh_zones, fresh_vars = _layout(rs, 5)
    state = new_state(rs, 5, 3)
    assert state.players == fresh_ids
    assert state.entities == fresh_entities
    assert list(state.entities) == list(fresh_entities)  # order orders the options
    assert state.zones == fresh_zones
    assert state.vars == fresh_vars


def test_a_game_played_to_the_end_leaves_the_next_new_state_as_it_was():
    rs = ruleset()
    before = new_state(rs, 5, 11).dumps()
    game = play_game(rs, 5, 11)
    assert game.state.dumps() != before  # the game did change its own state
    assert new_state(rs, 5, 11).dumps() == before


def test_changing_one_new_state_in_place_does_not_reach_another():
    rs = ruleset()
    first = new_state(rs, 4, 1)
    second = new_state(rs, 4, 2)
    entity = next(iter(first.entities))
    first.entities[entity]["props"]["marked"] = True
    first.entities[entity]["at"] = "somewhere"
    zone = next(z for z, items in first.zones.items() if items)
    first.zones[zone].clear()
    first.vars["game"]["marked"] = 1
    third = new_state(rs, 4, 3)
    for other in (second, third):
        assert "marked" not in other.entities[entity]["props"]
        assert other.entities[entity]["at"] != "somewhere"
        assert other.zones[zone]
        assert "marked" not in other.vars["game"]


def test_a_board_is_shared_only_for_the_same_tiles_in_the_same_order():
    game = play_game(ruleset(), 5, 4)  # a finished game has explored: several tiles
    geometry = game.machine.geometry
    tiles = dict(game.state.tiles)
    assert len(tiles) >= 2
    board = board_for(geometry, tiles)
    assert board_for(geometry, dict(tiles)) is board
    reordered = dict(reversed(list(tiles.items())))
    assert board_for(geometry, reordered) is not board
    turned = {t: list(v) for t, v in tiles.items()}
    first = next(iter(turned))
    turned[first][2] = (turned[first][2] + 90) % 360
    assert board_for(geometry, turned) is not board


def test_a_shared_board_answers_as_a_board_built_for_the_game():
    game = play_game(ruleset(), 5, 9)
    game.machine.invalidate()
    board_for(game.machine.geometry, game.state.tiles)  # now kept by the geometry
    shared = game.machine.board()
    assert shared is board_for(game.machine.geometry, game.state.tiles)
    own = Board(game.machine.geometry, game.state.tiles)
    assert shared.rooms == set(own.graph)
    for room in own.graph:
        assert shared.adjacent(room) == own.adjacent(room)
        assert shared.connected(room) == own.connected(room)
        for d in game.machine.geometry.directions:
            assert shared.towards(room, d) == own.towards(room, d)


def _fresh_game(rs, players: int, seed: int):
    """A game begun without anything kept from earlier games of the rule set."""
    from rulecraft.interpreter.game import Game

    kept = {k: v for k, v in rs.compiled.shared.items() if k[0] == "started"}
    for k in kept:
        del rs.compiled.shared[k]
    try:
        return Game(rs, players, seed)
    finally:
        rs.compiled.shared.update(kept)


def test_a_begun_game_that_drew_nothing_is_copied_and_plays_as_one_begun_afresh():
    from pathlib import Path

    from rulecraft.dsl.loader import load_checked
    from rulecraft.interpreter.game import Game

    rs = load_checked(Path(__file__).resolve().parent.parent / "rules" / "tic_tac_toe")
    Game(rs, 2, 1)  # begins one to keep
    assert any(k[0] == "started" and v is not None for k, v in rs.compiled.shared.items())
    copied, fresh = Game(rs, 2, 7), _fresh_game(rs, 2, 7)
    begun = fresh.state.dumps()
    assert copied.state.dumps() == begun
    assert copied.events == fresh.events and copied.events
    for game in (copied, fresh):
        for i in range(3):
            game.choose(i)
    assert copied.log_lines() == fresh.log_lines()
    # changing the copy changed neither what is kept nor the next copy
    again = Game(rs, 2, 7)
    assert again.state.dumps() == begun != copied.state.dumps()
    assert again.events == _fresh_game(rs, 2, 7).events


def test_a_begun_game_that_drew_is_not_kept():
    rs = ruleset()
    play_game(rs, 4, 3)
    assert not any(k[0] == "started" and v is not None for k, v in rs.compiled.shared.items())
