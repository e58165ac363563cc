"""Parasites (rulebook-en: Parasite Phase; Room Types, Parasite Alert; 4. Search Location)."""

from panic_station import lay_tile, new_game, relocate, run_procedure


def _station(game):
    lay_tile(game, "run_b.1", -1, 0, 0)             # open all round, west of the Reactor
    lay_tile(game, "team_search_a.1", 0, 1, 180)    # south of the Reactor: open north, wall east
    return "run_b.1/main", "team_search_a.1/main"


def _clear_board_parasites(game):
    for x, e in game.state.entities.items():
        if e["kind"] == "parasite" and e["at"] != "parasite_supply":
            relocate(game, x, "parasite_supply")


def test_rulebook_example_roll_of_two_moves_right_unless_a_wall_blocks():
    game = new_game(5, seed=1)
    west, south = _station(game)
    _clear_board_parasites(game)
    relocate(game, "gray_parasite.1", west)
    relocate(game, "gray_parasite.2", south)
    relocate(game, "gray_parasite.3", "reactor/main")
    game.state.forced_rolls["d4"] = [2]
    run_procedure(game, "parasite_phase", game.state.current)
    at = lambda x: game.state.entities[x]["at"]  # noqa: E731
    assert at("gray_parasite.1") == "reactor/main"   # through the open doorway into the Reactor
    assert at("gray_parasite.2") == south             # a wall on its east side: it stays
    assert at("gray_parasite.3") == "reactor/main"   # nothing built to the east: it stays


def test_the_d4_template_one_up_two_right_three_down_four_left():
    from panic_station import ruleset

    assert ruleset().data.tables["d4_direction"] == {1: "north", 2: "east", 3: "south", 4: "west"}


def test_parasites_attack_everyone_in_their_room_gray_one_black_two():
    game = new_game(5, seed=1)
    _clear_board_parasites(game)
    p = game.state.current
    relocate(game, "gray_parasite.1", "reactor/main")
    relocate(game, "black_parasite.1", "reactor/main")
    game.state.entities["black_parasite.1"]["props"]["side"] = "black"
    game.state.forced_rolls["d4"] = [1]  # north: nothing there, nobody moves
    run_procedure(game, "parasite_phase", p)
    assert game.state.entities[f"trooper.{p}"]["props"]["health"] == 1
    assert game.state.entities[f"android.{p}"]["props"]["health"] == 1


def test_a_character_at_zero_health_leaves_the_board():
    game = new_game(5, seed=1)
    _clear_board_parasites(game)
    p = game.state.current
    game.state.entities[f"trooper.{p}"]["props"]["health"] = 1
    relocate(game, "gray_parasite.1", "reactor/main")
    game.state.forced_rolls["d4"] = [1]
    run_procedure(game, "parasite_phase", p)
    assert game.state.entities[f"trooper.{p}"]["at"] is None
    assert any(e["type"] == "eliminated" and e["character"] == f"trooper.{p}" for e in game.events)


def test_closed_security_doors_block_parasites_even_when_opened_by_a_terminal_earlier():
    game = new_game(5, seed=1)
    _clear_board_parasites(game)
    lay_tile(game, "run_a", 0, 1, 0)  # security door north, against the Reactor
    relocate(game, "gray_parasite.1", "run_a/main")
    game.state.vars["game"]["security_doors_open"] = True
    game.state.forced_rolls["d4"] = [1]
    run_procedure(game, "parasite_phase", game.state.current)
    assert game.state.vars["game"]["security_doors_open"] is False
    assert game.state.entities["gray_parasite.1"]["at"] == "run_a/main"


def test_spawn_goes_in_the_rolled_direction_ignoring_walls_or_stays_when_nothing_is_there():
    game = new_game(5, seed=1)
    west, south = _station(game)
    _clear_board_parasites(game)
    p = game.state.current
    lay_tile(game, "team_search_a.2", 1, 1, 180)  # east of the south room, behind its wall
    game.state.forced_rolls["d4"] = [2, 3]
    run_procedure(game, "spawn_parasite", south, p)
    assert game.state.entities["gray_parasite.1"]["at"] == "team_search_a.2/main"  # through the wall
    run_procedure(game, "spawn_parasite", south, p)
    assert game.state.entities["gray_parasite.2"]["at"] == south  # nothing to the south: same room


def test_spawn_uses_gray_parasites_first_then_black_ones_black_side_up():
    game = new_game(5, seed=1)
    _clear_board_parasites(game)
    p = game.state.current
    game.state.forced_rolls["d4"] = [1] * 7
    for _ in range(7):
        run_procedure(game, "spawn_parasite", "reactor/main", p)
    out = [x for x in game.state.zones["reactor/main"] if game.state.entities[x]["kind"] == "parasite"]
    grays = [x for x in out if x.startswith("gray")]
    blacks = [x for x in out if x.startswith("black")]
    assert len(grays) == 5 and len(blacks) == 2
    assert all(game.state.entities[x]["props"]["side"] == "black" for x in blacks)


def test_when_all_ten_are_out_the_triggering_player_moves_one():
    game = new_game(5, seed=1)
    west, south = _station(game)
    p = game.state.current
    for i, x in enumerate(x for x, e in game.state.entities.items() if e["kind"] == "parasite"):
        relocate(game, x, west if i % 2 else south)
    game.state.forced_rolls["d4"] = [1]
    run_procedure(game, "spawn_parasite", "reactor/main", p)
    choice = game.pending
    assert choice.kind == "choose" and choice.player == p
    assert len(choice.options) == 10
    game.choose(choice.options.index("black_parasite.3"))
    assert game.state.entities["black_parasite.3"]["at"] == "reactor/main"
