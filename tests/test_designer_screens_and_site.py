"""What a designer found writing a push-your-luck dice game: its rules site and its play
screens, in English and French.

* B2: a worked example's options that are lists (a pairing of two sums) read one by one,
  "(3, 7), (4, 6)", as the screens label each "3, 7", never as four loose values;
* B3: a value set to nothing reads as the page's word for it (none, aucune), never as
  Python's ``None``, in the parameters table, the variant pages and the rules' prose;
* G4: the data tables (``tables:``) are on the overview, each with its keys and values and
  the rules that read it, and a rule reading one links to it;
* B4: in the terminal, ``y`` shows all of a player's own things in full (the main screen
  cuts them to names, and says so), and ``m`` in a game without a board says so in one
  line, listing the things in no zone;
* G7: rolls of one die that follow each other are told in one sentence, for the terminal
  and the browser alike.

The game: each of two players has seven lanes, one per sum; a roll of four dice offers
two pairings, the player climbs both sums of one; a table says how far each lane goes; a
parameter without a value (no limit) that a variant sets; a banner in no zone.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from engine_rulesets import write_ruleset
from test_90_play import assert_fits, screens  # noqa: F401  (a fixture)

from rulecraft.cli.play_screen import Screens
from rulecraft.docgen.site import collect, mkdocs, write
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game
from rulecraft.narration import Words
from rulecraft.screen_words import TERMINAL

LANES = "\n".join(f"  - {{name: lane{n}, kind: lane, per_player: true, zone: lanes, properties: {{sum: {n}}}}}"
                  for n in range(2, 9))

SUMS = {
    "game.yaml": """
game:
  name: sums
  title: Sums
  players: {min: 2, max: 2}
  setup: setup
  round: round
  round_limit: 20
  actions_per_turn_limit: 3
kinds:
  player: {properties: {}}
  lane:
    owner: owner
    properties:
      owner: player
      sum: {type: number}
      steps: {type: number, default: 0}
  flag:
    properties:
      height: {type: number, default: 2}
zones:
  lanes: {per_player: true, ordered: false, holds: lane}
components:
""" + LANES + """
  - {name: banner, kind: flag}
tables:
  reach: {2: 3, 3: 4, 4: 5}
dice:
  d6: [1, 2, 3, 4, 5, 6]
parameters:
  cap:
    value: null
    type: number?
    text: The most steps a lane may take; none for no limit.
  goal:
    value: 5
    text: The steps that win.
""",
    "play.rules": """
procedure setup():
    do:
        stop

procedure round():
    do:
        for each p in players:
            play_turn(p)

action roll:
    text "Roll four dice and climb the two sums of one pairing."
    do:
        let a = roll(d6)
        let b = roll(d6)
        let c = roll(d6)
        let d = roll(d6)
        choose m from [[a + b, c + d], [a + c, b + d]] by current_player prompt "Which sums?"
        for each s in m:
            climb(current_player, s)

procedure climb(p: player, s: number):
    text "The lane of the sum takes a step."
    do:
        for each l in contents(lanes(p)):
            if l.sum == s and (not limited() or l.steps < cap):
                set l.steps += 1

function reach_of(s: number) -> number:
    text "How far the lane of a sum goes."
    = reach[s]

function limited() -> bool:
    text "Whether the lanes have a limit."
    = cap != none

function best(p: player) -> number:
    text "The most steps of a player's lanes."
    = max([l.steps for l in contents(lanes(p))]) + banner.height - 2

victory goal_reached:
    text "A player whose lane reaches the goal wins."
    when any([best(p) >= goal for p in players])
    winners [p for p in players where best(p) >= goal]
""",
    "variants/capped.yaml": """
variant:
  name: capped
  title: Capped lanes
  base: sums
  text: No lane takes more than three steps.
parameters:
  cap: 3
""",
    "glossary/fr.yaml": """
language: fr
kinds:
  player: joueur
  lane: {one: piste, gender: f}
  flag: {one: fanion}
zones:
  lanes: {one: pistes, gender: fp}
components:
  banner: {one: fanion}
properties:
  lane.sum: {one: somme, gender: f}
  lane.steps: {one: pas, many: pas}
  flag.height: {one: hauteur, gender: f}
parameters:
  cap: {one: limite, gender: f}
  goal: {one: but}
tables:
  reach: {one: portée, gender: f}
dice:
  d6: {one: dé blanc, many: dés blancs}
