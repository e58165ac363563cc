"""The listing keeps parameters' passing candidates, and conditions keep comprehensions
over a kind's entities, from one decision to the next, and computes again only what read
a thing that changed (interpreter/listing.py). Checked against the full listing at every
decision of random games, with a driver changing the state behind the machine's back now
and then, and against games played with nothing kept."""

from __future__ import annotations

import random

import pytest
from engine_rulesets import QUIET_SETUP_AND_ROUND, build, game_yaml

from rulecraft.dsl.dependencies import CURRENT, footprint_reads
from rulecraft.interpreter import listing, machine as machine_module
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import END_TURN, Machine

BOARD = """
kinds:
  player:
    properties:
      level: {type: number, default: 1}
  square:
    properties:
      paint: {type: "player?"}
  piece:
    located_in: square
    properties:
      owner: {type: player}
      rank: {type: number, default: 0}

board:
  kind: grid
  space_kind: square
  columns: 5
  rows: 5

components:
  - name: red
    kind: piece
    count: 9
    properties: {owner: p1}
    spaces: [a1, b1, c1, d1, e1, a2, b2, c2, d2]
  - name: blue
    kind: piece
    count: 9
    properties: {owner: p2}
    spaces: [a5, b5, c5, d5, e5, a4, b4, c4, d4]
"""

RULES = QUIET_SETUP_AND_ROUND + """
function around(s: square) -> list of square:
    = [t for t in [step(s, "north"), step(s, "south"), step(s, "east"), step(s, "west")] where t != none]

function free(s: square) -> bool:
    = count(contents(s)) == 0

function foe_on(s: square, p: player) -> bool:
    = any([c.owner != p for c in contents(s)])

function mine(c: piece) -> bool:
    = c.owner == current_player and on_board(c)

action walk:
    with p: piece where mine(p)
    with t: square in around(p.at) where free(t)
    do:
        move p to t

action take:
    with p: piece where mine(p) and p.rank >= 1
    with t: square in around(p.at) where foe_on(t, current_player)
    do:
        for each c in contents(t):
            remove(c)
        move p to t

action train:
    with p: piece where mine(p) and p.rank < current_player.level and step(p.at, "east") != none
    do:
        set p.rank += 1

action paint:
    with s: square where s.paint == none and count([c for c in contents(s) where c.owner == current_player]) > 0 and step(s, "north") != none
    do:
        set s.paint = current_player
        set current_player.level += 1

action repaint:
    with p: piece where mine(p)
    with s: square in around(p.at) where s.paint != none and s.paint != current_player
    with q: piece where mine(q) and q != p
    do:
        set s.paint = current_player

function veterans(p: player) -> number:
    = count([c for c in piece where c.owner == p and on_board(c) and c.rank >= 2 and step(c.at, "north") != none])

function painted(p: player) -> number:
    = count([s for s in square where s.paint == p])

function strong(p: player) -> number:
    = count([c for c in piece where c.owner == p and on_board(c) and c.rank >= p.level and step(c.at, "west") != none])

action rally:
    require veterans(current_player) >= 2 or strong(current_player) >= 3
    do:
        set current_player.level += 1

action drill:
    require count([c for c in piece where c.owner == current_player and step(c.at, "south") != none and c.rank < current_player.level]) >= 4
    do:
        set current_player.level -= 1

victory army:
    when any([veterans(p) >= 5 for p in players])
    winners [p for p in players where veterans(p) >= 5]

victory canvas:
    when any([painted(p) >= 9 for p in players])
    winners [p for p in players where painted(p) >= 9]
"""


@pytest.fixture
def ruleset(tmp_path):
    return build(tmp_path, {"game.yaml": game_yaml(players=(2, 2), round_limit=40, actions_per_turn_limit=1)
                            + BOARD, "play.rules": RULES})


def test_the_parameters_and_comprehensions_that_can_be_kept(ruleset):
    kept = {(a.name, p.name): p.footprint for a in ruleset.compiled.actions for p in a.params}
    # the candidate's own footprint and the current player, read by value
    assert kept[("walk", "p")] == ((), True, True)
    # the earlier parameter's footprint (its place) and the candidate's (its zone)
    assert kept[("walk", "t")] == (("p",), True, False)
    assert kept[("take", "t")] == (("p",), True, True)
    # the current player's level: its footprint too
    assert kept[("train", "p")] == ((CURRENT,), True, True)
    assert kept[("paint", "s")] == ((), True, True)
    # another parameter compared by value only: not read through
    assert kept[("repaint", "q")] == ((), True, True)


def test_what_reads_beyond_a_footprint_is_not_kept(tmp_path, ruleset):
    fn = {d.name: d for d in ruleset.of_kind("function")}
    assert footprint_reads(ruleset, fn["free"].value, ("s",)) == (frozenset({"s"}), False)
    assert footprint_reads(ruleset, fn["foe_on"].value, ("s", "p")) == (frozenset({"s"}), False)
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(2, 2)) + BOARD + """
variables:
  game:
    chosen: {type: "square?"}
""", "play.rules": RULES + """
function far(c: piece) -> bool:
    = step(c.at, "north").paint == none

function counted(c: piece) -> bool:
    = c.owner == game.chosen.paint

function anyone(c: piece) -> bool:
    = count([d for d in piece where d.rank > c.rank]) > 0
"""}, name="wider")
    fn = {d.name: d for d in rs.of_kind("function")}
    # a property of a square found through the piece's place, of a variable's value,
    # of every entity of a kind: none of them in the piece's footprint
    for name in ("far", "counted", "anyone"):
        assert footprint_reads(rs, fn[name].value, ("c",)) is None, name


