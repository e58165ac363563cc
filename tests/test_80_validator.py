"""The scenario runner on a tiny rule set: setup, steps, expectations, and how a
scenario that goes wrong is reported (the step, expected versus actual, the YAML
position). Nothing here knows Panic Station."""

from __future__ import annotations

import textwrap

import pytest
from engine_rulesets import build

from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.validator import BROKEN, FAIL, FIXED, KNOWN, PASS, SKIP, load_text, run_scenario

FILE = "seeds/tiny/example.yaml"

GAME = """\
game:
  name: tiny
  players: {min: 2, max: 3}
  setup: setup
  round: round
  round_limit: 6
kinds:
  player:
    properties:
      ap: {type: number, default: 0}
      score: {type: number, default: 0}
  card:
    located_in: zone
    properties:
      points: {type: number, default: 1}
  pawn:
    located_in: room
    owner: owner
    properties:
      owner: player
  tile:
    located_in: zone
  room:
    located_in: zone
zones:
  deck: {}
  discard: {}
  hand: {per_player: true, ordered: false}
  box: {ordered: false}
components:
  - {name: card, kind: card, count: 6, zone: deck}
  - {name: pawn, kind: pawn, per_player: true}
  - {name: start, kind: tile, layout: hub}
  - {name: hall, kind: tile, layout: hub, zone: box}
  - {name: annex, kind: tile, layout: annex, zone: box}
board:
  space_kind: room
  tile_kind: tile
  directions: {north: [0, -1], east: [1, 0], south: [0, 1], west: [-1, 0]}
  edges: [door, wall]
  joins:
    - {edges: [door, door], connection: open}
    - {edges: [door, wall], forbidden: true}
    - {edges: [wall, wall], connection: none}
  doorways: [open]
  layouts:
    hub:
      rooms: {main: {}}
      sides: {north: door, east: door, south: door, west: door}
    annex:
      rooms: {top: {}, bottom: {}}
      sides:
        north: {edge: wall, rooms: [top]}
        east: {edge: wall, rooms: [top, bottom]}
        south: {edge: door, rooms: [bottom]}
        west: {edge: wall, rooms: [top, bottom]}
      links: [{from: top, to: bottom, direction: south, connection: open}]
dice:
  d6: [1, 2, 3, 4, 5, 6]
variables:
  game:
    bonus_paid: {type: number, default: 0}
  turn:
    played: {type: number, default: 0}
"""

RULES = """\
procedure setup():
    do:
        place(start, spot(0, 0, 0))
        shuffle deck
        for each p in players:
            move first([x for x in pawn where x.owner == p]) to first(rooms_of(start))
            move top(deck) to hand(p)

procedure round():
    do:
        for each p in players:
            play_turn(p)

trigger refill:
    on turn_started
    do:
        set event.player.ap = 2

action draw:
    require count(contents(deck)) > 0 else "the deck is empty"
    cost 1 ap
    do:
        move top(deck) to hand(current_player)

action play:
    with c: card in contents(hand(current_player))
    require turn.played < 1 else "one card per turn"
    do:
        move c to discard
        set turn.played += 1
        set current_player.score += c.points
        emit scored(player: current_player, points: c.points)

action walk:
    with x: pawn where x.owner == current_player and on_board(x)
    with r: room in connected(x.at)
    cost 1 ap
    do:
        move x to r

procedure bonus(p: player, n: number):
    do:
        set p.score += n
        set game.bonus_paid += n
        emit bonus(player: p, amount: n)

procedure gamble(p: player):
    do:
        let face = roll(d6)
        choose x from [1, 2, 3] by p prompt "Pick a number"
        emit gambled(player: p, face: face, pick: x)

action poke:
    with victim: player where victim != current_player
    limit 1 per turn
    do:
        window harm(victim: victim, amount: 2, blocked: 0) as hit
        set victim.score -= hit.amount - hit.blocked

reaction block:
    on harm
    by event.victim
    with c: card in contents(hand(event.victim))
    require event.blocked < event.amount else "nothing left to block"
    do:
        move c to discard
        set event.blocked += 1

victory high_score:
    when any([p.score >= 5 for p in players])
    winners [p for p in players where p.score >= 5]
"""


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiny")
    variants = folder / "tiny" / "variants"
    variants.mkdir(parents=True)
    for name in ("easy", "hard"):  # what scenarios may be marked for
        (variants / f"{name}.yaml").write_text(f"variant:\n  name: {name}\n  base: tiny\n", encoding="utf-8")
    return build(folder, {"game.yaml": GAME, "main.rules": RULES}, name="tiny")


