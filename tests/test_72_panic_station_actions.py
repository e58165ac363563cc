"""Explore, Move and Search (rulebook-en: Team Phase 1, 2 and 4)."""

from panic_station import lay_tile, new_game, options, relocate, take


def test_explore_example_only_legal_placements_are_offered():
    # The rulebook's illustration: a card placed so that a Reactor doorway runs into a
    # wall is illegal, and so is a card turned sideways. For the Run card with edges
    # security/wall/wall/open (N/E/S/W), exactly four spots around the Reactor work.
    game = new_game(5, seed=1)
    relocate(game, "run_a", "exploration_deck")
    game.state.pending = None
    game.machine.run()
    p = game.state.current
    take(game, "explore", c=f"trooper.{p}")
    offered = sorted((o["x"], o["y"], o["rotation"]) for o in game.pending.options)
    assert offered == sorted([(-1, 0, 180), (1, 0, 0), (0, -1, 180), (0, 1, 0)])


def test_sideways_placements_exist_geometrically_but_are_never_offered():
    game = new_game(5, seed=1)
    board = game.machine.board()
    assert board.placements("run_b.1", "reactor/main", [90, 270])  # an all-open card fits sideways
    relocate(game, "run_b.1", "exploration_deck")
    game.state.pending = None
    game.machine.run()
    take(game, "explore", c=f"trooper.{game.state.current}")
    assert {o["rotation"] for o in game.pending.options} == {0, 180}


def test_two_security_doors_may_not_meet():
    game = new_game(5, seed=1)
    lay_tile(game, "run_a", 5, 5, 0)  # alone, its security door on the north side
    board = game.machine.board()
    # team_search_c has a security door on its printed north side, an open one south
    assert not board.fits("team_search_c", (5, 4), 180)  # security against security
    assert board.fits("team_search_c", (5, 4), 0)        # open against security
    joins = game.ruleset.data.board.joins
    assert joins[("security", "security")] is None
    assert joins[("open", "wall")] is None
    assert joins[("open", "security")] == "security"


def test_explore_places_the_top_card_through_a_doorway():
    game = new_game(5, seed=1)
    p = game.state.current
    top = game.state.zones["exploration_deck"][0]
    take(game, "explore", c=f"trooper.{p}")
    assert game.pending.kind == "choose"
    spot = game.pending.options[0]
    game.choose(0)
    assert game.state.tiles[top] == [spot["x"], spot["y"], spot["rotation"]]
    assert game.state.entities[p]["props"]["ap"] == 3
    # exploring does not move the character
    assert game.state.entities[f"trooper.{p}"]["at"] == "reactor/main"


def _walled_in_station(game):
    """Reactor surrounded so that only the west room has a free doorway (a security door)."""
    lay_tile(game, "hive", 0, -1, 0)               # doorway south into the Reactor, walls outside
    lay_tile(game, "sick_bay_annex", 1, 0, 90)     # doorway west into the Reactor
    lay_tile(game, "run_a", 0, 1, 90)              # open north into the Reactor, security east
    lay_tile(game, "team_search_c", -1, 0, 270)    # open east into the Reactor, security west
    return "team_search_c/main"


def test_a_card_that_fits_here_nowhere_but_elsewhere_cannot_be_explored_here():
    game = new_game(5, seed=1)
    west = _walled_in_station(game)
    p = game.state.current
    relocate(game, f"trooper.{p}", west)
    relocate(game, "run_b.1", "exploration_deck")  # open on all sides: fits west of the west room
    game.state.pending = None
    game.machine.run()
    legal = options(game, "explore")
    assert {"c": f"trooper.{p}"} in legal          # from the west room it fits
    assert {"c": f"android.{p}"} not in legal      # from the Reactor it does not, yet it fits elsewhere
    assert game.why_not("explore", {"c": f"android.{p}"}) == "the next card cannot be placed here but fits elsewhere"


def test_a_card_that_fits_nowhere_goes_under_the_deck_once_per_turn():
    game = new_game(5, seed=1)
    west = _walled_in_station(game)
    p = game.state.current
    relocate(game, f"trooper.{p}", west)
    relocate(game, "run_b.1", "exploration_deck")
    relocate(game, "terminal_annex", "exploration_deck")  # walls on three sides: fits nowhere now
    game.state.pending = None
    game.machine.run()
    assert {"c": f"trooper.{p}"} in options(game, "explore")
    take(game, "explore", c=f"trooper.{p}")
    assert game.pending.kind == "choose"  # the open card fits west of the west room, either way up
    assert {(o["x"], o["y"]) for o in game.pending.options} == {(-2, 0)}
    game.choose(0)
    s = game.state
    assert s.zones["exploration_deck"][-1] == "terminal_annex"
    assert s.tiles["run_b.1"] == [-2, 0, 0] or s.tiles["run_b.1"] == [-2, 0, 180]
    assert s.vars["turn"]["explore_retry_used"] is True
    # the same card on top again: the free retry is spent for this turn
    relocate(game, "terminal_annex", "exploration_deck")
    game.state.pending = None
    game.machine.run()
    assert options(game, "explore") == []


