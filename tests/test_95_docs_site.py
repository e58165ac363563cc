"""The generated rules site: a page for everything a reader looks up, every rule in plain
words and in its source, pictures drawn from the board data, a strict mkdocs build."""

from __future__ import annotations

import atexit
import functools
import re
import shutil
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Error, Keyword, Name, String

from rulecraft.cli.main import main
from rulecraft.docgen.catalogue import catalogue, section_index, source_of
from rulecraft.docgen.lexer import RulesLexer
from rulecraft.docgen.markup import md
from rulecraft.docgen.prose import Prose
from rulecraft.docgen.site import collect, mkdocs, write
from rulecraft.docgen.svg import tile_svg
from rulecraft.dsl.loader import load_checked
from rulecraft.dsl.variants import available_variants
from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.validator import PASS, load_file, run_all, scenario_files

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules" / "panic_station"
SEEDS = ROOT / "seeds" / "panic_station"
SVG = "{http://www.w3.org/2000/svg}"


@functools.lru_cache(maxsize=None)
def built_site(lang: str = "en") -> tuple[object, Path]:
    """A site written and built with ``mkdocs build --strict`` once per pytest run
    (the browser test reads it too): (the Site in memory, the project folder)."""
    folder = Path(tempfile.mkdtemp(prefix=f"rulecraft-site-{lang}-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    site = collect(RULES, lang)
    config = write(site, folder)
    done = mkdocs(config, "build", "--strict")
    if done.returncode != 0:
        raise AssertionError(f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}")
    return site, folder


@pytest.fixture(scope="module")
def en():
    return built_site("en")


@pytest.fixture(scope="module")
def fr(tmp_path_factory):
    # Written, not built: CI builds the French site strictly; here the pages are enough.
    folder = tmp_path_factory.mktemp("site-fr")
    site = collect(RULES, "fr")
    write(site, folder)
    return site, folder


@pytest.fixture(scope="module")
def rs():
    return load_checked(RULES)


@pytest.fixture(scope="module")
def cat(rs):
    return catalogue(rs, SEEDS)


def all_text(site) -> str:
    """Every page but the print page, which repeats them."""
    return "\n".join(text for page, text in site.pages.items() if page != "print.md")


# ---------------------------------------------------------------- the build


def test_strict_build_writes_every_page_and_highlights_rules(en):
    site, folder = en
    for page in site.pages:
        assert (folder / "site" / page.replace(".md", ".html")).is_file(), page
    html = (folder / "site" / "actions" / "move.html").read_text(encoding="utf-8")
    # The source block went through the rules lexer: keywords and the definition name
    # carry Pygments' classes (k = keyword, kd = declaration, nf = function name).
    assert '<span class="kd">action</span>' in html
    assert '<span class="nf">move</span>' in html
    assert '<span class="k">cost</span>' in html
    assert (folder / "site" / "search" / "search_index.json").is_file()


def test_the_navigation_follows_the_rulebook(en, cat):
    site, _ = en
    titles = [next(iter(item)) for item in site.nav]
    ui_order = ["Overview", "Setup", "Turn structure", "Phases", "Actions", "Cards", "Room types", "Victory", "Rulings",
                "Worked examples", "Variants"]
    assert [t for t in titles if t in ui_order] == ui_order
    actions = next(item["Actions"] for item in site.nav if "Actions" in item)
    pages = [next(iter(a.values())) for a in actions if isinstance(a, dict)]
    assert pages == [f"actions/{n}.md" for n in cat.actions]
    order = [section_index(cat.ruleset.definitions[n].cite, cat.sections) for n in cat.actions]
    assert order == sorted(order) and order[0] < order[-1]


# ---------------------------------------------------------------- a page for everything


def test_a_page_for_every_action_card_room_and_phase(en, rs, cat):
    site, _ = en
    actions = [n for n, d in rs.definitions.items() if d.kind in ("action", "reaction")]
    assert sorted(actions) == sorted(cat.actions) and len(actions) >= 15
    for n in actions:
        assert f"actions/{n}.md" in site.pages
    cards = [c for c in rs.data.components if rs.data.kinds[c.kind].located_in == "zone"]
    for c in cards:
        assert f"cards/{c.name}.md" in site.pages
    room_types = {info["type"] for layout in rs.data.board.layouts.values() for info in layout.rooms.values()}
    for t in room_types:
        assert f"rooms/{t}.md" in site.pages
    assert cat.phases and all(f"phases/{n}.md" in site.pages for n in cat.phases)
    assert rs.data.game.round in site.pages["turn.md"] and "{#" + rs.data.game.round + "}" in site.pages["turn.md"]
    assert "{#" + rs.data.game.setup + "}" in site.pages["setup.md"]


def test_victory_rulings_and_every_definition_have_a_home(en, rs):
    site, _ = en
    victory = site.pages["victory.md"]
    for n, d in rs.definitions.items():
        if d.kind == "victory":
            assert "{#" + n + "}" in victory
    for r in rs.data.rulings:
        assert "{#" + r["id"] + "}" in site.pages["rulings.md"]
    text = all_text(site)
    for n in rs.definitions:
        # Shown in full exactly once, everywhere else linked.
        assert len(re.findall(r"\{#" + re.escape(n) + r"\}", text)) == 1, n


def test_every_rule_is_shown_in_plain_words_and_in_its_source(en, rs):
    site, _ = en
    prose = Prose(rs, "en")
    homes = {}
    for page, text in site.pages.items():
        for n in re.findall(r"\{#([a-z_0-9]+)\}", text):
            homes[n] = page
    for n, d in rs.definitions.items():
        page = site.pages[homes[n]]
        assert prose.definition(n).strip() in page, n
        assert source_of(rs, d) in page, n


def test_card_and_room_pages_link_the_rules_that_name_them(en):
    site, _ = en
    # Burning the Hive takes gas cans; the heavy gun changes firing; a storage room
    # changes searching: each page links the rule that says so.
    assert "(../actions/burn_hive.md#burn_hive)" in site.pages["cards/gas_can.md"]
    assert "(../actions/fire_gun.md#fire_gun)" in site.pages["cards/heavy_gun.md"]
    assert "(../actions/search.md#search)" in site.pages["rooms/storage.md"]
    assert "(../actions/burn_hive.md#burn_hive)" in site.pages["rooms/hive.md"]
    assert "(../actions/search.md#search)" not in site.pages["rooms/hive.md"]


# ---------------------------------------------------------------- worked examples


def test_worked_examples_show_each_scenario_with_its_result(en, rs):
    site, folder = en
    bag = DiagnosticBag()
    scenarios = [sc for p in scenario_files(SEEDS) for sc in load_file(p, bag).scenarios]
    results = run_all(rs, scenarios)
    index = site.pages["examples/index.md"]
    assert f"{sum(r.status == PASS for r in results)} of {len(results)} pass." in index
    examples = "\n".join(t for p, t in site.pages.items() if p.startswith("examples/"))
    labels = {"pass": "PASS", "skip": "SKIPPED", "fail": "FAIL", "broken": "BROKEN", "known": "KNOWN FAILURE"}
    for sc, r in zip(scenarios, results):
        title = md(sc.title)
        assert f"## {title} " in examples, sc.title
        assert f"| [{title}]" in index and f"| {labels[r.status]} |" in index
    for path in site.files:
        if path.startswith("examples/"):
            assert (folder / "docs" / path).is_file()


def test_board_pictures_show_the_placed_tiles_and_the_pieces(en, rs):
    site, _ = en
    page = site.pages["examples/explore.md"]
    first = re.search(r"!\[[^\]]*\]\((explore-1-before\.svg)\)", page)
    assert first, "the first explore example has a picture before its steps"
    before = ET.fromstring(site.files["examples/explore-1-before.svg"])
    after = ET.fromstring(site.files["examples/explore-1-after.svg"])
    tiles_before = {g.get("data-tile") for g in before.iter(f"{SVG}g") if g.get("class") == "tile"}
    tiles_after = {g.get("data-tile") for g in after.iter(f"{SVG}g") if g.get("class") == "tile"}
    # The scenario explores one card next to the start tile.
    assert len(tiles_after) == len(tiles_before) + 1
    pieces = [g.get("data-piece") for g in after.iter(f"{SVG}g") if g.get("class") == "piece"]
    assert pieces and all("." in p for p in pieces)


# ---------------------------------------------------------------- pictures of cards


def test_every_exploration_card_picture_is_xml_showing_its_doors(rs):
    board = rs.data.board
    cards = [c for c in rs.data.components if c.kind == board.tile_kind]
    assert sum(c.count for c in cards) == rs.data.manifest[board.tile_kind] == 20
    for comp in cards:
        root = ET.fromstring(tile_svg(board, comp.layout))
        layout = board.layouts[comp.layout]
        doors = {(e.get("data-side"), e.get("data-edge")) for e in root.iter(f"{SVG}line") if "door" in e.get("class", "").split()}
        expected = {(d, s.edge) for d, s in layout.sides.items() if s.edge in board.doorways}
        expected |= {("inside", lk["connection"]) for lk in layout.links if lk["connection"] in board.doorways}
        assert doors == expected and doors, comp.name
        rooms = [e for e in root.iter(f"{SVG}rect") if e.get("class") == "room"]
        assert len(rooms) == len(layout.rooms)


def test_card_pages_carry_their_picture(en, rs):
    site, folder = en
    for comp in rs.data.components:
        if comp.layout:
            assert f"({comp.name}.svg)" in site.pages[f"cards/{comp.name}.md"]
            assert (folder / "site" / "cards" / f"{comp.name}.svg").is_file()


def test_card_tables_show_yes_or_no_for_yes_no_properties(en, fr, rs):
    flagged = [c for c in rs.data.components if f"cards/{c.name}.md" in en[0].pages
               and any(isinstance(v, bool) for v in c.properties.values())]
    assert flagged, "the rule set has a card with a yes/no property"
    comp = flagged[0]
    english, french = en[0].pages[f"cards/{comp.name}.md"], fr[0].pages[f"cards/{comp.name}.md"]
    assert "| true |" not in english and "| false |" not in english and "| False |" not in english
    assert ("| yes |" in english) or ("| no |" in english)
    assert ("| oui |" in french) or ("| non |" in french)


# ---------------------------------------------------------------- languages and variants


def test_french_site_uses_french_terms_and_words(fr, en, rs):
    site_fr, folder = fr
    site_en, _ = en
    fr_prose, en_prose = Prose(rs, "fr"), Prose(rs, "en")
    assert fr_prose.term("trooper") != en_prose.term("trooper")
    assert fr_prose.term("trooper").lower().startswith("soldat")
    text = all_text(site_fr)
    assert fr_prose.term("trooper") in text and "Mise en place" in text and "Matériel" in site_fr.pages["index.md"]
    assert en_prose.definition("move").strip() not in text
    assert fr_prose.definition("move").strip() in site_fr.pages["actions/move.md"]
    assert "language: fr" in (folder / "mkdocs.yml").read_text(encoding="utf-8")
    assert site_fr.pages.keys() == site_en.pages.keys()


def test_variant_pages_show_each_change_before_and_after(en, rs):
    site, _ = en
    for name in available_variants(RULES):
        vrs = load_checked(RULES, name)
        page = site.pages[f"variants/{name}.md"]
        info = vrs.variant
        for n, (old, new) in info.replaced.items():
            assert source_of(rs, old).splitlines()[0] in page
            assert "    " + source_of(vrs, new).splitlines()[-1] in page
        for n in info.added:
            assert source_of(vrs, vrs.definitions[n]) in page
        for n, (old, new) in info.parameters.items():
            assert f"| {old} | {new} |" in page


def test_a_site_with_a_variant_describes_the_patched_rules(tmp_path):
    site = collect(RULES, "en", "master_and_servant", scenarios=tmp_path)
    vrs = load_checked(RULES, "master_and_servant")
    assert "master" in site.pages["index.md"].lower()
    for n, (old, new) in vrs.variant.replaced.items():
        assert source_of(vrs, new) in all_text(site)


# ---------------------------------------------------------------- the lexer


def test_the_lexer_reads_every_shipped_rule_file_without_error():
    files = sorted(ROOT.glob("rules/**/*.rules"))
    assert len(files) > 10
    lexer = RulesLexer()
    for path in files:
        text = path.read_text(encoding="utf-8")
        tokens = list(lexer.get_tokens(text))
        assert not [v for t, v in tokens if t is Error], path
        assert "".join(v for _, v in tokens).rstrip("\n") == text.rstrip("\n")


def test_the_lexer_is_registered_and_tells_the_parts_apart():
    assert isinstance(get_lexer_by_name("rules"), RulesLexer)
    assert isinstance(get_lexer_for_filename("x.rules"), RulesLexer)
    tokens = [(t, v) for t, v in RulesLexer().get_tokens('action move:\n    cite "x"\n    cost 1 ap  # why\n') if v.strip()]
    assert tokens[:2] == [(Keyword.Declaration, "action"), (Name.Function, "move")]
    assert (String.Doc, '"x"') in tokens and (Keyword, "cost") in tokens
    assert any(v == "# why" for _, v in tokens)
    assert [t for t, v in RulesLexer().get_tokens("action x:\n    cost 1 ap $\n") if v == "$"] == [Error]


# ---------------------------------------------------------------- the command


def test_docs_command_writes_a_project(tmp_path, capsys):
    (tmp_path / "none").mkdir()
    assert main(["docs", str(RULES), "--out", str(tmp_path / "site"), "--lang", "fr", "--scenarios", str(tmp_path / "none")]) == 0
    out = capsys.readouterr().out
    assert "wrote" in out and (tmp_path / "site" / "mkdocs.yml").is_file()
    assert f"{sys.executable} -m mkdocs build --strict -f " in out  # runs whether or not mkdocs is on PATH
    assert (tmp_path / "site" / "docs" / "cards" / "hive.svg").is_file()


@pytest.mark.parametrize("args, message", [
    (["--lang", "de"], "rulecraft has no words in 'de' (it speaks en, fr): a language is added with one file"),
    (["--variant", "no_such_variant"], "unknown variant 'no_such_variant'"),
    (["--build", "--serve"], "not allowed with argument"),
    (["--serve", "--addr", "nonsense"], "argument --addr: 'nonsense' is not HOST:PORT"),
    (["--serve", "--addr", "127.0.0.1:99999"], "with a port from 1 to 65535"),
    (["--site-url", "example.org/rules"], "argument --site-url: 'example.org/rules' is not a web address"),
])
def test_docs_command_refuses_bad_arguments_in_one_line(tmp_path, capsys, args, message):
    with pytest.raises(SystemExit) as stopped:
        code = main(["docs", str(RULES), "--out", str(tmp_path / "o"), *args])
        raise SystemExit(code)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "o").exists()


def test_the_page_not_found_links_from_the_sites_address(tmp_path):
    out = tmp_path / "site"
    assert main(["docs", "tic_tac_toe", "--out", str(out), "--site-url", "https://example.org/games/ttt",
                 "--build"]) == 0
    missing = (out / "site" / "404.html").read_text(encoding="utf-8")
    # served at any address it may be, the page links back from the site's own path
    assert 'href="/games/ttt/index.html"' in missing and 'href="/index.html"' not in missing
    # the other pages keep linking relatively, so the built folder still reads from disk
    assert 'href="/games/' not in (out / "site" / "index.html").read_text(encoding="utf-8")


def test_docs_command_needs_an_out_folder(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["docs", str(RULES)])
    assert stopped.value.code == 2 and "--out" in capsys.readouterr().err


# ---------------------------------------------------------------- a site that teaches


def _author_text(rs, name: str) -> str:
    return md(" ".join(rs.definitions[name].text.split()))


def test_every_rule_page_shows_the_authors_text_before_the_precise_rule(en, rs, cat):
    site, _ = en
    for name in cat.actions:
        page = site.pages[f"actions/{name}.md"]
        text = rs.definitions[name].text
        if text:
            said = page.index(_author_text(rs, name))
            assert said < page.index("**In plain words**") < page.index("**Rules language**"), name


def test_the_overview_says_how_to_win_and_who_wins(en, fr, rs, cat):
    index = en[0].pages["index.md"]
    assert "## How the game ends" in index
    victories = [n for n in cat.victory if rs.definitions[n].kind == "victory"]
    for name in victories:
        assert _author_text(rs, name) in index, name
    # who wins: the text of the function that names the winners
    assert "**Who wins:** " + _author_text(rs, "all_infected_winners") in index
    # the rules that also end the game, each with its text (the Hive burning names the human winners)
    assert _author_text(rs, "burn_hive") in index
    # the conditions are not read out as code any more
    assert "the number of characters for which" not in index
    fr_index = fr[0].pages["index.md"]
    assert "## Fin de la partie" in fr_index and "**Qui gagne\u00a0:**" in fr_index
    assert "Soldats sont morts" in fr_index


def test_every_card_page_says_what_the_card_does(en, rs, cat):
    site, _ = en
    knife = site.pages["cards/combat_knife.md"]
    assert knife.index("## What it does") < knife.index("| Properties |")
    assert _author_text(rs, "stab") in knife
    for comp in cat.cards:
        page = site.pages[f"cards/{comp.name}.md"]
        assert "## What it does" in page, comp.name
    # a card with its own text shows it
    marker = next(c for c in rs.data.components if c.text)
    if marker in cat.cards:
        assert md(marker.text) in site.pages[f"cards/{marker.name}.md"]


def test_worked_examples_are_told_step_by_step_with_a_legend(en, fr):
    page = en[0].pages["examples/combat.md"]
    first = page.split("\n## ")[1]  # the first example
    assert "**What happens**" in first and "*The steps*" in first
    assert "1. Check: The action *Fire Gun* (shooter = Trooper of player 1) is not allowed: only Androids carry guns." in first
    assert "2. The current player takes the action *Fire Gun* (shooter = Android of player 1" in first
    assert "- Gray Parasite 1 is in Parasite supply." in first
    assert "**Legend**" in first and "| `T1` | Trooper of player 1 |" in first and "| `GP` | gray Parasite 1 |" in first
    # the scenario as written is still there, collapsed, after the story
    assert first.index("**What happens**") < first.index('??? quote "The scenario as written')
    fr_first = fr[0].pages["examples/combat.md"].split("\n## ")[1]
    assert "Exemple 1" in fr_first and "*Les étapes*" in fr_first
    assert "Le joueur actif fait l'action *Ouvrir le feu* (tireur = Androïde du joueur 1" in fr_first
    assert "| `T1` | Soldat du joueur 1 |" in fr_first


def test_the_french_site_is_entirely_french(fr, rs):
    site, _ = fr
    # the rules-language source stays as written; everything around it is French
    text = re.sub(r"(`{3,})rules\n.*?\n\1\n", "", all_text(site), flags=re.S)
    text = re.sub(r"(`{3,})yaml\n.*?\n\1\n", "", text, flags=re.S)
    # no author text and no citation of the English rule files is left
    for d in rs.definitions.values():
        if getattr(d, "text", None):
            assert _author_text(rs, d.name) not in text, d.name
    assert "rulebook-en" not in text
    assert "rulebook-fr: Phase Équipe, 3. Ouvrir le feu" in site.pages["actions/fire_gun.md"]
    for r in rs.data.rulings:
        assert md(r["question"]) not in site.pages["rulings.md"], r["id"]
    assert "Un Soldat ou un Androïde avec un Couteau de Combat en jeu" in site.pages["cards/combat_knife.md"]


def test_a_missing_french_word_fails_the_docs_command_listing_each_one(tmp_path, capsys):
    rules = tmp_path / "rules" / "panic_station"
    shutil.copytree(RULES, rules, ignore=shutil.ignore_patterns("__pycache__"))
    glossary = rules / "glossary" / "fr.yaml"
    text = glossary.read_text(encoding="utf-8")
    for line in ('  stab: "', '  "rulebook-en: Trading": ', "  hive_holding: "):
        start = text.index(line)
        text = text[:start] + text[text.index("\n", start) + 1:]
    glossary.write_text(text, encoding="utf-8")
    code = main(["docs", str(rules), "--lang", "fr", "--out", str(tmp_path / "site"), "--scenarios", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert "glossary/fr.yaml:" in err
    assert "no text 'stab' in 'texts'" in err
    assert "no citation for 'rulebook-en: Trading'" in err
    assert "no entry 'hive_holding' in 'zones'" in err
    assert "3 error(s) in its 'fr' words" in err
    assert not (tmp_path / "site").exists()


def test_a_language_without_a_glossary_is_refused_for_a_rule_set_with_glossaries(tmp_path, capsys):
    rules = tmp_path / "rules" / "panic_station"
    shutil.copytree(RULES, rules, ignore=shutil.ignore_patterns("__pycache__"))
    (rules / "glossary" / "fr.yaml").unlink()
    code = main(["docs", str(rules), "--lang", "fr", "--out", str(tmp_path / "site"), "--scenarios", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert "glossary/fr.yaml:1:1: error: the rule set has no 'fr' glossary" in err
    assert not (tmp_path / "site").exists()


def test_the_print_page_holds_every_rule_page_in_order(en, cat):
    site, folder = en
    printed = site.pages["print.md"]
    assert {"Whole rulebook (to print)": "print.md"} in site.nav
    # every action, victory and card, in the navigation's order, a level down
    places = [printed.index(f"## {site.pages[f'actions/{n}.md'].splitlines()[0][2:]}") for n in cat.actions]
    assert places == sorted(places)
    assert printed.index("## How the game ends") < places[0]
    for comp in cat.cards:
        assert site.pages[f"cards/{comp.name}.md"].splitlines()[0].replace("# ", "## ", 1) in printed
    # the worked examples stay on their pages; links and pictures point from the top folder
    assert "**What happens**" not in printed and "../" not in printed
    assert "](#stab)" in printed and "(cards/hive.svg)" in printed
    assert (folder / "site" / "print.html").is_file()


def test_cards_of_a_kind_that_does_not_say_where_it_lies_get_pages_too(tmp_path):
    # Star Trek: Panic's Enterprise cards start in a deck; their kind names no place
    rules = ROOT / "rules" / "star_trek_panic"
    rs = load_checked(rules)
    site = collect(rules, "en", scenarios=tmp_path)
    deck_cards = [c for c in rs.data.components if c.zone and rs.data.kinds[c.kind].located_in is None]
    assert deck_cards
    for comp in deck_cards:
        page = site.pages[f"cards/{comp.name}.md"]
        assert "## What it does" in page
    security = next(c for c in deck_cards if "security" in c.name)
    assert md(" ".join(rs.definitions["play_security"].text.split())) in site.pages[f"cards/{security.name}.md"]


def test_the_overview_says_how_many_play_without_a_range_of_one(en, tmp_path):
    assert "\n2 players.\n" in collect(RULES.parent / "tic_tac_toe", "en", None, tmp_path).pages["index.md"]
    assert "\n4 to 6 players.\n" in en[0].pages["index.md"]


def test_a_preview_stopped_by_sigterm_stops_its_mkdocs_server(tmp_path):
    """Ctrl-C reaches mkdocs itself; a SIGTERM to rulecraft alone must not leave the
    preview server holding its port."""
    import os
    import signal
    import socket
    import subprocess
    import sys
    import time

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    def listening() -> bool:
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", port)) == 0

    command = [sys.executable, "-m", "rulecraft.cli.main", "docs", str(RULES.parent / "tic_tac_toe"),
               "--out", str(tmp_path / "site"), "--serve", "--addr", f"127.0.0.1:{port}"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not listening():
            assert process.poll() is None and time.monotonic() < deadline, "the preview never started"
            time.sleep(0.2)
        process.send_signal(signal.SIGTERM)  # to rulecraft only, not to its group
        process.wait(timeout=30)
        deadline = time.monotonic() + 10
        while listening() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not listening(), "mkdocs serve outlived rulecraft docs"
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)  # whatever of the group is left
        except ProcessLookupError:
            pass


# ---------------------------------------------------------------- what a reviewer found misleading

def test_worked_examples_tell_zone_checks_and_yes_no_properties_in_words(en, fr):
    from rulecraft.docgen.narration import Narrator

    for lang, site in (("en", en[0]), ("fr", fr[0])):
        text = "\n".join(page for path, page in site.pages.items() if path.startswith("examples/"))
        told = "\n".join(line for line in text.splitlines() if line.startswith(("- ", "1. ", "2. ", "3. ")))
        for raw in (": contains ", ", count ", "count 5", "kinds ", "excludes ", ", min ", ", where ", "joueur *",
                    "infection = ", " is no.", " is yes."):
            assert raw not in told, (lang, raw)
    rs = load_checked(RULES)
    tell = Narrator(rs, Prose(rs, "fr", markdown=True), "fr")
    assert tell.thing("hand:*") == "main de chaque joueur"
    assert tell.zone_facts({"count": 5, "kinds": {"infection_card": 3}}) == \
        "exactement 5 éléments ; 3 cartes Infection"
    tell_en = Narrator(rs, Prose(rs, "en", markdown=True), "en")
    assert tell_en._props({"p1": {"infected": True}}) == ["Player 1 is infected."]
    assert tell_en._props({"player": {"infected": False}}) == ["Each player is not infected."]


def test_a_variant_page_says_what_changes_of_a_component_and_names_variables_in_words(en):
    page = en[0].pages["variants/humans_advantage.md"]
    assert "| Infection card | Count: 3 → 2 |" in page
    assert "properties" not in page.split("## Changed components", 1)[1].split("\n## ", 1)[0]
    assert "`game." not in en[0].pages["variants/passing_the_host.md"]


def test_the_overview_heads_several_parameters_in_the_plural(en, fr):
    assert "## Parameters\n" in en[0].pages["index.md"] and "## Paramètres\n" in fr[0].pages["index.md"]


def test_copies_of_a_card_are_told_apart_by_a_readers_label_not_an_id(en, fr):
    index = en[0].pages["cards/index.md"]
    assert "[Run card A](run_a.md)" in index and "[Run card B](run_b.md)" in index
    assert "(run\\_a)" not in all_text(en[0]) and "(storage\\_b)" not in all_text(fr[0])
    assert "# Règles du fichier items.rules" in fr[0].pages["rules/items.md"]


def test_the_french_site_calls_rooms_by_the_rule_sets_word(fr):
    site = fr[0]
    assert site.pages["rooms/index.md"].startswith("# Types de pièces\n")
    assert "## Cartes portant ce type de pièce" in site.pages["rooms/run.md"]
    assert "## Pièces" in site.pages["cards/run_a.md"]
    headings = [line for path, page in site.pages.items() if path.startswith(("rooms/", "cards/"))
                for line in page.splitlines() if line.startswith("## ")]
    assert not [h for h in headings if "salle" in h.lower()]
    assert "salles" not in site.pages["rooms/index.md"].split("\n- ", 1)[0].lower()


def test_the_worked_examples_say_what_is_skipped_and_keep_one_order_in_every_language(en, fr):
    assert re.search(r"\d+ of \d+ pass\. \d+ are examples of a variant, skipped here", en[0].pages["examples/index.md"])
    order = {}
    for lang, site in (("en", en[0]), ("fr", fr[0])):
        examples = next(item for item in site.nav if "examples/index.md" in str(item))
        entries = [e for e in next(iter(examples.values())) if isinstance(e, dict)]
        titles = [next(iter(e)) for e in entries]
        assert len(titles) == len(set(titles)), (lang, titles)
        order[lang] = [next(iter(e.values())) for e in entries]
    assert order["en"] == order["fr"]


def test_a_rules_source_is_named_where_it_lies_in_a_checkout_however_the_folder_was_given(tmp_path, monkeypatch):
    # built from elsewhere, a site showed the builder's own folders on every page
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "site"
    assert main(["docs", str(RULES.resolve()), "--out", str(out)]) == 0
    pages = "".join(p.read_text(encoding="utf-8") for p in (out / "docs").rglob("*.md"))
    assert "(`rules/panic_station/setup.rules:" in pages
    assert str(RULES.resolve().parent) not in pages