def load(text: str):
    bag = DiagnosticBag()
    loaded = load_text(textwrap.dedent(text), FILE, bag)
    return loaded, bag


def run(ruleset, text: str, variant: str | None = None):
    loaded, bag = load(text)
    assert loaded.ok, bag.render()
    results = [run_scenario(ruleset, sc, variant) for sc in loaded.scenarios]
    return results[0] if len(results) == 1 else results


def explain(result) -> str:
    d = result.divergence
    if result.bag is not None:
        return result.bag.render()
    if d is None:
        return result.status
    lines = [f"{d.label} at {d.position}: {d.message}"]
    lines += [f"  {m.what}: expected {m.expected!r}, actual {m.actual!r} ({m.note})" for m in d.mismatches]
    return "\n".join(lines)



# ---------------------------------------------------------------- passing


CORRECT = """
    title: Playing a card scores its points
    cite: "tiny-rules: Scoring"
    players: 2
    setup:
      current: p2
      tiles:
        hall: [1, 0, 0]
      pieces: {pawn.p2: hall}
      hands: {p2: [card.1]}
      deck_top: {deck: [card.2, card.3]}
      props:
        card.1: {points: 3}
      vars:
        game: {bonus_paid: 1}
      ap: 2
      rolls: {d6: [6]}
    steps:
      - expect:
          current: p2
          ap: 2
          at: {pawn.p2: hall, pawn.p1: start}
          zone:
            deck: {top: card.2, contains: [card.3]}
            "hand:p2": {contains: [card.1]}
          legal:
            - do: play
              args: {c: card.1}
            - do: walk
              args: {x: pawn.p2, r: start}
          illegal:
            - do: walk
              args: {x: pawn.p2, r: annex/top}
      - do: play
        args: {c: card.1}
        by: p2
      - do: draw
      - call: gamble
        args: [p2]
      - expect:
          pending: {player: p2, kind: choose, prompt: Pick, options: [3, 2, 1]}
      - choose: 2
        by: p2
    expect:
      props:
        p2: {score: 3, ap: 1}
      zone:
        discard: [card.1]
        "hand:p2": {contains: [card.2]}
      vars:
        game: {bonus_paid: 1}
        turn: {played: 1}
      events:
        - {type: scored, player: p2, points: 3}
        - {type: gambled, face: 6, pick: 2}
      events_in_order:
        - {type: scored}
        - {type: rolled, die: d6, value: 6}
        - {type: gambled}
      no_events:
        - {type: turn_started}
      tiles:
        hall: [1, 0, 0]
        start: [0, 0]
        annex: null
      pending: {player: p2, kind: action}
      over: false
"""


def test_a_correct_scenario_passes(tiny):
    result = run(tiny, CORRECT)
    assert result.status == PASS, explain(result)
    assert result.divergence is None


def test_current_ends_turns_until_that_players_turn_starts(tiny):
    result = run(tiny, """
        title: p2 first
        cite: "tiny-rules: Turns"
        setup: {current: p2}
        steps:
          - expect: {current: p2, round: 1, turns: []}
          - end_turn: true
          - expect: {current: p1, round: 2, turns: [p1]}
          - do: end_turn
        expect:
          current: p2
          turns: [p1, p2]
    """)
    assert result.status == PASS, explain(result)


def test_current_ends_a_turn_even_when_the_rules_would_not_let_it_end(tmp_path):
    strict = build(tmp_path, {
        "game.yaml": GAME.replace("  round_limit: 6\n", "  round_limit: 6\n  end_turn_allowed: must_play\n"),
        "main.rules": RULES + "\nfunction must_play(p: player) -> bool:\n    = turn.played > 0\n"}, name="strict")
    result = run(strict, """
        title: arranging is not playing
        cite: "tiny-rules: Turns"
        setup: {current: p2}
        steps:
          - expect:
              current: p2
              round: 1
              illegal:
                - do: end_turn
          - end_turn: true
    """)
    assert result.status == FAIL
    assert result.divergence.label == "step 2 (end_turn)"
    assert result.divergence.message.startswith("p2 may not end their turn now (the rules do not offer it); offered: draw")


