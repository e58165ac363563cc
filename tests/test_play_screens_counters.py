"""What the play screens show that a player needs at all times or reads as sentences:
the variables a glossary marks ``shown`` (Stationfall's Minute, Star Trek: Panic's
missions) on the terminal's main screen and in the browser's view and page; an action of
many variants (a card to give and one to take) asked step by step in the browser, the
options themselves unchanged for bots; events told by their glossary phrases; and the
zones of the table chosen by one piece of code for both screens."""

from __future__ import annotations

import json
import random
import re
from functools import lru_cache
from pathlib import Path

import jsonschema
import pytest

from rulecraft.beside import shown_variables, table_zones
from rulecraft.bots import make_bot, view_for
from rulecraft.choices import leaves, option_menu
from rulecraft.cli.common import shipped_rulesets
from rulecraft.cli.play_screen import Screens
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game
from rulecraft.narration import Words

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


@lru_cache(maxsize=None)
def ruleset(name: str):
    return load_checked(str(shipped_rulesets()[name]))


def played(name: str, players: int, seed: int, until) -> Game:
    """A game of random choices (seeded) up to the first state where ``until(game)``."""
    game = Game(ruleset(name), players, seed)
    rng = random.Random(seed)
    while not game.over and not until(game):
        game.choose(rng.randrange(len(game.pending.options)))
    return game


def screen_text(name: str, game: Game, seat: str) -> str:
    rs = ruleset(name)
    view = game.view(seat)
    lines, _ = Screens(rs, Words(rs)).main(view, view["events"], 0, 0)
    assert len(lines) <= 23 and all(len(text) <= 80 for text, _ in lines)
    return "\n".join(text for text, _ in lines)


def to_decide(seat: str):
    return lambda game: game.pending is not None and game.pending.player == seat


# ---- the counters a glossary shows: on the terminal's main screen
def test_the_minute_is_on_the_terminal_screen_with_its_current_value():
    seen = set()
    game = played("stationfall", 3, 4, to_decide("p1"))
    for _ in range(6):
        minute = game.state.vars["game"]["minute"]
        header = screen_text("stationfall", game, "p1").splitlines()[0]
        assert f"Minute {minute}" in header, header
        seen.add(minute)
        rng = random.Random(minute)
        game.choose(rng.randrange(len(game.pending.options)))
        while not game.over and not to_decide("p1")(game):
            game.choose(rng.randrange(len(game.pending.options)))
        if game.over:
            break
    assert len(seen) > 1, "the Minute moved on while p1 played, and the screen followed it"


def test_star_trek_panic_shows_its_missions_and_timer_on_a_line_of_their_own_when_the_header_is_full():
    game = played("star_trek_panic", 2, 5, lambda g: g.state.vars["game"]["first_turn_done"] and to_decide("p1")(g))
    assert not game.over
    game.state.vars["game"].update(missions_completed=2, timer=3)  # as a game further on
    text = screen_text("star_trek_panic", game, "p1")
    done, timer = 2, 3
    header, counters = text.splitlines()[:2]
    assert header.startswith("Star Trek: Panic · round") and header.endswith("you are p1")
    assert counters == f"missions completed {done} · mission timer {timer}"


def test_a_game_without_shown_variables_keeps_its_one_line_header():
    rs = ruleset("panic_station")
    view = Game(rs, 4, 1).view("p1")
    assert shown_variables(rs, view, Words(rs)) == []
    lines, _ = Screens(rs, Words(rs)).main(view, view["events"], 0, 0)
    assert "·" in lines[0][0] and "·" not in lines[1][0]


def test_shown_is_a_key_of_variables_only():
    schema = json.loads((SCHEMAS / "glossary.schema.json").read_text())
    jsonschema.validate({"language": "en", "variables": {"game.minute": {"one": "Minute", "shown": True}}}, schema)
    jsonschema.validate({"language": "en", "variables": {"game.x": {"one": "x", "shown": "the x track"}}}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"language": "en", "zones": {"deck": {"one": "deck", "shown": True}}}, schema)


