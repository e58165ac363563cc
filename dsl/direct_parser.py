"""The rules language's LALR parse, building the AST as it reduces.

Lark parses a definition in three passes, each making Python objects: tokens, a parse
tree with positions, then the AST from that tree. This parser runs the same automaton
from tables made out of Lark's own (``parser_tables.direct_tables``), lexes with one
pattern, keeps positions in plain tuples, and calls the AST builder's method of each
rule as the rule is reduced: the same AST, positions and reserved-word errors, at about
a quarter of the cost.

It only ever answers for text Lark parses: at the first thing it is not sure Lark would
read the same way (a syntax error, a word Lark's contextual lexer would split, a
definition nested too deep, tables out of date) it raises :class:`Unsure`, and the caller
parses that definition with Lark, whose errors and their wording stay the reference.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import lru_cache
from pathlib import Path

from .diagnostics import Position
from .limits import MAX_NESTING

# Written with Lark's own tables by python -m rulecraft.dsl.parser_tables.
TABLES = Path(__file__).with_name("parser_tables_direct.json")


def fingerprint(grammar: str, options: dict) -> str:
    """What the tables depend on besides Lark: the grammar and the parser's options."""
    return hashlib.sha256(f"{sorted(options.items())!r}\n{grammar}".encode()).hexdigest()


class Unsure(Exception):
    """Lark may read this text otherwise (or not at all): ask Lark."""


class Token(str):
    """A kept token's text and place, as the AST builder reads a Lark token."""

    __slots__ = ("type", "line", "column", "end_line", "end_column")


class _Rule:
    __slots__ = ("origin", "size", "name", "inline", "include", "nones", "unit", "is_list", "picks")

    def __init__(self, spec: dict):
        self.origin = spec["origin"]
        self.size = spec["size"]
        self.name = spec["name"]
        self.inline = spec["inline"]
        self.include = [tuple(x) for x in spec["include"]]
        self.nones = spec["nones"]
        # `?rule: child` with its child a rule: Lark hands the child up unchanged
        # (its positions too: the container of a lone child is the child's own).
        self.unit = (self.inline and self.size == 1 and self.include == [(0, False, 0)]
                     and not self.nones and 0 not in spec["tokens"])
        # a rule whose result is spliced into its parent (`__x_plus`, `_x`) is a list
        self.is_list = self.origin.startswith("_")
        plain = not self.nones and all(not expand and not nones for _, expand, nones in self.include)
        self.picks = tuple(i for i, _, _ in self.include) if plain else None


class Tables:
    def __init__(self, data: dict):
        self.start = data["start"]
        self.end = data["end"]
        self.actions = data["actions"]
        self.rules = [_Rule(r) for r in data["rules"]]
        self.kept = frozenset(data["kept"])
        self.words = frozenset(data["words"])
        lexers = data["lexers"]
        self.lexer_of_state = [lexers[i] for i in data["lexer_of_state"]]
        p = data["patterns"]
        operators = "|".join(re.escape(t) for t in p["operators"])
        # a token with the ignored spaces before it, in one match
        self.pattern = re.compile(
            f"(?:{p['space']})?(?:(?P<nl>{p['newline']})|(?P<word>{p['word']})|(?P<int>{p['int']})"
            f"|(?P<string>{p['string']})|(?P<op>{operators}))")
        self.spaces = re.compile(f"(?:{p['space']})?$")
        self.open = frozenset(data["paren"]["open"])
        self.close = frozenset(data["paren"]["close"])
        self.tab = data["paren"]["tab"]
        self.units: dict[tuple, int] = {}  # (state below, state on top, token) → state after its unit reductions


