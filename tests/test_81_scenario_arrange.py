"""Stating what a scenario relies on instead of taking it from the seed's deal: deal,
copies named by component, restore, props by kind, picks and game_setup, and the
warning about draws and rolls a scenario did not arrange. Nothing here knows Panic
Station."""

from __future__ import annotations

import textwrap

import pytest
from engine_rulesets import build
from scenario_runs import explain, run_one

from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.validator import BROKEN, FAIL, PASS, load_text, run_scenario

GAME = """\
game:
  name: dealt
  players: {min: 2, max: 3}
  setup: setup
  round: round
  round_limit: 6
kinds:
  player:
    properties:
      ap: {type: number, default: 0}
      lucky: {type: bool, default: false}
  card:
    located_in: zone
    properties:
      points: {type: number, default: 1}
  token:
    located_in: zone
    owner: owner
    properties:
      owner: player
  gem:
    located_in: zone
zones:
  deck: {visible_to: nobody}
  discard: {}
  hand: {per_player: true, ordered: false}
  supply: {ordered: false}
  pool: {ordered: false}
components:
  - {name: coin, kind: card, count: 8, zone: deck}
  - {name: crown, kind: card, count: 3, zone: deck, properties: {points: 5}}
  - {name: token, kind: token, count: 2, per_player: true, zone: hand}
  - {name: gem, kind: gem, count: 3, zone: supply}
dice:
  d6: [1, 2, 3, 4, 5, 6]
variables:
  game:
    first: {type: player?}
"""

RULES = """\
procedure setup():
    do:
        shuffle deck
        for each p in players:
            repeat 2 times:
                move top(deck) to hand(p)
        move first(contents(supply)) to pool
        let first = random(players)
        set game.first = first

procedure round():
    do:
        for each p in players:
            play_turn(p)

action draw:
    do:
        move top(deck) to hand(current_player)

action gamble:
    do:
        let face = roll(d6)
        emit gambled(face: face)

action pick:
    do:
        let who = random(players)
        emit picked(player: who)
"""


def run(ruleset, text: str):
    return run_one(ruleset, text, "seeds/dealt/example.yaml")


@pytest.fixture(scope="module")
def dealt(tmp_path_factory):
    return build(tmp_path_factory.mktemp("dealt"), {"game.yaml": GAME, "main.rules": RULES}, name="dealt")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_deal_replaces_the_dealt_cards_whatever_the_seed(dealt, seed):
    result = run(dealt, f"""
        title: deal
        cite: "dealt: Hands"
        seed: {seed}
        setup:
          current: p1
          deal: {{p1: [crown.2, coin.5]}}
        expect:
          zone:
            "hand:p1": {{count: 4, contains: [crown.2, coin.5, token.p1.1, token.p1.2]}}
            "hand:p2": {{count: 4}}
            deck: {{count: 7}}
    """)
    assert result.status == PASS, explain(result)


def test_move_all_to_null_takes_a_whole_zone_off_the_table(dealt):
    """An end-of-game situation: the deck empty, whatever the deal left in it, in one line
    instead of one 'null' per card."""
    result = run(dealt, """
        title: deck emptied
        cite: "dealt: Hands"
        setup:
          current: p1
          move_all: {deck: null}
        expect:
          zone:
            deck: {count: 0}
            "hand:p1": {count: 4}
          # 18 things in all; the 7 the deal left in the deck are off the table
          tally: [{zones: [deck, discard, supply, pool, "hand:*"], count: 11}]
    """)
    assert result.status == PASS, explain(result)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_component_stands_for_its_lowest_numbered_free_copy(dealt, seed):
    result = run(dealt, f"""
        title: copies
        cite: "dealt: Deck"
        seed: {seed}
        setup:
          current: p1
          deal: {{p1: [crown.1]}}
          deck_top: {{deck: [crown, coin, crown]}}
        expect:
          zone:
            deck: {{count: 8}}
          tally:
            - zones: [{{zone: deck, top: 3}}]
              ids: [crown.2, coin.1, crown.3]
              count: 3
    """)
    assert result.status == PASS, explain(result)
    assert result.unarranged == []


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_a_card_put_on_the_deck_from_a_dealt_hand_is_replaced_there(dealt, seed):
    # Some of the four coins were dealt (which ones depends on the seed): the hands they
    # leave get other cards instead, and keep their size.
    result = run(dealt, f"""
        title: replaced
        cite: "dealt: Deck"
        seed: {seed}
        setup:
          current: p1
          deck_top: {{deck: [coin.1, coin.2, coin.3, coin.4]}}
        expect:
          zone:
            "hand:*": {{count: 2, kind: card, excludes: [coin.1, coin.2, coin.3, coin.4]}}
            deck: {{count: 7, top: coin.1}}
    """)
    assert result.status == PASS, explain(result)