# ---- in the browser: the view the page gets, and the page that shows it
starlette = pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from rulecraft.server.app import create_app  # noqa: E402
from rulecraft.server.store import StoredGame  # noqa: E402
from rulecraft.server.tables import HUMAN, Table  # noqa: E402


def test_the_browser_view_and_page_carry_the_minute(tmp_path):
    with TestClient(create_app(shipped_rulesets(), tmp_path / "games.sqlite")) as c:
        r = c.post("/api/games", json={"ruleset": "stationfall", "seats": ["human", "random", "random"], "seed": 4})
        assert r.status_code == 201, r.text
        link = r.json()["links"]["p1"]
        view = c.get(link.replace("/game/", "/api/games/")).json()
        spectator = c.get(r.json()["links"]["spectator"].replace("/game/", "/api/games/")).json()
        page = c.get(link).text
        script = c.get("/static/table.js").text
    assert view["counters"] and view["counters"][0]["name"] == "Minute"
    assert view["counters"][0]["text"] == f"Minute {view['counters'][0]['value']}"
    assert int(view["counters"][0]["value"]) <= 13
    assert spectator["counters"] == view["counters"]  # public: every seat and the spectator see it
    assert 'id="counters"' in page and "v.counters" in script


def test_a_served_table_follows_the_minute():
    rs = ruleset("stationfall")
    table = Table(StoredGame("g", "stationfall", None, 3, 4, {"p1": HUMAN, "p2": "random", "p3": "random"}, {}, []),
                  rs)
    rng = random.Random(2)
    values = set()
    while table.game.pending is not None and len(values) < 3:
        message = table.view_message("p1")
        minute = table.game.state.vars["game"]["minute"]
        assert {"name": "Minute", "value": str(minute), "text": f"Minute {minute}"} in message["counters"]
        values.add(minute)
        table.game.choose(rng.randrange(len(table.game.pending.options)))
    assert len(values) == 3


# ---- an action of many variants, asked step by step
def _trade_table(players: int) -> Table:
    rs = ruleset("star_trek_panic")
    seats = {f"p{i + 1}": HUMAN if i == 0 else "random" for i in range(players)}
    table = Table(StoredGame("g", "star_trek_panic", None, players, 5, seats, {}, []), rs)
    assert table.game.pending.player == "p1"
    return table


@pytest.mark.parametrize("players", [2, 3])
def test_the_trades_are_asked_card_then_player_then_card_and_every_option_stays(players):
    table = _trade_table(players)
    message = table.view_message("p1")
    pending = table.game.pending.options
    # the options of the choice are the engine's, as they were: bots choose among the same
    assert [o["option"] for o in message["options"]] == pending
    bot = make_bot("random", 1)
    assert view_for(table.game, bot, "p1")["choice"]["options"] == pending
    # every option is one leaf of the menu, once, in the engine's order
    menu = message["menu"]
    assert leaves(menu) == list(range(len(pending)))
    trades = [i for i, o in enumerate(pending) if o.get("action") == "trade"]
    assert len(trades) > 30  # a hand of cards times the others' hands: too many buttons at once
    groups = [item for item in menu if "items" in item]
    assert [g["label"] for g in groups] == ["Trade a card"]
    trade = groups[0]
    assert trade["count"] == len(trades) and sorted(leaves([trade])) == trades
    assert trade["ask"] == "card given"
    hand = table.game.view("p1")["zones"]["hand:p1"]
    assert len(trade["items"]) == len(hand)  # first, which card to give: one group a card
    first = trade["items"][0]
    given = pending[leaves([first])[0]]["args"]["give"]
    assert all(pending[i]["args"]["give"] == given for i in leaves([first]))
    if players == 2:  # one other player: which card to take from them
        assert first["ask"] == "card taken"
        assert all("option" in leaf for leaf in first["items"])
    else:  # then from whom, then which of their cards
        assert first["ask"] == "other player"
        assert [g["label"] for g in first["items"]] == ["p2", "p3"]
        assert first["items"][0]["ask"] == "card taken"
    # a leaf says what its groups have not: the card taken, not the card given again
    leaf = next(item for item in first["items"] if "option" in item) if players == 2 else first["items"][0]["items"][0]
    words = Words(ruleset("star_trek_panic"))
    assert words.name(pending[leaf["option"]]["args"]["take"]) in leaf["label"]
    assert words.name(given) not in leaf["label"]


