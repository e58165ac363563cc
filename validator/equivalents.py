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
BASE = "base"  # an entry's word, in ``variants``, for the rules without any variant


@dataclass
class Equivalent:
    reason: str
    position: Position
    id: str | None = None
    at: str | None = None
    change: str | None = None
    # the rules it is equivalent in: "base" (no variant) and variant names; None: every one
    variants: list[str] | None = None

    def applies(self, variant: str | None) -> bool:
        """Whether the entry holds for the rules mutated with ``variant`` (None: the base alone)."""
        return self.variants is None or (variant or BASE) in self.variants

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
    return [Equivalent(e["reason"], located.position(["equivalent", i]), e.get("id"), e.get("at"), e.get("change"),
                       e.get("variants")) for i, e in enumerate(data.get("equivalent") or [])]


def check_variant_names(entries: list[Equivalent], known: list[str], bag: DiagnosticBag) -> None:
    """An entry's ``variants`` must name the base or variants the rule set has: a misspelt one
    would leave the mutant unmarked everywhere it was meant to be."""
    from rulecraft.dsl.diagnostics import did_you_mean

    for e in entries:
        for name in e.variants or []:
            if name != BASE and name not in known:
                close = did_you_mean(name, [BASE, *known])
                bag.error(f"the equivalent mutant's variants name '{name}', which is no variant of the rule set",
                          e.position, close or f"write '{BASE}' for the rules without a variant, or one of: "
                          + (", ".join(known) or "(the rule set has no variant)"))


def mark(mutants: list[Mutant], entries: list[Equivalent],
         variant: str | None = None) -> tuple[dict[str, Equivalent], list[Equivalent]]:
    """Mutant id → its entry, and the stale entries (matching no mutant), of the entries that
    hold for the rules mutated with ``variant``."""
    marked: dict[str, Equivalent] = {}
    stale = []
    for e in entries:
        if not e.applies(variant):
            continue
        hits = [m for m in mutants if e.matches(m)]
        if not hits:
            stale.append(e)
        for m in hits:
            marked[m.id] = e
    return marked, stale
