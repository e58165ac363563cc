"""The direct parser (the AST built as the text is parsed) gives exactly what Lark's
parse and the AST builder give: the same nodes, positions and diagnostics, for every
shipped rule file and for broken variants of them; what it is not sure of goes to Lark."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from rulecraft.dsl import direct_parser, parser
from rulecraft.dsl.diagnostics import DiagnosticBag

ROOT = Path(__file__).resolve().parent.parent
RULE_FILES = sorted(p for p in (ROOT / "rules").rglob("*.rules"))


def shape(value):
    """A value with every field spelt out (AST nodes compare by fields, positions too)."""
    if dataclasses.is_dataclass(value):
        return (type(value).__name__, tuple((f.name, shape(getattr(value, f.name))) for f in dataclasses.fields(value)))
    if isinstance(value, (list, tuple)):
        return tuple(shape(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, shape(v)) for k, v in value.items()))
    if isinstance(value, str):
        return ("str", str(value))
    return value


def parsed(text: str, direct: bool, monkeypatch) -> tuple:
    with monkeypatch.context() as patch:
        if not direct:
            def unsure(*args, **kwargs):
                raise direct_parser.Unsure
            patch.setattr(direct_parser, "parse_definition", unsure)
        bag = DiagnosticBag()
        rule_file = parser._parse(text, "some.rules", bag)
    return shape(rule_file), [(d.severity, d.message, d.position, d.hint) for d in bag.items]


def test_the_direct_tables_are_made_from_the_current_grammar():
    # when this fails, regenerate them: python -m rulecraft.dsl.parser_tables
    direct_parser.tables.cache_clear()
    assert direct_parser.tables() is not None


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_shipped_rule_files_parse_directly_as_lark_parses_them(path, monkeypatch):
    text = path.read_text(encoding="utf-8")
    for start, chunk in parser._split_definitions(text):
        if chunk.strip():  # every definition is read without Lark's help
            direct_parser.parse_definition(chunk, start, "some.rules", parser._AstBuilder("some.rules", DiagnosticBag()))
    assert parsed(text, True, monkeypatch) == parsed(text, False, monkeypatch)


SPLICED = sorted(parser.RESERVED) + sorted(parser.CONTEXTUAL) + [
    "top", "inx", "notx", "7", "(", ")", "[", "]", "==", "=", "-", "->", "-=", "+=", "//", "/",
    "\t", "    ", "\n", "#", '"', "'", ":", ",", ".", "?", "\r", "é"]


def broken_variants(count: int, seed: int):
    rng = random.Random(seed)
    chunks = [c for p in RULE_FILES for _, c in parser._split_definitions(p.read_text(encoding="utf-8")) if c.strip()]
    for _ in range(count):
        chunk = rng.choice(chunks)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(chunk))
            roll = rng.random()
            if roll < 0.3:
                chunk = chunk[:i] + chunk[i + rng.randint(1, 4):]
            elif roll < 0.75:
                chunk = chunk[:i] + rng.choice(SPLICED) + rng.choice(["", " "]) + chunk[i:]
            else:
                line_start = chunk.rfind("\n", 0, i) + 1
                chunk = chunk[:line_start] + rng.choice([" ", "  ", "    "]) + chunk[line_start:]
        yield chunk


def test_broken_rule_text_gets_the_same_diagnostics_and_ast(monkeypatch):
    answered = 0
    for text in broken_variants(300, seed=12):
        assert parsed(text, True, monkeypatch) == parsed(text, False, monkeypatch), text
        try:
            direct_parser.parse_definition(text, 1, "some.rules", parser._AstBuilder("some.rules", DiagnosticBag()))
            answered += 1
        except direct_parser.Unsure:
            pass
    assert 0 < answered < 300  # both kinds were compared: read directly, and handed to Lark


def test_a_word_lark_would_split_is_left_to_lark(monkeypatch):
    # Lark's contextual lexer reads `inb` after an expression as `in b`; the direct
    # parser does not guess, and the result is Lark's
    text = "function f(a: int, b: list of int) -> bool:\n    = a inb\n"
    with pytest.raises(direct_parser.Unsure):
        direct_parser.parse_definition(text, 1, "some.rules", parser._AstBuilder("some.rules", DiagnosticBag()))
    assert parsed(text, True, monkeypatch) == parsed(text, False, monkeypatch)


def test_tables_out_of_date_leave_every_parse_to_lark(monkeypatch, tmp_path):
    stale = tmp_path / "direct.json"
    stale.write_text('{"fingerprint": "an older grammar"}', encoding="utf-8")
    monkeypatch.setattr(direct_parser, "TABLES", stale)
    direct_parser.tables.cache_clear()
    try:
        with pytest.raises(direct_parser.Unsure):
            direct_parser.parse_definition("victory v:\n    when true\n", 1, "f", parser._AstBuilder("f", DiagnosticBag()))
        bag = DiagnosticBag()
        assert [d.name for d in parser._parse("victory v:\n    when true\n", "f", bag).definitions] == ["v"]
    finally:
        direct_parser.tables.cache_clear()
