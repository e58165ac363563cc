"""`rulecraft serve` in headless Chromium.

A tic-tac-toe game created in the lobby is clicked through to the end against a bot.
Then two people, each in their own browser context (as two separate browsers would be,
sharing nothing), play a whole game of Panic Station against bots and a whole game of
Connect Four against each other, by clicking the options and the board of their pages;
during each game one of them undoes a move, a page is reloaded, and the server process
is stopped and a new one started on the same SQLite file, to which the pages reconnect.
After every decision each page is checked: it is the one seat whose choice is pending
that is offered options, and neither its page nor any WebSocket frame it received holds
a card hidden from its seat. Screenshots of the tables are checked for a drawn board,
its pieces and the seat's hand.

Chromium is driven over the Chrome DevTools protocol with a small WebSocket client. The
tests skip without Chromium, unless RULECRAFT_REQUIRE_BROWSER is set. Set
RULECRAFT_SCREENSHOT=FILE to keep the tic-tac-toe screenshot, RULECRAFT_SCREENSHOTS=DIR
to keep those of the two-person games.
"""

from __future__ import annotations

import base64
import io
import json
import os
import random
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_client = pytest.importorskip("websockets.sync.client")

from rulecraft.cli.common import shipped_rulesets  # noqa: E402
from rulecraft.server.app import create_app  # noqa: E402

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-extensions",
         "--no-first-run", "--hide-scrollbars", "--mute-audio", "--window-size=1200,900"]
SLOW = 60  # seconds: generous, for a loaded shared machine


def browser() -> str:
    found = next((b for b in map(shutil.which, BROWSERS) if b), None)
    if found is None:
        if os.environ.get("RULECRAFT_REQUIRE_BROWSER"):
            pytest.fail("no Chromium found, and RULECRAFT_REQUIRE_BROWSER is set")
        pytest.skip("no Chromium installed")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DevTools:
    """Just enough of the DevTools protocol: send a command, wait for its answer; the
    WebSocket frames the page receives are kept as they are reported."""

    def __init__(self, url: str):
        self._connection = sync_client.connect(url, max_size=None, open_timeout=SLOW)
        self.ws = self._connection.__enter__()
        self.next_id = 0
        self.frames: list[str] = []

    def close(self) -> None:
        self._connection.__exit__(None, None, None)

    def call(self, method: str, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv(timeout=SLOW))
            if message.get("method") == "Network.webSocketFrameReceived":
                self.frames.append(message["params"]["response"]["payloadData"])
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(message["error"])
                return message["result"]

    def js(self, expression: str):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"])
        return result["result"].get("value")

    def wait_for(self, expression: str, seconds: float = SLOW):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            value = self.js(expression)
            if value:
                return value
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {expression}")

    def screenshot(self) -> bytes:
        shot = base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"])
        assert shot[:8] == b"\x89PNG\r\n\x1a\n"
        return shot

    def click_at(self, x: float, y: float) -> None:
        """A real mouse click at a point of the page, as a person makes one."""
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)


