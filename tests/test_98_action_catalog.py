"""Actions numbered by the rule set's catalog: the same number is the same move in every
state, seed and seat (``actions="catalog"`` in rulecraft.env and rulecraft.spiel).

The yardsticks show it against OpenSpiel's own numbering: one fixed translation of
catalog ids, made from the catalog and the board alone, maps rulecraft's legal actions
onto OpenSpiel's at every step of random games.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from rulecraft.action_catalog import CatalogError, action_catalog
from rulecraft.dsl.loader import load_checked
from rulecraft.dsl.variants import available_variants
from rulecraft.interpreter.game import PLAYER_FACING, Game
from rulecraft.interpreter.state import new_state

from engine_rulesets import QUIET_SETUP_AND_ROUND, build, game_yaml, load_errors

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

from pettingzoo.test import api_test  # noqa: E402

from rulecraft.env import bot_policy, env, raw_env  # noqa: E402
from rulecraft.spiel import load  # noqa: E402

RULES = Path(__file__).resolve().parent.parent / "rules"


def _tic_tac_toe_translation(ruleset) -> dict[int, int]:
    """Catalog id → OpenSpiel's tic-tac-toe action (row by row from the top-left; the
    rule set's row 1 is the bottom), from the catalog and the squares' coordinates."""
    catalog = action_catalog(ruleset, 2)
    squares = new_state(ruleset, 2, 0).entities
    out = {}
    for i, (kind, name, values) in enumerate(catalog.entries):
        assert (kind, name) == ("action", "mark")
        square = squares[values[0]]["props"]
        out[i] = (2 - square["y"]) * 3 + square["x"]
    return out


def _hex_translation(ruleset) -> dict[int, int]:
    catalog = action_catalog(ruleset, 2)
    cells = new_state(ruleset, 2, 0).entities
    out = {}
    for i, (kind, name, values) in enumerate(catalog.entries):
        cell = cells[values[0]]["props"]
        out[i] = (10 - cell["y"]) * 11 + cell["x"]
    return out


@pytest.mark.parametrize("name,translate,games", [("tic_tac_toe", _tic_tac_toe_translation, 60),
                                                  ("hex", _hex_translation, 6)])
def test_one_fixed_translation_maps_the_catalog_onto_openspiels_actions(name, translate, games):
    ruleset = load_checked(RULES / name)
    ours = load(ruleset, actions="catalog")
    theirs = pyspiel.load_game(name)
    to_theirs = translate(ruleset)
    assert ours.num_distinct_actions() == theirs.num_distinct_actions()
    assert sorted(to_theirs.values()) == list(range(theirs.num_distinct_actions())), "not one to one"
    steps = 0
    for seed in range(games):
        pick = random.Random(seed)
        a, b = ours.new_initial_state(), theirs.new_initial_state()
        while not b.is_terminal():
            legal = a.legal_actions()
            assert sorted(to_theirs[x] for x in legal) == b.legal_actions(), f"seed {seed}, step {steps}"
            action = pick.choice(legal)
            a.apply_action(action)
            b.apply_action(to_theirs[action])
            steps += 1
        assert a.is_terminal() and a.returns() == b.returns()
    assert steps > games * 5


def test_kuhn_pokers_catalog_is_openspiels_numbering_and_cfr_solves_it():
    from open_spiel.python.algorithms import cfr, exploitability

    ours = load(RULES / "kuhn_poker", chance="explicit", actions="catalog")
    theirs = pyspiel.load_game("kuhn_poker")
    assert ours.get_type().short_name.endswith("_catalog")
    assert ours.num_distinct_actions() == theirs.num_distinct_actions() == 2
    state = ours.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    # OpenSpiel's kuhn_poker: 0 is pass, 1 is bet
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["pass", "bet"]
    solver = cfr.CFRSolver(ours)
    for _ in range(60):
        solver.evaluate_and_update_policy()
    assert exploitability.exploitability(ours, solver.average_policy()) < 0.05


def test_the_same_action_is_the_same_move_in_every_state():
    """tic-tac-toe: an action of the mask always marks the square its label names,
    which is empty; the catalog's 9 actions are the 9 squares."""
    e = env(RULES / "tic_tac_toe", seed=5, actions="catalog")
    raw = e.unwrapped
    assert raw.action_space("p1").n == 9
    labels = [raw.catalog.label(i) for i in range(9)]
    assert len(set(labels)) == 9 and all(lb.startswith("mark(") for lb in labels)
    for episode in range(20):
        e.reset()
        pick = random.Random(episode)
        for agent in e.agent_iter():
            observation, _, done, cut, _ = e.last()
            if done or cut:
                e.step(None)
                continue
            mask = observation["action_mask"]
            for action in np.flatnonzero(mask):
                square = raw.catalog.entries[action][2][0]
                assert raw.game.state.entities[square]["props"]["marked_by"] is None
            assert mask.sum() == sum(1 for s, ent in raw.game.state.entities.items()
                                     if ent["kind"] == "square" and ent["props"]["marked_by"] is None)
            e.step(int(pick.choice(np.flatnonzero(mask))))


