"""`rulecraft docs`: write a rule set's mkdocs site; optionally build it strictly or serve it."""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path

from rulecraft.dsl.diagnostics import RuleSetError
from rulecraft.dsl.variants import available_variants
from rulecraft.languages import languages

from .common import check_command, language_arg, ruleset_arg, usage_error, variant_arg, write_failure


def _address(text: str) -> str:
    """HOST:PORT, checked before the site is written (mkdocs would refuse it only after)."""
    host, colon, port = text.rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"'{text}' is not HOST:PORT with a port from 1 to 65535, "
                                         f"e.g. 127.0.0.1:8000")
    return text


def add_parser(sub) -> None:
    p = sub.add_parser("docs", help="write an mkdocs site for a rule set (build or serve it)",
                       description="Write an mkdocs project (mkdocs.yml and docs/) describing a rule set: overview, "
                                   "setup, turn structure, every action, card, room type, phase, victory condition "
                                   "and ruling, the worked examples with their result, and the variants.")
    p.add_argument("ruleset", type=ruleset_arg, help="rule-set folder or shipped rule-set name")
    p.add_argument("--out", required=True, type=_out_dir,
                   help="folder to write the mkdocs project into: new, empty, or written by an earlier 'rulecraft docs'")
    p.add_argument("--lang", type=language_arg, default="en", metavar="LANG",
                   help=f"language of the pages: {', '.join(languages())} (default: en)")
    p.add_argument("--variant", type=variant_arg, help="describe the rules with this house variant applied")
    p.add_argument("--scenarios", type=_folder, help="worked examples folder (default: seeds/<game> next to the rules folder)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--build", action="store_true", help="then run 'mkdocs build --strict' into OUT/site")
    what.add_argument("--serve", action="store_true", help="then preview the site with 'mkdocs serve'")
    p.add_argument("--site-url", type=_site_url, metavar="URL",
                   help="the address the built site will be published at (its 'page not found' page links "
                        "from there; without it, from the server's root)")
    p.add_argument("--addr", default="127.0.0.1:8000", type=_address,
                   help="HOST:PORT for --serve (default: 127.0.0.1:8000)")
    p.set_defaults(run=run)


def _out_dir(text: str) -> str:
    if not text:  # Path("") is the current folder
        raise argparse.ArgumentTypeError("an empty path names no folder")
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"'{text}' exists and is not a folder")
    return text