@pytest.fixture
def served(tmp_path):
    port = free_port()
    app = create_app(shipped_rulesets(), tmp_path / "games.sqlite")
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def _start_chromium(tmp_path, first_page: str):
    exe = browser()
    proc = subprocess.Popen([exe, *FLAGS, "--remote-debugging-port=0", f"--user-data-dir={tmp_path / 'profile'}",
                             first_page], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = None
    deadline = time.monotonic() + SLOW
    while url is None and time.monotonic() < deadline:
        line = proc.stderr.readline()
        m = re.search(r"DevTools listening on (ws://\S+)", line)
        if m:
            url = m.group(1)
    if url is None:
        _stop(proc)
        raise AssertionError("Chromium did not open its DevTools port")
    return proc, url


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


@pytest.fixture
def chromium(tmp_path, served):
    proc, url = _start_chromium(tmp_path, f"{served}/")
    try:
        port = re.search(r":(\d+)/", url).group(1)
        deadline = time.monotonic() + 20
        while True:
            pages = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list").read())
            page = next((p for p in pages if p.get("type") == "page"), None)
            if page or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        tools = DevTools(page["webSocketDebuggerUrl"])
        yield tools
        tools.close()
    finally:
        _stop(proc)


def test_a_game_created_in_the_lobby_is_clicked_through_to_the_end(chromium, tmp_path):
    page = chromium
    page.wait_for("document.querySelectorAll('#ruleset option').length > 0")
    page.js("(() => { const r = document.getElementById('ruleset'); r.value = 'tic_tac_toe';"
            " r.dispatchEvent(new Event('change')); })()")
    page.wait_for("!!document.getElementById('seat-p2')")
    page.js("document.getElementById('seat-p2').value = 'random'")
    page.js("document.getElementById('create').click()")
    link = page.wait_for("document.getElementById('link-p1') && document.getElementById('link-p1').href")
    assert re.search(r"/game/[0-9a-f]+/[\w-]{20,}$", link)
    page.call("Page.navigate", url=link)
    page.wait_for("document.querySelectorAll('button.option').length === 9")
    assert page.js("document.querySelectorAll('#board svg .space').length") == 9
    clicks = 0
    while not page.js("document.getElementById('result').textContent"):
        before = page.js("document.querySelectorAll('#events li').length")
        page.js("document.querySelector('button.option').click()")
        clicks += 1
        page.wait_for(f"document.querySelectorAll('#events li').length > {before} || "
                      "!!document.getElementById('result').textContent")
        assert clicks <= 5
    result = page.js("document.getElementById('result').textContent")
    assert result.startswith("Game over:")
    assert page.js("document.querySelectorAll('#board svg .mark').length") >= 5
    assert page.js("document.getElementById('error').textContent") == ""
    # the history slider shows the game before the first decision, then the present again
    page.js("(() => { const h = document.getElementById('history'); h.value = 0;"
            " h.dispatchEvent(new Event('change')); })()")
    page.wait_for("document.querySelectorAll('#board svg .mark').length === 0")
    assert "after decision 0" in page.js("document.getElementById('history-text').textContent")
    page.js("document.getElementById('now').click()")
    page.wait_for("document.querySelectorAll('#board svg .mark').length >= 5")
    shot = page.screenshot()
    target = os.environ.get("RULECRAFT_SCREENSHOT") or str(tmp_path / "table.png")
    with open(target, "wb") as f:
        f.write(shot)


# ---------------------------------------------------------------- two people, two browsers

class ServeProcess:
    """`rulecraft serve` as its own process, stopped and started again on one SQLite file."""

    def __init__(self, db: Path, rulesets: list[str]):
        self.db, self.rulesets = db, rulesets
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = None

    # the program the process runs before `rulecraft serve` (a test may register a bot first)
    program = "import sys; from rulecraft.cli.main import main; sys.exit(main())"

    def start(self) -> None:
        command = [sys.executable, "-c", self.program,
                   "serve", *self.rulesets, "--port", str(self.port), "--db", str(self.db)]
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + SLOW
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"rulecraft serve stopped: {self.proc.stderr.read()}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/rulesets", timeout=5) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise AssertionError("rulecraft serve did not answer")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            _stop(self.proc)
        if self.proc is not None:
            self.proc.stderr.close()

    def create(self, body: dict) -> dict:
        request = urllib.request.Request(f"{self.url}/api/games", data=json.dumps(body).encode(), method="POST")
        with urllib.request.urlopen(request, timeout=SLOW) as answer:
            return json.loads(answer.read())

    def stored(self, game_id: str):
        """The game as the SQLite file holds it now (read beside the server, read-only)."""
        from rulecraft.server.store import StoredGame

        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True) as db:
            row = db.execute("SELECT ruleset, variant, players, seed, seats, tokens FROM games WHERE id = ?",
                             (game_id,)).fetchone()
            decisions = [d for (d,) in db.execute("SELECT option FROM decisions WHERE game = ? ORDER BY step",
                                                   (game_id,))]
        ruleset, variant, players, seed, seats, tokens = row
        return StoredGame(game_id, ruleset, variant, players, seed, json.loads(seats), json.loads(tokens), decisions)


class Chromium:
    """One Chromium; each person gets a browser context of their own (no shared cookies,
    storage or cache) and a page in it."""

    def __init__(self, tmp_path: Path):
        self.proc, url = _start_chromium(tmp_path, "about:blank")
        self.port = re.search(r":(\d+)/", url).group(1)
        self.tools = DevTools(url)
        self.pages: list[DevTools] = []

    def new_person(self, url: str) -> DevTools:
        context = self.tools.call("Target.createBrowserContext")["browserContextId"]
        target = self.tools.call("Target.createTarget", url="about:blank", browserContextId=context)["targetId"]
        page = DevTools(f"ws://127.0.0.1:{self.port}/devtools/page/{target}")
        page.call("Network.enable")  # to see every WebSocket frame the page receives
        page.call("Page.enable")
        page.call("Emulation.setDeviceMetricsOverride", width=1280, height=1400, deviceScaleFactor=1, mobile=False)
        page.call("Page.navigate", url=url)
        self.pages.append(page)
        return page

    def close(self) -> None:
        for page in self.pages:
            page.close()
        self.tools.close()
        _stop(self.proc)


