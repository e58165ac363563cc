"""Fixtures several test files share."""

from __future__ import annotations

import pytest


@pytest.fixture
def typed(monkeypatch):
    """Feed lines to input() on an 80×24 terminal; running out of lines is end of input.
    A file with a terminal of its own size defines its own ``typed``."""
    lines: list[str] = []

    def fake_input(prompt=""):
        if not lines:
            raise EOFError
        return lines.pop(0)

    monkeypatch.setattr("builtins.input", fake_input)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    return lambda *new: lines.extend(new)
