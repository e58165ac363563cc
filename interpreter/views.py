"""What one player may know: their view of the state and of the event stream.

Visibility comes from the rule set's tables: a zone is seen by everyone, its owner or
nobody (optionally with its top item public); a property may be visible to its owner
only, to every player but its owner, or to nobody. An entity's identity is shown only where the viewer can see it.

A viewer who is no seat (a spectator) is shown only what every seat may see: the zones
and properties everyone sees, and of the events only those every seat sees, with any
part the seats see differently hidden.
"""

from __future__ import annotations

import sys

from rulecraft.dsl.builtins import ACTION_WINDOW, ACTION_WINDOW_FIELDS, ENGINE_EVENTS
from rulecraft.dsl.model import RuleSet

from .state import THING, GameState

HIDDEN = "?"


def _zone_spec(ruleset: RuleSet, zone: str):
    return ruleset.data.zones.get(zone.split(":", 1)[0])


def _zone_owner(zone: str) -> str | None:
    return zone.split(":", 1)[1] if ":" in zone else None


def zone_visible(ruleset: RuleSet, zone: str | None, viewer: str, state: GameState | None = None) -> bool:
    if zone is None:
        return True
    spec = _zone_spec(ruleset, zone)
    if spec is None:  # a board space
        return True
    if spec.visible_to == "everyone":
        return True
    if spec.visible_to == "owner":
        owner = _zone_owner(zone)
        if spec.per_entity:  # a zone of an entity: seen by the entity's owner
            return state is not None and owner in state.entities and owner_of(ruleset, state, owner) == viewer
        return owner == viewer
    return False


def seen_by_all(ruleset: RuleSet, zone: str | None) -> bool:
    """Whether zone_visible holds for every viewer: no zone, a board space, or a zone
    everyone sees."""
    if zone is None:
        return True
    spec = _zone_spec(ruleset, zone)
    return spec is None or spec.visible_to == "everyone"


def owner_of(ruleset: RuleSet, state: GameState, entity: str) -> str | None:
    e = state.entities[entity]
    if e["kind"] == "player":
        return entity
    kind = ruleset.data.kinds[e["kind"]]
    return e["props"].get(kind.owner_property) if kind.owner_property else None


def sees_property(visible_to: str, owner: str | None, viewer: str) -> bool:
    """Whether a viewer sees a property declared ``visible_to`` on a thing of this owner,
    by the tables alone: ``others`` is every player but the owner (a card held facing
    out), everyone when the thing has no owner."""
    if visible_to == "everyone":
        return True
    if visible_to == "owner":
        return owner is not None and owner == viewer
    if visible_to == "others":
        return owner != viewer
    return False


def visible_props(ruleset: RuleSet, state: GameState, entity: str, viewer: str) -> dict:
    e = state.entities[entity]
    kind = ruleset.data.kinds[e["kind"]]
    owner = None
    out = {}
    for name, value in e["props"].items():
        spec = kind.properties.get(name)
        vis = spec.visible_to if spec else "everyone"
        if vis == "everyone":
            out[name] = value
        elif vis in ("owner", "others"):
            owner = owner or owner_of(ruleset, state, entity)
            if sees_property(vis, owner, viewer):
                out[name] = value
        if name not in out and revealed_to(state, entity, name, viewer):
            out[name] = value
    return out


def _visible_vars(ruleset: RuleSet, state: GameState, scope: str) -> dict:
    """Variables everyone may see; those declared visible_to nobody stay with the engine."""
    specs = ruleset.data.variables.get(scope, {})
    return {name: value for name, value in state.vars.get(scope, {}).items()
            if name not in specs or specs[name].visible_to == "everyone"}


def _restricted_props(ruleset: RuleSet) -> dict[str, dict[str, str]]:
    """Kind → {property: who sees it} for the properties not everyone sees."""
    return {name: {p: spec.visible_to for p, spec in kind.properties.items() if spec.visible_to != "everyone"}
            for name, kind in ruleset.data.kinds.items()}


def hides_anything(ruleset: RuleSet) -> bool:
    """Whether the rule set keeps anything from some player: a zone, a property or a
    variable that not everyone sees (the tables these views are built from)."""
    data = ruleset.data
    return (any(spec.visible_to != "everyone" for spec in data.zones.values())
            or any(_restricted_props(ruleset).values())
            or any(spec.visible_to != "everyone" for scope in data.variables.values() for spec in scope.values()))


def player_view(ruleset: RuleSet, state: GameState, viewer: str, events: list[dict] | None = None) -> dict:
    """The viewer's view; with ``events`` (a game's whole event list), the ones they may
    see, numbered in the viewer's own stream (see ``number_for_viewer``)."""
    view = _view(ruleset, state, viewer, _table(ruleset, state, viewer))
    if events is not None:
        visible = [e for e in (visible_event(ruleset, state, ev, viewer) for ev in events) if e is not None]
        view["events"] = [number_for_viewer(e, i) for i, e in enumerate(visible)]
    return view