names:
  a: premier dé
  b: deuxième dé
  c: troisième dé
  d: quatrième dé
  m: paire choisie
  p: joueur
  s: {one: somme, gender: f}
  banner: fanion
  lane2: piste 2
  lane3: piste 3
  lane4: piste 4
  lane5: piste 5
  lane6: piste 6
  lane7: piste 7
  lane8: piste 8
definitions:
  setup: Préparer
  round: Jouer un tour de table
  roll: Lancer
  climb: Monter
  reach_of: {one: Portée d'une somme, gender: f}
  limited: Limité
  best: Meilleure piste
  goal_reached: But atteint
texts:
  roll: "Lancez quatre dés et montez les deux sommes d'une paire."
  climb: "La piste de la somme avance d'un pas."
  reach_of: "Jusqu'où va la piste d'une somme."
  limited: "Si les pistes ont une limite."
  best: "Le plus de pas des pistes d'un joueur."
  goal_reached: "Un joueur dont une piste atteint le but gagne."
  parameters.cap: "Le plus de pas qu'une piste peut faire ; aucune pour pas de limite."
  parameters.goal: "Les pas qui font gagner."
citations:
  "house rules: Rolling": "règles maison : Lancer"
""",
    "variants/capped/glossary/fr.yaml": """
language: fr
texts:
  variants.capped.title: "Pistes limitées"
  variants.capped.text: "Aucune piste ne fait plus de trois pas."
""",
}

SCENARIOS = """
scenarios:
  - title: Four dice split two ways and the player climbs one pairing
    cite: "house rules: Rolling"
    players: 2
    setup:
      current: p1
      rolls: {d6: [1, 2, 3, 4]}
    steps:
      - do: roll
      - expect:
          pending: {player: p1, kind: choose, options: [[3, 7], [4, 6]]}
      - choose: [4, 6]
    expect:
      props:
        lane4.p1: {steps: 1}
        lane6.p1: {steps: 1}
      functions:
        - {function: reach_of, args: [3], value: 4}
"""


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    """``rules/sums`` with its worked examples in ``seeds/sums`` beside it."""
    top = tmp_path_factory.mktemp("designer")
    for folder in ("glossary", "variants/capped/glossary"):
        (top / "rules" / "sums" / folder).mkdir(parents=True, exist_ok=True)
    folder = write_ruleset(top / "rules" / "sums", SUMS)
    write_ruleset(top / "seeds" / "sums", {"play.yaml": SCENARIOS})
    return folder


@pytest.fixture(scope="module")
def sites(root):
    return {lang: collect(root, lang) for lang in ("en", "fr")}


@pytest.fixture(scope="module")
def rs(root):
    return load_checked(root)


def pages(site) -> str:
    return "\n".join(text for page, text in site.pages.items() if page != "print.md")


# ---------------------------------------------------------------- B2: options that are lists
@pytest.mark.parametrize("lang, waits, chosen", [
    ("en", "The game waits for player 1 to choose: (3, 7), (4, 6).", "The choice falls on (4, 6)."),
    ("fr", "La partie attend que le joueur 1 fasse un choix : (3, 7), (4, 6).", "Le choix se porte sur (4, 6)."),
])
def test_a_worked_example_says_each_option_that_is_a_list_as_one(sites, lang, waits, chosen):
    example = sites[lang].pages["examples/play.md"]
    assert waits in example, example
    assert chosen in example, example
    assert "3, 7, 4, 6" not in example


def test_the_site_brackets_the_label_the_screens_give_such_an_option(sites, rs):
    """The play screens label the option [3, 7] "3, 7"; the site says that label, as one."""
    label = Words(rs).option([3, 7])["label"]
    assert label == "3, 7"
    assert f"({label}), (4, 6)" in sites["en"].pages["examples/play.md"]


def test_options_of_one_value_and_of_two_are_told_apart(rs):
    from rulecraft.docgen.narration import Narrator
    from rulecraft.docgen.prose import Prose

    tell = Narrator(rs, Prose(rs, "en", markdown=True), "en")
    assert tell.outcome({"pending": {"kind": "choose", "options": [[2], [4, 5]]}}) == [
        "The game waits for a player to choose: (2), (4, 5)."]
    # a flat list stays a list of values, and a step choosing one of them says it plainly
    assert tell.thing([2, 4, 5]) == "2, 4, 5"
    assert tell.step({"choose": 5}) == ["The choice falls on 5."]
    assert tell.outcome({"legal": [{"choose": [4, 5]}]}) == ["Choosing (4, 5) is allowed."]


# ---------------------------------------------------------------- B3: no Python value on a page
@pytest.mark.parametrize("lang, none", [("en", "none"), ("fr", "aucune")])
def test_a_parameter_without_a_value_reads_as_none_in_the_pages_language(sites, lang, none):
    site = sites[lang]
    every = pages(site)
    assert not re.search(r"\bNone\b", every), [line for line in every.splitlines() if "None" in line]
    overview = site.pages["index.md"]
    row = next(line for line in overview.splitlines() if line.startswith(("| cap", "| limite")))
    assert row.endswith(f"| {none} |"), row
    variant = site.pages["variants/capped.md"]
    assert re.search(rf"\| (cap|limite) \| {none} \| 3 \|", variant), variant


@pytest.mark.parametrize("lang, said", [("en", "the cap (none)"), ("fr", "la limite (aucune)")])
def test_the_rules_prose_says_a_parameter_without_a_value_in_words(sites, lang, said):
    page = sites[lang].pages["rules/play.md"]
    assert said in page, page
    assert "(None)" not in page


def test_a_component_property_a_variant_or_a_table_holds_reads_in_words(rs):
    from rulecraft.docgen.catalogue import catalogue
    from rulecraft.docgen.pages import SiteWriter
    from rulecraft.docgen.prose import Prose

    for lang, none, yes in (("en", "none", "yes"), ("fr", "aucun", "oui")):
        writer = SiteWriter(rs, catalogue(rs, None), Prose(rs, lang, markdown=True), lang, [], [])
        assert writer.value(None) == none
        assert writer.value(True) == yes
        assert writer.value([1, 2.0]) == "1, 2"
        assert writer.value([]) == none


# ---------------------------------------------------------------- G4: the data tables
@pytest.mark.parametrize("lang, title, read_by, rule", [
    ("en", "### Reach {#table-reach}", "**Read by:** [Reach of](rules/play.md#reach_of)",
     "**Table it reads:** [Reach](../index.md#table-reach)"),
    ("fr", "### Portée {#table-reach}", "**Règles qui s'en servent\u00a0:** [Portée d'une somme](rules/play.md#reach_of)",
     "**Table consultée\u00a0:** [Portée](../index.md#table-reach)"),
])
def test_each_table_is_on_the_overview_and_the_rules_reading_it_link_to_it(sites, lang, title, read_by, rule):
    site = sites[lang]
    overview = site.pages["index.md"]
    assert title in overview, overview
    section = overview.split(title, 1)[1]
    for key, value in ((2, 3), (3, 4), (4, 5)):
        assert f"| {key} | {value} |" in section
    assert read_by in section, section
    assert rule in site.pages["rules/play.md"], site.pages["rules/play.md"]


def test_the_site_with_its_tables_builds_strictly(sites, tmp_path):
    """Every link to a table resolves, on its page and on the page to print."""
    config = write(sites["en"], tmp_path / "site")
    done = mkdocs(config, "build", "--strict")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "#table-reach" in sites["en"].pages["print.md"]


# ---------------------------------------------------------------- B4: the terminal
def test_y_shows_every_own_thing_with_what_it_shows(rs):
    game = Game(rs, 2, 1)
    view = game.view("p1")
    for lang, head, line, title in (("en", "Lanes (7):", "  lane5.p1 (sum 5, steps 0)", "All your things (p1)"),
                                    ("fr", "Pistes (7)\u00a0:", "  piste 5 p1 (somme 5, 0 pas)", "Toutes vos affaires (p1)")):
        screen = Screens(rs, Words(rs, lang), lang)
        shown = screen.yours(view)
        assert shown[0].startswith(title), shown
        assert head in shown and line in shown, shown
        assert len(shown) <= 23 and all(len(x) <= 80 for x in shown)
        assert screen.yours(view, 2) is None


def test_the_main_screen_says_y_shows_what_it_cut_to_names(rs):
    game = Game(rs, 2, 1)
    view = game.view("p1")
    screen = Screens(rs, Words(rs))
    screen.words.know_view(view)
    mine = screen._me(view)
    assert mine[0].startswith("Lanes (7): lane2.p1, lane3.p1,") and "(sum" not in " ".join(mine), mine
    assert mine[-1] == "(y shows all your things in full)"


def test_m_without_a_board_says_so_and_lists_the_things_in_no_zone(rs):
    view = Game(rs, 2, 1).view("p1")
    shown = Screens(rs, Words(rs)).whole_map(view)
    assert shown == ["This game has no board; t shows what lies on the table.", "In no pile:", "  banner: height 2"]
    fr = Screens(rs, Words(rs, "fr"), "fr").whole_map(view)
    assert fr[0] == "Ce jeu n'a pas de plateau ; t montre ce qui est sur la table.", fr


def test_playing_without_a_board_m_y_and_the_help(screens, root):  # noqa: F811
    code, shown = screens(root, ["", "m", "y", "?", "q"], "--players", 2, "--human", "p1", "--seed", 5)
    assert code == 0
    assert_fits(shown)
    out = "".join(shown)
    assert "This game has no board" in out and "The whole board" not in out
    assert "lane2.p1 (sum 2, steps 0)" in out
    assert "  y, yours    all your things" in out
    assert "is not an option" not in out
    assert all(len(line) <= 80 for lang in ("en", "fr") for line in TERMINAL[lang]["help"])


# ---------------------------------------------------------------- G7: rolls told together
def rolled(*values, die="d6"):
    return [{"type": "rolled", "die": die, "value": v} for v in values]


@pytest.mark.parametrize("lang, glossary, said", [
    ("en", False, "The d6 dice show 3, 5, 2 and 6."),
    ("fr", False, "Les dés d6 donnent 3, 5, 2 et 6."),
    ("fr", True, "Les dés blancs donnent 3, 5, 2 et 6."),
])
def test_rolls_of_one_die_that_follow_each_other_are_one_sentence(rs, tmp_path, lang, glossary, said):
    ruleset = rs if glossary else load_checked(write_ruleset(tmp_path / "bare", {
        k: v for k, v in SUMS.items() if not k.startswith(("glossary", "variants"))}))
    told = Words(ruleset, lang).tell(rolled(3, 5, 2, 6))
    assert told == ["", "", "", said]


def test_another_die_or_event_parts_the_rolls_and_one_roll_reads_as_before(rs):
    words = Words(rs)
    assert words.tell(rolled(4)) == ["The d6 die shows 4."]
    told = words.tell(rolled(1, 2) + rolled(6, die="d8") + [{"type": "round_started", "round": 2}] + rolled(3, 4))
    assert [t for t in told if t] == ["The d6 dice show 1 and 2.", "The d8 die shows 6.", "Round 2 begins.",
                                      "The d6 dice show 3 and 4."]
    # a rule's own event of the same name, with fields of its own, is told as it was
    own = {"type": "rolled", "player": "p1", "face": 4}
    assert words.tell(rolled(2) + [own])[0] == "The d6 die shows 2."


def test_the_terminal_tells_a_roll_of_four_dice_in_one_line(rs):
    game = Game(rs, 2, 5)
    game.choose(0)  # p1 rolls
    view = game.view("p1")
    screen = Screens(rs, Words(rs))
    lines = [text for text, _ in screen.main(view, view["events"], 0, 0)[0]]
    rolls = [t for t in lines if " d6 " in t]
    assert len(rolls) == 1 and re.fullmatch(r"The d6 dice show \d, \d, \d and \d\.", rolls[0]), lines
    history = screen.history(view["events"], 1)
    assert "" not in history[1:] and sum(" d6 " in t for t in history) == 1, history


def test_the_browser_view_tells_the_same_one_sentence(rs):
    """The browser table gets the events told by the same words: the rolls one sentence,
    the others "" (the page shows no empty event, and still counts them: events_from)."""
    pytest.importorskip("starlette")
    from rulecraft.server.store import StoredGame
    from rulecraft.server.tables import HUMAN, Table

    table = Table(StoredGame("g", "sums", None, 2, 5, {"p1": HUMAN, "p2": HUMAN}, {}, []), rs)
    table.game.choose(0)  # p1 rolls
    message = table.view_message("p1")
    told = [t for t in message["events"] if " d6 " in t]
    assert len(told) == 1 and re.fullmatch(r"The d6 dice show \d, \d, \d and \d\.", told[0]), message["events"]
    assert len(message["events"]) == len(table.game.view("p1")["events"])
    script = (Path(__file__).resolve().parent.parent / "server" / "static" / "table.js").read_text(encoding="utf-8")
    assert "v.events.filter((e) => e)" in script
