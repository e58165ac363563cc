"""The ASGI application: the lobby, the table page, a JSON API and one WebSocket per
open page. A page's WebSocket is opened with its seat's secret token; the server sends
it that seat's view only, after every change of the game."""

from __future__ import annotations

import contextlib
import functools
import html
import json
import re
import sys
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from rulecraft.languages import languages
from rulecraft.screen_words import PAGE, refusal

from .games import Server
from .tables import RefusedMove, Table
from .words import Words

STATIC = Path(str(resources.files("rulecraft.server") / "static"))
MAX_MESSAGE = 64 * 1024
# How long a stopping server waits for the bots' decisions under way (one each)
STOP_WITHIN = 10.0


class Page:
    """One open page: its socket, seat, token and language, and how many events it has, so
    that each new view carries only the events since. ``steps``: the page asked for a view
    after every decision of a round of bots (``?steps=1``), not only once it is over."""

    def __init__(self, ws: WebSocket, seat: str, words: Words, token: str = "", steps: bool = False):
        self.ws, self.seat, self.words, self.token, self.steps = ws, seat, words, token, steps
        self.events = 0
        self.closed = False

    async def send(self, table: Table, bots_playing: bool = False) -> None:
        message = table.view_message(self.seat, self.words, self.events, bots_playing=bots_playing)
        self.events = message["events_from"] + len(message["events"])
        await self.ws.send_json(message)

    async def refuse(self, err: RefusedMove) -> None:
        """Told why, and closed: a link replaced by a new one (4410), or no seat here (4404)."""
        self.closed = True
        with contextlib.suppress(Exception):  # a page already gone is told nothing
            await self.ws.send_json({"type": "error", "message": err.told(self.words.lang)})
            await self.ws.close(code=_CLOSE.get(err.key, 4404))


# The close code of a socket whose link is refused, and the status of a request's refusal:
# a link replaced by a new one is gone (and the page says so), a host's request with
# another token is forbidden, anything else not found
_CLOSE = {"replaced": 4410}
_STATUS = {"replaced": 410, "not_host": 403, "no_host": 403, "no_link_seat": 400, "host_request": 400}


def _status(err: RefusedMove) -> int:
    return _STATUS.get(err.key, 404)


def _refused_page(err: RefusedMove, lang: str) -> HTMLResponse:
    # the reason quotes the address, which anyone can write: it is shown as text
    return HTMLResponse(f"<!doctype html><html lang='{html.escape(PAGE[lang]['html_lang'])}'><title>rulecraft</title>"
                        f"<p>{html.escape(err.told(lang))}</p><p><a href='/'>lobby</a>", status_code=_status(err))


async def _body_within(request: Request, limit: int) -> bytes | None:
    """The request's body, or None when it is longer than ``limit`` bytes: read no
    further than that, whatever its declared length says."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return None
    return bytes(body)


def _internal_error(where: str, err: Exception, lang: str = "en") -> str:
    """One line on the server's console for a fault of the server itself (never a seat's
    token or the game's seed: the address is not quoted); the reason sent back, in ``lang``."""
    sys.stderr.write(f"rulecraft serve: internal error in {where}: {type(err).__name__}: {err}\n")
    return refusal(lang, "internal", {"error": type(err).__name__})


# The page's elements whose text is a fixed word (table.html's ids, PAGE's keys), as table.js
# writes them too
PAGE_TEXTS = (("choice-title", "choice"), ("side-title", "side"), ("events-title", "happened"),
              ("others-title", "others"), ("beside-title", "beside"), ("table-title", "table"),
              ("undo", "undo"), ("history-label", "history"), ("now", "now"), ("name-label", "name_label"),
              ("name-save", "name_save"))


def _asked(params) -> str:
    """The language a request asks for (``?lang=fr``), its case and region aside (``FR``,
    ``fr-CA``: fr); one the screens do not have is returned as it was asked."""
    asked = str(params.get("lang") or "en")
    lang = asked.strip().lower().replace("_", "-").split("-", 1)[0]
    return lang if lang in languages() else asked


