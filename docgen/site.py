"""A rule set's mkdocs project: gather the pages, write ``mkdocs.yml`` and ``docs/``,
and build or serve it with mkdocs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path, PurePosixPath

import yaml

from rulecraft.dsl.diagnostics import DiagnosticBag, Position
from rulecraft.dsl.loader import load_checked
from rulecraft.dsl.variants import available_variants
from rulecraft.validator.scenario import default_folder

from .authored import WRITTEN_IN, MissingWord, MissingWords, WordOwners, placed_missing_words
from .catalogue import catalogue
from .examples import run_examples
from .pages import Site, SiteWriter, VariantChanges
from .prose import Prose
from .ui import UI

STYLESHEET = "rulecraft.css"
# Board pictures side by side, status colours; the rest is the theme's.
CSS = """\
.rulecraft-boards { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
.rulecraft-board { margin: 0; }
img.rulecraft-card { width: 16em; }
.rulecraft-board img { max-width: 100%; background: #fff; }
.rulecraft-status { font-weight: bold; padding: 0 .4em; border-radius: .2em; color: #fff; background: #777; }
.rulecraft-pass { background: #2e7d32; }
.rulecraft-fail, .rulecraft-broken, .rulecraft-fixed { background: #c62828; }
"""


def scenario_folder_for(ruleset_root: Path, game_name: str) -> Path:
    """Where a rule set's worked examples live: the folder ``verify`` reads."""
    return default_folder(ruleset_root, game_name)


def collect(root: str | Path, lang: str = "en", variant: str | None = None,
            scenarios: Path | None = None) -> Site:
    """Every page of a rule set's site, in memory."""
    root = Path(root)
    ui = UI(lang)
    ruleset, base, prose, base_prose, folder = _site_rulesets(root, lang, variant, scenarios)
    cat = catalogue(ruleset, folder)

    def room_word(room_type: str) -> str:
        board = ruleset.data.board
        return prose.term(prose.value_key(board.space_kind if board is not None else None, room_type))

    # the scenario folder's examples and, under a variant, those the variant keeps in its own folder
    examples = run_examples(ruleset, folder, variant=variant, label=room_word, describe=prose.term,
                            titles=(ui("board_before"), ui("board_after")))
    variants = _variant_changes(root, lang, variant, ruleset, prose)
    writer = SiteWriter(ruleset, cat, prose, lang, examples, variants, base_ruleset=base, base_prose=base_prose)
    site = writer.build()
    renderers = [prose, base_prose] + [v.prose for v in variants]
    missing = missing_words(ruleset, lang, renderers)
    if missing is not None:
        raise MissingWords(*missing)
    return site


def _site_rulesets(root: Path, lang: str, variant: str | None, scenarios: Path | None):
    """The rule set of the site (with ``variant``), the base game, a renderer of each, and
    the folder of its worked examples (None when there is none)."""
    ruleset = load_checked(root, variant)
    base = load_checked(root) if variant else ruleset
    prose = Prose(ruleset, lang, markdown=True)
    base_prose = Prose(base, lang, markdown=True) if variant else prose
    folder = scenarios if scenarios is not None else scenario_folder_for(root, ruleset.data.game.name)
    return ruleset, base, prose, base_prose, folder if folder.is_dir() else None


def _variant_changes(root: Path, lang: str, variant: str | None, ruleset, prose: Prose,
                     skip_broken: bool = False) -> list[VariantChanges]:
    """Every variant of the rule set with its own renderer (the site's own for ``variant``).
    ``skip_broken``: leave out a variant (other than ``variant``) with errors, which its own
    check reports, instead of raising."""
    from rulecraft.dsl.diagnostics import RuleSetError

    changes = []
    for name in available_variants(root):
        try:
            vrs = ruleset if name == variant else load_checked(root, name)
        except RuleSetError:
            if not skip_broken:
                raise
            continue
        changes.append(VariantChanges(name, vrs, prose if name == variant else Prose(vrs, lang, markdown=True)))
    return changes


def missing_words(ruleset, lang: str, renderers: list[Prose], warning: bool = False,
                  levels: set[str | None] | None = None):
    """Every word the site needed that its language's glossaries lack: located errors and the
    words themselves (None when there is none). In any language but the rule files' own, a
    missing word is an error, never a silent fallback to the rule files' words. Each is
    placed in the glossary it belongs in: the base's words in the base's, a variant's own
    words (its title, text, new rules and words) in the variant's own glossary. ``levels``:
    only the words of those glossaries (None: the base's; a name: that variant's own)."""
    if lang == WRITTEN_IN:
        # The rule files' names are words of this language: a name the glossary lacks reads
        # as itself ("red_pawn" as "red pawn"), and `rulecraft check` lists it as a warning.
        return None
    path = Path(ruleset.root) / "glossary" / f"{lang}.yaml"
    if not path.is_file():
        bag = DiagnosticBag()
        bag.error(f"the rule set has no '{lang}' glossary, so no {lang} words for its pages",
                  Position(str(path), 1, 1),
                  f"write {path} (see docs/glossaries.md); 'rulecraft check' then lists every word it still lacks")
        return bag, [MissingWord("glossary", lang, lang)]
    words = []
    for p in renderers:
        words += [(p.ruleset, MissingWord(section, key, key)) for section, key in sorted(p.missing)]
        words += [(p.ruleset, m) for m in p.authored.missing.values()]
    if levels is not None:
        owners = WordOwners(lang)
        words = [(rs, m) for rs, m in words if owners.level(rs, m) in levels]
    return placed_missing_words(words, lang, warning)


def site_renderers(root: str | Path, lang: str, variant: str | None = None,
                   scenarios: Path | None = None) -> tuple[object, list[Prose]] | None:
    """The rule set and every renderer of its site, after rendering every page but the
    worked examples (which run the scenarios): the citations of the examples are read
    from the scenario files. None when the rule set of the site (with ``variant``) does
    not load; another variant that does not load is left out (its own check reports it)."""
    from rulecraft.dsl.diagnostics import RuleSetError
    from rulecraft.validator.scenario import load_file

    from .examples import example_sources

    root = Path(root)
    try:
        ruleset, base, prose, base_prose, folder = _site_rulesets(root, lang, variant, scenarios)
        variants = _variant_changes(root, lang, variant, ruleset, prose, skip_broken=True)
    except RuleSetError:
        return None
    SiteWriter(ruleset, catalogue(ruleset, folder), prose, lang, [], variants, base_ruleset=base,
               base_prose=base_prose).build()
    for _, path, _ in example_sources(ruleset, folder):
        for sc in load_file(path, DiagnosticBag()).scenarios:
            prose.authored.cite(sc.cite)
    return ruleset, [prose, base_prose] + [v.prose for v in variants]


def site_missing_words(root: str | Path, lang: str, variant: str | None = None,
                       scenarios: Path | None = None) -> DiagnosticBag | None:
    """What ``rulecraft docs --lang LANG`` (with ``variant``) would refuse for lack of
    words, as warnings for ``rulecraft check``; None when the rule set does not load with
    ``variant`` (the check reports its errors). Only the words of the base's glossary and
    of the glossaries of ``variant``'s chain: another variant's own words (on its page of
    the site) are its own check's, and a variant with errors hides nothing here.
    ``scenarios``: the folder of the worked examples (default: the one ``verify`` reads)."""
    found = site_renderers(root, lang, variant, scenarios)
    if found is None:
        return None
    ruleset = found[0]
    levels = {None, *(ruleset.variant.chain if ruleset.variant is not None else [])}
    missing = missing_words(ruleset, lang, found[1], warning=True, levels=levels)
    return missing[0] if missing is not None else DiagnosticBag()


def mkdocs_config(site: Site, site_url: str | None = None) -> dict:
    # Every page links to the others relatively, so the site reads from a folder or any
    # address; only the "page not found" page, served at whatever address was missed,
    # needs the site's own address to link back (mkdocs takes "/" without one).
    return {
        "site_name": site.title,
        **({"site_url": site_url} if site_url else {}),
        "docs_dir": "docs",
        "site_dir": "site",
        "use_directory_urls": False,
        "theme": {
            "name": "material",
            "language": site.lang,
            # No web fonts: the site reads the same offline.
            "font": False,
            "features": ["navigation.indexes", "navigation.top", "search.highlight", "content.code.copy"],
        },
        "plugins": [{"search": {"lang": site.lang}}],
        "extra_css": [STYLESHEET],
        "markdown_extensions": [
            {"toc": {"permalink": True}}, "tables", "attr_list", "md_in_html", "admonition", "pymdownx.details",
            {"pymdownx.highlight": {"use_pygments": True}}, "pymdownx.superfences",
            {"pymdownx.tabbed": {"alternate_style": True}},
        ],
        "nav": site.nav,
    }


class UnsafeOutput(ValueError):
    """The site would be written outside its folder, or over files it did not write."""


# The first line of every mkdocs.yml this module writes: a folder whose mkdocs.yml
# starts with it holds a site of ours, whose docs/ may be replaced.
MARKER = "# Written by rulecraft docs: docs/ and this file are replaced when the site is written again."


def out_folder_problem(out: str | Path) -> str | None:
    """Why the site may not be written into ``out``, or None when it may: ``out`` must be a
    new or empty folder, or one a previous run of ``rulecraft docs`` wrote."""
    out = Path(out)
    if not out.exists():
        return None
    if not out.is_dir():
        return f"'{out}' exists and is not a folder"
    if not any(out.iterdir()):
        return None
    config = out / "mkdocs.yml"
    try:
        ours = config.is_file() and config.read_text(encoding="utf-8").startswith(MARKER)
    except (OSError, UnicodeDecodeError):
        ours = False
    if not ours:
        return f"'{out}' is not empty and holds no site written by rulecraft docs; give a new or empty folder"
    return None


def _inside(docs: Path, path: str) -> Path:
    """Where a page or picture of the site goes; never outside ``docs``."""
    pure = PurePosixPath(path)
    target = (docs / path).resolve()
    if pure.is_absolute() or ".." in pure.parts or "\\" in path or not target.is_relative_to(docs.resolve()):
        raise UnsafeOutput(f"refusing to write '{path}': it is not inside {docs}")
    return target


def write(site: Site, out: str | Path, site_url: str | None = None) -> Path:
    """Write ``mkdocs.yml`` and ``docs/`` under ``out``; a ``docs/`` that a previous run wrote
    there is replaced. ``site_url``: the address the site will be published at. Raises :class:`UnsafeOutput`, before writing anything, when ``out``
    holds other files or a page would land outside ``docs/``."""
    out = Path(out)
    problem = out_folder_problem(out)
    if problem is not None:
        raise UnsafeOutput(problem)
    docs = out / "docs"
    targets = {_inside(docs, path): text for path, text in {**site.pages, **site.files, STYLESHEET: CSS}.items()}
    if docs.exists():
        shutil.rmtree(docs)
    docs.mkdir(parents=True)
    for target, text in targets.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    config = out / "mkdocs.yml"
    config.write_text(MARKER + "\n" + yaml.safe_dump(mkdocs_config(site, site_url), sort_keys=False, allow_unicode=True),
                      encoding="utf-8")
    return config


def mkdocs(config: Path, command: str, *extra: str) -> subprocess.CompletedProcess:
    """Run ``mkdocs COMMAND`` on a written project with the interpreter rulecraft runs on."""
    # Not mkdocs' own --quiet: it drops warnings before --strict counts them, so a strict
    # build with it passes over a broken link. A build's output is captured instead.
    args = [sys.executable, "-m", "mkdocs", command, "-f", str(config), *extra]
    # Banners about MkDocs 2 say nothing about this site: MkDocs and Material are pinned.
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"}
    return subprocess.run(args, capture_output=command == "build", text=True, env=env)
