"""mkdocs-gen-files script of the project's own site (see the root mkdocs.yml): at build
time it generates the Panic Station rules site under ``panic_station/`` and adds its
navigation, so the project documentation always shows the rules as they are.

Run by mkdocs, not imported: it needs the build's ``mkdocs_gen_files`` context.
"""

from __future__ import annotations

from pathlib import Path

import mkdocs_gen_files

from rulecraft.docgen.site import CSS, STYLESHEET, collect

PREFIX = "panic_station"
RULES = Path(mkdocs_gen_files.config.config_file_path).resolve().parent / "rules" / "panic_station"


def _nested(nav, prefix: str):
    """A site's navigation with every page moved under ``prefix/``."""
    if isinstance(nav, str):
        return f"{prefix}/{nav}"
    if isinstance(nav, list):
        return [_nested(item, prefix) for item in nav]
    return {title: _nested(value, prefix) for title, value in nav.items()}


site = collect(RULES, "en")
for path, text in {**site.pages, **site.files, STYLESHEET: CSS}.items():
    with mkdocs_gen_files.open(f"{PREFIX}/{path}", "w") as out:
        out.write(text)
mkdocs_gen_files.config["nav"].append({f"{site.title} (generated)": _nested(site.nav, PREFIX)})
