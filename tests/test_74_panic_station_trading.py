"""Trading and infection (rulebook-en: Trading; Order of Actions; Game Setup, The Host Card;
rulebook-fr: Échanger, where the English text is silent)."""


from panic_station import lay_tile, new_game, options, quiet_start, relocate, take
from panic_station import set_hand as _hand, put as _put, reoffer as _reoffer, own_infection_cards as _own

FORCED = "first attack or trade with the character you met"
WEST = "plain_a/main"          # a plain room west of the Reactor, no icon
SOUTH = "team_search_a.1/main"  # a searchable room south of the Reactor


# ---------------------------------------------------------------- arranging the table

def _begin(players=5, seed=1):
    """A fresh game at the first player's first action, with no parasite on the board and
    the first-turn search duty waived (it has its own tests)."""
    game, p, others = quiet_start(players, seed)
    lay_tile(game, "plain_a", -1, 0, 0)           # open east, into the Reactor
    lay_tile(game, "team_search_a.1", 0, 1, 180)  # open north, into the Reactor
    return game, p, others


def _infected(game, *infected):
    for q in game.state.players:
        game.state.entities[q]["props"]["infected"] = q in infected



def _meet(game, p, q, mover="trooper"):
    """q's Android stands west of the Reactor; p's character walks in."""
    _put(game, f"android.{q}", WEST)
    _reoffer(game)
    take(game, "move", c=f"{mover}.{p}", r=WEST)


def _hand_of(game, p):
    return set(game.state.zones[f"hand:{p}"])


def _standard_hands(game, p, q):
    relocate(game, "host", "out_of_game")
    _infected(game)
    _hand(game, p, _own(p) + ["armor.1", "keycard.1"])
    _hand(game, q, _own(q) + ["gas_can.1", "grenade.1"])


# ---------------------------------------------------------------- the forced trade

def test_entering_a_room_with_another_players_character_forces_a_trade():
    game, p, (q, *_) = _begin()
    _standard_hands(game, p, q)
    _put(game, f"android.{p}", SOUTH)  # a searchable room, to ask about searching
    _meet(game, p, q)
    assert game.pending.kind == "action" and game.pending.player == p
    assert game.pending.options == [{"action": "trade", "args": {"partner": f"android.{q}"}}]
    # nothing else may happen first, with either character, and the turn may not end
    assert {"action": "end_turn"} not in game.pending.options
    assert game.why_not("explore", {"c": f"android.{p}"}) == FORCED
    assert game.why_not("move", {"c": f"trooper.{p}", "r": "reactor/main"}) == FORCED
    assert game.why_not("move", {"c": f"android.{p}", "r": "reactor/main"}) == FORCED
    assert game.why_not("search", {"c": f"android.{p}"}) == FORCED
    assert any(e["type"] == "encounter" and e["character"] == f"trooper.{p}" and e["room"] == WEST
               for e in game.events)


def test_trading_costs_no_action_point_and_frees_the_turn():
    game, p, (q, *_) = _begin()
    _standard_hands(game, p, q)
    _meet(game, p, q)
    ap = game.state.entities[p]["props"]["ap"]
    take(game, "trade", partner=f"android.{q}")
    game.choose_option("armor.1")
    game.choose_option("gas_can.1")
    assert game.pending.kind == "action" and game.pending.player == p
    assert game.state.entities[p]["props"]["ap"] == ap
    assert {"action": "end_turn"} in game.pending.options
    assert options(game, "trade") == []
    assert game.why_not("move", {"c": f"trooper.{p}", "r": "reactor/main"}) is None


def test_the_reactor_is_a_no_trade_zone():
    game, p, (q, *_) = _begin()
    _standard_hands(game, p, q)
    _put(game, f"android.{q}", "reactor/main")
    _put(game, f"trooper.{p}", WEST)
    _reoffer(game)
    take(game, "move", c=f"trooper.{p}", r="reactor/main")
    assert options(game, "trade") == []
    assert {"action": "end_turn"} in game.pending.options
    assert not any(e["type"] == "encounter" for e in game.events)


def test_a_trade_is_never_voluntary_standing_together_is_no_meeting():
    # rulebook-fr, Échanger: "Échanger est toujours une action forcée, les joueurs ne
    # peuvent choisir eux-même de réaliser cette action."
    game, p, (q, *_) = _begin()
    _standard_hands(game, p, q)
    _put(game, f"android.{q}", WEST)
    _put(game, f"trooper.{p}", WEST)  # already there when the turn goes on
    _reoffer(game)
    assert options(game, "trade") == []
    assert {"action": "end_turn"} in game.pending.options