def test_restore_puts_a_kind_or_an_entity_back_where_the_components_table_starts_it(dealt):
    # The setup moved gem.1 to the pool; restore brings the supply back to the table's
    # order, and then pieces may move some again.
    result = run(dealt, """
        title: restore
        cite: "dealt: Supply"
        setup:
          restore: [gem]
        steps:
          - expect:
              zone:
                supply: [gem.1, gem.2, gem.3]
                pool: []
          - arrange:
              restore: [gem]
              pieces: {gem.1: pool, gem.3: pool}
          - arrange:
              restore: [gem.3]
        expect:
          zone:
            supply: [gem.2, gem.3]
            pool: [gem.1]
    """)
    assert result.status == PASS, explain(result)


def test_props_may_name_a_kind_and_named_entities_win(dealt):
    result = run(dealt, """
        title: props
        cite: "dealt: Luck"
        setup:
          props:
            p2: {lucky: false}
            player: {lucky: true}
        expect:
          props:
            p1: {lucky: true}
            p2: {lucky: false}
    """)
    assert result.status == PASS, explain(result)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_game_setup_picks_fix_the_setups_random_picks(dealt, seed):
    result = run(dealt, f"""
        title: first
        cite: "dealt: Setup"
        seed: {seed}
        game_setup: {{picks: [p2]}}
        expect:
          vars:
            game: {{first: p2}}
    """)
    assert result.status == PASS, explain(result)


def test_a_pick_the_setup_does_not_use_or_cannot_make_fails_clearly(dealt):
    unused = run(dealt, """
        title: unused
        cite: "dealt: Setup"
        game_setup: {picks: [p1, p2]}
    """)
    assert unused.status == FAIL
    assert "did not use every result fixed for it" in unused.divergence.message
    impossible = run(dealt, """
        title: impossible
        cite: "dealt: Setup"
        players: 2
        game_setup: {picks: [p3]}
    """)
    assert impossible.status == FAIL
    assert "the pick fixed in advance, 'p3', is not among the items random() chooses from: p1, p2" in impossible.divergence.message


def test_unarranged_draws_rolls_and_picks_are_reported_arranged_ones_are_not(dealt):
    relying = run(dealt, """
        title: relying
        cite: "dealt: Luck"
        setup: {current: p1}
        steps:
          - do: draw
          - do: gamble
          - do: pick
    """)
    assert relying.status == PASS, explain(relying)
    assert len(relying.unarranged) == 3
    assert relying.unarranged[0].startswith("draws 1 card(s) from deck that it did not arrange")
    assert relying.unarranged[1].startswith("rolls d6 1 time(s) without a fixed result")
    assert relying.unarranged[2].startswith("the rules pick at random 1 time(s)")
    stating = run(dealt, """
        title: stating
        cite: "dealt: Luck"
        setup:
          current: p1
          deck_top: {deck: [crown]}
          rolls: {d6: [6]}
          picks: [p2]
        steps:
          - do: draw
          - do: gamble
          - do: pick
        expect:
          events:
            - {type: picked, player: p2}
    """)
    assert stating.status == PASS, explain(stating)
    assert stating.unarranged == []


def test_unknown_components_and_kinds_are_located_with_did_you_mean(dealt):
    result = run(dealt, """
        title: misspelt
        cite: "dealt: Deck"
        setup:
          deal: {p1: [crwon]}
          restore: [gems]
    """)
    assert result.status == BROKEN
    text = result.bag.render()
    assert "unknown entity 'crwon'" in text and "did you mean 'crown'" in text
    assert "unknown kind, component or entity 'gems'" in text and "did you mean 'gem'" in text


LUCKY_DRAW = """
    title: {title}
    cite: "dealt: Luck"
    seed: 1
    setup: {{current: p1, deal: {{p1: [coin.1, coin.2]}}}}
    steps:
      - do: draw
    expect:
      zone:
        "hand:p1": {expect}
"""


