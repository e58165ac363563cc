"""What one player may know: their view of the state and of the event stream.

Visibility comes from the rule set's tables: a zone is seen by everyone, its owner or
nobody (optionally with its top item public); a property may be visible to its owner
only. An entity's identity is shown only where the viewer can see it.
"""

from __future__ import annotations

from rulecraft.dsl.model import RuleSet

from .state import GameState

HIDDEN = "?"


def _zone_spec(ruleset: RuleSet, zone: str):
    return ruleset.data.zones.get(zone.split(":", 1)[0])


def _zone_owner(zone: str) -> str | None:
    return zone.split(":", 1)[1] if ":" in zone else None


def zone_visible(ruleset: RuleSet, zone: str | None, viewer: str) -> bool:
    if zone is None:
        return True
    spec = _zone_spec(ruleset, zone)
    if spec is None:  # a board space
        return True
    if spec.visible_to == "everyone":
        return True
    if spec.visible_to == "owner":
        return _zone_owner(zone) == viewer
    return False


def _owner_of(ruleset: RuleSet, state: GameState, entity: str) -> str | None:
    e = state.entities[entity]
    if e["kind"] == "player":
        return entity
    kind = ruleset.data.kinds[e["kind"]]
    return e["props"].get(kind.owner_property) if kind.owner_property else None


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
        elif vis == "owner":
            owner = owner or _owner_of(ruleset, state, entity)
            if owner == viewer:
                out[name] = value
    return out


def player_view(ruleset: RuleSet, state: GameState, viewer: str, events: list[dict] | None = None) -> dict:
    zones = {}
    for zone, items in state.zones.items():
        spec = _zone_spec(ruleset, zone)
        if spec is None and not items:
            continue
        if zone_visible(ruleset, zone, viewer):
            zones[zone] = list(items)
        else:
            shown = {"count": len(items)}
            if spec is not None and spec.top_visible and items:
                shown["top"] = items[0]
            zones[zone] = shown
    visible_entities = set()
    for zone, items in zones.items():
        if isinstance(items, list):
            visible_entities.update(items)
        elif "top" in items:
            visible_entities.add(items["top"])
    entities = {}
    for eid, e in state.entities.items():
        at = e["at"]
        if at is None or eid in visible_entities:
            entities[eid] = {"kind": e["kind"], "at": at, "props": visible_props(ruleset, state, eid, viewer)}
    pending = state.pending
    view = {
        "viewer": viewer,
        "players": list(state.players),
        "current": state.current,
        "round": state.round,
        "tiles": {k: list(v) for k, v in state.tiles.items()},
        "zones": zones,
        "entities": entities,
        "vars": {"game": dict(state.vars.get("game", {})), "turn": dict(state.vars.get("turn", {})) if state.current == viewer else {}},
        "result": state.result,
        "choice": None,
    }
    if pending is not None and pending["player"] == viewer:
        view["choice"] = {"kind": pending["kind"], "prompt": pending.get("prompt"), "options": pending["options"]}
    if events is not None:
        view["events"] = [e for e in (visible_event(ruleset, state, ev, viewer) for ev in events) if e is not None]
    return view


def visible_event(ruleset: RuleSet, state: GameState, event: dict, viewer: str) -> dict | None:
    audience = event.get("audience")
    if audience is not None and viewer not in audience:
        return None
    kind = event["type"]
    if kind == "moved":
        src, dst = event.get("source"), event.get("destination")
        if zone_visible(ruleset, src, viewer) or zone_visible(ruleset, dst, viewer):
            return event
        return {**event, "entity": HIDDEN}
    if kind == "changed":
        entity = event["entity"]
        e = state.entities[entity]
        spec = ruleset.data.kinds[e["kind"]].properties.get(event["property"])
        if spec is not None and spec.visible_to != "everyone":
            if spec.visible_to == "nobody" or _owner_of(ruleset, state, entity) != viewer:
                return None
        if e["at"] is not None and not zone_visible(ruleset, e["at"], viewer):
            return None
        return event
    if kind == "shuffled":
        return event
    return event
