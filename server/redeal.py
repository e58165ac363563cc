"""Whether what a decision caused depends on something its player cannot see.

A decision may be taken back only if it showed its player nothing hidden: otherwise the
player would replay the same deal knowing more. Events that name a hidden thing are
easy to spot; an outcome computed from hidden facts (a count of players with a secret
property in a room, a public card found by a hidden rule) is not. So the decision is
played again on a few copies of the state before it whose hidden parts, as its player
sees the game, are dealt again: same-kind things exchanged among the places the player
cannot look into (visible tops and counts kept), the values of each property the player
cannot see shuffled among the entities whose value it cannot see (and, in every other
copy, one of them given another value: how many hold a secret value is a secret too),
hidden variables changed. If any copy shows the player other events or another view afterwards, the
outcome depended on what was hidden.

A few copies cannot prove that nothing hidden mattered, only find where it did; they
come from a seed of the game's own, so the answer is the same every time the game is
replayed.
"""

from __future__ import annotations

import random

from rulecraft.bots.determinize import list_options_again
from rulecraft.interpreter.machine import Machine
from rulecraft.interpreter.state import THING, GameState
from rulecraft.interpreter.views import owner_of, player_view, record_event, visible_event, zone_visible

# Copies the decision is played on again: each is a whole new deal of what the player
# cannot see, so a few find an outcome that depends on it, and a served game stays quick.
COPIES = 4


def shows_hidden(ruleset, before: GameState, option: int, after: GameState, caused: list[dict],
                 player: str, seed: int) -> bool:
    """Whether ``player``'s answer ``option`` to the choice pending in ``before`` (which
    led to ``after`` and the events ``caused``) could have shown that player something
    else had what it cannot see been otherwise. ``before`` is left as it is."""
    seen = _seen(ruleset, after, caused, player)
    view_after = player_view(ruleset, after, player)
    view_before = player_view(ruleset, before, player)
    chosen = before.pending["options"][option]
    rnd = random.Random(seed)
    played = 0
    for n in range(COPIES):
        copy = before.clone()
        if not redeal(ruleset, copy, player, rnd, recount=n % 2 == 1):
            return False  # nothing is hidden from the player: nothing to learn
        if player_view(ruleset, copy, player) != view_before:
            continue  # not a deal the player could be in (it would see the difference)
        events: list[dict] = []
        try:
            list_options_again(ruleset, copy)
            if copy.pending is None or copy.pending["options"] != before.pending["options"]:
                continue  # the options alone would tell the deals apart
            machine = Machine(ruleset, copy, lambda event, s=copy, e=events: record_event(ruleset, s, e, event))
            machine.answer(copy.pending["options"].index(chosen))
        except Exception:  # noqa: BLE001 - a made-up deal the rules cannot play on from here
            continue
        played += 1
        if (copy.rng != before.rng or copy.forced_rolls != before.forced_rolls
                or _seen(ruleset, copy, events, player) != seen or player_view(ruleset, copy, player) != view_after):
            return True
    # no copy could be played: nothing says the outcome did not depend on what is hidden
    return played == 0


def _seen(ruleset, state: GameState, events: list[dict], player: str) -> list[dict]:
    out = []
    for event in events:
        shown = visible_event(ruleset, state, event, player)
        if shown is not None:
            shown.pop("seq", None)
            out.append(shown)
    return out


def redeal(ruleset, state: GameState, viewer: str, rnd: random.Random, recount: bool = False) -> bool:
    """Deal again, in ``state``, what ``viewer`` cannot see (see the module doc); with
    ``recount``, a secret property's values are not only shuffled, one changes. False
    when nothing is hidden from ``viewer``."""
    changed = _redeal_things(ruleset, state, viewer, rnd)
    changed = _redeal_properties(ruleset, state, viewer, rnd, recount) or changed
    return _change_variables(ruleset, state, rnd) or changed


