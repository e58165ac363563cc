"""How the game ends, and players who are out (rulebook-en: End Game Conditions; 5. Perform
Heat Scan; 1. Explore (the Hive); The Character Cards in Detail)."""


from panic_station import end_turn, lay_tile, options, quiet_start, relocate, run_procedure, take
from panic_station import set_hand as _hand, put as _put, reoffer as _reoffer

HIVE = "hive/main"


def _begin(players=5, seed=1):
    game, p, others = quiet_start(players, seed)
    for q in game.state.players:
        game.state.entities[q]["props"]["infected"] = False
    return game, p, others


def _infect(game, *players):
    for q in players:
        game.state.entities[q]["props"]["infected"] = True


def _kill(game, *characters):
    """Dead as the rules leave them: no health, off the board."""
    for c in characters:
        game.state.entities[c]["props"]["health"] = 0
        relocate(game, c, None)


def _kill_player(game, q):
    _kill(game, f"trooper.{q}", f"android.{q}")


def _gas_cans():
    return [f"gas_can.{i}" for i in range(1, 13)]


def _winners(game):
    return sorted(game.result["winners"])


# ---------------------------------------------------------------- heat scans

def test_a_heat_scan_showing_every_survivor_infected_ends_the_game_but_the_last_infected_loses():
    game, p, (a, b, c, d) = _begin()
    _infect(game, a, b, c)
    game.state.vars["game"]["last_infected"] = c
    _kill_player(game, p)
    _kill_player(game, d)
    run_procedure(game, "heat_scan")
    assert game.over
    assert _winners(game) == sorted([a, b])


def test_the_host_who_infected_nobody_wins_alone():
    game, p, (a, b, c, d) = _begin()
    _infect(game, a)
    for q in (p, b, c, d):
        _kill_player(game, q)
    run_procedure(game, "heat_scan")
    assert game.over and _winners(game) == [a]


def test_when_the_last_infected_is_already_dead_the_living_infected_all_win():
    game, p, (a, b, c, d) = _begin()
    _infect(game, a, b, c)
    game.state.vars["game"]["last_infected"] = c
    for q in (p, c, d):
        _kill_player(game, q)
    run_procedure(game, "heat_scan")
    assert game.over and _winners(game) == sorted([a, b])


def test_a_heat_scan_with_a_human_left_lets_the_game_go_on():
    game, p, (a, b, c, d) = _begin()
    _infect(game, a, b)
    run_procedure(game, "heat_scan")
    assert not game.over
    scan = [e for e in game.events if e["type"] == "heat_scan"][-1]
    assert (scan["infected"], scan["uninfected"]) == (2, 3)


def test_the_heat_scan_counts_only_living_players():
    game, p, (a, b, c, d) = _begin()
    _infect(game, a)
    _kill_player(game, b)
    run_procedure(game, "heat_scan")
    scan = [e for e in game.events if e["type"] == "heat_scan"][-1]
    assert (scan["infected"], scan["uninfected"]) == (1, 3)


def test_one_human_left_with_no_gas_can_in_hand_or_search_deck_loses_to_the_infected():
    game, p, (a, b, c, d) = _begin()
    _infect(game, a, b, c, d)
    game.state.vars["game"]["last_infected"] = d
    _hand(game, p, [f"infection.{p}.{i}" for i in (1, 2, 3)] + ["armor.1", "ammo.1"])
    for g in _gas_cans():
        if game.state.entities[g]["at"] in ("search_deck", f"hand:{p}"):
            relocate(game, g, "search_discard")
    run_procedure(game, "heat_scan")
    assert game.over
    assert _winners(game) == sorted([a, b, c, d])  # "the Host and his infected comrades"


def test_one_human_left_with_a_gas_can_in_the_search_deck_plays_on():
    game, p, (a, b, c, d) = _begin()
    _infect(game, a, b, c, d)
    _hand(game, p, [f"infection.{p}.{i}" for i in (1, 2, 3)] + ["armor.1", "ammo.1"])
    for g in _gas_cans():
        relocate(game, g, "search_discard")
    relocate(game, "gas_can.7", "search_deck", end="bottom")
    run_procedure(game, "heat_scan")
    assert not game.over


