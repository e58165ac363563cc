"""Loading a rule set again in the same process reuses the first load while its files
are unchanged, and loads anew when one changed."""

from __future__ import annotations

import os

from engine_rulesets import game_yaml, write_ruleset

from rulecraft.dsl.loader import load_checked

RULES = """
procedure setup():
    do:
        set game.score = {score}

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


def folder(tmp_path, score: int):
    return write_ruleset(tmp_path / "rs", {"game.yaml": game_yaml() + VARS, "main.rules": RULES.format(score=score)})


def setup_score(ruleset) -> int:
    from rulecraft.interpreter.game import Game

    return Game(ruleset, 1, 0).state.vars["game"]["score"]


def test_a_second_load_of_unchanged_files_is_the_same_rule_set(tmp_path):
    path = folder(tmp_path, 1)
    first = load_checked(path)
    assert load_checked(path) is first
    assert load_checked(str(path)) is first


def test_a_changed_file_is_loaded_anew(tmp_path):
    path = folder(tmp_path, 1)
    first = load_checked(path)
    assert setup_score(first) == 1
    rules = path / "main.rules"
    stat = rules.stat()
    folder(tmp_path, 2)
    # same size, so only the modification time tells the change
    os.utime(rules, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    second = load_checked(path)
    assert second is not first
    assert setup_score(second) == 2
    assert setup_score(first) == 1


def test_a_new_file_is_loaded_anew(tmp_path):
    path = folder(tmp_path, 1)
    first = load_checked(path)
    (path / "more.rules").write_text("function five() -> number:\n    = 5\n", encoding="utf-8")
    second = load_checked(path)
    assert second is not first
    assert "five" in second.definitions and "five" not in first.definitions


# ---------------------------------------------------------------- on disk


def fresh_process(monkeypatch):
    """Forget the rule sets loaded in this process, as a new process would."""
    from rulecraft.dsl import loader

    monkeypatch.setattr(loader, "_LOADED", {})


def test_a_new_process_reuses_the_checked_rule_set_stored_on_disk(tmp_path, monkeypatch):
    from rulecraft.dsl import loader

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("RULECRAFT_NO_CACHE", raising=False)
    path = folder(tmp_path, 3)
    first = load_checked(path)
    assert list((tmp_path / "cache" / "rulecraft" / "ruleset").iterdir())
    fresh_process(monkeypatch)

    def no_parsing(*args, **kwargs):
        raise AssertionError("the rule files were parsed again")

    monkeypatch.setattr(loader, "load_ruleset", no_parsing)
    second = load_checked(path)
    assert second is not first
    assert setup_score(second) == 3
    assert sorted(second.definitions) == sorted(first.definitions)


def test_a_changed_file_is_never_taken_from_disk(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("RULECRAFT_NO_CACHE", raising=False)
    path = folder(tmp_path, 3)
    load_checked(path)
    fresh_process(monkeypatch)
    folder(tmp_path, 4)
    assert setup_score(load_checked(path)) == 4


def test_the_disk_cache_can_be_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    load_checked(folder(tmp_path, 3))
    for kind in ("ruleset", "parse", "grammar"):
        assert not (tmp_path / "cache" / "rulecraft" / kind).exists()


def test_a_damaged_entry_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("RULECRAFT_NO_CACHE", raising=False)
    path = folder(tmp_path, 5)
    load_checked(path)
    for kind in ("ruleset", "parse"):
        for entry in (tmp_path / "cache" / "rulecraft" / kind).iterdir():
            entry.write_bytes(b"not a cache entry")
    fresh_process(monkeypatch)
    assert setup_score(load_checked(path)) == 5


def test_after_an_edit_only_the_edited_rule_file_is_parsed_again(tmp_path, monkeypatch):
    from rulecraft.dsl import parser

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("RULECRAFT_NO_CACHE", raising=False)
    path = folder(tmp_path, 6)
    (path / "more.rules").write_text("function five() -> number:\n    = 5\n", encoding="utf-8")
    load_checked(path)
    fresh_process(monkeypatch)
    parsed = []
    real = parser._parse
    monkeypatch.setattr(parser, "_parse", lambda text, file, bag: parsed.append(file) or real(text, file, bag))
    folder(tmp_path, 7)  # main.rules changes, more.rules does not
    ruleset = load_checked(path)
    assert setup_score(ruleset) == 7 and "five" in ruleset.definitions
    assert [name.rsplit("/", 1)[-1] for name in parsed] == ["main.rules"]
