"""Rule text rendered from the syntax tree: every node kind, in English and in French.

A tiny rule set uses every expression and statement of the language once; its
glossaries give the words, so each expected sentence below is what a reader sees.
Panic Station's definitions must all render in both languages from its glossaries.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine_rulesets import build, game_yaml, write_ruleset

from rulecraft.docgen.glossary import walk
from rulecraft.docgen.prose import Prose, UnrenderableNode
from rulecraft.dsl import ast
from rulecraft.dsl.loader import load_checked
from rulecraft.dsl.variants import available_variants

DATA = """
kinds:
  player:
    properties:
      gold: {type: number, default: 0, resource: {max: 9}}
      ready: {type: bool, default: false}
  token:
    located_in: zone
    properties:
      worth: {type: number, default: 1}
zones:
  bag: {holds: token}
  pile: {}
  purse: {per_player: true}
components:
  - {name: coin, kind: token, count: 3, zone: bag}
  - {name: crown, kind: token, zone: bag, effect: crowned}
dice:
  d6: [1, 2, 3, 4, 5, 6]
tables:
  bonus: {1: 0, 2: 1}
parameters:
  limit_gold: {value: 9}
variables:
  game:
    over: {type: bool, default: false}
  turn:
    spent: {type: number, default: 0}
"""

RULES = """
procedure setup():
    do:
        shuffle bag
        for each p in players:
            move top(bag) to purse(p)

procedure round():
    do:
        for each p in players:
            play_turn(p)

function rich(p: player) -> bool:
    = p.gold >= limit_gold or not p.ready

function steady(p: player) -> bool:
    = not (p.gold < 2) and not (p == current_player) and not (p in [])

function worth_of(p: player) -> number:
    = sum([t.worth for t in contents(purse(p)) where t.worth > 0])

action take:
    with t: token in contents(bag) where t.worth != 0
    require count(contents(bag)) > 0 else "empty"
    cost 2 gold
    limit 1 per turn
    limit 3 per game as grab
    do:
        let face = roll(d6)
        move t to purse(current_player)
        if face == 6:
            set current_player.gold += bonus[face]
        elif face < 3:
            set current_player.gold -= 1
        else:
            set current_player.ready = true
        set turn.spent = -face * 2 // 3 % 4
        emit taken(token: t) to current_player
        emit noted()

procedure pay(p: player, amount: number):
    do:
        repeat amount times:
            let t = top(purse(p))
            if t == none:
                stop
            move t to bottom of pile
        choose w from [1, 2] by p
        choose v from players
        move crown to top of bag
        let who = random(players)
        set game.over = rich(p) and worth_of(p) + 1 - 2 <= 3 and [1][0] in [1, 2] and who not in []
        let s = 1 if p.ready else 2
        let l = [p.id for p in players]
        let spot = crown.at
        for each x in players:
            break
        window ask(asker: p) as answer
        gain 2 gold of p
        spend amount gold of p
        reset gold of p
        reset gold of p to 1
        reveal crown to p
        hide crown
        reveal p.ready
        hide p.ready from p
        run effect of crown
        end_game(players, "done")

procedure crowned(t: token):
    do:
        set t.worth = 2

trigger on_taken:
    on taken
    when event.token != none and steady(current_player)
    do:
        pay(current_player, 1)

reaction refuse:
    on ask
    by event.asker
    with k: token in contents(purse(event.asker))
    require k.worth > 0
    do:
        move k to bag

victory hoard:
    when any([rich(p) for p in players])
    winners [p for p in players where rich(p)]
"""

GLOSSARY_EN = """
language: en
kinds:
  player: player
  token: token
properties:
  player.gold: {one: gold coin, many: gold coins, gender: p}
  player.ready: {one: readiness, say: "{obj} is ready"}
  token.worth: worth
zones:
  bag: bag
  pile: pile
  purse: purse
components:
  coin: coin
  crown: crown
parameters:
  limit_gold: gold limit
tables:
  bonus: bonus
dice:
  d6: die
variables:
  game.over: {one: end, say: "the game is over"}
  turn.spent: amount spent
definitions:
  setup: {one: Setup, say: "set up"}
  round: {one: Round, say: "play a round"}
  rich: {one: Rich, say: "{p} is rich"}
  steady: {one: Steady, say: "{p} is steady"}
  worth_of: {one: Worth, say: "the worth of {p}"}
  take: Take a token
  pay: {one: Pay, say: "{p} pays {amount}"}
  crowned: {one: Crowned, say: "{t} is crowned"}
  on_taken: After taking
  refuse: Refuse
  hoard: Hoard
events:
  taken: a token is taken
  noted: a note is made
  ask: a question is asked
