"""`rulecraft simulate --ray`: the games played as Ray tasks on a local Ray cluster
started by the test give the same rows and the same table as a local run, and a worker
process that dies mid-game has its games played again, none lost or counted twice.

The cluster tests need the ``cluster`` extra (``pip install -e ".[cluster]"``): without
Ray they skip, unless ``RULECRAFT_REQUIRE_CLUSTER=1`` (as in CI), where its absence
fails them. Without Ray, ``--ray`` must refuse in one line (tested always).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import types
from pathlib import Path

import pytest

from rulecraft.cli import cluster
from rulecraft.cli.main import main

RULES = Path(__file__).resolve().parent.parent / "rules"
PANIC_STATION = str(RULES / "panic_station")


@pytest.fixture(scope="module")
def ray_cluster():
    try:
        import ray
    except ImportError:  # pragma: no cover - depends on the machine
        if os.environ.get("RULECRAFT_REQUIRE_CLUSTER") == "1":
            raise
        pytest.skip("the cluster extra is not installed (pip install -e '.[cluster]'); "
                    "set RULECRAFT_REQUIRE_CLUSTER=1 to fail instead")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    yield ray
    ray.shutdown()


def _simulate(capsys, *extra: str, out: Path) -> tuple[list[dict], str]:
    code = main(["simulate", PANIC_STATION, "--players", "5", "--games", "12", "--seed", "40", "--quiet",
                 "--out", str(out), *extra])
    assert code == 0
    text = capsys.readouterr().out
    # the last line says how long the games took and on how many workers: it differs
    return json.loads(out.read_text()), "\n".join(line for line in text.splitlines() if "games/s" not in line)


def test_ray_plays_the_same_games_as_a_local_run(ray_cluster, tmp_path, capsys):
    local_rows, local_table = _simulate(capsys, "--workers", "1", out=tmp_path / "local.json")
    ray_rows, ray_table = _simulate(capsys, "--ray", out=tmp_path / "ray.json")
    assert ray_rows == local_rows
    assert ray_table == local_table
    assert "winning side" in ray_table  # the table itself, not an empty output, was compared


def test_a_worker_that_dies_has_its_games_played_again(ray_cluster, tmp_path, capsys, monkeypatch):
    marker = tmp_path / "died"
    local_rows, _ = _simulate(capsys, "--workers", "1", out=tmp_path / "local.json")
    monkeypatch.setenv(cluster.CRASH_ONCE_ENV, f"7:{marker}")
    ray_rows, _ = _simulate(capsys, "--ray", out=tmp_path / "ray.json")
    assert marker.exists(), "no worker process died: the retry was not exercised"
    assert sorted(r["index"] for r in ray_rows) == list(range(12))  # none lost, none twice
    assert ray_rows == local_rows


def test_without_ray_the_option_says_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails as if absent
    assert main(["simulate", PANIC_STATION, "--games", "2", "--quiet", "--ray"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "Ray" in err and "[cluster]" in err and "Traceback" not in err


def test_ray_and_workers_exclude_each_other(capsys):
    assert main(["simulate", PANIC_STATION, "--games", "2", "--quiet", "--workers", "2", "--ray"]) == 2
    assert "--workers and --ray" in capsys.readouterr().err


def _ray_never_asked(monkeypatch):
    """A stand-in for Ray that fails the test if it is asked to connect."""
    def init(**_):
        pytest.fail("Ray was asked to connect to an address already known to be wrong")

    monkeypatch.setitem(sys.modules, "ray", types.SimpleNamespace(is_initialized=lambda: False, init=init))


def test_an_address_where_nothing_listens_is_refused_in_one_line_before_ray_retries_it(monkeypatch, capsys):
    # Ray itself retries such an address for minutes, printing its own log lines
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    _ray_never_asked(monkeypatch)
    for address in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}"):
        assert main(["simulate", PANIC_STATION, "--games", "2", "--quiet", "--ray", address]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
        assert f"cannot reach a Ray cluster at '{address}': nothing answers at 127.0.0.1:{port}" in err


def test_a_web_address_is_refused_with_the_addresses_ray_takes(monkeypatch, capsys):
    _ray_never_asked(monkeypatch)
    assert main(["simulate", PANIC_STATION, "--games", "2", "--quiet", "--ray", "http://head:8265"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "an http address is a Ray dashboard's" in err and "HOST:6379" in err and "ray://HOST:10001" in err


def test_a_message_of_ray_that_announces_a_list_is_cut_before_the_announcement():
    told = "Invalid Ray address: 'x'. It looks like a web address. To fix this, either:\n  1. unset it, or\n  2. …"
    assert cluster._first_sentences(told) == "Invalid Ray address: 'x'. It looks like a web address."
    assert cluster._first_sentences("Connection lost\nmore") == "Connection lost"
