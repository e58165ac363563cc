"""Equivalent mutants: changes to a rule set that no game can tell apart.

They are listed, each with its reason, in ``mutants.yaml`` beside the rule set
(``schemas/mutants.schema.json``) by mutant id, or by location and change (its arrow
written ``→`` as mutate prints it, or ``->``). `rulecraft
mutate` does not run them and counts them apart; an entry that matches no mutant any
more (the rules moved on) is reported as stale.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from rulecraft.dsl.diagnostics import DiagnosticBag, Position
from rulecraft.dsl.loader import EQUIVALENTS_FILE
from rulecraft.dsl.yaml_data import load_yaml_text, validate

from .mutants import Mutant

SCHEMA = "mutants.schema.json"


@dataclass
class Equivalent:
    reason: str
    position: Position
    id: str | None = None
    at: str | None = None
    change: str | None = None

    def matches(self, m: Mutant) -> bool:
        if self.id is not None:
            return m.id == self.id
        return m.location == self.at and self.change is not None and _arrows(m.change) == _arrows(self.change)


def _arrows(change: str) -> str:
    """A change as mutate prints it (``0 → 1``), whether written with that arrow or with
    ``->``, and whatever the spaces around the arrow."""
    return re.sub(r"\s*(?:→|->)\s*", " → ", " ".join(change.split()))


def load_equivalents(root: Path, bag: DiagnosticBag, display: str | None = None) -> list[Equivalent]:
    path = root / EQUIVALENTS_FILE
    if not path.is_file():
        return []
    file = display or str(path)
    data, located = load_yaml_text(path.read_text(encoding="utf-8"), file, bag)
    if located.root is None or not validate(data, SCHEMA, located, bag) or not isinstance(data, dict):
        return []
    return [Equivalent(e["reason"], located.position(["equivalent", i]), e.get("id"), e.get("at"), e.get("change"))
            for i, e in enumerate(data.get("equivalent") or [])]


def mark(mutants: list[Mutant], entries: list[Equivalent]) -> tuple[dict[str, Equivalent], list[Equivalent]]:
    """Mutant id → its entry, and the stale entries (matching no mutant)."""
    marked: dict[str, Equivalent] = {}
    stale = []
    for e in entries:
        hits = [m for m in mutants if e.matches(m)]
        if not hits:
            stale.append(e)
        for m in hits:
            marked[m.id] = e
    return marked, stale
