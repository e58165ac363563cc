"""Options and events in words, in English or French: game words (actions, events and
their fields, components, zones) from the rule set's glossary in that language, plain
names where it has none; the engine's own events in the sentences below."""

from __future__ import annotations

from rulecraft.docgen.glossary import Glossary, load_glossary
from rulecraft.dsl import ast
from rulecraft.interpreter.state import tile_layouts

LANGUAGES = ("en", "fr")

SENTENCES = {
    "en": {
        "action": "{who}: {what}.", "reaction": "{who} reacts: {what}.",
        "moved": "{thing} moves from {source} to {destination}.", "off": "off the table",
        "hidden": "a hidden item", "changed": "{entity}: {property} is now {value}.",
        "round_started": "Round {round} begins.", "turn_started": "{who}'s turn begins.",
        "turn_ended": "{who}'s turn ends.", "over": "The game is over.",
        "rolled": "The {die} die shows {value}.", "shuffled": "{zone} is shuffled.",
        "placed": "{tile} is laid at ({x}, {y}).",
        "spot": "at ({x}, {y})", "turned": "at ({x}, {y}), turned {rotation}°",
        "nobody": "nobody", "yes": "yes", "no": "no", "none": "none", "some": "some",
        "owned": "{owner}'s {zone}", "you_win": "You win!", "nobody_wins": "Nobody wins.",
        "wins": "{winners} wins.", "win": "{winners} win.", "you": "you", "colon": ":",
    },
    "fr": {
        "action": "{who} : {what}.", "reaction": "{who} réagit : {what}.",
        "moved": "{thing} passe de {source} à {destination}.", "off": "hors du jeu",
        "hidden": "un élément caché", "changed": "{entity} : {property} vaut maintenant {value}.",
        "round_started": "La manche {round} commence.", "turn_started": "Le tour de {who} commence.",
        "turn_ended": "Le tour de {who} se termine.", "over": "La partie est terminée.",
        "rolled": "Le dé {die} donne {value}.", "shuffled": "On mélange {zone}.",
        "placed": "On pose {tile} en ({x}, {y}).",
        "spot": "en ({x}, {y})", "turned": "en ({x}, {y}), tournée de {rotation}°",
        "nobody": "personne", "yes": "oui", "no": "non", "none": "aucun", "some": "quelques",
        "owned": "{zone} de {owner}", "you_win": "Vous gagnez !", "nobody_wins": "Personne ne gagne.",
        "wins": "{winners} gagne.", "win": "{winners} gagnent.", "you": "vous", "colon": "\u00a0:",
    },
}
ENDED = ("game_over", "game_ended")
SPOT = {"x", "y", "rotation"}  # where a tile may be laid: the options of a placing choice
ENGINE_EVENTS = ("rolled", "shuffled", "placed")


def _plain(word) -> str:
    return str(word).replace("_", " ")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


