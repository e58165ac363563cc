"""Hostile inputs for rule files, YAML tables and scenario files, and the property every
one of them must keep: loading, checking, compiling, starting a game and running a
scenario end in located diagnostics or a located rule error, never in another
exception, and never take longer than a per-input time limit.

Two sources of inputs: Hypothesis strategies that write rule text from the grammar's
words (definitions, clauses, statements, expressions nested at random), and seeded
mutations of the shipped Panic Station files (bytes flipped, files cut short or spliced
together, deep nesting and huge numbers pasted in, other encodings).

How many examples each fuzz test runs: ``RULECRAFT_FUZZ_EXAMPLES`` (the normal test run
uses a short sample; docs/fuzzing.md describes the long run).
"""

from __future__ import annotations

import os
import random
import re
import signal
import tempfile
import textwrap
import time
from contextlib import contextmanager
from pathlib import Path

import yaml
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from rulecraft.dsl.compiler import compile_ruleset
from rulecraft.dsl.loader import load_checked, load_ruleset
from rulecraft.dsl.model import RuleSet
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import RuleRuntimeError

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "rules" / "panic_station"
SHIPPED_SCENARIOS = ROOT / "seeds" / "panic_station"

# Seconds one input may take before it counts as a hang (the slowest ordinary input, a
# whole Panic Station load on a busy machine, takes about one).
PER_INPUT_SECONDS = float(os.environ.get("RULECRAFT_FUZZ_TIMEOUT", "30"))


def fuzz_settings(sample: int, share: float) -> settings:
    """Seeded (derandomized) settings: ``sample`` examples in an ordinary test run; with
    RULECRAFT_FUZZ_EXAMPLES=N, this test's ``share`` of N (the shares of the fuzz tests
    add up to 1, weighted towards the cheap inputs)."""
    total = os.environ.get("RULECRAFT_FUZZ_EXAMPLES")
    examples = max(1, round(int(total) * share)) if total else sample
    return settings(max_examples=examples, derandomize=True, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck), print_blob=True)


class Hang(AssertionError):
    """An input took longer than PER_INPUT_SECONDS."""


