"""Syntax errors that say what to write: a single '=' where a comparison stands, and a
'by' after a choose's prompt. Nothing here knows a shipped game."""

from __future__ import annotations

import textwrap

import pytest

from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.dsl.parser import parse_text


def parsed(line: str):
    text = textwrap.dedent(f"""\
        procedure tidy():
            do:
                let p = first(players)
                {line}
        """)
    bag = DiagnosticBag()
    parse_text(text, "tidy.rules", bag)
    return bag, text


def only_error(line: str):
    bag, _ = parsed(line)
    assert len(bag.errors) == 1, bag.render()
    return bag.errors[0]


@pytest.mark.parametrize("line, column, fixed", [
    ("if p = none:", 14, "if p == none:"),
    ("let rich = [q for q in players where q.coins = 3]", 54, "let rich = [q for q in players where q.coins == 3]"),
    ("while_x = p.coins = 2", None, None),
])
def test_a_single_equals_where_a_comparison_stands_says_to_write_two(line, column, fixed):
    d = only_error(line)
    if fixed is None:  # not a comparison's place: no such hint
        assert "compare with '=='" not in (d.hint or "")
        return
    assert d.message == "unexpected '='"
    assert (d.position.line, d.position.column) == (4, column)
    assert d.hint == f"compare with '==' (a single '=' only gives a value, after 'let' or 'set'): write '{fixed}'"


def test_set_of_a_plain_name_keeps_its_own_hint():
    d = only_error("set p = 3")
    assert "let p = …" in d.hint and "compare with" not in d.hint


def test_a_by_after_the_prompt_says_it_comes_before():
    d = only_error('choose q from players prompt "Who pays?" by p  # the payer')
    assert d.message == "unexpected 'by'"
    assert d.hint == ("'by' comes before 'prompt' (choose NAME from LIST by PLAYER prompt \"…\"): "
                      "write 'choose q from players by p prompt \"Who pays?\"'")


def test_a_by_elsewhere_keeps_its_hint():
    d = only_error("let q = p by p")
    assert "comes before 'prompt'" not in (d.hint or "")




@pytest.mark.parametrize("line, char, hint", [
    ("let x = 2 ^ 3", "^", "no power nor bitwise operators"),
    ("let x = true & false", "&", "'and' joins two conditions"),
    ("let x = true | false", "|", "'or' joins two conditions"),
    ("let x = !true", "!", "'not' denies a condition"),
])
def test_an_operator_of_other_languages_is_told_what_to_write(line, char, hint):
    d = only_error(line)
    assert d.message == f"unexpected character {char!r}"
    assert hint in d.hint
