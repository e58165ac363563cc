"""`check` warns where the rules tell every player what only one may see.

- An action and its arguments are told to every player when the action is chosen: a value
  argument (a number, a text, yes/no) kept in a property only its owner sees was seen by
  all. The way to ask a secret value is a `choose … by PLAYER` inside a rule.
- An event without `to` goes to every player: a field reading a property only its owner
  sees tells it to all, unless the rule reveals that property first (`reveal x.prop`).
What nobody sees is the rules' own bookkeeping, not a secret: announcing it is no leak.
"""

from __future__ import annotations

from engine_rulesets import game_yaml, write_ruleset

from rulecraft.dsl.loader import load_ruleset

DATA = """
kinds:
  player:
    properties:
      coins: {type: number, default: 5, visible_to: owner}
      offer: {type: number, default: 0, visible_to: owner}
      shown_offer: {type: number, default: 0}
variables:
  game:
    last_offer: {type: number, default: 0, visible_to: nobody}
"""

ROUNDS = """
procedure setup():
    do:
        stop

procedure round():
    do:
        for each p in players:
            play_turn(p)
"""


def _warnings(tmp_path, rules: str) -> list:
    root = write_ruleset(tmp_path / "secret", {"game.yaml": game_yaml() + DATA, "play.rules": ROUNDS + rules})
    ruleset = load_ruleset(str(root))
    assert not ruleset.bag.errors, ruleset.bag.render()
    return [d for d in ruleset.bag.warnings if d.code == "leak"]


def test_a_value_argument_kept_in_an_owners_property_is_warned_at_the_argument(tmp_path):
    found = _warnings(tmp_path, """
action bid:
    with amount: number in numbers(0, current_player.coins)
    do:
        set current_player.offer = amount
""")
    assert len(found) == 1
    assert "'amount' is an argument of the action 'bid', which every player sees" in found[0].message
    assert "player.offer" in found[0].message
    assert "choose amount from … by PLAYER" in found[0].hint
    text = (tmp_path / "secret" / "play.rules").read_text(encoding="utf-8").splitlines()
    line = next(i for i, t in enumerate(text, 1) if "set current_player.offer = amount" in t)
    assert (found[0].position.line, found[0].position.column) == (line, text[line - 1].index("amount") + 1)


def test_the_same_value_asked_with_choose_in_a_rule_is_no_leak(tmp_path):
    assert _warnings(tmp_path, """
action bid:
    do:
        choose amount from numbers(0, current_player.coins) by current_player
        set current_player.offer = amount
""") == []


def test_a_value_argument_kept_where_everyone_sees_it_is_no_leak(tmp_path):
    assert _warnings(tmp_path, """
action bid:
    with amount: number in numbers(0, 3)
    do:
        set current_player.shown_offer = amount
""") == []


def test_an_event_to_everyone_reading_an_owners_property_is_warned(tmp_path):
    found = _warnings(tmp_path, """
action tell:
    do:
        emit told(player: current_player, amount: current_player.coins + 1)
""")
    assert len(found) == 1
    assert "the event 'told' goes to every player, and its field 'amount' reads player.coins" in found[0].message
    assert "reveal current_player.coins" in found[0].hint


def test_an_event_to_its_owner_or_after_a_reveal_or_of_bookkeeping_is_no_leak(tmp_path):
    assert _warnings(tmp_path, """
action tell_owner:
    do:
        emit told(player: current_player, amount: current_player.coins) to current_player

action show:
    do:
        reveal current_player.coins
        emit told(player: current_player, amount: current_player.coins)

action announce:
    do:
        emit told(player: current_player, amount: game.last_offer)
""") == []


def test_a_reveal_of_another_things_property_or_after_the_emit_still_warns(tmp_path):
    # a designer's rule revealed one player's secret and told another's: no warning came,
    # for any reveal of a property of that name quieted the check
    other = _warnings(tmp_path, """
action boast:
    with q: player where q != current_player
    do:
        reveal q.coins
        emit boasted(coins: current_player.coins)
""")
    assert len(other) == 1 and "player.coins" in other[0].message
    late = _warnings(tmp_path / "late", """
action boast:
    do:
        emit boasted(coins: current_player.coins)
        reveal current_player.coins
""")
    assert len(late) == 1 and "reveal current_player.coins" in late[0].hint
