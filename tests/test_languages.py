"""A language rulecraft speaks is one data file of its own words (docgen/phrases/<lang>.yaml,
or a folder named by RULECRAFT_LANGUAGES): adding one needs no Python. A file lacking
words is refused naming them; a glossary in a language rulecraft does not speak is a
warning at its `language:` line, not a crash."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from rulecraft import languages as L
from rulecraft.cli.main import main
from rulecraft.dsl.loader import load_checked

ROOT = Path(__file__).resolve().parent.parent
TIC_TAC_TOE = ROOT / "rules" / "tic_tac_toe"
KUHN = ROOT / "rules" / "kuhn_poker"  # a small rule set with a French glossary
PHRASES = ROOT / "docgen" / "phrases"


def language_file(folder: Path, lang: str, changes: dict[str, str], dropped: tuple[str, ...] = (),
                  like: str = "en") -> Path:
    """The words of language ``like`` as language ``lang``, with some texts changed
    (``key: new text`` at two-space indent, the first such key) and some left out."""
    text = (PHRASES / f"{like}.yaml").read_text(encoding="utf-8").replace(f"language: {like}", f"language: {lang}", 1)
    for key, new in changes.items():
        text, n = re.subn(rf"^  {re.escape(key)}: .*$", f"  {key}: {new}", text, count=1, flags=re.M)
        assert n == 1, key
    for key in dropped:
        text, n = re.subn(rf"^  {re.escape(key)}: .*\n", "", text, count=1, flags=re.M)
        assert n == 1, key
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{lang}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def extra(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "languages"
    monkeypatch.setenv(L.ENVIRONMENT, str(folder))
    return folder


def test_the_shipped_languages_give_every_word():
    assert L.languages()[:2] == ("en", "fr")
    assert L.missing("fr") == []
    for section in L.SECTIONS:
        assert L.words("fr", section), section


def test_a_language_is_added_by_one_file(extra, tmp_path, capsys):
    # the site's, play's and the page's words in the new language, with no Python changed;
    # the game's own words come from a glossary in that language (here the French one)
    language_file(extra, "xx", {"overview": "Aperçu en xx", "moved_within": '"{thing} est remis (xx) dans {destination}."',
                                "undo": "Annuler (xx)"}, like="fr")
    assert "xx" in L.languages()
    game = tmp_path / "kuhn_poker"
    shutil.copytree(KUHN, game, ignore=shutil.ignore_patterns("__pycache__"))
    glossary = (game / "glossary" / "fr.yaml").read_text(encoding="utf-8")
    (game / "glossary" / "xx.yaml").write_text(glossary.replace("language: fr", "language: xx", 1), encoding="utf-8")
    out = tmp_path / "site"
    assert main(["docs", str(game), "--lang", "xx", "--out", str(out), "--scenarios", str(ROOT / "seeds" / "kuhn_poker")]) == 0
    assert "Aperçu en xx" in (out / "mkdocs.yml").read_text(encoding="utf-8")  # the overview page's title

    from rulecraft.narration import Words
    from rulecraft.screen_words import PAGE
    assert Words(load_checked(game), "xx").say["moved_within"] == "{thing} est remis (xx) dans {destination}."
    assert PAGE["xx"]["undo"] == "Annuler (xx)"
    pytest.importorskip("starlette")
    from rulecraft.server.app import _lang
    assert _lang({"lang": "xx"}) == "xx"


def test_a_language_file_lacking_words_is_refused_naming_them(extra, tmp_path, capsys):
    language_file(extra, "xx", {}, dropped=("overview", "undo"))
    assert L.missing("xx") == ["site.overview", "page.undo"]
    assert "xx" not in L.languages()  # a page asking for it gets English, as for any language not spoken
    from rulecraft.screen_words import REFUSALS
    assert REFUSALS.get("xx", REFUSALS["en"]) == REFUSALS["en"]
    with pytest.raises(SystemExit) as stopped:
        main(["docs", str(TIC_TAC_TOE), "--lang", "xx", "--out", str(tmp_path / "site")])
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "xx.yaml lacks 2 of rulecraft's words: site.overview, page.undo (copy them from en.yaml" in err
    assert not (tmp_path / "site").exists()


def test_an_unknown_language_on_the_command_line_says_how_to_add_one(tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["play", str(TIC_TAC_TOE), "--lang", "de", "--human", "p1", "--bot", "random"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "rulecraft has no words in 'de' (it speaks en, fr): a language is added with one file" in err
    assert "docs/glossaries.md#adding-a-language" in err


GERMAN_GLOSSARY = """\
# a glossary of the game in a language rulecraft does not speak yet
language: de
definitions:
  mark: Zeichen setzen
"""


def test_a_glossary_in_a_language_rulecraft_does_not_speak_is_a_warning_at_its_language_line(tmp_path, capsys):
    # it made `check` crash with an internal error
    game = tmp_path / "tic_tac_toe"
    shutil.copytree(TIC_TAC_TOE, game, ignore=shutil.ignore_patterns("__pycache__"))
    (game / "glossary").mkdir()
    (game / "glossary" / "de.yaml").write_text(GERMAN_GLOSSARY, encoding="utf-8")
    from rulecraft.docgen.glossary import check_glossaries
    found = [d for d in check_glossaries(load_checked(game)) if "no words in 'de'" in d.message]
    assert len(found) == 1
    assert (found[0].position.line, found[0].position.column) == (2, 1)
    assert "copy docgen/phrases/en.yaml to de.yaml" in found[0].hint
    assert main(["check", str(game), "--strict"]) == 1
    assert "internal error" not in capsys.readouterr().err


def test_a_neuter_word_takes_the_languages_neuter_article_or_else_the_masculine(extra):
    from rulecraft.docgen.glossary import Term
    from rulecraft.docgen.prose import Prose
    ruleset = load_checked(TIC_TAC_TOE)
    assert Prose(ruleset, "fr")._article(Term("plateau", gender="n"), "the") == "le plateau"
    french = (ROOT / "docgen" / "phrases" / "fr.yaml").read_text(encoding="utf-8")
    extra.mkdir()
    (extra / "xn.yaml").write_text(french.replace("language: fr", "language: xn", 1).replace(
        "\narticles:\n", '\narticles:\n  the_n: "das {n}"\n', 1), encoding="utf-8")
    assert Prose(ruleset, "xn")._article(Term("Spielfeld", gender="n"), "the") == "das Spielfeld"
    assert Prose(ruleset, "xn")._article(Term("Stein", gender="m"), "the") == "le Stein"


def test_a_victory_without_winners_is_a_loss_for_a_cooperative_side_only(tmp_path):
    # tic-tac-toe's full grid read "nobody: every player loses" where the game is a draw

    assert main(["docs", str(TIC_TAC_TOE), "--out", str(tmp_path / "ttt")]) == 0
    overview = (tmp_path / "ttt" / "docs" / "index.md").read_text(encoding="utf-8")
    assert "nobody: no player wins" in overview and "every player loses" not in overview
    trek = ROOT / "rules" / "star_trek_panic"
    assert main(["docs", str(trek), "--out", str(tmp_path / "trek")]) == 0
    assert "nobody: every player loses" in (tmp_path / "trek" / "docs" / "index.md").read_text(encoding="utf-8")
