"""Room types, terminals and the first turn (rulebook-en: Room Types; 5. Activate Computer
Terminal; 6. Heal in Sick Bay; 4. Search Location, first turn)."""


from panic_station import end_turn, lay_tile, new_game, options, quiet_start, relocate, run_procedure, take
from panic_station import ap as _ap, set_hand as _hand, health as _health, put as _put, reoffer as _reoffer

FORCED = "first attack or trade with the character you met"


def _begin(players=5, seed=1, first_turn=False):
    return quiet_start(players, seed, first_turn)


def _parasites_in(game, room):
    s = game.state
    return [x for x in s.zones[room] if s.entities[x]["kind"] == "parasite"]


def _spawns(game):
    return [e for e in game.events if e["type"] == "parasite_spawned"]


def _index(game, kind, **match):
    return max(i for i, e in enumerate(game.events) if e["type"] == kind and all(e.get(k) == v for k, v in match.items()))


# ---------------------------------------------------------------- Run

RUN = "run_b.1/main"          # open on all sides, west of the Reactor
BEYOND = "plain_a/main"       # further west


def _run_station(game):
    lay_tile(game, "run_b.1", -1, 0, 0)
    lay_tile(game, "plain_a", -2, 0, 0)


def test_entering_a_run_room_gives_one_free_move():
    game, p, _ = _begin()
    _run_station(game)
    _reoffer(game)
    take(game, "move", c=f"trooper.{p}", r=RUN)
    ap = _ap(game, p)
    assert {"r": BEYOND} in options(game, "run_through")
    take(game, "run_through", r=BEYOND)
    assert game.state.entities[f"trooper.{p}"]["at"] == BEYOND
    assert _ap(game, p) == ap  # the free move costs nothing
    assert options(game, "run_through") == []  # one free move per entering


def test_a_character_that_ran_through_may_not_search_the_run_room():
    game, p, _ = _begin()
    _run_station(game)
    _reoffer(game)
    take(game, "move", c=f"trooper.{p}", r=RUN)
    take(game, "run_through", r=BEYOND)
    take(game, "move", c=f"trooper.{p}", r=RUN)
    assert game.why_not("search", {"c": f"trooper.{p}"}) == "a character running through may not search the room"


def test_searching_the_run_room_gives_up_its_free_move():
    game, p, _ = _begin()
    _run_station(game)
    _reoffer(game)
    take(game, "move", c=f"trooper.{p}", r=RUN)
    take(game, "search", c=f"trooper.{p}")
    assert options(game, "run_through") == []


def test_no_free_move_when_another_players_character_is_in_the_run_room():
    game, p, (q, *_) = _begin()
    _run_station(game)
    _put(game, f"android.{q}", RUN)
    _reoffer(game)
    take(game, "move", c=f"trooper.{p}", r=RUN)
    assert options(game, "run_through") == []
    take(game, "trade", partner=f"android.{q}")
    while game.pending.kind == "choose":
        game.choose(0)
    assert game.pending.player == p
    assert options(game, "run_through") == []


def test_running_into_a_room_with_another_players_character_forces_a_trade():
    game, p, (q, *_) = _begin()
    _run_station(game)
    _put(game, f"android.{q}", BEYOND)
    _reoffer(game)
    take(game, "move", c=f"trooper.{p}", r=RUN)
    take(game, "run_through", r=BEYOND)
    assert options(game, "trade") == [{"partner": f"android.{q}"}]
    assert {"action": "end_turn"} not in game.pending.options
    assert game.why_not("move", {"c": f"trooper.{p}", "r": RUN}) == FORCED


def test_the_own_other_character_in_the_run_room_does_not_stop_the_free_move():
    game, p, _ = _begin()
    _run_station(game)
    _put(game, f"android.{p}", RUN)
    _reoffer(game)
    take(game, "move", c=f"trooper.{p}", r=RUN)
    assert {"r": BEYOND} in options(game, "run_through")


# ---------------------------------------------------------------- Parasite Alert

ALERT = "parasite_alert_b/main"  # north of the Reactor, open on its south side


def test_entering_a_parasite_alert_room_makes_a_parasite_appear_that_neither_moves_nor_attacks():
    game, p, _ = _begin()
    lay_tile(game, "parasite_alert_b", 0, -1, 0)
    _reoffer(game)
    game.state.forced_rolls["d4"] = [3]  # south: the Reactor
    take(game, "move", c=f"trooper.{p}", r=ALERT)
    assert len(_spawns(game)) == 1 and _spawns(game)[0]["room"] == "reactor/main"
    assert len(_parasites_in(game, "reactor/main")) == 1
    assert _health(game, f"android.{p}") == 4  # the android in the Reactor is not attacked now


