"""House variants: patches on a rule set, with errors located in the variant's own files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulecraft.cli.main import main
from rulecraft.dsl.loader import load_checked, load_ruleset

RULES = Path(__file__).resolve().parent.parent / "rules" / "panic_station"


@pytest.fixture
def rules(tmp_path) -> Path:
    folder = tmp_path / "panic_station"
    shutil.copytree(RULES, folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def _write(folder: Path, name: str, yaml: str, rules: str | None = None) -> None:
    (folder / "variants" / f"{name}.yaml").write_text(yaml)
    if rules is not None:
        (folder / "variants" / f"{name}.rules").write_text(rules)


def test_each_rulebook_variant_changes_what_it_says():
    assert load_checked(RULES, "four_gas_cans").data.parameters["gas_cans_to_burn"]["value"] == 4
    infection = next(c for c in load_checked(RULES, "humans_advantage").data.components if c.name == "infection")
    assert infection.count == 2
    ms = load_checked(RULES, "master_and_servant")
    assert set(ms.variant.replaced) == {"infected_team", "all_infected_winners"}
    assert {"remember_the_host", "loyal_by_infecting", "loyal_by_eliminating"} <= set(ms.variant.added)
    assert load_checked(RULES).data.parameters["gas_cans_to_burn"]["value"] == 3  # the base is untouched


def test_a_mistake_in_a_variant_is_reported_in_the_variant_file(rules):
    _write(rules, "broken", """variant:
  name: broken
  base: panic_station
parameters:
  gas_cans_to_brun: 4
replaces: [infected_teem]
""", """function infected_teem() -> list of player:
    = [p for p in living_players() where p.infectd]
""")
    rs = load_ruleset(rules, variant="broken")
    messages = {e.message: e for e in rs.bag.errors}
    param = messages["the base has no parameter 'gas_cans_to_brun'"]
    assert param.position.file.endswith("variants/broken.yaml") and param.position.line == 5
    assert param.hint == "did you mean 'gas_cans_to_burn'?"
    replaced = messages["variant 'broken' replaces 'infected_teem', which the base does not define"]
    assert replaced.hint == "did you mean 'infected_team'?"
    assert replaced.position.file.endswith("variants/broken.yaml")
    typo = next(e for e in rs.bag.errors if "infectd" in e.message)
    assert typo.position.file.endswith("variants/broken.rules")


def test_a_syntax_error_in_a_variant_rule_file_is_not_echoed(rules):
    # 'helper' and the replacement 'infected_team' are both lost to syntax errors: neither
    # the call of helper nor the 'replaces' entry is a second mistake
    _write(rules, "slip", """variant:
  name: slip
  base: panic_station
replaces: [infected_team]
""", """function helper(p: player) -> bool
    = p.infected

function infected_team() -> list of player
    = [p for p in living_players() where helper(p)]

function uses_helper() -> list of player:
    = [p for p in living_players() where helper(p)]
""")
    rs = load_ruleset(rules, variant="slip")
    assert [e.position.line for e in rs.bag.errors] == [1, 4], rs.bag.render()
    assert all(e.position.file.endswith("variants/slip.rules") for e in rs.bag.errors)


def test_a_variant_rule_file_that_is_not_utf8_gives_one_error(rules):
    _write(rules, "bytes", "variant:\n  name: bytes\n  base: panic_station\nreplaces: [infected_team]\n")
    (rules / "variants" / "bytes.rules").write_bytes(b"function infected_team() -> list of player:\n    = []\xff\n")
    rs = load_ruleset(rules, variant="bytes")
    assert len(rs.bag.errors) == 1 and "not UTF-8" in rs.bag.errors[0].message, rs.bag.render()


def test_redefining_a_base_definition_needs_replaces(rules):
    _write(rules, "sneaky", "variant:\n  name: sneaky\n  base: panic_station\n",
           "function infected_team() -> list of player:\n    = []\n")
    rs = load_ruleset(rules, variant="sneaky")
    err = next(e for e in rs.bag.errors if "already defined by the base" in e.message)
    assert err.position.file.endswith("variants/sneaky.rules")
    assert "replaces" in err.hint


def test_variants_build_on_variants(rules):
    _write(rules, "very_hard", """variant:
  name: very_hard
  base: four_gas_cans
parameters:
  hand_minimum: 6
