"""Game logs and saves as files: written sealed, read back checked.

A log is JSON lines: a header (rule set, variant, players, seed, settings; a save adds
its seats), the decisions, the events, then the final state. Every line is checked
against ``schemas/gamelog.schema.json`` when read, so a damaged or hostile file is
refused with its file and line before anything is played from it (its numbers are
bounded: no header can ask for a billion players).

The final line carries a SHA-256 digest of the whole file. It tells a complete file
from one cut short, or edited by hand (a line removed, a decision changed), and such a
file is refused. It is no signature: anyone who can write the file can compute it
again, so it guards against accidents and casual edits, not against a forger.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from jsonschema import Draft202012Validator

# A real log is a few megabytes; past this a file is refused before it is read.
MAX_LOG_BYTES = 64 * 1024 * 1024
# A log holds its game's seed as a signed 64-bit integer (schemas/gamelog.schema.json): a
# game played with any other seed would write a log that no replay accepts.
SEED_LEAST, SEED_MOST = -2 ** 63, 2 ** 63 - 1
_MESSAGE_CHARS = 160


class GameLogError(Exception):
    """A file that is no complete, intact game log; the message is one line."""


@dataclass
class GameLog:
    header: dict
    decisions: list[int] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)
    final: dict | None = None


def final_line(lines_before: list[str], state: dict) -> str:
    """The last line of a log whose other lines are ``lines_before``: the final state and
    the digest that seals the file."""
    unsealed = json.dumps({"type": "final", "state": state})
    return json.dumps({"type": "final", "state": state, "sha256": _digest(lines_before, unsealed)})


def _digest(lines_before: list[str], unsealed_final: str) -> str:
    h = hashlib.sha256()
    for line in lines_before:
        h.update(line.encode("utf-8"))
        h.update(b"\n")
    h.update(unsealed_final.encode("utf-8"))
    return h.hexdigest()


_validators: dict[str, Draft202012Validator] = {}


def _validator(kind: str) -> Draft202012Validator:
    if not _validators:
        from rulecraft.dsl.yaml_data import schema

        root = schema("gamelog.schema.json")
        _validators["line"] = Draft202012Validator({k: v for k, v in root.items() if k != "$defs"})
        for name, sub in root["$defs"].items():
            _validators[name] = Draft202012Validator(sub)
    return _validators[kind]


def _problem(validator: Draft202012Validator, record: dict) -> str | None:
    error = next(iter(sorted(validator.iter_errors(record), key=lambda e: list(e.absolute_path))), None)
    if error is None:
        return None
    where = ".".join(str(p) for p in error.absolute_path)
    message = error.message if len(error.message) <= _MESSAGE_CHARS else error.message[:_MESSAGE_CHARS] + "…"
    return f"{where}: {message}" if where else message


def read_game_log(path: str | Path) -> GameLog:
    """Read and check a log or save; GameLogError (one line, with file and line) when it
    is unreadable, malformed, incomplete or altered."""
    return parse_game_log(read_log_text(path), path)


def read_log_bytes(path: str | Path) -> bytes:
    path = Path(path)
    try:
        if path.stat().st_size > MAX_LOG_BYTES:
            raise GameLogError(f"{path}: too large for a game log ({path.stat().st_size} bytes)")
        return path.read_bytes()
    except OSError as err:
        raise GameLogError(f"cannot read {path}: {err.strerror}") from None


def decode_log(raw: bytes, path: str | Path) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise GameLogError(f"{path}: not a game log (not UTF-8 text at byte {err.start})") from None


def read_log_text(path: str | Path) -> str:
    return decode_log(read_log_bytes(path), path)


def _json_reason(err: json.JSONDecodeError) -> str:
    """The JSON reader's message, as a whole sentence with its column."""
    return f"{err.msg.removesuffix(' starting at')} at column {err.colno}"


def parse_game_log(text: str, path: str | Path) -> GameLog:
    """Check the text of a log (``path`` names it in messages); see read_game_log."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise GameLogError(f"{path}: empty file")
    log = None
    for i, (number, line) in enumerate(lines):
        where = f"{path}:{number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            if i == len(lines) - 1 and not text.endswith("\n"):
                # every line of a log ends with a newline: a last one without it that does
                # not read was cut, not written so
                raise GameLogError(f"{where}: the line stops short: the file was cut short "
                                   "(a copy or a download that did not finish?)") from None
            raise GameLogError(f"{where}: not JSON ({_json_reason(err)})") from None
        except (ValueError, RecursionError):  # a number too long to read, nesting too deep
            raise GameLogError(f"{where}: not a game log line (too deeply nested or too long a number)") from None
        if not isinstance(record, dict):
            raise GameLogError(f"{where}: not a log record (a JSON object with a type)")
        problem = _problem(_validator("line"), record)
        if problem:
            raise GameLogError(f"{where}: not a log record: {problem}")
        kind = record["type"]
        problem = _problem(_validator(kind), record)
        if problem:
            raise GameLogError(f"{where}: a bad {kind} line: {problem}")
        if log is None:
            if kind != "header":
                raise GameLogError(f"{where}: a game log starts with a header line (ruleset, players, seed)")
            log = GameLog(record)
        elif kind == "header":
            raise GameLogError(f"{where}: a second header line")
        elif log.final is not None:
            raise GameLogError(f"{where}: a line after the final state")
        elif kind == "decision":
            log.decisions.append(record["option"])
        elif kind == "event":
            log.events.append(record["event"])
        else:
            unsealed = json.dumps({"type": "final", "state": record["state"]})
            if _digest([text for _, text in lines[:i]], unsealed) != record["sha256"]:
                raise GameLogError(f"{where}: the file was altered after it was written (its digest does not match)")
            log.final = record["state"]
    if log.final is None:
        raise GameLogError(f"{path}: incomplete game log: no final line (the file was cut short or edited)")
    return log
