"""Static checks of definitions: names, types, arity, costs, limits, statement placement.

The checker annotates the AST as it goes: every ``Name`` and ``Call`` gets ``ref``
(what the name denotes) and every expression gets ``type``. The compiler relies on
those annotations and never resolves a name again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import ast
from . import types as T
from .builtins import ACTION_WINDOW, ACTION_WINDOW_FIELDS, EFFECTS, ENGINE_EVENTS, FUNCTIONS, VALUES
from .dependencies import child_nodes
from .diagnostics import DiagnosticBag, Position, did_you_mean, did_you_mean_among, span, with_article
from .hidden_choices import check_filter, check_offer
from .limits import MAX_REPEAT
from .lookahead import statements_in
from .lasting_reveals import warn_lasting_reveals
from .lookup_keys import check_lookup_keys
from .model import RuleSet, RuleSetData, rejected_properties, unknown_type_hint
from .public_reads import CHOSEN
from .parser import DEFINITION_START

PERIODS = {"turn", "round", "game"}
# What board functions give on a declared board, with its space (or connection) kind
BOARD_RESULTS = {"step": "{}", "line": "list of {}", "lines": "list of list of {}", "link": "{}",
                 "path": "list of {}", "path_avoiding": "list of {}", "within": "list of {}",
                 "within_avoiding": "list of {}", "adjacent": "list of {}", "connected": "list of {}",
                 "region": "list of {}", "region_avoiding": "list of {}"}
_CURRENT_PLAYER = ast.Name(None, "current_player")  # who chooses an action's parameters
ENTITY_ATTRIBUTES = {"at", "id"}
# The code of the error for a name no kind, event or action has (dsl/variants.py tells it
# again at a variant's line when the variant removed the only event with that field).
UNREADABLE_NAME = "unreadable-name"


def parameter_type(spec: dict) -> str:
    """The type the rules read a parameter as: the ``type`` it declares (``number?``: a
    number, or none), else the type of its value (none for a null value)."""
    declared = spec.get("type")
    return T.parse_type_text(declared) if declared else T.python_value_type(spec.get("value"))


def parameter_value_problem(spec: dict, value) -> tuple[str, str] | None:
    """Why a parameter declaring a type cannot hold a value: (what is wrong, hint), or None.
    None (null) needs a type ending in ``?``; any other value must be of the type."""
    declared = spec.get("type")
    if not declared:
        return None
    wanted = T.parse_type_text(declared)
    if value is None:
        if declared.endswith("?"):
            return None
        return (f"is none, but its type, {declared}, does not allow none",
                f"declare 'type: {declared}?' to let it be none, or give it {T.phrase(wanted)}")
    if T.python_value_type(value) == wanted:
        return None
    return (f"is {T.written_value(value)}, but its type is {declared}", f"write {T.phrase(wanted)}")


@dataclass
class Names:
    """Everything a rule can refer to, besides its own local variables."""

    data: RuleSetData
    definitions: dict[str, ast.Definition]
    entities: dict[str, str] = field(default_factory=dict)  # component constant → kind

    def __post_init__(self):
        for c in self.data.components:
            if c.count == 1 and not c.per_player:
                self.entities[c.name] = c.kind
        board = self.data.board
        if board is not None and board.kind != "tiles":  # its spaces and named connections are constants
            for space in board.spaces:
                self.entities.setdefault(space, board.space_kind)
            for c in board.connections:
                if c.name is not None and board.connection_kind:
                    self.entities.setdefault(c.name, board.connection_kind)

    @property
    def zone_kinds(self) -> frozenset[str]:
        return frozenset({self.data.board.space_kind}) if self.data.board else frozenset()

    def all_names(self) -> set[str]:
        d = self.data
        return (set(VALUES) | {z for z, s in d.zones.items() if not s.per_player and not s.per_entity} | set(d.kinds)
                | set(self.entities) | set(d.parameters) | set(d.tables) | set(d.dice) | {"game", "turn"})

    def callables(self) -> set[str]:
        return (set(FUNCTIONS) | set(EFFECTS) | {n for n, d in self.definitions.items() if d.kind in ("function", "procedure")}
                | {z for z, s in self.data.zones.items() if s.per_player or s.per_entity})


def _restore(bound: dict, name: str, saved: list | None) -> None:
    """A loop's name bound again as it was outside the loop."""
    if saved is None:
        bound.pop(name, None)
    else:
        bound[name] = saved


class _Context:
    def __init__(self, definition: ast.Definition):
        self.definition = definition
        self.locals: dict[str, str] = {}
        # what gave each local its value, for the analyses of what every player knows
        # (public_reads): the expressions a `let` set it to, the list a loop takes it
        # from, or CHOSEN for a `choose` answer, which only its chooser knows
        self.bound: dict[str, list] = {}
        self.conditions: list[ast.Expr] = []  # the 'if' conditions around the statement checked
        self.loop_depth = 0
        self.event: str | None = None
        # parameters declared 'T?' that arithmetic reads, and those compared with none,
        # in this definition (see Checker._untested_optionals)
        self.optional_math: list[ast.Name] = []
        self.none_tested: set[str] = set()


# Functions an author may know by another name from programming languages.
OTHER_LANGUAGES_NAMES = {"range": "numbers", "len": "count", "length": "count", "size": "count",
                         "reverse": "reversed"}

# The functions giving the things in a zone, typed by the kind the zone holds.
ZONE_ITEMS = frozenset({"contents", "top", "bottom"})


