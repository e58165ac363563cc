"""The rules site says only what the rule set says: a card's page lists the rules that are
about that card (never those a shared or generic word happens to match), a component the
rule set only assumes is marked as assumed wherever it is shown, the board pictures say
property values in words, the site's name reads as written wherever the theme shows it,
and `rulecraft play` never calls a seat "none".
"""

from __future__ import annotations

import functools
import re
from html.parser import HTMLParser
from pathlib import Path

from engine_rulesets import build, game_yaml

from rulecraft.cli.main import main
from rulecraft.docgen.catalogue import catalogue
from rulecraft.docgen.examples import pieces_on_board
from rulecraft.docgen.pages import SiteWriter
from rulecraft.docgen.prose import Prose
from rulecraft.docgen.site import collect
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules"

SETUP_AND_ROUND = """
procedure setup():
    do:
        for each p in players:
            draw(p)

procedure round():
    do:
        for each p in players:
            play_turn(p)
"""

# Cards with a shared value ("any"), a value only one holds ("solo"), a value that is also
# a procedure's name ("draw"); a token kind with a property of the same name as the cards'.
CARDS = {
    "game.yaml": game_yaml() + """
kinds:
  player: {}
  card:
    located_in: zone
    properties:
      want: {type: text, values: [any, solo, many]}
      bonus: {type: text, values: [none, draw], default: none}
      sticky: {type: bool, default: false}
      limit: {type: number, default: 0}
      heavy: {type: bool, default: false}
  token:
    located_in: zone
    properties:
      want: {type: text, values: [any, many]}
      heavy: {type: bool, default: false}
zones:
  deck: {}
  hand: {per_player: true}
  pool: {}
components:
  - {name: alpha, kind: card, zone: deck, properties: {want: any, bonus: draw}}
  - {name: beta, kind: card, zone: deck, properties: {want: any}}
  - {name: gamma, kind: card, zone: deck, properties: {want: solo}}
  - {name: chip, kind: token, zone: pool, properties: {want: many}}
  - {name: delta, kind: card, zone: deck, properties: {want: many, sticky: true}}
  - {name: epsilon, kind: card, zone: deck, properties: {want: many, limit: 2}}
  - {name: zeta, kind: card, zone: deck, properties: {want: many, heavy: true}}
""",
    "play.rules": SETUP_AND_ROUND + """
procedure draw(p: player):
    text "Draw the top card."
    do:
        move top(deck) to hand(p)

function anything_left() -> bool:
    text "Calls the built-in any: names no card."
    = any([true for c in contents(deck)])

function wants_anything(c: card) -> bool:
    text "A card that takes any card."
    = c.want == "any"

procedure give_bonus(c: card, p: player):
    text "A card's bonus."
    do:
        if c.bonus == "draw":
            draw(p)

function solo_left() -> bool:
    text "Writes a value only one card holds."
    = count([c for c in contents(deck) where c.want == "solo"]) > 0

function tokens_wanting_any(t: token) -> bool:
    text "About tokens: their want is not a card's."
    = t.want == "any"

function alpha_held(p: player) -> bool:
    text "Names a card itself."
    = alpha in contents(hand(p))

function sticky_in_deck() -> number:
    text "Reads a yes/no only some cards hold, of a name it does not declare."
    = count([c for c in contents(deck) where c.sticky])

function over_limit(c: card, n: number) -> bool:
    text "Reads a number only some cards are given."
    = c.limit > 0 and n > c.limit

function heavy_tokens() -> number:
    text "Reads a yes/no of a name it does not declare, which tokens have too."
    = count([t for t in contents(pool) where t.heavy])
""",
}


def _what_it_does(page: str) -> set[str]:
    """The rules a card page's "What it does" section links to, by anchor (the bots'
    judgement, listed apart under "How bots judge it", is no rule of the game)."""
    section = page.split("## What it does", 1)[1].split("\n| ", 1)[0].split("### How bots judge it", 1)[0]
    return set(re.findall(r"\]\([^)#]*#([^)]+)\)", section))


def _bots_judge(page: str) -> set[str]:
    """The bots' judgement a card page lists apart, after the rules."""
    section = page.split("## What it does", 1)[1].split("\n| ", 1)[0]
    return set(re.findall(r"\]\([^)#]*#([^)]+)\)", section.split("### How bots judge it", 1)[1])) \
        if "### How bots judge it" in section else set()


