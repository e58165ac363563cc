"""The LALR tables of the rules language's parser, without building them at each start.

Lark takes ~60–80 ms to build the tables from the grammar, more than loading a rule set
from the disk cache. So they come, in this order, from ``parser_tables.json`` shipped
beside the grammar (when it was made from this very grammar, these options and this
Lark version), from the load cache, or are built (and then stored in the cache). Both
files hold Lark's own serialized form of the tables as plain JSON (``cache_format``):
Lark's built-in cache is a pickle, which runs whatever a planted file holds.

The same command writes the direct parser's tables (``parser_tables_direct.json``, see
``direct_tables`` and direct_parser.py), read out of the Lark parser it builds.

After changing the grammar or the parser's options, regenerate the shipped tables:
``python -m rulecraft.dsl.parser_tables`` (a test says when they are out of date; until
then Lark's tables are simply built or taken from the cache, and Lark parses every rule
file).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Callable

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

from . import disk_cache
from .direct_parser import TABLES as DIRECT
from .direct_parser import fingerprint

SHIPPED = Path(__file__).with_name("parser_tables.json")




def build_parser(grammar: str, postlex: Callable[[], object], options: dict) -> Lark:
    """A Lark parser of ``grammar`` with ``options`` and a new ``postlex()``."""
    made = fingerprint(grammar, options)
    tables = shipped_tables(made)
    key = None
    if tables is None and disk_cache.cache_dir() is not None:
        key = disk_cache.grammar_key(made)
        tables = disk_cache.load_object("grammar", key)
    if isinstance(tables, dict) and {"data", "memo"} <= set(tables):
        try:
            return Lark._load_from_dict(tables["data"], tables["memo"], postlex=postlex())
        except Exception:  # noqa: BLE001 - tables Lark does not take are only a missed cache
            pass
    parser = Lark(grammar, postlex=postlex(), **options)
    if key is not None:
        disk_cache.store_object("grammar", key, tables_of(parser))
    return parser


def tables_of(parser: Lark) -> dict:
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    # the post-lexer is an object, not data: it is given again on loading
    data["options"] = {k: v for k, v in data["options"].items() if k != "postlex"}
    return {"data": data, "memo": memo}


def shipped_tables(made: str) -> dict | None:
    from . import cache_format  # not at the top: it imports the parser, which imports this

    try:
        value = cache_format.loads(SHIPPED.read_bytes())
    except (OSError, cache_format.BadEntry):
        return None
    if isinstance(value, dict) and value.get("fingerprint") == made and value.get("lark") == lark.__version__:
        return value
    return None


def write_shipped() -> Path:
    """Build the tables of the current grammar and write them to ``SHIPPED`` (Lark's
    form) and ``DIRECT`` (the direct parser's form, see direct_parser)."""
    from . import cache_format
    from .parser import LARK_OPTIONS, _RulesIndenter, grammar_text

    grammar = grammar_text()
    parser = Lark(grammar, postlex=_RulesIndenter(), **LARK_OPTIONS)
    made = fingerprint(grammar, LARK_OPTIONS)
    value = {"fingerprint": made, "lark": lark.__version__, **tables_of(parser)}
    SHIPPED.write_bytes(cache_format.dumps(value) + b"\n")
    DIRECT.write_text(json.dumps({"fingerprint": made, **direct_tables(parser)}, separators=(",", ":")) + "\n",
                      encoding="utf-8")
    return SHIPPED


# ---- the direct parser's tables
#
# The direct parser (direct_parser.py) runs the same LALR automaton as Lark and shapes
# each reduction as Lark's tree builder would, but builds the AST at once. Everything it
# needs is read here from the Lark parser itself, so that both parse alike: the parse
# table, each rule's shaping (kept children, placeholders, inlining), and what each
# text becomes in each parser state under Lark's contextual lexer.

# Terminals the direct lexer reads by their shape rather than by a fixed text: the key
# its per-state table uses, a sample, and the part of the sample the terminal must take.
_SHAPES = {"NAME": ("\0NAME", "zq ", "zq"), "INT": ("\0INT", "7 ", "7"), "STRING": ("\0STRING", '"s" ', '"s"')}
_NEWLINE_SAMPLES = (("\0NL", "\nx", "\n"), ("\0NL#", "#c\nx", "#c\n"))
_IGNORED_SHAPES = ("WS_INLINE", "COMMENT")


def _fixed_texts(terminal) -> list[str]:
    """The texts a terminal matches, when it matches only a few fixed ones."""
    from lark.lexer import PatternStr

    pattern = terminal.pattern
    if isinstance(pattern, PatternStr):
        return [pattern.value]
    body = pattern.value
    match = re.fullmatch(r"\(\?:((?:\\.|[^|()\\])+(?:\|(?:\\.|[^|()\\])+)*)\)", body) \
        or re.fullmatch(r"\(((?:\w+\|)*\w+)\)\(\?!\[A-Za-z0-9_\]\)", body)
    if match is None:
        raise ValueError(f"terminal {terminal.name}: the direct parser cannot read /{body}/")
    texts = [re.sub(r"\\(.)", r"\1", part) for part in re.findall(r"(?:\\.|[^|\\])+", match.group(1))]
    assert all(re.fullmatch(body, text) for text in texts), terminal.name
    return texts


def _lex_sample(lexer, sample: str):
    """(text taken, terminal) of Lark's lexer of one parser state at the start of ``sample``."""
    from lark.lexer import Token
    from lark.utils import TextSlice

    found = lexer.match(TextSlice.cast_from(sample), 0)
    if not found:
        return None
    value, type_ = found
    if type_ in lexer.callback:
        type_ = lexer.callback[type_](Token(type_, value)).type
    return value, type_


def direct_tables(parser: Lark) -> dict:
    from lark.parse_tree_builder import maybe_create_child_filter
    from lark.parsers.lalr_analysis import Shift

    terminals = {t.name: t for t in parser.terminals}
    word = terminals["NAME"].pattern.value
    fixed: list[str] = []
    for name, terminal in terminals.items():
        if name in _SHAPES or name == "_NL" or name in _IGNORED_SHAPES:
            continue
        fixed.extend(t for t in _fixed_texts(terminal) if t not in fixed)
    words = [t for t in fixed if re.fullmatch(word, t)]
    operators = sorted((t for t in fixed if t not in words), key=lambda t: (-len(t), t))
    assert all(re.fullmatch(r"[^\w\s\"#]+", t) for t in operators), operators

    rules = parser.rules
    table = parser.parser.parser.parser.parse_table
    index = {rule: i for i, rule in enumerate(rules)}
    # Lark numbers its states in an order that changes with Python's string hashing;
    # numbered here in the order they are first reached, the file is the same each time.
    order = [table.start_states["start"]]
    number = {order[0]: 0}
    for state in order:
        for symbol in sorted(table.states[state]):
            action, arg = table.states[state][symbol]
            if action is Shift and arg not in number:
                number[arg] = len(order)
                order.append(arg)
    assert len(order) == len(table.states)
    actions = []
    for state in order:
        row = {}
        for symbol, (action, arg) in sorted(table.states[state].items()):
            row[symbol] = number[arg] if action is Shift else -1 - index[arg]
        actions.append(row)

    shaped = []
    for rule in rules:
        expansion = rule.expansion
        made = maybe_create_child_filter(expansion, rule.options.keep_all_tokens, False,
                                         rule.options.empty_indices if parser.options.maybe_placeholders else None)
        if made is None:
            include, append_none = [[i, False, 0] for i in range(len(expansion))], 0
        elif len(made.args) == 2:
            include, append_none = [list(x) for x in made.args[0]], made.args[1]
        else:
            include, append_none = [[i, x, 0] for i, x in made.args[0]], 0
        inline = bool(rule.options.expand1 and not rule.alias)
        shaped.append({
            "origin": rule.origin.name,
            "size": len(expansion),
            "name": rule.alias or rule.options.template_source or rule.origin.name,
            "inline": inline,
            "include": include,
            "nones": append_none,
            "tokens": [i for i, s in enumerate(expansion) if s.is_term],
        })
    kept = sorted({s.name for rule in rules for s in rule.expansion
                   if s.is_term and (rule.options.keep_all_tokens or not s.filter_out)})

    lexer = parser.parser.lexer.lexer  # the contextual lexer: one lexer per parser state
    samples = [(t, t + " ", t) for t in fixed]
    samples += [_SHAPES[n] for n in _SHAPES] + list(_NEWLINE_SAMPLES)
    maps: list[dict] = []
    state_map = []
    for state in order:
        row = {}
        for key, sample, taken in samples:
            found = _lex_sample(lexer.lexers[state], sample)
            if found is not None and found[0] == taken and found[1] not in _IGNORED_SHAPES:
                row[key] = found[1]
        if row not in maps:
            maps.append(row)
        state_map.append(maps.index(row))

    return {
        "start": number[table.start_states["start"]],
        "end": number[table.end_states["start"]],
        "actions": actions,
        "rules": shaped,
        "kept": kept,
        "words": words,
        "patterns": {"word": word, "int": terminals["INT"].pattern.value,
                     "string": terminals["STRING"].pattern.value, "newline": terminals["_NL"].pattern.value,
                     "space": terminals["WS_INLINE"].pattern.value, "operators": operators},
        "lexers": maps,
        "lexer_of_state": state_map,
        "paren": {"open": list(parser.options.postlex.OPEN_PAREN_types), "close": list(parser.options.postlex.CLOSE_PAREN_types),
                  "tab": parser.options.postlex.tab_len},
    }


if __name__ == "__main__":
    print(f"wrote {write_shipped()}")
