"""A ``set`` whose target is not a name followed by ``.property`` (an index, a call, a
plain local name): the syntax error's hint says what a target is and how to write the
line instead, while other syntax errors keep their own hints."""

from __future__ import annotations

import textwrap

import pytest

from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.dsl.parser import parse_text


def only_error(line: str):
    text = textwrap.dedent(f"""\
        procedure tidy():
            do:
                let p = first(players)
                {line}
        """)
    bag = DiagnosticBag()
    parse_text(text, "tidy.rules", bag)
    assert len(bag.errors) == 1, bag.render()
    return bag.errors[0]


@pytest.mark.parametrize("line, column, thing, prop, op", [
    ("set players[0].starts = true", 20, "players[0]", "starts", "="),
    ("set first([q for q in players where q.starts]).starts = true", 18,
     "first([q for q in players where q.starts])", "starts", "="),
    ("set top(pile).worth += 2", 16, "top(pile)", "worth", "+="),
    ("set game.order[1].seat = 3", 23, "game.order[1]", "seat", "="),
])
def test_an_indexed_or_called_target_is_told_to_go_through_let(line, column, thing, prop, op):
    d = only_error(line)
    assert d.message in ("unexpected '['", "unexpected '('")
    assert (d.position.line, d.position.column) == (4, column)
    assert d.hint == (f"a 'set' target is a name followed by '.property', not an index or a call: "
                      f"write 'let x = {thing}' then 'set x.{prop} {op} …'")


def test_a_target_with_no_property_after_its_index_gets_the_general_rule():
    d = only_error("set players[0] = true")
    assert d.message == "unexpected '['"
    assert d.hint == "a 'set' target is a name followed by '.property' (set x.PROPERTY = …), not an index or a call"


def test_a_plain_local_name_is_told_to_use_let_or_a_property():
    d = only_error("set p = 3")
    assert d.message == "unexpected '='"
    assert "write 'let p = …' again" in d.hint
    assert "'set p.PROPERTY = …'" in d.hint


@pytest.mark.parametrize("line, message, hint", [
    # not a set target: the hints stay what they were
    ("let q = players[0", "the line ends too early", None),
    ("set p.score = 7 / 2", "unexpected character '/'", "'//'"),
    ("set p.score = 1 2", "unexpected '2'", "expected"),
])
def test_other_syntax_errors_keep_their_hints(line, message, hint):
    d = only_error(line)
    assert d.message == message
    if hint is not None:
        assert hint in d.hint
    assert "'set' target" not in (d.hint or "")
