"""`rulecraft lsp`: a language server for rule sets, over stdio.

Edits are checked after a short pause in typing (a burst of keystrokes costs one check),
and the whole rule set is checked with the open buffers laid over the files, so an error
that a change causes in another file shows there at once.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import RPCRequest
from pygls.uris import to_fs_path

from . import features
from .columns import Columns, from_client
from .workspace import Checked, Workspace, ruleset_root

DEBOUNCE_SECONDS = 0.25


class _Unreadable:
    """A request whose parameters could not be read (a negative position, a field of the
    wrong type): it is still answered, with the error."""

    def __init__(self, msg_id, method: str, error: JsonRpcException):
        self.id, self.method, self.error = msg_id, method, error


class RulesProtocol(LanguageServerProtocol):
    """pygls's protocol, answering every request. pygls reads a message's parameters while
    it decodes the JSON, and a request whose parameters do not read (a position at line
    -1) raises there, before anything knows its id: it was logged and never answered, and
    the editor waited for ever. Here it is answered with an Invalid Params error saying
    what was wrong; so is a request after shutdown (Invalid Request, as the protocol asks)."""

    def structure_message(self, data):
        try:
            return super().structure_message(data)
        except JsonRpcException as err:
            if isinstance(data, dict) and "id" in data and isinstance(data.get("method"), str):
                return _Unreadable(data["id"], data["method"], _explained(err))
            raise

    def handle_message(self, message) -> None:
        if isinstance(message, _Unreadable):
            self._send_response(message.id, error=message.error.to_response_error())
            return
        if self._shutdown and isinstance(message, RPCRequest):
            self._send_response(message.id, error=JsonRpcInvalidRequest(
                f"the server is shutting down: '{message.method}' is not answered").to_response_error())
            return
        super().handle_message(message)


def _explained(err: JsonRpcException) -> JsonRpcException:
    """An Invalid Params error that says which field was wrong, and why."""
    cause = err.__cause__
    if not isinstance(err, JsonRpcInvalidParams) or cause is None:
        return err
    try:
        from cattrs.v import format_exception, transform_error

        def say(exc: BaseException, type_) -> str:
            return str(exc) if isinstance(exc, ValueError) and str(exc) else format_exception(exc, type_)

        reasons = transform_error(cause, format_exception=say)
    except Exception:  # noqa: BLE001 - the plain error is still an answer
        return err
    return JsonRpcInvalidParams("Invalid Params: " + "; ".join(reasons)) if reasons else err


class RulesServer(LanguageServer):
    """The pygls server, with the open rule sets and the pending checks."""

    def __init__(self, debounce: float = DEBOUNCE_SECONDS) -> None:
        super().__init__("rulecraft", _version(), text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental,
                         protocol_cls=RulesProtocol)
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

    def columns(self) -> Columns:
        """Converts columns between the server's characters and the client's units."""
        return Columns(self.workspace.position_encoding, self.rules.text)

    def text_of(self, uri: str) -> str:
        """The editor's text of ``uri``, or the file's; empty when neither can be read (a
        file never opened that does not exist, or is not UTF-8)."""
        try:
            return self.workspace.get_text_document(uri).source
        except (OSError, UnicodeDecodeError, ValueError):
            return ""

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
        columns = self.columns()
        for path, items in by_file.items():
            for item in items:
                item.range = columns.range_out(path, item.range)
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


def _at(ls: RulesServer, params) -> tuple[Path, Checked, int, int, Columns] | None:
    """The checked rule set of the request's file, and its position in characters."""
    found = ls.checked(params.text_document.uri)
    if found is None:
        return None
    path, checked = found
    columns = ls.columns()
    return path, checked, params.position.line, columns.character_in(path, params.position), columns


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: RulesServer, params: lsp.HoverParams) -> lsp.Hover | None:
    found = _at(ls, params)
    if found is None:
        return None
    path, checked, line, character, columns = found
    result = features.hover(checked, path, line, character)
    if result is not None and result.range is not None:
        result.range = columns.range_out(path, result.range)
    return result


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: RulesServer, params: lsp.DefinitionParams) -> list[lsp.Location]:
    found = _at(ls, params)
    if found is None:
        return []
    path, checked, line, character, columns = found
    return [columns.location_out(o) for o in features.definition(checked, path, line, character)]


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
def references(ls: RulesServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
    found = _at(ls, params)
    if found is None:
        return []
    path, checked, line, character, columns = found
    return [columns.location_out(o) for o in
            features.references(checked, path, line, character, params.context.include_declaration)]


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[".", ":", " "]))
def completion(ls: RulesServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    found = ls.checked(params.text_document.uri)
    path = Path(to_fs_path(params.text_document.uri) or "").resolve()
    text = ls.text_of(params.text_document.uri)
    lines = text.splitlines()
    line = lines[params.position.line] if 0 <= params.position.line < len(lines) else ""
    character = from_client(line, params.position.character, ls.columns().encoding)
    checked = found[1] if found else None
    items = features.completion(checked, path, params.position.line, character, text)
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls: RulesServer, params: lsp.DocumentSymbolParams) -> list[lsp.SymbolInformation]:
    found = ls.checked(params.text_document.uri)
    if found is None:
        return []
    columns = ls.columns()
    symbols = features.outline(found[1], found[0])
    for symbol in symbols:
        symbol.location = columns.location_out(symbol.location)
    return symbols


@server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
def prepare_rename(ls: RulesServer, params: lsp.PrepareRenameParams) -> lsp.Range | None:
    found = _at(ls, params)
    if found is None:
        return None
    path, checked, line, character, columns = found
    result = features.prepare_rename(checked, path, line, character)
    return columns.range_out(path, result) if result is not None else None


@server.feature(lsp.TEXT_DOCUMENT_RENAME)
def rename(ls: RulesServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
    found = _at(ls, params)
    if found is None:
        return None
    path, checked, line, character, columns = found
    try:
        edit = features.rename(checked, path, line, character, params.new_name, ls.rules.trial(checked.root))
    except features.RenameRefused as err:
        raise JsonRpcInvalidParams(str(err)) from None
    if edit is not None and edit.changes:
        for uri, edits in edit.changes.items():
            edited = Path(to_fs_path(uri) or "").resolve()
            for e in edits:
                e.range = columns.range_out(edited, e.range)
    return edit


class _OneLine(logging.Formatter):
    """A log record as one line: the protocol library logs a traceback for every message
    it cannot read (a malformed frame from the editor), which an editor shows in full in
    its output panel; the reason is all that helps there."""

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            err = record.exc_info[1]
            text = f"{text}: {type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}".rstrip(": ")
        return f"rulecraft lsp: {text}"


def serve(debug: bool = False) -> None:
    """Speak the protocol on stdin/stdout. Log lines go to stderr, one line each unless
    ``debug`` (then with their tracebacks)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(name)s: %(message)s") if debug else _OneLine())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
    server.start_io()
