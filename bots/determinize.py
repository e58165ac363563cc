"""Full game states a seat could be in, built from that seat's view alone.

A search bot needs whole states to play forward, but is handed a view: the public
table, its own hand and properties, the events it saw and its pending choice. Two
things a view does not carry are rebuilt here:

- **where the rules are** (the machine's frame stack, turn counters, limits): a
  :class:`Tracker` keeps a private copy of the game, started from a seed of its own,
  and moves it along the events the seat saw. Every decision that shows itself in an
  event (an action taken, a reaction, a turn ended) is replayed as the seat saw it; a
  decision that shows nothing (another player's ``choose``, a card played face down)
  is looked for depth first among the options whose visible events agree with what
  the seat saw next, backing up when a later decision finds no agreeing option. The
  dice the seat saw rolled are fixed in advance in the copy, so it rolls them too, and
  the components it saw drawn are put on top of where they came from. Following makes
  two passes: the first takes only options whose every event shown to the seat is the
  one it saw there (a card revealed, a property changed, a card handed over face down
  seen arriving), the second, if the first finds no way, options whose decisions alone
  are the ones the seat saw. The seat's own answers that
  show nothing (a reaction passed) are told to the tracker (:meth:`Tracker.answered`)
  and replayed where they were given. Once at the seat's choice, what the seat sees is
  made true in the copy: components in the visible zones they are seen in, properties,
  variables.
- **what the seat cannot see** (:func:`determinize`): everything the view shows is
  copied over the tracked copy: visible zones, visible properties, public variables,
  whose turn it is. The components the seat has not seen are dealt at random into the
  hidden zones, as many into each as the view's public count says (a zone's visible
  top card stays on top; a zone that ``holds`` one kind gets only that kind; a
  component the seat saw go into a hidden zone, and has not seen leave it, is put back
  there first: :class:`SeenPlaces`), and each
  hidden property of a thing the view shows is shuffled among the things of its kind
  the view shows without that value, several hidden on one thing together, as one face
  (a card's colour and rank), among those hiding the same ones (a thing the view does
  not show at all keeps the copy's values: see docs/bots.md, Limits). A property the rule set declares
  ``drawn`` (a fresh random draw from its values) is drawn again instead, on every
  thing whose value of it the seat cannot see, shown or not, but for the values the
  seat saw and the copy has not set again since (:class:`SeenValues`); so is a
  ``drawn`` variable the view does not show.
  The generator is reseeded from the bot's own, so chance after now differs between
  determinizations.

Nothing here reads the real game: the inputs are the rule set (public), the view and
the bot's own generator.

Limits (what a determinization may get wrong, never what it may read):

- the belief is uniform over the unseen components, beyond where the seat saw them go:
  nothing is inferred from what other players did (a player who asked another for a
  kind of card may be dealt none of it; a player who passed up a card may still be
  dealt one like it). A component seen going into a hidden zone counts as there until the seat
  sees it leave, or sees something it cannot name leave that zone. Hidden
  properties are dealt uniformly too, unless the rule set's heuristics declare what the
  seat believes of them (``believe``, see :func:`deal_values`);
- ``drawn`` values are drawn each on its own, from their declared weights: what the
  rules published about them together (a public count or total read from them) is not
  checked, so a sample may contradict it. A value the seat saw stays known while the
  copy holds it: a copy that set it again, out of the seat's sight, to the same value
  keeps it known;
- local variables of rules running at the moment (a card drawn earlier in the same
  procedure, held in a variable) come from the tracked copy, which chance may have made
  different from the real game;
- a hidden variable (``visible_to: nobody``) keeps the tracked copy's value;
- when the tracked copy cannot follow the events even after dealing its hidden parts
  again, backing up a few decisions and starting over from other seeds (a random pick
  sent the real game down a branch the copy does not find, or the game was run with
  driver settings the seat was not told about), the copy is put back in step with the
  view: played on from its last good point to a choice of the seat's of the same kind,
  with the whole view copied over it. What the seat sees is then right; where the rules
  are (a loop's place in the turn order) may not be, and a sample the rules cannot run
  from there is dropped by the search. Only when even that fails is the tracker lost
  and the bot plays at random.
"""

from __future__ import annotations

import json
import random

from rulecraft.interpreter.machine import Machine, RuleRuntimeError
from rulecraft.interpreter.state import GameState, new_state
from rulecraft.interpreter.views import HIDDEN, annotate_visibility, player_view, visible_event, zone_visible

# The events that reveal a decision (a tile's placing shows where it was chosen to go):
# the tracker replays decisions from them.
DECISION_EVENTS = frozenset({"action_taken", "reacted", "turn_ended", "placed"})
# How often the tracker deals the hidden parts again, then starts over, before it gives up.
REDEALS = 8
RESTARTS = 8
# How many recent decisions the tracker keeps a copy from, and how many it backs up to.
CHECKPOINTS = 6
BACKUPS = 4
# How many steps following the game to the seat's choice may take (trying an option,
# backing up), over all redeals, backups and restarts.
FOLLOW_STEPS = 150
# The steps of the first pass, which takes only options showing every event as seen.
STRICT_STEPS = 150
# How often setup may run again for a copy whose first decisions can be the seat's.
SETUP_TRIES = 40
# Resynchronising: tries, and decisions played on per try, to reach the seat's choice.
RESYNC_TRIES = 8
RESYNC_DECISIONS = 200


def option_key(option) -> str:
    """An option as a string that compares equal for equal options (tree keys)."""
    return json.dumps(option, sort_keys=True)


def _decision_key(event: dict) -> tuple:
    if event["type"] == "placed":
        return ("placed", event.get("tile"), None, (("at", json.dumps([event.get("x"), event.get("y"),
                                                                     event.get("rotation")])),))
    args = event.get("args") or {}
    return (event["type"], event.get("player"), event.get("action") or event.get("reaction"),
            tuple(sorted((k, json.dumps(v)) for k, v in args.items())))


