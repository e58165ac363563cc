"""`rulecraft simulate` after a researcher's trial: a ``--ray`` worker loads no copy of
the rule set it did not write itself or that differs from the one sent; a cluster that
refuses this machine's token (Ray's token authentication) is told in one line within
seconds, with the cause; ``--bot-for`` given twice for a side is refused; the
benchmark scripts take shipped rule sets' names.

The planted-copy tests call the Ray task's body as a worker would (no Ray needed); the
connection tests need Ray (the ``cluster`` extra) and skip without it."""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent import futures
from pathlib import Path

import pytest

from rulecraft.cli import cluster
from rulecraft.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules"
ELSEWHERE = "/elsewhere/on/the/driver/tic_tac_toe"  # the driver's path, which the node has not
TASK = [(0, 1, 2, ["random", "random"])]  # game 0, seed 1, 2 players, random bots


@pytest.fixture
def node(tmp_path, monkeypatch):
    """A node's temporary folder of its own, and a worker process that has loaded nothing."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    monkeypatch.setattr(cluster, "_LOADED", {})
    yield tmp
    cluster._remove_private()


def _files():
    files = cluster.ruleset_files(str(RULES / "tic_tac_toe"))
    return files, cluster._digest(files)


def _plant(tmp: Path, digest: str, mode: int) -> Path:
    """A copy of the rule set at the folder a worker would write, whose first mark wins for p2."""
    planted = tmp / f"rulecraft-ruleset-{digest}" / "tic_tac_toe"
    shutil.copytree(RULES / "tic_tac_toe", planted)
    rules = planted / "play.rules"
    text = rules.read_text()
    honest = "    when any([has_line(p) for p in players])\n    winners [p for p in players where has_line(p)]"
    assert honest in text
    rules.write_text(text.replace(honest, "    when count([s for s in square where s.marked_by != none]) >= 1\n"
                                          "    winners [players[1]]"))
    os.chmod(planted.parent, mode)
    return planted


def _honest(rows) -> bool:
    # tic-tac-toe needs at least five marks for a line; the planted rules end at the first
    return all(row["error"] is None and row["decisions"] >= 5 for row in rows)


@pytest.mark.parametrize("mode", [0o755, 0o700], ids=["a folder others may enter", "a private folder"])
def test_a_planted_copy_of_the_rule_set_is_not_loaded(node, mode):
    files, digest = _files()
    planted = _plant(node, digest, mode)
    rows = cluster.play_batch(ELSEWHERE, files, None, TASK)
    assert _honest(rows), f"the worker played the planted rules: {rows}"
    assert "winners [players[1]]" in (planted / "play.rules").read_text()  # left alone


def test_a_planted_copy_of_another_user_is_not_loaded(node, monkeypatch):
    files, digest = _files()
    _plant(node, digest, 0o700)
    monkeypatch.setattr(os, "getuid", lambda: os.stat(node).st_uid + 1)  # as another user sees it
    assert _honest(cluster.play_batch(ELSEWHERE, files, None, TASK))


def test_a_worker_writes_the_rule_set_once_privately_and_loads_it_again(node):
    files, digest = _files()
    rows = cluster.play_batch(ELSEWHERE, files, None, TASK)
    assert _honest(rows)
    written = node / f"rulecraft-ruleset-{digest}"
    assert written.is_dir() and os.stat(written).st_mode & 0o777 == 0o700
    assert cluster._digest(cluster.ruleset_files(str(written / "tic_tac_toe"))) == digest
    cluster._LOADED.clear()  # another worker process of the node
    assert cluster._materialize("tic_tac_toe", digest, files) == str(written / "tic_tac_toe")
    assert not cluster._PRIVATE  # no private copy was needed


def test_a_copy_changed_after_it_was_written_is_not_loaded_again(node):
    files, digest = _files()
    cluster.play_batch(ELSEWHERE, files, None, TASK)
    written = node / f"rulecraft-ruleset-{digest}" / "tic_tac_toe"
    (written / "extra.rules").write_text("# not sent with the job\n")
    root = Path(cluster._materialize("tic_tac_toe", digest, files))
    assert root != written and not (root / "extra.rules").exists()
    assert cluster._digest(cluster.ruleset_files(str(root))) == digest
    assert os.stat(root.parent).st_mode & 0o777 == 0o700


def test_the_drivers_own_folder_is_loaded_where_the_node_has_it_unchanged(node):
    files, digest = _files()
    assert cluster._ours(RULES / "tic_tac_toe", private=False) or os.name != "posix"
    cluster.play_batch(str(RULES / "tic_tac_toe"), files, None, TASK)
    loaded = cluster._LOADED[(digest, None)]
    assert Path(loaded.root).resolve() == (RULES / "tic_tac_toe").resolve()
    assert not (node / f"rulecraft-ruleset-{digest}").exists()


# ------------------------------------------------------------------ connecting


def _ray_or_skip():
    if importlib.util.find_spec("ray") is None or importlib.util.find_spec("grpc") is None:  # pragma: no cover
        if os.environ.get("RULECRAFT_REQUIRE_CLUSTER") == "1":
            pytest.fail("the cluster extra is not installed, and RULECRAFT_REQUIRE_CLUSTER=1")
        pytest.skip("the cluster extra is not installed (pip install -e '.[cluster]')")


@pytest.fixture
def refusing_cluster():
    """A server that refuses every request as a Ray cluster with token authentication
    refuses a machine without its token (both Ray's head and Ray Client answer so)."""
    _ray_or_skip()
    import grpc

    class Refuse(grpc.GenericRpcHandler):
        def service(self, details):
            def refuse(request, context):
                context.abort(grpc.StatusCode.UNAUTHENTICATED,
                              "InvalidAuthToken: Authentication token is missing or incorrect")
            return grpc.unary_unary_rpc_method_handler(refuse)

    server = grpc.server(futures.ThreadPoolExecutor(2))
    server.add_generic_rpc_handlers((Refuse(),))
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    yield port
    server.stop(None)


@pytest.mark.parametrize("scheme", ["", "ray://"], ids=["head node", "Ray Client"])
def test_a_cluster_that_refuses_the_token_is_told_in_one_line_within_seconds(refusing_cluster, scheme, capfd):
    address = f"{scheme}127.0.0.1:{refusing_cluster}"
    started = time.monotonic()
    assert main(["simulate", "tic_tac_toe", "--games", "2", "--quiet", "--ray", address]) == 2
    took = time.monotonic() - started
    err = capfd.readouterr().err
    assert len(err.strip().splitlines()) == 1, err  # none of Ray's own log lines
    assert f"cannot reach a Ray cluster at '{address}'" in err
    assert "refused this machine's token" in err and "Authentication token is missing or incorrect" in err
    assert "RAY_AUTH_TOKEN" in err and "Traceback" not in err
    assert took < cluster.PROBE_SECONDS + cluster.IMPORT_SECONDS


def test_an_address_that_answers_as_no_ray_cluster_is_told_in_one_line(monkeypatch, capfd):
    _ray_or_skip()
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen()
    held = []
    threading.Thread(target=lambda: held.append(silent.accept()), daemon=True).start()
    monkeypatch.setattr(cluster, "PROBE_SECONDS", 1.0)
    monkeypatch.setattr(cluster, "IMPORT_SECONDS", 4.0)
    address = f"127.0.0.1:{silent.getsockname()[1]}"
    started = time.monotonic()
    assert main(["simulate", "tic_tac_toe", "--games", "2", "--quiet", "--ray", address]) == 2
    assert time.monotonic() - started < 15
    err = capfd.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert "but not as a Ray cluster's head node" in err and "6379" in err
    silent.close()


def test_ray_s_words_of_a_refused_token_are_found_in_its_log_lines_and_errors():
    line = ("[2026-11-28 01:47:50,286 W 31532 31532] gcs_client.cc:210: Failed to get cluster ID from GCS server: "
            "Unauthenticated: RPC error: InvalidAuthToken: Authentication token is missing or incorrect")
    assert cluster._auth_refusal(line) == "InvalidAuthToken: Authentication token is missing or incorrect"
    error = ("AuthenticationError: RPC error: InvalidAuthToken: Authentication token is missing or incorrect. "
             "Note: RAY_AUTH_MODE is currently 'disabled' (not 'token'). Ensure that ...")
    assert cluster._auth_refusal(error) == "InvalidAuthToken: Authentication token is missing or incorrect"
    assert cluster._auth_refusal("Failed to connect to Ray cluster at 1.2.3.4:6379") is None


# ------------------------------------------------------------------ --bot-for


def test_a_side_given_two_bots_is_refused_in_one_line(capsys):
    code = main(["simulate", str(RULES / "panic_station"), "--players", "4", "--games", "2", "--quiet",
                 "--bot-for", "humans=random", "--bot-for", "humans=greedy"])
    assert code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "side 'humans' is given twice (random, greedy)" in err


# ------------------------------------------------------------------ benchmarks


@pytest.mark.parametrize("script", ["option_widths.py", "tracker_follow.py", "heuristic_signal.py",
                                    "belief_accuracy.py", "paired_checks.py"])
def test_a_benchmark_refuses_a_rule_set_that_is_not_there_as_the_command_line_does(script):
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), "/nonexistent", "--players", "2"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "no rule set at '/nonexistent'" in done.stderr and "error(s)" not in done.stderr


def test_a_benchmark_takes_a_shipped_rule_sets_name(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "option_widths.py"), "tic_tac_toe",
                           "--players", "2", "--games", "3"], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "action width 9" in done.stdout