def test_entering_a_room_where_only_the_own_other_character_stands_forces_nothing():
    game, p, (q, *_) = _begin()
    _standard_hands(game, p, q)
    _put(game, f"android.{p}", WEST)
    _reoffer(game)
    take(game, "move", c=f"trooper.{p}", r=WEST)
    assert options(game, "trade") == []
    assert {"action": "end_turn"} in game.pending.options


def test_the_entering_player_chooses_whom_to_trade_with():
    game, p, (q, r, *_) = _begin()
    _standard_hands(game, p, q)
    _hand(game, r, _own(r) + ["armor.2", "ammo.2"])
    _put(game, f"trooper.{r}", WEST)
    _meet(game, p, q)
    assert sorted(o["partner"] for o in options(game, "trade")) == sorted([f"android.{q}", f"trooper.{r}"])
    take(game, "trade", partner=f"trooper.{r}")
    assert game.pending.player == p
    game.choose_option("keycard.1")
    assert game.pending.player == r
    game.choose_option("ammo.2")
    traded = [e for e in game.events if e["type"] == "traded"][-1]
    assert {traded["first"], traded["second"]} == {p, r}
    assert "keycard.1" in _hand_of(game, r) and "ammo.2" in _hand_of(game, p)


def test_an_attack_instead_of_a_trade_lifts_the_obligation():
    # rulebook-en, Order of Actions: attack or trade before anything else; then "the player
    # can continue performing actions if he has AP left to spend".
    game, p, (q, *_) = _begin()
    _standard_hands(game, p, q)
    relocate(game, "ammo.1", f"play_area:{p}")
    _put(game, "gray_parasite.1", WEST)
    _meet(game, p, q, mover="android")
    # the Order of Actions holds back only exploring, searching and room actions: any
    # target may be shot, but only the met player's character settles the meeting
    assert options(game, "fire_gun") == [{"shooter": f"android.{p}", "target": "gray_parasite.1"},
                                         {"shooter": f"android.{p}", "target": f"android.{q}"}]
    take(game, "fire_gun", shooter=f"android.{p}", target=f"android.{q}")
    assert game.state.entities[f"android.{q}"]["props"]["health"] == 3
    assert game.pending.kind == "action" and game.pending.player == p
    assert {"action": "end_turn"} in game.pending.options
    assert {"shooter": f"android.{p}", "target": "gray_parasite.1"} in options(game, "fire_gun")
    assert game.why_not("move", {"c": f"android.{p}", "r": "reactor/main"}) is None


def test_after_attacking_instead_of_trading_no_trade_follows():
    game, p, (q, *_) = _begin()
    _standard_hands(game, p, q)
    relocate(game, "ammo.1", f"play_area:{p}")
    _meet(game, p, q, mover="android")
    take(game, "fire_gun", shooter=f"android.{p}", target=f"android.{q}")
    assert game.pending.kind == "action" and game.pending.player == p
    assert options(game, "trade") == []


def test_after_a_trade_the_player_may_still_attack():
    game, p, (q, *_) = _begin()
    _standard_hands(game, p, q)
    relocate(game, "ammo.1", f"play_area:{p}")
    _meet(game, p, q, mover="android")
    take(game, "trade", partner=f"android.{q}")
    game.choose_option("armor.1")
    game.choose_option("grenade.1")
    assert {"shooter": f"android.{p}", "target": f"android.{q}"} in options(game, "fire_gun")


def test_each_character_trades_only_once_per_room_per_turn():
    game, p, (q, *_) = _begin()
    _standard_hands(game, p, q)
    _meet(game, p, q)
    take(game, "trade", partner=f"android.{q}")
    game.choose_option("armor.1")
    game.choose_option("grenade.1")
    take(game, "move", c=f"trooper.{p}", r="reactor/main")
    take(game, "move", c=f"trooper.{p}", r=WEST)  # back in: no second trade
    assert options(game, "trade") == []
    assert {"action": "end_turn"} in game.pending.options
    # "If you wish to trade twice in the same room, you would need to bring your other
    # character into the room as well."
    take(game, "move", c=f"android.{p}", r=WEST)
    assert options(game, "trade") == [{"partner": f"android.{q}"}]


# ---------------------------------------------------------------- the face-down exchange

