"""Runtime errors: a rule that does something impossible stops the game with a
RuleRuntimeError that says where in the rule files it happened."""

from __future__ import annotations

from contextlib import nullcontext

import re
from pathlib import Path

import pytest
from engine_rulesets import build, choose_action, game_yaml

from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import RuleRuntimeError

DATA = """
kinds:
  player:
    properties:
      score: {type: number, default: 0}
  card:
    located_in: zone
zones:
  deck: {}
  discard: {}
components:
  - {name: a, kind: card, zone: deck}
"""

ROUND = """
procedure round():
    do:
        for each p in players:
            play_turn(p)
"""


def make(tmp_path, rules: str):
    rs = build(tmp_path, {"game.yaml": game_yaml() + DATA, "main.rules": rules + ROUND})
    return rs, Path(rs.root) / "main.rules"


def line_of(path: Path, statement: str) -> tuple[int, int]:
    """(line, column) where a statement starts in a written rule file."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip() == statement:
            return number, len(line) - len(line.lstrip()) + 1
    raise AssertionError(f"{statement!r} is not in {path}")


def assert_located(err: RuleRuntimeError, path: Path, statement: str) -> None:
    line, column = line_of(path, statement)
    assert err.pos is not None
    assert Path(err.pos.file).name == "main.rules"
    assert Path(err.pos.file).resolve() == path.resolve()
    assert (err.pos.line, err.pos.column) == (line, column)
    assert str(err).startswith(f"{err.pos.file}:{line}:{column}: ")


def test_moving_none_raises_with_the_rule_position(tmp_path):
    rules = """
procedure setup():
    do:
        move a to discard
        move top(deck) to discard
"""
    rs, path = make(tmp_path, rules)
    with pytest.raises(RuleRuntimeError) as info:
        Game(rs, 1, 1)
    assert "cannot move nothing" in str(info.value)
    assert_located(info.value, path, "move top(deck) to discard")


def test_moving_to_none_raises(tmp_path):
    rules = """
procedure setup():
    do:
        let nowhere = none
        move a to nowhere
"""
    rs, path = make(tmp_path, rules)
    with pytest.raises(RuleRuntimeError) as info:
        Game(rs, 1, 1)
    assert "nowhere" in str(info.value)
    assert_located(info.value, path, "move a to nowhere")


def test_error_in_a_procedure_called_from_an_action(tmp_path):
    rules = """
procedure setup():
    do:
        stop

procedure discard_top():
    do:
        move top(deck) to discard

action clear:
    do:
        discard_top()
        discard_top()
"""
    rs, path = make(tmp_path, rules)
    game = Game(rs, 1, 1)
    with pytest.raises(RuleRuntimeError) as info:
        choose_action(game, "clear")
    assert_located(info.value, path, "move top(deck) to discard")
    assert game.state.zones["discard"] == ["a"], "the first discard happened"


def test_error_in_a_trigger(tmp_path):
    rules = """
procedure setup():
    do:
        move a to discard

trigger refill:
    on moved
    when event.destination == discard
    do:
        move top(deck) to discard
"""
    rs, path = make(tmp_path, rules)
    with pytest.raises(RuleRuntimeError) as info:
        Game(rs, 1, 1)
    assert_located(info.value, path, "move top(deck) to discard")


def test_setting_a_property_of_none_raises(tmp_path):
    rules = """
procedure setup():
    do:
        let winner = first([p for p in players where p.score > 5])
        set winner.score += 1
"""
    rs, path = make(tmp_path, rules)
    with pytest.raises(RuleRuntimeError) as info:
        Game(rs, 1, 1)
    assert "nothing" in str(info.value)
    assert_located(info.value, path, "set winner.score += 1")


def test_removing_none_raises(tmp_path):
    rules = """
procedure setup():
    do:
        remove(top(discard))
"""
    rs, path = make(tmp_path, rules)
    with pytest.raises(RuleRuntimeError) as info:
        Game(rs, 1, 1)
    assert_located(info.value, path, "remove(top(discard))")


def test_python_errors_inside_expressions_become_rule_errors(tmp_path):
    rules = """
