"""Fuzzing: no log or save file, however damaged or hostile, makes `replay` or
`play --resume` fail with an internal error (exit 3, a traceback) or hang.

Files are made three ways: real logs mutated byte by byte; real logs whose JSON values
are replaced by arbitrary ones, then sealed again with a valid digest (so the replay
itself is exercised, not only the reader); and logs generated from scratch. Every
input must end, within a time limit, with exit 0, 1 or 2.

A short, seeded sample runs with the tests. A long run (the figure is how many inputs
each of the three tests tries; a seed makes another run explore other inputs):

    RULECRAFT_FUZZ_EXAMPLES=40000 RULECRAFT_FUZZ_SEED=7 nice python -m pytest tests/test_97_fuzz_logs_saves.py
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
from pathlib import Path

import pytest
from engine_rulesets import build, game_yaml, play_randomly

from rulecraft.cli.main import main
from rulecraft.cli.play import PLAY_SETTINGS, event_text, option_label
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.gamelog import final_line

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

EXAMPLES = int(os.environ.get("RULECRAFT_FUZZ_EXAMPLES", "60"))
SEED = os.environ.get("RULECRAFT_FUZZ_SEED")
SECONDS_PER_INPUT = 20  # a replay of these small games takes well under a second

FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=SEED is None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
if SEED is not None:
    from hypothesis import seed as _seed

    def seeded(test):
        return _seed(int(SEED))(test)
else:
    def seeded(test):
        return test

DATA = """
kinds:
  player:
    properties:
      score: {type: number, default: 0}
      secret: {type: number, default: 0, visible_to: owner}
  card:
    located_in: zone
    properties:
      rank: number
zones:
  deck: {visible_to: nobody}
  table: {}
  hand: {per_player: true, visible_to: owner}
components:
  - {name: a, kind: card, zone: deck, properties: {rank: 1}}
  - {name: b, kind: card, zone: deck, properties: {rank: 2}}
  - {name: c, kind: card, zone: deck, properties: {rank: 3}}
  - {name: d, kind: card, zone: deck, properties: {rank: 4}}
  - {name: e, kind: card, zone: deck, properties: {rank: 5}}
"""

RULES = """
procedure setup():
    do:
        shuffle deck
        for each p in players:
            move top(deck) to hand(p)

procedure round():
    do:
        for each p in players:
            play_turn(p)

action draw:
    limit 1 per turn
    with card: card in contents(deck)
    do:
        move top(deck) to hand(current_player)
        set current_player.secret += 1

action reveal:
    with card: card in contents(hand(current_player))
    do:
        move card to table
        set current_player.score += card.rank

action tip:
    limit 1 per turn
    do:
        choose q from players by current_player prompt "Tip whom?"
        set q.score += 1

victory high_score:
    when any([p.score >= 6 for p in players])
    winners [p for p in players where p.score >= 6]
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> tuple[Path, list[list[str]]]:
    """The rule-set folder and a few real logs of it (lines), some finished, some not."""
    folder = tmp_path_factory.mktemp("fuzz")
    rules = build(folder, {"game.yaml": game_yaml(name="fuzzed", players=(2, 3), round_limit=6) + DATA,
                           "main.rules": RULES})
    logs = []
    for seed in range(4):
        game = Game(rules, 2 + seed % 2, seed, settings=PLAY_SETTINGS)
        if seed == 3:
            for _ in range(3):  # a game saved mid-way, as play saves it
                game.choose(len(game.pending.options) - 1)
            assert not game.over
        else:
            play_randomly(game, seed)
        logs.append(game.log_lines({"seats": {p: "human" for p in game.state.players}}))
    return folder / "ruleset", logs


@pytest.fixture(scope="module", autouse=True)
def quick_commands():
    """Each input runs the real command, but the command line's parser is built once and
    each rule set loaded once: neither depends on the file under test, and both would
    otherwise take most of the time of an input."""
    import functools

    import rulecraft.cli.common as common
    import rulecraft.cli.main as cli_main

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cli_main, "build_parser", functools.lru_cache(maxsize=1)(cli_main.build_parser))
        patch.setattr(common, "load_checked", functools.lru_cache(maxsize=8)(common.load_checked))
        yield


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang(f"no answer within {SECONDS_PER_INPUT} s")


