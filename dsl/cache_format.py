"""The format of the load cache's entries: JSON holding plain data and the rule-set
classes listed here, nothing else.

Reading an entry can only build lists, dicts, tuples, sets, strings, numbers and
instances of the classes of the rules language (their attributes filled in; no
constructor, hook or other code of the entry's choosing runs), so an entry planted in
the cache can at worst describe a wrong rule set, never execute anything. Pickle and
marshal, which the cache used before, run whatever an entry names.

An object met twice is written once and referred to by number afterwards, so shared
nodes stay shared after a round trip. Anything else (an unknown class, a cycle) cannot
be written: the caller then simply does not cache.
"""

from __future__ import annotations

import dataclasses
import json

from . import ast, diagnostics, model, variants
from .diagnostics import Position


class NotCacheable(Exception):
    """A value holds something this format does not write."""


class BadEntry(Exception):
    """An entry is not JSON of this format (damaged, truncated or planted)."""


def _classes() -> dict[str, type]:
    found: dict[str, type] = {"SourceCache": diagnostics.SourceCache}
    for module in (ast, diagnostics, model, variants):
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == module.__name__ and dataclasses.is_dataclass(value):
                found[value.__name__] = value
    return found


CLASSES = _classes()
_NAMES = {cls: name for name, cls in CLASSES.items()}
_PLAIN = (str, int, float, bool, type(None))
_POSITION_FIELDS = tuple(f.name for f in dataclasses.fields(Position))


def dumps(value) -> bytes:
    """``value`` as an entry; raises :class:`NotCacheable`."""
    numbers: dict[int, int] = {}
    keep: list = []  # the objects numbered, alive until the end so their ids stay theirs
    open_now: set[int] = set()

    def enc(v):
        t = type(v)
        if t in _PLAIN:
            return v
        if t is list:
            return [enc(x) for x in v]
        if t is dict:
            if all(type(k) is str and not k.startswith("$") for k in v):
                return {k: enc(x) for k, x in v.items()}
            return {"$d": [[enc(k), enc(x)] for k, x in v.items()]}
        if t is tuple:
            return {"$t": [enc(x) for x in v]}
        if t is set or t is frozenset:
            return {"$s" if t is set else "$f": [enc(x) for x in v]}
        if t is Position:  # the commonest object by far, and immutable: written compactly
            return {"$p": [getattr(v, f) for f in _POSITION_FIELDS]}
        name = _NAMES.get(t)
        if name is None:
            if isinstance(v, str):  # a str subclass (the parser's tokens): its text is all that counts
                return str(v)
            raise NotCacheable(f"cannot cache a {t.__module__}.{t.__qualname__}")
        ident = id(v)
        if ident in numbers:
            if ident in open_now:
                raise NotCacheable("a cycle")
            return {"$r": numbers[ident]}
        numbers[ident] = len(numbers)
        keep.append(v)
        open_now.add(ident)
        fields = {k: enc(x) for k, x in vars(v).items()}
        open_now.discard(ident)
        if any(k.startswith("$") for k in fields):
            raise NotCacheable(f"an attribute of {name} starts with $")
        fields["$c"] = name
        fields["$i"] = numbers[ident]
        return fields

    try:
        return json.dumps(enc(value), separators=(",", ":"), ensure_ascii=False,
                          allow_nan=False).encode("utf-8")
    except (ValueError, RecursionError) as err:
        raise NotCacheable(str(err)) from None


def loads(data: bytes):
    """The value of an entry; raises :class:`BadEntry`."""
    made: dict[int, object] = {}

    new_object, set_attribute = object.__new__, object.__setattr__

    def hook(obj: dict):
        name = obj.pop("$c", None)
        if name is not None:
            cls = CLASSES.get(name)
            number = obj.pop("$i", None)
            if cls is None or type(number) is not int:
                raise BadEntry("an unknown class")
            new = new_object(cls)
            set_attribute(new, "__dict__", obj)  # the attributes as written; no __init__ runs
            made[number] = new
            return new
        if len(obj) == 1:
            (key, items), = obj.items()
            if key == "$p":
                if type(items) is not list or len(items) != len(_POSITION_FIELDS):
                    raise BadEntry("a malformed position")
                new = new_object(Position)
                set_attribute(new, "__dict__", dict(zip(_POSITION_FIELDS, items)))
                return new
            if key == "$r":
                if items not in made:
                    raise BadEntry("a reference to nothing")
                return made[items]
            if key.startswith("$"):
                if type(items) is not list:
                    raise BadEntry("a malformed container")
                if key == "$t":
                    return tuple(items)
                if key == "$s":
                    return set(items)
                if key == "$f":
                    return frozenset(items)
                if key == "$d":
                    if not all(type(p) is list and len(p) == 2 for p in items):
                        raise BadEntry("a malformed mapping")
                    return {k: x for k, x in items}
                raise BadEntry("an unknown tag")
        return obj

    try:
        return json.loads(data.decode("utf-8"), object_hook=hook)
    except (ValueError, TypeError, RecursionError) as err:  # JSON, UTF-8, unhashable set items
        raise BadEntry(str(err)) from None