def test_a_reaction_window_is_answered_with_react(tiny):
    result = run(tiny, """
        title: blocking a poke
        cite: "tiny-rules: Poke"
        setup:
          hands: {p2: [card.5, card.6]}
        steps:
          - do: poke
            args: {victim: p2}
          - expect:
              pending: {player: p2, kind: reaction}
          - react: block
            args: {c: card.5}
            by: p2
          - react: pass
        expect:
          props:
            p2: {score: -1}
          zone:
            discard: [card.5]
    """)
    assert result.status == PASS, explain(result)


def test_tally_zone_wildcards_and_filters(tiny):
    result = run(tiny, """
        title: counting cards
        cite: "tiny-rules: Setup"
        players: 3
        setup:
          props:
            card.1: {points: 2}
            card.2: {points: 2}
        expect:
          zone:
            "hand:*": {count: 1, kinds: {card: 1}}
            deck: {count: 3}
          tally:
            - zones: ["hand:*", deck]
              count: 6
            - zones: ["hand:*", {zone: deck, top: 1}, {zone: deck, bottom: 1}]
              count: 5
            - zones: ["hand:*", deck]
              where: {points: 2}
              ids: [card.1, card.2, card.3]
              count: 2
    """)
    assert result.status == PASS, explain(result)


def test_the_game_ending_is_checked_and_later_steps_fail_clearly(tiny):
    result = run(tiny, """
        title: a bonus wins the game
        cite: "tiny-rules: Victory"
        setup:
          props:
            p1: {score: 4}
        steps:
          - call: bonus
            args: [p1, 1]
          - expect:
              over: true
              winners: [p1]
              reason: high_score
              pending: null
          - do: draw
    """)
    assert result.status == FAIL
    assert result.divergence.label == "step 3 (do draw)"
    assert "the game is over (high_score)" in result.divergence.message


def test_a_variant_scenario_is_skipped_unless_its_variant_is_asked_for(tiny):
    text = """
        title: only in the hard variant
        cite: "tiny-rules: Variants"
        variant: hard
        expect: {current: p1}
    """
    skipped = run(tiny, text)
    assert skipped.status == SKIP and "--variant hard" in skipped.reason
    assert run(tiny, text, variant="hard").status == PASS
    assert run(tiny, text, variant="easy").status == SKIP


def test_a_scenario_marked_for_a_variant_the_rule_set_lacks_is_broken_not_skipped(tiny):
    result = run(tiny, """
        title: only in the hard variant
        cite: "tiny-rules: Variants"
        variant: hrad
        expect: {current: p1}
    """)
    assert result.status == BROKEN
    (error,) = result.bag.errors
    assert (error.message, error.hint) == ("the rule set has no variant 'hrad'", "did you mean 'hard'?")
    assert (error.position.line, error.position.column) == (4, 10)


def test_a_known_failure_is_expected_to_fail_and_reported_when_it_passes(tiny):
    text = """
        title: drawing is free (the rules disagree)
        cite: "tiny-rules: Drawing"
        known_failure: drawing costs an action point in these rules
        steps:
          - do: draw
        expect:
          ap: %d
    """
    known = run(tiny, text % 2)
    assert known.status == KNOWN
    assert known.divergence.mismatches[0].actual == 1  # the divergence is still reported
    fixed = run(tiny, text % 1)
    assert fixed.status == FIXED and fixed.divergence is None


# ---------------------------------------------------------------- failing


def test_a_wrong_expectation_fails_at_its_step_with_expected_and_actual(tiny):
    result = run(tiny, """
        title: drawing costs nothing (wrong)
        cite: "tiny-rules: Drawing"
        steps:
          - do: draw
          - expect:
              props:
                p1: {ap: 2}
              zone:
                deck: {count: 9}
          - do: draw
    """)
    assert result.status == FAIL
    d = result.divergence
    assert d.label == "step 2 (expect)"
    assert (d.position.file, d.position.line, d.position.column) == (FILE, 6, 5)
    assert d.message is None
    ap, deck = d.mismatches
    assert (ap.what, ap.expected, ap.actual) == ("p1.ap", 2, 1)
    assert (ap.position.line, ap.position.column) == (8, 18)  # the 2 of "p1: {ap: 2}"
    assert (deck.expected, deck.actual) == (9, 3)
    assert (deck.position.line, deck.position.column) == (10, 23)  # the 9 of "deck: {count: 9}"


