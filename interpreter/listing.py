"""Parameters' passing candidates, actions' options and comprehensions over a kind's
entities, kept from one decision to the next.

A move changes a few things; most candidates of most parameters pass or fail as before.
For a parameter whose source and filter read the state only through the footprints of
a few roots (``dsl.dependencies.footprint_reads``: the candidate, earlier parameters,
the current player), the candidates that pass are kept per parameter shape and values
read (earlier parameters, the current player), and each keeps the footprints it read;
the same holds for the items of a comprehension over a kind's entities
(``dsl.codegen.kept_comprehension``). Before a listing the zones, and the properties
footprints read, are compared with those seen at the previous one: the footprints of
what differs are the ones to forget, and only the verdicts, lists and options that read
them are computed again.

What the machine itself changed it writes down as it goes (``Machine.touched``: every
entity and zone it is about to change passes through ``Machine.own`` or ``own_zone``),
so after its own moves only those are compared. A state the machine has not followed
(another state put in its place, a state played ahead and put back, or a driver's
change announced by ``Machine.invalidate``) is compared whole, by value. Nothing else a
kept result may depend on changes during a game (see dsl.dependencies). The lists
returned are those ``Machine._passing`` would return, in the same order.
"""

from __future__ import annotations

from itertools import compress, count
from operator import ne

from rulecraft.dsl.codegen import FEW, LEFT_OUT
from rulecraft.dsl.dependencies import CURRENT

_WHOLE = object()  # a reference to a whole kept list (not one candidate's verdict)


class _Kept:
    """The passing candidates of one parameter for one key."""

    __slots__ = ("source", "verdicts", "passing", "key", "missing", "passed", "truthy")

    def __init__(self, source: list, verdicts: dict, passing: list | None):
        self.source = source
        self.verdicts = verdicts  # candidate → passes (a candidate missing: to compute)
        # None: some verdict is to compute again, or the whole is forgotten (then the
        # entry is no longer kept, and whoever holds it looks it up again)
        self.passing = passing
        # for the items of comprehensions (items, steady_items): the candidates or
        # positions whose item is to compute again, the others' results kept (None for
        # parameters' lists, whose verdicts are dropped instead)
        self.missing: list | None = None
        # for a comprehension only counted or tested (any, all, count): how many items
        # pass its filter, and how many of those are true
        self.passed = self.truthy = 0


