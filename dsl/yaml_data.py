"""YAML tables → checked data, with every schema error located at its YAML line and column.

PyYAML composes a node tree that keeps source marks; the data is constructed from the
same tree, so a JSON-Schema error path (``components/3/count``) can be walked back to
the node it came from.
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

import jsonschema
import yaml

from .diagnostics import DiagnosticBag, Position, did_you_mean
from .limits import MAX_NUMBER_DIGITS, MAX_YAML_DEPTH, MAX_YAML_VALUES
from .source_text import read_source_text


class Located:
    """Maps a path inside loaded YAML data to the position of its node."""

    def __init__(self, file: str, root: yaml.Node | None):
        self.file = file
        self.root = root

    def position(self, path: Iterable[Any]) -> Position:
        node = self.root
        key_node = None
        for step in path:
            if isinstance(node, yaml.MappingNode):
                found = None
                for k, v in node.value:
                    if k.value == str(step) or k.value == step:
                        found = (k, v)
                        break
                if found is None:
                    break
                key_node, node = found
            elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
                key_node, node = None, node.value[step]
            else:
                break
        target = node if node is not None else key_node
        if target is None:
            return Position(self.file, 1, 1)
        mark = target.start_mark
        end = target.end_mark
        end_col = end.column + 1 if end.line == mark.line else None
        return Position(self.file, mark.line + 1, mark.column + 1, end_col)

    def part_position(self, path: Iterable[Any], part: str) -> Position:
        """The position of ``part`` inside the text value at ``path`` (the 'intgr' of
        'list of intgr'), so that a caret stands under the word at fault; the whole value's
        position when the value is not written on one line as it reads (an escape, a
        folded text) or does not hold ``part``."""
        path = list(path)
        whole = self.position(path)
        node = self._node(path)
        if not isinstance(node, yaml.ScalarNode) or not part or node.start_mark.line != node.end_mark.line:
            return whole
        quoted = 1 if node.style in ("'", '"') else 0
        if node.end_mark.column - node.start_mark.column != len(node.value) + 2 * quoted:
            return whole  # written otherwise than it reads: columns inside it cannot be told
        index = node.value.rfind(part)
        if index < 0:
            return whole
        column = node.start_mark.column + 1 + quoted + index
        return Position(self.file, node.start_mark.line + 1, column, column + len(part))

    def within(self, path: Iterable[Any]) -> "Located":
        """The positions of the data under ``path``, found by paths that start there (the
        ``add:`` section of a variant, read with the paths of the base's own files)."""
        return Located(self.file, self._node(list(path)))

    def key_position(self, path: Iterable[Any]) -> Position:
        """The position of the key that names the last step (for 'unknown key' messages)."""
        path = list(path)
        if not path:
            return self.position(path)
        parent = self._node(path[:-1])
        if isinstance(parent, yaml.MappingNode):
            for k, _ in parent.value:
                if k.value == str(path[-1]):
                    m = k.start_mark
                    return Position(self.file, m.line + 1, m.column + 1, k.end_mark.column + 1)
        return self.position(path)

    def _node(self, path):
        node = self.root
        for step in path:
            if isinstance(node, yaml.MappingNode):
                node = next((v for k, v in node.value if k.value == str(step)), None)
            elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
                node = node.value[step]
            else:
                return None
        return node


# libyaml's parser when PyYAML was built with it: same nodes and marks, much faster.
_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _UniqueKeyLoader(_BaseLoader):
    """A safe loader that refuses duplicate mapping keys instead of silently keeping the last."""


class _Refusal(yaml.constructor.ConstructorError):
    """Data the tables refuse though YAML allows it (a key twice, a tag, a number or a
    nesting past the limits), told in plain words with what to do instead."""

    def __init__(self, problem: str, mark, hint: str):
        super().__init__(None, None, problem, mark)
        self.hint = hint


def _construct_mapping(loader, node, deep=False):
    seen = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if isinstance(key, (list, dict)):
            raise _Refusal(f"a {'list' if isinstance(key, list) else 'mapping'} cannot be a key", key_node.start_mark,
                           "write a name before the ':' (quote it if it holds brackets)")
        if key in seen:
            first, again = seen[key].start_mark.line + 1, key_node.start_mark.line + 1
            where = "earlier on the same line" if first == again else f"on line {first}"
            lines = f"line {first}" if first == again else f"lines {first} and {again}"
            raise _Refusal(f"the key {key!r} appears twice in this mapping (first {where})", key_node.start_mark,
                           f"keep one of the two '{key}' entries ({lines}) and remove the other, or rename "
                           "one if it was meant as a different key")
        seen[key] = key_node
    return loader.construct_mapping(node, deep)


class _PyUniqueKeyLoader(yaml.SafeLoader):
    """The pure-Python twin, read again only to word a syntax error (its messages name the culprit)."""


def _construct_int(loader, node):
    # Python refuses to read a number of over 4,300 digits, and no table needs 16
    digits = str(node.value).replace("_", "").lstrip("+-")
    if len(digits) > MAX_NUMBER_DIGITS:
        raise _Refusal(f"a number of {len(digits)} characters is too large (at most {MAX_NUMBER_DIGITS} digits)",
                       node.start_mark, f"write a number of at most {MAX_NUMBER_DIGITS} digits, or quote it "
                                        "('...') if it is meant as a text")
    return _constructed(loader, node, yaml.constructor.SafeConstructor.construct_yaml_int, "a number")


def _construct_timestamp(loader, node):
    return _constructed(loader, node, yaml.constructor.SafeConstructor.construct_yaml_timestamp, "a date")


def _constructed(loader, node, construct, kind: str):
    """A value YAML reads by its look (`0x_` as a number, `2001-02-30` as a date) that
    cannot be made: an error at its place, not a failure of the program."""
    try:
        return construct(loader, node)
    except (ValueError, OverflowError):
        raise _Refusal(f"'{node.value}' reads as {kind} in YAML, but it is not a valid one", node.start_mark,
                       f"correct it, or quote it ('{node.value}') to make it a text") from None


for _loader in (_UniqueKeyLoader, _PyUniqueKeyLoader):
    _loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
    _loader.add_constructor("tag:yaml.org,2002:int", _construct_int)
    _loader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)

_DEPTH_HINT = (f"nest fewer lists and mappings inside each other (at most {MAX_YAML_DEPTH} levels; a table "
               "needs only a few)")


def _refuse_tags(root: yaml.Node, loader) -> None:
    """Refuse a tag written in the text (`!name`, `!!type`) and a '<<' merge key: the
    tables hold plain values only, and a tag would make objects no table describes."""
    seen: set[int] = set()
    todo = [root]
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            # a plain scalar (libyaml marks it "") takes the tag its look gives; any other, text
            implicit = loader.resolve(yaml.ScalarNode, node.value, (True, False)) if node.style in (None, "") \
                else yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG
            if node.tag != implicit:
                _refuse_tag(node)
        elif isinstance(node, yaml.SequenceNode):
            if node.tag != yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG:
                _refuse_tag(node)
            todo.extend(reversed(node.value))
        else:
            if node.tag != yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG:
                _refuse_tag(node)
            for key, value in reversed(node.value):
                if key.tag == "tag:yaml.org,2002:merge":
                    raise _Refusal("'<<' merge keys are not supported", key.start_mark,
                                   "write the keys out in this mapping instead of merging them in")
                todo.extend((value, key))