def _agrees(seen: tuple, made: tuple) -> bool:
    """Whether a decision the copy made can be the one the seat saw (hidden args match anything)."""
    if seen[:3] != made[:3] or len(seen[3]) != len(made[3]):
        return False
    hidden = json.dumps(HIDDEN)
    return all(a[0] == b[0] and (a[1] == hidden or a[1] == b[1]) for a, b in zip(seen[3], made[3]))


class Tracker:
    """A private copy of a game, moved along what one seat sees of the real one."""

    def __init__(self, ruleset, players: int, viewer: str, rng: random.Random):
        self.ruleset = ruleset
        self.viewer = viewer
        self.rng = rng
        self.lost = False
        self.resyncs = 0  # how often the copy was put back in step with the view (see _resync)
        self.players = players
        # the dice the seat saw rolled, in order: the copy rolls them too (see _feed_rolls)
        self._rolls: list[tuple[str, object]] = []
        # the seat's own answers that show no decision to anyone (see answered)
        self._answers: list[tuple[int, tuple]] = []
        # whether following takes only options that show every event as the seat saw it
        self._strict = False
        # where the seat last saw components go into zones it cannot look into
        self.places = SeenPlaces()
        # the values of drawn properties the seat saw, kept in samples until drawn again
        self.values = SeenValues(ruleset)
        self._start()

    def _machine(self, state: GameState, count: bool = False) -> Machine:
        """A machine on ``state`` recording in ``_made`` the decisions the seat sees it
        make, in ``_shown_events`` every event the seat sees, and with ``count`` where
        setup drew each component from (``_drawn_from``)."""
        def record(event: dict) -> None:
            if count and event["type"] == "moved":  # where the copy's setup drew each component from
                self._drawn_from.setdefault(event.get("entity"), event.get("source"))
            event = dict(event)
            annotate_visibility(self.ruleset, state, event)
            shown = visible_event(self.ruleset, state, event, self.viewer)
            if shown is None:
                return
            self._shown += 1
            self._shown_events.append(shown)
            if event["type"] in DECISION_EVENTS:
                self._made.append(_decision_key(shown))
        self._made: list[tuple] = []
        self._shown = 0
        self._shown_events: list[dict] = []
        if count:
            self._drawn_from: dict[str, str | None] = {}
        return Machine(self.ruleset, state, record)

    def follow(self, view: dict) -> bool:
        """Move the copy to the seat's pending choice of ``view``; False when it cannot.

        When no option of a choice reproduces what the seat saw next, the copy's hidden
        parts are dealt again (as a determinization of the copy's own view) and the choice
        retried; when that fails too, the copy starts over from a new seed (chance may have
        sent the real game another way early on, e.g. in who starts). Once there, the
        values of drawn properties the seat saw are noted (:class:`SeenValues`)."""
        if self.lost:
            return False
        if not self._follow_view(view):
            return False
        self.values.read(view, self.state)
        return True

    def _follow_view(self, view: dict) -> bool:
        events = view.get("events") or []
        observed: list[tuple] = []
        # where each decision the seat saw stands in its event list: what it drew lies between
        self._at = []
        answers = iter(self._answers)
        answer = next(answers, None)
        for i, event in enumerate(events + [None]):
            while answer is not None and answer[0] <= i:  # the seat's own answers, where it gave them
                observed.append(answer[1])
                self._at.append(max(i - 1, 0))
                answer = next(answers, None)
            if event is not None and event["type"] in DECISION_EVENTS:
                observed.append(_decision_key(event))
                self._at.append(i)
        self._events = events
        self._rolls = [(e["die"], e["value"]) for e in events if e["type"] == "rolled" and e.get("value") != HIDDEN]
        self._feed_rolls()
        if not self._aligned:
            self._align_setup()
        # First every event as the seat saw it, from here and from the last few decisions
        # back (a hidden choice made before the seat's last decision, such as the card a
        # trader handed over face down, shows only after it); then, as before, the
        # decisions alone, starting over from setup if need be.
        kept = (self.state.clone(), list(self._seen), self._fed, self._pos, list(self._checkpoints))
        for strict in (True, False):
            self._strict = strict
            self._steps_left = STRICT_STEPS if strict else FOLLOW_STEPS  # for the pass, backups included
            if self._follow_from_here_or_back(view, observed, restarts=0 if strict else RESTARTS) \
                    and self._take_what_is_seen(view):
                return True
            if strict:
                state, seen, self._fed, self._pos, self._checkpoints = kept
                self.state, self._seen = state.clone(), list(seen)
                self._feed_rolls()
        if self._resync(view, observed):
            return True
        self.lost = True
        return False

    def _follow_from_here_or_back(self, view: dict, observed: list[tuple], restarts: int) -> bool:
        # Once put back in step, the copy is known not to replay the real game from its
        # start: starting over would fail where it failed before, at the cost of the whole game.
        for attempt in range(restarts + 1 if not self.resyncs else 1):
            if attempt:
                self._start(observed)
            if self._try_follow(view, observed):
                return True
            if self._steps_left <= 0:
                break
            # A choice made earlier may have fixed what only later events show (a card
            # drawn before the seat saw where it went): back up a few decisions and follow
            # again, now conditioned on those events, before starting over.
            for done, state, seen, fed, pos in list(reversed(self._checkpoints))[:BACKUPS]:
                self.state, self._seen, self._fed, self._pos = state.clone(), list(seen), fed, pos
                self._checkpoints = [c for c in self._checkpoints if c[0] < done]
                self._feed_rolls()
                if self._try_follow(view, observed):
                    return True
        return False

    def _take_what_is_seen(self, view: dict) -> bool:
        """Make what the seat sees true in the copy that reached its choice: each component
        in the visible zone it is seen in (:func:`_put_in_place`), every property and
        variable it sees. What shows no decision can still leave the copy unlike the real
        game: a card drawn from a hidden deck by chance shows only in where it went, a
        choice inside a rule that changed a property (which component a reward mended) is
        followed only by the decisions after it, and setup may set a variable from what it
        drew (a count read from the first card dealt) before the copy's draws were made
        to agree with the real ones (:meth:`_align_setup`). A copy left unlike the
        table cannot follow the decisions played from it. False when the copy, so
        changed, is no longer at the seat's choice (a victory that reads hidden cards the
        copy dealt otherwise ended it; listing the options again opened a window first):
        it is not where the real game is."""
        state = self.state
        entities = state.entities
        moved = False
        for zone, shown in view["zones"].items():
            if isinstance(shown, list) and zone in state.zones:
                moved = _put_in_place(state, zone, shown) or moved
        for eid, seen in view["entities"].items():
            if eid in entities:
                entities[eid]["props"].update(seen["props"])
        _copy_public_variables(state, view, self.viewer)
        if moved:
            list_options_again(self.ruleset, state)
        return state.result is None and state.pending is not None and self._at_choice(state.pending, view["choice"])

    def answered(self, view: dict, index: int) -> None:
        """Tell the copy what the seat answered to the choice of ``view``. An answer that
        shows itself (an action, a reaction played) is followed from the events as any
        other; one that shows no decision to anyone (a reaction passed, a pick inside a
        rule) is kept here and replayed at its place among the decisions the seat saw, so
        the copy does not stop at a choice the seat has already answered, taking it for the
        next one, and leave the real game behind."""
        choice = view["choice"]
        option = choice["options"][index]
        if self.lost or len(choice["options"]) < 2 or \
                _first_shown({"kind": choice["kind"], "player": self.viewer}, option) is not None:
            return
        position = len(view.get("events") or [])
        self._answers.append((position, ("answered", self.viewer, choice["kind"], (("option", option_key(option)),))))

    def _resync(self, view: dict, observed: list[tuple]) -> bool:
        """When no way through the decisions the seat saw is found: from the last point
        the copy did follow, play on with any options until the seat has a choice of the
        same kind, then copy the whole view over it (every visible zone, property and
        variable) and take up following from there. The rules' position (a loop's place
        in the turn order, a procedure's variables) may then differ from the real game's;
        what the seat sees does not."""
        if not self._checkpoints:  # it never followed: from a new copy's first decision
            self._start(observed)
            self._checkpoints = [(len(self._seen), self.state.clone(), list(self._seen), self._fed, self._pos)]
        for _, checkpoint, _, _, _ in self._checkpoints[-1:]:
            for _ in range(RESYNC_TRIES):
                state = checkpoint.clone()
                machine = Machine(self.ruleset, state)
                try:
                    for _ in range(RESYNC_DECISIONS):
                        if state.result is not None:
                            break
                        pending = state.pending
                        if self._at_choice(pending, view["choice"]):
                            self.state = state
                            self.state = determinize(self, view, self.rng, keep_fixed_rolls=False)
                            self._seen = list(observed)
                            self._pos = len(self._events)
                            self._checkpoints = [(len(observed), self.state.clone(), list(observed), len(self._rolls),
                                                  self._pos)]
                            self._fed = len(self._rolls)
                            self.resyncs += 1
                            return True
                        machine.answer(self.rng.randrange(len(pending["options"])))
                except (RuleRuntimeError, KeyError, IndexError, ValueError, TypeError):
                    continue
        return False

    def _try_follow(self, view: dict, observed: list[tuple]) -> bool:
        try:
            return self._follow(view, observed)
        except (RuleRuntimeError, KeyError, IndexError, ValueError, TypeError):
            return False

    def _start(self, observed: list[tuple] | None = None) -> None:
        """A new copy from a seed of the tracker's own, run to its first decision, with
        every roll the seat saw so far fixed in advance. Given the decisions the seat saw,
        setup is run again (it is cheap) until the copy's first decisions can be theirs:
        a random pick in setup (who starts) is not a roll that could be fixed."""
        for _ in range(SETUP_TRIES if observed else 1):
            self.state = new_state(self.ruleset, self.players, self.rng.getrandbits(62))
            self._fed = 0
            self._feed_rolls()
            self._machine(self.state, count=True).start()
            self._seen = list(self._made)  # the copy's decisions the viewer saw: what setup showed
            self._setup_shown = self._shown  # how many events setup showed the seat
            self._pos = self._shown  # where the copy stands in the seat's events
            self._aligned = False
            if observed is not None:
                self._align_setup()
            if not observed or self._could_go_on(observed):
                break
        # (decisions followed, copy, its decisions seen, rolls fed, place in the seat's
        # events) before recent decisions
        self._checkpoints: list[tuple[int, GameState, list, int, int | None]] = []

    def _align_setup(self) -> None:
        """Make what the seat saw of setup true in a new copy: each component it saw
        dealt from a hidden zone (a shuffled deck) that the copy left there is swapped
        into the place it went, with one of its kind the copy had put there, and each
        property it saw set takes that value. Setup's shuffles cannot be
        fixed in advance as dice are, and a copy dealt other visible hands than the real
        game could follow none of the decisions played from them."""
        self._aligned = True
        state = self.state
        # the seat's first events are setup's, as many as the copy's setup showed it
        setup = self._events[:self._setup_shown]
        went: dict[str, str] = {}
        came_from: dict[str, str | None] = {}
        values: dict[tuple[str, str], object] = {}
        for event in setup:
            entity = event.get("entity")
            if entity in (None, HIDDEN) or entity not in state.entities:
                continue
            if event["type"] == "moved" and event.get("destination") in state.zones:
                came_from.setdefault(entity, event.get("source"))
                went[entity] = event["destination"]
            elif event["type"] == "changed" and event.get("value") != HIDDEN:
                values[(entity, event["property"])] = event["value"]
        moved = False
        hidden_draws = {entity: zone for entity, zone in went.items() if came_from[entity] in state.zones
                        and not zone_visible(self.ruleset, came_from[entity], self.viewer)}
        # A component the copy drew from the same hidden zone but dealt elsewhere goes back
        # first, in exchange for one of that zone the seat did not see drawn, so that
        # every draw below starts from the zone it was drawn from.
        for entity, zone in hidden_draws.items():
            source, where = came_from[entity], state.entities[entity]["at"]
            if where not in (source, zone) and self._drawn_from.get(entity) == source:
                kind = state.entities[entity]["kind"]
                undrawn = [e for e in state.zones[source] if e not in went]
                other = next((e for e in undrawn if state.entities[e]["kind"] == kind), undrawn[0] if undrawn else None)
                if other is not None:
                    _exchange(state, entity, other)
                    moved = True
        for entity, zone in hidden_draws.items():
            # only a draw from a hidden zone, which the copy drew otherwise
            if state.entities[entity]["at"] == came_from[entity]:
                moved = _swap_into(state, entity, zone, went) or moved
        for (entity, name), value in values.items():
            if name in state.entities[entity]["props"]:
                state.entities[entity]["props"][name] = value
        if moved or values:
            list_options_again(self.ruleset, state)

    def _could_go_on(self, observed: list[tuple]) -> bool:
        state, done = self.state, len(self._seen)
        if state.result is not None or not all(_agrees(s, m) for s, m in zip(observed, self._seen)):
            return False
        if state.pending["player"] == self.viewer and done == len(observed):
            return True
        try:
            return bool(self._consistent(state, observed[done:], done, self._pos)[0])
        except (RuleRuntimeError, KeyError, IndexError, ValueError, TypeError):
            return False

    def _feed_rolls(self) -> None:
        """Fix the copy's next rolls of each die to those the seat saw, in order: dice are
        public, so the copy need not guess them, and a copy that rolled otherwise would
        drift from the real game (other damage, other moves) until it could not follow.
        Rolls left over once the copy has caught up are dropped before a search."""
        for die, value in self._rolls[self._fed:]:
            self.state.forced_rolls.setdefault(die, []).append(value)
        self._fed = len(self._rolls)

    def _follow(self, view: dict, observed: list[tuple]) -> bool:
        """A depth-first search over the decisions nobody showed: each step takes an option
        whose visible decisions are the next ones the seat saw (one that showed itself
        first, then one that showed nothing, in a random order) and backs up when a later
        step finds none, so a hidden choice (which card was played face down) is judged by
        what it led to. A step with no agreeing option is dealt again (its hidden parts
        may be what is wrong) up to REDEALS times; the search gives up after FOLLOW_STEPS in all."""
        # [state, decisions seen, options left, redeals left, place in the seat's events]
        # above the current step
        path: list[list] = []
        node = self._step(self.state, self._seen, self._pos, view, observed, REDEALS)
        while self._steps_left > 0:
            self._steps_left -= 1
            state, seen, left, redeals, pos = node
            if left is True:  # the seat's choice is reached
                self._commit(path, node)
                return True
            if left:
                trial, made, after = left.pop()
                path.append(node)
                node = self._step(trial, seen + made, after, view, observed, REDEALS)
                continue
            if left is not None and redeals > 0:  # every option led nowhere: deal this step again
                node = self._step(self._redeal(state, len(seen)), seen, pos, view, observed, redeals - 1)
                continue
            if not path:
                return False
            node = path.pop()
        return False

    def _step(self, state: GameState, seen: list, pos: int | None, view: dict, observed: list[tuple],
              redeals: int) -> list:
        """A search step: True for its options when the seat's pending choice is reached,
        None at a dead end, else the agreeing options as (state after, decisions seen,
        place in the seat's events after), the one to try first last.

        An option agrees when the decisions it shows are the next ones the seat saw. Of
        those, the ones whose every event the seat would see is the one it saw there (a
        card drawn and revealed, a property changed) are kept, and the step is dealt
        again while none is. When dealing again finds none, the first pass (``_strict``)
        has reached a dead end; the second takes the options that agree by their
        decisions, and finds its place in the seat's events again at the next decision
        shown."""
        if state.result is not None or len(seen) > len(observed):
            return [state, seen, None, 0, pos]
        pending = state.pending
        done = len(seen)
        if done == len(observed) and self._at_choice(pending, view["choice"]):
            return [state, seen, True, 0, pos]
        if self._condition(state, done):
            list_options_again(self.ruleset, state)
        consistent, alike = self._consistent(state, observed[done:], done, pos)
        while not alike and redeals > 0:
            redeals -= 1
            dealt = self._redeal(state, done)
            again, alike = self._consistent(dealt, observed[done:], done, pos)
            if again or not consistent:
                state, consistent = dealt, again
        options = alike if alike or self._strict else consistent
        self.rng.shuffle(options)
        options.sort(key=lambda c: c[0])  # those that showed themselves last: tried first
        return [state, seen, [(trial, made, after) for _, trial, made, after in options], redeals, pos]

    def _at_choice(self, pending: dict, choice: dict) -> bool:
        """Whether the copy waits for the seat's choice: same player, kind and prompt."""
        return pending["player"] == self.viewer and pending["kind"] == choice["kind"] and \
            pending.get("prompt") == choice.get("prompt")

    def _redeal(self, state: GameState, done: int) -> GameState:
        """The copy with its hidden parts dealt again, the seat's known draws on top."""
        self.state = state
        state = determinize(self, player_view(self.ruleset, state, self.viewer), self.rng, keep_fixed_rolls=True)
        self._condition(state, done)
        list_options_again(self.ruleset, state)
        return state

    def _commit(self, path: list[list], node: list) -> None:
        """Keep the reached state, and the steps that led to it as points to back up to."""
        self.state, self._seen, self._pos = node[0], node[1], node[4]
        for state, seen, _, _, pos in path + [node]:
            if not self._checkpoints or self._checkpoints[-1][0] < len(seen):
                self._checkpoints.append((len(seen), state.clone(), list(seen), self._fed, pos))
        self._checkpoints = self._checkpoints[-CHECKPOINTS:]

    def _condition(self, state: GameState, done: int) -> bool:
        """Put on top of their hidden zones, in order, the components the seat saw drawn
        from them around the next decisions, so the copy draws what the real game drew
        (or plays what it played from a hand). True when anything moved."""
        start = self._at[done - 1] if done else 0
        # up to the decision after next: a tile placed is itself a decision event
        end = self._at[done + 2] + 1 if done + 2 < len(self._at) else len(self._events)
        window = self._events[start:end]
        # The window starts a decision back, so the copy may have made some of its moves
        # already: a component's moves up to the last one that took it where the copy
        # has it are done (pulling it back on top would undo a draw that agreed), unless
        # it went back where it came from (a look at a deck's top card).
        moves: dict[str, list[int]] = {}
        for i, event in enumerate(window):
            if event["type"] == "moved" and event.get("entity") in state.entities:
                moves.setdefault(event["entity"], []).append(i)
        done_moves: set[int] = set()
        for entity, places in moves.items():
            where = state.entities[entity]["at"]
            if window[places[-1]].get("destination") == window[places[0]].get("source"):
                continue
            last = max((k for k, i in enumerate(places) if window[i].get("destination") == where), default=None)
            if last is not None:
                done_moves.update(places[:last + 1])
        drawn: dict[str, list[str]] = {}
        for i, event in enumerate(window):
            if i in done_moves:
                continue
            if event["type"] == "placed":  # a tile comes from wherever the copy keeps it
                event = {"entity": event.get("tile"), "source": state.entities.get(event.get("tile"), {}).get("at")}
            elif event["type"] != "moved" or event.get("entity") in (None, HIDDEN):
                continue
            source = event.get("source")
            if source in state.zones and event["entity"] in state.entities and \
                    not zone_visible(self.ruleset, source, self.viewer):
                drawn.setdefault(source, [])
                if event["entity"] not in drawn[source]:
                    drawn[source].append(event["entity"])
        changed = False
        for zone, first in drawn.items():
            before = list(state.zones[zone])
            _put_on_top(state, zone, first)
            changed = changed or state.zones[zone] != before
        return changed

    def _consistent(self, state: GameState, ahead: list[tuple], done: int,
                    pos: int | None) -> tuple[list[tuple], list[tuple]]:
        """(showed itself, state after, decisions seen, place in the seat's events after)
        for each option whose decisions the seat would see are the next ones it saw; and
        those of them whose every event the seat would see is the one it saw there."""
        pending = state.pending
        if ahead and ahead[0][0] == "answered":  # the seat's own answer is next
            if pending["player"] == self.viewer and pending["kind"] == ahead[0][2]:
                keys = [option_key(o) for o in pending["options"]]
                key = ahead[0][3][0][1]
                tried = [self._try_option(state, keys.index(key), ahead, done, pos, ahead[0])] if key in keys else []
                out = [t for t in tried if t is not None]
                return out, [t for t in out if t[3] is not None]
        out = []
        for index, option in enumerate(pending["options"]):
            first = _first_shown(pending, option)
            if first is not None and not (ahead and _agrees(ahead[0], first)):
                continue  # it would show another decision than the one seen next
            tried = self._try_option(state, index, ahead, done, pos)
            if tried is not None:
                out.append(tried)
        return out, [t for t in out if t[3] is not None]

    def _try_option(self, state: GameState, index: int, ahead: list[tuple], done: int, pos: int | None,
                    answer: tuple | None = None) -> tuple | None:
        """Option ``index`` played on a copy of ``state``, as :meth:`_consistent` gives it,
        or None when the decisions it shows are not the next ones the seat saw. ``answer``:
        the seat's own answer that the option replays, a decision only the seat knows of,
        after which the seat's events go on where it gave it."""
        trial = state.clone()
        machine = self._machine(trial)
        machine.answer(index)
        made = ([answer] if answer else []) + self._made
        if len(made) > len(ahead) or not all(_agrees(s, m) for s, m in zip(ahead, made)):
            return None
        if answer:
            done, pos = done + 1, self._at[done] + 1
        return (bool(made), trial, made, self._match_events(self._shown_events, done, pos))

    def _match_events(self, shown: list[dict], done: int, pos: int | None) -> int | None:
        """Where the copy stands in the seat's events after showing it ``shown``, starting
        at ``pos`` after ``done`` of its decisions; None when an event differs from the
        one the seat saw there. The decisions shown are the next ones the seat saw (the
        caller checked), each matched where the seat saw it, so an unknown start (None)
        is found again at the first one."""
        events, at, k = self._events, self._at, done
        for event in shown:
            if event["type"] in DECISION_EVENTS:
                if k >= len(at):
                    return None
                pos, k = at[k], k + 1
            if pos is None or pos >= len(events) or not _same_event(events[pos], event):
                return None
            pos += 1
        return pos


