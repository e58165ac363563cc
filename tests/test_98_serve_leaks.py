"""`rulecraft serve` keeps hidden information hidden:

- an undo never lets a person replay the same deal knowing more: a decision that showed
  its player something hidden (a card revealed, the next card of a pile, a count computed
  from secret properties) or that a bot answered, from what only the bot sees, stays;
  a decision that showed nothing may still be taken back;
- the spectator sees only what every seat sees, events included;
- a bot's seat has no link: its page would show the bot's hand.
"""

from __future__ import annotations

import json
import random
import re

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from rulecraft.cli.common import shipped_rulesets  # noqa: E402
from rulecraft.interpreter.views import HIDDEN, visible_event  # noqa: E402
from rulecraft.server.app import create_app  # noqa: E402
from rulecraft.server.games import Server  # noqa: E402
from rulecraft.server.tables import BOT_ANSWERED, HUMAN, SHOWED_OTHERS, SHOWED_YOU, RefusedMove  # noqa: E402
from rulecraft.spiel.observer import public_view  # noqa: E402


def serve(tmp_path, name: str) -> Server:
    return Server({name: shipped_rulesets()[name]}, tmp_path / "games.sqlite")


def play_until(server: Server, table, seed: int, found, prefer: str | None = None, limit: int = 400):
    """Play the table's choices (every seat a person's) with a generator seeded by
    ``seed``, taking an action named ``prefer`` whenever one is offered, until a decision
    makes ``found(option, events it caused)`` true: that decision's player."""
    rnd = random.Random(seed)
    for _ in range(limit):
        pending = table.game.pending
        assert pending is not None, "the game ended first"
        wanted = [o for o in pending.options if isinstance(o, dict) and o.get("action") == prefer]
        option = wanted[0] if wanted else pending.options[rnd.randrange(len(pending.options))]
        first = len(table.game.events)
        table.decide(server.store, pending.player, option)
        if found(option, table.game.events[first:]):
            return pending.player
    raise AssertionError("no such decision")


# ---- undo


def test_kuhn_a_bet_the_bot_answered_cannot_be_undone_to_play_the_deal_again(tmp_path):
    """Reproduction 1a: the person bets, the bot calls or folds (from its card), the
    hand is over; taking the bet back would let the person play the same deal knowing
    the bot's answer, or its card."""
    with TestClient(create_app({"kuhn_poker": shipped_rulesets()["kuhn_poker"]}, tmp_path / "g.sqlite")) as c:
        for seed in range(1, 5):
            game = c.post("/api/games", json={"ruleset": "kuhn_poker", "seats": [HUMAN, "random"],
                                              "seed": seed}).json()
            with c.websocket_connect(game["links"]["p1"].replace("/game/", "/ws/")) as ws:
                view = ws.receive_json()
                bet = next(o["option"] for o in view["options"] if o["option"]["action"] == "bet")
                ws.send_text(json.dumps({"type": "choose", "option": bet}))
                after = ws.receive_json()
                assert after["result"] is not None  # the bot answered: the hand is over
                assert not after["can_undo"]
                ws.send_text(json.dumps({"type": "undo"}))
                assert ws.receive_json()["message"] == f"cannot undo: {BOT_ANSWERED}"


def test_kuhn_between_two_people_a_bet_is_undone_but_a_showdown_is_not(tmp_path):
    server = serve(tmp_path, "kuhn_poker")
    table = server.tables[server.create({"ruleset": "kuhn_poker", "seats": [HUMAN, HUMAN], "seed": 3})["game"]]
    start = table.view_message("p1")
    bet = next(o["option"] for o in start["options"] if o["option"]["action"] == "bet")
    table.decide(server.store, "p1", bet)
    # the bet showed p1 nothing: the other card could be any, p1's view would be the same
    assert table.undo_problem("p1") is None
    table.undo(server.store, "p1")
    assert table.view_message("p1") == start
    table.decide(server.store, "p1", bet)
    call = next(o for o in table.game.pending.options if o["action"] == "bet")
    table.decide(server.store, "p2", call)
    assert table.game.over and any(e["type"] == "revealed" for e in table.game.events)
    assert table.undo_problem("p2") == SHOWED_YOU
    assert not table.view_message("p2")["can_undo"]


