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
