"""What `check` tells of one slip: said once, where the slip is, in the language's own
words, with a caret under the slip and a hint that leads to the fix.

Each test writes the tutorial game of docs/writing-a-rule-set.md with one slip and loads it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecraft.dsl.diagnostics import Diagnostic
from rulecraft.dsl.loader import load_ruleset

GAME_YAML = """\
# yaml-language-server: $schema=../../schemas/ruleset.schema.json
game:
  name: dice_race
  title: Dice Race
  players: {min: 2, max: 4}
  setup: setup_game          # the procedure that prepares a game
  round: play_round          # the procedure that plays one round
  round_limit: 30            # a safety stop for simulations

kinds:
  player:
    properties:
      score: {type: number, default: 0}
      ap: {type: number, default: 0}    # what action costs are paid with

parameters:
  target_score:
    value: 10
    text: The score a player needs to win.

dice:
  d6: [1, 2, 3, 4, 5, 6]
"""

RACE_RULES = """\
procedure setup_game():
    text "Everyone starts at zero."
    do:
        for each p in players:
            set p.score = 0

procedure play_round():
    text "Each player, in seat order, takes one turn."
    do:
        for each p in players:
            play_turn(p)

trigger turn_start:
    text "A turn gives one action point."
    on turn_started
    do:
        set event.player.ap = 1

action roll_die:
    text "Roll the die and add it to your score."
    cost 1 ap
    do:
        let face = roll(d6)
        set current_player.score += face
        emit scored(player: current_player, points: face)

victory reached_target:
    text "The first player at or above the target score wins."
    when any([p.score >= target_score for p in players])
    winners [p for p in players where p.score >= target_score]