def lazy_player_view(ruleset: RuleSet, state: GameState, viewer: str) -> "LazyView":
    """``player_view`` without events, whose costly parts (tiles, zones, entities and
    variables) are built when first read: a bot that only looks at its options never
    pays for them. The view must be read before the state changes, or settled (see
    LazyView.settle)."""
    view = LazyView(_view(ruleset, state, viewer, None))
    view._build = lambda: _table(ruleset, state, viewer)
    return view


class LazyView(dict):
    """A player view (a dict) whose costly parts (``_LAZY_KEYS``) are built on first read.

    Until then those keys hold a placeholder; every way of reading the dict (items,
    iteration, equality, copying, JSON, pickling) builds them first, so what is read is
    exactly what ``player_view`` returns."""

    __slots__ = ("_build",)

    def _fill(self) -> None:
        build = self._build
        if build is not None:
            self._build = None
            for key, value in build().items():
                dict.__setitem__(self, key, value)

    def settle(self) -> None:
        """Build the lazy parts now if anyone but the caller still holds this view:
        the state is about to change, and a view read later must show the moment it was
        made. Call it as ``view.settle()`` right after the bot answered."""
        if self._build is not None:
            refs = getattr(sys, "getrefcount", None)
            # getrefcount counts its own argument and the caller's variable; more means
            # the view was kept somewhere (without getrefcount, assume it was).
            if refs is None or refs(self) > 3:
                self._fill()

    def __getitem__(self, key):
        if key in _LAZY_KEYS:
            self._fill()
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        if key in _LAZY_KEYS:
            self._fill()
        return dict.get(self, key, default)

    def _filled(name):  # noqa: N805 - builds the methods below
        method = getattr(dict, name)

        def filled(self, *args, **kwargs):
            self._fill()
            return method(self, *args, **kwargs)
        filled.__name__ = name
        return filled

    # keys, len and `in` are right as they are; anything that reads values builds first
    for _name in ("__iter__", "__reversed__", "items", "values", "copy", "pop", "popitem", "setdefault",
                  "update", "__setitem__", "__delitem__", "__eq__", "__ne__", "__repr__", "__or__", "__ror__",
                  "__ior__"):
        locals()[_name] = _filled(_name)
    del _filled, _name

    def __reduce_ex__(self, protocol):
        self._fill()
        return (dict, (dict(self),))

    def __deepcopy__(self, memo):
        import copy

        self._fill()
        return copy.deepcopy(dict(self), memo)

    __hash__ = None


_LAZY_KEYS = ("tiles", "zones", "entities", "vars")


def _table(ruleset: RuleSet, state: GameState, viewer: str) -> dict:
    """The costly parts of a view (``_LAZY_KEYS``)."""
    # A view is built for every decision, so the visibility rules of zones_visible and
    # visible_props are applied here inline, with the rule set's tables read once per view.
    zone_specs = ruleset.data.zones
    zones = {}
    visible_entities = set()
    for zone, items in state.zones.items():
        name, sep, owner = zone.partition(":")
        spec = zone_specs.get(name)
        if spec is None:  # a board space: seen by everyone
            if items:
                zones[zone] = list(items)
                visible_entities.update(items)
            continue
        vis = spec.visible_to
        if vis == "owner" and spec.per_entity:
            owner = owner_of(ruleset, state, owner) if owner in state.entities else None
        if vis == "everyone" or (vis == "owner" and sep and owner == viewer):
            zones[zone] = list(items)
            visible_entities.update(items)
        else:
            shown = {"count": len(items)}
            if spec.top_visible and items:
                shown["top"] = items[0]
                visible_entities.add(items[0])
            zones[zone] = shown
    restricted = _restricted_props(ruleset)
    kinds = ruleset.data.kinds
    entities = {}
    for eid, e in state.entities.items():
        at = e["at"]
        if at is None or eid in visible_entities:
            kind = e["kind"]
            props = e["props"]
            hidden = restricted[kind]
            if hidden:
                owner = eid if kind == "player" else (props.get(kinds[kind].owner_property)
                                                      if kinds[kind].owner_property else None)
                props = {n: v for n, v in props.items()
                         if n not in hidden or sees_property(hidden[n], owner, viewer)}
            else:
                props = dict(props)
            entities[eid] = {"kind": kind, "at": at, "props": props}
    if state.revealed:
        _add_revealed(ruleset, state, viewer, zones, entities)
    return {
        "tiles": {k: list(v) for k, v in state.tiles.items()},
        "zones": zones,
        "entities": entities,
        "vars": {"game": _visible_vars(ruleset, state, "game"),
                 "turn": _visible_vars(ruleset, state, "turn") if state.current == viewer else {}},
    }


