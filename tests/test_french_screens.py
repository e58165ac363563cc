"""A French player meets no English on the play screens: the terminal (`rulecraft play
--lang fr`) and the browser table (`?lang=fr`) of Panic Station, Star Trek: Panic and
Stationfall, played by script, show none of the English screen words (computed from the
tables of sentences, `rulecraft.screen_words` and `rulecraft.narration.SENTENCES`), none
of the rules' English prompts (the glossary's `prompts` word them), and tell the
refusals of a served table in French. The glossary keys `prompts` and `note` are
checked and shown; Stationfall's functions and yes/no properties, and Kuhn poker, read as
sentences on their rules sites."""

from __future__ import annotations

import io
import json
import re
import shutil
import string
from pathlib import Path

import pytest
from rich.console import Console

from rulecraft.cli.play import PLAY_SETTINGS, PlaySession
from rulecraft.docgen.glossary import check_glossaries, known_keys, load_glossary
from rulecraft.docgen.site import collect
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game
from rulecraft.narration import SENTENCES, Words
from rulecraft.screen_words import PAGE, REFUSALS, TERMINAL

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules"
GAMES = {"panic_station": 4, "star_trek_panic": 2, "stationfall": 3}
# an English fragment this long is a phrase, not a word French shares ("options", "Minute")
LEAST = 8


def fragments(table_en: dict, table_fr: dict) -> set[str]:
    """The literal parts of each English text that its French text does not say: what a
    French screen must not show."""
    out = set()
    for key, english in table_en.items():
        texts = english if isinstance(english, list) else [english]
        french = table_fr[key] if isinstance(table_fr[key], list) else [table_fr[key]]
        for text in texts:
            if text in french:
                continue
            for literal, *_ in string.Formatter().parse(text.replace("{{", "(").replace("}}", ")")):
                for part in re.split(r"[:;()]", literal or ""):
                    part = part.strip(" ,.?!…")
                    if len(part) >= LEAST and re.search(r"[a-z]{3}", part) and not any(part in f for f in french):
                        out.add(part)
    return out


ENGINE_EN = {SENTENCES["en"][k] for k in ("choose_action", "end_turn")} | {"React to"}


def english_prompts(game: str) -> set[str]:
    return known_keys(load_checked(RULES / game))["prompts"]


def assert_french(text: str, game: str, tables: list[tuple[dict, dict]]) -> None:
    english = set().union(*(fragments(en, fr) for en, fr in tables)) | english_prompts(game)
    found = sorted(e for e in english if e in text)
    assert not found, f"English on a French screen of {game}: {found}"
    for phrase in ENGINE_EN:
        assert not re.search(rf"(?<![\w']){re.escape(phrase)}(?!\w)", text, re.IGNORECASE), phrase


# ---------------------------------------------------------------- the terminal


def play_in_french(game: str, players: int, seed: int = 5, answers: int = 45) -> str:
    """A game played by script in French: p1 a person, the other seats the random bot;
    p1 looks at the help, the table, the map and the history, types a wrong answer or
    two, then takes its first option ``answers`` times and quits."""
    rs = load_checked(RULES / game)
    out = io.StringIO()
    console = Console(file=out, width=80, force_terminal=False, color_system=None)
    commands = iter(["?", "t", "m", "h", "zz", "99", ""] + ["1"] * answers)

    def read(prompt: str) -> str:
        if prompt == "> ":  # the pass-the-device screen
            return ""
        return next(commands, "q")

    seats = {f"p{i}": "human" if i == 1 else "random" for i in range(1, players + 1)}
    session = PlaySession(rs, Game(rs, players, seed, settings=PLAY_SETTINGS), seats, console=console, read=read,
                          lang="fr", save_path=None)
    session.run()
    return out.getvalue()


