"""Running one scenario written in a test, and telling why it did not pass.

Tests of the scenario format write a scenario as YAML text, run it against a tiny rule
set and look at its status, its divergence or its located errors."""

from __future__ import annotations

import textwrap

from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.validator import BROKEN, load_text, run_scenario


def run_one(ruleset, text: str, file: str, variant: str | None = None):
    """The result of the first scenario of ``text``, read as if from ``file``."""
    bag = DiagnosticBag()
    loaded = load_text(textwrap.dedent(text), file, bag)
    assert loaded.ok, bag.render()
    return run_scenario(ruleset, loaded.scenarios[0], variant)


def explain(result) -> str:
    """Why a scenario did not pass, for an assertion's message: its located errors, or
    where it diverged and each expectation that did not hold."""
    if result.bag is not None:
        return result.bag.render()
    d = result.divergence
    if d is None:
        return result.status
    lines = [f"{d.label} at {d.position}: {d.message}"]
    lines += [f"  {m.what}: expected {m.expected!r}, actual {m.actual!r} ({m.note})" for m in d.mismatches]
    return "\n".join(lines)


def errors_in(result, file: str) -> list:
    """The located errors of a BROKEN scenario, every one of them in ``file``."""
    assert result.status == BROKEN, explain(result)
    assert all(d.position.file == file for d in result.bag.errors), result.bag.render()
    return result.bag.errors


def only_error_in(result, file: str):
    """The one located error of a BROKEN scenario, in ``file``."""
    found = errors_in(result, file)
    assert len(found) == 1, result.bag.render()
    return found[0]


def caret_text(text: str, d) -> tuple[int, str]:
    """The line of a scenario error in ``text`` and the text its caret runs under."""
    line = textwrap.dedent(text).splitlines()[d.position.line - 1]
    return d.position.line, line[d.position.column - 1:d.position.end_column - 1]