@pytest.fixture
def two_people(tmp_path):
    browser()
    server = ServeProcess(tmp_path / "games.sqlite", ["panic_station", "connect_four"])
    server.start()
    chromium = None
    try:
        chromium = Chromium(tmp_path)
        yield server, chromium
    finally:
        if chromium is not None:
            chromium.close()
        server.stop()


class Replica:
    """The game as the SQLite file holds it, replayed beside the server to know the truth
    (every hidden card); it follows the stored decisions, replaying from the start only
    when they are not a continuation of those it has (an undo)."""

    def __init__(self, server: ServeProcess, game_id: str):
        from rulecraft.dsl.loader import load_checked

        self.server, self.id = server, game_id
        stored = server.stored(game_id)
        self.ruleset = load_checked(str(shipped_rulesets()[stored.ruleset]), stored.variant)
        self.game, self.decisions = None, []

    def now(self):
        from rulecraft.interpreter.game import Game
        from rulecraft.server.store import SETTINGS

        stored = self.server.stored(self.id)
        if self.game is None or stored.decisions[:len(self.decisions)] != self.decisions:
            self.game, self.decisions = Game(self.ruleset, stored.players, stored.seed, settings=SETTINGS), []
        for option in stored.decisions[len(self.decisions):]:
            self.game.choose(option)
            self.decisions.append(option)
        return self


def _mentions(text: str, name: str) -> bool:
    return re.search(r"(?<![\w.])" + re.escape(name) + r"(?!\w|\.\w)", text) is not None


def _hidden_from(table, seat: str, lang: str) -> set[str]:
    """The cards in other players' zones that the seat's view does not show, by id and
    by the words a page in that language would name them with."""
    from rulecraft.server.words import Words

    words = Words(table.ruleset, lang)
    seen = json.dumps(table.game.view(seat))
    hidden = set()
    for zone, items in table.game.state.zones.items():
        owner = zone.partition(":")[2]
        if owner and owner != seat and isinstance(items, list):
            for card in items:
                if not _mentions(seen, card):
                    hidden |= {card, words.name(card)}
    return hidden


class Person:
    """A seat's page, as the test clicks it."""

    def __init__(self, seat: str, page: DevTools, lang: str = "en"):
        self.seat, self.page, self.lang = seat, page, lang
        self.checked_frames = 0

    def decisions(self) -> int:
        return self.page.js("Number(document.body?.dataset.decisions ?? -1)")

    def options(self) -> list[str]:
        return self.page.js("[...document.querySelectorAll('button.option')].map((b) => b.textContent)")

    def board(self) -> str:
        return self.page.js("document.getElementById('board').innerHTML")

    def hand(self) -> str:
        return self.page.js("document.getElementById('hand').textContent")

    def point_at(self, selector: str):
        """Where a click reaches the element (scrolled into view), or None where something
        else lies on top of it."""
        return self.page.js(f"""(() => {{ const e = document.querySelector({json.dumps(selector)});
            if (!e) return null;
            e.scrollIntoView({{block: 'center', inline: 'center'}});
            const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
            const hit = document.elementFromPoint(x, y);
            return hit && (hit === e || e.contains(hit)) ? [x, y] : null; }})()""")

    def wait_until_live(self, decisions: int) -> None:
        self.page.wait_for(f"document.body?.dataset.connected === 'yes' && "
                           f"Number(document.body?.dataset.decisions) === {decisions}")

    def check_nothing_hidden(self, table) -> None:
        """Neither the page nor a frame it received since the last check names a card
        hidden from this seat now (each check follows every decision: the frames since
        are of this state)."""
        hidden = _hidden_from(table, self.seat, self.lang)
        page = self.page.js("document.documentElement.outerHTML")
        frames = self.page.frames[self.checked_frames:]
        self.checked_frames = len(self.page.frames)
        for card in hidden:
            assert not _mentions(page, card), f"{self.seat}'s page shows {card}, hidden from it"
            for frame in frames:
                assert not _mentions(frame, card), f"a frame to {self.seat} carries {card}, hidden from it"
        return len(hidden)