def _lang(params) -> str:
    """The language of a page (``?lang=fr``), English for one the screens do not have:
    the page is served in English and says that it has no words in the language asked
    for, and its script then asks the socket and the API for English. Asked directly
    for such a language, the socket and the API refuse with the reason (``_asked``)."""
    lang = _asked(params)
    return lang if lang in languages() else "en"


@functools.lru_cache(maxsize=None)
def table_html(lang: str) -> str:
    """The table page in ``lang``: its language attribute, its title and the fixed words
    of the page (``PAGE``, which ``table.js`` reads from the page instead of writing its own)."""
    words = PAGE[lang]
    text = (STATIC / "table.html").read_text(encoding="utf-8")
    text = text.replace('<html lang="en">', f'<html lang="{html.escape(words["html_lang"])}">', 1)
    text = re.sub(r"<title>[^<]*</title>", f"<title>{html.escape(words['page_title'])}</title>", text, count=1)
    text = text.replace(">connecting…<", f">{html.escape(words['connecting'])}<", 1)
    # the headings and buttons in the language before the script runs (it writes them again)
    for element, key in PAGE_TEXTS:
        text = re.sub(rf'(<[a-z0-9]+ id="{element}"[^>]*>)[^<]*<', lambda m, key=key: f"{m.group(1)}{html.escape(words[key])}<",
                      text, count=1)
    # as JSON in a script element: "</" would end the element early
    data = json.dumps(words, ensure_ascii=False).replace("</", "<\\/")
    script = '<script src="/static/table.js"></script>'
    return text.replace(script, f'<script type="application/json" id="page-words">{data}</script>\n{script}', 1)


@functools.lru_cache(maxsize=None)
def lobby_html(lang: str) -> str:
    """The lobby in ``lang`` (``?lang=fr``): its language attribute, title and heading, and
    its fixed words (``PAGE``'s ``lobby_`` keys, the bots' kinds), which ``lobby.js`` reads."""
    words = PAGE[lang]
    text = (STATIC / "lobby.html").read_text(encoding="utf-8")
    text = text.replace('<html lang="en">', f'<html lang="{html.escape(words["html_lang"])}">', 1)
    text = re.sub(r"<title>[^<]*</title>", f"<title>{html.escape(words['lobby_title'])}</title>", text, count=1)
    text = re.sub(r'(<h1 id="heading">)[^<]*<', lambda m: f"{m.group(1)}{html.escape(words['lobby_heading'])}<", text, count=1)
    lobby_words = {k: v for k, v in words.items() if k.startswith(("lobby_", "bot")) or k in ("html_lang", "named")}
    data = json.dumps(lobby_words, ensure_ascii=False).replace("</", "<\\/")
    script = '<script src="/static/lobby.js"></script>'
    return text.replace(script, f'<script type="application/json" id="page-words">{data}</script>\n{script}', 1)