def test_stationfall_another_players_identity_shown_cannot_be_undone(tmp_path):
    """Reproduction 1b: a decision after which another player's secret identity is
    revealed to the decider."""
    server = serve(tmp_path, "stationfall")
    table = server.tables[server.create({"ruleset": "stationfall", "seats": [HUMAN] * 3, "seed": 2})["game"]]

    def reveals_anothers_identity(option, caused):
        player = table.history[-1].player
        return any(e["type"] == "revealed" and e.get("property") == "identity" and e["entity"] != player
                   and player in e["players"] for e in caused)
    player = play_until(server, table, 2, reveals_anothers_identity)
    assert table.undo_problem(player) == SHOWED_YOU
    # revealing one's own identity shows the others something, not oneself
    table = server.tables[server.create({"ruleset": "stationfall", "seats": [HUMAN] * 3, "seed": 1})["game"]]
    player = play_until(server, table, 1, lambda option, caused: isinstance(option, dict)
                        and option.get("action") == "reveal_identity")
    assert table.undo_problem(player) == SHOWED_OTHERS


def test_panic_station_laying_a_tile_shows_the_next_exploration_card_and_stays(tmp_path):
    """Reproduction 1c: the exploration pile shows its top card only; laying that one
    shows the next, which the player must not be able to take back."""
    server = serve(tmp_path, "panic_station")
    table = server.tables[server.create({"ruleset": "panic_station", "seats": [HUMAN] * 4, "seed": 1})["game"]]
    top = table.game.view("p1")["zones"]["exploration_deck"]["top"]
    player = play_until(server, table, 1, lambda option, caused: isinstance(option, dict)
                        and set(option) == {"x", "y", "rotation"}, prefer="explore")
    assert table.game.view(player)["zones"]["exploration_deck"]["top"] != top
    assert table.undo_problem(player) == SHOWED_YOU


def test_panic_station_a_heat_scan_counts_secret_properties_and_stays(tmp_path):
    """Reproduction 1c: the scan's count of infected players is public, but computed
    from who is infected. No event of it names anything hidden: the state before it,
    its secrets dealt otherwise, gives another count."""
    server = serve(tmp_path, "panic_station")
    game = server.create({"ruleset": "panic_station", "seats": [HUMAN] * 4, "seed": 5})
    table = server.tables[game["game"]]
    player = play_until(server, table, 12, lambda option, caused: any(e["type"] == "heat_scan" for e in caused),
                        prefer="terminal_heat_scan")
    assert table.history[-1].undoable  # its events alone reveal nothing
    assert table.undo_problem(player) == SHOWED_YOU
    with pytest.raises(RefusedMove, match="it showed you something hidden"):
        table.undo(server.store, player)
    # decided the same way by a restarted server, which replays the game
    again = Server({"panic_station": shipped_rulesets()["panic_station"]}, tmp_path / "games.sqlite")
    resumed, _ = again.seat_of(game["game"], game["links"][player].rsplit("/", 1)[1])
    assert resumed.undo_problem(player) == SHOWED_YOU


def test_star_trek_a_card_drawn_from_the_face_down_deck_stays(tmp_path):
    """Reproduction 1d: a card that comes out of the Enterprise deck (seen by nobody)
    into a hand."""
    server = serve(tmp_path, "star_trek_panic")
    table = server.tables[server.create({"ruleset": "star_trek_panic", "seats": [HUMAN] * 2, "seed": 8})["game"]]

    def drawn(option, caused):
        # a decision that also rolled a die is refused for the roll, whatever it showed
        return not any(e["type"] == "rolled" for e in caused) and any(
            e["type"] == "moved" and (e.get("source") or "").startswith("enterprise")
            and (e.get("destination") or "").startswith("hand") for e in caused)
    player = play_until(server, table, 0, drawn)
    assert "count" in table.game.view(player)["zones"]["enterprise_deck"]  # a pile nobody sees into
    assert table.undo_problem(player) == SHOWED_YOU


