"""The checker, run through load_ruleset on small rule sets written for these tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecraft.dsl.loader import load_ruleset

GAME_YAML = """\
game:
  name: tiny
  players: {min: 2, max: 3}
  setup: setup_game
  round: play_round

kinds:
  player:
    properties:
      score: {type: number, default: 0}
      energy: {type: number, default: 3}
      nickname: text
  card:
    located_in: zone
    properties:
      value: {type: number, default: 1}
      colour: {type: text, values: [red, blue]}
  token:
    properties:
      owner: player

zones:
  deck:
    holds: card
  discard:
    holds: card
  hand:
    per_player: true
    ordered: false

components:
  - {name: red_card, kind: card, count: 4, zone: deck, properties: {colour: red}}
  - {name: blue_card, kind: card, count: 2, zone: deck, properties: {colour: blue}}
  - {name: token, kind: token, count: 2, per_player: true, zone: hand}

dice:
  d6: [1, 2, 3, 4, 5, 6]

manifest:
  card: 6
  token: 6
"""

MAIN_RULES = """\
procedure setup_game():
    do:
        shuffle deck
        for each p in players:
            deal(p)

procedure deal(p: player):
    do:
        move top(deck) to hand(p)

procedure play_round():
    do:
        for each p in players:
            if p.score > 100:
                break
            play_turn(p)

function hand_size(p: player) -> number:
    = count(contents(hand(p)))

action draw:
    text "Draw a card and score a die roll."
    with c: card in contents(deck) where c.value > 0
    require hand_size(current_player) < 5 else "your hand is full"
    cost 1 energy
    limit 2 per turn
    do:
        let face = roll(d6)
        move c to hand(current_player)
        set current_player.score += face
        emit card_drawn(player: current_player, card: c)

action discard_card:
    with c: card in contents(hand(current_player))
    do:
        move c to bottom of discard

trigger drawn:
    on card_drawn
    do:
        set event.player.score += 1

trigger refill:
    on turn_started
    when event.player.energy < 3
    do:
        set event.player.energy = 3

victory high_score:
    when any([p.score >= 10 for p in players])
    winners [p for p in players where p.score >= 10]