def test_a_card_lists_the_rules_about_it_and_no_rule_a_shared_word_matches(tmp_path):
    build(tmp_path, CARDS)
    site = collect(tmp_path / "ruleset", "en", scenarios=tmp_path)
    # naming the card, comparing its property with its value, its own value in a comparison
    assert _what_it_does(site.pages["cards/alpha.md"]) == {"wants_anything", "give_bonus", "alpha_held"}
    assert _what_it_does(site.pages["cards/beta.md"]) == {"wants_anything"}
    assert _what_it_does(site.pages["cards/gamma.md"]) == {"solo_left"}
    # a kind of its own, with a property named alike: only the rule about that kind
    assert _what_it_does(site.pages["cards/chip.md"]) == set()
    # a yes/no it holds against its kind's default, a number where its kind's is 0: the
    # rules reading them are about it; a yes/no another kind has too, read of a thing
    # the rule does not declare, may be the other kind's
    assert _what_it_does(site.pages["cards/delta.md"]) == {"sticky_in_deck"}
    assert _what_it_does(site.pages["cards/epsilon.md"]) == {"over_limit"}
    assert _what_it_does(site.pages["cards/zeta.md"]) == set()
    for page in ("alpha", "beta", "gamma"):
        links = _what_it_does(site.pages[f"cards/{page}.md"])
        # `any(...)` is a call, `draw(p)` a procedure's call: neither names a card
        assert not links & {"anything_left", "setup", "draw", "tokens_wanting_any"}


# A shipped card page → the rules it must list (true links, kept) and those it must not
# (matched by a shared value, a built-in's or a procedure's call, another kind's property).
CARD_RULES = {
    ("star_trek_panic", "mission_c"): ({"counts_for"}, {"mend_shields", "mend_hull", "can_target",
                                                        "tholian_at_short_range"}),
    ("star_trek_panic", "mission_f"): ({"counts_for"}, {"can_target", "tholian_at_short_range"}),
    ("star_trek_panic", "mission_h"): ({"claim_reward", "counts_for"}, {"setup_game", "draw_up", "starbase_reached"}),
    ("star_trek_panic", "mission_a"): (set(), {"play_hit"}),
    ("star_trek_panic", "any_arc_short_hit"): ({"play_hit", "can_target"}, {"counts_for", "mend_shields"}),
    ("star_trek_panic", "repair_hull_card"): ({"play_repair_hull"}, {"claim_reward"}),
    ("stationfall", "id_astrochimp"): (set(), {"lindsey"}),
    ("stationfall", "id_engineer"): ({"deal_identities"}, {"lindsey"}),
    ("stationfall", "k_engineer"): (set(), {"deal_identities", "lindsey"}),
    ("stationfall", "gun"): ({"manufacture_gun", "can_hit", "weapons", "armed", "lindsey"}, set()),
    # the bots' judgement (a heuristic, a function only heuristics use) is no rule of the game
    ("panic_station", "gas_can"): ({"burn_hive", "build_search_deck"}, {"gas_cans_held", "human_play"}),
    ("panic_station", "host"): ({"host_is_infected", "trade_allowed"}, {"known_infected"}),
    ("panic_station", "ammo"): ({"spend_bullet", "bullets", "permanent", "fire_gun"}, set()),
    # rules that reach a card through a small function (`reactor_room()`, `at_terminal(c)`)
    ("panic_station", "reactor"): ({"setup_game", "reactor_room", "deal_opening_card"}, {"meetings_of"}),
    ("panic_station", "open_terminal"): ({"at_terminal", "terminal_open_doors", "terminal_heat_scan",
                                          "terminal_reveal_location"}, set()),
    # … or through a variable only a rule about it sets (`turn.run_room`, then `turn.ran_through`)
    ("panic_station", "run_a"): ({"run_room_entered", "run_through", "search"}, set()),
    # a value two things share: the search card `parasite_alert` and the room type `parasite_alert`
    ("panic_station", "parasite_alert"): ({"deal_opening_card", "draw_search_card_from"}, {"parasite_alert_room"}),
    ("panic_station", "parasite_alert_a"): ({"parasite_alert_room"}, {"deal_opening_card", "draw_search_card_from"}),
}


@functools.lru_cache(maxsize=None)
def _pages(name: str) -> dict[str, str]:
    """A shipped rule set's pages in English, without running its worked examples."""
    rs = load_checked(RULES / name)
    return SiteWriter(rs, catalogue(rs), Prose(rs, "en", markdown=True), "en", [], []).build().pages


def test_shipped_card_pages_keep_their_true_rules_and_lose_the_false_ones():
    wrong = []
    for (name, card), (kept, dropped) in CARD_RULES.items():
        links = _what_it_does(_pages(name)[f"cards/{card}.md"])
        if not kept <= links or links & dropped:
            wrong.append(f"{name} {card}: lacks {sorted(kept - links)}, lists {sorted(links & dropped)}")
    assert not wrong


def test_the_bots_judgement_is_listed_apart_after_the_rules():
    page = _pages("panic_station")["cards/gas_can.md"]
    assert {"gas_cans_held", "human_play", "infected_play"} <= _bots_judge(page)
    assert page.index("#burn_hive)") < page.index("### How bots judge it") < page.index("#human_play)")


