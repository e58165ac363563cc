"""`rulecraft lsp`: a language server for rule sets, over stdio.

Edits are checked after a short pause in typing (a burst of keystrokes costs one check),
and the whole rule set is checked with the open buffers laid over the files, so an error
that a change causes in another file shows there at once. A glossary is checked with its
rule set, a variant's file with its variant. Checks run on a thread of their own, so a
request is answered from the latest check while the next one runs, when what it looks
at did not change since.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import RPCRequest
from pygls.uris import to_fs_path

from . import features
from .columns import Columns, from_client
from .workspace import Checked, RuleSetKey, Workspace, ruleset_of

DEBOUNCE_SECONDS = 0.25
logger = logging.getLogger("rulecraft.lsp")

# Seconds each check waits before it starts (RULECRAFT_LSP_SLOW_CHECK): only for testing
# that requests are answered from the last check while a new one runs, whatever the
# machine's speed. Unset, checks start at once.
SLOW_CHECK = float(os.environ.get("RULECRAFT_LSP_SLOW_CHECK") or 0)


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
            explained = _explained(err)
            method = data.get("method") if isinstance(data, dict) else None
            # one line saying what could not be read (pygls's own record of it, a traceback
            # of the parameters' reading, is left out of the log unless --debug)
            logger.warning("could not read %s: %s", f"a '{method}' message" if isinstance(method, str) else "a message",
                           str(explained).removeprefix("Invalid Params: "))
            if isinstance(data, dict) and "id" in data and isinstance(method, str):
                return _Unreadable(data["id"], method, explained)
            raise explained from err

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
    """The pygls server, with the open rule sets and the pending checks.

    Checks run on a thread of their own, one at a time, so that the editor's requests
    are answered while a check is running: hover, definition, references, completion
    and the outline are answered from the latest check of the rule set when what they
    look at has not changed since (a hover on a line the edit did not touch, a
    definition in a file the edit did not touch); otherwise they wait for the check of
    the text as it is now. Rename always waits: its edits must fit the text."""

    def __init__(self, debounce: float = DEBOUNCE_SECONDS) -> None:
        super().__init__("rulecraft", _version(), text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental,
                         protocol_cls=RulesProtocol)
        self.rules = Workspace()
        self.debounce = debounce
        self._checker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rulecraft-check")
        self._pending: dict[RuleSetKey, asyncio.TimerHandle] = {}
        self._published: dict[RuleSetKey, set[Path]] = {}  # rule set → files given diagnostics
        self._variants: dict[Path, set[str]] = {}  # rule set → the variants whose files were opened

    # ------------------------------------------------------------ buffers and checks
    def sync(self, uri: str) -> RuleSetKey | None:
        """Copy the editor's text of ``uri`` into the rule-set workspace; the rule set
        (and variant) it belongs to."""
        fs_path = to_fs_path(uri)
        if not fs_path:  # an unsaved new file, or another scheme: it belongs to no rule set
            return None
        path = Path(fs_path)
        self.rules.open(path, self.workspace.get_text_document(uri).source)
        key = ruleset_of(path.resolve())
        if key is not None and key[1] is not None:
            self._variants.setdefault(key[0], set()).add(key[1])
        return key

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

    def _check(self, key: RuleSetKey) -> Checked | Exception:
        if SLOW_CHECK:  # a test of what is answered while a check runs makes every check this slow
            time.sleep(SLOW_CHECK)
        try:
            return self.rules.check(*key)
        except Exception as err:  # noqa: BLE001 - an editor's server must outlive any bug
            return err

    async def run_checker(self, function, *args):
        """``function(*args)`` on the checks' thread (after the checks already asked for)."""
        return await asyncio.get_running_loop().run_in_executor(self._checker, function, *args)

    async def fresh(self, key: RuleSetKey) -> Checked | None:
        """The check of the rule set of ``key`` with the buffers as they are now."""
        result = await self.run_checker(self._check, key)
        if isinstance(result, Exception):
            self.window_log_message(lsp.LogMessageParams(
                lsp.MessageType.Error, f"rulecraft: checking {key[0]} failed: {result!r}"))
            return None
        return result

    async def checked(self, uri: str, line: int | None = None,
                      fresh: bool = False) -> tuple[Path, Checked] | None:
        """A check of the rule set holding ``uri``: the latest one when the file (or, with
        ``line``, that line of it) is as that check read it, else a check of the text as
        it is now; with ``fresh``, always the latter."""
        path = Path(to_fs_path(uri) or "").resolve()
        key = ruleset_of(path)
        if key is None:
            return None
        latest = self.rules.latest(*key)
        if latest is not None and not fresh and (self.rules.is_current(key, latest)
                                                 or self.unchanged(latest, path, line)):
            return path, latest
        checked = await self.fresh(key)
        return (path, checked) if checked is not None else None

    def unchanged(self, checked: Checked, path: Path, line: int | None = None) -> bool:
        """Whether ``path`` (or its line ``line``) is now as ``checked`` read it."""
        then = checked.texts.get(path)
        if then is None:
            then = self.rules.text(path) if path not in self.rules.buffers else None
            if then is None:
                return False
        now = self.rules.text(path)
        if now is None:
            return False
        if line is None:
            return now == then
        old, new = then.splitlines(), now.splitlines()
        return line < len(old) and line < len(new) and old[line] == new[line]

    def schedule(self, key: RuleSetKey) -> None:
        """Check the rule set of ``key`` once typing pauses; after a change of the base,
        the variants whose files were opened too (their checks read the base)."""
        keys = [key] + ([(key[0], v) for v in sorted(self._variants.get(key[0], ()))] if key[1] is None else [])
        loop = asyncio.get_running_loop()
        for k in keys:
            handle = self._pending.pop(k, None)
            if handle is not None:
                handle.cancel()
            self._pending[k] = loop.call_later(self.debounce, self._publish_soon, k)

    def forget(self, key: RuleSetKey) -> None:
        """Stop checking a variant, and clear the diagnostics its checks gave."""
        self._variants.get(key[0], set()).discard(key[1])
        handle = self._pending.pop(key, None)
        if handle is not None:
            handle.cancel()
        for path in self._published.pop(key, set()):
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=path.as_uri(), diagnostics=[]))

    def _publish_soon(self, key: RuleSetKey) -> None:
        self._pending.pop(key, None)
        asyncio.ensure_future(self.publish(key))

    async def publish(self, key: RuleSetKey) -> None:
        checked = await self.fresh(key)
        if checked is None or (key[1] is not None and key[1] not in self._variants.get(key[0], ())):
            return  # (a variant whose files were all closed meanwhile)
        by_file = features.diagnostics(checked, self.rules.text)
        if key[1] is not None:  # a variant's check tells its own files; the base's check tells the rest
            by_file = {p: items for p, items in by_file.items() if ruleset_of(p) == key}
        for stale in self._published.get(key, set()) - set(by_file):
            by_file[stale] = []
        self._published[key] = {p for p, items in by_file.items() if items}
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
    key = ls.sync(params.text_document.uri)
    if key is not None:
        asyncio.ensure_future(ls.publish(key))  # at once: the file was just opened, nobody is typing


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: RulesServer, params: lsp.DidChangeTextDocumentParams) -> None:
    key = ls.sync(params.text_document.uri)
    if key is not None:
        ls.schedule(key)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: RulesServer, params: lsp.DidSaveTextDocumentParams) -> None:
    key = ls.sync(params.text_document.uri)
    if key is not None:
        ls.schedule(key)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: RulesServer, params: lsp.DidCloseTextDocumentParams) -> None:
    path = Path(to_fs_path(params.text_document.uri) or "")
    ls.rules.close(path)  # the file on disk counts again
    key = ruleset_of(path.resolve())
    if key is None:
        return
    if key[1] is not None and not any(ruleset_of(p) == key for p in ls.rules.buffers):
        ls.forget(key)  # the variant's last file closed: it is checked no more
    else:
        ls.schedule(key)