def run_redealt(ruleset, text: str, redeals: int):
    bag = DiagnosticBag()
    loaded = load_text(textwrap.dedent(text), "seeds/dealt/example.yaml", bag)
    assert loaded.ok, bag.render()
    return run_scenario(ruleset, loaded.scenarios[0], redeals=redeals)


def test_a_scenario_passing_by_the_seeds_draw_fails_when_dealt_again(dealt):
    # Seed 1 happens to draw a crown; nothing in the scenario says so.
    lucky = run_redealt(dealt, LUCKY_DRAW.format(title="lucky", expect="{where: {points: 5}, count: 1}"), 8)
    assert lucky.status == PASS, explain(lucky)
    assert lucky.unarranged and lucky.redeal_failed is not None
    deal, divergence = lucky.redeal_failed
    assert 1 <= deal <= 8 and lucky.redeals_passed == deal - 1
    assert divergence.label == "expect (after the steps)"


def test_a_scenario_the_draw_does_not_decide_passes_every_other_deal(dealt):
    steady = run_redealt(dealt, LUCKY_DRAW.format(title="steady", expect="{kinds: {card: 3, token: 2}}"), 8)
    assert steady.status == PASS, explain(steady)
    assert steady.unarranged and steady.redeal_failed is None and steady.redeals_passed == 8
    # Without redeals (the mutation tester's and the docs' runs) nothing is replayed.
    once = run_redealt(dealt, LUCKY_DRAW.format(title="once", expect="{where: {points: 5}, count: 1}"), 0)
    assert once.status == PASS and once.redeal_failed is None and once.redeals_passed == 0


def test_an_arranged_draw_is_not_dealt_again(dealt):
    stated = run_redealt(dealt, """
        title: stated
        cite: "dealt: Luck"
        setup: {current: p1, deal: {p1: [coin.1, coin.2]}, deck_top: {deck: [crown]}}
        steps:
          - do: draw
        expect:
          zone:
            "hand:p1": {where: {points: 5}, count: 1}
    """, 8)
    assert stated.status == PASS, explain(stated)
    assert stated.unarranged == [] and stated.redeals_passed == 0 and stated.redeal_failed is None


def test_verify_tells_a_lucky_scenario_from_one_the_draw_does_not_decide(tmp_path):
    from engine_rulesets import write_ruleset

    from rulecraft.cli.main import main

    folder = write_ruleset(tmp_path / "dealt", {"game.yaml": GAME, "main.rules": RULES})
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    body = "scenarios:\n" + "".join(
        "  - " + textwrap.indent(textwrap.dedent(LUCKY_DRAW.format(title=t, expect=e)).strip(), "    ")[4:] + "\n"
        for t, e in (("lucky", "{where: {points: 5}, count: 1}"), ("steady", "{kinds: {card: 3, token: 2}}")))
    (seeds / "luck.yaml").write_text(body)
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["verify", str(folder), "--scenarios", str(seeds)])
    text = out.getvalue()
    assert code == 0, text
    assert "1 scenario(s) pass by the seed's luck" in text and "lucky" in text.split("pass by the seed's luck")[1]
    assert "other deal" in text and "diverged at expect (after the steps)" in text
    assert "note: 1 scenario(s) draw, roll or pick what they do not arrange, and pass with it dealt 8 other ways" in text
    with contextlib.redirect_stdout(out := io.StringIO()):
        main(["verify", str(folder), "--scenarios", str(seeds), "--redeals", "0"])
    assert "2 scenario(s) rely on randomness they do not arrange" in out.getvalue()


RESHUFFLING_RULES = RULES + """
action reshuffle:
    do:
        shuffle deck
        move top(deck) to hand(current_player)
"""


@pytest.fixture(scope="module")
def reshuffling(tmp_path_factory):
    return build(tmp_path_factory.mktemp("reshuffling"), {"game.yaml": GAME, "main.rules": RESHUFFLING_RULES},
                 name="dealt")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_game_setup_shuffles_fix_what_the_setups_shuffle_puts_on_top(dealt, seed):
    # The setup shuffles the deck, then deals two cards to p1 and two to p2, in turn.
    result = run(dealt, f"""
        title: fixed deal
        cite: "dealt: Hands"
        seed: {seed}
        game_setup: {{shuffles: {{deck: [crown.2, coin, crown]}}}}
        expect:
          zone:
            "hand:p1": {{contains: [crown.2, coin.1]}}
            "hand:p2": {{where: {{points: 5}}, min: 1}}
    """)
    assert result.status == PASS, explain(result)


