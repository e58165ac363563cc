"""The search bot's ``recall`` setting: the seats of its playouts remember the game, each
what it could have seen of the searching seat's history, and what it sees during the
playout (bots/recall.py)."""

from __future__ import annotations

import random

import panic_station
from engine_rulesets import build, choose_action, game_yaml

from rulecraft.bots import make_bot, view_for
from rulecraft.bots.determinize import Tracker, determinize
from rulecraft.bots.evaluation import Evaluation, cutoff_rewards
from rulecraft.bots.mcts import MCTSBot, parse_spec
from rulecraft.bots.policy import PlayoutPolicy
from rulecraft.bots.recall import Recall
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.state import seat_players
from rulecraft.interpreter.views import HIDDEN

DATA = game_yaml("gifts", players=(3, 3), round_limit=6, actions_per_turn_limit=1) + """\
kinds:
  player:
    properties:
      gifts: {type: number, default: 0}
  card:
    located_in: zone
    properties:
      rank: number
zones:
  deck: {visible_to: nobody}
  hand: {per_player: true, visible_to: owner}
components:
  - {name: a, kind: card, zone: deck, properties: {rank: 1}}
  - {name: b, kind: card, zone: deck, properties: {rank: 2}}
  - {name: c, kind: card, zone: deck, properties: {rank: 3}}
  - {name: d, kind: card, zone: deck, properties: {rank: 4}}
  - {name: e, kind: card, zone: deck, properties: {rank: 5}}
  - {name: f, kind: card, zone: deck, properties: {rank: 6}}
"""

# Each player is dealt two cards; a turn gives one of them to another player, who sees
# which card it is, as the giver does; the third player sees only that a card changed hands.
RULES = """
procedure setup():
    do:
        for each p in players:
            move top(deck) to hand(p)
            move top(deck) to hand(p)

procedure round():
    do:
        for each p in players:
            play_turn(p)

action give:
    with card: card in contents(hand(current_player))
    with taker: player where taker != current_player
    do:
        move card to hand(taker)
        set taker.gifts += 1

action keep:
    do:
        set current_player.gifts += 0
"""

# A seat dislikes having been given cards it remembers: what a cut-off reads with memory only.
HEURISTICS = """
heuristic wary(me: player):
    feature "gifts remembered" weight -1: count([e for e in seen("action_taken") where e.action == "give" and e.args.taker == me])
    feature "cards held" weight 1: count(contents(hand(me)))
"""


def ruleset(tmp_path):
    return build(tmp_path, {"game.yaml": DATA, "play.rules": RULES, "judge.rules": HEURISTICS})


def given_game(tmp_path):
    """p1 gives one of its cards to p2; p3 is left to play."""
    rs = ruleset(tmp_path)
    game = Game(rs, 3, seed=2)
    assert game.pending.player == "p1"
    card = game.view("p1")["zones"]["hand:p1"][0]
    choose_action(game, "give", card=card, taker="p2")
    return rs, game, card


def moved_to(events: list[dict], zone: str) -> list[str]:
    return [e["entity"] for e in events if e["type"] == "moved" and e.get("destination") == zone]


def recall_of(rs, game, seat: str) -> Recall:
    view = game.view(seat)
    tracker = Tracker(rs, len(game.state.players), seat, random.Random(1))
    recall = Recall(rs, seat)
    recall.update(view, tracker.state)
    return recall


# ---------------------------------------------------------------- what each seat is taken to have seen


def test_each_seat_remembers_what_it_could_see_of_the_searching_seat_s_history(tmp_path):
    rs, game, card = given_game(tmp_path)
    recall = recall_of(rs, game, "p1")  # p1 gave the card: it saw its name
    assert recall.histories["p1"] == game.view("p1")["events"]
    assert moved_to(recall.histories["p2"], "hand:p2")[-1] == card  # the gift went to p2's own hand
    assert set(moved_to(recall.histories["p3"], "hand:p2")) == {HIDDEN}  # p3 saw a card go, not which
    # and nobody is taken to have seen p1's own deal but p1
    own_deal = moved_to(game.view("p1")["events"], "hand:p1")
    assert own_deal and all(c != HIDDEN for c in own_deal)
    assert set(moved_to(recall.histories["p2"], "hand:p1")) == {HIDDEN}


def test_what_the_searching_seat_did_not_see_is_not_guessed(tmp_path):
    rs, game, card = given_game(tmp_path)
    recall = recall_of(rs, game, "p3")  # p3 saw a card change hands, not which
    assert set(moved_to(recall.histories["p2"], "hand:p2")) == {HIDDEN}  # p2 saw it, but p3 cannot say what


