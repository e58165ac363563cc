"""A property declared ``drawn`` is a fresh random draw from its ``values``: the states
a search samples from a seat's view draw it again wherever the seat cannot see it,
instead of keeping the tracked copy's one guess (docs/language.md §3.2, docs/bots.md
"The search bot", Limits).

The rule set here: each of two players has two dice under a cup only its owner sees
into, rolled with ``random`` in setup and again by the action ``reroll``; ``peek``
shows the player one die under the next player's cup, ``forget`` takes that back."""

from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace

import pytest
from engine_rulesets import build, choose_action, game_yaml, load_errors, write_ruleset

from rulecraft.bots.determinize import SeenValues, Tracker, determinize
from rulecraft.dsl.loader import load_ruleset
from rulecraft.dsl.model import KindSpec, PropertySpec
from rulecraft.interpreter.game import Game

FACE = "{type: number, default: 1, values: [1, 2, 3, 4, 5, 6], visible_to: owner%s}"


def data(drawn: str | None = "uniform", cup: str = "owner") -> str:
    face = FACE % (f", drawn: {drawn}" if drawn else "")
    return f"""
kinds:
  player: {{}}
  die:
    owner: holder
    properties:
      holder: player
      face: {face}
zones:
  cup: {{per_player: true, visible_to: {cup}}}
components:
  - {{name: die, kind: die, count: 2, per_player: true, zone: cup}}
"""


RULES = """
procedure setup():
    do:
        roll_all()

procedure roll_all():
    do:
        for each p in players:
            for each d in contents(cup(p)):
                let f = random(numbers(1, 6))
                set d.face = f

procedure round():
    do:
        for each p in players:
            play_turn(p)

action reroll:
    do:
        roll_all()

action peek:
    do:
        let d = first(contents(cup(next_player(current_player))))
        reveal d to current_player
        reveal d.face to current_player

action forget:
    do:
        for each d in contents(cup(next_player(current_player))):
            hide d from current_player
            hide d.face from current_player
"""


def _game(tmp_path, drawn: str | None = "uniform", cup: str = "owner", seed: int = 7):
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 2), actions_per_turn_limit=4) + data(drawn, cup),
                          "main.rules": RULES})
    return rs, Game(rs, 2, seed)


def _faces(state, holder: str) -> list:
    return [e["props"]["face"] for eid, e in sorted(state.entities.items())
            if e["kind"] == "die" and eid.startswith(f"die.{holder}.")]


def _samples(rs, game, count: int, seed: int = 9, tracker: Tracker | None = None) -> list:
    """``count`` states sampled from p1's view, as the search samples them."""
    view = game.view("p1")
    if tracker is None:
        tracker = Tracker(rs, 2, "p1", random.Random(5))
    assert tracker.follow(view)
    rng = random.Random(seed)
    seen_in = tracker.places.read(view)
    return [determinize(tracker, view, rng, seen_in=seen_in) for _ in range(count)]


@pytest.mark.parametrize("cup", ["owner", "everyone"], ids=["dice-under-a-cup", "dice-in-sight-faces-hidden"])
def test_hidden_drawn_values_are_drawn_again_uniformly_and_the_seats_own_stay(tmp_path, cup):
    """Whether the dice themselves are out of sight (a cup only the owner sees into) or
    in sight with their faces hidden, p2's faces take every value, none much more often
    than the others, while p1's own faces are always the real ones."""
    rs, game = _game(tmp_path, cup=cup)
    samples = _samples(rs, game, 600)
    mine = _faces(game.state, "p1")
    assert all(_faces(s, "p1") == mine for s in samples)
    counts = Counter(face for s in samples for face in _faces(s, "p2"))
    assert sorted(counts) == [1, 2, 3, 4, 5, 6]
    total = sum(counts.values())
    assert total == 1200
    assert max(counts.values()) < 0.3 * total  # no face in more than 30% of the draws
    # and a loose chi-square bound (5 degrees of freedom: 20.5 is far in the tail)
    expected = total / 6
    assert sum((n - expected) ** 2 / expected for n in counts.values()) < 20.5
    # the two hidden dice are drawn each on its own: the samples do not all agree
    assert len({tuple(_faces(s, "p2")) for s in samples}) > 20