@pytest.mark.parametrize("game", GAMES)
def test_the_terminal_shows_a_french_player_no_english(game):
    text = play_in_french(game, GAMES[game])
    assert_french(text, game, [(TERMINAL["en"], TERMINAL["fr"]), (SENTENCES["en"], SENTENCES["fr"])])
    # what was translated is there: the engine's question, the help, the pass screen
    assert SENTENCES["fr"]["choose_action"] in text
    assert TERMINAL["fr"]["help"][0] in text and "Passez l'appareil à p1" in text
    # the French colon: "Main (5) :", never "Main (5):"
    assert not re.search(r"\w\): ", text.replace("\u00a0", " ").replace(" :", "")), "an English colon"


def test_the_terminal_words_the_prompts_seats_and_colours_of_panic_station():
    text = play_in_french("panic_station", 4, answers=60)
    glossary = load_glossary(load_checked(RULES / "panic_station"), "fr")
    assert glossary.prompts["Place the new room where?"] in text
    assert "Passez l'appareil à p1 (rouge)" in text
    screens = " ".join(text.split())
    assert "(bot random)" in screens and "(humain)" in screens and "(human)" not in screens


def test_a_ring_space_is_named_by_its_range_in_the_language():
    rs = load_checked(RULES / "star_trek_panic")
    game = Game(rs, 2, 3)
    english, french = Words(rs, "en"), Words(rs, "fr")
    for words in (english, french):
        words.know_view(game.view("p1"))
    assert english.name("long_3") == "long 3"  # as before
    assert french.name("long_3") == "longue 3" and french.name("short_6") == "courte 6"


# ---------------------------------------------------------------- the browser


def _strings(value, out: list[str]) -> list[str]:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in ("board", "option", "seat", "game", "type", "reason", "winners"):
                _strings(v, out)
    elif isinstance(value, list):
        for v in value:
            _strings(v, out)
    return out


@pytest.fixture
def client(tmp_path):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from rulecraft.cli.common import shipped_rulesets
    from rulecraft.server.app import create_app

    with TestClient(create_app(shipped_rulesets(), tmp_path / "games.sqlite")) as c:
        yield c


@pytest.mark.parametrize("game", GAMES)
def test_the_browser_table_shows_a_french_player_no_english(client, game):
    seats = ["human"] + ["random"] * (GAMES[game] - 1)
    created = client.post("/api/games", json={"ruleset": game, "seats": seats, "seed": 5}).json()
    link = created["links"]["p1"]
    shown: list[str] = []
    prompts = []
    with client.websocket_connect(link.replace("/game/", "/ws/") + "?lang=fr") as ws:
        view = ws.receive_json()
        for _ in range(30):
            shown += _strings(view, [])
            prompts.append(view["prompt"])
            if not view["options"]:
                break
            ws.send_text(json.dumps({"type": "choose", "step": view["decisions"], "option": view["options"][0]["option"]}))
            view = ws.receive_json()
        # refusals in French
        ws.send_text("{")
        assert ws.receive_json()["message"].startswith("JSON mal formé")
        ws.send_text(json.dumps({"type": "choose", "step": view["decisions"], "option": {"action": "no such"}}))
        refused = ws.receive_json()["message"]
        assert refused in (REFUSALS["fr"]["not_offered"], REFUSALS["fr"]["over"]), refused
        shown.append(refused)
    text = "\n".join(shown)
    assert_french(text, game, [(SENTENCES["en"], SENTENCES["fr"]), (REFUSALS["en"], REFUSALS["fr"])])
    assert SENTENCES["fr"]["choose_action"] in prompts
    # the page the link opens: in French before its script runs, and the script's words are the page's
    page = client.get(link + "?lang=fr").text
    assert '<html lang="fr">' in page
    words = json.loads(re.search(r'<script type="application/json" id="page-words">(.*?)</script>', page).group(1))
    assert words == PAGE["fr"]
    # the page's text, the words given to its script aside (their keys are names, not words)
    assert_french(re.sub(r'<script type="application/json".*?</script>', "", page, flags=re.S), game,
                  [(PAGE["en"], PAGE["fr"])])
    assert PAGE["fr"]["choice"] in page and PAGE["fr"]["connecting"] in page
    english_page = client.get(link).text
    assert '<html lang="en">' in english_page and PAGE["en"]["choice"] in english_page


