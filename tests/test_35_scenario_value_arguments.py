"""A scenario's argument to a text (number, yes/no) parameter is that value as written,
even when a component of several copies has the same name: `claim: duke` names the
text "duke", not one of the cards `duke.1`, `duke.2`."""

from __future__ import annotations

from engine_rulesets import QUIET_SETUP_AND_ROUND, build, game_yaml
from scenario_runs import explain, run_one

from rulecraft.validator.runner import FAIL, PASS

DATA = """
kinds:
  player:
    properties:
      claimed: {type: "text?"}
  card: {}
zones:
  deck: {}
components:
  - {name: duke, kind: card, count: 3, zone: deck}
  - {name: captain, kind: card, count: 3, zone: deck}
"""

RULES = QUIET_SETUP_AND_ROUND + """
action claim:
    with role: text in ["duke", "captain"]
    do:
        set current_player.claimed = role

action take:
    with c: card in contents(deck)
    do:
        move c to deck
"""


def test_a_text_argument_named_like_a_component_is_that_text(tmp_path):
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 3)) + DATA, "play.rules": RULES})
    result = run_one(rs, """
        scenarios:
          - title: claiming the duke
            cite: "house rules: claims"
            players: 2
            steps:
              - {do: claim, args: {role: duke}}
              - expect:
                  props: {p1: {claimed: duke}}
        """, "s.yaml")
    assert result.status == PASS, explain(result)


def test_a_thing_argument_written_as_a_component_still_stands_for_its_copies(tmp_path):
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 3)) + DATA, "play.rules": RULES})
    result = run_one(rs, """
        scenarios:
          - title: taking a duke card
            cite: "house rules: taking"
            players: 2
            steps:
              - {do: take, args: {c: duke}}
        """, "s.yaml")
    assert result.status != PASS
    assert "'duke' stands for any of its copies" in explain(result)
    wrong = run_one(rs, """
        scenarios:
          - title: claiming a role nobody may claim
            cite: "house rules: claims"
            players: 2
            steps:
              - {do: claim, args: {role: contessa}}
        """, "s.yaml")
    assert wrong.status == FAIL and "is not legal for p1 now" in explain(wrong)
