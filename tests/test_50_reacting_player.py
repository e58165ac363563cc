"""A reaction open to several players knows who is reacting, and the checker warns
where a choice would offer the things of a private zone to someone who may not see it."""

from __future__ import annotations

from engine_rulesets import QUIET_SETUP_AND_ROUND, build, choose_action, events_of, game_yaml, write_ruleset

from rulecraft.dsl.loader import load_ruleset
from rulecraft.interpreter.game import Game

DATA = """
kinds:
  player:
    properties:
      ap: {type: number, default: 0}
  card:
    located_in: zone
    properties:
      value: {type: number, default: 1}
zones:
  hand: {per_player: true, visible_to: owner}
  discard: {}
components:
  - {name: coin, kind: card, count: 2, per_player: true, zone: hand}
"""

RULES = QUIET_SETUP_AND_ROUND + """
trigger refresh:
    on turn_started
    do:
        set event.player.ap = 1

action ask_for_help:
    cost 1 ap
    do:
        window need(asker: current_player) as plea

reaction lend:
    on need
    by helper: player where helper != event.asker
    with card: card in contents(hand(helper))
    do:
        move card to hand(event.asker)
        emit lent(by: helper, card: card)
"""


def _game(tmp_path, rules: str = RULES) -> Game:
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(3, 3), round_limit=2) + DATA, "main.rules": rules})
    return Game(rs, 3, 1)


def _empty_hand(game: Game, player: str) -> None:
    zone = f"hand:{player}"
    for card in list(game.state.zones[zone]):
        game.state.zones[zone].remove(card)
        game.state.zones["discard"].append(card)
        game.state.entities[card]["at"] = "discard"


def test_each_reacting_player_is_offered_only_their_own_cards(tmp_path):
    game = _game(tmp_path)
    _empty_hand(game, "p2")
    choose_action(game, "ask_for_help")
    # p2 holds nothing, so is not asked (and never sees p3's cards); p3 is offered their own
    choice = game.pending
    assert choice.kind == "reaction" and choice.player == "p3"
    offered = [o["args"]["card"] for o in choice.options if o.get("reaction") == "lend"]
    assert sorted(offered) == sorted(game.state.zones["hand:p3"]) and len(offered) == 2
    game.choose_option({"reaction": "lend", "args": {"card": offered[0]}})
    lent = events_of(game, "lent")[-1]
    assert lent["by"] == "p3" and lent["card"] == offered[0]
    assert offered[0] in game.state.zones["hand:p1"]


def test_the_reaction_filter_on_the_reacting_player_excludes_the_asker(tmp_path):
    game = _game(tmp_path)
    choose_action(game, "ask_for_help")
    asked = []
    while game.pending.kind == "reaction":
        asked.append(game.pending.player)
        game.choose_option({"reaction": "pass"})
    assert asked == ["p2", "p3"]  # in seat order after the asker, never the asker


def test_the_reacting_player_is_readable_in_requirements(tmp_path):
    rules = RULES.replace("    with card: card in contents(hand(helper))\n",
                          "    with card: card in contents(hand(helper))\n"
                          "    require count(contents(hand(helper))) > 2 else \"keep two cards\"\n")
    game = _game(tmp_path, rules)
    choose_action(game, "ask_for_help")
    assert game.pending.kind != "reaction"  # both helpers hold exactly two cards


def _warnings(tmp_path, rules: str) -> list:
    folder = write_ruleset(tmp_path / "w", {"game.yaml": game_yaml(players=(3, 3)) + DATA, "main.rules": rules})
    rs = load_ruleset(folder)
    assert not rs.bag.errors, rs.bag.render()
    return [w for w in rs.bag.warnings if w.code == "hidden"]


def test_no_warning_when_each_player_is_offered_their_own_zone(tmp_path):
    assert _warnings(tmp_path, RULES) == []


def test_a_reaction_of_several_players_offering_one_hand_is_warned(tmp_path):
    rules = RULES.replace("    by helper: player where helper != event.asker\n", "    by players\n")
    rules = rules.replace("hand(helper))", "hand(event.asker))").replace("by: helper", "by: event.asker")
    (w,) = _warnings(tmp_path, rules)
    assert w.message == "'with card' offers the things in a 'hand' that the reacting player may not see"
    assert w.position.line == rules.lstrip("\n").splitlines().index("    with card: card in contents(hand(event.asker))") + 1
    assert "by p: player in" in w.hint


def test_a_reaction_offering_someone_elses_hand_is_warned(tmp_path):
    rules = RULES.replace("hand(helper))", "hand(event.asker))")
    (w,) = _warnings(tmp_path, rules)
    assert "the reacting player may not see" in w.message


def test_choices_and_action_parameters_over_another_players_hand_are_warned(tmp_path):
    rules = RULES + """
action snoop:
    with victim: player where victim != current_player
    with card: card in contents(hand(victim))
    do:
        move card to discard

action pick:
    with victim: player where victim != current_player
    do:
        choose card from contents(hand(victim)) prompt "Which card?"
        move card to discard
        choose mine from contents(hand(current_player)) + contents(hand(victim)) by victim
        move mine to discard
        choose own from take(contents(hand(victim)), 1) by victim
        move own to discard
"""
    warnings = _warnings(tmp_path, rules)
    assert [w.message for w in warnings] == [
        "'with card' offers the things in a 'hand' that the acting player may not see",
        "'choose card' offers the things in a 'hand' that the chooser may not see",
        "'choose mine' offers the things in a 'hand' that the chooser may not see",
    ]


def test_the_rules_site_says_who_may_react_and_names_them(tmp_path):
    from rulecraft.docgen.prose import Prose

    rs = build(tmp_path, {"game.yaml": game_yaml(players=(3, 3)) + DATA, "main.rules": RULES})
    text = Prose(rs, "en").definition("lend")
    assert text.startswith("While the reaction window “need” is open, any of the players may react; call the one "
                           "reacting the helper. Only one for whom the helper is not the asker of the event may react.")
    assert "a card among the things in the hand of the helper" in text
