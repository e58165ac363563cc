"""Plain-language text of a rule set's definitions, rendered from the syntax tree.

The sentence templates of each language live in ``docgen/phrases/<lang>.yaml`` and
know no game; every game word comes from the rule set's glossary
(:mod:`rulecraft.docgen.glossary`). Since the text is made from the same tree the
interpreter runs, it cannot drift from the rules. A node kind without a rendering
raises :class:`UnrenderableNode` instead of printing code.
"""

from __future__ import annotations

import dataclasses
import re


from rulecraft.dsl import ast
from rulecraft.dsl import types as T
from rulecraft.dsl.builtins import ENGINE_EVENTS, VALUES
from rulecraft.dsl.model import RuleSet
from rulecraft.languages import language, languages

from .authored import Authored
from .glossary import LETTER_NAME, SECTIONS, Term, engine_term, item_kind, load_glossary, loop_name_word
from .markup import md, md_template

_SLOT = re.compile(r"\{([A-Za-z_0-9]+)\}")
_VOWELS = "aeiouyàâäéèêëîïôöûùüAEIOUYÀÂÄÉÈÊËÎÏÔÖÛÙÜ"


class UnrenderableNode(TypeError):
    """The renderer met a syntax-tree node it has no sentence for."""


def phrases(lang: str) -> dict:
    """The sentence templates of a language: its file of rulecraft's words
    (``docgen/phrases/<lang>.yaml``, see :mod:`rulecraft.languages`, which keeps each
    file read once, and reads it again when its folder changes: not kept here, so that a
    language whose file is gone is refused again)."""
    return language(lang)


def available_languages() -> list[str]:
    return list(languages())


def fill(template: str, **slots) -> str:
    """Put values in a template's ``{slots}``; a slot without a value is left as written."""
    return _SLOT.sub(lambda m: str(slots[m.group(1)]) if m.group(1) in slots else m.group(0), template)


def unrepeated_property(template: str, prop: str) -> str:
    """A property's words for ``template``'s ``{prop}``, without the word that joins it
    to what follows when its own name already ends with it: a property called
    ``owner_of`` reads "the owner of the cell", not "the owner of of the cell"."""
    joining = template.split("{prop}", 1)[-1].split("{", 1)[0].strip()
    if joining and prop.endswith(" " + joining):
        return prop[: -len(joining) - 1]
    return prop


def unrepeated_slot_word(template: str, slot: str, words: str, keep=()) -> str:
    """``template`` without the word beside ``{slot}`` that the slot's words say again.
    A phrase written for play names a value after its word ("the clock moves to Hour
    {hour}" reads "Hour 3"); on the rules site the slot holds what the rule reads ("the
    Hour"), which would read "Hour the Hour". The word before the slot is dropped when
    the slot's words hold it and it is a name (capitalized), their last word, the word
    before it or the one after their article ("along lane {n}": "along the lane
    number"), and then an
    article they begin with too: "moves to the Hour", "passe à l'Heure". A word after
    the slot that ends the slot's words is dropped too ("({n} points)": "(the points)").
    Words of ``keep`` (the language's prepositions) always stay."""
    said = [w.casefold() for w in words.split()]
    at = template.find("{" + slot + "}")
    if not said or at < 0:
        return template
    end = at + len(slot) + 2
    after = template[end:]
    following = re.match(r" (\w+)(?!\w)", after)
    if len(said) > 1 and following and following.group(1).casefold() == said[-1] \
            and following.group(1).casefold() not in keep:
        after = after[following.end():]
    template = template[:end] + after
    if at < 1 or template[at - 1] != " ":
        return template
    before = template[:at].rstrip().split(" ")
    word = before[-1]
    # a name, or a noun the slot's words are built on: their last word, or beside their head
    # ("the lane number", "the lane number of the token")
    named = word[:1].isupper() or word.casefold() == said[-1] \
        or len(said) > 2 and word.casefold() in (said[1], said[-2])
    if word.casefold() not in said or word.casefold() in keep or not named:
        return template
    before = before[:-1]
    if before and len(said) > 1 and before[-1].casefold() == said[0]:
        before = before[:-1]
    return " ".join(before) + (" " if before else "") + template[at:]


def counted(table: dict, key: str, n) -> str:
    """The template ``key`` of a phrase table, or its singular ``key_one`` when the number it
    counts is 1 and the table has one ("1 weighted term", not "1 weighted terms")."""
    if n == 1 and not isinstance(n, bool) and f"{key}_one" in table:
        return table[f"{key}_one"]
    return table[key]


def capitalize(text: str) -> str:
    for i, ch in enumerate(text):
        if ch.isalpha():
            return text[:i] + ch.upper() + text[i + 1:]
    return text


def _strip_type(t: str | None) -> str:
    return (t or T.ANY).rstrip("?")


