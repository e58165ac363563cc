"""A small sealed-offer game for the tests of tests/test_site_auction_*.py: each player
secretly offers part of a purse they alone see; the offers are then shown. It has what a
designer's sealed-bid game had that its rules site read badly: a list indexed by the round,
two loops over players in one rule, events with phrases, a word used only in the plural,
hidden zones, properties and variables. No real game's words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from engine_rulesets import build

from rulecraft.docgen.glossary import check_glossaries
from rulecraft.docgen.prose import Prose, phrases

GAME = """
game:
  name: sealed_offers
  title: Sealed offers
  players: {min: 2, max: 4}
  setup: setup
  round: round
  round_limit: 5
kinds:
  player:
    properties:
      gems: {type: number, default: 0, visible_to: owner}
      pledge: {type: number, default: 0, visible_to: owner}
  token:
    properties:
      holder: player
      worth: {type: number, values: [1, 2, 3]}
      mark: {type: number, default: 0, visible_to: owner}
    owner: holder
  plain:
    properties:
      weight: {type: number, default: 0, visible_to: nobody}
zones:
  pool: {visible_to: nobody, holds: token}
  line: {holds: token}
  stash: {per_player: true, visible_to: owner, holds: token, top_visible: true}
  heap: {holds: plain}
components:
  - {name: "t_{worth}", kind: token, zone: pool, each: {worth: [1, 2, 3]}}
variables:
  game:
    first: {type: "player?", default: null}
    secret: {type: number, default: 0, visible_to: nobody}
"""

RULES = """
procedure setup():
    do:
        shuffle pool
        for each p in players:
            set p.gems = 5

procedure round():
    do:
        set game.first = players[(round_number - 1) % count(players)]
        for each p in players:
            offer(p)
        settle(game.first, 2)
        if count(contents(pool)) == 0:
            for each p in players:
                reveal p.gems

function first_seat() -> player:
    = players[0]

function seat_number(n: number) -> player:
    = players[n - 1]

procedure offer(p: player):
    do:
        choose amount from numbers(0, p.gems) by p
        set p.pledge = amount
        emit pledged(player: p)
        emit shown(player: p, amount: p.pledge)
        emit noted(who: p)

procedure settle(p: player, k: number):
    do:
        repeat 1 times:
            set p.gems -= p.pledge

function richest(p: player) -> bool:
    = p.gems == max([q.gems for q in players])

function lead(p: player) -> number:
    = p.gems - max([q.gems for q in players where q != p])

function leaders() -> list of player:
    = [p for p in players with highest p.gems + p.pledge]

function ready_ones() -> list of player:
    = [p for p in players where p.pledge > 0]

function heavy_ones() -> list of token:
    = [t for t in token where t.worth > 1]

heuristic judge(me: player):
    feature "gems" weight 1: me.gems

heuristic judge_more(me: player):
    feature "gems" weight 1: me.gems
    feature "pledge" weight 1: me.pledge
"""

GLOSSARY_EN = """
language: en
kinds:
  player: player
  token: {one: token, called: "token {worth}"}
  plain: plain piece
properties:
  player.gems: {one: gems, gender: p}
  player.pledge: pledge
  token.holder: holder
  token.worth: worth
  token.mark: mark
  plain.weight: weight
zones:
  pool: pool
  line: line
  stash: stash
  heap: heap
variables:
  game.first: first player
  game.secret: secret number
events:
  pledged: {one: a pledge is made, say: "{player} makes a pledge"}
  shown: {one: a pledge is shown, say: "{player} pledged {amount}"}
  noted: {one: a note is made}
fields:
  player: player
  amount: amount
  who: player
names:
  p: player
  amount: amount pledged
  n: number
  k: count
  t: token
  me: me
definitions:
  offer: {one: Offer, say: "{p} makes an offer"}
  settle: {one: Settle, say: "{p} settles"}
  richest: {one: Richest, say: "{p} has the most gems"}
  lead: {one: Lead, say: "the lead of {p}"}
  first_seat: {one: First seat, say: "the first seat"}
  seat_number: {one: Seat number, say: "the seat numbered {n}"}
  leaders: {one: Leaders, say: "the leaders"}
  ready_ones: {one: Ready ones, say: "the ready players"}
  heavy_ones: {one: Heavy ones, say: "the heavy tokens"}
  setup: Set up
  round: Play a round
  judge: Judge
  judge_more: Judge more
"""

SCENARIOS = """
scenarios:
  - title: Every player starts with five gems
    cite: "house: Setup"
    players: 2
    expect:
      props: {player: {gems: 5}, p1: {pledge: 0}}
      pending: {player: p1, kind: choose, count: 6}
  - title: An offer is sealed
    cite: "house: Offers"
    players: 2
    setup:
      props: {p1: {gems: 0}}
    expect:
      pending: {player: p2, kind: choose, count: 6}
  - title: The purses are shown
    cite: "house: Offers"
    players: 2
    steps:
      - {choose: 1, by: p1}
    expect:
      events: [{type: pledged, player: p1}]
      no_events: [{type: revealed, entity: p1, property: gems, players: [p1, p2]}]
