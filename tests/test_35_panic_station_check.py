"""The shipped Panic Station rule set checks cleanly, and a typo in it is caught."""

from __future__ import annotations

import shutil
from pathlib import Path

from rulecraft.dsl.loader import EQUIVALENTS_FILE, load_ruleset

REPO = Path(__file__).parent.parent
PANIC_STATION = REPO / "rules" / "panic_station"


def test_panic_station_loads_without_errors():
    rs = load_ruleset(PANIC_STATION)
    assert rs.bag.errors == [], rs.bag.render()
    assert rs.ok
    assert rs.name == "panic_station"
    # every file of the folder was read (but the equivalent mutants, which are no rules)
    # and every definition kind is present
    assert sorted(Path(f).name for f in rs.files) == sorted(
        p.name for p in PANIC_STATION.iterdir() if p.suffix in (".yaml", ".rules") and p.name != EQUIVALENTS_FILE)
    kinds = {d.kind for d in rs.definitions.values()}
    assert {"action", "procedure", "function", "trigger"} <= kinds
    assert {"explore", "move", "search", "setup_game", "play_round", "characters_of"} <= set(rs.definitions)


def test_typo_in_a_copy_is_reported_with_did_you_mean(tmp_path):
    copy = tmp_path / "panic_station"
    shutil.copytree(PANIC_STATION, copy)
    target = None
    for path in sorted(copy.glob("*.rules")):
        text = path.read_text(encoding="utf-8")
        if "characters_of(p)" in text:
            path.write_text(text.replace("characters_of(p)", "charcters_of(p)", 1), encoding="utf-8")
            target = path
            break
    assert target is not None, "no call characters_of(p) found in the .rules files"
    line = next(n for n, text in enumerate(target.read_text(encoding="utf-8").splitlines(), start=1)
                if "charcters_of(p)" in text)
    column = target.read_text(encoding="utf-8").splitlines()[line - 1].index("charcters_of") + 1

    rs = load_ruleset(copy)
    errors = rs.bag.errors
    assert len(errors) == 1, rs.bag.render()
    err = errors[0]
    assert err.message == "unknown function 'charcters_of'"
    assert err.hint == "did you mean 'characters_of'?"
    assert Path(err.position.file).resolve() == target.resolve()
    assert (err.position.line, err.position.column) == (line, column)
    assert "did you mean 'characters_of'?" in rs.bag.render()
    # the original is untouched
    assert load_ruleset(PANIC_STATION).bag.errors == []
