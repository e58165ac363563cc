"""`rulecraft simulate --ray`: the games played as Ray tasks, on a cluster or this machine.

Each task plays a few games whose seeds were fixed by the driver (game *i* uses seed
``SEED + i``), so a cluster gives the same rows, hence the same table, as a local run.
Rows come back as tasks finish. A worker process that dies (a node lost, a process
killed) has its task run again by Ray (``max_retries``); a task's rows are returned
only when all its games are played, so a retried task's games are counted once.

The rule set's files travel with the job through Ray's object store: the nodes need
rulecraft installed, not a copy of the rule-set folder. Ray is imported only here, and
only when ``--ray`` is given (``pip install -e ".[cluster]"``).
"""

from __future__ import annotations

import hashlib
import os
import socket
import tempfile
from pathlib import Path

# Retries of a task whose worker process died; a rule error is a row, not a failure.
MAX_RETRIES = 3
# A test (and only a test) may name a game whose worker process dies the first time it
# plays it: "INDEX:MARKER-FILE" (the marker says the death already happened).
CRASH_ONCE_ENV = "RULECRAFT_SIMULATE_CRASH_ONCE"
INSTALL_HINT = "pip install 'rulecraft[cluster]' (or pip install -e \".[cluster]\" in a clone)"
# How long an address given as HOST:PORT may take to answer before --ray gives up on it:
# Ray itself retries an address where nothing listens, for a long time.
PROBE_SECONDS = 5.0


def ray_problem() -> str | None:
    """Why ``--ray`` cannot run here (one line), or None."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return f"--ray needs Ray, which is not installed: {INSTALL_HINT}"
    return None


def connect(address: str | None) -> tuple[bool, int]:
    """Join the cluster at ``address`` (``auto``, ``ray://host:10001``, ``host:6379``), or
    start one on this machine when None; a Ray already set up in this process is used
    as it is. Returns (whether this call started it, the cluster's CPUs)."""
    import ray

    started = False
    if not ray.is_initialized():
        if address is not None:
            _probe(address)
        try:
            ray.init(address=address, include_dashboard=False, logging_level="ERROR", log_to_driver=False,
                     configure_logging=True)
        except Exception as err:  # Ray raises many kinds (ConnectionError, RuntimeError, ValueError...)
            raise ConnectionError(_first_sentences(str(err)) or type(err).__name__) from err
        started = True
    return started, int(ray.cluster_resources().get("CPU", 1))


def _probe(address: str) -> None:
    """Raise ConnectionError when an address is a web address (a dashboard's), or names a
    host and port (``host:6379``, ``ray://host:10001``) where nothing listens within
    PROBE_SECONDS. ``auto`` and forms Ray explains itself are left to Ray."""
    if address.startswith(("http://", "https://")):
        raise ConnectionError("an http address is a Ray dashboard's or job server's; give the head node's "
                              "address (HOST:6379) or Ray Client's (ray://HOST:10001)")
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit() or "/" in host:
        return
    try:
        with socket.create_connection((host or "127.0.0.1", int(port)), timeout=PROBE_SECONDS):
            pass
    except OSError as err:
        why = "no answer" if isinstance(err, TimeoutError) else (err.strerror or str(err)).lower()
        raise ConnectionError(f"nothing answers at {host or '127.0.0.1'}:{port} ({why} within "
                              f"{PROBE_SECONDS:.0f} s); is the cluster's head node running there?") from None


def _first_sentences(text: str) -> str:
    """Ray's message on one line, without a last sentence that only announces a list
    ("To fix this, either:") the one line leaves out."""
    first = text.strip().splitlines()[0].strip() if text.strip() else ""
    if first.endswith(":"):
        first = first[: first.rfind(". ") + 1] if ". " in first else first.rstrip(":")
    return first


def disconnect() -> None:
    import ray

    ray.shutdown()


def ruleset_files(path: str) -> dict[str, bytes]:
    """The rule-set folder's files (its Python caches left out), by relative path."""
    root = Path(path)
    return {str(f.relative_to(root)): f.read_bytes() for f in sorted(root.rglob("*"))
            if f.is_file() and "__pycache__" not in f.parts}


def _digest(files: dict[str, bytes]) -> str:
    digest = hashlib.sha256()
    for rel, data in sorted(files.items()):
        digest.update(rel.encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()[:16]


def _materialize(name: str, digest: str, files: dict[str, bytes]) -> str:
    """The rule set written once per node, in a folder named by its content's hash."""
    root = Path(tempfile.gettempdir()) / f"rulecraft-ruleset-{digest}" / name
    if not (root / "game.yaml").is_file():
        staging = Path(tempfile.mkdtemp(prefix="rulecraft-ruleset-"))
        for rel, data in files.items():
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        root.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.rename(staging, root)
        except OSError:  # another worker wrote it first
            pass
    return str(root)


# Per worker process: the rule sets loaded, by (name, content digest, variant).
_LOADED: dict = {}


def _crash_once(index: int) -> None:
    spec = os.environ.get(CRASH_ONCE_ENV)
    if not spec:
        return
    target, _, marker = spec.partition(":")
    if int(target) == index and marker and not os.path.exists(marker):
        Path(marker).write_text("died once\n", encoding="utf-8")
        os._exit(1)  # as a killed process does: no exception, no clean-up


def play_batch(path: str, files: dict[str, bytes], variant: str | None, tasks: list[tuple]) -> list[dict]:
    """Play a batch of games on a worker (the body of the Ray task)."""
    from rulecraft.dsl.loader import load_checked

    from .simulate import play_row

    digest = _digest(files)
    ruleset = _LOADED.get((digest, variant))
    if ruleset is None:
        # The folder itself where this node has it unchanged (so a rule error names the
        # same file as in a local run), else the copy that came with the job.
        here = path if Path(path).is_dir() and _digest(ruleset_files(path)) == digest else None
        ruleset = _LOADED[(digest, variant)] = load_checked(here or _materialize(Path(path).name, digest, files),
                                                            variant)
    rows = []
    for task in tasks:
        _crash_once(task[0])
        rows.append(play_row(ruleset, *task))
    return rows


def run_games_on_ray(path: str, tasks: list[tuple], on_row, variant: str | None, cpus: int) -> None:
    """Play the tasks as Ray tasks, handing each row to ``on_row`` as its task finishes."""
    import ray

    remote = ray.remote(max_retries=MAX_RETRIES)(play_batch)
    crash = os.environ.get(CRASH_ONCE_ENV)
    if crash:  # the workers of a running cluster were started without it
        remote = remote.options(runtime_env={"env_vars": {CRASH_ONCE_ENV: crash}})
    files = ray.put(ruleset_files(path))
    chunk = max(1, min(8, len(tasks) // (cpus * 16)))
    waiting = [remote.remote(path, files, variant, tasks[i:i + chunk])
               for i in range(0, len(tasks), chunk)]
    while waiting:
        done, waiting = ray.wait(waiting, num_returns=1)
        for row in ray.get(done[0]):
            on_row(row)
