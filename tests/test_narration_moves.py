"""Things moving between zones, as the play screens tell them: a shared zone with the
article its glossary word takes (French contracting it: "du", "au", "aux"), and a run
of hidden things moved from one place to another as one sentence."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from rulecraft.dsl.loader import load_checked
from rulecraft.narration import Words

RULES = Path(__file__).resolve().parent.parent / "rules" / "panic_station"


@lru_cache(maxsize=None)
def words(lang: str) -> Words:
    return Words(load_checked(RULES), lang)


def moved(source, destination, entity="?") -> dict:
    return {"type": "moved", "entity": entity, "source": source, "destination": destination}


def test_a_shared_zone_is_said_with_its_article():
    [text] = words("en").tell([moved("search_deck", "search_discard")])
    assert text == "A hidden item moves from the search deck to the search discard pile."
    [text] = words("fr").tell([moved("lower_pile", "exploration_deck")])
    assert text == "Un élément caché passe de la pile du dessous à la pioche de cartes Exploration."


def test_french_contracts_the_preposition_with_the_article():
    fr = words("fr")
    [plural] = fr.tell([moved("exploration_deck", "bottom_three")])
    assert plural.endswith(" aux trois dernières cartes.")
    [masculine] = fr.tell([moved("hive_holding", "exploration_deck")])
    assert masculine.startswith("Un élément caché passe de l'emplacement d'attente du Nid à la ")
    [entering] = fr.tell([moved(None, "reactor/main", entity="trooper.p1")])
    assert " passe du hors-jeu à " in entering and "de le " not in entering


def test_a_players_zone_and_a_room_keep_their_names():
    [text] = words("en").tell([moved("search_deck", "hand:p2")])
    assert text == "A hidden item moves from the search deck to p2's hand."
    [text] = words("en").tell([moved(None, "reactor/main", entity="trooper.p1")])
    assert text == "Trooper p1 moves from off the table to Reactor."


def test_hidden_things_moved_together_are_one_sentence_on_the_last_of_them():
    deal = [moved("lower_pile", "exploration_deck")] * 3 + [moved("search_deck", "hand:p2")] * 2
    told = words("en").tell(deal)
    assert told == ["", "", "3 hidden items move from the lower pile to the exploration deck.",
                    "", "2 hidden items move from the search deck to p2's hand."]
    [*_, last] = words("fr").tell(deal[:3])
    assert last == "3 éléments cachés passent de la pile du dessous à la pioche de cartes Exploration."


def test_a_thing_that_shows_parts_a_run_of_hidden_moves():
    seen = moved("search_deck", "search_discard", entity="armor.1")
    told = words("en").tell([moved("search_deck", "hand:p2"), seen, moved("search_deck", "hand:p2")])
    assert told[0] == told[2] == "A hidden item moves from the search deck to p2's hand."
    assert told[1].startswith("Armor 1 moves from the search deck")


def test_a_thing_put_back_into_its_own_pile_is_said_so():
    [text] = words("en").tell([moved("exploration_deck", "exploration_deck")])
    assert text == "A hidden item is put back into the exploration deck."
    [text] = words("fr").tell([moved("exploration_deck", "exploration_deck")])
    assert text == "Un élément caché est remis dans la pioche de cartes Exploration."
    told = words("en").tell([moved("exploration_deck", "exploration_deck")] * 2)
    assert told == ["", "2 hidden items are put back into the exploration deck."]


def test_an_id_that_opens_a_sentence_keeps_its_case():
    en = Words(load_checked(RULES), "en")  # its own: it learns a thing the others do not know
    en.know_entities({"die.p1.1": {"kind": "die", "at": "cup:p1", "props": {}}})
    assert en._opening("die.p1.1: face is now 4") == "die.p1.1: face is now 4"
    assert en._opening("a hidden item moves") == "A hidden item moves"