"""


def ruleset_files(glossary: str | None = GLOSSARY_EN, fr: str | None = None, scenarios: str | None = None,
                  game: str = GAME) -> dict:
    files = {"game.yaml": game, "play.rules": RULES}
    if glossary is not None:
        files["glossary/en.yaml"] = glossary
    if fr is not None:
        files["glossary/fr.yaml"] = fr
    if scenarios is not None:
        files["scenarios/offers.yaml"] = scenarios
        files["scenarios/sections.yaml"] = "source: house\nsections: [Setup, Offers]\n"
    return files


def sealed(tmp_path: Path, glossary: str | None = GLOSSARY_EN, fr: str | None = None,
           scenarios: str | None = None, name: str = "ruleset", game: str = GAME):
    """The rule set, written under ``tmp_path / name`` and loaded."""
    files = ruleset_files(glossary, fr, scenarios, game)
    for sub in {Path(f).parent for f in files if "/" in f}:
        (tmp_path / name / sub).mkdir(parents=True, exist_ok=True)
    return build(tmp_path, files, name)


GLOSSARY_FR = """
language: fr
kinds:
  player: joueur
  token: {one: jeton, called: "jeton {worth}"}
  plain: {one: pièce simple, gender: f}
properties:
  player.gems: {one: gemmes, gender: fp}
  player.pledge: {one: promesse, gender: f}
  token.holder: détenteur
  token.worth: valeur
  token.mark: marque
  plain.weight: poids
zones:
  pool: {one: réserve, gender: f}
  line: {one: ligne, gender: f}
  stash: {one: cachette, gender: f}
  heap: tas
variables:
  game.first: premier joueur
  game.secret: {one: nombre secret}
events:
  pledged: {one: une promesse est faite, say: "{player} fait une promesse"}
  shown: {one: une promesse est montrée, say: "{player} a promis {amount}"}
  noted: {one: une note est prise}
fields:
  player: joueur
  amount: montant
  who: joueur
names:
  p: joueur
  amount: montant promis
  n: nombre
  k: compte
  t: jeton
  me: moi
definitions:
  offer: {one: Offrir, say: "{p} fait une offre"}
  settle: {one: Régler, say: "{p} règle"}
  richest: {one: Le plus riche, say: "{p} a le plus de gemmes"}
  lead: {one: Avance, say: "l'avance de {p}"}
  first_seat: {one: Première place, say: "la première place"}
  seat_number: {one: Place numérotée, say: "la place numéro {n}"}
  leaders: {one: Meneurs, say: "les meneurs"}
  ready_ones: {one: Prêts, say: "les joueurs prêts"}
  heavy_ones: {one: Lourds, say: "les jetons lourds"}
  setup: Mise en place
  round: Jouer une manche
  judge: Juger
  judge_more: Juger davantage
citations:
  "house: Setup": "maison : Mise en place"
  "house: Offers": "maison : Offres"
