"""An on-disk cache for the costly, repeatable parts of loading a rule set.

Parsing the rule files dominates a cold load, and turning the generated expression
source into Python code comes next. Their results depend only on their inputs, so they
are stored (the checked rule set as a whole, each rule file's parse, the compiled code) under ``$XDG_CACHE_HOME/rulecraft`` (or ``~/.cache/rulecraft``) with a key
that hashes every input: the rule-set files' paths and contents, the variant, the
Python version and the source of the loading code itself. An entry therefore can never
be stale (any change gives a new key), and deleting the folder is always safe.
``RULECRAFT_NO_CACHE=1`` turns the cache off. A cache that cannot be read or written
is ignored: loading then simply does the work.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import pickle
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

FORMAT = 1
KEEP = {"parse": 512}  # entries kept of each kind (64 unless named here); the oldest go first



def cache_dir() -> Path | None:
    if os.environ.get("RULECRAFT_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rulecraft"


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


def code_version() -> str:
    """A hash of the source of everything that turns rule files into a rule set."""
    global _code_version
    if _code_version is None:
        from importlib import resources

        digest = hashlib.sha256(f"{FORMAT} {sys.version}".encode())
        for folder in (Path(__file__).resolve().parent, resources.files("rulecraft.schemas")):
            for path in sorted(folder.iterdir(), key=lambda p: p.name):
                if path.name.endswith((".py", ".lark", ".json")):
                    digest.update(path.name.encode())
                    digest.update(path.read_bytes())
        _code_version = digest.hexdigest()
    return _code_version


def ruleset_key(root: Path, variant: str | None) -> str:
    """The key of a load of ``root``: every file under it, by path and content. The
    working directory counts too: positions name files relative to it."""
    digest = hashlib.sha256(code_version().encode())
    digest.update(repr((str(root), variant, os.getcwd())).encode())
    for path in sorted(root.rglob("*")):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        digest.update(repr(str(path)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def load_ruleset(key: str):
    return load_object("ruleset", key)


def store_ruleset(key: str, ruleset) -> None:
    store_object("ruleset", key, ruleset)


def parse_key(file: str, text: str) -> str:
    """The key of one rule file's parse: its shown name (positions carry it) and text."""
    return hashlib.sha256(f"{code_version()} {file}\n{text}".encode()).hexdigest()


def load_object(kind: str, key: str):
    data = _read(kind, key)
    if data is None:
        return None
    try:
        return pickle.loads(data)
    except Exception:  # noqa: BLE001 - a damaged entry is only a missed cache
        return None


def store_object(kind: str, key: str, value) -> None:
    try:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - something unpicklable: do without
        return
    _write(kind, key, data)


def compile_source(source: str, filename: str):
    """``compile(source, filename, "exec")``, from the cache when it was done before."""
    key = hashlib.sha256(f"{code_version()} {filename}\n{source}".encode()).hexdigest()
    data = _read("code", key)
    if data is not None:
        try:
            return marshal.loads(data)
        except Exception:  # noqa: BLE001 - a damaged entry is only a missed cache
            pass
    code = compile(source, filename, "exec")
    _write("code", key, marshal.dumps(code))
    return code


def _read(kind: str, key: str) -> bytes | None:
    folder = cache_dir()
    if folder is None:
        return None
    try:
        return (folder / kind / key).read_bytes()
    except OSError:
        return None


def _write(kind: str, key: str, data: bytes) -> None:
    folder = cache_dir()
    if folder is None or _READ_ONLY.get():
        return
    try:
        target = folder / kind
        target.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target, prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, target / key)  # whole entries only, even with several writers
        _prune(target, KEEP.get(kind, 64))
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