@pytest.mark.parametrize("name,players", [("tic_tac_toe", 2), ("kuhn_poker", 2), ("star_trek_panic", 4),
                                          ("panic_station", 5)])
def test_the_environment_with_catalog_actions_passes_pettingzoos_api_test(name, players):
    api_test(env(RULES / name, players=players, seed=3, actions="catalog"), num_cycles=150)


def _every_shipped_ruleset():
    for folder in sorted(p for p in RULES.iterdir() if (p / "game.yaml").exists()):
        yield folder, None
        for variant in available_variants(folder):
            yield folder, variant


@pytest.mark.parametrize("folder,variant", list(_every_shipped_ruleset()),
                         ids=[f"{f.name}{'-' + v if v else ''}" for f, v in _every_shipped_ruleset()])
def test_every_option_of_every_shipped_rule_set_has_its_own_number(folder, variant):
    ruleset = load_checked(folder, variant)
    game = ruleset.data.game
    for players in sorted({game.min_players, game.max_players}):
        catalog = action_catalog(ruleset, players)
        for seed in range(2):
            played = Game(ruleset, players, 500 + seed, record_events=False, settings=PLAYER_FACING)
            pick = random.Random(seed)
            steps = 0
            while not played.over and steps < 400:
                pending = played.state.pending
                ids = catalog.ids(pending)
                by_id = {}
                for option, i in zip(pending["options"], ids):
                    assert by_id.setdefault(i, option) == option, f"two options numbered {i}"
                played.choose(pick.randrange(len(ids)))
                steps += 1


def test_the_bots_policy_answers_with_catalog_numbers():
    e = env(RULES / "tic_tac_toe", seed=2, actions="catalog")
    e.reset()
    policy = bot_policy(e, "mcts:20")
    for agent in e.agent_iter():
        observation, _, done, cut, _ = e.last()
        if done or cut:
            e.step(None)
            continue
        action = policy(agent)
        assert observation["action_mask"][action] == 1
        e.step(action)


def test_render_numbers_the_options_by_the_catalog():
    e = raw_env(RULES / "tic_tac_toe", seed=1, actions="catalog", render_mode="ansi")
    e.reset()
    e.step(4)  # the catalog's fifth square, b2
    text = e.render()
    assert "  4: " not in text, "b2 is marked: its number is no option"
    assert "  0: mark: a1" in text and "  8: mark: c3" in text


def test_an_illegal_catalog_action_is_refused_in_one_line():
    e = raw_env(RULES / "tic_tac_toe", seed=1, actions="catalog")
    e.reset()
    e.step(4)
    with pytest.raises(ValueError, match=r"action 4 \(mark\(b2\)\) is not legal now"):
        e.step(4)
    wrapped = env(RULES / "tic_tac_toe", seed=1, actions="catalog")
    wrapped.reset()
    wrapped.step(4)
    wrapped.step(4)  # PettingZoo's wrapper: an illegal move loses the game for who made it
    assert wrapped.rewards["p2"] == -1