"""


def write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def replaced(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"{old!r} must occur exactly once"
    return text.replace(old, new)


def load(tmp_path: Path, rules: str = MAIN_RULES, game: str = GAME_YAML, **extra: str):
    folder = write(tmp_path / "rs", {"game.yaml": game, "main.rules": rules, **extra})
    return load_ruleset(folder)


def load_rules_change(tmp_path: Path, old: str, new: str, **extra: str):
    return load(tmp_path, rules=replaced(MAIN_RULES, old, new), **extra)


def load_yaml_change(tmp_path: Path, old: str, new: str):
    return load(tmp_path, game=replaced(GAME_YAML, old, new))


def file_name(d) -> str:
    return Path(d.position.file).name


def loc(d) -> tuple[str, int, int]:
    return (file_name(d), d.position.line, d.position.column)


def only_error(rs):
    errors = rs.bag.errors
    assert len(errors) == 1, rs.bag.render()
    return errors[0]


def line_of(text: str, fragment: str) -> int:
    """1-based number of the only line that contains fragment."""
    hits = [n for n, line in enumerate(text.splitlines(), start=1) if fragment in line]
    assert len(hits) == 1, (fragment, hits)
    return hits[0]


def column_of(text: str, line: int, fragment: str) -> int:
    """1-based column where fragment starts on the given line."""
    return text.splitlines()[line - 1].index(fragment) + 1


# ------------------------------------------------------------------ a clean rule set


def test_clean_ruleset_has_no_diagnostics(tmp_path):
    rs = load(tmp_path)
    assert rs.bag.items == [], rs.bag.render()
    assert rs.ok
    assert rs.name == "tiny"
    assert sorted(rs.definitions) == ["deal", "discard_card", "draw", "drawn", "hand_size", "high_score",
                                      "play_round", "refill", "setup_game"]
    assert [Path(f).name for f in rs.files] == ["game.yaml", "main.rules"]
    assert set(rs.data.kinds) == {"player", "card", "token"}
    assert rs.data.zones["hand"].per_player and not rs.data.zones["hand"].ordered


def test_checker_annotates_names_and_calls(tmp_path):
    rs = load(tmp_path)
    fn = rs.definitions["hand_size"]
    assert fn.value.ref == ("builtin", "count")
    assert fn.value.type == "number"
    inner = fn.value.args[0].args[0]
    assert inner.ref == ("player_zone", "hand")
    assert inner.args[0].ref == ("local", "p")
    assert inner.args[0].type == "player"


# ------------------------------------------------------------------ names


def test_unknown_name_with_did_you_mean(tmp_path):
    rs = load_rules_change(tmp_path, "        for each p in players:\n            if",
                           "        for each p in playres:\n            if")
    err = only_error(rs)
    assert err.message == "unknown name 'playres'"
    assert err.hint == "did you mean 'players'?"
    assert loc(err) == ("main.rules", 13, 23)
    assert err.position.end_column == 30


def test_per_player_zone_used_as_a_plain_name(tmp_path):
    rs = load_rules_change(tmp_path, "move c to hand(current_player)", "move c to hand")
    err = only_error(rs)
    assert err.message == "unknown name 'hand'"
    assert err.hint == "'hand' is a zone of each player: write hand(player)"


def test_unknown_property_of_a_kind_with_did_you_mean(tmp_path):
    rs = load_rules_change(tmp_path, "when any([p.score >= 10", "when any([p.scor >= 10")
    err = only_error(rs)
    assert err.message == "kind 'player' has no property 'scor'"
    assert err.hint == "did you mean 'score'?"
    # located at the property name, not at the object
    assert loc(err) == ("main.rules", line_of(MAIN_RULES, "when any([p.score"), 17)
    assert err.position.end_column == 21


def test_setting_an_unknown_property(tmp_path):
    rs = load_rules_change(tmp_path, "set current_player.score += face", "set current_player.scroe += face")
    err = only_error(rs)
    assert err.message == "kind 'player' has no property 'scroe'"
    assert err.hint == "did you mean 'score'?"
    assert err.position.line == line_of(MAIN_RULES, "set current_player.score += face")


def test_unknown_function_with_did_you_mean(tmp_path):
    rs = load_rules_change(tmp_path, "= count(contents(hand(p)))", "= cuont(contents(hand(p)))")
    err = only_error(rs)
    assert err.message == "unknown function 'cuont'"
    assert err.hint == "did you mean 'count'?"
    assert loc(err) == ("main.rules", 19, 7)


def test_unknown_procedure_with_did_you_mean(tmp_path):
    rs = load_rules_change(tmp_path, "            deal(p)", "            dael(p)")
    err = only_error(rs)
    assert err.message == "unknown procedure 'dael'"
    assert err.hint == "did you mean 'deal'?"
    assert loc(err) == ("main.rules", 5, 13)


def test_function_called_as_a_statement(tmp_path):
    rs = load_rules_change(tmp_path, "            deal(p)", "            hand_size(p)")
    err = only_error(rs)
    assert err.message == "'hand_size' is a function: its value would be thrown away"


# ------------------------------------------------------------------ calls and types


def test_wrong_argument_count_of_a_procedure(tmp_path):
    rs = load_rules_change(tmp_path, "            deal(p)", "            deal(p, 2)")
    err = only_error(rs)
    assert err.message == "'deal' takes 1 argument(s), not 2"
    assert loc(err) == ("main.rules", 5, 13)


def test_wrong_argument_count_of_a_function_and_a_builtin(tmp_path):
    rs = load_rules_change(tmp_path, "= count(contents(hand(p)))", "= count(contents(hand(p)), 1) + hand_size()")
    messages = sorted(d.message for d in rs.bag.errors)
    # the edited line also makes hand_size call itself, which is refused too
    assert messages == ["'count' takes 1 argument(s), not 2",
                        "'hand_size' calls itself (hand_size → hand_size); rules must always finish",
                        "'hand_size' takes 1 argument(s), not 0"], rs.bag.render()
    assert all(d.position.line == 19 for d in rs.bag.errors)


def test_argument_type_mismatch(tmp_path):
    rs = load_rules_change(tmp_path, "            deal(p)", "            deal(3)")
    err = only_error(rs)
    assert err.message == "argument of 'deal' should be a player, not a number"
    # located at the argument itself
    assert loc(err) == ("main.rules", 5, 18)


def test_argument_type_mismatch_of_a_builtin(tmp_path):
    rs = load_rules_change(tmp_path, "= count(contents(hand(p)))", "= count(contents(p))")
    err = only_error(rs)
    assert err.message == "argument of 'contents' should be a zone, not a player"
    assert loc(err) == ("main.rules", 19, 22)


def test_requirement_not_a_bool(tmp_path):
    rs = load_rules_change(tmp_path, "require hand_size(current_player) < 5", "require hand_size(current_player)")
    err = only_error(rs)
    assert err.message == "a requirement must be a bool, not a number"
    assert loc(err) == ("main.rules", line_of(MAIN_RULES, "require hand_size"), 13)


def test_if_condition_not_a_bool(tmp_path):
    rs = load_rules_change(tmp_path, "if p.score > 100:", "if p.score:")
    err = only_error(rs)
    assert err.message == "an 'if' condition must be a bool, not a number"
    assert loc(err) == ("main.rules", 14, 16)


def test_victory_and_trigger_conditions_not_bools(tmp_path):
    rules = replaced(MAIN_RULES, "when any([p.score >= 10 for p in players])", "when round_number")
    rules = replaced(rules, "when event.player.energy < 3", "when event.player.nickname")
    rs = load(tmp_path, rules=rules)
    found = sorted((d.message, d.position.line) for d in rs.bag.errors)
    assert found == [
        ("a trigger condition must be a bool, not a text", line_of(rules, "when event.player.nickname")),
        ("a victory condition must be a bool, not a number", line_of(rules, "when round_number")),
    ], rs.bag.render()


def test_function_value_of_the_wrong_type(tmp_path):
    rs = load_rules_change(tmp_path, "= count(contents(hand(p)))", "= p.nickname")
    err = only_error(rs)
    assert err.message == "function 'hand_size' should give a number but gives a text"
    assert loc(err) == ("main.rules", 19, 7)


def test_unknown_type_in_signatures(tmp_path):
    rules = replaced(MAIN_RULES, "procedure deal(p: player)", "procedure deal(p: playr)")
    rules = replaced(rules, "function hand_size(p: player) -> number", "function hand_size(p: player) -> list of nubmer")
    rs = load(tmp_path, rules=rules)
    found = sorted((d.message, d.hint, d.position.line, d.position.column) for d in rs.bag.errors
                   if d.message.startswith("unknown type"))
    assert found == [
        ("unknown type 'nubmer'", "did you mean 'number'?", 18, 42),
        ("unknown type 'playr'", "did you mean 'player'?", 7, 19),
    ], rs.bag.render()


# ------------------------------------------------------------------ costs, randomness, loops


def test_cost_in_a_resource_that_is_not_a_player_property(tmp_path):
    rs = load_rules_change(tmp_path, "cost 1 energy", "cost 1 ap")
    err = only_error(rs)
    assert err.message == "cost in unknown resource 'ap'"
    assert err.hint == "a cost is paid from a number property of the player (score, energy)"
    assert loc(err) == ("main.rules", line_of(MAIN_RULES, "cost 1 energy"), 12)  # under the resource


def test_cost_resource_misspelt_gets_did_you_mean(tmp_path):
    rs = load_rules_change(tmp_path, "cost 1 energy", "cost 1 enrgy")
    err = only_error(rs)
    assert err.message == "cost in unknown resource 'enrgy'"
    assert err.hint == "did you mean 'energy'?"


def test_cost_resource_must_be_a_number(tmp_path):
    rs = load_rules_change(tmp_path, "cost 1 energy", "cost 1 nickname")
    err = only_error(rs)
    assert err.message == "cost resource 'nickname' is a text, not a number"


def test_unknown_limit_period(tmp_path):
    rs = load_rules_change(tmp_path, "limit 2 per turn", "limit 2 per trun")
    err = only_error(rs)
    assert err.message == "unknown limit period 'trun'"
    assert err.hint == "did you mean 'turn'?"


def test_roll_outside_a_let(tmp_path):
    rs = load_rules_change(tmp_path, "set current_player.score += face", "set current_player.score += roll(d6)")
    err = only_error(rs)
    assert err.message == "'roll' draws at random, so it may only be the value of a 'let'"
    assert err.hint == "write 'let x = roll(...)' and use x"
    line = line_of(MAIN_RULES, "set current_player.score += face")
    assert loc(err) == ("main.rules", line, 37)


def test_roll_inside_an_expression_of_a_let_is_still_refused(tmp_path):
    rs = load_rules_change(tmp_path, "let face = roll(d6)", "let face = 1 + roll(d6)")
    err = only_error(rs)
    assert err.message == "'roll' draws at random, so it may only be the value of a 'let'"


def test_break_outside_a_loop(tmp_path):
    rs = load_rules_change(tmp_path, "        shuffle deck\n", "        shuffle deck\n        break\n")
    err = only_error(rs)
    assert err.message == "'break' outside a loop"
    assert "innermost" in err.hint
    assert loc(err) == ("main.rules", 4, 9)


def test_break_inside_repeat_is_fine(tmp_path):
    rs = load_rules_change(tmp_path, "        shuffle deck\n",
                           "        shuffle deck\n        repeat 2 times:\n            break\n")
    assert rs.bag.items == [], rs.bag.render()


# ------------------------------------------------------------------ definitions and events


def test_definition_defined_twice_in_two_files(tmp_path):
    second = "# the same name again\n\nprocedure deal(p: player):\n    do:\n        stop\n"
    rs = load(tmp_path, **{"z_more.rules": second})
    err = only_error(rs)
    assert err.message == "'deal' is defined twice"
    # reported at the second definition, naming the first one's place
    assert loc(err) == ("z_more.rules", 3, 11)
    first = Path(tmp_path / "rs" / "main.rules")
    assert err.hint.startswith("the first definition is at ")
    assert err.hint.endswith("main.rules:7:11")
    assert Path(err.hint[len("the first definition is at "):].rsplit(":", 2)[0]).resolve() == first.resolve()
    # the first definition is the one kept
    assert Path(rs.definitions["deal"].file).name == "main.rules"


def test_trigger_on_an_event_nothing_emits(tmp_path):
    rules = MAIN_RULES + "\ntrigger lost:\n    on card_drawm\n    do:\n        stop\n"
    rs = load(tmp_path, rules=rules)
    err = only_error(rs)
    assert err.message == "trigger 'lost' waits for event 'card_drawm' that nothing emits"
    assert err.hint == "did you mean 'card_drawn'?"
    assert loc(err) == ("main.rules", line_of(rules, "on card_drawm"), 8)
    assert err.position.end_column == 18


def test_trigger_on_an_unknown_event_reports_one_error(tmp_path):
    rs = load_rules_change(tmp_path, "on card_drawn", "on card_drawm")
    assert [d.message for d in rs.bag.errors] == [
        "trigger 'drawn' waits for event 'card_drawm' that nothing emits"]


def test_unknown_event_field(tmp_path):
    rs = load_rules_change(tmp_path, "when event.player.energy < 3", "when event.plyer.energy < 3")
    err = only_error(rs)
    assert err.message == "event 'turn_started' has no field 'plyer'"
    assert err.hint == "did you mean 'player'?"


def test_unused_procedure_is_a_warning_not_an_error(tmp_path):
    rs = load(tmp_path, **{"extra.rules": "procedure helper():\n    do:\n        stop\n"})
    assert rs.bag.errors == []
    assert rs.ok
    (w,) = [x for x in rs.bag.warnings if x.code == "unused"]
    assert w.severity == "warning"
    assert w.message == "procedure 'helper' is never used"
    assert w.code == "unused"
    assert loc(w) == ("extra.rules", 1, 11)


def test_procedure_used_only_by_the_game_is_not_unused(tmp_path):
    rs = load(tmp_path)
    assert not [w for w in rs.bag.warnings if "never used" in w.message]


# ------------------------------------------------------------------ YAML-level checks


def test_game_setup_names_a_missing_procedure(tmp_path):
    rs = load_yaml_change(tmp_path, "setup: setup_game", "setup: setup_gme")
    err = only_error(rs)
    assert err.message == "game.setup names unknown procedure 'setup_gme'"
    assert err.hint == "did you mean 'setup_game'?"
    assert loc(err) == ("game.yaml", 4, 10)
    # the real setup procedure is now unused: a warning, no more errors
    assert [w.message for w in rs.bag.warnings if w.code == "unused"] == ["procedure 'setup_game' is never used"]


def test_game_round_must_be_a_procedure(tmp_path):
    rs = load_yaml_change(tmp_path, "round: play_round", "round: hand_size")
    err = only_error(rs)
    assert err.message == "game.round must name a procedure without parameters; 'hand_size' is a function"
    assert loc(err) == ("game.yaml", 5, 10)


def test_manifest_count_mismatch(tmp_path):
    rs = load_yaml_change(tmp_path, "  card: 6\n", "  card: 7\n")
    err = only_error(rs)
    assert err.message == "the rule set has 6 card component(s) (at 3 players) but the manifest says 7"
    assert loc(err) == ("game.yaml", line_of(GAME_YAML, "  card: 6"), 3)


def test_manifest_counts_per_player_components_at_max_players(tmp_path):
    rs = load_yaml_change(tmp_path, "  token: 6\n", "  token: 2\n")
    err = only_error(rs)
    assert err.message == "the rule set has 6 token component(s) (at 3 players) but the manifest says 2"


def test_manifest_names_an_unknown_kind(tmp_path):
    rs = load_yaml_change(tmp_path, "  token: 6\n", "  token: 6\n  tokn: 1\n")
    err = only_error(rs)
    assert err.message == "manifest names unknown kind 'tokn'"
    assert err.hint == "did you mean 'token'?"


def test_manifest_kind_property_value_key(tmp_path):
    rs = load_yaml_change(tmp_path, "  token: 6\n", "  token: 6\n  card.colour=red: 4\n")
    assert rs.bag.errors == [], rs.bag.render()


def test_component_with_unknown_kind_is_located_in_yaml(tmp_path):
    rs = load_yaml_change(tmp_path, "{name: blue_card, kind: card", "{name: blue_card, kind: crad")
    errors = rs.bag.errors
    kind_error = [d for d in errors if "unknown kind" in d.message]
    assert len(kind_error) == 1, rs.bag.render()
    err = kind_error[0]
    assert err.message == "component 'blue_card' has unknown kind 'crad'"
    assert err.hint == "did you mean 'card'?"
    assert loc(err) == ("game.yaml", line_of(GAME_YAML, "name: blue_card"), 29)
    assert err.position.end_column == 33
    # the slip is the one error: the manifest's counts are not checked while a component's
    # kind is unknown (the two blue cards may be of any kind), which would only echo it
    assert [d.message for d in errors if d is not err] == []


def test_component_in_unknown_zone(tmp_path):
    rs = load_yaml_change(tmp_path, "count: 2, zone: deck", "count: 2, zone: dek")
    err = only_error(rs)
    assert err.message == "component 'blue_card' starts in unknown zone 'dek'"
    assert err.hint == "did you mean 'deck'?"
    assert loc(err) == ("game.yaml", line_of(GAME_YAML, "name: blue_card"), 51)


def test_schema_error_is_located_in_yaml(tmp_path):
    rs = load_yaml_change(tmp_path, "zone: deck, properties: {colour: blue}", "zone: deck, propertys: {colour: blue}")
    errors = rs.bag.errors
    assert errors, "expected a schema error"
    assert errors[0].message == "unknown key 'propertys' in components/1"
    assert errors[0].hint == "did you mean 'properties'?"
    line = line_of(GAME_YAML, "name: blue_card")
    assert loc(errors[0]) == ("game.yaml", line, column_of(GAME_YAML, line, "properties: {colour: blue}"))


def test_unknown_variable_type_is_located(tmp_path):
    rs = load_yaml_change(tmp_path, "dice:\n", "variables:\n  game:\n    leader: playr\n\ndice:\n")
    err = only_error(rs)
    assert err.message == "unknown type 'playr'"
    assert err.position is not None and file_name(err) == "game.yaml"


def test_schema_error_in_game_section_is_the_only_error(tmp_path):
    rs = load_yaml_change(tmp_path, "  round: play_round\n", "  round: play_round\n  rounds_limit: 5\n")
    err = only_error(rs)
    assert err.message == "unknown key 'rounds_limit' in game"


# ------------------------------------------------------------------ positions everywhere


BROKEN_RULES = """\
procedure setup_game():
    do:
        shuffle dek
        break

