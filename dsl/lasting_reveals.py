"""A property revealed once and set again later shows its later values too.

`reveal x.prop` lasts until `hide` takes it back, whatever value the property holds
meanwhile. A secret vote kept in an owner-only property, revealed once the votes are in
and cast again next round, is then shown to everyone as each player casts it: the rules
read as if each round's votes were sealed, and only the second round shows they are
not. This warns at such a reveal: a property revealed, hidden nowhere, and set by a rule
that runs while the game is played (not only by the setup) and goes with the reveal:
the same rule, or two steps of one procedure (cast the votes, then show them). A
property set by an unrelated rule (a secret identity chosen in the turn its player
reveals it, never to change again) is left alone: telling those apart needs more than
the rules' text, and a warning that is often wrong teaches nobody anything.
"""

from __future__ import annotations

from . import ast
from .diagnostics import DiagnosticBag
from .lookahead import statements_in
from .model import RuleSet


def warn_lasting_reveals(ruleset: RuleSet, bag: DiagnosticBag) -> None:
    definitions = list(ruleset.definitions.values())
    calls = _procedure_calls(definitions)
    played = _run_while_playing(ruleset, definitions, calls)
    sets: dict[str, list[tuple[str, ast.Set]]] = {}  # property → (definition, set) run in play
    reveals: list[tuple[str, str, ast.Reveal]] = []
    hidden: set[str] = set()
    for d in definitions:
        for s in statements_in(getattr(d, "body", None)):
            if isinstance(s, ast.Set) and d.name in played and len(s.target) >= 2 \
                    and s.target[0] not in ("game", "turn"):
                sets.setdefault(s.target[-1], []).append((d.name, s))
            elif isinstance(s, ast.Reveal) and isinstance(s.target, ast.Attr):
                if s.hide:
                    hidden.add(s.target.name)
                else:
                    reveals.append((s.target.name, d.name, s))
    for prop, where_revealed, reveal in reveals:
        if prop in hidden:
            continue
        again = next((s for d, s in sets.get(prop, []) if _together(d, where_revealed, calls)), None)
        if again is None:
            continue
        written = ast.written_name(reveal.target)
        where = f"{again.pos.file}:{again.pos.line}" if again.pos is not None else "elsewhere"
        bag.warning(f"'{written}' stays shown once revealed, so every later value it is set to is shown too "
                    f"as it is set ({prop} is set again at {where}), and nothing hides it",
                    reveal.pos, f"hide it again before it takes a value that must be secret ('hide {written}'), "
                    "as a new round's sealed vote is hidden before it is cast", code="leak")


def _procedure_calls(definitions: list) -> dict[str, set[str]]:
    """Each definition → the procedures its steps call."""
    return {d.name: {s.func for s in statements_in(getattr(d, "body", None))
                     if isinstance(s, ast.CallStmt) and getattr(s, "ref", None) == ("procedure", s.func)}
            for d in definitions}


def _together(a: str, b: str, calls: dict[str, set[str]]) -> bool:
    """The same rule, or two procedures one procedure calls as its steps."""
    return a == b or any(a in callees and b in callees for callees in calls.values())


def _run_while_playing(ruleset: RuleSet, definitions: list, calls: dict[str, set[str]]) -> set[str]:
    """The definitions that may run once the game is under way: every rule but the setup
    procedure and what only it calls (functions set nothing, so they do not matter)."""
    game = ruleset.data.game  # None when game.yaml did not load: its own error says so
    setup, round_ = (game.setup, game.round) if game is not None else (None, None)
    todo = [d.name for d in definitions if d.name != setup and (d.kind != "procedure" or d.name == round_)]
    todo += [d.name for d in definitions if d.kind == "procedure" and not _called(d.name, calls) and d.name != setup]
    played: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in played:
            played.add(name)
            todo.extend(calls.get(name, ()))
    return played


def _called(name: str, calls: dict[str, set[str]]) -> bool:
    return any(name in callees for callees in calls.values())