class Checker:
    def __init__(self, ruleset: RuleSet):
        self.rs = ruleset
        self.data = ruleset.data
        self.bag: DiagnosticBag = ruleset.bag
        self.names = Names(ruleset.data, ruleset.definitions)
        self.events: dict[str, dict[str, str]] = {k: dict(v) for k, v in ENGINE_EVENTS.items()}
        self._readable: set[str] | None = None  # see _readable_names, made once the events are known
        self.emitted: set[str] = set(ENGINE_EVENTS)
        self.windows: set[str] = set()
        self.references: dict[str, int] = {n: 0 for n in ruleset.definitions}
        self.calls: dict[str, list[tuple[str, Position]]] = {}  # caller → (callee, where)
        self.mentioned_names: set[str] = set()
        self.memory_readers: dict[str, Position] = {}  # definition → where it first calls seen()

    def _undeclared_player(self, t: str) -> bool:
        """``t`` is the player type of a rule set that declares no 'player' kind: that
        missing kind is the error (reported where the kinds are), not each property read."""
        return t == "player" and "player" not in self.data.kinds

    def _defined(self, kind: str) -> list[str]:
        """The names of the definitions of one kind."""
        return [n for n, x in self.rs.definitions.items() if x.kind == kind]

    # ------------------------------------------------------------ definitions that did not parse
    def _in_unparsed(self, pattern: str) -> bool:
        return any(text is None or re.search(pattern, text, re.MULTILINE) for text in self.rs.unparsed)

    def _defined_unparsed(self, name: str) -> bool:
        """``name`` may be defined by a definition that did not parse: its syntax error is
        the mistake, and 'unknown' would only echo it."""
        return self._in_unparsed(DEFINITION_START.pattern + rf"[ \t]+{re.escape(name)}\b")

    def _emitted_unparsed(self, event: str) -> bool:
        return self._in_unparsed(rf"\b(?:emit|window)[ \t]+{re.escape(event)}\b")

    def _named_unparsed(self, name: str) -> bool:
        return self._in_unparsed(rf"\b{re.escape(name)}\b")

    def _check_player_test(self, name: str, pos, role: str, gives: str = T.BOOL) -> None:
        """A function named in game.yaml that must take one player and give a bool (or
        what ``gives`` names)."""
        d = self.rs.definitions.get(name)
        if d is None and self._defined_unparsed(name):
            return
        word = T.phrase(gives)
        if d is None or d.kind != "function":
            self.error(f"{role} names unknown function '{name}'", pos,
                       did_you_mean_among(name, self._defined("function"), "functions"))
        elif len(d.params) != 1 or self.resolve_type(d.params[0].type) != "player" or self.resolve_type(d.returns) != gives:
            self.error(f"{role}: '{name}' must take one player and give {word}", pos,
                       f"declare it 'function {name}(p: player) -> {gives}:'")
        else:
            self.references[name] += 1

    # ------------------------------------------------------------ entry
    def run(self) -> None:
        self._collect_emits()
        order = ["function", "procedure", "action", "victory", "obligation", "trigger", "reaction", "script", "heuristic"]
        for kind in order:
            for d in self.rs.of_kind(kind):
                self.check_definition(d)
        for d in self.rs.duplicates:  # reported as defined twice, and its own errors with it
            self.check_definition(d)
        self._check_recursion()
        self._check_memory_readers()
        self._check_declared_values()
        self._check_rulings()
        self._check_component_effects()
        game = self.data.game
        payoff = game.payoff if game is not None else None
        if payoff:
            pos = self.data.where.get(("game", "payoff"))
            self._check_player_test(payoff["function"], pos, "game.payoff", T.NUMBER)
            if payoff["min"] > payoff["max"]:
                self.error("game.payoff: min is larger than max", pos, "swap them")
        if game is not None and game.end_turn_allowed:
            name = game.end_turn_allowed
            d = self.rs.definitions.get(name)
            pos = self.data.where.get(("game", "end_turn_allowed"))
            if d is None and self._defined_unparsed(name):
                pass
            elif d is None or d.kind != "function":
                self.error(f"game.end_turn_allowed names unknown function '{name}'", pos,
                           did_you_mean_among(name, self._defined("function"), "functions"))
            elif len(d.params) != 1 or self.resolve_type(d.params[0].type) != "player" or self.resolve_type(d.returns) != T.BOOL:
                self.error(f"game.end_turn_allowed: '{name}' must take one player and give a bool", pos,
                           f"declare it 'function {name}(p: player) -> bool:'")
            else:
                self.references[name] += 1
        for i, team in enumerate(((game.sides if game else None) or {}).get("teams") or []):
            self._check_player_test(team["member"], self.data.where.get(("game", "sides", i)),
                                    f"game.sides: team '{team['name']}' member")
        for i, name in enumerate((game.scripted_seats if game else None) or []):
            d = self.rs.definitions.get(name)
            if d is None and self._defined_unparsed(name):
                continue
            if d is None or d.kind != "script":
                self.error(f"game.scripted_seats names unknown script '{name}'", self.data.where.get(("game", "scripted_seats", i)),
                           did_you_mean_among(name, self._defined("script"), "scripts"))
        for role in (("setup", "round") if game else ()):
            name = getattr(game, role)
            d = self.rs.definitions.get(name)
            pos = self.data.where.get(("game", role))
            if d is None and self._defined_unparsed(name):
                continue
            if d is None:
                self.error(f"game.{role} names unknown procedure '{name}'", pos,
                           did_you_mean_among(name, self._defined("procedure"), "procedures"))
            elif d.kind != "procedure" or d.params:
                self.error(f"game.{role} must name a procedure without parameters; '{name}' is {with_article(d.kind)}", pos,
                           f"name a 'procedure NAME():' that runs the {role}")
            else:
                self.references[name] += 1
        if game is None:
            return  # usage and counts depend on the game section, already reported broken
        self._check_reachability()
        for name, n in self.references.items():
            d = self.rs.definitions[name]
            if n == 0 and d.kind in ("function", "procedure") and not self._named_unparsed(name):
                self.bag.warning(f"{d.kind} '{name}' is never used", d.name_pos, "remove it or call it from a rule", code="unused")
        self._check_manifest()

    def _check_reachability(self):
        """Components that can never enter play, actions that can never be legal."""
        mentioned = self.mentioned_names
        board = self.data.board
        for c in self.data.components:
            starts_nowhere = c.zone is None
            tile = board is not None and c.kind == board.tile_kind
            if starts_nowhere and not tile and c.kind not in mentioned and c.name not in mentioned:
                self.bag.warning(f"component '{c.name}' starts off the table and no rule names it or its kind "
                                 f"'{c.kind}': it can never enter play", self.data.where.get(("component", c.name)),
                                 "give it a starting zone, or a rule that brings it in", code="unreachable")
        counts: dict[str, int] = {}
        for c in self.data.components:
            counts[c.kind] = counts.get(c.kind, 0) + 1
        counts["player"] = 1
        for d in self.rs.of_kind("action"):
            for p in d.params:
                kind = p.type.name
                if p.source is None and kind in self.data.kinds and not counts.get(kind) and not (board and kind == board.space_kind):
                    self.bag.warning(f"action '{d.name}' can never be legal: no component is {T.phrase(kind)}", p.pos,
                                     f"add {kind} components, or draw '{p.name}' from a list", code="unreachable")
            for r in d.requires:
                if isinstance(r.cond, ast.Literal) and r.cond.value is False:
                    self.bag.warning(f"action '{d.name}' can never be legal: it requires false", r.pos,
                                     "remove the action, or require what must hold for it", code="unreachable")

    def _check_rulings(self):
        seen = set()
        for i, r in enumerate(self.data.rulings):
            pos = self.data.where.get(("ruling", i))
            if r["id"] in seen:
                self.error(f"ruling '{r['id']}' is given twice", pos, "give each ruling its own id, or merge the two")
            seen.add(r["id"])
            for j, name in enumerate(r.get("definitions", [])):
                if name not in self.rs.definitions and not self._defined_unparsed(name):
                    self.error(f"ruling '{r['id']}' names unknown definition '{name}'",
                               self.data.where.get(("ruling", i, "definitions", j)) or pos,
                               did_you_mean_among(name, self.rs.definitions, "definitions"))

    def _check_declared_values(self):
        """Defaults of properties and variables, and components' property values, fit their
        declared types: a text where a number is due would only fail in the middle of a game."""
        where = self.data.where
        for kind in self.data.kinds.values():
            for p in kind.properties.values():
                self._check_value(p.default, p.type, f"the default of {kind.name}.{p.name}",
                                  where.get(("property", kind.name, p.name)))
                if p.drawn is not None:
                    self._check_drawn(p, f"{kind.name}.{p.name}", where.get(("property", kind.name, p.name, "drawn"))
                                      or where.get(("property", kind.name, p.name)))
        for scope, variables in self.data.variables.items():
            for p in variables.values():
                self._check_value(p.default, p.type, f"the default of {scope} variable '{p.name}'",
                                  where.get(("variable", scope, p.name)))
                if p.drawn is not None:
                    self._check_drawn(p, f"{scope}.{p.name}", where.get(("variable", scope, p.name, "drawn"))
                                      or where.get(("variable", scope, p.name)))
        for name, spec in self.data.parameters.items():
            problem = parameter_value_problem(spec, spec.get("value"))
            if problem is not None:
                self.error(f"parameter '{name}' {problem[0]}", self.data.where.get(("parameter", name)), problem[1])
        for c in self.data.components:
            props = self.data.kinds[c.kind].properties if c.kind in self.data.kinds else {}
            for name, value in c.properties.items():
                if name in props:
                    self._check_value(value, props[name].type, f"component '{c.name}': {name}",
                                      (self.data.where.get(("component", c.name, "property", name))
                                       if c.written_here(name) else None)
                                      or self.data.where.get(("component", c.name)))

    def _check_drawn(self, p, what: str, pos: Position | None) -> None:
        """A property (or variable) declared ``drawn`` is a fresh random draw from its
        ``values``: a search bot draws it again for a seat that cannot see it, so it
        needs the values (and, when weighted, one weight for each)."""
        if T.is_list(p.type):
            self.error(f"'{what}' is drawn at random, but holds {T.phrase(p.type)}", pos,
                       "'drawn' is for a property holding one value drawn from its values; drop it here")
            return
        if not p.values:
            self.error(f"'{what}' is drawn at random, but lists no values to draw from", pos,
                       f"list the values it is drawn from, e.g. {p.name}: {{type: {p.type}, values: [...], "
                       f"drawn: uniform}}: the ones the rules' random(...) picks among")
            return
        weights = p.draw_weights()
        if isinstance(p.drawn, dict) and len(weights) != len(p.values):
            self.error(f"'{what}' is drawn with {len(weights)} weight(s) for {len(p.values)} value(s)", pos,
                       f"give one weight per value, in the order of values: {p.values}")
        elif not any(w > 0 for w in weights):
            self.error(f"'{what}' is drawn with no weight above 0", pos,
                       "give at least one value a weight above 0 (or write drawn: uniform)")

    def _check_value(self, value, declared: str, what: str, pos: Position | None) -> None:
        if value is None:
            return
        if T.is_list(declared):
            if not isinstance(value, list):
                self.error(f"{what} is {value!r}, not {T.phrase(declared)}", pos, "write a list: [a, b] (or [] for none)")
                return
            for item in value:
                self._check_value(item, T.item_type(declared), f"an item of {what}", pos)
            return
        wanted = {T.NUMBER: "a number", T.BOOL: "true or false", T.TEXT: 'a text'}.get(declared)
        if wanted is None:  # kinds, zones, placements: names, checked where they are used
            return
        if T.python_value_type(value) != declared:
            self.error(f"{what} is {value!r}, but its type is {declared}", pos, f"write {wanted}")

    def _check_recursion(self):
        """Rules must terminate: no procedure or function may reach itself again."""
        reported: set[frozenset] = set()
        for start in sorted(self.calls):
            stack = [(start, [start])]
            seen = set()
            while stack:
                name, path = stack.pop()
                for callee, pos in self.calls.get(name, []):
                    if callee == start:
                        cycle = frozenset(path)
                        if cycle not in reported:
                            reported.add(cycle)
                            chain = " → ".join(path + [start])
                            self.error(f"'{start}' calls itself ({chain}); rules must always finish", pos,
                                       "repeat a bounded number of times or loop over a list instead")
                    elif callee not in seen:
                        seen.add(callee)
                        stack.append((callee, path + [callee]))

    def _check_memory_readers(self):
        """What a seat remembers (``seen``) exists only while a bot judges a position for
        it: rules that run the game may not read it, not even through a function."""
        readers = set(self.memory_readers)
        changed = True
        while changed:  # functions that reach seen() through the functions they call
            changed = False
            for caller, callees in self.calls.items():
                if caller not in readers and any(c in readers for c, _ in callees):
                    d = self.rs.definitions.get(caller)
                    if d is not None and d.kind == "function":
                        readers.add(caller)
                        changed = True
        for name, d in self.rs.definitions.items():
            if d.kind in ("heuristic", "function"):
                continue
            if name in self.memory_readers:
                self.error(f"{d.kind} '{name}' reads seen(), which only heuristics may read", self.memory_readers[name],
                           "what a seat remembers exists only while a bot judges a position for it")
                continue
            for callee, pos in self.calls.get(name, []):
                if callee in readers:
                    self.error(f"{d.kind} '{name}' calls '{callee}', which reads seen(); only heuristics may", pos,
                               "what a seat remembers exists only while a bot judges a position for it")
                    break

    def _collect_emits(self):
        """Rule-emitted event names are known before triggers are checked."""
        def walk(block: ast.Block | None):
            if block is None:
                return
            for s in block.statements:
                if isinstance(s, (ast.Emit, ast.Window)) and s.event == ACTION_WINDOW:
                    self.error(f"'{ACTION_WINDOW}' is the window the engine opens on a chosen action; "
                               "a rule cannot open or emit it", s.pos, "give this event another name")
                elif isinstance(s, (ast.Emit, ast.Window)):
                    self.emitted.add(s.event)
                    self.events.setdefault(s.event, {})
                    for f, _ in s.fields:
                        self.events[s.event].setdefault(f, T.ANY)
                    if isinstance(s, ast.Window):
                        self.windows.add(s.event)
                for b in _child_blocks(s):
                    walk(b)
        for d in self.rs.definitions.values():
            walk(getattr(d, "body", None))
        if any(d.event == ACTION_WINDOW for d in self.rs.of_kind("reaction")):
            self._collect_action_window()

    def _collect_action_window(self) -> None:
        """A reaction answers the engine's window on a chosen action: its record holds the
        acting player, the action's name, 'declined', and each argument of the actions
        (typed where every action giving it agrees)."""
        fields = dict(ACTION_WINDOW_FIELDS)
        arguments: dict[str, str] = {}
        for d in self.rs.of_kind("action"):
            for p in d.params:
                if p.name in ACTION_WINDOW_FIELDS:
                    self.error(f"action '{d.name}' has an argument '{p.name}', a field the engine's window "
                               f"'{ACTION_WINDOW}' gives itself, which a reaction answers", p.pos,
                               f"rename the argument: reactions read it as event.{p.name}")
                    continue
                t = self._quiet_type(p.type)
                arguments[p.name] = t if arguments.get(p.name, t) == t else T.ANY
        fields.update(arguments)
        self.events[ACTION_WINDOW] = fields
        self.emitted.add(ACTION_WINDOW)
        self.windows.add(ACTION_WINDOW)

    def _check_manifest(self):
        players = self.data.game.max_players if self.data.game else 1
        if self.data.game and self.data.game.min_players > players:
            return  # counted at the most players, which the rule set got wrong (reported)
        rejected = rejected_properties(self.data)
        # a component of a misspelt kind (reported) may be any kind's: every count would echo it
        stray = any(c.kind not in self.data.kinds for c in self.data.components)
        for key, expected in self.data.manifest.items():
            pos = self.data.where.get(("manifest", key))
            kind, _, condition = key.partition(".")
            if kind not in self.data.kinds:
                self.error(f"manifest names unknown kind '{kind}'", pos, did_you_mean_among(kind, self.data.kinds, "kinds"))
                continue
            prop, _, wanted = condition.partition("=")
            if condition and prop not in self.data.kinds[kind].properties:
                self.error(f"manifest: kind '{kind}' has no property '{prop}'", pos,
                           did_you_mean_among(prop, self.data.kinds[kind].properties, "properties"))
                continue
            if stray or condition and ((kind, prop) in rejected or (kind, None) in rejected):
                continue  # a component's value (or property name) is reported where it is written
            actual = 0
            for c in self.data.components:
                if c.kind != kind:
                    continue
                if condition:
                    value = c.properties.get(prop, self.data.kinds[kind].properties[prop].default)
                    if str(value) != wanted:
                        continue
                actual += c.count * (players if c.per_player else 1)
            if actual != expected:
                self.error(f"the rule set has {actual} {key} component(s) (at {players} players) but the manifest says {expected}",
                           pos, "correct the counts in the components table or the manifest")

    def error(self, message: str, pos: Position | None, hint: str | None = None, code: str = "") -> None:
        self.bag.error(message, pos, hint, code)

    # ------------------------------------------------------------ definitions
    def check_definition(self, d: ast.Definition) -> None:
        ctx = _Context(d)
        self._check_definition(d, ctx)
        self._untested_optionals(ctx)

    def _untested_optionals(self, ctx: _Context) -> None:
        """A warning at each parameter declared ``T?`` (``type: number?``: a variant may set
        it to none) that arithmetic reads in a definition that never compares it with none:
        arithmetic on none stops the game. Comparing it with none anywhere in the
        definition (``99 if limit == none else limit - n``) is taken as the guard."""
        warned = set()
        for e in ctx.optional_math:
            if e.id in ctx.none_tested or e.id in warned:
                continue
            warned.add(e.id)
            declared = self.data.parameters[e.id].get("type")
            self.bag.warning(f"parameter '{e.id}' is declared {declared}, so it may be none, and arithmetic on none "
                             f"stops the game", e.pos,
                             f"test it first, e.g. '… if {e.id} == none else …', or declare it without '?'",
                             code="maybe-none")

    def _optional_parameter(self, e: ast.Expr) -> bool:
        """Is ``e`` a parameter declared with a type ending in ``?`` (``type: number?``)?"""
        return (isinstance(e, ast.Name) and getattr(e, "ref", None) == ("parameter", e.id)
                and str(self.data.parameters[e.id].get("type") or "").endswith("?"))

    def _check_definition(self, d: ast.Definition, ctx: _Context) -> None:
        if isinstance(d, (ast.ProcedureDef, ast.FunctionDef)):
            for p in d.params:
                ctx.locals[p.name] = self.resolve_type(p.type)
        if isinstance(d, ast.ReactionDef):
            self.check_reaction(d, ctx)
            return
        if isinstance(d, ast.ScriptDef):
            self.check_script(d)
            return
        if isinstance(d, ast.HeuristicDef):
            self.check_heuristic(d)
            return
        if isinstance(d, ast.ActionDef):
            self.check_params(d.params, ctx)
            for p in d.params:
                check_offer(self.bag, self.data, f"'with {p.name}'", p.source, _CURRENT_PLAYER, "the acting player")
                check_filter(self.bag, self.data, p, str(self.resolve_type(p.type)).rstrip("?"), _CURRENT_PLAYER,
                             "the acting player")
            for r in d.requires:
                self.expect(r.cond, T.BOOL, ctx, "a requirement")
                self.check_message(r)
            for c in d.costs:
                self.expect(c.amount, T.NUMBER, ctx, "a cost")
                resource_pos = c.resource_pos or c.pos
                if c.payer is not None:
                    self.resource_of(self.expr(c.payer, ctx), c.payer.pos, c.resource, resource_pos)
                    continue
                if self._undeclared_player("player"):
                    continue
                props = self.data.kinds["player"].properties
                if c.resource not in props:
                    numbers = [n for n, p in props.items() if p.resource is not None] or \
                        [n for n, p in props.items() if T.assignable(p.type, T.NUMBER)]
                    self.error(f"cost in unknown resource '{c.resource}'", resource_pos,
                               did_you_mean(c.resource, props) or "a cost is paid from a number property of the player"
                               + (f" ({', '.join(numbers)})" if numbers else ""))
                elif not T.assignable(props[c.resource].type, T.NUMBER):
                    # a property of type any (its declared type unreadable, reported at the
                    # YAML line) fits, like any value of unknown type: no second report
                    self.error(f"cost resource '{c.resource}' is {T.phrase(props[c.resource].type)}, not a number",
                               resource_pos,
                               "a cost is paid from a number property of the player")
            for lim in d.limits:
                self.expect(lim.count, T.NUMBER, ctx, "a limit")
                if lim.period not in PERIODS:
                    self.error(f"unknown limit period '{lim.period}'", lim.period_pos or lim.pos,
                               did_you_mean(lim.period, PERIODS) or "use turn, round or game")
            self.block(d.body, ctx, required=True)
        elif isinstance(d, ast.ProcedureDef):
            self.block(d.body, ctx, required=True)
        elif isinstance(d, ast.FunctionDef):
            if d.value is None:
                self.error(f"function '{d.name}' gives no value", d.name_pos, "add a line '= <expression>'")
                return
            t = self.expr(d.value, ctx)
            want = self.resolve_type(d.returns)
            if not T.assignable(t, want, self.names.zone_kinds):
                self.error(f"function '{d.name}' should give {T.phrase(want)} but gives {T.phrase(t)}", d.value.pos,
                           self.conversion_hint(d.value, want, t)
                           or f"give {T.phrase(want)} after '=', or declare '-> {t}' if {T.phrase(t)} is meant")
            else:
                self.misfit_parts(d.value, want, f"function '{d.name}' should give")
        elif isinstance(d, ast.TriggerDef):
            if d.event is None:
                self.error(f"trigger '{d.name}' does not say which event it waits for", d.name_pos, "add 'on <event>'")
            elif d.event == "game_ended":
                self.error(f"trigger '{d.name}' waits for 'game_ended', after which no rule runs", d.event_pos,
                           "use a victory definition to end the game")
            elif d.event not in self.emitted and not self._emitted_unparsed(d.event):
                self.error(f"trigger '{d.name}' waits for event '{d.event}' that nothing emits", d.event_pos,
                           did_you_mean_among(d.event, self.emitted, "events"))
            ctx.event = d.event
            ctx.locals["event"] = event_type(d.event)
            if d.where is not None:
                self.expect(d.where, T.BOOL, ctx, "a trigger condition")
            self.block(d.body, ctx, required=True)
        elif isinstance(d, ast.VictoryDef):
            # the clause that is there is still checked: its own errors show now, and the
            # functions it calls are used
            if d.when is None or d.winners is None:
                self.error(f"victory '{d.name}' needs both 'when' and 'winners'", d.name_pos,
                           "add the missing line: 'when <condition>' or 'winners <list of players>' ([] for a draw)")
            if d.when is not None:
                self.expect(d.when, T.BOOL, ctx, "a victory condition")
            if d.winners is not None:
                self.expect(d.winners, "list of player", ctx, "the winners")
        elif isinstance(d, ast.ObligationDef):
            if d.when is None or d.within is None:  # what is there is still checked, as for a victory
                self.error(f"obligation '{d.name}' needs both 'when' and 'within N actions'", d.name_pos,
                           "'when' says while the player still owes it; 'within' how far ahead to look")
            elif d.within < 1:
                self.error(f"obligation '{d.name}' must look at least 1 action ahead", d.within_pos,
                           "write 'within 1 actions' or more")
            if d.when is not None:
                self.expect(d.when, T.BOOL, ctx, "an obligation condition")
            if d.possible is not None:
                self.expect(d.possible, T.BOOL, ctx, "an obligation's 'possible' condition")

    def check_params(self, params: list[ast.Param], ctx: _Context) -> None:
        for p in params:
            self.mentioned_names.add(p.type.name)
            t = self.resolve_type(p.type)
            if p.source is not None:
                st = self.expr(p.source, ctx)
                if not T.is_list(st) and st != T.ANY:
                    self.error(f"'with {p.name}' takes its values from a list, not {T.phrase(st)}", p.source.pos, LIST_SOURCES)
                elif not T.assignable(T.item_type(st), t, self.names.zone_kinds):
                    self.error(f"'with {p.name}: {t}' draws from {T.phrase(st)}", p.source.pos,
                               f"draw from a list of {t}, or declare '{p.name}: {T.item_type(st)}'")
            elif t == T.ANY and p.type.name != T.ANY:
                pass  # an unknown type, reported by resolve_type
            elif t not in self.data.kinds:
                self.error(f"'with {p.name}: {t}' needs 'in <list>' unless {t} is a kind", p.type.pos,
                           f"{T.phrase(t)} is not a kind whose things can be listed: write 'with {p.name}: {t} in <list>'")
            ctx.locals[p.name] = t
            if p.where is not None:
                self.expect(p.where, T.BOOL, ctx, "a 'where' condition")

    def check_script(self, d: ast.ScriptDef) -> None:
        """A script takes the seat it plays; each preference names what it prefers and
        reads that option's values under their own names."""
        if len(d.params) != 1 or self.resolve_type(d.params[0].type) != "player":
            self.error(f"script '{d.name}' must take exactly one player: the seat it plays", d.name_pos,
                       f"write 'script {d.name}(me: player):'")
        if not d.prefers:
            self.error(f"script '{d.name}' prefers nothing", d.name_pos, "add lines 'prefer <action> where <condition>'")
        for pref in d.prefers:
            ctx = self._preference_context(d, pref)
            if ctx is not None and pref.where is not None:
                self.expect(pref.where, T.BOOL, ctx, "a preference")

    def _seat_context(self, d: ast.ScriptDef | ast.HeuristicDef) -> _Context:
        """The names every line of a script or heuristic reads: its parameters (the seat)."""
        ctx = _Context(d)
        for prm in d.params:
            ctx.locals[prm.name] = self.resolve_type(prm.type)
        return ctx

    def _preference_context(self, d: ast.ScriptDef | ast.HeuristicDef, pref: ast.Preference) -> _Context | None:
        """The names a preference reads: the seat, and the values of the option it
        names under their own names (None, reported, when it names nothing known)."""
        ctx = self._seat_context(d)
        target = self.rs.definitions.get(pref.target)
        if pref.target == "choice":
            ctx.locals["choice"] = T.ANY
        elif pref.target in ("end_turn", "pass"):
            pass
        elif target is not None and target.kind in ("action", "reaction"):
            self.references[pref.target] = self.references.get(pref.target, 0)
            for prm in target.params:
                ctx.locals[prm.name] = self.resolve_type(prm.type)
            if target.kind == "reaction" and target.responder is not None:
                ctx.locals[target.responder.name] = "player"
        elif self._defined_unparsed(pref.target):
            return None
        else:
            names = [n for n, x in self.rs.definitions.items() if x.kind in ("action", "reaction")]
            self.error(f"{d.kind} '{d.name}' prefers unknown '{pref.target}'", pref.target_pos,
                       did_you_mean(pref.target, names + ["choice", "end_turn", "pass"])
                       or "name an action, a reaction, 'choice' (a choose), 'end_turn' or 'pass'")
            return None
        return ctx

    def _warn_unseen_variables(self, d: ast.HeuristicDef, f) -> None:
        """A heuristic judges a seat's view, where a variable visible to nobody reads as
        hidden: a feature reading one directly never changes, which is a mistake worth
        saying (a function it calls may still read it, for the rules' own use)."""
        stack = [f.value]
        while stack:
            e = stack.pop()
            if isinstance(e, ast.Attr) and isinstance(e.obj, ast.Name) and e.obj.id in ("game", "turn"):
                spec = self.data.variables.get(e.obj.id, {}).get(e.name)
                if spec is not None and spec.visible_to == "nobody":
                    self.bag.warning(f"feature '{f.label}' of heuristic '{d.name}' reads {e.obj.id}.{e.name}, "
                                     "which no seat's view shows: it never changes the score",
                                     e.pos, "read something the judged seat can see, or drop the feature",
                                     code="unseen")
            stack.extend(child_nodes(e))

    def check_heuristic(self, d: ast.HeuristicDef) -> None:
        """A heuristic takes the seat it judges for; its features are numbers (a bool
        counts 1 when true) and its weights numbers; `for` names a declared side."""
        if len(d.params) != 1 or self.resolve_type(d.params[0].type) != "player":
            self.error(f"heuristic '{d.name}' must take exactly one player: the seat it judges for", d.name_pos,
                       f"write 'heuristic {d.name}(me: player):'")
        if not d.features and not d.prefers:
            self.error(f"heuristic '{d.name}' has no feature", d.name_pos,
                       "add lines 'feature \"<label>\" weight <number>: <number read from the seat's view>'")
        if d.side is not None:
            sides = (self.data.game.sides if self.data.game else None) or {}
            names = [t["name"] for t in sides.get("teams") or []] + ([sides["cooperative"]] if "cooperative" in sides else [])
            if d.side not in names:
                self.error(f"heuristic '{d.name}' is for side '{d.side}', which game.sides does not declare", d.side_pos,
                           did_you_mean(d.side, names) or ("declared sides: " + ", ".join(names) if names else
                                                           "declare teams or a cooperative side in game.sides, or leave out 'for'"))
        labels: set[str] = set()
        for f in d.features:
            if f.label in labels:
                self.error(f"feature '{f.label}' given twice in heuristic '{d.name}'", f.pos, "give each feature its own label")
            labels.add(f.label)
            ctx = self._seat_context(d)
            self.expect(f.weight, T.NUMBER, ctx, "a feature's weight")
            t = self.expr(f.value, ctx)
            if t not in (T.NUMBER, T.BOOL, T.ANY):
                self.error(f"feature '{f.label}' must be a number or a bool, not {T.phrase(t)}", f.value.pos,
                           "count a list with count(...), or compare to make a bool")
            self._warn_unseen_variables(d, f)
        for pref in d.prefers:
            ctx = self._preference_context(d, pref)
            if ctx is None:
                continue
            if pref.where is not None:
                self.expect(pref.where, T.BOOL, ctx, "a preference")
            if pref.weight is not None:
                self.expect(pref.weight, T.NUMBER, ctx, "a preference's weight")
        for b in d.beliefs:
            self._check_belief(d, b)

    def _check_belief(self, d: ast.HeuristicDef, b: ast.Belief) -> None:
        """A belief binds things of a kind, names one of their properties and gives it a
        value of the property's type; its condition is a bool and its odds a number."""
        ctx = self._seat_context(d)
        self.check_params([b.param], ctx)
        if b.target.obj.id != b.param.name:
            return  # the parser said which name it binds
        t = self.expr(b.target, ctx)
        if t != T.ANY:
            self.expect(b.value, t, ctx, f"a belief about '{b.target.name}'")
        if b.odds is not None:
            self.expect(b.odds, T.NUMBER, ctx, "a belief's odds")

    def check_reaction(self, d: ast.ReactionDef, ctx: _Context) -> None:
        if d.event is None:
            self.error(f"reaction '{d.name}' does not say which window it answers", d.name_pos, "add 'on <window name>'")
        elif d.event not in self.windows and not self._emitted_unparsed(d.event):
            self.error(f"reaction '{d.name}' answers window '{d.event}' that no rule opens", d.event_pos,
                       did_you_mean(d.event, self.windows) or "open it with 'window NAME(...) as x'")
        ctx.event = d.event
        ctx.locals["event"] = event_type(d.event or "")
        if d.responder is not None:
            self.check_params([d.responder], ctx)
            if ctx.locals[d.responder.name] not in ("player", T.ANY):
                self.error(f"the reacting player '{d.responder.name}' must be a player, "
                           f"not {T.phrase(ctx.locals[d.responder.name])}",
                           d.responder.type.pos, f"write 'by {d.responder.name}: player ...'")
        elif d.by is None:
            self.error(f"reaction '{d.name}' does not say who may react", d.name_pos, "add 'by <player or list of players>'")
        else:
            t = self.expr(d.by, ctx)
            if not (T.assignable(t, "player") or T.assignable(t, "list of player")):
                self.error(f"'by' of a reaction must give a player or a list of players, not {T.phrase(t)}", d.by.pos,
                           "e.g. 'by players', 'by event.player', or 'by p: player in players' to name the one reacting")
        self.check_params(d.params, ctx)
        if d.responder is not None:
            responder, several = ast.Name(d.responder.pos, d.responder.name), False
        else:
            responder, several = d.by, T.is_list(getattr(d.by, "type", None) or "")
        for p in d.params:
            check_offer(self.bag, self.data, f"'with {p.name}'", p.source, responder, "the reacting player", several)
        for r in d.requires:
            self.expect(r.cond, T.BOOL, ctx, "a requirement")
            self.check_message(r)
        self.block(d.body, ctx, required=True)

    def check_message(self, r: ast.Require) -> None:
        """A '{name}' in a refusal message must name a parameter (its value is put there)."""
        for name in ast.MESSAGE_SLOT.findall(r.message or ""):
            if name not in self.data.parameters:
                self.error(f"unknown parameter '{name}' in the message", r.pos,
                           did_you_mean(name, self.data.parameters) or _NOT_A_PARAMETER.format(where="a message"))

    def check_prompt(self, s: ast.Choose) -> None:
        """A '{name}' in a choose's prompt must name a parameter, as in a refusal message."""
        for m in ast.MESSAGE_SLOT.finditer(s.prompt or ""):
            if m.group(1) in self.data.parameters:
                continue
            where = s.pos
            if s.prompt_pos is not None:  # the braces themselves, after the opening quote
                column = s.prompt_pos.column + 1 + m.start()
                where = Position(s.prompt_pos.file, s.prompt_pos.line, column, column + len(m.group(0)))
            self.error(f"unknown parameter '{m.group(1)}' in the prompt", where,
                       did_you_mean(m.group(1), self.data.parameters) or _NOT_A_PARAMETER.format(where="a prompt"))

    def _quiet_type(self, ref: ast.TypeRef | None) -> str:
        """resolve_type without its error (the definition's own check reports it)."""
        if ref is None or (ref.name != "list" and ref.name not in self.data.kinds and ref.name not in T.BASE_TYPES):
            return T.ANY
        return T.list_of(self._quiet_type(ref.item)) if ref.name == "list" else ref.name

    def resolve_type(self, ref: ast.TypeRef | None) -> str:
        if ref is None:
            return T.ANY
        if ref.name == "list":
            return T.list_of(self.resolve_type(ref.item))
        if ref.name not in self.data.kinds and ref.name not in T.BASE_TYPES and not self._undeclared_player(ref.name):
            self.error(f"unknown type '{ref.name}'", ref.pos, unknown_type_hint(ref.name, self.data.kinds))
            return T.ANY
        return ref.name

    # ------------------------------------------------------------ statements
    def block(self, block: ast.Block | None, ctx: _Context, required: bool = False) -> None:
        if block is None:
            if required:
                self.error(f"{ctx.definition.kind} '{ctx.definition.name}' has no 'do:' block", ctx.definition.name_pos,
                           "add a line 'do:' and the statements, indented under it")
            return
        for s in block.statements:
            self.stmt(s, ctx)

    def stmt(self, s: ast.Stmt, ctx: _Context) -> None:
        if isinstance(s, ast.Let):
            t = self.expr(s.value, ctx, allow_random=True)
            # an 'if' may set it in either branch: which one is as secret as its condition
            ctx.bound.setdefault(s.name, []).extend([s.value, *ctx.conditions])
            old = ctx.locals.get(s.name)
            ctx.locals[s.name] = t if old in (None, t, T.NONE) else (old if t == T.NONE else T.ANY)
        elif isinstance(s, ast.Set):
            self.set_stmt(s, ctx)
        elif isinstance(s, ast.If):
            conds = [cond for cond, _ in s.branches]
            for cond, body in s.branches:
                self.expect(cond, T.BOOL, ctx, "an 'if' condition")
                ctx.conditions += conds
                self.block(body, ctx)
                del ctx.conditions[len(ctx.conditions) - len(conds):]
            ctx.conditions += conds
            self.block(s.otherwise, ctx)
            del ctx.conditions[len(ctx.conditions) - len(conds):]
        elif isinstance(s, ast.ForEach):
            t = self.expr(s.iterable, ctx)
            if not T.is_list(t) and t != T.ANY:
                self.error(f"'for each' needs a list, not {T.phrase(t)}", s.iterable.pos, LIST_SOURCES)
            saved, saved_bound = ctx.locals.get(s.var), ctx.bound.get(s.var)
            ctx.locals[s.var], ctx.bound[s.var] = T.item_type(t), [s.iterable]
            ctx.loop_depth += 1
            self.block(s.body, ctx)
            ctx.loop_depth -= 1
            if saved is not None:
                ctx.locals[s.var] = saved
            _restore(ctx.bound, s.var, saved_bound)
        elif isinstance(s, ast.Repeat):
            self.expect(s.count, T.NUMBER, ctx, "a repeat count")
            count = self._known_number(s.count)
            if count is not None and count > MAX_REPEAT:
                self.error(f"'repeat {count} times' is more than the {MAX_REPEAT:,} repeats a rule may make", s.count.pos,
                           "a game never needs that many; loop over a list, or repeat fewer times")
            ctx.loop_depth += 1
            self.block(s.body, ctx)
            ctx.loop_depth -= 1
        elif isinstance(s, ast.Choose):
            t = self.expr(s.options, ctx)
            if not T.is_list(t) and t != T.ANY:
                self.error(f"'choose' picks from a list, not {T.phrase(t)}", s.options.pos, LIST_SOURCES)
            if s.chooser is not None:
                self.expect(s.chooser, "player", ctx, "the chooser")
            check_offer(self.bag, self.data, f"'choose {s.var}'", s.options, s.chooser or _CURRENT_PLAYER, "the chooser")
            self.check_prompt(s)
            ctx.locals[s.var] = T.item_type(t)
            # what the options are, for whoever lists every answer in advance (rulecraft.action_catalog)
            s.item_type = T.item_type(t)
            ctx.bound.setdefault(s.var, []).append(CHOSEN)
        elif isinstance(s, ast.Move):
            it = self.expr(s.item, ctx)
            if it in T.SCALARS or T.is_list(it):
                self.error(f"only things can be moved, not {T.phrase(it)}", s.item.pos,
                           "move one thing at a time; for every thing of a list, use 'for each'" if T.is_list(it)
                           else "move a component, e.g. 'move top(deck) to hand(p)'")
            self.expect(s.destination, T.ZONE, ctx, "a destination")
            held = self._held_kind(s.destination)
            if held is not None and it in self.data.kinds and it != held:
                zone = self.data.zones[s.destination.ref[1]]
                self.error(f"zone '{zone.name}' holds {held} things only, not {with_article(it)}",
                           s.item.pos, f"move {with_article(it)} to a zone that holds them (or none in particular), "
                           f"or change 'holds: {held}' of zone '{zone.name}'")
        elif isinstance(s, ast.Shuffle):
            self.expect(s.zone, T.ZONE, ctx, "what to shuffle")
        elif isinstance(s, ast.Emit):
            for _, e in s.fields:
                self.expr(e, ctx)
            if s.audience is None:
                self._warn_hidden_value_told_to_all(s, ctx)
            if s.audience is not None:
                t = self.expr(s.audience, ctx)
                if not (T.assignable(t, "player") or T.assignable(t, "list of player")):
                    self.error(f"an event goes to a player or a list of players, not {T.phrase(t)}", s.audience.pos,
                               "write 'to <player>' or 'to [p for p in players where ...]', or leave 'to' out for everyone")
        elif isinstance(s, ast.Window):
            for _, e in s.fields:
                self.expr(e, ctx)
            ctx.locals[s.var] = event_type(s.event)
        elif isinstance(s, ast.CallStmt):
            self.call_stmt(s, ctx)
        elif isinstance(s, ast.Break):
            if ctx.loop_depth == 0:
                self.error("'break' outside a loop", s.pos, "break leaves the innermost 'for each' or 'repeat'")
        elif isinstance(s, ast.Stop):
            pass
        elif isinstance(s, ast.ResourceChange):
            if s.amount is not None:
                self.expect(s.amount, T.NUMBER, ctx, f"what '{s.op}' changes by" if s.op != "reset" else "a reset value")
            self.resource_of(self.expr(s.holder, ctx), s.holder.pos, s.resource, s.resource_pos or s.pos)
        elif isinstance(s, ast.Reveal):
            self.reveal_stmt(s, ctx)
        elif isinstance(s, ast.RunEffect):
            self.run_effect_stmt(s, ctx)

    def _check_component_effects(self) -> None:
        """A component's `effect` names a procedure that takes the component itself."""
        procedures = self._defined("procedure")
        for c in self.data.components:
            if c.effect is None:
                continue
            pos = self.data.where.get(("component", c.name, "effect")) or self.data.where.get(("component", c.name))
            d = self.rs.definitions.get(c.effect)
            if d is None and self._defined_unparsed(c.effect):
                continue
            if d is None or d.kind != "procedure":
                self.error(f"component '{c.name}': effect names unknown procedure '{c.effect}'", pos,
                           did_you_mean(c.effect, procedures) or "declare it in a rule file: procedure NAME(c: KIND)")
            elif len(d.params) != 1 or not T.assignable(c.kind, self.resolve_type(d.params[0].type), self.names.zone_kinds):
                self.error(f"component '{c.name}': effect '{c.effect}' must take one {c.kind}, "
                           f"the component whose effect it is", pos, f"declare it 'procedure {c.effect}(c: {c.kind}):'")
            else:
                self.references[c.effect] += 1

    def run_effect_stmt(self, s: ast.RunEffect, ctx: _Context) -> None:
        t = self.expr(s.thing, ctx).rstrip("?")
        # the effects it may run are calls, so that an effect running itself is caught
        for effect in sorted({c.effect for c in self.data.components if c.effect and t in (T.ANY, c.kind)}):
            self.calls.setdefault(ctx.definition.name, []).append((effect, s.pos))
        if t == T.ANY:
            return
        if t not in self.data.kinds or t == "player":
            self.error(f"only a component has an effect, not {T.phrase(t)}", s.thing.pos,
                       "'run effect of' takes one component, e.g. the card a 'with' or 'choose' picked")
        elif not any(c.effect for c in self.data.components if c.kind == t):
            self.error(f"no component of kind '{t}' has an effect", s.thing.pos,
                       "name its procedure in the components table: effect: NAME")

    def resource_of(self, holder: str, holder_pos: Position, name: str, pos: Position) -> None:
        """``name`` (written at ``pos``) must be a resource of the kind ``holder`` (the type
        of what is written at ``holder_pos``; unknown at check time: any)."""
        if holder == T.ANY:
            return
        kind = self.data.kinds.get(holder)
        if kind is None and self._undeclared_player(holder):
            return
        if kind is None:
            self.error(f"{T.phrase(holder)} holds no resources", holder_pos,
                       "resources are number properties of a kind declared with resource: true; name a thing of such a kind")
        elif name not in kind.properties:
            self.error(f"kind '{holder}' has no resource '{name}'", pos,
                       did_you_mean_among(name, [n for n, p in kind.properties.items() if p.resource is not None],
                                          "resources"))
        elif kind.properties[name].resource is None:
            self.error(f"'{holder}.{name}' is not a resource", pos,
                       f"declare it one in the kind's properties: {name}: {{type: number, resource: true}}")

    def reveal_stmt(self, s: ast.Reveal, ctx: _Context) -> None:
        target = s.target
        if isinstance(target, ast.Attr):
            ot = self.expr(target.obj, ctx)
            kind = self.data.kinds.get(ot)
            if (kind is not None and target.name in kind.properties) or ot == T.ANY:
                s.property = target.name  # one property of the thing, not the thing
            elif kind is not None:
                close = did_you_mean(target.name, kind.properties)
                if close:  # a misspelt property, told as such everywhere else
                    self.error(f"kind '{ot}' has no property '{target.name}'", target.name_pos or target.pos, close)
                else:
                    self.error(f"only a thing or one of its properties can be {'hidden' if s.hide else 'revealed'}",
                               target.pos, did_you_mean_among(target.name, kind.properties, "properties"))
                return
        if getattr(s, "property", None) is None:
            t = self.expr(target, ctx)
            if t in T.SCALARS or T.is_list(t) or t in (T.ZONE, T.PLACEMENT):
                self.error(f"only things can be {'hidden' if s.hide else 'revealed'}, not {T.phrase(t)}", target.pos,
                           "for every thing of a list, use 'for each'")
        if s.players is not None:
            t = self.expr(s.players, ctx)
            if not (T.assignable(t, "player") or T.assignable(t, "list of player")):
                self.error(f"a thing is {'hidden from' if s.hide else 'revealed to'} a player or a list of players, "
                           f"not {T.phrase(t)}", s.players.pos, "name a player, or players for everyone")

    def _known_number(self, e: ast.Expr) -> int | None:
        """The value of a number known before the game: a literal or a parameter."""
        value = None
        if isinstance(e, ast.Literal):
            value = e.value
        elif isinstance(e, ast.Name) and getattr(e, "ref", None) == ("parameter", e.id):
            value = self.data.parameters[e.id].get("value")
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def _warn_public_argument_kept_hidden(self, s: ast.Set, ctx: _Context, target: str, visible_to: str) -> None:
        """An action and its arguments are told to every player; an argument that is a value
        (a number, a text, yes/no: not a thing a hidden zone keeps) kept in a property or
        variable some players may not see was seen by them all the moment it was chosen."""
        d = ctx.definition
        if visible_to == "everyone" or not isinstance(d, ast.ActionDef) or not isinstance(s.value, ast.Name):
            return
        param = next((p for p in d.params if p.name == s.value.id), None)
        if param is None or param.type is None or param.type.name not in (T.NUMBER, T.TEXT, T.BOOL):
            return
        self.bag.warning(f"'{param.name}' is an argument of the action '{d.name}', which every player sees when it "
                         f"is chosen, but it is kept in {target}, which not every player may see",
                         s.value.pos, f"ask it inside a rule with 'choose {param.name} from … by PLAYER', whose "
                         "answer only the chooser sees (a procedure the action calls, or a step of the round)",
                         code="leak")

    def _warn_hidden_value_told_to_all(self, s: ast.Emit, ctx: _Context) -> None:
        """An event without `to` goes to every player: a field reading a property that only
        its owner sees (a secret of a player), or that its owner may not see (a card held
        facing out), tells it to them all, unless the rule reveals
        that property to everyone (`reveal x.prop`), which makes it public on every screen
        too (the same property of the same thing as written, before the emit). What nobody
        sees is the rules' own bookkeeping, not a player's secret: telling
        it is the rules' way of announcing it."""
        # the same property of the same thing (as written), revealed to everyone before the emit
        revealed: set[str] = set()
        # things (as written) whose owner the rule takes away before the emit (a card
        # played to the table): a property their owner may not see is everyone's then
        unowned: set[str] = set()
        for x in statements_in(getattr(ctx.definition, "body", None)):
            if x is s:
                break
            if isinstance(x, ast.Reveal) and not x.hide and x.players is None and isinstance(x.target, ast.Attr):
                revealed.add(ast.written_name(x.target))
            if self._takes_owner_away(x):
                unowned.add(ast.written_name(x.object))
            elif isinstance(x, ast.CallStmt) and isinstance(self.rs.definitions.get(x.func), ast.ProcedureDef):
                # a procedure that takes away the owner of a thing it is given (show_to_all(c))
                called = self.rs.definitions[x.func]
                for param, arg in zip(called.params, x.args):
                    if any(self._takes_owner_away(y) and isinstance(y.object, ast.Name) and y.object.id == param.name
                           for y in statements_in(called.body)):
                        unowned.add(ast.written_name(arg))
        for name, e in s.fields:
            stack = [e]
            while stack:
                x = stack.pop()
                if _aggregate(x):
                    continue  # a total over several things (how many played a fail) is announced, not leaked
                stack.extend(child_nodes(x))
                if not isinstance(x, ast.Attr):
                    continue
                if isinstance(x.obj, ast.Name) and x.obj.id in ("game", "turn") or ast.written_name(x) in revealed:
                    continue
                kind = self.data.kinds.get((getattr(x.obj, "type", None) or T.ANY).rstrip("?"))
                spec = kind.properties.get(x.name) if kind is not None else None
                what = f"{kind.name}.{x.name}" if kind is not None else x.name
                if spec is not None and spec.visible_to == "others" and ast.written_name(x.obj) in unowned:
                    continue
                if spec is not None and spec.visible_to in ("owner", "others"):
                    who = "only its owner sees" if spec.visible_to == "owner" else "its owner may not see"
                    self.bag.warning(f"the event '{s.event}' goes to every player, and its field '{name}' reads "
                                     f"{what}, which {who}",
                                     x.pos, f"send it only to those who may see it ('emit {s.event}(…) to PLAYER'), "
                                     f"or, if the rules make it public here, reveal it first ('reveal "
                                     f"{ast.written_name(x)}'), so that every screen shows it",
                                     code="leak")
                    return

    def _takes_owner_away(self, x) -> bool:
        """``set X.OWNER = none``: a thing the rule leaves with no owner (a card put face up)."""
        if not (isinstance(x, ast.Set) and x.op == "=" and isinstance(x.value, ast.Literal) and x.value.value is None
                and getattr(x, "object", None) is not None):
            return False
        kind = self.data.kinds.get((getattr(x.object, "type", None) or T.ANY).rstrip("?"))
        return kind is not None and kind.owner_property == x.target[-1]

    def set_stmt(self, s: ast.Set, ctx: _Context) -> None:
        head, *middle, prop = s.target
        # where each name of the target is (the whole statement, for a node made without them)
        head_pos, *middle_pos, prop_pos = s.target_pos or [s.pos] * len(s.target)
        vt = self.expr(s.value, ctx)
        if head in ("game", "turn") and not middle and head not in ctx.locals:
            scope = self.data.variables.get(head, {})
            if prop not in scope:
                self.error(f"unknown {head} variable '{prop}'", prop_pos,
                           did_you_mean(prop, scope) or f"declare it under variables: {head}: in the rule set's YAML")
                return
            want = scope[prop].type
            nullable = scope[prop].nullable
            self._warn_public_argument_kept_hidden(s, ctx, f"{head}.{prop}", scope[prop].visible_to)
        else:
            obj: ast.Expr = ast.Name(head_pos, head)
            for m, m_pos in zip(middle, middle_pos):
                obj = ast.Attr(head_pos, obj, m, name_pos=m_pos)
            s.object = obj
            obj_pos = span(head_pos, middle_pos[-1] if middle_pos else head_pos)
            ot = self.expr(obj, ctx)
            if ot == T.ANY:
                return
            if is_event_type(ot):
                name = ot[len("event "):]
                if isinstance(ctx.definition, ast.TriggerDef):
                    self.error("a trigger cannot change the event it reacts to", obj_pos,
                               "only a reaction changes a window's record; a trigger reads it")
                elif name not in self.windows:
                    self.error(f"only the record of a window can be changed, and '{name}' is not a window", obj_pos,
                               f"open it with 'window {name}(...) as x' instead of 'emit' if reactions may change it")
                elif prop not in self.events.get(name, {}):
                    self.error(f"window '{name}' has no field '{prop}'", prop_pos,
                               did_you_mean_among(prop, self.events.get(name, {}), "fields"))
                elif name == ACTION_WINDOW and prop != "declined":
                    self.error(f"only 'declined' of the window '{ACTION_WINDOW}' can be changed: '{prop}' is read only",
                               prop_pos, "the action runs with the arguments it was chosen with")
                s.event_field = True
                return
            kind = self.data.kinds.get(ot)
            if kind is None and self._undeclared_player(ot):
                return
            if kind is None:
                self.error(f"cannot set a property of {T.phrase(ot)}", obj_pos,
                           "only things of a kind have properties to set, and the game. and turn. variables")
                return
            if prop not in kind.properties:
                self.error(f"kind '{ot}' has no property '{prop}'", prop_pos,
                           did_you_mean_among(prop, kind.properties, "properties"))
                return
            want = kind.properties[prop].type
            nullable = kind.properties[prop].nullable
            values = kind.properties[prop].values
            self._warn_public_argument_kept_hidden(s, ctx, f"{ot}.{prop}", kind.properties[prop].visible_to)
            # none is a value of a property declared with '?' ("text?"), whatever it lists
            if values is not None and isinstance(s.value, ast.Literal) and s.value.value not in values \
                    and not (s.value.value is None and kind.properties[prop].nullable):
                self.error(f"{ot}.{prop} cannot be {T.written_value(s.value.value)}", s.value.pos,
                           "allowed: " + ", ".join(map(str, values)))
        if s.op in ("+=", "-=") and T.is_list(want):
            if not T.is_list(vt) and vt != T.ANY:
                self.error(f"'{s.op}' {'adds' if s.op == '+=' else 'takes'} a list {'to' if s.op == '+=' else 'from'} "
                           f"{prop}; wrap the item: [x]", s.value.pos)
        elif s.op in ("+=", "-=") and not T.assignable(want, T.NUMBER):  # any (or unreadable) fits
            self.error(f"'{s.op}' needs a number, but {prop} is {T.phrase(want)}", prop_pos,
                       f"set it with '=' to {T.phrase(want)}")
        elif vt == T.NONE and nullable:
            pass  # declared with '?' ("number?"): none is one of its values
        elif not T.assignable(vt, want, self.names.zone_kinds):
            self.error(f"{prop} is {T.phrase(want)}; cannot set it to {T.phrase(vt)}", s.value.pos,
                       self.conversion_hint(s.value, want, vt) or f"set it to {T.phrase(want)}"
                       + (" or none" if want.endswith("?") else "") + f", or declare {prop} with another type")
        elif s.op == "=":
            self.misfit_parts(s.value, want, f"the value set to {'.'.join(s.target)} must be")
        elif T.is_list(want):  # '+=' / '-=' a written-out list: its items join the list
            self.misfit_parts(s.value, want, f"the list {'added to' if s.op == '+=' else 'taken from'} "
                                             f"{'.'.join(s.target)} must be")

    def call_stmt(self, s: ast.CallStmt, ctx: _Context) -> None:
        d = self.rs.definitions.get(s.func)
        if d is not None and d.kind == "procedure":
            self.references[s.func] += 1
            self.calls.setdefault(ctx.definition.name, []).append((s.func, s.pos))
            s.ref = ("procedure", s.func)
            self.check_args(s.func, [self.resolve_type(p.type) for p in d.params], s.args, s.pos, ctx,
                            [p.name for p in d.params])
            return
        if s.func in EFFECTS:
            s.ref = ("effect", s.func)
            self.check_args(s.func, list(EFFECTS[s.func].params), s.args, s.pos, ctx)
            return
        if d is not None or s.func in FUNCTIONS:
            if d is not None:
                self.references[s.func] += 1  # called, if wrongly: 'never used' would be a second report
            self.error(f"'{s.func}' is a function: its value would be thrown away", s.pos,
                       "use it in an expression, e.g. 'let x = ...'")
            for a in s.args:  # their own mistakes show in the same run
                self.expr(a, ctx)
            return
        s.ref = None
        if not self._defined_unparsed(s.func):
            self.error(f"unknown procedure '{s.func}'", s.pos,
                       did_you_mean(s.func, self._defined("procedure") + list(EFFECTS))
                       or f"declare it in a rule file: 'procedure {s.func}(...):'")
        for a in s.args:
            self.expr(a, ctx)

    def check_args(self, name: str, params: list[str], args: list[ast.Expr], pos: Position, ctx: _Context,
                   param_names: list[str] | None = None) -> None:
        usage = f"its signature is {signature(name, params, param_names)}"
        if len(args) != len(params):
            self.error(f"'{name}' takes {len(params)} argument(s), not {len(args)}", pos, usage)
        for a, want in zip(args, params):
            t = self.expr(a, ctx)
            if not T.assignable(t, want, self.names.zone_kinds):
                self.error(f"argument of '{name}' should be {T.phrase(want)}, not {T.phrase(t)}", a.pos,
                           self.conversion_hint(a, want, t) or usage)
            else:
                self.misfit_parts(a, want, f"argument of '{name}' should be")
        for a in args[len(params):]:
            self.expr(a, ctx)

    # ------------------------------------------------------------ expressions
    def expect(self, e: ast.Expr, want: str, ctx: _Context, what: str) -> str:
        t = self.expr(e, ctx)
        if not T.assignable(t, want, self.names.zone_kinds):
            self.error(f"{what} must be {T.phrase(want)}, not {T.phrase(t)}", e.pos,
                       self.conversion_hint(e, want, t) or (TEXT_FOR_NUMBER if (want, t) == (T.NUMBER, T.TEXT) else None))
        else:
            self.misfit_parts(e, want, f"{what} must be")
        return t

    def conversion_hint(self, e: ast.Expr, want: str, got: str) -> str | None:
        """The hint of a value ``e`` of type ``got`` where ``want`` is due: the parameter
        quoted by mistake it reads, else the usual way from one type to the other."""
        return self._quoted_parameter_hint(e, want) or conversion_hint(want, got)

    def _quoted_parameter_hint(self, e: ast.Expr, want: str) -> str | None:
        """For a parameter read where ``want`` is due whose value is a text that would read
        as ``want`` unquoted ('"20"' where a number is due): where the quotes are. Its type
        comes from its value, so the slip is there, not where a rule reads it."""
        if not isinstance(e, ast.Name) or getattr(e, "ref", None) != ("parameter", e.id):
            return None
        spec = self.data.parameters[e.id]
        value = spec.get("value")
        if spec.get("type") or not isinstance(value, str):
            return None
        unquoted = _UNQUOTED_BOOLS.get(value.strip().lower())
        reads_as = T.BOOL
        if unquoted is None and re.fullmatch(r"[-+]?[0-9]+", value.strip()):
            unquoted, reads_as = value.strip().lstrip("+"), T.NUMBER
        if unquoted is None or want.removesuffix("?") not in (reads_as, T.ANY):
            return None
        pos = self.data.where.get(("parameter", e.id, "value")) or self.data.where.get(("parameter", e.id))
        where = f" in {pos}" if pos is not None else ""
        return f"{e.id} is a text because its value is quoted{where}: write {unquoted} without quotes"

    def misfit_parts(self, e: ast.Expr, want: str, what: str) -> None:
        """The parts of ``e`` that do not fit ``want``, each an error at its place, though
        ``e`` as a whole fits: a conditional expression (``A if C else B``) whose branches
        disagree, or a written-out list whose items do, is typed ``any`` (or ``list of
        any``), which fits everywhere; yet the branch taken, or the odd item, is the value
        that arrives. (A branch or item that is none is left alone: none may stand for
        "nothing" wherever a value of a kind goes.) ``what`` starts the message: "… must be"."""
        if want == T.ANY:
            return
        if isinstance(e, ast.Ternary):
            parts, wanted, told = [e.then, e.otherwise], want, "this branch of '… if … else …' gives"
            hint = "both branches give the value, the one the condition picks: make them give the same type"
        elif isinstance(e, ast.ListExpr) and T.is_list(want):
            parts, wanted, told = e.items, T.item_type(want), "this item of the list is"
            hint = f"every item of the list must be {T.phrase(T.item_type(want))}"
        else:
            return
        if wanted == T.ANY:
            return
        for part in parts:
            got = getattr(part, "type", None) or T.ANY
            if got == T.NONE:
                continue
            if T.assignable(got, wanted, self.names.zone_kinds):
                self.misfit_parts(part, wanted, what)
            else:
                self.error(f"{what} {T.phrase(want)}, but {told} {T.phrase(got)}", part.pos,
                           self.conversion_hint(part, wanted, got) or hint)

    def expr(self, e: ast.Expr, ctx: _Context, allow_random: bool = False, wanted: str | None = None) -> str:
        """The type of ``e``; ``wanted``: the type its place takes, when that narrows
        which known name an unknown one was meant to be."""
        t = self._expr(e, ctx, allow_random, wanted)
        e.type = t
        return t

    def _expr(self, e: ast.Expr, ctx: _Context, allow_random: bool, wanted: str | None = None) -> str:
        if isinstance(e, ast.Literal):
            return T.python_value_type(e.value)
        if isinstance(e, ast.Name):
            return self.name(e, ctx, wanted)
        if isinstance(e, ast.Attr):
            return self.attr(e, ctx)
        if isinstance(e, ast.Index):
            return self.index(e, ctx)
        if isinstance(e, ast.Call):
            return self.call(e, ctx, allow_random)
        if isinstance(e, ast.Unary):
            if e.op == "not":
                self.expect(e.operand, T.BOOL, ctx, "the operand of 'not'")
                return T.BOOL
            self.expect(e.operand, T.NUMBER, ctx, "the operand of '-'")
            if self._optional_parameter(e.operand):
                ctx.optional_math.append(e.operand)
            return T.NUMBER
        if isinstance(e, ast.Binary):
            return self.binary(e, ctx)
        if isinstance(e, ast.Ternary):
            self.expect(e.cond, T.BOOL, ctx, "a condition")
            a = self.expr(e.then, ctx)
            b = self.expr(e.otherwise, ctx)
            return a if a == b or b == T.NONE else (b if a == T.NONE else T.ANY)
        if isinstance(e, ast.ListExpr):
            items = {self.expr(i, ctx) for i in e.items}
            return T.list_of(items.pop() if len(items) == 1 else T.ANY)
        if isinstance(e, ast.Comprehension):
            it = self.expr(e.iterable, ctx)
            if not T.is_list(it) and it != T.ANY:
                self.error(f"'for' in a list needs a list, not {T.phrase(it)}", e.iterable.pos, LIST_SOURCES)
            saved, saved_bound = ctx.locals.get(e.var), ctx.bound.get(e.var)
            ctx.locals[e.var], ctx.bound[e.var] = T.item_type(it), [e.iterable]
            if e.where is not None:
                self.expect(e.where, T.BOOL, ctx, "a 'where' condition")
            if e.best is not None:
                for key in (e.best, *e.best_then):
                    self.order_key(key, ctx, "with highest" if e.highest else "with lowest")
            for key in e.order:
                self.order_key(key, ctx, "by")
            item = self.expr(e.item, ctx)
            if saved is None:
                del ctx.locals[e.var]
            else:
                ctx.locals[e.var] = saved
            _restore(ctx.bound, e.var, saved_bound)
            return T.list_of(item)
        return T.ANY

    def order_key(self, key: ast.Expr, ctx: _Context, clause: str) -> None:
        """A key of a comprehension's ``with highest``/``with lowest`` or ``by``: items are
        compared by it, so it must be a number or a text."""
        t = self.expr(key, ctx).removesuffix("?")
        if t in ORDER_KEY_TYPES or t == T.ANY:
            return
        self.error(f"a '{clause}' key must be a number or a text, not {T.phrase(t)}", key.pos,
                   self._order_key_hint(key, t, clause))

    def _order_key_hint(self, key: ast.Expr, t: str, clause: str) -> str:
        written = self._written(key)
        kind = self.data.kinds.get(t)
        if kind is not None:
            usable = [n for n, p in kind.properties.items() if p.type.removesuffix("?") in ORDER_KEY_TYPES]
            example = f"{written or 'x'}.{usable[0] if usable else 'PROPERTY'}"
            return ("things are compared by one of their number or text properties"
                    + (f" ({', '.join(usable)})" if usable else "") + f": '{clause} {example}'")
        if t == T.BOOL:
            condition = written or "CONDITION"
            if clause == "by":
                return f"to put first the items for which it holds, write 'by (0 if {condition} else 1)'"
            # the highest of 1s and 0s are the 1s, the lowest the 0s: the items for which it holds
            first, second = ("1", "0") if clause == "with highest" else ("0", "1")
            return (f"to keep the items for which it holds, write "
                    f"'{clause} ({first} if {condition} else {second})'")
        if T.is_list(t):
            return f"to compare lists by their length, write '{clause} count({written or '...'})'"
        return f"compare the items by a number or a text, e.g. '{clause} x.PROPERTY'"

    def _written(self, e: ast.Expr) -> str | None:
        """``e`` as the rule writes it, when it stands on one line."""
        pos = e.pos
        line = self.bag.sources.line(pos.file, pos.line) if pos is not None else None
        if line is None or pos.end_column is None:
            return None
        return line[pos.column - 1:pos.end_column - 1].strip() or None

    def name(self, e: ast.Name, ctx: _Context, wanted: str | None = None) -> str:
        n = e.id
        self.mentioned_names.add(n)
        d = self.data
        if n in ctx.locals:
            e.ref = ("local", n)
            if n in ctx.bound:
                e.bound = list(ctx.bound[n])
            return ctx.locals[n]
        if n in VALUES:
            e.ref = ("value", n)
            return VALUES[n][0]
        if n in d.zones and not d.zones[n].per_player and not d.zones[n].per_entity:
            e.ref = ("zone", n)
            return T.ZONE
        if n in d.kinds:
            e.ref = ("kind", n)
            return T.list_of(n)
        if n in self.names.entities:
            e.ref = ("entity", n)
            return self.names.entities[n]
        if n in d.parameters:
            e.ref = ("parameter", n)
            return parameter_type(d.parameters[n])
        if n in d.dice:
            e.ref = ("die", n)
            return T.DIE
        if n in d.tables:
            e.ref = ("table", n)
            return "table"
        if n in ("game", "turn"):
            e.ref = ("scope", n)
            return T.SCOPE
        e.ref = None
        hint = did_you_mean(n, set(ctx.locals) | self.names.all_names() | LITERAL_WORDS) or (
            "a name is a local (a parameter, 'let', 'for each', 'choose'), a kind, zone, component, "
            "parameter, table or die of the rule set, or one of: " + ", ".join(sorted(VALUES)))
        if wanted == T.DIE and d.dice:
            # only a die fits here: the near miss is one of the dice, however short their names
            hint = did_you_mean_among(n, d.dice, "dice")
        elif n in d.zones:
            owner = d.zones[n].per if d.zones[n].per_entity else "player"
            hint = f"'{n}' is a zone of each {owner}: write {n}({owner})"
        elif n in self.rs.definitions:
            self.references[n] += 1  # meant as a call: 'never used' would be a second report
            hint = f"'{n}' is {with_article(self.rs.definitions[n].kind)}: call it with ( )"
        elif re.fullmatch(r"p[1-9][0-9]*", n):  # a seat as scenarios and logs write it
            hint = (f"the rules name no seat: '{n}' is how scenarios and logs write one; reach a player through "
                    "players (first(players), next_player(p)) or current_player")
        self.error(f"unknown name '{n}'", e.pos, hint)
        return T.ANY

    def attr(self, e: ast.Attr, ctx: _Context) -> str:
        ot = self.expr(e.obj, ctx)
        pos = e.name_pos or e.pos
        if ot == T.ANY:
            # what the thing is cannot be told here (a zone of several kinds, an event's
            # field), but a name that no kind has as a property and no event or action
            # record has as a field is a slip wherever it is read
            if e.name not in self._readable_names():
                self.error(f"no kind has a property '{e.name}', nor any event or action a field of that name", pos,
                           did_you_mean_among(e.name, self._readable_names(), "properties and fields"),
                           code=UNREADABLE_NAME)
            return T.ANY
        if ot == T.SCOPE:
            scope = e.obj.id
            vars_ = self.data.variables.get(scope, {})
            if e.name not in vars_:
                self.error(f"unknown {scope} variable '{e.name}'", pos,
                           did_you_mean(e.name, vars_) or f"declare it under variables: {scope}: in the rule set's YAML")
                return T.ANY
            return vars_[e.name].type
        if is_event_type(ot):
            name = ot[len("event "):]
            if name not in self.emitted:
                return T.ANY  # the unknown event itself is already reported
            fields = self.events.get(name, {})
            if e.name not in fields:
                self.error(f"event '{name}' has no field '{e.name}'", pos, did_you_mean_among(e.name, fields, "fields"))
                return T.ANY
            return fields[e.name]
        kind = self.data.kinds.get(ot)
        if kind is None and self._undeclared_player(ot):
            return T.ANY
        if kind is None:
            self.error(f"{T.phrase(ot)} has no properties", pos,
                       "only things of a kind have properties" + (f"; each thing of the list: [x.{e.name} for x in ...]"
                                                                   if T.is_list(ot) else ""))
            return T.ANY
        if e.name == "at":
            return kind.located_in or T.ZONE
        if e.name == "id":
            return T.TEXT
        if e.name not in kind.properties:
            self.error(f"kind '{ot}' has no property '{e.name}'", pos,
                       did_you_mean_among(e.name, set(kind.properties) | ENTITY_ATTRIBUTES, "properties"))
            return T.ANY
        return kind.properties[e.name].type

    def _readable_names(self) -> set[str]:
        """Every name ``x.name`` can read on a value of unknown type: the kinds'
        properties, a thing's own attributes, the fields of every event (the engine's,
        the rules' and the windows'), and the arguments of every definition (an action's
        arguments come as a record)."""
        if self._readable is None:
            names = set(ENTITY_ATTRIBUTES) | {"type", "seq", "audience"}
            for kind in self.data.kinds.values():
                names.update(kind.properties)
            for fields in self.events.values():
                names.update(fields)
            for d in self.rs.definitions.values():
                names.update(p.name for p in getattr(d, "params", []))
            self._readable = names
        return self._readable

    def index(self, e: ast.Index, ctx: _Context) -> str:
        ot = self.expr(e.obj, ctx)
        kt = self.expr(e.key, ctx)
        if ot == "table":
            table = self.data.tables[e.obj.id]
            if isinstance(e.key, ast.Literal) and e.key.value not in table and str(e.key.value) not in map(str, table):
                self.error(f"table '{e.obj.id}' has no entry {e.key.value!r}", e.key.pos,
                           number_keys_hint(e.key.value, table)
                           or did_you_mean_among(str(e.key.value), map(str, table), "entries"))
            kinds = {T.python_value_type(v) for v in table.values()}
            return kinds.pop() if len(kinds) == 1 else T.ANY
        if T.is_list(ot):
            if kt not in (T.NUMBER, T.ANY):
                self.error(f"a list is indexed by a number, not {T.phrase(kt)}", e.key.pos,
                           "to find an item, filter the list: [x for x in ... where ...]")
            return T.item_type(ot)
        if ot != T.ANY:
            self.error(f"{T.phrase(ot)} cannot be indexed", e.pos, "roll a die with 'let x = roll(die)'" if ot == T.DIE
                       else "only a list (by a number) and a table (by an entry) are indexed")
        return T.ANY

    def call(self, e: ast.Call, ctx: _Context, allow_random: bool) -> str:
        n = e.func
        d = self.rs.definitions.get(n)
        if d is not None and d.kind == "function":
            self.references[n] += 1
            self.calls.setdefault(ctx.definition.name, []).append((n, e.pos))
            e.ref = ("function", n)
            self.check_args(n, [self.resolve_type(p.type) for p in d.params], e.args, e.pos, ctx, [p.name for p in d.params])
            return self.resolve_type(d.returns) if d.returns else T.ANY
        if n in self.data.zones and (self.data.zones[n].per_player or self.data.zones[n].per_entity):
            e.ref = ("player_zone", n)  # a zone of each player, or of each entity of a kind
            self.check_args(n, [self.data.zones[n].per if self.data.zones[n].per_entity else "player"], e.args, e.pos, ctx)
            return T.ZONE
        if n == "seen":
            return self._seen_call(e, ctx)
        if n in FUNCTIONS:
            sig = FUNCTIONS[n]
            e.ref = ("builtin", n)
            if sig.random and not allow_random:
                self.error(f"'{n}' draws at random, so it may only be the value of a 'let'", e.pos,
                           f"write 'let x = {n}(...)' and use x")
            usage = f"its signature is {signature(n, list(sig.params))}"
            if len(e.args) != len(sig.params):
                self.error(f"'{n}' takes {len(sig.params)} argument(s), not {len(e.args)}", e.pos, usage)
            types = []
            for a, want in zip(e.args, sig.params):
                t = self.expr(a, ctx, wanted=want)
                types.append(t)
                if not T.assignable(t, want, self.names.zone_kinds):
                    self.error(f"argument of '{n}' should be {T.phrase(want)}, not {T.phrase(t)}", a.pos,
                               self.conversion_hint(a, want, t) or usage)
            if n == "roll":
                die = e.args[0] if e.args else None
                if isinstance(die, ast.Name) and getattr(die, "ref", None) and die.ref[0] == "die":
                    faces = {T.python_value_type(v) for v in self.data.dice[die.id]}
                    return faces.pop() if len(faces) == 1 else T.ANY
            held = self._held_kind(e.args[0]) if n in ZONE_ITEMS and e.args else None
            if held:
                # top of an empty zone is none: read as the rules' own values are, where
                # none is checked at run time, not as a type every use must test first
                return T.list_of(held) if n == "contents" else held
            return self._board_result(n, sig.result(types))
        e.ref = None
        if d is not None:
            self.references[n] += 1  # called, if wrongly: 'never used' would be a second report
            self.error(f"'{n}' is {with_article(d.kind)} and gives no value", e.pos, "call it as a statement on its own line")
        elif n in EFFECTS:
            self.error(f"'{n}' is an effect and gives no value", e.pos, "call it as a statement on its own line")
        elif not self._defined_unparsed(n):
            self.error(f"unknown function '{n}'", e.pos,
                       (f"the language's own is '{OTHER_LANGUAGES_NAMES[n]}'" if n in OTHER_LANGUAGES_NAMES else None)
                       or did_you_mean(n, self.names.callables())
                       or f"neither the rule set nor the language has it: declare 'function {n}(...) -> TYPE:'")
        for a in e.args:
            self.expr(a, ctx)
        return T.ANY

    def _seen_call(self, e: ast.Call, ctx: _Context) -> str:
        """``seen("kind")``: the seat's remembered events of one kind, a list of records
        whose fields are read like a trigger's ``event``."""
        e.ref = ("builtin", "seen")
        self.memory_readers.setdefault(ctx.definition.name, e.pos)
        for a in e.args:
            self.expr(a, ctx)
        arg = e.args[0] if len(e.args) == 1 else None
        if not (isinstance(arg, ast.Literal) and isinstance(arg.value, str)):
            self.error("'seen' takes the name of one event, in quotes", e.pos, 'write seen("moved")')
            return T.list_of(T.ANY)
        if arg.value not in self.emitted:
            if self._emitted_unparsed(arg.value):
                return T.list_of(T.ANY)
            self.error(f"'seen' names event '{arg.value}', which nothing emits", arg.pos,
                       did_you_mean_among(arg.value, self.emitted, "events"))
            return T.list_of(T.ANY)
        return T.list_of(event_type(arg.value))

    def _held_kind(self, zone: ast.Expr) -> str | None:
        """The kind a zone declares it holds (``holds:``), for a zone named in the rules
        (``discard``, ``hand(p)``): what ``contents`` and ``top`` of it give, so that a
        misspelt property of what they give is caught here rather than read as none."""
        ref = getattr(zone, "ref", None)
        if ref and ref[0] in ("zone", "player_zone"):
            return self.data.zones[ref[1]].holds
        return None

    def _board_result(self, name: str, result: str) -> str:
        """Board functions give spaces (and connections) of the rule set's own kinds."""
        board = self.data.board
        if board is None or board.kind == "tiles":
            return result
        shape = BOARD_RESULTS.get(name)
        if shape is None:
            return result
        kind = board.connection_kind if name == "link" else board.space_kind
        return shape.format(kind) if kind else result

    def binary(self, e: ast.Binary, ctx: _Context) -> str:
        op = e.op
        if op in ("and", "or"):
            self.expect(e.left, T.BOOL, ctx, f"the left side of '{op}'")
            self.expect(e.right, T.BOOL, ctx, f"the right side of '{op}'")
            return T.BOOL
        if op == "+":
            a = self.expr(e.left, ctx)
            if T.is_list(a):  # joining two lists
                b = self.expr(e.right, ctx)
                if not T.is_list(b) and b != T.ANY:
                    self.error(f"a list can only be joined with a list, not {T.phrase(b)}", e.right.pos, "wrap the item: [x]")
                if a == b or b == T.ANY or T.item_type(b) == T.NONE:
                    return a  # `things + [none]`: "one of these, or none", still a list of things
                return b if T.item_type(a) == T.NONE else T.list_of(T.ANY)
            # the left side's type is known already: checking it again would make a chain
            # a + b + c + ... cost 2^n
            if not T.assignable(a, T.NUMBER, self.names.zone_kinds):
                self.error(f"the left side of '+' must be a number, not {T.phrase(a)}", e.left.pos,
                           self.conversion_hint(e.left, T.NUMBER, a) or "'+' adds two numbers or joins two lists")
            self.expect(e.right, T.NUMBER, ctx, "the right side of '+'")
            ctx.optional_math += [x for x in (e.left, e.right) if self._optional_parameter(x)]
            return T.NUMBER
        if op in ("-", "*", "//", "%"):
            self.expect(e.left, T.NUMBER, ctx, f"the left side of '{op}'")
            self.expect(e.right, T.NUMBER, ctx, f"the right side of '{op}'")
            # ('//' and '%' by none give 0, as by 0: only a none on their left stops the game)
            ctx.optional_math += [x for x in ((e.left, e.right) if op in ("-", "*") else (e.left,))
                                  if self._optional_parameter(x)]
            return T.NUMBER
        if op in ("<", "<=", ">", ">="):
            self.expect(e.left, T.NUMBER, ctx, f"the left side of '{op}'")
            self.expect(e.right, T.NUMBER, ctx, f"the right side of '{op}'")
            return T.BOOL
        if op in ("in", "not in"):
            self.expr(e.left, ctx)
            rt = self.expr(e.right, ctx)
            if isinstance(e.right, ast.ListExpr):
                for item in e.right.items:
                    self._never_equal(e.left, item, op)
            if not T.is_list(rt) and rt != T.ANY:
                self.error(f"'{op}' needs a list on its right, not {T.phrase(rt)}", e.right.pos,
                           "to compare two values, write '==' or '!='" if rt in T.SCALARS or rt in self.data.kinds
                           else LIST_SOURCES)
            return T.BOOL
        a = self.expr(e.left, ctx)
        b = self.expr(e.right, ctx)
        if self._unset_parameter_test(e.left, b) or self._unset_parameter_test(e.right, a):
            # 'limit == none': a parameter declared 'number?' may be none
            ctx.none_tested.add(e.left.id if self._unset_parameter_test(e.left, b) else e.right.id)
        elif self._unset_property_test(e.left, b) or self._unset_property_test(e.right, a):
            pass  # 'p.bid == none': a property declared 'number?' may be none
        elif not (T.assignable(a, b, self.names.zone_kinds) or T.assignable(b, a, self.names.zone_kinds)):
            self.error(f"comparing {T.phrase(a)} with {T.phrase(b)} is always {'false' if op == '==' else 'true'}", e.pos,
                       self._quoted_parameter_hint(e.left, b) or self._quoted_parameter_hint(e.right, a)
                       or "compare values of one type; one side may name the wrong thing or property")
        else:
            self._never_equal(e.left, e.right, op) or self._never_equal(e.right, e.left, op)
        return T.BOOL

    def _listed_values(self, e: ast.Expr, params: dict[str, str] | None = None,
                       called: tuple[str, ...] = ()) -> tuple[str, list] | None:
        """The name and ``values:`` of the property or variable ``e`` reads, if it lists them;
        through the rules' functions too (``suit_of(c) == "Hearts"`` where the function
        is ``= c.suit``). ``params``: the types of the parameters of the function whose
        value ``e`` is (that body may not be checked yet)."""
        if isinstance(e, ast.Call):
            function = self.rs.definitions.get(e.func)
            if (not isinstance(function, ast.FunctionDef) or function.value is None or e.func in called
                    or len(called) > 8):
                return None
            return self._listed_values(function.value, {q.name: q.type.name for q in function.params},
                                       called + (e.func,))
        declared = self._declared_spec(e, params)
        if declared is None:
            return None
        label, spec = declared
        values = getattr(spec, "values", None)
        return (label, values) if values else None

    def _declared_spec(self, e: ast.Expr, params: dict[str, str] | None = None):
        """(name, declaration) of the property or variable ``e`` reads (``p.bid``,
        ``game.stage``), or None when ``e`` reads none or its owner's kind is unknown."""
        if not isinstance(e, ast.Attr):
            return None
        owner = (getattr(e.obj, "type", None) or "").removesuffix("?")
        if not owner and params and isinstance(e.obj, ast.Name):
            owner = params.get(e.obj.id, "")
        if owner == T.SCOPE and isinstance(e.obj, ast.Name):
            spec = self.data.variables.get(e.obj.id, {}).get(e.name)
            label = f"{e.obj.id}.{e.name}"
        else:
            kind = self.data.kinds.get(owner)
            spec = kind.properties.get(e.name) if kind is not None else None
            label = f"{owner}.{e.name}"
        return None if spec is None else (label, spec)

    def _unset_property_test(self, e: ast.Expr, other: str) -> bool:
        """Is ``e`` a property or variable declared with '?' (``type: "number?"``: none
        until it is set), compared with none? Read as its type, it may also be none."""
        declared = self._declared_spec(e) if other == T.NONE else None
        return declared is not None and declared[1].nullable

    def _unset_parameter_test(self, e: ast.Expr, other: str) -> bool:
        """Is ``e`` a parameter whose declared type ends in ``?`` (``type: number?``), compared
        with none? Such a parameter is read as its type, and may also be none ("no limit")."""
        if other != T.NONE or not isinstance(e, ast.Name) or getattr(e, "ref", None) != ("parameter", e.id):
            return False
        return str(self.data.parameters[e.id].get("type") or "").endswith("?")

    @staticmethod
    def _written_value(e: ast.Expr) -> tuple[bool, object]:
        """Whether ``e`` is a value written out in the rules, and which. (Not a parameter: a
        variant may set it, and a value no thing holds can be meant: "no trump suit".)"""
        if isinstance(e, ast.Literal) and e.value is not None and not isinstance(e.value, bool):
            return True, e.value
        return False, None

    def _never_equal(self, read: ast.Expr, other: ast.Expr, op: str) -> bool:
        """A comparison of a listed property or variable with a written value it can never
        hold (a misspelt "Hearts" for "hearts") is always false or always true: an error,
        as the same value given to it with 'set' is."""
        listed = self._listed_values(read)
        written, value = self._written_value(other)
        if listed is None or not written:
            return False
        label, values = listed
        if value in values:
            return False
        always = "false" if op in ("==", "in") else "true"
        if isinstance(read, ast.Call):  # the property is read inside the function
            label = f"{read.func}(…) gives {label}, which"
        self.error(f"{label} is never {T.written_value(value)}, so this comparison is always {always}",
                   other.pos, did_you_mean(str(value), [str(v) for v in values]) or
                   "its values: " + ", ".join(map(str, values)))
        return True


