"""A property seen by every player but its owner (``visible_to: others``): cards held
facing out, so that everyone sees a hand but its holder.

A deck of alike cards, each given a colour and a rank in setup; a card drawn into a hand
is held by that player (``holder``), who no longer sees its colour and rank; a card
played to the table has no holder again, and everyone sees it. A clue shows the holder
one property of their own card (``reveal``).
"""

from __future__ import annotations

from engine_rulesets import build, choose_action, game_yaml, load_errors, write_ruleset

from rulecraft.dsl.loader import load_ruleset
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.views import player_view, visible_event

DATA = """
kinds:
  player: {}
  card:
    owner: holder
    properties:
      holder: player?
      colour: {type: text, values: [red, blue], visible_to: others}
      rank: {type: number, default: 1, visible_to: others}
zones:
  deck: {visible_to: nobody}
  hand: {per_player: true, holds: card}
  table: {holds: card}
components:
  - {name: card, kind: card, count: 6, zone: deck}
variables:
  game:
    dealt: {type: number, default: 0}
"""

RULES = """
procedure setup():
    do:
        for each c in contents(deck):
            set game.dealt += 1
            set c.colour = "red" if game.dealt <= 3 else "blue"
            set c.rank = game.dealt
        shuffle deck
        for each p in players:
            repeat 2 times:
                draw(p)

procedure draw(p: player):
    do:
        let c = top(deck)
        if c != none:
            move c to hand(p)
            set c.holder = p

procedure round():
    do:
        for each p in players:
            play_turn(p)

action play_card:
    with c: card in contents(hand(current_player))
    do:
        move c to table
        set c.holder = none
        emit played(card: c, rank: c.rank)
        draw(current_player)

action clue:
    with q: player where q != current_player
    do:
        for each c in contents(hand(q)):
            reveal c.colour to q
"""


def game(tmp_path, seed: int = 3) -> Game:
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 3), round_limit=3) + DATA, "play.rules": RULES})
    return Game(rs, 2, seed)


def test_a_player_sees_the_others_cards_but_not_their_own(tmp_path):
    g = game(tmp_path)
    state = g.state
    p1_hand, p2_hand = state.zones["hand:p1"], state.zones["hand:p2"]
    assert len(p1_hand) == len(p2_hand) == 2
    view = player_view(g.ruleset, state, "p1")
    # p1 sees both hands: which cards each holds
    assert view["zones"]["hand:p1"] == p1_hand and view["zones"]["hand:p2"] == p2_hand
    for c in p1_hand:
        props = view["entities"][c]["props"]
        assert "colour" not in props and "rank" not in props, "a holder never sees their own card's face"
        assert props["holder"] == "p1"
    for c in p2_hand:
        props = view["entities"][c]["props"]
        assert props["colour"] == state.entities[c]["props"]["colour"]
        assert props["rank"] == state.entities[c]["props"]["rank"]


def test_a_card_with_no_holder_is_seen_by_everyone_and_one_in_the_deck_by_nobody(tmp_path):
    g = game(tmp_path)
    played = g.state.zones["hand:p1"][0]
    choose_action(g, "play_card", c=played)
    for viewer in ("p1", "p2"):
        view = player_view(g.ruleset, g.state, viewer)
        assert view["entities"][played]["props"]["rank"] == g.state.entities[played]["props"]["rank"]
        assert not any(c in view["entities"] for c in g.state.zones["deck"])


def test_changes_of_a_held_cards_face_are_hidden_from_its_holder_only(tmp_path):
    g = game(tmp_path)
    state = g.state
    # the colours were set in the deck: nobody saw them change there
    set_in_deck = [e for e in g.events if e["type"] == "changed" and e["property"] == "colour"]
    assert set_in_deck and all(visible_event(g.ruleset, state, e, p) is None for e in set_in_deck for p in ("p1", "p2"))


def test_a_clue_shows_the_holder_one_property_of_their_own_cards(tmp_path):
    g = game(tmp_path)
    assert g.state.current == "p1"
    choose_action(g, "clue", q="p2")
    view = player_view(g.ruleset, g.state, "p2")
    for c in g.state.zones["hand:p2"]:
        props = view["entities"][c]["props"]
        assert props["colour"] == g.state.entities[c]["props"]["colour"]
        assert "rank" not in props


def test_an_event_reading_the_hidden_face_is_told_as_written_and_checked(tmp_path):
    # 'played' tells the rank once the card is on the table: everyone sees it then
    g = game(tmp_path)
    c = g.state.zones["hand:p1"][0]
    choose_action(g, "play_card", c=c)
    played = next(e for e in g.events if e["type"] == "played")
    assert visible_event(g.ruleset, g.state, played, "p1")["rank"] == g.state.entities[c]["props"]["rank"]


