"""A rule set kept in one folder: its scenarios in its own ``scenarios/`` folder are the
ones verify, check, mutate and the rules site read when no folder is given."""

from __future__ import annotations

import shutil
from pathlib import Path

from rulecraft.cli.main import main
from rulecraft.docgen.site import collect
from rulecraft.validator.scenario import default_folder

ROOT = Path(__file__).resolve().parent.parent
GAME = "tic_tac_toe"


def one_folder(tmp_path: Path) -> Path:
    """The rule set copied alone, its scenarios inside it; no seeds/ folder anywhere."""
    folder = tmp_path / "my_game"
    shutil.copytree(ROOT / "rules" / GAME, folder, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "seeds" / GAME, folder / "scenarios")
    return folder


def test_verify_reads_the_scenarios_inside_the_rule_set(tmp_path, capsys):
    folder = one_folder(tmp_path)
    count = len(list((folder / "scenarios").glob("*.yaml")))
    assert count
    assert main(["verify", str(folder)]) == 0
    out = capsys.readouterr().out
    ran = int(out.strip().splitlines()[-1].split()[0])
    assert ran > 0 and "0 failed" in out


def test_the_folder_inside_comes_first_and_seeds_next_to_rules_is_the_fallback(tmp_path):
    folder = one_folder(tmp_path)
    assert default_folder(folder, GAME) == (folder / "scenarios").resolve()
    shutil.rmtree(folder / "scenarios")
    assert default_folder(folder, GAME) == tmp_path.resolve().parent / "seeds" / GAME
    assert default_folder(ROOT / "rules" / GAME, GAME) == ROOT / "seeds" / GAME


def test_the_rules_site_shows_the_scenarios_inside_as_worked_examples(tmp_path):
    site = collect(one_folder(tmp_path))
    examples = [path for path in site.pages if path.startswith("examples/")]
    assert examples, sorted(site.pages)
