"""`rulecraft serve` over HTTP and WebSocket: games created in the lobby, played to the
end against a bot, refused input that changes nothing, one seat's frames free of the
other seats' hidden cards, a restarted server resuming the game, and undo."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from rulecraft.cli.common import shipped_rulesets  # noqa: E402
from rulecraft.server.app import create_app  # noqa: E402
from rulecraft.server.tables import HUMAN  # noqa: E402


@pytest.fixture
def db(tmp_path):
    return tmp_path / "games.sqlite"


def client(db) -> TestClient:
    return TestClient(create_app(shipped_rulesets(), db))


def new_game(c: TestClient, ruleset: str, seats: list[str], seed: int = 7) -> dict:
    r = c.post("/api/games", json={"ruleset": ruleset, "seats": seats, "seed": seed})
    assert r.status_code == 201, r.text
    return r.json()


def ws_path(link: str) -> str:
    return link.replace("/game/", "/ws/", 1)


def send(ws, message) -> dict:
    ws.send_text(json.dumps(message))
    return ws.receive_json()


def test_lobby_and_pages_are_served_locally(db):
    with client(db) as c:
        lobby = c.get("/")
        assert lobby.status_code == 200 and "lobby.js" in lobby.text
        for asset in ("lobby.js", "table.js", "style.css", "table.html"):
            assert c.get(f"/static/{asset}").status_code == 200
        # no page loads anything from another host
        for page in ("lobby.html", "table.html"):
            assert "http" not in c.get(f"/static/{page}").text
        names = {r["name"]: r for r in c.get("/api/rulesets").json()}
        assert {"tic_tac_toe", "connect_four", "panic_station"} <= set(names)
        assert "heuristic" in names["panic_station"]["bots"] and "heuristic" not in names["tic_tac_toe"]["bots"]
        assert "four_gas_cans" in names["panic_station"]["variants"]
        game = c.post("/api/games", json={"ruleset": "panic_station", "variant": "four_gas_cans",
                                          "seats": [HUMAN, "heuristic", "random", "random"]})
        assert game.status_code == 201
        table = c.app.state.server.tables[game.json()["game"]]
        assert table.ruleset.variant.name == "four_gas_cans"
        assert "no variant" in c.post("/api/games", json={"ruleset": "panic_station", "variant": "../x",
                                                           "seats": [HUMAN] * 4}).json()["error"]


def test_tic_tac_toe_played_to_the_end_against_a_bot(db):
    with client(db) as c:
        game = new_game(c, "tic_tac_toe", [HUMAN, "random"])
        # a link for the person and the spectator only: the bot's seat has no page
        assert set(game["links"]) == {"p1", "spectator"}
        assert game["seats"] == {"p1": HUMAN, "p2": "random"}
        assert c.get(game["links"]["p1"]).status_code == 200
        with c.websocket_connect(ws_path(game["links"]["p1"])) as ws:
            view = ws.receive_json()
            assert view["seat"] == "p1" and len(view["options"]) == 9
            assert view["board"].startswith("<svg") and view["board"].count('class="space"') == 9
            moves = 0
            events = view["events"]
            while view["result"] is None:
                view = send(ws, {"type": "choose", "option": view["options"][0]["option"]})
                assert view["type"] == "view"
                # each view carries only the events the page does not have yet
                assert view["events_from"] == len(events)
                events = events + view["events"]
                moves += 1
                # the bot answered at once: it is p1's choice again, or the game is over
                assert view["options"] or view["result"]
            assert 3 <= moves <= 5
            assert view["result"]["text"]
            assert any("mark" in e for e in view["events"])
            assert events == c.get(game["links"]["p1"].replace("/game/", "/api/games/")).json()["events"]
        spectator = c.get(game["links"]["spectator"].replace("/game/", "/api/games/")).json()
        assert spectator["options"] == [] and spectator["result"] == view["result"]


def test_bad_input_is_refused_and_changes_nothing(db):
    with client(db) as c:
        one = new_game(c, "tic_tac_toe", [HUMAN, HUMAN])
        other = new_game(c, "tic_tac_toe", [HUMAN, HUMAN])
        with c.websocket_connect(ws_path(one["links"]["p1"])) as ws:
            view = ws.receive_json()
            forged = send(ws, {"type": "choose", "option": {"action": "mark", "args": {"s": "z9"}}})
            assert forged == {"type": "error", "message": "that is not one of the options you were offered"}
            ws.send_text("{not json")
            assert "malformed JSON" in ws.receive_json()["message"]
            assert "names another game" in send(ws, {"type": "choose", "game": other["game"],
                                                     "option": view["options"][0]["option"]})["message"]
            assert "send" in send(ws, ["choose"])["message"]
            stale = {"type": "choose", "step": 3, "option": view["options"][0]["option"]}
            assert "moved on" in send(ws, stale)["message"]
        # p2 may not answer p1's choice
        with c.websocket_connect(ws_path(one["links"]["p2"])) as ws:
            ws.receive_json()
            assert "not your choice" in send(ws, {"type": "choose", "option": view["options"][0]["option"]})["message"]
        # a seat token of another game
        stolen = f"/ws/{one['game']}/{other['links']['p1'].rsplit('/', 1)[1]}"
        with c.websocket_connect(stolen) as ws:
            assert "not a seat of this game" in ws.receive_json()["message"]
        assert c.get(f"/game/{one['game']}/{other['links']['p1'].rsplit('/', 1)[1]}").status_code == 404
        after = c.get(one["links"]["p1"].replace("/game/", "/api/games/")).json()
        assert after["decisions"] == 0 and after["options"] == view["options"]
        # a lobby request that makes no sense
        assert c.post("/api/games", content=b"{").json() == {"error": "the request is not JSON"}
        assert "no rule set" in c.post("/api/games", json={"ruleset": "chess", "seats": []}).json()["error"]
        assert "seats" in c.post("/api/games", json={"ruleset": "tic_tac_toe", "seats": [HUMAN]}).json()["error"]
        assert "heuristic" in c.post("/api/games", json={"ruleset": "tic_tac_toe",
                                                          "seats": [HUMAN, "heuristic"]}).json()["error"]


def _hidden_from(table, viewer: str) -> set[str]:
    """Cards in the other players' face-down zones that the viewer's view does not show."""
    state = table.game.state
    seen = json.dumps(table.game.view(viewer))
    hidden = set()
    for zone, items in state.zones.items():
        owner = zone.partition(":")[2]
        if owner and owner != viewer:
            hidden |= {i for i in items if i not in seen}
    return hidden


def test_a_seats_frames_never_carry_another_seats_hidden_cards(db):
    app = create_app(shipped_rulesets(), db)
    with TestClient(app) as c:
        game = new_game(c, "panic_station", [HUMAN] * 4, seed=11)
        table = app.state.server.tables[game["game"]]
        sockets = {p: c.websocket_connect(ws_path(game["links"][p])) for p in ("p1", "p2", "p3", "p4", "spectator")}
        opened = {p: s.__enter__() for p, s in sockets.items()}
        try:
            frames = {p: [ws.receive_text()] for p, ws in opened.items()}
            checked = 0
            for _ in range(25):
                chooser = table.game.pending.player
                assert chooser != "spectator"
                view = json.loads(frames[chooser][-1])
                opened[chooser].send_text(json.dumps({"type": "choose", "option": view["options"][-1]["option"]}))
                for p, ws in opened.items():  # every page gets the new view
                    frames[p].append(ws.receive_text())
                for viewer in ("p1", "spectator"):
                    hidden = _hidden_from(table, viewer)
                    assert hidden, "the other players hold face-down cards"
                    for card in hidden:
                        assert card not in frames[viewer][-1]
                        checked += 1
            assert checked > 100
        finally:
            for s in sockets.values():
                s.__exit__(None, None, None)


def test_a_restarted_server_resumes_the_game(db):
    with client(db) as c:
        game = new_game(c, "connect_four", [HUMAN, "random"])
        with c.websocket_connect(ws_path(game["links"]["p1"])) as ws:
            view = ws.receive_json()
            for _ in range(3):
                view = send(ws, {"type": "choose", "option": view["options"][0]["option"]})
        before = c.get(game["links"]["p1"].replace("/game/", "/api/games/")).json()
    with client(db) as c:  # a new server on the same file
        after = c.get(game["links"]["p1"].replace("/game/", "/api/games/")).json()
        assert after == before and after["decisions"] == 6
        with c.websocket_connect(ws_path(game["links"]["p1"])) as ws:
            assert ws.receive_json() == before
            assert send(ws, {"type": "choose", "option": before["options"][0]["option"]})["decisions"] == 8


def test_undo_takes_back_a_decision_that_revealed_nothing(db):
    with client(db) as c:
        game = new_game(c, "tic_tac_toe", [HUMAN, "random"])
        with c.websocket_connect(ws_path(game["links"]["p1"])) as ws:
            start = ws.receive_json()
            assert not start["can_undo"]
            assert "no decision yet" in send(ws, {"type": "undo"})["message"]
            played = send(ws, {"type": "choose", "option": start["options"][4]["option"]})
            assert played["decisions"] == 2 and played["can_undo"]  # p1's and the bot's
            undone = send(ws, {"type": "undo"})
            assert undone["decisions"] == 0 and undone["options"] == start["options"]
            assert undone["board"] == start["board"]
            assert undone["events_from"] == 0 and undone["events"] == start["events"]  # fewer events: all again
    with client(db) as c:  # the undo is stored too
        assert c.get(game["links"]["p1"].replace("/game/", "/api/games/")).json()["decisions"] == 0


def test_undo_is_refused_after_another_person_decided(db):
    with client(db) as c:
        game = new_game(c, "tic_tac_toe", [HUMAN, HUMAN])
        with c.websocket_connect(ws_path(game["links"]["p1"])) as p1, \
                c.websocket_connect(ws_path(game["links"]["p2"])) as p2:
            view = p1.receive_json()
            p2.receive_json()
            send(p1, {"type": "choose", "option": view["options"][0]["option"]})
            theirs = p2.receive_json()  # p2's page learns at once that the choice is theirs
            assert theirs["options"] and theirs["current"] == "p2"
            send(p2, {"type": "choose", "option": theirs["options"][0]["option"]})
            p1.receive_json()
            assert "another player has decided since" in send(p1, {"type": "undo"})["message"]


def test_undo_is_decided_from_what_the_decision_caused(db):
    """Panic Station: some decisions draw from the random generator or move cards out of
    sight; those are never undoable, and plain ones are."""
    app = create_app(shipped_rulesets(), db)
    with TestClient(app):
        server = app.state.server
        game = server.create({"ruleset": "panic_station", "seats": [HUMAN] * 4, "seed": 5})
        table = server.tables[game["game"]]
        for _ in range(60):
            pending = table.game.pending
            table.decide(server.store, pending.player, pending.options[-1])
        kinds = {d.undoable for d in table.history}
        assert kinds == {True, False}
        for d in table.history:
            if not d.undoable:
                break
        # replaying to just after a non-undoable decision: its player may not undo it
        cut = table.history.index(d) + 1
        table.replay([h.option for h in table.history[:cut]])
        assert table.undo_problem(d.player) == d.kept_because
        assert d.kept_because in ("it rolled a die or drew at random", "some player does not see all that it caused",
                                  "it showed you something hidden", "it showed the other players something hidden")
        # a plain one (that showed nothing either: see test_98_serve_leaks) may be undone
        history = list(table.history)
        for plain, h in enumerate(history):
            if h.undoable:
                table.replay([d.option for d in history[:plain + 1]])
                if table.undo_problem(h.player) is None:
                    break
        else:
            raise AssertionError("no decision could be undone")


def test_the_past_is_shown_as_the_seat_saw_it(db):
    app = create_app(shipped_rulesets(), db)
    with TestClient(app) as c:
        game = new_game(c, "panic_station", [HUMAN, "random", "random", "random"], seed=7)
        table = app.state.server.tables[game["game"]]
        api = game["links"]["p1"].replace("/game/", "/api/games/")
        now = c.get(api).json()
        start = c.get(f"{api}/at/0").json()
        assert start["type"] == "past" and start["step"] == 0 and start["now"] == now["decisions"] > 0
        assert start["options"] == [] and not start["can_undo"]
        assert len(start["events"]) < len(now["events"])
        assert c.get(f"{api}/at/{now['decisions']}").json()["events"] == now["events"]
        assert "no step" in c.get(f"{api}/at/{now['decisions'] + 1}").json()["error"]
        # the past holds nothing of the other seats' hidden cards either
        for step in range(0, now["decisions"] + 1, max(1, now["decisions"] // 5)):
            past = table.view_at("p1", step)
            shown = json.dumps(past)
            replayed = type(table)(table.stored.__class__(**{**table.stored.__dict__,
                                   "decisions": [d.option for d in table.history[:step]]}), table.ruleset)
            assert not {card for card in _hidden_from(replayed, "p1") if card in shown}


def test_a_page_in_french(db):
    with client(db) as c:
        game = new_game(c, "panic_station", [HUMAN, "random", "random", "random"], seed=4)
        api = game["links"]["p1"].replace("/game/", "/api/games/")
        english, french = c.get(api).json(), c.get(f"{api}?lang=fr").json()
        assert english["decisions"] == french["decisions"]
        # the same board, its rooms labelled in the page's language
        rooms = re.compile(r'data-room="[^"]*"')
        assert rooms.findall(english["board"]) == rooms.findall(french["board"]) != []
        assert ">reactor<" not in english["board"] and ">Reactor<" in english["board"]
        assert "Réacteur" in french["board"]
        # the round in the rule set's word for it in each language
        assert "Round 1 begins." in english["events"] and "Le tour de jeu 1 commence." in french["events"]
        assert (english["round_word"], french["round_word"]) == ("Round", "Tour de jeu")
        # game words come from the rule set's French glossary
        assert any("pioche de cartes Fouille" in e for e in french["events"])
        assert french["events"] != english["events"]
        assert "rulecraft has no words in 'xx'" in c.get(f"{api}?lang=xx").json()["error"]
        with c.websocket_connect(ws_path(game["links"]["p1"]) + "?lang=fr") as ws:
            assert ws.receive_json()["events"] == french["events"]


def test_a_game_the_rules_no_longer_replay_is_left_out_with_a_reason(db, capsys):
    import sqlite3

    with client(db) as c:
        kept = new_game(c, "tic_tac_toe", [HUMAN, HUMAN])
        broken = new_game(c, "tic_tac_toe", [HUMAN, HUMAN])
    with sqlite3.connect(db) as raw:  # a stored decision the game never offered
        raw.execute("INSERT INTO decisions (game, step, option) VALUES (?, 0, 99)", (broken["game"],))
    with client(db) as c:
        assert c.get(kept["links"]["p1"].replace("/game/", "/api/games/")).status_code == 200
        assert c.get(broken["links"]["p1"].replace("/game/", "/api/games/")).status_code == 404
    assert f"game {broken['game']} (tic_tac_toe) not resumed" in capsys.readouterr().err


def test_a_move_that_fails_is_rolled_back_whole(db):
    from rulecraft.server.tables import RefusedMove

    app = create_app(shipped_rulesets(), db)
    with TestClient(app):
        server = app.state.server
        game = server.create({"ruleset": "tic_tac_toe", "seats": [HUMAN, "random"], "seed": 1})
        table = server.tables[game["game"]]
        before = table.view_message("p1")

        def broken(view):
            raise RuntimeError("the bot broke")
        table.bots["p2"].choose = broken
        with pytest.raises(RefusedMove, match="nothing was changed"):
            table.decide(server.store, "p1", before["options"][0]["option"])
        assert table.view_message("p1") == before
    with client(db) as c:  # nor was anything stored
        assert c.get(game["links"]["p1"].replace("/game/", "/api/games/")).json() == before


def test_heuristic_bots_play_their_seats_at_once(db):
    app = create_app(shipped_rulesets(), db)
    with TestClient(app) as c:
        game = new_game(c, "panic_station", ["heuristic", "heuristic", HUMAN, "heuristic"], seed=11)
        view = c.get(game["links"]["p3"].replace("/game/", "/api/games/")).json()
        table = app.state.server.tables[game["game"]]
        # the bots played until a choice fell to the person (or the game ended)
        assert table.game.pending is None or table.game.pending.player == "p3"
        assert view["options"] or view["result"]
        assert {d.player for d in table.history} >= {"p1", "p2"}


def test_the_command_line_refuses_what_it_cannot_serve(tmp_path, capsys):
    import socket

    from rulecraft.cli.main import main

    for argv in (["serve", "--port", "0"], ["serve", "no_such_game"]):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2
    assert main(["serve", "--port", "70000"]) == 2
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", str(tmp_path / "g.sqlite")]) == 1
    assert main(["serve", "--port", str(port), "--db", str(tmp_path / "no" / "such" / "g.sqlite")]) == 1
    err = capsys.readouterr().err
    assert "cannot use" in err and "as the games' database" in err
    assert f"cannot listen on 127.0.0.1:{port}" in err and "Traceback" not in err
    assert not (tmp_path / "g.sqlite").exists()


def test_the_seed_is_never_sent(db):
    app = create_app(shipped_rulesets(), db)
    with TestClient(app) as c:
        created = c.post("/api/games", json={"ruleset": "panic_station", "seats": [HUMAN] * 4})
        game = created.json()
        seed = str(app.state.server.tables[game["game"]].stored.seed)
        assert len(seed) > 6 and seed not in created.text
        for seat in ("p1", "p2", "p3", "p4", "spectator"):
            assert seed not in c.get(game["links"][seat].replace("/game/", "/api/games/")).text
            with c.websocket_connect(ws_path(game["links"][seat])) as ws:
                assert seed not in ws.receive_text()


@pytest.mark.parametrize("name", ["tic_tac_toe", "connect_four", "breakthrough", "hex"])
def test_declared_boards_are_drawn_space_by_space_with_their_pieces(name):
    from rulecraft.dsl.loader import load_checked
    from rulecraft.interpreter.game import Game
    from rulecraft.server.boards import board_picture

    rs = load_checked(shipped_rulesets()[name])
    game = Game(rs, 2, 1)
    for _ in range(4):
        game.choose(len(game.pending.options) // 2)
    view = game.view("p1")
    svg = board_picture(rs, view)
    assert svg.count('class="space"') == len(rs.data.board.spaces)
    pieces = {e: v for e, v in view["entities"].items() if v["at"] in rs.data.board.spaces}
    # a piece on a space is drawn in its owner's colour; a mark in a space likewise
    assert svg.count('class="piece"') == len(pieces)
    assert svg.count('class="piece"') + svg.count('class="mark"') > 0
    assert 'data-player=""' not in svg


def test_games_are_resumed_when_asked_for_and_finished_ones_leave_memory(db):
    app = create_app(shipped_rulesets(), db)
    with TestClient(app) as c:
        server = app.state.server
        finished = new_game(c, "tic_tac_toe", [HUMAN, "random"])
        waiting = new_game(c, "connect_four", [HUMAN, "random"])
        api = finished["links"]["p1"].replace("/game/", "/api/games/")
        with c.websocket_connect(ws_path(finished["links"]["p1"])) as ws:
            view = ws.receive_json()
            while view["result"] is None:
                view = send(ws, {"type": "choose", "option": view["options"][0]["option"]})
            assert finished["game"] in server.tables  # watched: kept
        # the last page of a finished game closed: the game leaves memory, not the store
        assert finished["game"] not in server.tables and waiting["game"] in server.tables
        again = c.get(api).json()
        assert again["result"] == view["result"] and again["decisions"] == view["decisions"]
        assert c.get(f"{api}/at/1").json()["decisions"] == 1
    restarted = create_app(shipped_rulesets(), db)
    with TestClient(restarted) as c:
        server = restarted.state.server
        # nothing is replayed before a page asks for it
        assert server.tables == {} and {finished["game"], waiting["game"]} <= set(server.resumable)
        view = c.get(waiting["links"]["spectator"].replace("/game/", "/api/games/")).json()
        assert view["seat"] == "spectator" and set(server.tables) == {waiting["game"]}
        assert waiting["game"] not in server.resumable


def test_a_seat_may_be_a_bot_with_settings_and_a_served_search_bot_answers_within_seconds(db):
    from rulecraft.server.games import Server

    with client(db) as c:
        game = new_game(c, "tic_tac_toe", [HUMAN, "mcts:8"])
        served = new_game(c, "tic_tac_toe", ["mcts", HUMAN])
        refused = c.post("/api/games", json={"ruleset": "tic_tac_toe", "seats": [HUMAN, "mcts:0"]}).json()["error"]
        assert "not 'mcts:0'" in refused and "iterations per decision must be a positive whole number" in refused
        assert "not 7" in c.post("/api/games", json={"ruleset": "tic_tac_toe", "seats": [HUMAN, 7]}).json()["error"]
    resumed = Server(shipped_rulesets(), db)  # the games as stored
    table = resumed.seat_of(game["game"], game["links"]["p1"].rsplit("/", 1)[1])[0]
    assert table.stored.seats["p2"] == "mcts:8" and table.bots["p2"].iterations == 8
    table = resumed.seat_of(served["game"], served["links"]["p2"].rsplit("/", 1)[1])[0]
    assert (table.bots["p1"].iterations, table.bots["p1"].seconds) == (200, 2.0)
    assert table.game.pending.player == "p2"  # the search bot has answered the first choice


def test_a_game_with_a_scripted_seat_is_served_to_every_seat(db):
    # Stationfall's fourth seat plays by the rules' script: no person or bot sits there
    with client(db) as c:
        game = new_game(c, "stationfall", [HUMAN, "random", HUMAN])
        for seat, link in game["links"].items():
            r = c.get(link.replace("/game/", "/api/games/"))
            assert r.status_code == 200, (seat, r.text)
        players = {p["id"]: p["seat"] for p in r.json()["players"]}
        assert players["p1"] == HUMAN and players["p2"] == "random" and players["p4"].startswith("script:")
        with c.websocket_connect(ws_path(game["links"]["p1"])) as ws:
            assert ws.receive_json()["type"] == "view"


def test_an_address_is_never_served_as_markup(db):
    with client(db) as c:
        r = c.get("/game/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E/token")
        assert r.status_code == 404
        assert "<img" not in r.text and "&lt;img" in r.text


def test_lobby_requests_of_the_wrong_shape_or_size_are_refused_in_one_line(db, capsys):
    with client(db) as c:
        refusals = [
            ({"ruleset": ["tic_tac_toe"], "seats": []}, 400, "no rule set"),
            ({"ruleset": "tic_tac_toe", "variant": ["x"], "seats": [HUMAN, HUMAN]}, 400, "no variant"),
            ({"ruleset": "tic_tac_toe", "seats": [HUMAN, HUMAN], "seed": 10 ** 30}, 400, "the seed is a whole number"),
        ]
        for body, status, words in refusals:
            r = c.post("/api/games", json=body)
            assert r.status_code == status and words in r.json()["error"], (body, r.text)
        deep = c.post("/api/games", content=("[" * 20000 + "]" * 20000).encode())
        assert deep.status_code == 400 and deep.json() == {"error": "the request is not JSON"}
        huge = c.post("/api/games", content=b" " * (65 * 1024) + b"{}")
        assert huge.status_code == 413 and "longer than" in huge.json()["error"]
        game = new_game(c, "tic_tac_toe", [HUMAN, HUMAN])
        with c.websocket_connect(ws_path(game["links"]["p1"])) as ws:
            ws.receive_json()
            ws.send_text("[" * 20000 + "]" * 20000)
            assert ws.receive_json()["message"] == "malformed JSON: nested too deeply"
            assert "send" in send(ws, ["still here"])["message"]  # the page's socket is still open
    assert "Traceback" not in capsys.readouterr().err


def test_a_fault_of_the_server_is_one_line_and_a_500(db, capsys, monkeypatch):
    from rulecraft.server.tables import Table

    with client(db) as c:
        game = new_game(c, "tic_tac_toe", [HUMAN, HUMAN])

        def broken(*args, **kwargs):
            raise TypeError("a fault")

        monkeypatch.setattr(Table, "view_message", broken)
        r = c.get(game["links"]["p1"].replace("/game/", "/api/games/"))
        assert r.status_code == 500 and r.json()["error"].startswith("internal error (TypeError)")
    err = capsys.readouterr().err
    assert "rulecraft serve: internal error in api_view: TypeError: a fault" in err and "Traceback" not in err
    assert game["links"]["p1"].rsplit("/", 1)[1] not in err  # a seat's token is never written out


def test_the_games_database_is_readable_by_its_owner_only(db):
    import stat

    with client(db) as c:
        new_game(c, "tic_tac_toe", [HUMAN, HUMAN])
    assert stat.S_IMODE(db.stat().st_mode) == 0o600


def test_the_seats_own_things_show_what_their_properties_say(db):
    # the hand as the terminal shows it: an ammunition card with its bullets
    with client(db) as c:
        game = new_game(c, "panic_station", [HUMAN] * 5, seed=323)
        page = c.get(game["links"]["p1"].replace("/game/", "/api/games/")).json()
        hand = next(z for z in page["hand"] if z["zone"] == "hand")
        assert "Ammo 6 (bullet count 4)" in hand["items"]
        assert "Host card" in hand["items"]  # a thing whose properties say nothing: its name alone