def test_bad_action_numberings_are_refused_in_one_line():
    with pytest.raises(ValueError, match=r"actions='cards': one of 'options', 'catalog'"):
        env(RULES / "tic_tac_toe", actions="cards")
    with pytest.raises(ValueError, match=r"max_options=16: with actions='catalog'"):
        env(RULES / "tic_tac_toe", actions="catalog", max_options=16)
    with pytest.raises(ValueError, match=r"actions='cards'"):
        load(RULES / "tic_tac_toe", actions="cards")


RULES_WITH_A_NUMBER = {
    "game.yaml": game_yaml("counting", players=(1, 2)) + """
kinds:
  player:
    properties:
      total: {type: number, default: 0}
""",
    "play.rules": QUIET_SETUP_AND_ROUND + """
action add:
    do:
        choose n from numbers(1, current_player.total + 3) prompt "How many?"
        set current_player.total = current_player.total + n
""",
}


def test_a_decision_whose_values_cannot_be_listed_is_named_with_its_place(tmp_path):
    ruleset = build(tmp_path, RULES_WITH_A_NUMBER)
    with pytest.raises(CatalogError) as err:
        action_catalog(ruleset, 1)
    message = str(err.value)
    assert "'choose n' in action 'add'" in message and "play.rules:" in message and "number" in message
    assert "\n" not in message
    with pytest.raises(ValueError, match="'choose n' in action 'add'"):
        env(ruleset, players=1, actions="catalog")
    # numbered by option, the same rule set plays
    e = env(ruleset, players=1)
    e.reset()


def test_values_written_out_are_listed_and_kinds_give_their_things(tmp_path):
    ruleset = build(tmp_path, {
        "game.yaml": game_yaml("listing", players=(2, 2)) + """
kinds:
  player:
    properties: {}
  token:
    properties:
      colour: {type: text, default: red}
components:
  - {name: token, kind: token, count: 3}
""",
        "play.rules": QUIET_SETUP_AND_ROUND + """
action paint:
    with t: token
    with bright: bool in [false, true]
    do:
        choose c from ["red", "blue"] prompt "Which colour?"
        set t.colour = c

action give:
    with q: player in players where q != current_player
    do:
        stop
""",
    })
    catalog = action_catalog(ruleset, 2)
    labels = [catalog.label(i) for i in range(len(catalog))]
    assert labels == (
        [f"paint(token.{n}, {b})" for n in (1, 2, 3) for b in ("false", "true")]
        + ["give(p1)", "give(p2)", "end_turn", "choose c: red", "choose c: blue"])


def test_numbers_up_to_a_declared_bound_are_listed(tmp_path):
    """A sealed bid from 0 to the bidder's coins: coins is a resource of at most 5, so
    the bid's numbers are 0 to 5; without the bound the decision is named instead."""
    files = {
        "game.yaml": game_yaml("bidding", players=(2, 2)) + """
kinds:
  player:
    properties:
      coins: {type: number, default: 3, resource: {max: 5}}
      bid: {type: number, default: 0, visible_to: owner}
""",
        "play.rules": QUIET_SETUP_AND_ROUND + """
action bid:
    do:
        choose amount from numbers(1, current_player.coins) by current_player prompt "Your bid?"
        set current_player.bid = amount
""",
    }
    ruleset = build(tmp_path, files)
    catalog = action_catalog(ruleset, 2)
    assert [catalog.label(i) for i in range(len(catalog)) if catalog.entries[i][0] == "choose"] == \
        [f"choose amount: {n}" for n in range(1, 6)]
    e = env(ruleset, players=2, seed=1, actions="catalog")
    api_test(e, num_cycles=40)

    unbounded = dict(files)
    unbounded["game.yaml"] = files["game.yaml"].replace("resource: {max: 5}", "resource: true")
    with pytest.raises(CatalogError) as err:
        action_catalog(build(tmp_path, unbounded, name="unbounded"), 2)
    assert ("'choose amount' in action 'bid' (" in str(err.value) and "unbounded/play.rules:" in str(err.value)
            and "the most of them is not known in advance: 'current_player.coins' (" in str(err.value)
            and "give the property coins of player its values" in str(err.value)), str(err.value)