class KeptCandidates:
    def __init__(self, properties=(), kinds: dict | None = None):
        # the properties read through footprints (dsl.compiler.Program.footprint_properties,
        # which grows when statements get generated code at a rule set's second game)
        self.properties_read = properties
        self.names_from = len(properties)
        self.names = sorted(set(properties) - {"at"})
        # kind → the names of the properties it declares
        self.declared = {name: set(kind.properties) for name, kind in (kinds or {}).items()}
        self.watched: list[str] = []
        self.kept: dict[tuple, _Kept] = {}
        # footprint value → {(key, candidate or _WHOLE)}: what to forget when it changes
        self.readers: dict = {}
        # the same for the items of steady lists (steady_items), value → {(key, position):
        # entry}: their positions never change, so these stay until the entry goes
        self.steady_readers: dict = {}
        # an action's options (see options): (action, current player, key of its first
        # parameter) →
        # for one parameter (the list they were made from, the bindings); for two, first
        # candidate → (the second's entry, its list they were made from, the bindings)
        self.options_kept: dict = {}
        # the entities and zones as the last listing saw them, in the state's order
        self.entity_ids: list | None = None
        self.properties: list[list] = []  # per name in names: each entity's value
        self.zone_names: list | None = None
        self.zone_lists: list = []
        # zone → its index in zone_names, watched entity → its index in watched
        self.zone_index: dict = {}
        self.watched_index: dict = {}
        self.stamp, self.stamp_state = None, None  # m.changes and m.state at the last look
        self.seen_state = None  # the state last compared

    # ------------------------------------------------------------ forgetting
    def ready(self, m) -> None:
        """Forget what changed since the last look. While the machine runs, every change
        it makes moves ``m.changes``, so an unmoved count means nothing to compare. On
        the state last compared, what the machine wrote down it touched
        (``m.touched``) is all that may differ; any other state is compared whole."""
        state = m.state
        if len(self.properties_read) != self.names_from:
            # more properties to compare than when this began: begin again with them
            self.names_from = len(self.properties_read)
            self.names = sorted(set(self.properties_read) - {"at"})
            self.zone_names = None
            self.stamp = None
        if m.changes == self.stamp and state is self.stamp_state and m._running:
            return
        touched = m.touched
        if touched is None or state is not self.seen_state:
            m.touched = set()
            self.sync(state)
        elif touched:
            m.touched = set()
            self._sync_touched(state, touched)
        self.stamp, self.stamp_state = m.changes, state

    def _sync_touched(self, state, touched: set) -> None:
        """``sync`` for the entities and zones in ``touched`` only: nothing else changed
        since the last look."""
        entities, zones = state.entities, state.zones
        changed = set()
        add = changed.add
        zone_index, seen_lists = self.zone_index, self.zone_lists
        watched_index, names, properties = self.watched_index, self.names, self.properties
        for value in touched:
            i = zone_index.get(value)
            if i is not None:
                now, seen = zones[value], seen_lists[i]
                if now != seen:
                    add(value)
                    changed.update(set(now).symmetric_difference(seen))  # what left or came
                    seen_lists[i] = list(now)
            i = watched_index.get(value)
            if i is not None:
                props = entities[value]["props"]
                for name, seen in zip(names, properties):
                    now = props.get(name)
                    if now != seen[i]:
                        add(value)
                        add(entities[value]["at"])
                        seen[i] = now
        if changed:
            self._forget(changed)

    def sync(self, state) -> None:
        """Forget what read a footprint that differs from the last listing's state.

        A footprint changes by a zone's contents, which the machine keeps in step with
        its things' locations (a thing that moved left or entered a zone), and by the
        properties read through footprints: only those are compared."""
        entities, zones = state.entities, state.zones
        lists = list(zones.values())
        # (the same entities and zones, unless the state is another one: no game makes or
        # deletes either)
        if self.zone_names is None or len(lists) != len(self.zone_lists) or len(entities) != len(self.entity_ids) \
                or (state is not self.seen_state
                    and (list(zones) != self.zone_names or list(entities) != self.entity_ids)):
            self._start(entities, zones, lists)
            self.seen_state = state
            return
        self.seen_state = state
        changed = set()
        add = changed.add
        seen_lists = self.zone_lists
        for i in _differing(lists, seen_lists):
            add(self.zone_names[i])
            now = lists[i]
            changed.update(set(now).symmetric_difference(seen_lists[i]))  # what left or came
            seen_lists[i] = list(now)
        ids = self.watched
        for name, seen in zip(self.names, self.properties):
            now = [entities[eid]["props"].get(name) for eid in ids]
            for i in _differing(now, seen):
                add(ids[i])
                add(entities[ids[i]]["at"])
                seen[i] = now[i]
        if changed:
            self._forget(changed)

    def _start(self, entities: dict, zones: dict, lists: list) -> None:
        self.kept.clear()
        self.readers.clear()
        self.steady_readers.clear()
        self.options_kept.clear()
        self.entity_ids = list(entities)
        self.zone_names = list(zones)
        self.zone_lists = [list(items) for items in lists]
        self.zone_index = {name: i for i, name in enumerate(self.zone_names)}
        # the entities that have one of the properties compared: their kind declares it
        # (an entity has its kind's properties only), or they hold it anyway
        names = self.names
        self.watched = [eid for eid, e in entities.items()
                        if any(n in self.declared.get(e["kind"], ()) or n in e["props"] for n in names)]
        # (rules never change a value in place: a property's list is a new list when set)
        self.properties = [[entities[eid]["props"].get(name) for eid in self.watched] for name in names]
        self.watched_index = {eid: i for i, eid in enumerate(self.watched)}

    def _forget(self, changed: set) -> None:
        kept, readers = self.kept, self.readers
        steady = self.steady_readers
        if steady:
            for value in changed:
                found = steady.get(value)
                if found:
                    for (key, i), entry in found.items():
                        if kept.get(key) is entry:
                            entry.missing.append(i)
                            entry.passing = None
        for value in changed:
            refs = readers.pop(value, None)
            if not refs:
                continue
            for key, candidate in refs:
                entry = kept.get(key)
                if entry is None:
                    continue
                if candidate is _WHOLE:
                    del kept[key]
                elif entry.missing is None:
                    entry.verdicts.pop(candidate, None)
                else:
                    entry.missing.append(candidate)
                entry.passing = None

    # ------------------------------------------------------------ listing
    def options(self, m, action) -> list[dict] | None:
        """The options ``{"action", "args"}`` of an action of one or two parameters whose
        candidates can be kept, in the order of Machine._binding_list, each made again
        only when the candidates it came from changed (an option is answered, never
        changed, so the same one serves again); None when a value cannot be kept."""
        params = action.params
        first = params[0]
        entry = self.entry(m, first, {})
        if entry is None:
            return None
        passing = entry.passing
        name, title = first.name, action.name
        # (the second parameter's key may hold the current player when the first's does not)
        key = (id(action), m.state.current, entry.key)
        if len(params) == 1:
            made = self.options_kept.get(key)
            if made is not None and made[0] is passing:
                return made[1]
            out = [{"action": title, "args": {name: value}} for value in passing]
            self.options_kept[key] = (passing, out)
            return out
        second = params[1]
        other = second.name
        blocks = self.options_kept.get(key)
        if blocks is None:
            blocks = self.options_kept[key] = {}
        out: list[dict] = []
        extend, found = out.extend, blocks.get
        for value in passing:
            block = found(value)
            if block is not None and block[0].passing is block[1]:
                extend(block[2])
                continue
            inner = self.entry(m, second, {name: value})
            if inner is None:
                return None
            made = [{"action": title, "args": {name: value, other: v}} for v in inner.passing]
            blocks[value] = (inner, inner.passing, made)
            out.extend(made)
        return out

    def candidates(self, m, p, env: dict) -> list:
        """The candidates of parameter ``p`` that pass its filter (``Machine._passing``),
        kept while their footprints stay as they were. A value that cannot be a key (a
        placement) is not kept."""
        entry = self.entry(m, p, env)
        return m._passing(p, env) if entry is None else entry.passing

    def entry(self, m, p, env: dict) -> _Kept | None:
        """The kept entry of parameter ``p`` with ``env``, its list up to date; None when
        a value cannot be kept."""
        roots, per_candidate, reads_current = p.footprint
        current = m.state.current
        reads = p.reads
        if not reads:
            key = (p.shape, current if reads_current else None)
        elif len(reads) == 1:
            key = (p.shape, current if reads_current else None, env[reads[0]])
        else:
            key = (p.shape, current if reads_current else None, *[env[r] for r in reads])
        try:
            entry = self.kept.get(key)
        except TypeError:
            return None
        if entry is not None:
            if entry.passing is None:
                self._again(m, p, env, key, entry, per_candidate)
            return entry
        source = p.source(m, env) if p.source is not None else m._kind_lists.get(p.kind, [])
        source = list(source or [])
        passing = m._filtered(p, env, source)
        try:
            chosen = set(passing)
            verdicts = {x: x in chosen for x in source}
            readers = self.readers
            for root in roots:
                value = current if root == CURRENT else env[root]
                readers.setdefault(value, set()).add((key, _WHOLE))
            if per_candidate:
                for x in source:
                    readers.setdefault(x, set()).add((key, x))
        except TypeError:  # an unhashable candidate: not kept
            return None
        entry = self.kept[key] = _Kept(source, verdicts, passing)
        entry.key = key
        return entry

    def _again(self, m, p, env: dict, key: tuple, entry: _Kept, per_candidate: bool) -> None:
        """The kept list with the verdicts forgotten computed again."""
        verdicts, where, name = entry.verdicts, p.where, p.name
        had, old = name in env, env.get(name)
        readers = self.readers
        try:
            for x in entry.source:
                if x not in verdicts:
                    env[name] = x
                    verdicts[x] = bool(where(m, env))
                    if per_candidate:
                        readers.setdefault(x, set()).add((key, x))
        finally:
            if had:
                env[name] = old
            else:
                env.pop(name, None)
        entry.passing = [x for x in entry.source if verdicts[x]]

    # ------------------------------------------------------------ comprehensions
    def items(self, m, spec: tuple, args: tuple, source: list, helper, only: str | None = None):
        """A comprehension over a kind's entities (dsl.codegen.kept_comprehension): the
        items of those that pass its filter, each entity's kept while its footprint and
        the free variables' stay as they were. ``helper(m, x, *args)`` is one entity's
        item, or LEFT_OUT. ``only`` "any", "all" or "count": that of the items instead,
        kept as counts (no list made again when an item changes)."""
        index, roots, per_candidate, reads_current, current_root = spec
        if not m._running or len(source) < FEW:
            # (a driver may change the state at any time: nothing is kept outside a run)
            return _of([r for x in source if (r := helper(m, x, *args)) is not LEFT_OUT], only)
        self.ready(m)
        current = m.state.current
        key = ("items", index, current if reads_current else None, *args)
        try:
            entry = self.kept.get(key)
        except TypeError:  # an unhashable value (a list): not kept
            return _of([r for x in source if (r := helper(m, x, *args)) is not LEFT_OUT], only)
        if entry is not None and entry.source is source:
            if entry.passing is not None:
                return entry.passing if only is None else _counted(entry, only)
            self._again_items(m, entry, args, helper, per_candidate)
        else:
            results = {x: helper(m, x, *args) for x in source}
            readers = self.readers
            for i in roots:
                readers.setdefault(args[i], set()).add((key, _WHOLE))
            if current_root:
                readers.setdefault(current, set()).add((key, _WHOLE))
            if per_candidate:
                for x in source:
                    readers.setdefault(x, set()).add((key, x))
            entry = self.kept[key] = _Kept(source, results, None)
            entry.key = key
            entry.missing = []
            if only is not None:
                _count(entry, results.values())
        if only is not None:
            entry.passing = _COUNTED
            return _counted(entry, only)
        results = entry.verdicts
        passing = entry.passing = [r for x in source if (r := results[x]) is not LEFT_OUT]
        return passing

    def _again_items(self, m, entry: _Kept, args: tuple, helper, per_candidate: bool) -> None:
        """The results of the items forgotten computed again (their counts with them)."""
        results, key, readers = entry.verdicts, entry.key, self.readers
        passed, truthy = entry.passed, entry.truthy
        for x in entry.missing:
            old = results[x]
            new = results[x] = helper(m, x, *args)
            if old is not LEFT_OUT:
                passed -= 1
                truthy -= bool(old)
            if new is not LEFT_OUT:
                passed += 1
                truthy += bool(new)
            if per_candidate:
                readers.setdefault(x, set()).add((key, x))
        entry.missing.clear()
        entry.passed, entry.truthy = passed, truthy

    def steady_items(self, m, spec: tuple, args: tuple, source_of, helper, only: str | None = None):
        """A comprehension over a list that is the same for the whole game
        (dsl.codegen.kept_steady_comprehension): the items that pass its filter, each
        kept while the footprints it read stay as they were, those of the item's values
        when the item is a list. ``source_of(m)`` is the list, ``helper(m, x, *args)``
        one item's value or LEFT_OUT; ``only`` as for ``items``."""
        index, roots, per_item, reads_current, current_root = spec
        if not m._running:
            # (a driver may change the state at any time: nothing is kept outside a run)
            return _of([r for x in source_of(m) if (r := helper(m, x, *args)) is not LEFT_OUT], only)
        self.ready(m)
        current = m.state.current
        key = ("steady", index, current if reads_current else None, *args)
        try:
            entry = self.kept.get(key)
        except TypeError:  # an unhashable value (a list): not kept
            return _of([r for x in source_of(m) if (r := helper(m, x, *args)) is not LEFT_OUT], only)
        if entry is not None:
            if entry.passing is not None:
                return entry.passing if only is None else _counted(entry, only)
            results, source, missing = entry.verdicts, entry.source, entry.missing
            passed, truthy = entry.passed, entry.truthy
            for i in missing:  # (positions: the readers of a steady list's items stay)
                old = results[i]
                new = results[i] = helper(m, source[i], *args)
                if old is not LEFT_OUT:
                    passed -= 1
                    truthy -= bool(old)
                if new is not LEFT_OUT:
                    passed += 1
                    truthy += bool(new)
            missing.clear()
            entry.passed, entry.truthy = passed, truthy
        else:
            source = source_of(m)
            results = [helper(m, x, *args) for x in source]
            entry = _Kept(source, results, None)
            entry.key = key
            entry.missing = []
            try:
                readers = self.readers
                for i in roots:
                    readers.setdefault(args[i], set()).add((key, _WHOLE))
                if current_root:
                    readers.setdefault(current, set()).add((key, _WHOLE))
                if per_item:
                    steady = self.steady_readers
                    for i, x in enumerate(source):
                        for value in (x if isinstance(x, list) else (x,)):
                            found = steady.get(value)
                            if found is None:
                                found = steady[value] = {}
                            found[key, i] = entry
            except TypeError:  # an unhashable value read: not kept
                return _of([r for r in results if r is not LEFT_OUT], only)
            self.kept[key] = entry
            if only is not None:
                _count(entry, results)
        if only is not None:
            entry.passing = _COUNTED
            return _counted(entry, only)
        # a new list each time: whoever was given the last one may still hold it
        passing = entry.passing = [r for r in entry.verdicts if r is not LEFT_OUT]
        return passing


_COUNTED = ()  # the ``passing`` of an entry kept as counts only (up to date)


def _count(entry: _Kept, results) -> None:
    passing = [r for r in results if r is not LEFT_OUT]
    entry.passed, entry.truthy = len(passing), sum(map(bool, passing))


def _counted(entry: _Kept, only: str):
    """any, all or count of a kept comprehension's items, from its counts."""
    if only == "count":
        return entry.passed
    if only == "any":
        return entry.truthy > 0
    return entry.truthy == entry.passed


def _of(items: list, only: str | None):
    """The items, or any, all or count of them."""
    if only is None:
        return items
    if only == "count":
        return len(items)
    return any(items) if only == "any" else all(items)


def _differing(now: list, seen: list) -> list[int]:
    """The positions where two lists of the same length differ (compared in C)."""
    if now == seen:
        return []
    return list(compress(count(), map(ne, now, seen)))
