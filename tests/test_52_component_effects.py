"""Behaviour kept beside the components: each card of a deck names its own effect.

A component's ``effect:`` in the components table names a procedure of the rules;
``run effect of c`` runs it, given the card. A deck of different cards is then played
by one rule, with no chain of ``if``/``elif`` on what the card is.
"""

from __future__ import annotations

import pytest
from engine_rulesets import build, events_of, game_yaml, write_ruleset

from rulecraft.dsl.diagnostics import RuleSetError
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import RuleRuntimeError

DATA = """
kinds:
  player:
    properties:
      score: {type: number, default: 0}
  card:
    properties:
      value: {type: number, default: 1}
zones:
  deck: {visible_to: nobody, holds: card}
  hand: {per_player: true, visible_to: owner, holds: card}
  discard: {holds: card}
components:
  - {name: gift, kind: card, count: 3, zone: deck, effect: give_points, properties: {value: 2}}
  - {name: thief, kind: card, count: 2, zone: deck, effect: steal_point}
  - {name: double, kind: card, zone: deck, effect: double_score}
"""

RULES = """
procedure setup():
    do:
        shuffle deck

procedure round():
    do:
        for each p in players:
            play_turn(p)

action draw_and_play:
    require count(contents(deck)) > 0
    do:
        let c = top(deck)
        move c to hand(current_player)
        run effect of c
        move c to discard

procedure give_points(c: card):
    do:
        set current_player.score += c.value

procedure steal_point(c: card):
    do:
        for each other in [p for p in players where p != current_player]:
            if other.score > 0:
                set other.score -= 1
                set current_player.score += 1

procedure double_score(c: card):
    do:
        set current_player.score = current_player.score * 2
"""


def _files(data: str = DATA, rules: str = RULES) -> dict[str, str]:
    return {"game.yaml": game_yaml(players=(2, 2), round_limit=3, actions_per_turn_limit=1) + data,
            "main.rules": rules}


def _play(ruleset, seed: int) -> Game:
    game = Game(ruleset, 2, seed)
    while not game.over:
        game.choose(0)  # draw and play while cards are left, then end the turn
    return game


def _expected_scores(game: Game) -> dict[str, int]:
    """The scores the cards' own effects give, worked out from the order they were drawn."""
    scores = {"p1": 0, "p2": 0}
    for e in events_of(game, "moved"):
        if not e["destination"].startswith("hand:"):
            continue
        player, card = e["destination"].split(":")[1], e["entity"]
        other = "p2" if player == "p1" else "p1"
        if card.startswith("gift"):
            scores[player] += 2
        elif card.startswith("thief") and scores[other] > 0:
            scores[other] -= 1
            scores[player] += 1
        elif card == "double":
            scores[player] *= 2
    return scores


def test_each_card_runs_the_effect_named_beside_it(tmp_path):
    ruleset = build(tmp_path, _files())
    for seed in range(20):
        game = _play(ruleset, seed)
        played = [e["entity"] for e in events_of(game, "moved") if e["destination"].startswith("hand:")]
        assert sorted(played) == ["double", "gift.1", "gift.2", "gift.3", "thief.1", "thief.2"]
        scores = {p: game.state.entities[p]["props"]["score"] for p in ("p1", "p2")}
        assert scores == _expected_scores(game), f"seed {seed}"


def test_the_same_seed_plays_the_same_effects(tmp_path):
    ruleset = build(tmp_path, _files())
    first, again = _play(ruleset, 7), _play(ruleset, 7)
    assert first.log_lines() == again.log_lines()
    assert [e["entity"] for e in events_of(first, "moved")] != [e["entity"] for e in events_of(_play(ruleset, 8), "moved")]


def _load_errors(tmp_path, files) -> list:
    with pytest.raises(RuleSetError) as err:
        load_checked(write_ruleset(tmp_path / "bad", files))
    return err.value.bag.errors


def test_an_unknown_effect_name_is_a_located_error_with_a_hint(tmp_path):
    errors = _load_errors(tmp_path, _files(DATA.replace("effect: steal_point", "effect: steal_points")))
    (error,) = errors
    assert error.message == "component 'thief': effect names unknown procedure 'steal_points'"
    assert error.hint == "did you mean 'steal_point'?"
    assert error.position.file.endswith("game.yaml")
    lines = (tmp_path / "bad" / "game.yaml").read_text().splitlines()
    line = lines[error.position.line - 1]  # the thief's line, at its effect's name
    assert line.startswith("  - {name: thief") and line[error.position.column - 1:].startswith("steal_points")


def test_an_effect_must_take_the_component(tmp_path):
    rules = RULES.replace("procedure double_score(c: card):", "procedure double_score(p: player):")
    (error,) = _load_errors(tmp_path, _files(rules=rules))
    assert error.message == "component 'double': effect 'double_score' must take one card, the component whose effect it is"
    rules = RULES.replace("procedure double_score(c: card):", "procedure double_score():")
    (error,) = _load_errors(tmp_path, _files(rules=rules))
    assert "effect 'double_score' must take one card" in error.message


def test_running_the_effect_of_what_has_none_is_an_error(tmp_path):
    rules = RULES.replace("run effect of c", "run effect of current_player")
    (error,) = _load_errors(tmp_path, _files(rules=rules))
    assert error.message == "only a component has an effect, not a player"
    data = DATA.replace(", effect: give_points", "").replace(", effect: steal_point", "").replace(", effect: double_score", "")
    rules = RULES.replace("run effect of c", "for each k in card:\n            run effect of k")
    errors = _load_errors(tmp_path, _files(data, rules))
    assert "no component of kind 'card' has an effect" in [e.message for e in errors]


def test_a_card_without_an_effect_fails_when_run(tmp_path):
    ruleset = build(tmp_path, _files(DATA.replace(", effect: double_score", "")))
    with pytest.raises(RuleRuntimeError, match="double has no effect"):
        for seed in range(5):
            _play(ruleset, seed)


def test_a_trigger_runs_the_effect_of_the_card_the_engine_moved(tmp_path):
    # the effect runs when a card is drawn, whatever rule draws it: a trigger on the move
    rules = RULES.replace("""        run effect of c
        move c to discard
""", "") + """
trigger play_what_is_drawn:
    on moved
    when event.source == deck
    do:
        run effect of event.entity
"""
    with_trigger, plain = build(tmp_path, _files(rules=rules), name="hook"), build(tmp_path, _files())
    for seed in range(10):
        hooked, direct = _play(with_trigger, seed), _play(plain, seed)
        scores = {p: hooked.state.entities[p]["props"]["score"] for p in ("p1", "p2")}
        assert scores == {p: direct.state.entities[p]["props"]["score"] for p in ("p1", "p2")} == _expected_scores(hooked)


def test_the_rules_site_says_the_card_is_carried_out(tmp_path):
    from rulecraft.docgen.prose import Prose

    ruleset = build(tmp_path, _files())
    assert "- Carry out the effect of c.\n" in Prose(ruleset, "en").definition("draw_and_play")
    assert "Appliquez l'effet d" in Prose(ruleset, "fr").definition("draw_and_play")


def test_an_effect_that_runs_itself_is_caught_as_endless(tmp_path):
    rules = RULES.replace("""        set current_player.score = current_player.score * 2
""", """        set current_player.score = current_player.score * 2
        run effect of c
""")
    messages = [e.message for e in _load_errors(tmp_path, _files(rules=rules))]
    assert any("'double_score' calls itself" in m for m in messages), messages