def test_a_shuffle_during_the_steps_is_fixed_by_setup_and_counts_as_arranged(reshuffling):
    for seed in (1, 2, 3):
        result = run_redealt(reshuffling, f"""
            title: fixed reshuffle
            cite: "dealt: Luck"
            seed: {seed}
            setup: {{current: p1, deal: {{p1: []}}, shuffles: {{deck: [crown]}}}}
            steps:
              - do: reshuffle
            expect:
              zone:
                "hand:p1": {{where: {{points: 5}}, count: 1}}
        """, 8)
        assert result.status == PASS, explain(result)
        assert result.unarranged == []  # what the shuffle put on top was stated: nothing to redeal
    # Without it, the same scenario draws what the shuffle gives.
    unstated = run(reshuffling, """
        title: unstated reshuffle
        cite: "dealt: Luck"
        setup: {current: p1, deal: {p1: []}}
        steps:
          - do: reshuffle
    """)
    assert unstated.unarranged and unstated.unarranged[0].startswith("draws 1 card(s) from deck")


def test_a_fixed_shuffle_that_never_happens_or_cannot_be_made_fails_clearly(reshuffling):
    unused = run(reshuffling, """
        title: unused
        cite: "dealt: Luck"
        setup: {current: p1, shuffles: {deck: [crown]}}
        steps:
          - do: draw
    """)
    assert unused.status == FAIL
    assert unused.divergence.mismatches[0].what == "forced rolls used up"
    impossible = run(reshuffling, """
        title: impossible
        cite: "dealt: Luck"
        setup: {current: p1, hands: {p1: [crown.1]}, shuffles: {deck: [crown.1]}}
        steps:
          - do: reshuffle
    """)
    assert impossible.status == FAIL
    assert "the shuffle of deck fixed in advance puts 'crown.1' on top, but deck does not hold it" in impossible.divergence.message


def test_shuffles_name_known_zones_and_cards(dealt):
    result = run(dealt, """
        title: misspelt
        cite: "dealt: Luck"
        setup: {shuffles: {dekc: [crown], deck: [crwon]}}
    """)
    assert result.status == BROKEN
    text = result.bag.render()
    assert "dekc" in text and "deck" in text and "crwon" in text


def test_a_deck_the_rules_build_in_order_keeps_its_order_when_dealt_again(tmp_path):
    # Without the setup's shuffle the deck lies in the components table's order (crowns
    # after coins, dealt from the top): that order is the rules', not chance's.
    unshuffled = build(tmp_path, {"game.yaml": GAME, "main.rules": RULES.replace("        shuffle deck\n", "")},
                       name="dealt")
    result = run_redealt(unshuffled, """
        title: in order
        cite: "dealt: Luck"
        setup: {current: p1}
        steps:
          - do: draw
          - do: draw
        expect:
          zone:
            "hand:p1": {kind: card, where: {points: 1}, count: 4}
    """, 8)
    assert result.status == PASS, explain(result)
    assert result.redeals_passed == 8 and result.redeal_failed is None


def test_verify_seeds_finds_a_scenario_that_relies_on_the_default_seeds_setup(tmp_path):
    # the game's own setup deals before any step: only another seed deals it again
    import contextlib
    import io

    from rulecraft.cli.main import main

    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "deal.yaml").write_text(textwrap.dedent("""\
        scenarios:
          - title: relies on the default deal
            cite: "standard rules: Setup"
            players: 2
            expect:
              zone: {"hand:p1": [king]}
          - title: names its seed
            cite: "standard rules: Setup"
            players: 2
            seed: 1
            expect:
              zone: {"hand:p1": [king]}
          - title: holds whatever the deal
            cite: "standard rules: Setup"
            players: 2
            expect:
              zone: {"hand:*": {count: 1}}
        """))
    with contextlib.redirect_stdout(out := io.StringIO()):
        code = main(["verify", "kuhn_poker", "--scenarios", str(seeds), "--seeds", "3"])
    text = out.getvalue()
    assert code == 0, text
    assert "1 scenario(s) pass by the default seed's setup" in text
    flagged = text.split("pass by the default seed's setup")[1]
    assert "relies on the default deal" in flagged and "names its seed" not in flagged
    assert "holds whatever the deal" not in flagged
    with contextlib.redirect_stdout(out := io.StringIO()):
        main(["verify", "kuhn_poker", "--scenarios", str(seeds)])  # off unless asked: each seed costs a whole run
    assert "default seed's setup" not in out.getvalue()