def test_a_parasite_with_no_room_in_the_rolled_direction_appears_beside_the_character():
    game, p, _ = _begin()
    lay_tile(game, "parasite_alert_b", 0, -1, 0)
    _reoffer(game)
    game.state.forced_rolls["d4"] = [1]  # north: nothing built
    take(game, "move", c=f"trooper.{p}", r=ALERT)
    assert len(_parasites_in(game, ALERT)) == 1


def test_a_searched_parasite_alert_room_spawns_twice_when_entered_and_searched():
    game, p, _ = _begin()
    lay_tile(game, "parasite_alert_b", 0, -1, 0)
    game.state.entities["parasite_alert_b"]["props"]["searched"] = True
    relocate(game, "armor.1", "search_deck")
    _reoffer(game)
    game.state.forced_rolls["d4"] = [1, 1]
    take(game, "move", c=f"trooper.{p}", r=ALERT)
    assert len(_spawns(game)) == 1
    take(game, "search", c=f"trooper.{p}")
    assert len(_spawns(game)) == 2
    assert len(_parasites_in(game, ALERT)) == 2
    drew = _index(game, "moved", entity="armor.1")
    assert _index(game, "parasite_spawned") < drew  # the spawn comes before the search


# ---------------------------------------------------------------- Team Search

TEAM = "team_search_a.1/main"  # south of the Reactor


def _team(game, p, q):
    lay_tile(game, "team_search_a.1", 0, 1, 180)
    _put(game, f"trooper.{p}", TEAM)
    _put(game, f"android.{q}", TEAM)
    relocate(game, "armor.1", "search_deck")
    relocate(game, "armor.2", "search_deck")


def test_a_team_search_draws_two_cards_one_for_each_and_only_the_active_player_pays():
    game, p, (q, *_) = _begin()
    _team(game, p, q)
    mine, theirs = set(game.state.zones[f"hand:{p}"]), set(game.state.zones[f"hand:{q}"])
    deck = len(game.state.zones["search_deck"])
    _reoffer(game)
    ap, ap_q = _ap(game, p), _ap(game, q)
    take(game, "team_search", c=f"trooper.{p}", partner=q)
    got_p = set(game.state.zones[f"hand:{p}"]) - mine
    got_q = set(game.state.zones[f"hand:{q}"]) - theirs
    assert len(got_p) == 1 and len(got_q) == 1
    assert got_p | got_q == {"armor.1", "armor.2"}
    assert len(game.state.zones["search_deck"]) == deck - 2
    assert _ap(game, p) == ap - 1 and _ap(game, q) == ap_q
    assert game.state.entities["team_search_a.1"]["props"]["searched"] is True


def test_a_team_search_room_may_be_searched_solo():
    game, p, (q, *_) = _begin()
    _team(game, p, q)
    _reoffer(game)
    assert game.why_not("search", {"c": f"trooper.{p}"}) is None


def test_no_team_search_after_attacking_a_player_in_that_room():
    game, p, (q, *_) = _begin()
    _team(game, p, q)
    _put(game, f"android.{p}", TEAM)
    relocate(game, "ammo.1", f"play_area:{p}")
    _reoffer(game)
    take(game, "fire_gun", shooter=f"android.{p}", target=f"android.{q}")
    while game.pending.kind == "reaction":
        game.choose_option({"reaction": "pass"})
    assert game.why_not("team_search", {"c": f"trooper.{p}", "partner": q}) == \
        "you attacked a player in this room this turn"


def test_a_team_search_partner_must_stand_in_the_room():
    game, p, (q, r, *_) = _begin()
    _team(game, p, q)
    _put(game, f"trooper.{r}", "reactor/main")
    _reoffer(game)
    assert {o["partner"] for o in options(game, "team_search")} == {q}


# ---------------------------------------------------------------- Sick Bay

SICK = "sick_bay_annex/top"


def _sick_bay(game):
    lay_tile(game, "sick_bay_annex", 0, 1, 180)  # its doorway north, into the Reactor


def test_the_sick_bay_heals_two_for_one_ap_and_is_flipped():
    game, p, _ = _begin()
    _sick_bay(game)
    _put(game, f"trooper.{p}", SICK)
    game.state.entities[f"trooper.{p}"]["props"]["health"] = 1
    _reoffer(game)
    ap = _ap(game, p)
    take(game, "heal_in_sick_bay", c=f"trooper.{p}")
    assert _health(game, f"trooper.{p}") == 3
    assert _ap(game, p) == ap - 1  # the health won back brings no AP this turn
    assert game.state.entities["sick_bay_annex"]["props"]["searched"] is True
    assert _spawns(game) == []  # it was still black: no parasite


