"""A player's view as a fixed-length vector, laid out from the rule set's tables.

The layout depends only on the rule set and the number of players (every entity and
zone of a game exists from the start, whatever the seed), so one layout serves every
game and every seat. Slots, in order:

1. **seats**: one-hot of the viewer's seat, then one-hot of the seat whose turn it is
   (all zero when nobody's), then the round number;
2. **zones**: per zone (board spaces, shared zones, every player's own zones), how many
   components it holds as the viewer sees it (hidden zones show their public count);
3. **where each component is**: per component, 1 + the index of the zone it is in when
   the viewer sees where it is (a zone it sees, the top of a pile whose top is seen, or a
   thing ``reveal`` showed it in a hidden zone), 0 when the viewer does not; and 1 when it
   is in a zone of the viewer's own (their hand), else 0;
4. **properties**: per entity (players, components, board spaces) and property of its
   kind, a pair: 1 if the viewer sees the value, then the value encoded as a number;
5. **variables**: per game variable, then per turn variable, the same pair;
6. **tiles** (a board of tiles laid during play): per tile component, in the order the
   rule set lists them, ``TILE_SLOTS`` (4) slots: 1 when it is placed (else 0, and the
   next three 0), then its x, its y and its rotation as the game state holds them (grid
   units, degrees). Every tile laid is in plain sight, so every viewer sees the same.

A value becomes a number thus: none → 0; a truth value → 0 or 1; a number → itself; a
player → 1 + their seat counted from the viewer's (the viewer is 1); a text among the
property's declared values → 1 + its position; an entity id → 1 + its position among
the game's entities; a list → its length; anything else → 1.
"""

from __future__ import annotations

from rulecraft.interpreter.state import new_state, tile_layouts

TILE_SLOTS = 4  # placed, x, y, rotation


class ObservationLayout:
    def __init__(self, ruleset, players: int):
        self.ruleset = ruleset
        state = new_state(ruleset, players, 0)
        self.players = list(state.players)
        self.zones = list(state.zones)
        self.zone_index = {z: i for i, z in enumerate(self.zones)}
        self.entities = list(state.entities)
        self.entity_index = {e: i for i, e in enumerate(self.entities)}
        self.components = [e for e, v in state.entities.items() if v["kind"] != "player"
                           and v["kind"] not in _space_kinds(ruleset)]
        kinds = ruleset.data.kinds
        self.properties = [(eid, name, spec) for eid, v in state.entities.items()
                           for name, spec in kinds[v["kind"]].properties.items()]
        self.game_vars = list(ruleset.data.variables.get("game", {}).items())
        self.turn_vars = list(ruleset.data.variables.get("turn", {}).items())
        self.tiles = list(tile_layouts(ruleset))
        n = len(self.players)
        self.size = (2 * n + 1 + len(self.zones) + 2 * len(self.components) + 2 * len(self.properties)
                     + 2 * len(self.game_vars) + 2 * len(self.turn_vars) + TILE_SLOTS * len(self.tiles))

    def encode(self, view: dict) -> list[float]:
        viewer = view["viewer"]
        # a viewer who is no seat (what every player sees): no seat slot set, players
        # counted from the first seat
        seat = self.players.index(viewer) if viewer in self.players else None
        n = len(self.players)
        out = [0.0] * (2 * n)
        if seat is not None:
            out[seat] = 1.0
        seat = seat or 0
        if view["current"] in self.players:
            out[n + self.players.index(view["current"])] = 1.0
        out.append(float(view["round"]))
        zones = view["zones"]
        where: dict[str, str] = {}
        for zone in self.zones:
            shown = zones.get(zone, [])
            if isinstance(shown, list):
                out.append(float(len(shown)))
                for eid in shown:
                    where[eid] = zone
            else:
                out.append(float(shown["count"]))
                # what the viewer sees of a hidden zone: its top, and what was shown to them
                if "top" in shown:
                    where[shown["top"]] = zone
                for eid in shown.get("shown", ()):
                    where[eid] = zone
        for eid in self.components:
            zone = where.get(eid)
            out.append(0.0 if zone is None else 1.0 + self.zone_index[zone])
            out.append(1.0 if zone is not None and zone.endswith(":" + viewer) else 0.0)
        entities = view["entities"]
        for eid, name, spec in self.properties:
            props = entities.get(eid, {}).get("props", {})
            if name in props:
                out += [1.0, self._number(props[name], spec, seat)]
            else:
                out += [0.0, 0.0]
        for scope, specs in (("game", self.game_vars), ("turn", self.turn_vars)):
            values = view["vars"].get(scope, {})
            for name, spec in specs:
                out += [1.0, self._number(values[name], spec, seat)] if name in values else [0.0, 0.0]
        placed = view.get("tiles") or {}
        for tile in self.tiles:
            where = placed.get(tile)
            out += [0.0] * TILE_SLOTS if where is None else [1.0] + [float(v) for v in where[:TILE_SLOTS - 1]]
        return out

    def _number(self, value, spec, seat: int) -> float:
        if value is None:
            return 0.0
        if isinstance(value, bool):
            return float(value)
        if isinstance(value, (int, float)):
            return float(value)
        if isinstance(value, str):
            if value in self.players:
                return 1.0 + (self.players.index(value) - seat) % len(self.players)
            values = getattr(spec, "values", None)
            if values and value in values:
                return 1.0 + values.index(value)
            if value in self.entity_index:
                return 1.0 + self.entity_index[value]
            return 1.0
        if isinstance(value, (list, tuple, dict)):
            return float(len(value))
        return 1.0


def _space_kinds(ruleset) -> set[str]:
    board = ruleset.data.board
    return {board.space_kind} if board is not None and board.space_kind else set()
