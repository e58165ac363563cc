"""`rulecraft lsp`, driven over stdio by pygls's own LanguageClient, as an editor would:
diagnostics as one types, hover, definition, references, completion and rename on a
small rule set written for these tests, and one look at the shipped rule set."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

RULES = Path(__file__).resolve().parent.parent / "rules" / "panic_station"
TIMEOUT = 30

GAME_YAML = """\
game:
  name: lsp_tiny
  players: {min: 2, max: 3}
  setup: setup_game
  round: play_round
  round_limit: 3

kinds:
  player:
    properties:
      score: {type: number, default: 0, text: Points scored so far.}
  card:
    located_in: zone
    properties:
      value: {type: number, default: 1}

zones:
  deck:
    holds: card

components:
  - {name: red_card, kind: card, count: 4, zone: deck, properties: {value: 3}}

parameters:
  bonus: {value: 2, text: Points added to every score.}
"""

ROUNDS_RULES = """\
procedure setup_game():
    do:
        shuffle deck

procedure play_round():
    do:
        for each p in players:
            score_points(p)
"""

SCORE_RULES = """\
procedure score_points(p: player):
    text "The player scores the best card value plus the bonus."
    do:
        set p.score += best_value() + bonus

function best_value() -> number:
    = max([c.value for c in contents(deck)] + [0])