def test_check_warns_of_an_event_telling_all_a_face_its_holder_may_not_see(tmp_path):
    root = write_ruleset(tmp_path / "leaky", {"game.yaml": game_yaml(players=(2, 3)) + DATA, "play.rules": RULES + """
action peek:
    do:
        emit peeked(rank: first(contents(hand(current_player))).rank)

procedure put_face_up(c: card):
    do:
        move c to table
        set c.holder = none

action lay:
    with c: card in contents(hand(current_player))
    do:
        put_face_up(c)
        emit laid(rank: c.rank)
"""})
    ruleset = load_ruleset(str(root))
    leaks = [d for d in ruleset.bag.warnings if d.code == "leak"]
    assert len(leaks) == 1
    assert "card.rank, which its owner may not see" in leaks[0].message


def test_check_warns_of_an_action_offering_only_own_cards_that_pass_a_hidden_filter(tmp_path):
    root = write_ruleset(tmp_path / "filtered", {"game.yaml": game_yaml(players=(2, 3)) + DATA, "play.rules": RULES + """
action play_a_one:
    with c: card in contents(hand(current_player)) where c.rank == 1
    do:
        move c to table

action take_a_red:
    with c: card in contents(table) where c.colour == "red"
    do:
        move c to hand(current_player)
"""})
    ruleset = load_ruleset(str(root))
    hidden = [d for d in ruleset.bag.warnings if d.code == "hidden"]
    assert len(hidden) == 1, [d.message for d in hidden]
    assert "'with c' offers only the card whose rank passes the filter" in hidden[0].message
    assert "the acting player does not see on its own things" in hidden[0].message


def test_a_kind_without_owner_or_a_variable_cannot_be_held_facing_out(tmp_path):
    text = load_errors(tmp_path, {"game.yaml": game_yaml(players=(2, 3)) + DATA.replace("    owner: holder\n", "") + """
    secret: {type: number, default: 0, visible_to: others}
""", "play.rules": RULES})
    assert "'card.colour' is visible_to others, but kind 'card' names no owner: everyone would see it" in text
    assert "variable 'game.secret' is visible_to others, but a variable has no owner" in text


def test_the_rules_site_says_who_sees_a_face_held_out(tmp_path):
    from rulecraft.docgen.site import collect

    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 3)) + DATA, "play.rules": RULES})
    page = "\n".join(collect(rs.root, "en").pages.values())
    assert "every player sees it but the one who owns the card" in page


def test_hidden_from_its_holder_in_every_seats_stream_of_random_games(tmp_path):
    """Whatever is played, no event or view ever shows a holder the colour or rank of a
    card while they hold it."""
    import random

    for seed in range(1, 6):
        g = game(tmp_path / str(seed), seed)
        pick = random.Random(seed)
        while not g.over and g.pending is not None:
            for p in g.state.players:
                view = player_view(g.ruleset, g.state, p, g.events)
                # the faces are set in the secret deck: no event tells any of them
                assert not [e for e in view["events"] if e["type"] == "changed" and e["property"] in ("colour", "rank")]
                for c in g.state.zones[f"hand:{p}"]:
                    shown = view["entities"][c]["props"]
                    assert "rank" not in shown
                    if "colour" in shown:  # only a clue shows it
                        assert p in g.state.revealed.get(c, {}).get("colour", ())
            g.choose(pick.randrange(len(g.pending.options)))


def test_a_search_bot_deals_a_hidden_face_whole(tmp_path):
    """The search bot imagines the holder's own cards by dealing their hidden faces among
    them: a colour and a rank hidden on one card are dealt together, so that no sample
    holds a card that is not in the game (a red 5 where the reds are 1 to 3)."""
    import copy
    import random

    from rulecraft.bots.determinize import _copy_seen_properties

    g = next(g for seed in range(1, 40) if (g := game(tmp_path / str(seed), seed)) is not None
             and len({g.state.entities[c]["props"]["colour"] for c in g.state.zones["hand:p1"]}) == 2)
    own = g.state.zones["hand:p1"]
    real = {(g.state.entities[c]["props"]["colour"], g.state.entities[c]["props"]["rank"]) for c in own}
    view = player_view(g.ruleset, g.state, "p1")
    dealt = set()
    for seed in range(40):
        s = copy.deepcopy(g.state)
        _copy_seen_properties(s, view, random.Random(seed))
        faces = tuple((s.entities[c]["props"]["colour"], s.entities[c]["props"]["rank"]) for c in own)
        assert set(faces) == real
        dealt.add(faces)
    assert len(dealt) == 2, "the faces are dealt in both orders"


def test_the_research_environment_tells_a_clue_with_what_it_shows(tmp_path):
    from rulecraft.env import env

    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 3), round_limit=3) + DATA, "play.rules": RULES})
    e = env(rs, players=2, seed=3, render_mode="ansi")
    e.reset()
    game = e.unwrapped.game
    options = game.pending.options
    e.step(options.index({"action": "clue", "args": {"q": "p2"}}))
    e.step(e.unwrapped.game.pending.options.index({"action": "end_turn"}))
    text = e.render()
    assert "p2 to choose:" in text
    colours = {game.state.entities[c]["props"]["colour"] for c in game.state.zones["hand:p2"]}
    told = [line for line in text.splitlines() if "colour" in line]
    assert told and all(any(c in line for c in colours) for line in told), text