def _redeal_things(ruleset, state: GameState, viewer: str, rnd: random.Random) -> bool:
    """Exchange same-kind things among the places of zones hidden from ``viewer`` (under
    a visible top; a thing shown to the viewer stays). A place keeps its zone's owner:
    the thing put there takes the owner property of the one it replaces."""
    zones, kinds, entities = ruleset.data.zones, ruleset.data.kinds, state.entities
    places: dict[str, list[tuple[str, int]]] = {}
    for zone, items in state.zones.items():
        spec = zones.get(zone.split(":", 1)[0])
        if spec is None or not items or zone_visible(ruleset, zone, viewer, state):
            continue
        for i in range(1 if spec.top_visible else 0, len(items)):
            thing = items[i]
            if viewer not in state.revealed.get(thing, {}).get(THING, ()):
                places.setdefault(entities[thing]["kind"], []).append((zone, i))
    changed = False
    for kind, spots in places.items():
        if len(spots) < 2:
            continue
        things = [state.zones[z][i] for z, i in spots]
        owner = kinds[kind].owner_property
        owners = [entities[t]["props"].get(owner) for t in things] if owner else None
        dealt = list(things)
        rnd.shuffle(dealt)
        changed = changed or dealt != things
        for n, ((zone, i), thing) in enumerate(zip(spots, dealt)):
            state.zones[zone][i] = thing
            entities[thing]["at"] = zone
            if owner:
                entities[thing]["props"][owner] = owners[n]
    return changed


def _redeal_properties(ruleset, state: GameState, viewer: str, rnd: random.Random, recount: bool) -> bool:
    """Shuffle each property ``viewer`` cannot see among the entities of a kind whose
    value of it it cannot see; with ``recount``, or where they all hold the same value
    (a shuffle would change nothing), give one of them another value of it."""
    kinds = ruleset.data.kinds
    unseen: dict[tuple[str, str], list[str]] = {}
    values: dict[tuple[str, str], list] = {}
    for eid, e in state.entities.items():
        props = kinds[e["kind"]].properties
        for name, value in e["props"].items():
            spec = props.get(name)
            if spec is None or spec.visible_to == "everyone":
                continue
            values.setdefault((e["kind"], name), []).append(value)
            if viewer in state.revealed.get(eid, {}).get(name, ()):
                continue
            if spec.visible_to == "owner" and owner_of(ruleset, state, eid) == viewer:
                continue
            unseen.setdefault((e["kind"], name), []).append(eid)
    changed = False
    for key, holders in unseen.items():
        name = key[1]
        held = [state.entities[eid]["props"][name] for eid in holders]
        dealt = list(held)
        rnd.shuffle(dealt)
        if recount or all(v == held[0] for v in held):
            i = rnd.randrange(len(dealt))
            other = [v for v in values[key] if v != dealt[i]]
            if other:
                dealt[i] = rnd.choice(other)
            elif isinstance(dealt[i], bool):
                dealt[i] = not dealt[i]
        for eid, value in zip(holders, dealt):
            state.entities[eid]["props"][name] = value
        changed = changed or dealt != held
    return changed


def _change_variables(ruleset, state: GameState, rnd: random.Random) -> bool:
    """Give each variable nobody but the engine sees another value of its sort: a flag
    turned, a number one more or less, a player or thing another of its kind."""
    changed = False
    for scope, specs in ruleset.data.variables.items():
        held = state.vars.get(scope)
        if not held:
            continue
        for name, spec in specs.items():
            if spec.visible_to == "everyone" or name not in held:
                continue
            new = _other_value(state, held[name], rnd)
            if new is not None and new != held[name]:
                state.vars[scope] = held = dict(held)
                held[name] = new
                changed = True
    return changed


def _other_value(state: GameState, value, rnd: random.Random):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1 if value <= 0 or rnd.random() < 0.5 else value - 1
    if isinstance(value, str) and value in state.entities:
        kind = state.entities[value]["kind"]
        others = [eid for eid, e in state.entities.items() if e["kind"] == kind and eid != value]
        return rnd.choice(others) if others else None
    return None
