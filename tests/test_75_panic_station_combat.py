"""Shooting, stabbing and grenades (rulebook-en: Team Phase, 3. Fire Gun; Survival and
Betrayal; Heavy Gun; Target Scope; Ammo; Combat Knife; Grenade)."""

import pytest

from panic_station import lay_tile, nobody_infected, options, quiet_start, relocate, take
from panic_station import ap as _ap, set_hand as _hand, health as _health, put as _put, reoffer as _reoffer

WEST = "plain_a/main"   # open doorway east into the Reactor
SOUTH = "run_a/main"    # its security door faces the Reactor's south doorway


def _begin(players=5, seed=1):
    game, p, others = quiet_start(players, seed)
    nobody_infected(game)
    lay_tile(game, "plain_a", -1, 0, 0)
    lay_tile(game, "run_a", 0, 1, 0)
    return game, p, others


def _in_play(game, p, *cards):
    for c in cards:
        relocate(game, c, f"play_area:{p}")


def _at(game, x):
    return game.state.entities[x]["at"]


# ---------------------------------------------------------------- Fire Gun

def test_only_androids_fire_guns():
    game, p, _ = _begin()
    _in_play(game, p, "ammo.1")
    _put(game, "gray_parasite.1", "reactor/main")
    _reoffer(game)
    shooters = {o["shooter"] for o in options(game, "fire_gun")}
    assert shooters == {f"android.{p}"}
    assert game.why_not("fire_gun", {"shooter": f"trooper.{p}", "target": "gray_parasite.1"}) is not None


def test_a_gun_needs_a_bullet_from_an_ammo_card_laid_in_play():
    game, p, _ = _begin()
    _hand(game, p, [f"infection.{p}.{i}" for i in (1, 2, 3)] + ["ammo.1", "armor.1", "armor.2"])
    _put(game, "gray_parasite.1", "reactor/main")
    _reoffer(game)
    args = {"shooter": f"android.{p}", "target": "gray_parasite.1"}
    assert game.why_not("fire_gun", args) == "no bullet: play an ammo card first"  # ammo in hand is useless
    take(game, "play_item", card="ammo.1")
    assert game.why_not("fire_gun", args) is None


def test_a_shot_costs_one_ap_and_kills_a_gray_parasite():
    game, p, _ = _begin()
    _in_play(game, p, "ammo.1")
    _put(game, "gray_parasite.1", "reactor/main")
    _reoffer(game)
    ap = _ap(game, p)
    take(game, "fire_gun", shooter=f"android.{p}", target="gray_parasite.1")
    assert _at(game, "gray_parasite.1") == "parasite_supply"
    assert _ap(game, p) == ap - 1


def test_an_ammo_card_holds_four_bullets_and_is_discarded_when_empty():
    game, p, _ = _begin()
    _in_play(game, p, "ammo.1")
    for i in (1, 2, 3, 4, 5):
        _put(game, f"gray_parasite.{i}", "reactor/main")
    game.state.entities[p]["props"]["ap"] = 6
    _reoffer(game)
    left = []
    for i in (1, 2, 3, 4):
        take(game, "fire_gun", shooter=f"android.{p}", target=f"gray_parasite.{i}")
        left.append(game.state.entities["ammo.1"]["props"]["bullets"] if _at(game, "ammo.1") == f"play_area:{p}" else 0)
    assert left == [3, 2, 1, 0]
    assert _at(game, "ammo.1") == "search_discard"
    assert game.why_not("fire_gun", {"shooter": f"android.{p}", "target": "gray_parasite.5"}) == \
        "no bullet: play an ammo card first"


def test_shooting_another_players_character_wounds_it_by_one():
    game, p, (q, *_) = _begin()
    _in_play(game, p, "ammo.1")
    _put(game, f"trooper.{q}", "reactor/main")
    _reoffer(game)
    take(game, "fire_gun", shooter=f"android.{p}", target=f"trooper.{q}")
    assert _health(game, f"trooper.{q}") == 3


