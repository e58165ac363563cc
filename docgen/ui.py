"""The generated site's own words (titles, headings, labels), per language.

Only words about the site and rule sets in general live here; every game word comes
from the rule set's glossary through the prose renderer.
"""

from __future__ import annotations

from rulecraft.languages import ByLanguage, unknown

WORDS = ByLanguage("site")  # the section `site` of each language's file


# The words a rule set gives the site (its glossary's): the kind the board's spaces are, the
# engine's round, and the things kept in zones that have a page each ({thing}: their kind's
# word, or the word their kinds share), in the singular and plural, and capitalised ({Room},
# {Rooms}). These are the words for a rule set that has none.
GAME_WORDS = ByLanguage("site_game_words")


class UI:
    """``ui("cost")`` → the word in the site's language; ``ui("x", n=1)`` fills it in.
    ``game`` gives the rule set's own words for the slots of :data:`GAME_WORDS`."""

    def __init__(self, lang: str, game: dict[str, str] | None = None):
        if lang not in WORDS:
            raise ValueError(unknown(lang))
        self.lang = lang
        self.words = WORDS[lang]
        words = {**GAME_WORDS[lang], **(game or {})}
        self.game = {**words, **{k[:1].upper() + k[1:]: v[:1].upper() + v[1:] for k, v in words.items()}}

    def __call__(self, key: str, **values) -> str:
        text = self.words[key]
        return text.format(**self.game, **values) if values or "{" in text else text