def _same_event(seen: dict, shown: dict) -> bool:
    """Whether an event the copy would show the seat is the one it saw (numbering aside;
    a masked value matches any)."""
    if seen.get("type") != shown.get("type"):
        return False
    for key in seen.keys() | shown.keys():
        if key == "seq":
            continue
        a, b = seen.get(key), shown.get(key)
        if a != b and a != HIDDEN and b != HIDDEN:
            return False
    return True


def _first_shown(pending: dict, option: dict) -> tuple | None:
    """The decision an action or reaction option shows first, as every seat sees it but
    for masked arguments, or None when that is not known before the rules run (a
    ``choose``) or when it shows nothing (a reaction passed). Answering an action or a
    reaction announces it before anything else happens, so an option that would announce
    another decision than the one the seat saw next is passed over without playing it
    (its arguments compared as the rules give them: a masked one would differ too)."""
    kind = pending["kind"]
    if kind == "action":
        if option["action"] == "end_turn":
            return ("turn_ended", pending["player"], None, ())
        name = option["action"]
    elif kind == "reaction" and option.get("reaction") != "pass":
        name = option["reaction"]
    else:
        return None
    args = option.get("args") or {}
    return ("action_taken" if kind == "action" else "reacted", pending["player"], name,
            tuple(sorted((k, json.dumps(v)) for k, v in args.items())))


