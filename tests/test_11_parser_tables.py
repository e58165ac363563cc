"""The parser's LALR tables ship with rulecraft (built once, not at every start), are
current with the grammar, and give the same parser as building them."""

from __future__ import annotations

import lark
import pytest
from lark import Lark

from rulecraft.dsl import cache_format, parser, parser_tables

SAMPLE = '''
action step:
    text "Go on."
    with r: room in connected(here) where r.open and not (r.lit or r.size > 2)
    cost 1 ap
    do:
        let n = [x.size for x in rooms() where x.size >= 1]
        if n:
            move c to r
'''


def shipped() -> dict:
    return cache_format.loads(parser_tables.SHIPPED.read_bytes())


def test_the_shipped_tables_are_made_from_the_current_grammar():
    # when this fails, regenerate them: python -m rulecraft.dsl.parser_tables
    assert shipped()["fingerprint"] == parser_tables.fingerprint(parser.grammar_text(), parser.LARK_OPTIONS)


@pytest.mark.skipif(shipped()["lark"] != lark.__version__, reason="tables made with another Lark are not used")
def test_the_shipped_tables_parse_like_a_parser_built_from_the_grammar(monkeypatch):
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    built = Lark(parser.grammar_text(), postlex=parser._RulesIndenter(), **parser.LARK_OPTIONS)
    parser.lark_parser.cache_clear()
    monkeypatch.setattr(parser_tables, "Lark", _NoBuilding)  # only loading the tables is allowed
    try:
        loaded = parser.lark_parser()
    finally:
        parser.lark_parser.cache_clear()
    assert loaded.parse(SAMPLE) == built.parse(SAMPLE)


class _NoBuilding(Lark):
    def __init__(self, *args, **kwargs):
        raise AssertionError("the parser's tables were built, not loaded")
