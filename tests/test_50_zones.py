"""Zones: where moves put things, what top/bottom/contents read, shuffling, per-player zones."""

from __future__ import annotations

import pytest
from engine_rulesets import build, emitted, game_yaml

from rulecraft.interpreter.game import Game

DATA = """
kinds:
  player: {}
  card:
    located_in: zone
    properties:
      rank: number
zones:
  deck: {}
  discard: {}
  pile: {ordered: false}
  hand: {per_player: true}
components:
  - {name: a, kind: card, zone: deck, properties: {rank: 1}}
  - {name: b, kind: card, zone: deck, properties: {rank: 2}}
  - {name: c, kind: card, zone: deck, properties: {rank: 3}}
  - {name: token, kind: card, per_player: true, zone: hand}
  - {name: chip, kind: card, count: 12, zone: pile}
"""

ROUND = """
procedure round():
    do:
        stop
"""


def run_setup(tmp_path, setup_body: str, players: int = 2, seed: int = 1) -> Game:
    """A game whose setup runs the given statements and whose rounds do nothing."""
    body = "\n".join("        " + line for line in setup_body.strip("\n").splitlines())
    rules = "procedure setup():\n    do:\n" + body + "\n" + ROUND
    rs = build(tmp_path, {"game.yaml": game_yaml(round_limit=1) + DATA, "main.rules": rules})
    game = Game(rs, players, seed)
    assert game.over, "these games have no choices"
    return game


def test_components_start_in_their_zone_in_table_order(tmp_path):
    game = run_setup(tmp_path, "stop")
    zones = game.state.zones
    assert zones["deck"] == ["a", "b", "c"]
    assert zones["discard"] == []
    assert zones["pile"] == [f"chip.{n}" for n in range(1, 13)]
    assert game.state.entities["a"]["at"] == "deck"


def test_top_bottom_contents_read_the_order_top_first(tmp_path):
    game = run_setup(tmp_path, """
emit q(name: "top", value: top(deck))
emit q(name: "bottom", value: bottom(deck))
emit q(name: "contents", value: contents(deck))
emit q(name: "empty top", value: top(discard))
emit q(name: "empty bottom", value: bottom(discard))
emit q(name: "empty contents", value: contents(discard))
""")
    q = emitted(game)
    assert q["top"] == "a"
    assert q["bottom"] == "c"
    assert q["contents"] == ["a", "b", "c"]
    assert q["empty top"] is None
    assert q["empty bottom"] is None
    assert q["empty contents"] == []


def test_move_to_ordered_zone_puts_on_top_by_default(tmp_path):
    game = run_setup(tmp_path, """
move a to discard
move b to discard
move c to discard
emit q(name: "top", value: top(discard))
""")
    assert game.state.zones["discard"] == ["c", "b", "a"]
    assert game.state.zones["deck"] == []
    assert emitted(game)["top"] == "c"


def test_move_to_top_and_bottom_of(tmp_path):
    game = run_setup(tmp_path, """
move a to bottom of discard
move b to bottom of discard
move c to top of discard
""")
    assert game.state.zones["discard"] == ["c", "a", "b"]


def test_move_within_a_zone_reorders_it(tmp_path):
    game = run_setup(tmp_path, """
move c to top of deck
move a to bottom of deck
""")
    assert game.state.zones["deck"] == ["c", "b", "a"]
    assert all(game.state.zones["deck"].count(x) == 1 for x in "abc")


def test_move_updates_location_and_emits_moved(tmp_path):
    game = run_setup(tmp_path, """
move b to discard
emit q(name: "at", value: b.at)
""")
    assert game.state.entities["b"]["at"] == "discard"
    assert emitted(game)["at"] == "discard"
    moved = [e for e in game.events if e["type"] == "moved"]
    assert moved == [{"type": "moved", "entity": "b", "source": "deck", "destination": "discard", "seq": 0}]


def test_unordered_zone_appends(tmp_path):
    game = run_setup(tmp_path, """
move a to pile
move b to pile
""")
    assert game.state.zones["pile"][-2:] == ["a", "b"]