async def _at(ls: RulesServer, params, fresh: bool = False) -> tuple[Path, Checked, int, int, Columns] | None:
    """The checked rule set of the request's file, and its position in characters."""
    found = await ls.checked(params.text_document.uri, params.position.line, fresh=fresh)
    if found is None:
        return None
    path, checked = found
    columns = ls.columns()
    return path, checked, params.position.line, columns.character_in(path, params.position), columns


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
async def hover(ls: RulesServer, params: lsp.HoverParams) -> lsp.Hover | None:
    found = await _at(ls, params)
    if found is None:
        return None
    path, checked, line, character, columns = found
    result = features.hover(checked, path, line, character)
    if result is not None and result.range is not None:
        result.range = columns.range_out(path, result.range)
    return result


async def _locations(ls: RulesServer, params, find) -> list[lsp.Location]:
    """Locations ``find(checked, path, line, character)`` gives, from the latest check
    when every file they lie in is as it read them, else from a check of the text now."""
    for fresh in (False, True):
        found = await _at(ls, params, fresh=fresh)
        if found is None:
            return []
        path, checked, line, character, columns = found
        locations = find(checked, path, line, character)
        files = {Path(to_fs_path(o.uri) or "").resolve() for o in locations}
        if fresh or all(ls.unchanged(checked, f) for f in files):
            return [columns.location_out(o) for o in locations]
    return []


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
async def definition(ls: RulesServer, params: lsp.DefinitionParams) -> list[lsp.Location]:
    return await _locations(ls, params, features.definition)


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
async def references(ls: RulesServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
    include = params.context.include_declaration
    return await _locations(ls, params, lambda c, p, l, ch: features.references(
        c, p, l, ch, include, ls.rules.trial(c.root, c.variant)))


# '.' offers what follows `x.`, ':' the types after `x:`; a space offered every word at
# every space, which only got in the way of typing
@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[".", ":"]))
async def completion(ls: RulesServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    path = Path(to_fs_path(params.text_document.uri) or "").resolve()
    text = ls.text_of(params.text_document.uri)
    lines = text.splitlines()
    line = lines[params.position.line] if 0 <= params.position.line < len(lines) else ""
    character = from_client(line, params.position.character, ls.columns().encoding)
    trigger = params.context.trigger_character if params.context is not None else None
    if not features.wants_completion(path, params.position.line, character, text, trigger):
        return lsp.CompletionList(is_incomplete=False, items=[])
    key = ruleset_of(path)
    checked = ls.rules.latest(*key) if key is not None else None
    if checked is None:  # the names come from any check, even one a few keystrokes old
        found = await ls.checked(params.text_document.uri)
        checked = found[1] if found else None
    items = features.completion(checked, path, params.position.line, character, text)
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
async def document_symbol(ls: RulesServer, params: lsp.DocumentSymbolParams) -> list[lsp.SymbolInformation]:
    found = await ls.checked(params.text_document.uri)
    if found is None:
        return []
    columns = ls.columns()
    symbols = features.outline(found[1], found[0])
    for symbol in symbols:
        symbol.location = columns.location_out(symbol.location)
    return symbols


@server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
async def prepare_rename(ls: RulesServer, params: lsp.PrepareRenameParams) -> lsp.Range | None:
    found = await _at(ls, params, fresh=True)
    if found is None:
        return None
    path, checked, line, character, columns = found
    result = features.prepare_rename(checked, path, line, character)
    return columns.range_out(path, result) if result is not None else None


@server.feature(lsp.TEXT_DOCUMENT_RENAME)
async def rename(ls: RulesServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
    found = await _at(ls, params, fresh=True)
    if found is None:
        return None
    path, checked, line, character, columns = found
    trial = ls.rules.trial(checked.root, checked.variant)
    try:
        edit = await ls.run_checker(features.rename, checked, path, line, character, params.new_name, trial)
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
        text = record.getMessage().split("\n", 1)[0]
        if record.exc_info and record.exc_info[1] is not None:
            err = record.exc_info[1]
            text = f"{text}: {type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}".rstrip(": ")
        return f"rulecraft lsp: {text}"


class _NotTheTraceback(logging.Filter):
    """Leaves out pygls's record of a message whose parameters do not read: its text is a
    traceback of the reading, and the server logs the reason in one line itself."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Unable to deserialize message")


def serve(debug: bool = False) -> None:
    """Speak the protocol on stdin/stdout. Log lines go to stderr, one line each unless
    ``debug`` (then with their tracebacks)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(name)s: %(message)s") if debug else _OneLine())
    if not debug:
        handler.addFilter(_NotTheTraceback())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
    server.start_io()