"""


@pytest.fixture
def offers(tmp_path):
    return sealed(tmp_path, fr=GLOSSARY_FR)


# ---------------------------------------------------------------- (d2) an item of a list


def test_an_item_of_a_list_reads_as_the_item_at_its_position(offers):
    en, fr = Prose(offers, "en"), Prose(offers, "fr")
    # an index computed by the rules: counted from 0, as the rules count, and bracketed
    assert ("Set the first player to the player at position (the remainder of (the round number minus 1) divided "
            "by the number of the players) among the players, counting from 0.") in en.definition("round")
    assert "item the remainder" not in en.definition("round")
    # a number, or `n - 1`: the position a reader counts, from 1
    assert en.definition("first_seat") == "The first seat is the player at position 1 among the players.\n"
    assert "is the player at position the number among the players." in en.definition("seat_number")
    assert ("le premier joueur devient le joueur à la position (le reste de (le numéro de la manche moins 1) divisé "
            "par le nombre des joueurs) parmi les joueurs, en comptant depuis 0.") in fr.definition("round").lower()
    assert "est le joueur à la position 1 parmi les joueurs." in fr.definition("first_seat")


# ---------------------------------------------------------------- (d3) counts of one


def test_a_count_of_one_reads_in_the_singular(offers):
    en, fr = Prose(offers, "en"), Prose(offers, "fr")
    assert en.summary("judge") == "How a position looks to a seat: one weighted term, for bots."
    assert en.summary("judge_more") == "How a position looks to a seat: 2 weighted terms, for bots."
    assert fr.summary("judge") == "Comment une position paraît à une place : un terme pondéré, pour les robots."
    assert "- Repeat once:" in en.definition("settle") and "- Répétez une fois :" in fr.definition("settle")


def test_every_count_phrase_of_the_phrase_files_has_its_singular():
    # the templates that write a number before a plural noun ("{count} weighted terms") each
    # have a "_one" form; the others count with a word that agrees by itself
    for lang in ("en", "fr"):
        table = phrases(lang)
        for section in ("definitions", "statements", "builtins"):
            for key, template in table[section].items():
                if not isinstance(template, str) or key.endswith("_one"):
                    continue
                if re.search(r"\{(count|within|0|1|2)\} (weighted|preferences|actions|termes|préférences|espaces?"
                             r"|spaces|steps|fois|times)\b", template) and "summary_procedure" not in key:
                    assert f"{key}_one" in table[section], (lang, section, key)


# ---------------------------------------------------------------- (d4) two names of one kind


def test_a_list_over_the_kind_of_an_outer_name_reads_every_and_every_other(offers):
    en, fr = Prose(offers, "en"), Prose(offers, "fr")
    assert en.definition("richest") == ("The player has the most gems when the gems of the player are the largest of "
                                        "the gems of every player.\n")
    # `where q != p`: every other player, exactly what the condition says
    assert en.definition("lead") == ("The lead of the player is the gems of the player minus the largest of the gems "
                                     "of every other player.\n")
    assert "that player" not in en.definition("richest") + en.definition("lead")
    assert "le plus grand des gemmes de chaque joueur" in fr.definition("richest")
    assert "le plus grand des gemmes de chaque autre joueur" in fr.definition("lead")


def test_a_glossary_word_for_a_loop_name_wins_over_its_kind(tmp_path):
    glossary = GLOSSARY_EN.replace("  p: player\n", "  p: player\n  q: rival player\n")
    en = Prose(sealed(tmp_path, glossary=glossary), "en")
    # the designer's own word: no longer silently replaced by the kind's
    assert "the largest of the gems of the rival player for each rival player" in en.definition("richest")
    assert "for each rival player for whom the rival player is not the player" in en.definition("lead")


def test_a_definition_s_own_word_for_a_loop_name_always_wins(tmp_path):
    glossary = GLOSSARY_EN.replace("  p: player\n", "  p: player\n  richest.q: opponent\n")
    en = Prose(sealed(tmp_path, glossary=glossary), "en")
    assert "the largest of the gems of the opponent for each opponent" in en.definition("richest")
    assert "of every other player" in en.definition("lead")  # richest.q words richest alone


def test_a_plain_word_naming_other_things_does_not_rename_a_loop_over_a_kind(tmp_path):
    # `t: token` is written for the loops over tokens; a plain entry saying nothing of the
    # kind (`q: winner` for a loop over players) would call every player "the winner"
    glossary = GLOSSARY_EN.replace("  p: player\n", "  p: player\n  q: winner\n")
    en = Prose(sealed(tmp_path, glossary=glossary), "en")
    assert "the gems of every player" in en.definition("richest")


def test_check_reports_a_names_entry_it_never_uses(tmp_path):
    glossary = GLOSSARY_EN.replace("  p: player\n", "  p: player\n  q: winner\n")
    text = "\n".join(d.message + " " + (d.hint or "") for d in check_glossaries(sealed(tmp_path, glossary=glossary)))
    assert "the en glossary entry 'q' under 'names' is never used" in text
    assert "lead, richest" in text and "write 'richest.q: winner'" in text
    # an entry every definition using the name replaces with its own
    shadowed = GLOSSARY_EN.replace("  p: player\n", "  p: player\n  q: rival\n  richest.q: opponent\n"
                                   "  lead.q: opponent\n")
    text = "\n".join(d.message for d in check_glossaries(sealed(tmp_path, glossary=shadowed, name="shadowed")))
    assert "the en glossary entry 'q' under 'names' is never used: every definition using 'q' (richest, lead) " \
           "has an entry of its own" in text
    # a word the renderer reads is no warning
    fine = GLOSSARY_EN.replace("  p: player\n", "  p: player\n  q: other player\n")
    assert "'q' under 'names'" not in "\n".join(
        d.message for d in check_glossaries(sealed(tmp_path, glossary=fine, name="fine")))


# ---------------------------------------------------------------- (d6, d7) events and parameters


def test_an_emit_reads_with_the_event_s_phrase_and_a_procedure_does_not_repeat_its_parameters(offers):
    en, fr = Prose(offers, "en"), Prose(offers, "fr")
    offer = en.definition("offer")
    assert offer.startswith("The player makes an offer.\n")  # its phrase names the player: no "Takes the player."
    assert "- Announce: the player makes a pledge." in offer
    assert "- Announce: the player pledged the pledge of the player." in offer
    # an event without a phrase keeps its word and fields, never "(the player: the player)"
    assert "- Announce: a note is made (the player)." in offer
    assert "(the player: the player)" not in offer
    # a parameter its phrase does not name is still said
    assert en.definition("settle").startswith("The player settles. Takes the count.\n")
    assert "Annoncez : le joueur fait une promesse." in fr.definition("offer")
    assert fr.definition("offer").startswith("Le joueur fait une offre.\n")


# ---------------------------------------------------------------- (d9) persons


def test_a_list_of_players_is_said_with_for_whom(offers):
    en = Prose(offers, "en")
    assert en.definition("leaders") == ("The leaders are the players for whom the gems of the player plus the pledge "
                                        "of the player is the highest.\n")
    assert en.definition("ready_ones") == "The ready players are all players for whom the pledge of the player is more than 0.\n"
    # things are still "for which"
    assert en.definition("heavy_ones") == "The heavy tokens are all tokens for which the worth of the token is more than 1.\n"