class Words:
    def __init__(self, ruleset, lang: str = "en"):
        if lang not in LANGUAGES:
            raise ValueError(f"no words in '{lang}' (known: {', '.join(LANGUAGES)})")
        self.ruleset = ruleset
        self.lang = lang
        self.say = SENTENCES[lang]
        try:
            self.glossary = load_glossary(ruleset, lang)
        except Exception:  # noqa: BLE001 - a rule set without a usable glossary still plays
            self.glossary = Glossary(lang)
        self.kinds_by_id: dict[str, str] = {}
        self._layouts = tile_layouts(ruleset) if ruleset.data.board is not None else {}

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
        if text == "?":  # what a view hides from its viewer
            return self.say["hidden"]
        word = self._word(text)
        if word:
            return word
        zone, _, owner = text.partition(":")  # a player's zone: hand:p2
        if owner and self._word(zone):
            return self.say["owned"].format(owner=owner, zone=self._word(zone))
        tile, _, room = text.partition("/")  # a room of a laid tile: the word of its room type
        if room and tile in self._layouts:
            layout = self.ruleset.data.board.layouts.get(self._layouts[tile])
            kind = ((layout.rooms.get(room) or {}).get("type", room)) if layout and room in layout.rooms else None
            if kind is not None:
                return self.label(kind)
        base, _, rest = text.partition(".")  # a component's copy: its word and which one
        if rest and self._word(base):
            return f"{self._word(base)} {rest}"
        return text

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
        return self._term("definitions", name) or _plain(name)

    # ---- options
    def option(self, option) -> dict:
        """A button: its label and, for an action with costs, what it costs."""
        if isinstance(option, dict) and ("action" in option or "reaction" in option):
            name = option.get("action") or option.get("reaction")
            args = option.get("args") or {}
            label = self.action(name)
            if args:
                label += self.say["colon"] + " " + ", ".join(self.name(v) for v in args.values())
            return {"label": label, "cost": self.cost(name)}
        if isinstance(option, dict) and set(option) == SPOT:
            return {"label": self.say["turned" if option["rotation"] else "spot"].format(**option), "cost": None}
        return {"label": self.name(option), "cost": None}

    def cost(self, action: str) -> str | None:
        d = self.ruleset.definitions.get(action)
        costs = getattr(d, "costs", None) or []
        parts = []
        for c in costs:
            amount = c.amount.value if isinstance(c.amount, ast.Literal) else None
            # a cost may be paid by another entity than the acting player (`of x`): its kind's word
            payer = getattr(c, "payer", None)
            payer_kind = str(getattr(payer, "type", None) or "player").rstrip("?") if payer is not None else "player"
            t = self.glossary.get("properties", f"{payer_kind}.{c.resource}")
            word = (t.one if amount == 1 else t.plural) if t is not None else _plain(c.resource)
            parts.append(f"{amount if amount is not None else self.say['some']} {word}")
        return ", ".join(parts) or None

    # ---- events
    def event(self, event: dict) -> str:
        say = self.say
        kind = event.get("type")
        who = event.get("player")
        if kind == "action_taken":
            return say["action"].format(who=who, what=self.option({"action": event.get("action"),
                                                                     "args": event.get("args")})["label"])
        if kind == "reacted":
            return say["reaction"].format(who=who, what=self.option({"reaction": event.get("reaction"),
                                                                       "args": event.get("args")})["label"])
        if kind == "moved":
            src, dst = event.get("source"), event.get("destination")
            thing = say["hidden"] if event.get("entity") == "?" else self.name(event.get("entity"))
            return _capital(say["moved"].format(thing=thing, source=self.name(src) if src else say["off"],
                                                destination=self.name(dst) if dst else say["off"]))
        if kind == "changed":
            prop = self._term("properties", f"{self.kinds_by_id.get(event.get('entity'), '')}."
                                            f"{event.get('property')}") or _plain(event.get("property"))
            return say["changed"].format(entity=self.name(event.get("entity")), property=prop,
                                         value=self.name(event.get("value")))
        if kind in ("round_started", "turn_started", "turn_ended"):
            return say[kind].format(round=event.get("round"), who=who)
        if kind in ENDED:
            return say["over"]
        said = self._term("events", kind)
        if said is None and kind in ENGINE_EVENTS:  # the engine's own events, unless the rules name them
            return _capital(say[kind].format(**{k: self.name(v) for k, v in event.items() if k != "type"}))
        said = said or _plain(kind)
        fields = {k: v for k, v in event.items() if k not in ("type", "seq") and not k.startswith("_")}
        sentence = _capital(said)
        if fields:
            sentence += " (" + "; ".join(f"{self._term('fields', k) or _plain(k)}{self.say['colon']} {self.name(v)}"
                                         for k, v in fields.items()) + ")"
        return sentence + "."

    def result(self, result: dict, seat: str) -> str:
        winners = result.get("winners") or []
        if seat in winners:
            return self.say["you_win"]
        if not winners:
            return self.say["nobody_wins"]
        return self.say["wins" if len(winners) == 1 else "win"].format(winners=", ".join(winners))

    def prop(self, kind: str, name: str) -> str:
        return self._term("properties", f"{kind}.{name}") or _plain(name)

    def know_entities(self, entities: dict) -> None:
        """Learn the kind of every entity a view shows (for the words of changed properties)."""
        self.kinds_by_id = {eid: e["kind"] for eid, e in entities.items()}
