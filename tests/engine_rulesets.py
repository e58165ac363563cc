"""Tiny rule sets for the engine's own tests.

Each test writes the few YAML and rule lines it needs into a tmp folder and loads
them with :func:`build`. Nothing here knows any real game.
"""

from __future__ import annotations

import json
import random
import textwrap
from pathlib import Path

from rulecraft.dsl.diagnostics import RuleSetError
from rulecraft.dsl.loader import load_checked
from rulecraft.dsl.model import RuleSet
from rulecraft.interpreter.game import Game


def game_yaml(name: str = "tiny", players: tuple[int, int] = (1, 3), round_limit: int = 5,
              setup: str = "setup", round: str = "round", actions_per_turn_limit: int | None = None) -> str:
    """The ``game:`` section every rule set needs."""
    text = textwrap.dedent(f"""\
        game:
          name: {name}
          players: {{min: {players[0]}, max: {players[1]}}}
          setup: {setup}
          round: {round}
          round_limit: {round_limit}
        """)
    if actions_per_turn_limit is not None:
        text += f"  actions_per_turn_limit: {actions_per_turn_limit}\n"
    return text


# The least setup and round a rule set needs: nothing to set up, every player a turn.
QUIET_SETUP_AND_ROUND = """
procedure setup():
    do:
        stop

procedure round():
    do:
        for each p in players:
            play_turn(p)
"""


def write_ruleset(folder: Path, files: dict[str, str]) -> Path:
    """Write ``{file name: text}`` into ``folder`` (texts are dedented)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)  # "glossary/fr.yaml"
        (folder / name).write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return folder


def build(tmp_path: Path, files: dict[str, str], name: str = "ruleset") -> RuleSet:
    """Write a rule-set folder under ``tmp_path`` and load, check and compile it.

    A rule set with errors fails the test with every diagnostic rendered."""
    try:
        return load_checked(write_ruleset(tmp_path / name, files))
    except RuleSetError as err:
        raise AssertionError("the test's rule set does not load:\n" + err.bag.render()) from None


def load_errors(tmp_path: Path, files: dict[str, str]) -> str:
    """Write a rule set that must not load under ``tmp_path / "bad"``; its rendered
    diagnostics (the test fails if it loads)."""
    folder = write_ruleset(tmp_path / "bad", files)
    try:
        load_checked(folder)
    except RuleSetError as err:
        return err.bag.render()
    raise AssertionError("the rule set loaded, but should not have")


# ---------------------------------------------------------------- reading games


def events_of(game: Game, type_: str) -> list[dict]:
    return [e for e in game.events if e["type"] == type_]


def emitted(game: Game, type_: str = "q") -> dict:
    """``emit q(name: "...", value: ...)`` records, as {name: value}."""
    return {e["name"]: e["value"] for e in events_of(game, type_)}


def action_options(game: Game) -> list[dict]:
    """The pending action options without the always-present end_turn."""
    assert game.pending is not None and game.pending.kind == "action"
    return [o for o in game.pending.options if o["action"] != "end_turn"]


def option_key(option: dict) -> tuple:
    return option["action"], tuple(sorted(option.get("args", {}).items()))


def choose_action(game: Game, action: str, **args) -> None:
    """Answer the pending action choice with this action and these arguments."""
    wanted = {"action": action, "args": args} if action != "end_turn" else {"action": "end_turn"}
    options = game.pending.options
    assert wanted in options, f"{wanted} is not among {options}"
    game.choose(options.index(wanted))


def play_randomly(game: Game, seed: int, max_steps: int = 500) -> list[int]:
    """Answer every choice at random (but reproducibly); return the decisions made."""
    pick = random.Random(seed)
    steps = 0
    while not game.over and game.pending is not None:
        game.choose(pick.randrange(len(game.pending.options)))
        steps += 1
        assert steps < max_steps, "the game did not end"
    return list(game.decisions)


def json_roundtrip(value):
    return json.loads(json.dumps(value))