def test_one_human_left_with_a_gas_can_in_hand_plays_on():
    game, p, (a, b, c, d) = _begin()
    _infect(game, a, b, c, d)
    for g in _gas_cans():
        relocate(game, g, "search_discard")
    _hand(game, p, [f"infection.{p}.{i}" for i in (1, 2, 3)] + ["gas_can.1", "ammo.1"])
    run_procedure(game, "heat_scan")
    assert not game.over


def test_a_heat_scan_at_a_terminal_can_end_the_game():
    game, p, (a, b, c, d) = _begin()
    _infect(game, p, a, b, c, d)  # c and d die infected: no human was killed off, a scan is needed
    game.state.vars["game"]["last_infected"] = b
    _kill_player(game, c)
    _kill_player(game, d)
    lay_tile(game, "open_terminal", 1, 0, 0)
    _put(game, f"trooper.{p}", "open_terminal/main")
    _reoffer(game)
    take(game, "terminal_heat_scan", c=f"trooper.{p}")
    assert game.over and _winners(game) == sorted([p, a])


# ---------------------------------------------------------------- the Hive found

def test_placing_the_hive_triggers_an_automatic_heat_scan():
    game, p, (a, *_) = _begin()
    _infect(game, a)
    relocate(game, "hive", "exploration_deck")
    _reoffer(game)
    take(game, "explore", c=f"trooper.{p}")
    while game.pending and game.pending.kind == "choose":
        game.choose(0)
    kinds = [e["type"] for e in game.events]
    placed = max(i for i, e in enumerate(game.events) if e["type"] == "placed" and e["tile"] == "hive")
    assert "heat_scan" in kinds[placed:]
    assert not game.over


def test_the_hive_scan_ends_the_game_when_every_survivor_is_infected():
    game, p, others = _begin()
    _infect(game, p, *others)
    game.state.vars["game"]["last_infected"] = others[-1]
    relocate(game, "hive", "exploration_deck")
    _reoffer(game)
    take(game, "explore", c=f"trooper.{p}")
    while game.pending and game.pending.kind == "choose":
        game.choose(0)
    assert game.over
    assert _winners(game) == sorted([p] + others[:-1])


def test_a_hive_revealed_from_a_terminal_also_triggers_the_heat_scan():
    game, p, others = _begin()
    _infect(game, p, *others)
    lay_tile(game, "open_terminal", 1, 0, 0)
    _put(game, f"trooper.{p}", "open_terminal/main")
    relocate(game, "hive", "exploration_deck")
    _reoffer(game)
    take(game, "terminal_reveal_location", c=f"trooper.{p}")
    while game.pending and game.pending.kind == "choose":
        game.choose(0)
    assert "hive" in game.state.tiles
    assert [e for e in game.events if e["type"] == "heat_scan"]
    assert game.over and game.result["reason"] == "heat scan: every survivor is infected"


def _closed_station(game):
    """Every free spot next to a doorway faces two doorways: the one-doorway Hive fits nowhere."""
    lay_tile(game, "team_search_a.1", -1, -1, 0)    # doorways east and south
    lay_tile(game, "team_search_a.2", 1, 1, 180)    # doorways west and north
    assert game.machine.board().placements_anywhere("hive", [0, 90, 180, 270]) == []


def test_a_hive_that_fits_nowhere_goes_back_on_top_while_the_next_card_is_placed():
    game, p, _ = _begin()
    _closed_station(game)
    relocate(game, "run_b.1", "exploration_deck")
    relocate(game, "hive", "exploration_deck")
    _reoffer(game)
    take(game, "explore", c=f"trooper.{p}")
    while game.pending and game.pending.kind == "choose":
        game.choose(0)
    assert "run_b.1" in game.state.tiles
    assert game.state.zones["exploration_deck"][0] == "hive"
    assert not game.over