def _refuse_tag(node: yaml.Node) -> None:
    tag = node.tag
    if tag.startswith("tag:yaml.org,2002:"):
        tag = "!!" + tag[len("tag:yaml.org,2002:"):]
    elif not tag.startswith("!"):  # written in full, as !<...>
        tag = f"!<{tag}>"
    raise _Refusal(f"tags such as '{tag}' are not used in these tables", node.start_mark,
                   f"remove '{tag}' and write the value alone (quote it to make it a text)")


def _check_shape(root: yaml.Node) -> None:
    """Refuse node trees too deep or too large to build, before anything recurses into them."""
    if _plain_tree_within_limits(root):
        return
    sizes: dict[int, int] = {}  # id(node) → values under it, aliases expanded
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        key = id(node)
        children = _children(node)
        if done:
            on_path.discard(key)
            sizes[key] = min(1 + sum(sizes[id(c)] for c in children), MAX_YAML_VALUES + 1)
            if sizes[key] > MAX_YAML_VALUES:
                raise _Refusal(f"this value holds more than {MAX_YAML_VALUES:,} values once its aliases are expanded",
                               node.start_mark, "write out the values it needs instead of aliases (*name) of "
                                                "aliases, which multiply: no table holds that many")
            continue
        if key in sizes:
            continue
        if key in on_path:
            anchor = re.match(r"&([^\s,\[\]{}]+)", _text_at(node.start_mark))
            name = anchor.group(1) if anchor else "name"
            raise _Refusal("an alias inside the value it names makes an endless value", node.start_mark,
                           f"remove the alias *{name} from inside the value marked &{name}: a value cannot "
                           "hold itself")
        if depth > MAX_YAML_DEPTH:
            raise _Refusal(f"the data nests deeper than {MAX_YAML_DEPTH} levels", node.start_mark, _DEPTH_HINT)
        on_path.add(key)
        stack.append((node, depth, True))
        stack.extend((c, depth + 1, False) for c in children if id(c) not in sizes)


def _text_at(mark) -> str:
    """The text of the line a mark is on, from the mark on ("" when the mark holds no text)."""
    buffer = getattr(mark, "buffer", None)
    if not isinstance(buffer, str):
        return ""
    end = buffer.find("\n", mark.index)
    return buffer[mark.index:end if end >= 0 else len(buffer)]


def _plain_tree_within_limits(root: yaml.Node) -> bool:
    """True when no node is reached twice (no alias) and the tree is within both limits:
    the usual table, checked in one pass. Otherwise _check_shape weighs every value with
    its aliases expanded, and words what is wrong where."""
    seen: set[int] = set()
    values = 0
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        values += 1
        if depth > MAX_YAML_DEPTH:
            return False
        value = node.value
        if isinstance(value, str):  # a scalar
            continue
        key = id(node)
        if key in seen:
            return False
        seen.add(key)
        if isinstance(node, yaml.MappingNode):
            for k, v in value:
                stack.append((k, depth + 1))
                stack.append((v, depth + 1))
        else:
            stack.extend((c, depth + 1) for c in value)
    # no collection reached twice: the root holds every value, each other node fewer
    return values <= MAX_YAML_VALUES


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


_BOOL_TAG = "tag:yaml.org,2002:bool"


def _boolean_keys(root) -> list:
    """Unquoted mapping keys that YAML 1.1 reads as booleans (`on`, `yes`, `off`...), made
    text again so the data stays well-formed; the caller reports each one."""
    found, todo = [], [root]
    while todo:
        node = todo.pop()
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if key.tag == _BOOL_TAG and isinstance(key, yaml.ScalarNode):
                    key.tag = "tag:yaml.org,2002:str"
                    found.append(key)
                todo.append(value)
        elif isinstance(node, yaml.SequenceNode):
            todo.extend(node.value)
    return found


def _compose(text: str, loader_class, boolean_keys: list | None = None):
    loader = loader_class(text)
    try:
        root = loader.get_single_node()
        if root is None:
            return None, None
        _check_shape(root)
        if "!" in text or "<<" in text:  # else no tag or merge key can be written in it
            _refuse_tags(root, loader)
        if boolean_keys is not None:
            boolean_keys.extend(_boolean_keys(root))
        return root, loader.construct_document(root)
    finally:
        loader.dispose()


def _same_stop(worded: yaml.YAMLError, first: yaml.YAMLError) -> bool:
    """Whether the pure-Python parser stopped where libyaml did, so that its wording tells
    the same mistake. The two disagree on a few texts libyaml reads (a '?' inside a plain
    value in '{...}', as in `{type: number?}`): stopping elsewhere, the pure-Python parser
    met a place libyaml read without fault, and its words would blame a line that is right."""
    def stop(error):
        mark = getattr(error, "problem_mark", None)
        return None if mark is None else (mark.line, mark.column)
    return stop(worded) is not None and stop(worded) == stop(first)


def _mark_position(error: yaml.YAMLError, text: str, file: str) -> Position:
    """Where a YAML error happened: its mark, or (for unreadable characters) its offset."""
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    if mark is not None:
        return Position(file, mark.line + 1, mark.column + 1)
    offset = getattr(error, "position", None)
    if isinstance(offset, int) and 0 <= offset <= len(text):
        line = text.count("\n", 0, offset) + 1
        return Position(file, line, offset - (text.rfind("\n", 0, offset) + 1) + 1)
    return Position(file, 1, 1)


