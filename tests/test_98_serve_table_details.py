"""What a served table shows beyond the seat's own side, from the seat's view only: the
things in no space nor zone and the table's zones (beside the board), the other players'
public status, the board's spaces and pieces named in the glossary's words, and the
setup told as such (no round yet), a scripted seat by its script's word."""

from __future__ import annotations

import json
import random
import re

import pytest

pytest.importorskip("starlette")

from rulecraft.cli.common import shipped_rulesets  # noqa: E402
from rulecraft.dsl.loader import load_checked  # noqa: E402
from rulecraft.interpreter.state import scripted_seats  # noqa: E402
from rulecraft.server.boards import board_picture  # noqa: E402
from rulecraft.server.store import StoredGame  # noqa: E402
from rulecraft.server.tables import HUMAN, Table  # noqa: E402
from rulecraft.server.words import Words  # noqa: E402


def _table(name: str, players: int, steps: int, seed: int = 3) -> Table:
    rs = load_checked(str(shipped_rulesets()[name]))
    seats = {f"p{i + 1}": HUMAN if i == 0 else "random" for i in range(players)}
    table = Table(StoredGame("g", name, None, players, seed, seats, {}, []), rs)
    rng = random.Random(1)
    for _ in range(steps):
        if table.game.pending is None:
            break
        table.game.choose(rng.randrange(len(table.game.pending.options)))
    return table


def _off_board(table: Table, seat: str) -> set[str]:
    """The ids of the things a seat's view shows in no space nor zone, that are neither a
    player, nor a space, nor a connection the board draws (by the rule set's data)."""
    rs, view = table.ruleset, table.game.view(seat)
    board = rs.data.board
    drawn = {c.name for c in board.connections if c.name}
    return {e for e, d in view["entities"].items()
            if d["at"] is None and not rs.data.kinds[d["kind"]].located_in and e not in drawn
            and d["kind"] not in ("player", board.space_kind, board.tile_kind)}


@pytest.fixture(scope="module")
def ship():
    """A cooperative game whose things beside the board (a ship's sides) and a zone of the
    table (the card in play) matter: some turns in."""
    return _table("star_trek_panic", 2, 30)


@pytest.fixture(scope="module")
def scripted():
    """A game with a seat the rules play by their script, at its setup."""
    return _table("stationfall", 3, 0)


def test_the_things_beside_the_board_are_listed_with_what_they_show(ship):
    seat = "p1"
    message = ship.view_message(seat)
    view = ship.game.view(seat)
    words = Words(ship.ruleset)
    words.know_view(view)
    beside = {t["name"]: t["details"] for t in message["beside"]}
    things = _off_board(ship, seat)
    assert things, "the rule set has things in no space nor zone"
    assert set(beside) == {words.name(e) for e in things}
    for eid in things:
        props = view["entities"][eid]["props"]
        details = beside[words.name(eid)]
        # every number but 0 is said, in the glossary's words
        for prop, value in props.items():
            if isinstance(value, int) and not isinstance(value, bool) and value:
                assert words.status(view["entities"][eid]["kind"], prop, value) in details
    assert any(d for d in beside.values()), "what the things show is said"


def test_the_zones_of_the_table_show_their_things_or_how_many_are_hidden(ship):
    seat = "p1"
    message = ship.view_message(seat)
    view = ship.game.view(seat)
    state = ship.game.state
    words = Words(ship.ruleset)
    words.know_view(view)
    table = {z["zone"].lower(): z for z in message["table"]}
    shared = {z: items for z, items in view["zones"].items()
              if ":" not in z and z in ship.ruleset.data.zones
              and (items if isinstance(items, list) else items.get("count"))}
    assert shared and len(table) == len(shared)
    for zone, items in shared.items():
        shown = table[words.name(zone).lower()]
        if isinstance(items, list):  # a zone in view: its things by name, with what they show
            assert len(shown["items"]) == len(items)
            assert all(text.startswith(words.name(e)) for text, e in zip(shown["items"], items))
        else:  # a hidden one: how many only, none of its things named
            assert shown["items"] is None and shown["count"] == len(state.zones[zone])
            for eid in state.zones[zone]:
                if eid not in (items.get("shown") or []) and eid != items.get("top"):
                    assert eid not in json.dumps(message["table"])
    # a one-card zone of the table (the card in play) shows its card
    assert any(len(items) == 1 and isinstance(items, list) for items in shared.values())