class Prose:
    """Renders one rule set's definitions and terms in one language.

    With ``markdown=True`` (the site), every word :meth:`definition` and :meth:`summary`
    take from the rule set is escaped for Markdown, so a glossary can add no markup to a
    page; :meth:`term` and :meth:`title` always give the words as written."""

    def __init__(self, ruleset: RuleSet, lang: str = "en", markdown: bool = False):
        self.ruleset = ruleset
        self.lang = lang
        self.markdown = markdown
        self._escaped: dict[Term, Term] = {}
        self.ph = phrases(lang)
        self.glossary = load_glossary(ruleset, lang)
        # the round number, in the rule set's word for its rounds (the phrases are shared: copied)
        round_term = self._escape(engine_term(self.glossary, "round"))
        values = {**self.ph["values"], "round_number": self._finish(fill(
            self.ph["values"]["round_number"], round=round_term.one, the_round=self._article(round_term, "the")))}
        self.ph = {**self.ph, "values": values}
        self.missing: set[tuple[str, str]] = set()  # glossary entries asked for but absent
        self.authored = Authored(self.glossary, lang, ruleset)  # the author's texts and citations in this language
        self._locals: dict[str, str] = {}  # local name -> type, inside the definition being rendered
        self._definition: ast.Definition | None = None
        self._words: dict[str, Term] = {}  # loop names called by the kind of their items
        self._pointed: set[str] = set()  # loop names whose kind word an outer name has: "that character"
        self._every: set[str] = set()  # loop names said, where the list's item reads them, as "every character"
        self._target_term: Term | None = None  # the word of the last `set` target's property
        self._given: set[str] = set()  # parameters called like a property the definition reads: "the given item"
        self._bare = False  # the next list is said after words that already name its items (see _among)

    # ------------------------------------------------------------ public interface

    def definition(self, name: str) -> str:
        """Markdown for one definition: its cost, conditions and steps."""
        d = self._get(name)
        render = getattr(self, f"_def_{d.kind}", None)
        if render is None:
            raise UnrenderableNode(f"no rendering for a {d.kind} definition")
        self._definition, self._locals, self._words, self._pointed = d, {}, {}, set()
        self._given = self._given_names(d)
        try:
            return self._finish("\n".join(render(d)).strip() + "\n")
        finally:
            self._definition, self._locals, self._given, self._pointed = None, {}, set(), set()

    def summary(self, name: str) -> str:
        """One plain sentence about a definition, for tables and navigation."""
        d = self._get(name)
        self._definition, self._locals, self._words, self._pointed = d, {}, {}, set()
        self._given = self._given_names(d)
        try:
            self._declare_params(d)
            D = self.ph["definitions"]
            if d.kind == "action":
                costs = D["and"].join(f"{self.ex(c.amount)} {self._resource(c)}" for c in d.costs)
                text = fill(D["summary_action"], costs=costs) if costs else D["summary_action_free"]
            elif d.kind == "procedure":
                # a phrase without parameters only restates the title as an order: count the steps instead
                if d.params:
                    text = fill(D["summary_procedure"], say=self._say_of(d))
                else:
                    steps = len(d.body.statements) if d.body else 0
                    text = fill(D["summary_procedure_steps" if steps != 1 else "summary_procedure_step"], count=steps)
            elif d.kind == "function":
                key = "summary_function_bool" if d.returns is not None and d.returns.name == T.BOOL else "summary_function"
                say = self._say_of(d)
                if say.strip().lower() == self._written("definitions", d.name).one.strip().lower() and d.params:
                    # its bare name would only restate the title ("Worth."): say what it is of
                    say = fill(D["summary_function_of"], words=say, args=D["and"].join(
                        self._the("names", p.name) for p in d.params))
                text = fill(D[key], say=say)
            elif d.kind in ("trigger", "reaction"):  # the event only: a condition is too long for a list
                text = fill(D[f"summary_{d.kind}"], event=self._event_name(d.event))
            elif d.kind == "victory":
                text = fill(D["summary_victory"], when=self.ex(d.when))
            elif d.kind == "obligation":
                text = fill(D["summary_obligation"], when=self.ex(d.when))
            elif d.kind == "script":
                text = fill(counted(D, "summary_script", len(d.prefers)), count=len(d.prefers))
            elif d.kind == "heuristic":
                count = len(d.features) + len(d.prefers)
                text = fill(counted(D, "summary_heuristic", count), count=count)
            else:
                raise UnrenderableNode(f"no summary for a {d.kind} definition")
            return self._finish(capitalize(text))
        finally:
            self._definition, self._locals, self._given, self._pointed = None, {}, set(), set()

    def term(self, key: str, plural: bool = False) -> str:
        """The word for a game term: ``section.key`` (``kinds.character``, ``properties.character.health``,
        ``variables.turn.moved``) or a bare key looked up section by section."""
        section, _, rest = key.partition(".")
        if section in SECTIONS and rest:
            t = self._written(section, rest)
        else:
            found = next((s for s in SECTIONS if self.glossary.get(s, key) is not None), None)
            t = self._written(found or "names", key)
        return t.plural if plural else (t.bare or t.one)

    def value_key(self, kind: str | None, value: str) -> str:
        """The glossary key of a text value held by a property of ``kind``: ``values.VALUE_KIND``
        when the glossary has it (a value two kinds share, such as a card's and a room type's
        "alarm", needs a word for each: ``alarm_room``), else ``values.VALUE``."""
        if kind and self.glossary.get("values", f"{value}_{kind}") is not None:
            return f"values.{value}_{kind}"
        return f"values.{value}"

    def _value_term(self, value: str, subject: ast.Expr | None) -> Term:
        """A text value's word, as the value of the property ``subject`` reads."""
        kind = None
        if isinstance(subject, ast.Attr):
            otype = _strip_type(getattr(subject.obj, "type", None))
            if not otype.startswith("event "):
                kind = self._owner_kind(otype, subject.name)
        return self._lookup("values", self.value_key(kind, value).partition(".")[2])

    def holds_clause(self, kind: str, prop: str, value: bool) -> str | None:
        """A yes/no property of a thing of ``kind`` said as a clause about "the KIND", when the
        glossary gives its phrases: "the card is not face up"; None otherwise."""
        t = self._lookup("properties", f"{kind}.{prop}")
        phrase = t.say if value else t.deny
        if not phrase:
            return None
        return self._finish(fill(phrase, obj=self._article(self._lookup("kinds", kind), "the")))

    def title(self, name: str) -> str:
        """The title of a definition in this language."""
        return capitalize(self._written("definitions", name).one)

    # ------------------------------------------------------------ words and articles

    def _get(self, name: str) -> ast.Definition:
        try:
            return self.ruleset.definitions[name]
        except KeyError:
            raise KeyError(f"the rule set has no definition '{name}'") from None

    def _lookup(self, section: str, key: str) -> Term:
        """A term as the text being rendered uses it (escaped for Markdown in a site)."""
        if section == "names" and key in self._words:
            return self._words[key]
        return self._escape(self._written(section, key))

    def _escape(self, t: Term) -> Term:
        if not self.markdown:
            return t
        if t not in self._escaped:
            def words(text):
                return md(text) if text is not None else None

            def phrase(text):
                return md_template(text, _SLOT) if text is not None else None

            self._escaped[t] = Term(md(t.one), words(t.many), t.gender, t.article,
                                    t.elide if t.elide is not None else t.one[:1] in _VOWELS,
                                    phrase(t.say), phrase(t.deny), words(t.bare), words(t.feminine_form))
        return self._escaped[t]

    def _written(self, section: str, key: str) -> Term:
        """A term as the glossary writes it."""
        if section == "names" and self._definition is not None:
            # a local name may mean different things in different definitions
            t = self.glossary.get(section, f"{self._definition.name}.{key}")
            if t is not None:
                return t
        t = self.glossary.get(section, key)
        if t is None:
            self.missing.add((section, key))
            return self._unglossed(section, key)
        return t

    def _unglossed(self, section: str, key: str) -> Term:
        """A word no glossary gives: the name as written, underscores read as spaces, shaped
        by what it names so that it still reads as part of a sentence. A short local name
        (``p``, ``s2``) is a letter, as in algebra: "s", not "the s". A yes/no property reads
        as a predicate of its thing ("the square is empty", "the piece has moved"), a yes/no
        variable as true or false, and a yes/no function of one thing whose name is one word
        or opens with a verb (``is_``, ``has_``, ``can_``, ``may_``, ``must_``) as a predicate
        of that thing; other functions keep their name and bracketed arguments."""
        words = key.rsplit(".", 1)[-1].replace("_", " ")
        if section == "names":
            return Term(words, article=False) if LETTER_NAME.fullmatch(key) else Term(words)
        U = self.ph["unglossed"]
        if section == "variables" and self._declared_type(section, key) == T.BOOL:
            return Term(words, article=False, say=fill(U["flag"], name=words), deny=fill(U["flag_not"], name=words))
        if section == "properties" and self._declared_type(section, key) == T.BOOL:
            return Term(words, say=self._predicate(words, "obj"), deny=self._predicate(words, "obj", denied=True))
        d = self.ruleset.definitions.get(key) if section == "definitions" else None
        if isinstance(d, ast.FunctionDef) and d.returns is not None and d.returns.name == T.BOOL \
                and len(d.params) == 1 and (" " not in words or words.split(" ", 1)[0] in U["verbs"]):
            slot = d.params[0].name
            return Term(words, say=self._predicate(words, slot), deny=self._predicate(words, slot, denied=True))
        if section in ("properties", "variables", "kinds", "parameters") and re.search(U["plural_pattern"], words):
            return Term(words, words, "p")  # "coins": its plural is itself, and it takes a plural verb
        return Term(words)

    def _predicate(self, words: str, slot: str, denied: bool = False) -> str:
        """A predicate template for a yes/no name: "{obj} is face up", "{obj} has moved"."""
        U = self.ph["unglossed"]
        verb, _, rest = words.partition(" ")
        if not rest and re.search(U["acts_pattern"], words):  # "fits": "{obj} fits", "{obj} does not fit"
            stem = words
            for pattern, replacement in U["stems"]:
                if re.search(pattern, words):
                    stem = re.sub(pattern, replacement, words)
                    break
            template = U["acts"][1 if denied else 0].replace("{stem}", stem)
            return template.replace("{subject}", "{%s}" % slot).replace("{words}", words)
        if rest and verb in U["verbs"]:
            template = U["verbs"][verb][1 if denied else 0]
            words = rest
        else:
            template = U["is_not" if denied else "is"]
        return template.replace("{subject}", "{%s}" % slot).replace("{words}", words)

    def _declared_type(self, section: str, key: str) -> str | None:
        """The declared type of a property (``kind.prop``) or a variable (``scope.name``)."""
        owner, _, name = key.rpartition(".")
        if section == "variables":
            spec = self.ruleset.data.variables.get(owner, {}).get(name)
        else:
            kind = self.ruleset.data.kinds.get(owner)
            spec = kind.properties.get(name) if kind is not None else None
        return _strip_type(spec.type) if spec is not None else None

    def _article(self, t: Term, which: str, plural: bool = False) -> str:
        if not t.article:
            return t.plural if plural or which == "all" else t.one
        A = self.ph["articles"]
        if t.plural_only:  # a word used in the plural only
            word = t.plural if t.many else t.one
            t, plural = Term(word, word, {"fp": "f", "np": "n"}.get(t.gender, "m"), elide=t.elide), True
        if which in ("that", "given") and not any(k.startswith(which) for k in A):
            which = "the"  # a language without these in its phrases
        if "the_m" in A:  # articles that agree with the word's gender, and elide before a vowel
            elide = t.elide if t.elide is not None else t.one[:1] in _VOWELS
            if which in ("the", "that", "given"):
                key = f"{which}_plural" if plural else (
                    f"{which}_elided" if elide and (which != "that" or not t.feminine) else f"{which}_{t.gender}")
                if which == "given" and plural and t.feminine:
                    key = "given_plural_f"
                elif which == "given" and elide and not plural and t.feminine:
                    key = "given_elided_f"
            else:
                key = f"{which}_{t.gender}"
        else:
            key = which
            if which == "the" and plural:
                return fill(A["the"], n=t.plural)
            if which == "that" and plural:
                return fill(A["those"], ns=t.plural)
            if which == "given" and plural:
                return fill(A["given_plural"], ns=t.plural)
            if which == "a" and "an" in A and t.one[:1] in "aeiouAEIOU":
                key = "an"
        if key not in A and key.endswith("_n"):  # a neuter word where the articles have none
            key = key[:-2] + "_m"
        return fill(A[key], n=t.one, ns=t.plural)

    def _the(self, section: str, key: str, plural: bool = False) -> str:
        if section == "names" and key in self._every and not plural:
            return self._article(self._lookup(section, key), "every")
        if section == "names" and key in self._pointed and not plural:
            return self._article(self._lookup(section, key), "that")
        if section == "names" and key in self._given and key not in self._words:
            return self._article(self._lookup(section, key), "given", plural)
        return self._article(self._lookup(section, key), "the", plural)

    def _finish(self, text: str) -> str:
        for pattern, replacement in (self.ph.get("contractions") or {}).items():
            text = re.sub(pattern, replacement, text)
        return text

    # ------------------------------------------------------------ definitions

    def _declare_params(self, d: ast.Definition) -> None:
        for p in getattr(d, "params", []):
            self._locals[p.name] = self._type_text(p.type)
        if isinstance(d, (ast.TriggerDef, ast.ReactionDef)) and d.event:
            self._locals["event"] = f"event {d.event}"

    @staticmethod
    def _type_text(t: ast.TypeRef) -> str:
        return f"list of {Prose._type_text(t.item)}" if t.name == "list" and t.item else t.name

    def _say_of(self, d) -> str:
        slots = {p.name: self._the("names", p.name) for p in d.params}
        term = self._lookup("definitions", d.name)
        return fill(term.say or term.one, **slots)

    def _choices(self, d) -> list[str]:
        D = self.ph["definitions"]
        lines = []
        for p in d.params:
            what = self._a_type(p.type)
            # a list's type says no more than its source ("a list of all players among every
            # way to pick 2 of the players"): "choose the team among …"
            untyped = (what == self.ph["types"]["any"] or p.type is not None and p.type.name == "list") \
                and p.source is not None and "with_among" in D
            source = self._among(p.source) if p.source is not None else None
            if p.source is not None:
                what = fill(D["with_in"], a_type=what, source=source)
            self._locals[p.name] = self._type_text(p.type)
            if untyped:  # "choose the target among the targets", not "a value among the targets"
                line = fill(D["with_among"], name=self._the("names", p.name), source=source)
            else:
                line = fill(D["with"], name=self._the("names", p.name), what=what)
            if p.where is not None:
                line += fill(D["with_where"], where=self.ex(p.where))
            lines.append(capitalize(line) + ".")
        return lines

    def _a_type(self, t: ast.TypeRef) -> str:
        types = self.ph["types"]
        if t.name == "list":
            return fill(types["list"], item=self._article(self._lookup("kinds", t.item.name), "all")
                        if t.item and t.item.name in self.ruleset.data.kinds else
                        (types.get(t.item.name, t.item.name) if t.item else types["any"]))
        if t.name in self.ruleset.data.kinds:
            return self._article(self._lookup("kinds", t.name), "a")
        return types.get(t.name, types["any"])

    def _requires(self, d) -> list[str]:
        return [capitalize(fill(self.ph["definitions"]["require"], cond=self.ex(r.cond))) for r in d.requires]

    def _resource(self, c: ast.Cost) -> str:
        holder = _strip_type(getattr(c.payer, "type", None)) if c.payer is not None else "player"
        t = self._lookup("properties", f"{holder}.{c.resource}")
        amount = c.amount.value if isinstance(c.amount, ast.Literal) else None
        return t.one if amount == 1 else t.plural

    def _def_action(self, d: ast.ActionDef) -> list[str]:
        D = self.ph["definitions"]
        head = self._choices(d) + self._requires(d)
        for c in d.costs:
            if c.payer is not None:
                head.append(fill(D["cost_of"], amount=self.ex(c.amount), resource=self._resource(c), payer=self.ex(c.payer)))
            else:
                head.append(fill(D["cost"], amount=self.ex(c.amount), resource=self._resource(c)))
        for lim in d.limits:
            one = isinstance(lim.count, ast.Literal) and lim.count.value == 1
            slots = dict(count=self.ex(lim.count), times=D["times_one" if one else "times_many"],
                         period=D[f"period_{lim.period}"])
            key = "limit_group" if lim.group else "limit"
            if one and f"{key}_once" in D:  # "once per turn"
                key += "_once"
            group = self._lookup("groups", lim.group).one if lim.group else ""
            head.append(fill(D[key], group=group, **slots))
        return self._paragraph(head) + self._steps(d.body, D["steps"])

    def _def_procedure(self, d: ast.ProcedureDef) -> list[str]:
        D = self.ph["definitions"]
        self._declare_params(d)
        head = [capitalize(self._say_of(d)) + "."]
        # the parameters its phrase does not name already ("The player seals a bid." takes the player)
        said = set(_SLOT.findall(self._lookup("definitions", d.name).say or ""))
        names = [self._the("names", p.name) for p in d.params if p.name not in said]
        if names:
            head.append(fill(D["takes"], params=self._join(names)))
        return self._paragraph(head) + self._steps(d.body, D["steps_procedure"])

    def _def_function(self, d: ast.FunctionDef) -> list[str]:
        D = self.ph["definitions"]
        self._declare_params(d)
        if d.returns is not None and d.returns.name == T.BOOL:
            if isinstance(d.value, ast.Literal) and isinstance(d.value.value, bool):
                # a yes/no that never changes: "… when false" reads as a riddle
                key = "function_bool_always" if d.value.value else "function_bool_never"
                return [capitalize(fill(D[key], say=self._say_of(d)))]
            template = D["function_bool"]
        elif (d.returns is not None and d.returns.name == "list") or self._lookup("definitions", d.name).plural_only:
            template = D.get("function_value_plural", D["function_value"])
        else:
            template = D["function_value"]
        return [capitalize(fill(template, say=self._say_of(d), value=self.ex(d.value)))]

    def _def_trigger(self, d: ast.TriggerDef) -> list[str]:
        D = self.ph["definitions"]
        self._declare_params(d)
        event = self._event_name(d.event)
        if d.where is not None:
            head = fill(D["trigger_when"], event=event, cond=self.ex(d.where))
        else:
            head = fill(D["trigger"], event=event)
        return [capitalize(head), ""] + self._block(d.body, 0)

    def _def_victory(self, d: ast.VictoryDef) -> list[str]:
        D = self.ph["definitions"]
        nobody = isinstance(d.winners, ast.ListExpr) and not d.winners.items  # `winners []`: a draw
        winners = D["no_winners"] if nobody else fill(D["winners"], winners=self.ex(d.winners))
        return self._paragraph([capitalize(fill(D["victory"], when=self.ex(d.when))), capitalize(winners)])

    def _def_obligation(self, d: ast.ObligationDef) -> list[str]:
        D = self.ph["definitions"]
        if d.possible is not None:
            text = fill(D["obligation_possible"], when=self.ex(d.when), possible=self.ex(d.possible))
        else:
            text = fill(counted(D, "obligation", d.within), when=self.ex(d.when), within=d.within)
        return self._paragraph([capitalize(text)])

    def _def_script(self, d: ast.ScriptDef) -> list[str]:
        D = self.ph["definitions"]
        seat = d.params[0].name if d.params else "me"
        self._locals[seat] = "player"
        lines = [capitalize(fill(D["script"], seat=seat)), ""]
        for i, pref in enumerate(d.prefers, 1):
            target = self.ruleset.definitions.get(pref.target)
            self._locals.update({p.name: "any" for p in getattr(target, "params", [])})
            if pref.target == "choice":
                self._locals["choice"] = "any"
            line = fill(D["script_prefer"], target=f"`{pref.target}`")
            if pref.where is not None:
                line += " " + fill(D["script_prefer_when"], cond=self.ex(pref.where))
            lines.append(f"{i}. {line}")
        return lines + [""]

    def _def_heuristic(self, d: ast.HeuristicDef) -> list[str]:
        D = self.ph["definitions"]
        seat = d.params[0].name if d.params else "me"
        self._locals[seat] = "player"
        head = fill(D["heuristic"], seat=seat)
        if d.side is not None:
            head += " " + fill(D["heuristic_side"], side=f"`{d.side}`")
        lines = [capitalize(head), ""]
        for f in d.features:
            label = md(f.label) if self.markdown else f.label  # the rule's own text: no markup of its own
            lines.append("- " + fill(D["heuristic_feature"], label=label, weight=self.ex(f.weight), value=self.ex(f.value)))
        for pref in d.prefers:
            target = self.ruleset.definitions.get(pref.target)
            self._locals.update({p.name: "any" for p in getattr(target, "params", [])})
            if pref.target == "choice":
                self._locals["choice"] = "any"
            if pref.target in ("choice", "end_turn", "pass"):
                named = D[f"heuristic_prefer_{pref.target}"]
            else:
                named = f"*{capitalize(self._lookup('definitions', pref.target).one)}*"
            line = fill(D["script_prefer"], target=named)
            if pref.where is not None:
                line += " " + fill(D["script_prefer_when"], cond=self.ex(pref.where))
            if pref.weight is not None:
                line += " " + fill(D["heuristic_prefer_weight"], weight=self.ex(pref.weight))
            lines.append("- " + line)
        if d.beliefs:
            lines += ["", D["heuristic_beliefs"], ""]
        for b in d.beliefs:
            self._locals[b.param.name] = self._type_text(b.param.type)
            what = self._a_type(b.param.type)
            if b.param.where is not None:
                what += fill(D["with_where"], where=self.ex(b.param.where))
            if isinstance(b.value, ast.Literal) and b.value.value is True:  # a property that holds
                line = fill(D["heuristic_belief_holds"], target=self.ex(b.target), what=what)
            else:
                line = fill(D["heuristic_belief"], target=self.ex(b.target), value=self.ex(b.value), what=what)
            line += " " + (D["heuristic_belief_sure"] if b.odds is None else
                           fill(D["heuristic_belief_odds"], odds=self.ex(b.odds)))
            lines.append("- " + line)
        return lines + [""]

    def _def_reaction(self, d: ast.ReactionDef) -> list[str]:
        D = self.ph["definitions"]
        self._locals["event"] = f"event {d.event}"
        if d.responder is None:
            head = [capitalize(fill(D["reaction_on"], event=self._event_name(d.event), by=self.ex(d.by)))]
        else:
            self._locals[d.responder.name] = "player"
            by = self.ex(d.responder.source) if d.responder.source is not None else self.ph["values"]["players"]
            head = [capitalize(fill(D["reaction_named"], event=self._event_name(d.event), by=by,
                                    name=self._the("names", d.responder.name)))]
            if d.responder.where is not None:
                head.append(capitalize(fill(D["reaction_named_when"], cond=self.ex(d.responder.where))))
        head += self._choices(d) + self._requires(d)
        return self._paragraph(head) + self._steps(d.body, D["steps"])

    @staticmethod
    def _paragraph(sentences: list[str]) -> list[str]:
        return [" ".join(sentences), ""] if sentences else []

    def _steps(self, body: ast.Block | None, label: str) -> list[str]:
        if body is None:
            return []
        return [label, ""] + self._block(body, 0)

    def _event_name(self, event: str | None) -> str:
        if event in ENGINE_EVENTS and self.glossary.get("events", event) is None:
            return self.ph["engine_events"][event]
        return self._lookup("events", event or "").one

    # ------------------------------------------------------------ statements

    def _block(self, block: ast.Block | None, depth: int) -> list[str]:
        lines: list[str] = []
        for s in block.statements if block else []:
            lines += self._statement(s, depth)
        return lines

    def _bullet(self, text: str, depth: int) -> str:
        return "    " * depth + "- " + capitalize(text)

    def _statement(self, s: ast.Stmt, depth: int) -> list[str]:
        S = self.ph["statements"]
        if isinstance(s, ast.If):
            lines = []
            for i, (cond, body) in enumerate(s.branches):
                lines.append(self._bullet(fill(S["if" if i == 0 else "elif"], cond=self.ex(cond)), depth))
                lines += self._block(body, depth + 1)
            if s.otherwise is not None:
                lines.append(self._bullet(S["else"], depth))
                lines += self._block(s.otherwise, depth + 1)
            return lines
        if isinstance(s, ast.ForEach):
            iterable = self._among(s.iterable)
            self._bind_loop_name(s.var, s.iterable)
            # over every entity of a kind, the list goes without saying: "for each player"
            key = "for_each_whole" if self._whole_kind(s.iterable) is not None and "for_each_whole" in S else "for_each"
            head = self._bullet(fill(S[key], var=self._lookup("names", s.var).one, iterable=iterable), depth)
            return [head] + self._block(s.body, depth + 1)
        if isinstance(s, ast.Repeat):
            # a number reads "3 times"; a quantity in words reads "as many times as the amount"
            key = "repeat" if isinstance(s.count, ast.Literal) or "repeat_as_many" not in S else "repeat_as_many"
            template = counted(S, key, s.count.value if isinstance(s.count, ast.Literal) else None)
            return [self._bullet(fill(template, count=self.ex(s.count)), depth)] + self._block(s.body, depth + 1)
        return [self._bullet(self._simple(s), depth)]

    def _given_names(self, d: ast.Definition) -> set[str]:
        """The parameters of a function or procedure whose word is also the word of a property
        the definition reads (a parameter `item` compared with `card.item`): they read "the
        given item", so that "the item of the card is the given item" is no tautology."""
        if d.kind not in ("function", "procedure") or not any(k.startswith("given") for k in self.ph["articles"]):
            return set()  # an action's choices read "the chosen …" well enough as "the …"
        from .glossary import walk
        read = {n.name for n in walk(d) if isinstance(n, ast.Attr)}
        words = set()
        for kind, spec in self.ruleset.data.kinds.items():
            for prop in read & set(spec.properties):
                t = self.glossary.get("properties", f"{kind}.{prop}")
                words.add((t.one if t is not None else prop.replace("_", " ")).strip().lower())
        given = set()
        for p in getattr(d, "params", []) or []:
            t = self.glossary.get("names", f"{d.name}.{p.name}") or self.glossary.get("names", p.name)
            if t is not None and t.one.strip().lower() in words:
                given.add(p.name)
        return given

    def _bind_loop_name(self, var: str, iterable: ast.Expr) -> None:
        """A `for each` or comprehension name: over things of a known kind it is called by the
        kind's word, unless the glossary words it (see :func:`loop_name_word`); when an outer
        name reads the same, it reads "that player", "every player" or "every other player"
        (see :meth:`_other_than` and :meth:`_ex_Comprehension`)."""
        kind = item_kind(iterable, self.ruleset.data)
        self._locals[var] = kind or T.item_type(_strip_type(getattr(iterable, "type", None)))
        self._pointed.discard(var)
        self._every.discard(var)
        if kind is not None:
            word = self._lookup("kinds", kind)
            own = self._glossary_name(var)
            kind_word = self.glossary.get("kinds", kind) or self._unglossed("kinds", kind)
            if own is not None and loop_name_word(own, kind_word, specific=self._specific_name(var)):
                word = self._escape(own)
            self._words[var] = word
            if self._word_in_use(var, word):
                # an outer name already reads "the character": this one reads "that character"
                self._pointed.add(var)
        else:
            self._words.pop(var, None)

    def _glossary_name(self, var: str) -> Term | None:
        """The glossary's word for a local name of the definition being rendered: its own
        (``definition.name``), else the plain one; None when it has none."""
        if self._definition is not None:
            t = self.glossary.get("names", f"{self._definition.name}.{var}")
            if t is not None:
                return t
        return self.glossary.get("names", var)

    def _specific_name(self, var: str) -> bool:
        return self._definition is not None and \
            self.glossary.get("names", f"{self._definition.name}.{var}") is not None

    def _name_word(self, name: str) -> Term | None:
        """The word another local name reads by, as far as the glossary tells."""
        if name in self._words:
            return self._words[name]
        return self._glossary_name(name)

    def _other_than(self, var: str, where: ast.Expr | None) -> tuple[bool, ast.Expr | None]:
        """A loop name called by the word of an outer name (``q`` and ``p``, both "player") whose
        condition leaves that outer name out (``where q != p``): it reads "other player", exactly
        what the condition says, and the condition goes without that part. Returns whether it
        does, and the condition left."""
        if var not in self._pointed or where is None or "other" not in self.ph["articles"]:
            return False, where
        word = self._words[var].one.strip().lower()
        parts: list[ast.Expr] = []

        def conjuncts(e: ast.Expr) -> None:
            if isinstance(e, ast.Binary) and e.op == "and":
                conjuncts(e.left)
                conjuncts(e.right)
            else:
                parts.append(e)

        conjuncts(where)
        for i, part in enumerate(parts):
            if not (isinstance(part, ast.Binary) and part.op == "!="):
                continue
            sides = [part.left, part.right]
            if not all(isinstance(x, ast.Name) and (getattr(x, "ref", None) or ("local", x.id))[0] == "local"
                       for x in sides):
                continue
            names = [x.id for x in sides]
            if var not in names:
                continue
            outer = names[1] if names[0] == var else names[0]
            t = self._name_word(outer)
            if outer == var or outer not in self._locals or t is None or t.one.strip().lower() != word:
                continue
            rest = parts[:i] + parts[i + 1:]
            left = None
            for r in rest:
                left = r if left is None else ast.Binary(r.pos, "and", left, r)
            A = self.ph["articles"]
            w = self._words[var]
            self._words[var] = Term(fill(A["other"], n=w.one), fill(A.get("other_plural", A["other"]), n=w.plural),
                                    w.gender, w.article, None)
            self._pointed.discard(var)
            return True, left
        return False, where

    @staticmethod
    def _uses(e: ast.Expr, var: str) -> int:
        """How many times an expression reads the local name ``var`` (-1 when a list within it
        names its own items ``var``: its words are not that name's)."""
        from .glossary import walk
        count = 0
        for n in walk(e):
            if isinstance(n, (ast.Comprehension, ast.ForEach)) and n.var == var:
                return -1
            if isinstance(n, ast.Name) and n.id == var and (getattr(n, "ref", None) or ("local", var))[0] == "local":
                count += 1
        return count

    def _word_in_use(self, var: str, word: Term) -> bool:
        """Whether another name in scope is called by ``word`` already (a parameter `c`
        called "character", an outer loop over characters)."""
        for other in self._locals:
            if other == var or other == "event":
                continue
            if other in self._words:
                t = self._words[other]
            else:
                t = (self.glossary.get("names", f"{self._definition.name}.{other}") if self._definition else None) \
                    or self.glossary.get("names", other)
            if t is not None and t.one.strip().lower() == word.one.strip().lower():
                return True
        return False

    def _simple(self, s: ast.Stmt) -> str:
        S = self.ph["statements"]
        if isinstance(s, ast.Let):
            value = s.value
            if isinstance(value, ast.Call) and value.func == "roll" and getattr(value, "ref", None) == ("builtin", "roll"):
                text = fill(S["let_roll"], die=self.ex(value.args[0]), name=self._the("names", s.name))
            elif isinstance(value, ast.Call) and value.func == "random" and getattr(value, "ref", None) == ("builtin", "random"):
                text = fill(S["let_random"], list=self.ex(value.args[0]), name=self._the("names", s.name))
            else:
                text = fill(S["let"], name=self._the("names", s.name), value=self.ex(value))
            self._locals[s.name] = _strip_type(getattr(value, "type", None))
            return text
        if isinstance(s, ast.Set):
            target, predicate, denial = self._target(s.target)
            if s.op == "=" and predicate is not None:
                if isinstance(s.value, ast.Literal) and isinstance(s.value.value, bool):
                    if not s.value.value and denial is not None:
                        return fill(S["set_true"], predicate=denial)
                    return fill(S["set_true" if s.value.value else "set_false"], predicate=predicate)
                return fill(S["set_when"], predicate=predicate, value=self.ex(s.value))
            if s.op == "=" and isinstance(s.value, ast.Literal) and s.value.value is None:
                return fill(S["set_none"], target=target)
            key = {"=": "set", "+=": "add", "-=": "subtract"}[s.op]
            if key == "set" and self._target_term is not None and self._target_term.plural_only and "set_plural" in S:
                key = "set_plural"  # "les points restants deviennent 4"
            value = self.ex(s.value)
            if s.op == "=" and isinstance(s.value, ast.Literal) and isinstance(s.value.value, str) \
                    and self._target_term is not None and self._target_term.feminine:
                t = self._lookup("values", s.value.value)
                value = t.feminine_form or value  # an adjective agrees: "la face devient noire"
            return fill(S[key], target=target, value=value)
        if isinstance(s, ast.Choose):
            options = self._among(s.options)
            self._locals[s.var] = T.item_type(_strip_type(getattr(s.options, "type", None)))
            var = self._the("names", s.var)
            if s.chooser is None:
                return fill(S["choose_default"], var=var, options=options)
            return fill(S["choose"], chooser=self.ex(s.chooser), var=var, options=options)
        if isinstance(s, ast.Move):
            key = {None: "move", "top": "move_top", "bottom": "move_bottom"}[s.end]
            return fill(S[key], item=self.ex(s.item), destination=self.ex(s.destination))
        if isinstance(s, ast.Shuffle):
            return fill(S["shuffle"], zone=self.ex(s.zone))
        if isinstance(s, ast.Emit):
            audience = self.ex(s.audience) if s.audience is not None else ""
            said = self._event_said(s.event, s.fields)
            if said is not None and "emit_say" in S:
                template = S["emit_say" + ("_to" if s.audience is not None else "")]
                if said.rstrip()[-1:] in ("!", "?", ".", "…"):  # a phrase that ends its own sentence: "it wins!", not "it wins!."
                    template = template.replace("{said}.", "{said}")
                return fill(template, said=said, audience=audience)
            fields = self._fields(s.fields)
            key = "emit" + ("_fields" if fields else "") + ("_to" if s.audience is not None else "")
            return fill(S[key], event=self._event_name(s.event), fields=fields, audience=audience)
        if isinstance(s, ast.Window):
            fields = self._fields(s.fields)
            self._locals[s.var] = f"event {s.event}"
            return fill(S["window" if fields else "window_nofields"], event=self._event_name(s.event), fields=fields,
                        var=self._the("names", s.var))
        if isinstance(s, ast.CallStmt):
            return self._call_statement(s)
        if isinstance(s, ast.ResourceChange):
            target = self._property_words(s.holder, s.resource)
            if s.op == "reset":
                if s.amount is None:
                    return fill(S["reset"], target=target)
                return fill(S["reset_to"], target=target, value=self.ex(s.amount))
            if s.op == "gain":
                cap = self._resource_cap(s.holder, s.resource)
                if cap is not None:
                    return fill(S["gain_capped"], amount=self.ex(s.amount), target=target, max=cap)
            return fill(S[s.op], amount=self.ex(s.amount), target=target)
        if isinstance(s, ast.Reveal):
            prop = getattr(s, "property", None)
            target = self._property_words(s.target.obj, prop) if prop is not None else self.ex(s.target)
            key = "hide" if s.hide else "reveal"
            if s.players is None:
                return fill(S[key], target=target)
            return fill(S[key + ("_from" if s.hide else "_to")], target=target, players=self.ex(s.players))
        if isinstance(s, ast.RunEffect):
            return fill(S["run_effect"], thing=self.ex(s.thing))
        if isinstance(s, ast.Stop):
            return S["stop"]
        if isinstance(s, ast.Break):
            return S["break"]
        raise UnrenderableNode(f"no rendering for the statement {type(s).__name__}")

    def _resource_cap(self, holder: ast.Expr, resource: str) -> str | None:
        """The words for the most a resource may hold (its ``max``: a number, or another
        property of its holder); None for a resource without one."""
        kind = self.ruleset.data.kinds.get(_strip_type(getattr(holder, "type", None)))
        spec = kind.properties.get(resource) if kind is not None else None
        top = (spec.resource or {}).get("max") if spec is not None and isinstance(spec.resource, dict) else None
        if top is None:
            return None
        if isinstance(top, str) and top not in kind.properties:  # a parameter of the rule set
            named = ast.Name(holder.pos, top)
            named.ref = ("parameter", top)
            return self.ex(named)
        if isinstance(top, str):
            return self._property_words(holder, top)
        return str(top)

    def _fields(self, fields: list[tuple[str, ast.Expr]]) -> str:
        """An event's fields, each by its word and its value's; a value that reads as its field
        does ("the player" for the field "player") is said once."""
        S = self.ph["statements"]
        told = []
        for name, value in fields:
            field, words = self._field_name(name), self.ex(value)
            told.append(words if words.strip().lower() == field.strip().lower() else fill(S["field"], field=field,
                                                                                            value=words))
        return self.ph["operators"]["list_sep"].join(told)

    def _event_said(self, event: str, fields: list[tuple[str, ast.Expr]]) -> str | None:
        """An event told by the glossary's phrase for it (its ``say``, which the play screens
        tell it with), the words of the values given in its slots, when every slot is a field
        given; None otherwise."""
        if event in ENGINE_EVENTS and self.glossary.get("events", event) is None:
            return None
        term = self._lookup("events", event)
        if not term.say:
            return None
        given = dict(fields)
        slots = set(_SLOT.findall(term.say))
        if not slots <= set(given):
            return None
        words = {slot: self.ex(given[slot]) for slot in slots}
        phrase = term.say
        keep = tuple(w.casefold() for w in self.ph.get("prepositions") or ())
        for slot, said in words.items():
            phrase = unrepeated_slot_word(phrase, slot, said, keep)
        for slot in slots:
            if not self._fits_value_slot(phrase, slot, given[slot], keep):
                return None
        return self._finish(fill(phrase, **words))

    @staticmethod
    def _fits_value_slot(phrase: str, slot: str, value: ast.Expr, keep: tuple) -> bool:
        """Whether a phrase's slot for a word-value (a text field: "left", "clockwise" in play)
        can hold the rule's words for it, a description ("the pass"): only where a thing's name
        could stand, at the start, after a preposition, ":" or "(". Elsewhere the phrase was
        written for the word itself ("the cards are passed {direction}" would read "are passed
        the pass"), and the event is told by its name and fields instead."""
        if isinstance(value, ast.Literal) or _strip_type(getattr(value, "type", None)) != T.TEXT:
            return True
        before = phrase[:phrase.find("{" + slot + "}")].rstrip()
        return not before or not before[-1].isalnum() or before.rsplit(" ", 1)[-1].casefold() in keep

    def _field_name(self, name: str, event: str | None = None) -> str:
        if self.glossary.get("fields", name) is None and event in ENGINE_EVENTS and name in ENGINE_EVENTS[event]:
            return self.ph["engine_fields"][name]
        return self._the("fields", name)

    def _call_statement(self, s: ast.CallStmt) -> str:
        d = self.ruleset.definitions.get(s.func)
        if d is not None and d.kind == "procedure":
            return capitalize(self._call_definition(d, s.args)) + "."
        effects = self.ph["effects"]
        if s.func in effects:
            return fill(effects[s.func], **{str(i): self.ex(a) for i, a in enumerate(s.args)})
        raise UnrenderableNode(f"no rendering for a call of '{s.func}'")

    def _call_definition(self, d, args: list[ast.Expr]) -> str:
        term = self._lookup("definitions", d.name)
        slots = {p.name: self.ex(a) for p, a in zip(d.params, args)}
        if term.say is None:
            if not slots:
                return term.one
            # the arguments as a list, by commas; by semicolons when one of them is itself a list or a
            # condition with "and", so that "moves (the player; a, b and c)" shows where each one ends
            O, args = self.ph["operators"], list(slots.values())
            loose = any(O["list_sep"].strip() in a or O["list_last"] in a for a in args)
            return term.one + " " + fill(O["group"], x=(O["args_sep"] if loose else O["list_sep"]).join(args))
        return fill(term.say, **slots)

    def _joined(self, template: str, slot: str, word: str, **slots) -> str:
        """``template`` with ``word`` in ``{slot}``, without the word that joins it to what
        follows when ``word`` ends with a joining word of its own: a field called "player
        responsible for" reads "the player responsible for the event", not "… for of the event"."""
        after = template.split("{" + slot + "}", 1)[-1].split("{", 1)[0].split()
        joining = after[0] if after else ""
        last = word.rsplit(" ", 1)[-1]
        if joining and " " in word and last in (self.ph.get("prepositions") or ()):
            template = template.replace("{%s} %s " % (slot, joining), "{%s} " % slot)
        return fill(template, **{slot: word}, **slots)

    def _property_phrase(self, prop: str, obj: str) -> str:
        template = self.ph["expressions"]["property"]
        return fill(template, prop=unrepeated_property(template, prop), obj=obj)

    def _property_words(self, obj: ast.Expr, prop: str) -> str:
        """"the PROPERTY of OBJ", for a property named outside an expression."""
        kind = self._owner_kind(_strip_type(getattr(obj, "type", None)), prop)
        t = self._lookup("properties", f"{kind}.{prop}")
        return self._property_phrase(prop=self._article(t, "the"), obj=self.ex(obj))

    def _target(self, path: list[str]) -> tuple[str, str | None, str | None]:
        """The words for a `set` target, and its predicate and denial when it is a yes/no property with phrases."""
        E = self.ph["expressions"]
        head, rest = path[0], path[1:]
        self._target_term = None  # the word of the property or variable set, for agreement
        if head in ("game", "turn") and head not in self._locals and rest:
            t = self._lookup("variables", f"{head}.{rest[0]}")
            self._target_term = t
            return self._article(t, "the"), t.say, t.deny
        type_ = self._locals.get(head, T.ANY)
        if type_.startswith("event ") and rest:
            record = self.ph["values"]["event"] if head == "event" else self._the("names", head)
            return self._joined(E["record_field"], "field", self._field_name(rest[0], type_[6:]), record=record), None, None
        if head not in self._locals and head in VALUES:
            text, type_ = self.ph["values"][head], VALUES[head][0]
        elif head not in self._locals and head in self._constants():
            text, type_ = self._the("components", head), self._constants()[head]
        else:
            text = self._the("names", head)
        predicate = denial = None
        for prop in rest:
            type_ = self._owner_kind(type_, prop)
            kind = self.ruleset.data.kinds.get(type_)
            if prop == "at" and kind is not None and kind.located_in in self.ruleset.data.kinds:
                # the built-in place of a located thing, as in an expression: "the section of the character"
                text = self._property_phrase(prop=self._the("kinds", kind.located_in), obj=text)
                type_, predicate, denial = kind.located_in, None, None
                continue
            t = self._lookup("properties", f"{type_}.{prop}")
            self._target_term = t
            predicate = fill(t.say, obj=text) if t.say else None
            denial = fill(t.deny, obj=text) if t.deny else None
            text = self._property_phrase(prop=self._article(t, "the"), obj=text)
            type_ = _strip_type(kind.properties[prop].type) if kind and prop in kind.properties else T.ANY
        return text, predicate, denial

    def _constants(self) -> dict[str, str]:
        """Components that rules name directly (one copy, not per player), with their kind."""
        return {c.name: c.kind for c in self.ruleset.data.components if c.count == 1 and not c.per_player}

    # ------------------------------------------------------------ expressions

    def ex(self, e: ast.Expr | None) -> str:
        """The words for an expression."""
        if e is None:
            return ""
        method = getattr(self, f"_ex_{type(e).__name__}", None)
        if method is None:
            raise UnrenderableNode(f"no rendering for the expression {type(e).__name__}")
        return method(e)

    def _ex_Literal(self, e: ast.Literal) -> str:
        V = self.ph["values"]
        if isinstance(e.value, bool):
            return V["true" if e.value else "false"]
        if e.value is None:
            return V["none"]
        if isinstance(e.value, str):
            return self._lookup("values", e.value).one
        return str(e.value)

    def _ex_Name(self, e: ast.Name) -> str:
        ref = getattr(e, "ref", None) or ("local", e.id)
        what, name = ref
        if what == "local":
            if name == "event" and self._locals.get("event", "").startswith("event "):
                return self.ph["values"]["event"]
            return self._the("names", name)
        if what == "value":
            if name == "players" and self.glossary.get("kinds", "player") is not None:
                return self._the("kinds", "player", plural=True)  # the glossary's word: "the responders"
            return self.ph["values"][name]
        if what == "zone":
            return self._the("zones", name)
        if what == "kind":
            return self._article(self._lookup("kinds", name), "all")
        if what == "entity":
            return self._the("components", name)
        if what == "parameter":
            return self._parameter(name)
        if what == "die":
            return self._the("dice", name)
        if what == "table":
            return self._the("tables", name)
        raise UnrenderableNode(f"no rendering for the name '{e.id}' ({what})")

    def _parameter(self, name: str) -> str:
        """A parameter with its value: "the hand size (5)"; a parameter set to nothing with
        the language's word for no value, agreeing with the parameter's word ("the last
        round (none)", "la dernière manche (aucune)"), never as a Python value would print."""
        E = self.ph["expressions"]
        param = self._the("parameters", name)
        value = self.ruleset.data.parameters[name]["value"]
        if value is None:
            key = "parameter_none_f" if self._lookup("parameters", name).feminine and "parameter_none_f" in E \
                else "parameter_none"
            return fill(E[key], param=param)
        return fill(E["parameter"], param=param, value=self.plain_value(value))

    def plain_value(self, value) -> str:
        """A value of the rule set's data (a parameter's, a table's) in words: yes/no as the
        language's true and false, a text by the glossary's word for it, a list item by item,
        a number as written (escaped in a site)."""
        V = self.ph["values"]
        if isinstance(value, bool):
            return V["true" if value else "false"]
        if value is None:
            return V["none"]
        if isinstance(value, str):
            return self._lookup("values", value).one
        if isinstance(value, (list, tuple)):
            return self._join([self.plain_value(v) for v in value]) if value else V["empty_list"]
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return md(value) if self.markdown else str(value)

    def _ex_Attr(self, e: ast.Attr) -> str:
        E = self.ph["expressions"]
        obj = e.obj
        if isinstance(obj, ast.Name) and getattr(obj, "ref", None) == ("scope", obj.id):
            t = self._lookup("variables", f"{obj.id}.{e.name}")
            return t.say if t.say else self._article(t, "the")
        otype = _strip_type(getattr(obj, "type", None))
        if otype.startswith("event "):
            field = self._field_name(e.name, otype[6:])
            if isinstance(obj, ast.Name) and obj.id == "event":
                return self._joined(E["event_field"], "field", field)
            return self._joined(E["record_field"], "field", field, record=self.ex(obj))
        if e.name == "at":
            kind = self.ruleset.data.kinds.get(otype)
            if kind is not None and kind.located_in in self.ruleset.data.kinds:
                return self._property_phrase(prop=self._the("kinds", kind.located_in), obj=self.ex(obj))
            return fill(E["at"], obj=self.ex(obj))
        if e.name == "id":
            return fill(E["id"], obj=self.ex(obj))
        if self._owner_kind(otype, e.name) not in self.ruleset.data.kinds and isinstance(obj, ast.Attr):
            # a field of a record held in an event's field (an action's arguments)
            return self._joined(E["record_field"], "field", self._field_name(e.name), record=self.ex(obj))
        t = self._lookup("properties", f"{self._owner_kind(otype, e.name)}.{e.name}")
        if t.say:
            return fill(t.say, obj=self.ex(obj))
        return self._property_phrase(prop=self._article(t, "the"), obj=self.ex(obj))

    def _owner_kind(self, type_: str, prop: str) -> str:
        """The kind whose property this is: the value's type, or, for a value of unknown type,
        the first kind that has a property of that name."""
        kinds = self.ruleset.data.kinds
        if type_ in kinds:
            return type_
        return next((k for k, spec in kinds.items() if prop in spec.properties), type_)

    def _ex_Index(self, e: ast.Index) -> str:
        E = self.ph["expressions"]
        if isinstance(e.obj, ast.Name) and getattr(e.obj, "ref", None) == ("table", e.obj.id):
            return fill(E["table"], table=self._the("tables", e.obj.id), key=self.ex(e.key))
        held = self._held_words(e.obj)
        held.pop("feminine")
        key = e.key
        if isinstance(key, ast.Binary) and key.op == "-" and isinstance(key.right, ast.Literal) \
                and key.right.value == 1 and "index_position" in E:
            # `list[n - 1]`: position n, counted as a reader counts, from 1
            return fill(E["index_position"], n=self._index_key(key.left), obj=self.ex(e.obj), **held)
        if isinstance(key, ast.Literal) and isinstance(key.value, int) and not isinstance(key.value, bool) \
                and key.value >= 0 and "index_position" in E:
            return fill(E["index_position"], n=key.value + 1, obj=self.ex(e.obj), **held)
        return fill(E["index"], key=self._index_key(key), obj=self.ex(e.obj), **held)

    def _index_key(self, key: ast.Expr) -> str:
        """The words of a list's index, bracketed unless it is a name or a number, so that a
        reader sees where it ends: "the thing at position (the remainder of …) among …"."""
        words = self.ex(key)
        if isinstance(key, (ast.Name, ast.Literal)):
            return words
        return fill(self.ph["operators"]["group"], x=words)

    def _ex_Call(self, e: ast.Call) -> str:
        ref = getattr(e, "ref", None)
        d = self.ruleset.definitions.get(e.func)
        if (ref and ref[0] == "function") or (ref is None and d is not None and d.kind == "function"):
            return self._call_definition(d, e.args)
        if ref and ref[0] == "player_zone":
            return fill(self.ph["expressions"]["player_zone"], zone=self._the("zones", e.func), player=self.ex(e.args[0]))
        builtins = self.ph["builtins"]
        if e.func == "count" and e.args and isinstance(e.args[0], ast.Call) and e.args[0].func == "contents" \
                and getattr(e.args[0], "ref", None) == ("builtin", "contents"):
            held = self._held_words(e.args[0].args[0])
            held.pop("feminine")
            return fill(builtins["count_contents"], **{"0": self.ex(e.args[0].args[0])}, **held)
        if e.func in self._ZONE_READERS and e.args and getattr(e, "ref", None) == ("builtin", e.func):
            held = self._held_words(e.args[0])
            key = f"{e.func}_f" if held.pop("feminine") and f"{e.func}_f" in builtins else e.func
            # its words name the list's items before it: "the first cards of the things in the hand"
            named = e.func in self._NAMING_READERS
            args = {str(i): self._among(a) if i == 0 and named else self.ex(a) for i, a in enumerate(e.args)}
            return fill(builtins[key], **args, **held)
        # count/any/all over a comprehension read as quantifiers ("for at least one X with the highest K");
        # the best items of those a condition passes are said as the list they are (see _quantifiable)
        if e.func == "count" and e.args and self._quantifiable(e.args[0]) \
                and isinstance(e.args[0].item, ast.Name) and e.args[0].item.id == e.args[0].var \
                and getattr(e, "ref", None) == ("builtin", "count"):
            return self._quantified("count", e.args[0])
        if e.func in ("any", "all") and e.args and self._quantifiable(e.args[0]) \
                and getattr(e, "ref", None) == ("builtin", e.func):
            return self._quantified(e.func, e.args[0])
        if e.func in builtins:
            key = e.func
            if f"{key}_f" in builtins and e.args and self._items_feminine(e.args[0]):
                key = f"{key}_f"
            # a board declared whole joins its spaces by its connections, not by doorways
            board = self.ruleset.data.board
            if f"{key}_declared" in builtins and board is not None and board.kind != "tiles":
                key = f"{key}_declared"
            # a count said in the built-in's words agrees with its number: "within 1 step of"
            counts = self._COUNTED.get(e.func)
            number = e.args[counts] if counts is not None and counts < len(e.args) else None
            template = counted(builtins, key, number.value if isinstance(number, ast.Literal) else None)
            return fill(template, **{str(i): self.ex(a) for i, a in enumerate(e.args)})
        raise UnrenderableNode(f"no rendering for a call of '{e.func}'")

    # built-ins whose words count one of their arguments (by its place): "_one" when it is 1
    _COUNTED = {"within": 1, "within_avoiding": 1, "line": 2, "lines": 0}

    # built-ins that read what a zone (or a list) holds: worded with the kind it holds
    _ZONE_READERS = ("contents", "top", "bottom", "take")
    # … of which these name the items ({things}) before the list
    _NAMING_READERS = ("take",)

    def _held_words(self, e: ast.Expr) -> dict[str, str]:
        """The words for what a zone or a list holds, for the slots {thing}, {things},
        {the_thing}, {the_things}: the word of its kind when the rule set says which kind
        (a zone's ``holds``, a list typed by the checker), else the language's neutral word
        ("things"), never one that could be a game's own term ("items", "cards")."""
        data = self.ruleset.data
        kind = None
        if isinstance(e, ast.Name) and getattr(e, "ref", None) == ("zone", e.id) or \
                isinstance(e, ast.Call) and getattr(e, "ref", None) == ("player_zone", e.func):
            name = e.id if isinstance(e, ast.Name) else e.func
            spec = data.zones.get(name)
            kind = spec.holds if spec is not None and spec.holds in data.kinds else None
        else:
            kind = item_kind(e, data)
        if kind is None and isinstance(e, ast.Comprehension) and isinstance(e.item, ast.Name) and e.item.id == e.var:
            t = self._lookup("names", e.var)  # the first cards among …: the list's own word
        elif kind is not None:
            t = self._lookup("kinds", kind)
        else:
            n = self.ph["neutral"]
            t = Term(n["one"], n.get("many"), n.get("gender", "m"))
        return {"thing": t.one, "things": t.plural, "the_thing": self._article(t, "the"),
                "the_things": self._article(t, "the", plural=True), "feminine": t.feminine}

    def _items_feminine(self, e: ast.Expr) -> bool:
        """Whether the items of a list expression are called by a feminine word (their kind's, or the loop name's)."""
        if isinstance(e, ast.Comprehension) and isinstance(e.item, ast.Name) and e.item.id == e.var:
            kind = self._whole_kind(e.iterable) or item_kind(e.iterable, self.ruleset.data)
            if kind is None:
                return self._lookup("names", e.var).feminine
        else:
            kind = item_kind(e, self.ruleset.data)
        return kind is not None and self._lookup("kinds", kind).feminine

    @staticmethod
    def _quantifiable(e: ast.Expr) -> bool:
        """Whether count/any/all over ``e`` read as a quantifier: a comprehension, unless it keeps the
        best items of those its condition passes ("for every X for which C with the highest K" would
        choose before the condition). Its order changes no count and no truth, so it goes unsaid."""
        return isinstance(e, ast.Comprehension) and (e.best is None or e.where is None)

    def _quantified(self, func: str, c: ast.Comprehension) -> str:
        """count/any/all over a comprehension: "the number of Xs among Y for which Z", "for at least one X among Y, Z"."""
        E = self.ph["expressions"]
        saved, saved_word, was_pointed = self._locals.get(c.var), self._words.get(c.var), c.var in self._pointed
        over_kind = isinstance(c.iterable, ast.Name) and getattr(c.iterable, "ref", None) == ("kind", c.iterable.id)
        whole = self._whole_kind(c.iterable) is not None  # every entity of a kind: the list goes without saying
        person = self._of_persons(c)
        iterable = self._article(self._lookup("kinds", c.iterable.id), "all") if over_kind else self.ex(c.iterable)
        iterable = self._bounded(iterable, c.where)
        self._bind_loop_name(c.var, c.iterable)
        try:
            _, condition = self._other_than(c.var, c.where)
            where = self.ex(condition) if condition is not None else None
            word = self._lookup("names", c.var)
            one, many, a_one = word.one, word.plural, self._article(word, "a")
            if c.best is not None:  # the best items only (the callers leave out a condition with them)
                best = self._best(c)
                one, many, a_one = (fill(E["chosen"], items=x, best=best) for x in (one, many, a_one))
            if func == "count":
                key = "count_kind" if whole else "count_each"
                return fill(self._relative(E[key + ("_where" if where is not None else "")], person), vars=many,
                            iterable=iterable, where=where)
            suffix = "_where" if where is not None else ""
            key = f"{func}_whole{suffix}" if whole and f"{func}_whole{suffix}" in E else f"{func}_each{suffix}"
            return fill(self._relative(E[key], person), var=one, a_var=a_one, iterable=iterable, where=where,
                        item=self.ex(c.item))
        finally:
            for table, value in ((self._locals, saved), (self._words, saved_word)):
                if value is None:
                    table.pop(c.var, None)
                else:
                    table[c.var] = value
            (self._pointed.add if was_pointed else self._pointed.discard)(c.var)

    def _bounded(self, iterable: str, where: ast.Expr | None) -> str:
        """A list followed by a condition, bracketed when its words end in a clause of their own ("…, as many as
        X"), so that the condition is not read as part of that clause."""
        if where is not None and self.ph["operators"]["list_sep"].strip() in iterable:
            return fill(self.ph["operators"]["group"], x=iterable)
        return iterable

    def _ex_Unary(self, e: ast.Unary) -> str:
        O = self.ph["operators"]
        if e.op == "-":
            return fill(O["neg"], operand=self._operand(e.operand, "neg"))
        denial = self._denial(e.operand)
        return denial if denial is not None else fill(O["not"], operand=self._operand(e.operand, "not"))

    # `not` of a comparison is the opposite comparison ("is not", "is at most")
    _OPPOSITE = {"==": "!=", "!=": "==", "in": "not in", "not in": "in", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}

    def _denial(self, e: ast.Expr) -> str | None:
        """The negation of a yes/no expression said with a negated verb, when there is one; else None
        (the caller then falls back on "it is not the case that …")."""
        if isinstance(e, ast.Unary) and e.op == "not":
            return self.ex(e.operand)
        if isinstance(e, ast.Binary) and e.op in self._OPPOSITE:
            return self.ex(ast.Binary(e.pos, self._OPPOSITE[e.op], e.left, e.right))
        if isinstance(e, ast.Call):
            ref = getattr(e, "ref", None)
            d = self.ruleset.definitions.get(e.func)
            if d is not None and d.kind == "function" and (ref is None or ref[0] == "function"):
                term = self._lookup("definitions", d.name)
                if term.deny:
                    return fill(term.deny, **{p.name: self.ex(a) for p, a in zip(d.params, e.args)})
                return None
            builtins = self.ph["builtins"]
            if ref == ("builtin", e.func) and f"{e.func}_not" in builtins:
                return fill(builtins[f"{e.func}_not"], **{str(i): self.ex(a) for i, a in enumerate(e.args)})
            if ref == ("builtin", "any") and e.args and self._quantifiable(e.args[0]):
                c = e.args[0]  # not any(x … : p) is all(x … : not p), over the same items
                return self._quantified("all", dataclasses.replace(c, item=ast.Unary(c.item.pos, "not", c.item)))
            return None
        if isinstance(e, ast.Attr):
            t = self._predicate_term(e)
            if t is None or not t.deny:
                return None
            scope = isinstance(e.obj, ast.Name) and getattr(e.obj, "ref", None) == ("scope", e.obj.id)
            return t.deny if scope else fill(t.deny, obj=self.ex(e.obj))
        return None

    def _predicate_term(self, e: ast.Attr) -> Term | None:
        """The glossary word of a property or variable, when the expression reads one."""
        obj = e.obj
        if isinstance(obj, ast.Name) and getattr(obj, "ref", None) == ("scope", obj.id):
            return self._lookup("variables", f"{obj.id}.{e.name}")
        otype = _strip_type(getattr(obj, "type", None))
        if otype.startswith("event ") or e.name in ("at", "id"):
            return None
        return self._lookup("properties", f"{self._owner_kind(otype, e.name)}.{e.name}")

    _LOOSE = {"or", "and"}
    _ARITHMETIC = {"+", "-", "*", "//", "%", "neg", "join"}

    def _operand(self, e: ast.Expr, parent: str) -> str:
        """An operand, bracketed where words alone would not show how it groups."""
        text = self.ex(e)
        if isinstance(e, ast.Binary) and e.op != parent and (
                e.op in self._LOOSE or (e.op in self._ARITHMETIC and parent in self._ARITHMETIC)):
            return fill(self.ph["operators"]["group"], x=text)
        if isinstance(e, ast.Ternary):
            return fill(self.ph["operators"]["group"], x=text)
        return text

    def _ex_Binary(self, e: ast.Binary) -> str:
        O = self.ph["operators"]
        op = "notin" if e.op == "not in" else e.op
        if op == "+" and T.is_list(_strip_type(getattr(e.left, "type", None))):
            op = "join"
            if isinstance(e.right, ast.ListExpr) and len(e.right.items) == 1 and "join_none" in O \
                    and isinstance(e.right.items[0], ast.Literal) and e.right.items[0].value is None:
                return fill(O["join_none"], left=self._operand(e.left, op))  # a choice that may be nothing
        if op in ("==", "!=") and isinstance(e.right, ast.Literal) and e.right.value is None:
            return fill(self._agreeing(O, "is_none" if op == "==" else "not_none", e.left),
                        left=self._operand(e.left, op))
        if op == "in" and isinstance(e.right, ast.ListExpr) and e.right.items and "in_choice" in O:
            # membership in a list written out is a choice: "is a, b or c"
            choice = self._join([self._value_term(i.value, e.left).one
                                 if isinstance(i, ast.Literal) and isinstance(i.value, str) else self.ex(i)
                                 for i in e.right.items], O["list_or"])
            return fill(self._agreeing(O, "in_choice", e.left), left=self._operand(e.left, op), right=choice)
        if op not in O:
            raise UnrenderableNode(f"no rendering for the operator '{e.op}'")
        right = self._operand(e.right, op)
        if op in ("==", "!=") and isinstance(e.right, ast.Literal) and isinstance(e.right.value, str):
            t = self._value_term(e.right.value, e.left)
            right = t.one
            if t.feminine_form and self._agreement(e.left)[1]:  # an adjective agrees: "la face est noire"
                right = t.feminine_form
        return fill(self._agreeing(O, op, e.left), left=self._operand(e.left, op), right=right)

    def _agreeing(self, table: dict, key: str, subject: ast.Expr) -> str:
        """The template that agrees with the subject: ``key_plural`` for a plural one, ``key_f`` for a feminine one,
        ``key_plural_f`` for both, when the language has them."""
        plural, feminine = self._agreement(subject)
        number = "_plural" if plural else ""
        for candidate in (key + number + ("_f" if feminine else ""), key + number):
            if candidate in table:
                return table[candidate]
        return table[key]

    def _agreement(self, e: ast.Expr) -> tuple[bool, bool]:
        """Whether the words for an expression are plural, and whether they are feminine: a list is plural and
        agrees with the word of its items; a name, property or variable agrees with its glossary word."""
        if T.is_list(_strip_type(getattr(e, "type", None))):
            return True, self._items_feminine(e)
        t = self._subject_term(e)
        return (t.plural_only, t.feminine) if t is not None else (False, False)

    def _subject_term(self, e: ast.Expr) -> Term | None:
        ref = getattr(e, "ref", None)
        if isinstance(e, ast.Name):
            what = (ref or ("local",))[0]
            if what == "local":
                return None if e.id == "event" else self._lookup("names", e.id)
            section = {"zone": "zones", "entity": "components", "parameter": "parameters", "die": "dice"}.get(what)
            return self._lookup(section, e.id) if section else None
        if isinstance(e, ast.Attr):
            obj = e.obj
            otype = _strip_type(getattr(obj, "type", None))
            if otype.startswith("event "):
                return self.glossary.get("fields", e.name)
            if e.name == "at":
                kind = self.ruleset.data.kinds.get(otype)
                located = kind.located_in if kind is not None else None
                return self._lookup("kinds", located) if located in self.ruleset.data.kinds else None
            return self._predicate_term(e)
        if isinstance(e, ast.Call) and e.func in ("first", "last") and e.args \
                and getattr(e, "ref", None) == ("builtin", e.func):
            return Term("", gender="f" if self._items_feminine(e.args[0]) else "m")
        if isinstance(e, ast.Call) and getattr(e, "ref", None) == ("function", e.func):
            return self._lookup("definitions", e.func)
        return None

    def _ex_Ternary(self, e: ast.Ternary) -> str:
        then = self.ex(e.then)
        # "a divided by b, rounded down if c" would read as if the rounding were the
        # condition's: a value said with a comma of its own is closed by another
        key = "ternary_comma" if "," in then else "ternary"
        return fill(self.ph["operators"][key], then=then, cond=self.ex(e.cond), otherwise=self.ex(e.otherwise))

    def _join(self, items: list[str], last: str | None = None) -> str:
        O = self.ph["operators"]
        if len(items) <= 1:
            return "".join(items)
        return O["list_sep"].join(items[:-1]) + (last or O["list_last"]) + items[-1]

    def _ex_ListExpr(self, e: ast.ListExpr) -> str:
        if not e.items:
            return self.ph["values"]["empty_list"]
        return self._join([self.ex(i) for i in e.items])

    def _whole_kind(self, e: ast.Expr) -> str | None:
        """The kind when an expression is every entity of it: a kind's name, or `players`."""
        ref = getattr(e, "ref", None)
        if isinstance(e, ast.Name) and ref == ("kind", e.id):
            return e.id
        if isinstance(e, ast.Name) and ref == ("value", "players") and "player" in self.ruleset.data.kinds:
            return "player"
        return None

    def _bare_list(self, e: ast.Expr | None) -> bool:
        """Whether a list keeps some items of another as they are (``[x for x in L where C]``),
        so that, said after words naming its items, it needs no word of its own for them."""
        return isinstance(e, ast.Comprehension) and isinstance(e.item, ast.Name) and e.item.id == e.var \
            and e.best is None and self._whole_kind(e.iterable) is None \
            and "comprehension_bare" in self.ph["expressions"]

    def _among(self, e: ast.Expr) -> str:
        """A list said after words that already name its items ("for each card among …", "a card
        among …"): a list keeping some items of another is said as that other list and its
        condition, "a card among the cards in the hand", not "a card among the cards among the
        cards in the hand"."""
        self._bare = self._bare_list(e)
        try:
            return self.ex(e)
        finally:
            self._bare = False

    def _ex_Comprehension(self, e: ast.Comprehension) -> str:
        E = self.ph["expressions"]
        bare, self._bare = self._bare, False  # only this list: not one its condition reads
        saved, saved_word, was_pointed = self._locals.get(e.var), self._words.get(e.var), e.var in self._pointed
        kind = self._whole_kind(e.iterable)
        over_kind = kind is not None
        person = self._of_persons(e)
        iterable = "" if over_kind else self._bounded(self.ex(e.iterable), e.where)
        self._bind_loop_name(e.var, e.iterable)
        try:
            collided = e.var in self._pointed
            other, condition = self._other_than(e.var, e.where)
            var = self._lookup("names", e.var).one
            where = self.ex(condition) if condition is not None else None
            # `with highest/lowest KEY` chooses among the items the condition passes: "the Xs with the
            # highest K among Y for which Z"; `by` then orders them, said after the whole list
            best = self._best(e) if e.best is not None else None
            suffix = ("_best" if best is not None else "") + ("_where" if where is not None else "")
            if bare:
                text = fill(self._relative(E["comprehension_bare" + suffix], person), iterable=iterable, where=where)
            elif isinstance(e.item, ast.Name) and e.item.id == e.var:
                key = ("comprehension_kind" if over_kind else "comprehension") + suffix
                word = self._lookup("names", e.var)
                if word.feminine and key + "_f" in E:  # "parmi celles où"
                    key += "_f"
                text = fill(self._relative(E[key], person), all=self._article(word, "all"),
                            them=self._article(word, "the", plural=True), iterable=iterable, where=where, best=best)
            elif (collided or other) and best is None and self._uses(e.item, e.var) == 1 \
                    and "comprehension_map_every" in E:
                # a name called like an outer one, read once by the item: "the points of every (other)
                # player", rather than "the points of that player for each player"
                key = "comprehension_map_every" + ("_whole" if over_kind else "") + suffix
                self._every.add(e.var)
                try:
                    item = self.ex(e.item)
                finally:
                    self._every.discard(e.var)
                text = fill(self._relative(E[key], person), item=item, iterable=iterable, where=where)
            else:
                key = "comprehension_map" + suffix
                if over_kind and "comprehension_map_whole" + suffix in E:
                    key = "comprehension_map_whole" + suffix
                    if self._lookup("kinds", kind).feminine and key + "_f" in E:
                        key += "_f"
                elif over_kind:
                    iterable = self._article(self._lookup("kinds", kind), "all")
                text = fill(self._relative(E[key], person), item=self.ex(e.item), var=var, iterable=iterable,
                            where=where, best=best)
            return self._ordered(e, text)
        finally:
            self._every.discard(e.var)
            for table, value in ((self._locals, saved), (self._words, saved_word)):
                if value is None:
                    table.pop(e.var, None)
                else:
                    table[e.var] = value
            (self._pointed.add if was_pointed else self._pointed.discard)(e.var)

    def _of_persons(self, e: ast.Comprehension) -> bool:
        """Whether a list's items are persons: the players, the engine's own kind of them
        ("the players for whom …" in English, where things are "for which")."""
        kind = self._whole_kind(e.iterable) or item_kind(e.iterable, self.ruleset.data)
        return kind == "player"

    def _relative(self, template: str, person: bool) -> str:
        """A template of a list with a condition, its relative words said of persons when its
        items are persons (the phrases' ``persons``: "for which" → "for whom")."""
        if not person:
            return template
        for things, persons in (self.ph.get("persons") or {}).items():
            template = re.sub(rf"(?<![\w]){re.escape(things)}(?![\w])", persons, template)
        return template

    # ------------------------------------------------------------ ordered comprehensions

    def _item_property(self, key: ast.Expr, var: str) -> Term | None:
        """The glossary word of the property a key reads of the comprehension's own item
        (``p.points`` in ``[p for p in players by p.points]``), which reads without its
        owner: "with the highest points", "by points"; None for any other key."""
        if not (isinstance(key, ast.Attr) and isinstance(key.obj, ast.Name) and key.obj.id == var
                and (getattr(key.obj, "ref", None) or ("local", var)) == ("local", var)):
            return None
        otype = _strip_type(getattr(key.obj, "type", None))
        if otype.startswith("event ") or key.name in ("at", "id"):
            return None
        kind = self.ruleset.data.kinds.get(self._owner_kind(otype, key.name))
        if kind is None or key.name not in kind.properties:
            return None
        t = self._lookup("properties", f"{kind.name}.{key.name}")
        return None if t.say else t

    @staticmethod
    def _property_word(t: Term) -> str:
        """A property's word without an article: the plural of a word used only in the plural."""
        return t.plural if t.plural_only and t.many else t.one

    def _best(self, e: ast.Comprehension) -> str:
        """The words of ``with highest KEY`` / ``with lowest KEY``: "with the highest points" for a
        property of the item, else "for which KEY is the highest". Each tie-break key (``with
        highest K1, K2``) follows with ``best_then``: "with the highest points, and among them
        those with the highest rank" (``best_then_f`` when the items' word is feminine)."""
        text = self._best_key(e, e.best)
        if e.best_then:
            E = self.ph["expressions"]
            kind = self._whole_kind(e.iterable) or item_kind(e.iterable, self.ruleset.data)
            feminine = (self._lookup("kinds", kind) if kind is not None else self._lookup("names", e.var)).feminine
            then = E["best_then_f"] if feminine and "best_then_f" in E else E["best_then"]
            for key in e.best_then:
                text = fill(then, best=text, then=self._best_key(e, key))
        return text

    def _best_key(self, e: ast.Comprehension, best: ast.Expr) -> str:
        """The words of one key of ``with highest`` / ``with lowest`` (see :meth:`_best`)."""
        E = self.ph["expressions"]
        which = "best_highest" if e.highest else "best_lowest"
        t = self._item_property(best, e.var)
        if t is not None:
            key = which + ("_plural" if t.plural_only else "") + ("_f" if t.feminine else "")
            if key not in E:
                key = which + ("_plural" if t.plural_only else "")
            return fill(E[key if key in E else which], prop=self._property_word(t), the_prop=self._article(t, "the"))
        return fill(self._relative(self._agreeing(E, which + "_key", best), self._of_persons(e)), key=self.ex(best))

    def _ordered(self, e: ast.Comprehension, text: str) -> str:
        """A list followed by the order of a ``by`` clause: "…, by age, then by height from highest
        to lowest" (the words of the keys are the rule set's). A number key says its direction; a
        text key, ordered by its characters, says only when the order is reversed."""
        if not e.order:
            return text
        E = self.ph["expressions"]
        keys = []
        for key, descending in zip(e.order, e.descending):
            t = self._item_property(key, e.var)
            words = self._property_word(t) if t is not None else self.ex(key)
            text_key = _strip_type(getattr(key, "type", None)) == T.TEXT
            if descending:
                which = "order_reversed" if text_key else "order_descending"
            else:
                which = "order" if text_key else "order_ascending"
            keys.append(fill(E[which], key=words))
        return fill(E["ordered"], list=text, keys=E["order_then"].join(keys))
