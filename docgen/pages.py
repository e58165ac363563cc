"""The pages of a rule set's site, as Markdown, and the navigation in rulebook order.

Every rule appears twice: as plain-language text rendered from its syntax tree by
the prose renderer, and as its rules-language source (highlighted by the rules
lexer). Game words come from the glossary; the site's own words from ``ui``.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from collections import Counter
from dataclasses import dataclass, field

import yaml

from rulecraft.dsl import ast
from rulecraft.dsl.loader import shipped_ruleset
from rulecraft.dsl.model import ComponentSpec, RuleSet
from rulecraft.dsl.yaml_data import schema
from rulecraft.validator import FAILING, PASS, SKIP

from .board_picture import declared_board_svg
from .catalogue import Catalogue, section_index, source_of, walk
from .examples import Example, ExampleFile
from .glossary import Term, engine_term
from .markup import label, md, md_code, md_prose, slug
from .narration import Narrator
from .svg import ring_svg, tile_svg
from .ui import UI


@dataclass
class VariantChanges:
    """One variant applied to the base rule set, with its own renderer."""

    name: str
    ruleset: RuleSet
    prose: object


@dataclass
class Site:
    title: str
    lang: str
    pages: dict[str, str] = field(default_factory=dict)  # path under docs/ → Markdown
    files: dict[str, str] = field(default_factory=dict)  # other files (SVG) → text
    nav: list = field(default_factory=list)  # mkdocs nav: [{title: path or [...]}, ...]



# The levels of a component's `confidence`, surest first, as the rule-set schema lists them.
CONFIDENCE: list[str] = schema("ruleset.schema.json")["$defs"]["component"]["properties"]["confidence"]["enum"]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _code(text: str, lang: str = "rules") -> str:
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}{lang}\n{text}\n{fence}\n"


class SiteWriter:
    def __init__(self, ruleset: RuleSet, cat: Catalogue, prose, lang: str, examples: list[ExampleFile],
                 variants: list[VariantChanges], base_ruleset: RuleSet | None = None, base_prose=None):
        self.rs = ruleset
        # Variant pages compare with the rule set without any variant.
        self.base_ruleset = base_ruleset or ruleset
        self.cat = cat
        self.prose = prose
        self.base_prose = base_prose or prose
        board = ruleset.data.board
        space = board.space_kind if board is not None else None
        game_words = {"room": prose.term(f"kinds.{space}"), "rooms": prose.term(f"kinds.{space}", plural=True)} \
            if space in ruleset.data.kinds else {}
        round_term = engine_term(prose.glossary, "round")
        game_words |= {"round": round_term.one, "rounds": round_term.plural}
        held = _held_words(cat, prose)
        if held is not None:  # the word of the things with a page each: their kind's, or the one their kinds share
            game_words |= {"thing": held[0], "things": held[1]}
        # the site's words, with the rule set's word for its spaces: escaped for the pages,
        # as written for the navigation (where `label` makes them safe)
        self.ui = UI(lang, {k: md(v) for k, v in game_words.items()})
        self.nav_ui = UI(lang, game_words)
        self.c = self.ui("colon")  # a label's colon, spaced as the language writes it
        self.lang = lang
        self.examples = examples
        self.variants = variants
        self.home: dict[str, str] = {}  # definition name → the page that shows it in full
        title = ruleset.data.game.title
        # The site's title goes to mkdocs.yml (the site name): written as a label there.
        self.site = Site(label(self.ui("reference", title=title)), lang)
        self.narrator = Narrator(ruleset, prose, lang)

    # ------------------------------------------------------------ words
    def word(self, key: str, plural: bool = False) -> str:
        return self.prose.term(key, plural)

    def title(self, name: str) -> str:
        return self.prose.title(name)

    def link(self, name: str, here: str) -> str:
        page = self.home.get(name)
        if page is None:
            return md(self.title(name))
        rel = posixpath.relpath(page, posixpath.dirname(here) or ".")
        return f"[{md(self.title(name))}]({rel}#{slug(name)})"

    def said(self, name: str, prose=None, ruleset: RuleSet | None = None) -> str | None:
        """The author's one-line text of a definition, in the site's language (Markdown)."""
        prose = prose or self.prose
        d = (ruleset or self.rs).definitions[name]
        text = prose.authored.text(name, getattr(d, "text", None))
        return md_prose(text) if text else None

    def gist(self, name: str) -> str:
        """What a definition is about, in one line: the author's text, else its summary."""
        return self.said(name) or self.prose.summary(name)

    def cite(self, cite: str | None, prose=None) -> str:
        return md_prose((prose or self.prose).authored.cite(cite))

    @staticmethod
    def rel(target: str, here: str) -> str:
        return posixpath.relpath(target, posixpath.dirname(here) or ".")

    def value(self, value, prose=None, feminine: bool = False) -> str:
        """A value of the rule set's data (a parameter's, a table's, a component's property)
        as a page shows it, in Markdown: nothing as the site's word for no value, agreeing
        with a feminine word in languages where it agrees ("none", "aucune"); yes or no; a
        text by the glossary's word for it; a list item by item; a number as written. Never
        as Python prints it (``None``, ``True``, ``[1, 2]``)."""
        prose = prose or self.prose
        if value is None:
            return md(self.ui("none_f" if feminine else "none"))
        if isinstance(value, bool):
            return md(self.ui("yes" if value else "no"))
        if isinstance(value, str):
            return md(prose.term(f"values.{value}"))
        if isinstance(value, (list, tuple)):
            return ", ".join(self.value(v, prose) for v in value) if value else md(self.ui("none"))
        if isinstance(value, dict):
            return "; ".join(f"{self.value(k, prose)}{self.c} {self.value(v, prose)}" for k, v in value.items())
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return md(value)

    def _feminine(self, section: str, name: str, prose=None) -> bool:
        """Whether the glossary's word for a name is feminine (a value said after it agrees)."""
        term = (prose or self.prose).glossary.get(section, name)
        return term is not None and term.feminine

    # ------------------------------------------------------------ data tables
    @staticmethod
    def table_anchor(name: str) -> str:
        return f"table-{slug(name)}"

    def tables_read(self, d) -> list[str]:
        """The rule set's data tables a definition reads (``name[key]``), in its order."""
        found = [n.id for n in walk(d) if isinstance(n, ast.Name) and getattr(n, "ref", None) == ("table", n.id)]
        return [n for n in dict.fromkeys(found) if n in self.rs.data.tables]

    def table_link(self, name: str, here: str) -> str:
        """A data table's word, linked to its section of the overview."""
        return f"[{md(_cap(self.word(f'tables.{name}')))}]({self.rel('index.md', here)}#{self.table_anchor(name)})"

    # ------------------------------------------------------------ one rule, twice
    def rule_block(self, name: str, level: int, prose=None, ruleset: RuleSet | None = None, anchor: bool = True,
                   here: str | None = None) -> str:
        """A rule in full on the page ``here`` (default: its own page): its title, the
        author's text, its summary, its cost, citation and the data tables it reads (linked
        to the overview), then in plain words and in the rules language."""
        prose = prose or self.prose
        rs = ruleset or self.rs
        d = rs.definitions[name]
        hashes = "#" * level
        ident = f" {{#{slug(name)}}}" if anchor else ""
        out = [f"{hashes} {md(prose.title(name))}{ident}\n"]
        said = self.said(name, prose, rs)
        if said:  # the author's words first, then the precise rule
            out.append(f"{said}\n")
        out.append(f"*{prose.summary(name)}*\n")
        facts = []
        for c in getattr(d, "costs", []):
            if isinstance(c.amount, ast.Literal):
                amount = c.amount.value
                facts.append(f"**{self.ui('cost')}{self.c}** {md(amount)} "
                             f"{md(prose.term(f'properties.player.{c.resource}', plural=amount != 1))}")
        if d.cite:
            facts.append(f"**{self.ui('rulebook')}{self.c}** {self.cite(d.cite, prose)}")
        tables = self.tables_read(d) if rs is self.rs else []
        if tables:
            page = here or self.home.get(name, "index.md")
            facts.append(f"**{self.ui('reads_tables' if len(tables) > 1 else 'reads_table')}{self.c}** "
                         + ", ".join(self.table_link(t, page) for t in tables))
        if facts:
            out.append("  \n".join(facts) + "\n")
        out.append(f"**{self.ui('plain')}**\n")
        out.append(prose.definition(name).rstrip() + "\n")
        out.append(f"**{self.ui('rule_source')}** ({md_code(f'{self._rule_file(d.file, rs)}:{d.pos.line}')})\n")
        out.append(_code(source_of(rs, d)))
        return "\n".join(out)

    def blocks(self, names: list[str], here: str, level: int = 2) -> str:
        return "\n".join(self.rule_block(n, level, here=here) for n in names)

    # ------------------------------------------------------------ the whole site
    def build(self) -> Site:
        cat, ui = self.cat, self.ui
        # Where each definition is shown in full: the first page in reading order.
        plan: list[tuple[str, list[str]]] = [("setup.md", cat.setup), ("turn.md", cat.round)]
        plan += [(f"phases/{slug(n)}.md", [n]) for n in cat.phases]
        plan += [(f"actions/{slug(n)}.md", [n]) for n in cat.actions]
        plan += [("victory.md", cat.victory)]
        by_file: dict[str, list[str]] = {}
        for n in cat.others:
            by_file.setdefault(self.rs.definitions[n].file, []).append(n)
        plan += [(f"rules/{slug(_stem(f))}.md", names) for f, names in by_file.items()]
        for page, names in plan:
            for n in names:
                self.home.setdefault(n, page)

        nav: list = [{ui("overview"): "index.md"}]
        self._overview()
        self._page("setup.md", ui("setup"), self.blocks(cat.setup, "setup.md"))
        nav.append({ui("setup"): "setup.md"})
        turn = [f"# {ui('turn_structure')}\n", ui("turn_structure_intro") + "\n", self.blocks(cat.round, "turn.md")]
        if cat.phases:
            turn.append(f"## {ui('phases')}\n")
            turn += [f"- {self.link(n, 'turn.md')} — {self.gist(n)}" for n in cat.phases]
        self.site.pages["turn.md"] = "\n".join(turn) + "\n"
        nav.append({ui("turn_structure"): "turn.md"})
        if cat.phases:
            for n in cat.phases:
                self._page(f"phases/{slug(n)}.md", self.title(n), self.rule_block(n, 1, here=f"phases/{slug(n)}.md"),
                           raw=True)
            nav.append({ui("phases"): [{label(self.title(n)): f"phases/{slug(n)}.md"} for n in cat.phases]})
        nav.append({ui("actions"): self._actions()})
        nav.append({label(self.nav_ui("cards")): self._cards()})
        if cat.room_types:
            nav.append({label(self.nav_ui("room_types")): self._rooms()})
        self._victory()
        nav.append({ui("victory"): "victory.md"})
        if self.rs.data.rulings:
            self._rulings()
            nav.append({ui("rulings"): "rulings.md"})
        if self.examples:
            nav.append({ui("examples"): self._examples()})
        if self.variants:
            nav.append({ui("variants"): self._variants()})
        more = []
        for f, names in by_file.items():
            stem = _stem(f)
            page = f"rules/{slug(stem)}.md"
            heading = ui("other_rules_in", file=f"{stem}.rules")
            self._page(page, heading, self.blocks(names, page))
            more.append({label(heading): page})
        if more:
            nav.append({ui("other_rules"): more})
        printed = [page for page in _pages_of(nav) if not page.startswith(("examples/", "variants/"))]
        self.site.pages["print.md"] = self._print_page(printed)
        nav.append({ui("print"): "print.md"})
        self.site.nav = nav
        return self.site

    def _print_page(self, pages: list[str]) -> str:
        """Every page of the rules (not the worked examples or variants) one after the other,
        a level down, with links and pictures pointing where they point from their own page."""
        out = [f"# {md(self.ui('print'))}\n", self.ui("print_intro") + "\n"]
        for page in pages:
            out.append(_demoted(_rebased(self.site.pages[page], page, set(pages))))
        return "\n".join(out) + "\n"

    def _page(self, path: str, title: str, body: str, raw: bool = False) -> None:
        self.site.pages[path] = body if raw else f"# {md(title)}\n\n{body}"

    # ------------------------------------------------------------ overview
    def _overview(self) -> None:
        ui, data = self.ui, self.rs.data
        game = data.game
        out = [f"# {md(game.title)}\n"]
        out += self._game_text()
        note = self.prose.glossary.note
        if note:  # the glossary's word about itself: whose translation the site reads
            out.append("!!! note\n" + "".join(f"    {md_prose(line)}\n" if line.strip() else "\n"
                                               for line in note.splitlines()))
        if self.rs.variant is not None:
            variant = self.prose.authored.text(f"variants.{self.rs.variant.name}.title", self.rs.variant.title)
            out.append(f"!!! note\n    {ui('site_variant', name=md(variant))}\n")
        count = ui('players_count', min=game.min_players, max=game.max_players) \
            if game.min_players != game.max_players else \
            ui('players_exactly_one' if game.min_players == 1 else 'players_exactly', count=game.min_players)
        out.append(f"## {ui('players')}\n\n{count}\n")
        if self.cat.victory:
            out.append(self._how_it_ends())
        out.append(self._board_section())
        out.append(f"## {ui('components')}\n")
        out.append(f"| {ui('component')} | {ui('kind')} | {ui('count')} | {ui('starts_in')} |\n|---|---|---|---|")
        cards = {c.name for c in self.cat.cards}
        for comp in data.components:
            name = md(_cap(self.word(comp.name)))
            if comp.name in cards:
                name = f"[{name}](cards/{slug(comp.name)}.md)"
            name += self._unsure_mark(comp)
            count = ui("per_player", count=comp.count) if comp.per_player else str(comp.count)
            zone = self.word(f"zones.{comp.zone}") if comp.zone else ""
            out.append(f"| {name} | {md(self.word(f'kinds.{comp.kind}'))} | {md(count)} | {md(zone)} |")
        out.append("")
        out.append(self._what_players_see())
        if data.parameters:
            heading = ui("parameters" if len(data.parameters) > 1 else "parameter")
            out.append(f"## {heading}\n\n| {ui('parameter')} | {ui('value')} |\n|---|---|")
            for name, p in data.parameters.items():
                value = p.get("value") if isinstance(p, dict) else getattr(p, "value", p)
                text = self.prose.authored.text(f"parameters.{name}", p.get("text") if isinstance(p, dict) else None)
                words = md(self.word(f"parameters.{name}")) + (f" — {md_prose(text)}" if text else "")
                out.append(f"| {words} | {self.value(value, feminine=self._feminine('parameters', name))} |")
            out.append("")
        out.append(self._dice())
        out.append(self._tables())
        self.site.pages["index.md"] = "\n".join(out) + "\n"

    def _dice(self) -> str:
        """The dice (``dice:``), each with its faces in order: the first fact of a dice game."""
        dice = self.rs.data.dice
        if not dice:
            return ""
        ui = self.ui
        out = [f"## {ui('dice' if len(dice) > 1 else 'die_heading')}\n", f"| {ui('die_heading')} | {ui('faces')} |\n|---|---|"]
        for name, faces in dice.items():
            out.append(f"| {md(_cap(self.word(f'dice.{name}')))} | {', '.join(self.value(f) for f in faces)} |")
        out.append("")
        return "\n".join(out)

    def _what_players_see(self) -> str:
        """What the rules keep from players, in plain words, from the rule set's visibility: each
        zone, property and variable not everyone sees, and who sees it; then the rules that show
        some of it in play (``reveal``). Nothing when everything is in plain sight."""
        ui, data, prose = self.ui, self.rs.data, self.prose
        player = prose._written("kinds", "player") if "player" in data.kinds else Term(ui.game.get("player", ""))
        words = {"player": md(player.one), "this_player": md(prose._article(player, "that"))}

        def kind_words(kind: str) -> dict[str, str]:
            t = prose._written("kinds", kind)
            return {"kind": md(t.one), "the_kind": md(prose._article(t, "the")), "this_kind": md(prose._article(t, "that"))}

        def said(key: str, plural: bool = False, **slots) -> str:
            if plural and f"{key}_plural" in ui.words:
                key += "_plural"
            first = next(iter(slots.values()))
            slots = {**words, **slots, next(iter(slots)): _cap(first)}
            return "- " + prose._finish(ui(key, **slots))

        lines = []
        for name, zone in data.zones.items():
            if zone.visible_to == "everyone":
                continue
            held = prose._written("kinds", zone.holds) if zone.holds in data.kinds else \
                Term(prose.ph["neutral"]["one"], prose.ph["neutral"].get("many"), prose.ph["neutral"].get("gender", "m"))
            things = {"held": md(held.plural), "the_held": md(prose._article(held, "the"))}
            if zone.visible_to == "owner" and zone.per_player:
                key, extra = "see_zone_own", {}
            elif zone.visible_to == "owner" and zone.per_entity and zone.per in data.kinds:
                key, extra = "see_zone_owned", kind_words(zone.per)
            else:  # nobody, or an owner no single player is
                key, extra = "see_zone_nobody", {}
            lines.append(said(key + ("_top" if zone.top_visible else ""), zone=md(self.word(f"zones.{name}")),
                              **things, **extra))
        for kind, spec in data.kinds.items():
            for name, p in spec.properties.items():
                if p.visible_to == "everyone":
                    continue
                term = prose._written("properties", f"{kind}.{name}")
                prop = md(prose._property_word(term))
                if p.visible_to == "owner" and kind == "player":
                    lines.append(said("see_prop_own", term.plural_only, prop=prop))
                elif p.visible_to == "owner" and spec.owner_property:
                    lines.append(said("see_prop_owned", term.plural_only, prop=prop, **kind_words(kind)))
                elif p.visible_to == "others" and kind == "player":
                    lines.append(said("see_prop_others", term.plural_only, prop=prop))
                elif p.visible_to == "others":
                    lines.append(said("see_prop_others_owned", term.plural_only, prop=prop, **kind_words(kind)))
                else:
                    lines.append(said("see_prop_nobody", term.plural_only, prop=prop, **kind_words(kind)))
        for scope, variables in data.variables.items():
            for name, p in variables.items():
                if p.visible_to != "everyone":
                    term = prose._written("variables", f"{scope}.{name}")
                    lines.append(said("see_var_nobody", term.plural_only, var=md(prose._property_word(term))))
        if not lines:
            return ""
        out = [f"## {ui('what_players_see')}\n", ui("what_players_see_intro") + "\n"] + lines + [""]
        shown = [n for n, d in self.rs.definitions.items()
                 if any(isinstance(x, ast.Reveal) and not x.hide for x in walk(d))]
        if shown:
            out.append(ui("see_shown_by", rules=", ".join(self.link(n, "index.md") for n in shown)) + "\n")
        return "\n".join(out)

    def _game_text(self) -> list[str]:
        """The game's own description (``game: text:``), first on the overview. Glossaries
        translate the texts of rules, components, parameters, rulings and variants, not
        this one: a site in another language shows it as written, saying so, rather than
        leaving the game undescribed."""
        text = self.rs.data.game.text
        if not text:
            return []
        if self.prose.authored.translating:
            return [f"*{self.ui('game_text_untranslated')}* {md_prose(text)}\n"]
        return [md_prose(text) + "\n"]

    def _tables(self) -> str:
        """The rule set's data tables (``tables:``), each under the glossary's word for it
        (anchored, so that the rules reading it link here): every key with its value, then
        the rules that read it. A table has no text of its own: its entries are its keys."""
        tables = self.rs.data.tables
        if not tables:
            return ""
        ui = self.ui
        readers: dict[str, list[str]] = {}
        for n, d in self.rs.definitions.items():
            for t in self.tables_read(d):
                readers.setdefault(t, []).append(n)
        out = [f"## {ui('tables' if len(tables) > 1 else 'table')}\n", ui("tables_intro") + "\n"]
        for name, entries in tables.items():
            out.append(f"### {md(_cap(self.word(f'tables.{name}')))} {{#{self.table_anchor(name)}}}\n")
            out.append(f"| {ui('key')} | {ui('value')} |\n|---|---|")
            out += [f"| {self.value(k)} | {self.value(v)} |" for k, v in (entries or {}).items()]
            out.append("")
            if readers.get(name):
                out.append(f"**{ui('read_by')}{self.c}** " + ", ".join(self.link(n, "index.md") for n in readers[name])
                           + "\n")
        return "\n".join(out)

    def _board_section(self) -> str:
        """A board declared whole (a graph, a grid, a ring) drawn from its spaces and
        connections; a board of laid tiles has none before play (its tiles have pages)."""
        board = self.rs.data.board
        if board is None or board.kind == "tiles":
            return ""
        title = self.ui("the_board")
        if board.kind == "ring":
            picture = ring_svg(board, [], title)
        else:
            picture = declared_board_svg(board, title, describe=self.prose.term)
        if not picture:
            return ""
        self.site.files["board.svg"] = picture
        return f"## {title}\n\n![{md(title)}](board.svg){{ .rulecraft-board }}\n"

    def _how_it_ends(self) -> str:
        """How the game is won and lost, in the author's words: each victory condition with
        who wins it, then every other rule that ends the game."""
        ui = self.ui
        conditions = [n for n in self.cat.victory if self.rs.definitions[n].kind == "victory"]
        enders = [n for n in self.cat.victory if n not in conditions]
        # without victory conditions, the rules that end the game are the whole story
        intro = "how_it_ends_intro" if conditions or not enders else "how_it_ends_by_rules"
        out = [f"## {ui('how_it_ends')}\n", ui(intro) + "\n"]
        for n in conditions:
            d = self.rs.definitions[n]
            out.append(f"### {md(self.title(n))}\n")
            out.append((self.said(n) or self.prose.summary(n)) + "\n")
            winners = self._winners(d)
            if winners:
                out.append(f"**{ui('who_wins')}{self.c}** {winners}\n")
            out.append(f"→ {self.link(n, 'index.md')}\n")
        if enders:
            if conditions:
                out.append(f"### {ui('other_endings')}\n")
            out += [f"- **{self.link(n, 'index.md')}**{self.c} {self.gist(n)}" for n in enders]
            out.append("")
        return "\n".join(out)

    def _winners(self, d) -> str | None:
        """Who wins a victory condition: the author's text of the function naming the
        winners, else the winners rendered from the rule."""
        w = d.winners
        if w is None:
            return None
        if isinstance(w, ast.ListExpr) and not w.items:
            # against the game, the team loses; among the players, nobody wins (a draw, or no winner named)
            cooperative = "cooperative" in (self.rs.data.game.sides or {})
            return self.ui("nobody_wins" if cooperative else "nobody_wins_none")
        if isinstance(w, ast.Call) and w.func in self.rs.definitions:
            said = self.said(w.func)
            if said:
                return said
        return _cap(self.prose.ex(w))

    # ------------------------------------------------------------ actions
    def _actions(self) -> list:
        ui = self.ui
        index = [f"# {ui('actions')}\n", ui("actions_intro") + "\n"]
        index += [f"- {self.link(n, 'actions/index.md')} — {self.gist(n)}" for n in self.cat.actions]
        self.site.pages["actions/index.md"] = "\n".join(index) + "\n"
        nav: list = ["actions/index.md"]
        for n in self.cat.actions:
            self._page(f"actions/{slug(n)}.md", self.title(n), self.rule_block(n, 1, here=f"actions/{slug(n)}.md"),
                       raw=True)
            nav.append({label(self.title(n)): f"actions/{slug(n)}.md"})
        return nav

    # ------------------------------------------------------------ cards
    def card_name(self, comp: ComponentSpec) -> str:
        """A card's name; cards the glossary names alike are told apart as a reader would:
        by the letter or number their names end with (``door_a``, ``door_b``: "Door card A",
        "Door card B"), else by their rooms, else numbered in the order the rule set lists them."""
        word = _cap(self.word(comp.name))
        alike = [c for c in self.cat.cards if _cap(self.word(c.name)) == word]
        if len(alike) < 2:
            return word
        names = [c.name for c in alike]
        stem = posixpath.commonprefix(names)
        stem = stem[: stem.rfind("_") + 1] if "_" in stem else ""
        ends = [n[len(stem):] for n in names]
        if stem and all(e.isalnum() and len(e) <= 3 for e in ends) and len(set(ends)) == len(ends):
            return f"{word} {comp.name[len(stem):].upper()}"
        rooms = {c.name: self._rooms_label(c) for c in alike}
        if all(rooms.values()) and len(set(rooms.values())) == len(alike):
            return f"{word} ({rooms[comp.name]})"
        return f"{word} {names.index(comp.name) + 1}"

    def _rooms_label(self, comp: ComponentSpec) -> str:
        board = self.rs.data.board
        layout = board.layouts.get(comp.layout) if board is not None and comp.layout else None
        if layout is None:
            return ""
        return ", ".join(_cap(self._room_word((info or {}).get("type", r))) for r, info in layout.rooms.items())

    def _unsure(self, comp: ComponentSpec) -> str | None:
        """How unsure the rule set is of a component, as the key of the site's words: the
        least sure `confidence` level is "assumed" (its sources are silent), a level between
        that and the surest is "uncertain"; None when it is sure. Pages say so wherever they
        show it, so that assumed data never passes for the publisher's."""
        if comp.confidence == CONFIDENCE[-1]:
            return "assumed"
        return "uncertain" if comp.confidence != CONFIDENCE[0] else None

    def _unsure_mark(self, comp: ComponentSpec) -> str:
        """Said after a component's name in a table: assumed or uncertain, else nothing."""
        key = self._unsure(comp)
        return f" *({self.ui(key)})*" if key else ""

    def _unsure_note(self, comp: ComponentSpec) -> list[str]:
        """The warning at the top of an assumed or uncertain component's page, with a link
        to the rulings, where the rule set says what it assumes and why (a card's page is
        one folder down from them)."""
        key = self._unsure(comp)
        if not key:
            return []
        why = f" [{self.ui('rulings_why')}](../rulings.md)" if self.rs.data.rulings else ""
        return [f'!!! warning "{self.ui(key + "_title")}"\n    {self.ui(key + "_note")}{why}\n']

    def _cards(self) -> list:
        ui, data = self.ui, self.rs.data
        board = data.board
        # a section's index page takes its title from its heading, which the theme puts in the page's
        # <title> unescaped: the rule set's words there are made safe as in the navigation
        index = [f"# {md(label(self.nav_ui('cards')))}\n", ui("cards_intro") + "\n"]
        nav: list = ["cards/index.md"]
        by_kind: dict[str, list[ComponentSpec]] = {}
        for comp in self.cat.cards:
            by_kind.setdefault(comp.kind, []).append(comp)
        for kind, comps in by_kind.items():
            total = sum(c.count for c in comps if not c.per_player)
            index.append(f"## {md(_cap(self.word(f'kinds.{kind}', plural=True)))}" + (f" ({total})" if total else "") + "\n")
            index.append(f"| {ui('component')} | {ui('count')} |\n|---|---|")
            for comp in comps:
                count = ui("per_player", count=comp.count) if comp.per_player else str(comp.count)
                name = f"[{md(self.card_name(comp))}]({slug(comp.name)}.md){self._unsure_mark(comp)}"
                index.append(f"| {name} | {md(count)} |")
            index.append("")
            section = []
            for comp in comps:
                self._card_page(comp, board)
                section.append({label(self.card_name(comp)): f"cards/{slug(comp.name)}.md"})
            nav.append({label(_cap(self.word(f"kinds.{kind}", plural=True))): section})
        self.site.pages["cards/index.md"] = "\n".join(index) + "\n"
        return nav

    def _card_page(self, comp: ComponentSpec, board) -> None:
        ui = self.ui
        here = f"cards/{slug(comp.name)}.md"
        out = [f"# {md(self.card_name(comp))}\n"] + self._unsure_note(comp)
        named = self.cat.concerning(comp)
        out += self._card_effect(comp, named, here)
        count = ui("per_player", count=comp.count) if comp.per_player else str(comp.count)
        rows = [(ui("kind"), self.word(f"kinds.{comp.kind}")), (ui("count"), count)]
        if comp.zone:
            rows.append((ui("starts_in"), self.word(f"zones.{comp.zone}")))
        rows = [(k, md(v)) for k, v in rows]
        for prop, value in comp.properties.items():
            rows.append((self.word(f"properties.{comp.kind}.{prop}"),
                         self.value(value, feminine=self._feminine("properties", f"{comp.kind}.{prop}"))))
        out.append(f"| {ui('properties')} | {ui('value')} |\n|---|---|")
        out += [f"| {md(k)} | {v} |" for k, v in rows]
        out.append("")
        if board is not None and comp.layout and comp.layout in board.layouts:
            layout = board.layouts[comp.layout]
            self.site.files[f"cards/{slug(comp.name)}.svg"] = tile_svg(board, comp.layout, self.card_name(comp), self._room_word)
            out.append(f"![{md(self.card_name(comp))}]({slug(comp.name)}.svg){{ .rulecraft-card }}\n")
            told = self.prose.authored.text(f"layouts.{layout.name}", layout.text)
            if told:
                out.append(md_prose(told) + "\n")
            out.append(f"## {ui('doors')}\n")
            if any(len(side.parts) > 1 for side in layout.sides.values()):
                out.append(ui("side_parts") + "\n")
            for direction, side in layout.sides.items():
                out.append(f"- {md(_cap(self.word(direction)))}{self.c} "
                           + "; ".join(self._side_part(layout, part) for part in side.parts))
            for lk in layout.links:
                out.append(f"- {ui('inner_door')}{self.c} {md(self.word(lk['connection']))}")
            out.append(f"\n## {ui('rooms')}\n")
            for r, info in layout.rooms.items():
                rtype = (info or {}).get("type", r)
                facts = self._room_facts(board.space_kind, info or {})
                if rtype in self.cat.room_types:  # a page of its own (Room types)
                    out.append(f"- [{md(self._room_word(rtype))}](../rooms/{slug(rtype)}.md){facts}")
                else:
                    out.append(f"- {md(self._room_word(rtype))}{facts}")
            out.append("")
        self.site.pages[here] = "\n".join(out) + "\n"

    def _room_facts(self, space_kind: str, info: dict) -> str:
        """What a layout sets on a room besides its type, as the components table shows
        properties (" — feature: road; pennant: yes"); nothing when it sets nothing else."""
        facts = [f"{self.word(f'properties.{space_kind}.{p}')}{self.c} "
                 f"{self.value(v, feminine=self._feminine('properties', f'{space_kind}.{p}'))}"
                 for p, v in info.items() if p != "type"]
        return " — " + "; ".join(facts) if facts else ""

    def _side_part(self, layout, part) -> str:
        """A stretch of a tile's side: its edge and, on a tile of several rooms, the rooms along it."""
        rooms = ", ".join(self._room_word(layout.rooms[r].get("type", r)) for r in part.rooms) \
            if len(layout.rooms) > 1 else ""
        return md(self.word(part.edge)) + (f" ({md(rooms)})" if rooms else "")

    # Rules a player uses first: what the card lets them do, then what happens to it.
    _PLAYED = ("action", "reaction", "trigger", "procedure", "victory", "obligation", "function", "script")

    def _card_effect(self, comp: ComponentSpec, named: list[str], here: str) -> list[str]:
        """What a card does: its own text, then each rule that names it, in the author's words."""
        out = [f"## {self.ui('what_it_does')}\n"]
        own = self.prose.authored.text(f"components.{comp.name}", comp.text)
        if own:
            out.append(md_prose(own) + "\n")
        rules = list(named.rules)
        if comp.effect and comp.effect in self.rs.definitions and comp.effect not in named.all():
            rules.insert(0, comp.effect)
        out += self._rule_items(rules, here)
        for (prop, value), names in named.through.items():
            # listed only because the card holds a yes/no or a number other than its kind's
            clause = self.prose.holds_clause(comp.kind, prop, value) if isinstance(value, bool) else None
            if clause is not None:
                line = self.ui("because", clause=clause)
            else:
                line = self.ui("through", property=md(self.word(f"properties.{comp.kind}.{prop}")),
                               value=self.value(value))
            out += ([""] if out[-1].startswith("- ") else []) + [line + "\n"]
            out += self._rule_items(names, here)
        if named.bots:
            out += ([""] if out[-1].startswith("- ") else []) + [f"### {self.ui('bots_judge')}\n",
                                                               self.ui("bots_judge_intro") + "\n"]
            out += self._rule_items(named.bots, here)
        if not own and not rules and not named.through and not named.bots:
            kind = self.prose._written("kinds", comp.kind)
            key = "no_effect_f" if kind.feminine and "no_effect_f" in self.ui.words else "no_effect"
            out.append(self.ui(key, kind=md(self.word(f"kinds.{comp.kind}")),
                               this=md(self.prose._article(kind, "that"))))
        out.append("")
        return out

    def _rule_items(self, names: list[str], here: str) -> list[str]:
        """A list of rules in the order a player meets them: what they do, then what happens to it."""
        names = sorted(names, key=lambda n: self._PLAYED.index(self.rs.definitions[n].kind)
                       if self.rs.definitions[n].kind in self._PLAYED else len(self._PLAYED))
        return [f"- **{self.link(n, here)}**{self.c} {self.gist(n)}" for n in names]

    def _room_word(self, room_type: str) -> str:
        board = self.rs.data.board
        return self.word(self.prose.value_key(board.space_kind if board is not None else None, room_type))

    # ------------------------------------------------------------ rooms
    def _rooms(self) -> list:
        ui, board = self.ui, self.rs.data.board
        # a section's index page takes its title from its heading, which the theme puts in the
        # page's <title> unescaped: the rule set's words there are made safe as in the navigation
        index = [f"# {md(label(self.nav_ui('room_types')))}\n", ui("rooms_intro") + "\n"]
        nav: list = ["rooms/index.md"]
        for rtype in self.cat.room_types:
            here = f"rooms/{slug(rtype)}.md"
            index.append(f"- [{md(_cap(self._room_word(rtype)))}]({slug(rtype)}.md)")
            out = [f"# {md(_cap(self._room_word(rtype)))}\n", f"## {ui('cards_with')}\n"]
            for comp in self.cat.cards:
                layout = board.layouts.get(comp.layout) if comp.layout else None
                if layout and any((info or {}).get("type") == rtype for info in layout.rooms.values()):
                    out.append(f"- [{md(self.card_name(comp))}](../cards/{slug(comp.name)}.md) ({md(comp.count)})")
            out.append("")
            named = self.cat.room_type_rules(rtype)
            if named.rules:
                out.append(f"## {ui('rules_naming')}\n")
                out += [f"- {self.link(n, here)} — {self.gist(n)}" for n in named.rules]
                out.append("")
            if named.bots:
                out.append(f"## {ui('bots_judge')}\n")
                out.append(ui("bots_judge_intro") + "\n")
                out += [f"- {self.link(n, here)} — {self.gist(n)}" for n in named.bots]
                out.append("")
            self.site.pages[here] = "\n".join(out) + "\n"
            nav.append({label(_cap(self._room_word(rtype))): here})
        self.site.pages["rooms/index.md"] = "\n".join(index) + "\n"
        return nav

    # ------------------------------------------------------------ victory and rulings
    def _victory(self) -> None:
        ui = self.ui
        out = [f"# {ui('victory')}\n", ui("victory_intro") + "\n"]
        for n in self.cat.victory:
            if self.home.get(n) == "victory.md":
                out.append(self.rule_block(n, 2, here="victory.md"))
            else:
                out.append(f"## {md(self.title(n))}\n\n{self.gist(n)} → {self.link(n, 'victory.md')}\n")
        self.site.pages["victory.md"] = "\n".join(out) + "\n"

    def _rulings(self) -> None:
        ui = self.ui
        out = [f"# {ui('rulings')}\n", ui("rulings_intro") + "\n"]
        authored = self.prose.authored
        for r in self.rs.data.rulings:
            key = f"rulings.{r['id']}"
            question = authored.text(f"{key}.question", r.get("question")) or r["id"]
            out.append(f"## {md_prose(question)} {{#{slug(r['id'])}}}\n")
            if r.get("section"):
                out.append(f"**{ui('rulebook')}{self.c}** {self.cite(r['section'])}\n")
            out.append(f"**{ui('ruling')}{self.c}** {md_prose(authored.text(f'{key}.ruling', r.get('ruling')) or '')}\n")
            if r.get("reason"):
                out.append(f"**{ui('reason')}{self.c}** {md_prose(authored.text(f'{key}.reason', r['reason']))}\n")
            names = [n for n in r.get("definitions", []) if n in self.rs.definitions]
            if names:
                out.append(f"**{ui('rules_carrying')}{self.c}** " + ", ".join(self.link(n, "rulings.md") for n in names) + "\n")
        self.site.pages["rulings.md"] = "\n".join(out) + "\n"

    # ------------------------------------------------------------ worked examples
    def _status(self, status: str) -> str:
        return self.ui(f"status_{status}")

    def _superseded(self, e: Example) -> bool:
        """Whether the site's variant supersedes an example: written for the rules without it,
        and not run here (a scenario of another variant is skipped for another reason)."""
        info = self.rs.variant
        return (e.result.status == SKIP and not e.scenario.variant and info is not None
                and e.scenario.title in info.superseded)

    def _shown_status(self, e: Example) -> str:
        """An example's status as the site shows it: a superseded one is no skipped failure."""
        return "superseded" if self._superseded(e) else e.result.status

    def _site_variant_link(self, here: str) -> str:
        """The site's variant by its title, linked to its page."""
        v = next((v for v in self.variants if v.name == self.rs.variant.name), None)
        if v is None:
            return md(self.rs.variant.title)
        return f"[{md(self._variant_title(v))}]({self.rel(f'variants/{slug(v.name)}.md', here)})"

    def _examples(self) -> list:
        ui = self.ui
        sections = self.cat.sections
        # in the rulebook's order, by the sections the files cite (in the rule files' words,
        # which the rulebook's list of sections uses), whatever the site's language
        files = sorted(self.examples, key=lambda f: section_index(self._example_file_cites(f, translate=False)[0]
                                                                  if f.examples else None, sections))
        self._file_titles = self._example_titles(files)
        every = [e for f in files for e in f.examples]
        passed = sum(e.result.status == PASS for e in every)
        skipped = sum(e.result.status == SKIP and bool(e.scenario.variant) for e in every)
        # superseded examples are not run here by design: they count apart, as `verify` counts them
        superseded = sum(self._superseded(e) for e in every)
        summary = ui("summary_line_one" if passed == 1 else "summary_line", passed=passed, total=len(every) - superseded)
        if skipped:
            summary += " " + ui("summary_skipped_one" if skipped == 1 else "summary_skipped", skipped=skipped)
        if superseded:
            summary += " " + ui("summary_superseded_one" if superseded == 1 else "summary_superseded", n=superseded,
                                variant=self._site_variant_link("examples/index.md"))
        index = [f"# {ui('examples')}\n", ui("examples_intro") + "\n", summary + "\n",
                 f"| {ui('scenario')} | {ui('rulebook')} | {ui('result')} |\n|---|---|---|"]
        nav: list = ["examples/index.md"]
        for f in files:
            page = f"examples/{slug(f.stem)}.md"
            out = [f"# {md(self._example_file_title(f))}\n"]
            if f.broken:  # the loader's problems, as `rulecraft verify` prints them
                out.append("!!! failure\n\n" + "\n".join("    " + line for line in _code(f.problems, "text").splitlines()) + "\n")
            for i, e in enumerate(f.examples, start=1):
                anchor = f"example-{i}"
                index.append(f"| [{md(self._example_title(e, i))}]({slug(f.stem)}.md#{anchor}) | {self.cite(e.scenario.cite)} "
                             f"| {self._status(self._shown_status(e))} |")
                out.append(self._example(f, i, e, anchor))
            self.site.pages[page] = "\n".join(out) + "\n"
            nav.append({label(self._example_file_title(f)): page})
        self.site.pages["examples/index.md"] = "\n".join(index) + "\n"
        return nav

    @staticmethod
    def _rule_file(file: str, rs: RuleSet) -> str:
        """A rule file as its label on the pages: see :func:`shown_path`."""
        return shown_path(file, rs.root)

    def _display(self, path) -> str:
        return shown_path(path, self.rs.root)

    def _example_title(self, e: Example, i: int) -> str:
        """A scenario's title: written in the rule files' language, so other sites number it."""
        return e.scenario.title if not self.prose.authored.translating else self.ui("example_n", n=i)

    def _example_file_cites(self, f: ExampleFile, translate: bool = True) -> list[str]:
        """The sections a file's examples cite, the most cited first (ties: first cited first)."""
        def section(cite):
            text = self.prose.authored.cite(cite) if translate else (cite or "")
            return text.split(";")[0].split(":", 1)[-1].strip()
        cites = Counter(section(e.scenario.cite) for e in f.examples)
        return [c for c, _ in cites.most_common() if c]

    def _example_file_title(self, f: ExampleFile) -> str:
        titles = getattr(self, "_file_titles", None) or {}
        if f.stem in titles:
            return titles[f.stem]
        return self._example_titles([f])[f.stem]

    @staticmethod
    def _file_name_title(f: ExampleFile) -> str:
        """A scenario file's name made readable: ``ties_and_rounds`` → "Ties and rounds"."""
        return _cap(f.stem.replace("_", " ").replace("-", " ").strip()) or f.stem

    def _example_titles(self, files: list[ExampleFile]) -> dict[str, str]:
        """A title for each file of examples, told apart from the others'. A file whose examples
        all cite one section is titled by it. A file of several topics is titled, in the rule
        files' language, by its own name made readable (``auction.yaml``: "Auction"), which its
        author chose for what it holds, rather than by one of its sections; in another language,
        whose readers the file's name does not speak to, by the section its examples cite most
        followed by "etc.". Files that share a section's title take, in the rule files' language,
        their own names when no other file has them; else each takes the next section it cites
        that no other file is titled by (naming two topics, it needs no "etc."); titles still
        shared are numbered."""
        cited = {f.stem: self._example_file_cites(f) for f in files}
        several = {f.stem for f in files if len(cited[f.stem]) > 1}
        by_name = not self.prose.authored.translating  # the files' names are words of the site's language
        named = {f.stem for f in files if (f.stem in several and by_name) or not cited[f.stem]}
        first = {f.stem: self._file_name_title(f) if f.stem in named else cited[f.stem][0] for f in files}
        if by_name:
            shared, taken = Counter(first.values()), set(first.values())
            for f in files:
                own = self._file_name_title(f)
                if f.stem not in named and shared[first[f.stem]] > 1 and own not in taken:
                    first[f.stem] = own
                    named.add(f.stem)
                    taken.add(own)
        shared = Counter(first.values())
        titles: dict[str, str] = {}
        for f in files:
            title = first[f.stem]
            if shared[title] > 1 and f.stem not in named:
                taken = set(first.values()) | set(titles.values())
                other = next((c for c in cited[f.stem][1:] if c not in taken), None)
                title = f"{title} — {other}" if other else title
            if f.stem in several and not by_name and title == first[f.stem]:
                title = self.ui("examples_and_more", title=title)
            titles[f.stem] = title
        counts = Counter(titles.values())
        seen: Counter = Counter()
        for f in files:
            title = titles[f.stem]
            if counts[title] > 1:
                seen[title] += 1
                titles[f.stem] = f"{title} ({seen[title]})"
        return titles

    def _example(self, f: ExampleFile, i: int, e: Example, anchor: str) -> str:
        ui = self.ui
        sc, r = e.scenario, e.result
        kind = "success" if r.status == PASS else ("failure" if r.status in FAILING else "note")
        status = self._shown_status(e)
        out = [f"## {md(self._example_title(e, i))} {{#{anchor}}}\n",
               f"**{ui('result')}{self.c}** <span class=\"rulecraft-status rulecraft-{status}\">{self._status(status)}</span>  ",
               f"**{ui('rulebook')}{self.c}** {self.cite(sc.cite)}\n"]
        if sc.text and not self.prose.authored.translating:
            out.append(md_prose(sc.text) + "\n")
        if status == "superseded":
            # the variant's reason is in the rule files' words: other languages link the variant's page
            why = self.rs.variant.superseded.get(sc.title)
            variant = self._site_variant_link(f"examples/{slug(f.stem)}.md")
            out.append("*" + (ui("superseded_example_why", variant=variant, reason=md_prose(why))
                              if why and not self.prose.authored.translating
                              else ui("superseded_example", variant=variant)) + "*\n")
        elif r.status == SKIP and sc.variant:
            titles = {v.name: self._variant_title(v) for v in self.variants}
            out.append(f"*{ui('skipped_variant', variant=md(titles.get(sc.variant, sc.variant)))}*\n")
        elif r.reason and (r.status != SKIP or not self.prose.authored.translating):
            out.append(f"*{md(r.reason)}*\n")
        if r.divergence is not None:
            d = r.divergence
            lines = [f"{d.label}: {d.message}" if d.message else d.label]
            lines += [f"{m.what}: expected {m.expected!r}, actual {m.actual!r}" for m in d.mismatches]
            out.append(f"!!! {kind} \"{ui('divergence')}\"\n\n" + "\n".join("    " + line for line in _code("\n".join(lines), "text").splitlines()) + "\n")
        pictures = []
        for moment, picture in (("before", e.before), ("after", e.after)):
            if picture is None:
                continue
            name = f"{slug(f.stem)}-{i}-{moment}.svg"
            self.site.files[f"examples/{name}"] = picture
            pictures.append(f"<figure class=\"rulecraft-board\" markdown>\n![{ui('board_' + moment)}]({name})\n"
                            f"<figcaption>{ui(moment)}</figcaption>\n</figure>")
        out.append(self._narration(sc, e.fixed_tops))
        if pictures:
            out.append("<div class=\"rulecraft-boards\" markdown>\n" + "\n".join(pictures) + "\n</div>\n")
        if e.pieces:
            out.append(self._legend(e))
        body = {k: v for k, v in (("players", sc.players), ("game_setup", sc.game_setup), ("setup", sc.setup),
                                  ("steps", sc.steps), ("expect", sc.expect)) if v}
        dumped = yaml.safe_dump(body, sort_keys=False, allow_unicode=True, width=100).rstrip()
        out.append(f"??? quote \"{ui('scenario_source')} — {md(self._display(f.path))}\"\n\n" + "\n".join("    " + line for line in _code(dumped, "yaml").splitlines()) + "\n")
        return "\n".join(out)

    def _narration(self, sc, fixed_tops: dict | None = None) -> str:
        """The scenario told in sentences: the situation, each step, what must then be true."""
        ui, tell = self.ui, self.narrator
        out = [f"**{ui('narration')}**\n"]
        situation = tell.situation(sc, fixed_tops)
        if situation:
            out.append(f"*{ui('the_setup')}*{self.c}\n")
            out += [f"- {line}" for line in situation]
            out.append("")
        if sc.steps:
            out.append(f"*{ui('the_steps')}*{self.c}\n")
            for number, step in enumerate(sc.steps, start=1):
                out.append(f"{number}. " + " ".join(tell.step(step)))
            out.append("")
        outcome = tell.outcome(sc.expect or {})
        if outcome:
            out.append(f"*{ui('the_outcome')}*{self.c}\n")
            out += [f"- {line}" for line in outcome]
            out.append("")
        return "\n".join(out)

    def _legend(self, e: Example) -> str:
        """Which piece each token of the pictures stands for."""
        ui = self.ui
        out = [f"**{ui('legend')}**\n", f"| {ui('token')} | {ui('stands_for')} |\n|---|---|"]
        for piece in sorted(e.pieces.values(), key=lambda p: (p.mark, p.id)):
            out.append(f"| {md_code(piece.mark)} | {self.narrator.thing(piece.id)} |")
        return "\n".join(out) + "\n"

    # ------------------------------------------------------------ variants
    def _variant_title(self, v: VariantChanges) -> str:
        # a variant's own words come from its own glossaries (the base's, then its chain's)
        return v.prose.authored.text(f"variants.{v.name}.title", v.ruleset.variant.title)

    def _variants(self) -> list:
        ui = self.ui
        index = [f"# {ui('variants')}\n", ui("variants_intro") + "\n"]
        nav: list = ["variants/index.md"]
        for v in self.variants:
            page = f"variants/{slug(v.name)}.md"
            index.append(f"- [{md(self._variant_title(v))}]({slug(v.name)}.md)")
            self.site.pages[page] = self._variant_page(v)
            nav.append({label(self._variant_title(v)): page})
        self.site.pages["variants/index.md"] = "\n".join(index) + "\n"
        return nav

    def _variant_page(self, v: VariantChanges) -> str:
        ui, info, vrs = self.ui, v.ruleset.variant, v.ruleset
        titles = {other.name: self._variant_title(other) for other in self.variants}
        chain = " → ".join(md(title) for title in [self.base_ruleset.data.game.title]
                           + [titles.get(n, n) for n in info.chain])
        out = [f"# {md(self._variant_title(v))}\n", ui("variant_of", chain=chain) + "\n"]
        text = v.prose.authored.text(f"variants.{v.name}.text", info.text)
        if text:
            out.append(md_prose(text) + "\n")
        if info.cite:
            out.append(f"**{ui('rulebook')}{self.c}** {self.cite(info.cite, v.prose)}\n")
        if info.parameters:
            out.append(f"## {ui('changed_parameters')}\n\n| {ui('parameter')} | {ui('before_change')} | {ui('after_change')} |\n|---|---|---|")
            for n, (old, new) in info.parameters.items():
                feminine = self._feminine("parameters", n, v.prose)
                out.append(f"| {md(v.prose.term(f'parameters.{n}'))} | {self.value(old, v.prose, feminine)} "
                           f"| {self.value(new, v.prose, feminine)} |")
            out.append("")
        if info.components:
            out.append(f"## {ui('changed_components')}\n\n| {ui('component')} | {ui('change')} |\n|---|---|")
            out += [f"| {md(v.prose.term(n))} | {self._component_change(v, n, old, new)} |"
                    for n, (old, new) in info.components.items()]
            out.append("")
        if info.variables:
            out.append(f"## {ui('new_variables')}\n")
            out += [f"- {md(_cap(v.prose.term(n)))}" for n in info.variables]
            out.append("")
        if info.visibility:
            out.append(f"## {ui('changed_visibility')}\n\n| {ui('seen_what')} | {ui('before_change')} | "
                       f"{ui('after_change')} |\n|---|---|---|")
            for (section, name), (old, new) in info.visibility.items():
                out.append(f"| {self._seen_thing(v, section, name)} | {self._seen_by(old)} | {self._seen_by(new)} |")
            out.append("")
        if info.replaced:
            out.append(f"## {ui('replaced')}\n")
            for n in info.replaced:
                out.append(f"### {md(v.prose.title(n))}\n")
                out.append(f"=== \"{ui('before_change')}\"\n\n" + _indent(self._version(n, self.base_prose, self.base_ruleset)))
                out.append(f"=== \"{ui('after_change')}\"\n\n" + _indent(self._version(n, v.prose, vrs)))
        if info.removed:
            out.append(f"## {ui('removed')}\n")
            for n in info.removed:
                out.append(f"### {md(self.base_prose.title(n))}\n")
                out.append(self._version(n, self.base_prose, self.base_ruleset))
        if info.added:
            out.append(f"## {ui('added')}\n")
            for n in info.added:
                out.append(f"### {md(v.prose.title(n))}\n")
                out.append(self._version(n, v.prose, vrs))
        if info.additions:
            out.append(f"## {ui('added_to_game')}\n")
            out += [f"- {self._addition(v, section, name)}" for section, name in info.additions]
            out.append("")
        if info.superseded:
            out.append(f"## {ui('superseded')}\n")
            if self.prose.authored.translating:  # the titles and reasons are in the rule files' words: link the examples
                found = self._examples_by_title()
                out += [f"- {found[t]}" for t in info.superseded if t in found]
            else:
                out += [f"- {md(t)}{self.c} {md_prose(why)}" for t, why in info.superseded.items()]
            out.append("")
        if not (info.parameters or info.components or info.variables or info.replaced or info.removed or info.added
                or info.additions or info.visibility):
            out.append(ui("no_changes") + "\n")
        return "\n".join(out) + "\n"

    def _seen_thing(self, v: VariantChanges, section: str, name: str) -> str:
        """A zone, property or variable whose visibility a variant changes, in the site's words."""
        if section == "zones":
            return md(_cap(v.prose.term(f"zones.{name}")))
        if section == "properties":
            kind, _, prop = name.partition(".")
            term = v.prose._written("properties", name)
            return md(_cap(v.prose._property_word(term))) + f" ({md(v.prose._written('kinds', kind).one)})"
        return md(_cap(v.prose.term(name)))

    def _seen_by(self, seen: dict) -> str:
        who = self.ui(f"seen_{seen['visible_to']}")
        return self.ui("seen_top", who=who) if seen.get("top_visible") else who

    def _component_change(self, v: VariantChanges, name: str, old, new) -> str:
        """What a variant changes of a component, each change as "before → after" in the
        site's words: its count, and only the properties whose value changes."""
        old = old if isinstance(old, dict) else {}
        new = new if isinstance(new, dict) else {}
        comp = next((c for c in list(v.ruleset.data.components) + list(self.base_ruleset.data.components)
                     if c.name == name), None)
        kind = comp.kind if comp is not None else None
        changes = []
        if old.get("count") != new.get("count") and new.get("count") is not None:
            changes.append(f"{self.ui('count')}{self.c} {md(old.get('count', '–'))} → {md(new['count'])}")
        before, after = old.get("properties") or {}, new.get("properties") or {}
        for prop in dict.fromkeys([*before, *after]):
            if before.get(prop) == after.get(prop):
                continue
            word = v.prose.term(f"properties.{kind}.{prop}") if kind else prop
            changes.append(f"{md(word)}{self.c} {self._shown_value(v, before.get(prop))} → "
                           f"{self._shown_value(v, after.get(prop))}")
        return "; ".join(changes) or self.ui("no_changes")

    def _shown_value(self, v: VariantChanges, value) -> str:
        """A property's value before or after a variant's change; "–" where it had none."""
        return md("–") if value is None else self.value(value, v.prose)

    def _addition(self, v: VariantChanges, section: str, name: str) -> str:
        """One thing a variant's ``add:`` brought, in the site's words: a card linked to
        its page, a new value of a property (a room type) by its word."""
        kind = self.ui(f"added_{section}")
        if section == "values":
            prop, _, value = name.partition("=")
            owner = prop.partition(".")[0]
            of = self.ui("added_value_of", kind=v.prose.term(f"kinds.{owner}"), property=v.prose.term(f"properties.{prop}"))
            return f"{md(_cap(v.prose.term(f'values.{value}')))} ({md(of)})"
        if section == "connections":
            return f"{md(name)} ({kind})"
        if section == "layouts":
            # a layout is a tile's shape, with no word of its own: it is named by the
            # components laid with it
            users = [c.name for c in v.ruleset.data.components if c.layout == name]
            if users:
                return f"{md(', '.join(_cap(v.prose.term(c)) for c in users))} ({kind})"
            return f"{md_code(name)} ({kind})"
        key = name if section in ("components", "spaces") else f"{section}.{name}"
        word = md(_cap(v.prose.term(key)))
        if section == "components" and any(c.name == name for c in self.cat.cards):
            word = f"[{word}](../cards/{slug(name)}.md)"
        return f"{word} ({kind})"

    def _examples_by_title(self) -> dict[str, str]:
        """Links to the worked examples from a variant page, by scenario title."""
        out = {}
        for f in self.examples:
            for i, e in enumerate(f.examples, start=1):
                text = f"{self._example_title(e, i)} — {self.cite(e.scenario.cite)}"
                out.setdefault(e.scenario.title, f"[{text}](../examples/{slug(f.stem)}.md#example-{i})")
        return out

    def _version(self, name: str, prose, rs: RuleSet) -> str:
        d = rs.definitions[name]
        said = self.said(name, prose, rs)
        return "\n".join(([f"{said}\n"] if said else []) + [f"*{prose.summary(name)}*\n", prose.definition(name).rstrip() + "\n",
                          f"{md_code(f'{self._rule_file(d.file, rs)}:{d.pos.line}')}\n", _code(source_of(rs, d))])


