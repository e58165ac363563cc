"""`rulecraft serve [RULESET...]`: play in the browser (see docs/serve.md)."""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path

from .common import positive_int, ruleset_arg, shipped_rulesets, usage_error


def add_parser(sub) -> None:
    p = sub.add_parser("serve", help="serve games in the browser: a lobby, one secret link per seat",
                       description="Serve a lobby where games of the given rule sets (default: every shipped "
                                   "one) are created, each seat a person or a bot; every decision is stored in "
                                   "an SQLite file, and a restarted server resumes every game.")
    p.add_argument("rulesets", nargs="*", type=ruleset_arg, metavar="RULESET",
                   help="rule-set folders or shipped rule sets' names (default: all shipped)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=positive_int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default="rulecraft-games.sqlite", metavar="FILE",
                   help="the SQLite file of the games (default rulecraft-games.sqlite)")
    p.set_defaults(run=run)


def served_rulesets(paths: list[str]) -> dict[str, Path]:
    if not paths:
        return shipped_rulesets()
    return {Path(p).name: Path(p) for p in paths}


def _cannot_listen(host: str, port: int) -> str | None:
    """Why the server could not listen there (a port in use, an unknown address), or None."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        with socket.socket(infos[0][0], socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(infos[0][4])
    except OSError as err:
        return err.strerror or str(err)
    return None


def _only_server(db: str):
    """An exclusive lock on ``<db>.lock``, held while this server runs (the open file;
    None: another server holds it). Two servers on one file would each play the same
    games' bots and write the same decisions."""
    if db == ":memory:":
        return open(os.devnull)
    try:
        import fcntl
    except ImportError:  # no flock here (Windows): one server per file is up to the user
        return open(os.devnull)
    path = f"{db}.lock"
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    lock = os.fdopen(fd, "r+")
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        return None
    return lock


def run(args) -> int:
    try:
        import uvicorn

        from rulecraft.server.app import create_app
    except ImportError as err:
        sys.stderr.write(f"rulecraft serve: error: {err.name} is not installed "
                         "(install the extra: pip install 'rulecraft[serve]', or pip install -e \".[serve]\" in a clone)\n")
        return 2
    if args.port > 65535:
        return usage_error("serve", f"port {args.port} is above 65535")
    # one server per file of games, told before anything else (the same command run twice)
    try:
        lock = _only_server(args.db)
    except OSError as err:
        sys.stderr.write(f"rulecraft serve: error: cannot use {args.db} as the games' database: "
                         f"{err.strerror or err}\n")
        return 1
    if lock is None:
        sys.stderr.write(f"rulecraft serve: error: another rulecraft serve is using {args.db} "
                         f"(it holds {args.db}.lock): stop it first, or give another --db\n")
        return 2
    problem = _cannot_listen(args.host, args.port)
    if problem:
        sys.stderr.write(f"rulecraft serve: error: cannot listen on {args.host}:{args.port}: {problem}\n")
        return 1
    from rulecraft.dsl.diagnostics import RuleSetError

    try:
        app = create_app(served_rulesets(args.rulesets), args.db, debug=getattr(args, "debug", False))
    except RuleSetError as err:
        sys.stderr.write(err.bag.render() + "\n")
        return 1
    except (sqlite3.Error, OSError) as err:  # no such folder, no permission, not a database
        reason = err.strerror if isinstance(err, OSError) and err.strerror else err
        sys.stderr.write(f"rulecraft serve: error: cannot use {args.db} as the games' database: {reason}\n")
        return 1
    print(f"rulecraft serve: http://{args.host}:{args.port}/ (games in {args.db})", flush=True)
    served = app.state.server

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            # asked to stop (SIGTERM, Ctrl-C): bots stop between two decisions at once,
            # not once the pages have gone
            served.stopping = True
            super().handle_exit(sig, frame)

    from rulecraft.server.app import STOP_WITHIN

    server = Server(uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                                   timeout_graceful_shutdown=STOP_WITHIN))
    try:
        server.run()
    finally:
        lock.close()
    return 0 if server.started else 1
