"""The walkthrough of docs/variants.md, done as a designer would: its files written into a
copy of Panic Station, then check, verify, simulate and docs run through the command
line on the variant. The variant adds a card and a room type the base does not have."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from rulecraft.cli.main import main

REPO = Path(__file__).resolve().parent.parent
WALKTHROUGH = REPO / "docs" / "variants.md"
# a fenced block with a title="path" holds a file of the walkthrough, path from the repository's top
FILE_BLOCK = re.compile(r'^```\w+ title="([^"]+)"\n(.*?)^```$', re.S | re.M)


def walkthrough_files() -> dict[str, str]:
    text = WALKTHROUGH.read_text(encoding="utf-8")
    start = text.index("## Walkthrough")
    end = text.index("\n## ", start + 1)
    return {path: body for path, body in FILE_BLOCK.findall(text[start:end])}


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """A designer's folder: the shipped rules and scenarios, plus the walkthrough's files."""
    top = tmp_path_factory.mktemp("designer")
    shutil.copytree(REPO / "rules" / "panic_station", top / "rules" / "panic_station",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "seeds" / "panic_station", top / "seeds" / "panic_station")
    for path, body in walkthrough_files().items():
        assert path.startswith("rules/panic_station/variants/"), path  # the base's own files stay as shipped
        (top / path).parent.mkdir(parents=True, exist_ok=True)
        (top / path).write_text(body, encoding="utf-8")
    return top


def run(project: Path, monkeypatch, capsys, *argv: str) -> tuple[int, str]:
    monkeypatch.chdir(project)
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_the_walkthrough_writes_the_variant_its_rules_glossaries_and_scenarios():
    assert set(walkthrough_files()) == {
        "rules/panic_station/variants/stim_packs.yaml", "rules/panic_station/variants/stim_packs.rules",
        "rules/panic_station/variants/stim_packs/glossary/en.yaml",
        "rules/panic_station/variants/stim_packs/glossary/fr.yaml",
        "rules/panic_station/variants/stim_packs/scenarios.yaml"}


def test_check_finds_nothing_to_report(project, monkeypatch, capsys):
    code, out = run(project, monkeypatch, capsys, "check", "rules/panic_station", "--variant", "stim_packs")
    assert code == 0, out
    assert "0 error(s), 0 warning(s)" in out


def test_verify_passes_the_base_scenarios_and_the_variants_own(project, monkeypatch, capsys):
    code, out = run(project, monkeypatch, capsys, "verify", "rules/panic_station", "--variant", "stim_packs")
    assert code == 0, out
    for title in ("A Stim Pack heals one", "In the Armory a character"):  # the variant's own scenarios
        row = next(line for line in out.splitlines() if title in line)
        assert "PASS" in row
    summary = re.search(r"(\d+) scenario\(s\): (\d+) passed, 0 failed, 0 broken, (\d+) skipped", out)
    assert summary, out
    total, passed, skipped = map(int, summary.groups())
    assert passed == total - skipped and passed > 100  # the base's scenarios ran with the variant applied


def test_the_variants_scenarios_catch_a_wrong_rule(project, monkeypatch, capsys, tmp_path):
    """The Stim Pack scenario fails when a Stim Pack heals 2: it checks what it says."""
    copy = tmp_path / "wrong"
    shutil.copytree(project, copy)
    patch = copy / "rules/panic_station/variants/stim_packs.yaml"
    patch.write_text(patch.read_text().replace("stim_pack_healing: {value: 1", "stim_pack_healing: {value: 2"))
    code, out = run(copy, monkeypatch, capsys, "verify", "rules/panic_station", "--variant", "stim_packs")
    assert code == 1
    row = next(line for line in out.splitlines() if "A Stim Pack heals one" in line)
    assert "FAIL" in row


def test_simulate_plays_games_where_the_new_card_and_room_appear(project, monkeypatch, capsys):
    code, out = run(project, monkeypatch, capsys, "simulate", "rules/panic_station", "--players", "4", "--games", "3",
                    "--seed", "7", "--variant", "stim_packs", "--log", "game.jsonl", "--out", "games.json", "--quiet")
    assert code == 0, out
    rows = json.loads((project / "games.json").read_text())
    assert [r["variant"] for r in rows].count("stim_packs") == 3
    assert all(r["error"] is None and r["decided"] for r in rows)
    lines = [json.loads(line) for line in (project / "game.stim_packs.jsonl").read_text().splitlines()]
    assert lines[0]["variant"] == "stim_packs"
    events = [line["event"] for line in lines if line["type"] == "event"]
    assert any(e["type"] == "placed" and e["tile"] == "armory" for e in events)
    assert any(e["type"] == "moved" and e["entity"].startswith("stim_pack.") and e["destination"].startswith("hand:")
               for e in events)
    taken = {e["action"] for e in events if e["type"] == "action_taken"}
    assert {"use_stim_pack", "take_from_armory"} <= taken
    base = [json.loads(line) for line in (project / "game.jsonl").read_text().splitlines()]
    assert base[0]["variant"] is None and "stim_pack" not in json.dumps(base)


def test_docs_build_a_site_with_pages_for_the_new_card_and_room(project, monkeypatch, capsys):
    code, out = run(project, monkeypatch, capsys, "docs", "rules/panic_station", "--variant", "stim_packs",
                    "--out", "site", "--build")
    assert code == 0, out
    built = project / "site" / "site"
    pages = {p.relative_to(built).as_posix(): p.read_text(encoding="utf-8") for p in built.rglob("*.html")}
    card = next(text for path, text in pages.items() if "stim_pack" in path and "card" in path)
    assert "Stim Pack" in card and "Use a Stim Pack" in card  # its name from the glossary and the rule naming it
    room = next(text for path, text in pages.items() if "armory" in path and "room" in path)
    assert "Take from the Armory" in room
    # the variant's page says what it added to the game, the card linked to its page
    variant = next(text for path, text in pages.items() if path.startswith("variants/stim") and "stim" in path)
    added = variant[variant.index("Added to the game"):]
    assert "Stim Pack" in added and "cards/stim_pack" in added and "Armory" in added


def test_mutate_checks_the_variants_rules_against_its_own_scenarios(project, monkeypatch, capsys, tmp_path):
    """Mutants of the variant's rule file are run against the variant's own scenarios (an
    empty scenario folder leaves no other), and those scenarios kill some of them."""
    no_seeds = tmp_path / "no_seeds"
    no_seeds.mkdir()
    code, out = run(project, monkeypatch, capsys, "mutate", "rules/panic_station", "--variant", "stim_packs",
                    "--only", "variants/stim_packs.rules", "--scenarios", str(no_seeds), "--jobs", "1")
    killed, total = map(int, re.search(r"Score: (\d+)/(\d+) killed", out).groups())
    assert total > 10 and killed >= total // 2, out
    assert code == 1  # under the 90% bar: the two scenarios leave mutants alive, and say so


def test_check_of_the_folder_the_designer_stands_in_names_it(project, monkeypatch, capsys):
    """`rulecraft check .` said ".: 0 error(s)…": the folder's own name says which."""
    code, out = run(project / "rules" / "panic_station", monkeypatch, capsys, "check", ".")
    assert code == 0, out
    assert out.splitlines()[-1].startswith("panic_station: 0 error(s), 0 warning(s)"), out
