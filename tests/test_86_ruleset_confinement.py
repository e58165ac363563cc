"""A rule set reads only files inside its own folder: a variant is named, not a path; a
variant's rule file, a link or a game log's header cannot make loading read (and quote
in an error) a file elsewhere."""

from __future__ import annotations

import json

import pytest
from engine_rulesets import game_yaml, write_ruleset

from rulecraft.cli.main import main
from rulecraft.dsl.loader import load_ruleset

SECRET = "SECRET-LINE-4711"

RULES = """
procedure setup():
    do:
        set game.score = 1

procedure round():
    do:
        stop
"""

VARS = """
kinds:
  player:
    properties: {}
variables:
  game:
    score: {type: number, default: 0}
"""


def variant_yaml(name: str, extra: str = "") -> str:
    return f"variant:\n  name: {name}\n  base: tiny\n{extra}"


@pytest.fixture
def rs(tmp_path):
    """A tiny rule set at tmp/rs, and beside it (outside it) files holding a secret line
    that would be quoted in a syntax error if they were ever parsed."""
    folder = write_ruleset(tmp_path / "rs", {"game.yaml": game_yaml() + VARS, "main.rules": RULES})
    (folder / "variants").mkdir()
    (tmp_path / "outside.rules").write_text(f"{SECRET} is no rule\n")
    (tmp_path / "x.yaml").write_text(f"{SECRET}: [\n")
    return folder


def rendered(ruleset) -> str:
    return ruleset.bag.render()


def cli(*args) -> int:
    try:
        return main([*map(str, args)])
    except SystemExit as stop:
        return stop.code


@pytest.mark.parametrize("named", ["ABSOLUTE", "../../outside.rules", "../../rs/../outside.rules"])
def test_a_variant_rule_file_outside_the_rule_set_is_refused_where_it_is_named(rs, tmp_path, named):
    named = str(tmp_path / "outside.rules") if named == "ABSOLUTE" else named
    (rs / "variants" / "v.yaml").write_text(variant_yaml("v", f"rules: [{json.dumps(named)}]\n"))
    ruleset = load_ruleset(rs, variant="v")
    [error] = ruleset.bag.errors
    assert error.message == f"variant 'v' names rule file '{named}', which is outside the rule set"
    assert error.position.file.endswith("variants/v.yaml") and error.position.line == 4
    assert SECRET not in rendered(ruleset)


def test_a_link_out_of_the_rule_set_is_refused_and_not_quoted(rs, tmp_path):
    (rs / "more.rules").symlink_to(tmp_path / "outside.rules")
    (rs / "more.yaml").symlink_to(tmp_path / "x.yaml")
    ruleset = load_ruleset(rs)
    located = sorted((str(e.position), e.message) for e in ruleset.bag.errors)
    assert [(p.rsplit("/", 1)[-1], m) for p, m in located] == [
        ("more.rules:1:1", "'more.rules' links to a file outside the rule set; it is not read"),
        ("more.yaml:1:1", "'more.yaml' links to a file outside the rule set; it is not read"),
    ]
    assert SECRET not in rendered(ruleset)


def test_a_variant_whose_rules_or_folder_link_out_is_refused(rs, tmp_path):
    (rs / "variants" / "v.yaml").write_text(variant_yaml("v"))
    (rs / "variants" / "v.rules").symlink_to(tmp_path / "outside.rules")
    ruleset = load_ruleset(rs, variant="v")
    assert [e.message for e in ruleset.bag.errors] == ["'v.rules' links to a file outside the rule set; it is not read"]
    assert SECRET not in rendered(ruleset)
    (rs / "variants" / "v.rules").unlink()
    elsewhere = tmp_path / "elsewhere"
    (rs / "variants").rename(elsewhere)
    (rs / "variants").symlink_to(elsewhere)
    (elsewhere / "v.yaml").write_text(variant_yaml("v", f"text: {SECRET}\nrules: [nothing: here\n"))
    ruleset = load_ruleset(rs, variant="v")
    assert [e.message for e in ruleset.bag.errors] == ["'v.yaml' links to a file outside the rule set; it is not read"]
    assert SECRET not in rendered(ruleset)


