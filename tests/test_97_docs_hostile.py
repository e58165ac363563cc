"""A rule set from a stranger can neither run script in a reader's browser nor write
outside the folder given to `rulecraft docs --out`.

The hostile copy of Panic Station (tests/hostile_ruleset.py) carries markup and script
payloads in every free-text field; its sites (English, French, with a variant) are
built strictly and every page is parsed for injected elements, event handlers and
script links, then opened in headless Chromium to see that no payload runs.
"""

from __future__ import annotations

import atexit
import functools
import html
import json
import re
import shutil
import subprocess
import tempfile
import threading
import xml.etree.ElementTree as ET
from functools import partial
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml
from hostile_ruleset import EVERY, PATH_ROOM, make_hostile
from test_96_docs_browser import FLAGS, browser  # noqa: F401 - the browser fixture

from rulecraft.cli.main import main
from rulecraft.docgen.authored import MissingWords
from rulecraft.docgen.pages import Site
from rulecraft.docgen.site import collect, mkdocs, write

SITES = {"en": ("en", None), "fr": ("fr", None), "variant": ("en", "master_and_servant")}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "data", "xlink:href", "poster", "srcdoc", "background"}
SCRIPT_SCHEMES = ("javascript:", "vbscript:", "data:text/html")


@functools.lru_cache(maxsize=None)
def hostile_checkout() -> Path:
    where = Path(tempfile.mkdtemp(prefix="rulecraft-hostile-"))
    atexit.register(shutil.rmtree, where, ignore_errors=True)
    return make_hostile(where / "checkout")


@functools.lru_cache(maxsize=None)
def hostile_site(which: str) -> tuple[Site, Path]:
    """One hostile site written and built with ``mkdocs build --strict``: (the Site, its folder)."""
    lang, variant = SITES[which]
    folder = hostile_checkout().parent.parent.parent / f"site-{which}"
    try:
        site = collect(hostile_checkout(), lang, variant)
    except MissingWords as err:
        # The rule files' hardened texts and citations are new words for the glossary of
        # another language: a hostile translator gives each a payload too.
        _translate_hostile(lang, err.words)
        site = collect(hostile_checkout(), lang, variant)
    done = mkdocs(write(site, folder), "build", "--strict")
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    return site, folder


def _translate_hostile(lang: str, words) -> None:
    path = hostile_checkout() / "glossary" / f"{lang}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for i, word in enumerate(words):
        data.setdefault(word.section, {})[word.key] = f"{word.original} {EVERY[i % len(EVERY)]}"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000), encoding="utf-8")