procedure play_round():
    do:
        for each p in players:
            play_turn(p, 1)

function hand_size(p: player) -> number:
    = count(contents(hand(p))) + p.scor

procedure orphan(x: widget):
    do:
        stop

action draw:
    require hand_size(current_player)
    cost 1 ap
    do:
        set current_player.score += roll(d6)

trigger lost:
    on nothing_emits_this
    do:
        stop

victory v:
    when 1
    winners players
"""


def test_every_diagnostic_has_a_position(tmp_path):
    game = replaced(GAME_YAML, "{name: blue_card, kind: card", "{name: blue_card, kind: crad")
    game = replaced(game, "  token: 6\n", "  token: 5\n")
    rs = load(tmp_path, rules=BROKEN_RULES, game=game, **{"zz_dup.rules": "function hand_size() -> number:\n    = 1\n"})
    items = rs.bag.items
    assert len(rs.bag.errors) >= 12, rs.bag.render()
    assert rs.bag.warnings, "the unused procedure 'orphan' should give a warning"
    folder = (tmp_path / "rs").resolve()
    for d in items:
        p = d.position
        assert p is not None, d
        assert Path(p.file).resolve().parent == folder, d
        assert p.line >= 1 and p.column >= 1, d
        source = rs.bag.sources.line(p.file, p.line)
        assert source is not None, d
        assert p.column <= len(source) + 1, d
        assert d.hint, d  # every mistake says what to do about it
    # the rendering quotes every line and puts a caret under it
    out = rs.bag.render()
    assert out.count("^") >= len(items)
    assert out.count(": error: ") == len(rs.bag.errors)
    messages = {d.message for d in rs.bag.errors}
    for expected in ("unknown name 'dek'", "'break' outside a loop", "'play_turn' takes 1 argument(s), not 2",
                     "kind 'player' has no property 'scor'", "unknown type 'widget'",
                     "a requirement must be a bool, not a number", "cost in unknown resource 'ap'",
                     "'roll' draws at random, so it may only be the value of a 'let'",
                     "trigger 'lost' waits for event 'nothing_emits_this' that nothing emits",
                     "a victory condition must be a bool, not a number", "'hand_size' is defined twice",
                     "component 'blue_card' has unknown kind 'crad'"):
        assert expected in messages, (expected, rs.bag.render())


def test_a_component_named_like_a_kind_is_an_error(tmp_path):
    rs = load_yaml_change(tmp_path, "components:\n", "components:\n  - {name: player, kind: token}\n")
    assert any(e.message == "component 'player' has the same name as a kind" for e in rs.bag.errors)


def test_a_procedure_that_calls_itself_through_another_is_refused(tmp_path):
    rules = MAIN_RULES + """