def test_the_sick_bay_may_heal_one_each_to_both_characters_of_the_player():
    game, p, _ = _begin()
    _sick_bay(game)
    _put(game, f"trooper.{p}", SICK)
    _put(game, f"android.{p}", SICK)
    game.state.entities[f"trooper.{p}"]["props"]["health"] = 2
    game.state.entities[f"android.{p}"]["props"]["health"] = 2
    _reoffer(game)
    take(game, "heal_in_sick_bay", c=f"trooper.{p}")
    assert game.pending.kind == "choose"
    game.choose_option(f"trooper.{p}")
    game.choose_option(f"android.{p}")
    assert (_health(game, f"trooper.{p}"), _health(game, f"android.{p}")) == (3, 3)


def test_healing_in_a_red_sick_bay_first_makes_a_parasite_appear():
    game, p, _ = _begin()
    _sick_bay(game)
    game.state.entities["sick_bay_annex"]["props"]["searched"] = True
    _put(game, f"trooper.{p}", SICK)
    game.state.entities[f"trooper.{p}"]["props"]["health"] = 2
    _reoffer(game)
    game.state.forced_rolls["d4"] = [1]
    take(game, "heal_in_sick_bay", c=f"trooper.{p}")
    assert len(_spawns(game)) == 1
    assert _index(game, "parasite_spawned") < _index(game, "healed")
    assert _health(game, f"trooper.{p}") == 4


def test_the_sick_bay_heals_once_per_turn():
    game, p, _ = _begin()
    _sick_bay(game)
    _put(game, f"trooper.{p}", SICK)
    game.state.entities[f"trooper.{p}"]["props"]["health"] = 1
    _reoffer(game)
    take(game, "heal_in_sick_bay", c=f"trooper.{p}")
    assert _health(game, f"trooper.{p}") == 3
    assert game.why_not("heal_in_sick_bay", {"c": f"trooper.{p}"}) == "already done 1 time(s) this turn"


def test_health_healed_in_the_sick_bay_gives_its_ap_at_the_next_turn():
    game, p, _ = _begin()
    _sick_bay(game)
    _put(game, f"trooper.{p}", SICK)
    game.state.entities[f"trooper.{p}"]["props"]["health"] = 1
    game.state.entities[p]["props"]["ap"] = 3  # 1 (trooper at 1) + 2 (android at 4)
    _reoffer(game)
    take(game, "heal_in_sick_bay", c=f"trooper.{p}")
    assert _ap(game, p) == 2
    while game.state.current == p:
        end_turn(game)
    while game.state.current != p:
        end_turn(game)
    assert _ap(game, p) == 4  # the trooper at 3 health counts from the new turn


# ---------------------------------------------------------------- Computer terminals

TERMINAL = "open_terminal/main"    # east of the Reactor
ANNEX = "terminal_annex/top"      # a second terminal, north of the Reactor


def _terminals(game, p):
    lay_tile(game, "open_terminal", 1, 0, 0)
    lay_tile(game, "terminal_annex", 0, -1, 0)
    _put(game, f"trooper.{p}", TERMINAL)
    _put(game, f"android.{p}", ANNEX)


def test_a_heat_scan_at_a_terminal_costs_one_ap_and_tells_everyone_only_the_count():
    game, p, (q, *_) = _begin()
    _terminals(game, p)
    _reoffer(game)
    ap = _ap(game, p)
    take(game, "terminal_heat_scan", c=f"trooper.{p}")
    assert _ap(game, p) == ap - 1
    infected = sum(game.state.entities[x]["props"]["infected"] for x in game.state.players)
    for viewer in game.state.players:
        scans = [e for e in game.events_for(viewer) if e["type"] == "heat_scan"]
        assert len(scans) == 1
        assert scans[0]["infected"] == infected and scans[0]["uninfected"] == 5 - infected
        assert set(scans[0]) <= {"type", "infected", "uninfected", "seq"}  # nobody is named
    assert not game.over


def test_only_one_terminal_function_per_turn_even_with_two_terminals():
    game, p, _ = _begin()
    _terminals(game, p)
    relocate(game, "run_a", "exploration_deck")
    _reoffer(game)
    take(game, "terminal_open_doors", c=f"android.{p}")
    done = "already done 1 time(s) this turn"
    assert game.why_not("terminal_heat_scan", {"c": f"trooper.{p}"}) == done
    assert game.why_not("terminal_open_doors", {"c": f"trooper.{p}"}) == done
    assert game.why_not("terminal_reveal_location", {"c": f"trooper.{p}"}) == done


def test_using_a_terminal_flips_it_and_a_red_terminal_makes_a_parasite_appear_first():
    game, p, _ = _begin()
    _terminals(game, p)
    _reoffer(game)
    take(game, "terminal_heat_scan", c=f"trooper.{p}")
    assert game.state.entities["open_terminal"]["props"]["searched"] is True
    assert _spawns(game) == []
    # the same terminal next turn: now red
    game, p, _ = _begin()
    _terminals(game, p)
    game.state.entities["open_terminal"]["props"]["searched"] = True
    _reoffer(game)
    game.state.forced_rolls["d4"] = [2]
    take(game, "terminal_heat_scan", c=f"trooper.{p}")
    assert len(_spawns(game)) == 1
    assert _index(game, "parasite_spawned") < _index(game, "heat_scan")