def test_no_seat_is_taken_to_have_seen_a_card_it_did_not_see_in_panic_station():
    """Recall built from one seat's view never names, to another seat, a card that seat
    did not see named in the real game (checked against every seat's real events)."""
    rs = panic_station.ruleset()
    checked = 0
    for seed in range(3):
        game = Game(rs, 5, seed)
        seats = {p: make_bot("heuristic", seed * 17 + i) for i, p in enumerate(seat_players(5))}
        for _ in range(250):
            if game.over:
                break
            player = game.pending.player
            game.choose(seats[player].choose(view_for(game, seats[player], player)))
        searcher = "p1"
        recall = Recall(rs, searcher)
        recall.update(game.view(searcher), game.state)  # the real state: locations at their truest
        for seat in game.state.players:
            named = {e["entity"] for e in game.view(seat)["events"] if e["type"] == "moved"}
            remembered = {e["entity"] for e in recall.histories[seat] if e["type"] == "moved"} - {HIDDEN}
            assert remembered <= named, (seed, seat, remembered - named)
            checked += len(remembered)
    assert checked > 0


# ---------------------------------------------------------------- the playout's memories


def test_a_playout_hands_each_policy_its_history_once_then_what_it_sees(tmp_path):
    rs, game, card = given_game(tmp_path)
    recall = recall_of(rs, game, "p2")
    memories = recall.playout()
    assert memories.unread("p2") == recall.histories["p2"]
    assert memories.unread("p2") == []  # handed once
    state = game.state.clone()
    machine = memories.machine(state)
    machine.answer(next(i for i, o in enumerate(state.pending["options"]) if o["action"] == "keep"))
    fresh = memories.unread("p2")
    assert fresh and all(e["type"] != "moved" or e["entity"] != card for e in fresh)
    assert any(e["type"] == "action_taken" and e["action"] == "keep" for e in fresh)
    # the history the search started from is left as it was
    assert recall.histories["p2"] == recall_of(rs, game, "p2").histories["p2"]


def test_memories_by_kind_add_the_playout_s_events_without_touching_the_history(tmp_path):
    rs, game, _ = given_game(tmp_path)
    recall = recall_of(rs, game, "p2")
    before = {k: list(v) for k, v in recall.by_kind["p2"].items()}
    memories = recall.playout()
    state = game.state.clone()
    machine = memories.machine(state)
    machine.answer(next(i for i, o in enumerate(state.pending["options"]) if o["action"] == "keep"))
    now = memories.of("p2")
    assert len(now["action_taken"]) == len(before["action_taken"]) + 1
    assert recall.by_kind["p2"] == before


def test_a_cut_off_judges_seats_by_what_they_remember(tmp_path):
    rs, game, _ = given_game(tmp_path)
    evaluation = Evaluation(rs)
    recall = recall_of(rs, game, "p3")
    state = game.state.clone()
    without = cutoff_rewards(evaluation, state)
    with_memory = cutoff_rewards(evaluation, state, recall.playout())
    # p2 holds three cards to the others' one or two: without memory it looks best off;
    # remembering the gift it was given costs it one point
    assert without["p2"] == 1.0
    views = {p: Evaluation(rs).value(game.view(p), memory=recall.playout().of(p)) for p in state.players}
    assert views["p2"] == 3 - 1 and views["p1"] == 1 and views["p3"] == 2
    assert with_memory == {"p1": 0.0, "p2": 1.0, "p3": 1.0}


def test_a_playout_policy_with_memories_hands_them_to_the_seat_s_heuristics(tmp_path):
    rs, game, _ = given_game(tmp_path)
    recall = recall_of(rs, game, "p2")
    policy = PlayoutPolicy(rs, random.Random(3), recall.playout())
    policy.choose(game.state.clone())  # p2 to play: its memory is read
    remembered = policy._evaluation._memory["p2"]["action_taken"]
    assert [e["action"] for e in remembered] == ["give"]
    bare = PlayoutPolicy(rs, random.Random(3))
    bare.choose(game.state.clone())
    assert bare._evaluation._memory.get("p2", {}).get("action_taken", []) == []


# ---------------------------------------------------------------- the search bot


def test_the_search_bot_s_recall_setting(tmp_path):
    assert parse_spec("8:top2:play:paired:recall") == {"iterations": 8, "top": 2, "playouts": "policy",
                                                        "paired": True, "recall": True}
    rs, game, _ = given_game(tmp_path)
    for spec in ("6:play:recall", "6:top2:play:paired:recall"):
        answers = [make_bot(f"mcts:{spec}", 7).choose(view_for(game, make_bot(f"mcts:{spec}", 7), "p2"))
                   for _ in range(2)]
        assert answers[0] == answers[1]  # same seed, same answer
    bot = MCTSBot(7, iterations=6, playouts="policy", recall=True)
    bot.choose(view_for(game, bot, "p2"))
    assert bot._recall is not None and bot._recall.histories["p2"] == game.view("p2")["events"]
    assert MCTSBot(7, iterations=6)._recall is None


def test_recall_plays_from_samples_not_from_the_real_state(tmp_path):
    """The histories come from the searching seat's view: a sample dealt differently
    from the real game is remembered the same way."""
    rs, game, _ = given_game(tmp_path)
    choose_action(game, "keep")  # p2's turn: now p3 has a choice of its own to follow to
    view = game.view("p3")
    rng = random.Random(4)
    tracker = Tracker(rs, 3, "p3", rng)
    assert tracker.follow(view)
    first, second = Recall(rs, "p3"), Recall(rs, "p3")
    first.update(view, determinize(tracker, view, rng))
    second.update(view, determinize(tracker, view, rng))
    assert first.histories == second.histories
