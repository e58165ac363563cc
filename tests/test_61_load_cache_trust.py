"""The disk cache never runs what it finds: its entries are data (JSON), a damaged or
wrong-shaped entry is only a miss, and a folder or entry someone else could have
written is not used at all."""

from __future__ import annotations

import marshal
import os
import pickle
import stat

import pytest
from engine_rulesets import game_yaml, write_ruleset

from rulecraft.dsl import direct_parser, disk_cache, loader, parser, parser_tables
from rulecraft.dsl.loader import load_checked

RULES = """
procedure setup():
    do:
        set game.score = {score}

procedure round():
    do:
        stop

function double(n: number) -> number:
    = n * 2
"""

VARS = """
kinds:
  player:
    properties: {}
variables:
  game:
    score: {type: number, default: 0}
"""


class _Marker:
    """Unpickling this makes a folder: what a planted pickle could do, harmlessly."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return os.mkdir, (self.path,)


def folder(tmp_path, score: int = 3):
    return write_ruleset(tmp_path / "rs", {"game.yaml": game_yaml() + VARS, "main.rules": RULES.format(score=score)})


def setup_score(ruleset) -> int:
    from rulecraft.interpreter.game import Game

    return Game(ruleset, 1, 0).state.vars["game"]["score"]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A private cache folder, filled by one load of the rule set; then a new process."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("RULECRAFT_NO_CACHE", raising=False)
    monkeypatch.setattr(disk_cache, "_warned", False, raising=False)
    without_shipped_tables(tmp_path, monkeypatch)
    load_checked(folder(tmp_path))
    fresh_process(monkeypatch)
    return tmp_path / "cache" / "rulecraft"


def without_shipped_tables(tmp_path, monkeypatch):
    """As after a change of the grammar: the parser's tables go through the cache too
    (and the direct parser's, out of date, leave every parse to Lark)."""
    monkeypatch.setattr(parser_tables, "SHIPPED", tmp_path / "no-tables.json", raising=False)
    monkeypatch.setattr(direct_parser, "tables", lambda: None)
    parser.lark_parser.cache_clear()


def fresh_process(monkeypatch):
    monkeypatch.setattr(loader, "_LOADED", {})
    parser.lark_parser.cache_clear()


def entries(cache) -> list:
    return [p for p in cache.rglob("*") if p.is_file()]


def loads_from_scratch(monkeypatch) -> list:
    """Records every rule file parsed from its text (not taken from the cache)."""
    parsed = []
    real = parser._parse
    monkeypatch.setattr(parser, "_parse", lambda text, file, bag: parsed.append(file) or real(text, file, bag))
    return parsed


def test_entries_are_written_private_and_whole(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("RULECRAFT_NO_CACHE", raising=False)
    without_shipped_tables(tmp_path, monkeypatch)
    old = os.umask(0o002)  # a umask that would leave group-writable files
    try:
        load_checked(folder(tmp_path))
    finally:
        os.umask(old)
    root = tmp_path / "cache" / "rulecraft"
    assert {p.name for p in root.iterdir()} == {"ruleset", "parse", "grammar"}
    for path in [root, *root.iterdir()]:
        assert stat.S_IMODE(path.stat().st_mode) == 0o700, path
    for path in entries(root):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
        assert not path.name.startswith(".tmp-")


def test_a_planted_pickle_or_marshal_payload_never_runs(cache, tmp_path, monkeypatch):
    marker = tmp_path / "payload-ran"
    payload_pickle = pickle.dumps(_Marker(marker))
    payload_code = marshal.dumps(compile(f"import os\nos.mkdir({str(marker)!r})\n", "planted", "exec"))
    planted = entries(cache)
    assert planted
    for entry in planted:
        entry.write_bytes(payload_code if entry.parent.name == "code" else payload_pickle)
    ruleset = load_checked(folder(tmp_path))
    assert not marker.exists()
    assert setup_score(ruleset) == 3


@pytest.mark.parametrize("content", [pickle.dumps(42), b"42", b'{"$c": "Position", "$i": 0}', b'["not", "a", "parse"]',
                                     b'{"$c": "os.system", "$i": 0}', b"\xff\xfe"],
                         ids=["a pickle", "a number", "a wrong class", "a list", "an unknown class", "not UTF-8"])
def test_a_wrong_type_entry_is_a_miss(cache, tmp_path, monkeypatch, content):
    for entry in entries(cache):
        entry.write_bytes(content)
    parsed = loads_from_scratch(monkeypatch)
    assert setup_score(load_checked(folder(tmp_path))) == 3
    assert parsed  # every entry missed: the rule file was parsed again


def test_a_truncated_entry_is_a_miss(cache, tmp_path, monkeypatch):
    for entry in entries(cache):
        entry.write_bytes(entry.read_bytes()[: entry.stat().st_size // 2])
    parsed = loads_from_scratch(monkeypatch)
    assert setup_score(load_checked(folder(tmp_path))) == 3
    assert parsed


def test_a_filled_cache_is_used(cache, tmp_path, monkeypatch, capsys):
    parsed = loads_from_scratch(monkeypatch)
    monkeypatch.setattr(loader, "load_ruleset", lambda *a, **k: pytest.fail("the rule set was loaded again"))
    assert setup_score(load_checked(folder(tmp_path))) == 3
    assert parsed == [] and capsys.readouterr().err == ""


@pytest.mark.parametrize("which", ["cache folder", "kind folder"])
def test_a_group_writable_folder_is_refused_with_one_warning(cache, tmp_path, monkeypatch, capsys, which):
    target = cache if which == "cache folder" else cache / "ruleset"
    target.chmod(0o770)
    before = {p: p.read_bytes() for p in entries(cache)}
    parsed = loads_from_scratch(monkeypatch)
    monkeypatch.setattr(loader, "load_ruleset", _counting(loader.load_ruleset, calls := []))
    assert setup_score(load_checked(folder(tmp_path))) == 3
    fresh_process(monkeypatch)
    assert setup_score(load_checked(folder(tmp_path, 3))) == 3
    assert len(calls) == 2  # the stored rule set was never believed
    if which == "cache folder":
        assert parsed  # nor any parse in the refused folder
        assert {p: p.read_bytes() for p in entries(cache)} == before  # and nothing was written into it
    err = capsys.readouterr().err
    assert err.count("warning") == 1 and str(target) in err and "others may write to it" in err


def test_a_group_writable_entry_is_refused(cache, tmp_path, monkeypatch, capsys):
    for entry in (cache / "ruleset").iterdir():
        entry.chmod(0o660)
    calls = []
    monkeypatch.setattr(loader, "load_ruleset", _counting(loader.load_ruleset, calls))
    assert setup_score(load_checked(folder(tmp_path))) == 3
    assert len(calls) == 1
    assert capsys.readouterr().err.count("warning") == 1


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="giving a file away takes root")
def test_an_entry_of_another_user_is_refused(cache, tmp_path, monkeypatch, capsys):
    for entry in (cache / "ruleset").iterdir():
        os.chown(entry, 4242, -1)
    calls = []
    monkeypatch.setattr(loader, "load_ruleset", _counting(loader.load_ruleset, calls))
    assert setup_score(load_checked(folder(tmp_path))) == 3
    assert len(calls) == 1
    assert "belongs to another user" in capsys.readouterr().err


def test_a_linked_entry_is_not_followed(cache, tmp_path, monkeypatch):
    outside = tmp_path / "elsewhere"
    for entry in (cache / "ruleset").iterdir():
        outside.write_bytes(entry.read_bytes())
        entry.unlink()
        entry.symlink_to(outside)
    calls = []
    monkeypatch.setattr(loader, "load_ruleset", _counting(loader.load_ruleset, calls))
    assert setup_score(load_checked(folder(tmp_path))) == 3
    assert len(calls) == 1


def _counting(real, calls: list):
    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    return counted


def test_a_rule_set_read_back_from_the_cache_is_the_one_stored(tmp_path, monkeypatch):
    from rulecraft.dsl import cache_format

    path = folder(tmp_path)
    (path / "variants").mkdir()
    (path / "variants" / "v.yaml").write_text("variant:\n  name: v\n  base: tiny\n")
    (path / "variants" / "v.rules").write_text("function triple(n: number) -> number:\n    = n * 3\n")
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    stored = loader.load_ruleset(path, variant="v")
    back = cache_format.loads(cache_format.dumps(stored))
    assert back.definitions == stored.definitions and back.data == stored.data
    assert back.bag.items == stored.bag.items and back.files == stored.files
    # an object met twice is one object again, as the compiler and docs expect
    assert back.variant.added["triple"] is back.definitions["triple"]
    # what the checker wrote on the nodes (types) comes back too
    assert back.definitions["double"].value.type == stored.definitions["double"].value.type == "number"