@pytest.mark.parametrize("steps", [0, 10, 60])
def test_other_players_public_status_and_zones_only_what_the_seat_sees(steps):
    scripted = _table("stationfall", 3, steps)
    seat = "p1"
    message = scripted.view_message(seat)
    view = scripted.game.view(seat)
    state = scripted.game.state
    words = Words(scripted.ruleset)
    words.know_view(view)
    players = {p["id"]: p for p in message["players"]}
    assert "status" not in players[seat]  # the seat's own is on its side
    script = scripted_seats(scripted.ruleset, scripted.stored.players)
    kept = 0
    for p, entry in players.items():
        if p == seat:
            continue
        shown = view["entities"][p]["props"]
        assert entry["status"] == words.details(p, view["entities"][p])
        # what the seat's view hides of a player is not said, what it shows is
        for prop, value in state.entities[p]["props"].items():
            said = words.status("player", prop, value)
            if shown.get(prop, "?") == "?" and isinstance(value, str) and value:
                assert said not in entry["status"]
                kept += 1
        hidden = {z: items for z, items in view["zones"].items() if z.endswith(f":{p}") and isinstance(items, dict)}
        for z, items in hidden.items():
            if items.get("count"):
                listed = next(x for x in entry["zones"] if x["zone"] == words.name(z.split(":")[0]))
                assert listed["items"] is None and listed["count"] == items["count"]
                for eid in state.zones[z]:
                    assert eid not in json.dumps(entry)
    assert kept or steps != 10, "the seat's view hides some property of another player"
    scripted_player = next(p for p in players if p in script)
    assert players[scripted_player]["script"] == words.name(script[scripted_player])
    assert players[scripted_player]["script"] != script[scripted_player]  # its word, not its id
    assert any(players[scripted_player]["status"])


def test_the_setup_is_not_a_round(scripted, ship):
    assert scripted.game.view("p1")["current"] is None
    assert scripted.view_message("p1")["setting_up"] is True
    assert ship.view_message("p1")["setting_up"] is False


def test_copies_that_show_the_same_are_counted_in_a_zone_whose_order_says_nothing(scripted):
    message = scripted.view_message("p1")
    rs = scripted.ruleset
    view = scripted.game.view("p1")
    words = Words(rs)
    words.know_view(view)
    unordered = [z for z, items in view["zones"].items()
                 if ":" not in z and z in rs.data.zones and not rs.data.zones[z].ordered
                 and isinstance(items, list) and len(items) > 1]
    table = {z["zone"].lower(): z for z in message["table"]}
    counted = 0
    for zone in unordered:
        items = view["zones"][zone]
        texts = table[words.name(zone).lower()]["items"]
        total = sum(int(m.group(1)) if (m := re.search(r" ×(\d+)", t)) else 1 for t in texts)
        assert total == len(items)
        counted += len(texts) < len(items)
    assert counted, "some zone holds copies of one component"


def test_board_spaces_and_pieces_are_named_in_the_glossarys_words(ship):
    view = ship.game.view("p1")
    words = Words(ship.ruleset)
    words.know_view(view)
    svg = board_picture(ship.ruleset, view, words=words)
    spaces = ship.ruleset.data.board.spaces
    for space in spaces:
        # the label on the space and its tooltip: its name, not its id
        assert f'fill="#888">{words.name(space)}</text>' in svg
        assert words.name(space) != space
        assert f'fill="#888">{space}</text>' not in svg
        assert re.search(rf'data-space="{re.escape(space)}"><title>{re.escape(words.name(space))}', svg)
    pieces = [e for e, d in view["entities"].items() if d["at"] in spaces]
    assert pieces
    for eid in pieces:
        title = re.search(rf'data-piece="{re.escape(eid)}"[^>]*><title>([^<]*)</title>', svg)
        assert title and title.group(1).startswith(words.name(eid)), eid
        assert f"<title>{eid}</title>" not in svg


def test_pieces_of_different_kinds_look_different(scripted):
    view = scripted.game.view("p1")
    svg = board_picture(scripted.ruleset, view)
    looks = {}
    for kind, fill, label in re.findall(r'<g class="piece"[^>]*data-kind="([^"]*)"><title>[^<]*</title>'
                                        r'<circle [^>]*fill="([^"]*)"[^>]*/><text [^>]*>([^<]*)</text>', svg):
        looks.setdefault(kind, set()).add(fill)
        assert label and len(label) <= 2
    assert len(looks) >= 2, "pieces of several kinds stand on the board"
    fills = [f for fs in looks.values() for f in fs]
    assert len(set(fills)) == len(fills) == len(looks), "each kind of unowned piece has its own colour"


def test_declared_boards_without_a_glossary_word_still_play(tmp_path):
    """A small board game (squares named by their ids, pieces a player owns) keeps its
    labels and owner colours, and its seat list shows the other player's status."""
    table = _table("tic_tac_toe", 2, 2)
    message = table.view_message("p1")
    svg = message["board"]
    assert svg.count('class="space"') == 9
    other = next(p for p in message["players"] if p["id"] == "p2")
    assert isinstance(other["status"], list) and other["zones"] == []
    assert message["beside"] == [] and message["setting_up"] is False
