"""The Panic Station strategy of the heuristic bot.

Every legal option gets a score from what the player sees (their view) and remembers
(:mod:`.memory`) and the rules in play (:mod:`.rules`); the bot plays the best one.

Uninfected players (humans) explore until the Hive shows up, search for gas cans, keep
them, shoot parasites, keep away from parasites and from players they suspect, and
send a Trooper holding enough gas cans (the rule set's ``gas_cans_to_burn``) to the Hive to
burn it. In a trade they give a gas
can to a partner they suspect (it blocks an infection), otherwise their least useful
card. Infected players walk into the rooms of players not known to be infected and hand
them an infection card, shoot uninfected Troopers, steer new parasites towards them,
keep the Hive away from them and ask for a heat scan once everyone alive is infected.

Moves are scored by how much they improve a room's worth for the moving character: its
distance to what that character is after (the Hive, unsearched rooms, the unexplored
edge, a Sick Bay, or for the infected someone to infect), minus the parasite danger and
the risk of a forced trade there.
"""

from __future__ import annotations

import random

from rulecraft.dsl.model import RuleSet

from .memory import Memory
from .rules import facts_of, rules_problem
from .station import FAR, Station, owner_of, tile_of

# What a card in hand is worth keeping (the least worth is what a trade gives away).
KEEP_VALUE = {
    "gas_can": 100, "armor": 45, "ammo": 40, "first_aid_kit": 35, "energy_boost": 25, "heat_scanner": 25,
    "combat_knife": 22, "keycard": 20, "heavy_gun": 18, "target_scope": 15, "grenade": 20,
}
PERMANENT_ITEM_VALUE = {"ammo": 45, "combat_knife": 28, "keycard": 18, "heavy_gun": 20, "target_scope": 16}

# Tuning knobs (see docs/bots.md for the balance they give).
# -- humans
GIVE_GAS_CAN_AT = 0.45  # suspicion from which a human blocks a possible infection with a gas can
WALK_IN_SUSPICION = 0.3  # humans avoid trades, so whoever walks in to trade is suspect
TRUST_BELOW = 0.2  # suspicion under which a human hands gas cans to a partner with a living Trooper
ATTACK_INSTEAD_OF_TRADE_AT = 0.7  # suspicion from which a human shoots rather than trades
SHOOT_SUSPECT_AT = 0.9  # suspicion from which a human shoots a player's characters unprovoked
SHOOT_SUSPECT_VALUE = 30.0
SUSPECT_HUNT_PULL = 0.0  # per move, an armed human Android's pull towards a suspect it may shoot
SANCTUARY = 10.0  # what standing where no trade is forced (the Reactor) is worth to a human holding a gas can
SANCTUARY_WITHOUT_GAS = 40.0  # and to one with no gas can to block an infection with
HUMAN_EXPLORE = 42.0  # a human exploring while the Hive is still hidden
EXPLORE_PULL = 10.0  # per move, a human's pull towards a room the next card can be explored from
HIVE_PULL = 30.0  # per move, the pull of the Hive on a Trooper holding enough gas cans
TROOPER_CARE = 1.5  # how much more a human's Trooper weighs its room than its Android does
SPAWN_COST = 3.0  # what one more parasite on the board costs the humans
IDLE_TURN_COST = 70.0  # ending a turn before acting forfeits its action points: more than a step out of a safe room costs
# -- everyone
DANGER_WEIGHT = 10.0  # score lost per expected point of parasite damage
# -- the infected
HUNT_WEIGHT = 3.0  # per move, an infected player's pull towards someone to infect
INFECTED_MEETING = 8.0  # an infected player walking in on someone to infect
LATE_ROUND = 12  # from this round on, the infected hunt with the weights below
LATE_HUNT_WEIGHT = 6.0
LATE_INFECTED_MEETING = 25.0
INFECTED_SHOOT_TROOPER = 40.0  # an infected player wounding an uninfected Trooper
INFECTED_RED_SEARCH = 6.0  # an infected player searching a red room: a parasite to steer, cards drawn