procedure setup():
    do:
        let nobody = first([p for p in players where p.score > 5])
        emit q(value: nobody.score + 1)
"""
    rs, path = make(tmp_path, rules)
    with pytest.raises(RuleRuntimeError) as info:
        Game(rs, 1, 1)
    assert isinstance(info.value.__cause__, TypeError)
    assert_located(info.value, path, "emit q(value: nobody.score + 1)")
    # told in the language's words, with what makes a value none; not Python's
    assert "cannot compute none + a number; a value is none: a table read with a key it lacks" in str(info.value)
    assert not {"TypeError", "NoneType", "int", "operand"} & set(re.findall(r"\w+", str(info.value)))


def test_a_table_read_with_a_key_it_lacks_is_told_where_its_none_is_used(tmp_path):
    data = DATA + "tables:\n  bonus_for: {0: 1, 1: 2}\n"
    rules = """
procedure setup():
    do:
        for each p in players:
            set p.score = 1 + bonus_for[p.score + 5]
"""
    rs = build(tmp_path, {"game.yaml": game_yaml() + data, "main.rules": rules + ROUND})
    with pytest.raises(RuleRuntimeError) as info:
        Game(rs, 1, 1)
    assert_located(info.value, Path(rs.root) / "main.rules", "set p.score = 1 + bonus_for[p.score + 5]")
    assert ": cannot compute a number + none; a value is none: a table read with a key it lacks" in str(info.value)


# ---------------------------------------------------------------- errors in conditions

CONDITION_DATA = DATA.replace("    located_in: zone\n", "    located_in: zone\n    properties:\n      rank: number\n")

CONDITIONS = {
    "require": ("""
procedure setup():
    do:
        stop

action draw:
    require top(deck).rank + 1 > 2 else "too low"
    do:
        stop
""", 'require top(deck).rank + 1 > 2 else "too low"', "action draw:"),
    "victory": ("""
procedure setup():
    do:
        stop

victory lucky:
    when top(deck).rank + 1 > 2
    winners players
""", "when top(deck).rank + 1 > 2", "victory lucky:"),
}


@pytest.mark.parametrize("where", sorted(CONDITIONS))
def test_errors_in_conditions_carry_the_rule_position(tmp_path, where):
    rules, clause, header = CONDITIONS[where]
    rs = build(tmp_path, {"game.yaml": game_yaml() + CONDITION_DATA, "main.rules": rules + ROUND})
    path = Path(rs.root) / "main.rules"
    with pytest.raises(RuleRuntimeError) as info:  # card a has no rank: none + 1
        Game(rs, 1, 1)
    assert info.value.pos is not None
    assert Path(info.value.pos.file).name == "main.rules"
    assert info.value.pos.line in (line_of(path, clause)[0], line_of(path, header)[0])


@pytest.mark.parametrize("game", ["first", "second"])
def test_reading_a_property_no_kind_declares_stops_the_game_where_it_is_read(tmp_path, game):
    # event fields are of any type, so the checker cannot tell what 'event.entity' is, and
    # 'source' is a field of the engine's moved event (a name no record has is caught by
    # the checker); a process's second game of a rule set runs generated code, which must agree
    rules = """
procedure setup():
    do:
        move a to discard

trigger scored_by_card:
    on moved
    do:
        set current_player.score += 1 if event.entity.source == none else 2
