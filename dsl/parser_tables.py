"""The LALR tables of the rules language's parser, without building them at each start.

Lark takes ~60–80 ms to build the tables from the grammar, more than loading a rule set
from the disk cache. So they come, in this order, from ``parser_tables.json`` shipped
beside the grammar (when it was made from this very grammar, these options and this
Lark version), from the load cache, or are built (and then stored in the cache). Both
files hold Lark's own serialized form of the tables as plain JSON (``cache_format``):
Lark's built-in cache is a pickle, which runs whatever a planted file holds.

After changing the grammar or the parser's options, regenerate the shipped tables:
``python -m rulecraft.dsl.parser_tables`` (a test says when they are out of date; until
then the tables are simply built or taken from the cache).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Callable

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

from . import disk_cache

SHIPPED = Path(__file__).with_name("parser_tables.json")


def fingerprint(grammar: str, options: dict) -> str:
    """What the tables depend on besides Lark: the grammar and the parser's options."""
    return hashlib.sha256(f"{sorted(options.items())!r}\n{grammar}".encode()).hexdigest()


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
    """Build the tables of the current grammar and write them to ``SHIPPED``."""
    from . import cache_format
    from .parser import LARK_OPTIONS, _RulesIndenter, grammar_text

    grammar = grammar_text()
    parser = Lark(grammar, postlex=_RulesIndenter(), **LARK_OPTIONS)
    value = {"fingerprint": fingerprint(grammar, LARK_OPTIONS), "lark": lark.__version__, **tables_of(parser)}
    SHIPPED.write_bytes(cache_format.dumps(value) + b"\n")
    return SHIPPED


if __name__ == "__main__":
    print(f"wrote {write_shipped()}")