def create_app(rulesets: dict[str, Path], db: str | Path, debug: bool = False) -> Starlette:
    """The application serving ``rulesets`` (name → folder), its games kept in ``db``;
    with ``debug`` a fault of the server raises (a traceback) instead of one line."""
    server = Server(rulesets, db)

    def one_line_faults(endpoint):
        @functools.wraps(endpoint)
        async def answered(request: Request):
            try:
                return await endpoint(request)
            except Exception as err:  # noqa: BLE001 - a fault of the server, told in one line
                if debug:
                    raise
                return JSONResponse({"error": _internal_error(endpoint.__name__, err)}, status_code=500)
        return answered

    async def lobby(request: Request):
        return HTMLResponse(lobby_html(_lang(request.query_params)))

    async def table_page(request: Request):
        lang = _lang(request.query_params)
        try:
            await server.open_seat(request.path_params["game"], request.path_params["token"])
        except RefusedMove as err:
            return _refused_page(err, lang)
        return HTMLResponse(table_html(lang))

    async def host_page(request: Request):
        # the lobby, whose script adds the game to this browser's list of games
        lang = _lang(request.query_params)
        try:
            server.host_of(request.path_params["game"], request.path_params["token"])
        except RefusedMove as err:
            return _refused_page(err, lang)
        return HTMLResponse(lobby_html(lang))

    async def api_host(request: Request):
        try:
            table = server.host_of(request.path_params["game"], request.path_params["token"])
        except RefusedMove as err:
            return JSONResponse({"error": err.told(_lang(request.query_params))}, status_code=_status(err))
        return JSONResponse(server.hosted(table))

    async def api_new_link(request: Request):
        lang = _lang(request.query_params)
        text = await _body_within(request, MAX_MESSAGE)
        if text is None:
            return JSONResponse({"error": refusal(lang, "too_long")}, status_code=413)
        try:
            table = server.host_of(request.path_params["game"], request.path_params["token"])
            try:
                body = json.loads(text)
            except (ValueError, RecursionError):
                raise RefusedMove("host_request") from None
            if not isinstance(body, dict) or "seat" not in body:
                raise RefusedMove("host_request")
            link = server.replace_link(table, body["seat"])
        except RefusedMove as err:
            return JSONResponse({"error": err.told(lang)}, status_code=_status(err))
        # the old link's open pages are told and closed: it opens nothing any more
        replaced = RefusedMove("replaced")
        for page in [p for p in server.pages(table.id) if p.seat == body["seat"]]:
            server.drop_page(table.id, page)
            await page.refuse(replaced)
        return JSONResponse({"seat": body["seat"], "link": link, **server.hosted(table)}, status_code=201)

    async def api_rulesets(request: Request):
        return JSONResponse(server.catalogue())

    async def api_create(request: Request):
        text = await _body_within(request, MAX_MESSAGE)
        if text is None:
            return JSONResponse({"error": f"the request is longer than {MAX_MESSAGE:,} bytes"}, status_code=413)
        try:
            body = json.loads(text)
        except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested past Python's depth
            return JSONResponse({"error": "the request is not JSON"}, status_code=400)
        try:
            created = server.create(body, bots=False)
        except RefusedMove as err:
            return JSONResponse({"error": str(err)}, status_code=400)
        # answered at once: the bots' first turns are played in the background, and the
        # pages (and the API) get the table once they are (they wait on its lock)
        await server.play_bots_later(server.tables[created["game"]])
        return JSONResponse(created, status_code=201)

    async def api_view(request: Request):
        try:
            table, seat = await server.open_seat(request.path_params["game"], request.path_params["token"])
            words = server.words(table.stored, _asked(request.query_params))
        except RefusedMove as err:
            return JSONResponse({"error": err.told(_lang(request.query_params))}, status_code=_status(err))
        async with server.lock(table.id):
            return JSONResponse(table.view_message(seat, words))

    async def api_view_at(request: Request):
        try:
            table, seat = await server.open_seat(request.path_params["game"], request.path_params["token"])
            words = server.words(table.stored, _asked(request.query_params))
            async with server.lock(table.id):
                return JSONResponse(table.view_at(seat, request.path_params["step"], words))
        except RefusedMove as err:
            return JSONResponse({"error": err.told(_lang(request.query_params))}, status_code=_status(err))

    async def socket(ws: WebSocket):
        await ws.accept()
        try:
            table, seat = await server.open_seat(ws.path_params["game"], ws.path_params["token"])
            words = server.words(table.stored, _asked(ws.query_params))
        except RefusedMove as err:
            await ws.send_json({"type": "error", "message": err.told(_lang(ws.query_params))})
            await ws.close(code=_CLOSE.get(err.key, 4404))
            return
        token = ws.path_params["token"]
        page = Page(ws, seat, words, token, steps=ws.query_params.get("steps") == "1")
        if not server.still_valid(table, seat, token):  # replaced while the bots' turns were started
            await page.refuse(RefusedMove("replaced"))
            return
        try:
            # the page's first view, then every change: it joins the table's pages with the
            # lock held, so that it gets no broadcast before (nor the same view twice). A
            # page that follows every decision, opened during a round of bots, is sent its
            # first view by the round's next decision (it waits among the joining).
            if page.steps:
                server.joining.setdefault(table.id, set()).add(page)
            async with server.lock(table.id):
                waiting = server.joining.get(table.id, set())
                if page.closed:  # its link was replaced meanwhile
                    return
                if page in waiting or not page.steps:
                    waiting.discard(page)
                    await page.send(table)
                    server.sockets.setdefault(table.id, set()).add(page)
            while True:
                text = await ws.receive_text()
                if not server.still_valid(table, seat, token):
                    # replaced while this page was open: it must not act for the new link's holder
                    server.drop_page(table.id, page)
                    await page.refuse(RefusedMove("replaced"))
                    return
                try:
                    await handle(table, seat, text)
                except RefusedMove as err:
                    await ws.send_json({"type": "error", "message": err.told(words.lang)})
                except Exception as err:  # noqa: BLE001 - the page is told; the game rolled back
                    if debug:
                        raise
                    await ws.send_json({"type": "error",
                                        "message": _internal_error("a table's socket", err, words.lang)})
        except WebSocketDisconnect:
            pass
        except RuntimeError as err:
            # the connection closed under the page (a stopping server closes every socket;
            # a send that failed leaves it unusable): nothing to tell but the reason
            if debug:
                raise
            if ws.client_state != WebSocketState.DISCONNECTED and ws.application_state != WebSocketState.DISCONNECTED:
                sys.stderr.write(f"rulecraft serve: a table's socket: {type(err).__name__}: {err}\n")
        finally:
            server.drop_page(table.id, page)
            server.page_closed(table)

    async def handle(table: Table, seat: str, text: str) -> None:
        if len(text) > MAX_MESSAGE:
            raise RefusedMove("too_long")
        try:
            message = json.loads(text)
        except json.JSONDecodeError as err:
            raise RefusedMove("malformed", error=err.msg, at=err.pos) from None
        except RecursionError:
            raise RefusedMove("too_deep") from None
        if not isinstance(message, dict) or message.get("type") not in ("choose", "undo", "name"):
            raise RefusedMove("not_a_message")
        if "game" in message and message["game"] != table.id:
            raise RefusedMove("other_game")
        if message["type"] == "name":
            # a name changes no decision: set at once (a round of bots under way carries it
            # in its next views), and every page is sent it once the table may be read
            server.set_name(table, seat, message.get("name"))
            async with server.lock(table.id):
                await server.broadcast(table)
            return
        async with server.lock(table.id):
            # a page says how many decisions it had seen: a click on a page the game has
            # since moved past (a double click) must not answer the next choice
            step = message.get("step")
            if step is not None and step != len(table.history):
                raise RefusedMove("moved_on")
            if message["type"] == "choose":
                if "option" not in message:
                    raise RefusedMove("no_option")
                # each step (the player's answer, each bot's) in a worker thread: a search
                # bot thinks for seconds a decision, and holds up no other table
                try:
                    await server.run_steps(table.decide_steps(server.store, seat, message["option"]), table)
                except RefusedMove as err:
                    if err.key == "rules_failed":
                        # the pages following each decision were shown moves now taken back
                        await server.broadcast(table, step=True)
                    raise
                await server.broadcast(table, after_steps=True)
            else:
                table.undo(server.store, seat)
                await server.broadcast(table, seat)

    routes = [
        Route("/", lobby),
        Route("/api/rulesets", one_line_faults(api_rulesets)),
        Route("/api/games", one_line_faults(api_create), methods=["POST"]),
        Route("/api/games/{game}/{token}", one_line_faults(api_view)),
        Route("/api/games/{game}/{token}/at/{step:int}", one_line_faults(api_view_at)),
        Route("/game/{game}/{token}", one_line_faults(table_page)),
        Route("/organiser/{game}/{token}", one_line_faults(host_page)),
        Route("/api/organiser/{game}/{token}", one_line_faults(api_host)),
        Route("/api/organiser/{game}/{token}/links", one_line_faults(api_new_link), methods=["POST"]),
        WebSocketRoute("/ws/{game}/{token}", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        # bots stop between two decisions; the one under way is stored before the file closes
        await server.stopped(within=STOP_WITHIN)
        server.store.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.server = server
    return app
