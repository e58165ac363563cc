"""A Python fault met while a rule runs, told in the rules language's words.

The compiled rules are Python, so a value of the wrong kind at run time (a table lookup
of a key the table lacks gives none; a property with no value reads none) surfaces as a
Python exception whose text speaks of ``int`` and ``NoneType``. A designer reads the rule,
not the compiler's output: this says which values met, in the language's names for them,
and what usually makes a value none. The exception's class stays in the message's
start only where no translation applies, so nothing is hidden.
"""

from __future__ import annotations

import re

from rulecraft.dsl.limits import OutOfBounds
from rulecraft.dsl.ordering import OrderKeyFault
from rulecraft.dsl.types import written_value as shown

# Python's names of the values a rule handles → the language's (docs/language.md §4).
_VALUE_NAMES = {
    "int": "a number",
    "float": "a number",
    "bool": "a yes/no",
    "str": "a text",
    "NoneType": "none",
    "list": "a list",
    "tuple": "a list",
    "dict": "a record",
}
_BINARY = re.compile(r"unsupported operand type\(s\) for (\S+): '(\w+)' and '(\w+)'")
_COMPARED = re.compile(r"'(<|<=|>|>=)' not supported between instances of '(\w+)' and '(\w+)'")
_NOT_A_LIST = re.compile(r"'(\w+)' object is not (?:iterable|subscriptable)")
_UNARY = re.compile(r"bad operand type for unary (\S+): '(\w+)'")
NONE_HINT = ("a value is none: a table read with a key it lacks, a property or variable with no value, "
              "or a list's first/top of nothing gives none")


class RuleFault(ValueError):
    """A fault a standard-library function finds in the values it is given, already told
    in the language's words: the machine locates it like any other fault."""


def needs(function: str, what: str, value, among=None) -> RuleFault:
    """``function`` was given ``value`` where it needs ``what`` (one of ``among``, if given)."""
    if value is None:
        return RuleFault(f"{function} needs {what}, not none; {NONE_HINT}")
    # an entity (a player, a card) is named by its id, as the rules' events name it
    told = f"{function} needs {what}, not {value if isinstance(value, str) else shown(value)}"
    if among is not None:
        told += " (one of: " + ", ".join(map(str, among)) + ")"
    return RuleFault(told)


def _value(python_name: str) -> str:
    return _VALUE_NAMES.get(python_name, f"a {python_name}")


def fault_text(err: Exception) -> str:
    """``err`` as a rule's fault: the values that met, in the language's words."""
    text = str(err)
    if isinstance(err, (RuleFault, OutOfBounds, OrderKeyFault)):  # told in the language's words already
        return text
    if isinstance(err, TypeError):
        found = _BINARY.search(text)
        if found:
            op, left, right = found.groups()
            return _with_none_hint(f"cannot compute {_value(left)} {op} {_value(right)}", left, right)
        found = _COMPARED.search(text)
        if found:
            op, left, right = found.groups()
            return _with_none_hint(f"cannot compare {_value(left)} {op} {_value(right)}", left, right)
        found = _UNARY.search(text)
        if found:
            op, operand = found.groups()
            return _with_none_hint(f"cannot compute {op}{_value(operand)}", operand)
        found = _NOT_A_LIST.search(text)
        if found:
            (kind,) = found.groups()
            return _with_none_hint(f"{_value(kind)} is no list", kind)
    return f"{type(err).__name__}: {text}"


def _with_none_hint(told: str, *names: str) -> str:
    return f"{told}; {NONE_HINT}" if "NoneType" in names else told
