"""Determinism and serialization: same seed and decisions → the same state, byte for
byte; a state saved at any choice resumes to the same end; a log replays exactly.

The game here is small but touches every source of state: shuffled decks, dice,
random picks, choices inside actions and triggers (some with placements as options),
tiles placed on a board, per-turn limits, turn variables and a victory."""

from __future__ import annotations

import json

import pytest
from engine_rulesets import build, game_yaml, json_roundtrip, play_randomly

from rulecraft.interpreter.game import Game, state_digest
from rulecraft.interpreter.machine import Machine
from rulecraft.interpreter.state import GameState

DATA = """
kinds:
  player:
    properties:
      ap: {type: number, default: 0}
      score: {type: number, default: 0}
  card:
    located_in: zone
    properties:
      value: number
  tile:
    located_in: zone
  room:
    located_in: zone
  pawn:
    located_in: room
    owner: owner
    properties:
      owner: player
zones:
  deck: {visible_to: nobody}
  discard: {}
  hand: {per_player: true, visible_to: owner, ordered: false}
  tile_stack: {visible_to: nobody, top_visible: true}
components:
  - {name: low, kind: card, count: 6, zone: deck, properties: {value: 1}}
  - {name: high, kind: card, count: 6, zone: deck, properties: {value: 2}}
  - {name: start, kind: tile, layout: cross}
  - {name: cross, kind: tile, layout: cross, count: 3, zone: tile_stack}
  - {name: bend, kind: tile, layout: bend, count: 3, zone: tile_stack}
  - {name: annex, kind: tile, layout: annex, zone: tile_stack}
  - {name: pawn, kind: pawn, per_player: true}
dice:
  d3: [1, 2, 3]
  d6: [1, 2, 3, 4, 5, 6]
variables:
  game:
    gambles: {type: number, default: 0}
  turn:
    came_from: {type: room}
board:
  space_kind: room
  tile_kind: tile
  directions: {north: [0, -1], east: [1, 0], south: [0, 1], west: [-1, 0]}
  edges: [door, wall]
  joins:
    - {edges: [door, door], connection: open}
    - {edges: [door, wall], forbidden: true}
    - {edges: [wall, wall], connection: none}
  doorways: [open]
  layouts:
    cross:
      sides: {north: door, east: door, south: door, west: door}
    bend:
      sides: {north: door, east: door, south: wall, west: wall}
    annex:
      rooms: {front: {}, back: {}}
      sides:
        north: {edge: wall, rooms: [back]}
        east: {edge: wall, rooms: [front, back]}
        south: {edge: door, rooms: [front]}
        west: {edge: wall, rooms: [front, back]}
      links: [{from: front, to: back, direction: north, connection: open}]
"""

RULES = """
procedure setup():
    do:
        place(start, spot(0, 0, 0))
        shuffle deck
        shuffle tile_stack
        for each p in players:
            move top(deck) to hand(p)
            move my_pawn(p) to first(rooms_of(start))

procedure round():
    do:
        let first_player = random(players)
        for each p in seats_from(first_player, count(players)):
            play_turn(p)

function my_pawn(p: player) -> pawn:
    = first([x for x in pawn where x.owner == p])

trigger refill:
    on turn_started
    do:
        let r = roll(d3)
        choose extra from [0, 1] by event.player prompt "Take an extra action point?"
        set event.player.ap = r + extra

action draw:
    require top(deck) != none else "the deck is empty"
    cost 1 ap
    do:
        move top(deck) to hand(current_player)

action play:
    with c: card in contents(hand(current_player))
    cost 1 ap
    do:
        move c to discard
        set current_player.score += c.value

action explore:
    with pw: pawn where pw.owner == current_player
    require top(tile_stack) != none else "no tiles left"
    require count(placements(top(tile_stack), pw.at, [0, 90, 180, 270])) > 0 else "no room to explore here"
    cost 1 ap
    do:
        let t = top(tile_stack)
        choose where_to from placements(t, pw.at, [0, 90, 180, 270]) prompt "Place the tile where?"
        place(t, where_to)

action walk:
    with pw: pawn where pw.owner == current_player
    with r: room in connected(pw.at) where r != turn.came_from
    cost 1 ap
    do:
        set turn.came_from = pw.at
        move pw to r

action gamble:
    limit 1 per turn
    do:
        set game.gambles += 1
        let v = roll(d6)
        if v >= 5:
            set current_player.score += 2
        elif v == 1:
            choose victim from [p for p in players where p != current_player] prompt "Who scores instead?"
            set victim.score += 1

victory high_score:
    when any([p.score >= 6 for p in players])
    winners [p for p in players where p.score >= 6]
"""


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("journey")
    return build(tmp, {"game.yaml": game_yaml(name="journey", players=(2, 3), round_limit=6) + DATA, "main.rules": RULES})