def _check_screenshot(person: Person, colours: list[str], name: str) -> None:
    """The picture of the whole table page: the board drawn (many colours where its SVG
    is, the pieces' colours among them) and the hand written beside it."""
    from PIL import Image

    # the pointer off the board, so that no option's preview is drawn
    person.page.call("Input.dispatchMouseEvent", type="mouseMoved", x=1, y=1)
    size = person.page.js("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    shot = base64.b64decode(person.page.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                                             clip={"x": 0, "y": 0, "width": size[0], "height": size[1],
                                                   "scale": 1})["data"])
    target = os.environ.get("RULECRAFT_SCREENSHOTS")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        (Path(target) / f"{name}.png").write_bytes(shot)
    image = Image.open(io.BytesIO(shot)).convert("RGB")

    def area(selector: str):  # where the element lies on the page (not the window)
        box = person.page.js(f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
                             ".getBoundingClientRect(); return [r.left + scrollX, r.top + scrollY,"
                             " r.right + scrollX, r.bottom + scrollY]; })()")
        return image.crop((max(0, int(box[0])), max(0, int(box[1])),
                           min(image.width, int(box[2])), min(image.height, int(box[3]))))
    board = area("#board svg")
    assert board.width > 200 and board.height > 200, "the board is not drawn"
    found = {c for _, c in board.getcolors(maxcolors=1 << 22)}
    assert len(found) > 20, "the board area is nearly blank"

    def near(hex_colour: str) -> bool:
        want = tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
        return any(sum(abs(a - b) for a, b in zip(c, want)) < 30 for c in found)
    assert any(near(c) for c in colours), "no piece of any player's colour on the board"
    written = area("#hand")
    dark = sum(n for n, c in written.getcolors(maxcolors=1 << 22) if sum(c) < 200)
    assert dark > 50, "the hand is not written on the screen"


LOST = {"en": "Connection lost", "fr": "Connexion perdue"}
# the page's last view is no view sent during a round of bots (table.js keeps it as latest)
BOTS_DONE = "(typeof latest !== 'undefined' && !!latest && !latest.bots_playing)"
YOU_ARE = {"en": "you are", "fr": "vous êtes"}
GAME_OVER = {"en": "Game over:", "fr": "Partie terminée"}


def _play(server: ServeProcess, game: dict, people: dict[str, Person], choose, *, undo_after: int,
          reload_at: int, restart_at: int, max_clicks: int, screenshot) -> dict:
    """Click the game through to its end. ``choose(person, rng)`` makes one click on the
    page whose choice is pending. Returns what happened on the way."""
    rng = random.Random(3)
    replica = Replica(server, game["game"])
    seen = {"clicks": 0, "out_of_turn": 0, "undone": False, "reloaded": False, "restarted": False, "hidden": 0}
    # the bots' opening round over (the pages are sent its moves as they are made, and the
    # file stores each): only then is the number of decisions stored the game's
    for person in people.values():
        person.page.wait_for(BOTS_DONE)
    for person in people.values():
        person.wait_until_live(len(server.stored(game["game"]).decisions))
        assert f"{YOU_ARE[person.lang]} {person.seat}" in person.page.js("document.getElementById('title').textContent")
    while True:
        table = replica.now()
        stored = len(table.decisions)
        for person in people.values():
            person.wait_until_live(stored)
            seen["hidden"] += person.check_nothing_hidden(table)
        pending = table.game.pending
        if pending is None:
            break
        # the one page offered options is the seat whose choice is pending, in turn or not
        offered = {seat for seat, person in people.items() if person.options()}
        assert offered == ({pending.player} & set(people)), (offered, pending.player)
        assert pending.player in people, "a bot's choice was left pending"
        if pending.player != table.game.state.current:
            seen["out_of_turn"] += 1
        person = people[pending.player]
        if seen["clicks"] == restart_at:
            screenshot(table)
            before = {seat: (p.board(), p.hand()) for seat, p in people.items()}
            server.stop()
            for p in people.values():
                p.page.wait_for("document.body?.dataset.connected === 'no'")
                assert p.page.js("document.getElementById('connection').textContent").startswith(LOST[p.lang])
            server.start()
            for seat, p in people.items():
                p.wait_until_live(stored)
                assert (p.board(), p.hand()) == before[seat], "the restarted server shows another game"
            seen["restarted"] = True
        if seen["clicks"] == reload_at:
            other = next(p for seat, p in people.items() if seat != pending.player)
            other.page.call("Page.reload")
            other.wait_until_live(stored)
            seen["reloaded"] = True
        board, options = person.board(), person.options()
        choose(person, rng)
        seen["clicks"] += 1
        # the answer and the bots' after it (the page is sent their moves as they are made)
        person.page.wait_for(f"(Number(document.body?.dataset.decisions) !== {stored} && {BOTS_DONE}) || "
                             "!!document.getElementById('error').textContent")
        assert person.page.js("document.getElementById('error').textContent") == ""
        assert seen["clicks"] <= max_clicks, "the game did not end"
        if not seen["undone"] and seen["clicks"] >= undo_after and \
                person.page.js("!document.getElementById('undo').hidden"):
            person.page.js("document.getElementById('undo').click()")
            person.page.wait_for(f"Number(document.body?.dataset.decisions) === {stored}")
            # the pointer leaves the board, which then shows no option's preview
            person.page.call("Input.dispatchMouseEvent", type="mouseMoved", x=1, y=1)
            assert person.board() == board and person.options() == options
            assert len(server.stored(game["game"]).decisions) == stored
            seen["undone"] = True
    for person in people.values():
        person.page.wait_for("!!document.getElementById('result').textContent")
        assert person.page.js("document.getElementById('result').textContent").startswith(GAME_OVER[person.lang])
    return seen


