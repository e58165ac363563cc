"""A served game: the Game, who sits in each seat, the bots, and what each seat may see.

Every decision goes to the store as it is made. Which decisions may be taken back is
decided from what each one caused: a decision that drew from the game's random
generator, or whose events some player does not see in full, may not be undone (it
revealed something, or settled a die). In a game that hides anything from anyone, an
undo must not let a person replay the same deal knowing more, so a decision is taken
back only when no bot chose after it (a bot's choice comes from what only the bot sees;
a forced answer, the one option of its choice, comes from nothing and is taken back
with it), when neither it nor those forced answers revealed anything or moved anything
out of a zone some player cannot see in full, and when playing them again on the state
before with the hidden parts dealt otherwise shows its player the same, the same bots
forced again (``redeal.shows_hidden``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from rulecraft.bots import make_bot, view_for
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import IllegalAnswer
from rulecraft.interpreter.state import scripted_seats
from rulecraft.interpreter.views import (owner_of, hides_anything, player_view, seen_by_all, sees_property,
                                         visible_event, zone_visible)
from rulecraft.narration import says_nothing
from rulecraft.screen_words import REFUSALS, TERMINAL, refusal

from rulecraft.beside import beside_board, filled, pile, shown_variables, table_zones, unordered
from rulecraft.choices import option_menu

from .boards import board_picture
from .redeal import OTHER_CHOICE, shows_hidden
from .store import GameStore, StoredGame
from .words import Words

HUMAN = "human"
SPECTATOR = "spectator"


class RefusedMove(Exception):
    """A request that changes nothing: its reason is shown to the player, in English
    (``str``) or in the page's language (``told``). ``key``: a key of
    :data:`rulecraft.screen_words.REFUSALS`, its ``fields`` filled in, or a text kept as it is."""

    def __init__(self, key: str, /, **fields):
        self.key, self.fields = key, fields
        super().__init__(refusal("en", key, fields))

    def told(self, lang: str = "en") -> str:
        return refusal(lang, self.key, self.fields)


# Why a decision cannot be taken back, in the words its player reads after "cannot undo: "
# (in English; RefusedMove.told says them in the page's language)
ROLLED = REFUSALS["en"]["rolled"]
NOT_SEEN_BY_ALL = REFUSALS["en"]["not_seen_by_all"]
SHOWED_YOU = REFUSALS["en"]["showed_you"]
SHOWED_OTHERS = REFUSALS["en"]["showed_others"]
BOT_ANSWERED = REFUSALS["en"]["bot_answered"]
BOTS_PLAYING = REFUSALS["en"]["bots_playing"]


@dataclass
class Decision:
    player: str  # who answered
    option: int
    # why it may not be taken back, from what it caused alone (None: it may, so far)
    kept_because: str | None = None
    # the choice offered one option only: the answer tells nothing of what its player sees
    forced: bool = False

    @property
    def undoable(self) -> bool:
        return self.kept_because is None


# A bot named without settings in a served game, as it plays there: the search bot at
# its usual iterations, but answering within 2 seconds a decision, so that a person
# waits a few seconds for a round of bots (settings given in full are kept).
SERVED_AS = {"mcts": "mcts:200:2"}


@dataclass
class Table:
    stored: StoredGame
    ruleset: object
    game: Game = None
    history: list[Decision] = field(default_factory=list)
    bots: dict = field(default_factory=dict)
    words: Words = None  # shared by the tables of one rule set: its glossary is read once
    # Whether a person may be offered undo: a table replayed to show the past is not, and
    # keeps no state to check an undo against.
    live: bool = True
    # In a game that hides something, the person whose last decision (``_before_at``) may
    # still be undone, followed by bots' forced answers only (``_forced``: each bot and
    # its one option); the state before that decision, kept to check the outcome against
    # other deals when the undo is asked about (see _hidden_outcome), and what the check
    # found, per decision and answers after it.
    _undoer: str | None = None
    _before: object = field(default=None, repr=False)
    _before_at: int = -1
    _first_event: int = 0
    _forced: list = field(default_factory=list, repr=False)
    _shows_hidden: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        self.words = self.words or Words(self.ruleset)
        self.hides = hides_anything(self.ruleset)
        self.replay(self.stored.decisions)
        for i, (player, seat) in enumerate(self.stored.seats.items()):
            if seat != HUMAN:
                self.bots[player] = make_bot(SERVED_AS.get(seat, seat), self.stored.seed * 1000 + i)

    @property
    def id(self) -> str:
        return self.stored.id

    # ---- playing
    def replay(self, decisions: list[int]) -> None:
        s = self.stored
        self.game = Game(self.ruleset, s.players, s.seed, settings=s.settings)
        self.history = []
        self._shows_hidden = {}
        self._undoer = self._before = None
        self._forced = []
        for option in decisions:
            # a person's last decision may be undone next, though bots' forced answers
            # follow it: the state before each is kept (a copy costs some 0.04 ms)
            self._answer(option, keep=self.live)

    def _answer(self, option: int, keep: bool = True) -> None:
        game = self.game
        pending = game.pending
        player, options = pending.player, pending.options
        forced = len(options) == 1
        rng, rolls, first_event = game.state.rng, repr(game.state.forced_rolls), len(game.events)
        # A person's decision in a game with hidden parts may be taken back only if it
        # showed nothing hidden, and a bot's forced answer after it only if that answer
        # showed the person nothing either (a bot's real choice never is: see
        # undo_problem). What the zones hidden from someone hold is noted to see what
        # leaves them, and the state before a person's decision is kept to check the
        # outcome against other deals when the undo is asked about.
        person = self.stored.seats.get(player) == HUMAN
        viewer = player if person else self._undoer if forced else None
        watched = self.hides and viewer is not None
        hidden_zones = self._hidden_zones() if watched else None
        before = game.state.clone() if watched and person and keep else None
        game.choose(option)
        caused = game.events[first_event:]
        if game.state.rng != rng or repr(game.state.forced_rolls) != rolls:
            why = ROLLED
        elif not all(self._seen_in_full(e) for e in caused):
            why = NOT_SEEN_BY_ALL
        else:
            why = self._shown(viewer, caused, hidden_zones) if watched else None
        self.history.append(Decision(player, option, why, forced))
        if person:
            self._undoer = player if self.hides and why is None else None
            self._before = before if why is None else None
            self._before_at, self._first_event, self._forced = len(self.history) - 1, first_event, []
        elif watched and why is None:
            self._forced.append((player, options[option]))
        else:  # a bot chose, or its forced answer showed something: no undo gets past it
            self._undoer = self._before = None

    def _hidden_zones(self) -> dict[str, set]:
        """What each zone that some player cannot see in full holds now."""
        return {zone: set(items) for zone, items in self.game.state.zones.items()
                if items and not seen_by_all(self.ruleset, zone)}

    def _shown(self, player: str, caused: list[dict], hidden_zones: dict[str, set]) -> str | None:
        """What a decision showed that had been hidden, said to ``player`` (who made it,
        or whose decision a bot's forced answer followed): a thing or property revealed,
        or a thing taken out of a zone some player cannot see in full (a hand, a face-down
        pile, a pile whose next card then shows on top), however it left (moved, laid on
        the board, removed)."""
        for event in caused:
            if event["type"] == "revealed":
                knew = self._knew(player, event["entity"], event.get("property"))
                return SHOWED_YOU if player in event.get("players", ()) and not knew else SHOWED_OTHERS
        zones = self.game.state.zones
        for zone, held in hidden_zones.items():
            if not held <= set(zones.get(zone, ())):
                spec = self.ruleset.data.zones[zone.split(":", 1)[0]]
                # out of the player's own hand: the others saw what only it knew
                mine = not spec.top_visible and zone_visible(self.ruleset, zone, player, self.game.state)
                return SHOWED_OTHERS if mine else SHOWED_YOU
        return None

    def _knew(self, player: str, entity: str, prop: str | None) -> bool:
        """Whether ``player`` sees ``entity`` (its ``prop``) by the tables anyway: its own
        secret shown to the others shows it nothing."""
        state = self.game.state
        e = state.entities.get(entity)
        if e is None:
            return False
        if prop is not None:
            spec = self.ruleset.data.kinds[e["kind"]].properties.get(prop)
            if spec is not None and spec.visible_to in ("owner", "others") \
                    and sees_property(spec.visible_to, owner_of(self.ruleset, state, entity), player):
                return True
            if spec is not None and spec.visible_to != "everyone":
                return False
        return e["at"] is None or zone_visible(self.ruleset, e["at"], player, state)

    def _hidden_outcome(self, index: int) -> str | None:
        """Whether the person's last decision (``index``), with the bots' forced answers
        after it, showed its player something hidden through an outcome computed from it,
        or through those answers being forced (see redeal), decided once per decision and
        answers after it."""
        key = (index, len(self.history))
        if key not in self._shows_hidden:
            if self._before is None or index != self._before_at:
                return SHOWED_YOU  # nothing kept to check against (a view of the past)
            d = self.history[index]
            shown = shows_hidden(self.ruleset, self._before, d.option, self.game.state,
                                 self.game.events[self._first_event:], d.player,
                                 self.stored.seed * 1000 + index, forced=self._forced)
            # a forced answer that another deal makes a choice tells what only its bot sees
            self._shows_hidden[key] = BOT_ANSWERED if shown == OTHER_CHOICE else SHOWED_YOU if shown else None
        return self._shows_hidden[key]

    def _seen_in_full(self, event: dict) -> bool:
        # Every player sees every field of the event as it is; fields a view adds of its
        # own (how it numbers events for its viewer) do not matter.
        public = {k: v for k, v in event.items() if not k.startswith("_") and k != "seq"}
        for p in self.game.state.players:
            seen = visible_event(self.ruleset, self.game.state, event, p)
            if seen is None or any(seen.get(k) != v for k, v in public.items()):
                return False
        return True

    def decide(self, store: GameStore, player: str, option) -> None:
        """``player`` answers its pending choice with ``option`` (the option itself, as
        offered), then the bots answer every choice that falls to them: anything else is
        refused and changes nothing."""
        for _ in self.decide_steps(store, player, option):
            pass

    def decide_steps(self, store: GameStore, player: str, option) -> Iterator[None]:
        """``decide``, one decision at a time: a step after ``player``'s answer and after
        each bot's, so that a server serves other pages between a search bot's
        decisions. A rule error, or a bot's, takes the game back to before ``player``'s
        answer."""
        pending = self.game.pending
        if player == SPECTATOR or player not in self.stored.seats:
            raise RefusedMove("spectator")
        if pending is None:
            raise RefusedMove("over")
        if pending.player != player:
            raise RefusedMove("not_yours", player=pending.player)
        try:
            index = pending.options.index(option)
        except ValueError:
            raise RefusedMove("not_offered") from None
        before = len(self.history)
        try:
            self._commit(store, index)
            yield
            yield from self.bot_steps(store)
        except Exception as err:  # noqa: BLE001 - a rule error, or a bot's: back to the last good decision
            self.replay([d.option for d in self.history[:before]])
            store.drop_decisions_from(self.id, before)
            raise RefusedMove("rules_failed", error=f"{type(err).__name__}: {err}") from None

    def _commit(self, store: GameStore, index: int) -> None:
        try:
            self._answer(index)
        except IllegalAnswer as err:
            raise RefusedMove(str(err)) from None
        store.add_decision(self.id, len(self.history) - 1, index)

    def play_bots(self, store: GameStore, limit: int = 100_000) -> None:
        """Bot seats answer every choice that falls to them, at once."""
        for _ in self.bot_steps(store, limit):
            pass

    def bots_to_play(self) -> bool:
        """Whether the choice pending falls to a bot: ``bot_steps`` has more to play."""
        pending = self.game.pending
        return pending is not None and pending.player in self.bots

    def bot_steps(self, store: GameStore, limit: int = 100_000) -> Iterator[None]:
        """``play_bots``, a step after each bot's answer."""
        for _ in range(limit):
            pending = self.game.pending
            if pending is None or pending.player not in self.bots:
                return
            bot = self.bots[pending.player]
            index = bot.choose(view_for(self.game, bot, pending.player))
            self._commit(store, index)
            yield

    # ---- undo
    def undo_problem(self, player: str) -> str | None:
        """Why ``player`` cannot take back their last decision now (None: they can)."""
        mine = [i for i, d in enumerate(self.history) if d.player == player]
        if player not in self.stored.seats or self.stored.seats[player] != HUMAN:
            return REFUSALS["en"]["not_own_seat"]
        if not mine:
            return REFUSALS["en"]["no_decision"]
        last = mine[-1]
        later = self.history[last + 1:]
        if any(d.player not in self.bots for d in later):
            return REFUSALS["en"]["decided_since"]
        if self.history[last].kept_because:
            return self.history[last].kept_because
        # A bot's choice of several options comes from what only it sees; a forced answer
        # (one option) from nothing, and is taken back with the decision unless what it
        # caused may not be.
        if self.hides and any(not d.forced for d in later):
            return BOT_ANSWERED
        kept = next((d.kept_because for d in later if d.kept_because), None)
        if kept:
            return kept
        if self.hides:
            hidden = self._hidden_outcome(last)
            if hidden:
                return hidden
        # a finished game stays finished: its result is not taken back (told last, when
        # nothing else keeps the decision)
        if self.game.over:
            return REFUSALS["en"]["over"]
        return None

    def undo(self, store: GameStore, player: str) -> None:
        problem = self.undo_problem(player)
        if problem:
            raise RefusedMove("cannot_undo", reason=problem)
        last = max(i for i, d in enumerate(self.history) if d.player == player)
        store.drop_decisions_from(self.id, last)
        self.replay([d.option for d in self.history[:last]])

    # ---- seeing
    def view_at(self, seat: str, step: int, words: Words | None = None) -> dict:
        """What ``seat`` saw after the first ``step`` decisions: the game replayed that far,
        seen through that seat's view then (so the past shows nothing the seat did not see)."""
        if not isinstance(step, int) or not 0 <= step <= len(self.history):
            raise RefusedMove("no_step", step=repr(step), now=len(self.history))
        past = Table(replace(self.stored, decisions=[d.option for d in self.history[:step]]), self.ruleset,
                     words=self.words, live=False)
        message = past.view_message(seat, words)
        message.update(type="past", options=[], menu=[], can_undo=False, step=step, now=len(self.history))
        return message

    def view_message(self, seat: str, words: Words | None = None, events_from: int = 0,
                     bots_playing: bool = False) -> dict:
        """All a seat's screen shows, from its view only (a spectator sees what no seat
        hides), in the language of ``words`` (default: the table's, English). Of the
        events, those from ``events_from`` on (a page that has the earlier ones).
        ``bots_playing``: a view between two bot decisions of a round still under way."""
        words = words or self.words
        view = self._common_view() if seat == SPECTATOR else self.game.view(seat)
        if events_from > len(view["events"]):  # an undo took some back: all of them again
            events_from = 0
        words.know_view(view)
        choice = view["choice"]
        options = []
        if choice is not None:
            options = [{"option": o, **words.option(o)} for o in choice["options"]]
        result = view["result"]
        pending = self.game.pending
        deciding = pending.player if pending is not None and result is None else None
        problem = None
        if self.live and seat in self.stored.seats:
            # between two bot decisions an undo would be refused as made on a page the game
            # has moved past once the round ends: none is offered, and nothing is worked out
            problem = BOTS_PLAYING if bots_playing else self.undo_problem(seat)
        can_undo = self.live and seat in self.stored.seats and problem is None
        return {
            "type": "view",
            "game": self.id,
            "title": self.ruleset.data.game.title,
            "seat": seat,
            "spectator": seat == SPECTATOR,
            # the player who must decide now, in turn or not (a trade answer, a reaction:
            # the pending choice's player, whom a refusal names too); once over, nobody
            # a person's name is public (every page, the spectator's too); a bot has none
            "players": [{"id": p, "seat": self._seat_kind(p), "to_play": p == deciding,
                         "name": self.stored.names.get(p) if self.stored.seats.get(p) == HUMAN else None,
                         **self._script_word(p, words), **_public_side(self.ruleset, view, p, seat, words)}
                        for p in view["players"]],
            # before the first turn (a choice of the setup) nobody is to play yet
            "setting_up": view["current"] is None and result is None,
            "round": view["round"],
            "round_word": words.round_word(),
            # the variables the rule set's glossary marks shown (a game clock, a track)
            "counters": shown_variables(self.ruleset, view, words),
            # whose turn it is (none once the game is over), and who must decide now
            "current": None if result is not None else view["current"],
            "deciding": deciding,
            "board": board_picture(self.ruleset, view, words.label, words),
            "hand": self._hand(view, seat, words),
            "beside": beside_board(self.ruleset, view, words, seat),
            "table": _table(self.ruleset, view, words, seat),
            "prompt": words.prompt(choice),
            "options": options,
            # the same options as a person reads them: an action of many variants asked
            # step by step (rulecraft.choices), each leaf an index into "options"
            "menu": option_menu(choice["options"], words) if choice is not None else [],
            "events": words.tell(view["events"][events_from:]),
            "events_from": events_from,
            "result": None if result is None else {
                "winners": result.get("winners", []), "reason": result.get("reason"),
                "text": words.result(result, seat), "why": _why_over(words, result)},
            "can_undo": can_undo,
            # why not (a seat's own, live table): the page shows its undo disabled, saying why
            "undo_problem": None if can_undo or not problem else refusal(words.lang, "cannot_undo", {"reason": problem}),
            "decisions": len(self.history),
            "bots_playing": bots_playing,
        }

    def _common_view(self) -> dict:
        """The spectator's view: what every player sees. The engine's spectator view
        holds what the tables show everyone; to it are added what every player's own
        view holds besides (a thing or property revealed to all of them, a zone each
        sees in full), so that the spectator is shown no less than any seat."""
        view = self.game.view(SPECTATOR)
        state = self.game.state
        seen = [player_view(self.ruleset, state, p) for p in state.players]
        if not seen:
            return view
        first = seen[0]
        for eid, entity in first["entities"].items():
            others = [v["entities"].get(eid) for v in seen[1:]]
            if any(o is None or o["at"] != entity["at"] for o in others):
                continue
            props = {k: v for k, v in entity["props"].items()
                     if all(k in o["props"] and o["props"][k] == v for o in others)}
            mine = view["entities"].get(eid)
            if mine is None or set(props) - set(mine["props"]):
                view["entities"][eid] = {"kind": entity["kind"], "at": entity["at"], "props": props}
        for zone, items in view["zones"].items():
            if not isinstance(items, dict):
                continue
            held = [v["zones"].get(zone) for v in seen]
            if all(isinstance(h, list) for h in held):  # everyone sees into it
                view["zones"][zone] = list(held[0])
                continue
            # things in it shown to every player (a list is its holder's: all shown to them)
            shown = [e for e in state.zones.get(zone, ())
                     if all(isinstance(h, list) and e in h or isinstance(h, dict) and e in h.get("shown", ())
                            for h in held)]
            if shown:
                view["zones"][zone] = {**items, "shown": shown}
        return view

    def _seat_kind(self, player: str) -> str:
        """Who plays a seat: "human", a bot's name, or "script:NAME" for a seat the
        rules play by their script (no person or bot sits there)."""
        if player in self.stored.seats:
            return self.stored.seats[player]
        return f"script:{scripted_seats(self.ruleset, self.stored.players).get(player, '')}"

    def _script_word(self, player: str, words: Words) -> dict:
        """For a seat the rules play by their script: the script's word (``script``)."""
        if player in self.stored.seats:
            return {}
        return {"script": words.name(scripted_seats(self.ruleset, self.stored.players).get(player, ""))}

    @staticmethod
    def _hand(view: dict, seat: str, words: Words) -> list[dict]:
        """The seat's own zones (hand, play area...) and its status (what says something:
        no property at none)."""
        out = []
        me = view["entities"].get(seat) or {}
        said = {k: v for k, v in (me.get("props") or {}).items() if not says_nothing(v)}
        if said:
            out.append({"zone": words.say["you"], "items": [f"{words.prop(me['kind'], k)}{words.say['colon']} {words.property_value(me['kind'], k, v)}"
                                                            for k, v in said.items()]})
        for zone, items in view["zones"].items():
            if zone.endswith(f":{seat}") and isinstance(items, list):
                # each thing with what its properties say (a die's face, a card's counters)
                out.append({"zone": words.name(zone.split(":", 1)[0]),
                            "items": [_with_details(words, e, view["entities"].get(e), seat) for e in items]})
        return out


def _why_over(words: Words, result: dict) -> str | None:
    """Why the game ended, as the terminal's last screen says it: the victory condition's
    or the rules' word for the reason, marked undecided when the game was stopped (a
    round limit) before the rules decided it."""
    reason = result.get("reason")
    if not reason:
        return None
    text = words.action(reason)
    if not result.get("decided", True):
        text += " " + TERMINAL[words.lang]["undecided"]
    return text[:1].upper() + text[1:]


def _with_details(words: Words, eid: str, entity: dict | None, seat: str) -> str:
    """A thing's name, and what its properties say in brackets: "die.p1.2 (face 6)"."""
    details = words.details(eid, entity, seat)
    return f"{words.name(eid)} ({', '.join(details)})" if details else words.name(eid)


def _zone(words: Words, view: dict, zone: str, items, holder: str | None, grouped: bool = False) -> dict:
    """A zone as the page lists it (see rulecraft.beside.pile): its things with what their
    properties say ("Lamp ×10 (uses left 2)" for copies counted in a zone whose order says
    nothing), or how many lie there, its top and what the viewer was shown."""
    listed = pile(words, view, items, holder, grouped)
    if "things" in listed:
        return {"zone": zone, "items": [_said(thing) for thing in listed["things"]]}
    return {"zone": zone, "items": None, "count": listed["count"], "top": listed["top"],
            "shown": [_said(thing) for thing in listed["shown"]]}


def _said(thing: tuple[str, list[str]]) -> str:
    name, details = thing
    return f"{name} ({', '.join(details)})" if details else name


def _table(ruleset, view: dict, words: Words, seat: str) -> list[dict]:
    """The zones of the table, as the terminal's table shows them (rulecraft.beside.table_zones),
    each named with its holder when it is a thing's."""
    out = []
    for zone, base, owner in table_zones(ruleset, view):
        word = words.name(base)
        if owner:
            word = words.say["owned"].format(owner=words.name(owner), zone=word)
        out.append(_zone(words, view, word[:1].upper() + word[1:], view["zones"][zone], seat, unordered(ruleset, base)))
    return out


def _public_side(ruleset, view: dict, player: str, seat: str, words: Words) -> dict:
    """What the seat's view shows of another player, as the terminal's table does: its
    properties that say something (a number, a yes, a value other than the default; not
    one hidden from the seat), and its zones (their things, or how many when hidden)."""
    if player == seat:
        return {}
    entity = view["entities"].get(player) or {}
    status = words.details(player, entity) if entity else []
    zones = []
    for z, items in view["zones"].items():
        base = z.split(":", 1)[0]
        if z.endswith(f":{player}") and filled(items):
            zones.append(_zone(words, view, words.name(base), items, player, unordered(ruleset, base)))
    return {"status": status, "zones": zones}