def test_the_hive_is_turned_sideways_when_it_fits_nowhere_upright():
    game = new_game(5, seed=1)
    west = _walled_in_station(game)
    lay_tile(game, "terminal_annex", 0, -1, 0)  # the Hive's place in the shell goes to the annex
    game.state.tiles.pop("hive")
    game.machine.invalidate()
    p = game.state.current
    relocate(game, f"trooper.{p}", west)
    relocate(game, "hive", "exploration_deck")
    game.state.pending = None
    game.machine.run()
    take(game, "explore", c=f"trooper.{p}")
    assert game.state.tiles["hive"] == [-2, 0, 270]  # its doorway faces the security door
    # placing the Hive pauses the game for an automatic heat scan
    assert any(e["type"] == "heat_scan" for e in game.events)


def test_move_through_open_doorways_but_not_closed_security_doors():
    game = new_game(5, seed=1)
    lay_tile(game, "run_a", 0, -1, 180)   # printed north security door now faces... south wall side; open side faces east
    lay_tile(game, "team_search_c", 1, 0, 0)
    game.state.pending = None
    game.machine.run()
    p = game.state.current
    moves = options(game, "move")
    targets = {m["r"] for m in moves if m["c"] == f"trooper.{p}"}
    board = game.machine.board()
    for r in board.connected("reactor/main"):
        kind = board.connection("reactor/main", r)
        assert (r in targets) == (kind == "open")


def test_a_keycard_in_the_play_area_opens_security_doors_for_its_owner_only():
    game = new_game(5, seed=1)
    lay_tile(game, "run_a", 0, 1, 0)   # security door north, facing the Reactor's open south side
    p = game.state.current
    assert game.machine.board().connection("reactor/main", "run_a/main") == "security"
    game.state.pending = None
    game.machine.run()
    assert {"c": f"trooper.{p}", "r": "run_a/main"} not in options(game, "move")
    relocate(game, "keycard.1", f"play_area:{p}")
    game.state.pending = None
    game.machine.run()
    assert {"c": f"trooper.{p}", "r": "run_a/main"} in options(game, "move")


def test_search_draws_the_top_card_and_flips_the_room():
    game = new_game(5, seed=1)
    lay_tile(game, "team_search_a.1", -1, 0, 180)
    p = game.state.current
    relocate(game, f"trooper.{p}", "team_search_a.1/main")
    relocate(game, "armor.1", "search_deck")
    hand = len(game.state.zones[f"hand:{p}"])
    game.state.pending = None
    game.machine.run()
    take(game, "search", c=f"trooper.{p}")
    s = game.state
    assert "armor.1" in s.zones[f"hand:{p}"] and len(s.zones[f"hand:{p}"]) == hand + 1
    assert s.entities["team_search_a.1"]["props"]["searched"] is True
    # the Reactor shows no icon: it cannot be searched
    assert game.why_not("search", {"c": f"android.{p}"}) == "this room shows no icon"


def test_searching_a_searched_room_spawns_a_parasite_before_the_draw():
    game = new_game(5, seed=1)
    lay_tile(game, "team_search_a.1", -1, 0, 180)
    game.state.entities["team_search_a.1"]["props"]["searched"] = True
    p = game.state.current
    relocate(game, f"trooper.{p}", "team_search_a.1/main")
    relocate(game, "gas_can.1", "search_deck")
    game.state.forced_rolls["d4"] = [2]  # east: into the Reactor
    game.state.pending = None
    game.machine.run()
    take(game, "search", c=f"trooper.{p}")
    kinds = [e["type"] for e in game.events]
    spawn = len(kinds) - 1 - kinds[::-1].index("parasite_spawned")
    drew = max(i for i, e in enumerate(game.events) if e["type"] == "moved" and e["entity"] == "gas_can.1")
    assert spawn < drew
    assert game.events[spawn]["room"] == "reactor/main"


def test_a_parasite_alert_drawn_is_discarded_resolved_and_not_replaced():
    game = new_game(5, seed=1)
    lay_tile(game, "team_search_a.1", -1, 0, 180)
    p = game.state.current
    relocate(game, f"trooper.{p}", "team_search_a.1/main")
    relocate(game, "parasite_alert.1", "search_deck")
    hand = list(game.state.zones[f"hand:{p}"])
    game.state.forced_rolls["d4"] = [4]  # west: nothing there, so in the room itself
    game.state.pending = None
    game.machine.run()
    take(game, "search", c=f"trooper.{p}")
    s = game.state
    assert s.zones[f"hand:{p}"] == hand
    assert s.zones["search_discard"][0] == "parasite_alert.1"
    assert any(s.entities[x]["kind"] == "parasite" for x in s.zones["team_search_a.1/main"])


def test_the_first_search_of_a_storage_room_draws_three_then_one():
    game = new_game(5, seed=1)
    lay_tile(game, "storage_a", -1, 0, 180)
    p = game.state.current
    relocate(game, f"trooper.{p}", "storage_a/main")
    for card in ("armor.1", "armor.2", "armor.3", "armor.4"):
        relocate(game, card, "search_deck")
    hand = len(game.state.zones[f"hand:{p}"])
    game.state.pending = None
    game.machine.run()
    take(game, "search", c=f"trooper.{p}")
    assert len(game.state.zones[f"hand:{p}"]) == hand + 3
    game.state.forced_rolls["d4"] = [4]
    take(game, "search", c=f"trooper.{p}")
    assert len(game.state.zones[f"hand:{p}"]) == hand + 4