def test_a_rule_listed_for_a_yes_no_against_its_kinds_default_says_so():
    # a card that can NOT be searched lists the search rules under why
    page = _pages("panic_station")["cards/plain_a.md"]
    section = page.split("## What it does", 1)[1].split("\n| ", 1)[0]
    because = next(line for line in section.splitlines() if line.startswith(("Because ", "Through its ")))
    assert section.index(because) < section.index("#search)")
    assert "no icon" in because or because.endswith(": no")


def test_room_type_pages_list_the_rules_about_that_type_only():
    pages = _pages("panic_station")
    terminal = pages["rooms/terminal.md"]
    assert {"at_terminal", "terminal_open_doors", "terminal_heat_scan"} <= set(re.findall(r"#([a-z_]+)\)", terminal))
    alert = set(re.findall(r"#([a-z_]+)\)", pages["rooms/parasite_alert.md"]))
    assert "parasite_alert_room" in alert and not alert & {"deal_opening_card", "draw_search_card_from"}


def test_a_card_no_rule_is_about_says_so():
    page = _pages("star_trek_panic")["cards/mission_a.md"]
    assert not _what_it_does(page)
    assert "No rule names this mission" in page


UNSURE = {
    "game.yaml": game_yaml() + """
kinds:
  player: {}
  card: {located_in: zone}
  pawn: {}
zones:
  deck: {}
components:
  - {name: known, kind: card, zone: deck}
  - {name: guessed, kind: card, zone: deck, confidence: low}
  - {name: doubtful, kind: card, zone: deck, confidence: medium}
  - {name: guessed_pawn, kind: pawn, confidence: low}
""",
    "play.rules": SETUP_AND_ROUND + """
procedure draw(p: player):
    do:
        shuffle deck
""",
}


def _row(page: str, name: str) -> str:
    return next(line for line in page.splitlines() if line.startswith("|") and name in line)


def test_assumed_and_uncertain_components_say_so_on_their_page_and_in_every_table(tmp_path):
    build(tmp_path, UNSURE)
    site = collect(tmp_path / "ruleset", "en", scenarios=tmp_path)
    assumed, uncertain = "assumed, not the publisher's", "uncertain, may differ from the publisher's"
    guessed = site.pages["cards/guessed.md"]
    warning = "!!! warning \"Assumed, not the publisher's\""
    assert warning in guessed and guessed.index(warning) < guessed.index("## What it does")
    assert "sources of these rules are silent" in guessed
    assert "!!! warning \"Uncertain, may differ from the publisher's\"" in site.pages["cards/doubtful.md"]
    assert "!!! warning" not in site.pages["cards/known.md"]
    for table in (site.pages["index.md"], site.pages["cards/index.md"]):
        assert assumed in _row(table, "Guessed")
        assert uncertain in _row(table, "Doubtful")
        assert "publisher" not in _row(table, "Known")
    # a component without a page of its own is marked in the overview's table too
    assert assumed in _row(site.pages["index.md"], "Guessed pawn")


def test_assumed_components_are_marked_in_french_too():
    rs = load_checked(RULES / "star_trek_panic")
    assumed = [c for c in rs.data.components if c.confidence == "low"]
    assert len(assumed) == 42
    # no French glossary: the pages are written, not checked for missing words
    site = SiteWriter(rs, catalogue(rs), Prose(rs, "fr", markdown=True), "fr", [], []).build()
    cards = {c.name for c in catalogue(rs).cards}
    for comp in assumed:
        if comp.name in cards:
            assert "!!! warning \"Supposé, pas donné par l'éditeur\"" in site.pages[f"cards/{comp.name}.md"]
    rows = [line for line in site.pages["index.md"].splitlines() if "supposé, pas donné par l'éditeur" in line]
    assert len(rows) == len(assumed)


PIECES = {
    "game.yaml": game_yaml() + """
kinds:
  player: {}
  room: {}
  mover:
    located_in: room
    properties:
      armed: {type: bool, default: false}
      brave: {type: bool, default: true}
      backed_by: {type: list of player}
      mood: {type: text, values: [none, calm], default: none}
      temper: {type: text, values: [none, calm], default: calm}
      friend: "mover?"
      left: {type: number, default: 2}
board:
  kind: graph
  space_kind: room
  spaces: {a: {}, b: {}}
  connections:
    - {from: a, to: b}
components:
  - {name: scout, kind: mover, space: a}
  - {name: guide, kind: mover, space: b}
""",
    "play.rules": """
procedure setup():
    do:
        set scout.backed_by = players
        set scout.friend = guide

procedure round():
    do:
        for each p in players:
            play_turn(p)
""",
    "glossary/fr.yaml": """
language: fr
components: {scout: éclaireur, guide: guide}
properties:
  mover.armed: armé
  mover.brave: courageux
  mover.backed_by: soutenu par
  mover.mood: humeur
  mover.temper: caractère
  mover.friend: ami
  mover.left: restant
values: {calm: calme, none: aucun}
""",
}


