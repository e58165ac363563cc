"""Game state as plain data: it serializes to JSON and back without loss.

Entities (players, pieces, cards, tiles, spaces) are ids with a kind, a location and
properties; zones are ordered lists of ids (index 0 is the top). The frame stack of
the running rules and the pending choice live here too, so a saved state resumes
exactly where it stopped.
"""

from __future__ import annotations

import copy
import json
from dataclasses import asdict, dataclass, field, fields

from rulecraft.dsl.model import RuleSet

from . import rng


# The key of forced_rolls holding the picks of random(): no die can be named so.
RANDOM_PICKS = "random()"


def forced_shuffle_key(zone: str) -> str:
    """The key of forced_rolls holding what the next shuffles of ``zone`` put on top
    (each a list of entity ids, or of lists of interchangeable ids: any one of them);
    no die can be named so, a name has no space."""
    return "shuffle " + zone


@dataclass
class GameState:
    ruleset: str
    seed: int
    rng: int
    players: list[str]
    entities: dict[str, dict]  # id → {"kind", "at", "props"}
    zones: dict[str, list[str]]
    tiles: dict[str, list[int]] = field(default_factory=dict)  # tile id → [x, y, rotation]
    vars: dict[str, dict] = field(default_factory=lambda: {"game": {}, "turn": {}})
    current: str | None = None
    round: int = 0
    turn_number: int = 0
    limits: dict[str, dict[str, int]] = field(default_factory=lambda: {"turn": {}, "round": {}, "game": {}})
    stack: list[dict] = field(default_factory=list)
    pending: dict | None = None
    result: dict | None = None
    steps: int = 0  # decisions answered so far
    # Results a scenario or test has fixed in advance, per die (and under RANDOM_PICKS for
    # the random() function's picks, under forced_shuffle_key(zone) for what a shuffle
    # puts on top), consumed before the RNG.
    forced_rolls: dict[str, list] = field(default_factory=dict)
    # Records of reaction windows, by id; reactions change them (e.g. damage prevented).
    windows: dict[str, dict] = field(default_factory=dict)
    # How the driver wants the game run (see Game), kept so a replay runs it the same way.
    settings: dict = field(default_factory=dict)
    # What `reveal` showed beyond the tables' visibility: entity id → {property, or
    # THING for the entity itself → the players who see it now}. Left out of the JSON
    # while empty, so games that never reveal anything are written exactly as before.
    revealed: dict[str, dict[str, list[str]]] = field(default_factory=dict)

    def to_json(self) -> dict:
        data = asdict(self)
        if not self.revealed:
            del data["revealed"]
        return data

    @classmethod
    def from_json(cls, data: dict) -> "GameState":
        return cls(**copy.deepcopy(data))

    def dumps(self) -> str:
        # Key order is kept, not sorted: the order of entities and tiles is part of the
        # state (it orders the options offered), so a reloaded state must keep it.
        # json reads the fields directly: the state is plain data, so to_json's deep copy
        # would only be thrown away.
        return json.dumps({f: getattr(self, f) for f in _FIELDS if f != "revealed" or self.revealed},
                          separators=(",", ":"))

    # The entities, zones and window records a clone borrowed from the state it was
    # made from (see clone): not fields (no annotation), so never written out.
    lent = None
    lent_zones = None
    lent_windows = None

    def clone(self, borrow: bool = False, kept_frames: int = 0) -> "GameState":
        """An independent copy. With ``borrow``, the copy shares this state's entities,
        zones and window records until the machine writes one (``Machine.own``,
        ``own_zone`` and ``set_record_field`` copy it first), and its tiles' positions
        (a placement replaces a position, never changes it): for a copy played ahead and
        thrown away while this state stays as it is. ``kept_frames``: that many frames
        at the bottom of the stack are shared too, for a copy that runs only above them
        (the obligation lookahead runs the frames above a turn's)."""
        # Entities' property dicts and zone lists are the only nested mutable parts
        # besides the stack, so a targeted copy beats deepcopy by an order of magnitude.
        # Rules never change a list in place (every `set` makes a new value), so the
        # variables are copied one level deep.
        if borrow:
            entities = dict(self.entities)
            zones = dict(self.zones)
            tiles = dict(self.tiles)
            windows = dict(self.windows)
            pending = self.pending
            if pending is not None:  # the options are answered, never changed
                pending = dict(pending)
                pending["options"] = list(pending["options"])
        else:
            entities = {k: {"kind": v["kind"], "at": v["at"], "props": dict(v["props"])}
                        for k, v in self.entities.items()}
            pending = _plain_copy(self.pending)
            zones = {k: list(v) for k, v in self.zones.items()}
            tiles = {k: list(v) for k, v in self.tiles.items()}
            windows = {k: dict(v) for k, v in self.windows.items()}
        stack = self.stack
        if kept_frames:
            stack = stack[:kept_frames] + [_copy_frame(f) for f in stack[kept_frames:]]
        else:
            stack = [_copy_frame(f) for f in stack]
        result = self.result
        clone = GameState(
            self.ruleset, self.seed, self.rng, list(self.players),
            entities,
            zones,
            tiles,
            {k: dict(v) for k, v in self.vars.items()},
            self.current, self.round, self.turn_number,
            {k: dict(v) for k, v in self.limits.items()},
            stack, pending, None if result is None else _plain_copy(result), self.steps,
            {k: list(v) for k, v in self.forced_rolls.items()} if self.forced_rolls else {},
            windows, dict(self.settings),
            {k: {p: list(v) for p, v in shown.items()} for k, shown in self.revealed.items()} if self.revealed else {})
        if borrow:
            clone.lent = self.entities
            clone.lent_zones = self.zones
            clone.lent_windows = self.windows
        return clone