class PanicStationStrategy:
    """Made per game and seat by the heuristic bot, with the rule set in play."""

    # why this strategy cannot play by a rule set of its game's name, or None
    rules_problem = staticmethod(rules_problem)

    def __init__(self, rng: random.Random, ruleset: RuleSet):
        self.rng = rng
        self.rules = facts_of(ruleset)
        self.memory: Memory | None = None
        self.acted = True  # whether the player took an action in their turn under way

    # ------------------------------------------------------------------ reading the view
    def observe(self, view: dict) -> None:
        me = view["viewer"]
        if self.memory is None:
            self.memory = Memory(me, self.rules)
        entities = view["entities"]
        self.me = me
        self.view = view
        self.entities = entities
        self.infected = bool(entities[me]["props"].get("infected"))
        self.memory.read(view.get("events") or [], entities, self.infected)
        for event in view.get("events") or []:  # whether this turn of the player's saw an action yet
            if event["type"] == "turn_started" and event.get("player") == me:
                self.acted = False
            elif event["type"] == "action_taken" and event.get("player") == me:
                self.acted = True
        self.round = view.get("round", 0)
        self.station = Station(view, me, self.rules)
        hand = view["zones"].get(f"hand:{me}", [])
        self.hand = hand if isinstance(hand, list) else []
        self.items = {c: entities.get(c, {}).get("props", {}).get("item") for c in self.hand}
        self.gas = sum(1 for i in self.items.values() if i == "gas_can")
        play_area = view["zones"].get(f"play_area:{me}", [])
        self.in_play = [entities[c]["props"].get("item") for c in play_area if c in entities]
        self.bullets = sum(entities[c]["props"].get("bullets", 0) for c in play_area
                           if c in entities and entities[c]["props"].get("item") == "ammo")
        self.trooper = f"trooper.{me}"
        self.android = f"android.{me}"
        self.mine = {c: r for c, r in self.station.characters.items() if owner_of(c) == me}
        self.living = [p for p in view["players"] if self._alive(p)]
        others = [p for p in self.living if p != me]
        self.suspicion = {p: self._suspicion(p, others) for p in view["players"] if p != me}
        hives = self.station.rooms_of_type("hive")
        self.hive = hives[0] if hives else None
        deck = view["zones"].get("exploration_deck", {})
        self.top = deck.get("top") if isinstance(deck, dict) else None
        self.turn = view["vars"].get("turn") or {}
        self.ap = entities[me]["props"].get("ap", 0)
        self._frontier = None
        # the infected press harder once the game drags on
        late = self.round >= LATE_ROUND
        self.hunt_weight = LATE_HUNT_WEIGHT if late else HUNT_WEIGHT
        self.meeting_value = LATE_INFECTED_MEETING if late else INFECTED_MEETING
        self.unsearched_rooms = [r for r in self.station.rooms if self.station.unsearched(r)]
        unknown = [p for p in self.living if p != me and p not in self.memory.known_infected]
        self.all_known_infected = self.infected and not unknown
        # an infected player with at most one unknown player left tries heat scans
        self.scan_worth_trying = self.infected and len(unknown) <= 1
        troopers = [c for c, h in self.station.health.items() if c.startswith("trooper.") and h > 0]
        self.my_trooper_is_last = (self.infected and troopers == [self.trooper]
                                   and self.station.health.get(self.android, 0) > 0)  # still alive to win
        # an uninfected player whose Trooper is dead hands their gas cans on
        self.donor = not self.infected and self.gas > 0 and self.station.health.get(self.trooper, 0) == 0

    @property
    def frontier(self) -> list[str]:
        if self._frontier is None:
            self._frontier = self.station.frontier(self.top)
        return self._frontier

    def _alive(self, p: str) -> bool:
        return p not in self.memory.out and any(
            self.entities.get(f"{role}.{p}", {}).get("props", {}).get("health", 0) > 0 for role in ("trooper", "android"))

    def _suspicion(self, p: str, others: list[str]) -> float:
        """For an infected player: 1 for the players known to be infected, else 0 (a target)."""
        if self.infected:
            return 1.0 if p in self.memory.known_infected else 0.0
        return self.memory.suspicion(p, others, self.round)

    def target(self, p: str) -> bool:
        """For the infected: a player worth infecting or hurting."""
        return p != self.me and p in self.living and p not in self.memory.known_infected

    # ------------------------------------------------------------------ scoring
    def score(self, view: dict, option) -> float:
        kind = view["choice"]["kind"]
        if kind == "action":
            name = option.get("action")
            method = getattr(self, f"_action_{name}", None)
            return method(**(option.get("args") or {})) if method is not None else 0.0
        if kind == "reaction":
            return self._reaction(option)
        return self._choice(view["choice"].get("prompt") or "", option)

    # ---- actions
    def _action_end_turn(self) -> float:
        # every step is scored against the room a character stands in, so from a safe
        # room all of them look worse than staying: ending the turn at once must cost
        # what the turn could have done, or a player sits out turn after turn
        return 0.0 if self.acted else -IDLE_TURN_COST

    def _action_burn_hive(self, c) -> float:
        return 1000.0

    def _action_move(self, c, r) -> float:
        return self._step_value(c, r) - 1.0

    def _action_run_through(self, r) -> float:
        c = self.turn.get("run_character")
        return 0.0 if c is None else self._step_value(c, r)

    def _step_value(self, c: str, r: str) -> float:
        value = self._room_worth(c, r) - self._room_worth(c, self.mine.get(c)) + self._meeting_value(r)
        if self.station.room_type.get(r) == "parasite_alert":  # entering one makes a parasite appear
            value -= self._spawn_cost(r, arriving=c)
        return value

    def _action_explore(self, c) -> float:
        if self.hive is not None:
            return 3.0  # nothing left to find that matters
        if self.infected and self.scan_worth_trying and not self.station.rooms_of_type("terminal"):
            return 35.0  # look for a terminal to run the heat scan that ends the game
        if self.top == "hive":
            if self.infected:
                return 900.0 if self.all_known_infected else -20.0  # the Hive's heat scan ends it
            near = self.mine.get(self.trooper)
            if near is not None and self.gas >= self.rules.gas_cans_to_burn - 1 and self.station.distance(near, [self.mine[c]]) <= 1:
                return 45.0
            return 14.0
        return 8.0 if self.infected else HUMAN_EXPLORE

    def _action_search(self, c) -> float:
        room = self.mine[c]
        fresh = self.station.unsearched(room)
        risk = 0.0 if fresh else self._spawn_cost(room)
        if self.infected:
            return (25.0 if fresh else INFECTED_RED_SEARCH) - risk  # its parasite is steered at the humans
        needy = self.gas < self.rules.gas_cans_to_burn and not self.unsearched_rooms
        value = (35.0 if fresh else 24.0 if needy else 10.0) - risk
        if fresh and self.station.room_type.get(room) == "storage":
            value += 15.0
        if self.gas >= self.rules.gas_cans_to_burn and self.hive is not None:
            value -= 20.0
        return value

    def _spawn_cost(self, room: str, arriving: str | None = None) -> float:
        """What a parasite appearing from ``room`` costs: it lands in the rolled direction's
        room, or in this very room when no room lies that way, and stays on the board
        (a lasting threat to the humans; for the infected mostly a weapon)."""
        st = self.station
        blind = sum(1 for d in st.board.geo.directions if not st.board.towards(room, d))
        here = [c for c, r in self.mine.items() if r == room and c != arriving] + ([arriving] if arriving else [])
        full = self.rules.full_health
        risk = sum(DANGER_WEIGHT * 0.8 * (1.0 + (full - st.health.get(c, full)) / 2.0) for c in here) * blind / len(
            st.board.geo.directions)
        return risk + (0.0 if self.infected else SPAWN_COST)

    def _red(self, c: str) -> float:
        """The cost of using a room with an icon: a red card makes a parasite appear."""
        room = self.mine[c]
        return 0.0 if self.station.unsearched(room) else self._spawn_cost(room)

    def _action_team_search(self, c, partner) -> float:
        if self.infected:
            return (10.0 if self.target(partner) else 22.0) - self._red(c)
        return 32.0 - 35.0 * self.suspicion.get(partner, 0.5) - self._red(c)

    def _action_trade(self, partner) -> float:
        p = owner_of(partner)
        if self.infected:
            return 60.0 if self.target(p) else 20.0
        return 50.0 - 45.0 * self.suspicion.get(p, 0.5)

    def _action_fire_gun(self, shooter, target) -> float:
        return self._shot_value(target)

    def _action_stab(self, attacker, target) -> float:
        value = self._shot_value(target)
        return value * 0.5 if value > 0 else value

    def _action_throw_grenade(self, thrower, target, card) -> float:
        value = -5.0
        for _ in self.station.parasites.get(target, []):
            value += 5.0 if self.infected else 25.0
        for ch in self.station.people_in(target):
            value += self._harm_value(ch)
        return value

    def _action_play_item(self, card) -> float:
        item = self.items.get(card)
        value = PERMANENT_ITEM_VALUE.get(item, 0.0)
        if item in ("ammo", "heavy_gun", "target_scope") and self.android not in self.mine:
            return -5.0
        if item in ("heavy_gun", "target_scope") and item in self.in_play:
            return -5.0
        if item == "keycard" and "keycard" in self.in_play:
            return -5.0
        return value

    def _action_use_energy_boost(self, card) -> float:
        return 12.0 if self.ap <= 1 else 4.0

    def _action_use_first_aid_kit(self, card, healer, patient) -> float:
        full = self.rules.full_health
        hurt = full - self.station.health.get(patient, full)
        if owner_of(patient) == self.me:
            return hurt * 12.0 - 6.0 + (5.0 if patient == self.trooper else 0.0)
        if self.infected:
            return -5.0 if self.target(owner_of(patient)) else hurt * 3.0
        return hurt * 4.0 * (1 - self.suspicion.get(owner_of(patient), 0.5)) - 6.0

    def _action_use_heat_scanner(self, card, user, subject) -> float:
        if self.infected:
            return 2.0
        s = self.suspicion.get(subject, 0.5)
        return 10.0 + 100.0 * s * (1 - s)

    def _action_heal_in_sick_bay(self, c) -> float:
        full = self.rules.full_health
        missing = sum(full - self.station.health.get(x, full) for x, r in self.mine.items() if r == self.mine[c])
        return min(missing, self.rules.sick_bay_healing) * 12.0 - self._red(c)

    def _action_terminal_heat_scan(self, c) -> float:
        red = self._red(c)
        if self.infected:
            if self.all_known_infected:
                return 900.0
            return 50.0 if self.scan_worth_trying and self.round - self.memory.scan_round >= 2 else 1.0
        stale = self.memory.scan is None or self.round - self.memory.scan_round >= 3
        return (25.0 if stale else 2.0) - red

    def _action_terminal_open_doors(self, c) -> float:
        return 1.0

    def _action_terminal_reveal_location(self, c) -> float:
        if self.top == "hive":
            if self.infected:
                return 40.0
            return 90.0 if self.trooper in self.mine and self.gas >= self.rules.gas_cans_to_burn - 1 else 30.0
        return 4.0 if self.infected else 22.0

    # ---- harming
    def _shot_value(self, target) -> float:
        if target is None:
            return 0.0
        if target.startswith(("trooper.", "android.")):
            return self._harm_value(target)
        room = self.entities.get(target, {}).get("at")
        damage = self.rules.parasite_damage
        side = self.entities.get(target, {}).get("props", {}).get("side", self.rules.mildest_side)
        near_me = any(r == room for r in self.mine.values())
        if self.infected:
            return 15.0 if near_me else 2.0
        fiercer = damage[side] > damage[self.rules.mildest_side]  # worth more to hit
        return 55.0 + (8.0 if fiercer else 0.0) + (12.0 if near_me else 0.0)

    def _harm_value(self, character: str) -> float:
        """What wounding another character is worth (negative: do not)."""
        owner = owner_of(character)
        if owner == self.me:
            # the last Trooper standing is the infected's own: its death wins the game
            return 300.0 if character == self.trooper and self.my_trooper_is_last else -300.0
        health = self.station.health.get(character, self.rules.full_health)
        trooper = character.startswith("trooper.")
        if self.infected:
            if not self.target(owner):
                return -60.0
            return (INFECTED_SHOOT_TROOPER if trooper else 14.0) + (12.0 if health <= 1 else 0.0)
        s = self.suspicion.get(owner, 0.5)
        encounter_room = self.turn.get("encounter_room")
        if encounter_room is not None and self.station.characters.get(character) == encounter_room:
            if s >= ATTACK_INSTEAD_OF_TRADE_AT:
                return 60.0 + 40.0 * s
        if s >= SHOOT_SUSPECT_AT:
            return SHOOT_SUSPECT_VALUE + (10.0 if not trooper else 0.0) + (10.0 if health <= 1 else 0.0)
        return -100.0

    # ---- where characters stand
    def _room_worth(self, c: str, room: str | None) -> float:
        if room is None:
            return 0.0
        st = self.station
        full = self.rules.full_health
        health = st.health.get(c, full)
        frail = 1.0 + (full - health) / 2.0
        worth = -DANGER_WEIGHT * frail * st.danger(room)
        if st.danger(room) >= health:
            worth -= 25.0
        trooper = c == self.trooper
        if trooper and not self.infected:
            worth *= TROOPER_CARE  # the Trooper alone can burn the Hive
        steps = lambda goals: min(st.distance(room, goals), 10)  # noqa: E731 - a local shorthand
        if self.infected:
            if self.scan_worth_trying:
                terminals = st.rooms_of_type("terminal")
                if terminals:
                    worth -= 10.0 * steps(terminals)
                elif self.frontier:
                    worth -= 6.0 * steps(self.frontier)
            if c == self.trooper and self.my_trooper_is_last:
                return DANGER_WEIGHT * st.danger(room)  # its death ends the game
            targets = self._hunting_grounds(c)
            if targets:
                worth -= self.hunt_weight * steps(targets)
            unsearched = [r for r in st.rooms if st.unsearched(r)]
            if unsearched:
                worth -= 1.5 * steps(unsearched)
            return worth
        # humans: suspects nearby can walk in and force a trade, where the rules force one
        if not st.trades_forced(room):
            worth += SANCTUARY if self.gas else SANCTUARY_WITHOUT_GAS
        else:
            here = [self.suspicion.get(owner_of(o), 0.5) for o in st.people_in(room) if owner_of(o) != self.me]
            near = [self.suspicion.get(owner_of(o), 0.5) for r in st.exits(room) for o in st.people_in(r)
                    if owner_of(o) != self.me]
            worth -= 12.0 * max(here, default=0.0) + 2.0 * max(near, default=0.0)
        if trooper and self.hive is not None and self.gas >= self.rules.gas_cans_to_burn:
            return worth - HIVE_PULL * steps([self.hive])
        if self.unsearched_rooms:
            worth -= 4.0 * steps(self.unsearched_rooms)
        elif self.gas < self.rules.gas_cans_to_burn:
            searchable = [r for r in st.rooms if st.searchable.get(tile_of(r))]
            if searchable:
                worth -= 3.0 * steps(searchable)
        if self.hive is None:
            frontier = self.frontier
            if frontier:
                worth -= EXPLORE_PULL * steps(frontier)
        elif trooper:
            worth -= 2.0 * steps([self.hive])
        if health <= full // 2:  # badly hurt
            bays = st.rooms_of_type("sick_bay")
            if bays:
                worth -= 4.0 * steps(bays)
        if self.donor:
            receivers = [r for ch, r in st.characters.items() if ch.startswith("trooper.") and owner_of(ch) != self.me
                         and self.suspicion.get(owner_of(ch), 0.5) < TRUST_BELOW and st.trades_forced(r)]
            if receivers:
                worth -= 5.0 * steps(receivers)
        if not trooper and self.bullets > 0 and SUSPECT_HUNT_PULL:
            prey = [r for ch, r in st.characters.items()
                    if owner_of(ch) != self.me and self.suspicion.get(owner_of(ch), 0.5) >= SHOOT_SUSPECT_AT]
            if prey:
                worth -= SUSPECT_HUNT_PULL * steps(prey)
        if not trooper and self.trooper in self.mine and self.bullets > 0:
            worth -= 1.5 * steps([self.mine[self.trooper]])  # an armed Android stays near its Trooper
        return worth

    def _hunting_grounds(self, c: str) -> list[str]:
        """Where an infected character goes after the others: rooms where a meeting forces
        a trade (not the Reactor) holding someone to infect; for an armed Android without
        infection cards left, rooms holding someone to shoot (Troopers first)."""
        targets = {ch: r for ch, r in self.station.characters.items() if self.target(owner_of(ch))}
        if any(self.memory.card_owner(card) == self.me for card in self.hand):
            return [r for r in targets.values() if self.station.trades_forced(r)]
        if c == self.android and self.bullets > 0:
            troopers = [r for ch, r in targets.items() if ch.startswith("trooper.")]
            return troopers or list(targets.values())
        return []

    def _meeting_value(self, room: str) -> float:
        """Walking into a room with another player's character forces a trade there."""
        st = self.station
        if not st.trades_forced(room):
            return 0.0
        owners = {owner_of(ch) for ch in st.people_in(room) if owner_of(ch) != self.me}
        if not owners:
            return 0.0
        if self.infected:
            if any(self.target(p) for p in owners) and any(self.memory.card_owner(c) == self.me for c in self.hand):
                return self.meeting_value
            return -3.0
        least = min(self.suspicion.get(p, 0.5) for p in owners)
        if self.donor and least < TRUST_BELOW:
            return 10.0
        if least >= GIVE_GAS_CAN_AT and self.gas > 0:
            return -6.0 - 20.0 * least  # the gas can would be the price
        return -6.0 - 45.0 * least

    # ---- reactions
    def _reaction(self, option) -> float:
        if option.get("reaction") == "play_armor":
            return 30.0
        return 0.0

    # ---- choices inside an action
    def _choice(self, prompt: str, option) -> float:
        if isinstance(option, dict) and "x" in option:
            return self._placement(option)
        if option is None:
            return 0.0
        if not isinstance(option, str):
            return 0.0
        if option in self.items or self.memory.card_owner(option) is not None:
            return self._give_value(option)
        kind = self.entities.get(option, {}).get("kind")
        if kind == "room":
            return self._spawn_room_value(option)
        if kind == "parasite":
            if "Every parasite is out" in prompt or "which one moves" in prompt:
                return self._parasite_to_move_value(option)
            return self._shot_value(option)
        if kind == "character":
            if "Heavy Gun" in prompt or "shot" in prompt:
                return self._shot_value(option)
            return self._heal_value(option)
        return 0.0

    def _give_value(self, card: str) -> float:
        partner = self.memory.trade_partner
        item = self.items.get(card)
        if self.infected:
            if self.memory.card_owner(card) == self.me:
                return 100.0 if partner is None or self.target(partner) else -50.0
            if item == "gas_can":
                return -120.0  # keep gas cans away from the humans
            return -KEEP_VALUE.get(item, 0.0)
        if item == "gas_can":
            s = self.suspicion.get(partner, 0.5) if partner else 0.5
            if self.donor and s < TRUST_BELOW and f"trooper.{partner}" in self.station.characters:
                return 60.0  # my Trooper is dead: my gas cans are worth more in a partner's hand
            if self.memory.partner_came_to_me:
                s += WALK_IN_SUSPICION
            if s >= GIVE_GAS_CAN_AT:
                return 50.0
            return -KEEP_VALUE["gas_can"] - (50.0 if self.gas <= self.rules.gas_cans_to_burn else 0.0)
        if item is None:  # another player's infection card: worthless to keep
            return 5.0
        return -KEEP_VALUE.get(item, 10.0)

    def _spawn_room_value(self, room: str) -> float:
        value = 0.0
        for ch in self.station.people_in(room):
            owner = owner_of(ch)
            if owner == self.me:
                value -= 30.0 if ch == self.trooper else 20.0
            elif self.infected:
                value += (25.0 if ch.startswith("trooper.") else 8.0) if self.target(owner) else -10.0
            else:
                value += 20.0 * (self.suspicion.get(owner, 0.5) - 0.5)
        return value

    def _parasite_to_move_value(self, parasite: str) -> float:
        """Every parasite is out: move the one whose leaving helps most."""
        room = self.entities.get(parasite, {}).get("at")
        return -self._spawn_room_value(room) if room else 0.0

    def _heal_value(self, character: str) -> float:
        full = self.rules.full_health
        health = self.station.health.get(character, full)
        if owner_of(character) == self.me:
            return (full - health) * 10.0 + (5.0 if character == self.trooper else 0.0) + 10.0
        if self.infected:
            return -5.0 if self.target(owner_of(character)) else (full - health) * 3.0
        return (full - health) * 3.0 * (1 - self.suspicion.get(owner_of(character), 0.5))

    # ---- placing a card
    def _placement(self, spot: dict) -> float:
        card = self.top
        if card is None:
            return self.rng.random()
        st = self.station
        board = st.board
        spec = board.geo.spec
        x, y, rot = spot["x"], spot["y"], spot["rotation"]
        openings = 0  # doorways onto empty cells: room to explore further
        entrances: list[str] = []  # rooms the new card joins through a doorway
        for d, (dx, dy) in spec.directions.items():
            edge, _ = board.side(card, d, rot)
            if edge not in spec.doorways:
                continue
            other = board.cells.get((x + dx, y + dy))
            if other is None:
                openings += 1
                continue
            oedge, orooms = board.side(other, board.geo.opposite(d))
            if spec.joins.get((edge, oedge)) in spec.doorways:
                entrances.extend(orooms)
        if card == "hive":
            return self._hive_spot_value(entrances)
        value = 2.0 * openings + 1.0 * len(entrances) + self.rng.random()
        if not self.infected and self.mine and entrances:
            value -= 1.0 * min(st.distance(r, entrances) for r in self.mine.values())
        return value

    def _hive_spot_value(self, entrances: list[str]) -> float:
        st = self.station
        if not entrances:
            return -50.0
        if self.infected:
            rooms = [r for ch, r in st.characters.items()
                     if ch.startswith("trooper.") and self.target(owner_of(ch))]
            return float(min((st.distance(r, entrances) for r in rooms), default=FAR))
        trooper_room = self.mine.get(self.trooper)
        if trooper_room is None:
            rooms = list(self.mine.values())
            return -float(min((st.distance(r, entrances) for r in rooms), default=FAR))
        return -float(st.distance(trooper_room, entrances))