""")
    rs = load_checked(rules, "very_hard")
    assert rs.data.parameters["gas_cans_to_burn"]["value"] == 4
    assert rs.data.parameters["hand_minimum"]["value"] == 6
    assert rs.variant.chain == ["four_gas_cans", "very_hard"]


def test_a_variant_that_builds_on_itself_is_refused(rules):
    _write(rules, "a", "variant:\n  name: a\n  base: b\n")
    _write(rules, "b", "variant:\n  name: b\n  base: a\n")
    rs = load_ruleset(rules, variant="a")
    [error] = rs.bag.errors
    # at the base: line that closes the loop, with the loop spelt out
    assert error.message == "variant 'b' builds on 'a', closing a loop: a → b → a"
    assert error.position.file.endswith("variants/b.yaml") and error.position.line == 3
    assert error.position.column == 9


def test_a_variant_whose_base_is_itself_is_refused_at_that_line(rules):
    _write(rules, "a", "variant:\n  name: a\n  base: a\n")
    [error] = load_ruleset(rules, variant="a").bag.errors
    assert error.message == "variant 'a' builds on 'a', closing a loop: a → a"
    assert error.position.file.endswith("variants/a.yaml") and error.position.line == 3


def test_unknown_variant_lists_the_known_ones():
    rs = load_ruleset(RULES, variant="four_gas_can")
    assert rs.bag.errors[0].hint == "did you mean 'four_gas_cans'?"


def test_variant_new_scaffolds_a_file_that_checks_clean(rules, capsys):
    assert main(["variant", "new", "my_house_rule", "--base", str(rules)]) == 0
    assert (rules / "variants" / "my_house_rule.yaml").is_file()
    assert main(["check", str(rules), "--variant", "my_house_rule"]) == 0
    assert main(["variant", "new", "my_house_rule", "--base", str(rules)]) == 2  # already there


def test_variant_diff_shows_each_change(capsys):
    assert main(["variant", "diff", "master_and_servant", "--base", str(RULES)]) == 0
    out = capsys.readouterr().out
    assert "replaced function infected_team" in out
    assert "--- rules/panic_station/victory.rules" in out or "victory.rules" in out.split("+++")[0]
    assert "+    = [p for p in living_players() where p.infected and shares_the_win(p)]" in out
    assert "new variable game.loyal" in out
    assert main(["variant", "diff", "four_gas_cans", "--base", str(RULES)]) == 0
    assert "gas_cans_to_burn: 3 → 4" in capsys.readouterr().out


def test_variant_diff_of_a_one_character_change_is_one_line_out_and_one_in(rules, capsys):
    original = (rules / "victory.rules").read_text()
    start = original.index("function infected_team(")
    definition = original[start:original.index("\n\n", start)]
    assert "living_players()" in definition
    changed = definition.replace("living_players()", "living_players( )", 1)  # one character more
    _write(rules, "typo", """variant:
  name: typo
  title: Typo
  base: panic_station
replaces: [infected_team]
""", changed + "\n")
    assert main(["variant", "diff", "typo", "--base", str(rules)]) == 0
    out = capsys.readouterr().out
    body = out[out.index("replaced function infected_team"):].splitlines()[1:]
    assert body[0].startswith("--- ") and body[0].endswith("victory.rules")
    assert body[1].startswith("+++ ") and body[1].endswith("typo.rules")
    assert body[2].startswith("@@ ")
    removed = [line for line in body[3:] if line.startswith("-")]
    added = [line for line in body[3:] if line.startswith("+")]
    assert len(removed) == 1 and len(added) == 1
    assert removed[0][1:].replace("living_players()", "living_players( )") == added[0][1:]
    # lines are as written in the files, not re-wrapped to the terminal
    assert all(len(line) <= 1 or line[0] in " -+@" for line in body[3:] if line.strip())


@pytest.mark.parametrize("variant", ["four_gas_cans", "humans_advantage", "passing_the_host", "master_and_servant"])
def test_verify_passes_with_each_rulebook_variant(variant, capsys):
    assert main(["verify", str(RULES), "--variant", variant]) == 0
    out = capsys.readouterr().out
    assert "0 failed" in out


def test_simulate_plays_the_base_and_each_variant_side_by_side(capsys, tmp_path):
    out_file = tmp_path / "rows.json"
    code = main(["simulate", str(RULES), "--players", "4", "--games", "3", "--seed", "5", "--workers", "1",
                 "--quiet", "--variant", "four_gas_cans", "--variant", "humans_advantage", "--out", str(out_file)])
    assert code == 0
    out = capsys.readouterr().out
    assert "How each variant moves the balance" in out
    assert "four_gas_cans" in out and "humans_advantage" in out and "base game" in out
    import json

    rows = json.loads(out_file.read_text())
    assert sorted({r["variant"] for r in rows}) == ["base", "four_gas_cans", "humans_advantage"]
    assert len(rows) == 9


def test_simulate_refuses_an_unknown_variant(capsys):
    assert main(["simulate", str(RULES), "--games", "1", "--variant", "nope", "--quiet"]) == 2
    assert "no variant 'nope'" in capsys.readouterr().err


def test_a_game_log_names_its_variant_and_replays_with_it(tmp_path, capsys):
    from rulecraft.interpreter.game import Game

    rs = load_checked(RULES, "four_gas_cans")
    game = Game(rs, 4, 2)
    game.choose(0)
    path = tmp_path / "game.jsonl"
    game.write_log(path)
    import json

    assert json.loads(path.read_text().splitlines()[0])["variant"] == "four_gas_cans"
    assert main(["replay", str(path), "--quiet"]) == 0


def test_variant_diff_and_list_find_the_shipped_rule_set_without_base(capsys):
    assert main(["variant", "diff", "four_gas_cans"]) == 0
    assert "gas_cans_to_burn: 3 → 4" in capsys.readouterr().out
    assert main(["variant", "list"]) == 0
    assert "four_gas_cans" in capsys.readouterr().out
    assert main(["variant", "diff", "no_such_variant"]) == 2
    assert capsys.readouterr().err.strip() == ("rulecraft variant diff: error: no shipped rule set has a variant 'no_such_variant' "
                                                "(see 'rulecraft variant diff --help')")