# ---------------------------------------------------------------- a choose pending under the arranged table

PASSING_GAME = """\
game:
  name: passing
  players: {min: 2, max: 2}
  setup: setup
  round: round
  round_limit: 3
kinds:
  player:
    properties: {}
  card:
    properties:
      rank: {type: number, default: 1}
zones:
  deck: {visible_to: nobody}
  hand: {per_player: true, ordered: false, visible_to: owner}
  passed: {ordered: false}
components:
  - {name: low, kind: card, count: 4, zone: deck}
  - {name: high, kind: card, count: 4, zone: deck, properties: {rank: 9}}
"""

PASSING_RULES = """\
procedure setup():
    do:
        shuffle deck
        for each p in players:
            repeat 3 times:
                move top(deck) to hand(p)

procedure round():
    do:
        for each p in players:
            choose c from contents(hand(p)) by p prompt "Which card do you pass?"
            move c to passed
        for each p in players:
            play_turn(p)
"""


def _passing(tmp_path):
    return build(tmp_path, {"game.yaml": PASSING_GAME, "play.rules": PASSING_RULES})


def test_a_pending_choose_offers_the_hand_the_setup_dealt(tmp_path):
    """The first decision is a choose among the hand's cards, asked before the scenario's setup
    deals the hand: it is asked again, of the cards dealt, whatever the seed dealt first."""
    ruleset = _passing(tmp_path)
    scenario = """
    scenarios:
      - title: the pass is asked of the dealt hand
        cite: "house rules: Passing"
        players: 2
        setup:
          deal: {p1: [high.1, high.2, low.1], p2: [low.2, low.3, low.4]}
        expect:
          pending: {player: p1, kind: choose, options: [high.1, high.2, low.1]}
    """
    result = run_one(ruleset, scenario, "passing.yaml")
    assert result.status == PASS, explain(result)


def test_a_card_the_setup_took_out_of_the_hand_cannot_be_passed(tmp_path):
    ruleset = _passing(tmp_path)
    dealt = {"p1": ["high.1", "high.2", "low.1"], "p2": ["low.2", "low.3", "low.4"]}
    # whichever card the seed's own deal gave p1 that the arranged hand lacks
    for stray in ("high.3", "high.4"):
        scenario = f"""
        scenarios:
          - title: a card not in the hand
            cite: "house rules: Passing"
            players: 2
            setup:
              deal: {{p1: {dealt['p1']}, p2: {dealt['p2']}}}
            steps:
              - {{choose: {stray}, by: p1}}
        """
        result = run_one(ruleset, scenario, "passing.yaml")
        assert result.status == FAIL, explain(result)
        assert f"{stray} is not among the options" in result.divergence.message


def test_a_choose_left_with_one_option_goes_on_as_the_rules_would(tmp_path):
    """Arranged down to a hand of one card, the choose has nothing to ask: that card is passed."""
    ruleset = _passing(tmp_path)
    scenario = """
    scenarios:
      - title: one card, no question
        cite: "house rules: Passing"
        players: 2
        setup:
          deal: {p1: [high.1], p2: [low.2, low.3, low.4]}
        expect:
          pending: {player: p2, kind: choose, options: [low.2, low.3, low.4]}
          zone: {passed: [high.1]}
    """
    result = run_one(ruleset, scenario, "passing.yaml")
    assert result.status == PASS, explain(result)


def test_the_rules_site_says_a_zone_emptied_off_the_table(dealt):
    from rulecraft.docgen.narration import Narrator
    from rulecraft.docgen.prose import Prose

    for lang, said in (("en", "is taken off the table."), ("fr", "est retiré de la table.")):
        lines = Narrator(dealt, Prose(dealt, lang, markdown=True), lang).arranged({"move_all": {"deck": None}})
        assert len(lines) == 1 and lines[0].endswith(said) and "None" not in lines[0], lines
