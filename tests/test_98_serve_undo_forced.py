"""Undo past bots' forced answers in `rulecraft serve`.

In a rule set that hides anything, a person's decision a bot answered after stays: the
bot's choice comes from what only it sees. A forced answer, the one option of its choice
(a pass in a reaction window every concerned seat is asked about), comes from nothing: it
is taken back with the decision, unless what it caused may not be (it revealed a card),
or another deal of what the person cannot see would have given the bot a choice (then
being able to undo would tell the person the bot held nothing it could play).
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("starlette")

from engine_rulesets import QUIET_SETUP_AND_ROUND, game_yaml, write_ruleset  # noqa: E402

from rulecraft.cli.common import shipped_rulesets  # noqa: E402
from rulecraft.server.games import Server  # noqa: E402
from rulecraft.server.tables import BOT_ANSWERED, HUMAN, SHOWED_YOU  # noqa: E402

# Each player holds a plain card; a shield card lies in a face-down deck among 30 plain
# ones, or face up on the discard pile. Poking a player opens a window that asks them
# (only them) for a shield: without one, their only option is to pass.
DATA = """
kinds:
  player:
    properties:
      hp: {{type: number, default: 5}}
      ap: {{type: number, default: 0}}
  card:
    located_in: zone
    properties:
      shield: {{type: bool, default: false}}
zones:
  hand: {{per_player: true, visible_to: {hands}}}
  deck: {{visible_to: {deck}}}
  discard: {{}}
components:
  - {{name: plain, kind: card, count: 1, per_player: true, zone: hand}}
  - {{name: shield, kind: card, count: 1, zone: {shield}, properties: {{shield: true}}}}
  - {{name: filler, kind: card, count: 30, zone: deck}}
"""

RULES = QUIET_SETUP_AND_ROUND + """
trigger refresh:
    on turn_started
    do:
        set event.player.ap = 2

action poke:
    with victim: player in players where victim != current_player
    cost 1 ap
    do:
        window harm(victim: victim, blocked: 0) as hit
        set victim.hp -= 1 - hit.blocked

action unmask:
    with victim: player in players where victim != current_player
    cost 1 ap
    do:
        window harm(victim: victim, blocked: 0) as hit
        reveal first(contents(hand(victim)))

action arm:
    with who: player in players
    require count([c for c in contents(discard) where c.shield]) > 0 else "no shield lies face up"
    do:
        move first([c for c in contents(discard) where c.shield]) to hand(who)

reaction raise_shield:
    on harm
    by event.victim
    with card: card in contents(hand(event.victim)) where card.shield
    require event.blocked < 1 else "already blocked"
    do:
        move card to discard
        set event.blocked += 1
"""


def tiny(tmp_path, shield: str = "discard", hands: str = "owner") -> Server:
    """The rule set above; with ``hands="everyone"``, a game that hides nothing."""
    deck = "nobody" if hands == "owner" else "everyone"
    folder = write_ruleset(tmp_path / f"tiny-{shield}-{hands}", {
        "game.yaml": game_yaml(players=(2, 2), round_limit=3) + DATA.format(shield=shield, hands=hands, deck=deck),
        "main.rules": RULES})
    return Server({"tiny": folder}, tmp_path / f"tiny-{shield}-{hands}.sqlite")


def table_of(server: Server, name: str, seats: list[str], seed: int):
    return server.tables[server.create({"ruleset": name, "seats": seats, "seed": seed})["game"]]


def act(server: Server, table, action: str, **args) -> None:
    pending = table.game.pending
    option = next(o for o in pending.options if o.get("action") == action and o.get("args", {}) == args)
    table.decide(server.store, pending.player, option)


# ---- (a) forced passes are taken back with the person's decision


def test_panic_station_a_decision_only_bots_forced_passes_followed_is_undone(tmp_path):
    server = Server({"panic_station": shipped_rulesets()["panic_station"]}, tmp_path / "games.sqlite")
    table = table_of(server, "panic_station", [HUMAN, "random", "random", "random"], 7)
    rnd = random.Random(7)
    for _ in range(300):
        seen = table.view_message("p1")
        pending = table.game.pending
        assert pending is not None, "the game ended first"
        before = len(table.history)
        table.decide(server.store, "p1", pending.options[rnd.randrange(len(pending.options))])
        later = table.history[before + 1:]
        if later and all(d.forced for d in later) and table.undo_problem("p1") is None:
            break
    else:
        raise AssertionError("no decision of the person's was followed by forced answers alone and undone")
    # bots were asked (every concerned seat is) and could only pass
    assert {d.player for d in later} <= {"p2", "p3", "p4"} and all(d.option == 0 for d in later)
    assert table.view_message("p1")["can_undo"]
    table.undo(server.store, "p1")
    # the person's page is as it was before the decision, bots' answers taken back too
    assert len(table.history) == before
    assert table.view_message("p1") == seen
    stored = next(g for g in server.store.games() if g.id == table.id)
    assert stored.decisions == [d.option for d in table.history]


def test_a_forced_pass_no_deal_could_change_is_taken_back(tmp_path):
    """The only shield lies face up: the bot's pass was forced in every deal."""
    server = tiny(tmp_path, shield="discard")
    table = table_of(server, "tiny", [HUMAN, "random"], 1)
    seen = table.view_message("p1")
    act(server, table, "poke", victim="p2")
    assert [(d.player, d.forced) for d in table.history] == [("p1", False), ("p2", True)]
    assert table.game.state.entities["p2"]["props"]["hp"] == 4
    assert table.undo_problem("p1") is None
    table.undo(server.store, "p1")
    assert table.view_message("p1") == seen