class _Scan(HTMLParser):
    """What an HTML page holds that rule-set text must never produce, and its visible text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.text: list[str] = []
        self.elements = 0
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.elements += 1
        self._in_script = tag == "script"
        for name, value in attrs:
            if name == "data-injected" or name.startswith("on"):
                self.found.append(f"<{tag} {name}={value!r}>")
            if name in URL_ATTRIBUTES and value:
                url = re.sub(r"[\x00-\x20]", "", html.unescape(value)).lower()
                if url.startswith(SCRIPT_SCHEMES):
                    self.found.append(f"<{tag} {name}={value!r}>")

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script and "pwned" in data:
            self.found.append(f"<script>{data[:60]}")
        elif not self._in_script:
            self.text.append(data)


def scan(text: str) -> _Scan:
    parser = _Scan()
    parser.feed(text)
    parser.close()
    return parser


def test_the_hostile_rule_set_is_a_valid_rule_set(capsys):
    # Payloads sit in fields that accept free text: the rule set passes the checks clean.
    assert main(["check", str(hostile_checkout())]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("which", SITES)
def test_no_page_holds_an_injected_element_handler_or_script_link(which):
    site, folder = hostile_site(which)
    pages = sorted((folder / "site").rglob("*.html"))
    assert len(pages) > 100
    shown = 0
    for page in pages:
        seen = scan(page.read_text(encoding="utf-8"))
        assert not seen.found, f"{page.relative_to(folder)}: {seen.found[:5]}"
        shown += "".join(seen.text).count("data-injected")
    # The payloads are on the pages, as text a reader can see.
    assert shown > 1000


def _visible(folder: Path, page: str) -> str:
    return "".join(scan((folder / "site" / page).read_text(encoding="utf-8")).text)


def test_every_text_field_shows_its_payload_as_typed():
    site, folder = hostile_site("en")
    # each field below has a payload (data and rules text all of them, glossary words one each)
    pages = {
        "index.html": "the game title and the glossary words of components and parameters",
        "rulings.html": "the question, section, ruling and reason of a ruling",
        "actions/explore.html": "a definition's cite, glossary title and phrases",
        "cards/index.html": "card names and kinds from the glossary",
        "examples/index.html": "scenario titles and cites",
        "variants/master_and_servant.html": "a variant's title, text, cite and superseded scenarios",
        "rooms/index.html": "room types from the glossary",
    }
    for page, fields in pages.items():
        assert "data-injected" in _visible(folder, page), f"{page} should show {fields} with their payload as text"
    assert EVERY[0] in _visible(folder, "index.html")  # the game title, whole
    names = [p.name for p in (folder / "docs").rglob("*")]
    assert any(n.startswith("board-img-src-x-onerror") for n in names), "the hostile rule file has its page"
    assert any(n.startswith("explore-svg-onload") for n in names), "the hostile scenario file has its page"
    for payload in EVERY:  # every payload reached the pages intact (as text)
        one_line = re.sub(r"[\r\n]+", " ", payload)
        assert any(one_line in _visible(folder, p) for p in ("rulings.html", "variants/master_and_servant.html")), payload


@pytest.mark.parametrize("which", SITES)
def test_pictures_are_xml_without_script_or_handlers(which):
    _, folder = hostile_site(which)
    pictures = sorted((folder / "site").rglob("*.svg"))
    assert len(pictures) > 100
    for picture in pictures:
        root = ET.parse(picture).getroot()  # well-formed: no text broke out of its element
        for element in root.iter():
            assert not element.tag.endswith(("script", "foreignObject")), picture
            assert not [a for a in element.attrib if a.startswith("on") or a == "data-injected"], picture


@pytest.mark.parametrize("which", SITES)
def test_navigation_site_name_and_search_index_hold_no_markup(which):
    _, folder = hostile_site(which)
    config = yaml.safe_load((folder / "mkdocs.yml").read_text(encoding="utf-8"))

    def titles(nav):
        if isinstance(nav, list):
            for item in nav:
                yield from titles(item)
        elif isinstance(nav, dict):
            for title, value in nav.items():
                yield title
                yield from titles(value)

    labels = [config["site_name"], *titles(config["nav"])]
    assert any("onerror" in t for t in labels), "hostile titles reach the navigation"
    for title in labels:
        assert not set(title) & set('<>"`'), title
    index = json.loads((folder / "site" / "search" / "search_index.json").read_text(encoding="utf-8"))
    for doc in index["docs"]:  # the search box shows these as HTML
        for part in (doc["title"], doc["text"]):
            assert not scan(part).found, (doc["location"], part[:200])


def test_a_room_type_that_is_a_path_writes_nothing_outside_out(tmp_path, capsys):
    out = tmp_path / "a" / "b" / "out"
    assert main(["docs", str(hostile_checkout()), "--out", str(out)]) == 0, capsys.readouterr().err
    outside = [p for p in tmp_path.rglob("*") if p.is_file() and out not in p.parents]
    assert outside == []
    rooms = sorted(p.name for p in (out / "docs" / "rooms").iterdir())
    board = yaml.safe_load((hostile_checkout() / "board.yaml").read_text(encoding="utf-8"))["board"]
    types = {room["type"] for layout in board["layouts"].values() for room in layout["rooms"].values()}
    assert PATH_ROOM in types and len(rooms) == 1 + len(types)  # the index and a page per room type
    assert all(re.fullmatch(r"[a-z0-9_-]+\.md", n) for n in rooms), rooms
    assert PATH_ROOM not in "".join(rooms)


def test_a_page_path_outside_docs_is_refused_before_anything_is_written(tmp_path):
    site = Site("t", "en", pages={"index.md": "# t\n", "../../escape.md": "x"})
    with pytest.raises(ValueError, match="escape.md"):
        write(site, tmp_path / "out")
    assert not (tmp_path / "escape.md").exists() and not (tmp_path / "out" / "docs").exists()


def test_out_that_is_a_file_is_refused_in_one_line(tmp_path, capsys):
    target = tmp_path / "notes.txt"
    target.write_text("mine")
    with pytest.raises(SystemExit) as stopped:
        main(["docs", "panic_station", "--out", str(target)])
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and len(err.strip().splitlines()) == 1 and "not a folder" in err
    assert target.read_text() == "mine"


def test_a_folder_of_the_users_is_neither_emptied_nor_overwritten(tmp_path, capsys):
    out = tmp_path / "project"
    (out / "docs").mkdir(parents=True)
    (out / "docs" / "notes.md").write_text("my notes")
    (out / "mkdocs.yml").write_text("site_name: mine\n")
    assert main(["docs", "panic_station", "--out", str(out), "--scenarios", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "not empty" in err
    assert (out / "docs" / "notes.md").read_text() == "my notes"
    assert (out / "mkdocs.yml").read_text() == "site_name: mine\n"


def test_a_site_written_before_is_written_again(tmp_path, capsys):
    out, no_examples = tmp_path / "site", tmp_path / "no-examples"
    no_examples.mkdir()
    for _ in range(2):
        assert main(["docs", "panic_station", "--out", str(out), "--scenarios", str(no_examples)]) == 0
    (out / "docs" / "stale.md").write_text("from before")
    assert main(["docs", "panic_station", "--out", str(out), "--scenarios", str(no_examples)]) == 0
    assert not (out / "docs" / "stale.md").exists()
    capsys.readouterr()


# ---------------------------------------------------------------- in a browser

# A page of our own, served with the hostile site (so it shares its origin), opens pages
# in frames; every payload that runs pushes its number onto top.pwned.
PROBE = """<!doctype html><html><body>
<pre id="report">waiting</pre>
<script>
window.pwned = [];
const pages = {pages};
const report = {{pages: {{}}}};
for (const page of pages) {{
  const frame = document.createElement("iframe");
  frame.width = 1400; frame.height = 2000;
  frame.addEventListener("load", () => setTimeout(() => {{
    const doc = frame.contentDocument;
    report.pages[page] = {{
      injected: doc.querySelectorAll("[data-injected]").length,
      text: doc.body.innerText.length,
    }};
    if (Object.keys(report.pages).length === pages.length) {{
      report.pwned = window.pwned;
      document.getElementById("report").textContent = JSON.stringify(report);
    }}
  }}, 3000));
  frame.src = page;
  document.body.appendChild(frame);
}}
</script></body></html>"""
# The probe sees a payload run: this page of ours runs one, on purpose.
CONTROL = "<!doctype html><html><body><img src=x onerror=(top.pwned=top.pwned||[]).push(0)></body></html>"
BROWSED = ["index.html", "rulings.html", "actions/explore.html", "cards/index.html", "rooms/index.html",
           "examples/index.html", "variants/master_and_servant.html", "__control"]


@pytest.fixture(scope="module")
def hostile_served(browser):  # noqa: F811 - the fixture imported above
    _, folder = hostile_site("en")
    rooms = sorted(p.name for p in (folder / "site" / "rooms").glob("*.html") if p.name != "index.html")
    examples = sorted(p.name for p in (folder / "site" / "examples").glob("explore-*.html"))
    rules = sorted(p.name for p in (folder / "site" / "rules").glob("board-*.html"))
    pages = BROWSED + [f"rooms/{n}" for n in rooms] + [f"examples/{n}" for n in examples] + [f"rules/{n}" for n in rules]

    class Handler(SimpleHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the http.server API
            extra = {"/__probe": PROBE.format(pages=json.dumps(pages)), "/__control": CONTROL}.get(self.path)
            if extra is None:
                return super().do_GET()
            body = extra.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(folder / "site")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield pages, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_no_payload_runs_in_a_browser(browser, hostile_served, tmp_path):  # noqa: F811
    pages, base = hostile_served
    done = subprocess.run([browser, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=30000",
                           "--window-size=1500,1500", "--dump-dom", f"{base}/__probe"],
                          capture_output=True, text=True, timeout=300)
    found = re.search(r'<pre id="report">(.*?)</pre>', done.stdout, re.S)
    assert found, f"no report from the browser (exit {done.returncode}): {done.stderr[-2000:]}"
    report = html.unescape(found.group(1))
    assert report != "waiting", "the pages did not finish loading in the browser"
    report = json.loads(report)
    assert report["pwned"] == [0], "only the control page may run a payload"
    assert set(report["pages"]) == set(pages)
    for page, seen in report["pages"].items():
        assert seen["injected"] == 0, page
        assert page == "__control" or seen["text"] > 200, f"{page} shows its text"


# ---------------------------------------------------------------- the escaping itself

SITE_EXTENSIONS = ["tables", "attr_list", "md_in_html", "admonition", "pymdownx.details", "pymdownx.superfences",
                   "pymdownx.tabbed", "toc"]


def _render(markdown_text: str) -> str:
    import markdown

    return markdown.markdown(markdown_text, extensions=SITE_EXTENSIONS)


@pytest.mark.parametrize("payload", EVERY)
@pytest.mark.parametrize("context", ["{}", "# {}", "| a | {} |\n|---|---|\n| {} | b |", "- {}", "**x** {}", "[{}](x.md)"])
def test_escaped_text_renders_as_typed_in_every_markdown_context(payload, context):
    from rulecraft.docgen.markup import md

    rendered = _render(context.replace("{}", md(payload)))
    seen = scan(rendered)
    assert not seen.found, rendered
    assert re.sub(r"\s+", " ", payload).strip() in re.sub(r"\s+", " ", "".join(seen.text)), rendered


@pytest.mark.parametrize("url, safe", [
    ("https://example.org/a?b=1&c=2", True), ("http://x.y", True), ("mailto:a@b.c", True), ("../rules/x.md#y", True),
    ("javascript:alert(1)", False), ("JaVaScRiPt:alert(1)", False), (" javascript:alert(1)", False),
    ("java\tscript:alert(1)", False), ("jav&#x61;script:alert(1)", False), ("jav&amp;#x61;script:x", False),
    ("data:text/html,<script>", False), ("vbscript:x", False), ("file:///etc/passwd", False)])
def test_only_web_mail_and_relative_links_are_kept(url, safe):
    from rulecraft.docgen.markup import md_prose, safe_url

    assert (safe_url(url) is not None) is safe
    rendered = _render(md_prose(f"see [the page]({url}) now"))
    links = re.findall(r'<a href="([^"]*)"', rendered)
    assert len(links) == (1 if safe else 0), rendered
    assert "the page" in rendered


def test_file_names_are_stable_distinct_slugs():
    from rulecraft.docgen.markup import slug

    names = ["explore", "sick_bay", "../../../../x", "..", "a/b", "Explore", "explore--1", "x y", "", "é", "con"]
    slugs = [slug(n) for n in names]
    assert slugs[:2] == ["explore", "sick_bay"]  # names that are already file names stay as they are
    assert len(set(slugs)) == len(slugs) and slugs == [slug(n) for n in names]
    assert all(re.fullmatch(r"[a-z0-9_]+(-{1,2}[a-z0-9_]+)*", s) for s in slugs), slugs