def test_both_traders_pick_a_card_and_the_cards_change_hands_face_down():
    game, p, (q, third, *_) = _begin()
    _standard_hands(game, p, q)
    _meet(game, p, q)
    take(game, "trade", partner=f"android.{q}")
    mine = game.pending
    assert mine.kind == "choose" and mine.player == p
    assert sorted(mine.options) == ["armor.1", "keycard.1"]
    game.choose_option("keycard.1")
    theirs = game.pending
    assert theirs.kind == "choose" and theirs.player == q
    assert sorted(theirs.options) == ["gas_can.1", "grenade.1"]  # q's own cards only
    game.choose_option("grenade.1")
    assert "keycard.1" in _hand_of(game, q) and "keycard.1" not in _hand_of(game, p)
    assert "grenade.1" in _hand_of(game, p) and "grenade.1" not in _hand_of(game, q)
    assert len(_hand_of(game, p)) == 5 and len(_hand_of(game, q)) == 5

    # an uninvolved player sees that a trade happened, not what changed hands
    seen = game.events_for(third)
    assert any(e["type"] == "traded" and {e["first"], e["second"]} == {p, q} for e in seen)
    swaps = [e for e in seen if e["type"] == "moved" and {e["source"], e["destination"]} == {f"hand:{p}", f"hand:{q}"}]
    assert len(swaps) == 2 and all(e["entity"] == "?" for e in swaps)
    assert not any(e.get("entity") in ("keycard.1", "grenade.1") for e in seen if e["type"] == "moved"
                   and e["destination"] in (f"hand:{p}", f"hand:{q}"))
    # each trader sees both cards
    for viewer in (p, q):
        moved = {e["entity"] for e in game.events_for(viewer) if e["type"] == "moved"
                 and {e["source"], e["destination"]} == {f"hand:{p}", f"hand:{q}"}}
        assert moved == {"keycard.1", "grenade.1"}


def test_items_laid_out_in_the_play_area_are_never_traded():
    # rulebook-en, General Notes: an item played face up is never picked back up;
    # rulebook-fr, 7. Utiliser un Objet: "il ne peut plus la reprendre en main, pour l'échanger".
    game, p, (q, *_) = _begin()
    _standard_hands(game, p, q)
    relocate(game, "keycard.2", f"play_area:{p}")
    _meet(game, p, q)
    take(game, "trade", partner=f"android.{q}")
    assert sorted(game.pending.options) == ["armor.1", "keycard.1"]


def test_an_uninfected_player_never_offers_an_infection_card_of_their_own_colour():
    game, p, (q, *_) = _begin()
    _standard_hands(game, p, q)
    _meet(game, p, q)
    take(game, "trade", partner=f"android.{q}")
    assert not any(c.startswith("infection.") for c in game.pending.options)


def test_an_infected_player_may_offer_their_own_infection_cards():
    game, p, (q, *_) = _begin()
    _standard_hands(game, p, q)
    _infected(game, p)
    _meet(game, p, q)
    take(game, "trade", partner=f"android.{q}")
    assert sorted(game.pending.options) == sorted(["armor.1", "keycard.1"] + _own(p))


def test_another_colours_infection_card_is_offered_only_by_a_player_holding_no_item():
    game, p, (q, r, *_) = _begin()
    _standard_hands(game, p, q)
    _hand(game, p, _own(p) + [f"infection.{r}.1", "armor.1", "ammo.3"])
    _meet(game, p, q)
    take(game, "trade", partner=f"android.{q}")
    assert sorted(game.pending.options) == ["ammo.3", "armor.1"]

    game, p, (q, r, *_) = _begin()
    _standard_hands(game, p, q)
    _hand(game, p, _own(p) + [f"infection.{r}.1", f"infection.{r}.2"])
    _meet(game, p, q)
    take(game, "trade", partner=f"android.{q}")
    assert sorted(game.pending.options) == [f"infection.{r}.1", f"infection.{r}.2"]


def test_the_host_card_is_never_offered_in_a_trade():
    game, p, (q, *_) = _begin()
    _standard_hands(game, p, q)
    _hand(game, p, _own(p) + ["host", "armor.1"])
    _infected(game, p)
    _meet(game, p, q)
    take(game, "trade", partner=f"android.{q}")
    assert "host" not in game.pending.options
    assert sorted(game.pending.options) == sorted(["armor.1"] + _own(p))
    # even with no item at all in hand
    game, p, (q, *_) = _begin()
    _standard_hands(game, p, q)
    _hand(game, p, _own(p) + ["host"])
    _infected(game, p)
    _meet(game, p, q)
    take(game, "trade", partner=f"android.{q}")
    assert "host" not in (game.pending.options if game.pending.kind == "choose" else [])
    assert "host" in _hand_of(game, p)


# ---------------------------------------------------------------- infection

def test_an_infection_card_of_the_infected_givers_colour_infects_the_receiver():
    game, p, (q, third, *_) = _begin()
    _standard_hands(game, p, q)
    _infected(game, p)
    _meet(game, p, q)
    take(game, "trade", partner=f"android.{q}")
    game.choose_option(f"infection.{p}.1")
    game.choose_option("grenade.1")
    s = game.state
    assert s.entities[q]["props"]["infected"] is True  # both of q's characters: it is the player
    assert f"infection.{p}.1" in _hand_of(game, q)
    assert s.vars["game"]["last_infected"] == q
    # only the victim is told
    assert any(e["type"] == "became_infected" for e in game.events_for(q))
    assert not any(e["type"] == "became_infected" for e in game.events_for(third))
    assert not any(e["type"] == "changed" and e.get("property") == "infected" for e in game.events_for(third))


