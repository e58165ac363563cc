"""Rule text → AST. The direct parser (direct_parser.py) runs the LALR automaton of the
grammar and builds positioned AST nodes as it reduces; a definition it is not sure of (a
syntax error above all) is parsed by Lark, whose tree a transformer turns into the same
AST, and whose errors are worded here.

Each top-level definition is parsed on its own, so a syntax error in one definition
never hides the errors of the next: a file with three broken definitions gets three
diagnostics in one run.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from typing import TYPE_CHECKING

from . import ast, direct_parser, disk_cache
from .diagnostics import DiagnosticBag, Position, source_lines, with_article
from .limits import MAX_NUMBER_DIGITS, MAX_SYNTAX_ERRORS_PER_FILE
from .source_text import read_source_text

if TYPE_CHECKING:
    from lark import Token

# Lark's side of parsing (lark_parse.py) is imported when a definition needs it: a load
# of rule files that all parse never imports Lark.
_LARK_SIDE = {"_RulesIndenter", "lark_parser", "parse_with_lark", "_syntax_message"}


def __getattr__(name: str):
    if name in _LARK_SIDE:
        from . import lark_parse

        return getattr(lark_parse, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


LARK_OPTIONS = dict(parser="lalr", propagate_positions=True, maybe_placeholders=True)


def grammar_text() -> str:
    return resources.files(__package__).joinpath("grammar.lark").read_text(encoding="utf-8")


DEFINITION_START = re.compile(r"^(action|procedure|function|trigger|victory|reaction|obligation|script|heuristic)\b")


def _split_definitions(text: str) -> list[tuple[int, str]]:
    """Cut a file into chunks at every line that starts a definition at column 1.

    Returns (first line number, chunk text). Lines before the first definition form
    their own chunk so stray text there is still reported.
    """
    lines = source_lines(text)
    chunks: list[tuple[int, list[str]]] = []
    current: list[str] = []
    start = 1
    for number, line in enumerate(lines, start=1):
        if line and not line[0].isspace() and not line.startswith("#") and current and any(
            l.strip() and not l.lstrip().startswith("#") for l in current
        ):
            chunks.append((start, current))
            current, start = [], number
        current.append(line)
    if current:
        chunks.append((start, current))
    return [(s, "\n".join(c) + "\n") for s, c in chunks]


def parse_text(text: str, file: str, bag: DiagnosticBag) -> ast.RuleFile:
    """Parse rule text; syntax errors go to ``bag``; returns the definitions that parsed.

    A text parsed before (same name, same text, same parser) is taken from the disk
    cache: editing one rule file then costs the parse of that file only."""
    bag.sources.add(file, text)
    key = disk_cache.parse_key(file, text) if disk_cache.cache_dir() is not None else None
    cached = disk_cache.load_parse(key) if key is not None else None
    if cached is not None:
        definitions, diagnostics = cached
        for diagnostic in diagnostics:
            bag.add(diagnostic)
        return ast.RuleFile(Position(file, 1, 1), file, definitions)
    before = len(bag.items)
    rule_file = _parse(text, file, bag)
    if key is not None:
        disk_cache.store_parse(key, rule_file.definitions, bag.items[before:])
    return rule_file


def _parse(text: str, file: str, bag: DiagnosticBag) -> ast.RuleFile:
    definitions: list[ast.Definition] = []
    if "\t" in text:
        for number, line in enumerate(source_lines(text), start=1):
            if line.startswith("\t") or (line[: len(line) - len(line.lstrip())].find("\t") >= 0):
                bag.warning("tab used for indentation", Position(file, number, 1), "indent with spaces; a tab counts as 4")
                break
    syntax_errors = 0
    for start, chunk in _split_definitions(text):
        if not chunk.strip():
            continue
        if syntax_errors >= MAX_SYNTAX_ERRORS_PER_FILE:
            bag.error(f"more than {MAX_SYNTAX_ERRORS_PER_FILE} syntax errors: the rest of the file is not read",
                      Position(file, start, 1), "fix the errors above and check again")
            break
        # The direct parser builds the AST as it parses; what it is not sure of (a
        # syntax error above all) Lark parses, and words the error.
        found = DiagnosticBag()
        try:
            result = direct_parser.parse_definition(chunk, start, file, _AstBuilder(file, found))
        except (direct_parser.Unsure, _BuildError):
            result = None
        if result is not None:
            for diagnostic in found.items:
                bag.add(diagnostic)
            definitions.extend(result)
            continue
        from .lark_parse import parse_with_lark

        result = parse_with_lark(chunk, start - 1, file, bag)
        if result is None:
            syntax_errors += 1
            continue
        definitions.extend(result)
    return ast.RuleFile(Position(file, 1, 1), file, definitions)


def unparsed_parts(text: str, definitions: list[ast.Definition]) -> list[str]:
    """The definitions of ``text`` that did not parse (a syntax error left them out), as
    text: a check that misses a name defined or used there must not report it again."""
    lines = sorted(d.name_pos.line for d in definitions if d.name_pos is not None)
    chunks = _split_definitions(text)
    out = []
    for i, (start, chunk) in enumerate(chunks):
        end = chunks[i + 1][0] if i + 1 < len(chunks) else 10**9
        if not any(DEFINITION_START.match(line) for line in source_lines(chunk)):
            continue  # comments and stray text before the first definition
        if not any(start <= line < end for line in lines):
            out.append(chunk)
    return out


def parse_file(path: str | Path, bag: DiagnosticBag, display_name: str | None = None) -> ast.RuleFile:
    display = display_name or str(path)
    text = read_source_text(Path(path), bag, display)
    if text is None:
        return ast.RuleFile(Position(display, 1, 1), display, [])
    return parse_text(text, display, bag)


class _BuildError(Exception):
    pass


# Words of the language. Keywords are recognised by context, so the parser alone would
# accept `let for = 1`; names a rule binds or calls must not be one of them.
RESERVED = frozenset("""
action procedure function trigger victory reaction obligation within possible window text cite with in where require else cost limit per as on when
script prefer heuristic feature weight believe odds
winners by do let set if elif for each repeat times choose from prompt move to of top bottom shuffle emit
stop break and or not true false none list
""".split())

# Words of the language that are not reserved: each is a keyword only in its own place
# (the first word of a statement; a clause of a comprehension) and any rule may use it
# as a name elsewhere. Editors and the rules site highlight them with the keywords.
CONTEXTUAL = frozenset("""
gain spend reset reveal hide run
highest lowest ascending descending
""".split())


def _tok_pos(file: str, token: Token) -> Position:
    return Position(file, token.line, token.column, token.end_column)


def _unquote(token: Token) -> str:
    raw = str(token)[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), raw)


class _AstBuilder:
    """AST nodes of the rules, one method per rule of the grammar (given the rule's
    position and its children, as Lark shapes them). Clause checks (what may appear in
    which definition) live here. The direct parser calls it as it reduces; after Lark's
    parse, _TreeToAst does."""

    def __init__(self, file: str, bag: DiagnosticBag):
        self.file = file
        self.bag = bag

    def p(self, meta: Position) -> Position:
        return meta

    def bound(self, token: Token) -> str:
        """A name the rule introduces (a variable, parameter or callable definition)."""
        name = str(token)
        if name in RESERVED:
            self.bag.error(f"'{name}' is a reserved word of the language", _tok_pos(self.file, token),
                           f"'{name}' is a reserved word of the language and cannot be used as a name; pick another name")
        return name

    # ---- top level
    def start(self, meta, children):
        return [c for c in children if c is not None]

    def _definition(self, cls, meta, name: Token, clauses, allowed: set[str], **extra):
        node = cls(pos=self.p(meta), name=str(name), name_pos=_tok_pos(self.file, name), file=self.file, **extra)
        seen: set[str] = set()
        for clause_kind, pos, payload in clauses:
            if clause_kind not in allowed:
                self.bag.error(f"'{clause_kind}' is not allowed in {node.kind} '{node.name}'", pos,
                               f"{with_article(node.kind)} takes: " + ", ".join(sorted(allowed)))
                continue
            single = clause_kind in {"text", "cite", "do", "=", "on", "when", "winners", "where", "by", "within", "possible"}
            if single and clause_kind in seen:
                self.bag.error(f"'{clause_kind}' given twice in {node.kind} '{node.name}'", pos,
                               f"{with_article(node.kind)} has one '{clause_kind}': merge the two, or remove one")
                continue
            seen.add(clause_kind)
            self._apply_clause(node, clause_kind, payload)
        return node

    def _apply_clause(self, node, kind, payload):
        if kind == "text":
            node.text = payload
        elif kind == "cite":
            node.cite = payload
        elif kind == "with":
            node.params.append(payload)
        elif kind == "require":
            node.requires.append(payload)
        elif kind == "cost":
            node.costs.append(payload)
        elif kind == "limit":
            node.limits.append(payload)
        elif kind == "do":
            node.body = payload
        elif kind == "=":
            node.value = payload
        elif kind == "on":
            node.event, node.event_pos = payload
        elif kind == "when":
            if isinstance(node, ast.TriggerDef):
                node.where = payload
            else:
                node.when = payload
        elif kind == "winners":
            node.winners = payload
        elif kind == "by" and isinstance(payload, ast.Param):
            node.responder = payload
        elif kind == "by":
            node.by = payload
        elif kind == "within":
            node.within, node.within_pos = payload
        elif kind == "possible":
            node.possible = payload
        elif kind == "prefer":
            node.prefers.append(payload)
        elif kind == "feature":
            node.features.append(payload)
        elif kind == "believe":
            node.beliefs.append(payload)

    def action_def(self, meta, children):
        name, clauses = children
        return self._definition(ast.ActionDef, meta, name, clauses,
                                {"text", "cite", "with", "require", "cost", "limit", "do"})

    def procedure_def(self, meta, children):
        name, params, clauses = children
        self.bound(name)
        node = self._definition(ast.ProcedureDef, meta, name, clauses, {"text", "cite", "do"})
        node.params = params or []
        return node

    def function_def(self, meta, children):
        name, params, returns, clauses = children
        self.bound(name)
        node = self._definition(ast.FunctionDef, meta, name, clauses, {"text", "cite", "="})
        node.params = params or []
        node.returns = returns
        return node

    def trigger_def(self, meta, children):
        name, clauses = children
        return self._definition(ast.TriggerDef, meta, name, clauses, {"text", "cite", "on", "when", "do"})

    def victory_def(self, meta, children):
        name, clauses = children
        return self._definition(ast.VictoryDef, meta, name, clauses, {"text", "cite", "when", "winners"})

    def reaction_def(self, meta, children):
        name, clauses = children
        return self._definition(ast.ReactionDef, meta, name, clauses, {"text", "cite", "on", "by", "with", "require", "do"})

    def obligation_def(self, meta, children):
        name, clauses = children
        return self._definition(ast.ObligationDef, meta, name, clauses, {"text", "cite", "when", "within", "possible"})

    def script_def(self, meta, children):
        name, params, clauses = children
        self.bound(name)
        node = self._definition(ast.ScriptDef, meta, name, clauses, {"text", "cite", "prefer"})
        node.params = params or []
        for pref in node.prefers:
            if pref.weight is not None:
                self.bag.error(f"a preference of script '{node.name}' takes no weight", pref.weight.pos,
                               "a script takes its preferences in order; weights belong to a heuristic")
        return node

    def heuristic_def(self, meta, children):
        name, params, side, clauses = children
        self.bound(name)
        node = self._definition(ast.HeuristicDef, meta, name, clauses, {"text", "cite", "feature", "prefer", "believe"})
        node.params = params or []
        if side is not None:
            node.side, node.side_pos = str(side), _tok_pos(self.file, side)
        for pref in node.prefers:
            if pref.weight is None:
                self.bag.error(f"a preference of heuristic '{node.name}' needs a weight", pref.pos,
                               f"write 'prefer {pref.target} ... weight <number>': a heuristic likes options by weight")
        return node

    def heuristic_side(self, meta, children):
        return children[0]

    def feature_clause(self, meta, children):
        label, weight, value = children
        return ("feature", self.p(meta), ast.Feature(self.p(meta), _unquote(label), weight, value))

    def belief_clause(self, meta, children):
        entity, prop, value, var, type_, where, odds = children
        target = ast.Attr(_tok_pos(self.file, entity), ast.Name(_tok_pos(self.file, entity), str(entity)), str(prop),
                          _tok_pos(self.file, prop))
        if str(entity) != str(var):
            self.bag.error(f"a belief about '{entity}.{prop}' binds '{var}', not '{entity}'", _tok_pos(self.file, var),
                           f"write 'believe {var}.{prop} = ... for {var}: ...'")
        param = ast.Param(_tok_pos(self.file, var), self.bound(var), type_, where=where)
        return ("believe", self.p(meta), ast.Belief(self.p(meta), target, value, param, odds))

    def odds_part(self, meta, children):
        return children[0]

    def weighted_prefer_clause(self, meta, children):
        target, where, weight = children
        return ("prefer", self.p(meta), ast.Preference(self.p(meta), str(target), _tok_pos(self.file, target), where, weight))

    def prefer_clause(self, meta, children):
        target, where = children
        return ("prefer", self.p(meta), ast.Preference(self.p(meta), str(target), _tok_pos(self.file, target), where))

    def params(self, meta, children):
        return list(children)

    def param(self, meta, children):
        name, type_ = children
        return ast.Param(self.p(meta), self.bound(name), type_)

    def simple_type(self, meta, children):
        name, q = children
        return ast.TypeRef(self.p(meta), str(name), optional=q is not None)

    def list_type(self, meta, children):
        return ast.TypeRef(self.p(meta), "list", item=children[0])

    def clauses(self, meta, children):
        return list(children)

    # ---- clauses: (kind, position, payload)
    def text_clause(self, meta, children):
        return ("text", self.p(meta), _unquote(children[0]))

    def cite_clause(self, meta, children):
        return ("cite", self.p(meta), _unquote(children[0]))

    def with_clause(self, meta, children):
        name, type_, source, where = children
        return ("with", self.p(meta), ast.Param(self.p(meta), self.bound(name), type_, source, where))

    def in_part(self, meta, children):
        return children[0]

    def where_part(self, meta, children):
        return children[0]

    def else_message(self, meta, children):
        return _unquote(children[0])

    def limit_group(self, meta, children):
        return str(children[0])

    def require_clause(self, meta, children):
        cond, message = children
        return ("require", self.p(meta), ast.Require(self.p(meta), cond, message))

    # A clause or statement that names a resource, or sets a property, keeps where each of
    # those names is: the checker puts its caret under a wrong name, not under the 'cost'
    # or 'set' before it.
    def cost_clause(self, meta, children):
        amount, resource = children
        return ("cost", self.p(meta), ast.Cost(self.p(meta), amount, str(resource),
                                               resource_pos=_tok_pos(self.file, resource)))

    def cost_of_clause(self, meta, children):
        amount, resource, payer = children
        return ("cost", self.p(meta), ast.Cost(self.p(meta), amount, str(resource), payer,
                                               resource_pos=_tok_pos(self.file, resource)))

    def _resource_change(self, meta, op: str, resource, holder, amount) -> ast.ResourceChange:
        return ast.ResourceChange(self.p(meta), op, str(resource), holder, amount, _tok_pos(self.file, resource))

    def gain_stmt(self, meta, children):
        amount, resource, holder = children
        return self._resource_change(meta, "gain", resource, holder, amount)

    def spend_stmt(self, meta, children):
        amount, resource, holder = children
        return self._resource_change(meta, "spend", resource, holder, amount)

    def reset_stmt(self, meta, children):
        resource, holder, amount = children
        return self._resource_change(meta, "reset", resource, holder, amount)

    def reset_to(self, meta, children):
        return children[0]

    def reveal_stmt(self, meta, children):
        return ast.Reveal(self.p(meta), children[0], children[1])

    def hide_stmt(self, meta, children):
        return ast.Reveal(self.p(meta), children[0], children[1], hide=True)

    def run_effect_stmt(self, meta, children):
        return ast.RunEffect(self.p(meta), children[0])

    def hide_from(self, meta, children):
        return children[0]

    def limit_clause(self, meta, children):
        count, period, group = children
        return ("limit", self.p(meta), ast.Limit(self.p(meta), count, str(period), group, _tok_pos(self.file, period)))

    def on_clause(self, meta, children):
        return ("on", self.p(meta), (str(children[0]), _tok_pos(self.file, children[0])))

    def when_clause(self, meta, children):
        return ("when", self.p(meta), children[0])

    def winners_clause(self, meta, children):
        return ("winners", self.p(meta), children[0])

    def by_clause(self, meta, children):
        return ("by", self.p(meta), children[0])

    def possible_clause(self, meta, children):
        return ("possible", self.p(meta), children[0])

    def within_clause(self, meta, children):
        return ("within", self.p(meta), (int(children[0]), _tok_pos(self.file, children[0])))

    def by_param_clause(self, meta, children):
        name, type_, source, where = children
        return ("by", self.p(meta), ast.Param(self.p(meta), self.bound(name), type_, source, where))

    def value_clause(self, meta, children):
        return ("=", self.p(meta), children[0])

    def do_clause(self, meta, children):
        return ("do", self.p(meta), children[0])

    # ---- statements
    def block(self, meta, children):
        return ast.Block(self.p(meta), list(children))

    def let_stmt(self, meta, children):
        return ast.Let(self.p(meta), self.bound(children[0]), children[1])

    def set_stmt(self, meta, children):
        target, op, value = children
        return ast.Set(self.p(meta), [str(c) for c in target], str(op), value,
                       [_tok_pos(self.file, c) for c in target])

    def target(self, meta, children):
        return list(children)  # the tokens: set_stmt keeps their names and places

    def if_stmt(self, meta, children):
        cond, block, *rest = children
        otherwise = rest.pop() if rest and (rest[-1] is None or isinstance(rest[-1], ast.Block)) else None
        branches = [(cond, block)] + [b for b in rest]
        return ast.If(self.p(meta), branches, otherwise)

    def elif_part(self, meta, children):
        return (children[0], children[1])

    def else_part(self, meta, children):
        return children[0]

    def for_stmt(self, meta, children):
        return ast.ForEach(self.p(meta), self.bound(children[0]), children[1], children[2])

    def repeat_stmt(self, meta, children):
        return ast.Repeat(self.p(meta), children[0], children[1])

    def choose_stmt(self, meta, children):
        name, options, chooser, prompt = children
        text, where = prompt if prompt is not None else (None, None)
        return ast.Choose(self.p(meta), self.bound(name), options, chooser, text, where)

    def chooser(self, meta, children):
        return children[0]

    def prompt(self, meta, children):
        token = children[0]
        # the prompt's own place, so that a '{NAME}' naming no parameter is shown at its braces
        where = Position(self.file, token.line, token.column, token.column + len(str(token)))
        return _unquote(token), where

    def move_stmt(self, meta, children):
        item, end, destination = children
        return ast.Move(self.p(meta), item, destination, str(end) if end is not None else None)

    def shuffle_stmt(self, meta, children):
        return ast.Shuffle(self.p(meta), children[0])

    def emit_stmt(self, meta, children):
        name, fields, audience = children
        return ast.Emit(self.p(meta), str(name), fields or [], audience)

    def window_stmt(self, meta, children):
        name, fields, var = children
        return ast.Window(self.p(meta), str(name), fields or [], self.bound(var))

    def fields(self, meta, children):
        return list(children)

    def field(self, meta, children):
        return (str(children[0]), children[1])

    def audience(self, meta, children):
        return children[0]

    def call_stmt(self, meta, children):
        name, args = children
        return ast.CallStmt(self.p(meta), str(name), args or [])

    def stop_stmt(self, meta, children):
        return ast.Stop(self.p(meta))

    def break_stmt(self, meta, children):
        return ast.Break(self.p(meta))

    # ---- expressions
    def ternary(self, meta, children):
        then, cond, otherwise = children
        return ast.Ternary(self.p(meta), cond, then, otherwise)

    def or_(self, meta, children):
        return ast.Binary(self.p(meta), "or", children[0], children[1])

    def and_(self, meta, children):
        return ast.Binary(self.p(meta), "and", children[0], children[1])

    def not_(self, meta, children):
        return ast.Unary(self.p(meta), "not", children[0])

    def compare(self, meta, children):
        left, op, right = children
        return ast.Binary(self.p(meta), str(op), left, right)

    def contains(self, meta, children):
        return ast.Binary(self.p(meta), "in", children[0], children[1])

    def not_contains(self, meta, children):
        return ast.Binary(self.p(meta), "not in", children[0], children[1])

    def binary(self, meta, children):
        left, op, right = children
        return ast.Binary(self.p(meta), str(op), left, right)

    def neg(self, meta, children):
        return ast.Unary(self.p(meta), "-", children[0])

    def attr(self, meta, children):
        obj, name = children
        return ast.Attr(self.p(meta), obj, str(name), _tok_pos(self.file, name))

    def index(self, meta, children):
        return ast.Index(self.p(meta), children[0], children[1])

    def call(self, meta, children):
        name, args = children
        return ast.Call(_tok_pos(self.file, name), str(name), args or [])

    def number(self, meta, children):
        digits = str(children[0]).lstrip("0") or "0"
        if len(digits) > MAX_NUMBER_DIGITS:
            self.bag.error(f"this number has {len(digits)} digits; a number in the rules has at most {MAX_NUMBER_DIGITS}",
                           self.p(meta), "numbers in a game stay small; use a parameter for a large one")
            return ast.Literal(self.p(meta), 0)
        return ast.Literal(self.p(meta), int(digits))

    def string(self, meta, children):
        return ast.Literal(self.p(meta), _unquote(children[0]))

    def true(self, meta, children):
        return ast.Literal(self.p(meta), True)

    def false(self, meta, children):
        return ast.Literal(self.p(meta), False)

    def none(self, meta, children):
        return ast.Literal(self.p(meta), None)

    def name(self, meta, children):
        token = children[0]
        if str(token) in RESERVED:
            self.bag.error(f"'{token}' is a reserved word of the language", _tok_pos(self.file, token),
                           f"'{token}' is a reserved word of the language and cannot be used as a name")
        return ast.Name(_tok_pos(self.file, token), str(token))

    def list(self, meta, children):
        return ast.ListExpr(self.p(meta), children[0] or [])

    def comprehension(self, meta, children):
        item, var, iterable, where, best, order = children
        node = ast.Comprehension(self.p(meta), item, str(var), iterable, where)
        if best is not None:
            node.highest, (node.best, *node.best_then) = best
        for key, descending in order or []:
            node.order.append(key)
            node.descending.append(descending)
        return node

    def highest_part(self, meta, children):
        return (True, list(children))

    def lowest_part(self, meta, children):
        return (False, list(children))

    def order_part(self, meta, children):
        return list(children)

    def ascending_key(self, meta, children):
        return (children[0], False)

    def descending_key(self, meta, children):
        return (children[0], True)

    def args(self, meta, children):
        return list(children)
