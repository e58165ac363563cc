"""Obligations: something the player whose turn it is must still do. While it can be met
within its lookahead, only the options that keep it within reach are offered and the
turn may not end; when it cannot be met it is ignored."""

from __future__ import annotations

import pytest
from engine_rulesets import QUIET_SETUP_AND_ROUND, build, choose_action, events_of, game_yaml

from rulecraft.dsl.diagnostics import RuleSetError
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game

DATA = """
kinds:
  player:
    properties:
      ap: {type: number, default: 0}
      pos: {type: number, default: 0}
dice:
  coin: [1, 2]
variables:
  turn:
    dug: {type: bool, default: false}
"""

# A walk along a line: digging is only possible at position 2; `leap` asks where to land.
RULES = QUIET_SETUP_AND_ROUND + """
trigger refill:
    on turn_started
    do:
        set event.player.ap = START_AP
        set event.player.pos = 0

action forward:
    cost 1 ap
    do:
        set current_player.pos += 1

action back:
    cost 1 ap
    do:
        set current_player.pos -= 1

action gamble:
    cost 1 ap
    do:
        let face = roll(coin)
        set current_player.pos -= face

action leap:
    cost 1 ap
    do:
        choose n from [1, 5] by current_player prompt "Land where?"
        set current_player.pos = n

action dig:
    require current_player.pos == 2 else "nothing to dig here"
    cost 1 ap
    do:
        set turn.dug = true

obligation must_dig:
    text "Every turn a player must dig once, when digging can be reached."
    when not turn.dug
    within WITHIN actions
"""


def load(tmp_path, start_ap: int = 3, within: int = 3):
    rules = RULES.replace("START_AP", str(start_ap)).replace("WITHIN", str(within))
    return build(tmp_path, {"game.yaml": game_yaml(round_limit=2) + DATA, "main.rules": rules},
                 name=f"walk_{start_ap}_{within}")


def offered(game: Game) -> list[str]:
    return sorted(o["action"] for o in game.pending.options)


def test_only_options_that_keep_the_obligation_in_reach_are_offered(tmp_path):
    game = Game(load(tmp_path), 2, 1)
    # back, gamble and a plain nap would leave too few points; leap can land on 1
    assert offered(game) == ["forward", "leap"], "end turn is not offered while the dig is reachable"
    choose_action(game, "forward")
    assert offered(game) == ["forward"]
    choose_action(game, "forward")
    assert offered(game) == ["dig"]
    choose_action(game, "dig")
    assert game.pending.player == "p2", "with the obligation met and no AP left the turn ends"


def test_a_choice_inside_an_action_counts_if_some_answer_keeps_it_in_reach(tmp_path):
    game = Game(load(tmp_path), 2, 1)
    choose_action(game, "leap")
    assert game.pending.kind == "choose"
    assert game.pending.options == [1, 5], "the choice itself is not filtered: only actions are"
    game.choose(0)
    assert offered(game) == ["forward"]


def test_once_met_every_option_and_end_turn_come_back(tmp_path):
    game = Game(load(tmp_path, start_ap=4), 2, 1)
    choose_action(game, "forward")
    choose_action(game, "forward")
    choose_action(game, "dig")
    assert offered(game) == ["back", "dig", "end_turn", "forward", "gamble", "leap"]


def test_an_obligation_that_cannot_be_met_is_ignored(tmp_path):
    game = Game(load(tmp_path, start_ap=2), 2, 1)
    assert offered(game) == ["back", "end_turn", "forward", "gamble", "leap"]


def test_the_lookahead_stops_at_its_bound(tmp_path):
    game = Game(load(tmp_path, within=2), 2, 1)
    assert "end_turn" in offered(game), "three actions are needed, two are looked at: the obligation is ignored"
    choose_action(game, "forward")
    assert offered(game) == ["forward"], "now two actions reach it"


def test_the_lookahead_leaves_the_game_untouched(tmp_path):
    game = Game(load(tmp_path), 2, 1)
    before = game.state.dumps()
    assert events_of(game, "rolled") == [], "gamble was tried ahead on a copy, not rolled"
    assert not any(e["type"] == "changed" and e["property"] == "pos" for e in game.events)
    assert game.state.dumps() == before
    again = Game(load(tmp_path), 2, 1)
    assert again.state.dumps() == before


@pytest.mark.parametrize("clauses, message", [
    ("    when not turn.dug\n", "obligation 'owe' needs both 'when' and 'within N actions'"),
    ("    when not turn.dug\n    within 0 actions\n", "obligation 'owe' must look at least 1 action ahead"),
    ("    when 3\n    within 2 actions\n", "an obligation condition must be a bool, not a number"),
])
def test_checker_reports_malformed_obligations(tmp_path, clauses, message):
    rules = RULES.replace("START_AP", "3").split("obligation must_dig")[0] + "obligation owe:\n" + clauses
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "game.yaml").write_text(game_yaml() + DATA)
    (folder / "main.rules").write_text(rules)
    with pytest.raises(RuleSetError) as err:
        load_checked(folder)
    assert message in [d.message for d in err.value.bag.errors], err.value.bag.render()


def test_within_is_a_clause_of_obligations_only(tmp_path):
    rules = RULES.replace("START_AP", "3").replace("WITHIN", "3").replace(
        "action dig:\n", "action dig:\n    within 2 actions\n")
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "game.yaml").write_text(game_yaml() + DATA)
    (folder / "main.rules").write_text(rules)
    with pytest.raises(RuleSetError) as err:
        load_checked(folder)
    assert "'within' is not allowed in action 'dig'" in [d.message for d in err.value.bag.errors]


def test_a_possible_test_replaces_the_search_and_prunes_it(tmp_path):
    # The rule set says itself when the dig can still be reached: within 1 action the
    # engine only plays each option and asks the test.
    rules = RULES.replace("START_AP", "3").replace("within WITHIN actions",
                                                    "possible current_player.ap >= 2 - current_player.pos + 1 and current_player.pos <= 2\n    within 1 actions")
    ruleset = build(tmp_path, {"game.yaml": game_yaml(round_limit=2) + DATA, "main.rules": rules}, name="walk_possible")
    game = Game(ruleset, 2, 1)
    assert offered(game) == ["forward", "leap"]
    choose_action(game, "leap")
    game.choose(1)  # landing on 5: the test says the dig is out of reach, so it lapses
    assert offered(game) == ["back", "end_turn", "forward", "gamble", "leap"]