def _plain_copy(value):
    """A deep copy of plain data (dicts, lists, strings, numbers), as copy.deepcopy makes
    it but without its bookkeeping: the state holds nothing else."""
    t = type(value)
    if t is dict:
        return {k: _plain_copy(v) for k, v in value.items()}
    if t is list:
        return [_plain_copy(v) for v in value]
    if t is str or t is int or value is None or t is bool or t is float:
        return value
    return copy.deepcopy(value)


def _copy_frame(frame: dict) -> dict:
    # Rules never change a list or a record in place (every `set` makes a new value, a
    # window's record is changed field by field), so a frame and its variables are
    # copied one level deep.
    out = dict(frame)
    env = out.get("env")
    if env is not None:
        out["env"] = dict(env)
    return out


_FIELDS = tuple(f.name for f in fields(GameState))


THING = "*"  # the key in GameState.revealed of the entity itself (no property is named so)


def player_zone(zone: str, player: str) -> str:
    return f"{zone}:{player}"


def _defaults(props: dict) -> dict:
    return {name: copy.deepcopy(spec.default) for name, spec in props.items()}


def seat_players(count: int) -> list[str]:
    """The player ids of a game of ``count`` players, seat by seat."""
    return [f"p{i}" for i in range(1, count + 1)]


def scripted_seats(ruleset: RuleSet, players: int) -> dict[str, str]:
    """The seats a script plays (player id → script name): they follow the ``players``
    seats of the people and bots, one per script named in ``game.scripted_seats``."""
    scripts = (ruleset.data.game.scripted_seats if ruleset.data.game else None) or []
    return {f"p{players + 1 + i}": name for i, name in enumerate(scripts)}


def people_seats(ruleset: RuleSet, state: "GameState") -> list[str]:
    """The seats of a game's people and bots, its scripted seats aside."""
    return seat_players(len(state.players) - len(ruleset.data.game.scripted_seats))


def all_seats(ruleset: RuleSet, players: int) -> list[str]:
    """Every seat of a game of ``players`` players: theirs, then the scripted ones."""
    return seat_players(players) + list(scripted_seats(ruleset, players))


def new_state(ruleset: RuleSet, players: int, seed: int) -> GameState:
    """Lay out every component as the rule set's tables say; rules do the rest in setup.

    The layout does not depend on the seed, so it is made once per rule set and number
    of players and copied for each new game."""
    shared = ruleset.compiled.shared if ruleset.compiled is not None else {}
    key = ("layout", players)
    layout = shared.get(key)
    if layout is None:
        layout = _layout(ruleset, players)
        # the entities whose properties are all plain values: a dict copy is a full copy
        plain = {k for k, e in layout[1].items() if all(isinstance(v, _PLAIN) for v in e["props"].values())}
        layout = shared[key] = (*layout, plain)
    player_ids, entities, zones, vars_, plain = layout
    return GameState(ruleset.name, seed, rng.seed_state(seed), list(player_ids),
                     {k: {"kind": e["kind"], "at": e["at"],
                          "props": dict(e["props"]) if k in plain else _copy_values(e["props"])}
                      for k, e in entities.items()},
                     {k: list(v) for k, v in zones.items()},
                     vars={scope: _copy_values(values) for scope, values in vars_.items()})


_PLAIN = (str, int, float, bool, type(None))


def _copy_values(values: dict) -> dict:
    """A copy of a dict of property values, as deep as the values go."""
    return {k: v if isinstance(v, _PLAIN) else copy.deepcopy(v) for k, v in values.items()}