procedure ping():
    do:
        pong()

procedure pong():
    do:
        ping()
"""
    rs = load(tmp_path, rules=rules)
    errors = [e for e in rs.bag.errors if "calls itself" in e.message]
    assert len(errors) == 1
    assert "ping → pong → ping" in errors[0].message or "pong → ping → pong" in errors[0].message
    assert errors[0].position is not None and errors[0].hint


def test_a_function_that_calls_itself_is_refused(tmp_path):
    rules = MAIN_RULES + """
function forever(n: number) -> number:
    = forever(n + 1)
"""
    rs = load(tmp_path, rules=rules)
    assert any(e.message.startswith("'forever' calls itself (forever → forever)") for e in rs.bag.errors)


# ------------------------------------------------------------------ no echoes, every error with a hint


def test_a_syntax_error_in_a_procedure_is_not_echoed_as_an_unknown_name(tmp_path):
    # setup_game (named by game.yaml) and deal (called by it) are inside the broken text
    rules = replaced(MAIN_RULES, "        shuffle deck\n", "        shuffle deck(\n")
    rs = load(tmp_path, rules=rules)
    err = only_error(rs)
    assert file_name(err) == "main.rules" and err.position.line <= 5  # inside setup_game
    assert "unknown" not in err.message
    assert not [w for w in rs.bag.warnings if "never used" in w.message], rs.bag.render()


def test_a_syntax_error_does_not_hide_a_name_it_does_not_define(tmp_path):
    rules = replaced(MAIN_RULES, "        shuffle deck\n", "        shuffle deck(\n")
    rules = replaced(rules, "            play_turn(p)", "            play_trun(p)")
    rs = load(tmp_path, rules=rules)
    assert sorted(d.message for d in rs.bag.errors)[1] == "unknown procedure 'play_trun'", rs.bag.render()
    assert len(rs.bag.errors) == 2


def test_a_rule_file_that_is_not_utf8_gives_one_error(tmp_path):
    folder = write(tmp_path / "rs", {"game.yaml": GAME_YAML})
    (folder / "main.rules").write_bytes(MAIN_RULES.encode() + b"\xff\n")
    rs = load_ruleset(folder)
    err = only_error(rs)
    assert "not UTF-8" in err.message and err.hint


def test_an_unknown_type_of_an_action_argument_is_one_error(tmp_path):
    rs = load_rules_change(tmp_path, "with c: card in contents(deck)", "with c: crad")
    err = only_error(rs)
    assert (err.message, err.hint) == ("unknown type 'crad'", "did you mean 'card'?")


def test_an_argument_without_a_list_of_a_base_type_has_a_hint(tmp_path):
    rs = load_rules_change(tmp_path, "with c: card in contents(deck) where c.value > 0", "with c: number")
    errors = [d for d in rs.bag.errors if "needs 'in <list>'" in d.message]
    assert len(errors) == 1 and "with c: number in <list>" in errors[0].hint, rs.bag.render()


HINTED = {
    # (old, new): (message, words of the hint)
    ("            deal(p)", "            deal(p, 2)"): ("'deal' takes 1 argument(s), not 2", "deal(p: player)"),
    ("= count(contents(hand(p)))", "= count(contents(hand(p)), 1)"): ("'count' takes 1 argument(s), not 2",
                                                                     "count(any)"),
    ("= count(contents(hand(p)))", "= p.nickname"): ("function 'hand_size' should give a number but gives a text",
                                                    "give a number after '='"),
    ("= count(contents(hand(p)))", "= contents(hand(p))"): (
        "function 'hand_size' should give a number but gives a list of any", "count(...)"),
    ("= count(contents(hand(p)))", "= count(contents(\"deck\"))"): (
        "argument of 'contents' should be a zone, not a text", "a zone is a name of the zones table"),
    ("set event.player.energy = 3", "set event.player.energy = \"full\""): (
        "energy is a number; cannot set it to a text", "set it to a number"),
    ("if p.score > 100:", "if p.score:"): ("an 'if' condition must be a bool, not a number", "compare the number"),
    ("if p.score > 100:", "if p.score > 100 and flase:"): ("unknown name 'flase'", "did you mean 'false'?"),
    ("if p.score > 100:", "if p.score > 100 and zzzq:"): ("unknown name 'zzzq'", "a name is a local"),
}


def test_each_mistake_has_a_hint_that_helps(tmp_path):
    for n, ((old, new), (message, hint)) in enumerate(HINTED.items()):
        rs = load(tmp_path / str(n), rules=replaced(MAIN_RULES, old, new))
        found = [d for d in rs.bag.errors if d.message == message]
        assert len(found) == 1, (new, rs.bag.render())
        assert found[0].hint and hint in found[0].hint, (new, found[0].hint)


EVERY_ERROR_HINTED = [
    ("rules", "for each p in players:\n            if", "for each p in 3:\n            if"),
    ("rules", "move c to hand(current_player)", "move [c] to hand(current_player)"),
    ("rules", "set current_player.score += face", "set current_player.nickname += face"),
    ("rules", "    when any([p.score >= 10 for p in players])\n", ""),
    ("rules", "where p.score >= 10]", "where p.score == \"ten\"]"),
    ("rules", "= count(contents(hand(p)))", "= zzzq(p)"),
    ("rules", "            deal(p)", "            zzzq(p)"),
    ("rules", "move top(deck) to hand(p)", "move top(deck) to hand(p.score)"),
    ("rules", "let face = roll(d6)", "let face = d6[1]"),
    ("rules", "if p.score > 100:", "if p.score in p.nickname:"),
    ("yaml", "    holds: card\n  discard:", "    holds: zzzq\n  discard:"),
    ("yaml", "  players: {min: 2, max: 3}", "  players: {min: 3, max: 2}"),
]


def test_every_error_of_a_slip_has_a_hint(tmp_path):
    for n, (where, old, new) in enumerate(EVERY_ERROR_HINTED):
        folder = tmp_path / str(n)
        rs = (load(folder, rules=replaced(MAIN_RULES, old, new)) if where == "rules"
              else load(folder, game=replaced(GAME_YAML, old, new)))
        assert rs.bag.errors, new
        if new.startswith("  players:"):  # counts at the most players are not checked against a wrong most
            assert len(rs.bag.errors) == 1, rs.bag.render()
        for d in rs.bag.errors:
            assert d.hint, (new, rs.bag.render())


def test_a_missing_player_kind_is_one_error_not_one_per_property_read(tmp_path):
    rs = load_yaml_change(tmp_path, "kinds:\n  player:\n", "kinds:\n  plyer:\n")
    missing = only_error(rs)  # not each 'player' type, property read or cost of the rules again
    assert missing.message == "the rule set declares no 'player' kind"
    assert "'plyer'" in missing.hint


def test_a_name_no_kind_has_read_on_a_value_of_unknown_type_is_a_slip(tmp_path):
    # a player's hand holds things of no declared kind: what `c` is cannot be told, but
    # no kind has a property 'colur', and no event or action a field of that name
    rules = MAIN_RULES + """