def test_a_hive_that_is_the_last_card_and_fits_nowhere_gives_the_infected_the_win():
    game, p, (a, b, *_) = _begin()
    _infect(game, a, b)
    _kill(game, f"trooper.{b}", f"android.{b}")
    _closed_station(game)
    for card in list(game.state.zones["exploration_deck"]):
        relocate(game, card, "out_of_game")
    relocate(game, "hive", "exploration_deck")
    _reoffer(game)
    take(game, "explore", c=f"trooper.{p}")
    assert game.over
    assert _winners(game) == [a]  # only living infected players


# ---------------------------------------------------------------- burning the Hive

def _at_the_hive(game, p, hand):
    lay_tile(game, "hive", 0, -1, 0)  # its doorway south, into the Reactor
    _put(game, f"trooper.{p}", HIVE)
    _put(game, f"android.{p}", HIVE)
    _hand(game, p, hand)
    _reoffer(game)


def test_an_uninfected_trooper_in_the_hive_burns_it_with_three_gas_cans_and_the_living_humans_win():
    game, p, (a, b, c, d) = _begin()
    _infect(game, a)
    _kill_player(game, c)  # a dead human shares no victory
    _at_the_hive(game, p, [f"infection.{p}.1", f"infection.{p}.2", "gas_can.1", "gas_can.2", "gas_can.3"])
    # five cards in hand: burning the Hive may break the five-card rule
    assert game.why_not("burn_hive", {"c": f"trooper.{p}"}) is None
    take(game, "burn_hive", c=f"trooper.{p}")
    assert game.over
    assert _winners(game) == sorted([p, b, d])
    assert all(game.state.entities[g]["at"] != f"hand:{p}" for g in ("gas_can.1", "gas_can.2", "gas_can.3"))


def test_burning_the_hive_costs_one_ap():
    game, p, _ = _begin()
    _at_the_hive(game, p, [f"infection.{p}.1", "gas_can.1", "gas_can.2", "gas_can.3", "armor.1", "armor.2"])
    assert game.why_not("burn_hive", {"c": f"trooper.{p}"}) is None
    game.state.entities[p]["props"]["ap"] = 0
    assert game.why_not("burn_hive", {"c": f"trooper.{p}"}) == "not enough ap"


def test_burning_the_hive_is_allowed_from_a_hand_of_only_the_three_gas_cans():
    game, p, _ = _begin()
    _at_the_hive(game, p, ["gas_can.1", "gas_can.2", "gas_can.3"])
    take(game, "burn_hive", c=f"trooper.{p}")
    assert game.over and p in game.result["winners"]
    assert game.state.zones[f"hand:{p}"] == []


def test_an_infected_player_cannot_burn_the_hive():
    game, p, _ = _begin()
    _infect(game, p)
    _at_the_hive(game, p, [f"infection.{p}.1", "gas_can.1", "gas_can.2", "gas_can.3", "armor.1", "armor.2"])
    assert game.why_not("burn_hive", {"c": f"trooper.{p}"}) == "only an uninfected Trooper can burn the Hive"
    assert options(game, "burn_hive") == []


def test_an_android_cannot_burn_the_hive():
    game, p, _ = _begin()
    _at_the_hive(game, p, [f"infection.{p}.1", "gas_can.1", "gas_can.2", "gas_can.3", "armor.1", "armor.2"])
    _put(game, f"trooper.{p}", "reactor/main")
    _reoffer(game)
    assert options(game, "burn_hive") == []
    assert game.why_not("burn_hive", {"c": f"android.{p}"}) is not None


def test_burning_the_hive_takes_three_gas_cans():
    game, p, _ = _begin()
    _at_the_hive(game, p, [f"infection.{p}.1", "gas_can.1", "gas_can.2", "armor.1", "armor.2", "armor.3"])
    assert game.why_not("burn_hive", {"c": f"trooper.{p}"}) == "not enough gas cans"


