"""YAML loading and schema validation, every problem located at its YAML line and column."""

from __future__ import annotations

import textwrap


from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.dsl.yaml_data import load_yaml_text, validate

SCHEMA = "ruleset.schema.json"
FILE = "game.yaml"


def load(text: str):
    bag = DiagnosticBag()
    data, located = load_yaml_text(textwrap.dedent(text), FILE, bag)
    return data, located, bag


def check(text: str) -> tuple[bool | None, DiagnosticBag]:
    """Load and validate; returns (validate's result or None if YAML did not load, bag)."""
    data, located, bag = load(text)
    if located.root is None:
        return None, bag
    return validate(data, SCHEMA, located, bag), bag


def only_error(bag: DiagnosticBag):
    assert len(bag.items) == 1, bag.render()
    (d,) = bag.items
    assert d.is_error
    return d


def where(d) -> tuple[str, int, int, int | None]:
    p = d.position
    return (p.file, p.line, p.column, p.end_column)


VALID = '''\
game:
  name: tiny
  players: {min: 2, max: 4}
  setup: setup_game
  round: play_round
kinds:
  player:
    properties:
      score: {type: number, default: 0}
      name: text
zones:
  deck: {visible_to: nobody}
components:
  - {name: card, kind: card, count: 3, zone: deck}
manifest:
  card: 3
'''


def test_valid_text_loads_and_validates_cleanly():
    data, located, bag = load(VALID)
    assert data["game"]["players"] == {"min": 2, "max": 4}
    assert data["components"][0]["count"] == 3
    assert validate(data, SCHEMA, located, bag) is True
    assert bag.items == []


def test_located_maps_data_paths_to_yaml_positions():
    data, located, _ = load(VALID)
    p = located.position(["game", "players", "max"])
    assert (p.file, p.line, p.column) == (FILE, 3, 26)
    p = located.position(["components", 0, "zone"])
    assert (p.line, p.column, p.end_column) == (14, 46, 50)
    k = located.key_position(["kinds", "player"])
    assert (k.line, k.column, k.end_column) == (7, 3, 9)


def test_empty_text_loads_as_nothing():
    data, located, bag = load("# only a comment\n")
    assert data is None and located.root is None
    assert bag.items == []


def test_unknown_key_has_did_you_mean_and_the_keys_position():
    ok, bag = check('''\
        game:
          name: g
          players: {min: 1, max: 2}
          setup: s
          round: r
          rounds_limit: 3
        ''')
    assert ok is False
    d = only_error(bag)
    assert d.message == "unknown key 'rounds_limit' in game"
    assert d.hint == "did you mean 'round_limit'?"
    assert where(d) == (FILE, 6, 3, 15)
    assert d.code == "schema"


def test_unknown_top_level_section():
    _, bag = check('''\
        kinds:
          player: {}
        zonez:
          deck: {}
        ''')
    d = only_error(bag)
    assert d.message == "unknown key 'zonez' in the file"
    assert d.hint == "did you mean 'zones'?"
    assert where(d) == (FILE, 3, 1, 6)


def test_unknown_key_inside_a_list_item():
    _, bag = check('''\
        components:
          - {name: a, kind: card}
          - {name: b, kind: card, cout: 2}
        ''')
    d = only_error(bag)
    assert d.message == "unknown key 'cout' in components/1"
    assert d.hint == "did you mean 'count'?"
    assert where(d) == (FILE, 3, 27, 31)


def test_unknown_key_far_from_every_allowed_key_lists_the_allowed_keys():
    _, bag = check('''\
        zones:
          deck:
            zzz: 1
        ''')
    d = only_error(bag)
    assert d.message == "unknown key 'zzz' in zones/deck"
    assert d.hint.startswith("allowed keys: ")
    assert "per_player" in d.hint and "visible_to" in d.hint
    assert where(d)[1:3] == (3, 5)


def test_every_unknown_key_of_a_mapping_is_reported():
    _, bag = check('''\
        game:
          name: g
          players: {min: 1, max: 2}
          setup: s
          round: r
          titel: x
          txt: y
        ''')
    assert sorted(d.message for d in bag.errors) == [
        "unknown key 'titel' in game", "unknown key 'txt' in game"]