def test_the_final_expectations_are_reported_after_the_steps(tiny):
    result = run(tiny, """
        title: wrong final state
        cite: "tiny-rules: Drawing"
        steps:
          - do: draw
        expect:
          current: p2
          at: {pawn.p1: hall}
    """)
    d = result.divergence
    assert d.label == "expect (after the steps)"
    assert [(m.what, m.expected, m.actual) for m in d.mismatches] == [
        ("where pawn.p1 is", "hall/main", "start/main"), ("whose turn it is", "p2", "p1")]


def test_an_action_that_is_not_offered_fails_with_the_reason_and_the_legal_options(tiny):
    result = run(tiny, """
        title: walking nowhere
        cite: "tiny-rules: Walking"
        steps:
          - do: walk
            args: {x: pawn.p1, r: hall}
    """)
    d = result.divergence
    assert d.label == "step 1 (do walk(x=pawn.p1, r=hall))"
    # the argument refused, and the part of its `with` line that refuses it
    assert ("walk(x=pawn.p1, r=hall) is not legal for p1 now (those targets are not allowed for this action: "
            "r = hall/main is not among connected(x.at))") in d.message
    assert "offered: draw; play(c=" in d.message and "end_turn" in d.message


def test_an_argument_a_where_filter_refuses_is_told_with_the_filter(tiny):
    result = run(tiny, """
        title: walking another's pawn
        cite: "tiny-rules: Walking"
        steps:
          - do: walk
            args: {x: pawn.p2, r: hall}
    """)
    assert ("those targets are not allowed for this action: x = pawn.p2 fails "
            "'where x.owner == current_player and on_board(x)'") in result.divergence.message


def test_an_ambiguous_action_asks_for_more_arguments(tiny):
    result = run(tiny, """
        title: which card?
        cite: "tiny-rules: Playing"
        setup:
          hands: {p1: [card.1, card.2]}
        steps:
          - do: play
    """)
    assert "matches 3 options" in result.divergence.message


def test_illegal_because_is_compared_with_the_rules_reason(tiny):
    text = """
        title: one card per turn
        cite: "tiny-rules: Playing"
        setup:
          hands: {p1: [card.1]}
          vars:
            turn: {played: 1}
        expect:
          illegal:
            - do: play
              args: {c: card.1}
              because: %s
    """
    assert run(tiny, text % "one card per turn").status == PASS
    result = run(tiny, text % "the deck is empty")
    (m,) = result.divergence.mismatches
    assert (m.expected, m.actual) == ("the deck is empty", "one card per turn")
    assert m.what == "why play(c=card.1) is illegal"


def test_a_legal_expectation_that_fails_says_why_the_rules_refuse(tiny):
    result = run(tiny, """
        title: play twice
        cite: "tiny-rules: Playing"
        setup:
          hands: {p1: [card.1]}
          vars:
            turn: {played: 1}
        expect:
          legal:
            - do: play
              args: {c: card.1}
    """)
    (m,) = result.divergence.mismatches
    assert (m.expected, m.actual) == ("offered", "not offered")
    assert m.note.startswith("the rules say: one card per turn; offered: draw")


def test_choices_fail_with_the_options_offered(tiny):
    result = run(tiny, """
        title: a number that is not offered
        cite: "tiny-rules: Gambling"
        rolls: {}
        steps:
          - call: gamble
            args: [p1]
          - choose: 7
    """.replace("        rolls: {}\n", ""))
    assert result.divergence.label == "step 2 (choose 7)"
    assert result.divergence.message == "7 is not among the options of 'Pick a number'; offered: 1; 2; 3"
    result = run(tiny, """
        title: an option number out of range
        cite: "tiny-rules: Gambling"
        steps:
          - call: gamble
            args: [p1]
          - choose_index: 3
    """)
    assert "there is no option 3: the choice has 3" in result.divergence.message


