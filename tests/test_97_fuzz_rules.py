"""Fuzzing: generated and mutated rule files, YAML tables and scenario files never make
loading, checking, compiling, starting a game or running a scenario raise anything
but a located error, and never hang. A short seeded sample runs with every test run;
RULECRAFT_FUZZ_EXAMPLES runs more (docs/fuzzing.md)."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from fuzz_rulesets import (SMALL_RULES, SMALL_YAML, TALLY, Scratch, definitions_of, fuzz_settings, load_and_start,
                           mutate, rule_texts, shipped_files, shipped_ruleset, shipped_scenarios, within,
                           yaml_documents)
from hypothesis import given
from hypothesis import strategies as st

from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.validator.runner import run_scenario
from rulecraft.validator.scenario import load_file

SHIPPED_RULES = shipped_files(".rules")
SHIPPED_YAML = shipped_files(".yaml")
SHIPPED_DEFINITIONS = [d.encode() for text in SHIPPED_RULES.values() for d in definitions_of(text.decode())]
EVERY_SHIPPED_FILE = list(SHIPPED_RULES.values()) + list(SHIPPED_YAML.values())
SMALL = {"game.yaml": SMALL_YAML, "base.rules": SMALL_RULES}
SMALL_WITHOUT_SETUP = SMALL_RULES[SMALL_RULES.index(b"procedure round"):]

seeds = st.integers(0, 2**32 - 1)
_scratch: dict[str, Scratch] = {}


def scratch(name: str, base: dict[str, bytes]) -> Scratch:
    if name not in _scratch:
        _scratch[name] = Scratch(base)
    return _scratch[name]


@fuzz_settings(sample=150, share=0.3)
@given(rule_texts)
def test_rule_text_written_from_the_grammar_loads_with_located_errors_only(text):
    files = {"fuzz.rules": text.encode()}
    if "procedure setup(" in text:  # the generated setup runs in place of the small one
        files["base.rules"] = SMALL_WITHOUT_SETUP
    load_and_start(scratch("small", SMALL).write(files))


@fuzz_settings(sample=150, share=0.35)
@given(seeds)
def test_mutated_shipped_definitions_load_with_located_errors_only(seed):
    rng = random.Random(seed)
    picked = b"\n".join(rng.choice(SHIPPED_DEFINITIONS) for _ in range(rng.randint(1, 3)))
    text = mutate(picked, rng, SHIPPED_DEFINITIONS)
    load_and_start(scratch("small", SMALL).write({"fuzz.rules": text}))


@fuzz_settings(sample=60, share=0.15)
@given(seeds)
def test_a_mutated_shipped_yaml_table_loads_with_located_errors_only(seed):
    rng = random.Random(seed)
    name = rng.choice(sorted(SHIPPED_YAML))
    text = mutate(SHIPPED_YAML[name], rng, list(SHIPPED_YAML.values()))
    load_and_start(scratch("yaml", {"base.rules": SMALL_RULES}).write({name: text}))


@fuzz_settings(sample=60, share=0.14)
@given(yaml_documents, st.booleans())
def test_yaml_written_from_the_schema_words_loads_with_located_errors_only(document, beside_a_game):
    base = SMALL if beside_a_game else {"base.rules": SMALL_RULES}
    load_and_start(scratch("small" if beside_a_game else "yaml", base).write({"fuzz.yaml": document}))


@fuzz_settings(sample=8, share=0.01)
@given(seeds)
def test_the_shipped_rule_set_with_one_file_mutated_loads_with_located_errors_only(seed):
    rng = random.Random(seed)
    files = {**SHIPPED_RULES, **SHIPPED_YAML}
    name = rng.choice(sorted(files))
    load_and_start(scratch("shipped", files).write({name: mutate(files[name], rng, EVERY_SHIPPED_FILE)}))


@fuzz_settings(sample=30, share=0.05)
@given(seeds)
def test_mutated_scenario_files_load_and_run_with_located_errors_only(seed):
    rng = random.Random(seed)
    scenarios = shipped_scenarios()
    name = rng.choice(sorted(scenarios))
    path = Path(tempfile.gettempdir()) / f"rulecraft-fuzz-scenario-{seed}.yaml"
    path.write_bytes(mutate(scenarios[name], rng, list(scenarios.values())))
    ruleset = shipped_ruleset()
    try:
        with TALLY.counting(), within():
            bag = DiagnosticBag()
            loaded = load_file(path, bag)
            bag.render()
            for scenario in loaded.scenarios[:2]:
                run_scenario(ruleset, scenario)
    finally:
        path.unlink()
