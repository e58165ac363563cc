"""The VS Code extension's files: its TextMate grammar is the one the lexer's word lists
give, and it tokenizes rule lines sensibly; its manifest names files that exist."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rulecraft.dsl.parser import RESERVED
from rulecraft.lsp.textmate import render

EXTENSION = Path(__file__).resolve().parent.parent / "editors" / "vscode"
GRAMMAR = EXTENSION / "syntaxes" / "rules.tmLanguage.json"
RULES = Path(__file__).resolve().parent.parent / "rules" / "panic_station"


def tokenize(grammar: dict, line: str) -> list[tuple[str, str]]:
    """(text, scope) pairs, as a TextMate engine reads a line with match-only rules: at
    each point the pattern matching earliest wins, the first listed on a tie."""
    patterns = [(re.compile(p["match"]), p) for p in grammar["patterns"]]
    out, i = [], 0
    while i < len(line):
        best = None
        for regex, p in patterns:
            m = regex.search(line, i)
            if m and m.end() > m.start() and (best is None or m.start() < best[0].start()):
                best = (m, p)
        if best is None:
            break
        m, p = best
        if "captures" in p:
            out += [(m.group(int(g)), c["name"]) for g, c in p["captures"].items() if m.group(int(g))]
        else:
            out.append((m.group(), p["name"]))
        i = m.end()
    return out


@pytest.fixture(scope="module")
def grammar() -> dict:
    return json.loads(GRAMMAR.read_text())


def test_the_shipped_grammar_is_the_one_the_lexer_word_lists_give():
    assert GRAMMAR.read_text() == render(), "run: python -m rulecraft.lsp.textmate > " + str(GRAMMAR)


def test_every_reserved_word_is_highlighted_as_a_keyword_of_some_kind(grammar):
    for word in sorted(RESERVED):
        scopes = [s for t, s in tokenize(grammar, f"{word} x") if t == word]
        assert scopes and not scopes[0].startswith("variable"), word


def test_rule_lines_get_the_scopes_a_theme_colours(grammar):
    scopes = dict(tokenize(grammar, "action search_room:  # the main action"))
    assert scopes["action"].startswith("keyword.declaration") and scopes["search_room"].startswith("entity.name.function")
    assert scopes["# the main action"].startswith("comment.line")
    scopes = dict(tokenize(grammar, '    text "Look around # not a comment"'))
    assert scopes['"Look around # not a comment"'].startswith("string.quoted.double.documentation")
    scopes = dict(tokenize(grammar, '    require count(hand(p)) >= 2 and not p.done else "too few"'))
    assert scopes["require"].startswith("keyword.control") and scopes["count"].startswith("entity.name.function.call")
    assert scopes["and"].startswith("keyword.operator.word") and scopes[">="].startswith("keyword.operator")
    assert scopes["2"].startswith("constant.numeric") and scopes['"too few"'].startswith("string.quoted.double")
    assert scopes["done"].startswith("variable") and scopes["p"].startswith("variable")
    assert dict(tokenize(grammar, "set x = none"))["none"].startswith("constant.language")


def test_every_shipped_rule_line_is_covered_by_the_grammar(grammar):
    for path in sorted(RULES.glob("*.rules")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            covered = "".join(t for t, _ in tokenize(grammar, line))
            assert re.sub(r"\s", "", covered) == re.sub(r"\s", "", line), f"{path.name}:{n}"


def test_the_manifest_names_the_grammar_and_language_configuration():
    manifest = json.loads((EXTENSION / "package.json").read_text())
    language = manifest["contributes"]["languages"][0]
    assert language["extensions"] == [".rules"]
    json.loads((EXTENSION / language["configuration"]).read_text())
    grammar = manifest["contributes"]["grammars"][0]
    assert grammar["language"] == language["id"] and (EXTENSION / grammar["path"]).is_file()
    assert grammar["scopeName"] == json.loads(GRAMMAR.read_text())["scopeName"]
    assert (EXTENSION / manifest["main"]).is_file()
    assert manifest["contributes"]["configuration"]["properties"]["rulecraft.server.args"]["default"] == ["lsp"]
