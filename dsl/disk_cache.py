"""An on-disk cache for the costly, repeatable parts of loading a rule set.

Parsing the rule files dominates a cold load, and building the Lark parser comes next.
Their results depend only on their inputs, so they are stored (the checked rule set as
a whole, each rule file's parse, the parser's tables) under ``$XDG_CACHE_HOME/rulecraft``
(or ``~/.cache/rulecraft``) with a key that hashes every input: the rule-set files'
paths and contents, the variant, the Python and Lark versions and the source of the
loading code itself. An entry therefore can never be stale (any change gives a new
key), and deleting the folder is always safe. ``RULECRAFT_NO_CACHE=1`` turns the cache
off. A cache that cannot be read or written is ignored: loading then simply does the work.

What is read from the cache is never run. Entries are JSON of the rules language's own
classes (``cache_format``): a planted entry can at worst describe a wrong rule set. And
an entry is only believed when the current user wrote it: the cache folder and every
folder and file in it must belong to the user and be writable by nobody else (they are
created 0700 and 0600, and written whole by an atomic rename). Anything else is treated
as no cache, with one warning per process naming what was refused. A damaged, truncated
or wrong-shaped entry is simply a miss.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

FORMAT = 2
KEEP = {"parse": 512}  # entries kept of each kind (64 unless named here); the oldest go first
KINDS = ("ruleset", "parse", "grammar")

_warned = False


def cache_dir() -> Path | None:
    """The cache folder, or None when the cache is off."""
    if os.environ.get("RULECRAFT_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rulecraft"


def _warn_once(message: str) -> None:
    global _warned
    if not _warned:
        _warned = True
        sys.stderr.write(f"rulecraft: warning: {message}; loading without the cache\n")


def _untrusted(st: os.stat_result) -> str | None:
    """Why a cache folder or entry with this status is not to be believed, or None."""
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return "it belongs to another user"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "others may write to it"
    return None


def _trusted_folder(path: Path, create: bool) -> bool:
    """Whether ``path`` is a folder of the current user that no one else may write to
    (made so, 0700, when it is missing and ``create``)."""
    try:
        if create:
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.stat(path)
    except OSError:
        return False
    reason = "it is not a folder" if not stat.S_ISDIR(st.st_mode) else _untrusted(st)
    if reason:
        _warn_once(f"not using the cache folder {path}: {reason} (delete it, or chmod 700 it)")
        return False
    return True


def _kind_folder(kind: str, create: bool) -> Path | None:
    base = cache_dir()
    if base is None or not _trusted_folder(base, create):
        return None
    folder = base / kind
    return folder if _trusted_folder(folder, create) else None


_code_version: str | None = None

# Set while loading one-off rule sets (mutants): their entries would only push the
# useful ones out of the cache.
_READ_ONLY: ContextVar[bool] = ContextVar("disk_cache_read_only", default=False)


@contextmanager
def read_only() -> Iterator[None]:
    """Within the block the cache is read but nothing new is stored."""
    token = _READ_ONLY.set(True)
    try:
        yield
    finally:
        _READ_ONLY.reset(token)


def _lark_release() -> str:
    """Which Lark is installed, read without importing it (a load whose rule files all
    parse never needs Lark, and its import costs ~16 ms): a hash of its package's
    ``__init__.py``, which states its version."""
    from importlib.util import find_spec

    spec = find_spec("lark")
    if spec is None or spec.origin is None:
        return "no Lark"
    return hashlib.sha256(Path(spec.origin).read_bytes()).hexdigest()


def code_version() -> str:
    """A hash of the source of everything that turns rule files into a rule set."""
    global _code_version
    if _code_version is None:
        from importlib import resources

        digest = hashlib.sha256(f"{FORMAT} {sys.version} {_lark_release()}".encode())
        for folder in (Path(__file__).resolve().parent, resources.files("rulecraft.schemas")):
            for path in sorted(folder.iterdir(), key=lambda p: p.name):
                if path.name.endswith((".py", ".lark", ".json")):
                    digest.update(path.name.encode())
                    digest.update(path.read_bytes())
        _code_version = digest.hexdigest()
    return _code_version


def ruleset_key(root: Path, variant: str | None, files: list[Path]) -> str:
    """The key of a load of ``root``: its files (``files``, every one the load may read),
    by path and content. The working directory counts too: positions name files relative
    to it."""
    digest = hashlib.sha256(code_version().encode())
    digest.update(repr((str(root), variant, os.getcwd())).encode())
    for path in files:
        digest.update(repr(str(path)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def parse_key(file: str, text: str) -> str:
    """The key of one rule file's parse: its shown name (positions carry it) and text."""
    return hashlib.sha256(f"{code_version()} {file}\n{text}".encode()).hexdigest()


def grammar_key(grammar: str) -> str:
    return hashlib.sha256(f"{code_version()}\n{grammar}".encode()).hexdigest()


def load_ruleset(key: str):
    from .diagnostics import DiagnosticBag
    from .model import RuleSet, RuleSetData

    value = load_object("ruleset", key)
    if (isinstance(value, RuleSet) and isinstance(value.data, RuleSetData) and isinstance(value.bag, DiagnosticBag)
            and isinstance(value.definitions, dict) and value.compiled is None):
        return value
    return None


def store_ruleset(key: str, ruleset) -> None:
    store_object("ruleset", key, ruleset)


def load_parse(key: str):
    """(definitions, diagnostics) of a rule file's parse, or None."""
    from .ast import Definition
    from .diagnostics import Diagnostic

    value = load_object("parse", key)
    if (isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], list) and isinstance(value[1], list)
            and all(isinstance(d, Definition) for d in value[0])
            and all(isinstance(d, Diagnostic) for d in value[1])):
        return value
    return None


def store_parse(key: str, definitions: list, diagnostics: list) -> None:
    store_object("parse", key, (list(definitions), list(diagnostics)))


def load_object(kind: str, key: str):
    from .cache_format import BadEntry, loads

    data = _read(kind, key)
    if data is None:
        return None
    try:
        return loads(data)
    except BadEntry:  # a damaged entry is only a missed cache
        return None


def store_object(kind: str, key: str, value) -> None:
    from .cache_format import NotCacheable, dumps

    if cache_dir() is None:
        return
    try:
        data = dumps(value)
    except NotCacheable:  # something the format does not hold: do without
        return
    _write(kind, key, data)


def _read(kind: str, key: str) -> bytes | None:
    folder = _kind_folder(kind, create=False)
    if folder is None:
        return None
    try:
        fd = os.open(folder / key, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        try:
            st = os.fstat(f.fileno())  # of the file opened, so it cannot be swapped after the check
            if not stat.S_ISREG(st.st_mode):
                return None
            reason = _untrusted(st)
            if reason:
                _warn_once(f"not using the cache entry {folder / key}: {reason}")
                return None
            return f.read()
        except OSError:
            return None


def _write(kind: str, key: str, data: bytes) -> None:
    if _READ_ONLY.get():
        return
    folder = _kind_folder(kind, create=True)
    if folder is None:
        return
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")  # created 0600
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, folder / key)  # whole entries only, even with several writers
        except OSError:
            os.unlink(tmp)
            raise
        _prune(folder, KEEP.get(kind, 64))
    except OSError:
        pass


def _prune(folder: Path, keep: int) -> None:
    entries = [p for p in folder.iterdir() if not p.name.startswith(".tmp-")]
    if len(entries) <= keep:
        return
    entries.sort(key=lambda p: p.stat().st_mtime)
    for old in entries[: len(entries) - keep]:
        try:
            old.unlink()
        except OSError:
            pass
