"""An option's cost says the amount when the viewer can work it out: a number written,
or read from the thing the option names (`cost c.price coins`: "3 coins", not "some
coins"); an amount the view does not show stays "some"."""

from __future__ import annotations

from engine_rulesets import build, game_yaml

from rulecraft.interpreter.game import Game
from rulecraft.narration import Words

SHOP = game_yaml(players=(2, 2)) + """
kinds:
  player:
    properties:
      coins: {type: number, default: 9, resource: {}}
  card:
    located_in: zone
    properties:
      price: number
      secret_price: {type: number, default: 1, visible_to: nobody}
zones:
  market: {}
  bought: {per_player: true}
components:
  - {name: lamp, kind: card, zone: market, properties: {price: 3}}
  - {name: rope, kind: card, zone: market, properties: {price: 1}}
"""

RULES = """
procedure setup():
    do:
        stop

procedure round():
    do:
        for each p in players:
            play_turn(p)

action buy:
    with c: card in contents(market)
    cost c.price coins
    do:
        move c to bought(current_player)

action buy_twice:
    with c: card in contents(market)
    cost c.price * 2 + 1 coins
    do:
        move c to bought(current_player)

action buy_blind:
    with c: card in contents(market)
    cost c.secret_price coins
    do:
        move c to bought(current_player)
"""


def test_a_cost_read_from_the_chosen_thing_is_said_as_a_number(tmp_path):
    rs = build(tmp_path, {"game.yaml": SHOP, "main.rules": RULES})
    game = Game(rs, 2, 1)
    words = Words(rs)
    view = game.view("p1")
    words.know_view(view)
    costs = {(o["action"], o["args"].get("c")): words.option(o)["cost"]
             for o in view["choice"]["options"] if o.get("args")}
    assert costs[("buy", "lamp")] == "3 coins" and costs[("buy", "rope")] == "1 coin", costs
    assert costs[("buy_twice", "lamp")] == "7 coins", costs
    # a price nobody sees is not told
    assert costs[("buy_blind", "lamp")] == "some coins", costs


TRAY = game_yaml(players=(2, 2)) + """
kinds:
  player: {}
  die:
    located_in: zone
    properties:
      face: {type: number, default: 0}
      slot: number
      kept: {type: bool, default: false}
  card:
    located_in: zone
    properties:
      charge: {type: number, default: 0}
zones:
  tray: {}
  hand: {per_player: true, visible_to: owner}
components:
  - {name: "die_{slot}", kind: die, zone: tray, each: {slot: [1, 2]}}
  - {name: battery, kind: card, zone: hand, per_player: true}
"""

TRAY_RULES = """
procedure setup():
    do:
        for each d in contents(tray):
            set d.face = d.slot + 3
        set die_2.kept = true
        for each c in contents(hand(first(players))):
            set c.charge = 2

procedure round():
    do:
        for each p in players:
            play_turn(p)

action reroll:
    with chosen: list of die in combinations(contents(tray), 1) + [contents(tray)]
    do:
        end_turn()

action use:
    with c: card in contents(hand(current_player))
    do:
        end_turn()
"""


def test_an_option_naming_shared_things_says_what_the_rules_change_of_them(tmp_path):
    """Which dice to reroll is chosen by what they show: "reroll: die 1 (4), die 2 (5)",
    without looking the tray up. A card in a hand is named as before."""
    rs = build(tmp_path, {"game.yaml": TRAY, "main.rules": TRAY_RULES}, name="tray")
    game = Game(rs, 2, 1)
    words = Words(rs)
    view = game.view("p1")
    words.know_view(view)
    labels = [words.option(o)["label"] for o in view["choice"]["options"]]
    # one change by its value alone; a yes by the property's word, a no not at all
    assert labels[:3] == ["reroll: die_1 (4)", "reroll: die_2 (face 5, kept)",
                          "reroll: die_1 (4), die_2 (face 5, kept)"], labels
    assert "use: battery.p1" in labels, labels
