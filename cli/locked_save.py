"""Saves locked with a passphrase, for hot-seat games whose save leaves the table.

A save holds the whole state: every hand, every secret. ``play --passphrase`` writes it
encrypted instead (Fernet: AES-128-CBC with an HMAC-SHA256, from the ``cryptography``
package), with a key derived from a passphrase by scrypt, so the file can be copied,
mailed or left on a shared disk without telling anyone what is hidden. Resuming it
(``play --resume``) or replaying it (``replay``) asks for the passphrase.

This protects the file, not the game from the person who knows the passphrase: that
person can unlock the save and read it. At one device the usual choice is a passphrase
known to someone who does not play, or to nobody at the table until the game resumes.

A locked save is one JSON line::

    {"type": "locked_save", "kdf": "scrypt", "n": 32768, "r": 8, "p": 1, "salt": "...", "token": "..."}

The token holds the game log, word for word as ``play`` would have written it.
"""

from __future__ import annotations

import base64
import binascii
import getpass
import json
import os
import warnings
from pathlib import Path

from rulecraft.interpreter.gamelog import GameLog, GameLogError, decode_log, parse_game_log, read_log_bytes

LOCKED = "locked_save"
PASSPHRASE_ENV = "RULECRAFT_SAVE_PASSPHRASE"
# scrypt's cost: about a tenth of a second per try on a laptop, so guessing is slow
_N, _R, _P = 2 ** 15, 8, 1
_MAX_N = 2 ** 20  # a file cannot ask for more work (memory) than this


class LockError(Exception):
    """A locked save that cannot be opened (wrong passphrase, damaged); one line."""


class PassphraseMissing(LockError):
    """No passphrase could be had (none set, no terminal to type it on, an empty one):
    the command was not given what it needs, a usage error; one line."""


def is_locked(raw: bytes) -> bool:
    """Does this file's content look like a locked save (rather than a plain log)?"""
    head = raw[:200].lstrip()
    return head.startswith(b"{") and b'"locked_save"' in head


def _key(passphrase: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    derived = Scrypt(salt=salt, length=32, n=n, r=r, p=p).derive(passphrase.encode("utf-8"))
    return base64.urlsafe_b64encode(derived)


def lock(text: str, passphrase: str) -> str:
    """The locked save (one line) holding ``text``."""
    from cryptography.fernet import Fernet

    salt = os.urandom(16)
    token = Fernet(_key(passphrase, salt, _N, _R, _P)).encrypt(text.encode("utf-8"))
    return json.dumps({"type": LOCKED, "kdf": "scrypt", "n": _N, "r": _R, "p": _P,
                       "salt": base64.b64encode(salt).decode(), "token": token.decode()}) + "\n"


def unlock(raw: bytes, passphrase: str, path: str) -> str:
    """The text locked in ``raw``; LockError says why it cannot be had."""
    from cryptography.fernet import Fernet, InvalidToken

    try:
        record = json.loads(raw.decode("utf-8"))
        n, r, p = record["n"], record["r"], record["p"]
        if record.get("type") != LOCKED or record.get("kdf") != "scrypt":
            raise ValueError
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (n, r, p)):
            raise ValueError
        if not (2 <= n <= _MAX_N and n & (n - 1) == 0 and 1 <= r <= 16 and 1 <= p <= 4):
            raise ValueError
        salt = base64.b64decode(record["salt"], validate=True)
        token = record["token"].encode("ascii")
    except (ValueError, KeyError, TypeError, AttributeError, UnicodeError, binascii.Error, RecursionError):
        raise LockError(f"{path}: a damaged locked save") from None
    try:
        return Fernet(_key(passphrase, salt, n, r, p)).decrypt(token).decode("utf-8")
    except (InvalidToken, UnicodeDecodeError, ValueError):
        raise LockError(f"{path}: wrong passphrase, or the locked save was damaged") from None


def ask_passphrase(purpose: str, *, twice: bool = False) -> str:
    """The passphrase from RULECRAFT_SAVE_PASSPHRASE, else typed without echo.
    PassphraseMissing when none can be had (no terminal, input closed, an empty one),
    LockError when the two typed differ."""
    given = os.environ.get(PASSPHRASE_ENV)
    if given:
        return given
    try:
        # Without a terminal, getpass would read the passphrase from stdin, echoed, after
        # a warning of its own: asked as an error, that is told in one line instead.
        with warnings.catch_warnings():
            warnings.simplefilter("error", getpass.GetPassWarning)
            first = getpass.getpass(f"passphrase {purpose} (not shown): ")
            if twice and getpass.getpass("the same passphrase again: ") != first:
                raise LockError("the two passphrases differ")
    except getpass.GetPassWarning:
        raise PassphraseMissing(f"the passphrase {purpose} is needed, and stdin is not a terminal to type it on "
                                f"(set {PASSPHRASE_ENV})") from None
    except (EOFError, OSError):
        raise PassphraseMissing(f"no passphrase given (type one, or set {PASSPHRASE_ENV})") from None
    if not first:
        raise PassphraseMissing("an empty passphrase locks nothing")
    return first


def read_log_or_save(path: str | Path) -> tuple[GameLog, str | None]:
    """A checked game log, plain or locked, and the passphrase that unlocked it (None
    for a plain one); GameLogError (one line) says why a file is refused,
    PassphraseMissing that a locked one was given no passphrase."""
    raw = read_log_bytes(path)
    if not is_locked(raw):
        return parse_game_log(decode_log(raw, path), path), None
    try:
        passphrase = ask_passphrase(f"of {path}")
        return parse_game_log(unlock(raw, passphrase, str(path)), path), passphrase
    except PassphraseMissing:
        raise
    except LockError as err:
        raise GameLogError(str(err)) from None
