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

import atexit
import contextlib
import hashlib
import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import warnings
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
# The time a process of its own takes to import Ray, on top of PROBE_SECONDS, to ask a
# cluster who it is (see _ask_cluster).
IMPORT_SECONDS = 5.0


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
    as it is. Returns (whether this call started it, the cluster's CPUs). A cluster that
    cannot be joined raises ConnectionError with one line saying why; joining one, Ray's
    own log lines are held back (they would tell the same, many times over)."""
    import ray

    started = False
    if not ray.is_initialized():
        if address is not None:
            _probe(address)
            _ask_cluster(address)
        held = _HeldStderr() if address is not None else contextlib.nullcontext()
        try:
            with held, warnings.catch_warnings():
                warnings.simplefilter("ignore")  # Ray Client warns before it raises the same
                ray.init(address=address, include_dashboard=False, logging_level="ERROR", log_to_driver=False,
                         configure_logging=True)
        except Exception as err:  # Ray raises many kinds (ConnectionError, RuntimeError, ValueError...)
            told = _auth_refusal(getattr(held, "text", "")) or _auth_refusal(_causes(err))
            if told:
                raise ConnectionError(_auth_reason(told)) from err
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
    host_port = _host_port(address)
    if host_port is None:
        return
    host, port = host_port
    try:
        with socket.create_connection((host, port), timeout=PROBE_SECONDS):
            pass
    except OSError as err:
        why = "no answer" if isinstance(err, TimeoutError) else (err.strerror or str(err)).lower()
        raise ConnectionError(f"nothing answers at {host}:{port} ({why} within "
                              f"{PROBE_SECONDS:.0f} s); is the cluster's head node running there?") from None


def _host_port(address: str) -> tuple[str, int] | None:
    """The host and port an address names (``host:6379``, ``ray://host:10001``), or None."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit() or "/" in host:
        return None
    return host or "127.0.0.1", int(port)


# Token authentication (on by default when a head is started, in recent Ray: 2.60 here): what Ray says
# when the cluster refuses this machine's token, or its lack of one.
_AUTH_WORDS = ("InvalidAuthToken", "UNAUTHENTICATED", "Unauthenticated", "authentication token")
TOKEN_HINT = ("give this machine the cluster's token in RAY_AUTH_TOKEN, or in a file named by RAY_AUTH_TOKEN_PATH "
              "(default ~/.ray/auth_token); see https://docs.ray.io/en/latest/ray-security/token-auth.html")


def _auth_refusal(text: str) -> str | None:
    """Ray's own words where ``text`` tells of a refused token, else None."""
    for line in text.splitlines():
        if any(word in line for word in _AUTH_WORDS):
            line = line.split("] ", 1)[-1].strip()  # a C++ log line: its time and place before "] "
            for lead in ("RPC error: ", "Unauthenticated: "):
                line = line[line.find(lead) + len(lead):] if lead in line else line
            first = _first_sentences(line)
            return (first.split(". ", 1)[0] if ". " in first else first).rstrip(".")
    return None


def _auth_reason(told: str) -> str:
    return f"the cluster refused this machine's token ({told}); {TOKEN_HINT}"


def _causes(err: BaseException) -> str:
    """The messages of an error and of those it came from, one a line."""
    lines, seen = [], set()
    while err is not None and id(err) not in seen:
        seen.add(id(err))
        lines.append(f"{type(err).__name__}: {err}")
        err = err.__cause__ or err.__context__
    return "\n".join(lines)


def _ask_cluster(address: str) -> None:
    """Ask what answers at a ``host:port`` or ``ray://host:port`` address for the Ray
    cluster's identity, once, as Ray's first request does, in a process of its own that
    is given PROBE_SECONDS (and the time to import Ray): Ray itself retries a refused
    token, or an answer that is no Ray cluster's, for 20 to 40 seconds, each time with a
    log line. Raise ConnectionError in one line when the cluster refuses this machine's
    token or what answers is not the kind of server the address names; anything else
    (this Ray cannot be asked so) is left to Ray."""
    if _host_port(address) is None:
        return
    code = "import sys; from rulecraft.cli.cluster import _asked; _asked(sys.argv[1])"
    try:
        done = subprocess.run([sys.executable, "-c", code, address], capture_output=True, text=True,
                              timeout=PROBE_SECONDS + IMPORT_SECONDS)
    except subprocess.TimeoutExpired:
        client = address.startswith("ray://")
        raise ConnectionError(f"something answers at {address.removeprefix('ray://')}, but not as "
                              + ("Ray Client" if client else "a Ray cluster's head node")
                              + f" within {PROBE_SECONDS:.0f} s; is that the "
                              + ("Ray Client port (10001 by default)?" if client else
                                 "head node's port (6379 by default)?")) from None
    except OSError:
        return
    try:
        answer = json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return  # the question could not be asked (another Ray): Ray tells
    if answer.get("auth"):
        raise ConnectionError(_auth_reason(answer["auth"]))
    if answer.get("wrong"):
        raise ConnectionError(answer["wrong"])


def _asked(address: str) -> None:
    """The question of :func:`_ask_cluster`, in its own process: prints one JSON line,
    ``{}`` (it answered, or the question could not be asked: left to Ray), ``{"auth":
    Ray's words}`` (the token was refused) or ``{"wrong": a line}``."""
    host, port = _host_port(address)
    answer: dict = {}
    with _HeldStderr():
        try:
            answer = _ask_client(host, port) if address.startswith("ray://") else _ask_head(host, port)
        except ImportError:  # a Ray without these parts: left to Ray
            answer = {}
    print(json.dumps(answer), flush=True)


def _ask_head(host: str, port: int) -> dict:
    from ray._raylet import GcsClient

    try:
        GcsClient(address=f"{host}:{port}")
    except Exception as err:  # noqa: BLE001 - Ray's kinds of errors differ from version to version
        told = _auth_refusal(f"{type(err).__name__}: {err}")
        if told:
            return {"auth": told}
        return {"wrong": f"{host}:{port} answers, but not as a Ray cluster's head node "
                         f"({_first_sentences(str(err)) or type(err).__name__}); is it Ray Client's port? "
                         f"then give ray://{host}:{port}"}
    return {}


def _ask_client(host: str, port: int) -> dict:
    import grpc
    from ray._private.grpc_utils import init_grpc_channel
    from ray.core.generated import ray_client_pb2, ray_client_pb2_grpc

    channel = init_grpc_channel(f"{host}:{port}", options=[], asynchronous=False)
    try:
        ray_client_pb2_grpc.RayletDriverStub(channel).ClusterInfo(
            ray_client_pb2.ClusterInfoRequest(type=ray_client_pb2.ClusterInfoType.PING), timeout=PROBE_SECONDS)
    except grpc.RpcError as err:
        if err.code() == grpc.StatusCode.UNAUTHENTICATED:
            return {"auth": f"UNAUTHENTICATED: {err.details()}".rstrip(": .")}
        if err.code() == grpc.StatusCode.UNIMPLEMENTED:
            return {"wrong": f"{host}:{port} answers, but not as Ray Client; is it the head node's port? "
                             f"then give {host}:{port} without ray://"}
    finally:
        channel.close()
    return {}


class _HeldStderr:
    """Holds back what is written to this process's standard error (file descriptor 2,
    where Ray's C++ code writes its log lines) while in the block; ``text`` is what was
    written."""

    text = ""

    def __enter__(self):
        sys.stderr.flush()
        self._saved = os.dup(2)
        self._file = tempfile.TemporaryFile(mode="w+b")
        os.dup2(self._file.fileno(), 2)
        return self

    def __exit__(self, *exc):
        sys.stderr.flush()
        os.dup2(self._saved, 2)
        os.close(self._saved)
        self._file.seek(0)
        self.text = self._file.read().decode("utf-8", "replace")
        self._file.close()
        return False


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


def _ours(path: Path, private: bool) -> bool:
    """Whether ``path`` is a real folder (no link) of this user that nobody else can
    change: with ``private``, a folder only this user may enter (0700), so nobody else
    reaches what it holds; else one whose files and folders are all this user's and
    writable by this user only. A folder someone else can change (one made by another
    user on a shared /tmp) could be changed after it was checked."""
    uid = getattr(os, "getuid", None)
    if uid is None:  # no owners to compare (not a POSIX system): trust no existing folder
        return False
    try:
        top = os.lstat(path)
        if not stat.S_ISDIR(top.st_mode) or top.st_uid != uid():
            return False
        if private:
            return not top.st_mode & 0o077
        for entry in [path, *path.rglob("*")]:
            st = os.lstat(entry)
            if st.st_uid != uid() or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH) or stat.S_ISLNK(st.st_mode):
                return False
    except OSError:
        return False
    return True


def _holds(root: Path, digest: str) -> bool:
    """Whether the rule-set folder ``root`` holds exactly the files of ``digest``."""
    try:
        return root.is_dir() and _digest(ruleset_files(str(root))) == digest
    except OSError:
        return False


def _write_files(root: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        target = root / rel
        target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        target.write_bytes(data)


# Per worker process: private copies made because the node's shared one could not be
# trusted, removed when the process ends.
_PRIVATE: dict[str, Path] = {}


def _remove_private() -> None:
    for folder in _PRIVATE.values():
        shutil.rmtree(folder, ignore_errors=True)
    _PRIVATE.clear()


def _materialize(name: str, digest: str, files: dict[str, bytes]) -> str:
    """The rule set written on this node: once per node, in a folder named by its
    content's hash, readable and writable by this user only (0700), and used only when it
    still is so and still holds exactly those files. A folder of that name that fails
    either check (another user made it first on a shared /tmp, or it was changed) is left
    alone: this process then writes a private copy of its own (0700, a new name), removed
    when it ends."""
    tmp = Path(tempfile.gettempdir())
    shared = tmp / f"rulecraft-ruleset-{digest}"
    if not os.path.lexists(shared):
        staging = Path(tempfile.mkdtemp(prefix=f"rulecraft-ruleset-{digest}.", dir=tmp))  # 0700, a new name
        try:
            _write_files(staging / name, files)
            os.rename(staging, shared)  # at once, and never onto a folder someone else made
        except OSError:  # another process of this node wrote it first, or the disk is full
            shutil.rmtree(staging, ignore_errors=True)
    root = shared / name
    if _ours(shared, private=True) and _holds(root, digest):
        return str(root)
    held = _PRIVATE.get(digest)
    if held is None or not _holds(held / name, digest):
        if not _PRIVATE:
            atexit.register(_remove_private)
        held = _PRIVATE[digest] = Path(tempfile.mkdtemp(prefix="rulecraft-ruleset-", dir=tmp))
        _write_files(held / name, files)
    return str(held / name)


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
        # The folder itself where this node has it unchanged and nobody else may change it
        # (so a rule error names the same file as in a local run), else the copy that came
        # with the job, checked against its hash.
        here = path if _ours(Path(path), private=False) and _holds(Path(path), digest) else None
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