@contextmanager
def within(seconds: float = PER_INPUT_SECONDS):
    """Fail with Hang if the body runs longer than ``seconds`` (SIGALRM: main thread only)."""
    def ring(signum, frame):
        raise Hang(f"the input took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# ---------------------------------------------------------------- the property


@contextmanager
def no_disk_cache():
    """Fuzzed texts are seen once: storing their parses would only fill the cache."""
    before = os.environ.get("RULECRAFT_NO_CACHE")
    os.environ["RULECRAFT_NO_CACHE"] = "1"
    try:
        yield
    finally:
        if before is None:
            del os.environ["RULECRAFT_NO_CACHE"]
        else:
            os.environ["RULECRAFT_NO_CACHE"] = before


class Tally:
    """Inputs tried, internal errors and hangs, written to RULECRAFT_FUZZ_PROGRESS (if set)
    every few hundred inputs, so a long run can be watched, and its figures are known
    even if it is stopped before the end."""

    def __init__(self):
        self.inputs = self.internal_errors = self.hangs = 0
        self.started = time.monotonic()

    @contextmanager
    def counting(self):
        self.inputs += 1
        try:
            yield
        except Hang:
            self.hangs += 1
            self.write(force=True)
            raise
        except BaseException:
            self.internal_errors += 1
            self.write(force=True)
            raise
        self.write()

    def write(self, force: bool = False) -> None:
        path = os.environ.get("RULECRAFT_FUZZ_PROGRESS")
        if path and (force or self.inputs % 250 == 0):
            Path(path).write_text(f"inputs {self.inputs} internal_errors {self.internal_errors} hangs {self.hangs} "
                                  f"seconds {time.monotonic() - self.started:.0f}\n")


TALLY = Tally()


def load_and_start(folder: Path) -> RuleSet:
    """Load and check a rule-set folder; if it has no errors, compile it and start a game.

    Any exception but a located rule error (RuleRuntimeError) fails the caller."""
    with TALLY.counting(), within(), no_disk_cache():
        ruleset = load_ruleset(folder)
        ruleset.bag.render()  # quoting odd lines with a caret must not fail either
        if ruleset.ok:
            compile_ruleset(ruleset)
            game = ruleset.data.game
            try:
                Game(ruleset, game.min_players, seed=1)
            except RuleRuntimeError:
                pass
            except ValueError as err:  # only the player count may be refused (a bad players: section)
                assert "is played by" in str(err), err
    return ruleset


class Scratch:
    """A rule-set folder rewritten for each input (one per process)."""

    def __init__(self, base_files: dict[str, bytes]):
        self.folder = Path(tempfile.mkdtemp(prefix="rulecraft-fuzz-")) / "rules"
        self.base = dict(base_files)

    def write(self, files: dict[str, bytes]) -> Path:
        wanted = {**self.base, **files}
        self.folder.mkdir(parents=True, exist_ok=True)
        for path in self.folder.iterdir():
            if path.name not in wanted:
                path.unlink()
        for name, content in wanted.items():
            (self.folder / name).write_bytes(content)
        return self.folder


# A small rule set the generated definitions are checked in: one of everything the
# language names (kinds, zones, a parameter, a table, dice, variables, an event).
SMALL_YAML = textwrap.dedent("""\
    game:
      name: fuzz
      players: {min: 1, max: 3}
      setup: setup
      round: round
      round_limit: 3
    kinds:
      player:
        properties:
          score: {type: number, default: 0}
          hand_size: {type: number, default: 2}
      card:
        located_in: zone
        properties:
          power: {type: number, default: 1}
    zones:
      deck: {}
      discard: {}
      hand: {per_player: true}
    components:
      - {name: c, kind: card, count: 4, zone: deck}
    parameters:
      few:
        value: 3
    tables:
      costs: {a: 1, b: 2}
    dice:
      d6: [1, 2, 3, 4, 5, 6]
    variables:
      game:
        total: {type: number, default: 0}
        seen: list of card
      turn:
        moves: {type: number, default: 0}
    """).encode()

SMALL_RULES = textwrap.dedent("""\
    procedure setup():
        do:
            shuffle deck

    procedure round():
        do:
            for each p in players:
                play_turn(p)
    """).encode()


def shipped_files(suffix: str) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(SHIPPED.glob(f"*{suffix}"))}


def shipped_scenarios() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(SHIPPED_SCENARIOS.glob("*.yaml")) if p.name != "sections.yaml"}


def definitions_of(text: str) -> list[str]:
    """The top-level definitions of a rule file, each as its own text."""
    chunks, current = [], []
    for line in text.splitlines(keepends=True):
        if line[:1].isalpha() and current:
            chunks.append("".join(current))
            current = []
        current.append(line)
    if current:
        chunks.append("".join(current))
    return [c for c in chunks if c.strip() and not c.lstrip().startswith("#")]


# ---------------------------------------------------------------- mutations

_ODD_BYTES = [b"\x00", b"\x07", b"\x1b", b"\x7f", b"\xff", b"\xfe", b"\xc3", b"\xe9", b"\r", b"\t", b"\x0c",
              b"\xe2\x80\xa8", b"\xef\xbb\xbf", b"\xf0\x9f\x8e\xb2", b"\"", b"'", b"\\", b":", b"#", b"(", b"[",
              b"{", b"&a", b"*a", b"!!python/object:os.system", b"- ", b"\n", b"\n    ", b"\n\t"]


def _deep(rng: random.Random) -> bytes:
    n = rng.choice([60, 99, 101, 150, 240, 500, 3000])
    kind = rng.randrange(7)
    if kind == 0:
        return b"(" * n + b"1" + b")" * n
    if kind == 1:
        return b"not " * n + b"true"
    if kind == 2:
        return b" + ".join([b"1"] * n)
    if kind == 3:
        return b"[" * n + b"]" * n
    if kind == 4:
        return b"".join(b"\n" + b"    " * (i + 2) + b"if true:" for i in range(min(n, 300))) + b"\n" + b"    " * (min(n, 300) + 2) + b"stop\n"
    if kind == 5:
        return b"{a: " * n + b"1" + b"}" * n
    return b"- " * n + b"1"


def _huge_number(rng: random.Random) -> bytes:
    return rng.choice(b"123456789").to_bytes(1, "big") + b"0" * rng.choice([14, 15, 16, 30, 4299, 4300, 4301, 6000])