def test_unknown_key_in_a_property_mapping_gets_did_you_mean():
    _, bag = check('''\
        kinds:
          player:
            properties:
              hp: {type: number, defualt: 3}
        ''')
    d = only_error(bag)
    assert d.message == "unknown key 'defualt' in kinds/player/properties/hp"
    assert d.hint == "did you mean 'default'?"
    assert where(d)[1:3] == (4, 26)


def test_wrong_type_is_located_at_the_value():
    _, bag = check('''\
        game:
          name: g
          players: {min: one, max: 2}
          setup: s
          round: r
        ''')
    d = only_error(bag)
    assert d.message == "game/players/min: expected a whole number, found the text 'one'"
    assert where(d) == (FILE, 3, 18, 21)


def test_wrong_type_in_a_block_list_item():
    _, bag = check('''\
        components:
          - name: a
            kind: card
          - name: b
            kind: card
            count: "three"
        ''')
    d = only_error(bag)
    assert d.message == "components/1/count: expected a whole number, found the text 'three'"
    assert where(d) == (FILE, 6, 12, 19)


def test_value_outside_an_enum_gets_did_you_mean():
    _, bag = check('''\
        zones:
          deck:
            visible_to: evryone
        ''')
    d = only_error(bag)
    assert d.message == "zones/deck/visible_to: 'evryone' is not an allowed value"
    assert d.hint == "did you mean 'everyone'?"
    assert where(d) == (FILE, 3, 17, 24)


def test_missing_required_key_points_at_the_mapping():
    _, bag = check('''\
        kinds:
          player: {}
        components:
          - name: a
            count: 2
        ''')
    d = only_error(bag)
    assert d.message == "components/0: 'kind' is a required property"
    assert where(d)[1:3] == (4, 5)


def test_schema_errors_point_at_the_right_lines():
    _, bag = check('''\
        # comment lines count too

        manifest:
          card: -1
        components:
          - {name: a, kind: card}
          - {name: 3b, kind: card}
        dice:
          d6: []
        ''')
    assert len(bag.errors) == 3, bag.render()
    found = {d.message: (d.position.line, d.position.column) for d in bag.errors}
    assert found == {
        "manifest/card: -1 is less than the minimum of 0": (4, 9),
        "components/1/name: '3b' is not a name": (7, 12),
        "dice/d6: [] should be non-empty": (9, 7),
    }
    out = bag.render()
    assert "    4 |   card: -1" in out
    assert "    7 |   - {name: 3b, kind: card}" in out


def test_duplicate_key_is_an_error_at_the_second_key():
    data, located, bag = load('''\
        kinds:
          player: {}
          card: {}
          player: {properties: {x: number}}
        ''')
    d = only_error(bag)
    assert "the key 'player' appears twice" in d.message
    assert where(d)[:3] == (FILE, 4, 3)
    assert data is None and located.root is None


def test_duplicate_top_level_section_is_an_error():
    _, _, bag = load('''\
        kinds: {}
        zones: {}
        kinds: {}
        ''')
    d = only_error(bag)
    assert "the key 'kinds' appears twice" in d.message
    assert where(d)[1:3] == (3, 1)


def test_duplicate_key_in_a_flow_mapping():
    _, _, bag = load('''\
        components:
          - {name: a, kind: card, name: b}
        ''')
    d = only_error(bag)
    assert "the key 'name' appears twice" in d.message
    assert where(d)[1:3] == (2, 27)


def test_yaml_syntax_error_is_located():
    _, located, bag = load('''\
        game:
          name: g
         players: x
        ''')
    assert located.root is None
    d = only_error(bag)
    assert d.message.startswith("YAML syntax: ")
    assert where(d)[:3] == (FILE, 3, 2)
    assert "indentation" in d.hint
    assert "    3 |  players: x" in bag.render()


def test_yaml_tab_is_a_located_syntax_error():
    _, _, bag = load("game:\n\tname: g\n")
    d = only_error(bag)
    assert d.message == "YAML syntax: a tab character: YAML indents with spaces only"
    assert where(d)[1:3] == (2, 1)


