"""Scenario files: YAML checked by ``schemas/scenario.schema.json``, every problem located.

A scenario file holds one scenario (a mapping with ``title``) or several under
``scenarios:``. Each :class:`Scenario` keeps the YAML positions of its parts, so a
step or an expectation that fails can be reported at its line and column.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulecraft.dsl.diagnostics import DiagnosticBag, Position, did_you_mean
from rulecraft.dsl.source_text import read_source_text
from rulecraft.dsl.yaml_data import Located, load_yaml_text, validate

SCHEMA = "scenario.schema.json"

# The keys of a step that say what it does; a step has exactly one of them.
STEP_VERBS = ("do", "choose", "choose_index", "react", "call", "end_turn", "roll", "arrange", "expect")
# Keys a step may carry besides its verb, and the verbs they go with.
STEP_EXTRAS = {"args": ("do", "react", "call"), "by": ("do", "choose", "choose_index", "react", "end_turn"), "text": STEP_VERBS}

# The per-player zone a setup block's `deal` and `hands` put cards in, unless it names
# another (`hand_zone`).
HAND = "hand"

# Files of a scenario folder that are not scenarios.
NOT_SCENARIOS = {"sections.yaml"}


@dataclass(eq=False)
class Scenario:
    title: str
    cite: str
    file: str
    located: Located
    path: list  # where the scenario's mapping lies in its file: [] or ["scenarios", i]
    text: str | None = None
    variant: str | None = None
    known_failure: str | None = None  # why the rule set does not follow the rulebook here yet
    players: int | None = None
    seed: int = 1
    seed_given: bool = False  # the scenario names its seed: the setup it deals is meant
    game_setup: dict = field(default_factory=dict)  # what the game's own setup starts from: fixed draws, starting values
    setup: dict = field(default_factory=dict)
    steps: list[dict] = field(default_factory=list)
    expect: dict | None = None

    def position(self, *path) -> Position:
        """The YAML position of a part of this scenario (``"steps", 2, "args"``)."""
        return self.located.position(self.path + list(path))

    def key_position(self, *path) -> Position:
        return self.located.key_position(self.path + list(path))

    @property
    def where(self) -> Position:
        return self.key_position("title")


@dataclass
class ScenarioFile:
    file: str
    scenarios: list[Scenario]
    ok: bool  # False: the file did not load or broke the schema (already reported)


def load_text(text: str, file: str, bag: DiagnosticBag) -> ScenarioFile:
    """Parse and schema-check one scenario file's text; problems go to ``bag``."""
    before = len(bag.errors)
    data, located = load_yaml_text(text, file, bag)
    if located.root is None:
        if len(bag.errors) == before:
            bag.error("the scenario file is empty", Position(file, 1, 1), "write a scenario with a title and a cite")
        return ScenarioFile(file, [], False)
    schema_start = len(bag.items)
    if not validate(data, SCHEMA, located, bag):
        steps = DiagnosticBag()
        _check_raw_steps(data, located, file, steps)
        # A step the schema refused and that does nothing or two things is one mistake:
        # the step check's words say it better, so the schema's at that step go.
        said = {d.position for d in steps.items}
        bag.items[schema_start:] = [d for d in bag.items[schema_start:] if d.position not in said]
        bag.extend(steps.items)
        return ScenarioFile(file, [], False)
    if "scenarios" in data:
        items = [(item, ["scenarios", i]) for i, item in enumerate(data["scenarios"])]
    else:
        items = [(data, [])]
    scenarios, in_steps = [], 0
    for item, path in items:
        sc = Scenario(
            title=item["title"], cite=item["cite"], file=file, located=located, path=path,
            text=item.get("text"), variant=item.get("variant"), known_failure=item.get("known_failure"),
            players=item.get("players"),
            seed=item.get("seed", 1), seed_given="seed" in item, game_setup=item.get("game_setup") or {}, setup=item.get("setup") or {}, steps=list(item.get("steps") or []),
            expect=item.get("expect"))
        steps_before = len(bag.errors)
        check_steps(sc, bag)
        in_steps += len(bag.errors) - steps_before
        scenarios.append(sc)
    # a step that does nothing (or two things) breaks its scenario, which the runner then
    # reports as broken, not the file, whose other scenarios still run
    return ScenarioFile(file, scenarios, len(bag.errors) - in_steps == before)


def load_file(path: str | Path, bag: DiagnosticBag, display: str | None = None) -> ScenarioFile:
    path = Path(path)
    file = display or str(path)
    text = read_source_text(path, bag, file)  # an unreadable file is a located error like any other
    if text is None:
        return ScenarioFile(file, [], False)
    return load_text(text, file, bag)


INSIDE = "scenarios"  # a rule set's own folder of scenarios, beside its tables and rules


def default_folder(ruleset_root: str | Path, game_name: str) -> Path:
    """Where a rule set's scenarios are when no folder is given: its own ``scenarios/``
    folder when it has one (a rule set kept in one folder), else ``seeds/<game>`` next to
    the folder that holds it (``rules/<game>`` beside ``seeds/<game>``)."""
    root = Path(ruleset_root).resolve()
    inside = root / INSIDE
    return inside if inside.is_dir() else root.parent.parent / "seeds" / game_name