def mutate(data: bytes, rng: random.Random, others: list[bytes]) -> bytes:
    """One to three random edits of ``data``: flips, cuts, splices, pasted depth and numbers."""
    for _ in range(rng.randint(1, 3)):
        n = len(data)
        at = rng.randint(0, n)
        kind = rng.randrange(12)
        if kind == 0 and n:  # flip bits
            raw = bytearray(data)
            for _ in range(rng.randint(1, 8)):
                i = rng.randrange(n)
                raw[i] ^= 1 << rng.randrange(8)
            data = bytes(raw)
        elif kind == 1:  # cut short
            data = data[:at]
        elif kind == 2 and others:  # splice another file in
            other = rng.choice(others)
            a = rng.randint(0, len(other))
            data = data[:at] + other[a:a + rng.randint(0, 2000)] + data[at:]
        elif kind == 3:  # delete a stretch
            data = data[:at] + data[at + rng.randint(1, 400):]
        elif kind == 4:  # repeat a stretch
            data = data[:at] + data[at:at + rng.randint(1, 300)] * rng.randint(2, 20) + data[at:]
        elif kind == 5:
            data = data[:at] + _deep(rng) + data[at:]
        elif kind == 6:
            data = data[:at] + _huge_number(rng) + data[at:]
        elif kind == 7:
            data = data[:at] + b"".join(rng.choice(_ODD_BYTES) for _ in range(rng.randint(1, 6))) + data[at:]
        elif kind == 8:  # swap two lines
            lines = data.split(b"\n")
            if len(lines) > 2:
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
        elif kind == 9:  # re-indent a line
            lines = data.split(b"\n")
            if lines:
                i = rng.randrange(len(lines))
                lines[i] = b" " * rng.choice([0, 1, 2, 3, 5, 8, 13, 40]) + lines[i].lstrip()
            data = b"\n".join(lines)
        elif kind == 10:  # random bytes
            data = data[:at] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 20))) + data[at:]
        else:  # another encoding
            text = data.decode("utf-8", errors="replace")
            data = text.encode(rng.choice(["utf-16", "utf-16-be", "utf-32", "latin-1", "utf-8-sig"]), errors="replace")
    return data


# ---------------------------------------------------------------- rule text from the grammar

NAMES = ["x", "y", "p", "c", "n", "players", "current_player", "round_number", "turn_number", "deck", "discard",
         "hand", "card", "player", "game", "turn", "few", "costs", "d6", "total", "event", "setup", "round",
         "score", "power", "count", "first", "sum", "roll", "random", "without", "take", "len", "unknown"]
RESERVED = ["if", "do", "not", "list", "none", "stop", "each"]
FIELDS = ["score", "power", "hand_size", "total", "moves", "seen", "at", "id", "x", "kind"]
TYPES = ["number", "bool", "text", "player", "card", "zone", "list of card", "list of player", "card?", "thing"]
EVENTS = ["round_started", "turn_ended", "changed", "action_taken", "q", "alarm", "moved"]

# now and then a reserved word where a name is due
names = st.one_of(*[st.sampled_from(NAMES)] * 7, st.sampled_from(RESERVED))


def _p(e: str) -> str:
    """An operand: bracketed unless a single word, so that most generated text parses
    (the parser's own precedence is fuzzed by the token soup and the mutations)."""
    return e if re.fullmatch(r'[A-Za-z_0-9]+|"[^"]*"', e) else f"({e})"


def _wrap(op: str):
    return lambda parts: f"{_p(parts[0])} {op} {_p(parts[1])}"