# The hint of a text where a number is due, when nothing tells more.
TEXT_FOR_NUMBER = ("a text is not a number, even one made of digits: write the number without quotes, or read a number "
                   "property or parameter")
# Texts that read as a bool once their quotes are gone, and the bool to write.
_UNQUOTED_BOOLS = {"true": "true", "false": "false", "yes": "true", "no": "false", "on": "true", "off": "false"}
# Words the language writes as values: a misspelt one reads as an unknown name.
LITERAL_WORDS = frozenset({"true", "false", "none"})
# What a comprehension's items may be ordered and chosen by (`by`, `with highest`).
ORDER_KEY_TYPES = frozenset({T.NUMBER, T.TEXT})
# Where a list comes from, for hints where one is needed.
LIST_SOURCES = "a list is a kind's name (all its things), contents(<zone>), players, [a, b] or [x for x in ...]"


def signature(name: str, params: list[str], param_names: list[str] | None = None) -> str:
    """How a callable is called, for hints: 'deal(p: player)', 'lines(number)'."""
    if param_names is not None:
        return f"{name}(" + ", ".join(f"{n}: {t}" for n, t in zip(param_names, params)) + ")"
    return f"{name}(" + ", ".join(params) + ")"


def number_keys_hint(key, table: dict) -> str | None:
    """For a number read from a table whose keys are all numbers, the keys it has: their
    range when they run without a gap ("the table's keys are 2 to 12"), else a list of them
    (a number near in writing, 3 for 13, is rarely the one meant). None otherwise."""
    if isinstance(key, bool) or not isinstance(key, int) or not table:
        return None
    keys = []
    for k in table:
        if isinstance(k, bool):
            return None
        if isinstance(k, str) and re.fullmatch(r"-?[0-9]+", k.strip()):
            k = int(k)
        if not isinstance(k, int):
            return None
        keys.append(k)
    keys = sorted(set(keys))
    if len(keys) == 1:
        return f"the table's only key is {keys[0]}"
    if keys == list(range(keys[0], keys[-1] + 1)):
        return f"the table's keys are {keys[0]} to {keys[-1]}"
    shown = ", ".join(map(str, keys)) if len(keys) <= 12 else ", ".join(map(str, keys[:10])) + f", … {keys[-1]}"
    return f"the table's keys are {shown}"


