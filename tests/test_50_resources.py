"""Resources: number properties declared `resource`, held by players or pieces, that
actions pay as costs and rules gain, spend and reset within their bounds."""

from __future__ import annotations

import pytest

from engine_rulesets import QUIET_SETUP_AND_ROUND, action_options, build, choose_action, events_of, game_yaml, write_ruleset

from rulecraft.dsl.loader import load_ruleset
from rulecraft.interpreter.game import Game

DATA = """
kinds:
  player:
    properties:
      ap: {type: number, default: 0, resource: {reset: 2}}
      gold: {type: number, default: 1, resource: {max: 3}}
  ship:
    owner: captain
    properties:
      captain: player
      capacity: {type: number, default: 4}
      energy: {type: number, default: 1, resource: {max: capacity}}
      speed: {type: number, default: 1}
zones:
  dock: {}
components:
  - {name: ship, kind: ship, count: 1, per_player: true, zone: dock}
"""

RULES = QUIET_SETUP_AND_ROUND + """
trigger refresh:
    on turn_started
    do:
        reset ap of event.player

action trade:
    cost 1 ap
    cost 1 gold
    do:
        gain 5 gold of current_player

action charge:
    with s: ship where s.captain == current_player
    cost 1 ap
    do:
        gain 2 energy of s
        emit charged(energy: s.energy)

action jump:
    with s: ship where s.captain == current_player
    cost 2 energy of s
    do:
        set s.speed += 1

action drain:
    with s: ship where s.captain == current_player
    cost 1 ap
    do:
        spend 10 energy of s
        reset ap of current_player to 7
"""


def _game(tmp_path, rules: str = RULES) -> Game:
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 2), round_limit=3) + DATA, "main.rules": rules})
    return Game(rs, 2, 1)


def _props(game: Game, entity: str) -> dict:
    return game.state.entities[entity]["props"]


def test_reset_restores_the_declared_value_at_each_turn(tmp_path):
    game = _game(tmp_path)
    assert _props(game, "p1")["ap"] == 2
    assert _props(game, "p2")["ap"] == 0  # not their turn yet


def test_a_cost_in_one_resource_and_a_gain_capped_at_its_max(tmp_path):
    game = _game(tmp_path)
    choose_action(game, "trade")
    # paid 1 ap and 1 gold, then gained 5 gold: capped at 3
    assert _props(game, "p1")["ap"] == 1 and _props(game, "p1")["gold"] == 3


def test_a_piece_pays_its_own_cost_and_its_cap_is_one_of_its_properties(tmp_path):
    game = _game(tmp_path)
    ship = "ship.p1"
    assert {"action": "jump", "args": {"s": ship}} not in action_options(game)  # 1 energy, costs 2
    choose_action(game, "charge", s=ship)
    assert _props(game, ship)["energy"] == 3 and events_of(game, "charged")[-1]["energy"] == 3
    choose_action(game, "jump", s=ship)
    assert _props(game, ship)["energy"] == 1 and _props(game, ship)["speed"] == 2
    assert _props(game, "p1")["ap"] == 1  # the ship paid, not the player
    _props(game, ship)["capacity"] = 2
    choose_action(game, "charge", s=ship)
    assert _props(game, ship)["energy"] == 2  # capped at the ship's own capacity


def test_spend_stops_at_zero_and_reset_takes_a_value(tmp_path):
    game = _game(tmp_path)
    choose_action(game, "drain", s="ship.p1")
    assert _props(game, "ship.p1")["energy"] == 0
    assert _props(game, "p1")["ap"] == 7


def test_why_not_names_the_missing_resource_of_a_piece(tmp_path):
    game = _game(tmp_path)
    machine = game.machine
    jump = next(a for a in machine.program.actions if a.name == "jump")
    assert machine.why_not(jump, "p1", {"s": "ship.p1"}) == "not enough energy"


def _errors(tmp_path, rules: str, data: str = DATA) -> list[str]:
    folder = write_ruleset(tmp_path / "bad", {"game.yaml": game_yaml(players=(2, 2)) + data, "main.rules": rules})
    return [d.message for d in load_ruleset(folder).bag.errors]


@pytest.mark.parametrize("old,new,message", [
    ("gain 5 gold of current_player", "gain 5 speed of current_player", "kind 'player' has no resource 'speed'"),
    ("set s.speed += 1", "gain 1 speed of s", "'ship.speed' is not a resource"),
    ("cost 2 energy of s", "cost 2 energy of current_player", "kind 'player' has no resource 'energy'"),
    ("spend 10 energy of s", "spend true energy of s", "what 'spend' changes by must be a number, not a bool"),
])
def test_the_checker_knows_which_kind_holds_which_resource(tmp_path, old, new, message):
    assert message in _errors(tmp_path, RULES.replace(old, new))


def test_a_resource_must_be_a_number_and_its_max_a_number_property(tmp_path):
    data = DATA.replace("gold: {type: number, default: 1, resource: {max: 3}}",
                        "gold: {type: text, resource: true}").replace("resource: {max: capacity}", "resource: {max: captain}")
    errors = _errors(tmp_path, "procedure setup():\n    do:\n        stop\nprocedure round():\n    do:\n        stop\n", data)
    assert "resource 'player.gold' must be a number, not a text" in errors
    assert ("resource 'ship.energy': max names 'captain', which is neither a number property of ship nor a "
            "number parameter") in errors


def test_generated_and_closure_code_play_the_same_games_with_resources(tmp_path):
    from rulecraft.cli.simulate import play_game
    from rulecraft.dsl.compiler import Compiler

    folder = build(tmp_path, {"game.yaml": game_yaml(players=(2, 2), round_limit=4) + DATA, "main.rules": RULES}).root

    def compiled(generate: bool):
        ruleset = load_ruleset(folder)
        ruleset.compiled = Compiler(ruleset, generate=generate).compile()
        return ruleset

    taken = set()
    for seed in range(4):
        a, b = play_game(compiled(True), 2, seed), play_game(compiled(False), 2, seed)
        assert list(a.log_lines()) == list(b.log_lines())
        taken |= {e["action"] for e in a.events if e["type"] == "action_taken"}
    assert "jump" in taken  # a cost paid by a piece was checked and paid both ways
