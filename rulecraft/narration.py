"""A game told in plain sentences, in English or French: the events a player sees and
the options they choose from, for every interface (the terminal, the browser table).

Game words (actions, events and their fields, components, zones, the values that name
a board's spaces) come from the rule set's glossary in that language, plain names
where it has none; the engine's own events are told in the sentences below. Options
carry their context: what an action costs, where each piece an option names stands,
which spaces a tile would be laid next to.
"""

from __future__ import annotations

import re
import string

from rulecraft.docgen.glossary import Glossary, called_slots, engine_term, load_glossary
from rulecraft.dsl import ast
from rulecraft.dsl.builtins import ACTION_WINDOW
from rulecraft.dsl.types import NONE
from rulecraft.dsl.writes import changed_properties
from rulecraft.interpreter.state import tile_layouts
from rulecraft.languages import ByLanguage, languages, unknown

SENTENCES = ByLanguage("play")  # the section `play` of each language's file
# Where a language's grammar differs: a player's zone takes its article in a sentence
# ("la main de p2", but "p2's hand"); a count below this (in size) takes the singular
# besides 1 (French: 0 too)
GRAMMAR = ByLanguage("play_grammar")  # owned_article, singular_below

ENDED = ("game_over", "game_ended")
# The engine's own options (interpreter.machine's END_TURN and PASS), worded by the sentences above
ENGINE_OPTIONS = ("end_turn", "pass")
# The prompts the engine writes for its own choices: an action to take, a reaction window
ACTION_PROMPT = "Choose an action"
REACT_PROMPT = re.compile(r"React to (?P<window>.+)\?")
ENGINE_EVENTS = ("rolled", "shuffled", "placed", "scripted")  # told by the sentences above
SHOWINGS = ("revealed", "hidden")  # the engine's `reveal` and `hide` statements


def _replaced(text: str, rules) -> str:
    """``text`` with each ``[pattern, replacement]`` of a language's grammar applied in order."""
    for pattern, replacement in rules or ():
        text = re.sub(pattern, replacement, text)
    return text


def says_nothing(value) -> bool:
    """Whether a value says nothing of its holder: none, an empty text or list, or the text
    "none" (the rules language's word for nothing, which rule sets write as a text value's
    default, e.g. a seat no script plays)."""
    return value is None or value == "" or value == [] or value == NONE


def _within(event: dict) -> bool:
    """Whether a thing moved stayed in the zone it was in (put under its own pile)."""
    return bool(event.get("source")) and event.get("source") == event.get("destination")


def tells(event: dict) -> bool:
    """Whether a player is told of the event. The window the engine opens before every
    action that may be declined repeats what the action's own sentence says; only a
    decline (its own event) is news."""
    return event.get("type") != ACTION_WINDOW
HIDDEN = "?"  # what a view shows in place of an id its viewer may not see
UNKNOWN = object()  # a value the viewer does not know (``None`` is a value: none)


def _fields_of(template: str) -> set[str]:
    """The names a sentence template fills in."""
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def _plain(word) -> str:
    return str(word).replace("_", " ")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