def test_the_page_script_writes_no_word_of_its_own():
    script = (ROOT / "server" / "static" / "table.js").read_text(encoding="utf-8")
    for lang in PAGE:
        words = {w for k, w in PAGE[lang].items() if k != "html_lang" and len(w) >= LEAST}
        assert not [w for w in words if w in script], lang
    assert set(PAGE["en"]) == set(PAGE["fr"]) and set(TERMINAL["en"]) == set(TERMINAL["fr"])


# ---------------------------------------------------------------- the glossary keys


def test_prompts_are_checked_and_a_note_must_be_a_text(tmp_path):
    root = tmp_path / "panic_station"
    shutil.copytree(RULES / "panic_station", root)
    fr = root / "glossary" / "fr.yaml"
    text = fr.read_text(encoding="utf-8")
    fr.write_text(text.replace('"Place the new room where?":', '"Place the new rom where?":'), encoding="utf-8")
    rs = load_checked(root)
    warnings = [d.message for d in check_glossaries(rs, docs_words=False)]
    assert any("'Place the new rom where?' under 'prompts' names no prompt" in w for w in warnings), warnings
    # a prompt without an entry is no warning: the screens show it as written
    assert not any("Place the new room where?" in w for w in warnings)
    fr.write_text(text.replace("language: fr", "language: fr\nnote: 5", 1), encoding="utf-8")
    errors = [d.message for d in check_glossaries(load_checked(root), docs_words=False) if d.severity == "error"]
    assert errors and any("note" in e for e in errors), errors


@pytest.mark.parametrize("game", ["star_trek_panic", "stationfall"])
def test_the_french_sites_say_their_words_are_the_projects_translation(game):
    rs = load_checked(RULES / game)
    note = load_glossary(rs, "fr").note
    assert note and note.startswith("Traduction du projet")
    overview = collect(RULES / game, "fr").pages["index.md"]
    assert "!!! note" in overview and "Traduction du projet" in overview
    assert load_glossary(rs, "en").note is None


def test_every_prompt_of_the_three_games_has_french_words():
    for game in GAMES:
        glossary = load_glossary(load_checked(RULES / game), "fr")
        assert english_prompts(game) and english_prompts(game) <= set(glossary.prompts), game


# ---------------------------------------------------------------- the sites read as sentences


def test_stationfall_functions_and_yes_no_properties_have_phrases():
    rs = load_checked(RULES / "stationfall")
    for lang in ("en", "fr"):
        glossary = load_glossary(rs, lang)
        for d in rs.definitions.values():
            if d.kind != "function":
                continue
            term = glossary.get("definitions", d.name)
            assert term is not None and term.say, (lang, d.name)
            if str(d.returns) == "bool":
                assert term.deny, (lang, d.name)
        for kind in rs.data.kinds.values():
            for prop, spec in kind.properties.items():
                if str(spec.type) == "bool":
                    term = glossary.get("properties", f"{kind.name}.{prop}")
                    assert term.say and term.deny, (lang, kind.name, prop)
    pages = "\n".join(collect(RULES / "stationfall", "en").pages.values())
    assert "acting (the character)" not in pages and "may enter (the character" not in pages
    assert "the character still has an Action this turn" in pages


def test_kuhn_poker_reads_its_showdown_as_a_sentence():
    english = "\n".join(collect(RULES / "kuhn_poker", "en").pages.values())
    assert "card of (the player)" not in english
    assert "The winners are the players for whom the rank of the card the player holds is the highest." in english
    french = "\n".join(collect(RULES / "kuhn_poker", "fr").pages.values())
    assert "Les gagnants sont les joueurs où le rang de la carte que tient le joueur est le plus élevé." in french