def _run(argv: list[str]) -> tuple[int, str]:
    """Run the command in this process, without input (play then quits at once)."""
    out = io.StringIO()
    os.environ["RULECRAFT_SAVE_PASSPHRASE"] = "fuzz"  # a locked save never waits for typing
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(SECONDS_PER_INPUT)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            import builtins

            real_input = builtins.input
            builtins.input = _no_input
            try:
                code = main(argv)
            except SystemExit as stop:
                code = stop.code
            finally:
                builtins.input = real_input
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return code, out.getvalue()


def _no_input(prompt=""):
    raise EOFError


def _check(folder: Path, path: Path, command: str) -> None:
    if command == "replay":
        argv = ["replay", str(path), "--rules", str(folder), "--quiet"]
    else:
        argv = ["play", str(folder), "--resume", str(path)]
    code, out = _run(argv)
    # what the input came to, for --hypothesis-show-statistics
    read_error = next((line for line in out.splitlines() if line.startswith("error: ") and ".jsonl:" in line), None)
    hypothesis.event(f"{command}: exit {code}, " + ("refused on reading" if read_error else "read"))
    assert code in (0, 1, 2), f"{command} exited {code} on {path.read_bytes()[:300]!r}:\n{out[-2000:]}"
    assert "internal error" not in out and "Traceback" not in out, out[-2000:]


COMMANDS = st.sampled_from(["replay", "resume"])

# ---------------------------------------------------------------- byte mutations

MUTATION = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 10 ** 6), st.integers(0, 255)),
    st.tuples(st.just("insert"), st.integers(0, 10 ** 6), st.binary(min_size=1, max_size=12)),
    st.tuples(st.just("delete"), st.integers(0, 10 ** 6), st.integers(1, 40)),
    st.tuples(st.just("truncate"), st.integers(0, 10 ** 6), st.just(0)),
    st.tuples(st.just("drop_line"), st.integers(0, 10 ** 4), st.just(0)),
    st.tuples(st.just("repeat_line"), st.integers(0, 10 ** 4), st.integers(1, 3)),
)


def _mutate_bytes(data: bytes, mutation) -> bytes:
    kind, where, what = mutation
    if kind in ("drop_line", "repeat_line"):
        lines = data.split(b"\n")
        i = where % len(lines)
        lines[i:i + 1] = [] if kind == "drop_line" else [lines[i]] * (what + 1)
        return b"\n".join(lines)
    at = where % (len(data) + 1)
    if kind == "flip":
        return data[:at] + bytes([what]) + data[at + 1:]
    if kind == "insert":
        return data[:at] + what + data[at:]
    if kind == "delete":
        return data[:at] + data[at + what:]
    return data[:at]


@seeded
@FUZZ
@given(which=st.integers(0, 3), mutations=st.lists(MUTATION, min_size=1, max_size=4), command=COMMANDS)
def test_byte_mutations_of_real_logs(corpus, tmp_path_factory, which, mutations, command):
    folder, logs = corpus
    data = ("\n".join(logs[which]) + "\n").encode()
    for mutation in mutations:
        data = _mutate_bytes(data, mutation)
    path = tmp_path_factory.mktemp("bytes") / "log.jsonl"
    path.write_bytes(data)
    _check(folder, path, command)


# ---------------------------------------------------------------- value mutations, sealed again

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2 ** 70), 2 ** 70) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)

INTERESTING = st.sampled_from([0, 1, -1, 2, 3, 99, 10 ** 9, 2 ** 63, "11", "p1", "p9", "", None, True, [], {},
                               "../../etc", "[/] x", "header", "final", "decision", "event"])