# ---- (b) a bot's real choice still keeps the decision


def test_a_bots_choice_of_several_options_keeps_the_decision(tmp_path):
    server = tiny(tmp_path, shield="discard")
    table = table_of(server, "tiny", [HUMAN, "random"], 1)
    act(server, table, "arm", who="p2")  # the shield, face up, goes to the bot's hand
    assert table.undo_problem("p1") is None  # nobody answered
    act(server, table, "poke", victim="p2")
    later = table.history[2:]
    assert later and not later[0].forced  # shield or pass: a choice
    assert table.undo_problem("p1") == BOT_ANSWERED


def test_panic_station_a_bots_choice_after_forced_passes_keeps_the_decision(tmp_path):
    server = Server({"panic_station": shipped_rulesets()["panic_station"]}, tmp_path / "games.sqlite")
    table = table_of(server, "panic_station", [HUMAN, "random", "random", "random"], 3)
    rnd = random.Random(3)
    for _ in range(300):
        pending = table.game.pending
        assert pending is not None, "the game ended first"
        before = len(table.history)
        table.decide(server.store, "p1", pending.options[rnd.randrange(len(pending.options))])
        later = table.history[before + 1:]
        if table.history[before].undoable and any(d.forced for d in later) and any(not d.forced for d in later):
            assert all(not d.kept_because for d in later[:[d.forced for d in later].index(False)])
            assert table.undo_problem("p1") == BOT_ANSWERED
            return
    raise AssertionError("no decision of the person's was followed by forced answers and a bot's choice")


# ---- (c) what a forced answer caused may keep the decision


def test_a_forced_pass_that_reveals_a_card_of_the_bots_hand_keeps_the_decision(tmp_path):
    server = tiny(tmp_path, shield="discard")
    table = table_of(server, "tiny", [HUMAN, "random"], 1)
    act(server, table, "unmask", victim="p2")
    person, bot = table.history
    assert person.undoable  # the window opened: nothing shown yet
    # the card is shown once the bot passed: its forced answer showed it
    assert bot.forced and bot.kept_because == SHOWED_YOU
    assert any(e["type"] == "revealed" for e in table.game.events_for("p1"))
    assert table.undo_problem("p1") == SHOWED_YOU


@pytest.mark.parametrize("seed", range(1, 7))
def test_a_forced_pass_another_deal_makes_a_choice_keeps_the_decision(tmp_path, seed):
    """The shield lies in the face-down deck among 30 plain cards: dealt otherwise, the
    bot could hold it. Undoing would tell the person it does not: every card the bot
    could hold is dealt to it in a copy of its own, beside the random deals (which
    would put the shield in the bot's hand once in 32)."""
    server = tiny(tmp_path, shield="deck")
    table = table_of(server, "tiny", [HUMAN, "random"], seed)
    act(server, table, "poke", victim="p2")
    assert [(d.forced, d.kept_because) for d in table.history] == [(False, None), (True, None)]
    assert table.undo_problem("p1") == BOT_ANSWERED


# ---- (d) a rule set that hides nothing


def test_a_rule_set_that_hides_nothing_undoes_past_any_bot_answer(tmp_path):
    server = tiny(tmp_path, shield="discard", hands="everyone")
    table = table_of(server, "tiny", [HUMAN, "random"], 1)
    assert not table.hides
    act(server, table, "arm", who="p2")
    seen = table.view_message("p1")
    act(server, table, "poke", victim="p2")
    assert not table.history[2].forced  # a real choice: taken back all the same
    assert table.undo_problem("p1") is None
    table.undo(server.store, "p1")
    assert table.view_message("p1") == seen
