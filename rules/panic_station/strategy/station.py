"""The station as a Panic Station player sees it: rooms, doorways, pieces, distances.

Everything comes from the view (placed tiles, the pieces on the board, the flipped
cards) and from the rules every player knows: the card layouts and parasite damage of
the rule set in play, and its own ``can_pass`` function for the doors.
"""

from __future__ import annotations

import heapq

from rulecraft.bots.rule_questions import ViewQuestions

from .rules import RuleFacts

FAR = 99  # the distance to a room that cannot be reached
LOCKED_DOOR_STEPS = 4  # a door one cannot pass yet counts as this many moves (keycard, terminal)


def tile_of(room: str) -> str:
    return room.rsplit("/", 1)[0]


def owner_of(character: str) -> str:
    return character.split(".", 1)[1]


class Station:
    """One view's station, with distances for one player's way of passing doors."""

    def __init__(self, view: dict, me: str, rules: RuleFacts):
        self.view = view
        self.me = me
        self.rules = rules
        self.board = rules.board(view["tiles"])
        entities = view["entities"]
        self.rooms = list(self.board.graph.nodes)
        self.room_type = {r: entities[r]["props"].get("type") for r in self.rooms if r in entities}
        self.characters: dict[str, str] = {}  # character → room
        self.health: dict[str, int] = {}
        self.parasites: dict[str, list[tuple[str, str]]] = {}  # room → [(parasite, side)]
        for eid, e in entities.items():
            kind = e["kind"]
            if kind == "character":
                self.health[eid] = e["props"].get("health", 0)
                if e["at"] is not None and self.board.has(e["at"]):
                    self.characters[eid] = e["at"]
            elif kind == "parasite" and e["at"] is not None and self.board.has(e["at"]):
                side = e["props"].get("side", rules.mildest_side)
                self.parasites.setdefault(e["at"], []).append((eid, side))
        self.searched = {t: entities[t]["props"].get("searched", False) for t in view["tiles"] if t in entities}
        self.searchable = {t: entities[t]["props"].get("searchable", False) for t in view["tiles"] if t in entities}
        self.questions = ViewQuestions(rules.ruleset, view)
        self._distances: dict[frozenset, dict[str, int]] = {}
        self._walks: dict[tuple[str, str], bool] = {}
        self._danger: dict[str, float] = {}

    # ---- rooms
    def rooms_of_type(self, kind: str) -> list[str]:
        return [r for r, t in self.room_type.items() if t == kind]

    def passable(self, a: str, b: str) -> bool:
        """May this player's characters move from ``a`` to ``b`` now (the rules' own answer)?"""
        return bool(self.questions.ask("can_pass", a, b, self.me))

    def trades_forced(self, room: str) -> bool:
        """Must characters of different players meeting here attack or trade (the rules'
        own ``meetings_force_trades``)?"""
        return bool(self.questions.ask("meetings_force_trades", room))

    def exits(self, room: str) -> list[str]:
        return [r for r in self.board.connected(room) if self.passable(room, r)]

    def people_in(self, room: str) -> list[str]:
        return [c for c, r in self.characters.items() if r == room]

    def unsearched(self, room: str) -> bool:
        t = tile_of(room)
        return self.searchable.get(t, False) and not self.searched.get(t, False)

    def frontier(self, card: str | None) -> list[str]:
        """Rooms from which the next exploration card (public: its back shows) can be
        placed; any room with a doorway onto an empty cell when the card is unknown."""
        if card is not None:
            found = [r for r in self.rooms if self.board.placements(card, r, [0, 180])]
            if found or card != "hive":
                return found
        spec = self.board.geo.spec
        out = []
        for tile, (x, y, _) in self.board.tiles.items():
            for d, (dx, dy) in spec.directions.items():
                if (x + dx, y + dy) in self.board.cells:
                    continue
                edge, rooms = self.board.side(tile, d)
                if edge in spec.doorways:
                    out.extend(r for r in rooms if r not in out)
        return out

    # ---- danger and distance
    def parasites_come(self, there: str, room: str) -> bool:
        """Could the parasite phase's roll walk parasites from ``there`` into ``room``
        (the rules' own ``parasite_step``)?"""
        key = (there, room)
        found = self._walks.get(key)
        if found is None:
            ask = self.questions.ask
            found = self._walks[key] = any(ask("parasite_step", there, d) == room for d in self.rules.geometry.directions)
        return found

    def parasite_damage(self, room: str) -> int:
        damage = self.rules.parasite_damage
        return sum(damage[side] for _, side in self.parasites.get(room, []))

    def danger(self, room: str) -> float:
        """Expected parasite damage in a room at the next parasite phase, roughly: those
        in it (most stay), and a quarter of those that may walk in."""
        found = self._danger.get(room)
        if found is None:
            found = self._danger[room] = self._danger_in(room)
        return found

    def _danger_in(self, room: str) -> float:
        near = sum(self.parasite_damage(r) for r in self.board.connected(room) if self.parasites_come(r, room))
        return 0.8 * self.parasite_damage(room) + 0.25 * near

    def distances(self, goals) -> dict[str, int]:
        """Moves from every room to the nearest goal room through doorways; a security
        door the player cannot pass yet costs a few moves more."""
        key = frozenset(goals)
        found = self._distances.get(key)
        if found is None:
            found = {}
            heap = [(0, g) for g in sorted(key) if self.board.has(g)]
            while heap:
                d, r = heapq.heappop(heap)
                if r in found:
                    continue
                found[r] = d
                for o in self.board.connected(r):
                    if o not in found:
                        heapq.heappush(heap, (d + (1 if self.passable(o, r) else LOCKED_DOOR_STEPS), o))
            self._distances[key] = found
        return found

    def distance(self, room: str, goals) -> int:
        return self.distances(goals).get(room, FAR)