def _full_listing(ruleset, state, player) -> list[dict]:
    """The options listed from scratch, check by check (the machine's slow path), on a
    machine that kept nothing."""
    return Machine(ruleset, state.clone())._legal_actions_checked(player)


def _tamper(game: Game, rand: random.Random) -> None:
    """A driver's change between two answers, made behind the machine's back and then
    announced (``Machine.invalidate``): the machine follows only its own changes."""
    s = game.state
    pieces = [e for e, x in s.entities.items() if x["kind"] == "piece"]
    squares = [e for e, x in s.entities.items() if x["kind"] == "square"]
    what = rand.randrange(3)
    if what == 0:
        s.entities[rand.choice(pieces)]["props"]["rank"] = rand.randrange(3)
    elif what == 1:
        s.entities[rand.choice(squares)]["props"]["paint"] = rand.choice([None, "p1", "p2"])
    else:
        piece, square = rand.choice(pieces), rand.choice(squares)
        at = s.entities[piece]["at"]
        if at is not None and not s.zones[square]:
            s.zones[at].remove(piece)
            s.zones[square].append(piece)
            s.entities[piece]["at"] = square
    game.machine.invalidate()


@pytest.mark.parametrize("seed", range(12))
def test_kept_listing_gives_the_full_listing_at_every_decision(ruleset, seed):
    rand = random.Random(seed)
    game = Game(ruleset, 2, seed)
    checked, tampered = 0, False
    while not game.over:
        pending = game.state.pending
        # (options listed before a change behind the machine's back are not checked:
        # the listing after the next answer is)
        if pending["kind"] == "action" and not tampered:
            offered = [o for o in pending["options"] if o != END_TURN]
            assert offered == _full_listing(ruleset, game.state, pending["player"]), \
                f"seed {seed}, decision {len(game.decisions)}"
            checked += 1
        game.choose(rand.randrange(len(pending["options"])))
        tampered = bool(seed % 2) and rand.random() < 0.2 and not game.over
        if tampered:
            _tamper(game, rand)
    assert checked > 10


def _plain(monkeypatch) -> None:
    """Nothing kept: every listing and comprehension computed afresh."""
    monkeypatch.setattr(machine_module, "_kept_bindings", lambda m: None)
    monkeypatch.setattr(listing.KeptCandidates, "items",
                        lambda self, m, spec, args, source, helper, only=None:
                        listing._of([r for x in source if (r := helper(m, x, *args)) is not listing.LEFT_OUT], only))


def test_games_play_as_with_nothing_kept(ruleset, monkeypatch):
    played = []
    for seed in range(8):
        rand = random.Random(seed)
        game = Game(ruleset, 2, seed)
        while not game.over:
            game.choose(rand.randrange(len(game.state.pending["options"])))
        assert game.machine._kept_candidates is not None  # something was kept
        played.append((seed, game.decisions, game.events, game.state.dumps()))
    with monkeypatch.context() as patched:
        _plain(patched)
        for seed, decisions, events, final in played:
            game = Game(ruleset, 2, seed)
            for index in decisions:
                game.choose(index)
            assert game.events == events and game.state.dumps() == final, f"seed {seed}"


def test_a_victory_over_many_entities_is_kept_and_follows_changes(ruleset):
    game = Game(ruleset, 2, 3)
    m = game.machine
    s = game.state
    reds = [e for e, x in s.entities.items() if x["kind"] == "piece" and x["props"]["owner"] == "p1"]
    # a driver makes five veterans between two answers: the next decision sees them
    for eid in [e for e in reds if not s.entities[e]["at"].endswith("5")][:5]:
        s.entities[eid]["props"]["rank"] = 2
    m.invalidate()
    game.choose(0)
    assert game.over and game.result["winners"] == ["p1"]
    assert any(key[0] == "items" for key in m._kept_candidates.kept)


def test_the_machine_compares_only_what_it_changed_itself(ruleset, monkeypatch):
    """After the first listing, the machine's own moves are followed through what it
    wrote down it touched: the whole state is compared again only after a driver's
    change (invalidate) or when another state is put in."""
    whole = []
    sync = listing.KeptCandidates.sync
    monkeypatch.setattr(listing.KeptCandidates, "sync", lambda self, state: (whole.append(state), sync(self, state)))
    rand = random.Random(4)
    game = Game(ruleset, 2, 4)
    for _ in range(12):
        game.choose(rand.randrange(len(game.state.pending["options"])))
    assert len(whole) == 1 and not game.over
    # a driver paints a square behind the machine's back and says so
    s = game.state
    square = next(e for e, x in s.entities.items() if x["kind"] == "square" and x["props"]["paint"] is None
                  and s.zones[e] and s.entities[s.zones[e][0]]["props"]["owner"] == s.current)
    s.entities[square]["props"]["paint"] = "p1" if s.current == "p2" else "p2"
    game.machine.invalidate()
    game.machine.force_end_turn()
    game.machine.force_end_turn()
    assert len(whole) == 2
    offered = [o for o in game.state.pending["options"] if o != END_TURN]
    assert offered == _full_listing(ruleset, game.state, game.state.pending["player"])
