"""A failed ``events:`` check shows the events as a scenario may write them: never the
engine's private marks (who may not see an event), which a scenario may not match.
Nothing here knows a shipped game."""

from __future__ import annotations

import pytest
from engine_rulesets import QUIET_SETUP_AND_ROUND, build, game_yaml
from scenario_runs import explain, run_one

from rulecraft.validator import FAIL, PASS

GAME = game_yaml("sealed", players=(2, 3)) + """\
kinds:
  player:
    properties:
      secret: {type: number, default: 0, visible_to: owner}
"""

RULES = QUIET_SETUP_AND_ROUND + """
action hide:
    do:
        set current_player.secret = 7
"""


@pytest.fixture(scope="module")
def sealed(tmp_path_factory):
    return build(tmp_path_factory.mktemp("sealed"), {"game.yaml": GAME, "main.rules": RULES}, name="sealed")


def scenario(value: int, key: str = "events") -> str:
    return f"""
        title: sealed
        cite: "sealed: Secrets"
        players: 3
        setup: {{current: p1}}
        steps:
          - do: hide
        expect:
          {key}: [{{type: changed, entity: p1, property: secret, value: {value}}}]
    """


def test_a_hidden_change_matches_by_its_public_fields(sealed):
    result = run_one(sealed, scenario(7), "seeds/sealed/example.yaml")
    assert result.status == PASS, explain(result)


@pytest.mark.parametrize("key, value", [("events", 8), ("no_events", 7), ("events_in_order", 8)])
def test_a_failed_events_check_shows_no_private_field(sealed, key, value):
    result = run_one(sealed, scenario(value, key), "seeds/sealed/example.yaml")
    assert result.status == FAIL, explain(result)
    text = explain(result)
    assert "secret" in text
    assert "_hidden_from" not in text and "'_" not in text and " _" not in text, text
