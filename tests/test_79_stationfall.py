"""The Stationfall tutorial plays to Stationfall with bots in the players' seats and its
scripted player in the fourth; identities stay secret until Revealed."""

from __future__ import annotations

from pathlib import Path

from rulecraft.bots.random_bot import RandomBot
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game

RULES = Path(__file__).resolve().parent.parent / "rules" / "stationfall"


def test_games_reach_stationfall_and_never_ask_for_the_scripted_seat():
    rs = load_checked(RULES)
    for seed in range(1, 6):
        game = Game(rs, 3, seed)
        bots = {p: RandomBot(seed * 10 + i) for i, p in enumerate(["p1", "p2", "p3"])}
        while not game.over:
            choice = game.pending
            assert choice.player in bots
            game.choose(bots[choice.player].choose(game.view(choice.player)))
        assert game.result["reason"] == "stationfall"
        assert any(e["type"] == "action_taken" and e["player"] == "p4" for e in game.events)


def test_a_secret_identity_is_seen_by_its_player_only_and_lindseys_by_all():
    rs = load_checked(RULES)
    game = Game(rs, 3, 1)
    for _ in range(3):
        game.choose(0)
    mine = game.view("p1")["entities"]["p1"]["props"]
    theirs = game.view("p2")["entities"]["p1"]["props"]
    assert mine["identity"] is not None and "identity" not in theirs
    assert game.view("p2")["entities"]["p4"]["props"]["identity"] == "engineer"


def test_stationfall_reveals_everyone_and_counts_only_the_bribe_points_the_manual_states():
    for variant in (None, "station_automation"):
        rs = load_checked(RULES, variant)
        for seed in range(1, 4):
            game = Game(rs, 3, seed)
            bots = {p: RandomBot(seed * 7 + i) for i, p in enumerate(["p1", "p2", "p3"])}
            while not game.over:
                choice = game.pending
                game.choose(bots[choice.player].choose(game.view(choice.player)))
            assert game.result["reason"] == "stationfall" and game.result["winners"] == []
            seen = game.view("p2")["entities"]
            counted = {e["player"]: e["points"] for e in game.events if e["type"] == "points_counted"}
            assert set(counted) == {"p1", "p2", "p3", "p4"}
            for p in counted:
                props = seen[p]["props"]
                assert props["revealed"] is True and props["identity"] is not None
                pc = seen[props["identity"]]["props"]
                others = [q for q in (pc.get("bribed_by") or []) if q != p]
                assert counted[p] == props["bribes"] + len(others) == props["bribe_points"]


def test_sentences_name_a_section_by_its_own_name_not_by_a_value_it_carries():
    """A board declared whole names its spaces; a hazard or state a section carries
    (Magnetic Containment's asphyxiation, most sections' 'none') is not its name."""
    from rulecraft.narration import Words

    rs = load_checked(RULES)
    game = Game(rs, 3, 3)
    view = game.view("p1")
    words = Words(rs)
    words.know_view(view)
    assert view["entities"]["magnetic_containment"]["props"]["hazard"] == "asphyxiation"
    # by the title its board table gives it (the glossary gives sections no word)
    assert words.place("magnetic_containment") == "Magnetic Containment"
    assert words.place("aft_airlocks") == "Aft Airlocks"