expressions = st.recursive(
    st.one_of(
        st.integers(-5, 12).map(str),
        st.sampled_from(["0", "1", "3", "999999999999999", "9999999999999999", '"a"', '""', '"x\\"y"', "true",
                         "false", "none", "[]"]),
        names,
    ),
    lambda inner: st.one_of(
        st.tuples(inner, inner).map(_wrap("+")),
        st.tuples(inner, inner).map(_wrap("-")),
        st.tuples(inner, inner).map(_wrap("*")),
        st.tuples(inner, inner).map(_wrap("//")),
        st.tuples(inner, inner).map(_wrap("%")),
        st.tuples(inner, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), inner).map(
            lambda t: f"{_p(t[0])} {t[1]} {_p(t[2])}"),
        st.tuples(inner, inner).map(_wrap("and")),
        st.tuples(inner, inner).map(_wrap("or")),
        st.tuples(inner, inner).map(_wrap("in")),
        st.tuples(inner, inner).map(_wrap("not in")),
        inner.map(lambda e: f"not {_p(e)}"),
        inner.map(lambda e: f"-{_p(e)}"),
        inner.map(lambda e: f"({e})"),
        st.tuples(inner, st.sampled_from(FIELDS)).map(lambda t: f"{_p(t[0]) if not t[0].isdigit() else f'({t[0]})'}.{t[1]}"),
        st.tuples(inner, inner).map(lambda t: f"{_p(t[0])}[{t[1]}]"),
        st.tuples(names, st.lists(inner, max_size=3)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.lists(inner, max_size=4).map(lambda items: f"[{', '.join(items)}]"),
        st.tuples(inner, names, inner, st.none() | inner).map(
            lambda t: f"[{t[0]} for {t[1]} in {t[2]}" + (f" where {t[3]}]" if t[3] else "]")),
        st.tuples(inner, inner, inner).map(lambda t: f"{_p(t[0])} if {_p(t[1])} else {_p(t[2])}"),
    ),
    max_leaves=12,
)


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


simple_statements = st.one_of(
    st.tuples(names, expressions).map(lambda t: [f"let {t[0]} = {t[1]}"]),
    st.tuples(st.sampled_from(["game.total", "game.seen", "turn.moves", "p.score", "c.power", "x.y.z"]),
              st.sampled_from(["=", "+=", "-="]), expressions).map(lambda t: [f"set {t[0]} {t[1]} {t[2]}"]),
    st.tuples(names, expressions, st.none() | expressions).map(
        lambda t: [f"choose {t[0]} from {t[1]}" + (f" by {t[2]}" if t[2] else "") + ' prompt "pick"']),
    st.tuples(expressions, st.sampled_from(["", "top of ", "bottom of "]), expressions).map(
        lambda t: [f"move {t[0]} to {t[1]}{t[2]}"]),
    expressions.map(lambda e: [f"shuffle {e}"]),
    st.tuples(st.sampled_from(EVENTS), st.lists(st.tuples(st.sampled_from(FIELDS), expressions), max_size=2)).map(
        lambda t: [f"emit {t[0]}(" + ", ".join(f"{k}: {v}" for k, v in t[1]) + ")"]),
    st.tuples(st.sampled_from(EVENTS), names).map(lambda t: [f"window {t[0]}(value: 1) as {t[1]}"]),
    st.tuples(names, st.lists(expressions, max_size=2)).map(lambda t: [f"{t[0]}({', '.join(t[1])})"]),
    st.just(["stop"]),
    st.just(["break"]),
)


def _block(statements) -> st.SearchStrategy:
    return st.lists(statements, min_size=1, max_size=4).map(lambda blocks: [line for b in blocks for line in b])


statements = st.recursive(
    simple_statements,
    lambda inner: st.one_of(
        st.tuples(expressions, _block(inner), st.none() | _block(inner)).map(
            lambda t: [f"if {t[0]}:"] + _indent(t[1]) + (["else:"] + _indent(t[2]) if t[2] else [])),
        st.tuples(names, expressions, _block(inner)).map(lambda t: [f"for each {t[0]} in {t[1]}:"] + _indent(t[2])),
        st.tuples(expressions, _block(inner)).map(lambda t: [f"repeat {t[0]} times:"] + _indent(t[1])),
    ),
    max_leaves=8,
)

_PARAMS = st.lists(st.tuples(names, st.sampled_from(TYPES)), max_size=2).map(
    lambda ps: ", ".join(f"{n}: {t}" for n, t in ps))


def _do(body: list[str]) -> list[str]:
    return ["do:"] + _indent(body)


def _clauses(strategy) -> st.SearchStrategy:
    return st.lists(strategy, min_size=0, max_size=5).map(lambda cs: [line for c in cs for line in c])


