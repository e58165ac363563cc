"""What a card game written from scratch showed of rulecraft's words: a brace in a prompt
that names a variable was shown as written, a card named "{rank} of {suit}" was told
with its rank again, and a card passed out of sight opened a sentence in capitals where
the cards still in view did not."""

from __future__ import annotations

import pytest

from engine_rulesets import QUIET_SETUP_AND_ROUND, build, game_yaml, load_errors

from rulecraft.narration import Words

CARDS = """
kinds:
  player: {}
  card:
    located_in: zone
    properties:
      suit: {type: text, values: [clubs, spades]}
      rank: {type: number}
      strength: {type: number, default: 1}
zones:
  hand: {per_player: true, visible_to: owner}
  table: {}
components:
  - {name: "{suit}_{rank}", kind: card, zone: table, each: {suit: [clubs, spades], rank: [2, 3]}}
variables:
  game:
    direction: {type: text, default: left}
"""

GLOSSARY = """
language: en
kinds:
  card: {one: card, called: {one: "{rank} of {suit}", article: false}}
"""


@pytest.mark.parametrize("brace", ["{game.direction}", "{c.rank}", "{hand_size + 1}"])
def test_a_brace_naming_no_parameter_is_refused_in_a_prompt(tmp_path, brace):
    rules = QUIET_SETUP_AND_ROUND + f"""
action pick:
    do:
        choose c from contents(table) prompt "Pass a card {brace}"
        move c to hand(current_player)
"""
    errors = load_errors(tmp_path, {"game.yaml": game_yaml() + CARDS, "main.rules": rules})
    assert f"unknown parameter '{brace[1:-1]}' in the prompt" in errors
    assert "^" * len(brace) in errors  # the caret under the braces themselves


def test_a_brace_naming_no_parameter_is_refused_in_a_message(tmp_path):
    rules = QUIET_SETUP_AND_ROUND + """
action pick:
    require game.direction == "left" else "cards go {game.direction} this hand"
    do:
        stop
"""
    errors = load_errors(tmp_path, {"game.yaml": game_yaml() + CARDS, "main.rules": rules})
    assert "unknown parameter 'game.direction' in the message" in errors


def _words(tmp_path) -> Words:
    rules = QUIET_SETUP_AND_ROUND + """
action pick:
    do:
        stop
"""
    (tmp_path / "ruleset" / "glossary").mkdir(parents=True)
    (tmp_path / "ruleset" / "glossary" / "en.yaml").write_text(GLOSSARY.lstrip(), encoding="utf-8")
    return Words(build(tmp_path, {"game.yaml": game_yaml() + CARDS, "main.rules": rules}), "en")


def test_a_card_named_by_its_rank_is_not_told_its_rank_again(tmp_path):
    words = _words(tmp_path)
    card = {"kind": "card", "props": {"suit": "spades", "rank": 3, "strength": 4}}
    assert words.name("spades_3") == "3 of spades"
    # the rank is in the name; the strength is not, and is said
    assert words.details("spades_3", card) == ["strength 4"]


def test_a_card_out_of_sight_opens_a_sentence_as_one_in_view_does(tmp_path):
    rules = QUIET_SETUP_AND_ROUND + """
action pick:
    do:
        stop
"""
    words = Words(build(tmp_path, {"game.yaml": game_yaml() + CARDS, "main.rules": rules}), "en")
    words.kinds_by_id = {"clubs_2": "card"}  # the viewer sees clubs_2 only; spades_3 was passed on
    told = [words.event({"type": "moved", "entity": card, "source": "hand:p1", "destination": "hand:p2"})
            for card in ("clubs_2", "spades_3")]
    assert told[0].startswith("clubs_2 moves") and told[1].startswith("spades_3 moves")


def test_a_quiet_property_s_changes_are_not_told(tmp_path):
    """A property the rules keep for bookkeeping (who played a card) is news to nobody;
    the glossary says so with ``quiet``, and the card still shows it."""
    rules = QUIET_SETUP_AND_ROUND + """
action pick:
    do:
        stop
"""
    (tmp_path / "ruleset" / "glossary").mkdir(parents=True)
    (tmp_path / "ruleset" / "glossary" / "en.yaml").write_text(
        GLOSSARY.lstrip() + "properties:\n  card.played_by: {one: played by, quiet: true}\n  card.strength: strength\n",
        encoding="utf-8")
    words = Words(build(tmp_path, {"game.yaml": game_yaml() + CARDS.replace(
        "strength: {type: number, default: 1}",
        "strength: {type: number, default: 1}\n      played_by: {type: text, default: nobody}"),
        "main.rules": rules}), "en")
    words.kinds_by_id = {"spades_3": "card"}
    quiet = {"type": "changed", "entity": "spades_3", "property": "played_by", "value": "p1"}
    told = {"type": "changed", "entity": "spades_3", "property": "strength", "value": 4}
    # an empty text is an event not told (the screens and the page leave it out)
    assert words.tell([quiet, told]) == ["", "3 of spades: strength is now 4."]
    card = {"kind": "card", "props": {"suit": "spades", "rank": 3, "played_by": "p1"}}
    assert "played by p1" in words.details("spades_3", card)


def test_a_listed_property_may_be_cleared_to_none(tmp_path):
    """A vote of approve or reject, cleared for the next vote: none is no value, and the
    engine takes it whatever the property lists, so the checker must too."""
    data = """
kinds:
  player:
    properties:
      vote: {type: "text?", values: [approve, reject]}
"""
    rules = QUIET_SETUP_AND_ROUND + """
action vote:
    do:
        set current_player.vote = "approve"
        set current_player.vote = none
"""
    build(tmp_path, {"game.yaml": game_yaml() + data, "main.rules": rules})  # loads without an error
    errors = load_errors(tmp_path, {"game.yaml": game_yaml() + data,
                                    "main.rules": rules.replace('"approve"', '"abstain"')})
    assert "player.vote cannot be 'abstain'" in errors or 'player.vote cannot be "abstain"' in errors


def test_a_name_made_from_a_property_the_rules_change_is_warned_of(tmp_path):
    """A name is made once, from the values a thing starts with: a die called "die {slot}
    ({face})" read "die 1 (None)" all game long. `check` says so at the glossary's line."""
    from rulecraft.docgen.glossary import check_glossaries

    rules = QUIET_SETUP_AND_ROUND + """
action rank_up:
    with c: card in contents(table)
    do:
        set c.strength += 1
"""
    glossary = GLOSSARY.replace('"{rank} of {suit}"', '"{rank} of {suit} ({strength})"')
    rs = build(tmp_path, {"game.yaml": game_yaml() + CARDS, "main.rules": rules, "glossary/en.yaml": glossary})
    found = [d for d in check_glossaries(rs, docs_words=False) if "which the rules change" in d.message]
    assert [d.message for d in found] == [
        "the en glossary's name of each card, '{rank} of {suit} ({strength})', has the slot {strength}, which the "
        "rules change in play: a name is made once, from the values a thing starts with"]
    assert found[0].hint == "leave {strength} out of the name: the screens show a changing strength beside it"
    assert found[0].position.line == 3  # the kind's line
    # the rank, which no rule changes, may name the card
    plain = build(tmp_path / "plain", {"game.yaml": game_yaml() + CARDS, "main.rules": rules, "glossary/en.yaml": GLOSSARY})
    assert not [d for d in check_glossaries(plain, docs_words=False) if "which the rules change" in d.message]