def _titles(rs, lang: str) -> dict[str, str]:
    game = Game(rs, 2, 1)
    return {p.id: p.title for p in pieces_on_board(rs, game, Prose(rs, lang).term)}


def test_piece_tooltips_say_values_in_words_never_as_python_writes_them(tmp_path):
    (tmp_path / "ruleset" / "glossary").mkdir(parents=True)
    rs = build(tmp_path, PIECES)
    en = _titles(rs, "en")
    # yes/no by the property's name when it holds, nothing when it does not; a list of
    # players by their seats; a thing by its name; a text by its word; none and [] unsaid
    assert en["scout"] == "scout (scout): brave; backed by p1, p2; temper calm; friend guide; left 2"
    assert en["guide"] == "guide (guide): brave; temper calm; left 2"
    fr = _titles(rs, "fr")
    assert fr["scout"] == "éclaireur (scout): courageux; soutenu par p1, p2; caractère calme; ami guide; restant 2"
    for title in list(en.values()) + list(fr.values()):
        assert not re.search(r"\b(True|False|None|none)\b|\[|\]", title)


def test_the_shipped_board_pictures_hold_no_python_values(tmp_path):
    for name in ("stationfall", "star_trek_panic"):
        site = collect(RULES / name, "en")
        titles = [t for svg in site.files.values() for t in re.findall(r"<title>([^<]*)</title>", svg)]
        assert titles
        assert not [t for t in titles if re.search(r"\b(True|False|None)\b|\[\]", t)]


def test_a_seat_whose_mark_is_none_is_not_called_none(monkeypatch, capsys):
    lines = ["", "q"]

    def fake_input(prompt=""):
        if not lines:
            raise EOFError
        return lines.pop(0)

    monkeypatch.setattr("builtins.input", fake_input)
    monkeypatch.setenv("COLUMNS", "200")
    try:
        code = main(["play", str(RULES / "stationfall"), "--players", "3", "--human", "p1", "--seed", "7"])
    except SystemExit as stop:
        code = stop.code
    assert code == 0
    out = capsys.readouterr().out
    assert "Pass the device to p1." in out
    assert "(none)" not in out
    you = next(line for line in out.splitlines() if line.startswith("You (p1):"))
    assert "none" not in you


def test_an_assumed_cards_page_points_to_the_rulings_that_say_why():
    pages = _pages("star_trek_panic")
    page = pages["cards/mission_c.md"]
    assert "!!! warning \"Assumed, not the publisher's\"" in page
    assert "[The rulings say what the rule set assumes, and why.](../rulings.md)" in page
    assert "Assumed" in pages["rulings.md"]


def test_without_rulings_the_warning_points_nowhere(tmp_path):
    build(tmp_path, UNSURE)
    site = collect(tmp_path / "ruleset", "en", scenarios=tmp_path)
    assert "rulings.md" not in site.pages["cards/guessed.md"]


class _SiteNames(HTMLParser):
    """The site name as the browser reads it where the theme writes it: the logo's
    tooltip and label (escaped by the theme, and not) and the header's title."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.names: list[str] = []
        self._topic = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "md-logo" in (attrs.get("class") or ""):
            self.names += [attrs["title"], attrs["aria-label"]]
        if tag == "span" and "md-ellipsis" in (attrs.get("class") or "") and self._topic == 1:
            self._topic = 2

    def handle_data(self, data):
        if self._topic == 2 and data.strip():
            self.names.append(data.strip())
            self._topic = 3

    def feed_topic(self, page: str) -> None:
        self._topic = 1  # the first md-ellipsis span of the header holds the site name
        self.feed(page)


def test_an_ampersand_in_the_game_title_reads_as_one_in_every_place_the_theme_shows_it(tmp_path, capsys):
    files = dict(CARDS)
    files["game.yaml"] = files["game.yaml"].replace("  name: tiny\n", "  name: tiny\n  title: 'Cats & Dogs, R&D'\n", 1)
    build(tmp_path, files)
    out = tmp_path / "site"
    assert main(["docs", str(tmp_path / "ruleset"), "--out", str(out), "--build"]) == 0, capsys.readouterr().err
    names = _SiteNames()
    names.feed_topic((out / "site" / "index.html").read_text(encoding="utf-8"))
    # an `&` no reference can start stays itself; one before letters is a look-alike
    # (written `&amp;`, the escaped tooltip would read `&amp;`)
    assert len(names.names) >= 3 and set(names.names) == {"Cats & Dogs, R\uff06D: the rules"}, names.names