"""


def check(tmp_path: Path, *changes: tuple[str, str, str]):
    """The diagnostics of the game with each (file, old, new) change made, and their rendering."""
    texts = {"game.yaml": GAME_YAML, "race.rules": RACE_RULES}
    for file, old, new in changes:
        assert old in texts[file], old
        texts[file] = texts[file].replace(old, new, 1)
    folder = tmp_path / "dice_race"
    folder.mkdir(parents=True)
    for file, text in texts.items():
        (folder / file).write_text(text, encoding="utf-8")
    bag = load_ruleset(folder).bag
    return bag, bag.render()


def only_error(bag) -> Diagnostic:
    assert len(bag.errors) == 1, bag.render()
    return bag.errors[0]


def where(d: Diagnostic) -> tuple[str, int, int, int | None]:
    p = d.position
    return Path(p.file).name, p.line, p.column, p.end_column


# ---------------------------------------------------------------- one slip, one report


def test_a_misspelt_type_of_a_property_is_reported_once_at_its_yaml_line(tmp_path):
    bag, text = check(tmp_path / "sound")
    assert not bag.items, text  # the game as the tutorial writes it: each report below is its slip's
    bag, text = check(tmp_path, ("game.yaml", "ap: {type: number", "ap: {type: numbr"),
                      ("race.rules", "set p.score = 0", "set p.score = 0\n            set p.ap += 2"))
    d = only_error(bag)
    assert d.message == "unknown type 'numbr'"
    assert where(d)[:2] == ("game.yaml", 14)
    # not again where a rule pays with it or adds to it
    assert "race.rules" not in text


def test_a_misspelt_type_of_a_resource_is_not_also_a_resource_that_is_not_a_number(tmp_path):
    bag, text = check(tmp_path, ("game.yaml", "ap: {type: number, default: 0}", "ap: {type: numbr, default: 0, resource: true}"))
    assert [d.message for d in bag.errors] == ["unknown type 'numbr'"], text


def test_a_resource_that_is_not_a_number_says_its_type_in_words(tmp_path):
    bag, _ = check(tmp_path, ("game.yaml", "ap: {type: number, default: 0}", "ap: {type: text, resource: true}"))
    assert "resource 'player.ap' must be a number, not a text" in [d.message for d in bag.errors]


def test_a_misspelt_type_of_a_game_variable_is_not_reported_again_where_a_rule_adds_to_it(tmp_path):
    bag, text = check(tmp_path, ("game.yaml", "\ndice:", "\nvariables:\n  game:\n    pot: {type: numbr, default: 0}\n\ndice:"),
                      ("race.rules", "set p.score = 0", "set p.score = 0\n            set game.pot += 1"))
    assert [d.message for d in bag.errors] == ["unknown type 'numbr'"], text


# ---------------------------------------------------------------- the language's own words


def test_a_definition_kind_takes_its_article(tmp_path):
    bag, _ = check(tmp_path, ("game.yaml", "round: play_round", "round: roll_die"))
    d = only_error(bag)
    assert d.message == "game.round must name a procedure without parameters; 'roll_die' is an action"


def test_a_clause_an_action_does_not_take_says_what_an_action_takes(tmp_path):
    bag, _ = check(tmp_path, ("race.rules", "    cost 1 ap\n", "    cost 1 ap\n    on turn_started\n"))
    d = only_error(bag)
    assert d.message == "'on' is not allowed in action 'roll_die'"
    assert d.hint.startswith("an action takes: ")


def test_a_definition_named_without_parentheses_is_told_with_its_article(tmp_path):
    bag, _ = check(tmp_path, ("race.rules", "let face = roll(d6)", "let face = roll(d6)\n        let x = roll_die"))
    d = only_error(bag)
    assert d.message == "unknown name 'roll_die'"
    assert d.hint == "'roll_die' is an action: call it with ( )"


@pytest.mark.parametrize("value, message", [
    ("event + 1", "the left side of '+' must be a number, not the event 'turn_started'"),
    ("game + 1", "the left side of '+' must be a number, not 'game' or 'turn' itself"),
    ("1 + event", "the right side of '+' must be a number, not the event 'turn_started'"),
])
def test_types_that_cannot_be_written_are_told_in_words(tmp_path, value, message):
    bag, _ = check(tmp_path, ("race.rules", "set event.player.ap = 1", f"let x = {value}"))
    assert only_error(bag).message == message


# ---------------------------------------------------------------- YAML slips at their place


@pytest.mark.parametrize("old, new, line, column, hint", [
    ("title: Dice Race", 'title: "Dice Race', 4, 10, 'close it on line 4: title: "Dice Race"'),
    ("title: Dice Race", "title: 'Dice Race", 4, 10, "close it on line 4: title: 'Dice Race'"),
    ("text: The score a player needs to win.", 'text: "The score a player needs to win.', 19, 11,
     'close it on line 19: text: "The score a player needs to win."'),
])
def test_a_quote_never_closed_is_told_at_the_quote(tmp_path, old, new, line, column, hint):
    bag, text = check(tmp_path, ("game.yaml", old, new))
    d = only_error(bag)
    assert d.message == "YAML syntax: this quote is never closed"
    assert where(d) == ("game.yaml", line, column, column + 1)
    assert d.hint == hint
    assert f"{line:>5} | " in text and "      | " + " " * (column - 1) + "^\n" in text, text


def test_a_quote_closed_only_by_a_later_value_is_told_at_the_quote_left_open(tmp_path):
    bag, _ = check(tmp_path, ("game.yaml", "title: Dice Race", 'title: "Dice Race'),
                   ("game.yaml", "text: The score a player needs to win.", 'text: "The score a player needs to win."'))
    d = only_error(bag)
    assert d.message == "YAML syntax: this quote is never closed"
    assert where(d)[:3] == ("game.yaml", 4, 10)


def test_a_list_left_open_at_the_end_of_the_file_is_told_at_its_bracket(tmp_path):
    bag, text = check(tmp_path, ("game.yaml", "d6: [1, 2, 3, 4, 5, 6]", "d6: [1, 2, 3, 4, 5, 6"))
    d = only_error(bag)
    assert d.message == "YAML syntax: this '[' list is not closed"
    assert where(d)[:3] == ("game.yaml", 22, 7)
    assert d.hint == "close it on line 22: d6: [1, 2, 3, 4, 5, 6]"
    assert "   22 |   d6: [1, 2, 3, 4, 5, 6\n      |       ^\n" in text


def test_a_key_indented_past_its_siblings_is_told_as_an_indentation_slip(tmp_path):
    bag, text = check(tmp_path, ("game.yaml", "  title: Dice Race", "   title: Dice Race"))
    d = only_error(bag)
    assert d.message == "YAML syntax: the key 'title' is indented differently from the keys beside it"
    assert where(d) == ("game.yaml", 4, 4, 9)  # under 'title'
    assert d.hint.startswith("indent it to column 3")
    assert "    4 |    title: Dice Race\n      |    ^^^^^\n" in text
    # a ': ' after a value, not after the line's key, is still told as what it is
    bag, _ = check(tmp_path / "colon", ("game.yaml", "  round_limit: 30 ", "  round_limit: 30: "))
    assert only_error(bag).message == "YAML syntax: a ': ' here would start a key inside a value"


# ---------------------------------------------------------------- syntax hints


def test_division_with_one_slash_says_how_division_is_written(tmp_path):
    bag, _ = check(tmp_path, ("race.rules", "set p.score = 0", "set p.score = 7 / 2"))
    d = only_error(bag)
    assert d.message == "unexpected character '/'"
    assert where(d)[:3] == ("race.rules", 5, 29)
    assert "'//'" in d.hint


def test_a_text_without_its_closing_quote_says_so_under_the_whole_text(tmp_path):
    bag, text = check(tmp_path, ("race.rules", 'text "Everyone starts at zero."', 'text "Everyone starts at zero.'))
    d = only_error(bag)
    assert where(d) == ("race.rules", 2, 10, 35)
    assert d.hint.startswith("this text's closing quote is missing")
    assert "    2 |     text \"Everyone starts at zero.\n      |          " + "^" * 25 + "\n" in text


def test_else_if_suggests_elif(tmp_path):
    bag, _ = check(tmp_path, ("race.rules", "set current_player.score += face",
                              "if face > 3:\n            set current_player.score += face\n"
                              "        else if face > 1:\n            set current_player.score += 1"))
    d = only_error(bag)
    assert d.message == "unexpected 'if'"
    assert "'elif'" in d.hint


# ---------------------------------------------------------------- the caret under the culprit


@pytest.mark.parametrize("old, new, message, line, column, end", [
    ("set p.score = 0", "set p.scor = 0", "kind 'player' has no property 'scor'", 5, 19, 23),
    ("set event.player.ap = 1", "set event.player.aq = 1", "kind 'player' has no property 'aq'", 17, 26, 28),
    ("set event.player.ap = 1", "set event.playr.ap = 1", "event 'turn_started' has no field 'playr'", 17, 19, 24),
    ("cost 1 ap", "cost 1 gold", "cost in unknown resource 'gold'", 21, 12, 16),
    ("set p.score = 0", "set game.scor = 0", "unknown game variable 'scor'", 5, 22, 26),
])
def test_the_caret_is_under_the_wrong_name(tmp_path, old, new, message, line, column, end):
    bag, _ = check(tmp_path, ("race.rules", old, new))
    d = only_error(bag)
    assert d.message == message
    assert where(d) == ("race.rules", line, column, end)


def test_the_caret_of_an_unknown_resource_of_gain_is_under_the_resource(tmp_path):
    bag, _ = check(tmp_path, ("game.yaml", "ap: {type: number, default: 0}", "ap: {type: number, default: 0, resource: true}"),
                   ("race.rules", "set p.score = 0", "set p.score = 0\n            gain 1 gold of p"))
    d = only_error(bag)
    assert d.message == "kind 'player' has no resource 'gold'"
    assert where(d) == ("race.rules", 6, 20, 24)


# ---------------------------------------------------------------- no follow-on warnings


def test_a_function_called_wrongly_is_not_also_never_used(tmp_path):
    bag, text = check(tmp_path, ("race.rules", "victory reached_target:",
                                 "function bonus(x: number) -> number:\n    = x + 1\n\n"
                                 "procedure award(p: player):\n    do:\n        bonus(2)\n\n"
                                 "victory reached_target:"),
                      ("race.rules", "            play_turn(p)", "            play_turn(p)\n            award(p)"))
    assert [d.message for d in bag.items] == ["'bonus' is a function: its value would be thrown away"], text


def test_a_function_read_in_a_victory_missing_its_winners_is_not_also_never_used(tmp_path):
    bag, text = check(tmp_path, ("race.rules", "victory reached_target:",
                                 "function leader_score() -> number:\n    = max([p.score for p in players])\n\n"
                                 "victory reached_target:"),
                      ("race.rules", "    winners [p for p in players where p.score >= target_score]\n", ""),
                      ("race.rules", "when any([p.score >= target_score for p in players])",
                       "when leader_score() >= target_score"))
    assert [d.message for d in bag.items] == ["victory 'reached_target' needs both 'when' and 'winners'"], text


# ---------------------------------------------------------------- did you mean, for dice


def test_an_undeclared_die_suggests_the_declared_one(tmp_path):
    bag, _ = check(tmp_path, ("race.rules", "roll(d6)", "roll(d7)"))
    d = only_error(bag)
    assert d.message == "unknown name 'd7'"
    assert d.hint == "did you mean 'd6'?"


def test_an_undeclared_die_suggests_the_nearest_of_several(tmp_path):
    bag, _ = check(tmp_path, ("game.yaml", "d6: [1, 2, 3, 4, 5, 6]", "d4: [1, 2, 3, 4]\n  d10: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]"),
                   ("race.rules", "roll(d6)", "roll(d8)"))
    assert only_error(bag).hint == "did you mean 'd10'?"


@pytest.mark.parametrize("value, message", [
    ("ten", "parameter 'target_score' is a number in the base, not a text"),
    ("true", "parameter 'target_score' is a number in the base, not a bool"),
])
def test_a_variant_giving_a_parameter_another_type_says_both_in_words(tmp_path, value, message):
    bag, _ = check(tmp_path)  # writes the game
    variants = tmp_path / "dice_race" / "variants"
    variants.mkdir()
    (variants / "long.yaml").write_text(f"variant:\n  name: long\n  base: dice_race\nparameters:\n  target_score: {value}\n",
                                        encoding="utf-8")
    d = only_error(load_ruleset(tmp_path / "dice_race", variant="long").bag)
    assert d.message == message
    assert d.hint == "a variant changes a parameter's value, never its type: write a number"


def test_a_definition_given_twice_is_reported_twice_over_and_its_own_errors_too(tmp_path):
    second = ("\naction roll_die:\n    text \"Again.\"\n    cost 1 ap\n    do:\n"
              "        set current_player.scor += 1\n        let x = roll(d7)\n")
    bag, text = check(tmp_path, ("race.rules", "\nvictory reached_target:", second + "\nvictory reached_target:"))
    messages = [d.message for d in bag.errors]
    assert "'roll_die' is defined twice" in messages, text
    assert "kind 'player' has no property 'scor'" in messages, text
    assert any("'d7'" in m for m in messages), text
    assert len(messages) == 3, text


def test_a_die_far_from_every_declared_one_is_not_taken_for_a_slip(tmp_path):
    bag, _ = check(tmp_path, ("race.rules", "roll(d6)", "roll(d20)"))
    assert only_error(bag).hint == "known dice: d6"


@pytest.mark.parametrize("read", [
    "count([c for c in contents(hand(p)) where c.rnak == 1])",  # a zone of each player
    "count([c for c in contents(pile) where c.rnak == 1])",     # a shared zone
    "top(pile).rnak",
])
def test_a_misspelt_property_of_what_a_zone_holds_is_caught(tmp_path, read):
    cards = ("game.yaml", "\nparameters:", "\n  card:\n    properties:\n      rank: {type: number, default: 1}\n\n"
             "zones:\n  pile: {holds: card}\n  hand: {per_player: true, holds: card}\n\nparameters:")
    probe = ("race.rules", "\nvictory reached_target:",
             f"\nfunction probe(p: player) -> number:\n    = {read}\n\nvictory reached_target:")
    bag, text = check(tmp_path, cards, probe)
    assert [d.message for d in bag.errors] == ["kind 'card' has no property 'rnak'"], text
    assert bag.errors[0].hint == "did you mean 'rank'?"


@pytest.mark.parametrize("written, hint", [("range(1, 3)", "the language's own is 'numbers'"),
                                           ("len(players)", "the language's own is 'count'")])
def test_a_function_known_from_programming_languages_is_given_the_languages_name(tmp_path, written, hint):
    bag, _ = check(tmp_path, ("race.rules", "let face = roll(d6)", f"let face = roll(d6)\n        let n = count({written})"))
    d = only_error(bag)
    assert d.message == f"unknown function '{written.split('(')[0]}'" and d.hint == hint


# ---------------------------------------------------------------- a mapping of several forms


@pytest.mark.parametrize("sides, message, hint", [
    # the cooperative form with a value of the wrong type, not the teams form with an unknown key
    ("{cooperative: true}", "game/sides/cooperative: expected a text, found the yes/no value true", "write a text"),
    ("{free_for_al: true}", "unknown key 'free_for_al' in game/sides", "did you mean 'free_for_all'?"),
    ("{coop: racers}", "unknown key 'coop' in game/sides", "one of: teams, cooperative, free_for_all"),
])
def test_a_slip_in_sides_is_told_in_the_form_it_was_meant_for(tmp_path, sides, message, hint):
    bag, _ = check(tmp_path, ("game.yaml", "  round_limit: 30", f"  round_limit: 30\n  sides: {sides}"))
    d = only_error(bag)
    assert d.message == message
    assert d.hint.startswith(hint)


def test_a_cost_in_an_unknown_resource_names_the_resources_a_player_has(tmp_path):
    bag, _ = check(tmp_path, ("race.rules", "cost 1 ap", "cost 1 actions"))
    d = only_error(bag)
    assert d.message == "cost in unknown resource 'actions'"
    assert d.hint == "a cost is paid from a number property of the player (score, ap)"


def test_an_unknown_limit_period_is_shown_at_the_period(tmp_path):
    bag, text = check(tmp_path, ("race.rules", "cost 1 ap", "cost 1 ap\n    limit 1 per week"))
    d = only_error(bag)
    assert d.message == "unknown limit period 'week'"
    assert (d.position.column, d.position.end_column) == (17, 21), text


def test_a_fraction_where_a_whole_number_is_due_is_not_told_to_be_quoted(tmp_path):
    bag, _ = check(tmp_path)  # writes the game
    variants = tmp_path / "dice_race" / "variants"
    variants.mkdir()
    (variants / "half.yaml").write_text("variant:\n  name: half\n  base: dice_race\nparameters:\n  target_score: 2.5\n",
                                        encoding="utf-8")
    d = only_error(load_ruleset(tmp_path / "dice_race", variant="half").bag)
    assert "found the number 2.5" in d.message
    assert d.hint == "write a whole number: the rules count in whole numbers"


def test_a_misspelt_property_revealed_is_told_as_a_misspelt_property(tmp_path):
    bag, _ = check(tmp_path, ("race.rules", "set p.score = 0", "set p.score = 0\n            reveal p.scroe"))
    d = only_error(bag)
    assert d.message == "kind 'player' has no property 'scroe'"
    assert d.hint == "did you mean 'score'?"
