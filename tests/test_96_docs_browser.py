"""The rules site as a reader sees it: headless Chromium opens the overview, action, card
and worked example pages of the built site; we check that the text that teaches the game
is there (how to win, what a card does, the steps told in sentences, the legend of the
tokens), that the pictures drew, and that screenshots of these pages are not blank.

Without Chromium the tests skip, unless RULECRAFT_REQUIRE_BROWSER is set (CI installs
Chromium and sets it, so a missing browser fails there).
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from test_95_docs_site import built_site

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
         "--disable-extensions", "--no-first-run", "--hide-scrollbars", "--mute-audio"]
# A page of our own, served next to the site (so it shares its origin), opens pages of
# the site in frames and writes what a reader would see into <pre id="report">: one
# browser start for all of them.
PROBE = """<!doctype html><html><body>
<pre id="report">waiting</pre>
<script>
const pages = {pages};
const report = {{}};
for (const page of pages) {{
  const frame = document.createElement("iframe");
  frame.width = 1400; frame.height = 2400;
  frame.addEventListener("load", () => setTimeout(() => {{
    const doc = frame.contentDocument;
    const article = doc.querySelector("article") || doc.body;
    const images = [...article.querySelectorAll("img")].map(img => ({{
      src: img.getAttribute("src"),
      loaded: img.complete && img.naturalWidth > 0 && img.naturalHeight > 0,
      shown: img.getBoundingClientRect().width > 0 && img.getBoundingClientRect().height > 0,
    }}));
    report[page] = {{
      title: (article.querySelector("h1") || {{}}).textContent || "",
      text: article.innerText,
      images: images,
      highlighted: article.querySelectorAll(".highlight .kd, .highlight .k").length,
      search: !!doc.querySelector(".md-search__input"),
    }};
    if (Object.keys(report).length === pages.length)
      document.getElementById("report").textContent = JSON.stringify(report);
  }}, 500));
  frame.src = page;
  document.body.appendChild(frame);
}}
</script></body></html>"""
PAGES = ["cards/terminal_annex.html", "examples/explore.html", "actions/move.html",
         "index.html", "actions/stab.html", "cards/combat_knife.html", "examples/combat.html"]


def _browser() -> str | None:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def browser() -> str:
    found = _browser()
    if found is None:
        reason = f"no headless browser ({', '.join(BROWSERS)}) on PATH; install Debian's chromium package"
        if os.environ.get("RULECRAFT_REQUIRE_BROWSER"):
            pytest.fail(f"RULECRAFT_REQUIRE_BROWSER is set but there is {reason}")
        pytest.skip(reason)
    return found


@pytest.fixture(scope="module")
def served(browser):
    """The built site over HTTP on a free local port, with the probe page."""
    site, folder = built_site("en")
    root = folder / "site"

    class Handler(SimpleHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the http.server API
            if self.path == "/__probe":
                body = PROBE.format(pages=json.dumps(PAGES)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            super().do_GET()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield site, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def seen(browser, served, tmp_path_factory) -> dict:
    """What Chromium shows for each page of PAGES, after their scripts ran."""
    _, base = served
    profile = tmp_path_factory.mktemp("profile")
    done = subprocess.run([browser, *FLAGS, f"--user-data-dir={profile}", "--virtual-time-budget=15000",
                           "--window-size=1500,1500", "--dump-dom", f"{base}/__probe"],
                          capture_output=True, text=True, timeout=180)
    found = re.search(r'<pre id="report">(.*?)</pre>', done.stdout, re.S)
    assert found, f"no report from the browser (exit {done.returncode}): {done.stderr[-2000:]}"
    report = html.unescape(found.group(1))
    assert report != "waiting", "the pages did not finish loading in the browser"
    return json.loads(report)


def screenshot_colours(browser: str, url: str, tmp_path, colours: list[str]) -> dict[str, int]:
    """How many pixels of each colour a screenshot of the page has."""
    from matplotlib.image import imread

    tmp_path.mkdir(exist_ok=True)
    shot = tmp_path / "shot.png"
    subprocess.run([browser, *FLAGS, f"--user-data-dir={tmp_path / 'profile-shot'}", "--virtual-time-budget=10000",
                    "--window-size=1400,1400", f"--screenshot={shot}", url], capture_output=True, timeout=120)
    assert shot.is_file(), "the browser wrote no screenshot"
    pixels = (imread(str(shot))[:, :, :3] * 255).round().astype(int)
    counts = {}
    for colour in colours:
        rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
        counts[colour] = int(((abs(pixels - rgb) <= 12).all(axis=2)).sum())
    return counts


def test_a_card_page_shows_its_text_and_its_picture(served, seen):
    site, _ = served
    seen = seen["cards/terminal_annex.html"]
    heading = site.pages["cards/terminal_annex.md"].splitlines()[0].removeprefix("# ")
    assert seen["title"].rstrip("¶").strip() == heading
    for word in ("Sides", "Rooms", "exploration card"):
        assert word in seen["text"]
    pictures = [i for i in seen["images"] if i["src"].endswith("terminal_annex.svg")]
    assert pictures and all(i["loaded"] and i["shown"] for i in pictures), seen["images"]
    assert seen["search"], "the search box is on the page"


def test_a_worked_example_page_shows_results_and_both_boards(served, seen):
    site, _ = served
    seen = seen["examples/explore.html"]
    first = next(t for t in site.pages["examples/explore.md"].splitlines() if t.startswith("## "))
    title = re.sub(r"\s*\{#[^}]+\}$", "", first[3:]).replace("\\", "")
    assert title in seen["text"]
    assert "PASS" in seen["text"] and "Before" in seen["text"] and "After" in seen["text"]
    boards = [i for i in seen["images"] if re.search(r"explore-\d+-(before|after)\.svg$", i["src"])]
    assert {b["src"] for b in boards} >= {"explore-1-before.svg", "explore-1-after.svg"}
    assert all(b["loaded"] and b["shown"] for b in boards), boards


def test_pictures_are_drawn_and_code_is_highlighted(browser, served, seen, tmp_path):
    from rulecraft.docgen.svg import DOORWAY_COLOURS

    site, base = served
    door = DOORWAY_COLOURS[0]
    drawn = screenshot_colours(browser, f"{base}/cards/terminal_annex.html", tmp_path, [door])
    plain = screenshot_colours(browser, f"{base}/rulings.html", tmp_path / "plain", [door])
    # The doorway colour shows where a card is drawn, and not on a page of text.
    assert drawn[door] > 100 and plain[door] < drawn[door] // 10
    assert seen["actions/move.html"]["highlighted"] >= 3


def _shown(text: str) -> str:
    """Markdown of the author's text as a reader sees it: no escapes, spaces collapsed."""
    return " ".join(text.replace("\\", "").split())


