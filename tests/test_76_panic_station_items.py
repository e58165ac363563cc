"""Items and armor (rulebook-en: 7. Use Item; Armor; Energy Boost; First Aid Kit; Heat
Scanner; Keycard; General Notes)."""


from panic_station import lay_tile, nobody_infected, options, quiet_start, relocate, run_procedure, take
from panic_station import ap as _ap, set_hand as _hand, health as _health, put as _put, reoffer as _reoffer, own_infection_cards as _own

WEST = "plain_a/main"
TOO_FEW = "an item is played only from a hand of more than 5 cards"
PLAY_ARMOR = "play_armor"


def _begin(players=5, seed=1):
    game, p, others = quiet_start(players, seed)
    nobody_infected(game)
    lay_tile(game, "plain_a", -1, 0, 0)
    return game, p, others



def _armor(card):
    return {"reaction": PLAY_ARMOR, "args": {"card": card}}


PASS = {"reaction": "pass"}


# ---------------------------------------------------------------- Armor

def test_armor_played_out_of_turn_prevents_one_damage_of_a_shot():
    game, p, (q, *_) = _begin()
    relocate(game, "ammo.1", f"play_area:{p}")
    _hand(game, q, _own(q) + ["armor.1", "gas_can.1", "gas_can.2"])
    _put(game, f"trooper.{q}", "reactor/main")
    _reoffer(game)
    take(game, "fire_gun", shooter=f"android.{p}", target=f"trooper.{q}")
    choice = game.pending
    assert choice.kind == "reaction" and choice.player == q
    assert _armor("armor.1") in choice.options and PASS in choice.options
    game.choose_option(_armor("armor.1"))
    assert _health(game, f"trooper.{q}") == 4
    assert game.state.entities["armor.1"]["at"] == "search_discard"  # single use
    assert game.pending.kind == "action" and game.pending.player == p


def test_passing_on_armor_takes_the_wound():
    game, p, (q, *_) = _begin()
    relocate(game, "ammo.1", f"play_area:{p}")
    _hand(game, q, _own(q) + ["armor.1", "gas_can.1", "gas_can.2"])
    _put(game, f"trooper.{q}", "reactor/main")
    _reoffer(game)
    take(game, "fire_gun", shooter=f"android.{p}", target=f"trooper.{q}")
    game.choose_option(PASS)
    assert _health(game, f"trooper.{q}") == 3
    assert game.state.entities["armor.1"]["at"] == f"hand:{q}"


def test_the_attackers_player_gets_no_armor_reaction():
    game, p, (q, *_) = _begin()
    relocate(game, "ammo.1", f"play_area:{p}")
    _hand(game, p, _own(p) + ["armor.2", "gas_can.3", "gas_can.4"])
    _hand(game, q, _own(q) + ["armor.1", "gas_can.1", "gas_can.2"])
    _put(game, f"trooper.{q}", "reactor/main")
    _reoffer(game)
    take(game, "fire_gun", shooter=f"android.{p}", target=f"trooper.{q}")
    assert game.pending.kind == "reaction" and game.pending.player == q
    game.choose_option(PASS)
    assert game.pending.kind == "action" and game.pending.player == p
    assert not any(e["type"] == "damage" and e["player"] == p for e in game.events)


def test_one_armor_protects_both_characters_of_a_player_standing_in_the_same_room():
    game, p, (q, *_) = _begin()
    _hand(game, q, _own(q) + ["armor.1", "gas_can.1", "gas_can.2"])
    _put(game, f"trooper.{q}", WEST)
    _put(game, f"android.{q}", WEST)
    _put(game, "gray_parasite.1", WEST)
    game.state.forced_rolls["d4"] = [4]  # west: nothing built there, the parasite stays
    run_procedure(game, "parasite_phase", p)
    assert game.pending.kind == "reaction" and game.pending.player == q
    game.choose_option(_armor("armor.1"))
    assert _health(game, f"trooper.{q}") == 4
    assert _health(game, f"android.{q}") == 4
    assert game.state.entities["armor.1"]["at"] == "search_discard"


def test_one_armor_protects_against_one_point_of_a_black_parasites_two():
    game, p, (q, *_) = _begin()
    _hand(game, q, _own(q) + ["armor.1", "gas_can.1", "gas_can.2"])
    _put(game, f"trooper.{q}", WEST)
    _put(game, "black_parasite.1", WEST)
    game.state.entities["black_parasite.1"]["props"]["side"] = "black"
    game.state.forced_rolls["d4"] = [4]
    run_procedure(game, "parasite_phase", p)
    game.choose_option(_armor("armor.1"))
    assert _health(game, f"trooper.{q}") == 3


