"""Hidden information stays hidden: checked in every view after every decision of many games."""

from panic_station import (end_turn, lay_tile, own_infection_cards, put, quiet_start, relocate, reoffer, ruleset,
                           set_hand, take)
from rulecraft.bots import RandomBot
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.views import HIDDEN


def _check_view(game: Game, viewer: str) -> None:
    s = game.state
    view = game.view(viewer)
    for p in s.players:
        hand = s.zones[f"hand:{p}"]
        if p == viewer:
            assert view["zones"][f"hand:{p}"] == hand
            continue
        # another player's hand: only how many cards it holds
        assert view["zones"][f"hand:{p}"] == {"count": len(hand)}
        assert not set(hand) & set(view["entities"]), "another player's hand card is in the view"
        # another player's infection status is never shown
        assert "infected" not in view["entities"][p]["props"]
    # the search deck's order: only its size
    assert view["zones"]["search_deck"] == {"count": len(s.zones["search_deck"])}
    assert view["entities"][viewer]["props"]["infected"] == s.entities[viewer]["props"]["infected"]


def _check_events(game: Game, viewer: str) -> None:
    for e in game.events_for(viewer):
        assert not any(k.startswith("_") for k in e)
        if e["type"] == "changed" and e["property"] == "infected":
            assert e["entity"] == viewer
        if e["type"] in ("became_infected", "infection_blocked", "became_host"):
            assert e["player"] == viewer
        if e["type"] == "hand_shown":
            assert e["to_player"] == viewer
        if e["type"] == "moved" and e["entity"] != HIDDEN:
            # a card is identified only when it comes from or goes to a zone the viewer sees
            assert _sees(viewer, e["source"]) or _sees(viewer, e["destination"]), e


HIDDEN_ZONES = ("search_deck", "setup_pool", "team_search_pile", "exploration_deck", "lower_pile", "bottom_three")


def _sees(viewer: str, zone: str | None) -> bool:
    if zone is None:
        return True
    if zone.startswith("hand:"):
        return zone == f"hand:{viewer}"
    return zone not in HIDDEN_ZONES


def test_no_view_ever_shows_hidden_information():
    checked = 0
    for seed in range(12):
        game = Game(ruleset(), 5, seed)
        bots = {p: RandomBot(seed * 31 + i) for i, p in enumerate(game.state.players)}
        while not game.over:
            for p in game.state.players:
                _check_view(game, p)
                checked += 1
            choice = game.pending
            game.choose(bots[choice.player].choose(game.view(choice.player)))
        for p in game.state.players:
            _check_events(game, p)
    assert checked > 1000


def test_a_trade_shows_the_cards_to_the_traders_only():
    seen_trade = False
    for seed in range(40):
        game = Game(ruleset(), 5, seed)
        bots = {p: RandomBot(seed * 31 + i) for i, p in enumerate(game.state.players)}
        while not game.over and not seen_trade:
            choice = game.pending
            game.choose(bots[choice.player].choose(game.view(choice.player)))
            trades = [e for e in game.events if e["type"] == "traded"]
            if not trades:
                continue
            seen_trade = True
            t = trades[0]
            moves = [e for e in game.events[t["seq"]:] if e["type"] == "moved"][:2]
            for viewer in game.state.players:
                # each viewer's stream has its own numbers: find the trade in it
                shown = game.events_for(viewer)
                at = [i for i, e in enumerate(shown) if e["type"] == "traded"]
                assert len(at) == 1  # everyone learns that a trade happened
                seen_moves = [e for e in shown[at[0]:] if e["type"] == "moved"][:2]
                for m, seen in zip(moves, seen_moves, strict=True):
                    assert (seen["source"], seen["destination"]) == (m["source"], m["destination"])
                    if viewer in (t["first"], t["second"]):
                        assert seen["entity"] == m["entity"]
                    else:
                        assert seen["entity"] == HIDDEN
        if seen_trade:
            break
    assert seen_trade


def _trade_with_an_infection_card(blocked: bool):
    """p, infected, meets q and gives them one of p's infection cards; q gives back a
    grenade (q is infected) or a gas can (the infection is blocked)."""
    game, p, (q, third, *_) = quiet_start()
    lay_tile(game, "plain_a", -1, 0, 0)  # open east, into the Reactor
    relocate(game, "host", "out_of_game")
    for player in game.state.players:
        game.state.entities[player]["props"]["infected"] = player == p
    set_hand(game, p, own_infection_cards(p) + ["armor.1"])
    set_hand(game, q, own_infection_cards(q) + ["gas_can.1", "grenade.1"])
    put(game, f"android.{q}", "plain_a/main")
    reoffer(game)
    take(game, "move", c=f"trooper.{p}", r="plain_a/main")
    take(game, "trade", partner=f"android.{q}")
    game.choose_option(f"infection.{p}.1")
    game.choose_option("gas_can.1" if blocked else "grenade.1")
    assert game.state.entities[q]["props"]["infected"] is not blocked
    end_turn(game)  # public events follow the hidden ones
    return game, third


def test_a_third_player_cannot_tell_whether_a_trade_infected():
    infected, third = _trade_with_an_infection_card(blocked=False)
    blocked, third_again = _trade_with_an_infection_card(blocked=True)
    assert third == third_again
    assert len(infected.events) != len(blocked.events) or infected.events != blocked.events
    # the same events, with the same numbers, and the same view of the table
    assert infected.events_for(third) == blocked.events_for(third)
    assert infected.view(third) == blocked.view(third)
