"""Static reachability: components that can never enter play, actions that can never be legal."""

import shutil
from pathlib import Path

from rulecraft.dsl.loader import load_ruleset

RULES = Path(__file__).resolve().parent.parent / "rules" / "panic_station"


def _copy(tmp_path) -> Path:
    folder = tmp_path / "ps"
    shutil.copytree(RULES, folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def test_a_component_off_the_table_that_no_rule_names_is_reported(tmp_path):
    folder = _copy(tmp_path)
    kinds = folder / "kinds.yaml"
    kinds.write_text(kinds.read_text() + "  relic:\n    text: A card nothing uses.\n")
    comps = folder / "components.yaml"
    comps.write_text(comps.read_text() + "  - {name: old_relic, kind: relic}\n")
    rs = load_ruleset(folder)
    warnings = [w for w in rs.bag.warnings if w.code == "unreachable"]
    assert [w.message for w in warnings] == [
        "component 'old_relic' starts off the table and no rule names it or its kind 'relic': it can never enter play"]
    assert warnings[0].position.file.endswith("components.yaml")


def test_an_action_over_a_kind_without_components_is_reported(tmp_path):
    folder = _copy(tmp_path)
    kinds = folder / "kinds.yaml"
    kinds.write_text(kinds.read_text() + "  relic:\n    text: A card nothing uses.\n")
    (folder / "relics.rules").write_text(
        "action polish:\n    with r: relic\n    do:\n        stop\n\n"
        "action never:\n    require false\n    do:\n        stop\n")
    rs = load_ruleset(folder)
    messages = sorted(w.message for w in rs.bag.warnings if w.code == "unreachable")
    assert messages == ["action 'never' can never be legal: it requires false",
                        "action 'polish' can never be legal: no component is a relic"]


def test_the_shipped_rules_have_nothing_unreachable():
    assert not [w for w in load_ruleset(RULES).bag.warnings if w.code == "unreachable"]
