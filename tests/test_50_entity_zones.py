"""Zones of any entity (a piece's item slots) and list-valued properties."""

from __future__ import annotations

from engine_rulesets import build, choose_action, events_of, game_yaml, write_ruleset

from rulecraft.dsl.loader import load_ruleset
from rulecraft.interpreter.game import Game

DATA = """
kinds:
  player:
    properties:
      visited: {type: list of text}
  robot:
    owner: pilot
    properties:
      pilot: player
      tags: {type: list of text}
  part:
    located_in: zone
    properties:
      weight: {type: number, default: 1}
zones:
  crate: {}
  slots: {per: robot, visible_to: owner}
  bay: {per: robot}
components:
  - {name: robot, kind: robot, count: 1, per_player: true}
  - {name: part, kind: part, count: 3, zone: crate}
"""

RULES = """
procedure setup():
    do:
        stop  # each robot's pilot is its player: per-player components get their owner

procedure round():
    do:
        for each p in players:
            play_turn(p)

action fit:
    with r: robot where r.pilot == current_player
    with x: part in contents(crate)
    require count(contents(slots(r))) < 2 else "two slots only"
    do:
        move x to slots(r)
        set r.tags += ["fitted"]
        set current_player.visited += ["crate", "bay"]
        emit fitted(load: sum([y.weight for y in contents(slots(r))]))

action unfit:
    with r: robot where r.pilot == current_player
    with x: part in contents(slots(r))
    do:
        move x to bay(r)
        set r.tags -= ["fitted"]
        set current_player.visited -= ["crate"]
"""


def _game(tmp_path) -> Game:
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 2), round_limit=3) + DATA, "main.rules": RULES})
    return Game(rs, 2, 1)


def test_each_entity_of_the_kind_has_its_own_zone(tmp_path):
    game = _game(tmp_path)
    assert game.state.zones["slots:robot.p1"] == [] and game.state.zones["slots:robot.p2"] == []
    assert "bay:robot.p1" in game.state.zones and "slots" not in game.state.zones
    choose_action(game, "fit", r="robot.p1", x="part.1")
    choose_action(game, "fit", r="robot.p1", x="part.2")
    assert game.state.zones["slots:robot.p1"] == ["part.2", "part.1"]
    assert events_of(game, "fitted")[-1]["load"] == 2
    options = [o for o in game.pending.options if o["action"] == "fit"]
    assert options == []  # the slots are full


def test_a_zone_of_an_entity_is_seen_by_the_entity_owner_only(tmp_path):
    game = _game(tmp_path)
    choose_action(game, "fit", r="robot.p1", x="part.1")
    assert game.view("p1")["zones"]["slots:robot.p1"] == ["part.1"]
    assert game.view("p2")["zones"]["slots:robot.p1"] == {"count": 1}
    assert "part.1" not in game.view("p2")["entities"]
    moved = [e for e in game.events_for("p2") if e["type"] == "moved" and e["destination"] == "slots:robot.p1"]
    # moved from a public zone: seen by all, as a card drawn face up then hidden
    assert [(e["entity"], e["source"]) for e in moved] == [("part.1", "crate")]
    choose_action(game, "unfit", r="robot.p1", x="part.1")
    hidden = [e for e in game.events_for("p2") if e["type"] == "moved" and e["destination"] == "bay:robot.p1"]
    assert hidden[-1]["entity"] == "part.1"  # the bay is public: the part is seen again


def test_list_properties_grow_and_shrink(tmp_path):
    game = _game(tmp_path)
    choose_action(game, "fit", r="robot.p1", x="part.1")
    choose_action(game, "fit", r="robot.p1", x="part.2")
    props = game.state.entities["robot.p1"]["props"]
    assert props["tags"] == ["fitted", "fitted"]
    assert game.state.entities["p1"]["props"]["visited"] == ["crate", "bay", "crate", "bay"]
    choose_action(game, "unfit", r="robot.p1", x="part.1")
    assert props["tags"] == []  # every copy of the items taken away
    assert game.state.entities["p1"]["props"]["visited"] == ["bay", "bay"]


def _errors(tmp_path, rules: str, data: str = DATA) -> list[str]:
    folder = write_ruleset(tmp_path / "bad", {"game.yaml": game_yaml(players=(2, 2)) + data, "main.rules": rules})
    return [d.message for d in load_ruleset(folder).bag.errors]


def test_the_checker_types_the_owner_of_an_entity_zone(tmp_path):
    errors = _errors(tmp_path, RULES.replace("move x to slots(r)", "move x to slots(current_player)"))
    assert errors == ["argument of 'slots' should be a robot, not a player"]
    errors = _errors(tmp_path, RULES.replace("move x to slots(r)", "move x to slots"))
    assert errors == ["unknown name 'slots'"]
    errors = _errors(tmp_path, RULES.replace('set r.tags -= ["fitted"]', 'set r.tags -= "fitted"'))
    assert errors == ["'-=' takes a list from tags; wrap the item: [x]"]


def test_a_zone_per_an_unknown_kind_is_an_error(tmp_path):
    errors = _errors(tmp_path, RULES, DATA.replace("slots: {per: robot", "slots: {per: robbot"))
    assert "zone 'slots' is per unknown kind 'robbot'" in errors