def test_a_character_shot_at_its_last_health_is_eliminated():
    game, p, (q, *_) = _begin()
    _in_play(game, p, "ammo.1")
    _put(game, f"trooper.{q}", "reactor/main")
    game.state.entities[f"trooper.{q}"]["props"]["health"] = 1
    _reoffer(game)
    take(game, "fire_gun", shooter=f"android.{p}", target=f"trooper.{q}")
    assert _at(game, f"trooper.{q}") is None
    assert any(e["type"] == "eliminated" and e["character"] == f"trooper.{q}" for e in game.events)


def test_a_black_parasite_hit_once_is_exchanged_for_a_gray_one_from_the_supply():
    game, p, _ = _begin()
    _in_play(game, p, "ammo.1")
    _put(game, "black_parasite.1", WEST)
    _put(game, f"android.{p}", WEST)
    _reoffer(game)
    take(game, "fire_gun", shooter=f"android.{p}", target="black_parasite.1")
    s = game.state
    assert _at(game, "black_parasite.1") == "parasite_supply"
    assert s.entities["black_parasite.1"]["props"]["side"] == "black"
    here = [x for x in s.zones[WEST] if s.entities[x]["kind"] == "parasite"]
    assert len(here) == 1 and s.entities[here[0]]["props"]["side"] == "gray"


def test_a_black_parasite_hit_once_is_flipped_to_gray_when_no_gray_is_left():
    game, p, _ = _begin()
    _in_play(game, p, "ammo.1")
    for i in range(1, 6):
        _put(game, f"gray_parasite.{i}", SOUTH)  # every gray one is out
    _put(game, "black_parasite.1", "reactor/main")
    _reoffer(game)
    take(game, "fire_gun", shooter=f"android.{p}", target="black_parasite.1")
    assert _at(game, "black_parasite.1") == "reactor/main"
    assert game.state.entities["black_parasite.1"]["props"]["side"] == "gray"
    # a second hit kills it; back in the supply it is a black parasite again
    take(game, "fire_gun", shooter=f"android.{p}", target="black_parasite.1")
    assert _at(game, "black_parasite.1") == "parasite_supply"
    assert game.state.entities["black_parasite.1"]["props"]["side"] == "black"


# ---------------------------------------------------------------- Heavy Gun

def test_the_heavy_gun_fires_two_shots_for_one_ap_at_different_targets():
    game, p, _ = _begin()
    _in_play(game, p, "ammo.1", "heavy_gun.1")
    _put(game, f"android.{p}", WEST)
    _put(game, "gray_parasite.1", WEST)
    _put(game, "gray_parasite.2", WEST)
    _put(game, "gray_parasite.3", WEST)
    _reoffer(game)
    ap = _ap(game, p)
    take(game, "fire_gun", shooter=f"android.{p}", target="gray_parasite.1")
    assert game.pending.kind == "choose" and game.pending.player == p
    # each shot is aimed; holding the second one (none) is allowed
    assert set(game.pending.options) == {"gray_parasite.2", "gray_parasite.3", None}
    game.choose_option("gray_parasite.3")
    assert _at(game, "gray_parasite.1") == "parasite_supply"
    assert _at(game, "gray_parasite.3") == "parasite_supply"
    assert _at(game, "gray_parasite.2") == WEST
    assert _ap(game, p) == ap - 1
    assert game.state.entities["ammo.1"]["props"]["bullets"] == 2  # turned twice


def test_the_heavy_gun_kills_a_black_parasite_with_one_action():
    game, p, _ = _begin()
    _in_play(game, p, "ammo.1", "heavy_gun.1")
    _put(game, f"android.{p}", WEST)
    _put(game, "black_parasite.1", WEST)
    _reoffer(game)
    take(game, "fire_gun", shooter=f"android.{p}", target="black_parasite.1")
    while game.pending.kind == "choose":  # the second shot at what is left of it
        game.choose_option(next(x for x in game.pending.options if x and "parasite" in x))
    s = game.state
    assert not [x for x in s.zones[WEST] if s.entities[x]["kind"] == "parasite"]