def test_answering_the_wrong_kind_of_choice_or_as_the_wrong_player_fails(tiny):
    result = run(tiny, """
        title: choose during an action choice
        cite: "tiny-rules: Turns"
        steps:
          - choose: 1
    """)
    assert result.divergence.message.startswith(
        "cannot choose 1: p1 is answering an action (Choose an action), not a choose; offered: draw; play(c=")
    result = run(tiny, """
        title: p2 cannot act now
        cite: "tiny-rules: Turns"
        steps:
          - do: draw
            by: p2
    """)
    assert "it is p1 who must answer now" in result.divergence.message


def test_event_expectations_report_what_happened_instead(tiny):
    result = run(tiny, """
        title: events
        cite: "tiny-rules: Scoring"
        setup:
          hands: {p1: [card.1]}
        steps:
          - do: play
            args: {c: card.1}
        expect:
          events:
            - {type: scored, points: 4}
          no_events:
            - {type: scored}
          events_in_order:
            - {type: scored}
            - {type: moved, entity: card.1}
    """)
    events, no_events, order = result.divergence.mismatches
    assert events.actual == "no such event" and "events of that type: {type: scored" in events.note
    assert no_events.actual["type"] == "scored"
    assert order.what == "event 2 of the sequence"
    assert order.actual == "only earlier than the events before it in the list"


def test_forced_rolls_that_never_happen_fail_the_scenario(tiny):
    result = run(tiny, """
        title: a roll that never comes
        cite: "tiny-rules: Gambling"
        setup:
          rolls: {d6: [3]}
    """)
    assert result.status == FAIL
    (m,) = result.divergence.mismatches
    assert m.what == "forced rolls used up" and m.actual == {"d6": [3]}


# ---------------------------------------------------------------- broken


def test_broken_yaml_is_located_at_line_and_column():
    loaded, bag = load("""
        title: broken
        cite: [unclosed
    """)
    assert not loaded.ok and loaded.scenarios == []
    (d,) = bag.errors
    assert d.message.startswith("YAML syntax")
    # at the bracket never closed (line 3 of the text, after its opening newline), not past the end
    assert (d.position.file, d.position.line, d.position.column) == (FILE, 3, 7)
    assert f"{FILE}:3:7:" in bag.render()


def test_schema_errors_are_located_with_hints():
    loaded, bag = load("""
        scenarios:
          - title: one
            cite: "tiny-rules: Setup"
            setpu: {current: p2}
            steps:
              - do: draw
                choose: 1
              - end_turn: true
                args: {x: 1}
              - {}
          - cite: "tiny-rules: Setup"
    """)
    assert not loaded.ok
    text = bag.render()
    assert f"{FILE}:5:5: error: unknown key 'setpu' in scenarios/0" in text
    assert "did you mean 'setup'?" in text
    assert f"{FILE}:8:9: error: step 1 has do and choose: a step does one thing" in text
    assert f"{FILE}:10:9: error: 'args' does not go with 'end_turn'" in text
    assert "error: step 3 does nothing" in text
    assert "'title' is a required property" in text
    assert all(d.hint for d in bag.errors), text


def test_an_empty_step_is_one_error_and_a_number_out_of_bounds_says_the_bound():
    loaded, bag = load("""
        title: one
        cite: "tiny-rules: Setup"
        players: 0
        steps:
          - {}
    """)
    assert not loaded.ok
    assert [(d.position.line, d.message) for d in bag.errors] == [
        (4, "players: 0 is less than the minimum of 1"), (6, "step 1 does nothing")], bag.render()
    assert bag.errors[0].hint == "the least allowed is 1"
    assert "a step has one of: do, choose" in bag.errors[1].hint


def test_a_step_of_text_alone_breaks_its_scenario_and_no_other(tiny):
    """A step that does nothing cannot be played as written: its scenario is broken (it
    passed before, the step skipped); the file loads and its other scenarios run."""
    loaded, bag = load("""
        scenarios:
          - title: one
            cite: "tiny-rules: Setup"
            steps:
              - end_turn: true
              - text: "The turn is over."
          - title: two
            cite: "tiny-rules: Setup"
            steps:
              - end_turn: true
    """)
    assert loaded.ok, bag.render()
    [error] = bag.errors
    assert (error.position.line, error.message) == (7, "step 2 does nothing")
    assert error.hint.startswith("a 'text' goes on the step it explains")
    first, second = [run_scenario(tiny, sc) for sc in loaded.scenarios]
    assert first.status == BROKEN and "step 2 does nothing" in first.bag.render()
    assert second.status == PASS, second