def test_each_armor_card_stops_one_shot_of_a_heavy_gun():
    game, p, (q, *_) = _begin()
    relocate(game, "ammo.1", f"play_area:{p}")
    relocate(game, "heavy_gun.1", f"play_area:{p}")
    _hand(game, q, _own(q) + ["armor.1", "armor.2", "gas_can.1", "gas_can.2"])
    _put(game, f"android.{p}", WEST)
    _put(game, f"trooper.{q}", WEST)
    _reoffer(game)
    take(game, "fire_gun", shooter=f"android.{p}", target=f"trooper.{q}")
    assert game.pending.kind == "reaction" and game.pending.player == q
    game.choose(0)  # the first armor card against the first shot
    while game.pending.kind == "choose":
        game.choose_option(f"trooper.{q}")
    assert game.pending.kind == "reaction" and game.pending.player == q  # a second shot, a second chance
    game.choose(0)
    assert _health(game, f"trooper.{q}") == 4
    assert not any(c.startswith("armor") for c in game.state.zones[f"hand:{q}"])


def test_armor_cannot_be_played_from_a_hand_of_five_cards():
    game, p, (q, *_) = _begin()
    relocate(game, "ammo.1", f"play_area:{p}")
    _hand(game, q, _own(q) + ["armor.1", "gas_can.1"])  # exactly five
    _put(game, f"trooper.{q}", "reactor/main")
    _reoffer(game)
    take(game, "fire_gun", shooter=f"android.{p}", target=f"trooper.{q}")
    assert game.pending.kind == "action" and game.pending.player == p  # no reaction was offered
    assert _health(game, f"trooper.{q}") == 3


# ---------------------------------------------------------------- the five-card minimum

def test_an_item_is_laid_out_only_from_a_hand_of_more_than_five_cards():
    game, p, _ = _begin()
    _hand(game, p, _own(p) + ["keycard.1", "ammo.1", "target_scope.1"])  # six
    _reoffer(game)
    assert game.why_not("play_item", {"card": "keycard.1"}) is None
    take(game, "play_item", card="keycard.1")
    assert game.state.entities["keycard.1"]["at"] == f"play_area:{p}"
    assert len(game.state.zones[f"hand:{p}"]) == 5
    assert game.why_not("play_item", {"card": "ammo.1"}) == TOO_FEW
    assert options(game, "play_item") == []


def test_a_permanent_item_stays_in_the_play_area_after_use():
    game, p, _ = _begin()
    relocate(game, "combat_knife.1", f"play_area:{p}")
    _put(game, "gray_parasite.1", "reactor/main")
    _put(game, "gray_parasite.2", "reactor/main")
    _reoffer(game)
    game.state.forced_rolls["d4"] = [4, 4]
    take(game, "stab", attacker=f"trooper.{p}", target="gray_parasite.1")
    take(game, "stab", attacker=f"trooper.{p}", target="gray_parasite.2")
    assert game.state.entities["combat_knife.1"]["at"] == f"play_area:{p}"


# ---------------------------------------------------------------- Energy Boost

def test_an_energy_boost_gives_two_more_action_points_and_several_may_be_used():
    game, p, _ = _begin()
    _hand(game, p, _own(p) + ["energy_boost.1", "energy_boost.2", "gas_can.1", "gas_can.2"])  # seven
    _reoffer(game)
    ap = _ap(game, p)
    take(game, "use_energy_boost", card="energy_boost.1")
    assert _ap(game, p) == ap + 2
    take(game, "use_energy_boost", card="energy_boost.2")
    assert _ap(game, p) == ap + 4
    assert game.state.entities["energy_boost.1"]["at"] == "search_discard"


def test_an_energy_boost_needs_a_hand_of_more_than_five_cards():
    game, p, _ = _begin()
    _hand(game, p, _own(p) + ["energy_boost.1", "gas_can.1"])
    _reoffer(game)
    assert game.why_not("use_energy_boost", {"card": "energy_boost.1"}) == TOO_FEW


# ---------------------------------------------------------------- First Aid Kit

def _medic(game, p):
    _hand(game, p, _own(p) + ["first_aid_kit.1", "gas_can.1", "gas_can.2"])


def test_a_first_aid_kit_heals_two_to_one_character():
    game, p, _ = _begin()
    _medic(game, p)
    game.state.entities[f"trooper.{p}"]["props"]["health"] = 1
    _reoffer(game)
    take(game, "use_first_aid_kit", card="first_aid_kit.1", healer=f"trooper.{p}", patient=f"trooper.{p}")
    assert game.pending.options == [f"trooper.{p}", None], "the second point is optional"
    game.choose_option(f"trooper.{p}")
    assert _health(game, f"trooper.{p}") == 3
    assert game.state.entities["first_aid_kit.1"]["at"] == "search_discard"


