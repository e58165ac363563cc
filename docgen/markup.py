"""Rule-set text made safe for each place the site puts it.

A rule set may come from anyone, and everything it writes (glossary words, titles,
citations, rulings, file and room names) ends up in pages a reader opens in a browser.
None of it is ever taken as markup: in Markdown it is escaped so that it reads as
typed; the only markup free text may carry is a Markdown link to an http, https or
mailto address or a relative one. File names made from rule-set names are slugs that
cannot leave the folder they are written in.
"""

from __future__ import annotations

import hashlib
import html
import re
from urllib.parse import quote

# Characters Markdown (with the site's extensions: tables, attr_list, md_in_html)
# would read as syntax inside a line, each backslash-escaped. `<`, `>` and `&` become
# numeric character references instead: Markdown has no escape for raw HTML, and a
# reference has no letter for a capitalisation to change.
_MARKDOWN_SYNTAX = re.compile(r"([\\`*_{}\[\]|])")
_REFERENCES = {"&": "&#38;", "<": "&#60;", ">": "&#62;"}
_LINE_BREAKS = re.compile(r"[\r\n\u2028\u2029]+")

SAFE_SCHEMES = ("http", "https", "mailto")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*):")
# Browsers ignore ASCII tabs and newlines anywhere in a URL, and control characters
# and spaces around it, so `java\tscript:` is still a script.
_IGNORED_IN_URL = re.compile(r"[\x00-\x20\x7f]+")
_LINK = re.compile(r"\[([^\[\]\r\n]*)\]\(([^()\s]*)\)")


def md(text: object) -> str:
    """Rule-set text as Markdown that shows exactly that text, on one line, with no markup."""
    text = _LINE_BREAKS.sub(" ", str(text))
    text = "".join(_REFERENCES.get(ch, ch) for ch in text)
    return _MARKDOWN_SYNTAX.sub(r"\\\1", text)


def safe_url(url: str) -> str | None:
    """``url`` if following it can only open a page (http, https, mailto or relative), else None."""
    seen = url
    while True:  # an address written with character references is read after decoding them
        decoded = html.unescape(seen)
        if decoded == seen:
            break
        seen = decoded
    seen = _IGNORED_IN_URL.sub("", seen)
    found = _SCHEME.match(seen)
    if found and found.group(1).lower() not in SAFE_SCHEMES:
        return None
    if not found and ":" in seen.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]:
        return None  # a colon before the first slash is a scheme to some browsers
    return url


def md_prose(text: object) -> str:
    """Free text (a ruling, a citation) as Markdown: escaped like :func:`md`, except that
    ``[words](address)`` stays a link when the address is safe. An unsafe link shows as its words."""
    text = _LINE_BREAKS.sub(" ", str(text))
    out, last = [], 0
    for found in _LINK.finditer(text):
        out.append(md(text[last:found.start()]))
        words, url = found.group(1), safe_url(found.group(2))
        out.append(f"[{md(words)}]({_url_in_markdown(url)})" if url else md(words))
        last = found.end()
    out.append(md(text[last:]))
    return "".join(out)


def _url_in_markdown(url: str) -> str:
    # Percent-encode what could end the link or open an attribute; `&` is written as a
    # reference so that the browser reads back the address as written.
    return quote(url, safe="/:?#@!$'*+,;=%-._~&").replace("&", "&amp;")


def md_code(text: object) -> str:
    """Rule-set text as an inline code span: delimited by more backticks than it holds."""
    text = _LINE_BREAKS.sub(" ", str(text))
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or longest else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_template(template: str, slot: re.Pattern) -> str:
    """A glossary phrase with ``{slots}`` escaped like :func:`md` between its slots."""
    out, last = [], 0
    for found in slot.finditer(template):
        out.append(md(template[last:found.start()]))
        out.append(found.group(0))
        last = found.end()
    out.append(md(template[last:]))
    return "".join(out)


# Themes put a navigation title and the site name into HTML, some escaped and some not
# (raw in the navigation, escaped in the logo's tooltip and the footer's aria-label,
# tags stripped and references decoded in <title>). So these never hold anything that
# means something to HTML, and read the same in both: `<`, `>`, `"` become the
# look-alike characters ‹ › ” that mean nothing. An `&` that cannot start a character
# reference (`Cats & Dogs`) stays itself, which raw HTML and escaped HTML both show as
# `&`; one that could (`R&D`, `&copy;`) becomes the look-alike ＆, since written as
# `&amp;` the escaped places would show `&amp;`.
_LABEL = {"<": "\u2039", ">": "\u203a", '"': "\u201d", "`": "\u2035"}
_REFERENCE_START = re.compile(r"&(?=[A-Za-z0-9#])")


def label(text: object) -> str:
    """Rule-set text for mkdocs.yml: a navigation title or the site name."""
    text = _REFERENCE_START.sub("\uff06", _LINE_BREAKS.sub(" ", str(text)))
    return "".join(_LABEL.get(ch, ch) for ch in text)


# A file name kept as it is: lower case letters, digits and `_`, in runs joined by
# single hyphens. Any other name gets a readable part and `--` with a hash of the name,
# which no kept name can contain: two names never share a file, on any file system.
_KEPT_NAME = re.compile(r"[a-z0-9_]+(?:-[a-z0-9_]+)*")


def slug(name: object) -> str:
    """A file name (without extension) or an anchor for a rule-set name: stable, unique per
    name, and never a path."""
    name = str(name)
    if _KEPT_NAME.fullmatch(name) and len(name) <= 80:
        return name
    readable = re.sub(r"[^a-z0-9_]+", "-", name.lower()).strip("-")[:40].strip("-") or "name"
    return f"{readable}--{hashlib.sha256(name.encode('utf-8')).hexdigest()[:12]}"