def list_options_again(ruleset, state: GameState) -> None:
    """List a pending action's or reaction's options again after the hidden parts
    changed under it (a hand dealt again): a turn or a reaction window offers them afresh
    when nothing is pending. A choice inside a rule keeps its options: they come from
    the rule's own variables."""
    if state.pending is not None and state.pending["kind"] in ("action", "reaction"):
        state.pending = None
        Machine(ruleset, state).run()


def _swap_into(state: GameState, entity: str, zone: str, went: dict[str, str]) -> bool:
    """Put ``entity`` into ``zone`` in the place of one of its kind that is there but was
    not seen to go there, which takes the entity's old place. False when none is found."""
    entities = state.entities
    if entities[entity]["at"] == zone:
        return False
    kind = entities[entity]["kind"]
    other = next((e for e in state.zones[zone] if entities[e]["kind"] == kind and went.get(e) != zone), None)
    if other is None:
        return False
    _exchange(state, entity, other)
    return True


def _put_in_place(state: GameState, zone: str, shown: list[str]) -> bool:
    """Make a visible ``zone`` of the copy hold what the seat sees in it, in its order:
    each component seen there that the copy has elsewhere changes places with one the
    copy has there that is not seen there (of its kind if there is one), or is moved in
    when there is none. True when anything moved."""
    entities = state.entities
    items = state.zones[zone]
    if items == shown:
        return False
    seen_here = set(shown)
    for eid in shown:
        if eid not in entities or entities[eid]["at"] == zone:
            continue
        extras = [e for e in items if e not in seen_here]
        if extras:
            kind = entities[eid]["kind"]
            _exchange(state, eid, next((e for e in extras if entities[e]["kind"] == kind), extras[0]))
        else:
            where = entities[eid]["at"]
            if where is not None:
                state.zones[where].remove(eid)
            items.append(eid)
            entities[eid]["at"] = zone
    if set(items) == seen_here:
        items[:] = list(shown)
    return True