"""


class Session:
    """One server process and the client talking to it, on one event loop."""

    def __init__(self, cwd: Path):
        self.loop = asyncio.new_event_loop()
        self.client = LanguageClient("rulecraft-tests", "1")
        self.diagnostics: dict[str, list[lsp.Diagnostic]] = {}
        self.published: dict[str, int] = {}  # how many times each file's diagnostics came
        self._changed = asyncio.Event()
        self.versions: dict[str, int] = {}

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _publish(params: lsp.PublishDiagnosticsParams) -> None:
            self.diagnostics[params.uri] = list(params.diagnostics)
            self.published[params.uri] = self.published.get(params.uri, 0) + 1
            self._changed.set()

        self.run(self.client.start_io(sys.executable, "-m", "rulecraft.cli.main", "lsp", cwd=str(cwd),
                                      env={**os.environ}))
        self.run(self.client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), root_uri=cwd.as_uri())))
        self.client.initialized(lsp.InitializedParams())

    def run(self, coroutine):
        return self.loop.run_until_complete(asyncio.wait_for(coroutine, TIMEOUT))

    def open(self, path: Path, text: str | None = None) -> str:
        uri = path.as_uri()
        self.versions[uri] = 1
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(
            uri, "rulecraft-rules" if path.suffix == ".rules" else "yaml", 1,
            path.read_text() if text is None else text)))
        return uri

    def change(self, uri: str, text: str) -> None:
        self.versions[uri] += 1
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(self.versions[uri], uri),
            [lsp.TextDocumentContentChangeWholeDocument(text)]))

    def wait_diagnostics(self, uri: str, condition) -> list[lsp.Diagnostic]:
        """The diagnostics of ``uri`` once they satisfy ``condition``."""
        async def wait():
            while not (uri in self.diagnostics and condition(self.diagnostics[uri])):
                self._changed.clear()
                await self._changed.wait()
            return self.diagnostics[uri]
        return self.run(wait())

    def close(self) -> None:
        self.run(self.client.shutdown_async(None))
        self.client.exit(None)
        self.run(self.client.stop())
        self.loop.close()


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("lsp") / "tiny"
    folder.mkdir()
    for name, text in (("game.yaml", GAME_YAML), ("rounds.rules", ROUNDS_RULES), ("score.rules", SCORE_RULES)):
        (folder / name).write_text(text)
    return folder


@pytest.fixture(scope="module")
def session(tiny):
    s = Session(tiny.parent)
    yield s
    s.close()


def _at(text: str, needle: str, nth: int = 0) -> lsp.Position:
    """The protocol position of the ``nth`` occurrence of ``needle`` in ``text``."""
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index)
    return lsp.Position(line, index - (text.rfind("\n", 0, index) + 1))


def _doc(uri: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri)


def test_the_loader_reads_an_unsaved_text_in_place_of_the_file(tiny):
    from rulecraft.dsl.loader import load_ruleset

    score = (tiny / "score.rules").resolve()
    broken = load_ruleset(tiny, overlay={score: SCORE_RULES.replace("+ bonus", "+ bonnus")})
    assert [d.message for d in broken.bag.errors] == ["unknown name 'bonnus'"]
    assert broken.bag.errors[0].position.line == 4
    assert load_ruleset(tiny).ok  # the file itself is untouched


def test_a_mistake_is_reported_as_one_types_with_its_range_and_cleared_when_fixed(session, tiny):
    score = session.open(tiny / "score.rules")
    assert session.wait_diagnostics(score, lambda d: True) == []  # the rule set is clean
    broken = SCORE_RULES.replace("best_value() + bonus", "best_valu() + bonus")
    session.change(score, broken)
    found = session.wait_diagnostics(score, lambda d: len(d) > 0)
    errors = [d for d in found if d.severity == lsp.DiagnosticSeverity.Error]
    assert len(errors) == 1
    d = errors[0]
    assert "unknown function 'best_valu'" in d.message and "did you mean 'best_value'" in d.message
    assert [w.message for w in found if w.severity == lsp.DiagnosticSeverity.Warning] == [
        "function 'best_value' is never used\nhint: remove it or call it from a rule"]
    start = _at(broken, "best_valu()")
    assert (d.range.start.line, d.range.start.character) == (start.line, start.character)
    assert (d.range.end.line, d.range.end.character) == (start.line, start.character + len("best_valu"))
    session.change(score, SCORE_RULES)
    assert session.wait_diagnostics(score, lambda d: len(d) == 0) == []


def test_a_burst_of_keystrokes_is_checked_once_when_typing_pauses(session, tiny):
    score = session.open(tiny / "score.rules")
    session.wait_diagnostics(score, lambda d: len(d) == 0)
    before = session.published[score]
    typed = ""
    for letter in "bonux":  # typed one letter at a time, the last one a mistake
        typed += letter
        session.change(score, SCORE_RULES.replace("+ bonus", "+ " + typed))
    found = session.wait_diagnostics(score, lambda d: any("'bonux'" in x.message for x in d))
    assert [d.message.split("\n")[0] for d in found] == ["unknown name 'bonux'"]
    assert session.published[score] - before <= 2  # not one check per keystroke
    session.change(score, SCORE_RULES)
    session.wait_diagnostics(score, lambda d: len(d) == 0)


def test_an_edit_breaking_another_file_is_reported_in_that_file(session, tiny):
    rounds = (tiny / "rounds.rules").as_uri()
    score = session.open(tiny / "score.rules")
    session.change(score, SCORE_RULES.replace("procedure score_points(", "procedure score_point("))
    found = session.wait_diagnostics(rounds, lambda d: len(d) > 0)
    assert "unknown procedure 'score_points'" in found[0].message
    assert found[0].range.start == _at(ROUNDS_RULES, "score_points(p)")
    session.change(score, SCORE_RULES)
    session.wait_diagnostics(rounds, lambda d: len(d) == 0)


def test_a_yaml_mistake_is_located_in_the_yaml(session, tiny):
    game = session.open(tiny / "game.yaml")
    session.change(game, GAME_YAML.replace("holds: card", "holds: cards"))
    found = session.wait_diagnostics(game, lambda d: len(d) > 0)
    assert any("unknown kind 'cards'" in d.message for d in found)
    session.change(game, GAME_YAML)
    session.wait_diagnostics(game, lambda d: len(d) == 0)


def test_hover_gives_the_rule_in_plain_words_and_the_types_of_names(session, tiny):
    rounds = session.open(tiny / "rounds.rules")
    hover = session.run(session.client.text_document_hover_async(
        lsp.HoverParams(_doc(rounds), _at(ROUNDS_RULES, "score_points(p)"))))
    text = hover.contents.value
    assert "procedure score_points(p: player):" in text
    assert "bonus" in text.split("```")[-1]  # the plain-language steps name what is added
    local = session.run(session.client.text_document_hover_async(
        lsp.HoverParams(_doc(rounds), _at(ROUNDS_RULES, "p)"))))
    assert local.contents.value == "local **p**: `player`"
    score = session.open(tiny / "score.rules")
    bonus = session.run(session.client.text_document_hover_async(
        lsp.HoverParams(_doc(score), _at(SCORE_RULES, "bonus\n"))))
    assert "parameter **bonus** = `2`" in bonus.contents.value and "Points added to every score." in bonus.contents.value
    prop = session.run(session.client.text_document_hover_async(
        lsp.HoverParams(_doc(score), _at(SCORE_RULES, "score +="))))
    assert "player.score" in prop.contents.value and "`number`" in prop.contents.value
    assert "Points scored so far." in prop.contents.value


def test_definition_leads_to_the_rule_file_or_the_yaml(session, tiny):
    score = session.open(tiny / "score.rules")
    found = session.run(session.client.text_document_definition_async(
        lsp.DefinitionParams(_doc(score), _at(SCORE_RULES, "best_value()"))))
    assert [(f.uri, f.range.start) for f in found] == [(score, _at(SCORE_RULES, "best_value", 1))]
    found = session.run(session.client.text_document_definition_async(
        lsp.DefinitionParams(_doc(score), _at(SCORE_RULES, "deck"))))
    assert [(f.uri, f.range.start) for f in found] == [((tiny / "game.yaml").as_uri(), _at(GAME_YAML, "deck:"))]


def test_references_are_found_across_rule_files_and_yaml(session, tiny):
    score = session.open(tiny / "score.rules")
    found = session.run(session.client.text_document_references_async(lsp.ReferenceParams(
        context=lsp.ReferenceContext(include_declaration=True), text_document=_doc(score),
        position=_at(SCORE_RULES, "score_points"))))
    assert sorted((f.uri.rsplit("/", 1)[1], f.range.start.line) for f in found) == [
        ("rounds.rules", 7), ("score.rules", 0)]
    found = session.run(session.client.text_document_references_async(lsp.ReferenceParams(
        context=lsp.ReferenceContext(include_declaration=True), text_document=_doc(score),
        position=_at(SCORE_RULES, "score +="))))
    assert sorted(f.uri.rsplit("/", 1)[1] for f in found) == ["game.yaml", "score.rules"]
    setup = session.run(session.client.text_document_references_async(lsp.ReferenceParams(
        context=lsp.ReferenceContext(include_declaration=False), text_document=_doc((tiny / "rounds.rules").as_uri()),
        position=_at(ROUNDS_RULES, "setup_game"))))
    assert [(f.uri.rsplit("/", 1)[1], f.range.start) for f in setup] == [("game.yaml", _at(GAME_YAML, "setup_game"))]


def test_the_outline_lists_what_each_file_declares(session, tiny):
    score = session.open(tiny / "score.rules")
    found = session.run(session.client.text_document_document_symbol_async(lsp.DocumentSymbolParams(_doc(score))))
    assert [(s.name, s.kind) for s in found] == [("score_points", lsp.SymbolKind.Method),
                                                 ("best_value", lsp.SymbolKind.Function)]
    game = session.open(tiny / "game.yaml")
    found = session.run(session.client.text_document_document_symbol_async(lsp.DocumentSymbolParams(_doc(game))))
    assert [(s.name, s.container_name) for s in found] == [
        ("player", None), ("score", "player"), ("card", None), ("value", "card"), ("deck", None),
        ("red_card", None), ("bonus", None)]


def _labels(session, uri: str, text: str, position: lsp.Position) -> set[str]:
    session.change(uri, text)
    result = session.run(session.client.text_document_completion_async(lsp.CompletionParams(_doc(uri), position)))
    items = result.items if isinstance(result, lsp.CompletionList) else result
    return {i.label for i in items}


def test_completion_offers_names_kinds_properties_and_parameters(session, tiny):
    score = session.open(tiny / "score.rules")
    anywhere = _labels(session, score, SCORE_RULES, _at(SCORE_RULES, "best_value() +"))
    assert {"best_value", "score_points", "deck", "bonus", "max", "contents", "players", "p", "game"} <= anywhere
    assert "setup_game" in anywhere and "card" in anywhere
    typing = SCORE_RULES.replace("set p.score += best_value() + bonus", "set p.")
    dot = _at(typing, "set p.")
    after_dot = _labels(session, score, typing, lsp.Position(dot.line, dot.character + len("set p.")))
    assert "score" in after_dot and "value" not in after_dot
    typing = SCORE_RULES.replace("(p: player)", "(p: ")
    kinds = _labels(session, score, typing, lsp.Position(0, len("procedure score_points(p: ")))
    assert {"player", "card", "number"} <= kinds and "best_value" not in kinds
    session.change(score, SCORE_RULES)
    session.wait_diagnostics(score, lambda d: len(d) == 0)


def test_rename_edits_every_file_that_names_it(session, tiny):
    score = session.open(tiny / "score.rules")
    rounds = (tiny / "rounds.rules").as_uri()
    game = (tiny / "game.yaml").as_uri()
    edit = session.run(session.client.text_document_rename_async(lsp.RenameParams(
        _doc(score), _at(SCORE_RULES, "best_value"), "top_value")))
    assert {uri: len(edits) for uri, edits in edit.changes.items()} == {score: 2}
    assert all(e.new_text == "top_value" for e in edit.changes[score])
    edit = session.run(session.client.text_document_rename_async(lsp.RenameParams(
        _doc(rounds), _at(ROUNDS_RULES, "setup_game"), "prepare")))
    assert {uri: [(e.range.start, e.range.end.character - e.range.start.character) for e in edits]
            for uri, edits in edit.changes.items()} == {
        rounds: [(_at(ROUNDS_RULES, "setup_game"), len("setup_game"))],
        game: [(_at(GAME_YAML, "setup_game"), len("setup_game"))]}
    edit = session.run(session.client.text_document_rename_async(lsp.RenameParams(
        _doc(score), _at(SCORE_RULES, "score +="), "points")))
    assert sorted(u.rsplit("/", 1)[1] for u in edit.changes) == ["game.yaml", "score.rules"]
    with pytest.raises(Exception, match="already taken"):
        session.run(session.client.text_document_rename_async(lsp.RenameParams(
            _doc(score), _at(SCORE_RULES, "best_value"), "score_points")))
    with pytest.raises(Exception, match="not a name"):
        session.run(session.client.text_document_rename_async(lsp.RenameParams(
            _doc(score), _at(SCORE_RULES, "best_value"), "while do")))


def _apply(edit: lsp.WorkspaceEdit) -> None:
    for uri, edits in edit.changes.items():
        path = Path(uri.removeprefix("file://"))
        lines = path.read_text().split("\n")
        for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
            line = lines[e.range.start.line]
            lines[e.range.start.line] = line[:e.range.start.character] + e.new_text + line[e.range.end.character:]
        path.write_text("\n".join(lines))


def test_a_renamed_kind_is_renamed_in_the_yaml_too_and_the_rule_set_still_checks(session, tmp_path):
    from rulecraft.dsl.loader import load_ruleset

    folder = tmp_path / "tiny"
    folder.mkdir()
    for name, text in (("game.yaml", GAME_YAML), ("rounds.rules", ROUNDS_RULES), ("score.rules", SCORE_RULES)):
        (folder / name).write_text(text)
    game = session.open(folder / "game.yaml")
    edit = session.run(session.client.text_document_rename_async(lsp.RenameParams(
        _doc(game), _at(GAME_YAML, "card:"), "playing_card")))
    # the kind's key, what the zone holds, the component's kind
    assert len(edit.changes[game]) == 3
    _apply(edit)
    assert load_ruleset(folder).ok
    assert "holds: playing_card" in (folder / "game.yaml").read_text()


def test_a_rename_that_would_leave_the_old_name_somewhere_is_refused_saying_where(session, tiny):
    game = session.open(tiny / "game.yaml")
    # red_card sets 'value' in its starting properties, which no rule resolves
    with pytest.raises(Exception, match=r"game.yaml:\d+:\d+: component 'red_card'"):
        session.run(session.client.text_document_rename_async(lsp.RenameParams(
            _doc(game), _at(GAME_YAML, "value:"), "worth")))


def test_the_shipped_rule_set_opens_clean_with_plain_words_on_hover(session):
    path = sorted(RULES.glob("*.rules"))[0]
    text = path.read_text()
    uri = session.open(path)
    assert [d.message for d in session.wait_diagnostics(uri, lambda d: True)
            if d.severity == lsp.DiagnosticSeverity.Error] == []
    name_line = next(i for i, line in enumerate(text.splitlines()) if line.startswith(("action ", "procedure ")))
    column = text.splitlines()[name_line].index(" ") + 1
    hover = session.run(session.client.text_document_hover_async(
        lsp.HoverParams(_doc(uri), lsp.Position(name_line, column))))
    assert hover is not None and text.splitlines()[name_line].strip() in hover.contents.value
    assert len(hover.contents.value.split("```")[-1].strip()) > 20  # the rule in words follows the signature


def _raw_request(session, method: str, params: dict):
    """Send a request as written, unchecked by the client's classes (they refuse what an
    editor with a bug might send)."""
    protocol = session.client.protocol

    async def ask():
        typed = protocol.get_message_type
        protocol.get_message_type = lambda name: None  # sent as a plain JSON-RPC request
        try:
            answer = protocol.send_request_async(method, params)
        finally:
            protocol.get_message_type = typed
        return await answer

    return session.run(ask())


def test_a_request_with_an_invalid_position_is_answered_with_an_error(session, tiny):
    score = session.open(tiny / "score.rules")
    for position in ({"line": -1, "character": 0}, {"line": 0, "character": -1}, {"line": "one", "character": 0}):
        for method in (lsp.TEXT_DOCUMENT_HOVER, lsp.TEXT_DOCUMENT_COMPLETION, lsp.TEXT_DOCUMENT_DEFINITION):
            with pytest.raises(Exception, match="Invalid Params.*position") as raised:
                _raw_request(session, method, {"textDocument": {"uri": score}, "position": position})
            assert not isinstance(raised.value, asyncio.TimeoutError)
    with pytest.raises(Exception, match=r"Invalid Params.*required field missing @ \$\.params\.position"):
        _raw_request(session, lsp.TEXT_DOCUMENT_HOVER, {"textDocument": {"uri": score}})
    # a position past the end of a line or of the file is valid: nothing is there
    for line, character in ((0, 500), (9999, 0)):
        assert session.run(session.client.text_document_hover_async(
            lsp.HoverParams(_doc(score), lsp.Position(line, character)))) is None
    # and the server still answers
    hover = session.run(session.client.text_document_hover_async(
        lsp.HoverParams(_doc(score), _at(SCORE_RULES, "bonus\n"))))
    assert "parameter **bonus**" in hover.contents.value


def test_a_request_after_shutdown_is_refused_not_left_unanswered(tiny):
    s = Session(tiny.parent)
    try:
        score = s.open(tiny / "score.rules")
        s.run(s.client.shutdown_async(None))
        with pytest.raises(Exception, match="shutting down") as raised:
            s.run(s.client.text_document_hover_async(lsp.HoverParams(_doc(score), _at(SCORE_RULES, "bonus\n"))))
        assert not isinstance(raised.value, asyncio.TimeoutError)
    finally:
        s.client.exit(None)
        s.run(s.client.stop())
        s.loop.close()


def test_an_optional_parameter_keeps_its_question_mark_where_it_is_used(session, tiny):
    score = session.open(tiny / "score.rules")
    text = SCORE_RULES.replace("+ bonus\n", "+ bonus + bonus_of(none)\n") + (
        "\nfunction bonus_of(who: player?) -> number:\n    = who.score if who != none else 0\n")
    session.change(score, text)
    assert session.wait_diagnostics(score, lambda d: True) is not None
    for needle in ("who: player?", "who.score", "who != none"):
        hover = session.run(session.client.text_document_hover_async(
            lsp.HoverParams(_doc(score), _at(text, needle))))
        assert hover.contents.value == "local **who**: `player?`", needle
    typing = text.replace("= who.score if", "= who. if")
    dot = _at(typing, "who. if")
    after_dot = _labels(session, score, typing, lsp.Position(dot.line, dot.character + len("who.")))
    assert "score" in after_dot and "value" not in after_dot  # the properties of a player, not of every kind
    session.change(score, SCORE_RULES)
    session.wait_diagnostics(score, lambda d: len(d) == 0)


def test_columns_are_counted_in_utf16_units_past_characters_outside_the_bmp(session, tiny):
    score = session.open(tiny / "score.rules")
    # two dice (each two UTF-16 units, one character) before a name on the same line
    text = SCORE_RULES.replace("best_value() + bonus", 'count(["🎲🎲"]) + best_valu() + bonus')
    session.change(score, text)
    found = session.wait_diagnostics(score, lambda d: any("best_valu'" in x.message for x in d))
    assert len([x for x in found if x.severity == lsp.DiagnosticSeverity.Error]) == 1
    d = next(x for x in found if "best_valu'" in x.message)
    start = _at(text, "best_valu()")
    assert (d.range.start.line, d.range.start.character, d.range.end.character) == (
        start.line, start.character + 2, start.character + 2 + len("best_valu"))
    fixed = text.replace("best_valu()", "best_value()")
    session.change(score, fixed)
    session.wait_diagnostics(score, lambda d: len(d) == 0)
    call = _at(fixed, "best_value()")
    utf16 = lsp.Position(call.line, call.character + 2 + 1)  # inside the name, as the editor counts
    hover = session.run(session.client.text_document_hover_async(lsp.HoverParams(_doc(score), utf16)))
    assert hover is not None and "function best_value() -> number:" in hover.contents.value
    assert (hover.range.start.character, hover.range.end.character) == (
        call.character + 2, call.character + 2 + len("best_value"))
    edit = session.run(session.client.text_document_rename_async(lsp.RenameParams(_doc(score), utf16, "top_value")))
    on_the_line = [e.range for e in edit.changes[score] if e.range.start.line == call.line]
    assert [(r.start.character, r.end.character) for r in on_the_line] == [
        (call.character + 2, call.character + 2 + len("best_value"))]
    session.change(score, SCORE_RULES)
    session.wait_diagnostics(score, lambda d: len(d) == 0)


def test_completion_in_a_file_never_opened_that_cannot_be_read_still_answers(session, tiny, tmp_path):
    missing = (tiny / "not_written_yet.rules").as_uri()
    result = session.run(session.client.text_document_completion_async(
        lsp.CompletionParams(_doc(missing), lsp.Position(0, 0))))
    assert "best_value" in {i.label for i in result.items}
    latin1 = tmp_path / "latin1.rules"
    latin1.write_bytes(b"# caf\xe9\nprocedure x():\n")
    result = session.run(session.client.text_document_completion_async(
        lsp.CompletionParams(_doc(latin1.as_uri()), lsp.Position(1, 3))))
    assert "procedure" in {i.label for i in result.items}


def test_a_rename_changes_the_glossaries_too(session, tmp_path):
    from rulecraft.docgen.glossary import check_glossaries
    from rulecraft.dsl.loader import load_ruleset

    folder = tmp_path / "tiny"
    (folder / "glossary").mkdir(parents=True)
    for name, text in (("game.yaml", GAME_YAML), ("rounds.rules", ROUNDS_RULES), ("score.rules", SCORE_RULES)):
        (folder / name).write_text(text)
    glossary = folder / "glossary" / "en.yaml"
    glossary.write_text("language: en\nkinds:\n  card: card\n  player: player\nproperties:\n  card.value: value\n"
                        "  player.score: score\nzones:\n  deck: deck\ncomponents:\n  red_card: red card\n"
                        "parameters:\n  bonus: bonus\ndefinitions:\n  best_value: best value\n")
    warned = [d.message for d in check_glossaries(load_ruleset(folder))]
    game = session.open(folder / "game.yaml")
    edit = session.run(session.client.text_document_rename_async(lsp.RenameParams(
        _doc(game), _at(GAME_YAML, "card:"), "playing_card")))
    assert [(e.range.start.line, e.range.start.character) for e in edit.changes[glossary.as_uri()]] == [(2, 2), (5, 2)]
    _apply(edit)
    session.change(game, (folder / "game.yaml").read_text())  # the editor applied the edit
    score = session.open(folder / "score.rules")
    edit = session.run(session.client.text_document_rename_async(lsp.RenameParams(
        _doc(score), _at(SCORE_RULES, "best_value"), "top_value")))
    _apply(edit)
    edit = session.run(session.client.text_document_rename_async(lsp.RenameParams(
        _doc(score), _at(SCORE_RULES, "score +="), "points")))
    _apply(edit)
    assert glossary.read_text().split("\n")[1:7] == [
        "kinds:", "  playing_card: card", "  player: player", "properties:", "  playing_card.value: value",
        "  player.points: score"]
    assert "  top_value: best value" in glossary.read_text()
    renamed = load_ruleset(folder)
    assert renamed.ok and [d.message for d in check_glossaries(renamed)] == warned


def test_a_malformed_message_is_one_line_on_stderr_not_a_traceback():
    """An editor shows the server's stderr in its output panel: a frame the server cannot
    read is told in one line (with --debug, in full), and the server reads on."""
    import subprocess

    bad = b"{not json"
    frame = b"Content-Length: %d\r\n\r\n%s" % (len(bad), bad)
    command = [sys.executable, "-m", "rulecraft.cli.main"]
    quiet = subprocess.run([*command, "lsp"], input=frame, capture_output=True, timeout=TIMEOUT)
    assert quiet.returncode == 0
    err = quiet.stderr.decode()
    assert "Traceback" not in err
    assert "rulecraft lsp: Unable to handle message: JSONDecodeError: Expecting property name" in err
    # the server still answered the editor, as before
    assert b"window/showMessage" in quiet.stdout
    loud = subprocess.run([*command, "--debug", "lsp"], input=frame, capture_output=True, timeout=TIMEOUT)
    assert "Traceback" in loud.stderr.decode()
