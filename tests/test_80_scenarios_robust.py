"""A designer who adds a component to Panic Station sees only the scenarios about it fail.

Adding one search card or one exploration card (a new room type) changes every shuffle
of the game's setup, hence the seed's deal: the hands, the deck order, the first player
and the dice. A scenario must state what it relies on (docs/scenarios.md, "Good
scenarios"); these tests add such components to a copy of the rule set and run every
scenario, with every variant, against it.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.dsl.loader import load_checked
from rulecraft.validator import FAILING, load_file, run_all, scenario_files

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules" / "panic_station"
SEEDS = ROOT / "seeds" / "panic_station"
VARIANTS = sorted(p.stem for p in (RULES / "variants").glob("*.yaml"))

# The one scenario about the contents of the box: it counts every component, so it
# must fail when one is added (and shows that the component really was added).
ABOUT_THE_BOX = "The box: "


def _add_search_card(folder: Path, copies: int) -> None:
    components = folder / "components.yaml"
    text = components.read_text(encoding="utf-8")
    card = (f"  - {{name: signal_flare, kind: search_card, count: {copies}, zone: search_deck, "
            f"properties: {{item: signal_flare}}}}\n")
    anchor = "  - {name: host,"
    assert text.count(anchor) == 1
    components.write_text(text.replace(anchor, card + anchor), encoding="utf-8")
    _add_to_manifest(folder, "search_card", copies)


def _add_room_type(folder: Path, copies: int) -> None:
    components = folder / "components.yaml"
    text = components.read_text(encoding="utf-8")
    tile = (f"  - {{name: armory, kind: exploration_card, layout: armory_oooo, zone: exploration_deck, "
            f"count: {copies}}}\n")
    anchor = "  - {name: hive,"
    assert text.count(anchor) == 1
    components.write_text(text.replace(anchor, tile + anchor), encoding="utf-8")
    kinds = folder / "kinds.yaml"
    text = kinds.read_text(encoding="utf-8")
    assert text.count("sick_bay, hive]") == 1
    kinds.write_text(text.replace("sick_bay, hive]", "sick_bay, hive, armory]"), encoding="utf-8")
    board = folder / "board.yaml"
    text = board.read_text(encoding="utf-8")
    layout = ("    armory_oooo:\n      rooms: {main: {type: armory, icon: true}}\n"
              "      sides: {north: open, east: open, south: open, west: open}\n")
    assert text.count("  layouts:\n") == 1
    board.write_text(text.replace("  layouts:\n", "  layouts:\n" + layout), encoding="utf-8")
    _add_to_manifest(folder, "exploration_card", copies)


def _add_to_manifest(folder: Path, kind: str, copies: int) -> None:
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8")
    new, n = re.subn(rf"(\n  {kind}: )(\d+)", lambda m: f"{m.group(1)}{int(m.group(2)) + copies}", text)
    assert n == 1
    game.write_text(new, encoding="utf-8")


def _failing(folder: Path) -> dict[str, set[str]]:
    """Every failing scenario's title, with the variants it fails under."""
    bag = DiagnosticBag()
    files = [load_file(p, bag) for p in scenario_files(SEEDS)]
    assert all(f.ok for f in files), bag.render()
    scenarios = [sc for f in files for sc in f.scenarios]
    failing: dict[str, set[str]] = {}
    for variant in [None, *VARIANTS]:
        for r in run_all(load_checked(folder, variant), scenarios, variant):
            if r.status in FAILING:
                failing.setdefault(r.scenario.title, set()).add(variant or "base")
    return failing


@pytest.mark.parametrize(("add", "copies"), [(_add_search_card, 2), (_add_search_card, 5), (_add_room_type, 1)],
                         ids=["search-card-x2", "search-card-x5", "room-type"])
def test_adding_a_component_fails_only_the_scenario_about_the_box(tmp_path, add, copies):
    folder = tmp_path / "panic_station"
    shutil.copytree(RULES, folder)
    add(folder, copies)
    failing = _failing(folder)
    box = [t for t in failing if t.startswith(ABOUT_THE_BOX)]
    assert box, "the scenario counting the box's components should notice the new component"
    others = {t: sorted(v) for t, v in failing.items() if t not in box}
    assert not others, "scenarios that rely on the seed's deal instead of stating it:\n" + "\n".join(
        f"  {t} ({', '.join(v)})" for t, v in others.items())
