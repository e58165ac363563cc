"""Options and events in words, from the rule set's English glossary where it has them
(the names of actions, events, fields and game words), plain names otherwise."""

from __future__ import annotations

from rulecraft.docgen.glossary import Glossary, load_glossary
from rulecraft.dsl import ast


def _plain(word) -> str:
    return str(word).replace("_", " ")


class Words:
    def __init__(self, ruleset, lang: str = "en"):
        self.ruleset = ruleset
        try:
            self.glossary = load_glossary(ruleset, lang)
        except Exception:  # noqa: BLE001 - a rule set without a usable glossary still plays
            self.glossary = Glossary(lang)
        self.kinds_by_id: dict[str, str] = {}

    def _term(self, section: str, key: str) -> str | None:
        t = self.glossary.get(section, key)
        return t.one if t is not None else None

    def name(self, value) -> str:
        """A value as a player reads it: a game word from the glossary, else its id."""
        if value is None:
            return "nobody"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, (list, tuple)):
            return ", ".join(self.name(v) for v in value) or "none"
        if isinstance(value, dict):
            return ", ".join(f"{_plain(k)} {self.name(v)}" for k, v in value.items())
        text = str(value)
        word = self._word(text)
        if word:
            return word
        zone, _, owner = text.partition(":")  # a player's zone: hand:p2
        if owner and self._word(zone):
            return f"{owner}'s {self._word(zone)}"
        base, _, rest = text.partition(".")  # a component's copy: its word and which one
        if rest and self._word(base):
            return f"{self._word(base)} {rest}"
        return text

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
                label += ": " + ", ".join(self.name(v) for v in args.values())
            return {"label": label, "cost": self.cost(name)}
        return {"label": self.name(option), "cost": None}

    def cost(self, action: str) -> str | None:
        d = self.ruleset.definitions.get(action)
        costs = getattr(d, "costs", None) or []
        parts = []
        for c in costs:
            amount = c.amount.value if isinstance(c.amount, ast.Literal) else None
            t = self.glossary.get("properties", f"player.{c.resource}")
            word = (t.one if amount == 1 else t.plural) if t is not None else _plain(c.resource)
            parts.append(f"{amount if amount is not None else 'some'} {word}")
        return ", ".join(parts) or None

    # ---- events
    def event(self, event: dict) -> str:
        kind = event.get("type")
        who = event.get("player")
        if kind == "action_taken":
            return f"{who}: {self.option({'action': event.get('action'), 'args': event.get('args')})['label']}."
        if kind == "reacted":
            return f"{who} reacts: {self.option({'reaction': event.get('reaction'), 'args': event.get('args')})['label']}."
        if kind == "moved":
            src, dst = event.get("source"), event.get("destination")
            thing = "a hidden item" if event.get("entity") == "?" else self.name(event.get("entity"))
            return (f"{thing[:1].upper()}{thing[1:]} moves from {self.name(src) if src else 'off the table'} "
                    f"to {self.name(dst) if dst else 'off the table'}.")
        if kind == "changed":
            prop = self._term("properties", f"{self._kind_of(event.get('entity'))}.{event.get('property')}") \
                or _plain(event.get("property"))
            return f"{self.name(event.get('entity'))}: {prop} is now {self.name(event.get('value'))}."
        if kind == "round_started":
            return f"Round {event.get('round')} begins."
        if kind == "turn_started":
            return f"{who}'s turn begins."
        if kind == "turn_ended":
            return f"{who}'s turn ends."
        if kind == "game_over" or kind == "game_ended":
            return "The game is over."
        said = self._term("events", kind) or _plain(kind)
        fields = {k: v for k, v in event.items() if k not in ("type", "seq") and not k.startswith("_")}
        sentence = said[:1].upper() + said[1:]
        if fields:
            sentence += " (" + "; ".join(f"{self._term('fields', k) or _plain(k)}: {self.name(v)}"
                                         for k, v in fields.items()) + ")"
        return sentence + "."

    def _kind_of(self, entity) -> str:
        return self.kinds_by_id.get(entity, "")

    def know_entities(self, entities: dict) -> None:
        """Learn the kind of every entity a view shows (for the words of changed properties)."""
        self.kinds_by_id = {eid: e["kind"] for eid, e in entities.items()}