def test_a_first_aid_kit_heals_a_team_member_in_the_same_room():
    game, p, (q, *_) = _begin()
    _medic(game, p)
    _put(game, f"android.{q}", "reactor/main")
    game.state.entities[f"android.{q}"]["props"]["health"] = 2
    _reoffer(game)
    take(game, "use_first_aid_kit", card="first_aid_kit.1", healer=f"trooper.{p}", patient=f"android.{q}")
    game.choose_option(f"android.{q}")
    assert _health(game, f"android.{q}") == 4


def test_a_first_aid_kit_may_split_one_to_the_own_character_and_one_to_another():
    game, p, (q, *_) = _begin()
    _medic(game, p)
    _put(game, f"android.{q}", "reactor/main")
    game.state.entities[f"android.{q}"]["props"]["health"] = 2
    game.state.entities[f"trooper.{p}"]["props"]["health"] = 2
    _reoffer(game)
    take(game, "use_first_aid_kit", card="first_aid_kit.1", healer=f"trooper.{p}", patient=f"trooper.{p}")
    assert game.pending.kind == "choose" and game.pending.player == p
    assert f"android.{q}" in game.pending.options and f"trooper.{p}" in game.pending.options
    game.choose_option(f"android.{q}")
    assert _health(game, f"trooper.{p}") == 3
    assert _health(game, f"android.{q}") == 3


def test_a_first_aid_kit_is_not_split_between_two_other_players_characters():
    game, p, (q, r, *_) = _begin()
    _medic(game, p)  # both of p's characters are at full health
    _put(game, f"android.{q}", "reactor/main")
    _put(game, f"trooper.{r}", "reactor/main")
    game.state.entities[f"android.{q}"]["props"]["health"] = 2
    game.state.entities[f"trooper.{r}"]["props"]["health"] = 2
    _reoffer(game)
    take(game, "use_first_aid_kit", card="first_aid_kit.1", healer=f"trooper.{p}", patient=f"android.{q}")
    assert not (game.pending.kind == "choose" and f"trooper.{r}" in game.pending.options)
    assert _health(game, f"trooper.{r}") == 2


def test_a_first_aid_kit_does_not_reach_another_room():
    game, p, (q, *_) = _begin()
    _medic(game, p)
    _put(game, f"android.{q}", WEST)
    game.state.entities[f"android.{q}"]["props"]["health"] = 2
    _reoffer(game)
    assert not [o for o in options(game, "use_first_aid_kit") if o["patient"] == f"android.{q}"]


# ---------------------------------------------------------------- Heat Scanner

def test_the_heat_scanner_shows_a_whole_hand_to_its_user_only():
    game, p, (q, third, *_) = _begin()
    _hand(game, p, _own(p) + ["heat_scanner", "gas_can.1", "gas_can.2"])
    _hand(game, q, _own(q) + ["armor.1", "grenade.1"])
    _put(game, f"android.{q}", "reactor/main")
    _put(game, f"trooper.{third}", WEST)  # not in the user's room: cannot be scanned
    _reoffer(game)
    subjects = {o["subject"] for o in options(game, "use_heat_scanner")}
    assert subjects == {q}
    ap = _ap(game, p)
    take(game, "use_heat_scanner", card="heat_scanner", user=f"trooper.{p}", subject=q)
    assert _ap(game, p) == ap - 1  # the scanner costs 1 AP
    assert game.state.entities["heat_scanner"]["at"] == "search_discard"
    shown = [e for e in game.events_for(p) if e["type"] == "hand_shown"]
    assert len(shown) == 1 and sorted(shown[0]["cards"]) == sorted(_own(q) + ["armor.1", "grenade.1"])
    for other in (q, third):
        assert not any(e["type"] == "hand_shown" for e in game.events_for(other))
    # the check itself is no secret
    assert any(e["type"] == "hand_checked" for e in game.events_for(third))


# ---------------------------------------------------------------- Keycard

def test_a_keycard_lets_only_its_owners_characters_through_security_doors():
    game, p, (q, *_) = _begin()
    lay_tile(game, "run_a", 0, 1, 0)  # a security door against the Reactor's south doorway
    _hand(game, p, _own(p) + ["keycard.1", "gas_can.1", "gas_can.2"])
    _reoffer(game)
    assert {"c": f"trooper.{p}", "r": "run_a/main"} not in options(game, "move")
    take(game, "play_item", card="keycard.1")
    assert {"c": f"trooper.{p}", "r": "run_a/main"} in options(game, "move")
    assert game.machine.board().connection("reactor/main", "run_a/main") == "security"