def full_game(ruleset, players: int, seed: int) -> Game:
    game = Game(ruleset, players, seed)
    play_randomly(game, seed=seed * 31 + players)
    assert game.over
    return game


GAMES = [(2, 1), (3, 2), (2, 7)]


def test_the_game_used_here_exercises_what_it_should(ruleset):
    kinds = set()
    choose_prompts = set()
    for players, seed in GAMES:
        game = Game(ruleset, players, seed)
        play = __import__("random").Random(seed * 31 + players)
        while not game.over:
            if game.pending.kind == "choose":
                choose_prompts.add(game.pending.prompt)
            game.choose(play.randrange(len(game.pending.options)))
        kinds |= {e["type"] for e in game.events}
    assert {"shuffled", "rolled", "placed", "moved", "action_taken", "changed"} <= kinds
    assert "Take an extra action point?" in choose_prompts
    assert "Place the tile where?" in choose_prompts


@pytest.mark.parametrize("players, seed", GAMES)
def test_same_seed_and_decisions_give_byte_identical_states(ruleset, players, seed):
    first = full_game(ruleset, players, seed)
    again = Game.replay(ruleset, players, seed, first.decisions)
    assert again.over
    assert again.state.dumps() == first.state.dumps()
    assert again.events == first.events
    assert state_digest(again.state) == state_digest(first.state)


def test_every_intermediate_state_is_reproduced(ruleset):
    first = Game(ruleset, 2, 5)
    decisions = play_randomly(Game(ruleset, 2, 5), seed=99)
    second = Game(ruleset, 2, 5)
    for d in decisions:
        assert first.state.dumps() == second.state.dumps()
        first.choose(d)
        second.choose(d)
    assert first.state.dumps() == second.state.dumps()


def test_different_seeds_give_different_games(ruleset):
    states = {Game(ruleset, 2, seed).state.dumps() for seed in range(6)}
    assert len(states) == 6
    decks = {tuple(Game(ruleset, 2, seed).state.zones["deck"]) for seed in range(6)}
    assert len(decks) > 1


def test_state_json_round_trip_is_lossless(ruleset):
    game = Game(ruleset, 3, 4)
    for d in play_randomly(Game(ruleset, 3, 4), seed=1)[:15]:
        game.choose(d)
        data = json_roundtrip(game.state.to_json())
        assert GameState.from_json(data).dumps() == game.state.dumps()
        assert GameState.from_json(data).to_json() == game.state.to_json()


def test_clone_is_equal_and_independent(ruleset):
    game = Game(ruleset, 2, 3)
    for d in play_randomly(Game(ruleset, 2, 3), seed=3)[:10]:
        game.choose(d)
    before = game.state.dumps()
    copy = game.state.clone()
    assert copy.dumps() == before
    copy.zones["discard"].append("low.1")
    copy.entities["p1"]["props"]["score"] = 99
    copy.vars["turn"]["came_from"] = "x"
    copy.vars["game"]["gambles"] = -1
    copy.stack[-1]["marker"] = True
    if copy.pending:
        copy.pending["options"].append("bogus")
    assert game.state.dumps() == before


def resume_at(ruleset, players: int, seed: int, decisions: list[int], k: int, saved: str) -> GameState:
    """Play k decisions, save the state as text, restore it into a new machine, play on."""
    game = Game(ruleset, players, seed)
    for d in decisions[:k]:
        game.choose(d)
    assert game.pending is not None
    restored = GameState.from_json(json.loads(saved_text(game.state, saved)))
    machine = Machine(ruleset, restored)
    for d in decisions[k:]:
        machine.answer(d)
    return restored


