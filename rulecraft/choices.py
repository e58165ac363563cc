"""A pending choice as a menu a person reads: the options of one action that come in
many variants (a card to give times a card to take) are asked step by step, one argument
at a time, instead of as one long list. Only what is shown changes: every leaf of the
menu is one option of the choice, by its index, and every option is one leaf, in the
order the engine offers them, so bots and the engine see the same legal options.
"""

from __future__ import annotations

import json

from rulecraft.narration import Words

GROUP_OVER = 8  # an action with more options than this, in more than one varying argument, is asked step by step


def _action(option) -> tuple[str, dict] | None:
    """An option's action (or reaction) and its arguments, when it has several."""
    if not isinstance(option, dict):
        return None
    name = option.get("action") or option.get("reaction")
    args = option.get("args")
    if not isinstance(name, str) or not isinstance(args, dict) or len(args) < 2:
        return None
    return name, args


def _key(value) -> str:
    return json.dumps(value, sort_keys=True)


def option_menu(options: list, words: Words, most: int = GROUP_OVER) -> list[dict]:
    """The options as a menu: ``{"option": i}`` for an option shown as it is, and for an
    action with more than ``most`` options whose arguments vary in more than one, a group
    ``{"label", "cost", "count", "ask", "items"}`` at the place of its first option:
    ``ask`` is the word of the argument its items tell apart (the glossary's word for
    that parameter, or None), each item a smaller group (one value of that argument:
    its ``label``) or a leaf ``{"option": i, "label"}`` saying only the arguments the
    groups above it have not said. Every option is one leaf, once."""
    members: dict[str, list[int]] = {}
    for i, option in enumerate(options):
        action = _action(option)
        if action is not None:
            members.setdefault(action[0], []).append(i)
    grouped = {name for name, indices in members.items()
               if len(indices) > most and len(_varying(options, indices, ())) > 1}
    out, placed = [], set()
    for i, option in enumerate(options):
        action = _action(option)
        if action is None or action[0] not in grouped:
            out.append({"option": i})
        elif action[0] not in placed:
            placed.add(action[0])
            name = action[0]
            indices = members[name]
            out.append({"label": words.action(name), "cost": words.cost(name), "count": len(indices),
                        **_split(options, indices, words, name, ())})
    return out


def _varying(options: list, indices: list[int], fixed: tuple) -> list[str]:
    """The arguments not yet asked whose values differ among these options, in order."""
    first = options[indices[0]]["args"]
    return [k for k in first if k not in fixed
            and len({_key(options[i]["args"].get(k)) for i in indices}) > 1]


def _split(options: list, indices: list[int], words: Words, name: str, fixed: tuple) -> dict:
    """The items of a group: by the values of its first varying argument while more than
    one varies, else the options themselves."""
    varying = _varying(options, indices, fixed)
    if len(varying) <= 1:
        return {"ask": words.parameter(name, varying[0]) if varying else None,
                "items": [_leaf(options, i, words, name, fixed) for i in indices]}
    param = varying[0]
    by_value: dict[str, list[int]] = {}
    for i in indices:
        by_value.setdefault(_key(options[i]["args"].get(param)), []).append(i)
    items = []
    for same in by_value.values():
        if len(same) == 1:
            items.append(_leaf(options, same[0], words, name, fixed))
            continue
        value = options[same[0]]["args"][param]
        items.append({"label": words.arguments(name, {param: value}), "count": len(same),
                      **_split(options, same, words, name, fixed + (param,))})
    return {"ask": words.parameter(name, param), "items": items}


def _leaf(options: list, i: int, words: Words, name: str, fixed: tuple) -> dict:
    args = options[i]["args"]
    rest = {k: v for k, v in args.items() if k not in fixed}
    return {"option": i, "label": words.arguments(name, rest) if rest else words.action(name)}


def leaves(menu: list[dict]) -> list[int]:
    """The options of a menu, in the order it shows them."""
    out = []
    for item in menu:
        if "option" in item:
            out.append(item["option"])
        else:
            out += leaves(item["items"])
    return out
