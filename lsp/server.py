"""`rulecraft lsp`: a language server for rule sets, over stdio.

Edits are checked after a short pause in typing (a burst of keystrokes costs one check),
and the whole rule set is checked with the open buffers laid over the files, so an error
that a change causes in another file shows there at once.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from . import features
from .workspace import Checked, Workspace, ruleset_root

DEBOUNCE_SECONDS = 0.25


class RulesServer(LanguageServer):
    """The pygls server, with the open rule sets and the pending checks."""

    def __init__(self, debounce: float = DEBOUNCE_SECONDS) -> None:
        super().__init__("rulecraft", _version(), text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.rules = Workspace()
        self.debounce = debounce
        self._pending: dict[Path, asyncio.TimerHandle] = {}
        self._published: dict[Path, set[Path]] = {}  # rule set → files given diagnostics

    # ------------------------------------------------------------ buffers and checks
    def sync(self, uri: str) -> Path | None:
        """Copy the editor's text of ``uri`` into the rule-set workspace; its root."""
        fs_path = to_fs_path(uri)
        if not fs_path:  # an unsaved new file, or another scheme: it belongs to no rule set
            return None
        path = Path(fs_path)
        self.rules.open(path, self.workspace.get_text_document(uri).source)
        return ruleset_root(path.resolve())

    def checked(self, uri: str) -> tuple[Path, Checked] | None:
        """The up-to-date check of the rule set holding ``uri``."""
        path = Path(to_fs_path(uri) or "").resolve()
        root = ruleset_root(path)
        if root is None:
            return None
        try:
            return path, self.rules.check(root)
        except Exception as err:  # noqa: BLE001 - an editor's server must outlive any bug
            self.window_log_message(lsp.LogMessageParams(lsp.MessageType.Error, f"rulecraft: checking {root} failed: {err!r}"))
            return None

    def schedule(self, root: Path) -> None:
        """Check ``root`` once typing pauses."""
        loop = asyncio.get_running_loop()
        handle = self._pending.pop(root, None)
        if handle is not None:
            handle.cancel()
        self._pending[root] = loop.call_later(self.debounce, self.publish, root)

    def publish(self, root: Path) -> None:
        self._pending.pop(root, None)
        try:
            checked = self.rules.check(root)
        except Exception as err:  # noqa: BLE001
            self.window_log_message(lsp.LogMessageParams(lsp.MessageType.Error, f"rulecraft: checking {root} failed: {err!r}"))
            return
        by_file = features.diagnostics(checked, self.rules.text)
        for stale in self._published.get(root, set()) - set(by_file):
            by_file[stale] = []
        self._published[root] = {p for p, items in by_file.items() if items}
        for path, items in by_file.items():
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=path.as_uri(), diagnostics=items))


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rulecraft")
    except PackageNotFoundError:
        return "unknown"


server = RulesServer()


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: RulesServer, params: lsp.DidOpenTextDocumentParams) -> None:
    root = ls.sync(params.text_document.uri)
    if root is not None:
        ls.publish(root)  # at once: the file was just opened, nobody is typing


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: RulesServer, params: lsp.DidChangeTextDocumentParams) -> None:
    root = ls.sync(params.text_document.uri)
    if root is not None:
        ls.schedule(root)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: RulesServer, params: lsp.DidSaveTextDocumentParams) -> None:
    root = ls.sync(params.text_document.uri)
    if root is not None:
        ls.schedule(root)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: RulesServer, params: lsp.DidCloseTextDocumentParams) -> None:
    path = Path(to_fs_path(params.text_document.uri) or "")
    ls.rules.close(path)  # the file on disk counts again
    root = ruleset_root(path.resolve())
    if root is not None:
        ls.schedule(root)


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: RulesServer, params: lsp.HoverParams) -> lsp.Hover | None:
    found = ls.checked(params.text_document.uri)
    if found is None:
        return None
    return features.hover(found[1], found[0], params.position.line, params.position.character)


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: RulesServer, params: lsp.DefinitionParams) -> list[lsp.Location]:
    found = ls.checked(params.text_document.uri)
    if found is None:
        return []
    return features.definition(found[1], found[0], params.position.line, params.position.character)


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
def references(ls: RulesServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
    found = ls.checked(params.text_document.uri)
    if found is None:
        return []
    return features.references(found[1], found[0], params.position.line, params.position.character,
                               params.context.include_declaration)


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[".", ":", " "]))
def completion(ls: RulesServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    found = ls.checked(params.text_document.uri)
    path = Path(to_fs_path(params.text_document.uri) or "").resolve()
    text = ls.workspace.get_text_document(params.text_document.uri).source
    checked = found[1] if found else None
    items = features.completion(checked, path, params.position.line, params.position.character, text)
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls: RulesServer, params: lsp.DocumentSymbolParams) -> list[lsp.SymbolInformation]:
    found = ls.checked(params.text_document.uri)
    if found is None:
        return []
    return features.outline(found[1], found[0])


@server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
def prepare_rename(ls: RulesServer, params: lsp.PrepareRenameParams) -> lsp.Range | None:
    found = ls.checked(params.text_document.uri)
    if found is None:
        return None
    return features.prepare_rename(found[1], found[0], params.position.line, params.position.character)


@server.feature(lsp.TEXT_DOCUMENT_RENAME)
def rename(ls: RulesServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
    found = ls.checked(params.text_document.uri)
    if found is None:
        return None
    try:
        return features.rename(found[1], found[0], params.position.line, params.position.character, params.new_name,
                               ls.rules.trial(found[1].root))
    except features.RenameRefused as err:
        from pygls.exceptions import JsonRpcInvalidParams

        raise JsonRpcInvalidParams(str(err)) from None


def serve() -> None:
    server.start_io()
