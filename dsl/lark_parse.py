"""Lark's parse of a definition: for what the direct parser leaves to it (a syntax error
above all), so that syntax errors are Lark's and worded here. Imported only then."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from lark import Lark, Token, Transformer, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from . import parser_tables
from .diagnostics import DiagnosticBag, Position, source_lines
from .limits import MAX_NESTING
from .parser import LARK_OPTIONS, _AstBuilder, _BuildError, grammar_text


class _RulesIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


@lru_cache(maxsize=1)
def lark_parser() -> Lark:
    """The LALR parser of the rules language (its tables: see parser_tables)."""
    return parser_tables.build_parser(grammar_text(), _RulesIndenter, LARK_OPTIONS)


# Readable names for the terminals Lark reports as expected.
_TERMINAL_WORDS = {
    "_NL": "end of line",
    "_INDENT": "an indented block",
    "_DEDENT": "end of the block",
    "NAME": "a name",
    "STRING": 'a "quoted text"',
    "INT": "a number",
    "COLON": "':'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "DOT": "'.'",
    "EQUAL": "'='",
    "COMP_OP": "a comparison",
    "ASSIGN_OP": "'=', '+=' or '-='",
    "DECK_END": "'top' or 'bottom'",
    "MINUS": "'-'",
    "QMARK": "'?'",
    "MORETHAN": "'>'",
    "LESSTHAN": "'<'",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '//' or '%'",
    "$END": "end of file",
}


def _describe_expected(expected: set[str]) -> str:
    words = []
    for name in sorted(expected):
        word = _TERMINAL_WORDS.get(name)
        if word is None:
            word = f"'{name.lower()}'" if name.isupper() and not name.startswith("_") else None
        if word and word not in words:
            words.append(word)
    if not words:
        return ""
    if len(words) > 6:
        words = words[:6] + ["…"]
    return "expected " + ", ".join(words)


def parse_with_lark(chunk: str, offset: int, file: str, bag: DiagnosticBag) -> list | None:
    """The definitions of one chunk as Lark parses it, or None after a syntax error
    (reported in ``bag``). ``offset``: the lines of the file before the chunk."""
    try:
        tree = lark_parser().parse(chunk)
    except UnexpectedInput as err:
        message, pos, hint = _syntax_message(err, file, chunk)
        bag.error(message, _shifted(pos, offset), hint)
        return None
    except DedentError:
        line = _first_bad_dedent(chunk) + offset
        bag.error("the indentation does not match any outer block", Position(file, line, 1),
                  "indent each block by the same number of spaces as its siblings")
        return None
    # Each chunk is parsed on its own and its line numbers moved afterwards (padding
    # it with the lines before would make a file of n definitions cost n² to parse).
    too_deep = _shift_and_measure(tree, offset)
    if too_deep is not None:
        bag.error(f"this definition nests deeper than {MAX_NESTING} levels", Position(file, *too_deep),
                  "split it into functions or procedures (each block, operator and list is a level: "
                  "a + b + c is two)")
        return None
    try:
        return _TreeToAst(_AstBuilder(file, bag)).transform(tree)
    except _BuildError:
        return []


def _shifted(pos: Position, offset: int) -> Position:
    return Position(pos.file, pos.line + offset, pos.column, pos.end_column)


def _shift_and_measure(tree: Tree, offset: int) -> tuple[int, int] | None:
    """Move every position of a chunk's tree down by ``offset`` lines; return (line, column)
    of the first node deeper than MAX_NESTING, or None. Iterative, so no depth breaks it."""
    too_deep = None
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Token):
            if node.line is not None:
                node.line += offset
            if node.end_line is not None:
                node.end_line += offset
            continue
        if not isinstance(node, Tree):
            continue
        meta = node.meta
        if not getattr(meta, "empty", True):
            meta.line += offset
            meta.end_line += offset
            if depth > MAX_NESTING and too_deep is None:
                too_deep = (meta.line, meta.column)
        stack.extend((child, depth + 1) for child in node.children)
    return too_deep


def _first_bad_dedent(text: str) -> int:
    levels = [0]
    for number, line in enumerate(source_lines(text), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        width = len(line) - len(line.lstrip())
        if width > levels[-1]:
            levels.append(width)
            continue
        while width < levels[-1]:
            levels.pop()
        if width != levels[-1]:
            return number
    return 1


# What to write instead of a character no word of the language starts with.
_CHARACTER_HINTS = {
    "'": 'texts are written in double quotes: "like this"',
    "\t": "indent with spaces",
    "/": "division is written '//' (it gives a whole number): a // b",
    "^": "the rules have no power nor bitwise operators: repeat '*' for a power, and for bits read "
         "(x // b) % 2, the bit b of x (b = 1, 2, 4, …)",
    "&": "'and' joins two conditions: a and b",
    "|": "'or' joins two conditions: a or b",
    "!": "'not' denies a condition (not a), and '!=' compares",
    '"': "this text's closing quote is missing: a text ends with '\"' on the line it starts",
}


def _character_hint(char: str) -> str | None:
    """What a character outside the language is, and what to write instead: the
    invisible ones (a no-break or zero-width space pasted from a document), letters
    outside a-z (names are ASCII, and a Cyrillic 'а' looks like a Latin 'a') and
    control characters."""
    if char in _CHARACTER_HINTS:
        return _CHARACTER_HINTS[char]
    name = unicodedata.name(char, "")
    if unicodedata.category(char) in ("Zs", "Cf"):  # spaces and invisible format marks
        return f"this is a {name.lower() or 'special space'} (U+{ord(char):04X}), often pasted from a document: " \
               "delete it and type an ordinary space if one is needed"
    if char.isalpha() or char.isdigit():
        plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
        look = f"; it is {name.title()}, not the Latin letter it may look like" if name and not plain and \
            any(w in name for w in ("CYRILLIC", "GREEK")) else ""
        instead = f": write '{plain}'" if plain else ""
        return f"names are written with the letters a-z, digits and _ only{instead}{look}; " \
               "words a reader sees come from the glossary"
    if unicodedata.category(char).startswith("C"):
        return f"a control character (U+{ord(char):04X}) the file should not hold: delete it"
    return None


def _syntax_message(err: UnexpectedInput, file: str, text: str) -> tuple[str, Position, str | None]:
    line = getattr(err, "line", 1) or 1
    column = getattr(err, "column", 1) or 1
    lines = source_lines(text)
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    if isinstance(err, UnexpectedCharacters):
        char = text[err.pos_in_stream] if err.pos_in_stream < len(text) else "?"
        hint, end = _character_hint(char), None
        if char == '"':
            # a text ends on its own line: a '"' no text starts is one whose closing quote
            # is missing, and the caret runs under all of that text
            end = len(source_line.rstrip()) + 1
        return (f"unexpected character {char!r}", Position(file, line, column, end), hint)
    if isinstance(err, UnexpectedEOF):
        lines = source_lines(text.rstrip("\n"))
        return ("the definition ends too early", Position(file, len(lines), max(1, len(lines[-1]) if lines else 1)),
                _unclosed_hint(text, len(text), len(lines) + 1) or _describe_expected(set(err.expected)) or None)
    assert isinstance(err, UnexpectedToken)
    token = err.token
    expected = set(err.expected)
    if token.type == "_INDENT":
        # The indent token stands at the end of the line before; point at the line itself.
        width = len(str(token.value).rsplit("\n", 1)[-1]) if "\n" in str(token.value) else 0
        line += 1
        while line <= len(lines) and not lines[line - 1].strip():
            line += 1
        if line <= len(lines):
            width = len(lines[line - 1]) - len(lines[line - 1].lstrip())
        return ("unexpected indentation", Position(file, line, width + 1), "this line is indented more than the line before it")
    if token.type == "_DEDENT" or token.type == "$END":
        pos = Position(file, max(1, line), max(1, column))
        # a bracket left open on this line or before is why the line cannot end here
        upto = token.start_pos if token.start_pos is not None else len(text)
        hint = _unclosed_hint(text, upto, line + 1) or _describe_expected(expected)
        return ("the line ends too early", pos, hint or None)
    shown = token.value.strip() or token.type
    end = column + len(token.value) if token.value and "\n" not in token.value else None
    pos = Position(file, line, column, end)
    if token.type == "_NL":
        hint = _unclosed_hint(text, token.start_pos, line + 1) or _describe_expected(expected)
        if "COLON" in expected:
            hint = "a ':' is missing at the end of the line"
        return ("the line ends too early", Position(file, line, column), hint or None)
    hint = _describe_expected(expected)
    if token.value == "if" and source_line[:column - 1].strip() == "else":  # the line reads 'else if'
        hint = "write 'elif' for 'else if': 'elif <condition>:'"
    elif "COLON" in expected and len(expected) <= 3:
        hint = "a ':' is missing before this"
    elif token.value in _COMPREHENSION_CLAUSES and "RSQB" in expected:
        hint = ("a comprehension's clauses come in this order, each at most once: "
                "[ITEM for NAME in LIST where COND with highest KEY by KEY descending]")
    if token.type != "NAME" and "NAME" in expected and re.fullmatch(r"[a-z_]+", token.value or ""):
        hint = f"'{token.value}' is a reserved word of the language and cannot be used as a name"
    hint = (_set_target_hint(source_line, column, token) or _unclosed_hint(text, token.start_pos, line)
            or _comparison_hint(source_line, column, token, expected) or _by_after_prompt_hint(source_line, column, token)
            or hint)
    return (f"unexpected {shown!r}", pos, hint or None)


def _comparison_hint(source_line: str, column: int, token: "Token", expected: set[str]) -> str | None:
    """A single '=' where a comparison may stand (``if x = none:``): '=' only gives a
    value, after 'let' or 'set'; comparing is '=='."""
    if token.value != "=" or "COMP_OP" not in expected:
        return None
    fixed = (source_line[:column - 1] + "==" + source_line[column:]).strip()
    return f"compare with '==' (a single '=' only gives a value, after 'let' or 'set'): write '{fixed}'"


# A ``choose`` line up to the end of its prompt: what a 'by' after it belongs before.
_CHOOSE_WITH_PROMPT = re.compile(r'(?P<head>\s*choose\b.*?)\s*(?P<prompt>\bprompt\s+"(?:[^"\\\n]|\\.)*")\s*')


def _by_after_prompt_hint(source_line: str, column: int, token: "Token") -> str | None:
    """``choose … prompt "…" by PLAYER``: the chooser is named before the prompt."""
    if token.value != "by":
        return None
    line = _CHOOSE_WITH_PROMPT.fullmatch(source_line[:column - 1])
    if line is None:
        return None
    chooser = source_line[column - 1:].split("#", 1)[0].strip()
    return (f"'by' comes before 'prompt' (choose NAME from LIST by PLAYER prompt \"…\"): "
            f"write '{line['head'].strip()} {chooser} {line['prompt']}'")


_CLOSING = {"(": ")", "[": "]", "{": "}"}
# The words that open a clause of a comprehension (see _syntax_message).
_COMPREHENSION_CLAUSES = frozenset({"where", "with", "by"})


def _unclosed_hint(text: str, upto: int | None, line: int) -> str | None:
    """A bracket opened on an earlier line than ``line`` and not closed before ``upto``:
    inside brackets a line break is no end of line, so the next line was read as part of
    the bracket and the error shows there, far from the bracket that was never closed."""
    if upto is None:
        return None
    stack: list[int] = []
    i, end = 0, min(upto, len(text))
    while i < end:
        char = text[i]
        if char == "#":  # a comment, to the end of its line
            i = text.find("\n", i)
            i = end if i < 0 else i
            continue
        if char == '"':  # a text, to its closing quote on the same line
            close = i + 1
            while close < end and text[close] not in '"\n':
                close += 2 if text[close] == "\\" else 1
            i = close + 1
            continue
        if char in _CLOSING:
            stack.append(i)
        elif char in _CLOSING.values() and stack:
            stack.pop()
        i += 1
    if not stack:
        return None
    opened = stack[-1]
    at_line = text.count("\n", 0, opened) + 1
    if at_line >= line:
        return None
    column = opened - (text.rfind("\n", 0, opened) + 1) + 1
    bracket = text[opened]
    if at_line == line - 1 and text.find("\n", opened, upto) < 0:  # on the line that ends too early
        return f"the '{bracket}' at column {column} is never closed: add the '{_CLOSING[bracket]}' where it ends"
    # said from here (the text may be one definition's, numbered from its own start)
    above = "the line above" if line - at_line == 1 else f"{line - at_line} lines above"
    return (f"the '{bracket}' on {above}, at column {column}, is never closed, so this line was read as part "
            f"of it: add the '{_CLOSING[bracket]}' where it ends")


# The start of a ``set`` line up to where its target stops being NAME(.NAME)*.
_SET_TARGET_START = re.compile(r"\s*set\s+[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*\s*")
# A whole ``set`` line: its target, its operator, its value.
_SET_LINE = re.compile(r"\s*set\s+(?P<target>.+?)\s*(?P<op>\+=|-=|=(?!=))\s*(?P<value>.*?)\s*(?:#.*)?$")


def _set_target_hint(source_line: str, column: int, token: "Token") -> str | None:
    """A ``set`` whose target is not a name followed by ``.property`` (an index, a call,
    or a plain name): say what a target is and how to write the line instead."""
    if not _SET_TARGET_START.fullmatch(source_line[:column - 1]):
        return None
    line = _SET_LINE.match(source_line)
    op = line["op"] if line else "="
    if token.value in ("=", "+=", "-=") and "." not in source_line[:column - 1]:
        name = source_line[:column - 1].split()[-1]
        return (f"'set' changes a property or a variable ('set {name}.PROPERTY {op} …', 'set game.NAME {op} …'); "
                f"to give the local name '{name}' a new value write 'let {name} = …' again")
    if token.value not in ("[", "("):
        return None
    general = "a 'set' target is a name followed by '.property' (set x.PROPERTY = …), not an index or a call"
    target = re.fullmatch(r"(?P<thing>.+?)\s*\.\s*(?P<prop>[A-Za-z_]\w*)", line["target"]) if line else None
    if target is None or not _balanced(target["thing"]):
        return general
    return (f"a 'set' target is a name followed by '.property', not an index or a call: "
            f"write 'let x = {target['thing']}' then 'set x.{target['prop']} {op} …'")


def _balanced(text: str) -> bool:
    """Do the brackets of ``text`` close, each in its order?"""
    stack = []
    pairs = {")": "(", "]": "["}
    for char in text:
        if char in "([":
            stack.append(char)
        elif char in pairs and (not stack or stack.pop() != pairs[char]):
            return False
    return not stack




def _pos(file: str, meta) -> Position:
    if getattr(meta, "empty", False):
        return Position(file, 1, 1)
    end = meta.end_column if meta.end_line == meta.line else None
    return Position(file, meta.line, meta.column, end)


class _TreeToAst(Transformer):
    """Lark's parse tree → AST, node by node through the builder's method of its rule."""

    def __init__(self, builder: "_AstBuilder"):
        super().__init__()
        self.builder = builder

    def __default__(self, data, children, meta):
        method = getattr(self.builder, data, None)
        if method is None:
            return Tree(data, children, meta)
        return method(_pos(self.builder.file, meta), children)