def test_misspelt_names_are_located_with_did_you_mean(tiny):
    loaded, bag = load("""
        title: typos
        cite: "tiny-rules: Setup"
        setup:
          pieces: {pawn.p7: hal, pawn.p1: annex}
          deck_top: {hand: [card.1]}
          props:
            p1: {scroe: 1}
          rolls: {d6: [7]}
        steps:
          - do: drew
          - call: bonus
            args: [p1]
          - do: play
            args: {card: card.1}
        expect:
          events:
            - {type: scord}
    """)
    assert loaded.ok, bag.render()
    result = run_scenario(tiny, loaded.scenarios[0])
    assert result.status == BROKEN
    text = result.bag.render()
    for expected in [
        f"{FILE}:5:12: error: unknown entity 'pawn.p7'", "did you mean 'pawn.p",
        f"{FILE}:5:21: error: unknown zone or space 'hal'",
        f"{FILE}:5:35: error: 'annex' has 2 spaces: say which", "one of: annex/top, annex/bottom",
        "unknown zone 'hand'", "'hand' belongs to each player: write 'hand:p1'",
        "a player has no property 'scroe'", "did you mean 'score'?",
        "d6 has no face 7",
        f"{FILE}:11:9: error: unknown action 'drew'", "did you mean 'draw'?",
        "'bonus' takes 2 argument(s), not 1", "bonus(p: player, n: number)",
        "'play' has no argument 'card'",
        "no rule and no engine event is called 'scord'", "did you mean 'scored'?",
    ]:
        assert expected in text, f"{expected!r} not in:\n{text}"


def test_misspelt_event_fields_are_located_with_did_you_mean(tiny):
    """A misspelt field matches no event: ``no_events`` would pass by accident and
    ``events`` fail for the wrong reason, so the fields are checked like the type,
    against what the rules' ``emit`` statements and the engine's events give."""
    loaded, bag = load("""
        title: field typos
        cite: "tiny-rules: Scoring"
        expect:
          no_events:
            - {type: scored, plyer: p1}
            - {type: harm, victim: p1, amount: 2, blocked: 0}
            - {type: game_ended, winners: [p1], decided: true, reason: x}
          events:
            - {type: turn_started, playr: p1}
            - {type: gambled, face: 6, pick: 2, audience: [p1]}
            - {zzzz: 1}
          events_in_order:
            - {type: rolled, dice: d6}
            - {type: bonus, player: p1, amount: 1}
    """)
    assert loaded.ok, bag.render()
    result = run_scenario(tiny, loaded.scenarios[0])
    assert result.status == BROKEN
    errors = result.bag.errors
    text = result.bag.render()
    found = sorted((e.position.line, e.position.column, e.message, e.hint) for e in errors)
    hint = found[2][3]
    assert found == [
        (6, 22, "the event 'scored' has no field 'plyer'", "did you mean 'player'?"),
        (10, 28, "the event 'turn_started' has no field 'playr'", "did you mean 'player'?"),
        (12, 8, "no event has a field 'zzzz'", hint),
        (14, 22, "the event 'rolled' has no field 'dice'", "did you mean 'die'?"),
    ], text
    assert hint.startswith("the events' fields: ") and "points" in hint and "victim" in hint
    assert f"{FILE}:6:22: error: the event 'scored' has no field 'plyer'" in text


def test_a_player_count_outside_the_rule_set_is_reported(tiny):
    result = run(tiny, """
        title: too many
        cite: "tiny-rules: Setup"
        players: 5
    """)
    assert result.status == BROKEN
    assert "played by 2 to 3 players, not 5" in result.bag.render()
    assert "hint: write 'players:' with a number from 2 to 3" in result.bag.render()


