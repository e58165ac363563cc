"""Panic Station round structure (rulebook-en: The Turn Structure; Parasite Phase; Team Phase)."""

from panic_station import end_turn, new_game, relocate


def test_four_players_marker_rhythm_p1_p2_p3_p4_p1_then_p2():
    game = new_game(4, seed=5)
    first = next(e["player"] for e in game.events if e["type"] == "first_player_chosen")
    seats = game.state.players
    i = seats.index(first)
    holders = [game.state.entities["parasite_marker"]["props"]["holder"]]
    order = []
    while game.state.round <= 2:
        end_turn(game)
        if game.state.entities["parasite_marker"]["props"]["holder"] != holders[-1]:
            holders.append(game.state.entities["parasite_marker"]["props"]["holder"])
    order = [e["player"] for e in game.events if e["type"] == "turn_started"][:10]
    rot = lambda k: seats[(i + k) % 4]  # noqa: E731
    # round 1: the first player, then clockwise, then the first player again (5 turns);
    # round 2 starts with the next player, who played its parasite phase.
    assert order == [rot(0), rot(1), rot(2), rot(3), rot(0), rot(1), rot(2), rot(3), rot(0), rot(1)]
    assert holders[:3] == [rot(1), rot(2), rot(3)]


def test_characters_enter_the_reactor_on_their_players_first_turn():
    game = new_game(5, seed=2)
    s = game.state
    current = s.current
    on_board = {c for c, e in s.entities.items() if e["kind"] == "character" and e["at"] is not None}
    assert on_board == {f"trooper.{current}", f"android.{current}"}
    assert all(s.entities[c]["at"] == "reactor/main" for c in on_board)
    end_turn(game)
    nxt = game.state.current
    assert game.state.entities[f"trooper.{nxt}"]["at"] == "reactor/main"


def test_action_points_come_from_health_and_are_pooled():
    game = new_game(5, seed=2)
    s = game.state
    p = s.current
    assert s.entities[p]["props"]["ap"] == 4  # 2 + 2 at full health
    # a trooper at 2 health gives 1 AP; a dead android gives none
    players = s.players
    for _ in range(len(players)):
        end_turn(game)
    s = game.state
    s.entities[f"trooper.{p}"]["props"]["health"] = 2
    relocate(game, f"android.{p}", None)
    s.entities[f"android.{p}"]["props"]["health"] = 0
    started = game.state.turn_number
    end_turn(game)
    while game.state.current != p:
        end_turn(game)
    assert game.state.turn_number > started
    assert game.state.entities[p]["props"]["ap"] == 1


def test_health_three_or_four_gives_two_ap_one_or_two_gives_one():
    from panic_station import ruleset

    table = ruleset().data.tables["ap_for_health"]
    assert [table[h] for h in (1, 2, 3, 4)] == [1, 1, 2, 2]


def test_spending_ap_and_ending_the_turn_when_none_is_left():
    game = new_game(5, seed=2)
    p = game.state.current
    spent = 0
    while game.state.current == p and game.pending.kind == "action" and game.pending.options[0]["action"] != "end_turn":
        game.choose(0)  # the first legal action, whatever it is
        while game.pending.kind == "choose":
            game.choose(0)
        spent += 1
    assert spent == 4
    assert game.state.current != p