def test_panic_station_a_move_that_shows_nothing_is_undone(tmp_path):
    server = serve(tmp_path, "panic_station")
    table = server.tables[server.create({"ruleset": "panic_station", "seats": [HUMAN] * 4, "seed": 3})["game"]]
    seen = {}

    def a_move(option, caused):
        return isinstance(option, dict) and option.get("action") == "move"

    # what the mover saw before its move: the page it will come back to
    rnd_check = random.Random(2)
    for _ in range(400):
        pending = table.game.pending
        option = pending.options[rnd_check.randrange(len(pending.options))]
        if a_move(option, []):
            seen = table.view_message(pending.player)
            table.decide(server.store, pending.player, option)
            break
        table.decide(server.store, pending.player, option)
    player = seen["seat"]
    assert table.view_message(player)["can_undo"] and table.undo_problem(player) is None
    table.undo(server.store, player)
    back = table.view_message(player)
    assert back["decisions"] == seen["decisions"] and back["options"] == seen["options"]
    assert back["board"] == seen["board"] and back["hand"] == seen["hand"]


def test_a_bot_answering_a_persons_plain_decision_keeps_it(tmp_path):
    """In a game with hidden parts, a bot's answer comes from its own secrets: the
    person's decision before it stays, whatever it was, when the bot chose among several
    options (a forced answer: tests/test_98_serve_undo_forced.py)."""
    server = serve(tmp_path, "panic_station")
    table = server.tables[server.create({"ruleset": "panic_station", "seats": [HUMAN, "random", "random", "random"],
                                         "seed": 3})["game"]]
    rnd = random.Random(3)
    for _ in range(300):
        pending = table.game.pending
        before = len(table.history)
        table.decide(server.store, "p1", pending.options[rnd.randrange(len(pending.options))])
        mine = table.history[before]
        if mine.undoable and any(not d.forced for d in table.history[before + 1:]):
            assert table.undo_problem("p1") == BOT_ANSWERED
            return
    raise AssertionError("no plain decision of the person's was answered by a bot")


# ---- the spectator


def _restricted(ruleset) -> set[str]:
    return {p for kind in ruleset.data.kinds.values() for p, spec in kind.properties.items()
            if spec.visible_to != "everyone"}


def _shown_alike(spectator, seat) -> bool:
    """Whether the spectator's part of an event is the seat's, but for what it hides."""
    if spectator == HIDDEN:
        return True
    if isinstance(spectator, dict):
        return isinstance(seat, dict) and all(k == "seq" or (k in seat and _shown_alike(v, seat[k]))
                                              for k, v in spectator.items())
    return spectator == seat


@pytest.mark.parametrize("name, players, seed", [("panic_station", 5, 7), ("stationfall", 3, 5)])
def test_the_spectator_sees_no_event_some_seat_does_not_see(tmp_path, name, players, seed):
    """Reproduction of finding 2: every event a spectator is shown, every seat is shown
    too, with the same values (what they see differently shown as hidden); its page holds
    no value of a property some seat does not see."""
    server = serve(tmp_path, name)
    table = server.tables[server.create({"ruleset": name, "seats": ["random"] * players, "seed": seed})["game"]]
    game, state, rs = table.game, table.game.state, table.ruleset
    seats = list(state.players)
    spectator = table.view_message("spectator")
    assert len(spectator["events"]) > 100
    secret = _restricted(rs)
    leaked_values = 0
    for event in game.events:
        shown = visible_event(rs, state, event, "spectator")
        by_seat = {p: visible_event(rs, state, event, p) for p in seats}
        if shown is None:
            if event["type"] == "changed" and event["property"] in secret:
                # what a seat that sees it reads is not on the spectator's page
                text = next((table.words.event(s) for s in by_seat.values() if s is not None), None)
                if text is not None and any(s is None for s in by_seat.values()):
                    assert text not in spectator["events"]
                    leaked_values += 1
            continue
        for p, s in by_seat.items():
            assert s is not None and _shown_alike(shown, s), (p, event)
    assert leaked_values > 0, "the game changed secret properties: each stayed off the spectator's page"
    # the spectator's view holds no secret property's value either
    for eid, e in table.game.view("spectator")["entities"].items():
        assert not set(e["props"]) & secret, eid
    # OpenSpiel's public view is the same view
    assert public_view(rs, state, game.events)["events"] == game.view("spectator")["events"]


