"""A strict build fails on what mkdocs warns of: a site whose page links to a page that
does not exist is refused by ``rulecraft docs --build`` (mkdocs' own ``--quiet`` drops
the warnings ``--strict`` counts, so it is not passed)."""

from __future__ import annotations

import pytest

from rulecraft.docgen.site import mkdocs

pytest.importorskip("mkdocs")


def _project(folder, index: str):
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "index.md").write_text(index, encoding="utf-8")
    (folder / "docs" / "other.md").write_text("# Other\n", encoding="utf-8")
    config = folder / "mkdocs.yml"
    config.write_text("site_name: strict\ndocs_dir: docs\nsite_dir: site\n", encoding="utf-8")
    return config


def test_a_broken_link_fails_the_strict_build(tmp_path):
    fine = mkdocs(_project(tmp_path / "fine", "# Home\n\n[other](other.md)\n"), "build", "--strict")
    assert fine.returncode == 0, fine.stdout + fine.stderr
    broken = mkdocs(_project(tmp_path / "broken", "# Home\n\n[a room](rooms/nowhere.md)\n"), "build", "--strict")
    assert broken.returncode != 0
    assert "rooms/nowhere.md" in broken.stdout + broken.stderr


def test_a_tile_whose_spaces_have_no_type_links_to_no_room_page(tmp_path):
    """Room-type pages come from the ``type`` a layout gives its spaces; a tile whose
    spaces have none names them on its page without links to pages that do not exist."""
    from test_60_board import board_game

    from rulecraft.docgen.site import collect, write

    game = board_game(tmp_path / "rules", "stop")
    site = collect(game.ruleset.root, "en")
    annex = site.pages["cards/annex.md"]
    assert "- annex/top" in annex or "- top" in annex, annex
    assert "../rooms/" not in annex
    done = mkdocs(write(site, tmp_path / "site"), "build", "--strict")
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_worked_example_names_the_space_of_a_tile_of_several(tmp_path):
    """`annex/top` is the top space of a tile of two: said "annex (top)", not "annex",
    which would not tell it from its bottom; a tile of one space is said by the tile."""
    from test_60_board import board_game

    from rulecraft.docgen.narration import Narrator
    from rulecraft.docgen.prose import Prose

    ruleset = board_game(tmp_path, "stop").ruleset
    tell = Narrator(ruleset, Prose(ruleset, "en", markdown=True), "en")
    assert tell.thing("annex/top") == "annex (top)"
    assert tell.thing("annex_b/bottom") == "annex b (bottom)"
    assert tell.thing("hub/main") == "hub"
