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
  the components it saw drawn are put on top of where they came from.
- **what the seat cannot see** (:func:`determinize`): everything the view shows is
  copied over the tracked copy: visible zones, visible properties, public variables,
  whose turn it is. The components the seat has not seen are dealt at random into the
  hidden zones, as many into each as the view's public count says (a zone's visible
  top card stays on top; a zone that ``holds`` one kind gets only that kind), and each
  hidden property is shuffled among the entities whose value of it the seat cannot see.
  The generator is reseeded from the bot's own, so chance after now differs between
  determinizations.

Nothing here reads the real game: the inputs are the rule set (public), the view and
the bot's own generator.

Limits (what a determinization may get wrong, never what it may read):

- the belief is uniform over the unseen components: nothing is inferred from what other
  players did (a player who passed up a card may still be dealt one like it). Hidden
  properties are dealt uniformly too, unless the rule set's heuristics declare what the
  seat believes of them (``believe``, see :func:`deal_values`);
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
        self._start()

    def _machine(self, state: GameState, count: bool = False) -> Machine:
        """A machine on ``state`` recording in ``_made`` the decisions the seat sees it
        make, and with ``count`` how many events the seat sees in all (``_shown``)."""
        def record(event: dict) -> None:
            if event["type"] not in DECISION_EVENTS and not count:
                return
            event = dict(event)
            annotate_visibility(self.ruleset, state, event)
            shown = visible_event(self.ruleset, state, event, self.viewer)
            if shown is None:
                return
            self._shown += 1
            if event["type"] in DECISION_EVENTS:
                self._made.append(_decision_key(shown))
        self._made: list[tuple] = []
        self._shown = 0
        return Machine(self.ruleset, state, record)

    def follow(self, view: dict) -> bool:
        """Move the copy to the seat's pending choice of ``view``; False when it cannot.

        When no option of a choice reproduces what the seat saw next, the copy's hidden
        parts are dealt again (as a determinization of the copy's own view) and the choice
        retried; when that fails too, the copy starts over from a new seed (chance may have
        sent the real game another way early on, e.g. in who starts)."""
        if self.lost:
            return False
        events = view.get("events") or []
        observed = [_decision_key(e) for e in events if e["type"] in DECISION_EVENTS]
        # where each decision the seat saw stands in its event list: what it drew lies between
        self._at = [i for i, e in enumerate(events) if e["type"] in DECISION_EVENTS]
        self._events = events
        self._rolls = [(e["die"], e["value"]) for e in events if e["type"] == "rolled" and e.get("value") != HIDDEN]
        self._feed_rolls()
        if not self._aligned:
            self._align_setup()
        self._steps_left = FOLLOW_STEPS  # for this whole call: restarts and backups included
        # Once put back in step, the copy is known not to replay the real game from its
        # start: starting over would fail where it failed before, at the cost of the whole game.
        for attempt in range(RESTARTS + 1 if not self.resyncs else 1):
            if attempt:
                self._start(observed)
            if self._try_follow(view, observed):
                return True
            if self._steps_left <= 0:
                break
            # A choice made earlier may have fixed what only later events show (a card
            # drawn before the seat saw where it went): back up a few decisions and follow
            # again, now conditioned on those events, before starting over.
            for done, state, seen, fed in list(reversed(self._checkpoints))[:BACKUPS]:
                self.state, self._seen, self._fed = state.clone(), list(seen), fed
                self._checkpoints = [c for c in self._checkpoints if c[0] < done]
                self._feed_rolls()
                if self._try_follow(view, observed):
                    return True
        if self._resync(view, observed):
            return True
        self.lost = True
        return False

    def _resync(self, view: dict, observed: list[tuple]) -> bool:
        """When no way through the decisions the seat saw is found: from the last point
        the copy did follow, play on with any options until the seat has a choice of the
        same kind, then copy the whole view over it (every visible zone, property and
        variable) and take up following from there. The rules' position (a loop's place
        in the turn order, a procedure's variables) may then differ from the real game's;
        what the seat sees does not."""
        if not self._checkpoints:  # it never followed: from a new copy's first decision
            self._start(observed)
            self._checkpoints = [(len(self._seen), self.state.clone(), list(self._seen), self._fed)]
        for _, checkpoint, _, _ in self._checkpoints[-1:]:
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
                            self._checkpoints = [(len(observed), self.state.clone(), list(observed), len(self._rolls))]
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
            self._aligned = False
            if observed is not None:
                self._align_setup()
            if not observed or self._could_go_on(observed):
                break
        # (decisions followed, copy, its decisions seen, rolls fed) before recent decisions
        self._checkpoints: list[tuple[int, GameState, list, int]] = []

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
        for entity, zone in went.items():
            source = came_from[entity]
            # only a draw from a hidden zone, which the copy drew otherwise
            if source in state.zones and state.entities[entity]["at"] == source and \
                    not zone_visible(self.ruleset, source, self.viewer):
                moved = _swap_into(state, entity, zone, went) or moved
        for (entity, name), value in values.items():
            if name in state.entities[entity]["props"]:
                state.entities[entity]["props"][name] = value
        if moved or values:
            _list_options_again(self.ruleset, state)

    def _could_go_on(self, observed: list[tuple]) -> bool:
        state, done = self.state, len(self._seen)
        if state.result is not None or not all(_agrees(s, m) for s, m in zip(observed, self._seen)):
            return False
        if state.pending["player"] == self.viewer and done == len(observed):
            return True
        try:
            return bool(self._consistent(state, observed[done:]))
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
        path: list[list] = []  # [state, decisions seen, options left, redeals left] above the current step
        node = self._step(self.state, self._seen, view, observed, REDEALS)
        while self._steps_left > 0:
            self._steps_left -= 1
            state, seen, left, redeals = node
            if left is True:  # the seat's choice is reached
                self._commit(path, node)
                return True
            if left:
                trial, made = left.pop()
                path.append(node)
                node = self._step(trial, seen + made, view, observed, REDEALS)
                continue
            if left is not None and redeals > 0:  # every option led nowhere: deal this step again
                node = self._step(self._redeal(state, len(seen)), seen, view, observed, redeals - 1)
                continue
            if not path:
                return False
            node = path.pop()
        return False

    def _step(self, state: GameState, seen: list, view: dict, observed: list[tuple], redeals: int) -> list:
        """A search step: True for its options when the seat's pending choice is reached,
        None at a dead end, else the agreeing options as (state after, decisions seen),
        the one to try first last."""
        if state.result is not None or len(seen) > len(observed):
            return [state, seen, None, 0]
        pending = state.pending
        done = len(seen)
        if done == len(observed) and self._at_choice(pending, view["choice"]):
            return [state, seen, True, 0]
        if self._condition(state, done):
            _list_options_again(self.ruleset, state)
        consistent = self._consistent(state, observed[done:])
        while not consistent and redeals > 0:
            redeals -= 1
            state = self._redeal(state, done)
            consistent = self._consistent(state, observed[done:])
        self.rng.shuffle(consistent)
        consistent.sort(key=lambda c: c[0])  # those that showed themselves last: tried first
        return [state, seen, [(trial, made) for _, trial, made in consistent], redeals]

    def _at_choice(self, pending: dict, choice: dict) -> bool:
        """Whether the copy waits for the seat's choice: same player, kind and prompt."""
        return pending["player"] == self.viewer and pending["kind"] == choice["kind"] and \
            pending.get("prompt") == choice.get("prompt")

    def _redeal(self, state: GameState, done: int) -> GameState:
        """The copy with its hidden parts dealt again, the seat's known draws on top."""
        self.state = state
        state = determinize(self, player_view(self.ruleset, state, self.viewer), self.rng, keep_fixed_rolls=True)
        self._condition(state, done)
        _list_options_again(self.ruleset, state)
        return state

    def _commit(self, path: list[list], node: list) -> None:
        """Keep the reached state, and the steps that led to it as points to back up to."""
        self.state, self._seen = node[0], node[1]
        for state, seen, _, _ in path + [node]:
            if not self._checkpoints or self._checkpoints[-1][0] < len(seen):
                self._checkpoints.append((len(seen), state.clone(), list(seen), self._fed))
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

    def _consistent(self, state: GameState, ahead: list[tuple]) -> list[tuple]:
        """(showed itself, state after, decisions seen) for each option whose decisions the
        seat would see are the next ones it saw."""
        out = []
        pending = state.pending
        for index, option in enumerate(pending["options"]):
            first = _first_shown(pending, option)
            if first is not None and not (ahead and _agrees(ahead[0], first)):
                continue  # it would show another decision than the one seen next
            trial = state.clone()
            machine = self._machine(trial)
            machine.answer(index)
            made = self._made
            if len(made) <= len(ahead) and all(_agrees(s, m) for s, m in zip(ahead, made)):
                out.append((bool(made), trial, made))
        return out


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