def test_the_heavy_gun_can_put_both_shots_into_one_character():
    game, p, (q, *_) = _begin()
    _in_play(game, p, "ammo.1", "heavy_gun.1")
    _put(game, f"android.{p}", WEST)
    _put(game, f"trooper.{q}", WEST)
    _reoffer(game)
    take(game, "fire_gun", shooter=f"android.{p}", target=f"trooper.{q}")
    while game.pending.kind == "choose":
        game.choose_option(f"trooper.{q}")
    assert _health(game, f"trooper.{q}") == 2


def test_the_second_heavy_gun_shot_is_not_forced_into_the_shooters_own_trooper():
    game, p, _ = _begin()
    _in_play(game, p, "ammo.1", "heavy_gun.1")
    _put(game, "gray_parasite.1", "reactor/main")  # both of p's characters stand in the Reactor
    _reoffer(game)
    take(game, "fire_gun", shooter=f"android.{p}", target="gray_parasite.1")
    assert _at(game, "gray_parasite.1") == "parasite_supply"
    assert game.pending.kind == "choose" or _health(game, f"trooper.{p}") == 4


# ---------------------------------------------------------------- Target Scope

def _scope_station(game, p):
    _in_play(game, p, "ammo.1", "target_scope.1")
    _put(game, "gray_parasite.1", WEST)    # through an open doorway
    _put(game, "gray_parasite.2", SOUTH)   # behind a closed security door
    _reoffer(game)
    return {o["target"] for o in options(game, "fire_gun") if o["shooter"] == f"android.{p}"}


def test_without_a_scope_an_android_shoots_only_into_its_own_room():
    game, p, _ = _begin()
    _in_play(game, p, "ammo.1")
    _put(game, "gray_parasite.1", WEST)
    _reoffer(game)
    assert {o["target"] for o in options(game, "fire_gun")} == {f"trooper.{p}"}


def test_a_target_scope_shoots_into_an_adjacent_room_but_not_through_a_closed_security_door():
    game, p, _ = _begin()
    targets = _scope_station(game, p)
    assert "gray_parasite.1" in targets
    assert "gray_parasite.2" not in targets
    take(game, "fire_gun", shooter=f"android.{p}", target="gray_parasite.1")
    assert _at(game, "gray_parasite.1") == "parasite_supply"


def test_a_scope_shoots_through_a_security_door_with_the_own_keycard():
    game, p, _ = _begin()
    _in_play(game, p, "keycard.1")
    assert "gray_parasite.2" in _scope_station(game, p)


def test_a_scope_shoots_through_a_security_door_opened_by_the_terminal():
    game, p, _ = _begin()
    game.state.vars["game"]["security_doors_open"] = True
    assert "gray_parasite.2" in _scope_station(game, p)


def test_another_players_keycard_does_not_open_the_door_for_the_shooter():
    game, p, (q, *_) = _begin()
    _in_play(game, q, "keycard.1")
    assert "gray_parasite.2" not in _scope_station(game, p)


# ---------------------------------------------------------------- Combat Knife

@pytest.mark.parametrize("face,hit", [(1, False), (2, False), (3, True), (4, True)])
def test_the_combat_knife_wounds_on_a_d4_roll_of_three_or_more(face, hit):
    game, p, _ = _begin()
    _in_play(game, p, "combat_knife.1")
    _put(game, "gray_parasite.1", "reactor/main")
    _reoffer(game)
    ap = _ap(game, p)
    game.state.forced_rolls["d4"] = [face]
    take(game, "stab", attacker=f"trooper.{p}", target="gray_parasite.1")
    assert (_at(game, "gray_parasite.1") == "parasite_supply") == hit
    assert _ap(game, p) == ap - 1


def test_troopers_and_androids_both_use_the_knife_but_only_once_it_is_in_play():
    game, p, _ = _begin()
    _hand(game, p, [f"infection.{p}.{i}" for i in (1, 2, 3)] + ["combat_knife.1", "armor.1", "armor.2"])
    _put(game, "gray_parasite.1", "reactor/main")
    _reoffer(game)
    assert options(game, "stab") == []
    take(game, "play_item", card="combat_knife.1")
    attackers = {o["attacker"] for o in options(game, "stab") if o["target"] == "gray_parasite.1"}
    assert attackers == {f"trooper.{p}", f"android.{p}"}


