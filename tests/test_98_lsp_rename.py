"""`rulecraft lsp`'s rename and references across everything that names a symbol: the
glossaries (keys quoted or not, `texts`), the scenario files (the base's and a variant's
own), the variants' files, resources in `cost` and `gain`, kinds written as types; and a
rename it cannot follow refused with every place to change by hand."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lsprotocol import types as lsp

from test_98_lsp import Session, _apply, _at, _doc

GAME_YAML = """\
game:
  name: lsp_tiny
  players: {min: 2, max: 2}
  setup: setup_game
  round: play_round
  round_limit: 3
  actions_per_turn_limit: 1

kinds:
  player:
    properties:
      score: {type: number, default: 0}
      coins: {type: number, default: 3, resource: true}
      favourite: {type: "card?"}
  card:
    located_in: zone
    properties:
      value: {type: number, default: 1}
  item:
    located_in: zone
    properties:
      holders: {type: list of player}

zones:
  deck: {holds: card, visible_to: nobody}
  hand: {per_player: true, visible_to: owner, holds: card}
  shelf: {holds: item}

components:
  - {name: red_card, kind: card, count: 4, zone: deck}
  - {name: lamp, kind: item, zone: shelf}

parameters:
  bonus: {value: 2}
"""

PLAY_RULES = """\
procedure setup_game():
    do:
        shuffle deck
        for each q in players:
            set q.coins = 3

procedure play_round():
    do:
        for each p in players:
            play_turn(p)

procedure score_points(p: player):
    do:
        set p.score += bonus

action draw:
    text "Draw the top card."
    cost 1 coins
    with c: card where c.at == deck
    do:
        move c to hand(current_player)
        gain 1 coins of current_player
        score_points(current_player)
"""

GLOSSARY_EN = """\
language: en
kinds:
  "player": "player"
  "card": "card"
  "item": "item"
properties:
  "player.score": "score"
  "player.coins": "coins"
  "player.favourite": "favourite card"
  "card.value": "value"
  "item.holders": "holders"
zones:
  "deck": "deck"
  "hand": "hand"
  "shelf": "shelf"
components:
  "red_card": "red card"
  "lamp": "lamp"
parameters:
  "bonus": "bonus"
definitions:
  "setup_game": "set up"
  "play_round": "play a round"
  "score_points": "score points"
  "draw": "draw"
names:
  "p": "player"
  "q": "player"
  "c": "card"
  "draw.c": "card drawn"
"""

GLOSSARY_FR = GLOSSARY_EN.replace("language: en", "language: fr") + """\
texts:
  draw: "Piochez la carte du dessus."
  "score_points": "Marquez des points."
  parameters.bonus: "Points en plus."
"""

VARIANT_YAML = """\
variant:
  name: quick
  title: Quick
  base: lsp_tiny
  text: More points.
parameters:
  bonus: 3
"""

VARIANT_SCENARIOS = """\
scenarios:
  - title: Under Quick a player scores three
    cite: "house rule: Quick"
    steps:
      - {call: score_points, args: [p1]}
    expect:
      props:
        p1: {score: 3}
"""

SCENARIOS = """\
scenarios:
  - title: Drawing costs a coin, gives one back and scores
    cite: "house rule: Draw"
    text: "draw and score_points, as the rules say: the coins go back"
    steps:
      - {do: draw, args: {c: red_card.1}, by: p1}
    expect:
      props:
        p1: {coins: 3, score: 2}
      zone:
        "hand:p1": {contains: [red_card.1]}
      events: [{type: action_taken, action: draw, args: {c: red_card.1}}]
  - title: Scoring adds the bonus
    cite: "house rule: Score"
    setup:
      props: {player: {coins: 1}}
      rolls: {}
    steps:
      - call: score_points
        args: [p2]
    expect:
      props:
        p2: {score: 2}
      sees:
        p1:
          shown: [p1.coins, "hand:p1"]