def _paths(value, prefix=()):
    """Every place in a JSON value: tuples of keys and indices."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


def _replace(value, path, new):
    if not path:
        return new
    value[path[0]] = _replace(value[path[0]], path[1:], new)
    return value


@seeded
@FUZZ
@given(which=st.integers(0, 3), edits=st.lists(st.tuples(st.integers(0, 10 ** 6), st.integers(0, 10 ** 6),
                                                          st.one_of(INTERESTING, JSON), st.booleans()),
                                                min_size=1, max_size=3),
       reseal=st.booleans(), command=COMMANDS)
def test_value_mutations_of_real_logs(corpus, tmp_path_factory, which, edits, reseal, command):
    folder, logs = corpus
    records = [json.loads(line) for line in logs[which]]
    for line_pick, place_pick, new, delete in edits:
        # the header and the decisions matter most: pick them more often than events
        small = [0] + [i for i, r in enumerate(records)
                       if isinstance(r, dict) and r.get("type") in ("decision", "final")]
        i = small[line_pick % len(small)] if line_pick % 2 else line_pick % max(1, len(records))
        if i >= len(records):
            continue
        places = list(_paths(records[i]))
        place = places[place_pick % len(places)]
        if delete and place:
            parent = records[i]
            for step in place[:-1]:
                parent = parent[step]
            del parent[place[-1]]
        else:
            records[i] = _replace(records[i], place, new)
    lines = [json.dumps(r) for r in records]
    if reseal and records and isinstance(records[-1], dict) and isinstance(records[-1].get("state"), dict):
        lines[-1] = final_line(lines[:-1], records[-1]["state"])
    path = tmp_path_factory.mktemp("values") / "log.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _check(folder, path, command)


# ---------------------------------------------------------------- other decisions, sealed

@seeded
@FUZZ
@given(which=st.integers(0, 3), decisions=st.lists(st.integers(0, 6), max_size=60), keep_events=st.integers(0, 200),
       state_from=st.integers(0, 3), players=st.sampled_from([None, 2, 3]), command=COMMANDS)
def test_sealed_logs_with_other_decisions(corpus, tmp_path_factory, which, decisions, keep_events, state_from,
                                          players, command):
    """Well-formed, intact files whose decisions, events and final state do not belong
    together: they pass the reader, and the replay must report where they part."""
    folder, logs = corpus
    records = [json.loads(line) for line in logs[which]]
    header = records[0]
    if players is not None:
        header["players"] = players
    events = [r for r in records if r["type"] == "event"][:keep_events]
    lines = [json.dumps(header)] + [json.dumps({"type": "decision", "option": d}) for d in decisions]
    lines += [json.dumps(r) for r in events]
    lines.append(final_line(lines, json.loads(logs[state_from][-1])["state"]))
    path = tmp_path_factory.mktemp("decisions") / "log.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _check(folder, path, command)


# ---------------------------------------------------------------- generated from scratch

HEADER = st.fixed_dictionaries(
    {"type": st.just("header"),
     "ruleset": st.sampled_from(["ruleset", "fuzzed", "panic_station", "x"]) | st.text(max_size=6),
     "players": st.integers(-2, 6) | INTERESTING, "seed": st.integers(-5, 5) | INTERESTING},
    optional={"variant": st.none() | st.text(max_size=6),
              "settings": st.dictionaries(st.text(max_size=6), JSON, max_size=2),
              "seats": st.dictionaries(st.sampled_from(["p1", "p2", "p3", "p9"]),
                                       st.sampled_from(["human", "random", "heuristic", "nobody"]) | JSON, max_size=3)})

RECORD = st.one_of(
    st.fixed_dictionaries({"type": st.just("decision"), "option": st.integers(-1, 8) | INTERESTING}),
    st.fixed_dictionaries({"type": st.just("event"), "event": st.dictionaries(st.text(max_size=6), JSON, max_size=3)}),
    st.dictionaries(st.sampled_from(["type", "option", "event", "state"]), JSON | INTERESTING, max_size=3),
)


@seeded
@FUZZ
@given(header=HEADER, records=st.lists(RECORD, max_size=12),
       state=st.dictionaries(st.text(max_size=6), JSON, max_size=3), sealed=st.booleans(), command=COMMANDS)
def test_generated_logs(corpus, tmp_path_factory, header, records, state, sealed, command):
    folder, _ = corpus
    lines = [json.dumps(header)] + [json.dumps(r) for r in records]
    if sealed:
        lines.append(final_line(lines, state))
    path = tmp_path_factory.mktemp("generated") / "log.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _check(folder, path, command)


def test_the_corpus_replays_and_resumes(corpus, tmp_path):
    """The unmutated logs are accepted: the fuzzing starts from valid files."""
    folder, logs = corpus
    for i, lines in enumerate(logs):
        path = tmp_path / f"log{i}.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        assert _run(["replay", str(path), "--rules", str(folder), "--quiet"])[0] == 0
        code, out = _run(["play", str(folder), "--resume", str(path)])
        assert code == 0 and ("input closed" in out or "game over" in out), out


@seeded
@FUZZ
@given(event=st.dictionaries(st.sampled_from(["type", "player", "action", "reaction", "args", "entity", "source",
                                              "destination", "property", "value", "seq"]) | st.text(max_size=4),
                             st.sampled_from(["action_taken", "reacted", "moved", "changed"]) | JSON, max_size=6))
def test_any_logged_event_can_be_shown(event):
    """A diverging replay prints the logged event, which a file may fill with anything
    (found by the value mutations: an action's arguments that were a number)."""
    assert isinstance(event_text(event), str)
    assert isinstance(option_label({"action": event.get("action"), "args": event.get("args")}), str)
