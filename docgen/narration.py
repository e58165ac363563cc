"""A worked example told in sentences: the situation a scenario arranges, each of its
steps, and what must then be true, in the site's language.

The scenario is data (``seeds/<game>/*.yaml``, see docs/scenarios.md); its names are
those of the rule set, and each is told by the glossary's word for it: an entity id
``red_pawn.1`` is "Red pawn 1", ``knight.p1`` "Knight of player 1", a zone
``hand:p2`` "hand of player 2". A key this module does not know is still
told, as "key: value", so nothing a scenario says is hidden.
"""

from __future__ import annotations

import re

from rulecraft.dsl.model import RuleSet
from rulecraft.dsl.builtins import ENGINE_EVENTS

from rulecraft.languages import ByLanguage

from .glossary import engine_term
from .markup import md, md_code, md_template
from .prose import unrepeated_property
from .ui import UI

_PLAYER = re.compile(r"^p(\d+)$")
_SLOT = re.compile(r"\{([A-Za-z_0-9]+)\}")

SENTENCES = ByLanguage("examples")  # the section `examples` of each language's file
GRAMMAR = ByLanguage("play_grammar")


class Narrator:
    """Tells one rule set's scenarios in one language, with the words of its glossary."""

    def __init__(self, ruleset: RuleSet, prose, lang: str):
        self.rs = ruleset
        self.data = ruleset.data
        self.prose = prose
        self.lang = lang
        self.ui = UI(lang)
        self.s = SENTENCES[lang if lang in SENTENCES else "en"]
        self.components = {c.name: c for c in self.data.components}

    def say(self, phrase: str, /, **slots) -> str:
        text = self.say_raw(phrase, **slots)
        return text[:1].upper() + text[1:]

    def say_raw(self, phrase: str, /, **slots) -> str:
        """A sentence part with its slots filled, not capitalised (a slot may be called
        ``key``: the phrase's name is positional only)."""
        text = self.s[phrase]
        for name, value in slots.items():
            text = text.replace("{" + name + "}", str(value))
        return text

    # ------------------------------------------------------------ checks on a zone
    _COUNTS = ("count", "min", "max")

    def zone_facts(self, facts: dict) -> str:
        """The checks on a zone (``count``, ``min``, ``max`` after the filters ``kind`` and
        ``where``, ``contains``, ``excludes``, ``top``, ``bottom``, ``kinds``; for a tally,
        ``ids``) in words: "exactly 5 cards for which the colour of the card is red; it holds …"."""
        kind = facts.get("kind")
        where = facts.get("where") if isinstance(facts.get("where"), dict) else {}
        the = self._kind_words(kind, plural=False, the=True)
        clauses = [self._holds(kind, prop, value, the) or self._is(kind, prop, value, the)
                   for prop, value in where.items()]

        def what(n) -> str:
            words = self._kind_words(kind, plural=n != 1)
            if facts.get("ids"):
                words = self.say_raw("facts_among", what=words, things=self.thing(facts["ids"]))
            if clauses:
                which = self.prose._relative(self.s["facts_which"], kind == "player")  # "players for whom …"
                words = which.replace("{what}", words).replace("{clause}", self.s["and"].join(clauses))
            return words

        told = []
        for key, value in facts.items():
            if key in ("kind", "where", "ids"):
                continue
            if key in self._COUNTS:
                told.append(self.say_raw(f"facts_{key}", n=value, what=what(value)))
            elif key in ("contains", "excludes"):
                told.append(self.say_raw(f"facts_{key}", things=self.thing(value)))
            elif key in ("top", "bottom"):
                told.append(self.say_raw(f"facts_{key}", thing=self.thing(value)))
            elif key == "kinds" and isinstance(value, dict):
                told.append(self.say_raw("facts_kinds", things=", ".join(
                    f"{n} {self._kind_words(k, plural=n != 1)}" for k, n in value.items())))
            else:
                told.append(self.say_raw("facts_other", key=self._key_word(key), value=self.thing(value)))
        if not any(key in self._COUNTS for key in facts) and (where or facts.get("ids")):
            told.insert(0, what(2))  # filters without a count still say what they filter
        return self.s["facts_sep"].join(told)

    def _is(self, kind: str | None, prop: str, value, obj: str) -> str:
        """"the colour of the card is red", in the rules' own words."""
        term = self._prop_term(kind, prop)
        word = self._value_word(value)
        if isinstance(value, str) and term is not None and term.feminine:
            t = self.prose.glossary.get("values", value)
            word = md(t.feminine_form) if t is not None and t.feminine_form else word
        prop_words = self._prop_word(kind, prop)
        subject = self.prose._finish(self.prose.ph["expressions"]["property"].replace("{prop}", prop_words)
                                     .replace("{obj}", obj))
        key = "==_plural" if term is not None and term.plural_only else "=="
        return self.prose.ph["operators"][key].replace("{left}", subject).replace("{right}", word)

    def _kind_words(self, kind: str | None, plural: bool, the: bool = False) -> str:
        """The word of a kind (or the neutral word of the rules' phrases), for counts."""
        if kind is not None and self.prose.glossary.get("kinds", kind) is not None:
            key = f"kinds.{kind}"
            if the:
                return md(self.prose._article(self.prose._written("kinds", kind), "the"))
            return md(self.prose.term(key, plural=plural))
        neutral = self.prose.ph["neutral"]
        if the:
            from .glossary import Term
            return md(self.prose._article(Term(neutral["one"], neutral.get("many")), "the"))
        return neutral.get("many", neutral["one"] + "s") if plural else neutral["one"]

    def _prop_term(self, kind: str | None, prop: str):
        glossary = self.prose.glossary
        if kind is not None and glossary.get("properties", f"{kind}.{prop}") is not None:
            return glossary.get("properties", f"{kind}.{prop}")
        return next((t for (s, k), t in glossary.terms.items() if s == "properties" and k.rsplit(".", 1)[-1] == prop),
                    None)

    def _prop_word(self, kind: str | None, prop: str) -> str:
        term = self._prop_term(kind, prop)
        if term is None:
            return md(prop.replace("_", " "))
        return md(self.prose._article(term, "the"))

    def _holds(self, kind: str | None, prop: str, value, obj: str) -> str | None:
        """A yes/no property said with the glossary's phrase ("player 1 is ready"), when it has one."""
        if not isinstance(value, bool):
            return None
        term = self._prop_term(kind, prop)
        phrase = (term.say if value else term.deny) if term is not None else None
        if not phrase:
            return None
        return self.prose._finish(md_template(phrase, _SLOT).replace("{obj}", obj))

    def _value_word(self, value) -> str:
        if isinstance(value, str):
            term = self.prose.glossary.get("values", value)
            if term is not None:
                return md(term.one)
        return self.thing(value)

    def kind_of_id(self, value) -> str | None:
        """The kind of the thing a scenario names: a player, or a component's copy."""
        text = str(value)
        if _PLAYER.match(text):
            return "player" if "player" in self.data.kinds else None
        comp = text.split("/", 1)[0].partition(".")[0]
        return next((c.kind for c in self.data.components if c.name == comp), None)

    # ------------------------------------------------------------ words for the scenario's names
    def player(self, pid: str) -> str:
        found = _PLAYER.match(pid)
        return self.s["player"].replace("{n}", found.group(1)) if found else md_code(pid)

    def _glossary_word(self, section: str, key: str) -> str | None:
        term = self.prose.glossary.get(section, key)
        return md(term.bare or term.one) if term is not None else None

    def thing(self, value) -> str:
        """The words for a value a scenario writes: an entity, a player, a zone, a place, a number."""
        if value is None:
            return self.s["nothing"]
        if isinstance(value, bool):
            return self.s["yes" if value else "no"]
        if isinstance(value, (int, float)):
            return str(value)
        if isinstance(value, list):
            return ", ".join(self.one_value(v) for v in value) if value else self.s["nothing"]
        if isinstance(value, dict):
            return ", ".join(f"{self._key_word(k)} {self.thing(v)}" for k, v in value.items())
        text = str(value)
        if _PLAYER.match(text):
            return self.player(text)
        zone, colon, owner = text.partition(":")
        if colon and zone in self.data.zones:
            if owner == "*":  # a per-player zone checked for every player
                return self.s["of_every_player"].replace("{thing}", self._zone(zone))
            if not _PLAYER.match(owner):  # a zone of a thing (a character's item slots): the thing by its word
                said = self.s["of_thing"].replace("{thing}", self._zone(zone)).replace("{owner}", self.thing(owner))
                for pattern, replacement in GRAMMAR[self.lang].get("owner_elisions") or ():  # "d'Anne"
                    said = re.sub(pattern, replacement, said)
                return said
            return self.s["of_player"].replace("{thing}", self._zone(zone)).replace("{player}", self.player(owner))
        if text in self.data.zones:
            return self._zone(text)
        tile, slash, room = text.partition("/")
        comp, dot, rest = tile.partition(".")
        if comp in self.components:
            said = self._component_copy(comp, dot, rest)
            rooms = self._rooms_of(comp)
            if slash and len(rooms) > 1:  # which space of a tile of several: "start (road)"
                info = rooms.get(room) or {}
                room_word = (self._glossary_word("values", info["type"]) if info.get("type") else None) \
                    or md(str(info.get("type") or room).replace("_", " "))
                return f"{said} ({room_word})"
            return said
        if text in self.data.kinds:
            return self._glossary_word("kinds", text) or md(text)
        board = self.data.board
        if board is not None and board.kind != "tiles" and text in board.spaces:
            # a declared board's space: its word (or its title, see glossary), never its id in code
            return self._glossary_word("components", text) or md(text.replace("_", " "))
        for section in ("values", "dice", "definitions", "events"):
            word = self._glossary_word(section, text)
            if word is not None:
                return word
        return md_code(text)

    def _component_copy(self, comp: str, dot: str, rest: str) -> str:
        """A component, or one copy of it (``card.2``, a player's ``card.p2``, ``card.p2.1``)."""
        word = self._glossary_word("components", comp) or md(comp.replace("_", " "))
        if dot and _PLAYER.match(rest):
            return self.s["of_player"].replace("{thing}", word).replace("{player}", self.player(rest))
        owner, _, copy = rest.partition(".")
        if dot and _PLAYER.match(owner) and copy.isdigit():  # copy 1 of player 2's cards: `card.p2.1`
            return self.say_raw("copy_of_player", thing=word, n=copy, player=self.player(owner))
        return f"{word} {md(rest)}" if dot else word

    def _rooms_of(self, component: str) -> dict:
        """The spaces of a tile component's layout, by name (none for another component)."""
        board = self.data.board
        layout = getattr(self.components.get(component), "layout", None)
        if board is None or not layout or layout not in board.layouts:
            return {}
        return board.layouts[layout].rooms

    def one_value(self, value) -> str:
        """A value that is one among others (an option of a choice, an item of a list), said
        as one: a list or a record in brackets, its items as the play screens label such an
        option (``[3, 7]`` is "(3, 7)", as ``Words.option`` of rulecraft.narration says "3, 7"),
        so that the options ``[[3, 7], [4, 6]]`` read "(3, 7), (4, 6)", never as loose values."""
        if isinstance(value, (list, dict)):
            return f"({self.thing(value)})"
        return self.thing(value)

    def _zone(self, zone: str) -> str:
        return self._glossary_word("zones", zone) or md(zone.replace("_", " "))

    def _key_word(self, key: str) -> str:
        """A property, variable or field name as the glossary says it."""
        for section, name in (("properties", None), ("fields", key), ("variables", None)):
            if name is not None:
                word = self._glossary_word(section, name)
            else:
                word = next((self._glossary_word(section, k) for (s, k) in self.prose.glossary.terms
                             if s == section and k.rsplit(".", 1)[-1] == key), None)
            if word:
                return word
        return md(key.replace("_", " "))

    def _arg_word(self, definition: str, arg: str) -> str:
        return (self._glossary_word("names", f"{definition}.{arg}") or self._glossary_word("names", arg)
                or self._glossary_word("fields", arg) or md(arg.replace("_", " ")))

    def _pick(self, pick) -> str:
        """One fixed pick: a value for random(…), or the option a tied script takes."""
        if isinstance(pick, dict) and ("do" in pick or "react" in pick):
            name = pick.get("do") or pick.get("react")
            return self.s["pick_option"].replace("{action}", self._title(name)).replace(
                "{args}", self._args(name, pick.get("args")))
        if isinstance(pick, dict) and "choose" in pick:
            return self.s["pick_choice"].replace("{value}", self.one_value(pick["choose"]))
        return self.thing(pick)

    def _title(self, name: str) -> str:
        if name in self.rs.definitions:
            return f"*{md(self.prose.title(name))}*"
        return md_code(name)

    def _args(self, definition: str, args) -> str:
        if not args:
            return ""
        if isinstance(args, dict):
            told = ", ".join(f"{self._arg_word(definition, k)} = {self.thing(v)}" for k, v in args.items())
        elif isinstance(args, list):
            told = ", ".join(self.thing(v) for v in args)
        else:
            told = self.thing(args)
        return f" ({told})"

    def _event(self, pattern: dict) -> tuple[str, str]:
        kind = pattern.get("type")
        if kind is None:
            name = self.thing("?")
        elif kind in ENGINE_EVENTS or self.prose.glossary.get("events", kind) is not None:
            name = self.prose._event_name(kind)
        else:
            name = md_code(kind)
        fields = {k: v for k, v in pattern.items() if k != "type"}
        said = self._event_phrase(kind, fields)
        if said is not None:
            return said, ""
        # a player is named by their number alone ("player 2"), not "player player 2"; so is a
        # thing whose name holds the field's word ("red token 1", not "token red token 1")
        told = {k: self.thing(v) if isinstance(v, str) and _PLAYER.match(v)
                else self._field_and_value(self._arg_word(kind or '', k), self.thing(v)) for k, v in fields.items()}
        prop, entity, players = fields.get("property"), fields.get("entity"), fields.get("players")
        if kind in ("changed", "revealed", "hidden") and isinstance(prop, str):
            # the engine's events about a property: the property by its glossary word, with its
            # thing ("the coins of player 1"), never as the name the rules write it by
            if isinstance(entity, str):
                owner = self._argument(entity) if _PLAYER.match(entity) else self.thing(entity)
                told["property"] = self.prose._finish(
                    self.prose.ph["expressions"]["property"]
                    .replace("{prop}", self._prop_word(self.kind_of_id(entity), prop)).replace("{obj}", owner))
                del told["entity"]
            else:
                told["property"] = f"{self._arg_word(kind, 'property')} {self._key_word(prop)}"
        if kind in ("revealed", "hidden") and isinstance(players, list) and players:
            # whom it is shown to, or hidden from again: "to player 1 and player 2"
            told["players"] = self.say_raw(f"{kind}_players", players=self._argument(players))
        told = ", ".join(told.values())
        return name, (f" ({told})" if told else "")

    @staticmethod
    def _field_and_value(field: str, value: str) -> str:
        words = re.sub(r"[^\w\s'’-]", " ", value).casefold().split()
        said = field.casefold().split()
        if said and any(words[i:i + len(said)] == said for i in range(len(words))):
            return value
        return f"{field} {value}"

    def _event_phrase(self, kind: str | None, fields: dict) -> str | None:
        """An event a scenario names with every field of the glossary's phrase for it (its
        ``say``, which the play screens tell it with) and no other, said with that phrase,
        the scenario's values in its slots: "player 3 takes the lead" rather than "the lead
        is taken (player 3)". None when the glossary has no phrase for it, or the scenario
        gives other fields than the phrase's (then each field is named, so none is hidden)."""
        term = self.prose.glossary.get("events", kind) if kind else None
        phrase = getattr(term, "say", None)
        if not phrase or set(_SLOT.findall(phrase)) != set(fields):
            return None
        text = md_template(phrase, _SLOT)
        for slot, value in fields.items():
            text = text.replace("{" + slot + "}", self._argument(value))
        return self.prose._finish(text)

    # ------------------------------------------------------------ computed values
    def _number(self, value) -> str:
        """A number as a reader writes it: 1 (not 1.0), a negative one with a minus sign (−1)."""
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return f"−{-value}" if value < 0 else str(value)

    def _argument(self, value) -> str:
        """A value a scenario gives a function, or expects of it, as a phrase of a sentence:
        a player with the article the language puts before one ("le joueur 2"), a text by
        the glossary's word, a number as a reader writes it."""
        if isinstance(value, str) and _PLAYER.match(value):
            return self.say_raw("player_the", n=_PLAYER.match(value).group(1))
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return self._number(value)
        if isinstance(value, list) and value:  # "player 1 and player 2"
            told = [self._argument(v) for v in value]
            return self._listed(told)
        return self._value_word(value)

    def _function_value(self, item: dict) -> str:
        """``{function: F, args: [...], value: V}`` in words: the function's own phrase from the
        glossary with the scenario's values in its slots, as the rule pages say it ("the score of
        player 2 is 7"; a yes/no function by its phrase or its denial); without a phrase, its title
        and arguments ("*Score* (player 2) gives 7", "*Leads* (player 1) does not hold")."""
        name = str(item.get("function"))
        args = list(item.get("args") or [])
        value = item.get("value")
        d = self.rs.definitions.get(name)
        term = self.prose.glossary.get("definitions", name)
        sentence = None
        if d is not None and d.kind == "function" and term is not None and term.say:
            slots = {p.name: self._argument(v) for p, v in zip(d.params, args)}

            def phrase(template: str) -> str:
                text = md_template(template, _SLOT)
                for slot, words in slots.items():
                    text = text.replace("{" + slot + "}", words)
                return text

            D = self.prose.ph["definitions"]
            if d.returns is not None and d.returns.name == "bool" and isinstance(value, bool):
                if value:
                    sentence = phrase(term.say) + "."
                elif term.deny:
                    sentence = phrase(term.deny) + "."
                else:
                    sentence = self.prose.ph["operators"]["not"].replace("{operand}", phrase(term.say)) + "."
            else:
                template = D.get("function_value_plural", D["function_value"]) if term.plural_only \
                    else D["function_value"]
                sentence = template.replace("{say}", phrase(term.say)).replace("{value}", self._argument(value))
            sentence = self.prose._finish(sentence[:1].upper() + sentence[1:])
        if sentence is None and d is not None and d.kind == "function" and d.returns is not None \
                and d.returns.name == "bool" and isinstance(value, bool):
            sentence = self.say("function_holds" if value else "function_fails", function=self._title(name),
                                args=self._args(name, args))
        if sentence is None:
            sentence = self.say("function_gives", function=self._title(name), args=self._args(name, args),
                                value=self._argument(value))
        if item.get("text") and self.lang == "en":
            sentence = self.say_raw("function_note", sentence=sentence, text=md(str(item["text"])))
        return sentence

    def _payoffs(self, value: dict) -> str:
        """``payoffs: {p1: 1, p2: -1}``: what each seat gets at the end, in one sentence ("at the
        end, player 1 gets 1 and player 2 gets −1"); the function that counts them, when the rule
        set declares one (``game.payoff``), named after."""
        # the verb for every seat: seats are numbered, so "player 2 1" would read as one number
        told = [self.say_raw("payoff", player=self._argument(str(seat)) if _PLAYER.match(str(seat))
                             else md_code(str(seat)),
                             n=self._number(n) if isinstance(n, (int, float)) and not isinstance(n, bool)
                             else self.thing(n))
                for seat, n in value.items()]
        joined = self._listed(told)  # the seats in order
        spec = self.data.game.payoff
        if spec and spec.get("function"):
            return self.say("payoffs_by", payoffs=joined, function=self._title(spec["function"]))
        return self.say("payoffs", payoffs=joined)

    # ------------------------------------------------------------ the three parts
    def situation(self, scenario, fixed_tops: dict | None = None) -> list[str]:
        """The situation a scenario starts from: how many play, the results fixed for the
        game's own setup (``game_setup``), then what the scenario arranges (``setup``).
        ``fixed_tops``: where the game's setup put what its shuffles were fixed to put on
        top (see docgen.examples.fixed_tops), so that a reader sees what each player holds."""
        out = []
        if scenario.players:
            out.append(self.say("players_one" if scenario.players == 1 else "players", n=scenario.players))
        return out + self.game_setup(scenario.game_setup or {}, fixed_tops or {}) + self.arranged(scenario.setup or {})

    def game_setup(self, fixed: dict, tops: dict) -> list[str]:
        """``game_setup`` in sentences: the values the game starts from, its random picks,
        its rolls, and each shuffle, told
        by where the game's setup put what the shuffle put on top when that is known (a
        list per place, in the order fixed, each place whole: the steps that follow play
        from what each player was given), else by the order it fixed."""
        out = []
        if fixed.get("vars") or fixed.get("props"):
            values = self._vars(fixed.get("vars") or {}) + self._props(fixed.get("props") or {})
            out.append("\n".join([self.say("setup_starting")] + ["    - " + v for v in values]))
        if fixed.get("picks"):
            joiner = "; " if any(isinstance(v, dict) for v in fixed["picks"]) else ", "
            out.append(self.say("setup_picks", values=joiner.join(self._pick(v) for v in fixed["picks"])))
        for die, values in (fixed.get("rolls") or {}).items():
            out.append(self.say("setup_rolls", die=self._die(die), values=self.thing(values)))
        for zone, things in (fixed.get("shuffles") or {}).items():
            places = tops.get(zone)
            if not places or [where for where, _ in places] == [zone]:  # nothing left it: its order is the news
                out.append(self.say("setup_shuffles", zone=self._the_zone(zone), things=self._runs(things)))
                continue
            kinds = {self.kind_of_id(t) for t in things}
            kind = kinds.pop() if len(kinds) == 1 else None
            what = self._kind_words(kind, plural=len(things) != 1)
            lines = [self.say("setup_shuffles_placed_one" if len(things) == 1 else "setup_shuffles_placed",
                              zone=self._the_zone(zone), n=len(things), what=what,
                              the_what=self._kind_words(kind, plural=False, the=True))]
            for where, held in places:
                if where is None:
                    line = self.say("placed_off", things=self.thing(held))
                elif where == zone:
                    line = self.say("placed_stays", zone=self.thing(zone), things=self.thing(held))
                else:
                    line = self.say("placed_in", place=self.thing(where), things=self.thing(held))
                lines.append("    - " + line)  # a list under the sentence, one place a line
            out.append("\n".join(lines))
        return [self.prose._finish(line) for line in out]  # "de le sac" is "du sac"

    def _the_zone(self, zone) -> str:
        """A zone as the object of a sentence, with the article its word takes in the
        glossary; a player's zone reads as ``thing`` says it ("hand of player 2")."""
        if str(zone) in self.data.zones:
            return md(self.prose._article(self.prose._written("zones", str(zone)), "the"))
        return self.thing(zone)

    def _runs(self, things) -> str:
        """Things in order, each run of one component written again and again (a
        component of several copies stands for any of them) said once with its count and
        its plural word, rather than the same word seven times."""
        if not isinstance(things, list):
            return self.thing(things)
        runs: list[list] = []
        for t in things:
            if runs and runs[-1][0] == t:
                runs[-1][1] += 1
            else:
                runs.append([t, 1])
        told = []
        for t, n in runs:
            if n > 1 and isinstance(t, str) and t in self.components:
                told.append(self.say_raw("copies", n=n, things=md(self.prose.term(t, plural=True))))
            else:
                told += [self.one_value(t)] * n
        return ", ".join(told)

    def arranged(self, setup: dict) -> list[str]:
        out = []
        for key, value in setup.items():
            out += self._setup_key(key, value)
        return out

    def _setup_key(self, key: str, value) -> list[str]:
        if key == "current":
            return [self.say("current", player=self.player(str(value)))]
        if key == "ap":
            return [self.say("ap", n=value, ap=self._ap_word(value))]
        if key == "tiles" and isinstance(value, dict):
            out = []
            for tile, spot in value.items():
                if spot is None:
                    out.append(self.say("tile_off", tile=self.thing(tile)))
                else:
                    x, y, *r = list(spot) + [0]
                    out.append(self.say("tiles", tile=self.thing(tile), x=x, y=y, r=r[0] if r else 0))
            return out
        if key == "clear_board":
            return [self.say("clear_board")] if value else []
        if key == "restore":
            # a kind stands for every thing of it ("every token"), as in the scenario
            told = [self.say_raw("every_kind", kind=self.thing(v)) if v in self.data.kinds else self.thing(v)
                    for v in (value if isinstance(value, list) else [value])]
            return [self.say("restore", things=self._listed(told))]
        if key in ("deal", "hands") and isinstance(value, dict):
            out = []
            for pid, cards in value.items():
                if key == "deal" and not cards:
                    out.append(self.say("deal_none", player=self.player(str(pid))))
                else:
                    out.append(self.say(key, player=self.player(str(pid)), cards=self._dealt(cards)))
            return out
        if key == "move_all" and isinstance(value, dict):
            return [self.say("move_all_off", **{"from": self.thing(a)}) if b is None else
                    self.say("move_all", **{"from": self.thing(a), "to": self.thing(b)}) for a, b in value.items()]
        if key == "pieces" and isinstance(value, dict):
            return [self.say("pieces", thing=self.thing(e), place=self.thing(p)) if p is not None
                    else self.say("piece_off", thing=self.thing(e)) for e, p in value.items()]
        if key in ("deck_top", "shuffles") and isinstance(value, dict):
            return [self.say(key, zone=self.thing(z), things=self.thing(ids)) for z, ids in value.items()]
        if key == "props" and isinstance(value, dict):
            return self._props(value)
        if key == "vars" and isinstance(value, dict):
            return self._vars(value)
        if key == "rolls" and isinstance(value, dict):
            return [self.say("rolls", die=self._die(d), values=self.thing(v)) for d, v in value.items()]
        if key == "hand_zone":
            return []  # which zone 'deal' and 'hands' fill: their sentences name it
        if key == "picks":
            joiner = "; " if any(isinstance(v, dict) for v in value) else ", "
            return [self.say("picks", values=joiner.join(self._pick(v) for v in value))]
        return [self.say("other", key=md(key), value=self.thing(value))]

    def _dealt(self, cards) -> str:
        """Cards dealt to a hand, each with its article ("a card, an item"):
        a copy of a component is one of several alike."""
        if not isinstance(cards, list):
            return self.thing(cards)
        told = []
        for card in cards:
            comp = str(card).split("/", 1)[0].partition(".")[0]
            if comp in self.components and self.prose.glossary.get("components", comp) is not None:
                told.append(md(self.prose._article(self.prose._written("components", comp), "a")))
            else:
                told.append(self.one_value(card))
        return ", ".join(told) if told else self.s["nothing"]

    def _listed(self, told: list[str]) -> str:
        """Words in a row as a sentence lists them: "a, b and c"."""
        return told[0] if len(told) == 1 else ", ".join(told[:-1]) + self.s["and"] + told[-1]

    def _ap_word(self, n) -> str:
        term = self.prose.glossary.get("properties", "player.ap")
        if term is None:
            return "ap"
        return md(term.one if n == 1 and not term.plural_only else term.plural)

    def _die(self, die: str) -> str:
        return self._glossary_word("dice", die) or md_code(die)

    def _props(self, value: dict) -> list[str]:
        """Property values a scenario sets or expects: of a thing, or of every thing of a kind
        (a kind's name: "the coins of every player are 20"), the verb agreeing with a word the
        glossary gives as used only in the plural (``gender: p``)."""
        out = []
        for thing, props in value.items():
            whole = thing in self.data.kinds
            kind = thing if whole else self.kind_of_id(thing)
            for prop, v in (props or {}).items():
                if whole:  # every thing of a kind: "each player is not ready"
                    clause = self._holds(thing, prop, v, self.say_raw("each_kind", kind=self.thing(thing)))
                else:
                    clause = self._holds(kind, prop, v, self.thing(thing))
                if clause is not None:  # a yes/no with the glossary's phrase: "player 1 is ready"
                    out.append(self.say("prop_holds", clause=clause))
                    continue
                term = self._prop_term(kind, prop)
                if term is None and kind is not None:  # no word for it: as the rules' pages say it ("coins" are)
                    term = self.prose._unglossed("properties", f"{kind}.{prop}")
                key = "prop_plural" if term is not None and term.plural_only and "prop_plural" in self.s else "prop"
                subject = self.say_raw("every_kind", kind=self.thing(thing)) if whole else self.thing(thing)
                out.append(self.say(key, prop=unrepeated_property(self.s[key], self._prop_key_word(kind, prop)),
                                    thing=subject, value=self._value_word(v)))
        return out

    def _sees(self, value: dict) -> list[str]:
        """``sees: {p2: {shown: [...], hidden: [...]}}``: what a player's view shows and keeps
        from them, a sentence for each."""
        out = []
        for viewer, seen in value.items():
            for key, sentence in (("shown", "sees"), ("hidden", "does_not_see")):
                items = (seen or {}).get(key) or [] if isinstance(seen, dict) else []
                if items:
                    told = [self._seen_item(str(item)) for item in items]
                    if len(told) > 1 and key == "hidden":  # none of them: "X or Y", "ni X ni Y"
                        joined = (", ".join(self.s["nor"] + t for t in told) if self.s.get("nor_before_each")
                                  else ", ".join(told[:-1]) + self.s["nor"] + told[-1])
                        out.append(self.say("does_not_see_any", player=self.player(str(viewer)), things=joined))
                        continue
                    out.append(self.say(sentence, player=self.player(str(viewer)), things=self._listed(told)))
        return out

    def _seen_item(self, item: str) -> str:
        """One item of ``sees`` in words: a zone, a thing, a variable, a thing's property."""
        owner, _, name = item.rpartition(".")
        if owner in ("game", "turn") and name in self.data.variables.get(owner, {}):
            return self._glossary_word("variables", item) or md(name.replace("_", " "))
        kind = self.kind_of_id(owner) if owner and ":" not in item else None
        if kind is None or name not in self.data.kinds[kind].properties:  # a zone, or a thing (crown.2)
            return self.thing(item)
        return self.say_raw("seen_prop", prop=self._prop_key_word(kind, name), thing=self.thing(owner))

    def _prop_key_word(self, kind: str | None, prop: str) -> str:
        """A property's word, that of the thing's own kind when the glossary has it."""
        term = self.prose.glossary.get("properties", f"{kind}.{prop}") if kind is not None else None
        return md(self.prose._property_word(term)) if term is not None else self._key_word(prop)

    def _vars(self, value: dict) -> list[str]:
        out = []
        for scope, names in value.items():
            for name, v in (names or {}).items():
                word = self._glossary_word("variables", f"{scope}.{name}") or md(name.replace("_", " "))
                out.append(self.say("var", var=word, value=self.thing(v)))
        return out

    def step(self, step: dict) -> list[str]:
        """One step, in one or more sentences (an `expect` step tells each of its checks)."""
        by = step.get("by")
        who = self.player(str(by)) if by else None
        text = step.get("text") if self.lang == "en" else None
        if "do" in step:
            action = step["do"]
            if action == "end_turn":
                told = [self.say("end_turn_by", by=who) if who else self.say("end_turn")]
            else:
                args = self._args(action, step.get("args"))
                if who:
                    told = [self.say("do", by=who, action=self.s["takes_action"].replace("{action}", self._title(action)),
                                     args=args)]
                else:
                    told = [self.say("do_nobody", action=self._title(action), args=args)]
        elif "end_turn" in step:
            told = [self.say("end_turn_by", by=who) if who else self.say("end_turn")]
        elif "choose" in step:
            value = self.one_value(step["choose"])  # one option, whatever it holds
            told = [self.say("choose", by=who, value=value) if who else self.say("choose_nobody", value=value)]
        elif "choose_index" in step:
            n = step["choose_index"]
            told = [self.say("choose_index", by=who, n=n) if who else self.say("choose_index_nobody", n=n)]
        elif "react" in step:
            reaction = step["react"]
            if reaction == "pass":
                told = [self.say("pass", by=who) if who else self.say("pass_nobody")]
            else:
                args = self._args(reaction, step.get("args"))
                told = [self.say("react", by=who, reaction=self._title(reaction), args=args) if who
                        else self.say("react_nobody", reaction=self._title(reaction), args=args)]
        elif "call" in step:
            args = step.get("args")
            told = [self.say("call", rule=self._title(step["call"]),
                             args=self.s["with_args"].replace("{args}", self._args(step["call"], args)[2:-1]) if args else "")]
        elif "roll" in step:
            told = self._setup_key("rolls", step["roll"])
        elif "arrange" in step:
            told = [self.say("arrange") + " " + " ".join(self.arranged(step["arrange"] or {}))]
        elif "expect" in step:
            told = [self.say("check") + " " + " ".join(self.outcome(step["expect"] or {}))]
        else:
            told = [self.say("other", key=md(k), value=self.thing(v)) for k, v in step.items() if k not in ("by", "text")]
        if text:
            told.append(f"*{md(text)}*")
        return told

    def outcome(self, expect: dict) -> list[str]:
        out = []
        for key, value in expect.items():
            out += self._expect_key(key, value)
        return out

    def _option(self, option: dict) -> tuple[str, str | None]:
        if option.get("do") == "end_turn":
            told = self.s["option_end_turn"]
        elif "do" in option:
            told = self.s["option_do"].replace("{action}", self._title(option["do"])).replace(
                "{args}", self._args(option["do"], option.get("args")))
        elif "choose" in option:
            told = self.s["option_choose"].replace("{value}", self.one_value(option["choose"]))
        else:
            told = self.thing(option)
        because = option.get("because") or option.get("text")
        return told, because

    def _expect_key(self, key: str, value) -> list[str]:
        if key == "at" and isinstance(value, dict):
            return [self.say("at", thing=self.thing(e), place=self.thing(p)) if p is not None
                    else self.say("at_off", thing=self.thing(e)) for e, p in value.items()]
        if key == "props" and isinstance(value, dict):
            return self._props(value)
        if key == "vars" and isinstance(value, dict):
            return self._vars(value)
        if key == "ap":
            return [self.say("ap", n=value, ap=self._ap_word(value))]
        if key == "zone" and isinstance(value, dict):
            out = []
            for zone, held in value.items():
                if isinstance(held, list):
                    out.append(self.say("zone_exactly", zone=self.thing(zone), things=self.thing(held)) if held
                               else self.say("zone_empty", zone=self.thing(zone)))
                elif isinstance(held, dict):
                    out.append(self.say("zone_facts", zone=self.thing(zone), facts=self.zone_facts(held)))
                else:
                    out.append(self.say("zone_facts", zone=self.thing(zone), facts=self.thing(held)))
            return out
        if key == "current":
            return [self.say("is_current", player=self.player(str(value)))]
        if key == "round":
            term = engine_term(self.prose.glossary, "round")
            return [self.say("round", n=value, round=md(term.one), the_round=md(self.prose._article(term, "the")))]
        if key == "turns":
            return [self.say("turns", players=", ".join(self.player(str(p)) for p in value or []))]
        if key in ("legal", "illegal"):
            out = []
            for option in value or []:
                told, because = self._option(option if isinstance(option, dict) else {"choose": option})
                if key == "illegal" and because and self.lang == "en":
                    out.append(self.say("illegal_because", option=told, because=md(because)))
                else:
                    out.append(self.say(key, option=told))
            return out
        if key == "pending":
            if value is None:
                return [self.say("pending_none")]
            if isinstance(value, int):
                return [self.say("pending_count_one" if value == 1 else "pending_count", n=value)]
            if not isinstance(value, dict):
                return [self.say("other", key=md(key), value=self.thing(value))]
            what = self.s.get(f"pending_{value.get('kind')}", self.s["pending_choose"])
            options = ""
            if value.get("options") is not None:
                options = self.s["pending_options"].replace("{options}", self.thing(value["options"]))
            elif value.get("count") is not None:
                key = "pending_n_options_one" if value["count"] == 1 else "pending_n_options"
                options = self.s[key].replace("{n}", str(value["count"]))
            # a prompt as the rules write it (English), or in the glossary's words (`prompts`)
            prompt = value.get("prompt")
            if prompt and self.lang != "en":
                prompt = self.prose.glossary.prompt_shown(str(prompt), self.prose.ruleset.data.parameters)
            if prompt:
                options += self.s["pending_prompt"].replace("{prompt}", md(prompt))
            if value.get("player"):
                return [self.say("pending", player=self.player(str(value["player"])), what=what, options=options)]
            return [self.say("pending_anyone", what=what, options=options)]
        if key in ("events", "no_events"):
            out = []
            for pattern in value or []:
                name, fields = self._event(pattern if isinstance(pattern, dict) else {"type": pattern})
                out.append(self.say("event" if key == "events" else "no_event", event=name, fields=fields))
            return out
        if key == "events_in_order":
            told = []
            for pattern in value or []:
                name, fields = self._event(pattern if isinstance(pattern, dict) else {"type": pattern})
                told.append(f"{name}{fields}")
            return [self.say("events_in_order", events="; ".join(told))]
        if key == "over":
            return [self.say("over" if value else "not_over")]
        if key == "winners":
            return [self.say("winners", players=", ".join(self.player(str(p)) for p in value)) if value
                    else self.say("no_winners")]
        if key == "reason":
            return [self.say("reason", reason=self.thing(value))]
        if key == "functions" and isinstance(value, list):
            return [self._function_value(item) if isinstance(item, dict) else self.say("other", key=md(key),
                                                                                      value=self.thing(item))
                    for item in value]
        if key == "payoffs" and isinstance(value, dict) and value:
            return [self._payoffs(value)]
        if key == "sees" and isinstance(value, dict):
            return self._sees(value)
        if key == "tiles" and isinstance(value, dict):
            return self._setup_key("tiles", value)
        if key == "tally" and isinstance(value, list):
            out = []
            for count in value:
                zones = count.get("zones", []) if isinstance(count, dict) else []
                facts = {k: v for k, v in count.items() if k != "zones"} if isinstance(count, dict) else count
                out.append(self.say("tally", zones=self.thing([z if not isinstance(z, dict) else z.get("zone") for z in zones]),
                                    facts=self.zone_facts(facts) if isinstance(facts, dict) else self.thing(facts)))
            return out
        if key == "text":
            return [f"*{md(value)}*"] if self.lang == "en" else []
        return [self.say("other", key=md(key), value=self.thing(value))]