def test_a_knife_hit_on_a_character_wounds_it_by_one():
    game, p, (q, *_) = _begin()
    _in_play(game, p, "combat_knife.1")
    _put(game, f"android.{q}", "reactor/main")
    _reoffer(game)
    game.state.forced_rolls["d4"] = [3]
    take(game, "stab", attacker=f"trooper.{p}", target=f"android.{q}")
    assert _health(game, f"android.{q}") == 3


def test_a_missed_knife_attack_is_still_an_attack_that_lifts_the_forced_trade():
    game, p, (q, *_) = _begin()
    _in_play(game, p, "combat_knife.1")
    _put(game, f"android.{q}", WEST)
    _reoffer(game)
    take(game, "move", c=f"trooper.{p}", r=WEST)
    assert {"action": "end_turn"} not in game.pending.options
    game.state.forced_rolls["d4"] = [1]
    take(game, "stab", attacker=f"trooper.{p}", target=f"android.{q}")
    assert _health(game, f"android.{q}") == 4
    assert {"action": "end_turn"} in game.pending.options


# ---------------------------------------------------------------- Grenade

def _grenadier(game, p):
    _hand(game, p, [f"infection.{p}.{i}" for i in (1, 2, 3)] + ["grenade.1", "ammo.2", "keycard.2"])


def test_a_grenade_goes_only_into_an_adjacent_room_never_the_throwers_own():
    game, p, _ = _begin()
    _grenadier(game, p)
    _reoffer(game)
    rooms = {o["target"] for o in options(game, "throw_grenade") if o["thrower"] == f"trooper.{p}"}
    assert "reactor/main" not in rooms
    assert WEST in rooms


def test_a_grenade_wounds_every_parasite_and_character_in_the_room():
    game, p, (q, *_) = _begin()
    _grenadier(game, p)
    _put(game, "gray_parasite.1", WEST)
    _put(game, "black_parasite.1", WEST)
    _put(game, f"android.{q}", WEST)
    _put(game, f"android.{p}", WEST)  # the thrower's own Android is not spared
    _reoffer(game)
    take(game, "throw_grenade", thrower=f"trooper.{p}", target=WEST, card="grenade.1")
    s = game.state
    assert _at(game, "gray_parasite.1") == "parasite_supply"
    left = [x for x in s.zones[WEST] if s.entities[x]["kind"] == "parasite"]
    assert len(left) == 1 and s.entities[left[0]]["props"]["side"] == "gray"  # the black one, wounded
    assert _health(game, f"android.{q}") == 3
    assert _health(game, f"android.{p}") == 3
    assert _at(game, "grenade.1") == "search_discard"  # single use


def test_a_grenade_counts_as_an_attack_so_entering_that_room_forces_no_trade():
    game, p, (q, *_) = _begin()
    _grenadier(game, p)
    _put(game, f"android.{q}", WEST)
    _reoffer(game)
    take(game, "throw_grenade", thrower=f"trooper.{p}", target=WEST, card="grenade.1")
    take(game, "move", c=f"trooper.{p}", r=WEST)
    assert options(game, "trade") == []
    assert {"action": "end_turn"} in game.pending.options
    assert game.why_not("move", {"c": f"trooper.{p}", "r": "reactor/main"}) is None


def test_a_grenade_is_an_item_played_only_from_a_hand_of_more_than_five_cards():
    game, p, _ = _begin()
    _hand(game, p, [f"infection.{p}.{i}" for i in (1, 2, 3)] + ["grenade.1", "ammo.2"])
    _reoffer(game)
    assert game.why_not("throw_grenade", {"thrower": f"trooper.{p}", "target": WEST, "card": "grenade.1"}) == \
        "an item is played only from a hand of more than 5 cards"