def test_open_all_security_doors_lets_every_player_through_until_the_next_parasite_phase():
    game, p, _ = _begin()
    _terminals(game, p)
    lay_tile(game, "run_a", 0, 1, 0)  # a security door against the Reactor's south doorway
    _put(game, f"trooper.{p}", "reactor/main")
    _put(game, f"android.{p}", TERMINAL)
    _reoffer(game)
    assert {"c": f"trooper.{p}", "r": "run_a/main"} not in options(game, "move")
    take(game, "terminal_open_doors", c=f"android.{p}")
    assert {"c": f"trooper.{p}", "r": "run_a/main"} in options(game, "move")
    # also through the annex's inner security door
    assert game.machine.board().connection("terminal_annex/bottom", "terminal_annex/top") == "security"
    end_turn(game)
    nxt = game.state.current
    assert nxt != p and game.state.entities[f"trooper.{nxt}"]["at"] == "reactor/main"
    assert {"c": f"trooper.{nxt}", "r": "run_a/main"} in options(game, "move")  # another player, no keycard
    game.state.forced_rolls["d4"] = [1]
    run_procedure(game, "parasite_phase", nxt)
    assert {"c": f"trooper.{nxt}", "r": "run_a/main"} not in options(game, "move")


def test_reveal_location_places_the_next_card_beside_any_room_of_the_station():
    game, p, _ = _begin()
    lay_tile(game, "open_terminal", 1, 0, 0)
    lay_tile(game, "plain_a", -1, 0, 0)  # far west, away from the terminal
    _put(game, f"trooper.{p}", TERMINAL)
    relocate(game, "run_b.1", "exploration_deck")  # open all round
    _reoffer(game)
    ap = _ap(game, p)
    take(game, "terminal_reveal_location", c=f"trooper.{p}")
    assert game.pending.kind == "choose" and game.pending.player == p
    spots = {(o["x"], o["y"]) for o in game.pending.options}
    assert (-2, 0) in spots  # beside the western room, nowhere near the terminal
    game.choose(next(i for i, o in enumerate(game.pending.options) if (o["x"], o["y"]) == (-2, 0)))
    assert game.state.tiles["run_b.1"][:2] == [-2, 0]
    assert _ap(game, p) == ap - 1


def test_terminal_functions_need_a_character_at_a_terminal():
    game, p, _ = _begin()
    _reoffer(game)
    assert options(game, "terminal_heat_scan") == []
    assert options(game, "terminal_open_doors") == []


# ---------------------------------------------------------------- first turn: at least one search

def test_on_the_first_turn_the_turn_cannot_end_before_a_search_when_one_is_possible():
    game, p, _ = _begin(first_turn=True)
    lay_tile(game, "team_search_a.1", 0, 1, 180)
    _put(game, f"trooper.{p}", TEAM)
    _reoffer(game)
    assert {"action": "end_turn"} not in game.pending.options
    take(game, "search", c=f"trooper.{p}")
    assert {"action": "end_turn"} in game.pending.options


def test_the_first_turn_search_is_waived_when_no_search_is_possible():
    game, p, _ = _begin(first_turn=True)
    lay_tile(game, "team_search_a.1", 0, 1, 180)
    _put(game, f"trooper.{p}", TEAM)
    _hand(game, p, [f"infection.{p}.{i}" for i in (1, 2, 3)] + ["keycard.1", "armor.1", "armor.2"])
    game.state.entities[p]["props"]["ap"] = 0  # no AP left: only free actions remain
    _reoffer(game)
    assert game.pending.player == p and options(game, "play_item")
    assert {"action": "end_turn"} in game.pending.options


def test_after_the_first_turn_a_turn_may_end_without_searching():
    game, p, _ = _begin(first_turn=False)
    lay_tile(game, "team_search_a.1", 0, 1, 180)
    _put(game, f"trooper.{p}", TEAM)
    _reoffer(game)
    assert {"action": "end_turn"} in game.pending.options


def test_the_first_player_may_not_end_the_first_turn_when_exploring_and_moving_would_allow_a_search():
    game = new_game(5, seed=1)
    p = game.state.current
    assert game.state.vars["turn"]["first_turn"] is True
    relocate(game, "team_search_a.1", "exploration_deck")  # fits beside the Reactor, has an icon
    _reoffer(game)
    assert game.state.entities[p]["props"]["ap"] == 4
    assert {"c": f"trooper.{p}"} in options(game, "explore")
    assert {"action": "end_turn"} not in game.pending.options