def test_without_the_declaration_every_sample_keeps_the_copys_one_guess(tmp_path):
    """The old behaviour, kept for properties not declared ``drawn``: a hidden thing the
    view does not show keeps the tracked copy's value, so every sample agrees on it; a
    thing the view shows with its value hidden has the values shuffled among such
    things (the copy's values, as a whole, are kept)."""
    rs, game = _game(tmp_path, drawn=None)
    samples = _samples(rs, game, 200)
    assert len({tuple(_faces(s, "p2")) for s in samples}) == 1

    rs, game = _game(tmp_path / "in_sight", drawn=None, cup="everyone")
    samples = _samples(rs, game, 200)
    guesses = {tuple(sorted(_faces(s, "p2"))) for s in samples}
    assert len(guesses) == 1  # only their order changes


def test_weights_make_some_values_likelier(tmp_path):
    rs, game = _game(tmp_path, drawn="{weights: [0, 0, 0, 0, 1, 3]}")
    counts = Counter(face for s in _samples(rs, game, 400) for face in _faces(s, "p2"))
    assert set(counts) == {5, 6}
    assert 2 * counts[5] < counts[6]


def test_a_face_the_seat_saw_revealed_stays_as_seen_until_rolled_again(tmp_path):
    rs, game = _game(tmp_path)
    tracker = Tracker(rs, 2, "p1", random.Random(5))
    assert tracker.follow(game.view("p1"))
    choose_action(game, "peek")
    shown = next(eid for eid, e in game.view("p1")["entities"].items()
                 if e["kind"] == "die" and e["props"].get("holder") == "p2")
    real = game.state.entities[shown]["props"]["face"]
    other = next(eid for eid in game.state.zones["cup:p2"] if eid != shown)
    samples = _samples(rs, game, 200, tracker=tracker)
    assert {s.entities[shown]["props"]["face"] for s in samples} == {real}
    assert len({s.entities[other]["props"]["face"] for s in samples}) == 6

    # hidden again: the seat still knows what it saw, as nothing has rolled it since
    choose_action(game, "forget")
    assert shown not in game.view("p1")["entities"]
    samples = _samples(rs, game, 200, tracker=tracker)
    assert {s.entities[shown]["props"]["face"] for s in samples} == {real}

    # rolled again out of the seat's sight: a fresh draw again
    choose_action(game, "reroll")
    samples = _samples(rs, game, 200, tracker=tracker)
    assert len({s.entities[shown]["props"]["face"] for s in samples}) == 6
    assert not any(key[0] == shown for key in tracker.values.known)


def test_seen_values_keep_what_the_view_shows_and_the_events_told_while_the_copy_agrees():
    kinds = {"die": KindSpec("die", {"face": PropertySpec("face", "number", 1, [1, 2, 3], drawn="uniform")})}
    values = SeenValues(SimpleNamespace(data=SimpleNamespace(kinds=kinds)))
    state = SimpleNamespace(entities={"a": {"kind": "die", "props": {"face": 2}},
                                      "b": {"kind": "die", "props": {"face": 3}}})
    view = {"entities": {"a": {"kind": "die", "at": "t", "props": {"face": 2}}},
            "events": [{"type": "changed", "entity": "b", "property": "face", "value": 1}]}
    # b was seen at 1, but the copy holds 3: the rules drew it again since
    assert values.read(view, state) == {("a", "face"): 2}
    view["events"].append({"type": "changed", "entity": "b", "property": "face", "value": 3})
    assert values.read(view, state) == {("a", "face"): 2, ("b", "face"): 3}


def test_the_same_seed_gives_the_same_samples(tmp_path):
    rs, game = _game(tmp_path)
    first = [_faces(s, "p2") for s in _samples(rs, game, 50)]
    again = [_faces(s, "p2") for s in _samples(rs, game, 50)]
    other = [_faces(s, "p2") for s in _samples(rs, game, 50, seed=10)]
    assert first == again
    assert first != other


