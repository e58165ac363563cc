"""House variants: patches on a rule set, with errors located in the variant's own files."""

from __future__ import annotations

import json
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


def test_a_new_variant_points_editors_at_the_schema_wherever_the_rule_set_is(rules):
    # the rule set is a copy outside the repository: the link must lead to the schema
    # installed with rulecraft, not to a schemas/ folder next to the copy
    assert main(["variant", "new", "my_house_rule", "--base", str(rules)]) == 0
    variants = rules / "variants"
    first = (variants / "my_house_rule.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    schema = (variants / first.split("$schema=", 1)[1]).resolve()
    assert schema.is_file() and json.loads(schema.read_text(encoding="utf-8"))["title"]


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


def test_a_variant_named_after_the_game_is_refused(rules, capsys):
    # 'base: panic_station' names the game: a variant of that name could never be applied
    assert main(["variant", "new", "panic_station", "--base", str(rules)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "the game's own name" in err
    assert not (rules / "variants" / "panic_station.yaml").exists()
    _write(rules, "panic_station", "variant:\n  name: panic_station\n  base: panic_station\n"
                                   "parameters:\n  gas_cans_to_burn: 4\n")
    rs = load_ruleset(rules, variant="panic_station")
    [error] = rs.bag.errors
    assert error.message == "a variant cannot be named 'panic_station', the game's own name"
    assert error.position.file.endswith("variants/panic_station.yaml") and error.position.line == 2
    assert "rename" in error.hint
    assert main(["check", str(rules), "--variant", "panic_station"]) == 1
    assert main(["variant", "diff", "panic_station", "--base", str(rules)]) == 1
    capsys.readouterr()
    assert main(["simulate", str(rules), "--players", "4", "--games", "1", "--workers", "1", "--quiet",
                 "--variant", "panic_station"]) == 1
    assert "the game's own name" in capsys.readouterr().err


def test_a_variant_whose_name_is_not_its_file_name_is_located(rules):
    _write(rules, "m_name", "variant:\n  name: other_name\n  base: panic_station\n")
    [error] = load_ruleset(rules, variant="m_name").bag.errors
    assert error.message == "'name: other_name' differs from the variant's file name, 'm_name'"
    assert error.position.file.endswith("variants/m_name.yaml")
    assert (error.position.line, error.position.column) == (2, 9)
    assert error.hint.startswith("a variant is named by its file: write 'name: m_name'")


@pytest.mark.parametrize("text", ["", "# a house rule, to be written\n"])
def test_an_empty_variant_file_is_an_error_of_that_file_and_breaks_nothing_else(rules, tmp_path, capsys, text):
    _write(rules, "m_empty", text)
    [error] = load_ruleset(rules, variant="m_empty").bag.errors
    assert error.message == "the file of variant 'm_empty' is empty"
    assert error.position.file.endswith("variants/m_empty.yaml") and error.position.line == 1
    assert "variant: {name: m_empty, base: panic_station" in error.hint
    # the base checks as before, and a simulation of the empty variant is refused, not run as the base
    assert main(["check", str(rules)]) == 0
    assert main(["check", str(rules), "--variant", "m_empty"]) == 1
    assert main(["simulate", str(rules), "--players", "4", "--games", "1", "--variant", "m_empty"]) == 1
    assert main(["docs", str(rules), "--out", str(tmp_path / "site")]) == 1
    assert "variant 'm_empty' has 1 error(s)" in capsys.readouterr().err


def test_docs_names_the_broken_variant_and_the_command_that_shows_its_errors(rules, tmp_path, capsys):
    _write(rules, "m_broken", "variant:\n  name: m_broken\n  base: panic_station\nparameters:\n  gas_cans_to_brun: 4\n")
    assert main(["docs", str(rules), "--out", str(tmp_path / "site")]) == 1
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last == (f"{rules}: variant 'm_broken' has 1 error(s), and the site has a page for each variant; "
                    f"fix it first (rulecraft check {rules} --variant m_broken)")
    assert main(["docs", str(rules), "--variant", "m_broken", "--out", str(tmp_path / "site")]) == 1
    err = capsys.readouterr().err
    assert "gas_cans_to_brun" in err
    assert err.strip().splitlines()[-1].endswith(f"fix them first (rulecraft check {rules} --variant m_broken)")
    # the command suggested does show the error
    assert main(["check", str(rules), "--variant", "m_broken"]) == 1
    assert "gas_cans_to_brun" in capsys.readouterr().out
    assert not (tmp_path / "site").exists()


def test_the_scenario_format_says_variants_are_applied():
    doc = (RULES.parent.parent / "docs" / "scenarios.md").read_text(encoding="utf-8")
    row = next(line for line in doc.splitlines() if line.startswith("| `variant` |"))
    assert "not yet applied" not in row and "applied to the rules" in row
    # and they are: a scenario of four_gas_cans runs with four cans needed
    assert load_checked(RULES, "four_gas_cans").data.parameters["gas_cans_to_burn"]["value"] == 4


def test_variant_diff_speaks_the_rule_sets_terms_and_shows_the_manifest(rules, capsys):
    _write(rules, "boosts", """variant:
  name: boosts
  base: panic_station
components:
  energy_boost: {count: 3, properties: {item: gas_can}}
manifest:
  search_card: 47
""")
    assert main(["variant", "diff", "boosts", "--base", str(rules)]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.strip()]
    at = lines.index("component energy_boost: count 2 → 3")
    assert lines[at + 1] == "    item: energy_boost → gas_can"
    assert "manifest search_card: 46 → 47" in lines
    assert not any("{" in line or "'count'" in line for line in lines)


def test_what_a_removal_breaks_in_the_base_is_told_at_the_removes_line(rules):
    _write(rules, "no_scanner", "variant:\n  name: no_scanner\n  base: panic_station\nremoves: [use_heat_scanner]\n")
    errors = load_ruleset(rules, variant="no_scanner").bag.errors
    assert errors and all(e.position.file.endswith("variants/no_scanner.yaml") and e.position.line == 4
                          and e.position.column == 11 for e in errors), [str(e.position) for e in errors]
    by_message = {e.message: e for e in errors}
    named = by_message["variant 'no_scanner' removes 'use_heat_scanner', which the base still uses"]
    assert "ruling 'item_costs' (" in named.hint and "rulings.yaml:" in named.hint
    assert "heat_scan" not in named.hint.replace("heat_scanner", "")  # no 'did you mean' pointing elsewhere
    event = next(e for e in errors if "the only definition that emits event 'hand_shown'" in e.message)
    assert "strategy.rules:" in event.hint and "replaces:" in event.hint


def test_removing_a_function_the_base_calls_is_one_error_listing_its_callers(rules):
    _write(rules, "no_check", "variant:\n  name: no_check\n  base: panic_station\nremoves: [can_play_item]\n")
    [error] = load_ruleset(rules, variant="no_check").bag.errors
    assert error.message == "variant 'no_check' removes 'can_play_item', which the base still uses"
    assert error.position.file.endswith("variants/no_check.yaml") and error.position.line == 4
    assert "action 'use_energy_boost' (" in error.hint and "items.rules:" in error.hint
    assert "and 2 more" in error.hint and "declare" not in error.hint


def test_a_changed_count_without_a_manifest_line_is_told_at_the_change(rules):
    _write(rules, "more_boosts", "variant:\n  name: more_boosts\n  base: panic_station\n"
                                 "components:\n  energy_boost: {count: 4}\n")
    [error] = load_ruleset(rules, variant="more_boosts").bag.errors
    assert error.position.file.endswith("variants/more_boosts.yaml") and error.position.line == 5
    assert "48 search_card" in error.message and "manifest says 46" in error.message
    assert error.hint.startswith("restate the count in the variant: 'manifest: {search_card: 48}'")
    assert "game.yaml:" in error.hint


def test_removes_naming_a_component_says_how_to_take_it_out(rules):
    _write(rules, "no_boost", "variant:\n  name: no_boost\n  base: panic_station\nremoves: [energy_boost]\n")
    [error] = load_ruleset(rules, variant="no_boost").bag.errors
    assert error.message == "variant 'no_boost' removes 'energy_boost', which is a component of the base, not a definition"
    assert error.position.line == 4
    assert "components: {energy_boost: {count: 0}}" in error.hint and "use_energy_boost" not in error.hint


@pytest.fixture
def count_zero_allowed(monkeypatch):
    """schemas/variant.schema.json as it must read for a variant's count 0 (its minimum 0);
    a no-op once the file says so."""
    from rulecraft.dsl import yaml_data

    count = yaml_data.schema("variant.schema.json")["properties"]["components"]["additionalProperties"]["properties"]["count"]
    monkeypatch.setitem(count, "minimum", 0)
    yaml_data._validation_schema.cache_clear()
    yield
    monkeypatch.undo()
    yaml_data._validation_schema.cache_clear()


def test_a_count_of_0_takes_a_component_out_and_the_manifest_follows(rules, count_zero_allowed, capsys):
    _write(rules, "no_boost", "variant:\n  name: no_boost\n  base: panic_station\n"
                              "components:\n  energy_boost: {count: 0}\n")
    [error] = load_ruleset(rules, variant="no_boost").bag.errors
    assert error.position.file.endswith("variants/no_boost.yaml") and error.position.line == 5
    assert "'manifest: {search_card: 44}'" in error.hint
    _write(rules, "no_boost", "variant:\n  name: no_boost\n  base: panic_station\n"
                              "components:\n  energy_boost: {count: 0}\nmanifest:\n  search_card: 44\n")
    rs = load_ruleset(rules, variant="no_boost")
    assert rs.ok, rs.bag.render()
    assert "energy_boost" not in {c.name for c in rs.data.components}
    assert main(["variant", "diff", "no_boost", "--base", str(rules)]) == 0
    out = capsys.readouterr().out
    assert "component energy_boost: count 2 → 0 (removed)" in out and "manifest search_card: 46 → 44" in out


def test_the_documented_removal_error_is_the_one_check_gives(rules, monkeypatch):
    doc = (RULES.parent.parent / "docs" / "variants.md").read_text(encoding="utf-8")
    documented = next(line for line in doc.splitlines() if "removes 'can_play_item'" in line)
    assert "count: 0" in doc  # how a component is taken out
    _write(rules, "no_check", "variant:\n  name: no_check\n  base: panic_station\nremoves: [can_play_item]\n")
    monkeypatch.chdir(rules.parent)  # the folder that holds rules/, as in the documentation
    root = Path("rules") / "panic_station"
    root.parent.mkdir()
    shutil.move(str(rules), root)
    [error] = load_ruleset(root, variant="no_check").bag.errors
    assert f"{error.position}: error: {error.message}" == documented


def test_a_new_variant_is_never_written_into_the_installed_rule_sets(tmp_path, monkeypatch, capsys):
    # '--base star_trek_panic' wrote into the folder rulecraft is installed in
    from rulecraft.dsl.loader import shipped_ruleset

    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in (shipped_ruleset("star_trek_panic") / "variants").iterdir())
    with pytest.raises(SystemExit) as stopped:
        main(["variant", "new", "house", "--base", "star_trek_panic"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "names the rule set installed with rulecraft" in err and "copy it first" in err
    assert sorted(p.name for p in (shipped_ruleset("star_trek_panic") / "variants").iterdir()) == before
    # a copy in the project: the hint names it, and the folder works
    shutil.copytree(shipped_ruleset("star_trek_panic"), tmp_path / "rules" / "star_trek_panic")
    with pytest.raises(SystemExit):
        main(["variant", "new", "house", "--base", "star_trek_panic"])
    assert "give the folder of your copy: --base rules/star_trek_panic" in capsys.readouterr().err
    assert main(["variant", "new", "house", "--base", "rules/star_trek_panic"]) == 0
    assert (tmp_path / "rules" / "star_trek_panic" / "variants" / "house.yaml").is_file()


def test_a_replacement_the_bases_uses_no_longer_fit_is_told_at_the_variants_line(rules):
    # the variant gave infected_team a parameter: the error was told in victory.rules
    _write(rules, "argued", """variant:
  name: argued
  base: panic_station
replaces: [infected_team]
""", """function infected_team(at_least: number) -> list of player:
    = [p for p in living_players() where p.infected]
""")
    rs = load_ruleset(rules, variant="argued")
    assert rs.bag.errors, rs.bag.render()
    assert all(e.position.file.endswith("variants/argued.rules") for e in rs.bag.errors), rs.bag.render()
    first = rs.bag.errors[0]
    assert first.message.startswith("variant 'argued' replaces 'infected_team', and the base's uses of it no longer fit")
    assert "victory.rules:" in first.hint and first.position.line == 1