def _site_url(text: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise argparse.ArgumentTypeError(f"'{text}' is not a web address such as https://example.org/rules/")
    return text if text.endswith("/") else text + "/"


def _folder(text: str) -> str:
    if not text or not Path(text).is_dir():  # Path("") would be the current folder
        raise argparse.ArgumentTypeError(f"no folder '{text}'")
    return text


def _load_errors(root: Path, variant: str | None):
    """The diagnostics of the rule set (with ``variant``) if it has errors, else None. A
    rule set that loads is kept by the loader, so the site's own loading reuses it."""
    from rulecraft.dsl.loader import load_checked

    try:
        load_checked(root, variant)
    except RuleSetError as err:
        return err.bag
    return None


def _report_broken(root: Path, ruleset: str, variant: str | None) -> bool:
    """The site is made of the base, the variant asked for and every variant of the rule
    set (each has its page): if one of them has errors, print them, name the one(s) at
    fault and the command that lists their errors, and give True."""
    for asked in [None] + ([variant] if variant else []):
        bag = _load_errors(root, asked)
        if bag is not None:
            sys.stderr.write(bag.render() + "\n")
            label = ruleset + (f" --variant {asked}" if asked else "")
            sys.stderr.write(f"{label}: {len(bag.errors)} error(s); fix them first ({check_command(ruleset, asked)})\n")
            return True
    broken = [(name, bag) for name in available_variants(root) if name != variant
              and (bag := _load_errors(root, name)) is not None]
    if not broken:
        return False
    for _, bag in broken:
        sys.stderr.write(bag.render() + "\n")
    commands = "; ".join(check_command(ruleset, name) for name, _ in broken)
    if len(broken) == 1:
        [(name, bag)] = broken
        what = f"variant '{name}' has {len(bag.errors)} error(s)"
    else:
        what = "variants " + ", ".join(f"'{name}' ({len(bag.errors)} error(s))" for name, bag in broken) + " have errors"
    sys.stderr.write(f"{ruleset}: {what}, and the site has a page for each variant; fix "
                     f"{'it' if len(broken) == 1 else 'them'} first ({commands})\n")
    return True


def _no_examples_note(root: Path, variant: str | None) -> str | None:
    """Without ``--scenarios``, when the folder the worked examples are read from by
    default does not exist: a note saying so and how to give them, unless the rule set has
    none anywhere (no shipped examples of its game, none in its variants' folders)."""
    from rulecraft.dsl.loader import load_checked
    from rulecraft.dsl.variants import variant_scenario_files
    from rulecraft.validator.scenario import default_folder

    from .common import shipped_rulesets

    game = load_checked(root, variant).data.game
    folder = default_folder(root, game.name)
    if folder.is_dir():
        return None
    shipped = [default_folder(path, game.name) for name, path in shipped_rulesets().items()
               if name == game.name and path.resolve() != root.resolve()]
    shipped = [f for f in shipped if f.is_dir()]
    own = variant_scenario_files(root, available_variants(root))
    if not shipped and not own:
        return None
    where = f" (rulecraft's own {game.name} examples are in {shipped[0]})" if shipped else ""
    return (f"note: no worked examples found at {folder}, so the site shows none of the base game's; "
            f"give their folder with --scenarios DIR{where}")


def run(args) -> int:
    from rulecraft.docgen.authored import MissingWords
    from rulecraft.docgen.site import UnsafeOutput, collect, mkdocs, out_folder_problem, write

    root = Path(args.ruleset)
    problem = out_folder_problem(args.out)
    if problem is not None:  # before any work: nothing of the user's is replaced
        return usage_error("docs", problem)
    if args.variant is not None and args.variant not in available_variants(root):
        known = ", ".join(available_variants(root)) or "none"
        return usage_error("docs", f"unknown variant '{args.variant}' (known: {known})")
    started = time.perf_counter()
    if _report_broken(root, args.ruleset, args.variant):
        return 1
    try:
        site = collect(root, args.lang, args.variant, Path(args.scenarios) if args.scenarios else None)
    except RuleSetError as err:
        sys.stderr.write(err.bag.render() + "\n")
        sys.stderr.write(f"{args.ruleset}: {len(err.bag.errors)} error(s); fix them first "
                         f"({check_command(args.ruleset, args.variant)})\n")
        return 1
    except MissingWords as err:
        sys.stderr.write(err.bag.render(at_most=None) + "\n")  # every missing word: one pass fills them all
        sys.stderr.write(f"{args.ruleset}: {len(err.bag.errors)} error(s) in its '{args.lang}' words; "
                         f"the site is not written half in another language\n")
        return 1
    note = _no_examples_note(root, args.variant) if not args.scenarios else None
    if note:
        print(note)
    try:
        config = write(site, args.out, args.site_url)
    except UnsafeOutput as err:
        sys.stderr.write(f"rulecraft docs: error: {err}\n")
        return 1
    except OSError as err:  # a full disk, no permission: what was written of the site is left
        return write_failure("docs", err.filename or args.out, err)
    print(f"wrote {len(site.pages)} pages and {len(site.files)} pictures to {args.out} "
          f"in {time.perf_counter() - started:.1f} s ({config})")
    if args.build:
        started = time.perf_counter()
        done = mkdocs(config, "build", "--strict")
        if done.returncode != 0:
            told = (done.stdout + done.stderr).splitlines()
            # mkdocs' own progress lines say nothing of what failed
            sys.stderr.write("\n".join([line for line in told if line.startswith(("WARNING", "ERROR", "Aborted"))]
                                        or told) + "\n")
            sys.stderr.write(f"rulecraft docs: mkdocs build --strict failed for {config}\n")
            return 1
        print(f"built {Path(args.out) / 'site'} with mkdocs build --strict in {time.perf_counter() - started:.1f} s")
    elif args.serve:
        # stopped by SIGTERM (not only Ctrl-C, which reaches mkdocs too), the preview it
        # started must stop with it, not hold the port on its own
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
        return mkdocs(config, "serve", "--dev-addr", args.addr).returncode
    else:
        # the mkdocs command is in the environment rulecraft runs in, not always on PATH
        print(f"build it: the same command with --build, or {sys.executable} -m mkdocs build --strict -f {config}")
    return 0
