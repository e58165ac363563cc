"""A window whose answers every player can work out asks only those who can answer.

Played for people, a window asks every player a reaction could name, even one who can
only pass, so that nobody learns who holds a reaction card. Where the reactions read
only what everyone sees (open hands, public properties, the window's record), everyone
already knows that, and asking one who can only pass is a needless click.
"""

from __future__ import annotations

import json
import random

import pytest

from engine_rulesets import QUIET_SETUP_AND_ROUND, build, choose_action, game_yaml

from rulecraft.dsl.loader import load_checked
from rulecraft.dsl.public_reads import public_windows
from rulecraft.interpreter.game import PLAYER_FACING, Game

DATA = """
kinds:
  player:
    properties:
      hp: {type: number, default: 5}
      ap: {type: number, default: 0}
  card:
    located_in: zone
    properties:
      shield: {type: bool, default: false, visible_to: SHIELD_SEEN}
zones:
  hand: {per_player: true, visible_to: HAND_SEEN}
  discard: {}
  vault: {visible_to: nobody}
components:
  - {name: shield, kind: card, count: 2, per_player: true, zone: hand, properties: {shield: true}}
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
        window harm(victim: victim, amount: 2, blocked: 0) as hit
        set victim.hp -= hit.amount - hit.blocked

reaction raise_shield:
    on harm
    by event.victim
    with card: card in contents(hand(event.victim)) where READS
    require event.blocked < event.amount else "nothing left to block"
    do:
        move card to discard
        set event.blocked += 1

function shielded(c: card) -> bool:
    = c.shield
"""


def _ruleset(tmp_path, hand="everyone", shield="everyone", reads="card.shield"):
    data = DATA.replace("HAND_SEEN", hand).replace("SHIELD_SEEN", shield)
    return build(tmp_path, {"game.yaml": game_yaml(players=(2, 2), round_limit=3) + data,
                            "main.rules": RULES.replace("READS", reads)})


@pytest.mark.parametrize("hand, shield, reads, public", [
    ("everyone", "everyone", "card.shield", True),  # open hands, printed cards
    ("owner", "everyone", "card.shield", False),  # a closed hand
    ("everyone", "owner", "card.shield", False),  # a property its owner alone sees
    ("everyone", "owner", "shielded(card)", False),  # ... read through a function
    ("everyone", "everyone", "shielded(card)", True),
    ("everyone", "everyone", "card.at != vault", False),  # where a thing lies, with a zone nobody sees
    ("everyone", "everyone", "count(contents(vault)) == 0", False),
])
def test_a_window_is_public_only_when_its_reactions_read_what_everyone_sees(tmp_path, hand, shield, reads, public):
    assert public_windows(_ruleset(tmp_path, hand, shield, reads)) == (frozenset({"harm"}) if public else frozenset())


def _without_shields(game: Game, player: str) -> None:
    for card in list(game.state.zones[f"hand:{player}"]):
        game.state.zones[f"hand:{player}"].remove(card)
        game.state.entities[card]["at"] = None


def test_in_a_public_window_one_who_can_only_pass_is_not_asked(tmp_path):
    game = Game(_ruleset(tmp_path), 2, 1, settings=PLAYER_FACING)
    _without_shields(game, "p2")
    choose_action(game, "poke", victim="p2")
    assert game.pending.kind != "reaction"  # everyone sees p2 holds no shield
    assert game.state.entities["p2"]["props"]["hp"] == 3


def test_one_who_can_answer_is_still_asked_in_a_public_window(tmp_path):
    game = Game(_ruleset(tmp_path), 2, 1, settings=PLAYER_FACING)
    choose_action(game, "poke", victim="p2")
    assert game.pending.kind == "reaction" and game.pending.player == "p2"
    assert {"reaction": "pass"} in game.pending.options and len(game.pending.options) == 3


def test_a_closed_hand_still_hides_who_can_answer(tmp_path):
    game = Game(_ruleset(tmp_path, hand="owner"), 2, 1, settings=PLAYER_FACING)
    _without_shields(game, "p2")
    choose_action(game, "poke", victim="p2")
    assert game.pending.kind == "reaction" and game.pending.player == "p2"
    assert game.pending.options == [{"reaction": "pass"}]


def test_a_log_played_before_the_setting_replays_as_it_was_asked(tmp_path):
    """A log or save records its settings: one without ``skip_known_passes`` holds a
    pass for every such question, and goes on asking them."""
    rs = _ruleset(tmp_path)
    earlier = Game(rs, 2, 1, settings={"ask_every_eligible": True})
    choose_action(earlier, "poke", victim="p2")
    for _ in range(2):
        earlier.choose_option({"reaction": "raise_shield", "args": earlier.pending.options[0]["args"]})
    assert earlier.pending.options == [{"reaction": "pass"}]  # the question the setting leaves out
    earlier.choose_option({"reaction": "pass"})
    assert earlier.pending.kind == "action" and earlier.pending.player == "p2"
    lines = list(earlier.log_lines())
    assert json.loads(lines[0])["settings"] == {"ask_every_eligible": True}
    again = Game.from_log(rs, lines)
    assert again.state.entities == earlier.state.entities and again.decisions == earlier.decisions


def test_star_trek_panic_never_asks_a_pass_alone():
    """Its hands are open and the Security card's reaction reads only them and the
    window's record, so a question out of turn always offers a card to play."""
    rs = load_checked("rules/star_trek_panic")
    assert public_windows(rs) == {"boarders"}
    asked = 0
    for seed in range(6):
        game, pick = Game(rs, 4, seed, settings=PLAYER_FACING, record_events=False), random.Random(seed)
        for _ in range(600):
            if game.pending is None:
                break
            if game.pending.kind == "reaction":
                asked += 1
                assert game.pending.options != [{"reaction": "pass"}]
            game.choose(pick.randrange(len(game.pending.options)))
    assert asked > 0  # boarders came, and someone held Security


def test_a_closed_hand_game_keeps_asking_every_eligible_player():
    """Panic Station's Armor lies in closed hands: its window is not public."""
    assert public_windows(load_checked("rules/panic_station")) == frozenset()