fields:
  token: token
  asker: asker
groups:
  grab: grabbing
values:
  done: "“done”"
names:
  p: player
  t: token
  face: roll
  w: choice
  v: voter
  who: chosen player
  s: size
  l: {one: names, gender: p}
  spot: place
  answer: answer
  amount: amount
  k: {one: token, elide: true}
"""

GLOSSARY_FR = """
language: fr
kinds:
  player: joueur
  token: {one: jeton}
properties:
  player.gold: {one: pièce d'or, many: pièces d'or, gender: p}
  player.ready: {one: préparation, gender: f, say: "{obj} est prêt"}
  token.worth: {one: valeur, gender: f}
zones:
  bag: sac
  pile: {one: pile, gender: f}
  purse: {one: bourse, gender: f}
components:
  coin: {one: pièce, gender: f}
  crown: {one: couronne, gender: f}
parameters:
  limit_gold: {one: limite d'or, gender: f}
tables:
  bonus: bonus
dice:
  d6: dé
variables:
  game.over: {one: fin, gender: f, say: "la partie est finie"}
  turn.spent: montant dépensé
definitions:
  setup: {one: Mise en place, say: "faites la mise en place"}
  round: {one: Tour, say: "jouez un tour"}
  rich: {one: Riche, say: "{p} est riche"}
  steady: {one: Stable, say: "{p} est stable"}
  worth_of: {one: Valeur, say: "la valeur de {p}"}
  take: Prendre un jeton
  pay: {one: Payer, say: "{p} paie {amount}"}
  crowned: {one: Couronné, say: "{t} est couronné"}
  on_taken: Après une prise
  refuse: Refuser
  hoard: Thésauriser
events:
  taken: un jeton est pris
  noted: une note est prise
  ask: une question est posée
fields:
  token: jeton
  asker: {one: demandeur}
groups:
  grab: la prise
values:
  done: "« fini »"
names:
  p: joueur
  t: jeton
  face: résultat
  w: choix
  v: votant
  who: joueur tiré
  s: {one: taille, gender: f}
  l: {one: noms, gender: p}
  spot: endroit
  answer: {one: réponse, gender: f}
  amount: montant
  k: {one: jeton}
"""


def tiny_ruleset(tmp_path: Path, glossaries: dict[str, str] | None = None):
    folder = write_ruleset(tmp_path / "tiny", {"game.yaml": game_yaml() + DATA, "main.rules": RULES})
    glossaries = {"en": GLOSSARY_EN, "fr": GLOSSARY_FR} if glossaries is None else glossaries
    (folder / "glossary").mkdir()
    for lang, text in glossaries.items():
        (folder / "glossary" / f"{lang}.yaml").write_text(text.lstrip(), encoding="utf-8")
    return load_checked(folder)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return tiny_ruleset(tmp_path_factory.mktemp("prose"))


def subclasses(base: type) -> set[type]:
    """The node kinds of the language (those of this file's own tests left out)."""
    found = set()
    for sub in base.__subclasses__():
        found |= {sub} | subclasses(sub)
    return {c for c in found if c.__module__ == ast.__name__}


def test_the_tiny_rule_set_uses_every_node_kind(tiny):
    used = {type(n) for d in tiny.definitions.values() for n in walk(d)}
    assert subclasses(ast.Expr) - used == set()
    assert subclasses(ast.Stmt) - used == set()
    assert {d.kind for d in tiny.definitions.values()} == {"action", "procedure", "function", "trigger", "victory",
                                                           "reaction"}


ENGLISH = {
    "setup": ["Set up.", "- Shuffle the bag.", "- For each player:",
              "    - Move the top token of the bag to the purse of the player."],
    "round": ["    - The player plays a turn."],
    "rich": ["The player is rich when the gold coins of the player are at least the gold limit (9) or it is not the case "
             "that the player is ready."],
    "worth_of": ["The worth of the player is the total of the worth of the token for each token among the things in "
                 "the purse of the player for which the worth of the token is more than 0."],
    "take": ["Choose the token: a token among the tokens in the bag, such that the worth of the token is not 0. "
             "Only when the number of tokens in the bag is more than 0. Costs 2 gold coins. Once per turn. "
             "At most 3 times per game for all the actions of grabbing together.",
             "Then:",
             "- Roll the die; the roll is what it shows.",
             "- Move the token to the purse of the current player.",
             "- If the roll is 6:",
             "    - Add the bonus for the roll to the gold coins of the current player.",
             "- Otherwise, if the roll is less than 3:",
             "    - Subtract 1 from the gold coins of the current player.",
             "- Otherwise:",
             "    - From now on, the current player is ready.",
             "- Set the amount spent to the remainder of ((minus the roll times 2) divided by 3, rounded down) "
             "divided by 4.",
             "- Announce to the current player only: a token is taken (the token).",
             "- Announce: a note is made."],
    "pay": ["The player pays the amount.",
            "- Repeat as many times as the amount:",
            "    - Let the token be the top thing of the purse of the player.",
            "    - If the token is missing:",
            "        - Stop here.",
            "    - Put the token at the bottom of the pile.",
            "- The player chooses the choice among 1 and 2.",
            "- The current player chooses the voter among the players.",
            "- Put the crown on top of the bag.",
            "- Pick one of the players at random; let the chosen player be that one.",
            "- From now on, the game is over exactly when the player is rich and (the worth of the player plus 1) "
            "minus 2 is at most 3 and the thing at position 1 among 1 is 1 or 2 and the chosen player is not "
            "among nothing.",
            "- Let the size be 1 if the player is ready, otherwise 2.",
            "- Let the names be the name of the player for each player.",
            "- Let the place be the place of the crown.",
            "    - Leave the loop.",
            "- Open a reaction window, a question is asked (the asker: the player); when it closes, call its record "
            "the answer.",
            "- Add 2 to the gold coins of the player, to no more than 9.",
            "- Take the amount from the gold coins of the player, not below 0.",
            "- Reset the gold coins of the player.",
            "- Reset the gold coins of the player to 1.",
            "- Show the crown to the player as well.",
            "- Hide the crown again from everyone it was shown to.",
            "- Show the readiness of the player to every player.",
            "- Hide the readiness of the player again from the player.",
            "- Carry out the effect of the crown.",
            "- The game ends; the winners are the players (“done”)."],
    "on_taken": ["When a token is taken, if the token of the event exists and the current player is steady:", "- The current player pays 1."],
    "refuse": ["While the reaction window “a question is asked” is open, the asker of the event may react. "
               "Choose the token: a token among the things in the purse of the asker of the event. "
               "Only when the worth of the token is more than 0.", "- Move the token to the bag."],
    "hoard": ["The game ends when for at least one player, the player is rich. The winners are "
              "all players for whom the player is rich."],
}

FRENCH = {
    "setup": ["Faites la mise en place.", "- Mélangez le sac.", "- Pour chaque joueur :",
              "    - Déplacez le jeton du dessus du sac vers la bourse du joueur."],
    "round": ["    - Le joueur joue un tour."],
    "rich": ["Le joueur est riche quand les pièces d'or du joueur sont au moins la limite d'or (9) ou il est faux "
             "que le joueur est prêt."],
    "worth_of": ["La valeur du joueur est le total de la valeur du jeton pour chaque jeton parmi les éléments de la "
                 "bourse du joueur où la valeur du jeton est supérieure à 0."],
    "take": ["Choisissez le jeton : un jeton parmi les jetons du sac, si la valeur du jeton n'est pas 0. "
             "Seulement si le nombre de jetons dans le sac est supérieur à 0. Coûte 2 pièces d'or. Une fois par "
             "tour. Au plus 3 fois par partie pour l'ensemble des actions de la prise.",
             "Ensuite :",
             "- Lancez le dé ; le résultat est ce qu'il indique.",
             "- Déplacez le jeton vers la bourse du joueur actif.",
             "- Si le résultat est 6 :",
             "    - Ajoutez le bonus pour le résultat aux pièces d'or du joueur actif.",
             "- Sinon, si le résultat est inférieur à 3 :",
             "    - Retirez 1 des pièces d'or du joueur actif.",
             "- Sinon :",
             "    - Désormais, le joueur actif est prêt.",
             "- Le montant dépensé devient le reste de ((moins le résultat fois 2) divisé par 3, arrondi à "
             "l'inférieur) divisé par 4.",
             "- Annoncez au joueur actif seulement : un jeton est pris (le jeton).",
             "- Annoncez : une note est prise."],
    "pay": ["Le joueur paie le montant.",
            "- Répétez autant de fois que le montant :",
            "    - Soit le jeton : l'élément du dessus de la bourse du joueur.",
            "    - Si le jeton manque :",
            "        - Arrêtez ici.",
            "    - Placez le jeton sous la pile.",
            "- Le joueur choisit le choix parmi 1 et 2.",
            "- Le joueur actif choisit le votant parmi les joueurs.",
            "- Placez la couronne sur le dessus du sac.",
            "- Tirez au hasard l'un des joueurs ; soit le joueur tiré : celui-ci.",
            "- Désormais, la partie est finie si et seulement si le joueur est riche et (la valeur du joueur plus 1) "
            "moins 2 est au plus 3 et l'élément à la position 1 parmi 1 est 1 ou 2 et le joueur "
            "tiré ne fait pas partie d'aucun élément.",
            "- Soit la taille : 1 si le joueur est prêt, sinon 2.",
            "- Soit les noms : le nom du joueur pour chaque joueur.",
            "- Soit l'endroit : l'emplacement de la couronne.",
            "    - Sortez de la boucle.",
            "- Ouvrez une fenêtre de réaction, une question est posée (le demandeur : le joueur) ; quand elle se "
            "ferme, appelez son relevé la réponse.",
            "- Ajoutez 2 aux pièces d'or du joueur, sans dépasser 9.",
            "- Retirez le montant des pièces d'or du joueur, sans descendre sous 0.",
            "- Remettez les pièces d'or du joueur à sa valeur de départ.",
            "- Remettez les pièces d'or du joueur à 1.",
            "- Montrez aussi la couronne au joueur.",
            "- Cachez de nouveau la couronne à tous ceux qui l'ont vu.",
            "- Montrez la préparation du joueur à tous les joueurs.",
            "- Cachez de nouveau la préparation du joueur au joueur.",
            "- La partie s'arrête ; les gagnants sont les joueurs (« fini »)."],
    "on_taken": ["Quand un jeton est pris, si le jeton de l'événement existe et le joueur actif est stable :", "- Le joueur actif paie 1."],
    "refuse": ["Tant que la fenêtre de réaction « une question est posée » est ouverte, le demandeur de l'événement "
               "peut réagir. Choisissez le jeton : un jeton parmi les éléments de la bourse du demandeur de "
               "l'événement. Seulement si la valeur du jeton est supérieure à 0.", "- Déplacez le jeton vers le sac."],
    "hoard": ["La partie s'arrête quand pour au moins un joueur, le joueur est riche. Les gagnants "
              "sont tous les joueurs où le joueur est riche."],
}


@pytest.mark.parametrize("lang, expected", [("en", ENGLISH), ("fr", FRENCH)])
def test_each_definition_reads_as_expected(tiny, lang, expected):
    prose = Prose(tiny, lang)
    for name, lines in expected.items():
        text = prose.definition(name).splitlines()
        for line in lines:
            assert line in text, f"{lang} {name}: {line!r} not in\n" + "\n".join(text)
    assert prose.missing == set()


def test_steps_are_a_markdown_list_after_a_blank_line(tiny):
    text = Prose(tiny, "en").definition("take")
    assert "\n\nThen:\n\n- Roll the die;" in text


@pytest.mark.parametrize("lang, name, sentence", [
    ("en", "take", "An action that costs 2 gold coins."),
    ("fr", "take", "Une action qui coûte 2 pièces d'or."),
    ("en", "on_taken", "Triggered when a token is taken."),
    ("fr", "on_taken", "Se déclenche quand un jeton est pris."),
    ("fr", "hoard", "La partie s'arrête quand pour au moins un joueur, le joueur est riche."),
    ("en", "refuse", "A reaction while the window “a question is asked” is open."),
    ("en", "worth_of", "The worth of the player."),
    ("en", "rich", "True when the player is rich."),
    ("fr", "rich", "Vrai quand le joueur est riche."),
    # a procedure with parameters says what it does; one without would only restate its title
    ("en", "pay", "A procedure: the player pays the amount."),
    ("fr", "pay", "Une procédure : le joueur paie le montant."),
    ("en", "setup", "A procedure of 2 steps."),
    ("fr", "setup", "Une procédure en 2 étapes."),
])
def test_summary_is_one_sentence_without_the_title(tiny, lang, name, sentence):
    assert Prose(tiny, lang).summary(name) == sentence


@pytest.mark.parametrize("lang, sentence", [
    ("en", "The player is steady when the gold coins of the player are at least 2 and the player is not the current "
           "player and the player is not among nothing."),
    ("fr", "Le joueur est stable quand les pièces d'or du joueur sont au moins 2 et le joueur n'est pas le joueur "
           "actif et le joueur ne fait pas partie d'aucun élément."),
])
def test_a_negated_comparison_reads_as_the_opposite_comparison(tiny, lang, sentence):
    assert Prose(tiny, lang).definition("steady") == sentence + "\n"


@pytest.mark.parametrize("lang, ready, sentence", [
    ("en", '{one: readiness, say: "{obj} is ready", deny: "{obj} is not ready"}',
     "The player is rich when the gold coins of the player are at least the gold limit (9) or the player is not ready."),
    ("fr", '{one: préparation, gender: f, say: "{obj} est prêt", deny: "{obj} n\'est pas prêt"}',
     "Le joueur est riche quand les pièces d'or du joueur sont au moins la limite d'or (9) ou le joueur n'est pas "
     "prêt."),
])
def test_a_glossary_denial_replaces_the_heavy_negation(tmp_path, lang, ready, sentence):
    glossary = GLOSSARY_EN if lang == "en" else GLOSSARY_FR
    line = next(x for x in glossary.splitlines() if x.startswith("  player.ready:"))
    ruleset = tiny_ruleset(tmp_path, {lang: glossary.replace(line, f"  player.ready: {ready}")})
    prose = Prose(ruleset, lang)
    assert prose.definition("rich") == sentence + "\n"
    assert prose.missing == set()


def test_feminine_words_make_articles_and_adjectives_agree(tmp_path):
    glossary = GLOSSARY_FR.replace("  player: joueur\n", "  player: {one: personne, gender: f}\n", 1)
    glossary = glossary.replace("  p: joueur\n", "  p: {one: joueuse, gender: f}\n")
    prose = Prose(tiny_ruleset(tmp_path, {"fr": glossary}), "fr")
    # the quantifier's article, and the comparison's adjective, agree with the feminine word
    assert prose.definition("hoard").startswith(
        "La partie s'arrête quand pour au moins une personne, la personne est riche. Les gagnants sont toutes les "
        "personnes où la personne est riche.")
    assert "la valeur du jeton est supérieure à 0" in prose.definition("worth_of")


def test_terms_come_from_the_glossary(tiny):
    en, fr = Prose(tiny, "en"), Prose(tiny, "fr")
    assert en.term("kinds.token", plural=True) == "tokens"
    assert fr.term("properties.player.gold", plural=True) == "pièces d'or"
    assert fr.term("crown") == "couronne"
    assert en.term("variables.turn.spent") == "amount spent"
    assert fr.title("take") == "Prendre un jeton"
    assert en.missing == set() and fr.missing == set()


def test_a_term_missing_from_the_glossary_is_recorded(tmp_path):
    ruleset = tiny_ruleset(tmp_path, {"en": GLOSSARY_EN.replace("  bag: bag\n", "")})
    prose = Prose(ruleset, "en")
    assert "- Shuffle the bag." in prose.definition("setup")  # the name, made readable
    assert prose.missing == {("zones", "bag")}


def test_an_unknown_language_is_refused(tiny):
    with pytest.raises(ValueError, match="rulecraft has no words in 'xx' \\(it speaks en, fr\\)"):
        Prose(tiny, "xx")


@dataclass
class Mystery(ast.Expr):
    pass


@dataclass
class Riddle(ast.Stmt):
    pass


def test_an_unknown_node_kind_fails_loudly(tiny):
    prose = Prose(tiny, "en")
    with pytest.raises(UnrenderableNode, match="Mystery"):
        prose.ex(Mystery(None))
    setup = tiny.definitions["setup"]
    odd = ast.ProcedureDef(setup.pos, "odd", setup.name_pos, setup.file, body=ast.Block(setup.pos, [Riddle(None)]))
    tiny.definitions["odd"] = odd
    try:
        with pytest.raises(UnrenderableNode, match="Riddle"):
            prose.definition("odd")
    finally:
        del tiny.definitions["odd"]


# ---------------------------------------------------------------- Panic Station

PANIC_STATION = Path(__file__).resolve().parent.parent / "rules" / "panic_station"
# an identifier written as in the rules: lower case words joined by underscores
RAW_IDENTIFIER = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b")


@pytest.mark.parametrize("variant", [None] + available_variants(PANIC_STATION))
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_panic_station_definition_renders_from_the_glossary(lang, variant):
    ruleset = load_checked(PANIC_STATION, variant=variant)
    prose = Prose(ruleset, lang)
    for name in ruleset.definitions:
        text = prose.definition(name) + prose.summary(name)
        assert not RAW_IDENTIFIER.findall(text), f"{name}: {RAW_IDENTIFIER.findall(text)}"
        assert text[0].isupper()
    assert prose.missing == set()


def test_panic_station_speaks_the_french_rulebook_terms():
    ruleset = load_checked(PANIC_STATION)
    fr = Prose(ruleset, "fr")
    assert fr.term("values.trooper") == "Soldat"
    assert fr.term("components.gas_can") == "Jerrican"
    assert fr.term("components.hive") == "Nid"
    assert fr.term("components.android") == "Androïde"
    text = fr.definition("burn_hive")
    assert "Coûte 1 point d'action." in text
    assert "le rôle du Personnage est Soldat" in text


def test_panic_station_counts_and_takes_read_as_sentences():
    ruleset = load_checked(PANIC_STATION)
    en = Prose(ruleset, "en").definition("burn_hive")
    # what a zone holds reads by the kind it holds, else as neutral "things" (never "items", a game word)
    assert ("Only when the number of cards among the things in the hand of the current player for which the item of "
            "the card is a gas can is at least the number of gas cans that burn the Hive (3).") in en
    assert ("- For each card among the first cards of the things in the hand of the current player "
            "for which the item of the card is a gas can, as many as the number of gas cans that burn the Hive (3):"
            ) in en.splitlines()
    victory = Prose(ruleset, "fr").definition("troopers_all_dead")
    assert victory.startswith("La partie s'arrête quand le nombre de Personnages où le rôle du Personnage est Soldat")


def test_setting_nothing_reads_as_clearing():
    ruleset = load_checked(PANIC_STATION)
    assert "- Clear the room of the meeting." in Prose(ruleset, "en").definition("trade").splitlines()
    assert "- Effacez la pièce de la rencontre." in Prose(ruleset, "fr").definition("trade").splitlines()


def test_panic_station_agrees_with_feminine_and_plural_words():
    fr = Prose(load_checked(PANIC_STATION), "fr")
    assert fr.definition("holds_keycard") == (
        "Le joueur a une Carte Magnétique en jeu quand pour au moins une carte parmi les éléments de la zone de jeu du "
        "joueur, l'objet de la carte est une Carte Magnétique.\n")
    assert any(line.startswith("    - Les balles restantes de la carte deviennent ")
               for line in fr.definition("spend_bullet").splitlines())  # a plural word agrees with its verb
    assert ("- Soit la carte : la première des cartes Munitions parmi les éléments de la zone de jeu du joueur où "
            "l'objet de la carte Munitions est Munitions et les balles restantes de la carte Munitions sont "
            "supérieures à 0.") in fr.definition("spend_bullet").splitlines()


@pytest.mark.parametrize("lang, sentence, line", [
    ("en", "Only when no meeting is waiting for an attack or a trade.",
     "    - If for every card among the things in the hand of the human followed by the search cards in the search deck, "
     "the item of the card is not a gas can:"),
    ("fr", "Seulement si aucune rencontre n'attend d'attaque ni d'échange.",
     "    - Si pour chaque carte parmi les éléments de la main de l'Humain suivis des cartes Fouille de la pioche de "
     "cartes Fouille, l'objet de la carte n'est pas un Jerrican :"),
])
def test_panic_station_negations_use_the_negated_verb(lang, sentence, line):
    prose = Prose(load_checked(PANIC_STATION), lang)
    assert sentence in prose.definition("move")
    assert line in prose.definition("heat_scan").splitlines()  # not any(…) reads as every … not


@pytest.mark.parametrize("lang, sentence", [("en", "A procedure of 9 steps."), ("fr", "Une procédure en 9 étapes.")])
def test_panic_station_summaries_do_not_repeat_the_title(lang, sentence):
    ruleset = load_checked(PANIC_STATION)
    prose = Prose(ruleset, lang)
    assert prose.summary("build_exploration_deck") == sentence
    for name in ruleset.definitions:
        title, summary = prose.title(name).lower(), prose.summary(name).lower()
        assert not summary.startswith((title + ":", title + " :")), name


def test_panic_station_values_have_a_bare_word_for_tables():
    ruleset = load_checked(PANIC_STATION)
    fr, en = Prose(ruleset, "fr"), Prose(ruleset, "en")
    assert fr.term("values.gas_can") == "Jerrican"
    assert en.term("values.gas_can") == "gas can"
    assert fr.term("values.trooper") == "Soldat"  # a value without an article is its own bare word
    assert "l'objet de la carte est un Jerrican" in fr.definition("burn_hive")


@pytest.mark.parametrize("lang, sentence", [
    ("en", "The card stays in play once played when the item of the card is a keycard, the Heavy Gun, the Target "
           "Scope, the Combat Knife or Ammo.\n"),
    ("fr", "La carte reste en jeu une fois jouée quand l'objet de la carte est une Carte Magnétique, le Fusil "
           "mitrailleur, la Lunette de Précision, le Couteau de Combat ou Munitions.\n"),
])
def test_membership_in_a_written_list_reads_as_a_choice(lang, sentence):
    assert Prose(load_checked(PANIC_STATION), lang).definition("permanent") == sentence


@pytest.mark.parametrize("lang, sentence, line", [
    ("en", "The first player still in the game in turn order starting with the player is the first of the players among (the "
           "players clockwise from the player, as many as the number of the players) for whom that player is still "
           "in the game.\n",
     "        - The current player chooses the target among the second choice, or nothing."),
    ("fr", "Le premier joueur encore dans la partie dans l'ordre de jeu à partir du joueur est le premier des joueurs "
           "parmi (les joueurs dans le sens horaire à partir du joueur, autant que le nombre des joueurs) où ce joueur "
           "est encore dans la partie.\n",
     "        - Le joueur actif choisit la cible parmi le second choix, ou rien."),
])
def test_a_condition_after_a_clause_is_bracketed_and_a_choice_may_be_nothing(lang, sentence, line):
    prose = Prose(load_checked(PANIC_STATION), lang)
    assert prose.definition("next_living") == sentence
    assert line in prose.definition("fire_gun").splitlines()


def test_a_repeat_count_reads_as_a_number_or_as_many_times_as():
    lines = Prose(load_checked(PANIC_STATION), "fr").definition("build_exploration_deck").splitlines()
    assert "- Répétez 2 fois :" in lines
    assert ("- Répétez autant de fois que le nombre de cartes Exploration dans la pioche de cartes Exploration divisé par 2, "
            "arrondi à l'inférieur :") in lines


def test_an_adjective_value_agrees_with_a_feminine_subject():
    fr = Prose(load_checked(PANIC_STATION), "fr")
    assert "- Si la face du Parasite est noire :" in fr.definition("hit_parasite").splitlines()
    assert "        - La face du Parasite devient grise." in fr.definition("hit_parasite").splitlines()  # "devient" agrees too


def test_a_property_named_with_its_joining_word_and_a_draw_read_plainly(tmp_path):
    """No glossary: a property reads from its own name. One whose
    name ends with the word that joins a property to its owner is not joined twice, and
    a victory with no winners says that nobody wins."""
    ruleset = build(tmp_path, {
        "game.yaml": game_yaml(name="plain", players=(1, 2)) + textwrap.dedent("""\
            kinds:
              player: {}
              cell:
                properties:
                  mark_of: {type: "player?"}
            components:
              - {name: cell, kind: cell, count: 2}
            """),
        "main.rules": """\
            procedure setup():
                do:
                    stop
            procedure round():
                do:
                    stop
            victory full:
                when count([c for c in cell where c.mark_of == none]) == 0
                winners []
            """})
    text = Prose(ruleset, "en").definition("full")
    assert "the mark of the cell" in text and "of of" not in text
    assert text.rstrip().endswith("Nobody wins.")
    assert Prose(ruleset, "fr").definition("full").rstrip().endswith("Personne ne gagne.")


# ---------------------------------------------------------------- words that mislead a reader

def test_what_a_zone_holds_reads_by_its_kind_or_a_neutral_word_never_items():
    ruleset = load_checked(PANIC_STATION)
    en, fr = Prose(ruleset, "en"), Prose(ruleset, "fr")
    # a zone that says which kind it holds: that kind's word
    explore = en.definition("explore")
    assert "the number of exploration cards in the exploration deck is more than 0" in explore
    assert "- Let the card be the top exploration card of the exploration deck." in explore.splitlines()
    # a zone that does not: a neutral word, since "items" is a game's own word for some cards
    assert "the number of things in the hand of the player is more than the hand minimum (5)" \
        in en.definition("can_play_item")
    assert "le nombre d'éléments dans la main du joueur" in fr.definition("can_play_item")
    for name in ("explore", "can_play_item", "burn_hive", "heat_scan"):
        assert " items " not in en.definition(name), name


def test_a_loop_name_whose_kind_word_an_outer_name_has_reads_that():
    ruleset = load_checked(PANIC_STATION)
    # `c` is "the character"; the loop over characters must not read "the character" too
    assert ("the characters among the characters of the current player for which the room of that character is "
            "the room of the character") in Prose(ruleset, "en").definition("heal_in_sick_bay")
    assert ("les Personnages parmi les Personnages du joueur actif où la pièce de ce Personnage est la pièce du "
            "Personnage") in Prose(ruleset, "fr").definition("heal_in_sick_bay")
    # a loop over players inside a rule about "the player"
    assert "for whom the player attacked is not the player" in Prose(ruleset, "en").definition("attacks_on_others")


def test_a_gain_says_a_cap_only_for_a_resource_that_has_one(tiny):
    ruleset = load_checked(PANIC_STATION)  # action points have no max
    assert "- Add 2 to the action points of the current player." in \
        Prose(ruleset, "en").definition("use_energy_boost").splitlines()
    assert "- Ajoutez 2 aux points d'action du joueur actif." in \
        Prose(ruleset, "fr").definition("use_energy_boost").splitlines()
    # gold coins have a max of 9: it is named
    assert "- Add 2 to the gold coins of the player, to no more than 9." in Prose(tiny, "en").definition("pay").splitlines()


def test_a_parameter_named_like_a_property_it_is_compared_with_reads_given():
    ruleset = load_checked(PANIC_STATION)
    assert Prose(ruleset, "en").definition("weapon_in_play").endswith("the item of the card is the given item.\n")
    assert Prose(ruleset, "fr").definition("weapon_in_play").endswith("l'objet de la carte est l'objet donné.\n")


def test_rules_read_without_calques():
    ruleset = load_checked(PANIC_STATION)
    en, fr = Prose(ruleset, "en"), Prose(ruleset, "fr")
    assert "Choose the target among the targets of the shooter's gun." in en.definition("fire_gun")
    assert "a value among" not in en.definition("fire_gun")
    assert "Costs 1 action point. Once per turn for all the actions of the Terminal together." \
        in en.definition("terminal_open_doors")
    assert "Une fois par tour pour l'ensemble des actions du Terminal." in fr.definition("terminal_open_doors")
    assert "- Lancez le dé Parasite ; le résultat du dé est ce qu'il indique." in \
        fr.definition("spawn_parasite").splitlines()
    assert "le type de la chose déplacée de l'événement" in fr.definition("run_room_entered")
    assert "    - La face du Parasite devient noire." in fr.definition("spawn_parasite").splitlines()
    assert "Fixez" not in fr.definition("spawn_parasite") and "la sorte" not in fr.definition("run_room_entered")
    # a field whose word ends with a joining word of its own takes no other
    assert en._joined(en.ph["expressions"]["event_field"], "field", "player responsible for") == \
        "player responsible for the event"


def test_a_value_two_kinds_share_reads_with_the_word_of_the_kind_it_is_compared_on():
    en = Prose(load_checked(PANIC_STATION), "en")
    # the room type `parasite_alert` (glossary `values.parasite_alert_room`), not the search card's word
    assert "the type of the destination of the event is a Parasite Alert room" in en.definition("parasite_alert_room")
    assert en.value_key("room", "parasite_alert") == "values.parasite_alert_room"
    assert en.value_key("search_card", "parasite_alert") == "values.parasite_alert"


@pytest.mark.parametrize("template, slot, words, said", [
    ("the marker moves to Minute {m}", "m", "the Minute", "the marker moves to {m}"),
    ("it detonates at Minute {m}", "m", "the detonation Minute", "it detonates at {m}"),
    ("le marqueur passe à la Minute {m}", "m", "la Minute", "le marqueur passe à {m}"),
    ("elle explose à la Minute {m}", "m", "la Minute de la détonation", "elle explose à {m}"),
    # a word the slot's words do not hold as a name or their last word stays
    ("the end of {x}", "x", "the round of the player", "the end of {x}"),
    ("{p} gains {n} coins", "n", "2", "{p} gains {n} coins"),
])
def test_a_word_a_phrase_puts_before_a_value_is_not_said_twice_by_the_rule(template, slot, words, said):
    from rulecraft.docgen.prose import unrepeated_slot_word
    assert unrepeated_slot_word(template, slot, words) == said


@pytest.mark.parametrize("lang, line", [
    ("en", "- Announce: the Minute marker moves to the Minute."),
    ("fr", "- Annoncez : le marqueur de Minute passe à la Minute."),
])
def test_an_event_phrase_written_for_play_reads_well_on_the_rules_site(lang, line):
    # a phrase names a value after its word ("Minute 3" in play); the site said "Minute the Minute"
    ruleset = load_checked(Path(__file__).resolve().parent.parent / "rules" / "stationfall")
    text = Prose(ruleset, lang).definition("play_minute")
    assert line in [t.strip() for t in text.splitlines()], text


def test_a_condition_comes_first_when_its_value_has_a_comma_of_its_own(tmp_path):
    """"6 divided by the number of players, rounded down if p is ready" reads as if the
    rounding were what the condition decides: such a value is closed by a comma."""
    rs = build(tmp_path, {"game.yaml": game_yaml() + "kinds:\n  player:\n    properties:\n      ready: bool\n",
                          "main.rules": """
procedure setup():
    do:
        stop

procedure round():
    do:
        stop

function share(p: player) -> number:
    = 6 // count(players) if p.ready else 0

function plain(p: player) -> number:
    = 6 if p.ready else 0
"""})
    prose = Prose(rs, "en")
    assert prose.definition("share") == ("Share is 6 divided by the number of the players, rounded down, if p is "
                                         "ready; otherwise 0.\n")
    assert prose.definition("plain") == "Plain is 6 if p is ready, otherwise 0.\n"
    assert "arrondi à l'inférieur, si p est ready ; sinon 0" in Prose(rs, "fr").definition("share")