def test_remove_takes_an_entity_off_the_table(tmp_path):
    game = run_setup(tmp_path, """
remove(b)
emit q(name: "at", value: b.at)
emit q(name: "contents", value: contents(deck))
""")
    q = emitted(game)
    assert q["at"] is None
    assert q["contents"] == ["a", "c"]
    assert game.state.entities["b"]["at"] is None


def test_a_drawing_loop_deals_from_the_top(tmp_path):
    game = run_setup(tmp_path, """
repeat 2 times:
    move top(deck) to discard
""")
    assert game.state.zones["deck"] == ["c"]
    assert game.state.zones["discard"] == ["b", "a"]


# ---------------------------------------------------------------- shuffling

SHUFFLE = """
shuffle pile
emit q(name: "order", value: contents(pile))
"""


def shuffled_order(tmp_path, seed: int) -> list[str]:
    return emitted(run_setup(tmp_path / f"s{seed}", SHUFFLE, seed=seed))["order"]


def test_shuffle_is_a_permutation_and_emits_shuffled(tmp_path):
    game = run_setup(tmp_path, SHUFFLE, seed=7)
    order = emitted(game)["order"]
    assert sorted(order) == sorted(f"chip.{n}" for n in range(1, 13))
    assert order == game.state.zones["pile"]
    assert {"type": "shuffled", "zone": "pile"} in [{k: v for k, v in e.items() if k != "seq"} for e in game.events]


def test_shuffle_is_deterministic_for_a_seed(tmp_path):
    assert shuffled_order(tmp_path / "one", 42) == shuffled_order(tmp_path / "two", 42)


def test_shuffle_differs_across_seeds(tmp_path):
    orders = {tuple(shuffled_order(tmp_path, seed)) for seed in range(8)}
    assert len(orders) >= 6  # 12! orders: seeds almost never collide
    unshuffled = tuple(f"chip.{n}" for n in range(1, 13))
    assert unshuffled not in orders


def test_shuffle_advances_the_generator(tmp_path):
    game = run_setup(tmp_path, """
shuffle pile
emit q(name: "first", value: contents(pile))
shuffle pile
emit q(name: "second", value: contents(pile))
""", seed=3)
    q = emitted(game)
    assert q["first"] != q["second"]


# ---------------------------------------------------------------- per-player zones


def test_per_player_zones_exist_for_every_player(tmp_path):
    game = run_setup(tmp_path, "stop", players=3)
    hands = {z for z in game.state.zones if z.startswith("hand")}
    assert hands == {"hand:p1", "hand:p2", "hand:p3"}


def test_per_player_components_start_in_their_owners_zone(tmp_path):
    game = run_setup(tmp_path, "stop", players=2)
    assert game.state.zones["hand:p1"] == ["token.p1"]
    assert game.state.zones["hand:p2"] == ["token.p2"]


def test_hand_of_a_player_is_a_zone_rules_can_move_to_and_read(tmp_path):
    game = run_setup(tmp_path, """
for each p in players:
    move top(deck) to hand(p)
emit q(name: "p1", value: contents(hand(first(players))))
emit q(name: "p2", value: contents(hand(last(players))))
emit q(name: "sizes", value: [count(contents(hand(p))) for p in players])
""", players=2)
    q = emitted(game)
    assert q["p1"] == ["a", "token.p1"]
    assert q["p2"] == ["b", "token.p2"]
    assert q["sizes"] == [2, 2]
    assert game.state.entities["a"]["at"] == "hand:p1"
    assert game.state.zones["deck"] == ["c"]


@pytest.mark.parametrize("players", [1, 2, 3])
def test_dealing_works_for_every_player_count(tmp_path, players):
    game = run_setup(tmp_path, """
for each p in players:
    move top(deck) to hand(p)
""", players=players)
    dealt = [game.state.zones[f"hand:p{i}"][0] for i in range(1, players + 1)]
    assert dealt == ["a", "b", "c"][:players]
