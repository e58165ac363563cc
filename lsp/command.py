"""`rulecraft lsp`: start the language server on stdin/stdout, for an editor to talk to."""

from __future__ import annotations

import argparse
import sys


def add_parser(sub) -> None:
    p = sub.add_parser("lsp", help="run the language server for rule files (editors start it)",
                       description="Speak the Language Server Protocol on stdin/stdout: diagnostics, hover, "
                                   "definitions, references, completion and rename for .rules and rule-set "
                                   "YAML files. See docs/editors.md.")
    # editors' clients (vscode-languageclient) add --stdio: it is the only transport
    p.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default and only way)")
    # `rulecraft --debug lsp` says it too; SUPPRESS keeps this one from resetting that one
    p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                   help="log Python tracebacks on stderr (else one line per problem)")
    p.set_defaults(run=run)


def run(args) -> int:
    try:
        from .server import serve
    except ImportError as err:
        sys.stderr.write(f"rulecraft lsp: error: the language server needs its extra: "
                         f"pip install 'rulecraft[lsp]', or pip install -e \".[lsp]\" in a clone ({err})\n")
        return 2
    serve(debug=getattr(args, "debug", False))
    return 0
