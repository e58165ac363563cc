"""The engine's window on a chosen action: a reaction may decline it before its steps run."""

from __future__ import annotations

import json

import pytest

from engine_rulesets import QUIET_SETUP_AND_ROUND, build, choose_action, events_of, game_yaml, play_randomly

from rulecraft.bots import make_bot, view_for
from rulecraft.dsl.loader import load_ruleset
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import Machine
from rulecraft.interpreter.state import GameState

DATA = """
kinds:
  player:
    properties:
      ap: {type: number, default: 0}
      gold: {type: number, default: 3}
      vetoes: {type: number, default: 1}
  card:
    located_in: zone
    properties:
      value: {type: number, default: 1}
zones:
  hand: {per_player: true, visible_to: owner}
  pile: {}
components:
  - {name: coin, kind: card, count: 2, per_player: true, zone: hand}
"""

RULES = QUIET_SETUP_AND_ROUND + """
trigger refresh:
    on turn_started
    do:
        set event.player.ap = 2

action grab:
    with victim: player in players where victim != current_player and victim.gold > 0
    cost 1 ap
    do:
        set victim.gold -= 1
        set current_player.gold += 1

action play:
    with card: card in contents(hand(current_player))
    cost 1 ap
    do:
        move card to pile
        emit played(card: card)

reaction veto:
    on action_chosen
    by event.victim
    require event.action == "grab"
    require event.victim.vetoes > 0
    do:
        set event.declined = true
        set event.victim.vetoes -= 1

heuristic rich(me: player):
    feature "own gold" weight 1: me.gold
    prefer veto weight 5
"""


def _ruleset(tmp_path, rules: str = RULES):
    return build(tmp_path, {"game.yaml": game_yaml(players=(2, 3), round_limit=3) + DATA, "main.rules": rules})


def _gold(game: Game, player: str) -> int:
    return game.state.entities[player]["props"]["gold"]


def test_the_player_a_reaction_names_may_decline_the_action_before_its_steps(tmp_path):
    game = Game(_ruleset(tmp_path), 2, 1)
    choose_action(game, "grab", victim="p2")
    assert game.pending.kind == "reaction" and game.pending.player == "p2"
    assert game.pending.options == [{"reaction": "veto", "args": {}}, {"reaction": "pass"}]
    assert game.view("p1")["choice"] is None
    game.choose_option({"reaction": "veto", "args": {}})
    assert (_gold(game, "p1"), _gold(game, "p2")) == (3, 3)  # the steps did not run
    assert game.state.entities["p1"]["props"]["ap"] == 1  # the cost stays paid
    assert events_of(game, "action_declined") == [{"type": "action_declined", "player": "p1", "action": "grab",
                                                   "seq": events_of(game, "action_declined")[0]["seq"]}]
    assert game.state.windows == {}  # the record of the engine's window is dropped on closing
    assert game.pending.kind == "action" and game.pending.player == "p1"


def test_an_action_passed_on_runs_as_chosen(tmp_path):
    game = Game(_ruleset(tmp_path), 2, 1)
    choose_action(game, "grab", victim="p2")
    game.choose_option({"reaction": "pass"})
    assert (_gold(game, "p1"), _gold(game, "p2")) == (4, 2)
    assert events_of(game, "action_declined") == []
    # the veto is still there for the next grab
    choose_action(game, "grab", victim="p2")
    assert game.pending.kind == "reaction" and game.pending.player == "p2"


def test_only_the_player_the_reaction_names_is_asked_and_only_while_it_is_legal(tmp_path):
    game = Game(_ruleset(tmp_path), 3, 1)
    choose_action(game, "grab", victim="p3")
    assert game.pending.player == "p3"  # not p2, who is not grabbed
    game.choose_option({"reaction": "veto", "args": {}})
    choose_action(game, "grab", victim="p3")  # p3 has no veto left: not asked
    assert _gold(game, "p3") == 2
    assert game.pending.kind != "reaction"


def test_an_action_no_reaction_answers_asks_no_one_and_its_hidden_argument_stays_hidden(tmp_path):
    game = Game(_ruleset(tmp_path), 2, 1)
    card = game.state.zones["hand:p1"][0]
    choose_action(game, "play", card=card)
    assert game.pending.kind == "action" and game.pending.player == "p1"
    mine = [e for e in game.events_for("p1") if e["type"] == "action_chosen"][-1]
    theirs = [e for e in game.events_for("p2") if e["type"] == "action_chosen"][-1]
    assert mine["card"] == card and mine["action"] == "play" and mine["player"] == "p1"
    assert theirs["card"] == "?" and theirs["action"] == "play"


