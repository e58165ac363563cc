"""How a comprehension's ``with highest``/``with lowest`` and ``by`` clauses arrange the
items its filter passes.

The compiler's closures and the generated code both call :func:`arrange`, so that the
two execution paths choose and order alike. There is no randomness: the sort is stable,
so items with equal keys keep the order of the list they came from.
"""

from __future__ import annotations


class OrderKeyFault(ValueError):
    """A key the checker could not type turned out to be neither a number nor a text
    (a yes/no): told in the language's words, located like any fault of a rule."""


def _check_keys(keys) -> None:
    for key in keys:
        if isinstance(key, bool):
            raise OrderKeyFault("a key to order or choose by is a yes/no (true or false), not a number or a "
                                "text: write '(1 if CONDITION else 0)' to rank by it")


def arrange(rows: list[tuple], highest: bool | None, descending: tuple[bool, ...]) -> list:
    """The values of ``rows`` chosen and ordered. Each row is ``(best key, (order keys),
    value)``, in the order of the list the comprehension reads.

    ``highest``: True for ``with highest``, False for ``with lowest``, None without that
    clause. It keeps only the rows whose best key is the highest (lowest), every one tied
    for it; a key that is none is never the best, so rows with a none key are left out
    (and all of them when every key is none).

    ``descending``: one flag per ``by`` key, the first key first. Rows are ordered by the
    first key, rows equal in it by the second, and so on; rows equal in every key keep
    their order. A row whose key is none comes after the others, whichever the direction.

    Keys are numbers or texts (the checker sees to it where it knows the type): comparing
    a number with a text raises Python's TypeError, which the machine reports as a
    run-time error of the rule ("cannot compare a text < a number"), and a yes/no key
    raises :class:`OrderKeyFault`."""
    if highest is not None:
        _check_keys(row[0] for row in rows)
        keyed = [row for row in rows if row[0] is not None]
        if keyed:
            best = max(row[0] for row in keyed) if highest else min(row[0] for row in keyed)
            keyed = [row for row in keyed if row[0] == best]
        rows = keyed
    # One stable sort per key, the last key first: each sort keeps the order the later
    # keys gave to rows its own key finds equal.
    for i in range(len(descending) - 1, -1, -1):
        _check_keys(row[1][i] for row in rows)
        known = [row for row in rows if row[1][i] is not None]
        unknown = [row for row in rows if row[1][i] is None]
        known.sort(key=lambda row: row[1][i], reverse=descending[i])
        rows = known + unknown
    return [row[2] for row in rows]


def arrange_tied(rows: list[tuple], highest: bool, descending: tuple[bool, ...]) -> list:
    """arrange (above) for ``with highest K1, K2, ...`` (``with lowest``), whose
    rows are ``((K1, K2, ...), (order keys), value)``. The first key chooses as
    ``arrange``'s best key does: a none key is never the best, and when every key is none
    no row is kept. Each later key keeps, of the rows tied on the keys before it, those
    whose key is the highest (lowest): a none key loses to any key with a value, and
    rows whose keys are all none stay tied. The rows kept (in list order) are then
    ordered by ``descending`` as ``arrange`` orders them. Keys are checked (a yes/no
    raises OrderKeyFault) among the rows still tied, a key at a time."""
    width = len(rows[0][0]) if rows else 0
    for i in range(width):
        _check_keys(row[0][i] for row in rows)
        keyed = [row for row in rows if row[0][i] is not None]
        if keyed:
            best = max(row[0][i] for row in keyed) if highest else min(row[0][i] for row in keyed)
            rows = [row for row in keyed if row[0][i] == best]
        elif i == 0:
            rows = keyed
    return arrange([(None, row[1], row[2]) for row in rows], None, descending)