@lru_cache(maxsize=1)
def tables() -> Tables | None:
    """The shipped tables, if they were made from the current grammar (else None: Lark
    parses everything until they are made again)."""
    from .parser import LARK_OPTIONS, grammar_text

    try:
        data = json.loads(TABLES.read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("fingerprint") != fingerprint(grammar_text(), LARK_OPTIONS):
        return None
    try:
        return Tables(data)
    except (KeyError, IndexError, TypeError, ValueError, re.error):  # a damaged file: Lark parses
        return None


def parse_definition(text: str, first_line: int, file: str, builder) -> list:
    """The AST of one chunk of rule text (see parser._split_definitions) whose first line
    is ``first_line`` of ``file``: what ``builder`` makes of Lark's tree of it. Raises
    :class:`Unsure` where Lark must decide."""
    t = tables()
    if t is None:
        raise Unsure
    actions = t.actions
    rules = t.rules
    lexer_of_state = t.lexer_of_state
    words = t.words
    kept = t.kept
    match = t.pattern.match
    opening, closing, tab = t.open, t.close, t.tab
    end_state = t.end
    units = t.units

    states = [t.start]
    values: list = []
    metas: list = []  # per value: (line, column, end line, end column, the same of its container, height) or None

    def feed(type_, value, meta, at_end=False):
        while True:
            code = actions[states[-1]].get(type_)
            if code is None:
                raise Unsure
            if code >= 0:
                if at_end:
                    raise Unsure
                states.append(code)
                values.append(value)
                metas.append(meta)
                return None
            rule = rules[-1 - code]
            if rule.unit:
                # A chain of them (an atom up the expression levels) depends only on the
                # two states on top and the token ahead: found once, then looked up.
                below = states[-2]
                key = (below, states[-1], type_)
                top = units.get(key)
                if top is None:
                    top = actions[below][rule.origin]
                    while True:
                        code = actions[top].get(type_)
                        if code is None or code >= 0 or not rules[-1 - code].unit:
                            break
                        top = actions[below][rules[-1 - code].origin]
                    units[key] = top
                states[-1] = top
                continue
            size = rule.size
            if size:
                children = values[-size:]
                child_metas = metas[-size:]
                del states[-size:]
                del values[-size:]
                del metas[-size:]
            else:
                children, child_metas = [], []
            made, made_meta = _reduce(rule, children, child_metas, file, builder)
            states.append(actions[states[-1]][rule.origin])
            values.append(made)
            metas.append(made_meta)
            if at_end and states[-1] == end_state:
                return made

    pos = 0
    size = len(text)
    line = first_line
    line_start = 0
    paren = 0
    indents = [0]
    last = None  # the meta of the last token read (Lark's end-of-input tokens take its place)
    while pos < size:
        m = match(text, pos)
        if m is None:
            if t.spaces.match(text, pos):
                break
            raise Unsure
        kind = m.lastgroup
        raw = m.group(kind)
        end = m.end()
        pos = end - len(raw)
        column = pos - line_start + 1
        lexer = lexer_of_state[states[-1]]
        if kind == "word":
            type_ = lexer.get(raw)
            if type_ is None:
                if raw in words:
                    raise Unsure
                type_ = lexer.get("\0NAME")
        elif kind == "nl":
            type_ = lexer.get("\0NL#" if raw[0] == "#" else "\0NL")
        elif kind == "op":
            type_ = lexer.get(raw)
        elif kind == "int":
            type_ = lexer.get("\0INT")
        else:
            type_ = lexer.get("\0STRING")
        if type_ is None:
            raise Unsure
        if kind == "nl":
            newlines = raw.count("\n")
            if not newlines:
                raise Unsure
            end_line = line + newlines
            line_start = pos + raw.rindex("\n") + 1
            meta = (line, column, end_line, end - line_start + 1, line, column, end_line, end - line_start + 1, 0)
            line = end_line
            pos = end
            last = meta
            if paren > 0:
                continue
            feed(type_, None, meta)
            indent_text = raw.rsplit("\n", 1)[1]
            indent = indent_text.count(" ") + indent_text.count("\t") * tab
            if indent > indents[-1]:
                indents.append(indent)
                feed("_INDENT", None, meta)
            else:
                while indent < indents[-1]:
                    indents.pop()
                    feed("_DEDENT", None, meta)
                if indent != indents[-1]:
                    raise Unsure
            continue
        end_column = column + len(raw)
        meta = (line, column, line, end_column, line, column, line, end_column, 0)
        if type_ in kept:
            value = Token(raw)
            value.type = type_
            value.line = line
            value.column = column
            value.end_line = line
            value.end_column = end_column
        else:
            value = None
        pos = end
        last = meta
        code = actions[states[-1]].get(type_)
        if code is not None and code >= 0:  # a shift, the common case, without a call
            states.append(code)
            values.append(value)
            metas.append(meta)
        else:
            feed(type_, value, meta)
        if type_ in opening:
            paren += 1
        elif type_ in closing:
            paren -= 1
            if paren < 0:
                raise Unsure
    while len(indents) > 1:
        if last is None:
            raise Unsure
        indents.pop()
        feed("_DEDENT", None, last)
    result = feed("$END", None, None, at_end=True)
    if metas[-1] is not None and metas[-1][8] > MAX_NESTING:
        raise Unsure  # Lark's parse says where it nests too deep
    return result


def _reduce(rule: _Rule, children: list, child_metas: list, file: str, builder):
    """The value and positions Lark's tree builder and the AST builder give one reduction."""
    first = child_metas[0] if child_metas else None
    if first is None:
        for m in child_metas:
            if m is not None:
                first = m
                break
    last = child_metas[-1] if child_metas else None
    if last is None:
        for m in reversed(child_metas):
            if m is not None:
                last = m
                break
    height = 0
    picks = rule.picks
    if picks is not None:  # the common shape: some children kept, none spliced, no placeholder
        filtered = []
        for i in picks:
            filtered.append(children[i])
            m = child_metas[i]
            if m is not None and m[8] > height:
                height = m[8]
    else:
        filtered = []
        for i, expand, nones in rule.include:
            if nones:
                filtered += [None] * nones
            if expand:
                filtered += children[i]
            else:
                filtered.append(children[i])
            m = child_metas[i]
            if m is not None and m[8] > height:
                height = m[8]
        if rule.nones:
            filtered += [None] * rule.nones
    if rule.inline and len(filtered) == 1:
        # `?rule` with one child left: the child itself, whose container grows to the rule's
        if len(rule.include) != 1 or rule.include[0][1]:
            raise Unsure
        child = filtered[0]
        meta = child_metas[rule.include[0][0]]
        if meta is None and first is not None:
            raise Unsure  # a tree without place would take this rule's: not worth copying
        if child is None or meta is None or meta[8] == 0:  # a token or nothing: no tree to place
            return child, meta
        return child, (meta[0], meta[1], meta[2], meta[3], first[4], first[5], last[6], last[7], meta[8])
    if first is None:
        meta = None
        pos = Position(file, 1, 1)
    else:
        line = first[4]
        end_line = last[6]
        end_column = last[7]
        if rule.is_list:
            return filtered, (line, first[5], end_line, end_column, line, first[5], end_line, end_column, height)
        meta = (line, first[5], end_line, end_column, line, first[5], end_line, end_column, height + 1)
        pos = Position(file, line, first[5], end_column if end_line == line else None)
    if rule.is_list:
        return filtered, meta
    method = getattr(builder, rule.name, None)
    if method is None:
        raise Unsure
    return method(pos, filtered), meta