def test_a_state_saved_inside_the_window_resumes_in_it(tmp_path):
    rs = _ruleset(tmp_path)
    game = Game(rs, 2, 1)
    choose_action(game, "grab", victim="p2")
    saved = GameState.from_json(json.loads(game.state.dumps()))
    machine = Machine(rs, saved)
    machine.answer(saved.pending["options"].index({"reaction": "veto", "args": {}}))
    game.choose_option({"reaction": "veto", "args": {}})
    assert saved.dumps() == game.state.dumps()


def test_a_rule_set_without_a_reaction_to_it_opens_no_window(tmp_path):
    rules = RULES[:RULES.index("reaction veto:")]
    game = Game(_ruleset(tmp_path, rules), 2, 1)
    choose_action(game, "grab", victim="p2")
    assert _gold(game, "p2") == 2
    assert events_of(game, "action_chosen") == []


@pytest.mark.parametrize("bot", ["random", "greedy", "mcts"])
def test_bots_are_offered_the_decline_like_any_reaction(tmp_path, bot):
    rs = _ruleset(tmp_path)
    game = Game(rs, 2, 3)
    seats = {p: make_bot(bot, seed=7 + i) for i, p in enumerate(game.state.players)}
    reactions = 0
    while not game.over:
        player = game.pending.player
        reactions += game.pending.kind == "reaction"
        game.choose(seats[player].choose(view_for(game, seats[player], player)))
    assert reactions > 0


def test_random_play_finishes(tmp_path):
    game = Game(_ruleset(tmp_path), 3, 5)
    play_randomly(game, 5)
    assert game.over


def _errors(tmp_path, rules: str) -> list[str]:
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "game.yaml").write_text(game_yaml(players=(2, 2)) + DATA)
    (folder / "main.rules").write_text(rules)
    return [f"{e.position.line}: {e.message}" for e in load_ruleset(folder).bag.errors]


def _line_of(rules: str, text: str) -> int:
    return rules.splitlines().index(text) + 1


@pytest.mark.parametrize("old,new,message", [
    ("        set event.declined = true", "        set event.victim = event.player",
     "only 'declined' of the window 'action_chosen' can be changed: 'victim' is read only"),
    ("    require event.action == \"grab\"", "    require event.actoin == \"grab\"",
     "event 'action_chosen' has no field 'actoin'"),
    ("        emit played(card: card)", "        emit action_chosen(card: card)",
     "'action_chosen' is the window the engine opens on a chosen action; a rule cannot open or emit it"),
    ("    with card: card in contents(hand(current_player))", "    with declined: card in contents(hand(current_player))",
     "action 'play' has an argument 'declined', a field the engine's window 'action_chosen' gives itself, "
     "which a reaction answers"),
])
def test_checker_locates_misuse_of_the_window_on_a_chosen_action(tmp_path, old, new, message):
    rules = RULES.replace(old, new)
    errors = _errors(tmp_path, rules)
    assert f"{_line_of(rules, new)}: {message}" in errors, errors


def test_players_are_told_of_a_decline_but_not_of_the_window_itself(tmp_path):
    """The window repeats what the action's own sentence says; the decline is the news."""
    from rulecraft.cli.play_screen import Screens
    from rulecraft.narration import Words

    rs = _ruleset(tmp_path)
    game = Game(rs, 2, 1)
    choose_action(game, "grab", victim="p2")
    game.choose_option({"reaction": "veto", "args": {}})
    view = game.view("p1")
    kinds = [e["type"] for e in view["events"]]
    assert "action_chosen" in kinds and "action_declined" in kinds
    words = Words(rs)
    words.know_view(view)
    told = [words.event(e) for e in view["events"]]
    assert all(text == "" for e, text in zip(view["events"], told) if e["type"] == "action_chosen")
    assert all(text for e, text in zip(view["events"], told) if e["type"] != "action_chosen")
    for_you, other = Screens(rs, words).news(view["events"], 0, view)
    assert "" not in for_you + other and len(for_you + other) == len(kinds) - kinds.count("action_chosen")
