"""mkdocs-gen-files script of the project's own site (see the root mkdocs.yml): at build
time it generates the rules site of every rule set under ``rules/`` (a folder with a
``game.yaml``), each under its game's name, and adds their navigation, so the project
documentation always shows the rules as they are.

Run by mkdocs, not imported: it needs the build's ``mkdocs_gen_files`` context.
"""

from __future__ import annotations

from pathlib import Path

import mkdocs_gen_files
import yaml

from rulecraft.docgen.site import CSS, STYLESHEET, collect

RULES = Path(mkdocs_gen_files.config.config_file_path).resolve().parent / "rules"


def _nested(nav, prefix: str):
    """A site's navigation with every page moved under ``prefix/``."""
    if isinstance(nav, str):
        return f"{prefix}/{nav}"
    if isinstance(nav, list):
        return [_nested(item, prefix) for item in nav]
    return {title: _nested(value, prefix) for title, value in nav.items()}


def _game_name(folder: Path) -> str:
    """The game's name, from the rule set's game.yaml (the folder's name if it has none)."""
    game = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8")) or {}
    return str((game.get("game") or {}).get("name") or folder.name)


for folder in sorted(p for p in RULES.iterdir() if (p / "game.yaml").is_file()):
    prefix = _game_name(folder)
    site = collect(folder, "en")
    for path, text in {**site.pages, **site.files, STYLESHEET: CSS}.items():
        with mkdocs_gen_files.open(f"{prefix}/{path}", "w") as out:
            out.write(text)
    mkdocs_gen_files.config["nav"].append({f"{site.title} (generated)": _nested(site.nav, prefix)})
