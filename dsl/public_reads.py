"""Which reaction windows offer each player answers that every player can work out.

A window played for people asks every player a reaction could name, even one who can
only pass, so that being asked tells nobody who holds a reaction card. That is needless
where the reactions read only what everyone sees (open hands, public properties, the
window's own record): then everyone already knows who can answer, and asking someone
who can only pass just makes them click. This module finds those windows from the
rules, before any game: an expression is *read in public* when everything it may read
is seen by every player. Anything it cannot be sure of (a location, a zone or a
property some player does not see, a standard function reading the whole state) counts
as hidden, so a window is never wrongly thought public.
"""

from __future__ import annotations

from . import ast
from .dependencies import BOARD_BUILTINS, FIXED_BUILTINS, child_nodes
from .model import RuleSet

# Standard functions whose value follows from their arguments and what everyone sees:
# the zone functions read only the zone they are given, which is judged on its own.
# A die's roll is told to every player.
_PUBLIC_BUILTINS = FIXED_BUILTINS | BOARD_BUILTINS | frozenset(
    {"contents", "top", "bottom", "on_board", "placed", "placements", "placements_anywhere", "roll"})
# names of the rules whose values everyone knows (players, turn and round counters,
# parameters, tables, dice, kinds, named components) or that a reaction binds itself
_PUBLIC_NAMES = frozenset({"local", "value", "parameter", "table", "die", "kind", "entity"})
# what the checker records as having given a local its value when a `choose` did (a
# Name's ``bound``: the expressions a `let` set it to, the list a loop takes it from)
CHOSEN = "chosen"


def public_windows(ruleset: RuleSet) -> frozenset[str]:
    """The windows whose every reaction decides who may react, and with what, from what
    every player sees (see the module's text). A window no reaction answers is left out:
    nobody is asked there anyway."""
    reader = _PublicReader(ruleset)
    verdicts: dict[str, bool] = {}
    for reaction in ruleset.of_kind("reaction"):
        exprs = [reaction.by]
        for param in ([reaction.responder] if reaction.responder is not None else []) + list(reaction.params):
            exprs += [param.source, param.where]
        exprs += [req.cond for req in reaction.requires]
        public = all(reader.public(e) for e in exprs if e is not None)
        verdicts[reaction.event] = verdicts.get(reaction.event, True) and public
    return frozenset(name for name, public in verdicts.items() if public)