def test_every_misnamed_part_of_a_scenario_has_a_hint_that_helps(tiny):
    loaded, bag = load("""
        title: names with no near miss
        cite: "tiny-rules: Setup"
        setup:
          pieces: {zzz: box}
          restore: [qqqq]
          tiles: {wxyz: [1, 0, 0]}
          vars: {game: {qqq: 1}}
          rolls: {d20: [1]}
          props:
            card.1: {zzz: 2}
        steps:
          - do: fly
          - react: dodge
          - call: payout
        expect:
          zone: {deck: {kind: gem}, shelf: []}
          events: [{type: xyzzy}]
          legal: [{}]
          illegal: [{choose: 1, because: "no"}]
    """)
    assert loaded.ok, bag.render()
    result = run_scenario(tiny, loaded.scenarios[0])
    assert result.status == BROKEN
    errors = result.bag.errors
    assert errors and all(e.hint for e in errors), result.bag.render()
    hints = {e.message: e.hint for e in errors}
    for message, hint in {
        "unknown entity 'zzz'": "known entities: annex, annex/bottom",
        "unknown kind, component or entity 'qqqq'": "known kinds: card, pawn, player, room, tile",
        "unknown tile 'wxyz'": "known tiles: annex, hall, start",
        "there is no game variable 'qqq'": "known game variables: bonus_paid",
        "unknown die 'd20'": "known dice: d6",
        "a card has no property 'zzz'": "its properties: points",
        "unknown action 'fly'": "known actions: draw, end_turn, play, poke, walk",
        "unknown reaction 'dodge'": "known reactions: block, pass",
        "unknown procedure 'payout'": "known procedures: bonus, gamble",
        "unknown kind 'gem'": "known kinds: card, pawn",
        "unknown zone 'shelf'": "known zones: ",
        "no rule and no engine event is called 'xyzzy'": "known events: ",
        "an option is either {do: ACTION, args: {...}} or {choose: VALUE}": "the actions: draw, end_turn",
        "'because' needs an action ({do: ACTION, args: {...}})": "drop 'because'",
    }.items():
        assert message in hints, f"{message!r} not reported:\n{result.bag.render()}"
        assert hint in hints[message], (message, hints[message])


def test_deal_and_hands_go_into_the_zone_hand_zone_names(tmp_path):
    """`deal` and `hands` put cards in the players' `hand`; a rule set whose players hold
    them in a zone of another name says which with `hand_zone`."""
    game = GAME.replace("  hand: {per_player: true, ordered: false}", "  quests: {per_player: true, ordered: false}")
    rs = build(tmp_path, {"game.yaml": game, "main.rules": RULES.replace("hand(", "quests(")}, name="quests")
    result = run(rs, """
        title: a deal into the quests
        cite: "tiny-rules: Setup"
        setup:
          hand_zone: quests
          deal: {p1: [card.3]}
          hands: {p2: [card.4, card.5]}
        expect:
          zone:
            "quests:p1": [card.3]
            "quests:p2": {contains: [card.4, card.5]}
    """)
    assert result.status == PASS, explain(result)
    unnamed = run_broken(rs, """
        title: a deal without the zone
        cite: "tiny-rules: Setup"
        setup:
          deal: {p1: [card.3]}
    """)
    assert "'deal' needs a per-player zone called 'hand'" in unnamed and "hand_zone: ZONE" in unnamed
    wrong = run_broken(rs, """
        title: a zone that is no one's
        cite: "tiny-rules: Setup"
        setup:
          hand_zone: deck
          deal: {p1: [card.3]}
    """)
    assert "'hand_zone: deck' names no per-player zone" in wrong and "per-player zones: quests" in wrong


def run_broken(ruleset, text: str) -> str:
    result = run(ruleset, text)
    assert result.status == BROKEN, result
    return result.bag.render()


def test_pieces_may_name_a_component_of_several_copies_for_one_of_them(tiny):
    """`pieces: {card: discard}` was refused ("did you mean 'card.2'?") where `deal`
    takes a component's name for one of its copies: the lowest one the block leaves."""
    result = run(tiny, """
        title: a card in the discard pile
        cite: "tiny-rules: Setup"
        setup:
          deck_top: {deck: [card.1]}
          pieces: {card: discard}
        expect:
          zone:
            discard: [card.2]
    """)
    assert result.status == PASS, explain(result)