# ---- links


def test_a_bots_seat_gets_no_link(tmp_path):
    from dataclasses import replace

    with TestClient(create_app({"kuhn_poker": shipped_rulesets()["kuhn_poker"]}, tmp_path / "g.sqlite")) as c:
        game = c.post("/api/games", json={"ruleset": "kuhn_poker", "seats": [HUMAN, "random"], "seed": 4}).json()
        assert set(game["links"]) == {"p1", "spectator"}
        assert game["seats"] == {"p1": HUMAN, "p2": "random"}
        server = c.app.state.server
        table = server.tables[game["game"]]
        assert set(table.stored.tokens) == {"p1", "spectator"}
        # the bot still plays its seat
        view = c.get(game["links"]["p1"].replace("/game/", "/api/games/")).json()
        with c.websocket_connect(game["links"]["p1"].replace("/game/", "/ws/")) as ws:
            ws.receive_json()
            ws.send_text(json.dumps({"type": "choose", "option": view["options"][0]["option"]}))
            assert ws.receive_json()["decisions"] >= 2
        assert any(d.player == "p2" for d in table.history)
        # a game stored before holds a token for the bot's seat too: it opens nothing
        old = replace(table.stored, id="0123456789ab", tokens={**table.stored.tokens, "p2": "bot-seat-token"},
                      decisions=[])
        server.store.create(old)
        server.resumable[old.id] = old
        with pytest.raises(RefusedMove, match="played by a bot"):
            server.seat_of(old.id, "bot-seat-token")
        assert c.get(f"/api/games/{old.id}/bot-seat-token").status_code == 404
        assert "hand" not in c.get(f"/api/games/{old.id}/bot-seat-token").text
        with c.websocket_connect(f"/ws/{old.id}/bot-seat-token") as ws:
            assert "played by a bot" in ws.receive_json()["message"]
        assert c.get(f"/api/games/{old.id}/{table.stored.tokens['p1']}").json()["seat"] == "p1"