"""
    rs, path = make(tmp_path, rules)
    if game == "second":
        with pytest.raises(RuleRuntimeError):
            Game(rs, 1, 1)
    with pytest.raises(RuleRuntimeError) as info:
        Game(rs, 1, 1)
    assert "a (a card) has no property 'source', nor has any kind of the rule set" in str(info.value)
    assert_located(info.value, path, "set current_player.score += 1 if event.entity.source == none else 2")


@pytest.mark.parametrize("game", ["first", "second"])
def test_a_property_of_another_kind_reads_none_when_a_mixed_zone_is_filtered_by_it(tmp_path, game):
    # a hand of cards and tokens, filtered by the cards' property: the tokens have none
    data = DATA.replace("  card:\n    located_in: zone\n", "  card:\n    located_in: zone\n    properties:\n"
                        "      colour: {type: text}\n  token:\n    located_in: zone\n") \
               .replace("  - {name: a, kind: card, zone: deck}\n", "  - {name: a, kind: card, zone: deck, properties: "
                        "{colour: red}}\n  - {name: t, kind: token, zone: deck}\n")
    rules = """
procedure setup():
    do:
        for each p in players:
            set p.score = count([x for x in contents(deck) where x.colour == "red"])
"""
    rs = build(tmp_path, {"game.yaml": game_yaml() + data, "main.rules": rules + ROUND})
    games = [Game(rs, 1, 1) for _ in range(2 if game == "second" else 1)]
    assert games[-1].state.entities["p1"]["props"]["score"] == 1


def test_reading_a_declared_property_without_a_value_reads_none(tmp_path):
    data = DATA.replace("  card:\n    located_in: zone\n", "  card:\n    located_in: zone\n    properties:\n      colour: {type: text}\n")
    rules = """
procedure setup():
    do:
        move a to discard

trigger counted:
    on moved
    do:
        if event.entity.colour == none:
            set game.uncoloured = true
"""
    data += "variables:\n  game:\n    uncoloured: {type: bool, default: false}\n"
    rs = build(tmp_path, {"game.yaml": game_yaml() + data, "main.rules": rules + ROUND})
    assert Game(rs, 1, 1).state.vars["game"]["uncoloured"] is True


def test_a_choose_without_by_where_no_turn_is_under_way_stops_located(tmp_path):
    """Without `by` the current player chooses; in setup there is none. The game stops at the
    choose with a reason, instead of asking a player called None (an internal error later)."""
    rules = """
procedure setup():
    do:
        choose n from [1, 2, 3] prompt "How many?"
"""
    rs, path = make(tmp_path, rules)
    with pytest.raises(RuleRuntimeError) as info:
        Game(rs, 2, 1)
    assert "nobody is to choose n" in str(info.value) and "by PLAYER" in str(info.value)
    assert_located(info.value, path, 'choose n from [1, 2, 3] prompt "How many?"')


def test_a_choose_without_by_between_turns_stops_too_and_asks_not_the_last_turns_player(tmp_path):
    """After the turns of a round, `current_player` is still the last turn's player, but no
    turn is under way: a choose without `by` there asked that player before, where the
    docs promise an error. Inside a turn it is still the turn's player who chooses."""
    rules = """
procedure setup():
    do:
        stop

action pick:
    limit 1 per turn
    do:
        choose n from [1, 2] prompt "Inside the turn?"
        end_turn()

procedure round():
    do:
        for each p in players:
            play_turn(p)
        choose m from [1, 2, 3] prompt "Which quest do you take?"
"""
    rs = build(tmp_path, {"game.yaml": game_yaml() + DATA, "main.rules": rules})
    path = Path(rs.root) / "main.rules"
    game = Game(rs, 2, 1)
    for player in ("p1", "p2"):
        choose_action(game, "pick")
        assert game.pending.kind == "choose" and game.pending.player == player
        with pytest.raises(RuleRuntimeError) if player == "p2" else nullcontext() as info:
            game.choose(0)
    assert "nobody is to choose m" in str(info.value)
    assert_located(info.value, path, 'choose m from [1, 2, 3] prompt "Which quest do you take?"')


def test_a_choose_without_by_with_one_option_needs_no_chooser(tmp_path):
    """One option is taken without asking anyone: setup goes on and the game plays to its end."""
    rules = """
procedure setup():
    do:
        choose n from [4]
"""
    rs, _ = make(tmp_path, rules)
    assert Game(rs, 2, 1).state.result is not None