function reds_in_hand(p: player) -> number:
    = count([c for c in contents(hand(p)) where c.colur == "red"])
"""
    slip = only_error(load(tmp_path, rules=rules))
    assert slip.message == "no kind has a property 'colur', nor any event or action a field of that name"
    assert loc(slip) == ("main.rules", line_of(rules, "c.colur"), rules.splitlines()[line_of(rules, "c.colur") - 1]
                         .index("colur") + 1)
    assert "'colour'" in slip.hint


def test_a_property_of_some_kind_or_a_field_of_some_record_is_read_on_a_value_of_unknown_type(tmp_path):
    # the hand's things may be cards: their colour reads none for the tokens, at run time
    rules = MAIN_RULES + """
function reds_in_hand(p: player) -> number:
    = count([c for c in contents(hand(p)) where c.colour == "red" and c.id != "x"])
"""
    assert load(tmp_path / "a", rules=rules).bag.errors == []


@pytest.mark.parametrize("value, shown", [('"green"', '"green"'), ("none", "none")])
def test_a_written_value_outside_a_propertys_values_is_told_as_the_rules_write_it(tmp_path, value, shown):
    rs = load_rules_change(tmp_path, "        move c to bottom of discard",
                           f"        move c to bottom of discard\n        set c.colour = {value}")
    err = only_error(rs)
    assert err.message == f"card.colour cannot be {shown}" and err.hint == "allowed: red, blue"


@pytest.mark.parametrize("condition, message, hint", [
    ('c.colour == "rde"', 'card.colour is never "rde", so this comparison is always false', "did you mean 'red'?"),
    ('c.colour != "green"', 'card.colour is never "green", so this comparison is always true', "its values: red, blue"),
    ('c.colour in ["red", "bleu"]', 'card.colour is never "bleu", so this comparison is always false',
     "did you mean 'blue'?"),
    ('"rde" == c.colour', 'card.colour is never "rde", so this comparison is always false', "did you mean 'red'?"),
])
def test_a_listed_property_compared_with_a_value_it_never_holds_is_an_error(tmp_path, condition, message, hint):
    # a misspelt value in a condition silently made the rule never (or always) apply
    rs = load_rules_change(tmp_path, "with c: card in contents(deck) where c.value > 0",
                           f"with c: card in contents(deck) where c.value > 0 and {condition}")
    err = only_error(rs)
    assert (err.message, err.hint) == (message, hint)


@pytest.mark.parametrize("condition, message", [
    ('colour_of(c) == "bleu"', 'colour_of(…) gives card.colour, which is never "bleu", so this comparison is always false'),
    ('"bleu" != shade_of(c)', 'shade_of(…) gives card.colour, which is never "bleu", so this comparison is always true'),
])
def test_a_value_never_held_is_found_through_the_rules_functions(tmp_path, condition, message):
    # the same slip read through a function of the rules went unnoticed
    functions = ("function colour_of(c: card) -> text:\n    = c.colour\n\n"
                 "function shade_of(x: card) -> text:\n    = colour_of(x)\n\n")
    rs = load(tmp_path, rules=functions + replaced(MAIN_RULES, "with c: card in contents(deck) where c.value > 0",
                                                         f"with c: card in contents(deck) where c.value > 0 and {condition}"))
    err = only_error(rs)
    assert (err.message, err.hint) == (message, "did you mean 'blue'?")


def test_a_listed_property_compared_with_its_own_values_checks_clean(tmp_path):
    rs = load_rules_change(tmp_path, "with c: card in contents(deck) where c.value > 0",
                           'with c: card in contents(deck) where c.colour == "red" or c.colour in ["blue"]')
    assert rs.bag.errors == []


def test_a_seat_named_as_scenarios_write_it_is_told_how_the_rules_reach_a_player(tmp_path):
    # `p == p1` was told "did you mean 'p'?"
    rs = load_rules_change(tmp_path, "with c: card in contents(deck) where c.value > 0",
                           "with c: card in contents(deck) where c.value > 0 and current_player == p1")
    err = only_error(rs)
    assert err.message == "unknown name 'p1'"
    assert err.hint.startswith("the rules name no seat: 'p1' is how scenarios and logs write one")
    assert "first(players)" in err.hint