class Words:
    def __init__(self, ruleset, lang: str = "en"):
        if lang not in languages():
            raise ValueError(unknown(lang))
        self.ruleset = ruleset
        self._changed_names: frozenset[str] | None = None  # the properties the rules change (see _changing)
        self.lang = lang
        self.say = SENTENCES[lang]
        try:
            self.glossary = load_glossary(ruleset, lang)
        except Exception:  # noqa: BLE001 - a rule set without a usable glossary still plays
            self.glossary = Glossary(lang)
        self.kinds_by_id: dict[str, str] = {}
        self.entities: dict[str, dict] = {}
        self.seats: list[str] = []  # every player of the game, as the view last learnt lists them
        self.viewer: str | None = None
        self.apart: set[str] = set()  # the things a pending choice's options name with their details (``told_apart``)
        self.tile_at: dict[str, tuple[int, int]] = {}  # a laid tile's room -> the tile's cell
        self.laid: dict[tuple[int, int], tuple[str, int]] = {}  # a cell → the tile laid there, and its turn
        self.geometry = None
        self._place_names: dict[str, str] = {}
        self._components = {c.name: c for c in ruleset.data.components}
        board = ruleset.data.board
        self.space_kind = board.space_kind if board is not None else None
        self.directions = dict(board.directions) if board is not None and board.kind == "tiles" else {}
        self._layouts = tile_layouts(ruleset) if board is not None and board.kind == "tiles" else {}

    def _term(self, section: str, key: str) -> str | None:
        t = self.glossary.get(section, key)
        return t.one if t is not None else None

    def name(self, value) -> str:
        """A value as a player reads it: a game word from the glossary, else its id."""
        if value is None:
            return self.say["nobody"]
        if isinstance(value, bool):
            return self.say["yes" if value else "no"]
        if isinstance(value, (list, tuple)):
            return ", ".join(self.name(v) for v in value) or self.say["none"]
        if isinstance(value, dict):
            return ", ".join(f"{_plain(k)} {self.name(v)}" for k, v in value.items())
        text = str(value)
        if text == HIDDEN:
            return self.say["hidden"]
        place = self.place(text) or self._laid_room(text)
        if place:
            return place
        word = self._word(text)
        if word:
            return word
        zone, _, owner = text.partition(":")  # a player's zone: hand:p2, in plain words without a glossary
        if owner and (self._word(zone) or zone in self.ruleset.data.zones):
            return self._owned(zone, owner)
        base, _, rest = text.partition(".")  # a component's copy: its word and which one
        if rest and self._word(base):
            return f"{self._word(base)} {rest}"
        return text

    def _owned(self, zone: str, owner: str, article: bool = False) -> str:
        """A zone of a player or a thing ("p2's hand", "la main de p2"), the owner by its
        name; with ``article``, as a sentence says it, the zone with its article where the
        language puts one there."""
        term = self.glossary.get("zones", zone)
        # the zone's own word first: a value of the same name (a step of the turn) is another thing
        word = (term.one if term is not None else None) or self._word(zone) or _plain(zone)
        if article and GRAMMAR[self.lang]["owned_article"] and term is not None and term.article:
            word = self._article_the(term)
        text = self.say["owned"].format(owner=self.name(owner), zone=word)
        # French elides "de" before a vowel: "la main d'Anne"
        return _replaced(text, GRAMMAR[self.lang].get("owner_elisions"))

    def _laid_room(self, text: str) -> str | None:
        """A room of a laid tile (``tile/room``) by the word of its room type, for a view
        not learnt yet (``know_view`` names it better, telling same-type rooms apart)."""
        tile, _, room = text.partition("/")
        layout = self.ruleset.data.board.layouts.get(self._layouts[tile]) if room and tile in self._layouts else None
        if layout is None or room not in layout.rooms:
            return None
        kind = (layout.rooms.get(room) or {}).get("type")
        if kind is None and self.glossary.get("names", room) is None:
            return self._tile_space(text)  # a space of no type: its tile, and which of its spaces
        return self.label(kind or room)

    def label(self, key: str) -> str:
        """A word without the article a glossary may give it, as the board labels a room's
        type and the events name a laid room."""
        for section in ("components", "values", "names", "kinds"):
            t = self.glossary.get(section, key)
            if t is not None:
                return t.bare or t.one
        return _plain(key)

    def _word(self, key: str) -> str | None:
        for section in ("components", "values", "names", "zones", "kinds"):
            word = self._term(section, key)
            if word:
                return word
        return None

    def action(self, name: str) -> str:
        word = self._term("definitions", name)
        if word is None and name in ENGINE_OPTIONS and name not in self.ruleset.definitions:
            return self.say[name]
        return word or _plain(name)

    def prompt(self, choice: dict | None) -> str | None:
        """What a pending choice asks, in the language: the engine's own question (an
        action to take, a reaction window's) in its sentences; a rule's prompt (``choose …
        prompt "…"``, its parameters' values filled in) from the glossary's ``prompts``, as
        the rules write it when it has none."""
        if not choice or not choice.get("prompt"):
            return None
        prompt, kind = str(choice["prompt"]), choice.get("kind")
        if kind == "action" and prompt == ACTION_PROMPT:
            return self.say["choose_action"]
        window = REACT_PROMPT.fullmatch(prompt) if kind == "reaction" else None
        if window is not None:
            name = window.group("window")
            # a window by the glossary's clause ("a character is wounded"); English keeps its name
            said = self._term("events", name) if self.lang != "en" else None
            return self.say["react"].format(window=said or (_plain(name) if self.lang != "en" else name))
        return self.glossary.prompt_shown(prompt, self.ruleset.data.parameters) or prompt

    # ---- the board's spaces
    def place(self, space: str) -> str | None:
        """A board space by what it is (the word of a value it carries: its type), with
        its tile's cell when another space in view reads the same; None: not a space."""
        if space in self._place_names:
            return self._place_names[space]
        e = self.entities.get(space)
        if e is None or self.space_kind is None or e.get("kind") != self.space_kind:
            return None
        return self._space_word(space)

    def _space_word(self, space: str) -> str:
        """A space laid as part of a tile is named by what it is (its type's word); a
        space of a board declared whole has a name of its own, which a value it carries
        (a state it is in, say) would only hide."""
        board = self.ruleset.data.board
        if board is not None and board.kind == "ring":
            return self._word(space) or self._ring_space(space)
        if board is not None and board.kind != "tiles":
            return self._word(space) or _plain(space)
        for value in (self.entities.get(space) or {}).get("props", {}).values():
            if isinstance(value, str):
                t = self.glossary.get("values", value)
                if t is not None:
                    return t.bare or t.one
        return self._word(space) or self._tile_space(space)

    def _tile_space(self, space: str) -> str:
        """A laid tile's space that no word names: its tile (a copy's number after its
        word, "city road 2"), and which of the tile's spaces when it has several
        ("city road 2 (city)"), as the rules site says it."""
        tile, slash, room = space.partition("/")
        layout = self.ruleset.data.board.layouts.get(self._layouts.get(tile, "")) if slash else None
        if layout is None:
            return _plain(space)
        base, dot, copy = tile.partition(".")
        said = (self._word(base) or _plain(base)) + (f" {copy}" if dot else "")
        return f"{said} ({_plain(room)})" if len(layout.rooms) > 1 else said

    def _ring_space(self, space: str) -> str:
        """A space of a ring board (``RANGE_SECTOR``) by its range's word and its sector,
        as the ring's picture labels its rows and columns."""
        sector = (self.ruleset.data.board.spaces.get(space) or {}).get("sector")
        range_, _, number = space.rpartition("_")
        if sector is None or not range_ or number != str(sector):
            return _plain(space)
        return self.say["ring_space"].format(range=self.value_word(range_), sector=sector)

    def where(self, entity: str) -> str | None:
        """The board space an entity stands in, by name; None when it is in no space."""
        at = (self.entities.get(entity) or {}).get("at")
        return self.place(at) if at else None

    def alike(self, eid) -> str | None:
        """The word for a thing that is one of several copies of a component, when the
        glossary has a word for neither the thing nor its component: the component's plain
        name (with its owner's, for a player's own copies). Its id then tells it from its
        fellows by a number only, which nothing on the table shows: where it stands is what
        tells it apart. None for any other thing."""
        copy = self._copy_of(eid) if isinstance(eid, str) and self._word(eid) is None else None
        if copy is None:
            return None
        base, _, owner = copy.partition(".")
        if self._word(base) is not None or bool(owner) != bool(self._components[base].per_player):
            return None
        return f"{_plain(base)} {self.name(owner)}" if owner else _plain(base)

    def _alike_on(self, eid: str, space: str | None) -> str | None:
        """A thing that only its place tells apart (see ``alike``), said with the space it
        stands on ("red counter on b2"); None when it is no such thing or in no space."""
        word = self.alike(eid)
        return self.say["alike_on"].format(thing=word, place=space) if word and space else None

    # ---- options
    def option(self, option, places: bool | frozenset = True, stood: dict | None = None,
               apart: bool = True) -> dict:
        """A button: its label, with where the pieces it names stand, and for an action
        with costs, what it costs. ``places``: False for none, or the pieces whose place
        to say (a decision told afterwards: those that have not moved since); ``stood``:
        for such a decision, the space a piece that has moved since stood on then;
        ``apart``: the things the pending choice tells apart by their details named so
        (see ``told_apart``), as an option of it, not a decision told afterwards."""
        if isinstance(option, dict) and ("action" in option or "reaction" in option):
            name = option.get("action") or option.get("reaction")
            args = option.get("args") or {}
            label = self.action(name)
            if args:
                values = list(args.values()) if isinstance(args, dict) else [args]
                named = self._argument_words(name, args) if isinstance(args, dict) else None
                label += self.say["colon"] + " " + self._arguments(values, named, places, stood, apart)
            return {"label": label, "cost": self.cost(name, args if isinstance(args, dict) else None)}
        if option is None:  # the one answer to a choose of nothing, asked where that is a secret
            return {"label": self.say["none"], "cost": None}
        if isinstance(option, dict) and self.directions and {"x", "y"} <= set(option):
            return {"label": self.placement(option), "cost": None}
        thing = self._apart_name(option) if apart else self.name(option)
        if isinstance(option, str) and self.where(option) and not self.place(option):
            alike = self._alike_on(option, self.where(option))
            return {"label": alike or self.say["in"].format(thing=thing, place=self.where(option)),
                    "cost": None}
        return {"label": thing, "cost": None}

    def _copy_of(self, value) -> str | None:
        """The component a thing is one copy of, with its owner's seat ("card.p1" for
        card.p1.2), when the component has several copies; None for any other value."""
        if not isinstance(value, str):
            return None
        base, _, rest = value.partition(".")
        component = self._components.get(base)
        owner, _, number = rest.rpartition(".")
        if component is None or component.count <= 1 or not number.isdigit():
            return None
        return f"{base}.{owner}" if owner else base

    def told_apart(self, options: list) -> set[str]:
        """The things a choice's options name that would leave them reading the same but
        for a copy number (card.p1.1, card.p1.2), when what the viewer sees of those copies
        differs (one's face is fail): each of them that shows something is named with it,
        as the player's hand lists it ("card.p1.2 (face fail)"). Copies that show the same
        are left as they are: their details would tell nothing apart."""
        alike: dict[str, list[list]] = {}
        for option in options:
            if isinstance(option, dict) and ("action" in option or "reaction" in option):
                args = option.get("args") or {}
                values = list(args.values()) if isinstance(args, dict) else [args]
            else:
                values = [option]
            # the label with each copy's name blurred to its component's: what else tells
            # options apart (the room each stands in) leaves them apart already
            key = self.option(option, apart=False)["label"]
            for v in sorted((v for v in values if self._copy_of(v)), key=lambda v: -len(self.name(v))):
                key = key.replace(self.name(v), "\0" + self._copy_of(v) + "\0")
            alike.setdefault(key, []).append(values)
        out: set[str] = set()
        for members in alike.values():
            if len(members) < 2:
                continue
            for position in range(len(members[0])):
                copies = {m[position] for m in members if self._copy_of(m[position])}
                details = {c: tuple(self.details(c, viewer=self.viewer)) if c in self.entities else () for c in copies}
                if len(copies) > 1 and len(set(details.values())) > 1:
                    out.update(c for c in copies if details[c])
        return out

    def _apart_name(self, value) -> str:
        """A value by name, a thing the pending choice tells apart with its details, a
        shared thing with what changes of it (see ``_changing``); a list item by item."""
        if isinstance(value, list):
            return ", ".join(self._apart_name(v) for v in value) or self.say["none"]
        if isinstance(value, str) and value in self.apart:
            return f"{self.name(value)} ({', '.join(self.details(value, viewer=self.viewer))})"
        changing = self._changing(value)
        return f"{self.name(value)} ({changing})" if changing else self.name(value)

    def _changing(self, value) -> str | None:
        """What the rules change of a thing lying in a zone that belongs to no player (a
        die in the tray: "claw"), as the viewer sees it: an option naming it says it, so
        the player need not look the table up to choose. Things on the board and in a
        player's zones are said as before."""
        if not isinstance(value, str):
            return None
        entity = self.entities.get(value)
        at = entity.get("at") if entity else None
        if not isinstance(at, str) or ":" in at or at not in self.ruleset.data.zones:
            return None
        if self._changed_names is None:
            self._changed_names = changed_properties(self.ruleset)
        kind = entity.get("kind", "")
        shown = []
        for prop, v in (entity.get("props") or {}).items():
            if prop in self._changed_names and v != HIDDEN and not says_nothing(v) and v is not False:
                shown.append((prop, v))
        if len(shown) == 1 and shown[0][1] is not True:  # one: its value alone ("die 1 (claw)")
            return self.property_value(kind, shown[0][0], shown[0][1])
        # a yes by the property's word ("open"), as a thing's details say it
        return ", ".join(self.prop(kind, prop) if v is True else self.status(kind, prop, v) for prop, v in shown) or None

    def arguments(self, definition: str, args: dict) -> str:
        """Some arguments of an action in words, as its option's label says them after
        the action's name ("card 2, ship 1 in room 3")."""
        return self._arguments(list(args.values()), self._argument_words(definition, args))

    def parameter(self, definition: str, param: str) -> str | None:
        """The glossary's word for a parameter of a definition (``names``:
        ``definition.param`` or ``param``); None when it has none."""
        return self._term("names", f"{definition}.{param}") or self._term("names", str(param))

    def _argument_words(self, definition: str, args: dict) -> list[str | None]:
        """The word before each argument that is a plain value (a number, a text, yes or
        no: "guess 2"), which alone would not say what it is; None for a thing, a player
        or a space, which its name says. The word is the glossary's for the parameter
        (``names``: ``definition.param`` or ``param``), else the parameter's name."""
        d = self.ruleset.definitions.get(definition)
        types = {p.name: p.type for p in getattr(d, "params", None) or []}
        out: list[str | None] = []
        for param, value in args.items():
            t = types.get(param)
            if t is not None:
                plain = getattr(t, "item", None) is None and getattr(t, "name", None) in ("number", "text", "bool")
            else:  # not a parameter the rules declare: a number says nothing by itself
                plain = isinstance(value, (int, float)) and not isinstance(value, bool)
            plain = plain and not isinstance(value, (list, dict)) and value != HIDDEN
            out.append((self.parameter(definition, param) or _plain(param)) if plain else None)
        return out

    def _arguments(self, values: list, named: list[str | None] | None = None,
                   places: bool | frozenset = True, stood: dict | None = None, apart: bool = True) -> str:
        """An action's arguments: a space it goes to after an arrow; the pieces it names
        with the space each stands in, unless the option names a space itself; a plain
        value after its word in ``named`` ("guess 2"). A piece that only its place tells
        from its fellows (see ``alike``) is said with its place even then ("red counter
        on b2 → b3"): its id alone would leave the player guessing which one it is; told
        after the decision, with the space it left (``stood``) once it has moved."""
        names_space = any(isinstance(v, str) and self.place(v) for v in values)
        parts = []
        for i, v in enumerate(values):
            if isinstance(v, dict) and self.directions and {"x", "y"} <= set(v):
                text = self.placement(v)  # a tile's spot, as a choose of one tells it
            else:
                text = self._apart_name(v) if apart and isinstance(v, (str, list)) else self.name(v)
            if named and i < len(named) and named[i]:
                parts.append(f"{named[i]} {text}")
                continue
            if isinstance(v, str) and self.place(v):
                parts.append(("→ " if i else "") + text)
                continue
            shown = places is True or (bool(places) and v in places)
            if isinstance(v, str) and self.alike(v):
                left = (stood or {}).get(v)
                alike = self._alike_on(v, self.where(v) if shown else self.place(left) if left else None)
                if alike:
                    parts.append(alike)
                    continue
            where = self.where(v) if shown and isinstance(v, str) and not names_space else None
            parts.append(self.say["in"].format(thing=text, place=where) if where else text)
        out = parts[0] if parts else ""
        for part in parts[1:]:
            out += (" " if part.startswith("→") else ", ") + part
        return out

    def placement(self, option: dict) -> str:
        """Where a tile would be laid: its cell, its turn and the spaces it would touch."""
        x, y = option.get("x"), option.get("y")
        parts = [self.say["spot"].format(x=x, y=y)]
        if option.get("rotation"):
            parts.append(self.say["turned"].format(rotation=option["rotation"]))
        beside = []
        for direction, (dx, dy) in self.directions.items():
            cell = (x + dx, y + dy) if isinstance(x, int) and isinstance(y, int) else None
            touched = self._touched(cell, direction)
            if touched:
                beside.append(self.say["towards"].format(place=self.name(touched), direction=self.value_word(direction)))
        if beside:
            parts.append(self.say["next_to"].format(places=", ".join(beside)))
        return self._contracted(", ".join(parts))

    def _touched(self, cell, direction: str) -> str | None:
        """The space a tile laid next to ``cell`` (which lies ``direction`` of it) would
        touch: the first of the laid tile's spaces along its side that faces back; on a
        side cut into parts, the first along its middle part (the road between two verges)."""
        laid = self.laid.get(cell)
        if laid is None or self.geometry is None:
            return None
        tile, rotation = laid
        parts = self.geometry.parts(tile, self.geometry.opposite(direction), rotation)
        spaces = parts[len(parts) // 2][1] if len(parts) > 1 else parts[0][1]
        if spaces:
            return spaces[0]
        return min(r for r, at in self.tile_at.items() if at == cell)  # a side along no space: the tile's first

    def property_value(self, kind: str, name: str, value) -> str:
        """A property's value in words. A text held by a property that holds texts is
        said by its word under ``values`` (its bare word: "north", not "a north"),
        before a thing or space that has the same id (a space ``north`` whose side is
        ``north``: "side north", not "side the north gate")."""
        spec = self.ruleset.data.kinds.get(kind)
        declared = spec.properties.get(name) if spec is not None else None
        if isinstance(value, str) and declared is not None and str(declared.type).rstrip("?") == "text":
            t = self.glossary.get("values", value)
            if t is not None:
                return t.bare or t.one
        if value is None and declared is not None and str(declared.type).rstrip("?") in ("text", "number", "bool"):
            # "nobody" is for a player or a thing a property names; a text not set is none
            return self._none_for(self.glossary.get("properties", f"{kind}.{name}"))
        return self.name(value)

    def value_word(self, value: str) -> str:
        """A value's word without an article (a direction, a kind of connection)."""
        t = self.glossary.get("values", value)
        return (t.bare or t.one) if t is not None else _plain(value)

    def cost(self, action: str, args: dict | None = None) -> str | None:
        """What an action costs, each amount as the viewer can work it out for these
        ``args`` (a number written, or read from a thing chosen: `cost c.price coins`),
        else "some"."""
        d = self.ruleset.definitions.get(action)
        costs = getattr(d, "costs", None) or []
        parts = []
        for c in costs:
            amount = self._known_amount(c.amount, args or {})
            # a cost may be paid by another entity than the acting player (`of x`): its kind's word
            payer = getattr(c, "payer", None)
            payer_kind = str(getattr(payer, "type", None) or "player").rstrip("?") if payer is not None else "player"
            t = self.glossary.get("properties", f"{payer_kind}.{c.resource}")
            if t is not None:
                word = t.one if amount == 1 else t.plural
            else:  # no glossary word: the rules' name, made singular by the language's rule for one
                word = _plain(c.resource)
                if amount == 1:
                    word = _replaced(word, GRAMMAR[self.lang].get("singular_of_name"))
            parts.append(f"{amount if amount is not None else self.say['some']} {word}")
        return ", ".join(parts) or None

    def _known_amount(self, expr, args: dict):
        """A cost's amount as the viewer knows it: a number, a property of a thing an
        argument names that the view shows, or a sum or product of those; else None."""
        if isinstance(expr, ast.Literal):
            return expr.value if isinstance(expr.value, (int, float)) and not isinstance(expr.value, bool) else None
        if isinstance(expr, ast.Attr) and isinstance(expr.obj, ast.Name) and expr.obj.id in args:
            props = (self.entities.get(args[expr.obj.id]) or {}).get("props") or {}
            value = props.get(expr.name)
            return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
        if isinstance(expr, ast.Binary) and expr.op in ("+", "-", "*"):
            left, right = self._known_amount(expr.left, args), self._known_amount(expr.right, args)
            if left is None or right is None:
                return None
            return left + right if expr.op == "+" else left - right if expr.op == "-" else left * right
        return None

    # ---- events
    def event(self, event: dict, place: str | None = None, settled: frozenset = frozenset(),
              stood: dict | None = None, value=UNKNOWN) -> str:
        """The event as a sentence, or "" for one not worth telling (see ``tells``); a
        thing revealed whole is said to be in ``place`` when given, a property revealed
        with its ``value`` when given (what the viewer sees of it: see ``tell``), and a
        decision's pieces in ``settled`` with the places they stand in now, those in
        ``stood`` that only their place tells apart with the space they left since."""
        say = self.say
        kind = event.get("type")
        if kind == ACTION_WINDOW:
            return ""
        who = event.get("player")
        # a decision told afterwards names its pieces without the spaces they stand in now,
        # which need not be where they stood then (a target hit, then moved)
        if kind == "action_taken":
            return say["action"].format(who=who, what=self.option({"action": event.get("action"),
                                                                     "args": event.get("args")}, places=settled,
                                                                    stood=stood, apart=False)["label"])
        if kind == "reacted":
            return say["reaction"].format(who=who, what=self.option({"reaction": event.get("reaction"),
                                                                       "args": event.get("args")}, places=settled,
                                                                      stood=stood, apart=False)["label"])
        if kind == "moved":
            thing = self._moved_thing(event)
            # a thing put back where it was (under its own deck) moves within it
            sentence = say["moved_within" if _within(event) else "moved"]
            return self._sentence(self._contracted(sentence.format(thing=thing, **self._ends(event))), thing)
        if kind == "changed":
            return self._changed(event)
        if kind in ("round_started", "turn_started", "turn_ended"):
            return say[kind].format(round=event.get("round"), who=who, Round=self.round_word(),
                                    The_round=_capital(self._article_the(engine_term(self.glossary, "round"))))
        if kind in ENDED:
            return say["over"]
        said = self._term("events", kind)
        # a glossary's phrase for the event, its fields in braces ("{player} trades with {other}")
        phrase = getattr(self.glossary.get("events", str(kind)), "say", None)
        slots = _fields_of(phrase) if phrase else set()
        if phrase and slots <= event.keys():
            return self._opening(phrase.format(**{k: self.name(event[k]) for k in slots})) + "."
        if said is None and kind in SHOWINGS and set(event) - {"type", "seq", "audience", "value"} == {"entity", "property", "players"}:
            return self._showing(kind, event, place, value)
        if said is None and kind == "rolled" and self._term("dice", str(event.get("die"))):
            return _capital(say["rolled_named"].format(die=self._article_the(self.glossary.get("dice", event["die"])),
                                                       value=self.name(event.get("value"))))
        # the engine's own events, unless the rules name them; a rule may emit an event of the
        # same name with fields of its own, which the engine's sentence cannot tell
        if said is None and kind == "shuffled" and isinstance(event.get("zone"), str):
            # a pile with its article ("The draw pile is shuffled."), a plural one agreeing
            term = self.glossary.get("zones", event["zone"]) if event["zone"] in self.ruleset.data.zones else None
            sentence = say["shuffled_many" if term is not None and term.plural_only else "shuffled"]
            return self._opening(sentence.format(zone=self._zone_or_name(event["zone"])))
        if said is None and kind in ENGINE_EVENTS and _fields_of(say[kind]) <= event.keys():
            return self._opening(say[kind].format(**{k: self.name(v) for k, v in event.items() if k != "type"}))
        said = said or _plain(kind)
        # who an event was told to is no part of what happened, and a field set to nothing says nothing
        fields = {k: v for k, v in event.items() if k not in ("type", "seq", "audience") and not k.startswith("_")
                  and v is not None and v != NONE}
        sentence = _capital(said)
        if fields:
            sentence += " (" + self.say["fields_separator"].join(
                f"{self._term('fields', k) or _plain(k)}{self.say['colon']} {self.name(v)}"
                for k, v in fields.items()) + ")"
        return sentence + "."

    def _players(self, seats: list) -> tuple[str, str]:
        """Who sees a thing, as a sentence says them, and its verb's number ("_one" for
        one player, and for "everyone": every player of the game, which a list of them
        all would only make the reader count)."""
        if len(self.seats) > 1 and set(seats) == set(self.seats):
            return self.say["everyone"], "_one"
        return (self.name(seats) if seats else self.say["nobody"]), "_one" if len(seats) <= 1 else ""

    def _showing(self, kind: str, event: dict, place: str | None = None, value=UNKNOWN) -> str:
        """The engine's `reveal` and `hide`: who now sees (or no longer sees) a thing, or
        one property of it; a thing revealed whole with the ``place`` it is in, if given,
        a property with the ``value`` shown, if given. One player "sees", several "see"."""
        thing, seats = self.name(event["entity"]), event["players"] or []
        players, one = self._players(seats)
        prop = event["property"]
        if prop is None:
            if place and kind == "revealed":
                thing = self.say["in"].format(thing=thing, place=self.name(place))
            sentence = self.say["revealed" + one if kind == "revealed" else "hidden_from"]
            text = sentence.format(thing=thing, players=players)
        else:
            kind_of = self.kinds_by_id.get(event["entity"], "")
            named, the_named = self.prop(kind_of, prop), self.the_prop(kind_of, prop)
            if kind == "revealed" and value is not UNKNOWN:
                text = self.say["revealed_property_value" + one].format(
                    thing=thing, players=players, property=named, the_property=the_named,
                    value=self.property_value(kind_of, prop, value))
            else:
                text = self.say["revealed_property" + one if kind == "revealed" else "hidden_property"].format(
                    thing=thing, players=players, property=named, the_property=the_named, e=self.agreeing(kind_of, prop))
            text = self._contracted(text)
        return self._sentence(text, seats[0] if seats and text.startswith(players) else thing)

    def _showing_alone(self, event: dict) -> bool:
        """Whether an event is the engine's `reveal` or `hide` of one property of a thing
        the viewer sees, told by the sentences above (no word of the glossary for it)."""
        return (event.get("type") in SHOWINGS and self._term("events", event["type"]) is None
                and set(event) - {"type", "seq", "audience", "value"} == {"entity", "property", "players"}
                and event.get("property") is not None and isinstance(event.get("entity"), str)
                and event["entity"] != HIDDEN)

    def _showings_together(self, events: list[dict], told: list[str], values: dict[int, object]) -> list[str]:
        """A property of several things shown to (or hidden again from) the same players
        one after another in one sentence ("Everyone sees each choice: p1 yes, p2
        no."), with the values the viewer sees (``values``, by index) when they see
        all of them. A reveal is told where the last of them happened, a hide where the
        first did ("" where the others did). Between them, a change of another property
        does not part them (the rules reset a thing's other marks as they hide one), nor
        one of that property that the sentence's place keeps in its order: of a thing
        already hidden again, of a thing not yet shown; any other event does."""
        out = list(told)
        run: list[int] = []

        def key(event: dict) -> tuple:
            return (event["type"], self.kind_of(event["entity"]), event["property"], tuple(event["players"] or ()))

        def close() -> None:
            if len(run) > 1:
                first = events[run[0]]
                things = [self.name(events[i]["entity"]) for i in run]
                players, one = self._players(first["players"] or [])
                kind_of = self.kind_of(first["entity"])
                named, the_named = self.prop(kind_of, first["property"]), self.the_prop(kind_of, first["property"])
                if first["type"] == "hidden":
                    text = self.say["hidden_property_many"].format(
                        things=self._joined(things), players=players, property=named, the_property=the_named,
                        e=self.agreeing(kind_of, first["property"]))
                elif all(i in values for i in run):
                    pairs = [f"{thing} {self.property_value(kind_of, first['property'], values[i])}"
                             for thing, i in zip(things, run)]
                    text = self.say["revealed_property_each" + one].format(
                        values=self._joined(pairs), players=players, property=named, the_property=the_named)
                else:
                    text = self.say["revealed_property_many" + one].format(
                        things=self._joined(things), players=players, property=named, the_property=the_named)
                text = self._contracted(text)
                at = run[0] if first["type"] == "hidden" else run[-1]
                for i in run:
                    out[i] = ""
                out[at] = self._sentence(text, (first["players"] or [""])[0] if text.startswith(players) else "")
            run.clear()

        for i, event in enumerate(events):
            if not out[i]:
                continue
            if self._showing_alone(event):
                entities = {events[j]["entity"] for j in run}
                if run and (key(events[run[0]]) != key(event) or event["entity"] in entities):
                    close()
                run.append(i)
            elif run and event.get("type") == "changed" and (
                    event.get("property") != events[run[0]]["property"]
                    or (event.get("entity") in {events[j]["entity"] for j in run})
                    == (events[run[0]]["type"] == "hidden")):
                continue
            else:
                close()
        close()
        return out

    def _joined(self, items: list[str]) -> str:
        """Items in a sentence: "a, b and c"."""
        return ", ".join(items[:-1]) + self.say["and"] + items[-1] if len(items) > 1 else "".join(items)

    def tell(self, events: list[dict]) -> list[str]:
        """A viewer's stream of events as sentences ("" for one not worth telling, and for
        each roll told with the next: consecutive rolls of one die are one sentence, on
        the last of them), told with the view last learnt (``know_view``): a thing
        revealed whole is said with the place the view shows it in, when no later event
        of the stream moves it or hides it again (a thing shown to a player is named to
        them wherever it moves, so then that place is where it was shown)."""
        out: list[str] = []
        unsure: set[str] = set()  # things that may have moved since
        left: dict[str, str] = {}  # the space a thing stood on before the first move later in the stream
        # a property of a thing that may have changed since, or been hidden again ((thing, None): all of them)
        changed: set[tuple] = set()
        values: dict[int, object] = {}  # a property revealed: the value the viewer sees, while it is that still
        shown_next = self._shown_next(events)
        for i in range(len(events) - 1, -1, -1):
            event = events[i]
            kind, entity = event.get("type"), event.get("entity")
            place = None
            value = UNKNOWN
            if kind == "revealed" and self._showing_alone(event):
                if "value" in event:  # the value shown, as the reveal recorded it
                    if event["value"] != HIDDEN:
                        value = values[i] = event["value"]
                elif not {(entity, event["property"]), (entity, None)} & changed:
                    # a stream whose reveals carry no value (written by hand, or by an earlier rulecraft): the
                    # value the view shows is the one revealed while no change since is in the stream
                    props = (self.entities.get(entity) or {}).get("props") or {}
                    if event["property"] in props and props[event["property"]] != HIDDEN:
                        value = values[i] = props[event["property"]]
            if kind in ("changed", "hidden") and isinstance(entity, str):
                changed.add((entity, event.get("property")))
            if (kind == "revealed" and isinstance(entity, str) and entity not in unsure
                    and self._term("events", kind) is None and event.get("property") is None):
                place = (self.entities.get(entity) or {}).get("at")
            # a decision's pieces are said with their places while they have not moved since
            args = event.get("args") if kind in ("action_taken", "reacted") else None
            settled = frozenset(v for v in (args.values() if isinstance(args, dict) else ())
                                if isinstance(v, str) and v not in unsure)
            if i in shown_next:  # the hidden thing it names is told by the move after it
                event = {**event, "args": {k: v for k, v in args.items() if v != HIDDEN}}
            stood = {v: left[v] for v in (args.values() if isinstance(args, dict) else ())
                     if isinstance(v, str) and v in left}
            out.append(self.event(event, place=place, settled=settled, stood=stood, value=value))
            if kind in ("moved", "hidden") and isinstance(entity, str):
                unsure.add(entity)
                # a thing hidden from the viewer may have moved unseen before: its place is not known
                if kind == "moved" and event.get("source"):
                    left[entity] = event["source"]
                else:
                    left.pop(entity, None)
        told = self._moves_together(events, self._rolls_together(events, out[::-1]))
        return self._showings_together(events, told, values)

    @staticmethod
    def _shown_next(events: list[dict]) -> set[int]:
        """The decisions of a stream (by index) that name one thing hidden from the viewer
        ("p3: Play a card: a hidden item.") which the decision then shows: the first thing
        it moves is in sight and leaves a zone of the player who decided ("7 of hearts moves
        from p3's hand to …"). Those are told without the hidden thing, which the move
        names: "p3: Play a card." then the move."""
        out = set()
        for i, event in enumerate(events):
            args = event.get("args")
            if event.get("type") not in ("action_taken", "reacted") or not isinstance(args, dict) \
                    or list(args.values()).count(HIDDEN) != 1:
                continue
            for later in events[i + 1:]:
                kind = later.get("type")
                if kind in ("action_taken", "reacted", "turn_started", "turn_ended", "round_started"):
                    break
                if kind == "moved":
                    source = str(later.get("source") or "")
                    if later.get("entity") != HIDDEN and source.endswith(f":{event.get('player')}"):
                        out.add(i)
                    break
        return out

    def _ends(self, event: dict) -> dict:
        """Where a moved thing came from and went, as a sentence says them: a shared zone
        with its article when the glossary gives it one ("the draw pile"), a room or a
        player's zone by its name, "off the table" for nowhere."""
        return {"source": self._zone_or_name(event.get("source")),
                "destination": self._zone_or_name(event.get("destination"))}

    def _zone_or_name(self, where) -> str:
        if not where:
            return self.say["off"]
        zone, _, owner = str(where).partition(":")
        if owner and zone in self.ruleset.data.zones:
            return self._owned(zone, owner, article=True)
        term = self.glossary.get("zones", where) if where in self.ruleset.data.zones else None
        return self._article_the(term) if term is not None and term.article else self.name(where)

    def _contracted(self, text: str) -> str:
        """French contracts a preposition with the article after it: "de le paquet" is
        "du paquet", "à les" is "aux"; before a vowel the article is elided instead: "à
        le est" is "à l'est", and so is "de": "d'Anne"."""
        return _replaced(text, GRAMMAR[self.lang].get("contractions"))

    def _plain_roll(self, event: dict) -> bool:
        """Whether an event is the engine's roll of a die told by its own sentence (no
        word of the glossary for the event, no field a rule added)."""
        if event.get("type") != "rolled" or self.glossary.get("events", "rolled") is not None:
            return False
        fields = {k for k in event if k not in ("type", "seq", "audience") and not k.startswith("_")}
        return fields == {"die", "value"}

    def _rolls_together(self, events: list[dict], told: list[str]) -> list[str]:
        """Consecutive rolls of one die in one sentence ("The d6 dice show 3, 5, 2 and 6."),
        told where the last of them happened ("" where the others did); an event not told
        between them ("" of its own) does not part them, any other event does."""
        out = list(told)
        run: list[int] = []

        def close() -> None:
            if len(run) > 1:
                die = events[run[0]]["die"]
                joined = self._joined([self.name(events[i]["value"]) for i in run])
                term = self.glossary.get("dice", str(die))
                if term is not None:
                    text = _capital(self.say["rolled_many_named"].format(dice=self._article_the(term, plural=True),
                                                                         values=joined))
                else:
                    text = self._opening(self.say["rolled_many"].format(die=self.name(die), values=joined))
                for i in run[:-1]:
                    out[i] = ""
                out[run[-1]] = text
            run.clear()

        for i, event in enumerate(events):
            if self._plain_roll(event):
                if run and events[run[0]].get("die") != event.get("die"):
                    close()
                run.append(i)
            elif out[i]:
                close()
        close()
        return out

    def _moved_thing(self, event: dict) -> str:
        """A moved thing as its sentence names it: a thing only its place tells apart by
        its word (the spaces it leaves and reaches say which one it is, as its options
        did), a hidden one as such."""
        entity = event.get("entity")
        if entity == HIDDEN:
            return self.say["hidden"]
        ends = (event.get("source"), event.get("destination"))
        on_board = any(isinstance(end, str) and self.place(end) for end in ends)
        return (on_board and self.alike(entity)) or self.name(entity)

    def _moves_together(self, events: list[dict], told: list[str]) -> list[str]:
        """Consecutive moves from one place to another in one sentence, told where the
        last of them happened ("" where the others did), as rolls are: of hidden things
        ("7 hidden items move from the draw pile to the discard pile."), and of things
        the viewer sees ("Tempura 3, salmon nigiri 9 and dumpling 2 move from p1's
        tray to p1's hand.": a hand passed on is one line, not one a card)."""
        out = list(told)
        run: list[int] = []

        def close() -> None:
            if len(run) > 1:
                first = events[run[0]]
                within = _within(first)
                if first.get("entity") == HIDDEN:
                    sentence = self.say["moved_hidden_many_within" if within else "moved_hidden_many"]
                    text, opening = sentence.format(count=len(run), **self._ends(first)), ""
                else:
                    sentence = self.say["moved_many_within" if within else "moved_many"]
                    things = [self._moved_thing(events[i]) for i in run]
                    text, opening = sentence.format(things=self._joined(things), **self._ends(first)), things[0]
                for i in run[:-1]:
                    out[i] = ""
                out[run[-1]] = self._sentence(self._contracted(text), opening)
            run.clear()

        def key(event: dict) -> tuple:
            return event.get("entity") == HIDDEN, event.get("source"), event.get("destination")

        for i, event in enumerate(events):
            if event.get("type") == "moved" and out[i] \
                    and set(event) - {"type", "seq", "audience"} == {"entity", "source", "destination"}:
                if run and key(events[run[0]]) != key(event):
                    close()
                run.append(i)
            elif out[i]:
                close()
        close()
        return out

    def round_word(self, capital: bool = True) -> str:
        """The rule set's word for a round ("Round", "Tour de table"; as in a sentence
        without ``capital``)."""
        word = engine_term(self.glossary, "round").one
        return _capital(word) if capital else word

    def _article_the(self, term, plural: bool = False) -> str:
        """The word with the article "the" of the language (its gender's, elided, plural)."""
        grammar = GRAMMAR[self.lang]
        the = grammar["the"]
        if term.plural_only or plural:  # a word only ever plural ("the bottom three cards")
            word = term.one if term.plural_only else term.plural
            return the["plural"].format(n=word) if term.article else word
        if not term.article:
            return term.one
        elide = term.elide if term.elide is not None else term.one[:1].lower() in (grammar.get("elide_before") or "")
        if elide and "elided" in the:
            return the["elided"].format(n=term.one)
        gender = "f" if term.feminine else term.gender if term.gender in the else "m"
        return the[gender].format(n=term.one)

    def _changed(self, event: dict) -> str:
        """A property's new value: the glossary's phrase for a yes/no property ("p1 is
        ready"), a count the entity has ("p1 now has 3 coins"), else the value; nothing
        for a property the glossary calls quiet (the rules' bookkeeping)."""
        t = self.glossary.get("properties", f"{self.kind_of(event.get('entity'))}.{event.get('property')}")
        if t is not None and t.quiet:
            return ""
        entity = self.name(event.get("entity"))
        value = event.get("value")
        if t is not None and isinstance(value, bool) and (t.say if value else t.deny):
            return self._sentence((t.say if value else t.deny).replace("{obj}", entity) + ".", entity)
        if t is not None and isinstance(value, int) and not isinstance(value, bool) and (t.many or t.plural_only):
            word = self._count_word(t, value)
            return self._sentence(self.say["now_has"].format(entity=entity, value=value, property=word), entity)
        prop = t.one if t is not None else _plain(event.get("property"))
        said = self.property_value(self.kind_of(event.get("entity")), event.get("property"), value)
        return self._sentence(self.say["changed"].format(entity=entity, property=prop, value=said), entity)

    def kind_of(self, eid) -> str:
        """An entity's kind: as the view last learnt shows it, else its component's (a
        thing out of the view's sight: ``name.3`` is a copy of the component ``name``)."""
        kind = self.kinds_by_id.get(eid)
        if kind or not isinstance(eid, str):
            return kind or ""
        base = eid.partition(".")[0]
        return next((c.kind for c in self.ruleset.data.components if c.name in (eid, base)), "")

    def _opening(self, text: str) -> str:
        """A sentence's first letter in capitals, unless it opens with an id that reads as
        one (a player's p1, a thing's die.p1.1 where the glossary has no word)."""
        first = re.match(r"[\w.]+", text)
        return self._sentence(text, first.group().rstrip(".") if first else "")

    def _sentence(self, text: str, first: str) -> str:
        """A sentence's first letter in capitals, whatever opens it (a thing the glossary
        has no word for, named by its id: "Lamp: colour is now red."), unless it opens with
        ``first`` and that is an id that reads as one, with a number, a dot or an
        underscore in it: a seat is p1 on every screen, its header and prompt included,
        die.p1.1 is a copy's id and fair_day a component's, not words."""
        # a thing out of sight now (a card passed on) is still named by its id: the
        # components tell an id apart from a word, not the current view alone
        is_id = first in self.kinds_by_id or first.split(".", 1)[0] in self._components \
            or first in self.ruleset.data.zones  # a zone the glossary has no word for: "draw_pile is shuffled."
        opens_with_id = bool(first) and text.startswith(first) and is_id and bool(re.search(r"[\d._]", first))
        return text if opens_with_id else _capital(text)

    def result(self, result: dict, seat: str) -> str:
        winners = result.get("winners") or []
        if seat in winners:
            return self.say["you_win"]
        if not winners:
            return self.say["nobody_wins"]
        return self.say["wins" if len(winners) == 1 else "win"].format(winners=", ".join(winners))

    def prop(self, kind: str, name: str) -> str:
        return self._term("properties", f"{kind}.{name}") or _plain(name)

    def agreeing(self, kind: str, name: str) -> str:
        """The ending a word takes after a feminine property ("cachée" in French), from
        the language's grammar."""
        term = self.glossary.get("properties", f"{kind}.{name}")
        feminine = term is not None and term.feminine and not term.plural_only
        return GRAMMAR[self.lang].get("feminine_ending", "") if feminine else ""

    def the_prop(self, kind: str, name: str) -> str:
        """A property's word with the article "the" of the language ("le vote", "la
        couleur" where the glossary says the word is feminine)."""
        term = self.glossary.get("properties", f"{kind}.{name}")
        if term is None:
            return GRAMMAR[self.lang]["the"]["m"].format(n=_plain(name))
        return self._article_the(term)

    def _count_word(self, term, value: int) -> str:
        """The word after a number: its plural unless one (in French, 0 and 1: "1 point de
        vie", "0 point d'action"); a word used only in the plural as it is."""
        if term.many is None and term.plural_only:
            return term.one
        return term.one if (value == 1 or abs(value) < GRAMMAR[self.lang]["singular_below"]) else term.plural

    def unset(self, kind: str, name: str, value) -> bool:
        """Whether a number is the rule set's mark for "not set": below zero, and what the
        property of ``kind`` (a game or turn variable for a ``kind`` of "game" or "turn")
        starts at ("-1 while unarmed", "-1: not available"). No count on a table is below
        zero: the screens say it as none."""
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value >= 0:
            return False
        data = self.ruleset.data
        specs = data.variables.get(kind, {}) if kind in ("game", "turn") else \
            getattr(data.kinds.get(kind), "properties", {})
        spec = specs.get(name)
        return spec is not None and spec.default == value

    def _none_for(self, term) -> str:
        """"none" agreeing with the word it follows (French "aucune" after a feminine one)."""
        return self.say["none_f" if term is not None and term.feminine else "none"]

    def variable_value(self, scope: str, name: str, value) -> str:
        """A game or turn variable's value in words, its "not set" mark as none (see ``unset``)."""
        if self.unset(scope, name, value):
            return self._none_for(self.glossary.get("variables", f"{scope}.{name}"))
        return self.name(value)

    def variable(self, scope: str, name: str) -> str:
        """A game or turn variable's word ("game.round_count")."""
        return self._term("variables", f"{scope}.{name}") or _plain(name)

    def status(self, kind: str, name: str, value) -> str:
        """A property and its value, short: "4 action points" for a count, else "colour red"."""
        t = self.glossary.get("properties", f"{kind}.{name}")
        if self.unset(kind, name, value):  # the rules' mark for "not set": "limit none"
            return f"{self.prop(kind, name)} {self._none_for(t)}"
        if t is not None and isinstance(value, int) and not isinstance(value, bool) and (t.many or t.plural_only):
            return f"{value} {self._count_word(t, value)}"
        return f"{self.prop(kind, name)} {self.property_value(kind, name, value)}"

    def _name_slots(self, kind: str) -> set[str]:
        """The properties the glossary's name of each thing of ``kind`` is made from
        (its ``called``: "{rank} of {suit}"), which the name says already."""
        return called_slots(self.glossary.terms.get(("kinds", kind)))

    def details(self, eid: str, entity: dict | None = None, viewer: str | None = None) -> list[str]:
        """What a thing's properties say of it, short and in the glossary's words ("face
        6", "4 coins", "ready"): each number, whatever it is (a die that shows its
        default face shows it too); a yes/no or a text only where it differs from the
        kind's default (a yes by the property's word alone); a player or thing it names,
        but not ``viewer`` (a card's owner, to that owner). Left out: what says nothing
        (none, an empty text), and a text the thing's name says already (a piece whose
        type is in its name). ``entity``: the thing as a view shows it (default: as the
        view last learnt shows it)."""
        entity = entity if entity is not None else self.entities.get(eid) or {}
        kind = entity.get("kind", "")
        spec = self.ruleset.data.kinds.get(kind)
        declared = spec.properties if spec is not None else {}
        own_name = self.name(eid).lower()
        out = []
        for prop, value in (entity.get("props") or {}).items():
            if says_nothing(value) or value == HIDDEN or (viewer is not None and value == viewer):
                continue
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                if not (prop in self._name_slots(kind) and re.search(rf"(?<![\w.]){value}(?![\w.])", own_name)):
                    out.append(self.status(kind, prop, value))
                continue
            if prop in declared and declared[prop].default == value:
                continue
            if value is True:
                out.append(self.prop(kind, prop))
            elif isinstance(value, str) and re.search(
                    rf"(?<!\w){re.escape(self.property_value(kind, prop, value).lower())}(?!\w)", own_name):
                continue
            else:
                out.append(self.status(kind, prop, value))
        sides = self._printed_sides(eid, kind)
        if sides:
            out.append(sides)
        return out

    def _printed_sides(self, eid: str, kind: str) -> str | None:
        """A tile not laid yet, on a board whose sides are cut into parts, by the middle of
        each side as printed, in the board's order of directions ("sides city, field,
        road, field"): what a player lays it by. None for any other thing."""
        board = self.ruleset.data.board
        if board is None or board.kind != "tiles" or kind != board.tile_kind \
                or eid in {t for t, _ in getattr(self, "laid", {}).values()}:
            return None
        layouts = self._tile_layouts()
        layout = board.layouts.get(layouts.get(eid)) if eid in layouts else None
        if layout is None or not any(len(side.parts) > 1 for side in layout.sides.values()):
            return None
        middles = [layout.sides[d].parts[len(layout.sides[d].parts) // 2].edge for d in board.directions if d in layout.sides]
        return self.say["tile_sides"].format(sides=", ".join(str(self.value_word(e)) for e in middles))

    def _tile_layouts(self) -> dict:
        found = getattr(self, "_layouts_of_tiles", None)
        if found is None:
            from rulecraft.interpreter.state import tile_layouts

            found = self._layouts_of_tiles = tile_layouts(self.ruleset)
        return found

    def know_entities(self, entities: dict) -> None:
        """Learn the kind of every entity a view shows (for the words of changed
        properties) and where each stands (for the places options name)."""
        self.kinds_by_id = {eid: e["kind"] for eid, e in entities.items()}
        self.entities = entities
        self._name_places()

    def know_view(self, view: dict) -> None:
        """Learn all a view shows: its entities, and the cell of each laid tile, so that
        two spaces of the same type are told apart and a tile's neighbours named."""
        self.tile_at = {}
        self.laid: dict[tuple[int, int], tuple[str, int]] = {}  # a cell → the tile laid there, and its turn
        board = self.ruleset.data.board
        if board is not None and board.kind == "tiles" and view.get("tiles"):
            from rulecraft.interpreter.board import Geometry
            from rulecraft.interpreter.state import tile_layouts

            geometry = Geometry(board, tile_layouts(self.ruleset))
            self.geometry = geometry
            for tile, (x, y, rotation) in view["tiles"].items():
                self.laid[(x, y)] = (tile, rotation)
                for room in geometry.rooms_of(tile):
                    self.tile_at[room] = (x, y)
        self.seats = list(view.get("players") or [])
        self.viewer = view.get("viewer")
        self.know_entities(view["entities"])
        self.apart = self.told_apart((view.get("choice") or {}).get("options") or [])

    def _name_places(self) -> None:
        self._place_names = {}
        if self.space_kind is None:
            return
        spaces = [eid for eid, e in self.entities.items() if e.get("kind") == self.space_kind]
        words = {s: self._space_word(s) for s in spaces}
        counts: dict[str, int] = {}
        for s in spaces:
            if s in self.tile_at:
                counts[words[s]] = counts.get(words[s], 0) + 1
        for s in spaces:
            name = words[s]
            if counts.get(name, 0) > 1 and s in self.tile_at:
                x, y = self.tile_at[s]
                name += " " + self.say["at"].format(x=x, y=y)
            self._place_names[s] = name