def test_the_met_player_can_infect_the_entering_player_too():
    game, p, (q, *_) = _begin()
    _standard_hands(game, p, q)
    _infected(game, q)
    _meet(game, p, q)
    take(game, "trade", partner=f"android.{q}")
    game.choose_option("armor.1")
    game.choose_option(f"infection.{q}.2")
    assert game.state.entities[p]["props"]["infected"] is True
    assert game.state.vars["game"]["last_infected"] == p


def test_a_gas_can_given_back_blocks_the_infection_and_the_receiver_keeps_the_card():
    game, p, (q, *_) = _begin()
    _standard_hands(game, p, q)
    _infected(game, p)
    _meet(game, p, q)
    take(game, "trade", partner=f"android.{q}")
    game.choose_option(f"infection.{p}.1")
    game.choose_option("gas_can.1")
    s = game.state
    assert s.entities[q]["props"]["infected"] is False
    assert f"infection.{p}.1" in _hand_of(game, q)
    assert "gas_can.1" in _hand_of(game, p)
    assert s.vars["game"]["last_infected"] is None


def test_an_infection_card_of_another_colour_never_infects():
    game, p, (q, r, *_) = _begin()
    _standard_hands(game, p, q)
    _hand(game, p, _own(p) + [f"infection.{r}.1"])  # no item: the other colour may be traded
    _infected(game, p, r)
    _meet(game, p, q)
    take(game, "trade", partner=f"android.{q}")
    game.choose_option(f"infection.{r}.1")
    game.choose_option("grenade.1")
    assert game.state.entities[q]["props"]["infected"] is False
    assert game.state.vars["game"]["last_infected"] is None


def test_an_already_infected_receiver_is_not_infected_again():
    game, p, (q, *_) = _begin()
    _standard_hands(game, p, q)
    _infected(game, p, q)
    _meet(game, p, q)
    take(game, "trade", partner=f"android.{q}")
    game.choose_option(f"infection.{p}.1")
    game.choose_option("grenade.1")
    assert game.state.vars["game"]["last_infected"] is None


def test_whoever_takes_the_host_card_is_infected_and_only_they_learn_it():
    game, p, (q, *_) = _begin()
    _standard_hands(game, p, q)
    _put(game, f"trooper.{p}", SOUTH)
    relocate(game, "host", "search_deck")
    _reoffer(game)
    take(game, "search", c=f"trooper.{p}")
    assert "host" in _hand_of(game, p)
    assert game.state.entities[p]["props"]["infected"] is True
    assert any(e["type"] == "became_host" and e["player"] == p for e in game.events_for(p))
    assert not any(e["type"] == "became_host" and e["player"] == p for e in game.events_for(q))
    drawn = [e for e in game.events_for(q) if e["type"] == "moved" and e["destination"] == f"hand:{p}"]
    assert drawn and all(e["entity"] == "?" for e in drawn)


def test_the_host_dealt_at_setup_is_infected_from_the_start():
    for seed in range(1, 8):
        game = new_game(5, seed=seed)
        s = game.state
        holders = [q for q in s.players if "host" in s.zones[f"hand:{q}"]]
        infected = [q for q in s.players if s.entities[q]["props"]["infected"]]
        assert infected == holders


# ---------------------------------------------------------------- hidden information

def test_an_uninvolved_player_cannot_tell_who_was_infected():
    game, p, (q, third, *_) = _begin()
    _standard_hands(game, p, q)
    _infected(game, p)
    _meet(game, p, q)
    take(game, "trade", partner=f"android.{q}")
    game.choose_option(f"infection.{p}.1")
    game.choose_option("grenade.1")
    assert game.state.entities[q]["props"]["infected"] is True
    assert game.view(third)["vars"]["game"].get("last_infected") != q


def test_an_uninvolved_player_cannot_tell_that_a_trade_infected_someone():
    game, p, (q, third, *_) = _begin()
    _standard_hands(game, p, q)
    _infected(game, p)
    before = game.view(third)["vars"]["game"].get("infections")
    _meet(game, p, q)
    take(game, "trade", partner=f"android.{q}")
    game.choose_option(f"infection.{p}.1")
    game.choose_option("grenade.1")
    assert game.state.entities[q]["props"]["infected"] is True
    assert game.view(third)["vars"]["game"].get("infections") == before
