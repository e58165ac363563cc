"""A clone played ahead borrows its entities from the state it was made from: whatever
the machine does on the clone leaves the original byte for byte as it was."""

from __future__ import annotations

import random

from engine_rulesets import QUIET_SETUP_AND_ROUND, build, game_yaml

from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import Machine

DATA = """
kinds:
  player:
    properties:
      ap: {type: number, default: 3}
  token:
    properties:
      worn: {type: number, default: 0}
zones:
  pile: {ordered: true}
  spot: {}
components:
  - {name: chip, kind: token, count: 4, zone: pile}
"""

RULES = QUIET_SETUP_AND_ROUND + """
action take:
    cost 1 ap
    with t: token in contents(pile)
    do:
        set t.worn += 1
        move t to spot
"""


def test_the_original_is_unchanged_by_what_its_borrowing_clone_does(tmp_path):
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(1, 1)) + DATA, "play.rules": RULES})
    game = Game(rs, 1, 3)
    before = game.state.dumps()
    clone = game.state.clone(borrow=True)
    machine = Machine(rs, clone)
    for _ in range(3):
        options = clone.pending["options"]
        machine.answer(random.Random(1).randrange(len(options) - 1))
    assert clone.dumps() != before
    assert game.state.dumps() == before
    assert clone.lent is game.state.entities
    # the clone copied the entities it changed, and only those
    changed = [e for e in clone.entities if clone.entities[e] is not game.state.entities[e]]
    assert changed and len(changed) < len(clone.entities)


def test_a_borrowing_clone_copies_a_zone_only_when_it_changes_it(tmp_path):
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(1, 1)) + DATA, "play.rules": RULES})
    game = Game(rs, 1, 3)
    pile_before = list(game.state.zones["pile"])
    clone = game.state.clone(borrow=True)
    assert clone.lent_zones is game.state.zones
    assert all(clone.zones[z] is game.state.zones[z] for z in clone.zones)  # nothing copied yet
    Machine(rs, clone).answer(0)  # take a chip: it leaves the pile for the spot
    assert game.state.zones["pile"] == pile_before and game.state.zones["spot"] == []
    assert len(clone.zones["pile"]) == len(pile_before) - 1 and len(clone.zones["spot"]) == 1
    changed = {z for z in clone.zones if clone.zones[z] is not game.state.zones[z]}
    assert changed == {"pile", "spot"}


WINDOW_DATA = """
kinds:
  player:
    properties:
      hp: {type: number, default: 5}
      ap: {type: number, default: 0}
"""

WINDOW_RULES = QUIET_SETUP_AND_ROUND + """
trigger refresh:
    on turn_started
    do:
        set event.player.ap = 1

action poke:
    with victim: player in players where victim != current_player
    cost 1 ap
    do:
        window harm(victim: victim, amount: 2, blocked: 0) as hit
        set victim.hp -= hit.amount - hit.blocked

reaction block:
    on harm
    by event.victim
    require event.blocked < event.amount else "nothing left to block"
    do:
        set event.blocked += 1
"""


def test_a_borrowing_clone_copies_a_window_record_before_changing_it(tmp_path):
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 2)) + WINDOW_DATA, "play.rules": WINDOW_RULES})
    game = Game(rs, 2, 3)
    game.choose(0)  # poke: the victim may block
    assert game.state.pending["kind"] == "reaction"
    before = game.state.dumps()
    clone = game.state.clone(borrow=True)
    Machine(rs, clone).answer(0)  # block: the record's `blocked` goes up in the clone only
    (wid,) = game.state.windows
    assert clone.windows[wid]["blocked"] == 1 and game.state.windows[wid]["blocked"] == 0
    assert game.state.dumps() == before