def load_yaml_text(text: str, file: str, bag: DiagnosticBag, schema_name: str | None = None) -> tuple[Any, Located]:
    """Parse YAML text; a syntax error is reported once, at the line it is on (with the
    schema the text is meant for, an indentation slip is told apart from its neighbours
    by which reading of the text the schema accepts). Does not validate."""
    bag.sources.add(file, text)
    try:
        # compose once: the node tree keeps positions, the data is built from it
        boolean_keys: list = []
        root, data = _compose(text, _UniqueKeyLoader, boolean_keys)
    except yaml.YAMLError as fast_error:
        err = fast_error
        if isinstance(err, yaml.MarkedYAMLError) and "nesting depth" in str(err.problem):
            # libyaml's own limit, far past ours; the pure-Python parser would crawl through it
            err = _Refusal(f"the data nests deeper than {MAX_YAML_DEPTH} levels", err.problem_mark, _DEPTH_HINT)
        elif isinstance(err, yaml.MarkedYAMLError):
            try:
                _compose(text, _PyUniqueKeyLoader)
            except yaml.YAMLError as worded:
                if _same_stop(worded, err):
                    err = worded
            except RecursionError:  # the pure-Python composer recurses; keep the first wording
                pass
        pos = _mark_position(err, text, file)
        if isinstance(err, yaml.reader.ReaderError):
            problem = f"the character {chr(err.character)!r} is not allowed in YAML" if isinstance(err.character, int) \
                else "the text cannot be read"
            bag.error(f"YAML syntax: {problem}", pos, "remove it (YAML forbids control characters); write it as an escape in a quoted text")
            return None, Located(file, None)
        unclosed = _unclosed_bracket(err, text, file) or _unclosed_quote(err, text, file)
        if unclosed is not None:
            bag.error(*unclosed)
            return None, Located(file, None)
        raw_problem = str(getattr(err, "problem", None) or getattr(err, "context", None) or err)
        if isinstance(err, _Refusal):
            problem, hint = raw_problem, err.hint
        else:
            problem, hint = _plain_words(raw_problem, getattr(err, "context", None) or "", text, pos)
        duplicate = "appears twice" in problem
        # inside '{...}' or '[...]' indentation means nothing: no slip of it is the cause;
        # nor of a value refused for what it is (a tag, a number, aliases), a key twice aside
        in_brackets = (getattr(err, "context", None) or "").startswith("while parsing a flow")
        key = _key_read_as_value(text, pos) if "mapping values are not allowed" in raw_problem else None
        plain = isinstance(err, _Refusal) and not duplicate or "another document" in raw_problem
        slip = None if in_brackets or plain else _misindented_line(text, pos, duplicate=duplicate,
                                                                    schema_name=schema_name,
                                                                    here_too=key is not None)
        if slip is not None and key is not None and slip[0].line == pos.line:
            # the key's own ':' was refused: indented past its siblings, the line was read
            # as more of the plain value above it
            column = slip[1]
            start = slip[0].column
            pos = Position(file, pos.line, start, start + len(key))
            problem = f"the key '{key}' is indented differently from the keys beside it"
            hint = (f"indent it to column {column}, in line with them (indented further, it is read as more "
                    "of the value above it)")
        elif slip is not None:
            # the parser stopped after the slip: tell the slip, and how far to indent it
            pos, column = slip
            problem = "this line is indented differently from the lines around it"
            hint = f"indent it to column {column}, in line with the lines around it"
        bag.error(f"YAML syntax: {problem}", _within_text(pos, text), hint)
        return None, Located(file, None)
    for key in sorted(boolean_keys, key=lambda k: (k.start_mark.line, k.start_mark.column)):
        mark = key.start_mark
        bag.error(f"the key '{key.value}' reads as a yes/no value in YAML, not as a name",
                  Position(file, mark.line + 1, mark.column + 1, key.end_mark.column + 1),
                  f"quote it ('{key.value}': ...) or choose another name")
    return data, Located(file, root)