def _exchange(state: GameState, a: str, b: str) -> None:
    """Swap two components' places, each taking the other's position in its zone."""
    entities = state.entities
    where_a, where_b = entities[a]["at"], entities[b]["at"]
    if where_a is not None:
        place = state.zones[where_a]
        place[place.index(a)] = b
    if where_b is not None:
        place = state.zones[where_b]
        place[place.index(b)] = a
    entities[a]["at"], entities[b]["at"] = where_b, where_a


def _put_on_top(state: GameState, zone: str, first: list[str]) -> None:
    """Make ``first`` the top of ``zone``; what they displace takes their old places."""
    items = state.zones[zone]
    outside = [e for e in first if state.entities[e]["at"] != zone]
    rest = [e for e in items if e not in first]
    if len(rest) < len(outside):
        return
    displaced, rest = rest[:len(outside)], rest[len(outside):]
    for entity, other in zip(outside, displaced):
        where = state.entities[entity]["at"]
        if where is not None:
            place = state.zones[where]
            place[place.index(entity)] = other
        state.entities[other]["at"] = where
        state.entities[entity]["at"] = zone
    items[:] = list(first) + rest


class SeenPlaces:
    """The hidden zone each component was last seen going into, by one seat, and not
    seen leaving since: a card the seat handed to another player is in that player's
    hand until the seat sees it come out, or sees something it cannot name come out of
    that hand (which may be it). Read from the seat's events, a few at a time."""

    def __init__(self):
        self._read = 0
        self._at: dict[str, str] = {}

    def read(self, view: dict) -> dict[str, str]:
        """Component → the hidden zone it is in, as far as the seat knows, after the
        view's events (the seat's own, in order, the whole game's: a tracker follows
        one game)."""
        events = view.get("events") or []
        hidden = {zone for zone, shown in view["zones"].items() if not isinstance(shown, list)}
        at = self._at
        for event in events[self._read:]:
            if event.get("type") != "moved":
                continue
            entity, source, destination = event.get("entity"), event.get("source"), event.get("destination")
            if entity in (None, HIDDEN):
                for known in [e for e, zone in at.items() if zone == source]:
                    del at[known]  # the thing that left may be it
            elif destination in hidden:
                at[entity] = destination
            else:
                at.pop(entity, None)
        self._read = len(events)
        return at