def test_panic_station_two_people_in_their_own_browsers_against_bots(two_people):
    from rulecraft.docgen.svg import PIECE_COLOURS
    from rulecraft.server.words import Words

    server, chromium = two_people
    started = time.monotonic()
    seats = ["human", "human", "random", "random", "random", "random"]
    game = server.create({"ruleset": "panic_station", "seats": seats, "seed": 12})
    # one plays in English, the other in French
    people = {"p1": Person("p1", chromium.new_person(server.url + game["links"]["p1"])),
              "p2": Person("p2", chromium.new_person(server.url + game["links"]["p2"] + "?lang=fr"), "fr")}

    clicked = {"board": 0, "spots": 0, "costs": 0}

    def click_an_option(person: Person, rng: random.Random) -> None:
        options = person.page.js("view.options.map((o) => o.option)")
        # an action's cost is written on its button
        clicked["costs"] += person.page.js("[...document.querySelectorAll('button.option .cost')]"
                                           ".some((c) => /^\\(\\d+ \\S/.test(c.textContent))")
        spots = [i for i, o in enumerate(options) if isinstance(o, dict) and set(o) == {"x", "y", "rotation"}]
        if spots:  # a room tile to lay: see where each option would lay it, then click a cell
            i = rng.choice(spots)
            ghost = f'#board .ghost[data-option="{i}"]'
            # both read in one step: a view the server pushes in between (another page
            # connecting, say) draws the board again, without a preview until the next hover
            shown = "[document.querySelector('%s').getAttribute('visibility'), " \
                    "document.querySelectorAll('#board .ghost[visibility=\"visible\"]').length]" % ghost
            for _ in range(3):
                person.page.call("Input.dispatchMouseEvent", type="mouseMoved", x=0, y=0)
                person.page.call("Input.dispatchMouseEvent", type="mouseMoved",
                                 **dict(zip("xy", person.point_at(f'button.option[data-index="{i}"]'))))
                seen = person.page.js(shown)
                if seen == ["visible", 1]:
                    break
            assert seen == ["visible", 1]
            x, y = options[i]["x"], options[i]["y"]
            here = [j for j in spots if (options[j]["x"], options[j]["y"]) == (x, y)]
            hinted = f"document.querySelectorAll('button.option.hint').length === {len(here)}"
            for attempt in range(3):
                person.page.click_at(*person.point_at(f'#board [data-spot="{x},{y}"]'))
                if len(here) == 1:
                    break
                # turned several ways: the cell points out their buttons; a view the server
                # pushes just after the click draws the board again, without them: click again
                try:
                    person.page.wait_for(hinted, SLOW / 3)
                    break
                except AssertionError:
                    if attempt == 2:
                        raise
            if len(here) > 1:
                person.page.js(f'document.querySelector(\'button.option[data-index="{i}"]\').click()')
            clicked["spots"] += 1
            return
        exploring = [i for i, o in enumerate(options) if isinstance(o, dict) and o.get("action") == "explore"]
        i = rng.choice(exploring) if exploring and rng.random() < 0.5 else rng.randrange(len(options))
        # a room or a piece that this option alone names is clicked on the board
        target = person.page.js(f"""(() => {{
            for (const e of document.querySelectorAll('#board [data-room], #board [data-piece]')) {{
              const name = e.dataset.room || e.dataset.piece;
              const naming = view.options.map((o, j) => [o, j])
                .filter(([o]) => JSON.stringify(o.option).includes(JSON.stringify(name)));
              if (naming.length === 1 && naming[0][1] === {i})
                return e.dataset.room ? `[data-room="${{name}}"]` : `[data-piece="${{name}}"]`;
            }}
            return null; }})()""")
        point = target and person.point_at(f"#board {target}")
        if point:
            person.page.click_at(*point)
            clicked["board"] += 1
        else:
            person.page.js(f"document.querySelectorAll('button.option')[{i}].click()")

    def screenshot(table):
        for seat, person in people.items():
            assert person.page.js("document.querySelectorAll('#board svg .room').length") >= 1
            assert person.page.js("document.querySelectorAll('#board svg .piece').length") >= 1
            mine = table.game.view(seat)["zones"][f"hand:{seat}"]
            assert mine, "a player holds cards"
            shown = person.hand()
            words = Words(table.ruleset, person.lang)
            assert all(words.name(card) in shown for card in mine)
            _check_screenshot(person, PIECE_COLOURS[:6], f"panic_station_{seat}")

    seen = _play(server, game, people, click_an_option, undo_after=2, reload_at=6, restart_at=12,
                 max_clicks=600, screenshot=screenshot)
    assert seen["undone"] and seen["reloaded"] and seen["restarted"]
    assert clicked["spots"] > 0 and clicked["board"] > 0 and clicked["costs"] > 0
    assert seen["out_of_turn"] > 0, "no choice fell to a person out of turn"
    assert seen["hidden"] > 100, "the other seats' hidden cards were looked for"
    for person in people.values():
        assert person.page.frames, "the page's WebSocket frames were seen"
    assert time.monotonic() - started < 300


