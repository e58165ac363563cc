"""Reaction windows (out-of-turn answers) and the rule set's say on ending a turn."""

from __future__ import annotations

import json

import pytest

from engine_rulesets import QUIET_SETUP_AND_ROUND, build, choose_action, game_yaml

from rulecraft.dsl.loader import load_ruleset
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import Machine
from rulecraft.interpreter.state import GameState

DATA = """
kinds:
  player:
    properties:
      hp: {type: number, default: 5}
      ap: {type: number, default: 0}
  card:
    located_in: zone
    properties:
      shield: {type: bool, default: false}
zones:
  hand: {per_player: true, visible_to: owner}
  discard: {}
components:
  - {name: shield, kind: card, count: 2, per_player: true, zone: hand, properties: {shield: true}}
variables:
  turn:
    poked: {type: bool, default: false}
"""

RULES = QUIET_SETUP_AND_ROUND + """
trigger refresh:
    on turn_started
    do:
        set event.player.ap = 1

action poke:
    with victim: player in players where victim != current_player
    cost 1 ap
    do:
        set turn.poked = true
        window harm(victim: victim, amount: 2, blocked: 0) as hit
        set victim.hp -= hit.amount - hit.blocked
        emit harmed(victim: victim, lost: hit.amount - hit.blocked)

reaction raise_shield:
    on harm
    by event.victim
    with card: card in contents(hand(event.victim)) where card.shield
    require event.blocked < event.amount else "nothing left to block"
    do:
        move card to discard
        set event.blocked += 1

function may_end(p: player) -> bool:
    = turn.poked
"""


def _ruleset(tmp_path, end_hook: bool = True):
    game = game_yaml(players=(2, 2), round_limit=3)
    if end_hook:
        game += "  end_turn_allowed: may_end\n"
    return build(tmp_path, {"game.yaml": game + DATA, "main.rules": RULES})


def test_the_victim_may_react_out_of_turn_and_the_window_record_carries_the_result(tmp_path):
    game = Game(_ruleset(tmp_path), 2, 1)
    assert game.pending.player == "p1"
    choose_action(game, "poke", victim="p2")
    choice = game.pending
    assert choice.kind == "reaction" and choice.player == "p2"
    assert {"reaction": "pass"} in choice.options
    assert sum(o.get("reaction") == "raise_shield" for o in choice.options) == 2
    game.choose(0)  # one shield
    assert game.pending.kind == "reaction" and game.pending.player == "p2"  # may react again
    game.choose_option({"reaction": "pass"})
    assert game.state.entities["p2"]["props"]["hp"] == 4
    harmed = [e for e in game.events if e["type"] == "harmed"]
    assert harmed[-1]["lost"] == 1


def test_a_reaction_stops_being_offered_when_its_requirement_fails(tmp_path):
    game = Game(_ruleset(tmp_path), 2, 1)
    choose_action(game, "poke", victim="p2")
    game.choose(0)
    game.choose(0)  # both shields: 2 of 2 blocked, so no third offer and no 'pass' asked
    # the window closed; p1 has no AP left, so play went on to p2's turn
    assert game.pending.kind == "action" and game.pending.player == "p2"
    assert game.state.entities["p2"]["props"]["hp"] == 5


def test_only_the_named_player_is_asked(tmp_path):
    game = Game(_ruleset(tmp_path), 2, 1)
    choose_action(game, "poke", victim="p2")
    assert game.view("p1")["choice"] is None
    assert game.view("p2")["choice"]["kind"] == "reaction"


def test_a_state_saved_inside_a_window_resumes_with_its_record(tmp_path):
    rs = _ruleset(tmp_path)
    game = Game(rs, 2, 1)
    choose_action(game, "poke", victim="p2")
    game.choose(0)  # one shield played, still inside the window
    saved = GameState.from_json(json.loads(game.state.dumps()))
    machine = Machine(rs, saved)
    machine.answer(saved.pending["options"].index({"reaction": "pass"}))
    game.choose_option({"reaction": "pass"})
    assert saved.dumps() == game.state.dumps()


