"""Expectations: what must be true at a point of a scenario, compared with the game.

Every comparison that fails becomes a :class:`Mismatch` naming what was checked, the
expected and the actual value, and the YAML position of the expectation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulecraft.dsl import ast
from rulecraft.dsl import types as T
from rulecraft.dsl.diagnostics import Position
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import RuleRuntimeError
from rulecraft.interpreter.payoffs import PayoffError, returns
from rulecraft.interpreter.views import player_view, visible_event, zone_visible

from .names import Names


@dataclass
class Mismatch:
    what: str
    expected: Any
    actual: Any
    position: Position | None = None
    note: str | None = None  # more about the actual situation (e.g. the legal options)


# ------------------------------------------------------------------ values


def fmt(value: Any) -> str:
    """A value as a scenario would write it (YAML flow style)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {fmt(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(fmt(v) for v in value) + "]"
    return str(value)


def fmt_option(option: Any) -> str:
    """An offered option, readably: ``walk(x=pawn.p1, r=hall/main)``, ``end_turn``, a value."""
    if isinstance(option, dict) and ("action" in option or "reaction" in option):
        name = option.get("action") or option.get("reaction")
        args = option.get("args") or {}
        return name + ("(" + ", ".join(f"{k}={fmt(v)}" for k, v in args.items()) + ")" if args else "")
    return fmt(option)


def fmt_options(options: list, limit: int = 40) -> str:
    shown = [fmt_option(o) for o in options[:limit]]
    more = f", … ({len(options) - limit} more)" if len(options) > limit else ""
    return "; ".join(shown) + more if shown else "none"


def matches(expected: Any, actual: Any, names: Names | None = None, partial: bool = True) -> bool:
    """Does an actual value match what a scenario wrote?

    A mapping matches a mapping having at least these keys with matching values (all
    of them and no others when ``partial`` is false); lists match item by item; a tile
    id with a single space matches that space; true and 1 are different."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return False
        if not partial and set(expected) != set(actual):
            return False
        return all(k in actual and matches(v, actual[k], names, partial) for k, v in expected.items())
    if isinstance(expected, (list, tuple)):
        return (isinstance(actual, (list, tuple)) and len(expected) == len(actual)
                and all(matches(e, a, names, partial) for e, a in zip(expected, actual)))
    if isinstance(expected, bool) or isinstance(actual, bool):
        return isinstance(expected, bool) and isinstance(actual, bool) and expected == actual
    if expected == actual:
        return True
    return names is not None and isinstance(expected, str) and names.space(expected) == actual


def find_options(options: list, wanted: Any, names: Names) -> list[int]:
    """Positions of the options a written value picks: the exact ones, else the ones
    it matches partly (a mapping naming only some fields)."""
    exact = [i for i, o in enumerate(options) if matches(wanted, o, names, partial=False)]
    if exact:
        return exact
    return [i for i, o in enumerate(options) if matches(wanted, o, names, partial=True)]


def action_options(options: list, action: str, args: dict | None, names: Names, key: str = "action") -> list[int]:
    """Positions of the options of this action (or reaction) whose arguments match ``args``.

    A component of several copies written without its number (``x: thing``) matches
    any of its copies (``thing.1`` … ``thing.5``); a step that it leaves matching
    options that differ only in the copy is a mistake of the scenario (see
    :func:`copy_ambiguity`)."""
    out = []
    values = value_parameters(names, action, key)
    for i, o in enumerate(options):
        if not (isinstance(o, dict) and o.get(key) == action):
            continue
        given = o.get("args") or {}
        if all(k in given and _arg_matches(v, given[k], names, k in values) for k, v in (args or {}).items()):
            out.append(i)
    return out


# the types of a parameter whose argument is a value as written, never a thing
_VALUE_TYPES = frozenset({T.TEXT, T.NUMBER, T.BOOL})


def value_parameters(names: Names, action: str, key: str = "action") -> set[str]:
    """The parameters of an action (or reaction) that take a text, a number or yes/no: an
    argument given them is that value, even one written like a component's name."""
    params = (names.reactions if key == "reaction" else names.actions).get(action) or []
    return {p for p, t in params if t in _VALUE_TYPES}


def _arg_matches(wanted: Any, actual: Any, names: Names, value: bool = False) -> bool:
    if not value and isinstance(wanted, str) and wanted in names.copies and wanted not in names.entities:
        return actual in names.copies[wanted]
    return matches(wanted, actual, names)


def copy_ambiguity(options: list, found: list[int], args: dict | None, names: Names) -> tuple[str, list[str]] | None:
    """When the options a step matches differ in which copy of a component an argument
    written as that component names: the argument and the copies offered, else None."""
    values = set().union(*(value_parameters(names, (options[i].get("action") or options[i].get("reaction")),
                                             "action" if "action" in options[i] else "reaction") for i in found))
    for k, v in (args or {}).items():
        if isinstance(v, str) and v in names.copies and v not in names.entities and k not in values:
            offered = sorted({(options[i].get("args") or {}).get(k) for i in found}, key=names.copies[v].index)
            if len(offered) > 1:
                return k, offered
    return None


def full_args(names: Names, action: str, args: dict | None) -> dict | None:
    """The arguments with shorthands resolved, when they name every parameter; else None."""
    params = names.actions.get(action)
    if params is None or set(args or {}) != {p for p, _ in params}:
        return None
    values = value_parameters(names, action)
    if any(isinstance(v, str) and v in names.copies and v not in names.entities and k not in values
           for k, v in (args or {}).items()):
        return None  # a component stands for several things: the rules can say why not only of one
    return resolved_args(names, action, args)


def resolved_args(names: Names, action: str, args: dict | None) -> dict:
    """The arguments given, a space's shorthand resolved."""
    types = dict(names.actions.get(action) or [])
    return {k: (names.space(v) if types.get(k) == names.space_kind else v) for k, v in (args or {}).items()}


# ------------------------------------------------------------------ checking


class Expectations:
    """Checks one ``expect`` block against a game."""

    def __init__(self, game: Game, names: Names, events_from: int, position):
        self.game = game
        self.names = names
        self.events_from = events_from
        self.position = position  # path → Position inside the expect block
        self.out: list[Mismatch] = []

    def miss(self, what: str, expected: Any, actual: Any, path: list, note: str | None = None) -> None:
        self.out.append(Mismatch(what, expected, actual, self.position(path), note))

    @property
    def window(self) -> list[dict]:
        """The events a scenario may match, each with the fields a scenario may write:
        the engine's numbering (``seq``) and its private marks (keys starting with ``_``,
        such as who may not see the event) are neither matched nor shown."""
        return [{k: v for k, v in e.items() if k != "seq" and not k.startswith("_")}
                for e in self.game.events[self.events_from:]]

    def check(self, e: dict) -> list[Mismatch]:
        s = self.game.state
        n = self.names
        for eid, where in (e.get("at") or {}).items():
            want = n.space(where)
            got = s.entities[eid]["at"]
            if got != want:
                self.miss(f"where {eid} is", want, got, ["at", eid])
        props = e.get("props") or {}
        for key, values in props.items():
            # a kind stands for each entity of it, as in a setup: an entity named on its own
            # is held to its own value of a property both give
            named = key in s.entities
            eids = [key] if named else [eid for eid, ent in s.entities.items() if ent["kind"] == key]
            for eid in eids:
                for name, want in (values or {}).items():
                    if not named and name in (props.get(eid) or {}):
                        continue
                    got = s.entities[eid]["props"].get(name)
                    if not matches(want, got, n):
                        self.miss(f"{eid}.{name}", want, got, ["props", key, name])
        if "ap" in e:
            got = s.entities[s.current]["props"].get("ap") if s.current else None
            if got != e["ap"]:
                self.miss(f"action points of the current player ({s.current})", e["ap"], got, ["ap"])
        for zone, check in (e.get("zone") or {}).items():
            for z in n.expand_zone(zone):
                self._zone(z, check, ["zone", zone])
        for i, tally in enumerate(e.get("tally") or []):
            self._tally(tally, ["tally", i])
        for tile, want in (e.get("tiles") or {}).items():
            got = s.tiles.get(tile)
            if want is None or got is None:
                ok = want is None and got is None
            else:
                ok = list(got[: len(want)]) == list(want)
            if not ok:
                self.miss(f"where tile {tile} lies [x, y, rotation]", want, got, ["tiles", tile],
                          None if got is not None else "not on the board")
        for scope, values in (e.get("vars") or {}).items():
            for name, want in values.items():
                got = s.vars.get(scope, {}).get(name)
                if not matches(want, got, n):
                    self.miss(f"{scope}.{name}", want, got, ["vars", scope, name])
        if "current" in e and s.current != e["current"]:
            self.miss("whose turn it is", e["current"], s.current, ["current"])
        if "round" in e and s.round != e["round"]:
            self.miss("round", e["round"], s.round, ["round"])
        if "turns" in e:
            got = [ev.get("player") for ev in self.window if ev["type"] == "turn_started"]
            if got != e["turns"]:
                self.miss("the turns played, in order", e["turns"], got, ["turns"])
        for i, option in enumerate(e.get("legal") or []):
            self._option(option, True, ["legal", i])
        for i, option in enumerate(e.get("illegal") or []):
            self._option(option, False, ["illegal", i])
        if "pending" in e:
            self._pending(e["pending"])
        self._events(e)
        self._result(e)
        for i, item in enumerate(e.get("functions") or []):
            self._function(item, ["functions", i])
        if "payoffs" in e:
            self._payoffs(e["payoffs"])
        for viewer, seen in (e.get("sees") or {}).items():
            self._sees(viewer, seen, ["sees", viewer])
        return self.out

    # ---- what a player's view shows
    def _sees(self, viewer: str, seen: dict, path: list) -> None:
        """Each item ``shown`` was shown to the player, each ``hidden`` was not: it is in
        their view now (the one every interface and bot of that seat is handed), or, for a
        thing or a property, an event they were told during the scenario named it."""
        view = player_view(self.game.ruleset, self.game.state, viewer)
        for key, want in (("shown", True), ("hidden", False)):
            for i, item in enumerate(seen.get(key) or []):
                named = self.names.seen_item(item)
                if named is None:
                    continue  # a name the static check reported
                in_view = _in_view(self.game, view, named, viewer)
                told = None if in_view else _told(self.game, self.events_from, named, viewer)
                got = in_view or told is not None
                if got != want:
                    note = (f"an event {viewer} was told named it: {fmt(_public_fields(told))}" if told is not None
                            else _view_note(view, named))
                    self.miss(f"whether {viewer} sees {item}", "shown" if want else "hidden",
                              "shown" if got else "hidden", path + [key, i], note)

    # ---- zones
    def _select(self, items: list[str], check: dict) -> list[str]:
        ents = self.game.state.entities
        out = items
        if "kind" in check:
            out = [x for x in out if ents[x]["kind"] == check["kind"]]
        if "where" in check:
            out = [x for x in out if all(matches(v, ents[x]["props"].get(k), self.names) for k, v in check["where"].items())]
        if "ids" in check:
            out = [x for x in out if x in check["ids"]]
        return out

    def _counts(self, what: str, chosen: list[str], check: dict, path: list) -> None:
        n = len(chosen)
        if "count" in check and n != check["count"]:
            self.miss(f"how many {what}", check["count"], n, path + ["count"], "they are: " + fmt(chosen))
        if "min" in check and n < check["min"]:
            self.miss(f"how many {what} (at least)", check["min"], n, path + ["min"], "they are: " + fmt(chosen))
        if "max" in check and n > check["max"]:
            self.miss(f"how many {what} (at most)", check["max"], n, path + ["max"], "they are: " + fmt(chosen))

    def _zone(self, zone: str, check, path: list) -> None:
        items = list(self.game.state.zones[zone])
        if isinstance(check, list):
            if items != check:
                self.miss(f"the contents of {zone}, top first", check, items, path)
            return
        filtered = any(k in check for k in ("kind", "where"))
        self._counts(f"things in {zone}" + (" (filtered)" if filtered else ""), self._select(items, check), check, path)
        for x in check.get("contains", []):
            if x not in items:
                self.miss(f"{x} in {zone}", "present", "absent", path + ["contains"], "the zone holds: " + fmt(items))
        for x in check.get("excludes", []):
            if x in items:
                self.miss(f"{x} not in {zone}", "absent", "present", path + ["excludes"])
        if "top" in check and (items[0] if items else None) != check["top"]:
            self.miss(f"the top of {zone}", check["top"], items[0] if items else None, path + ["top"])
        if "bottom" in check and (items[-1] if items else None) != check["bottom"]:
            self.miss(f"the bottom of {zone}", check["bottom"], items[-1] if items else None, path + ["bottom"])
        ents = self.game.state.entities
        for kind, want in (check.get("kinds") or {}).items():
            got = sum(1 for x in items if ents[x]["kind"] == kind)
            if got != want:
                self.miss(f"how many {kind} in {zone}", want, got, path + ["kinds", kind])

    def _tally(self, tally: dict, path: list) -> None:
        zones = self.game.state.zones
        items: list[str] = []
        labels = []
        for sl in tally["zones"]:
            zone, top, bottom = (sl, None, None) if isinstance(sl, str) else (sl["zone"], sl.get("top"), sl.get("bottom"))
            for z in self.names.expand_zone(zone):
                content = list(zones[z])
                if top is not None:
                    content = content[:top]
                if bottom is not None:
                    content = content[len(content) - bottom:] if bottom else []
                items.extend(content)
            labels.append(zone + (f" (top {top})" if top is not None else "") + (f" (bottom {bottom})" if bottom is not None else ""))
        self._counts("things in " + " + ".join(labels), self._select(items, tally), tally, path)

    # ---- choices
    def _option(self, option: dict, legal: bool, path: list) -> None:
        pending = self.game.state.pending
        word = "legal" if legal else "illegal"
        if "choose" in option:
            if pending is None or pending["kind"] != "choose":
                self.miss(f"{word} choice {fmt(option['choose'])}", "a pending choice", _describe(pending), path)
                return
            found = find_options(pending["options"], option["choose"], self.names)
            if bool(found) != legal:
                self.miss(f"{fmt(option['choose'])} among the options of '{pending.get('prompt') or 'the choice'}'",
                          "offered" if legal else "not offered", "offered" if found else "not offered", path,
                          "offered: " + fmt_options(pending["options"]))
            return
        action, args = option["do"], option.get("args")
        label = fmt_option({"action": action, "args": args or {}})
        if pending is None or pending["kind"] != "action":
            self.miss(f"{word} action {label}", "a player choosing an action", _describe(pending), path)
            return
        if action == "end_turn":
            found = [o for o in pending["options"] if o == END_TURN_OPTION]
        else:
            found = action_options(pending["options"], action, args, self.names)
        if bool(found) != legal:
            note = "offered: " + fmt_options(pending["options"])
            if legal and action != "end_turn":
                full = full_args(self.names, action, args)
                why = self.game.why_not(action, full) if full is not None else None
                if why:
                    note = f"the rules say: {why}; " + note
            turn = self._whose_turn()
            self.miss(f"action {label} for {pending['player']}", "offered" if legal else "not offered",
                      "offered" if found else "not offered", path, note + (f"; {turn}" if turn else ""))
            return
        if not legal and "because" in option:
            full = full_args(self.names, action, args)
            if full is None:
                self.miss(f"why {label} is illegal", option["because"], "(give every argument to ask the rules why)",
                          path + ["because"])
                return
            why = self.game.why_not(action, full)
            if why is None or option["because"] not in why:
                self.miss(f"why {label} is illegal", option["because"], why, path + ["because"], self._whose_turn())

    def _whose_turn(self) -> str | None:
        """Whose turns started during the steps, when any did: a check meant for one
        player's turn is read in another's after an action ends the turn by itself."""
        started = [ev.get("player") for ev in self.window if ev["type"] == "turn_started"]
        if not started:
            return None
        return f"the turn passed during the steps ({', '.join(map(str, started))}'s turn started); it is " \
               f"{self.game.state.current}'s now"

    def _pending(self, want) -> None:
        pending = self.game.state.pending
        if want is None:
            if pending is not None:
                self.miss("the pending choice", None, _describe(pending), ["pending"])
            return
        if pending is None:
            self.miss("the pending choice", want, None, ["pending"], "nothing is pending" + (" (the game is over)" if self.game.over else ""))
            return
        options = pending["options"]
        if isinstance(want, int):
            if len(options) != want:
                self.miss("how many options the pending choice has", want, len(options), ["pending"],
                          "offered: " + fmt_options(options))
            return
        for key in ("player", "kind"):
            if key in want and pending.get(key) != want[key]:
                self.miss(f"the pending choice's {key}", want[key], pending.get(key), ["pending", key])
        # (a prompt may be quoted as the rules write it, its '{parameter}'s as they are)
        if "prompt" in want and ast.fill_parameters(str(want["prompt"]), self.game.ruleset.data.parameters) \
                not in (pending.get("prompt") or ""):
            self.miss("the pending choice's prompt", want["prompt"], pending.get("prompt"), ["pending", "prompt"])
        if "count" in want and len(options) != want["count"]:
            self.miss("how many options the pending choice has", want["count"], len(options), ["pending", "count"],
                      "offered: " + fmt_options(options))
        if "options" in want and not _same_options(want["options"], options, self.names):
            self.miss("the pending options (in any order)", [fmt_option(o) for o in want["options"]],
                      [fmt_option(o) for o in options], ["pending", "options"])

    # ---- events and the end
    def _events(self, e: dict) -> None:
        window = self.window
        for i, pattern in enumerate(e.get("events") or []):
            if not any(matches(pattern, ev, self.names) for ev in window):
                similar = [ev for ev in window if ev.get("type") == pattern.get("type")] if "type" in pattern else []
                note = ("events of that type: " + "; ".join(fmt(ev) for ev in similar[:8])) if similar else \
                    ("no event of that type happened" if "type" in pattern else None)
                self.miss("an event", pattern, "no such event", ["events", i], note)
        for i, pattern in enumerate(e.get("no_events") or []):
            hits = [ev for ev in window if matches(pattern, ev, self.names)]
            if hits:
                self.miss("no event like", pattern, hits[0], ["no_events", i])
        at = 0
        for i, pattern in enumerate(e.get("events_in_order") or []):
            j = next((k for k in range(at, len(window)) if matches(pattern, window[k], self.names)), None)
            if j is None:
                earlier = any(matches(pattern, ev, self.names) for ev in window[:at])
                self.miss(f"event {i + 1} of the sequence", pattern,
                          "only earlier than the events before it in the list" if earlier else "no such event",
                          ["events_in_order", i])
                return
            at = j + 1

    def _result(self, e: dict) -> None:
        result = self.game.result
        if "over" in e and self.game.over != e["over"]:
            self.miss("whether the game is over", e["over"], self.game.over, ["over"],
                      f"it ended: {result['reason']}" if result else None)
        if "winners" in e:
            got = sorted(result["winners"]) if result else None
            if got != sorted(e["winners"]):
                self.miss("the winners", sorted(e["winners"]), got, ["winners"], None if result else "the game is not over")
        if "reason" in e:
            got = result["reason"] if result else None
            if got != e["reason"]:
                self.miss("why the game ended", e["reason"], got, ["reason"])

    # ---- computed values
    def _function(self, item: dict, path: list) -> None:
        """What a function of the rule set gives now. Functions change nothing (the
        language has no statement for them), and they are asked as the rules ask them
        while judging options: in a reading stretch, whose memo is dropped after."""
        name = item["function"]
        args = list(item.get("args") or [])
        label = f"{name}({', '.join(fmt(a) for a in args)})"
        params, fn = self.game.ruleset.compiled.functions[name]
        types = [t for _, t in self.names.functions[name][0]]
        values = [resolved_value(self.names, v, t) for v, t in zip(args, types)]
        machine = self.game.machine
        try:
            with machine.reading():
                try:
                    got = fn(machine, dict(zip(params, values)))
                except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
                    # a Python fault inside the compiled function, told and placed as the game
                    # tells one met in a call of it (the call asked here is the outermost)
                    if getattr(err, "rule_call", None) is None:
                        err.rule_call = (name, dict(zip(params, values)))
                    raise machine._fault(err, None) from err
        except RuleRuntimeError as err:
            self.miss(f"what {label} gives", item["value"], f"no value: the rules stopped with an error: {err}",
                      path + ["value"])
            return
        if not matches(item["value"], got, self.names):
            self.miss(f"what {label} gives", item["value"], got, path + ["value"])

    def _payoffs(self, want: dict) -> None:
        """What each seat gets in the finished game (see ``interpreter.payoffs``)."""
        game = self.game
        if not game.over:
            self.miss("the payoffs", want, "none yet", ["payoffs"], "the game is not over: payoffs are paid at its end")
            return
        try:
            paid = returns(game.ruleset, game.state)
        except (PayoffError, RuleRuntimeError) as err:
            self.miss("the payoffs", want, f"none: {err}", ["payoffs"])
            return
        paid = {seat: _plain_number(v) for seat, v in paid.items()}
        spec = game.ruleset.data.game.payoff
        source = (f"game.payoff's function {spec['function']}" if spec else
                  "no game.payoff: 1 on the winning side, -1 otherwise, 0 when nobody won")
        for seat, value in want.items():
            if paid.get(seat) != value:
                self.miss(f"{seat}'s payoff", value, paid.get(seat), ["payoffs", seat],
                          f"the payoffs ({source}): {fmt(paid)}")


def resolved_value(names: Names, value: Any, type_: str) -> Any:
    """A value as the scenario wrote it, for a parameter of this type: a tile with a
    single space stands for that space where a space (or a zone) is due."""
    t = type_.removesuffix("?")
    if T.is_list(t) and isinstance(value, list):
        return [resolved_value(names, v, T.item_type(t)) for v in value]
    if t in (names.space_kind, T.ZONE):
        return names.space(value)
    return value


def _plain_number(value: Any) -> Any:
    """1.0 → 1: a payoff as a scenario writes it."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


END_TURN_OPTION = {"action": "end_turn"}


def _same_options(want: list, got: list, names: Names) -> bool:
    if len(want) != len(got):
        return False
    left = list(got)
    for w in want:
        hit = next((i for i, o in enumerate(left) if matches(w, o, names, partial=False)), None)
        if hit is None:
            return False
        left.pop(hit)
    return True


def _in_view(game: Game, view: dict, named: tuple, viewer: str) -> bool:
    """Whether a view shows what ``Names.seen_item`` resolved: a zone's contents, a thing
    (its identity), a variable, a thing's property."""
    what = named[0]
    if what == "zone":
        shown = view["zones"].get(named[1])
        if shown is None:  # an empty zone or space is left out of a view: its table says
            return zone_visible(game.ruleset, named[1], viewer, game.state)
        return isinstance(shown, list)
    if what == "thing":
        return named[1] in view["entities"]
    if what == "var":
        return named[2] in view["vars"][named[1]]
    entity = view["entities"].get(named[1])
    return entity is not None and named[2] in entity["props"]


def _told(game: Game, events_from: int, named: tuple, viewer: str) -> dict | None:
    """The last event the viewer was told since ``events_from`` that named the thing (a
    card dealt face up, a hand shown) or gave the property's value (its ``changed``), as
    they were told it; none when there is none. What a `hidden` event took back from the
    viewer since (a `hide`, a shuffle of alike backs) is no longer known: events before it
    no longer count."""
    if named[0] not in ("thing", "prop"):
        return None
    found = None
    for event in game.events[events_from:]:
        told = visible_event(game.ruleset, game.state, event, viewer)
        if told is None:
            continue
        if told.get("type") == "hidden" and told.get("entity") == named[1] and (
                told.get("property") is None or (named[0] == "prop" and told.get("property") == named[2])):
            found = None
        elif named[0] == "thing" and _names(told, named[1]):
            found = told
        elif (named[0] == "prop" and told.get("type") == "changed" and told.get("entity") == named[1]
                and told.get("property") == named[2]):
            found = told
    return found


def _public_fields(event: dict) -> dict:
    return {k: v for k, v in event.items() if k != "seq" and not k.startswith("_")}


def _names(value: Any, eid: str) -> bool:
    if isinstance(value, dict):
        return any(_names(v, eid) for k, v in value.items() if k != "type")
    if isinstance(value, (list, tuple)):
        return any(_names(v, eid) for v in value)
    return value == eid


def _view_note(view: dict, named: tuple) -> str | None:
    """What the view holds there instead, for a failure's reader."""
    if named[0] == "zone":
        shown = view["zones"].get(named[1])
        return f"the view shows {fmt(shown)}" if shown is not None else None
    if named[0] == "prop":
        entity = view["entities"].get(named[1])
        return (f"the view does not show {named[1]} at all" if entity is None
                else f"the view shows {named[1]}'s " + (", ".join(entity["props"]) or "no properties"))
    return None


def _describe(pending: dict | None) -> str:
    if pending is None:
        return "nothing pending"
    return f"{pending['player']} answering a {pending['kind']} ({pending.get('prompt') or ''})"
