"""Hidden information stays hidden: checked in every view after every decision of many games."""

from panic_station import ruleset
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
                shown = {e["seq"]: e for e in game.events_for(viewer)}
                assert t["seq"] in shown  # everyone learns that a trade happened
                for m in moves:
                    if viewer in (t["first"], t["second"]):
                        assert shown[m["seq"]]["entity"] == m["entity"]
                    else:
                        assert shown[m["seq"]]["entity"] == HIDDEN
        if seen_trade:
            break
    assert seen_trade
