"""The games a server holds: the served rule sets, every game in play (resumed from the
store at start), the lobby's requests, seat tokens, and the pages to tell of changes."""

from __future__ import annotations

import asyncio
import secrets
import sys
import time
import unicodedata
from dataclasses import replace
from pathlib import Path

from rulecraft.bots import REGISTRY, bot_problem, cannot_play
from rulecraft.interpreter.gamelog import SEED_LEAST, SEED_MOST
from rulecraft.dsl.diagnostics import DiagnosticBag, RuleSetError
from rulecraft.dsl.loader import load_checked
from rulecraft.dsl.variants import available_variants, load_variant_chain
from rulecraft.languages import languages, unknown

from .store import GameStore, StoredGame
from .tables import HUMAN, SPECTATOR, RefusedMove, Table
from .words import Words

# A person's name, as it is shown beside their seat on every page of the game
MAX_NAME = 30
# Seconds: during a round of bots, a page that follows every decision is sent a view at
# most this often (besides the first decision's and the last's). A search bot's decision
# takes longer, so each is shown; quick bots' dozens of decisions cost the event loop
# (every table's) a view each (some 20 ms for a large board game's page), and are not.
STEP_GAP = 0.25


class Server:
    """The served rule sets and the games in play, loaded from and written to the store."""

    def __init__(self, rulesets: dict[str, Path], db: str | Path):
        self.paths = rulesets
        self.store = GameStore(db)
        self._rulesets: dict[tuple[str, str | None], object] = {}
        self._words: dict[tuple[str, str | None, str], Words] = {}
        self.tables: dict[str, Table] = {}
        self.sockets: dict[str, set] = {}  # game id → its open pages (app.Page)
        # game id → pages opened while a round of bots is under way, waiting for their first
        # view: the next decision's broadcast sends it (else they get it with the lock)
        self.joining: dict[str, set] = {}
        # A table's lock is held by whoever changes its game (a person's decision and the
        # bots' answers after it, an undo, the bots' turns of a new or resumed game) and by
        # whoever reads it (a view, a page's first view, a broadcast): nobody reads a game
        # halfway through a decision, made in a worker thread (``run_steps``).
        self.locks: dict[str, asyncio.Lock] = {}
        # Set when the server is asked to stop: bots stop between two decisions.
        self.stopping = False
        self.background: set[asyncio.Task] = set()  # bots playing a new or resumed game's turns
        self._bots_due: set[str] = set()  # resumed games whose bots are to play
        # A restarted server resumes every stored game, each when a page first asks for
        # it: replaying a long game takes a moment, and a server that holds many starts
        # at once and keeps in memory only the games played since.
        self.resumable: dict[str, StoredGame] = {
            stored.id: stored for stored in self.store.games()
            if stored.ruleset in self.paths}  # a game of a rule set not served this time: kept, not shown

    def ruleset(self, name: str, variant: str | None):
        key = (name, variant)
        if key not in self._rulesets:
            self._rulesets[key] = load_checked(str(self.paths[name]), variant)
        return self._rulesets[key]

    def words(self, stored: StoredGame, lang: str = "en") -> Words:
        if lang not in languages():
            raise RefusedMove(unknown(lang))
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
            variants = available_variants(Path(path))
            out.append({"name": name, "title": game.title, "min_players": game.min_players,
                        "max_players": game.max_players, "variants": variants,
                        # each variant's title, as `rulecraft variant list` shows it
                        "variant_titles": {v: variant_title(Path(path), v, game.name) for v in variants},
                        "bots": [b for b in sorted(REGISTRY) if cannot_play(b, rs) is None]})
        return out

    def create(self, request: dict, bots: bool = True) -> dict:
        """A new game from the lobby's request; with ``bots``, the bots also answer every
        choice that falls to them before anyone else (else the caller plays them:
        ``Table.bot_steps``)."""
        if not isinstance(request, dict):
            raise RefusedMove("send a JSON object: {ruleset, seats, variant?, seed?}")
        name = request.get("ruleset")
        if not isinstance(name, str) or name not in self.paths:
            raise RefusedMove(f"no rule set {name!r} is served (served: {', '.join(self.paths)})")
        variant = request.get("variant") or None
        if variant is not None and (not isinstance(variant, str)
                                    or variant not in available_variants(Path(self.paths[name]))):
            raise RefusedMove(f"{name} has no variant {variant!r}")
        try:
            rs = self.ruleset(name, variant)
        except RuleSetError as err:
            raise RefusedMove(f"the rules of {name} do not load: {len(err.bag.errors)} error(s)") from None
        seats = request.get("seats")
        game = rs.data.game
        if not isinstance(seats, list) or not game.min_players <= len(seats) <= game.max_players:
            raise RefusedMove(f"{game.title} needs a list of {game.player_counts} seats")
        for seat in seats:
            if seat == HUMAN:
                continue
            problem = bot_problem(seat) if isinstance(seat, str) else "not a name"
            problem = problem or cannot_play(seat, rs)
            if problem:
                raise RefusedMove(f"a seat is {HUMAN!r} or a bot that plays {game.title} (a name the lobby lists, "
                                  f"with settings as on the command line, such as 'mcts:50'), not {seat!r}: {problem}")
        # Whoever knows the seed can work out every hidden card: it is drawn here and
        # never sent. A seed given in the request is for tests and demonstrations only.
        seed = request.get("seed")
        if seed is None:
            seed = secrets.randbits(63)
        if not isinstance(seed, int) or isinstance(seed, bool) or not SEED_LEAST <= seed <= SEED_MOST:
            raise RefusedMove(f"the seed is a whole number from {SEED_LEAST} to {SEED_MOST}")
        players = [f"p{i}" for i in range(1, len(seats) + 1)]
        # A link only for the people's seats and the spectator: a bot's seat needs no page,
        # and its link would show whoever created the game that bot's hand.
        people = [p for p, seat in zip(players, seats) if seat == HUMAN]
        tokens = {p: secrets.token_urlsafe(18) for p in people + [SPECTATOR]}
        stored = StoredGame(secrets.token_hex(6), name, variant, len(seats), seed, dict(zip(players, seats)),
                            tokens, [], host=secrets.token_urlsafe(18))
        self.store.create(stored)
        table = self.tables[stored.id] = self._table(stored)
        if bots:
            table.play_bots(self.store)
        return {"game": stored.id,
                "seats": dict(zip(players, seats)),
                "links": _links(stored),
                "organiser": f"/organiser/{stored.id}/{stored.host}"}

    def _resume(self, game_id: str) -> Table | None:
        stored = self.resumable.get(game_id)
        if stored is None:
            return None
        try:
            table = self._table(stored)
        except Exception as err:  # noqa: BLE001 - edited rules that no longer load or replay it
            # kept: a later request tries again (the rules mended, the file freed)
            sys.stderr.write(f"rulecraft serve: game {stored.id} ({stored.ruleset}) not resumed: "
                             f"{type(err).__name__}: {err}\n")
            return None
        del self.resumable[game_id]
        self.tables[game_id] = table
        # a bot's turn that a stop interrupted: played in the background (open_seat)
        self._bots_due.add(game_id)
        return table

    def _loaded(self, game_id: str) -> Table:
        table = self.tables.get(game_id) or self._resume(game_id)
        if table is None:
            raise RefusedMove("no_game", game=repr(game_id))
        return table

    def seat_of(self, game_id: str, token: str) -> tuple[Table, str]:
        table = self._loaded(game_id)
        for seat, t in table.stored.tokens.items():
            if _same(t, token):
                # a game stored before bots' seats went without links still holds tokens
                # for them: they open nothing (a bot's seat page would show its hand)
                if seat != SPECTATOR and table.stored.seats.get(seat) != HUMAN:
                    raise RefusedMove("bot_seat")
                return table, seat
        if any(_same(t, token) for t in table.stored.replaced):
            raise RefusedMove("replaced")
        raise RefusedMove("not_a_seat")

    def host_of(self, game_id: str, token: str) -> Table:
        """The game whose host token is ``token``: a seat's token is none (whoever was
        given a seat's link must not be able to take the others' seats)."""
        table = self._loaded(game_id)
        if table.stored.host is None:
            raise RefusedMove("no_host")
        if not _same(table.stored.host, token):
            raise RefusedMove("not_host")
        return table

    def hosted(self, table: Table) -> dict:
        """What the host's lobby lists of its game: its seats, the names given, the links now."""
        stored = table.stored
        return {"game": stored.id, "ruleset": stored.ruleset, "variant": stored.variant,
                "title": table.ruleset.data.game.title, "seats": dict(stored.seats), "names": dict(stored.names),
                "links": _links(stored), "organiser": f"/organiser/{stored.id}/{stored.host}"}

    def replace_link(self, table: Table, seat) -> str:
        """A new link for ``seat`` (a person's or the spectator's): the old one stops
        working, here and after a restart."""
        stored = table.stored
        if not isinstance(seat, str) or seat not in stored.tokens or (
                seat != SPECTATOR and stored.seats.get(seat) != HUMAN):
            raise RefusedMove("no_link_seat", seat=repr(seat)[:40])
        old, new = stored.tokens[seat], secrets.token_urlsafe(18)
        tokens = {**stored.tokens, seat: new}
        self.store.replace_token(stored.id, seat, old, tokens)
        stored.tokens[seat] = new
        stored.replaced[old] = seat
        return f"/game/{stored.id}/{new}"

    def still_valid(self, table: Table, seat: str, token: str) -> bool:
        """Whether ``token`` is still ``seat``'s (a new link replaces it)."""
        return _same(table.stored.tokens.get(seat, ""), token)

    def set_name(self, table: Table, seat: str, name) -> None:
        """The name a person gives their seat (an empty one takes it away): public, shown
        to every page, kept in the store. It is shown as text, never as markup."""
        if seat not in table.stored.seats:
            raise RefusedMove("spectator_name")
        if not isinstance(name, str):
            raise RefusedMove("name_not_text")
        # one line of printable text: no control, format (bidirectional overrides) or
        # private-use characters, which could pass for another player's name or break the line
        name = " ".join(unicodedata.normalize("NFC", name).split())
        if any(unicodedata.category(c)[0] == "C" for c in name):
            raise RefusedMove("name_not_text")
        if len(name) > MAX_NAME:
            raise RefusedMove("name_too_long", most=MAX_NAME)
        self.store.set_name(table.id, seat, name or None)
        if name:
            table.stored.names[seat] = name
        else:
            table.stored.names.pop(seat, None)

    def pages(self, game_id: str) -> list:
        """The game's open pages, those waiting for their first view included."""
        return [*self.sockets.get(game_id, ()), *self.joining.get(game_id, ())]

    def drop_page(self, game_id: str, page) -> None:
        self.sockets.get(game_id, set()).discard(page)
        self.joining.get(game_id, set()).discard(page)

    def page_closed(self, table: Table) -> None:
        """A finished game nobody watches any more leaves memory; the store keeps it, and
        it is replayed should a page ask for it again (its replay, its history)."""
        if self.sockets.get(table.id) or table.game.pending is not None:
            return
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self.sockets.pop(table.id, None)
            self.resumable[table.id] = replace(table.stored, decisions=[d.option for d in table.history])

    def lock(self, game_id: str) -> asyncio.Lock:
        return self.locks.setdefault(game_id, asyncio.Lock())

    async def open_seat(self, game_id: str, token: str) -> tuple[Table, str]:
        """``seat_of``, and for a game just resumed, its bots' pending turns started in the
        background (a reader then waits for them on the table's lock)."""
        table, seat = self.seat_of(game_id, token)
        if table.id in self._bots_due:
            self._bots_due.discard(table.id)
            await self.play_bots_later(table)
        return table, seat

    async def play_bots_later(self, table: Table) -> None:
        """The bots answer every choice that falls to them, in a task of their own that
        holds the table's lock (taken before this returns: whoever reads the table next
        sees the bots' turns played); the table's pages are then sent the new view."""
        lock = self.lock(table.id)
        await lock.acquire()

        async def play() -> None:
            try:
                if await self.run_steps(table.bot_steps(self.store), table):
                    await self.broadcast(table, after_steps=True)
            except Exception as err:  # noqa: BLE001 - a rule error, or a bot's: told in one line
                sys.stderr.write(f"rulecraft serve: the bots of game {table.id} stopped: {type(err).__name__}: {err}\n")
            finally:
                lock.release()

        task = asyncio.get_running_loop().create_task(play())
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def run_steps(self, steps, table: Table | None = None) -> bool:
        """Each step of a game (a person's answer, each bot's: ``Table.decide_steps``,
        ``Table.bot_steps``) in a worker thread, so that a search bot thinking for
        seconds holds up no other table: the caller holds the table's lock. After each
        step the pages of ``table`` that follow every decision are sent the view (a round
        of search bots takes seconds; its pages see each bot's move as it is made): after
        the first step, after the last, and in between at most every ``STEP_GAP``
        seconds. Stops between two steps once the server is stopping (False then); the
        decisions made so far are stored, and a restarted server plays the rest."""
        done = object()
        sent = None
        while not self.stopping:
            if await asyncio.to_thread(next, steps, done) is done:
                return True
            if table is not None:
                now = time.monotonic()
                due = sent is None or now - sent >= STEP_GAP or not table.bots_to_play()
                await self.broadcast(table, step=True, joining_only=not due)
                if due:
                    sent = now
        steps.close()
        return False

    async def stopped(self, within: float) -> None:
        """Once stopping: wait (at most ``within`` seconds) for the decisions under way."""
        self.stopping = True
        busy = [lock for lock in self.locks.values() if lock.locked()]
        if not busy:
            return

        async def free() -> None:
            for lock in busy:
                async with lock:
                    pass
        try:
            await asyncio.wait_for(free(), within)
        except asyncio.TimeoutError:
            pass

    async def broadcast(self, table: Table, undone_by: str | None = None, step: bool = False,
                        after_steps: bool = False, joining_only: bool = False) -> None:
        """Every open page of the table gets its seat's view; after an undo (``undone_by``:
        the player who took their decision back) the other pages are also told who did,
        since that player's events have just left them. The caller holds the table's lock.

        ``step``: after one decision of several (``run_steps``), to the pages that follow
        every decision only (``Page.steps``: a program reading the socket gets one view
        per change, as it always has), each view saying whether bots are still to play.
        ``after_steps``: once the steps are done, to the other pages. ``joining_only``: to
        the pages opened during the round only (their first view)."""
        joined = set()
        if step:
            # pages opened during the round get their first view now, not at its end
            joined = self.joining.pop(table.id, set())
            self.sockets.setdefault(table.id, set()).update(joined)
        busy = step and table.bots_to_play() and not self.stopping
        for page in list(joined if joining_only else self.sockets.get(table.id, ())):
            if (step or after_steps) and page.steps != step:
                continue
            try:
                await page.send(table, bots_playing=busy)
                if undone_by is not None and page.seat != undone_by:
                    await page.ws.send_json({"type": "undone", "player": undone_by})
            except Exception:  # noqa: BLE001 - a closed page; it gets its view again on reconnecting
                self.sockets[table.id].discard(page)


def _same(token: str, given: str) -> bool:
    """Whether a token given in an address is ``token``, in constant time (as bytes: a
    given one may hold any character, which compare_digest refuses in a str)."""
    return secrets.compare_digest(token.encode("utf-8", "surrogatepass"), given.encode("utf-8", "surrogatepass"))


def _links(stored: StoredGame) -> dict[str, str]:
    return {p: f"/game/{stored.id}/{t}" for p, t in stored.tokens.items()}


def variant_title(root: Path, variant: str, game_name: str) -> str:
    """A variant's title from its file (its name when it has none, or does not load),
    read without loading the rules it changes."""
    chain = load_variant_chain(root, variant, game_name, DiagnosticBag())
    if not chain:
        return variant
    title = (chain[-1][1].get("variant") or {}).get("title")
    return title if isinstance(title, str) and title else variant