def test_the_lobby_lists_a_bots_seat_without_a_link(tmp_path):
    """In the lobby (headless Chromium, as tests/test_99_serve_browser.py drives it): a
    link for the person and the spectator, the bot's seat named with its bot."""
    browsers = pytest.importorskip("test_99_serve_browser")
    browsers.browser()  # skips without Chromium
    port = browsers.free_port()
    app = create_app({"tic_tac_toe": shipped_rulesets()["tic_tac_toe"]}, tmp_path / "g.sqlite")
    server = browsers.uvicorn.Server(browsers.uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    import threading
    import time
    import urllib.request

    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + browsers.SLOW
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    proc, url = browsers._start_chromium(tmp_path, f"http://127.0.0.1:{port}/")
    try:
        devtools = re.search(r":(\d+)/", url).group(1)
        page = None
        while page is None and time.monotonic() < deadline + browsers.SLOW:
            pages = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{devtools}/json/list").read())
            page = next((p for p in pages if p.get("type") == "page"), None)
            time.sleep(0.05)
        tools = browsers.DevTools(page["webSocketDebuggerUrl"])
        try:
            tools.wait_for("document.querySelectorAll('#ruleset option').length > 0")
            tools.wait_for("!!document.getElementById('seat-p2')")
            tools.js("document.getElementById('seat-p2').value = 'random'")
            tools.js("document.getElementById('create').click()")
            tools.wait_for("!!document.getElementById('link-p1')")
            assert tools.js("!!document.getElementById('link-spectator')")
            assert tools.js("document.getElementById('link-p2') === null")
            assert tools.js("document.getElementById('bot-p2').textContent") == "played by the random bot"
            assert tools.js("document.querySelectorAll('#link-table tr').length") == 3
        finally:
            tools.close()
    finally:
        browsers._stop(proc)
        server.should_exit = True
        thread.join(10)


# ---- what a page is sent during a round of bots, and of the players


def test_each_view_sent_during_a_round_of_bots_is_what_the_seat_saw_then(tmp_path, monkeypatch):
    """A page that follows every decision (``?steps=1``, as the table page does) is sent a
    view after each bot's answer: each one is its seat's view at that step, the same the
    History shows for it (the seat's own view then), and no frame names a token."""
    from rulecraft.server import games

    monkeypatch.setattr(games, "STEP_GAP", 0)  # quick bots' decisions sent one by one, as slow ones' are
    with TestClient(create_app({"panic_station": shipped_rulesets()["panic_station"]}, tmp_path / "g.sqlite")) as c:
        game = c.post("/api/games", json={"ruleset": "panic_station", "seats": [HUMAN, "random", "random", "random"],
                                          "seed": 4}).json()
        table = c.app.state.server.tables[game["game"]]
        tokens = [link.rsplit("/", 1)[1] for link in [*game["links"].values(), game["organiser"]]]
        pages = {seat: c.websocket_connect(game["links"][seat].replace("/game/", "/ws/") + "?steps=1").__enter__()
                 for seat in ("p1", "spectator")}
        frames: list[str] = []
        seen: dict[str, list] = {seat: [] for seat in pages}
        events: dict[str, list] = {seat: [] for seat in pages}

        def receive(seat: str) -> dict:
            text = pages[seat].receive_text()
            frames.append(text)
            view = json.loads(text)
            if view["type"] == "view":  # its events after those the page has, as the page keeps them
                events[seat] = events[seat][:view["events_from"]] + view["events"]
                seen[seat].append({**view, "events": events[seat]})
            return view

        try:
            view = receive("p1")
            receive("spectator")
            rounds = 0
            while rounds < 3 and view["result"] is None:
                ends = [o["option"] for o in view["options"] if "end" in str(o["option"].get("action", ""))]
                option = (ends or [view["options"][0]["option"]])[0]
                before = view["decisions"]
                pages["p1"].send_text(json.dumps({"type": "choose", "option": option, "step": before}))
                view = receive("p1")
                while view["bots_playing"]:
                    view = receive("p1")
                rounds += view["decisions"] > before + 1
                while not seen["spectator"] or seen["spectator"][-1]["decisions"] != view["decisions"]:
                    receive("spectator")
        finally:
            for ws in pages.values():
                ws.__exit__(None, None, None)
        during = [v for s in seen.values() for v in s if v["bots_playing"]]
        assert len(during) >= 6
        for seat, views in seen.items():
            for view in views:
                then = table.view_at(seat, view["decisions"])
                for part in ("board", "hand", "table", "beside", "players", "counters"):
                    assert view[part] == then[part], (seat, view["decisions"], part)
                # the same events (each worded as the view of its moment named things then)
                assert len(view["events"]) == len(then["events"]), (seat, view["decisions"])
        assert not [t for t in tokens if any(t in frame for frame in frames)]


def test_names_are_shown_to_every_page_and_are_all_a_page_learns_of_the_others(tmp_path):
    """A person's name is public: every seat's page and the spectator's show it; nothing
    else of another seat's (its token) comes with it."""
    with TestClient(create_app({"kuhn_poker": shipped_rulesets()["kuhn_poker"]}, tmp_path / "g.sqlite")) as c:
        game = c.post("/api/games", json={"ruleset": "kuhn_poker", "seats": [HUMAN, HUMAN], "seed": 2}).json()
        with c.websocket_connect(game["links"]["p1"].replace("/game/", "/ws/")) as p1:
            p1.receive_json()
            p1.send_text(json.dumps({"type": "name", "name": "Ada"}))
            p1.receive_json()
        for seat in ("p1", "p2", "spectator"):
            text = c.get(game["links"][seat].replace("/game/", "/api/games/")).text
            view = json.loads(text)
            assert [p["name"] for p in view["players"]] == ["Ada", None]
            others = [link.rsplit("/", 1)[1] for s, link in game["links"].items() if s != seat]
            assert not [t for t in [*others, game["organiser"].rsplit("/", 1)[1]] if t in text]