def test_yaml_mapping_value_in_a_plain_scalar():
    _, _, bag = load('''\
        zones:
          deck:
            text: a: b
        ''')
    d = only_error(bag)
    assert d.message == "YAML syntax: a ': ' here would start a key inside a value"
    assert "quote the value" in d.hint
    assert where(d)[1:3] == (3, 12)


def test_a_key_yaml_reads_as_a_boolean_is_a_located_error_with_a_hint():
    data, located, bag = load("""\
        kinds:
          lamp:
            properties:
              on: {type: bool, default: false}
              'off': {type: bool, default: true}
              lit: {type: bool, default: false}
        """)
    d = only_error(bag)
    assert where(d) == (FILE, 4, 7, 9)
    assert d.message == "the key 'on' reads as a yes/no value in YAML, not as a name"
    assert "quote it" in d.hint
    # the data stays well-formed text keys, so later checks never meet a boolean name
    assert list(data["kinds"]["lamp"]["properties"]) == ["on", "off", "lit"]


def test_every_boolean_like_key_is_reported_and_none_collide_as_duplicates():
    data, located, bag = load("""\
        tables:
          answers: {yes: 1, no: 0, True: 2, OFF: 3}
        """)
    assert [d.message.split("'")[1] for d in bag.items] == ["yes", "no", "True", "OFF"]
    assert all(d.is_error for d in bag.items)
    assert data["tables"]["answers"] == {"yes": 1, "no": 0, "True": 2, "OFF": 3}


def test_a_checked_rule_set_with_a_property_named_on_reports_it_instead_of_crashing(tmp_path):
    from engine_rulesets import game_yaml, write_ruleset

    from rulecraft.dsl.diagnostics import RuleSetError
    from rulecraft.dsl.loader import load_checked

    folder = write_ruleset(tmp_path / "lamps", {
        "game.yaml": game_yaml() + textwrap.dedent("""\
            kinds:
              player: {properties: {hp: {type: number, default: 1}}}
              lamp:
                properties:
                  on: {type: bool, default: false}
            components:
              - {name: lamp1, kind: lamp, count: 1, properties: {on: true}}
            """),
        "main.rules": """
            procedure setup():
                do:
                    set lamp1.lit = true
            procedure round():
                do:
                    set lamp1.on = false
            """})
    try:
        load_checked(folder)
    except RuleSetError as err:
        messages = [d.message for d in err.bag.items]
    else:
        raise AssertionError("the rule set should not load")
    assert messages.count("the key 'on' reads as a yes/no value in YAML, not as a name") == 2
    # the section with the bad key is left out of later checks, like any broken section
    assert "kind 'lamp' has no property 'lit'" not in messages


def test_an_unclosed_brace_is_the_error_not_the_indentation_of_the_next_key():
    text = VALID.replace("  players: {min: 2, max: 4}", "  players: {min: 2, max: 4")
    bag = DiagnosticBag()
    load_yaml_text(text, FILE, bag, SCHEMA)
    d = only_error(bag)
    assert d.message == "YAML syntax: this '{' mapping is not closed"
    assert where(d)[1:3] == (3, 12)  # at the '{'
    assert d.hint == "close it on line 3: players: {min: 2, max: 4}"


def test_an_unclosed_bracket_over_several_lines_is_closed_on_its_last_line():
    text = VALID.replace("  players: {min: 2, max: 4}", "  players: [2,\n    4   # at most\n")
    bag = DiagnosticBag()
    load_yaml_text(text, FILE, bag, SCHEMA)
    d = only_error(bag)
    assert d.message == "YAML syntax: this '[' list is not closed"
    assert where(d)[1:3] == (3, 12)
    assert d.hint == "close it on line 4: 4]"


def test_a_missing_comma_inside_braces_is_not_called_an_indentation_slip():
    # a folded text above could take the line in, if indentation were what went wrong
    text = VALID.replace("  players: {min: 2, max: 4}", "  text: >-\n    Two to four.\n  players: {min: 2\n    max: 4}")
    bag = DiagnosticBag()
    load_yaml_text(text, FILE, bag, SCHEMA)
    d = only_error(bag)
    assert "indented" not in d.message and "indent" not in d.hint, bag.render()
    assert "','" in d.message
