"""Every player's own piece may start on a space of a declared board: refused before, with
a hint to declare one piece per seat, which put the pieces of absent seats on the board."""

from __future__ import annotations

from engine_rulesets import QUIET_SETUP_AND_ROUND, build, game_yaml

from rulecraft.interpreter.game import Game

TABLES = """
kinds:
  player:
    properties: {}
  city:
    properties: {}
  pawn:
    located_in: zone
    owner: owner
    properties:
      owner: player
board:
  kind: graph
  space_kind: city
  spaces: {harbor: {}, mill: {}}
  connections:
    - {from: harbor, to: mill}
components:
  - {name: pawn, kind: pawn, per_player: true, space: harbor}
"""


def test_every_players_pawn_starts_on_the_space_and_no_other_seats(tmp_path):
    ruleset = build(tmp_path, {"game.yaml": game_yaml(players=(2, 3)) + TABLES, "main.rules": QUIET_SETUP_AND_ROUND})
    game = Game(ruleset, 2, 1)
    assert game.state.zones["harbor"] == ["pawn.p1", "pawn.p2"]
    assert game.state.entities["pawn.p2"]["props"]["owner"] == "p2"
    assert "pawn.p3" not in game.state.entities