def _list_options_again(ruleset, state: GameState) -> None:
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
    where = entities[entity]["at"]
    if where == zone:
        return False
    kind = entities[entity]["kind"]
    items = state.zones[zone]
    other = next((e for e in items if entities[e]["kind"] == kind and went.get(e) != zone), None)
    if other is None:
        return False
    items[items.index(other)] = entity
    if where is not None:
        place = state.zones[where]
        place[place.index(entity)] = other
    entities[entity]["at"], entities[other]["at"] = zone, where
    return True


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


def determinize(tracker: Tracker, view: dict, rng: random.Random, keep_fixed_rolls: bool = False,
                beliefs: dict | None = None) -> GameState:
    """One full state consistent with ``view``, from the tracked copy (see module doc).
    The rolls the seat saw stay fixed in advance only for the tracker's own redeals: a
    sample the bot plays from now on rolls afresh. ``beliefs`` (from
    :meth:`rulecraft.bots.evaluation.Evaluation.beliefs`) weighs how hidden properties
    are dealt."""
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
    for zone, shown in hidden_zones:
        spec = data.zones.get(zone.split(":", 1)[0])
        holds = spec.holds if spec is not None else None
        items = [shown["top"]] if "top" in shown else []
        while len(items) < shown["count"]:
            pick = next((i for i, eid in enumerate(unseen) if holds is None or entities[eid]["kind"] == holds), None)
            if pick is None:
                break
            items.append(unseen.pop(pick))
        s.zones[zone] = items
        for eid in items:
            entities[eid]["at"] = zone
    for eid in unseen:  # what no zone's count asks for stays off the table
        entities[eid]["at"] = None
    _copy_seen_properties(s, view, rng, beliefs)
    s.vars["game"].update(view["vars"]["game"])
    if view["current"] == tracker.viewer:
        s.vars["turn"].update(view["vars"]["turn"])
    s.current = view["current"]
    s.round = view["round"]
    if view["choice"] is not None:
        s.pending = dict(s.pending, options=list(view["choice"]["options"]))
    s.rng = rng.getrandbits(64)
    if not keep_fixed_rolls:
        s.forced_rolls = {}
    return s


def _copy_seen_properties(s: GameState, view: dict, rng: random.Random, beliefs: dict | None = None) -> None:
    """Visible properties from the view; each hidden one dealt among the entities of a
    kind whose value of it the viewer cannot see (:func:`deal_values`)."""
    shuffled: dict[tuple[str, str], list[str]] = {}
    for eid, e in s.entities.items():
        seen = view["entities"].get(eid)
        if seen is None:
            continue
        e["props"].update(seen["props"])
        for name in e["props"]:
            if name not in seen["props"]:
                shuffled.setdefault((e["kind"], name), []).append(eid)
    for (_, name), unseen_by in shuffled.items():
        values = [s.entities[eid]["props"][name] for eid in unseen_by]
        rng.shuffle(values)
        if beliefs:
            values = deal_values(unseen_by, name, values, beliefs, rng)
        for eid, value in zip(unseen_by, values):
            s.entities[eid]["props"][name] = value


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