def test_a_choice_of_few_variants_is_left_as_it_is():
    table = _trade_table(2)
    pending = table.game.pending.options
    menu = option_menu(pending, table.words, most=len(pending))
    assert menu == [{"option": i} for i in range(len(pending))]


def test_a_leaf_chosen_from_the_menu_plays_that_very_option(tmp_path):
    with TestClient(create_app(shipped_rulesets(), tmp_path / "games.sqlite")) as c:
        r = c.post("/api/games", json={"ruleset": "star_trek_panic", "seats": ["human", "random"], "seed": 5})
        link = r.json()["links"]["p1"]
        view = c.get(link.replace("/game/", "/api/games/")).json()
        trade = next(item for item in view["menu"] if "items" in item)
        index = trade["items"][1]["items"][2]["option"]
        chosen = view["options"][index]["option"]
        with c.websocket_connect(link.replace("/game/", "/ws/", 1)) as ws:
            ws.receive_json()
            ws.send_text(json.dumps({"type": "choose", "step": view["decisions"], "option": chosen}))
            after = ws.receive_json()
    assert after["type"] == "view"
    told = " ".join(after["events"])
    assert "p1: Trade a card: " + view["options"][index]["label"].split(": ", 1)[1] in told
    assert "p1 and p2 trade a card each." in told


# ---- events told as sentences
def _told(name: str, players: int, seeds=range(3)) -> dict[str, str]:
    rs = ruleset(name)
    said: dict[str, str] = {}
    for seed in seeds:
        game = Game(rs, players, seed)
        rng = random.Random(seed)
        while not game.over and len(game.events) < 3000:
            game.choose(rng.randrange(len(game.pending.options)))
        words = Words(rs)
        view = game.view("p1")
        words.know_view(view)
        for event, text in zip(view["events"], words.tell(view["events"])):
            said.setdefault(event["type"], text)
    return said


def test_the_enterprise_turning_reads_as_a_sentence():
    rs = ruleset("star_trek_panic")
    words = Words(rs)
    words.know_view(Game(rs, 2, 1).view("p1"))
    assert words.event({"type": "ship_rotated", "steps": 5}) == "The Enterprise turns clockwise by 5 of its six facings."
    assert words.event({"type": "traded", "player": "p2", "other": "p1"}) == "p2 and p1 trade a card each."


@pytest.mark.parametrize("name, players", [("star_trek_panic", 3), ("stationfall", 3)])
def test_no_event_of_these_games_reads_as_its_raw_fields(name, players):
    told = _told(name, players)
    raw = {kind: text for kind, text in told.items() if re.search(r"\(\w[\w ]*: ", text)}
    assert not raw, raw
    # a sentence that opens with a player's id keeps its case, as the engine's own do
    assert all(not re.match(r"P\d", text) for text in told.values()), told


def test_a_scripted_seat_is_told_by_its_script_word():
    told = _told("stationfall", 3, seeds=[0])
    assert told["scripted"] == "p4 (Lindsey) plays by the rules' script."


# ---- the zones of the table: one choice for the terminal and the browser
def test_the_terminal_and_the_browser_list_the_same_zones_of_the_table():
    for name, players, steps in (("star_trek_panic", 2, 30), ("stationfall", 3, 40), ("panic_station", 4, 60)):
        rs = ruleset(name)
        game = Game(rs, players, 3)
        rng = random.Random(3)
        for _ in range(steps):
            game.choose(rng.randrange(len(game.pending.options)))
        seats = {f"p{i + 1}": HUMAN for i in range(players)}
        table = Table(StoredGame("g", name, None, players, 3, seats, {}, []), rs)
        table.game = game
        view = game.view("p1")
        words = Words(rs)
        words.know_view(view)
        zones = table_zones(rs, view)
        assert zones, name
        served = [z["zone"] for z in table.view_message("p1")["table"]]
        assert len(served) == len(zones)
        terminal = "\n".join(Screens(rs, words, height=200).table(view))
        for zone, base, owner in zones:
            assert words.name(base)[1:] in terminal, (name, zone)
