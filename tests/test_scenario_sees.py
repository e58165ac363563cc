"""`expect: sees:` checks what one player's view shows and keeps from them (a rulebook's
"the cards in your hand are secret"), against the view every interface and bot of the
seat is handed: zones, things, variables and properties, before and after a `reveal`;
misspelt items are BROKEN at the item; the rules site tells it. Nothing here knows a
shipped game."""

from __future__ import annotations

import pytest
from engine_rulesets import build
from scenario_runs import caret_text, errors_in, explain, run_one

from rulecraft.validator import FAIL, PASS

GAME = """\
game:
  name: secrets
  players: {min: 2, max: 3}
  setup: setup
  round: round
  round_limit: 3
kinds:
  player:
    properties:
      ap: {type: number, default: 0}
      coins: {type: number, default: 3}
      role: {type: text, default: crew, visible_to: owner}
  card:
    located_in: zone
    properties:
      mark: {type: number, default: 0}
zones:
  deck: {visible_to: nobody}
  hand: {per_player: true, visible_to: owner}
  table: {}
components:
  - {name: crown, kind: card, count: 4, zone: deck}
variables:
  game:
    traitor_count: {type: number, default: 1, visible_to: nobody}
    rounds_left: {type: number, default: 3}
"""

RULES = """\
procedure setup():
    do:
        for each p in players:
            move top(deck) to hand(p)

procedure round():
    do:
        for each p in players:
            play_turn(p)

action whisper:
    with c: card in contents(hand(current_player))
    with friend: player where friend != current_player
    do:
        emit whispered(card: c) to friend

action hint:
    do:
        let c = top(deck)
        reveal c.mark

action show:
    with c: card in contents(hand(current_player))
    do:
        reveal c
        reveal current_player.role

action bury:
    with c: card in contents(hand(current_player))
    do:
        move c to deck
        shuffle deck
"""

FILE = "seeds/secrets/views.yaml"


@pytest.fixture(scope="module")
def secrets(tmp_path_factory):
    return build(tmp_path_factory.mktemp("secrets"), {"game.yaml": GAME, "main.rules": RULES}, name="secrets")


def run(ruleset, text):
    return run_one(ruleset, text, FILE)


def test_a_view_shows_what_the_tables_let_a_player_see_and_no_more(secrets):
    result = run(secrets, """
        title: what p2 sees
        cite: "secrets: Hands"
        players: 2
        setup:
          deal: {p1: [crown.1], p2: [crown.2]}
        expect:
          sees:
            p2:
              shown: ["hand:p2", crown.2, table, p2.role, p1.coins, game.rounds_left]
              hidden: ["hand:p1", crown.1, deck, p1.role, game.traitor_count]
    """)
    assert result.status == PASS, explain(result)


def test_a_reveal_shows_the_thing_and_the_property_to_the_other_player(secrets):
    result = run(secrets, """
        title: a card shown
        cite: "secrets: Showing"
        players: 2
        setup:
          current: p1
          deal: {p1: [crown.1], p2: [crown.2]}
        steps:
          - {do: show, args: {c: crown.1}}
        expect:
          sees:
            p2:
              shown: [crown.1, p1.role]
              hidden: ["hand:p1"]
    """)
    assert result.status == PASS, explain(result)


def test_a_card_named_in_an_event_told_to_a_player_was_shown_to_them_only(secrets):
    result = run(secrets, """
        title: a card whispered
        cite: "secrets: Whispers"
        players: 3
        setup:
          current: p1
          deal: {p1: [crown.1], p2: [crown.2], p3: [crown.3]}
        steps:
          - {do: whisper, args: {c: crown.1, friend: p2}}
        expect:
          sees:
            p2: {shown: [crown.1], hidden: ["hand:p1"]}
            p3: {hidden: [crown.1, crown.2]}
    """)
    assert result.status == PASS, explain(result)


def test_a_property_shown_of_a_card_nobody_sees_does_not_name_the_card(secrets):
    # the revealed event named the card to everyone: its id told which card lay on top
    result = run(secrets, """
        title: a mark shown of a face-down card
        cite: "secrets: Hints"
        players: 2
        setup:
          current: p1
          deal: {p1: [crown.1], p2: [crown.2]}
          deck_top: {deck: [crown.4]}
        steps:
          - {do: hint}
        expect:
          events:
            - {type: revealed, property: mark}
          sees:
            p2: {hidden: [crown.4, crown.4.mark, deck]}
    """)
    assert result.status == PASS, explain(result)