def saved_text(state: GameState, how: str) -> str:
    if how == "to_json":
        return json.dumps(state.to_json())
    return state.dumps()


@pytest.mark.parametrize("players, seed", GAMES)
def test_resume_from_a_saved_state_at_every_choice(ruleset, players, seed):
    full = full_game(ruleset, players, seed)
    decisions = full.decisions
    kinds_seen = set()
    replay = Game(ruleset, players, seed)
    for k in range(len(decisions)):
        kinds_seen.add(replay.pending.kind)
        end = resume_at(ruleset, players, seed, decisions, k, "to_json")
        assert end.result is not None
        assert end.dumps() == full.state.dumps(), f"resuming at decision {k} ({replay.pending.prompt}) diverged"
        replay.choose(decisions[k])
    assert kinds_seen == {"action", "choose"}


@pytest.mark.parametrize("players, seed", [(2, 1)])
def test_resume_from_state_dumps_text(ruleset, players, seed):
    full = full_game(ruleset, players, seed)
    decisions = full.decisions
    for k in range(0, len(decisions), 3):
        end = resume_at(ruleset, players, seed, decisions, k, "dumps")
        assert end.dumps() == full.state.dumps(), f"resuming at decision {k} diverged"


def test_resumed_machine_offers_the_same_pending_choice(ruleset):
    game = Game(ruleset, 2, 8)
    for d in play_randomly(Game(ruleset, 2, 8), seed=8)[:9]:
        game.choose(d)
    restored = GameState.from_json(json_roundtrip(game.state.to_json()))
    machine = Machine(ruleset, restored)
    assert restored.pending == game.state.pending
    if game.pending.kind == "action":
        assert machine.legal_actions(game.pending.player) + [{"action": "end_turn"}] == game.pending.options


@pytest.mark.parametrize("players, seed", GAMES)
def test_replaying_a_log_gives_the_identical_final_state(ruleset, players, seed, tmp_path):
    full = full_game(ruleset, players, seed)
    lines = list(full.log_lines())
    header = json.loads(lines[0])
    assert header == {"type": "header", "ruleset": "journey", "variant": None, "players": players, "seed": seed, "settings": {}}
    replayed = Game.from_log(ruleset, lines)
    assert replayed.state.dumps() == full.state.dumps()
    assert replayed.decisions == full.decisions
    final = json.loads(lines[-1])
    assert final["type"] == "final"
    assert GameState.from_json(final["state"]).dumps() == full.state.dumps()
    path = tmp_path / "game.jsonl"
    full.write_log(path)
    again = Game.from_log(ruleset, path.read_text(encoding="utf-8").splitlines())
    assert again.state.dumps() == full.state.dumps()


def test_a_log_of_an_unfinished_game_replays_to_the_same_pending_choice(ruleset):
    game = Game(ruleset, 3, 11)
    for d in play_randomly(Game(ruleset, 3, 11), seed=4)[:12]:
        game.choose(d)
    replayed = Game.from_log(ruleset, game.log_lines())
    assert replayed.pending == game.pending
    assert replayed.state.dumps() == game.state.dumps()


ORDER_DATA = """
kinds:
  player: {}
  card: {located_in: zone}
zones:
  table: {}
components:
  - {name: zeta, kind: card, zone: table}
  - {name: alpha, kind: card, zone: table}
"""

ORDER_RULES = """
procedure setup():
    do:
        stop

procedure round():
    do:
        play_turn(first(players))

action take:
    with c: card where c.at == table
    do:
        remove(c)
"""


def test_options_after_restoring_from_dumps_keep_their_order(tmp_path):
    rs = build(tmp_path, {"game.yaml": game_yaml(players=(1, 1), round_limit=1) + ORDER_DATA,
                          "main.rules": ORDER_RULES})
    game = Game(rs, 1, 1)
    restored = GameState.from_json(json.loads(game.state.dumps()))
    assert restored.to_json() == game.state.to_json(), "equal as data"
    machine = Machine(rs, restored)
    assert machine.legal_actions("p1") + [{"action": "end_turn"}] == game.pending.options