def test_a_trooper_outside_the_hive_cannot_burn_it():
    game, p, _ = _begin()
    _at_the_hive(game, p, [f"infection.{p}.1", "gas_can.1", "gas_can.2", "gas_can.3", "armor.1", "armor.2"])
    _put(game, f"trooper.{p}", "reactor/main")
    _reoffer(game)
    assert options(game, "burn_hive") == []


# ---------------------------------------------------------------- deaths

def test_when_every_trooper_is_dead_the_living_infected_win():
    game, p, (a, b, c, d) = _begin()
    _infect(game, a, b)
    _kill(game, *[f"trooper.{q}" for q in game.state.players])
    _kill(game, f"android.{b}")  # b is infected but dead: no share in the victory
    _reoffer(game)
    assert game.over
    assert game.result["reason"] == "troopers_all_dead"
    assert _winners(game) == [a]


def test_the_game_goes_on_when_the_host_dies():
    game, p, (a, *_) = _begin()
    _hand(game, a, [f"infection.{a}.{i}" for i in (1, 2, 3)] + ["host", "armor.1"])
    _infect(game, a)
    _put(game, f"trooper.{a}", "reactor/main")
    _put(game, f"android.{a}", "reactor/main")
    run_procedure(game, "wound", f"trooper.{a}", 4)
    run_procedure(game, "wound", f"android.{a}", 4)
    assert not game.over
    assert game.pending.kind == "action" and game.pending.player == p


def test_a_player_whose_two_characters_die_loses_all_their_cards():
    game, p, (a, *_) = _begin()
    _hand(game, a, [f"infection.{a}.{i}" for i in (1, 2, 3)] + ["gas_can.1", "armor.1"])
    relocate(game, "keycard.1", f"play_area:{a}")
    _put(game, f"trooper.{a}", "reactor/main")
    _put(game, f"android.{a}", "reactor/main")
    run_procedure(game, "wound", f"trooper.{a}", 4)
    # one character dead: the player keeps every card
    assert len(game.state.zones[f"hand:{a}"]) == 5
    assert game.state.zones[f"play_area:{a}"] == ["keycard.1"]
    run_procedure(game, "wound", f"android.{a}", 4)
    assert game.state.zones[f"hand:{a}"] == [] and game.state.zones[f"play_area:{a}"] == []
    for card in ("gas_can.1", "armor.1", "keycard.1", f"infection.{a}.1"):
        assert game.state.entities[card]["at"] == "out_of_game"
    assert any(e["type"] == "player_out" and e["player"] == a for e in game.events)


def test_a_player_with_both_characters_dead_is_skipped():
    game, p, others = _begin()
    s = game.state
    seats = s.players
    nxt = seats[(seats.index(p) + 1) % len(seats)]
    after = seats[(seats.index(p) + 2) % len(seats)]
    _put(game, f"trooper.{nxt}", "reactor/main")
    _put(game, f"android.{nxt}", "reactor/main")
    run_procedure(game, "wound", f"trooper.{nxt}", 4)
    run_procedure(game, "wound", f"android.{nxt}", 4)
    end_turn(game)
    assert game.state.current == after
    assert not any(e["type"] == "turn_started" and e["player"] == nxt for e in game.events)


def test_a_dead_players_cards_leave_the_game_without_being_shown():
    game, p, (a, b, *_) = _begin()
    _hand(game, a, [f"infection.{a}.{i}" for i in (1, 2, 3)] + ["host", "gas_can.1"])
    _infect(game, a)
    _put(game, f"trooper.{a}", "reactor/main")
    _put(game, f"android.{a}", "reactor/main")
    run_procedure(game, "wound", f"trooper.{a}", 4)
    run_procedure(game, "wound", f"android.{a}", 4)
    assert game.state.entities["host"]["at"] == "out_of_game"
    seen = [e for e in game.events_for(b) if e["type"] == "moved" and e["source"] == f"hand:{a}"]
    assert seen and all(e["entity"] == "?" for e in seen)
    assert "host" not in str(game.view(b)["zones"].get("out_of_game"))
