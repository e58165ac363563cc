"""A text a property holds is said by its word under `values`, not by the word of a
thing or space that happens to share its id."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecraft.dsl.loader import load_checked
from rulecraft.narration import Words

TREK = Path(__file__).resolve().parent.parent / "rules" / "star_trek_panic"


@pytest.mark.parametrize("lang, said", [("fr", "arc tribord"), ("en", "arc starboard")])
def test_a_text_value_is_said_by_its_values_word(lang, said):
    # the facing `starboard` holds the arc `starboard`: "côté tribord : arc côté tribord" before
    words = Words(load_checked(TREK), lang)
    assert words.status("facing", "arc", "starboard") == said
    assert words.name("starboard") != words.property_value("facing", "arc", "starboard") or lang == "en"
