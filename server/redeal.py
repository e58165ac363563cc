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

The forced answers that followed the decision (a choice of one option: a pass in a
reaction window) are played on each copy too, for what they caused reaches the player
(what an action does, done once the last player passed). That an answer was forced is
itself hidden (its player held nothing it could play): in each copy the same player must
be asked again with that one option, and the same player (or nobody) be asked next, or
the copy tells the deals apart. Besides the random deals, such a player is dealt, in a
copy each, every other thing hidden from both that it could hold where only it looks
(``exchanges``): a hand without the one card that gives a choice is otherwise often
dealt again by chance.

A few copies cannot prove that nothing hidden mattered, only find where it did; they
come from a seed of the game's own, so the answer is the same every time the game is
replayed.
"""

from __future__ import annotations

import random

from rulecraft.bots.determinize import list_options_again
from rulecraft.interpreter.machine import Machine
from rulecraft.interpreter.state import THING, GameState
from rulecraft.interpreter.views import owner_of, player_view, record_event, sees_property, visible_event, zone_visible

# Copies the decision is played on again: each is a whole new deal of what the player
# cannot see, so a few find an outcome that depends on it, and a served game stays quick.
COPIES = 4

# What shows_hidden finds: the player would have been shown another outcome, or an answer
# that was forced would have been a choice (or asked of another player).
OTHER_OUTCOME = "outcome"
OTHER_CHOICE = "choice"


def shows_hidden(ruleset, before: GameState, option: int, after: GameState, caused: list[dict],
                 player: str, seed: int, forced: list[tuple[str, object]] = ()) -> str | None:
    """Whether ``player``'s answer ``option`` to the choice pending in ``before``, then
    the ``forced`` answers (each a player and the one option it was offered), which led
    to ``after`` and the events ``caused``, could have shown that player something else
    had what it cannot see been otherwise: OTHER_OUTCOME, OTHER_CHOICE when a forced
    answer would not have been, or None. ``before`` is left as it is."""
    seen = _seen(ruleset, after, caused, player)
    view_after = player_view(ruleset, after, player)
    view_before = player_view(ruleset, before, player)
    chosen = before.pending["options"][option]
    rnd = random.Random(seed)
    played = 0
    # a forced answer's player is also dealt, a copy each, every other thing it could hold
    deals = exchanges(ruleset, before, player, [who for who, _ in forced])
    for n in range(len(deals) + COPIES):
        copy = before.clone()
        if n < len(deals):
            exchange(ruleset, copy, *deals[n])
        elif not redeal(ruleset, copy, player, rnd, recount=(n - len(deals)) % 2 == 1):
            return None  # nothing is hidden from the player: nothing to learn
        if player_view(ruleset, copy, player) != view_before:
            continue  # not a deal the player could be in (it would see the difference)
        events: list[dict] = []
        try:
            list_options_again(ruleset, copy)
            if copy.pending is None or copy.pending["options"] != before.pending["options"]:
                continue  # the options alone would tell the deals apart
            machine = Machine(ruleset, copy, lambda event, s=copy, e=events: record_event(ruleset, s, e, event))
            machine.answer(copy.pending["options"].index(chosen))
            for who, only in forced:
                if _asked(copy) != who or copy.pending["options"] != [only]:
                    return OTHER_CHOICE  # not forced the same way in this deal
                machine.answer(0)
        except Exception:  # noqa: BLE001 - a made-up deal the rules cannot play on from here
            continue
        played += 1
        if (_asked(copy) != _asked(after) or copy.rng != before.rng or copy.forced_rolls != before.forced_rolls
                or _seen(ruleset, copy, events, player) != seen or player_view(ruleset, copy, player) != view_after):
            return OTHER_OUTCOME
    # no copy could be played: nothing says the outcome did not depend on what is hidden
    return OTHER_OUTCOME if played == 0 else None


def _asked(state: GameState) -> str | None:
    """Who answers next (None: nobody, the game is over)."""
    return state.pending["player"] if state.pending is not None else None


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
    changed = False
    for spots in _hidden_places(ruleset, state, viewer).values():
        if len(spots) < 2:
            continue
        things = [state.zones[z][i] for z, i in spots]
        dealt = list(things)
        rnd.shuffle(dealt)
        changed = changed or dealt != things
        _put(ruleset, state, spots, dealt)
    return changed


def _hidden_places(ruleset, state: GameState, viewer: str) -> dict[str, list[tuple[str, int]]]:
    """Per kind, the places (zone, position) of the things ``viewer`` cannot see."""
    zones, entities = ruleset.data.zones, state.entities
    places: dict[str, list[tuple[str, int]]] = {}
    for zone, items in state.zones.items():
        spec = zones.get(zone.split(":", 1)[0])
        if spec is None or not items or zone_visible(ruleset, zone, viewer, state):
            continue
        for i in range(1 if spec.top_visible else 0, len(items)):
            thing = items[i]
            if viewer not in state.revealed.get(thing, {}).get(THING, ()):
                places.setdefault(entities[thing]["kind"], []).append((zone, i))
    return places


def _put(ruleset, state: GameState, spots: list[tuple[str, int]], things: list[str]) -> None:
    """Put ``things`` in the places ``spots`` (the same things, dealt otherwise), each
    taking the owner property of the one its place held."""
    entities = state.entities
    owner = ruleset.data.kinds[entities[things[0]]["kind"]].owner_property
    owners = [entities[state.zones[z][i]]["props"].get(owner) for z, i in spots] if owner else None
    for n, ((zone, i), thing) in enumerate(zip(spots, things)):
        state.zones[zone][i] = thing
        entities[thing]["at"] = zone
        if owner:
            entities[thing]["props"][owner] = owners[n]


def exchanges(ruleset, state: GameState, viewer: str, players) -> list[tuple[tuple[str, int], tuple[str, int]]]:
    """Deals that might give each of ``players`` another option: for each thing hidden
    from ``viewer`` that such a player does not see either and that differs from every
    thing of its kind the player sees where ``viewer`` does not (its hand), that thing
    exchanged with the first of them (two places). The random deals may all leave a
    player's hand without the one card that would have given it a choice."""
    out: list[tuple[tuple[str, int], tuple[str, int]]] = []
    if not players:
        return out
    places = _hidden_places(ruleset, state, viewer)
    for player in dict.fromkeys(players):
        for kind, spots in places.items():
            mine = [spot for spot in spots if zone_visible(ruleset, spot[0], player, state)]
            if not mine:
                continue
            owner = ruleset.data.kinds[kind].owner_property
            held = {_alike(state, spot, owner) for spot in mine}
            for spot in spots:
                what = _alike(state, spot, owner)
                if spot not in mine and what not in held:
                    held.add(what)
                    out.append((mine[0], spot))
    return out


def _alike(state: GameState, spot: tuple[str, int], owner: str | None) -> str:
    """What tells the thing at ``spot`` from others of its kind, but whose it is."""
    props = state.entities[state.zones[spot[0]][spot[1]]]["props"]
    return repr(sorted((k, v) for k, v in props.items() if k != owner))


def exchange(ruleset, state: GameState, a: tuple[str, int], b: tuple[str, int]) -> None:
    """Exchange the things at two places of ``state`` (see ``exchanges``)."""
    _put(ruleset, state, [a, b], [state.zones[b[0]][b[1]], state.zones[a[0]][a[1]]])


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
            if spec.visible_to in ("owner", "others") and sees_property(spec.visible_to, owner_of(ruleset, state, eid), viewer):
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
