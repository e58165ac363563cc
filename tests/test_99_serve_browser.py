"""`rulecraft serve` in headless Chromium: the lobby creates a tic-tac-toe game against a
bot, the seat's page is clicked through to the end, and a screenshot is kept.

Chromium is driven over the Chrome DevTools protocol with a small WebSocket client. The
test skips without Chromium, unless RULECRAFT_REQUIRE_BROWSER is set. Set
RULECRAFT_SCREENSHOT=FILE to keep the final screenshot.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import socket
import subprocess
import threading
import time

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_client = pytest.importorskip("websockets.sync.client")

from rulecraft.cli.common import shipped_rulesets  # noqa: E402
from rulecraft.server.app import create_app  # noqa: E402

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-extensions",
         "--no-first-run", "--hide-scrollbars", "--mute-audio", "--window-size=1200,900"]


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
    """Just enough of the DevTools protocol: send a command, wait for its answer."""

    def __init__(self, url: str):
        self._connection = sync_client.connect(url, max_size=None, open_timeout=20)
        self.ws = self._connection.__enter__()
        self.next_id = 0

    def call(self, method: str, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv(timeout=30))
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(message["error"])
                return message["result"]

    def js(self, expression: str):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"])
        return result["result"].get("value")

    def wait_for(self, expression: str, seconds: float = 20):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            value = self.js(expression)
            if value:
                return value
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {expression}")


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


@pytest.fixture
def chromium(tmp_path, served):
    exe = browser()
    proc = subprocess.Popen([exe, *FLAGS, "--remote-debugging-port=0", f"--user-data-dir={tmp_path / 'profile'}",
                             f"{served}/"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        url = None
        deadline = time.monotonic() + 30
        while url is None and time.monotonic() < deadline:
            line = proc.stderr.readline()
            m = re.search(r"DevTools listening on (ws://\S+)", line)
            if m:
                url = m.group(1)
        assert url, "Chromium did not open its DevTools port"
        port = re.search(r":(\d+)/", url).group(1)
        import urllib.request

        deadline = time.monotonic() + 20
        while True:
            pages = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list").read())
            page = next((p for p in pages if p.get("type") == "page"), None)
            if page or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        tools = DevTools(page["webSocketDebuggerUrl"])
        yield tools
        tools._connection.__exit__(None, None, None)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


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
    shot = base64.b64decode(page.call("Page.captureScreenshot", format="png")["data"])
    assert shot[:8] == b"\x89PNG\r\n\x1a\n"
    target = os.environ.get("RULECRAFT_SCREENSHOT") or str(tmp_path / "table.png")
    with open(target, "wb") as f:
        f.write(shot)