def determinize(tracker: Tracker, view: dict, rng: random.Random, keep_fixed_rolls: bool = False,
                beliefs: dict | None = None, seen_in: dict[str, str] | None = None) -> GameState:
    """One full state consistent with ``view``, from the tracked copy (see module doc).
    The rolls the seat saw stay fixed in advance only for the tracker's own redeals: a
    sample the bot plays from now on rolls afresh. ``beliefs`` (from
    :meth:`rulecraft.bots.evaluation.Evaluation.beliefs`) weighs how hidden properties
    are dealt. ``seen_in``: the hidden zone each component was last seen going into
    (:meth:`SeenPlaces.read`), where it is put back."""
    ruleset = tracker.ruleset
    data = ruleset.data
    s = tracker.state.clone()
    entities = s.entities
    placed: set[str] = set()
    hidden_zones: list[tuple[str, dict]] = []
    for zone, shown in view["zones"].items():
        if isinstance(shown, list):
            s.zones[zone] = list(shown)
            for eid in shown:
                entities[eid]["at"] = zone
            placed.update(shown)
        else:
            hidden_zones.append((zone, shown))
            if "top" in shown:
                placed.add(shown["top"])
    for eid, seen in view["entities"].items():
        if seen["at"] is None and eid in entities:  # off the table, as everyone sees
            entities[eid]["at"] = None
            placed.add(eid)
    # board spaces the view leaves out are empty (it lists only spaces holding something)
    for zone in s.zones:
        if zone not in view["zones"] and data.zones.get(zone.split(":", 1)[0]) is None:
            s.zones[zone] = []
    unseen = [eid for eid, e in entities.items() if eid not in placed and e["at"] is not None
              and e["kind"] != "player"]
    rng.shuffle(unseen)
    # what the seat saw go into a hidden zone goes back there before anything is dealt
    # at random (as many as the zone's count has room for)
    kept: dict[str, list[str]] = {zone: [] for zone, _ in hidden_zones}
    if seen_in:
        for eid in unseen:
            if seen_in.get(eid) in kept:
                kept[seen_in[eid]].append(eid)
        for zone, shown in hidden_zones:
            del kept[zone][max(0, shown["count"] - (1 if "top" in shown else 0)):]
        taken = {eid for items in kept.values() for eid in items}
        unseen = [eid for eid in unseen if eid not in taken]
    for zone, shown in hidden_zones:
        spec = data.zones.get(zone.split(":", 1)[0])
        holds = spec.holds if spec is not None else None
        items = [shown["top"]] if "top" in shown else []
        top = len(items)
        items += kept[zone]
        while len(items) < shown["count"]:
            pick = next((i for i, eid in enumerate(unseen) if holds is None or entities[eid]["kind"] == holds), None)
            if pick is None:
                break
            items.append(unseen.pop(pick))
        if kept[zone]:  # what the seat saw go in lies anywhere under the top, not first
            below = items[top:]
            rng.shuffle(below)
            items[top:] = below
        s.zones[zone] = items
        for eid in items:
            entities[eid]["at"] = zone
    for eid in unseen:  # what no zone's count asks for stays off the table
        entities[eid]["at"] = None
    drawn = drawn_properties(ruleset)
    _copy_seen_properties(s, view, rng, beliefs, drawn)
    _copy_public_variables(s, view, tracker.viewer)
    if drawn:
        seen_values = getattr(tracker, "values", None)
        _draw_hidden_values(s, view, rng, drawn, seen_values.known if seen_values is not None else {}, beliefs)
    _draw_hidden_variables(s, view, rng, data)
    s.current = view["current"]
    s.round = view["round"]
    if view["choice"] is not None:
        s.pending = dict(s.pending, options=list(view["choice"]["options"]))
    s.rng = rng.getrandbits(64)
    if not keep_fixed_rolls:
        s.forced_rolls = {}
    return s


