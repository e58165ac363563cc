"""``distinct(list)``: each item once, where it first comes (how many tiles a feature
spans, which players hold a kind of card), on both of the engine's paths."""

from __future__ import annotations

from engine_rulesets import QUIET_SETUP_AND_ROUND, build, emitted, game_yaml, load_errors

from rulecraft.dsl.compiler import Compiler
from rulecraft.dsl.loader import load_ruleset
from rulecraft.interpreter.game import Game

GAME = game_yaml("spans", players=(1, 2), setup="setup") + """
kinds:
  player:
    properties: {}
  token:
    properties:
      group: {type: text, values: [a, b, c]}
components:
  - {name: red, kind: token, properties: {group: a}}
  - {name: green, kind: token, properties: {group: b}}
  - {name: blue, kind: token, properties: {group: a}}
"""

RULES = QUIET_SETUP_AND_ROUND.replace("""procedure setup():
    do:
        stop""", """procedure setup():
    do:
        emit q(name: "groups", value: distinct([t.group for t in token]))
        emit q(name: "count", value: count(distinct([t.group for t in token])))
        emit q(name: "spots", value: count(distinct([spot(1, 2, 0), spot(1, 2, 0), spot(2, 1, 0)])))
        emit q(name: "none", value: distinct([]))""")


def test_distinct_keeps_each_item_once_in_first_order(tmp_path):
    ruleset = build(tmp_path, {"game.yaml": GAME, "play.rules": RULES})
    closures = load_ruleset(ruleset.root)
    closures.compiled = Compiler(closures, generate=False).compile()
    for rs in (ruleset, closures):
        told = emitted(Game(rs, 1, 1))
        assert told == {"groups": ["a", "b"], "count": 2, "spots": 2, "none": []}


def test_distinct_keeps_the_items_type(tmp_path):
    errors = load_errors(tmp_path, {"game.yaml": GAME, "play.rules": RULES.replace(
        'emit q(name: "none", value: distinct([]))',
        'emit q(name: "none", value: first(distinct([t for t in token])).group == "d")')})
    assert 'token.group is never "d"' in errors
