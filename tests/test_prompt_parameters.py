"""A choose's prompt puts a parameter's value in place of '{NAME}', as a refusal message
does: the value follows a variant, a glossary's words for the prompt are filled the same
way, a scenario may quote the prompt as the rules write it, and a name that is no
parameter is an error at its braces. Nothing here knows a shipped game."""

from __future__ import annotations

import textwrap

import pytest
from engine_rulesets import build, write_ruleset
from scenario_runs import explain, run_one

from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.dsl.lark_parse import parse_with_lark
from rulecraft.dsl.loader import load_checked, load_ruleset
from rulecraft.dsl.parser import parse_text
from rulecraft.interpreter.game import Game
from rulecraft.narration import Words
from rulecraft.validator import PASS

GAME = """\
game:
  name: toll
  players: {min: 2, max: 3}
  setup: setup
  round: round
  round_limit: 3
kinds:
  player:
    properties:
      coins: {type: number, default: 10}
parameters:
  fee:
    value: 2
    text: What crossing the bridge costs.
"""

RULES = """\
procedure setup():
    do:
        let p = first(players)
        choose q from players by p prompt "Pay {fee} coins to whom? {not a name}"
        set p.coins -= fee
        set q.coins += fee

procedure round():
    do:
        for each p in players:
            play_turn(p)
"""

VARIANT = """\
variant:
  name: steep
  base: toll
parameters:
  fee: 5
"""

FRENCH = """\
language: fr
prompts:
  "Pay {fee} coins to whom? {not a name}": "À qui payer {fee} pièces ?"
"""


@pytest.fixture(scope="module")
def toll(tmp_path_factory):
    folder = write_ruleset(tmp_path_factory.mktemp("toll") / "toll", {"game.yaml": GAME, "main.rules": RULES})
    (folder / "variants").mkdir()
    (folder / "variants" / "steep.yaml").write_text(VARIANT, encoding="utf-8")
    (folder / "glossary").mkdir()
    (folder / "glossary" / "fr.yaml").write_text(FRENCH, encoding="utf-8")
    return folder


def asked(ruleset) -> dict:
    game = Game(ruleset, 2, seed=1)
    assert game.pending is not None and game.pending.kind == "choose"
    return {"kind": "choose", "prompt": game.pending.prompt}


def test_the_prompt_shows_the_parameter_value_and_keeps_other_braces(toll):
    assert asked(load_checked(toll))["prompt"] == "Pay 2 coins to whom? {not a name}"


def test_the_prompt_follows_a_variant_that_changes_the_parameter(toll):
    assert asked(load_checked(toll, variant="steep"))["prompt"] == "Pay 5 coins to whom? {not a name}"


@pytest.mark.parametrize("variant, said", [(None, "À qui payer 2 pièces ?"), ("steep", "À qui payer 5 pièces ?")])
def test_a_glossary_words_the_prompt_with_the_same_value(toll, variant, said):
    ruleset = load_checked(toll, variant=variant)
    assert Words(ruleset, "fr").prompt(asked(ruleset)) == said
    # English shows the rules' own words, filled in
    assert Words(ruleset, "en").prompt(asked(ruleset)).startswith("Pay ")


def test_a_scenario_may_quote_the_prompt_as_written_or_as_shown(toll):
    ruleset = load_checked(toll, variant="steep")
    for quoted in ("Pay {fee} coins to whom?", "Pay 5 coins"):
        result = run_one(ruleset, f"""
            title: the toll
            cite: "toll: Bridge"
            players: 2
            expect:
              pending: {{player: p1, kind: choose, prompt: "{quoted}"}}
        """, "seeds/toll/example.yaml", variant="steep")
        assert result.status == PASS, explain(result)
    result = run_one(ruleset, """
        title: the toll
        cite: "toll: Bridge"
        players: 2
        expect:
          pending: {player: p1, kind: choose, prompt: "Pay 2 coins"}
    """, "seeds/toll/example.yaml", variant="steep")
    assert result.status != PASS


def test_a_name_that_is_no_parameter_is_an_error_at_its_braces(tmp_path):
    rules = RULES.replace("{fee} coins", "{fe} coins")
    folder = write_ruleset(tmp_path / "toll", {"game.yaml": GAME, "main.rules": rules})
    bag = load_ruleset(folder).bag
    assert len(bag.errors) == 1, bag.render()
    d = bag.errors[0]
    assert d.message == "unknown parameter 'fe' in the prompt"
    assert d.hint == "did you mean 'fee'?"
    line = textwrap.dedent(rules).splitlines()[d.position.line - 1]
    assert line[d.position.column - 1:d.position.end_column - 1] == "{fe}"


def test_a_local_value_in_braces_is_refused_with_the_reason(tmp_path):
    rules = RULES.replace("{fee} coins", "{p} coins")
    bag = load_ruleset(write_ruleset(tmp_path / "toll", {"game.yaml": GAME, "main.rules": rules})).bag
    assert [d.message for d in bag.errors] == ["unknown parameter 'p' in the prompt"], bag.render()
    assert "a chosen or local value cannot be put there" in bag.errors[0].hint


def test_both_parsers_read_a_prompt_alike_and_warn_of_nothing(tmp_path):
    text = textwrap.dedent(RULES)
    direct, lark = DiagnosticBag(), DiagnosticBag()
    parsed = parse_text(text, "main.rules", direct)
    assert direct.items == [], direct.render()
    assert parse_with_lark(text, 0, "main.rules", lark)
    assert lark.items == [], lark.render()
    choose = parsed.definitions[0].body.statements[1]
    assert choose.prompt == "Pay {fee} coins to whom? {not a name}"
    assert (choose.prompt_pos.line, choose.prompt_pos.column) == (4, 43)  # the opening quote


def test_build_helper_still_loads_the_game(tmp_path):
    # the fixture's rule set checks cleanly: no warning is left about the braces
    ruleset = build(tmp_path, {"game.yaml": GAME, "main.rules": RULES}, name="toll")
    assert not ruleset.bag.warnings, ruleset.bag.render()