def _add_revealed(ruleset: RuleSet, state: GameState, viewer: str, zones: dict, entities: dict) -> None:
    """What `reveal` showed the viewer beyond the tables: a thing shown is listed in its
    hidden zone under "shown" and described in full (its properties as the tables allow);
    a property shown is added to a thing the viewer sees."""
    for eid, shown in state.revealed.items():
        e = state.entities.get(eid)
        if e is None:
            continue
        if viewer in shown.get(THING, ()):
            if eid not in entities:
                entities[eid] = {"kind": e["kind"], "at": e["at"], "props": visible_props(ruleset, state, eid, viewer)}
            zone = zones.get(e["at"]) if e["at"] is not None else None
            if isinstance(zone, dict):
                zone.setdefault("shown", []).append(eid)
        if eid in entities:
            for prop, players in shown.items():
                if prop != THING and viewer in players:
                    entities[eid]["props"][prop] = e["props"].get(prop)


def revealed_to(state: GameState, entity: str, prop: str, viewer: str) -> bool:
    """Has `reveal` shown this entity's property (or the entity itself: THING) to the viewer?"""
    return viewer in state.revealed.get(entity, {}).get(prop, ())


def _view(ruleset: RuleSet, state: GameState, viewer: str, table: dict | None) -> dict:
    """A view; its costly parts from ``table``, or None placeholders (see LazyView)."""
    pending = state.pending
    view = {
        # which rule set is on the table is public, and lets a driver pick its strategy
        "game": ruleset.data.game.name,
        "viewer": viewer,
        "players": list(state.players),
        "current": state.current,
        "round": state.round,
        "tiles": None,
        "zones": None,
        "entities": None,
        "vars": None,
        "result": state.result,
        "choice": None,
    }
    if table is not None:
        view.update(table)
    if pending is not None and pending["player"] == viewer:
        view["choice"] = {"kind": pending["kind"], "prompt": pending.get("prompt"), "options": pending["options"]}
    return view


# The events annotate_visibility may mark; others are seen as their audience says.
ANNOTATED_EVENTS = frozenset({"changed", "action_taken", "reacted", "moved", ACTION_WINDOW})


def record_event(ruleset: RuleSet, state: GameState, events: list[dict], event: dict) -> None:
    """Append an event the machine hands over (a dict of its own, kept as it is) to a
    game's event list: numbered, and marked for who may see what of it while the
    entities are where they are."""
    event["seq"] = len(events)
    if event["type"] in ANNOTATED_EVENTS or event["type"] not in ENGINE_EVENTS:
        annotate_visibility(ruleset, state, event)
    events.append(event)


def annotate_visibility(ruleset: RuleSet, state: GameState, event: dict) -> None:
    """Record, at the moment an event happens, which players may not see (parts of) it.

    Visibility depends on where entities are at that moment; deciding it later would
    reveal past changes of a card that has since become public.
    """
    kind = event["type"]
    players = state.players
    if kind == "changed":
        entity = event["entity"]
        e = state.entities[entity]
        spec = ruleset.data.kinds[e["kind"]].properties.get(event["property"])
        if (spec is None or spec.visible_to == "everyone") and seen_by_all(ruleset, e["at"]):
            return  # a public property of a thing in plain sight: nobody to hide it from
        owner = owner_of(ruleset, state, entity)
        hidden = []
        revealed = state.revealed.get(entity, {}) if state.revealed else {}
        shown, seen = revealed.get(event["property"], ()), revealed.get(THING, ())
        for p in players:
            if p in shown:
                pass  # revealed to p, whatever the tables say
            elif spec is not None and not sees_property(spec.visible_to, owner, p):
                hidden.append(p)
            elif e["at"] is not None and not zone_visible(ruleset, e["at"], p, state) and p not in seen:
                hidden.append(p)
        if hidden:
            event["_hidden_from"] = hidden
    elif kind == "moved":
        # a thing `reveal` showed a player is named to them even between hidden zones
        shown = state.revealed.get(event["entity"], {}).get(THING) if state.revealed else None
        if shown:
            event["_shown_to"] = list(shown)
    elif kind in ("action_taken", "reacted", ACTION_WINDOW) or (kind not in ENGINE_EVENTS and "audience" not in event):
        masked = {}
        if kind in ("action_taken", "reacted"):
            args = event.get("args") or {}
        elif kind == ACTION_WINDOW:
            # the engine's window on a chosen action carries the action's arguments as fields
            args = {k: v for k, v in event.items() if k not in ACTION_WINDOW_FIELDS and k != "type"}
        else:
            # an event a rule tells everyone (or a window it opens): a thing it names from
            # a hidden zone is named only to those who may see it, as an action's argument
            # is; one told `to` some players names it to them, as the rule chose
            args = {k: v for k, v in event.items() if k not in ("type", "seq", "audience") and not k.startswith("_")}
        masked_items = {}
        for name, value in args.items():
            if isinstance(value, (list, tuple)):
                # a list of things (a pair of cards from a hand): each item is hidden from
                # whoever may not see it, as a single thing would be
                blind_items = [_blind_to(ruleset, state, item) for item in value]
                if any(blind_items):
                    masked_items[name] = blind_items
            else:
                blind = _blind_to(ruleset, state, value)
                if blind:
                    masked[name] = blind
        if masked:
            event["_masked"] = masked
        if masked_items:
            event["_masked_items"] = masked_items