def test_a_secret_the_view_shows_fails_with_what_the_view_holds(secrets):
    result = run(secrets, """
        title: a wrong belief about the view
        cite: "secrets: Hands"
        players: 2
        expect:
          sees:
            p2:
              hidden: ["hand:p2", p2.role]
              shown: [p1.role]
    """)
    assert result.status == FAIL, explain(result)
    misses = {m.what: m for m in result.divergence.mismatches}
    assert set(misses) == {"whether p2 sees hand:p2", "whether p2 sees p2.role", "whether p2 sees p1.role"}
    assert (misses["whether p2 sees hand:p2"].expected, misses["whether p2 sees hand:p2"].actual) == ("hidden", "shown")
    assert misses["whether p2 sees p1.role"].actual == "hidden"
    assert "role" not in misses["whether p2 sees p1.role"].note  # the note lists what p2 sees of p1
    assert "coins" in misses["whether p2 sees p1.role"].note


TYPOS = """
    title: typos
    cite: "secrets: Hands"
    players: 2
    expect:
      sees:
        p2:
          hidden: ["hand:p9", p1.rol, game.traitors, crwn.1]
        p7:
          shown: [deck]
"""


def test_misspelt_items_and_viewers_are_broken_at_each_with_a_hint(secrets):
    result = run(secrets, TYPOS)
    found = {caret_text(TYPOS, d)[1]: d for d in errors_in(result, FILE)}
    assert set(found) == {'"hand:p9"', "p1.rol", "game.traitors", "crwn.1", "p7"}, [d.message for d in found.values()]
    assert found["p1.rol"].message == "a player has no property 'rol'"
    assert found["p1.rol"].hint == "did you mean 'role'?"
    assert found["game.traitors"].message == "there is no game variable 'traitors'"
    assert "traitor_count" in found["game.traitors"].hint
    assert "crown.1" in found["crwn.1"].hint
    assert found["p7"].message == "unknown player 'p7'"


@pytest.mark.parametrize("lang, shown, hidden", [
    ("en", "Player 2 sees hand of player 2 and crown 2.", "Player 2 does not see the role of player 1."),
    ("fr", "Joueur 2 voit hand du joueur 2 et crown 2.", "Joueur 2 ne voit pas la valeur « role » de joueur 1."),
])
def test_the_rules_site_tells_what_a_player_sees(secrets, lang, shown, hidden):
    from rulecraft.docgen.narration import Narrator
    from rulecraft.docgen.prose import Prose

    words = Narrator(secrets, Prose(secrets, lang, markdown=True), lang)
    lines = words.step({"expect": {"sees": {"p2": {"shown": ["hand:p2", "crown.2"], "hidden": ["p1.role"]}}}})
    told = " ".join(lines)
    assert shown in told and hidden in told, lines
    assert "sees:" not in told and "p1.role" not in told, lines


def test_several_things_a_player_does_not_see_are_none_of_them(secrets):
    from rulecraft.docgen.narration import Narrator
    from rulecraft.docgen.prose import Prose

    step = {"expect": {"sees": {"p2": {"hidden": ["hand:p1", "p1.role", "deck"]}}}}
    en = " ".join(Narrator(secrets, Prose(secrets, "en", markdown=True), "en").step(step))
    fr = " ".join(Narrator(secrets, Prose(secrets, "fr", markdown=True), "fr").step(step))
    assert "does not see hand of player 1, the role of player 1 or deck." in en
    assert "ne voit ni hand du joueur 1, ni la valeur « role » de joueur 1, ni deck." in fr


def test_a_card_shown_then_shuffled_back_is_hidden_again_and_a_failure_says_what_named_it(secrets):
    result = run(secrets, """
        title: a card shown, then shuffled back
        cite: "secrets: Showing"
        players: 2
        setup:
          current: p1
          deal: {p1: [crown.1], p2: [crown.2]}
        steps:
          - {do: show, args: {c: crown.1}}
          - {do: bury, args: {c: crown.1}}
        expect:
          sees:
            p2: {hidden: [crown.1, deck]}
    """)
    assert result.status == PASS, explain(result)
    shown = run(secrets, """
        title: a card shown stays known until it is shuffled
        cite: "secrets: Showing"
        players: 2
        setup:
          current: p1
          deal: {p1: [crown.1], p2: [crown.2]}
        steps:
          - {do: show, args: {c: crown.1}}
        expect:
          sees:
            p2: {hidden: [crown.1]}
    """)
    assert shown.status == FAIL
    told = explain(shown)
    assert "whether p2 sees crown.1: expected 'hidden', actual 'shown'" in told
    whispered = run(secrets, """
        title: a card whispered is known
        cite: "secrets: Whispers"
        players: 2
        setup:
          current: p1
          deal: {p1: [crown.1], p2: [crown.2]}
        steps:
          - {do: whisper, args: {c: crown.1, friend: p2}}
        expect:
          sees:
            p2: {hidden: [crown.1]}
    """)
    assert whispered.status == FAIL
    assert "an event p2 was told named it: {type: whispered, card: crown.1" in explain(whispered)
