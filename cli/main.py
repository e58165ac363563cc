"""The `rulecraft` command: one subcommand per job, no tracebacks unless --debug."""

from __future__ import annotations

import argparse
import os
import re
import sys

from rulecraft.lsp import command as lsp_command

from . import check, docs, mutate, play, replay, serve, simulate, tune, variant, verify


class _Parser(argparse.ArgumentParser):
    """argparse that reports a bad command line as one line and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: error: {message} (see '{self.prog} --help')\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rulecraft", description="Board game rules as data: check them, run them, simulate them.")
    parser.add_argument("--debug", action="store_true", help="show Python tracebacks for internal errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    check.add_parser(sub)
    simulate.add_parser(sub)
    verify.add_parser(sub)
    replay.add_parser(sub)
    play.add_parser(sub)
    variant.add_parser(sub)
    docs.add_parser(sub)
    mutate.add_parser(sub)
    tune.add_parser(sub)
    lsp_command.add_parser(sub)
    serve.add_parser(sub)
    return parser


def _command_parser(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.ArgumentParser:
    """The (sub)command's parser the words of ``argv`` lead to: 'variant list' → its own."""
    for word in argv:
        commands = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
        if commands is not None and word in commands.choices:
            parser = commands.choices[word]
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else argv
    args, extra = parser.parse_known_args(argv)
    if extra:  # told by the command that was given them, with its help, not by the top level
        _command_parser(parser, argv).error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        return args.run(args)
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130
    except BrokenPipeError:
        # the reader went away ('rulecraft verify X | head'): stop quietly, as a Unix
        # tool does, and send the rest of our output nowhere so that
        # flushing at exit does not fail a second time
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1  # as rich does when its own output hits a closed pipe
    except OSError as err:
        # a full disk, no permission, a folder gone: a problem of the machine, not a bug
        # of rulecraft (the commands name the file they write; this is the last resort)
        if args.debug:
            raise
        where = f"{err.filename}: " if err.filename else ""
        sys.stderr.write(f"rulecraft {args.command}: error: {where}{err.strerror or err}\n")
        return 1
    except Exception as err:  # noqa: BLE001 - the last line of defence for users
        if args.debug:
            raise
        # one line: an error raised in another process (a Ray task's) carries that
        # process's whole traceback in its text
        said = next((line for line in str(err).splitlines() if line.strip()), "")
        sys.stderr.write(f"rulecraft: internal error: {type(err).__name__}: {_plain(said)}\n"
                         "run again with --debug to see the traceback\n")
        return 3


def _plain(text: str) -> str:
    """Text without the terminal's colour codes (Ray's error texts carry them)."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


if __name__ == "__main__":
    raise SystemExit(main())
