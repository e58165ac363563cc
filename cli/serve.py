"""`rulecraft serve [RULESET...]`: play in the browser (see docs/serve.md)."""

from __future__ import annotations

import sys
from pathlib import Path

from .common import ruleset_arg, shipped_rulesets


def add_parser(sub) -> None:
    p = sub.add_parser("serve", help="serve games in the browser: a lobby, one secret link per seat",
                       description="Serve a lobby where games of the given rule sets (default: every shipped "
                                   "one) are created, each seat a person or a bot; every decision is stored in "
                                   "an SQLite file, and a restarted server resumes every game.")
    p.add_argument("rulesets", nargs="*", type=ruleset_arg, metavar="RULESET",
                   help="rule-set folders or shipped rule sets' names (default: all shipped)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default="rulecraft-games.sqlite", metavar="FILE",
                   help="the SQLite file of the games (default rulecraft-games.sqlite)")
    p.set_defaults(run=run)


def served_rulesets(paths: list[str]) -> dict[str, Path]:
    if not paths:
        return shipped_rulesets()
    return {Path(p).name: Path(p) for p in paths}


def run(args) -> int:
    try:
        import uvicorn

        from rulecraft.server.app import create_app
    except ImportError as err:
        sys.stderr.write(f"rulecraft serve: error: {err.name} is not installed "
                         "(install the extra: pip install 'rulecraft[serve]')\n")
        return 2
    if not 0 < args.port < 65536:
        sys.stderr.write(f"rulecraft serve: error: port {args.port} is not between 1 and 65535\n")
        return 2
    from rulecraft.dsl.diagnostics import RuleSetError

    try:
        app = create_app(served_rulesets(args.rulesets), args.db)
    except RuleSetError as err:
        sys.stderr.write(err.bag.render() + "\n")
        return 1
    print(f"rulecraft serve: http://{args.host}:{args.port}/ (games in {args.db})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