def test_drawn_without_values_is_a_located_error(tmp_path):
    face = "{type: number, visible_to: owner, drawn: uniform}"
    text = game_yaml(players=(2, 2)) + data().replace(FACE % ", drawn: uniform", face)
    rendered = load_errors(tmp_path, {"game.yaml": text, "main.rules": RULES})
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "drawn: uniform" in row)
    column = text.splitlines()[line - 1].index("drawn") + 1
    assert f"game.yaml:{line}:{column}: error: 'die.face' is drawn at random, but lists no values to draw from" \
        in rendered
    assert "^^^^^" in rendered
    assert "hint: list the values it is drawn from" in rendered


def test_weights_must_match_the_values(tmp_path):
    text = game_yaml(players=(2, 2)) + data(drawn="{weights: [1, 2]}")
    rendered = load_errors(tmp_path, {"game.yaml": text, "main.rules": RULES})
    assert "'die.face' is drawn with 2 weight(s) for 6 value(s)" in rendered
    assert "hint: give one weight per value, in the order of values: [1, 2, 3, 4, 5, 6]" in rendered


def test_a_variant_may_add_a_drawn_property_and_is_checked_the_same_way(tmp_path):
    folder = write_ruleset(tmp_path / "tiny", {"game.yaml": game_yaml(players=(2, 2)) + data(drawn=None),
                                               "main.rules": RULES})
    (folder / "variants").mkdir()
    (folder / "variants" / "marked.yaml").write_text(
        "variant:\n  name: marked\n  base: tiny\nadd:\n  properties:\n"
        "    die.mark: {type: text, values: [plain, marked], visible_to: owner, drawn: {weights: [3, 1]}}\n",
        encoding="utf-8")
    assert load_ruleset(folder, variant="marked").bag.errors == []
    bad = folder / "variants" / "unmarked.yaml"
    bad.write_text("variant:\n  name: unmarked\n  base: tiny\nadd:\n  properties:\n"
                   "    die.mark: {type: text, visible_to: owner, drawn: uniform}\n", encoding="utf-8")
    [error] = load_ruleset(folder, variant="unmarked").bag.errors
    assert error.message == "'die.mark' is drawn at random, but lists no values to draw from"
    assert error.position.file.endswith("variants/unmarked.yaml")
    assert (error.position.line, error.position.column) == (6, 47)

    from rulecraft.cli.main import main
    assert main(["check", str(folder), "--variant", "marked"]) == 0


def test_a_variant_adding_values_to_a_weighted_draw_is_refused_at_its_own_line(tmp_path):
    weighted = data(drawn="{weights: [1, 1, 1, 1, 1, 2]}")
    folder = write_ruleset(tmp_path / "tiny", {"game.yaml": game_yaml(players=(2, 2)) + weighted, "main.rules": RULES})
    (folder / "variants").mkdir()
    (folder / "variants" / "seven.yaml").write_text(
        "variant:\n  name: seven\n  base: tiny\nadd:\n  values:\n    die.face: [7]\n", encoding="utf-8")
    [error] = load_ruleset(folder, variant="seven").bag.errors
    assert error.message.startswith("'die.face' is drawn with one weight per value")
    assert error.position.file.endswith("variants/seven.yaml") and error.position.line == 6
    # a uniform draw takes the variant's new value
    uniform = write_ruleset(tmp_path / "even", {"game.yaml": game_yaml(players=(2, 2)) + data(), "main.rules": RULES})
    (uniform / "variants").mkdir()
    (uniform / "variants" / "seven.yaml").write_text(
        "variant:\n  name: seven\n  base: tiny\nadd:\n  values:\n    die.face: [7]\n", encoding="utf-8")
    assert load_ruleset(uniform, variant="seven").bag.errors == []


def test_the_search_bot_plays_the_game_with_drawn_values(tmp_path):
    from rulecraft.cli.main import main

    folder = write_ruleset(tmp_path / "tiny", {"game.yaml": game_yaml(players=(2, 2), actions_per_turn_limit=4)
                                               + data(), "main.rules": RULES})
    assert main(["simulate", str(folder), "--players", "2", "--games", "2", "--seed", "3", "--workers", "1",
                 "--quiet", "--bot", "random", "--bot", "mcts:16"]) == 0
