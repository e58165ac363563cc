"""`rulecraft lsp` while editing: glossary files (the base's and a variant's) get their
own diagnostics and refresh the others; completion stays quiet in strings, comments and
YAML that is not a table of the rule set; hover words; a malformed request is one line
on stderr; a request is answered from the latest check while a new one runs."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types as lsp

from test_98_lsp import TIMEOUT, Session, _at, _doc
from test_98_lsp_rename import GAME_YAML, GLOSSARY_EN, PLAY_RULES, write_game


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    return write_game(tmp_path_factory.mktemp("lsp_editing"))


@pytest.fixture(scope="module")
def session(game):
    s = Session(game.parent.parent)
    yield s
    s.close()


def test_a_glossary_file_belongs_to_its_rule_set_and_a_variant_glossary_to_its_variant(game):
    from rulecraft.lsp.workspace import ruleset_of

    root = game.resolve()
    assert ruleset_of(root / "glossary" / "en.yaml") == (root, None)
    assert ruleset_of(root / "play.rules") == (root, None)
    assert ruleset_of(root / "variants" / "quick.yaml") == (root, "quick")
    assert ruleset_of(root / "variants" / "quick" / "glossary" / "fr.yaml") == (root, "quick")
    # a scenario file is no file of the rule set
    assert ruleset_of(root / "variants" / "quick" / "scenarios.yaml") is None
    assert ruleset_of(root.parent.parent / "seeds" / "lsp_tiny" / "basics.yaml") is None


def test_a_glossary_gets_its_own_diagnostics_as_it_is_edited(session, game):
    glossary = session.open(game / "glossary" / "en.yaml")
    assert not any("valeu" in d.message for d in session.wait_diagnostics(glossary, lambda d: True))
    session.change(glossary, GLOSSARY_EN.replace('"card.value"', '"card.valeu"'))
    found = session.wait_diagnostics(glossary, lambda d: any("card.valeu" in x.message for x in d))
    slip = next(d for d in found if "card.valeu" in d.message)
    assert slip.range.start.line == _at(GLOSSARY_EN, '"card.value"').line
    # fixed in the editor, not saved: the warning goes
    session.change(glossary, GLOSSARY_EN)
    session.wait_diagnostics(glossary, lambda d: not any("valeu" in x.message for x in d))


def test_a_new_rule_file_not_yet_saved_gets_diagnostics_and_joins_the_check(session, game):
    # the loader read the folder's files from disk: a new file got nothing until saved
    path = game / "extra.rules"
    assert not path.exists()
    uri = session.open(path, "function doubled(p: player) -> number:\n    = p.scroe * 2\n")
    found = session.wait_diagnostics(uri, lambda d: any("scroe" in x.message for x in d))
    slip = next(d for d in found if "scroe" in d.message)
    assert (slip.range.start.line, slip.range.start.character) == (1, 8)
    # its definitions are the rule set's: another file may call them
    session.change(uri, "function doubled(p: player) -> number:\n    = p.score * 2\n")
    session.wait_diagnostics(uri, lambda d: not any("scroe" in x.message for x in d))
    session.client.text_document_did_close(lsp.DidCloseTextDocumentParams(_doc(uri)))
    del session.versions[uri]
    assert not path.exists()


def test_a_variant_glossary_is_checked_with_its_variant(session, game):
    path = game / "variants" / "quick" / "glossary" / "en.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('language: en\ndefinitions:\n  "draww": "draw"\n')
    uri = session.open(path)
    found = session.wait_diagnostics(uri, lambda d: any("draww" in x.message for x in d))
    assert next(d for d in found if "draww" in d.message).range.start.line == 2
    session.change(uri, 'language: en\ndefinitions:\n  "draw": "draw"\n')
    session.wait_diagnostics(uri, lambda d: not any("draww" in x.message for x in d))


def _labels(session, uri: str, text: str, position: lsp.Position, trigger: str | None = None) -> list[str]:
    session.change(uri, text)
    context = (lsp.CompletionContext(lsp.CompletionTriggerKind.TriggerCharacter, trigger) if trigger
               else lsp.CompletionContext(lsp.CompletionTriggerKind.Invoked))
    result = session.run(session.client.text_document_completion_async(lsp.CompletionParams(
        _doc(uri), position, context=context)))
    items = result.items if isinstance(result, lsp.CompletionList) else result
    return [i.label for i in items]


def _end_of(text: str, needle: str) -> lsp.Position:
    at = _at(text, needle)
    return lsp.Position(at.line, at.character + len(needle))


def test_completion_is_quiet_in_strings_comments_and_yaml_that_is_no_table(session, game):
    rules = session.open(game / "play.rules")
    text = PLAY_RULES.replace('text "Draw the top card."', 'text "Draw the top ca')
    assert _labels(session, rules, text, _end_of(text, '"Draw the top ca')) == []
    text = PLAY_RULES.replace("    do:\n        shuffle deck", "    # shuffle the d\n    do:\n        shuffle deck")
    assert _labels(session, rules, text, _end_of(text, "# shuffle the d")) == []
    # a ':' that ends `do:` asks for nothing; one after a name being typed offers the types
    text = PLAY_RULES.replace("procedure score_points(p: player):", "procedure score_points(p:")
    assert _labels(session, rules, PLAY_RULES, _end_of(PLAY_RULES, "    do:"), trigger=":") == []
    assert "card" in _labels(session, rules, text, _end_of(text, "score_points(p:"), trigger=":")
    # outside strings the names still come
    assert "score_points" in _labels(session, rules, PLAY_RULES, _end_of(PLAY_RULES, "        score_points"))
    session.change(rules, PLAY_RULES)
    for path in (game / "variants" / "quick.yaml", game.parent.parent / "seeds" / "lsp_tiny" / "basics.yaml",
                 game / "variants" / "quick" / "scenarios.yaml"):
        uri = session.open(path)
        text = path.read_text()
        assert _labels(session, uri, text, lsp.Position(1, 4)) == [], path.name
    # a table of the rule set is offered the rule set's names, not the rules language's words
    uri = session.open(game / "game.yaml")
    labels = _labels(session, uri, GAME_YAML, _end_of(GAME_YAML, "  setup: setup_game"))
    assert "setup_game" in labels and "card" in labels and "while" not in labels


def test_completion_is_triggered_by_a_dot_and_a_colon_not_by_a_space():
    from rulecraft.lsp.server import server

    options = server.protocol.fm.feature_options[lsp.TEXT_DOCUMENT_COMPLETION]
    assert sorted(options.trigger_characters) == [".", ":"]


def _hover(session, uri: str, text: str, needle: str, offset: int = 0) -> str:
    at = _at(text, needle)
    found = session.run(session.client.text_document_hover_async(
        lsp.HoverParams(_doc(uri), lsp.Position(at.line, at.character + offset))))
    return found.contents.value if found else ""


def test_hover_words_a_component_a_loop_local_and_who_sees_a_zone(session, game):
    rules = session.open(game / "play.rules")
    session.change(rules, PLAY_RULES)
    session.wait_diagnostics(rules, lambda d: True)
    yaml = session.open(game / "game.yaml")
    session.change(yaml, GAME_YAML)
    assert "component **lamp**: an item" in _hover(session, yaml, GAME_YAML, "name: lamp", len("name: "))
    assert _hover(session, rules, PLAY_RULES, "set q.coins", len("set ")) == "local **q**: `player`"
    deck = _hover(session, rules, PLAY_RULES, "shuffle deck", len("shuffle "))
    assert "visible to: `nobody`" in deck and "type: `zone`" not in deck
    assert "visible to: `owner`" in _hover(session, rules, PLAY_RULES, "hand(current_player)")


def _stderr_of(*command: str, message: dict) -> str:
    """What the server says on stderr for one message read on stdin."""
    import json

    body = json.dumps(message).encode()
    frame = b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
    done = subprocess.run([sys.executable, "-m", "rulecraft.cli.main", *command], input=frame,
                          capture_output=True, timeout=TIMEOUT)
    return done.stderr.decode()


def test_a_request_that_does_not_read_is_one_line_on_stderr_unless_debug():
    hover = {"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover",
             "params": {"textDocument": {"uri": "file:///nowhere/x.rules"}}}
    quiet = _stderr_of("lsp", message=hover)
    assert quiet.strip().splitlines() == [
        "rulecraft lsp: could not read a 'textDocument/hover' message: required field missing @ $.params.position"]
    for command in (("lsp", "--debug"), ("--debug", "lsp")):
        assert "Traceback" in _stderr_of(*command, message=hover)


def test_requests_are_answered_from_the_latest_check_while_a_new_one_runs(tmp_path, monkeypatch):
    """A hover on a line an edit did not touch is answered from the last check, before the
    check of the edit is done and published. Every check of this server waits 2 s first
    (RULECRAFT_LSP_SLOW_CHECK), so the order holds on any machine."""
    monkeypatch.setenv("RULECRAFT_LSP_SLOW_CHECK", "2")
    root = write_game(tmp_path)
    body = "".join(f"procedure step_{i}(p: player):\n    text \"Step {i}.\"\n    do:\n"
                   f"        set p.score += bonus + {i}\n\n" for i in range(20))
    (root / "big.rules").write_text(body)
    s = Session(tmp_path)
    try:
        rules = (root / "play.rules").as_uri()  # not open: read from the file
        big = s.open(root / "big.rules")
        s.wait_diagnostics(big, lambda d: True)
        s.change(big, body + "\n# a comment at the end\n")
        s.run(asyncio.sleep(0.4))  # typing paused: the check of the edit is running
        published = s.published.get(big, 0)
        hover = s.run(s.client.text_document_hover_async(lsp.HoverParams(
            _doc(rules), _at(PLAY_RULES, "score_points(current_player)"))))
        assert hover is not None and "score_points" in hover.contents.value
        assert s.published.get(big, 0) == published, "the hover waited for the check"
        s.wait_diagnostics(big, lambda d: s.published.get(big, 0) > published)  # and the check goes on
    finally:
        s.close()