def _layout(ruleset: RuleSet, players: int) -> tuple:
    """(player ids, entities, zones, variables) of a new game, before setup."""
    data = ruleset.data
    player_ids = all_seats(ruleset, players)
    entities: dict[str, dict] = {}
    zones: dict[str, list[str]] = {}
    for name, z in data.zones.items():
        if z.per_player:
            for p in player_ids:
                zones[player_zone(name, p)] = []
        elif not z.per_entity:  # zones of each entity of a kind: once the entities exist
            zones[name] = []
    pkind = data.kinds["player"]
    for i, p in enumerate(player_ids):
        props = _defaults(pkind.properties)
        for prop, values in (data.game.seats or {}).items():
            if i < len(values):
                props[prop] = values[i]
        entities[p] = {"kind": "player", "at": None, "props": props}

    board = data.board
    if board is not None and board.kind != "tiles":
        _lay_declared_board(data, entities, zones)

    def add(eid: str, comp, owner: str | None, space: str | None = None):
        kind = data.kinds[comp.kind]
        props = _defaults(kind.properties)
        props.update(copy.deepcopy(comp.properties))
        if owner is not None and kind.owner_property:
            props[kind.owner_property] = owner
        at = None
        if comp.zone:
            at = player_zone(comp.zone, owner) if data.zones[comp.zone].per_player else comp.zone
            zones[at].append(eid)
        elif space is not None:
            at = space
            zones[space].append(eid)
        entities[eid] = {"kind": comp.kind, "at": at, "props": props}
        if data.board and comp.kind == data.board.tile_kind:
            layout = data.board.layouts[comp.layout]
            space = data.kinds[data.board.space_kind]
            for room, room_props in layout.rooms.items():
                rid = f"{eid}/{room}"
                rp = _defaults(space.properties)
                rp.update(copy.deepcopy(room_props or {}))
                entities[rid] = {"kind": data.board.space_kind, "at": None, "props": rp}
                zones[rid] = []

    for comp in data.components:
        owners = player_ids if comp.per_player else [None]
        for owner in owners:
            for n in range(1, comp.count + 1):
                parts = [comp.name] + ([owner] if owner else []) + ([str(n)] if comp.count > 1 else [])
                add(".".join(parts), comp, owner, comp.spaces[n - 1] if comp.spaces else None)
    for name, z in data.zones.items():
        if z.per_entity:
            for eid, e in list(entities.items()):
                if e["kind"] == z.per:
                    zones[player_zone(name, eid)] = []
    vars_ = {scope: _defaults(specs) for scope, specs in data.variables.items()}
    vars_.setdefault("game", {})
    vars_.setdefault("turn", {})
    return player_ids, entities, zones, vars_


def _lay_declared_board(data, entities: dict, zones: dict) -> None:
    """A board declared whole is on the table from the start: every space an entity
    (and a place things stand in), every connection an entity when connections have a
    kind, so rules read and change their properties."""
    board = data.board
    space = data.kinds[board.space_kind]
    for sid, props in board.spaces.items():
        sp = _defaults(space.properties)
        sp.update(copy.deepcopy(props))
        entities[sid] = {"kind": board.space_kind, "at": None, "props": sp}
        zones[sid] = []
    if board.connection_kind:
        kind = data.kinds[board.connection_kind]
        for c in board.connections:
            if c.name not in entities:
                cp = _defaults(kind.properties)
                cp.update(copy.deepcopy(c.properties))
                entities[c.name] = {"kind": board.connection_kind, "at": None, "props": cp}


def component_effects(ruleset: RuleSet, player_ids: list[str]) -> dict[str, str]:
    """Entity id → the procedure named as its component's effect, for the ids new_state
    gives (they depend on the players, never on the seed). Kept beside the state, not
    in it: it is data of the rule set, and saved states stay as they were."""
    out = {}
    for comp in ruleset.data.components:
        if comp.effect is None:
            continue
        for owner in (player_ids if comp.per_player else [None]):
            for n in range(1, comp.count + 1):
                parts = [comp.name] + ([owner] if owner else []) + ([str(n)] if comp.count > 1 else [])
                out[".".join(parts)] = comp.effect
    return out


def tile_layouts(ruleset: RuleSet) -> dict[str, str]:
    """Tile id → layout name, for the ids new_state gives (they do not depend on the seed)."""
    data = ruleset.data
    out = {}
    if not data.board:
        return out
    for comp in data.components:
        if comp.kind != data.board.tile_kind:
            continue
        for n in range(1, comp.count + 1):
            out[comp.name + (f".{n}" if comp.count > 1 else "")] = comp.layout
    return out