def _blind_to(ruleset: RuleSet, state: GameState, value) -> list[str]:
    """The players who may not see which thing ``value`` is, where it lies now (none for a
    value that is no thing)."""
    if not isinstance(value, str) or value not in state.entities:
        return []
    at = state.entities[value]["at"]
    if seen_by_all(ruleset, at):
        return []
    shown = state.revealed.get(value, {}).get(THING, ()) if state.revealed else ()
    return [p for p in state.players if not zone_visible(ruleset, at, p, state) and p not in shown]


def _masked_for(event: dict, fields: dict, viewer: str) -> dict:
    """``fields`` (an action's arguments) as ``viewer`` sees them: a thing they may not see
    as ``HIDDEN``, in a list item by item."""
    masked, items = event.get("_masked", {}), event.get("_masked_items", {})
    out = {}
    for k, v in fields.items():
        if viewer in masked.get(k, ()):
            v = HIDDEN
        elif k in items:
            v = [HIDDEN if viewer in blind else item for item, blind in zip(v, items[k])]
        out[k] = v
    return out


def _public(event: dict) -> dict:
    # The game's own numbering ("seq") counts every event, so the gaps in it would show
    # a viewer how many events were hidden from them, and where: it is left out here
    # and each viewer's stream is numbered on its own (number_for_viewer).
    return {k: v for k, v in event.items() if not k.startswith("_") and k != "seq"}


def number_for_viewer(event: dict, position: int) -> dict:
    """``event`` (as visible_event gave it) numbered by its ``position`` in the viewer's
    own stream: 0, 1, 2… with no gaps, whatever was hidden between two events."""
    event["seq"] = position
    return event


def visible_event(ruleset: RuleSet, state: GameState, event: dict, viewer: str) -> dict | None:
    """What ``viewer`` sees of ``event`` (None: nothing). A viewer who is no seat (a
    spectator, a public observer) sees what every seat sees: see ``common_event``."""
    if viewer not in state.players:
        return common_event(ruleset, state, event)
    audience = event.get("audience")
    if audience is not None and viewer not in audience:
        return None
    if viewer in event.get("_hidden_from", ()):
        return None
    kind = event["type"]
    if kind == "moved":
        src, dst = event.get("source"), event.get("destination")
        if (zone_visible(ruleset, src, viewer, state) or zone_visible(ruleset, dst, viewer, state)
                or viewer in event.get("_shown_to", ())):
            return _public(event)
        return {**_public(event), "entity": HIDDEN}
    if kind in ("revealed", "hidden") and viewer in event.get("_unseen_by", ()):
        shown = {**_public(event), "entity": HIDDEN}
        if "value" in shown:
            shown["value"] = HIDDEN  # a property of a thing they do not see shows them nothing
        return shown
    if "_masked" in event or "_masked_items" in event:
        if kind in ("action_taken", "reacted"):
            return {**_public(event), "args": _masked_for(event, event["args"], viewer)}
        return _masked_for(event, _public(event), viewer)
    return _public(event)


def common_event(ruleset: RuleSet, state: GameState, event: dict) -> dict | None:
    """What every seat sees of ``event``: None when some seat does not see it at all, and
    a part that the seats see differently (a card named to one, "?" to the others) as "?".

    An event is marked with the seats it is hidden from (annotate_visibility), so a viewer
    who is no seat would otherwise be shown all of it: a player's secret property changing,
    a card played face down. Giving such a viewer only what the seats share keeps it from
    ever seeing more than any one seat."""
    seen = [visible_event(ruleset, state, event, seat) for seat in state.players]
    if any(s is None for s in seen):
        return None
    return _common(seen)


def _common(values: list):
    """The part of ``values`` that is the same in all of them, the rest ``HIDDEN``."""
    first = values[0]
    if all(v == first for v in values[1:]):
        return first
    if all(isinstance(v, dict) and v.keys() == first.keys() for v in values):
        return {k: _common([v[k] for v in values]) for k in first}
    return HIDDEN
