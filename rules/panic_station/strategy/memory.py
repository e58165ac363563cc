"""What one Panic Station player remembers from the events they saw.

Nothing here reads the state: it is fed the player's own view, a few new events at a
time, and keeps what a careful player at the table would note down: who is certainly
infected (a trade, a blocked infection, a hand shown), the last heat scan, who attacked
whom, who keeps walking into other players' rooms.
"""

from __future__ import annotations

from .rules import RuleFacts
from .station import owner_of

ATTACKED_ME = 0.92
ATTACKED_OTHERS = 0.25


class Memory:
    def __init__(self, me: str, rules: RuleFacts):
        self.me = me
        self.rules = rules
        self.known_infected: set[str] = set()
        self.out: set[str] = set()  # players whose two characters are dead
        self.attacks: dict[tuple[str, str], int] = {}  # (attacker, victim player) → count
        self.meetings: dict[str, int] = {}  # player → times they walked into someone's room
        self.scan: tuple[int, int] | None = None  # (infected, uninfected) of the last heat scan
        self.scan_round = -1
        self.infections_given: set[str] = set()  # players I infected (when infected)
        self.blocked_by: set[str] = set()  # players who answered my infection card with a gas can
        self.trade_partner: str | None = None  # the other trader of the trade under way
        self.partner_came_to_me = False  # they walked into my room to trade
        self._gave: str | None = None
        self._got: str | None = None
        self.round = 0

    def card_owner(self, card: str) -> str | None:
        """The colour owner of an infection card id (``<name>.p3.2`` → ``p3``)."""
        parts = card.split(".")
        return parts[1] if len(parts) == 3 and parts[0] == self.rules.infection_card else None

    # ---- reading events
    def read(self, events, entities: dict, my_colour_infected: bool) -> None:
        for ev in events:
            self._read(ev, entities)
        self._close_trade(entities, my_colour_infected)

    def _read(self, ev: dict, entities: dict) -> None:
        kind = ev.get("type")
        me = self.me
        if kind == "action_taken":
            player, action, args = ev.get("player"), ev.get("action"), ev.get("args") or {}
            if action == "trade":
                partner = args.get("partner")
                if isinstance(partner, str) and partner != "?":
                    other = owner_of(partner)
                    if player == me:
                        self._start_trade(other, came_to_me=False)
                    elif other == me:
                        self._start_trade(player, came_to_me=True)
            elif action in ("fire_gun", "stab"):
                target = args.get("target")
                if isinstance(target, str) and target.startswith(("trooper.", "android.")):
                    victim = owner_of(target)
                    if victim != player:
                        self.attacks[(player, victim)] = self.attacks.get((player, victim), 0) + 1
        elif kind == "encounter":
            character = ev.get("character")
            if isinstance(character, str):
                who = owner_of(character)
                self.meetings[who] = self.meetings.get(who, 0) + 1
        elif kind == "moved":
            entity, source, dest = ev.get("entity"), ev.get("source"), ev.get("destination")
            if self.trade_partner is not None and isinstance(entity, str) and entity != "?":
                if source == f"hand:{me}" and dest == f"hand:{self.trade_partner}":
                    self._gave = entity
                elif source == f"hand:{self.trade_partner}" and dest == f"hand:{me}":
                    self._got = entity
        elif kind == "became_infected":
            giver = ev.get("by")
            if isinstance(giver, str):
                self.known_infected.add(giver)
        elif kind == "infection_blocked":
            if self.trade_partner is not None:
                self.known_infected.add(self.trade_partner)
        elif kind == "heat_scan":
            self.scan = (ev.get("infected", 0), ev.get("uninfected", 0))
            self.scan_round = self.round
        elif kind == "hand_shown":
            subject, cards = ev.get("player"), ev.get("cards") or []
            own = sum(1 for c in cards if self.card_owner(c) == subject)
            if "host" in cards or own < self.rules.own_infection_cards:  # gave one away: infected
                self.known_infected.add(subject)
        elif kind == "player_out":
            self.out.add(ev.get("player"))
        elif kind == "round_started":
            self.round = ev.get("round", self.round)

    def _start_trade(self, partner: str, came_to_me: bool) -> None:
        self.trade_partner = partner
        self.partner_came_to_me = came_to_me
        self._gave = self._got = None

    def _close_trade(self, entities: dict, i_am_infected: bool) -> None:
        """Once both cards of my trade are known, learn what they say."""
        partner = self.trade_partner
        if partner is None or self._got is None:
            return
        got, gave = self._got, self._gave
        if self.card_owner(got) == partner:  # only an infected player may give their own colour
            self.known_infected.add(partner)
        if i_am_infected and gave is not None and self.card_owner(gave) == self.me:
            item = entities.get(got, {}).get("props", {}).get("item")
            if item == "gas_can":
                self.blocked_by.add(partner)
            else:
                self.known_infected.add(partner)
                self.infections_given.add(partner)
        self.trade_partner = None
        self._gave = self._got = None

    # ---- beliefs
    def suspicion(self, player: str, living_others: list[str], round_: int) -> float:
        """How likely ``player`` is infected, from 0 to 1, for an uninfected player."""
        if player in self.known_infected:
            return 1.0
        unknown = [p for p in living_others if p not in self.known_infected]
        if self.scan is not None:
            infected_left = max(0, self.scan[0] - len([p for p in living_others if p in self.known_infected]))
            base = infected_left / len(unknown) if unknown else 0.0
            base += 0.04 * max(0, round_ - self.scan_round)
        else:
            base = min(0.6, 1 / max(1, len(living_others)) + 0.04 * round_)
        # an uninfected player only shoots those they know to be infected: whoever shoots me
        # is almost surely infected, whoever shoots others is suspect
        if self.attacks.get((player, self.me), 0):
            base = max(base, ATTACKED_ME)
        base += ATTACKED_OTHERS * sum(n for (a, v), n in self.attacks.items() if a == player and v != self.me)
        base += 0.04 * self.meetings.get(player, 0)
        return max(0.0, min(0.95, base))