def test_connect_four_two_people_click_the_board(two_people, tmp_path):
    from rulecraft.docgen.svg import PIECE_COLOURS

    server, chromium = two_people
    # the game is created in the lobby by the first person, who sends the second their link
    host = chromium.new_person(f"{server.url}/")
    host.wait_for("document.querySelectorAll('#ruleset option').length > 0")
    host.js("(() => { const r = document.getElementById('ruleset'); r.value = 'connect_four';"
            " r.dispatchEvent(new Event('change')); })()")
    host.wait_for("!!document.getElementById('seat-p2')")
    host.js("document.getElementById('create').click()")
    links = {p: host.wait_for(f"document.getElementById('link-{p}') && document.getElementById('link-{p}').href")
             for p in ("p1", "p2")}
    game = {"game": re.search(r"/game/([0-9a-f]+)/", links["p1"]).group(1)}
    host.call("Page.navigate", url=links["p1"])
    people = {"p1": Person("p1", host), "p2": Person("p2", chromium.new_person(links["p2"] + "?lang=fr"), "fr")}

    def click_a_space(person: Person, rng: random.Random) -> None:
        # the spaces that one option names: a click there plays it
        spaces = person.page.js(
            "[...document.querySelectorAll('#board [data-space]')].map((e) => e.dataset.space)"
            ".filter((s) => view.options.filter((o) => JSON.stringify(o.option).includes(JSON.stringify(s)))"
            ".length === 1)")
        assert spaces
        space = rng.choice(spaces)
        box = person.page.js(f"(() => {{ const e = document.querySelector('#board [data-space=\"{space}\"]');"
                             " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
                             " return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        person.page.click_at(*box)

    def screenshot(table):
        for seat, person in people.items():
            assert person.page.js("document.querySelectorAll('#board svg .space').length") == 42
            _check_screenshot(person, PIECE_COLOURS[:2], f"connect_four_{seat}")

    seen = _play(server, game, people, click_a_space, undo_after=1, reload_at=3, restart_at=6, max_clicks=42,
                 screenshot=screenshot)
    assert seen["undone"] and seen["reloaded"] and seen["restarted"]