def _read(seen_text: str) -> str:
    return " ".join(seen_text.split())


def test_the_overview_says_how_to_win_and_who_wins(served, seen):
    from rulecraft.dsl.loader import load_checked
    from test_95_docs_site import RULES

    rs = load_checked(RULES)
    text = _read(seen["index.html"]["text"])
    assert "How the game ends" in text and "Who wins:" in text
    for name in ("humans_all_dead", "troopers_all_dead", "burn_hive", "all_infected_winners"):
        assert _shown(rs.definitions[name].text) in text, name


def test_an_action_page_gives_the_authors_text_before_the_precise_rule(served, seen):
    from rulecraft.dsl.loader import load_checked
    from test_95_docs_site import RULES

    text = _read(seen["actions/stab.html"]["text"])
    said = _shown(load_checked(RULES).definitions["stab"].text)
    assert said in text
    assert text.index(said) < text.index("In plain words") < text.index("Rules language")


def test_a_card_page_says_what_the_card_does(served, seen):
    from rulecraft.dsl.loader import load_checked
    from test_95_docs_site import RULES

    text = _read(seen["cards/combat_knife.html"]["text"])
    assert "What it does" in text
    assert _shown(load_checked(RULES).definitions["stab"].text) in text
    assert text.index("What it does") < text.index("Properties")


def test_a_worked_example_is_told_in_steps_with_a_legend(served, seen):
    text = _read(seen["examples/combat.html"]["text"])
    assert "What happens" in text and "The steps" in text and "What must then be true" in text
    assert "The current player takes the action Fire Gun (shooter = Android of player 1, target = gray Parasite 1)." in text
    assert "Gray Parasite 1 is in Parasite supply." in text
    assert "Legend" in text and "T1 Trooper of player 1" in text and "A1 Android of player 1" in text
    # the scenario's YAML is still there, below, collapsed
    assert "The scenario as written" in text
    boards = [i for i in seen["examples/combat.html"]["images"] if i["src"].startswith("combat-1-")]
    assert boards and all(b["loaded"] and b["shown"] for b in boards)


def screenshot_pixels(browser: str, url: str, tmp_path):
    from matplotlib.image import imread

    tmp_path.mkdir(exist_ok=True)
    shot = tmp_path / "shot.png"
    subprocess.run([browser, *FLAGS, f"--user-data-dir={tmp_path / 'profile-shot'}", "--virtual-time-budget=10000",
                    "--window-size=1400,1400", f"--screenshot={shot}", url], capture_output=True, timeout=120)
    assert shot.is_file(), "the browser wrote no screenshot"
    return (imread(str(shot))[:, :, :3] * 255).round().astype(int)


@pytest.mark.parametrize("page", ["index.html", "actions/stab.html", "cards/combat_knife.html", "examples/combat.html"])
def test_screenshots_of_the_teaching_pages_are_not_blank(browser, served, tmp_path, page):
    _, base = served
    pixels = screenshot_pixels(browser, f"{base}/{page}", tmp_path)
    height, width, _ = pixels.shape
    assert (height, width) == (1400, 1400)
    background = (pixels >= 245).all(axis=2)  # white page
    inked = 1 - background.mean()
    # text and the theme's header: some of the page is ink, most of it is not (a blank or
    # all-dark page fails), and more than a handful of colours (not a flat error page)
    assert 0.02 < inked < 0.6, f"{page}: {inked:.3f} of the screenshot is not background"
    colours = {tuple(p) for p in pixels[::7, ::7].reshape(-1, 3)}
    assert len(colours) > 20, f"{page}: only {len(colours)} colours"
    # the text block itself has ink: the body below the header is not empty
    body = background[200:, 300:1100]
    assert 1 - body.mean() > 0.01, f"{page}: the body of the page is blank"