def test_counts_tables_and_the_rules_functions_bound_numbers_too(tmp_path):
    """A bid from 0 to the cards in hand (at most every card), a table's numbers, and a
    list the rules' own function gives, read through it."""
    ruleset = build(tmp_path, {
        "game.yaml": game_yaml("bounded", players=(2, 2)) + """
kinds:
  player:
    properties: {}
  card:
    properties: {}
zones:
  hand: {per_player: true, visible_to: owner, holds: card}
components:
  - {name: card, kind: card, count: 4}
tables:
  hand_sizes: {two: 3, three: 2}
""",
        "play.rules": QUIET_SETUP_AND_ROUND + """
function bids_for(p: player) -> list of number:
    = [n for n in numbers(0, count(contents(hand(p)))) where n != 2]

action bid:
    do:
        choose amount from bids_for(current_player) prompt "Your bid?"

action size:
    with n: number in numbers(1, hand_sizes["two"])
    do:
        stop
""",
    })
    catalog = action_catalog(ruleset, 2)
    labels = [catalog.label(i) for i in range(len(catalog))]
    # the hand is hidden, so how many bids there are may be a secret: an empty choice is asked, none its answer
    assert [x for x in labels if x.startswith("choose")] == [f"choose amount: {n}" for n in range(0, 5)] + \
        ["choose amount: none"]
    assert [x for x in labels if x.startswith("size")] == ["size(1)", "size(2)", "size(3)"]


def test_a_set_of_things_picked_by_combinations_has_one_number_whatever_its_order(tmp_path):
    ruleset = build(tmp_path, {
        "game.yaml": game_yaml("pairs", players=(2, 2)) + """
kinds:
  player:
    properties: {}
  token:
    properties: {}
zones:
  pile: {visible_to: everyone}
  kept: {per_player: true, visible_to: everyone}
components:
  - {name: token, kind: token, count: 4, zone: pile}
""",
        "play.rules": QUIET_SETUP_AND_ROUND + """
action keep:
    with pair: list of token in combinations(contents(pile), 2)
    do:
        for each t in pair:
            move t to kept(current_player)
""",
    })
    catalog = action_catalog(ruleset, 2)
    pairs = [catalog.label(i) for i in range(len(catalog)) if catalog.entries[i][1] == "keep"]
    assert len(pairs) == 6 and pairs[0] == "keep([token.1, token.2])"
    pending = {"kind": "action"}
    one = catalog.id_of("action", pending, {"action": "keep", "args": {"pair": ["token.1", "token.3"]}})
    other = catalog.id_of("action", pending, {"action": "keep", "args": {"pair": ["token.3", "token.1"]}})
    assert one == other and catalog.label(one) == "keep([token.1, token.3])"
    api_test(env(ruleset, players=2, seed=4, actions="catalog"), num_cycles=30)


ONE_OR_NONE = {
    "game.yaml": game_yaml("one_or_none", players=(1, 2)) + """
kinds:
  player:
    properties: {}
  token:
    properties:
      colour: {type: text, values: [red, blue], default: red}
components:
  - {name: token, kind: token, count: 3}
""",
    "play.rules": QUIET_SETUP_AND_ROUND + """
action pick:
    do:
        choose t from [x for x in token where x.colour == "red"] + [none] prompt "Which, if any?"
        if t != none and t.colour == "COLOUR":
            stop
""",
}


def test_one_of_these_or_none_is_still_a_list_of_these(tmp_path):
    """`things + [none]` ("take one or none") keeps the things' kind: the checker still
    knows what the chosen value's properties can be, and the catalog lists those things
    and none, not every entity of the game."""
    ruleset = build(tmp_path, {**ONE_OR_NONE, "play.rules": ONE_OR_NONE["play.rules"].replace("COLOUR", "blue")})
    catalog = action_catalog(ruleset, 1)
    assert [catalog.label(i) for i in range(len(catalog)) if catalog.entries[i][0] == "choose"] == \
        ["choose t: token.1", "choose t: token.2", "choose t: token.3", "choose t: none"]
    errors = load_errors(tmp_path, {**ONE_OR_NONE, "play.rules": ONE_OR_NONE["play.rules"].replace("COLOUR", "green")})
    assert 'token.colour is never "green"' in errors