clauses = st.one_of(
    st.just(['text "what it does"']),
    st.just(['cite "rulebook: somewhere"']),
    st.tuples(names, st.sampled_from(TYPES), st.none() | expressions, st.none() | expressions).map(
        lambda t: [f"with {t[0]}: {t[1]}" + (f" in {t[2]}" if t[2] else "") + (f" where {t[3]}" if t[3] else "")]),
    st.tuples(expressions, st.booleans()).map(lambda t: [f"require {t[0]}" + (' else "no"' if t[1] else "")]),
    st.tuples(expressions, st.sampled_from(["score", "power", "moves"])).map(lambda t: [f"cost {t[0]} {t[1]}"]),
    st.tuples(expressions, st.sampled_from(["turn", "round", "game", "week"])).map(lambda t: [f"limit {t[0]} per {t[1]}"]),
    st.sampled_from(EVENTS).map(lambda e: [f"on {e}"]),
    expressions.map(lambda e: [f"when {e}"]),
    expressions.map(lambda e: [f"winners {e}"]),
    expressions.map(lambda e: [f"by {e}"]),
    expressions.map(lambda e: [f"= {e}"]),
    statements.map(_do),
)

definitions = st.one_of(
    st.tuples(st.sampled_from(["action", "trigger", "victory", "reaction"]), names, _clauses(clauses)).map(
        lambda t: [f"{t[0]} {t[1]}:"] + _indent(t[2] or _do(["stop"]))),
    st.tuples(names, _PARAMS, _clauses(clauses)).map(
        lambda t: [f"procedure {t[0]}({t[1]}):"] + _indent(t[2] or _do(["stop"]))),
    st.tuples(names, _PARAMS, st.sampled_from(TYPES), _clauses(clauses)).map(
        lambda t: [f"function {t[0]}({t[1]}) -> {t[2]}:"] + _indent(t[3] or ["= 1"])),
    # well-formed bodies that run: the setup procedure gets a random body
    statements.map(lambda body: ["procedure setup():"] + _indent(_do(body))),
)

TOKENS = ["action", "procedure", "function", "trigger", "victory", "reaction", "text", "cite", "with", "in", "where",
          "require", "else", "cost", "limit", "per", "as", "on", "when", "winners", "by", "do", "let", "set", "if",
          "elif", "for", "each", "repeat", "times", "choose", "from", "prompt", "move", "to", "of", "top", "bottom",
          "shuffle", "emit", "window", "stop", "break", "and", "or", "not", "true", "false", "none", "list", ":", "(",
          ")", "[", "]", ",", ".", "=", "+=", "-=", "==", "<", ">", "+", "-", "*", "//", "%", "->", "?", '"t"', "1",
          "x", "players", "\n", "\n    ", "\n        ", "\n  ", "# note"]

token_soup = st.lists(st.sampled_from(TOKENS), max_size=60).map(" ".join)

_definition_texts = st.lists(definitions, min_size=1, max_size=3).map(lambda ds: "\n".join("\n".join(d) + "\n" for d in ds))
rule_texts = st.one_of(_definition_texts, _definition_texts, _definition_texts, token_soup)


# ---------------------------------------------------------------- YAML from the schema's words

YAML_KEYS = ["game", "kinds", "zones", "components", "board", "tables", "dice", "parameters", "variables", "manifest",
             "rulings", "name", "title", "players", "min", "max", "setup", "round", "round_limit", "properties",
             "type", "default", "values", "located_in", "owner", "per_player", "ordered", "visible_to", "holds",
             "kind", "count", "zone", "layout", "value", "cite", "id", "text", "layouts", "rooms", "tiles", "player",
             "card", "deck"]
yaml_scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 10**6), st.sampled_from(
    ["number", "bool", "text", "list of card", "player", "card", "deck", "everyone", "owner", "abc", "", "1e5"]))
yaml_values = st.recursive(
    yaml_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(YAML_KEYS), inner, max_size=4)),
    max_leaves=20,
)
yaml_documents = st.dictionaries(st.sampled_from(YAML_KEYS[:11]), yaml_values, min_size=1, max_size=4).map(
    lambda d: yaml.safe_dump(d, sort_keys=False, allow_unicode=True).encode())


def shipped_ruleset() -> RuleSet:
    return load_checked(SHIPPED)