def _copy_public_variables(s: GameState, view: dict, viewer: str) -> None:
    """The game's variables the view shows, and the turn's when it is the viewer's turn."""
    s.vars["game"].update(view["vars"]["game"])
    if view["current"] == viewer:
        s.vars["turn"].update(view["vars"]["turn"])


def _copy_seen_properties(s: GameState, view: dict, rng: random.Random, beliefs: dict | None = None,
                          drawn: dict | None = None) -> None:
    """Visible properties from the view; each hidden one dealt among the entities of a
    kind whose value of it the viewer cannot see (:func:`deal_values`), several hidden on
    one entity together, as one face, among the entities hiding the same ones (where no
    belief names them), but for the
    ``drawn`` ones (kind → property → values and weights), which are drawn again
    (:func:`_draw_hidden_values`)."""
    shuffled: dict[tuple[str, str], list[str]] = {}
    faces: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    drawn = drawn or {}
    for eid, e in s.entities.items():
        seen = view["entities"].get(eid)
        if seen is None:
            continue
        e["props"].update(seen["props"])
        fresh = drawn.get(e["kind"], ())
        hidden = tuple(name for name in e["props"] if name not in seen["props"] and name not in fresh)
        if len(hidden) > 1 and not (beliefs and any((eid, name) in beliefs for name in hidden)):
            # several values hidden on one thing (a card's colour and rank) are one face:
            # dealt together, so that no sample makes a card that is not in the game
            faces.setdefault((e["kind"], hidden), []).append(eid)
            continue
        for name in hidden:
            shuffled.setdefault((e["kind"], name), []).append(eid)
    for (_, names), unseen_by in faces.items():
        dealt = [tuple(s.entities[eid]["props"][name] for name in names) for eid in unseen_by]
        rng.shuffle(dealt)
        for eid, face in zip(unseen_by, dealt):
            s.entities[eid]["props"].update(zip(names, face))
    for (_, name), unseen_by in shuffled.items():
        values = [s.entities[eid]["props"][name] for eid in unseen_by]
        rng.shuffle(values)
        if beliefs:
            values = deal_values(unseen_by, name, values, beliefs, rng)
        for eid, value in zip(unseen_by, values):
            s.entities[eid]["props"][name] = value


def drawn_properties(ruleset) -> dict[str, dict[str, tuple[list, list]]]:
    """Kind → {property: (values, weights)} for the properties the rule set declares
    ``drawn``: each a fresh random draw from its values, which a seat that cannot see it
    may take for any of them, as likely as its weight."""
    out: dict[str, dict[str, tuple[list, list]]] = {}
    for name, kind in ruleset.data.kinds.items():
        for prop, spec in kind.properties.items():
            weights = spec.draw_weights()
            if weights and len(weights) == len(spec.values) and any(w > 0 for w in weights):
                out.setdefault(name, {})[prop] = (list(spec.values), weights)
    return out