def _unclosed_bracket(err: yaml.YAMLError, text: str, file: str) -> tuple[str, Position, str] | None:
    """(message, position, hint) when the parser stopped because a '{' or '[' was never
    closed: it reads on to the end of the text, or into the next key of the block, which is
    indented no further than the line the bracket is on. The bracket is the mistake."""
    context, opened, stopped = (getattr(err, name, None) for name in ("context", "context_mark", "problem_mark"))
    if not (context or "").startswith("while parsing a flow") or opened is None or stopped is None:
        return None
    lines = text.split("\n")
    if opened.line >= len(lines):
        return None
    content = [i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")]
    if not content:
        return None
    last_line = content[-1]
    if stopped.line > last_line or (stopped.line == last_line and stopped.column >= len(lines[last_line].rstrip())):
        end = len(lines)  # the text ended inside the brackets
    else:
        if stopped.line <= opened.line or stopped.line >= len(lines):
            return None
        next_line = lines[stopped.line]
        if not _STRUCTURE_LINE.match(next_line) or _indent(next_line) > _indent(lines[opened.line]):
            return None  # a line inside the brackets: more likely a ',' missing between entries
        end = stopped.line
    last = next(i for i in reversed(content) if opened.line <= i < end)
    bracket, closing, what = ("{", "}", "mapping") if "mapping" in context else ("[", "]", "list")
    return (f"YAML syntax: this '{bracket}' {what} is not closed",
            Position(file, opened.line + 1, opened.column + 1),
            f"close it on line {last + 1}: {lines[last].split(' #')[0].strip()}{closing}")


def _unclosed_quote(err: yaml.YAMLError, text: str, file: str) -> tuple[str, Position, str] | None:
    """(message, position, hint) when a quote was never closed: the text ended inside the
    quoted value, or the quote of a later value closed it, and the parser stopped just
    after. The opening quote is the mistake, not where the parser noticed it."""
    context, mark, problem = (getattr(err, name, None) for name in ("context", "context_mark", "problem"))
    at_end = context == "while scanning a quoted scalar" and mark is not None and "end of stream" in str(problem)
    stopped = mark if at_end else getattr(err, "problem_mark", None)
    lines = text.split("\n")
    opened = _runaway_quote(text, lines, stopped.line) if stopped is not None else None
    if opened is None and at_end:
        opened = mark
    if opened is None or opened.line >= len(lines):
        return None
    quote = lines[opened.line][opened.column:opened.column + 1] or '"'
    return ("YAML syntax: this quote is never closed",
            Position(file, opened.line + 1, opened.column + 1, opened.column + 2),
            f"close it on line {opened.line + 1}: {lines[opened.line].split(' #')[0].strip()}{quote}")


def _runaway_quote(text: str, lines: list[str], stopped: int):
    """The start mark of a quoted value that ends on line ``stopped`` (0-based: where the
    parser gave up) after running over lines that read as keys or list items: a quote
    left open, closed only by the next quote of the text. None when there is none."""
    scanner = _BaseLoader(text)  # the scanner of the reader that read the text: tokens with their marks
    try:
        while scanner.check_token():
            token = scanner.get_token()
            if token.start_mark.line > stopped:
                return None
            if isinstance(token, yaml.ScalarToken) and token.style in ('"', "'") and token.end_mark.line == stopped \
                    and any(_STRUCTURE_LINE.match(lines[i]) for i in range(token.start_mark.line + 1, stopped + 1)):
                return token.start_mark
    except yaml.YAMLError:
        return None
    finally:
        scanner.dispose()
    return None


def _within_text(pos: Position, text: str) -> Position:
    """``pos``, or the end of the last line when it is past the end of the text (where a
    parser notices what the text left open): a position no line can be quoted at helps nobody."""
    lines = text.rstrip().split("\n")
    if pos.line <= len(lines):
        return pos
    return Position(pos.file, len(lines), len(lines[-1]) + 1)


_KEY_AT_START = re.compile(r"\s*([A-Za-z0-9_.-]+|'[^']*'|\"[^\"]*\")\s*:")


def _key_read_as_value(text: str, pos: Position) -> str | None:
    """The key of the line at ``pos`` when ``pos`` is that key's own ':' (so a parser
    refusing it there has read the line as more of a value, not as a key)."""
    lines = text.split("\n")
    m = _KEY_AT_START.match(lines[pos.line - 1]) if 0 < pos.line <= len(lines) else None
    return m.group(1) if m is not None and m.end() == pos.column else None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


_UNREADABLE = object()


def _read(text: str):
    """The data of a YAML text, or _UNREADABLE."""
    try:
        return _compose(text, _UniqueKeyLoader)[1]
    except (yaml.YAMLError, RecursionError):
        return _UNREADABLE


def _schema_errors(data, schema_name: str | None) -> int:
    if schema_name is None:
        return 0
    return sum(1 for _ in jsonschema.Draft202012Validator(_validation_schema(schema_name)).iter_errors(data))


# A line that says something about the structure: a key or a list item (not a text's
# continuation, which may be indented freely).
_STRUCTURE_LINE = re.compile(r"\s*(-(\s|$)|[A-Za-z0-9_.'\"-]+\s*:(\s|$))")


def _misindented_line(text: str, pos: Position, duplicate: bool = False,
                      schema_name: str | None = None, here_too: bool = False) -> tuple[Position, int] | None:
    """The line an indentation slip is really on, and the column it belongs at, when the
    parser stopped at a later line.

    A line indented too little closes the mappings above it, and the parser complains only
    at the next line that is indented right; a first entry indented too far, at the entry
    after it. Each line near the complaint is tried at the indentations of its neighbours:
    a change that makes the whole text read is a candidate, and of those the one leaving
    the most regular indentation wins (the complained-of line itself on a tie, so nothing
    moves without a reason). A duplicate key moves only when the text gets more regular:
    a key written twice is usually just that. With ``here_too`` the complained-of line
    itself may be the slip (its key's ':' was refused: it read as more of a value)."""
    lines = text.split("\n")
    at = pos.line - 1
    if not 0 <= at < len(lines) or not lines[at].strip():
        return None
    content = [i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")]
    step = _indent_step(lines, content)
    before = [i for i in content if i < at]
    tried = {at, *before[-4:]}
    closer = next((i for i in reversed(before) if _indent(lines[i]) < _indent(lines[at])), None)
    if closer is not None:  # the key whose block the complained-of line left, and its first entry
        tried.update(i for i in content[content.index(closer):content.index(closer) + 2])
    if content:
        tried.add(content[0])  # the first key, when the whole text is read as indented
    original = _irregularity(lines, content, step)
    best = None
    for j in sorted(tried):
        if j != at and not _STRUCTURE_LINE.match(lines[j]):
            continue
        neighbours = [i for i in content if i != j and abs(content.index(i) - content.index(j)) <= 1] if j in content else []
        indents = {_indent(lines[i]) + d for i in neighbours for d in (0, step, -step)} | {_indent(lines[at])}
        for column in sorted(k for k in indents if k >= 0 and k != _indent(lines[j])):
            fixed = lines[:j] + [" " * column + lines[j].lstrip(" ")] + lines[j + 1:]
            data = _read("\n".join(fixed))
            if data is _UNREADABLE:
                continue
            score = _irregularity(fixed, content, step)
            if duplicate and score >= original:
                continue
            # of two readings as regular, the one the schema accepts better
            key = (score, _schema_errors(data, schema_name), j != at, abs(j - at))
            if best is None or key < best[0]:
                best = (key, j, column)
    if best is None or (best[1] == at and not here_too):
        return None
    _, j, column = best
    return Position(pos.file, j + 1, _indent(lines[j]) + 1), column + 1


def _indent_step(lines: list[str], content: list[int]) -> int:
    """How far the text indents an entry under its key, most often (2 unless it says otherwise)."""
    steps: dict[int, int] = {}
    for a, b in zip(content, content[1:]):
        grow = _indent(lines[b]) - _indent(lines[a])
        if grow > 0 and _opens_block(lines[a]):
            steps[grow] = steps.get(grow, 0) + 1
    return max(steps, key=lambda s: (steps[s], -s)) if steps else 2


def _opens_block(line: str) -> bool:
    """`key:` with nothing after it (a comment aside): the lines after it are its entries."""
    return re.search(r"^\s*(- )?[^#'\"{\[]*:\s*(#.*)?$", line) is not None


def _irregularity(lines: list[str], content: list[int], step: int) -> int:
    """Keys opening a block whose first entry is not one step further in."""
    odd = 0
    for a, b in zip(content, content[1:]):
        if _opens_block(lines[a]) and _indent(lines[b]) - _indent(lines[a]) != step:
            odd += 1
    return odd


# PyYAML's wording of the common slips (parser states and token names) → plain words
# and what to do. Checked in order; the first pattern found in the problem wins. libyaml's
# own wording ("did not find expected key") is met when the pure-Python parser stops
# elsewhere (see _same_stop), and is told in the same words.
_PLAIN_WORDS: list[tuple[str, str, str]] = [
    (r"expected <block end>, but found '?(-|<block sequence start>)",
     "this list item is indented differently from the lines above it",
     "fix its indentation: line up the '-' with the other items of the same list"),
    (r"expected <block end>, but found|did not find expected key|did not find expected '-' indicator",
     "this line is indented differently from the lines above it",
     "fix its indentation: line it up with the other keys of the same mapping, or indent it under its key"),
    (r"mapping values are not allowed (here|in this context)",
     "a ': ' here would start a key inside a value",
     "quote the value (\"...: ...\"), or put the key on a line of its own"),
    (r"could not find expected ':'",
     "a key has no ':' after it, or a line is indented where a key was expected",
     "write 'key: value' (a space after the colon), or fix the line's indentation"),
    (r"found character '\\t' that cannot start any token",
     "a tab character: YAML indents with spaces only", "replace the tab by spaces"),
    (r"expected ',' or '}'",
     "a '{...}' mapping is not closed, or two of its entries lack a ',' between them",
     "close it with '}' and separate its entries with ', '"),
    (r"expected ',' or '\]'",
     "a '[...]' list is not closed, or two of its items lack a ',' between them",
     "close it with ']' and separate its items with ', '"),
    (r"found unexpected end of stream|found unexpected end",
     "the text ends inside a quoted text or a bracket that was never closed",
     "close the quote or bracket that starts before this point"),
    (r"expected a comment or a line break|did not find expected comment or line break",
     "unexpected text after a value on this line", "put it on a line of its own, or quote the whole value"),
    (r"found undefined alias", "this '*name' refers to no '&name' anchor above it",
     "define the anchor first, or quote the text if it is not an alias"),
    (r"expected alphabetic or numeric character",
     "a '&' or '*' must be followed by a name (an anchor or an alias)",
     "write the name right after it (&name, *name), or quote the value if it is a text"),
    (r"found character '(.)' that cannot start any token",
     "a value cannot start with this character in YAML", "quote the value ('...')"),
    (r"found unknown escape character",
     "a '\\' in a \"...\" text starts an escape, and this one is not an escape YAML knows",
     "write '\\\\' for a backslash, or quote the text with ' instead, where '\\' is plain"),
    (r"expected chomping or indentation indicators",
     "after '|' or '>' only '-', '+' or a digit may follow on the same line",
     "start the text on the next line, indented under its key"),
    (r"found undefined tag handle|expected '>', but found|expected URI",
     "YAML tags ('!name') are not used in these tables", "remove the tag and write the value alone"),
    (r"directive", "a '%' directive line: these tables take none",
     "remove the line (quote the value if it is a text starting with '%')"),
]


def _plain_words(problem: str, context: str, text: str = "", pos: Position | None = None) -> tuple[str, str | None]:
    """A YAML syntax problem told in plain words, and a hint."""
    if "another document" in problem or "single document" in context:
        lines = text.split("\n")
        at = pos.line - 1 if pos is not None and 0 < pos.line <= len(lines) else len(lines)
        if at < len(lines) and lines[at].startswith("---"):
            return ("a second YAML document ('---') starts here, but a table file holds only one",
                    "remove the line, or move what follows it to a file of its own")
        ended = next((i for i in range(at - 1, -1, -1) if lines[i].startswith("...")), None)
        if ended is not None:
            return (f"a second YAML document starts here, after the '...' on line {ended + 1} that ends the first, "
                    "but a table file holds only one", f"remove the '...' on line {ended + 1}")
        return ("a second YAML document starts here, but a table file holds only one",
                "remove what ends the first, or move what follows to a file of its own")
    if "expected '<document start>'" in problem or "expected <document start>" in problem:
        lines = text.split("\n")
        at = pos.line - 1 if pos is not None and 0 < pos.line <= len(lines) else len(lines)
        ended = next((i for i in range(at - 1, -1, -1) if lines[i].startswith("...")), None)
        if ended is not None:
            return (f"more data follows the '...' on line {ended + 1}, which ends the data of the file",
                    f"remove the '...' on line {ended + 1}")
        return ("more text follows where the data of the file has ended (a closing bracket too many?)",
                "remove it, or the bracket before it that closes too early")
    for pattern, words, hint in _PLAIN_WORDS:
        found = re.search(pattern, problem)
        if found:
            return (words.replace("this character", repr(found.group(1))) if found.groups() else words), hint
    # otherwise PyYAML's own words, without its token names nor a sentence starting "but"
    problem = re.sub(r"<(block|flow) (\w+)( \w+)*>", lambda m: m.group(0)[1:-1], problem)
    problem = re.sub(r"^but found", "found", problem).replace(", but found", ", found")
    return problem, "check the indentation and that every 'key: value' has a space after the colon"


@lru_cache(maxsize=None)
def schema(name: str) -> dict:
    text = resources.files("rulecraft.schemas").joinpath(name).read_text(encoding="utf-8")
    return json.loads(text)


# Keywords that only describe: a "$ref" with no other sibling validates as its target.
_ANNOTATIONS = {"description", "title", "$comment"}


@lru_cache(maxsize=None)
def _validation_schema(name: str) -> dict:
    """The schema with each plain reference ("#/$defs/x", or "other.schema.json#/$defs/x"
    into another schema of ``schemas/``, nothing else beside it but descriptions) replaced
    by its target: jsonschema resolves a reference at every use, which was most of the
    validation time, and would look a reference to another file up on the network. The
    same keywords are checked in the same order, so the same errors come out at the same
    data paths."""

    def inline(node, file: str, active: tuple):
        if isinstance(node, list):
            return [inline(x, file, active) for x in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and "#/$defs/" in ref and set(node) - {"$ref"} <= _ANNOTATIONS:
            other, _, target = ref.partition("#/$defs/")
            other = other or file
            defs = schema(other).get("$defs", {})
            if target in defs and "/" not in target and (other, target) not in active:
                return inline(defs[target], other, active + ((other, target),))
            if other != file:  # a cycle through another file: no local reference could stand for it
                raise ValueError(f"schema {name}: cannot inline the recursive reference {ref}")
        return {k: (v if k == "$defs" else inline(v, file, active)) for k, v in node.items()}

    return inline(schema(name), name, ())


def validate(data: Any, schema_name: str, located: Located, bag: DiagnosticBag) -> bool:
    """Validate against a schema in ``schemas/``; report every error at its YAML position,
    each slip once: not again as the consequences it has elsewhere in the same mapping."""
    sch = _validation_schema(schema_name)
    validator = jsonschema.Draft202012Validator(sch)
    errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    # A line indented one level too far or too little moves keys between mappings: it is
    # told once, at that line, and not again as the errors of the keys it moved.
    slips, moved, moved_required = _indentation_slips(data, located, sch, errors)
    slips += _swallowed_keys(data, located, errors, moved_required, bag.sources.lines(located.file))
    for message, hint, pos in slips:
        bag.error(message, pos, hint, code="schema")

    def explained(path) -> bool:
        return any(tuple(path[:len(m)]) == m for m in moved)

    # A misspelt required key shows as an unknown key and as a missing one: report the
    # unknown key only, with the name it should have.
    misspelt: set[tuple] = set(moved_required)
    for error in errors:
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            required = [k for k in error.schema.get("required", []) if k not in error.instance]
            for key in _extra_keys(error):
                if did_you_mean(str(key), required):
                    misspelt.add((tuple(error.absolute_path), _closest(str(key), required)))
    for error in errors:
        path = list(error.absolute_path)
        if error.validator == "required" and isinstance(error.instance, dict):
            missing = [k for k in error.validator_value if k not in error.instance]
            if missing and all((tuple(path), k) in misspelt for k in missing):
                continue
        if error.validator == "additionalProperties":
            # one diagnostic per unknown key, each at its own line
            allowed = list(error.schema.get("properties", {}))
            where = "/".join(map(str, path)) or "the file"
            for key in _extra_keys(error):
                if explained(path + [key]):
                    continue
                hint = _split_text_hint(located, path, key, bag.sources.lines(located.file)) or did_you_mean(str(key), allowed) or \
                    ("allowed keys: " + ", ".join(allowed) if allowed else None)
                bag.error(f"unknown key '{key}' in {where}", located.key_position(path + [key]), hint, code="schema")
            continue
        if explained(path):
            continue
        message, hint, pos = _explain(error, located, path, bag.sources.lines(located.file))
        bag.error(message, pos, hint, code="schema")
    return not errors


# The end of a piece of a sentence: a key ending so is rather the rest of a text.
_SENTENCE_END = ".!?;:)"


def _reads_as_sentence(node: yaml.Node) -> bool:
    """A plain key that reads as words of a sentence, not as a name: words with spaces
    between them, or one that ends a sentence."""
    return isinstance(node, yaml.ScalarNode) and node.style in (None, "") and \
        (bool(re.search(r"\s", node.value.strip())) or node.value.rstrip().endswith(tuple(_SENTENCE_END)))


def _split_text_hint(located: Located, path: list, key, lines: list[str]) -> str | None:
    """The hint of an unknown key that is the rest of a text cut at a comma: inside
    '{ }' an unquoted comma ends a value, so '{text: Red, or blue if none is left.}'
    reads as the text 'Red' and a key 'or blue if none is left.'. Such a key reads as
    words (or a sentence's end), has no value of its own, and follows an unquoted text
    on its line."""
    mapping = located._node(path)
    if not isinstance(mapping, yaml.MappingNode) or not mapping.flow_style:
        return None
    pairs = mapping.value
    at = next((i for i, (k, _) in enumerate(pairs) if k.value == str(key)), None)
    if at is None or not _is_empty(pairs[at][1]) or not _reads_as_sentence(pairs[at][0]):
        return None
    before = at - 1
    while before >= 0 and _is_empty(pairs[before][1]) and _reads_as_sentence(pairs[before][0]):
        before -= 1  # 'a, b, c.': a text cut at each of its commas
    if before < 0:
        return None
    text_key, text = pairs[before]
    end = pairs[at][0].end_mark
    if not isinstance(text, yaml.ScalarNode) or text.style not in (None, "") or not text.value \
            or text.start_mark.line != end.line or text.tag != yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG:
        return None
    line = lines[end.line] if end.line < len(lines) else ""
    whole = line[text.start_mark.column:end.column] or f"{text.value}, {key}"
    quoted = '"' + whole + '"' if '"' not in whole else "'" + whole.replace("'", "''") + "'"
    return (f"inside {{ }} a comma ends an unquoted text, so '{text_key.value}' reads only {text.value!r} and the "
            f"rest as a key: quote the whole text, {text_key.value}: {quoted}")


def _is_empty(node: yaml.Node) -> bool:
    """A value not written at all (a key alone in '{ }'), which YAML reads as null."""
    return isinstance(node, yaml.ScalarNode) and node.value == "" and node.style in (None, "")


def _closest(name: str, candidates: list[str]) -> str:
    return (difflib.get_close_matches(name, sorted(candidates), n=1, cutoff=0.6) or [""])[0]


def _extra_keys(error) -> list:
    """The unknown keys of an additionalProperties error."""
    allowed = error.schema.get("properties", {})
    return [k for k in error.instance if k not in allowed]


def _branches(node) -> list[dict]:
    """A schema and the alternatives it allows (oneOf, anyOf, allOf, if/then/else), flattened."""
    out, todo = [], [node]
    while todo:
        s = todo.pop()
        if not isinstance(s, dict):
            continue
        out.append(s)
        for word in ("oneOf", "anyOf", "allOf"):
            todo.extend(s.get(word) or [])
        todo.extend(s[word] for word in ("then", "else") if word in s)
    return out


def _schemas_at(sch: dict, path) -> list[dict]:
    """Every schema that may apply to the data at ``path``."""
    current = [sch]
    for step in path:
        following = []
        for s in (b for c in current for b in _branches(c)):
            if isinstance(step, int):
                if isinstance(s.get("items"), dict):
                    following.append(s["items"])
            elif step in (s.get("properties") or {}):
                following.append(s["properties"][step])
            elif isinstance(s.get("additionalProperties"), dict):
                following.append(s["additionalProperties"])
        current = following
    return current


def _declared_keys(sch: dict, path) -> set[str]:
    """The keys a schema names for the mapping at ``path`` (not those any name may take)."""
    return {k for s in _schemas_at(sch, path) for b in _branches(s) for k in (b.get("properties") or {})}


def _indentation_slips(data, located: Located, sch: dict, errors) -> tuple[list, set, set]:
    """Keys an indentation slip moved into the wrong mapping, told as one error each.

    Two shapes: a key of a mapping indented under the entry above it (`setup:` pushed into
    `seats:`, a section pushed into the one above), and a key whose entries are not
    indented under it (`kinds:` indented as far as its kinds). Returns the errors to tell
    (message, hint, position), the data paths whose schema errors they explain, and the
    (mapping path, key) pairs whose "required" errors they explain."""
    implicated: set[tuple] = set()  # paths with an error, unknown keys included
    missing: set[tuple] = set()
    for error in errors:
        path = tuple(error.absolute_path)
        implicated.add(path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            implicated.update(path + (k,) for k in _extra_keys(error))
        if error.validator == "required" and isinstance(error.instance, dict):
            missing.update((path, k) for k in error.validator_value if k not in error.instance)
    if not implicated:
        return [], set(), set()

    def touched(prefix: tuple) -> bool:
        return any(p[:len(prefix)] == prefix for p in implicated)

    line = lambda path: located.key_position(list(path)).line
    slips, moved, moved_required = [], set(), set()
    todo: list[tuple] = [()]
    while todo:
        here = todo.pop()
        mapping = _at(data, here)
        if not touched(here):
            continue
        if isinstance(mapping, list):
            todo.extend(here + (i,) for i, v in enumerate(mapping) if isinstance(v, (dict, list)))
            continue
        if not isinstance(mapping, dict):
            continue
        declared = _declared_keys(sch, here)
        todo.extend(here + (k,) for k, v in mapping.items() if isinstance(v, (dict, list)))
        for child, value in mapping.items():
            if not isinstance(value, dict):
                continue
            inner = here + (child,)
            own = _declared_keys(sch, inner)
            keys = sorted(value, key=lambda k: line(inner + (k,)))
            for key in keys:
                if not isinstance(key, str) or key not in declared or key in mapping or key in own:
                    continue
                if not (touched(inner + (key,)) or (here, key) in missing):
                    continue
                after = [k for k in keys if line(inner + (k,)) >= line(inner + (key,))]
                moved.update(inner + (k,) for k in after)
                moved_required.update((here, k) for k in after if (here, k) in missing)
                pos = located.key_position(list(inner + (key,)))
                if here == ():
                    slips.append((f"'{key}' is a section of its own, but it is indented inside '{child}'",
                                  f"move '{key}:' to the left margin (no spaces before it)", pos))
                else:
                    column = located.key_position(list(inner)).column
                    owner = "/".join(map(str, here))
                    slips.append((f"'{key}' belongs to '{owner}', but it is indented inside '{child}'",
                                  f"line '{key}:' up with the other keys of '{owner}' (column {column})", pos))
                break
        keys = sorted(mapping, key=lambda k: line(here + (k,)))
        for prev, key in zip(keys, keys[1:]):
            # a key of the entry above, indented as far as that entry: read as an entry itself
            if key in declared or not isinstance(mapping[prev], (dict, type(None))) or not touched(here + (key,)):
                continue
            entry_keys = _declared_keys(sch, here + (prev,))
            if not isinstance(key, str) or key not in entry_keys or key in (mapping[prev] or {}):
                continue
            after = [k for k in keys[keys.index(key):] if k in entry_keys and k not in (mapping[prev] or {})]
            moved.update(here + (k,) for k in after)
            moved_required.update((here + (prev,), k) for k in after)
            siblings = list(mapping[prev] or {})
            column = located.key_position(list(here + (prev, siblings[0]))).column if siblings else \
                located.key_position(list(here + (prev,))).column + 2
            slips.append((f"'{key}' belongs to '{prev}', but it is indented as far as '{prev}'",
                          f"indent '{key}:' under '{prev}', to column {column}",
                          located.key_position(list(here + (key,)))))
            break
        for i, key in enumerate(keys):
            # an empty entry followed by keys of its own, not indented under it
            if mapping[key] is not None or i + 1 == len(keys) or not touched(here + (key,)):
                continue
            entry_keys = _declared_keys(sch, here + (key,))
            strays = []
            for k in keys[i + 1:]:
                if k not in entry_keys or k in declared:
                    break
                strays.append(k)
            if strays:
                moved.update(here + (k,) for k in [key] + strays)
                slips.append((f"'{strays[0]}' is not indented under '{key}', so it is read beside it",
                              f"indent the entries of '{key}' under it (two more spaces)",
                              located.key_position(list(here + (strays[0],)))))
        for i, key in enumerate(keys):
            if mapping[key] is not None or key not in declared:
                continue
            strays = []
            for k in keys[i + 1:]:
                if k in declared:
                    break
                strays.append(k)
            if not strays or not touched(here + (strays[0],)):
                continue
            moved.update(here + (k,) for k in [key] + strays)
            pos = located.key_position(list(here + (key,)))
            if here == () and pos.column > 1:
                slips.append((f"'{key}:' is indented, so the lines under it are read beside it, not inside it",
                              f"move '{key}:' to the left margin (no spaces before it)", pos))
            else:
                slips.append((f"'{strays[0]}' is not indented under '{key}', so it is read beside it",
                              f"indent the entries of '{key}' under it (two more spaces)",
                              located.key_position(list(here + (strays[0],)))))
    return slips, moved, moved_required


def _swallowed_keys(data, located: Located, errors, moved_required: set, lines: list[str]) -> list:
    """Required keys read as part of a text written over several lines above them ('>' or
    '|'): a key indented as far as such a text continues it. Told once, at the key's line;
    the (mapping path, key) pairs are added to ``moved_required``."""
    slips = []
    for error in errors:
        if error.validator != "required" or not isinstance(error.instance, dict):
            continue
        path = tuple(error.absolute_path)
        for key in error.validator_value:
            if key in error.instance or (path, key) in moved_required or not isinstance(key, str):
                continue
            for owner, value in error.instance.items():
                node = located._node(list(path + (owner,)))
                if not isinstance(value, str) or node is None or \
                        not re.search(rf"(^|\s){re.escape(key)}:(\s|$)", value):
                    continue
                first, last = node.start_mark.line, min(node.end_mark.line, len(lines) - 1)
                found = next((n for n in range(first, last + 1) if re.match(rf"\s*{re.escape(key)}\s*:", lines[n])), None)
                if found is None:
                    continue
                moved_required.add((path, key))
                column = located.key_position(list(path + (owner,))).column
                slips.append((f"'{key}' is read as part of the text of '{owner}' above it",
                              f"a line indented as far as a text written over several lines continues it: "
                              f"line '{key}:' up with '{owner}:' (column {column})",
                              Position(located.file, found + 1, _indent(lines[found]) + 1)))
                break
    return slips


def _at(data, path):
    for step in path:
        if isinstance(data, dict) and step in data:
            data = data[step]
        elif isinstance(data, list) and isinstance(step, int) and step < len(data):
            data = data[step]
        else:
            return None
    return data


_TYPE_WORDS = {"integer": "a whole number (digits, no quotes)", "number": "a number", "string": "a text",
               "boolean": "true or false", "array": "a list ([a, b] or '- ' items)",
               "object": "'key: value' entries, one a line", "null": "nothing"}
# The kind a schema type asks for, in the words of a message.
_KIND_WORDS = {"integer": "a whole number", "number": "a number", "string": "a text", "boolean": "true or false",
               "array": "a list", "object": "a table of keys and values", "null": "nothing"}


def _found(value: Any, node: yaml.Node | None) -> str:
    """What a value of the wrong type is, in words (not the name of a Python type)."""
    if value is None:
        return "an empty value"
    written = node.value if isinstance(node, yaml.ScalarNode) else None
    if isinstance(value, bool):
        return f"the yes/no value {written or str(value).lower()}"
    if isinstance(value, int):
        return f"the whole number {written or value}"
    if isinstance(value, float):
        return f"the number {written or value}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:40] + "…"
        return f"the text {shown!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table of keys and values"
    if written is not None:  # a date, which YAML reads by its look
        return f"{written!r}, which YAML reads as a date"
    return "a value of another kind"


def _as_name(text: str) -> str | None:
    """A name (letters, digits and _, not starting with a digit) close to ``text``, or None."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    name = re.sub(r"[^A-Za-z0-9_]+", "_", ascii_text).strip("_")
    rest = name.lstrip("0123456789_")
    name = rest if re.search(r"[A-Za-z]", rest) else "_" + name if name else ""
    return name or None


def _name_hint(value: str) -> str:
    if re.search(r"\{[A-Za-z_][A-Za-z0-9_]*\}", value):  # slots: a line meant to make one thing per value
        return "a name with {property} slots makes one component per value only with 'each': list the values " \
            "there, e.g. each: {shape: [round, square]}"
    fixed = _as_name(value)
    return "a name is made of letters, digits and _, and does not start with a digit" + \
        (f": write '{fixed}'" if fixed else "")


def _dotted_hint(value: str) -> str:
    kind, dot, prop = value.partition(".")
    fixed = [_as_name(kind), _as_name(prop)] if dot else [None]
    return "write the kind's name, a '.', and the property's name, each made of letters, digits and _ and not " \
        "starting with a digit" + (f": '{fixed[0]}.{fixed[1]}'" if all(fixed) else "")


# What a value a schema "pattern" refuses should be, in words: pattern → (what the value
# is not, the hint for the value). Every pattern of schemas/ is here
# (tests/test_15_yaml_hints_s35.py), so no regular expression reaches a message.
_PATTERN_WORDS = {
    "^[A-Za-z_][A-Za-z0-9_]*$": ("a name", _name_hint),
    "^[A-Za-z_{][A-Za-z0-9_{}]*$": ("a name with {property} slots",
                                    lambda v: "write letters, digits and _, with a {property} slot for each property "
                                              "listed under 'each': '{shape}_{number}'"),
    "^[A-Za-z_][A-Za-z0-9_]*\\.[A-Za-z_][A-Za-z0-9_]*$": ("a kind and a property joined by '.'", _dotted_hint),
    "^[a-z]{2,3}$": ("a language code",
                     lambda v: "write the language's code of two or three small letters, the file's own name "
                               "(en, fr, de)"),
    "^m[0-9a-f]{9}$": ("a mutant id",
                       lambda v: "copy the id as 'rulecraft mutate --list' shows it: 'm' and nine digits or "
                                 "letters from a to f"),
    "^[^:]+:[0-9]+:[0-9]+$": ("a place in a file",
                              lambda v: "write FILE:LINE:COLUMN, the file relative to the rule-set folder (as "
                                        "'rulecraft mutate --list' shows it)"),
    "^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$": ("a rule-set name",
                                           lambda v: "write at most 100 letters, digits, _, . and -, not starting "
                                                     "with . or -"),
    "^p[0-9]{1,3}$": ("a seat", lambda v: "write 'p' and the seat's number (p1, p2, ...)"),
    "^[0-9a-f]{64}$": ("a SHA-256 digest", lambda v: "write 64 digits or letters from a to f"),
}


def _explain_pattern(error: jsonschema.ValidationError, located: Located, path: list,
                     where: str) -> tuple[str, str | None, Position]:
    value = str(error.instance)
    shown = value if len(value) <= 40 else value[:40] + "…"
    what, hint = _PATTERN_WORDS.get(str(error.validator_value), ("in the form asked for", None))
    if "propertyNames" in error.absolute_schema_path:  # a key of the mapping at ``path``
        return (f"{where}: the key {shown!r} is not {what}", hint(value) if hint else _bound_hint(error),
                located.key_position(path + [error.instance]))
    return f"{where}: {shown!r} is not {what}", hint(value) if hint else _bound_hint(error), located.position(path)


def _explain(error: jsonschema.ValidationError, located: Located, path: list,
             lines: list[str] | None = None) -> tuple[str, str | None, Position]:
    where = "/".join(map(str, path)) or "the file"
    if error.validator == "additionalProperties":
        extras = [k for k in error.instance if k not in error.schema.get("properties", {})]
        allowed = list(error.schema.get("properties", {}))
        key = extras[0] if extras else "?"
        hint = did_you_mean(str(key), allowed) or ("allowed keys: " + ", ".join(allowed) if allowed else None)
        return f"unknown key '{key}' in {where}", hint, located.key_position(path + [key])
    if error.validator == "required":
        missing = [k for k in error.validator_value if isinstance(error.instance, dict) and k not in error.instance]
        # one error for each key missing: the hint names this one
        missing = [k for k in missing if error.message.startswith(repr(k))] or missing
        hint = f"add '{missing[0]}: ...' to it" if missing else None
        return f"{where}: {error.message}", hint, located.position(path)
    if error.validator == "enum":
        options = error.validator_value
        hint = did_you_mean(str(error.instance), map(str, options)) or "one of: " + ", ".join(map(str, options))
        return f"{where}: {error.instance!r} is not an allowed value", hint, located.position(path)
    if error.validator == "type":
        wanted = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        hint = "write " + " or ".join(_TYPE_WORDS.get(str(t), str(t)) for t in wanted)
        if "integer" in wanted and isinstance(error.instance, float):
            # a fraction where whole numbers are counted: quoting it would make it a text
            hint = "write a whole number: the rules count in whole numbers"
        elif "string" in wanted and not isinstance(error.instance, (type(None), str, list, dict)):
            hint += " (quote it: YAML reads it as another kind of value)"
        expected = " or ".join(_KIND_WORDS.get(str(t), str(t)) for t in wanted)
        found = _found(error.instance, located._node(path))
        return f"{where}: expected {expected}, found {found}", hint, located.position(path)
    if error.validator == "pattern":
        return _explain_pattern(error, located, path, where)
    if error.validator in ("oneOf", "anyOf") and error.context:
        # Prefer the branch whose type matched: its complaint is the real one.
        # Of those, the deepest error is the branch that matched furthest: the slip is
        # there, not in the alternatives it was never meant to be.
        context = _key_compatible(error) or list(error.context)
        relevant = [e for e in context if e.validator != "type"] or context
        deepest = max(len(e.absolute_path) for e in relevant)
        best = jsonschema.exceptions.best_match([e for e in relevant if len(e.absolute_path) == deepest])
        if best.validator == "additionalProperties" and list(best.absolute_path) == path:
            # an unknown key of a mapping with several forms: the keys of every form
            forms = [list(b.get("properties", {})) for b in error.validator_value if isinstance(b, dict)]
            allowed = list(dict.fromkeys(k for form in forms for k in form))
            key = next((k for k in error.instance if k not in allowed), "?")
            hint = (_split_text_hint(located, path, key, lines) if lines is not None else None) \
                or did_you_mean(str(key), allowed) or ("one of: " + ", ".join(allowed) if allowed else None)
            return f"unknown key '{key}' in {where}", hint, located.key_position(path + [key])
        return _explain(best, located, list(best.absolute_path), lines)
    return f"{where}: {error.message}", _bound_hint(error), located.position(path)


def _key_compatible(error: jsonschema.ValidationError) -> list:
    """Of a oneOf's (anyOf's) complaints about a mapping, those of the alternatives that
    know every key it has: ``cooperative: true`` is the cooperative form with a value of
    the wrong type, not a teams form with an unknown key."""
    if not isinstance(error.instance, dict):
        return []
    branches = error.validator_value if isinstance(error.validator_value, list) else []
    fitting = {i for i, branch in enumerate(branches)
               if isinstance(branch, dict) and "properties" in branch and "patternProperties" not in branch
               and branch.get("additionalProperties") is False and set(error.instance) <= set(branch["properties"])}
    return [e for e in error.context if e.relative_schema_path and e.relative_schema_path[0] in fitting]


def _bound_hint(error: jsonschema.ValidationError) -> str | None:
    """What a value breaking a bound, a length or a pattern should be instead; else what
    the schema says the field is."""
    v = error.validator_value
    bounds = {
        "minimum": f"the least allowed is {v}",
        "exclusiveMinimum": f"write a number above {v}",
        "maximum": f"the most allowed is {v}",
        "minItems": f"give at least {v} item(s)" if v != 1 else "give at least one item",
        "maxItems": f"give at most {v} item(s)",
        "minProperties": f"give at least {v} entries" if v != 1 else "give it at least one entry",
        "minLength": "write a text that is not empty" if v == 1 else f"write at least {v} characters",
        "maxLength": f"shorten it to {v} characters at most",
        "const": f"write {v!r}",
        "uniqueItems": "list each item once",
    }
    hint = bounds.get(str(error.validator))
    description = error.schema.get("description") if isinstance(error.schema, dict) else None
    if hint and description and error.validator in ("minItems", "minProperties", "const"):
        hint = f"{hint}. {description}"
    return hint or description or None


def load_and_validate(path: Path, schema_name: str, bag: DiagnosticBag, display: str | None = None) -> tuple[Any, Located]:
    file = display or str(path)
    text = read_source_text(path, bag, file)
    if text is None:
        return None, Located(file, None)
    data, located = load_yaml_text(text, file, bag, schema_name)
    if located.root is not None:
        validate(data, schema_name, located, bag)
    return data, located
