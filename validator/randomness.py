"""Randomness a scenario relies on without arranging it.

A scenario that draws a card from a shuffled deck, rolls a die or lets the rules pick at
random, without having fixed the result, depends on the seed's random deal: adding one
card or one tile to the rule set changes every shuffle, and the scenario then fails for
a reason that has nothing to do with what it checks. This watcher follows the game
while the scenario's steps run and lists such draws, so that ``verify`` can warn.

A deck is an ordered zone nobody may look into: its order is the shuffle's. A card
drawn from it is arranged when the scenario put it there (``deck_top``, ``pieces``,
``move_all``, or ``game_setup: shuffles``, which fixes what the game's own setup
shuffles on top: :func:`placed_by_shuffles`) or when the rules put it there during the
steps, unless the deck was shuffled since with cards of other components in it.

A passing scenario that relies on such draws can be played again with what it left to
chance dealt otherwise (:meth:`RandomnessWatch.redeal`): the generator reseeded, and the
cards it did not arrange in each deck the setup shuffled put in another order. If it
still passes, what it checks does not depend on the deal; if it fails, it passes by the
seed's luck.
"""

from __future__ import annotations

from rulecraft.interpreter import rng
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.state import forced_shuffle_key

from .names import Names


def placed_by_shuffles(game: Game, shuffles: dict) -> set[str]:
    """The entities the game's own setup put on top of a zone's shuffle because the
    scenario fixed them (``game_setup: {shuffles: {zone: [ids]}}``, as ``fix_shuffles``
    wrote them: an id, or a list of interchangeable ids for a component of several
    copies). The setup's recorded events tell which copy: the zone's content when it
    was first shuffled is its content now with every later move undone, and the shuffle
    took, for each entry, the first of its ids the zone held that it had not taken. What
    a later shuffle of the setup found still in the zone lies where chance put it."""
    events = game.events
    placed: set[str] = set()
    for zone, top in shuffles.items():
        start = next((i for i, e in enumerate(events) if e["type"] == "shuffled" and e.get("zone") == zone), None)
        if start is None or zone not in game.state.zones:
            continue  # never shuffled: the setup left the fixed top unused, a failure of its own
        held = set(game.state.zones[zone])
        mixed: set[str] = set()  # what a later shuffle of the setup found in the zone: chance's again
        for e in reversed(events[start + 1:]):
            if e["type"] == "moved":
                if e.get("destination") == zone:
                    held.discard(e["entity"])
                if e.get("source") == zone:
                    held.add(e["entity"])
            elif e["type"] == "shuffled" and e.get("zone") == zone:
                mixed |= held
        chosen: list[str] = []
        for wanted in top:
            ids = [wanted] if isinstance(wanted, str) else list(wanted)
            eid = next((x for x in ids if x in held and x not in chosen), None)
            if eid is not None:
                chosen.append(eid)
        placed.update(c for c in chosen if c not in mixed)
    return placed


class RandomnessWatch:
    def __init__(self, game: Game, names: Names, arranged: set[str]):
        self.game = game
        self.names = names
        spec = game.ruleset.data.zones
        self.decks = [z for z in game.state.zones
                      if (s := spec.get(z.split(":", 1)[0])) is not None and s.ordered and s.visible_to == "nobody"]
        self.known: set[str] = set(arranged)
        self.contents = self._contents()
        self.rng = game.state.rng
        self.draws: dict[str, list[str]] = {}  # deck → cards drawn from it unarranged
        self.rolls: dict[str, int] = {}  # die → rolls without a fixed result
        self.picks = 0  # random() picks without a fixed one
        self.tops = self._fixed_tops()
        self._forward = game.machine.on_event
        game.machine.on_event = self._event

    def stop(self) -> None:
        self._look(None)
        self.game.machine.on_event = self._forward

    def redeal(self, seed: int) -> None:
        """Deal again what the scenario left to chance, from ``seed``: the generator the
        steps draw from, and the order of the cards it did not arrange in every deck the
        game's setup shuffled (a deck the rules built in order keeps it: that order is
        the rules', not chance's)."""
        state, machine = self.game.state, self.game.machine
        state.rng = rng.seed_state(seed)
        shuffled = {e.get("zone") for e in self.game.events if e["type"] == "shuffled"}
        for zone in self.decks:
            if zone not in shuffled:
                continue
            places = [i for i, eid in enumerate(state.zones[zone]) if eid not in self.known]
            if len(places) < 2:
                continue
            cards = [state.zones[zone][i] for i in places]
            state.rng = rng.shuffle(state.rng, cards)
            items = machine.own_zone(zone)
            for i, eid in zip(places, cards):
                items[i] = eid
        machine.invalidate()
        self.rng = state.rng

    def arranged(self, entities: set[str]) -> None:
        """An ``arrange`` step moved these: the scenario knows where they are."""
        self.known |= entities
        self.contents = self._contents()
        self.tops = self._fixed_tops()

    def warnings(self) -> list[str]:
        out = []
        for zone, cards in self.draws.items():
            shown = ", ".join(cards[:3]) + (", …" if len(cards) > 3 else "")
            out.append(f"draws {len(cards)} card(s) from {zone} that it did not arrange ({shown}): state them with deck_top")
        for die, n in self.rolls.items():
            out.append(f"rolls {die} {n} time(s) without a fixed result: state them with rolls")
        if self.picks:
            out.append(f"the rules pick at random {self.picks} time(s) without a fixed pick: state them with picks")
        return out

    # ------------------------------------------------------------ watching
    def _fixed_tops(self) -> dict[str, int]:
        """Per deck, how many cards its next shuffle puts on top as the scenario fixed."""
        forced = self.game.state.forced_rolls
        return {z: len(tops[0]) for z in self.decks if (tops := forced.get(forced_shuffle_key(z)))}

    def _contents(self) -> dict[str, set[str]]:
        return {z: set(self.game.state.zones[z]) for z in self.decks}

    def _event(self, event: dict) -> None:
        self._look(event)
        if self._forward is not None:
            self._forward(event)

    def _look(self, event: dict | None) -> None:
        s = self.game.state
        now = self._contents()
        for zone in self.decks:
            for eid in self.contents[zone] - now[zone]:
                if eid not in self.known:
                    self.draws.setdefault(zone, []).append(eid)
            self.known |= now[zone] - self.contents[zone]
        self.contents = now
        kind = event["type"] if event else None
        if kind == "shuffled" and event.get("zone") in now:
            # Copies of one component shuffled together still come out as that component.
            cards = now[event["zone"]]
            if len({self.names.component(c) for c in cards}) > 1:
                self.known -= cards
            # What the scenario fixed this shuffle to put on top (`shuffles`) is arranged.
            self.known |= set(s.zones[event["zone"]][:self.tops.get(event["zone"], 0)])
        self.tops = self._fixed_tops()
        if s.rng != self.rng:
            if kind == "rolled":
                self.rolls[event["die"]] = self.rolls.get(event["die"], 0) + 1
            elif kind != "shuffled":
                self.picks += 1
        self.rng = s.rng

