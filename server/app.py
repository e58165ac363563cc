"""The ASGI application: the lobby, the table page, a JSON API and one WebSocket per
open page. A page's WebSocket is opened with its seat's secret token; the server sends
it that seat's view only, after every change of the game."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sys
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from rulecraft.bots import REGISTRY, cannot_play
from rulecraft.dsl.diagnostics import RuleSetError
from rulecraft.dsl.loader import load_checked
from rulecraft.dsl.variants import available_variants

from .store import GameStore, StoredGame
from .tables import HUMAN, SPECTATOR, RefusedMove, Table
from .words import LANGUAGES, Words

STATIC = Path(str(resources.files("rulecraft.server") / "static"))
MAX_MESSAGE = 64 * 1024


class Page:
    """One open page: its socket, seat and language, and how many events it has, so
    that each new view carries only the events since."""

    def __init__(self, ws: WebSocket, seat: str, words: Words):
        self.ws, self.seat, self.words = ws, seat, words
        self.events = 0

    async def send(self, table: Table) -> None:
        message = table.view_message(self.seat, self.words, self.events)
        self.events = message["events_from"] + len(message["events"])
        await self.ws.send_json(message)


class Server:
    """The served rule sets and the games in play, loaded from and written to the store."""

    def __init__(self, rulesets: dict[str, Path], db: str | Path):
        self.paths = rulesets
        self.store = GameStore(db)
        self._rulesets: dict[tuple[str, str | None], object] = {}
        self._words: dict[tuple[str, str | None, str], Words] = {}
        self.tables: dict[str, Table] = {}
        self.sockets: dict[str, set[Page]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        for stored in self.store.games():  # a restarted server resumes every game
            if stored.ruleset not in self.paths:
                continue  # a game of a rule set not served this time: kept, not shown
            try:
                table = self._table(stored)
            except Exception as err:  # noqa: BLE001 - edited rules that no longer load or replay it
                sys.stderr.write(f"rulecraft serve: game {stored.id} ({stored.ruleset}) not resumed: "
                                 f"{type(err).__name__}: {err}\n")
                continue
            self.tables[stored.id] = table
            table.play_bots(self.store)  # a bot's turn that a stop interrupted

    def ruleset(self, name: str, variant: str | None):
        key = (name, variant)
        if key not in self._rulesets:
            self._rulesets[key] = load_checked(str(self.paths[name]), variant)
        return self._rulesets[key]

    def words(self, stored: StoredGame, lang: str = "en") -> Words:
        if lang not in LANGUAGES:
            raise RefusedMove(f"no language {lang!r} (known: {', '.join(LANGUAGES)})")
        key = (stored.ruleset, stored.variant, lang)
        if key not in self._words:
            self._words[key] = Words(self.ruleset(stored.ruleset, stored.variant), lang)
        return self._words[key]

    def _table(self, stored: StoredGame) -> Table:
        return Table(stored, self.ruleset(stored.ruleset, stored.variant), words=self.words(stored))

    def catalogue(self) -> list[dict]:
        out = []
        for name, path in self.paths.items():
            rs = self.ruleset(name, None)
            game = rs.data.game
            out.append({"name": name, "title": game.title, "min_players": game.min_players,
                        "max_players": game.max_players, "variants": available_variants(Path(path)),
                        "bots": [b for b in sorted(REGISTRY) if cannot_play(b, rs) is None]})
        return out

    def create(self, request: dict) -> dict:
        if not isinstance(request, dict):
            raise RefusedMove("send a JSON object: {ruleset, seats, variant?, seed?}")
        name = request.get("ruleset")
        if name not in self.paths:
            raise RefusedMove(f"no rule set {name!r} is served (served: {', '.join(self.paths)})")
        variant = request.get("variant") or None
        if variant is not None and variant not in available_variants(Path(self.paths[name])):
            raise RefusedMove(f"{name} has no variant {variant!r}")
        try:
            rs = self.ruleset(name, variant)
        except RuleSetError as err:
            raise RefusedMove(f"the rules of {name} do not load: {len(err.bag.errors)} error(s)") from None
        seats = request.get("seats")
        game = rs.data.game
        if not isinstance(seats, list) or not game.min_players <= len(seats) <= game.max_players:
            raise RefusedMove(f"{game.title} needs a list of {game.min_players} to {game.max_players} seats")
        for seat in seats:
            if seat != HUMAN and (seat not in REGISTRY or cannot_play(seat, rs)):
                raise RefusedMove(f"a seat is {HUMAN!r} or a bot that plays {game.title}, not {seat!r}")
        seed = request.get("seed")
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RefusedMove("the seed is a whole number")
        players = [f"p{i}" for i in range(1, len(seats) + 1)]
        tokens = {p: secrets.token_urlsafe(18) for p in players + [SPECTATOR]}
        stored = StoredGame(secrets.token_hex(6), name, variant, len(seats), seed, dict(zip(players, seats)),
                            tokens, [])
        self.store.create(stored)
        table = self.tables[stored.id] = self._table(stored)
        table.play_bots(self.store)
        return {"game": stored.id, "seed": seed,
                "links": {p: f"/game/{stored.id}/{t}" for p, t in tokens.items()}}

    def seat_of(self, game_id: str, token: str) -> tuple[Table, str]:
        table = self.tables.get(game_id)
        if table is None:
            raise RefusedMove(f"there is no game {game_id!r} here")
        for seat, t in table.stored.tokens.items():
            if secrets.compare_digest(t, token):
                return table, seat
        raise RefusedMove("this link is not a seat of this game (a token of another game, or mistyped)")

    def lock(self, game_id: str) -> asyncio.Lock:
        return self.locks.setdefault(game_id, asyncio.Lock())

    async def broadcast(self, table: Table) -> None:
        for page in list(self.sockets.get(table.id, ())):
            try:
                await page.send(table)
            except Exception:  # noqa: BLE001 - a closed page; it gets its view again on reconnecting
                self.sockets[table.id].discard(page)


def create_app(rulesets: dict[str, Path], db: str | Path) -> Starlette:
    server = Server(rulesets, db)

    async def lobby(request: Request):
        return FileResponse(STATIC / "lobby.html")

    async def table_page(request: Request):
        try:
            server.seat_of(request.path_params["game"], request.path_params["token"])
        except RefusedMove as err:
            return HTMLResponse(f"<!doctype html><title>not found</title><p>{err}</p><p><a href='/'>lobby</a>",
                                status_code=404)
        return FileResponse(STATIC / "table.html")

    async def api_rulesets(request: Request):
        return JSONResponse(server.catalogue())

    async def api_create(request: Request):
        try:
            body = json.loads(await request.body())
        except (json.JSONDecodeError, UnicodeDecodeError):
            return JSONResponse({"error": "the request is not JSON"}, status_code=400)
        try:
            return JSONResponse(server.create(body), status_code=201)
        except RefusedMove as err:
            return JSONResponse({"error": str(err)}, status_code=400)

    async def api_view(request: Request):
        try:
            table, seat = server.seat_of(request.path_params["game"], request.path_params["token"])
            words = server.words(table.stored, request.query_params.get("lang", "en"))
        except RefusedMove as err:
            return JSONResponse({"error": str(err)}, status_code=404)
        return JSONResponse(table.view_message(seat, words))

    async def api_view_at(request: Request):
        try:
            table, seat = server.seat_of(request.path_params["game"], request.path_params["token"])
            words = server.words(table.stored, request.query_params.get("lang", "en"))
            return JSONResponse(table.view_at(seat, request.path_params["step"], words))
        except RefusedMove as err:
            return JSONResponse({"error": str(err)}, status_code=404)

    async def socket(ws: WebSocket):
        await ws.accept()
        try:
            table, seat = server.seat_of(ws.path_params["game"], ws.path_params["token"])
            words = server.words(table.stored, ws.query_params.get("lang", "en"))
        except RefusedMove as err:
            await ws.send_json({"type": "error", "message": str(err)})
            await ws.close(code=4404)
            return
        page = Page(ws, seat, words)
        server.sockets.setdefault(table.id, set()).add(page)
        try:
            await page.send(table)
            while True:
                text = await ws.receive_text()
                try:
                    await handle(table, seat, text)
                except RefusedMove as err:
                    await ws.send_json({"type": "error", "message": str(err)})
        except WebSocketDisconnect:
            pass
        finally:
            server.sockets.get(table.id, set()).discard(page)

    async def handle(table: Table, seat: str, text: str) -> None:
        if len(text) > MAX_MESSAGE:
            raise RefusedMove("message too long")
        try:
            message = json.loads(text)
        except json.JSONDecodeError as err:
            raise RefusedMove(f"malformed JSON: {err.msg} at character {err.pos}") from None
        if not isinstance(message, dict) or message.get("type") not in ("choose", "undo"):
            raise RefusedMove('send {"type": "choose", "option": ...} or {"type": "undo"}')
        if "game" in message and message["game"] != table.id:
            raise RefusedMove("this message names another game than this seat's")
        async with server.lock(table.id):
            # a page says how many decisions it had seen: a click on a page the game has
            # since moved past (a double click) must not answer the next choice
            step = message.get("step")
            if step is not None and step != len(table.history):
                raise RefusedMove("the game has moved on since this page was drawn; choose again")
            if message["type"] == "choose":
                if "option" not in message:
                    raise RefusedMove("a choice names its option")
                table.decide(server.store, seat, message["option"])
            else:
                table.undo(server.store, seat)
        await server.broadcast(table)

    routes = [
        Route("/", lobby),
        Route("/api/rulesets", api_rulesets),
        Route("/api/games", api_create, methods=["POST"]),
        Route("/api/games/{game}/{token}", api_view),
        Route("/api/games/{game}/{token}/at/{step:int}", api_view_at),
        Route("/game/{game}/{token}", table_page),
        WebSocketRoute("/ws/{game}/{token}", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        server.store.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.server = server
    return app
