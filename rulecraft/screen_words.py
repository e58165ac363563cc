"""The fixed words of the play screens, in each language of :mod:`rulecraft.narration`:
the terminal's (`rulecraft play`), the browser page's (`rulecraft serve`: sent to the page
with its view, so that ``table.js`` writes no word of its own) and the reasons a served
table refuses a request. The game's own words come from the rule set's glossary; the
sentences that tell events and options are :data:`rulecraft.narration.SENTENCES`.

A text is a template: ``{name}`` is filled in, ``{{`` and ``}}`` are braces.
"""

from __future__ import annotations

from rulecraft.languages import ByLanguage

# The terminal's screens (cli/play.py, cli/play_screen.py).
TERMINAL = ByLanguage("terminal")


# The browser's table page (server/static/table.html, table.js): its headings, buttons
# and status lines. ``html_lang`` is the page's language attribute.
PAGE = ByLanguage("page")

# Why a served table refuses a request, as the seat's page shows it (server.tables.RefusedMove).
# A reason given as a field ({reason}) is itself one of these when it is one's English text.
REFUSALS = ByLanguage("refusals")
_REASON_OF = {text: key for key, text in REFUSALS["en"].items() if "{" not in text}


def refusal(lang: str, reason: str, fields: dict | None = None) -> str:
    """A refusal's text in ``lang`` (English for a language without one): ``reason`` is a
    key of :data:`REFUSALS`, or an English text of one, or a text kept as it is; a field
    that is the English text of a reason is told in ``lang`` too."""
    table = REFUSALS.get(lang, REFUSALS["en"])
    key = reason if reason in table else _REASON_OF.get(reason)
    if key is None:
        return reason
    told = {k: refusal(lang, v) if isinstance(v, str) and v in _REASON_OF else v for k, v in (fields or {}).items()}
    return table[key].format(**told)


def screen_words(lang: str) -> dict:
    """Every fixed word of the screens in ``lang``, by table: a test (or a translator)
    reads them all here."""
    return {"terminal": TERMINAL[lang], "page": PAGE[lang], "refusals": REFUSALS[lang]}


