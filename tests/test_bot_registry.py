"""Bots come from rulecraft itself, from installed packages (the `rulecraft.bots`
entry points, which every process finds, a cluster's workers included), or from code run
in one process (`register`), which `--ray` refuses in one line: its workers could not make
such a bot, and the run stopped with a remote traceback."""

from __future__ import annotations

import importlib.metadata

import pytest

import rulecraft.bots as bots
from rulecraft.bots.random_bot import RandomBot
from rulecraft.cli.main import main
from rulecraft.dsl.loader import load_checked


class _EntryPoint:
    def __init__(self, name, factory):
        self.name, self._factory = name, factory

    def load(self):
        return self._factory


@pytest.fixture
def fresh_registry(monkeypatch):
    monkeypatch.setattr(bots, "REGISTRY", dict(bots._BUILT_IN_FACTORIES))
    monkeypatch.setattr(bots, "_INSTALLED", set())
    monkeypatch.setattr(bots, "_loaded_entry_points", False)


def test_an_installed_bot_is_found_by_name_and_counts_as_known_everywhere(fresh_registry, monkeypatch):
    def entry_points(group):
        return [_EntryPoint("steady", RandomBot)] if group == "rulecraft.bots" else []

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    assert "steady" in bots.bot_names()
    assert isinstance(bots.make_bot("steady", 1), RandomBot)
    assert bots.installed_everywhere("steady")
    assert bots.installed_everywhere("mcts:20") and bots.installed_everywhere("greedy")


def test_a_bot_registered_by_code_is_known_here_only_and_ray_refuses_it(fresh_registry, capsys):
    bots.register("cautious", RandomBot)
    assert isinstance(bots.make_bot("cautious", 1), RandomBot)
    assert not bots.installed_everywhere("cautious")
    # a rulecraft bot replaced by running code is this process's own too
    bots.register("random", lambda seed: RandomBot(seed))
    assert not bots.installed_everywhere("random")
    assert main(["simulate", "tic_tac_toe", "--games", "2", "--bot", "cautious", "--ray"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "the bot 'cautious' is registered by code run in this process only" in err[0]


def test_an_internal_error_from_another_process_is_told_in_one_plain_line(monkeypatch, capsys):
    import rulecraft.cli.check as check

    def remote_failure(args):
        raise RuntimeError("\x1b[36mray::play_batch()\x1b[39m (pid=5073)\n  File \"cluster.py\", line 387\nKeyError: 'x'")

    monkeypatch.setattr(check, "run", remote_failure)
    assert main(["check", "tic_tac_toe"]) == 3
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "rulecraft: internal error: RuntimeError: ray::play_batch() (pid=5073)"
    assert err[1].startswith("run again with --debug") and len(err) == 2


@pytest.mark.parametrize("bot, named", [("mcts:30:top1", "topK follows"), ("mcts:10:paired", "paired follows"),
                                        ("mcts:10:play:prior", "prior, play follow")])
def test_search_settings_that_follow_a_policy_are_refused_where_there_is_none(bot, named, capsys):
    # before, tic-tac-toe (no strategy, no 'prefer' line) ran them as a plain search
    assert main(["simulate", "tic_tac_toe", "--games", "1", "--bot", bot]) == 2
    err = capsys.readouterr().err
    assert named in err and "Tic-tac-toe has none" in err and len(err.strip().splitlines()) == 1
    assert bots.cannot_play("mcts:10:top2", load_checked("rules/connect_four")) is None  # its 'prefer' lines are one