class _PublicReader:
    def __init__(self, ruleset: RuleSet):
        data = ruleset.data
        self.functions = {d.name: d for d in ruleset.of_kind("function")}
        self.public_zones = {name for name, spec in data.zones.items() if spec.visible_to == "everyone"}
        self.every_zone_public = len(self.public_zones) == len(data.zones)
        self.hidden_properties = {name for kind in data.kinds.values()
                                  for name, spec in kind.properties.items() if spec.visible_to != "everyone"}
        self.hidden_variables = {(scope, name) for scope, specs in data.variables.items()
                                 for name, spec in specs.items() if spec.visible_to != "everyone"}
        # kinds whose things stand on the board's spaces, where everyone sees them
        self.on_spaces = {name for name, kind in data.kinds.items()
                          if kind.located_in is not None and kind.located_in != "zone"}
        self.top_visible = {name for name, spec in data.zones.items() if spec.top_visible}
        self._functions_public: dict[str, bool] = {}

    def public(self, expr) -> bool:
        todo = [expr]
        while todo:
            node = todo.pop()
            if self._shown_top(node):
                continue  # the top of a zone whose top everyone sees, whatever hides the rest
            if not self._node_public(node):
                return False
            if not isinstance(node, ast.Attr) or getattr(node.obj, "type", None) != "scope":
                todo.extend(child_nodes(node))
        return True

    def _shown_top(self, node) -> bool:
        if not (isinstance(node, ast.Call) and getattr(node, "ref", None) == ("builtin", "top") and node.args):
            return False
        zone = node.args[0]
        ref = getattr(zone, "ref", None)
        if isinstance(zone, ast.Name):
            return ref is not None and ref[0] == "zone" and ref[1] in self.top_visible
        # a zone of a player, `pile(p)`, named by what everyone sees
        return isinstance(zone, ast.Call) and ref is not None and ref[0] == "player_zone" \
            and ref[1] in self.top_visible and all(self.public(a) for a in zone.args)

    def _node_public(self, node) -> bool:
        if isinstance(node, ast.Name):
            ref = getattr(node, "ref", None)
            if ref is None:
                return False
            kind, name = ref
            if kind == "zone":
                return name in self.public_zones
            if kind == "local":
                # a `choose` answer is its chooser's; a name a `let` or a loop set is
                # as public as what set it; a parameter, as its callers' arguments are
                return all(b != CHOSEN and self.public(b) for b in getattr(node, "bound", ()))
            return kind in _PUBLIC_NAMES or kind == "scope"
        if isinstance(node, ast.Attr):
            if getattr(node.obj, "type", None) == "scope":
                return (node.obj.id, node.name) not in self.hidden_variables
            if str(getattr(node.obj, "type", "")).startswith("event "):
                return True  # the window's record: its event went to every player
            if node.name == "at":
                # where a thing lies tells which zone holds it: public when no zone hides,
                # or for a thing that stands on the board's spaces
                return self.every_zone_public or str(getattr(node.obj, "type", "")).rstrip("?") in self.on_spaces
            return node.name not in self.hidden_properties
        if isinstance(node, ast.Call):
            ref = getattr(node, "ref", None)
            if ref is None:
                return False
            kind, name = ref
            if kind == "function":
                return self._function_public(name)
            if kind == "player_zone":
                return name in self.public_zones
            return kind == "builtin" and name in _PUBLIC_BUILTINS
        return isinstance(node, (ast.Literal, ast.Index, ast.Unary, ast.Binary, ast.Ternary, ast.ListExpr,
                                 ast.Comprehension))

    def _function_public(self, name: str) -> bool:
        known = self._functions_public.get(name)
        if known is not None:
            return known
        definition = self.functions.get(name)
        if definition is None or definition.value is None:
            return False
        self._functions_public[name] = True  # a recursive call reads what the body reads
        verdict = self.public(definition.value)
        self._functions_public[name] = verdict
        return verdict


# list functions whose result has as many items as their list, or a number of them the
# other (public) arguments decide
_SAME_COUNT = frozenset({"reversed", "take"})


class CountReader(_PublicReader):
    """How many items a list has, as every player can work it out. A choose offering one
    option is not asked (there is nothing to choose), so at a table being asked or not
    shows how many options there were: harmless when everyone knows it anyway (the cards
    in a hand whose size everyone sees), a leak when a secret decides it (a card only a
    spy may play)."""

    def count_public(self, expr) -> bool:
        """Whether every player can tell how many items ``expr`` holds: what it reads is
        public, or it is the contents of a zone (whose size everyone sees) named by what
        everyone sees, kept whole (a comprehension without a filter, reversed, sorted, or
        taken a public number of)."""
        if expr is None or self.public(expr):
            return True
        if isinstance(expr, ast.Comprehension):
            return expr.where is None and expr.best is None and self.count_public(expr.iterable)
        if isinstance(expr, ast.Call):
            ref = getattr(expr, "ref", None)
            if ref is None or ref[0] != "builtin" or not expr.args:
                return False
            if ref[1] == "contents":
                return self._zone_named_in_public(expr.args[0])
            if ref[1] in _SAME_COUNT:
                return self.count_public(expr.args[0]) and all(self.public(a) for a in expr.args[1:])
        return False

    def _zone_named_in_public(self, zone) -> bool:
        ref = getattr(zone, "ref", None)
        if isinstance(zone, ast.Name):
            return ref is not None and ref[0] == "zone"
        if isinstance(zone, ast.Call):
            return ref is not None and ref[0] == "player_zone" and all(self.public(a) for a in zone.args)
        return False
