"""The value types of the rules language.

Types are plain strings so they print as a rule author writes them: ``number``,
``bool``, ``text``, ``placement``, ``zone``, a kind name such as ``room``, or
``list of T``. ``any`` is compatible with everything (the checker's "unknown").
"""

from __future__ import annotations

from .diagnostics import with_article

NUMBER = "number"
BOOL = "bool"
TEXT = "text"
ANY = "any"
NONE = "none"
PLACEMENT = "placement"
ZONE = "zone"
DIE = "die"
EVENT = "event"
SCOPE = "scope"  # game / turn variable holders

BASE_TYPES = {NUMBER, BOOL, TEXT, PLACEMENT, ZONE, ANY}
SCALARS = {NUMBER, BOOL, TEXT}


def list_of(item: str) -> str:
    return f"list of {item}"


def is_list(t: str) -> bool:
    return t.startswith("list of ") or t == "list"


def item_type(t: str) -> str:
    if t.startswith("list of "):
        return t[len("list of "):]
    return ANY


def parse_type_text(text: str) -> str:
    """'player?' → 'player'; 'list of room' stays. Optionality is not tracked."""
    text = text.strip()
    if text.endswith("?"):
        text = text[:-1]
    return text


def type_names(t: str) -> list[str]:
    """Every simple name a type mentions, for 'unknown type' checks."""
    while is_list(t):
        t = item_type(t)
    return [t]


def assignable(actual: str, expected: str, zone_kinds: frozenset[str] = frozenset()) -> bool:
    """May a value of type ``actual`` go where ``expected`` is required?"""
    if actual == expected or ANY in (actual, expected):
        return True
    if actual == NONE:
        return expected not in (NUMBER, BOOL)
    if is_list(actual) and is_list(expected):
        return assignable(item_type(actual), item_type(expected), zone_kinds)
    if expected == ZONE and actual in zone_kinds:
        return True
    return False


def phrase(t: str) -> str:
    """A type as a message says it, with its article: 'a number', 'an item', 'a list of
    room'. Every message that names a type says it through here, so that the checker's
    own markers ('any', 'die', 'event x', 'scope') read as the rules language says them."""
    t = t.removesuffix("?")
    if t == ANY:
        return "a value of any type"
    if t == NONE:
        return "none"
    if t == SCOPE:
        return "'game' or 'turn' itself"
    if t.startswith("event "):
        return f"the event '{t[len('event '):]}'" if t != "event " else "an event"
    if t == "list":
        return "a list"
    return with_article(t)


def python_value_type(value) -> str:
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return NUMBER
    if isinstance(value, str):
        return TEXT
    if value is None:
        return NONE
    return ANY


def written_value(value) -> str:
    """A value as the rules write it, for messages: a text in quotes, true/false, none, a
    list in brackets."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(written_value(v) for v in value) + "]"
    return str(value)