def test_end_turn_is_offered_only_when_the_rule_set_allows_it(tmp_path):
    game = Game(_ruleset(tmp_path), 2, 1)
    assert {"action": "end_turn"} not in game.pending.options  # not yet poked
    choose_action(game, "poke", victim="p2")
    game.choose_option({"reaction": "pass"})
    # no AP left: nothing is legal, so the turn ends by itself even without 'end turn'
    assert game.pending.player == "p2"


def test_end_turn_is_always_offered_without_the_hook(tmp_path):
    game = Game(_ruleset(tmp_path, end_hook=False), 2, 1)
    assert {"action": "end_turn"} in game.pending.options


def test_checker_refuses_a_reaction_to_a_window_nobody_opens(tmp_path):
    rules = RULES.replace("on harm", "on harn")
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "game.yaml").write_text(game_yaml(players=(2, 2)) + DATA)
    (folder / "main.rules").write_text(rules)
    rs = load_ruleset(folder)
    errors = [e for e in rs.bag.errors if "no rule opens" in e.message]
    assert len(errors) == 1 and errors[0].hint == "did you mean 'harm'?"


@pytest.mark.parametrize("bad,message", [
    ("        set event.blocked += 1", None),
    ("        set event.blokked += 1", "window 'harm' has no field 'blokked'"),
])
def test_checker_knows_the_fields_of_a_window_record(tmp_path, bad, message):
    rules = RULES.replace("        set event.blocked += 1", bad)
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "game.yaml").write_text(game_yaml(players=(2, 2)) + DATA)
    (folder / "main.rules").write_text(rules)
    rs = load_ruleset(folder)
    if message is None:
        assert not rs.bag.errors, rs.bag.render()
    else:
        assert [e.message for e in rs.bag.errors] == [message]


def test_action_events_keep_the_arguments_as_chosen(tmp_path):
    game = Game(_ruleset(tmp_path), 2, 1)
    choose_action(game, "poke", victim="p2")
    game.choose_option({"reaction": "pass"})
    taken = [e for e in game.events if e["type"] == "action_taken"][-1]
    assert taken["args"] == {"victim": "p2"}  # not the action's later variables


def test_a_reaction_seen_by_others_hides_the_card_from_a_hidden_hand(tmp_path):
    game = Game(_ruleset(tmp_path), 2, 1)
    choose_action(game, "poke", victim="p2")
    game.choose(0)
    card = [e for e in game.events if e["type"] == "reacted"][-1]["args"]["card"]
    mine = [e for e in game.events_for("p2") if e["type"] == "reacted"][-1]
    theirs = [e for e in game.events_for("p1") if e["type"] == "reacted"][-1]
    assert mine["args"]["card"] == card
    assert theirs["args"]["card"] == "?"


def test_asking_every_eligible_player_hides_who_holds_a_reaction(tmp_path):
    rs = _ruleset(tmp_path)
    lean = Game(rs, 2, 1)
    table = Game(rs, 2, 1, settings={"ask_every_eligible": True})
    for game in (lean, table):
        for card in list(game.state.zones["hand:p2"]):  # p2 holds no shield at all
            game.state.zones["hand:p2"].remove(card)
            game.state.entities[card]["at"] = None
    choose_action(lean, "poke", victim="p2")
    assert lean.pending.kind != "reaction"  # nothing to play: not asked
    choose_action(table, "poke", victim="p2")
    assert table.pending.kind == "reaction" and table.pending.player == "p2"
    assert table.pending.options == [{"reaction": "pass"}]
    # the setting travels with the log, so a replay asks the same questions
    assert json.loads(next(iter(table.log_lines())))["settings"] == {"ask_every_eligible": True}
    assert Game.from_log(rs, list(table.log_lines())).state.settings == {"ask_every_eligible": True}