def scenario_files(folder: str | Path) -> list[Path]:
    """The scenario files of a folder, in name order (sub-folders are not read)."""
    folder = Path(folder)
    return sorted(p for p in folder.iterdir()
                  if p.suffix in (".yaml", ".yml") and p.name not in NOT_SCENARIOS and p.is_file())


def load_variant_scenarios(root: str | Path, chain: list[str], bag: DiagnosticBag,
                           display=str) -> list[ScenarioFile]:
    """The scenarios each variant of ``chain`` keeps in its own folder, each marked as
    that variant's (it holds for the variant and the variants built on it)."""
    from rulecraft.dsl.variants import variant_scenario_files

    files = []
    for name, path in variant_scenario_files(Path(root), chain):
        files.append(load_file(path, bag, display(path)))
        for sc in files[-1].scenarios:
            sc.variant = sc.variant or name
    return files


def check_superseded(superseded_at: dict[str, Position], files: list[ScenarioFile], bag: DiagnosticBag) -> list[str]:
    """The titles a variant marks superseded that no scenario has, each reported at its
    line in the variant's file; a title that may be in a file that did not load is not
    (that file's own errors are the mistake)."""
    titles = [sc.title for f in files for sc in f.scenarios]
    unloaded = [" ".join("\n".join(bag.sources.lines(f.file)).split()) for f in files if not f.ok]
    missing = []
    for title, where in superseded_at.items():
        if title in titles or any(" ".join(title.split()) in text for text in unloaded):
            continue
        missing.append(title)
        bag.error("the variant supersedes a scenario that does not exist", where,
                  did_you_mean(title, titles) or "write the scenario's title exactly as its 'title:' line has it",
                  code="scenario")
    return missing


def functions_asked_in(paths: list[Path]) -> set[str]:
    """The rule-set functions the scenario files ``paths`` ask (``expect: functions:``, in
    a step or the last expectation), read quickly for ``check``: the YAML only, without
    the schema; a file that does not read adds nothing (``verify`` reports it)."""
    asked: set[str] = set()
    for path in paths:
        text = read_source_text(Path(path), DiagnosticBag(), str(path))
        if text is None:
            continue
        data, _ = load_yaml_text(text, str(path), DiagnosticBag())
        items = data.get("scenarios") if isinstance(data, dict) and "scenarios" in data else [data]
        for item in items if isinstance(items, list) else []:
            if not isinstance(item, dict):
                continue
            steps = item.get("steps") if isinstance(item.get("steps"), list) else []
            blocks = [step.get("expect") for step in steps if isinstance(step, dict)] + [item.get("expect")]
            for block in blocks:
                listed = block.get("functions") if isinstance(block, dict) else None
                asked.update(entry["function"] for entry in (listed if isinstance(listed, list) else [])
                             if isinstance(entry, dict) and isinstance(entry.get("function"), str))
    return asked


def asked_functions(sc: Scenario) -> list[str]:
    """The rule-set functions a scenario's expectations ask (``functions:``), in order."""
    blocks = [step["expect"] for step in sc.steps if isinstance(step.get("expect"), dict)]
    blocks += [sc.expect] if isinstance(sc.expect, dict) else []
    return [item["function"] for block in blocks for item in block.get("functions") or []
            if isinstance(item, dict) and isinstance(item.get("function"), str)]


def step_verb(step: dict) -> str | None:
    verbs = [v for v in STEP_VERBS if v in step]
    return verbs[0] if len(verbs) == 1 else None


def check_steps(sc: Scenario, bag: DiagnosticBag) -> None:
    """What the schema cannot say well: a step does exactly one thing."""
    for i, step in enumerate(sc.steps):
        verbs = [v for v in STEP_VERBS if v in step]
        if not verbs:
            hint = "a step has one of: " + ", ".join(STEP_VERBS)
            if "text" in step:  # a text says what the step it is on shows; alone it shows nothing
                hint = "a 'text' goes on the step it explains, beside what that step does (" + ", ".join(STEP_VERBS) + ")"
            bag.error(f"step {i + 1} does nothing", sc.position("steps", i), hint, code="scenario")
            continue
        if len(verbs) > 1:
            bag.error(f"step {i + 1} has {' and '.join(verbs)}: a step does one thing",
                      sc.key_position("steps", i, verbs[1]), "split it into two steps", code="scenario")
            continue
        for extra, verbs_ok in STEP_EXTRAS.items():
            if extra in step and verbs[0] not in verbs_ok:
                bag.error(f"'{extra}' does not go with '{verbs[0]}'", sc.key_position("steps", i, extra),
                          f"'{extra}' goes with: " + ", ".join(verbs_ok), code="scenario")


def _check_raw_steps(data: Any, located: Located, file: str, bag: DiagnosticBag) -> None:
    """After schema errors, still point at steps that do two things or nothing."""
    if not isinstance(data, dict):
        return
    items = data.get("scenarios") if "scenarios" in data else [data]
    if not isinstance(items, list):
        return
    for i, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("steps"), list):
            continue
        if not all(isinstance(step, dict) for step in item["steps"]):
            continue
        path = ["scenarios", i] if "scenarios" in data else []
        sc = Scenario(str(item.get("title")), str(item.get("cite")), file, located, path, steps=item["steps"])
        check_steps(sc, bag)