def _draw(values: list, weights: list, believed, rng: random.Random):
    """One of ``values``, as likely as its weight times the odds the seat's beliefs
    (``[(value, odds or None for sure)]``) give it; a sure belief is taken as it is."""
    if believed:
        sure = [value for value, odds in believed if odds is None]
        if sure:
            return sure[0]
        weights = list(weights)
        for value, odds in believed:
            if value in values:
                weights[values.index(value)] *= max(odds, 0.0)
        if not any(w > 0 for w in weights):
            weights = [1] * len(values)
    elif all(w == weights[0] for w in weights):
        return values[rng.randrange(len(values))]
    mark, pick = rng.random() * sum(weights), len(values) - 1
    for i, weight in enumerate(weights):
        mark -= weight
        if mark < 0 and weight > 0:
            pick = i
            break
    return values[pick]


def _draw_hidden_values(s: GameState, view: dict, rng: random.Random, drawn: dict, known: dict,
                        beliefs: dict | None) -> None:
    """Draw again, from the generator, each ``drawn`` property whose value the viewer
    cannot see, on every entity (shown or not): the rules made it a fresh random draw,
    so the copy's value is one guess among many. A value the viewer saw (``known``, from
    :class:`SeenValues`) stays while the copy still holds it: the copy, which runs the
    rules, has not drawn it again out of the viewer's sight."""
    entities = view["entities"]
    for eid, e in s.entities.items():
        props = drawn.get(e["kind"])
        if not props:
            continue
        seen = entities.get(eid)
        shown = seen["props"] if seen is not None else {}
        for name, (values, weights) in props.items():
            if name in shown or name not in e["props"]:
                continue
            key = (eid, name)
            if key in known and e["props"][name] == known[key]:
                continue
            e["props"][name] = _draw(values, weights, beliefs.get(key) if beliefs else None, rng)


def _draw_hidden_variables(s: GameState, view: dict, rng: random.Random, data) -> None:
    """Draw again each ``drawn`` game or turn variable the view does not show (one
    ``visible_to: nobody``, or the turn's on another player's turn)."""
    for scope, specs in data.variables.items():
        shown = view["vars"].get(scope) or {}
        held = s.vars.get(scope)
        if held is None:
            continue
        for name, spec in specs.items():
            weights = spec.draw_weights()
            if weights and name not in shown and name in held and len(weights) == len(spec.values) \
                    and any(w > 0 for w in weights):
                held[name] = _draw(list(spec.values), weights, None, rng)


class SeenValues:
    """The values of ``drawn`` properties one seat has seen, as long as it may know them:
    read from its views (a value shown now, by the tables or by ``reveal``) and from the
    ``changed`` events it saw with their values. A value stays known after it is hidden
    again (a ``hide``, a thing moved out of sight), until the tracked copy, which runs the
    rules, holds another one: it was set again out of the seat's sight. A copy that set it
    again to the same value by chance keeps it known too."""

    def __init__(self, ruleset):
        self._drawn = drawn_properties(ruleset)
        self._read = 0
        self.known: dict[tuple[str, str], object] = {}

    def read(self, view: dict, state: GameState) -> dict[tuple[str, str], object]:
        """(entity, property) → the value the seat knows, after ``view`` (its events
        read a few at a time: one tracker follows one game), checked against the copy
        ``state`` at the seat's choice."""
        if not self._drawn:
            return self.known
        entities = state.entities
        known = self.known
        events = view.get("events") or []
        for event in events[self._read:]:
            if event.get("type") != "changed" or event.get("value") == HIDDEN:
                continue
            eid = event.get("entity")
            if eid in entities and event.get("property") in self._drawn.get(entities[eid]["kind"], ()):
                known[(eid, event["property"])] = event["value"]
        self._read = len(events)
        for eid, seen in view["entities"].items():
            for name in self._drawn.get(seen["kind"], ()):
                if name in seen["props"]:
                    known[(eid, name)] = seen["props"][name]
        for key, value in list(known.items()):
            e = entities.get(key[0])
            if e is None or e["props"].get(key[1]) != value:
                del known[key]
        return known


def deal_values(entities: list[str], name: str, pool: list, beliefs: dict, rng: random.Random) -> list:
    """The values of property ``name`` for ``entities`` in order, dealt from ``pool`` (the
    tracked copy's values, shuffled) as the seat believes:

    - a sure belief takes its value from the pool; when the pool holds none, the entity
      gets it anyway, in place of a pooled value drawn at random (the copy's count of
      that value was a guess, what the seat knows is not);
    - then each entity with a belief with odds, in a random order, draws from what is
      left, each pooled value weighted by the odds of the beliefs naming it (1 for the
      others): one suspect among n with k of them hidden ``true`` and odds 3 is dealt
      ``true`` with chance 3k / (3k + n - k): the chance given something seen that is
      three times as likely of a ``true`` one. With several suspects, drawing in turn
      only approximates the joint posterior;
    - the rest get what is left, in the pool's (random) order."""
    pool = list(pool)
    dealt: dict[str, object] = {}
    for eid in entities:
        sure = [value for value, odds in beliefs.get((eid, name), ()) if odds is None]
        if not sure:
            continue
        value = sure[0]
        if value in pool:
            pool.remove(value)
        elif pool:
            pool.pop()
        dealt[eid] = value
    weighed = [eid for eid in entities if eid not in dealt and
               any(odds is not None for _, odds in beliefs.get((eid, name), ()))]
    rng.shuffle(weighed)
    for eid in weighed:
        if not pool:
            break
        held = [(value, odds) for value, odds in beliefs[(eid, name)] if odds is not None]
        weights = []
        for value in pool:
            weight = 1.0
            for believed, odds in held:
                if believed == value:
                    weight *= max(odds, 0.0)
            weights.append(weight)
        total = sum(weights)
        if total <= 0:
            dealt[eid] = pool.pop(rng.randrange(len(pool)))
            continue
        mark, pick = rng.random() * total, len(pool) - 1
        for i, weight in enumerate(weights):
            mark -= weight
            if mark < 0:
                pick = i
                break
        dealt[eid] = pool.pop(pick)
    rest = iter(pool)
    return [dealt[eid] if eid in dealt else next(rest) for eid in entities]