def _held_words(cat: Catalogue, prose) -> tuple[str, str] | None:
    """The word for the things the site gives a page each (the catalogue's), in the singular
    and plural: their kind's when they are of one kind, else the word every one of their kinds'
    words share, first or last (the kinds "red token" and "blue token": "tokens"); None when
    they share none (the site's own word is used)."""
    kinds = list(dict.fromkeys(c.kind for c in cat.cards))
    if not kinds:
        return None
    ones = [prose.term(f"kinds.{k}").split() for k in kinds]
    manys = [prose.term(f"kinds.{k}", plural=True).split() for k in kinds]
    if len(kinds) == 1:
        return " ".join(ones[0]), " ".join(manys[0])
    for at in (-1, 0):
        if all(ones) and all(manys) and len({w[at].lower() for w in ones}) == 1 \
                and len({w[at].lower() for w in manys}) == 1:
            return ones[0][at].lower(), manys[0][at].lower()
    return None


def shown_path(path, root) -> str:
    """A file of a rule set (a rule file, a scenario file) as a reader finds it. A shipped
    rule set's files are named where they lie in a checkout (``rules/<game>/setup.rules``,
    ``seeds/<game>/turns.yaml``), whoever built the site and however the folder was given:
    an absolute path would show the builder's own folders. Any other rule set's are named
    from the current folder when they lie under it, else from the rule set's folder as it
    was given (``../mine/hand.rules``), else as given."""
    given, root = Path(path), Path(root)
    resolved, top = given.resolve(), root.resolve()
    shipped = shipped_ruleset(top.name)
    # rules/<game> lies beside seeds/<game> in a checkout; then the folder the site is built
    # from; then the rule set's folder as given
    for base in ([top.parent.parent] if shipped is not None and shipped.resolve() == top else []) + [Path.cwd().resolve()]:
        if resolved.is_relative_to(base):
            return resolved.relative_to(base).as_posix()
    if resolved.is_relative_to(top):
        return (root / resolved.relative_to(top)).as_posix()
    return given.as_posix()