def conversion_hint(want: str, got: str) -> str | None:
    """How a value of type ``got`` usually becomes the ``want`` a place needs, when
    there is a usual way."""
    if got == T.ANY:
        return None
    if want == T.BOOL and got == T.NUMBER:
        return "compare the number to get a bool, e.g. '... > 0'"
    if want == T.BOOL and T.is_list(got):
        return "test the list: any(...), all(...), or count(...) > 0"
    if want == T.BOOL and got not in T.SCALARS:
        return "compare it to get a bool, e.g. '... == none' or '... != none'"
    if want == T.NUMBER and T.is_list(got):
        return "count(...) gives how many items a list has"
    if want == T.NUMBER and got == T.BOOL:
        return "a bool is not a number: write 'true'/'false' where a bool is wanted, or a number here"
    if want == T.ZONE:
        return "a zone is a name of the zones table, or NAME(player) for a zone of each player"
    if T.is_list(want) and not T.is_list(got):
        return "wrap a single item in a list: [x]"
    if not T.is_list(want) and T.is_list(got):
        return "pick one item of the list: first(...), last(...), or any(...) to test it"
    return None


def event_type(name: str) -> str:
    return f"event {name}"


def is_event_type(t: str) -> bool:
    return t.startswith("event ")


def _child_blocks(s: ast.Stmt) -> list[ast.Block]:
    if isinstance(s, ast.If):
        return [b for _, b in s.branches] + ([s.otherwise] if s.otherwise else [])
    if isinstance(s, (ast.ForEach, ast.Repeat)):
        return [s.body]
    return []


_NOT_A_PARAMETER = ("'{{NAME}}' in {where} is replaced by the value of the parameter NAME; a variable, a property, "
                     "a chosen or local value cannot be put there: word it without it")


def check_definitions(ruleset: RuleSet) -> None:
    Checker(ruleset).run()
    warn_lasting_reveals(ruleset, ruleset.bag)
    check_lookup_keys(ruleset)  # computes keys from the annotations the checker leaves


_AGGREGATES = frozenset({"count", "sum", "min", "max", "any", "all"})


def _aggregate(e) -> bool:
    """A count, total, least, greatest, any or all of a comprehension: one figure made
    of several things' values, which tells none of them."""
    return (isinstance(e, ast.Call) and getattr(e, "ref", None) == ("builtin", e.func) and e.func in _AGGREGATES
            and len(e.args) == 1 and isinstance(e.args[0], ast.Comprehension))