@pytest.mark.parametrize("name", ["../../x", "../variants/v", "/tmp/x", "v.yaml", ""])
def test_a_variant_is_named_not_a_path(rs, name):
    (rs / "variants" / "v.yaml").write_text(variant_yaml("v"))
    ruleset = load_ruleset(rs, variant=name)
    [error] = ruleset.bag.errors
    assert error.message == f"'{name}' is not a variant name"
    assert "known variants: v" in error.hint
    assert SECRET not in rendered(ruleset)


@pytest.mark.parametrize("command", [
    ["check", "RS", "--variant", "../../x"],
    ["verify", "RS", "--variant", "../../x"],
    ["simulate", "RS", "--players", "1", "--games", "1", "--variant", "../../x"],
    ["docs", "RS", "--out", "OUT", "--variant", "../../x"],
    ["play", "RS", "--players", "1", "--variant", "../../x"],
    ["variant", "diff", "../../x", "--base", "RS"],
])
def test_a_variant_path_on_the_command_line_is_bad_usage(rs, tmp_path, capsys, command):
    args = [str(rs) if a == "RS" else str(tmp_path / "out") if a == "OUT" else a for a in command]
    assert cli(*args) == 2
    out, err = capsys.readouterr()
    assert "'../../x' is not a variant name" in err and len(err.strip().splitlines()) == 1
    assert SECRET not in out + err


def _log(rs, tmp_path, **header) -> str:
    from rulecraft.dsl.loader import load_checked
    from rulecraft.interpreter.gamelog import final_line
    from rulecraft.interpreter.game import Game

    game = Game(load_checked(rs), 1, 0)
    path = tmp_path / "game.jsonl"
    game.write_log(path)
    lines = path.read_text().splitlines()
    first = json.loads(lines[0])
    first.update(header)
    lines[0] = json.dumps(first)
    # sealed again, as a writer would, so only the header's names can refuse it
    lines[-1] = final_line(lines[:-1], json.loads(lines[-1])["state"])
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.mark.parametrize("header", [{"ruleset": "../x"}, {"ruleset": "/etc"}, {"ruleset": ["rs"]},
                                   {"variant": "../../x"}])
def test_a_path_in_a_log_header_is_never_read(rs, tmp_path, monkeypatch, capsys, header):
    # ../x from tmp/sub is a rule-set folder with a broken file holding the secret
    write_ruleset(tmp_path / "x", {"game.yaml": game_yaml() + VARS, "main.rules": RULES + f"\n{SECRET}\n"})
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    log = _log(rs, tmp_path, **header)
    args = ["replay", log, "--quiet"] + (["--rules", str(rs)] if "variant" in header else [])
    code = cli(*args)
    out, err = capsys.readouterr()
    # refused either by the log's schema (a name, not a path: exit 1, the file is bad) or,
    # for a name the schema lets through, by the lookup among shipped rule sets (exit 2)
    assert code in (1, 2), out + err
    message = (err or out).strip().splitlines()
    assert len(message) == 1 and ("is not" in message[0] or "does not match" in message[0])
    assert SECRET not in out + err


def test_the_rules_option_replaces_the_header_rule_set(rs, tmp_path, capsys):
    log = _log(rs, tmp_path, ruleset="a_game_not_shipped_here")
    assert cli("replay", log, "--quiet", "--rules", str(rs)) == 0


def test_a_glossary_that_links_out_is_refused(rs, tmp_path):
    from rulecraft.docgen.glossary import load_glossary
    from rulecraft.dsl.loader import load_checked

    (rs / "glossary").mkdir()
    (tmp_path / "en.yaml").write_text(f"language: en\n{SECRET}: [\n")
    (rs / "glossary" / "en.yaml").symlink_to(tmp_path / "en.yaml")
    bag = load_ruleset(rs).bag
    load_glossary(load_checked(rs), "en", bag)
    assert [e.message for e in bag.errors] == ["'en.yaml' links to a file outside the rule set; it is not read"]
    assert SECRET not in bag.render()