def _pages_of(nav) -> list[str]:
    """The pages of a navigation, in its order."""
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, list):
        return [p for item in nav for p in _pages_of(item)]
    return [p for value in nav.values() for p in _pages_of(value)]


_FENCE = re.compile(r"^\s*(`{3,})")
_LINK = re.compile(r"(\]\()([^)\s]+)(\))")


def _outside_code(text: str, change) -> str:
    """``change`` applied to every line of Markdown that is not inside a fenced code block."""
    out, fence = [], None
    for line in text.splitlines():
        opened = _FENCE.match(line)
        if fence is None and opened:
            fence = opened.group(1)
        elif fence is not None and line.strip() == fence:
            fence = None
        elif fence is None:
            line = change(line)
        out.append(line)
    return "\n".join(out)


def _rebased(text: str, page: str, printed: set[str]) -> str:
    """A page's relative links and pictures, made relative to the site's top folder; a link
    to a rule of a page that is printed too goes to the rule on the printed page."""
    folder = posixpath.dirname(page)

    def rebase(found: re.Match) -> str:
        target = found.group(2)
        if target.startswith(("#", "/")) or ":" in target.split("#")[0]:
            return found.group(0)
        path, hash_, anchor = target.partition("#")
        path = posixpath.normpath(posixpath.join(folder, path)) if folder else path
        if anchor and path in printed:
            return f"{found.group(1)}#{anchor}{found.group(3)}"
        return f"{found.group(1)}{path}{hash_}{anchor}{found.group(3)}"

    return _outside_code(text, lambda line: _LINK.sub(rebase, line))


def _demoted(text: str) -> str:
    """Every heading one level down, so that a page becomes a section."""
    return _outside_code(text, lambda line: "#" + line if re.match(r"#{1,5} ", line) else line)


def _stem(rule_file: str) -> str:
    return posixpath.splitext(posixpath.basename(rule_file))[0]


def _indent(text: str) -> str:
    return "\n".join(("    " + line) if line.strip() else "" for line in text.splitlines()) + "\n"
