"""A scenario's arranged table: what the game's own setup showed of a thing the scenario
moves is forgotten, and a setup that leaves nobody an action says so when a step
cannot be played."""

from __future__ import annotations

from engine_rulesets import build, game_yaml
from scenario_runs import explain, run_one

from rulecraft.validator.runner import PASS

# four alike cards in a secret deck; each player's hand is theirs alone
CARDS = """
kinds:
  player: {}
  card: {}
zones:
  deck: {visible_to: nobody}
  hand: {per_player: true, visible_to: owner}
  table: {}
components:
  - {name: card, kind: card, count: 4, zone: deck}
"""


def test_a_scenarios_arranged_table_forgets_what_setup_showed_of_the_things_it_moves(tmp_path):
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 3)) + CARDS, "play.rules": """
procedure setup():
    do:
        for each c in contents(deck):
            reveal c to first(players)

procedure round():
    do:
        for each p in players:
            play_turn(p)

action pass_on:
    do:
        stop
"""})
    result = run_one(rs, """
        scenarios:
          - title: a card the setup showed p1, dealt to p2 by the scenario, is p2's secret
            cite: "house rules: dealing"
            players: 2
            setup:
              deal: {p2: [card.1]}
            steps:
              - expect:
                  sees:
                    p1: {hidden: [card.1], shown: [card.2]}
        """, "s.yaml")
    assert result.status == PASS, explain(result)


def test_a_setup_that_leaves_nobody_an_action_says_so(tmp_path):
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 3), round_limit=30) + CARDS, "play.rules": """
procedure setup():
    do:
        for each p in players:
            move top(deck) to hand(p)

procedure round():
    do:
        for each p in players:
            play_turn(p)

action play:
    with c: card in contents(hand(current_player))
    do:
        move c to table
"""})
    result = run_one(rs, """
        scenarios:
          - title: empty hands
            cite: "house rules: playing"
            players: 2
            setup:
              deal: {p1: [], p2: []}
            steps:
              - {do: play, args: {c: card.1}}
        """, "s.yaml")
    message = result.divergence.message
    assert "the game is over (round limit)" in message
    assert "no player was offered anything to do from the setup on" in message

