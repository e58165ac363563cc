"""The Panic Station strategy states no rule fact of its own: numbers such as the gas
cans that burn the Hive, full health or parasite damage, and which doors can be passed,
come from the rule set in play. These tests read the strategy's source and fail when a
rule fact is written into it again."""

from __future__ import annotations

import ast
import re
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from panic_station import ruleset

import rulecraft.rules.panic_station.strategy as strategy_package

STRATEGY_FILES = sorted(Path(strategy_package.__file__).parent.glob("*.py"))
BOT_FILES = sorted((Path(__file__).resolve().parent.parent / "bots").glob("*.py"))


def _trees():
    return [(path, ast.parse(path.read_text(encoding="utf-8"))) for path in STRATEGY_FILES + BOT_FILES]


def _names_in(node) -> set[str]:
    out = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            out.add(sub.id.lower())
        elif isinstance(sub, ast.Attribute):
            out.add(sub.attr.lower())
    return out


def test_the_strategy_is_registered_as_installed_code():
    found = {ep.name: ep.value for ep in entry_points(group="rulecraft.strategies")}
    assert found.get(ruleset().data.game.name) == "rulecraft.rules.panic_station.strategy:PanicStationStrategy"


def quantity_hits(trees, fact: str) -> list[str]:
    """A number of 2 or more compared with, or combined with, a rule quantity named
    ``fact`` (``gas >= 3``, ``4 - health``): a restated rule."""
    hits = []
    for path, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, (ast.Compare, ast.BinOp)):
                parts = [node.left, *node.comparators] if isinstance(node, ast.Compare) else [node.left, node.right]
                numbers = [p.value for p in parts if isinstance(p, ast.Constant) and type(p.value) is int and p.value >= 2]
                if numbers and any(fact in name for name in _names_in(node)):
                    hits.append(f"{path}:{node.lineno}: {ast.unparse(node)}")
    return hits


def copy_hits(trees, data) -> list[str]:
    """Copies of the rule set's tables, connection kinds or parameters."""
    damage_sides = set(data.tables["parasite_damage"])
    edges = set(data.board.edges)
    parameters = {name.upper() for name in data.parameters}
    hits = []
    for path, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
                if keys and keys <= damage_sides:
                    hits.append(f"{path}:{node.lineno}: a copy of the parasite_damage table")
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in edges:
                hits.append(f"{path}:{node.lineno}: the connection kind '{node.value}' (ask the rules' can_pass)")
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id in parameters:
                        hits.append(f"{path}:{node.lineno}: {target.id} restates a parameter")
    return hits


FACTS = ["gas", "health", "damage", "healing"]


@pytest.mark.parametrize("fact", FACTS)
def test_no_number_is_compared_with_or_combined_with_a_rule_quantity(fact):
    hits = quantity_hits(_trees(), fact)
    assert not hits, hits


def test_no_rule_table_connection_kind_or_parameter_is_copied_into_the_code():
    hits = copy_hits(_trees(), ruleset().data)
    assert not hits, hits


def test_the_checks_catch_the_literals_the_strategy_once_held():
    once = [("old.py", ast.parse(
        'GAS_CANS_TO_BURN = 3\nPARASITE_DAMAGE = {"gray": 1, "black": 2}\n'
        'burn = gas >= 3\nhurt = 4 - st.health.get(c, 4)\nhealed = min(missing, 2) * healing\n'
        'ok = conn == "open" or conn == "security"\n'))]
    assert len(copy_hits(once, ruleset().data)) == 4  # the parameter, the table, two connection kinds
    assert quantity_hits(once, "gas") and quantity_hits(once, "health")


def test_every_prompt_the_strategy_recognises_is_one_the_rules_ask():
    """The strategy tells some choices apart by their prompt: each piece of prompt it
    looks for must still be in a prompt of the rule files, or it would silently misplay."""
    prompts = set()
    rules_folder = Path(ruleset().root)
    for path in rules_folder.glob("*.rules"):
        prompts.update(re.findall(r'prompt "([^"]*)"', path.read_text(encoding="utf-8")))
    looked_for = []
    for path, tree in _trees():
        for node in ast.walk(tree):
            if (isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In)
                    and isinstance(node.comparators[0], ast.Name) and node.comparators[0].id == "prompt"
                    and isinstance(node.left, ast.Constant)):
                looked_for.append(node.left.value)
    assert looked_for, "the strategy no longer reads prompts: drop this test"
    missing = [text for text in looked_for if not any(text in p for p in prompts)]
    assert not missing, missing
