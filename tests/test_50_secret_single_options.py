"""A choose with one option is not asked: there is nothing to choose. At a table, though,
being asked or not shows how many options there were, and that may be a secret (only a
spy may play a failing card). Played for people, such a choose is asked even with one
option; where everyone can count the options anyway (the cards of a hand whose size
everyone sees), it is not."""

from __future__ import annotations

import pytest

from engine_rulesets import build, game_yaml

from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import PLAYER_FACING, Game
from rulecraft.narration import Words

DATA = """
kinds:
  player:
    properties:
      spy: {type: bool, default: false, visible_to: owner}
  card:
    located_in: zone
zones:
  hand: {per_player: true, visible_to: owner}
components:
  - {name: card, kind: card, count: 1, per_player: true, zone: hand}
"""

SEATS = """  seats:
    spy: [true, false]
"""

RULES = """
procedure setup():
    do:
        stop

procedure round():
    do:
        for each p in players:
            choose c from OPTIONS by p
            emit picked(player: p, choice: c)
"""


def _game(tmp_path, options: str, settings) -> Game:
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 2), round_limit=1) + SEATS + DATA,
                          "main.rules": RULES.replace("OPTIONS", options)})
    return Game(rs, 2, 1, settings=settings)


SECRET = '(["success", "fail"] if p.spy else ["success"])'


def test_one_who_has_a_single_option_a_secret_decides_is_asked_at_a_table(tmp_path):
    game = _game(tmp_path, SECRET, PLAYER_FACING)
    asked = []
    while game.pending is not None:
        asked.append((game.pending.player, len(game.pending.options)))
        game.choose(0)
    assert asked == [("p1", 2), ("p2", 1)]  # p2, no spy, is asked as p1 is


def test_without_the_setting_a_single_option_is_taken_unasked(tmp_path):
    game = _game(tmp_path, SECRET, {})
    assert game.pending.player == "p1"
    game.choose(0)
    assert game.pending is None
    assert [e["choice"] for e in game.events if e["type"] == "picked"][-1] == "success"


def test_an_empty_list_a_secret_decides_is_asked_too_with_none_its_only_answer(tmp_path):
    """Only a spy may play a card (p1); the others have nothing to choose, and are asked
    all the same at a table, where not being asked would tell them apart."""
    only_spies = '(["success", "fail"] if p.spy else [])'
    game = _game(tmp_path, only_spies, PLAYER_FACING)
    asked = []
    while game.pending is not None:
        asked.append((game.pending.player, list(game.pending.options)))
        game.choose(0)
    assert asked == [("p1", ["success", "fail"]), ("p2", [None])]
    assert [e["choice"] for e in game.events if e["type"] == "picked"] == ["success", None]
    words = Words(game.ruleset)
    assert words.option(None)["label"] == "none"
    # played by bots, nobody is asked for nothing; nor in a game saved before the setting
    for settings in ({}, {k: v for k, v in PLAYER_FACING.items() if k != "ask_secret_empty_options"}):
        quiet = _game(tmp_path / f"quiet{len(settings)}", only_spies, settings)
        quiet.choose(0)
        assert quiet.pending is None


def test_a_count_everyone_sees_is_not_asked(tmp_path):
    # one card in a hand whose size everyone sees: nothing to hide, nothing to ask
    game = _game(tmp_path, "contents(hand(p))", PLAYER_FACING)
    assert game.pending is None
    assert [e["choice"] for e in game.events if e["type"] == "picked"] == ["card.p1", "card.p2"]


@pytest.mark.parametrize("options, secret", [
    ("contents(hand(p))", False),  # a hand's size is seen by all
    ("reversed(contents(hand(p)))", False),
    ("[c for c in contents(hand(p)) by c.id]", False),  # sorted, none left out
    ('[c for c in contents(hand(p)) where p.spy]', True),  # a filter reading a secret
    (SECRET, True),
])
def test_which_counts_are_secret(tmp_path, options, secret):
    game = _game(tmp_path, options, {})
    choose = game.ruleset.compiled.blocks  # compiled: the choose instruction carries its verdict
    flags = [getattr(i, "secret_count", None) for block in choose for i in block if hasattr(i, "secret_count")]
    assert flags == [secret]


def test_panic_station_asks_a_trader_holding_one_card_to_give():
    """Which of a hand's cards may be traded depends on its hidden infection cards."""
    rs = load_checked("rules/panic_station")
    flags = {i.var: i.secret_count for block in rs.compiled.blocks for i in block if hasattr(i, "secret_count")}
    assert flags["given"] and flags["returned"]


@pytest.mark.parametrize("before, options, secret", [
    ("let n = 1", "take(contents(hand(p)), n)", False),  # a name set from what everyone sees
    ("let role = p.spy", '(["success", "fail"] if role else ["success"])', True),  # … from a secret
    # a choose's answer is its chooser's own: the count it decides is a secret
    ('choose w from ["keep", "drop"] by p', '(["only"] if w == "drop" else ["a", "b"])', True),
    ('let w = 0\n            if p.spy:\n                let w = 1', '(["a"] if w == 1 else ["a", "b"])', True),
])
def test_a_name_is_as_secret_as_what_gave_it_its_value(tmp_path, before, options, secret):
    rules = RULES.replace("            choose c from OPTIONS", f"            {before}\n            choose c from OPTIONS")
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 2), round_limit=1) + SEATS + DATA,
                          "main.rules": rules.replace("OPTIONS", options)})
    flags = [i.secret_count for block in rs.compiled.blocks for i in block if hasattr(i, "secret_count")]
    assert flags[-1] == secret, flags


SHOWN = game_yaml(players=(2, 2), round_limit=1) + """
kinds:
  player: {properties: {}}
  card:
    located_in: zone
    properties:
      value: number
zones:
  pile: {visible_to: nobody, top_visible: true}
components:
  - {name: low, kind: card, zone: pile, properties: {value: 1}}
  - {name: high, kind: card, zone: pile, properties: {value: 3}}
dice:
  d4: [1, 2, 3, 4]
"""


@pytest.mark.parametrize("before, options, secret", [
    ("let face = roll(d4)", 'take(["a", "b", "c", "d"], face)', False),  # every player sees the roll
    ("let t = top(pile)", '(["a"] if t.value > 1 else ["a", "b"])', False),  # … and the pile's top
    ("let t = bottom(pile)", '(["a"] if t.value > 1 else ["a", "b"])', True),  # not what lies under it
])
def test_a_roll_and_a_shown_top_are_public_what_lies_under_it_is_not(tmp_path, before, options, secret):
    rules = RULES.replace("            choose c from OPTIONS", f"            {before}\n            choose c from OPTIONS")
    rs = build(tmp_path, {"game.yaml": SHOWN, "main.rules": rules.replace("OPTIONS", options)})
    flags = [i.secret_count for block in rs.compiled.blocks for i in block if hasattr(i, "secret_count")]
    assert flags[-1] == secret, flags


def test_panic_station_asks_one_option_only_where_it_hides_something():
    """Where to place a room (the top of the exploration deck is shown), where a parasite
    appears (a roll), whom to shoot or heal (pieces on the board): everyone can count the
    options. Which card to hand over in a trade: not (it depends on infection cards)."""
    rs = load_checked("rules/panic_station")
    verdicts = {(i.var, i.secret_count) for block in rs.compiled.blocks for i in block if hasattr(i, "secret_count")}
    assert {var for var, secret in verdicts if secret} == {"given", "returned"}, verdicts
