"""What a hidden-role game showed of the checks that guard secrets: a vote revealed
once stayed shown for every later vote (a reveal lasts until hidden), and a count of
fail cards, announced as the rules mean it, was warned as if it told whose they were."""

from __future__ import annotations

from engine_rulesets import build, game_yaml

DATA = """
kinds:
  player:
    properties:
      vote: {type: "text?", values: [approve, reject], visible_to: owner}
      card: {type: "text?", values: [success, fail], visible_to: owner}
"""

VOTES = """
procedure setup():
    do:
        stop

procedure round():
    do:
        for each p in players:
            choose v from ["approve", "reject"] by p
            set p.vote = v
        for each p in players:
            reveal p.vote
        HIDE
        emit votes_shown(approvals: count([p for p in players where p.vote == "approve"]))
"""


def _warnings(tmp_path, rules: str) -> list[str]:
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 3)) + DATA, "main.rules": rules})
    return [d.message for d in rs.bag.warnings]


def test_a_vote_revealed_and_cast_again_without_a_hide_is_warned(tmp_path):
    warnings = _warnings(tmp_path, VOTES.replace("HIDE", "stop"))
    assert len(warnings) == 1 and "'p.vote' stays shown once revealed" in warnings[0]
    assert "vote is set again at" in warnings[0]


def test_a_vote_hidden_again_is_not_warned(tmp_path):
    hide = "for each p in players:\n            hide p.vote"
    assert _warnings(tmp_path, VOTES.replace("HIDE", hide)) == []


def test_a_vote_cast_and_shown_by_two_steps_of_the_round_is_warned(tmp_path):
    rules = """
procedure setup():
    do:
        stop

procedure round():
    do:
        cast_votes()
        show_votes()

procedure cast_votes():
    do:
        for each p in players:
            choose v from ["approve", "reject"] by p
            set p.vote = v

procedure show_votes():
    do:
        for each p in players:
            reveal p.vote
"""
    assert any("'p.vote' stays shown" in w for w in _warnings(tmp_path, rules))


def test_a_count_of_secret_cards_is_announced_not_leaked(tmp_path):
    rules = """
procedure setup():
    do:
        stop

procedure round():
    do:
        for each p in players:
            choose c from ["success", "fail"] by p
            set p.card = c
        emit mission_done(fails: count([p for p in players where p.card == "fail"]))
        emit told(first: first([p for p in players]).card)
"""
    warnings = _warnings(tmp_path, rules)
    # the count tells no one's card; the first player's own card, told to all, does
    assert len(warnings) == 1 and "its field 'first' reads player.card" in warnings[0]