"""


def write_game(base: Path) -> Path:
    """rules/tiny (with glossaries and a variant with its own scenarios) and seeds/lsp_tiny."""
    root = base / "rules" / "tiny"
    files = {root / "game.yaml": GAME_YAML, root / "play.rules": PLAY_RULES,
             root / "glossary" / "en.yaml": GLOSSARY_EN, root / "glossary" / "fr.yaml": GLOSSARY_FR,
             root / "variants" / "quick.yaml": VARIANT_YAML,
             root / "variants" / "quick" / "scenarios.yaml": VARIANT_SCENARIOS,
             base / "seeds" / "lsp_tiny" / "basics.yaml": SCENARIOS}
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def scenario_errors(root: Path) -> list[str]:
    """What `verify` would report broken in the scenarios, base and variant, as they are on disk."""
    from rulecraft.dsl.diagnostics import DiagnosticBag
    from rulecraft.dsl.loader import load_ruleset
    from rulecraft.validator.names import check_scenario
    from rulecraft.validator.scenario import load_file

    bag = DiagnosticBag()
    base, quick = load_ruleset(root), load_ruleset(root, variant="quick")
    for path, ruleset in ((root.parent.parent / "seeds" / "lsp_tiny" / "basics.yaml", base),
                          (root / "variants" / "quick" / "scenarios.yaml", quick)):
        for sc in load_file(path, bag).scenarios:
            check_scenario(sc, ruleset, bag)
    return [f"{d.position}: {d.message}" for d in bag.errors]


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lsp_rename")
    s = Session(folder)
    s.folder = folder
    yield s
    s.close()


@pytest.fixture
def game(session) -> Path:
    """A fresh copy of the game for each test (a rename is applied to the files); the
    editor closes what the test opened, so that the next one reads the files."""
    base = session.folder / "work"
    shutil.rmtree(base, ignore_errors=True)
    yield write_game(base)
    for uri in list(session.versions):
        session.client.text_document_did_close(lsp.DidCloseTextDocumentParams(_doc(uri)))
        del session.versions[uri]


def _open(session, path: Path) -> str:
    """The file opened in the editor as it is on disk (again, after an edit was applied)."""
    uri = path.as_uri()
    if uri in session.versions:
        session.change(uri, path.read_text())
        return uri
    return session.open(path)


def _rename(session, path: Path, text: str, needle: str, new: str, offset: int = 0) -> lsp.WorkspaceEdit:
    uri = _open(session, path)
    at = _at(text, needle)
    return session.run(session.client.text_document_rename_async(lsp.RenameParams(
        _doc(uri), lsp.Position(at.line, at.character + offset), new)))


def test_the_fixture_is_a_clean_game(game):
    from rulecraft.dsl.loader import load_ruleset

    assert load_ruleset(game).ok and load_ruleset(game, variant="quick").ok
    assert scenario_errors(game) == []


def test_a_rename_edits_quoted_glossary_keys_texts_and_the_scenarios_that_call_it(session, game):
    from rulecraft.docgen.glossary import check_glossaries
    from rulecraft.dsl.loader import load_ruleset

    warned = sorted(d.message for d in check_glossaries(load_ruleset(game)))
    edit = _rename(session, game / "play.rules", PLAY_RULES, "score_points(p: player)", "add_points")
    _apply(edit)
    en, fr = (game / "glossary" / "en.yaml").read_text(), (game / "glossary" / "fr.yaml").read_text()
    assert '  "add_points": "score points"' in en and "score_points" not in en
    assert '  "add_points": "Marquez des points."' in fr and "score_points" not in fr
    seeds = (game.parent.parent / "seeds" / "lsp_tiny" / "basics.yaml").read_text()
    assert "      - call: add_points\n" in seeds
    assert "draw and score_points, as the rules say" in seeds  # a scenario's own words are never changed
    assert "{call: add_points, args: [p1]}" in (game / "variants" / "quick" / "scenarios.yaml").read_text()
    renamed = load_ruleset(game)
    assert renamed.ok and scenario_errors(game) == []
    assert sorted(d.message for d in check_glossaries(renamed)) == warned


def test_a_rename_of_an_action_and_its_parameter_follows_do_args_and_events(session, game):
    from rulecraft.docgen.glossary import check_glossaries
    from rulecraft.dsl.loader import load_ruleset

    warned = len(check_glossaries(load_ruleset(game)))
    edit = _rename(session, game / "play.rules", PLAY_RULES, "with c: card", "card", offset=len("with "))
    _apply(edit)
    # the plain entry serves no other definition: it is renamed too, and no word goes missing
    assert '  "card": "card"\n  "draw.card": "card drawn"' in (game / "glossary" / "en.yaml").read_text()
    assert len(check_glossaries(load_ruleset(game))) == warned
    seeds = (game.parent.parent / "seeds" / "lsp_tiny" / "basics.yaml").read_text()
    assert "{do: draw, args: {card: red_card.1}, by: p1}" in seeds
    assert "args: {card: red_card.1}}]" in seeds  # the action's record in an expected event
    assert '  "draw.card": "card drawn"' in (game / "glossary" / "en.yaml").read_text()
    rules = (game / "play.rules").read_text()
    edit = _rename(session, game / "play.rules", rules, "action draw", "take_card", offset=len("action "))
    _apply(edit)
    seeds = (game.parent.parent / "seeds" / "lsp_tiny" / "basics.yaml").read_text()
    assert "{do: take_card, args: {card: red_card.1}, by: p1}" in seeds
    assert "action: take_card" in seeds
    assert scenario_errors(game) == []


def test_a_resource_renamed_in_the_yaml_follows_cost_gain_and_the_scenarios(session, game):
    from rulecraft.dsl.loader import load_ruleset

    uri = _open(session, game / "game.yaml")
    refs = session.run(session.client.text_document_references_async(lsp.ReferenceParams(
        context=lsp.ReferenceContext(include_declaration=True), text_document=_doc(uri),
        position=_at(GAME_YAML, "coins:"))))
    places = {(r.uri.rsplit("/", 1)[1], r.range.start.line) for r in refs}
    assert {("play.rules", _at(PLAY_RULES, "cost 1 coins").line), ("play.rules", _at(PLAY_RULES, "gain 1").line),
            ("play.rules", _at(PLAY_RULES, "set q.coins").line), ("en.yaml", 7)} <= places
    edit = _rename(session, game / "game.yaml", GAME_YAML, "coins:", "gold")
    _apply(edit)
    rules = (game / "play.rules").read_text()
    assert "    cost 1 gold\n" in rules and "gain 1 gold of current_player" in rules
    seeds = (game.parent.parent / "seeds" / "lsp_tiny" / "basics.yaml").read_text()
    assert "p1: {gold: 3, score: 2}" in seeds and "props: {player: {gold: 1}}" in seeds
    assert "shown: [p1.gold, \"hand:p1\"]" in seeds
    assert load_ruleset(game).ok and scenario_errors(game) == []


def test_references_list_the_scenario_files_a_rename_would_edit(session, game):
    # references stopped at the rule set's own files, where rename followed the name on
    uri = _open(session, game / "play.rules")
    refs = session.run(session.client.text_document_references_async(lsp.ReferenceParams(
        context=lsp.ReferenceContext(include_declaration=True), text_document=_doc(uri),
        position=_at(PLAY_RULES, "score_points(p: player)"))))
    places = {(Path(r.uri).parts[-2:], r.range.start.line) for r in refs}
    seeds = SCENARIOS.splitlines()
    call = next(i for i, t in enumerate(seeds) if "call: score_points" in t)
    assert (("lsp_tiny", "basics.yaml"), call) in places
    assert (("quick", "scenarios.yaml"), 4) in places  # a variant's own scenario
    assert (("tiny", "play.rules"), _at(PLAY_RULES, "score_points(current_player)").line) in places
    # a scenario's own words are not a reference
    assert (("lsp_tiny", "basics.yaml"), next(i for i, t in enumerate(seeds) if "draw and score_points" in t)) \
        not in places


def test_a_kind_written_as_a_quoted_type_is_a_reference_and_renamed(session, game):
    from rulecraft.dsl.loader import load_ruleset

    uri = _open(session, game / "game.yaml")
    refs = session.run(session.client.text_document_references_async(lsp.ReferenceParams(
        context=lsp.ReferenceContext(include_declaration=True), text_document=_doc(uri),
        position=_at(GAME_YAML, "card:"))))
    favourite = _at(GAME_YAML, '"card?"')
    assert (favourite.line, favourite.character + 1) in {(r.range.start.line, r.range.start.character) for r in refs}
    edit = _rename(session, game / "game.yaml", GAME_YAML, "  card:", "playing_card", offset=2)
    _apply(edit)
    assert 'favourite: {type: "playing_card?"}' in (game / "game.yaml").read_text()
    assert load_ruleset(game).ok and scenario_errors(game) == []


def test_a_zone_and_a_component_renamed_follow_ids_in_the_scenarios(session, game):
    edit = _rename(session, game / "game.yaml", GAME_YAML, "hand:", "held")
    _apply(edit)
    edit = _rename(session, game / "game.yaml", GAME_YAML, "red_card", "ruby_card")
    _apply(edit)
    seeds = (game.parent.parent / "seeds" / "lsp_tiny" / "basics.yaml").read_text()
    assert '"held:p1": {contains: [ruby_card.1]}' in seeds and 'shown: [p1.coins, "held:p1"]' in seeds
    assert "{do: draw, args: {c: ruby_card.1}, by: p1}" in seeds
    assert scenario_errors(game) == []


def test_a_refused_rename_names_every_place_to_change_by_hand(session, game):
    # two components set 'value' in their starting properties, which no rename follows
    blue = "  - {name: blue_card, kind: card, count: 2, zone: deck, properties: {value: 2}}\n"
    text = GAME_YAML.replace("  - {name: lamp,", blue + "  - {name: lamp,").replace(
        "count: 4, zone: deck}", "count: 4, zone: deck, properties: {value: 3}}")
    (game / "game.yaml").write_text(text)
    with pytest.raises(Exception) as refused:
        _rename(session, game / "game.yaml", text, "value:", "worth")
    message = str(refused.value)
    assert "2 error(s)" in message
    assert f"game.yaml:{_at(text, 'red_card').line + 1}:" in message
    assert f"game.yaml:{_at(text, 'blue_card').line + 1}:" in message


def test_a_rename_a_variant_names_changes_the_variant_too(session, game):
    from rulecraft.dsl.loader import load_ruleset

    edit = _rename(session, game / "game.yaml", GAME_YAML, "bonus:", "extra")
    _apply(edit)
    assert "parameters:\n  extra: 3\n" in (game / "variants" / "quick.yaml").read_text()
    assert '  parameters.extra: "Points en plus."' in (game / "glossary" / "fr.yaml").read_text()
    assert load_ruleset(game).ok and load_ruleset(game, variant="quick").ok and scenario_errors(game) == []
