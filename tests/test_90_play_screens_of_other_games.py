"""`rulecraft play` on the shipped games whose screens hold the most: Star Trek: Panic
(a ring board, six facings beside it, threats with numbers of their own) and
Stationfall (three seats and a script between two turns of the player, public
properties of every seat, zones of each character).

What a player needs stays on the screen, or the screen says where to find it: what
happened in the others' turns, each thing's details (wrapped rather than dropped when
a line is too short for them), the properties of the pieces on the board, the things
beside the board, and what a piece's copy number is not."""

from __future__ import annotations

import random
import re
from functools import lru_cache

from panic_station import RULES

from rulecraft.beside import filled
from rulecraft.cli.play_screen import Screens
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game
from rulecraft.narration import Words

ROOT = RULES.parent
WIDTH, HEIGHT = 80, 24


@lru_cache(maxsize=None)
def ruleset(name: str):
    return load_checked(str(ROOT / name))


def fits(lines) -> None:
    texts = [line[0] if isinstance(line, tuple) else line for line in lines]
    assert len(texts) <= HEIGHT - 1, f"{len(texts)} lines (and the prompt's):\n" + "\n".join(texts)
    wide = [t for t in texts if len(t) > WIDTH]
    assert not wide, f"lines wider than {WIDTH} columns: {wide}"


def text_of(lines) -> str:
    return "\n".join(line[0] if isinstance(line, tuple) else line for line in lines)


def flat(lines) -> str:
    """The lines as one text, a wrapped line joined to the one before."""
    return re.sub(r"\s*\n\s*", " ", text_of(lines))


def played(name: str, players: int, seed: int, human: str, turns: int, rng_seed: int = 1):
    """A game where every seat picks a random option (seeded), up to ``human``'s
    ``turns``-th choice; with the number of events ``human`` had seen when they last
    chose, as `play` keeps it (the start of their next screen's news)."""
    rs = ruleset(name)
    game = Game(rs, players, seed)
    rng = random.Random(rng_seed)
    seen, mine = 0, 0
    while not game.over:
        choice = game.pending
        if choice.player == human:
            if mine == turns:
                break
            mine += 1
            seen = game.visible_count(human)
        game.choose(rng.randrange(len(choice.options)))
    return rs, game, seen


def main_screen(rs, game, player: str, seen: int, page: int = 0):
    screens = Screens(rs, Words(rs))
    view = game.view(player)
    return screens.main(view, view["events"], seen, page)


# ---- SF-1 / STP-5: the others' turns are said, at least how many events and where
def test_the_others_turns_are_never_left_out_of_the_main_screen_without_a_word():
    for name, players, seed in (("stationfall", 3, 5), ("star_trek_panic", 2, 5)):
        rs = ruleset(name)
        for turns in range(2, 8):
            rs, game, seen = played(name, players, seed, "p1", turns)
            if game.over:
                break
            lines, _ = main_screen(rs, game, "p1", seen)
            fits(lines)
            screens = Screens(rs, Words(rs))
            view = game.view("p1")
            for_you, other = screens.news(view["events"], seen, view)
            if not other:
                continue
            shown = text_of(lines)
            said = [t for t, style in lines if style == "dim" and not t.startswith("(")]
            told = [t for t, style in lines if style == "bold yellow" and t.startswith("! ")]
            # what is not shown is counted, and the history named as where it is
            hint = re.search(r"\((\d+) (?:earlier|since your last choice): h shows", shown)
            assert hint or len(said) == len(other), f"{name}, turn {turns}: the others' turns vanished:\n{shown}"
            if hint:
                assert int(hint.group(1)) == len(other) - len(said) + len(for_you) - len(told), shown


def test_the_turns_start_and_end_give_way_to_what_happened_in_them():
    rs, game, seen = played("stationfall", 3, 5, "p1", 3)
    lines, _ = main_screen(rs, game, "p1", seen)
    latest = [t for t, style in lines if style == "dim" and not t.startswith("(")]
    assert latest, text_of(lines)
    assert not any(re.fullmatch(r"p\d's turn (begins|ends)\.", t) for t in latest), latest


# ---- STP-1 / SF-4, SF-2, SF-3: the table
def test_a_thing_too_long_for_one_line_keeps_its_details_over_two():
    rs = ruleset("star_trek_panic")
    game = Game(rs, 2, 5)
    view = game.view("p1")
    words = Words(rs)
    table = Screens(rs, words).table(view)
    fits(table)
    words.know_view(view)
    slot = [z for z in view["zones"] if z in rs.data.zones and len(view["zones"][z] or []) == 1
            and isinstance(view["zones"][z], list) and words.details(view["zones"][z][0])]
    assert slot, "a shared zone holding one thing with details"
    text = flat(table)
    for zone in slot:
        thing = view["zones"][zone][0]
        said = f"{words.name(thing)} ({', '.join(words.details(thing))})"
        assert len(said) > WIDTH - 10 or said in text  # short or long, its details are there
        assert said in text, text


def test_the_table_shows_the_games_values_each_seats_telling_properties_and_zones_of_each_thing():
    rs, game, seen = played("stationfall", 3, 5, "p1", 7)
    view = game.view("p1")
    words = Words(rs)
    table = Screens(rs, words).table(view)
    fits(table)
    words.know_view(view)
    # the game's own values come first, never under the …
    first = next(iter(k for k, v in view["vars"]["game"].items() if v not in (None, [])))
    assert table[1].startswith("Game: " + words.variable("game", first)), table
    # what sets a seat apart from its start is on its first lines
    kinds = rs.data.kinds
    for p in view["players"]:
        if p == "p1":
            continue
        entity = view["entities"][p]
        declared = kinds[entity["kind"]].properties
        telling = [words.status(entity["kind"], k, v) for k, v in entity["props"].items()
                   if v not in (None, "", "none") and k in declared and declared[k].default != v]
        block = next(i for i, line in enumerate(table) if line.startswith(f"{p}:") or line.startswith(f"{p} ("))
        head = " ".join(table[block:block + 2])
        for said in telling[:3]:
            assert said.split()[0] in head, (said, head)
    # the zones of each thing of a kind (not of each player) that hold something
    per_thing = [z for z, items in view["zones"].items() if ":" in z
                 and (spec := rs.data.zones.get(z.split(":")[0])) is not None and spec.per_entity
                 and z.split(":")[1] not in view["players"] and filled(items)]
    assert per_thing, "the game has zones of its things"
    named = {words.name(z.split(":")[0]) for z in per_thing}
    for word in named:
        assert re.search(rf"(?m)^{re.escape(word[:1].upper() + word[1:])}: ", text_of(table)), (word, table)


# ---- STP-2 / STP-7: the pieces on the board with their numbers
def test_the_whole_map_shows_the_numbers_of_the_pieces_on_the_board():
    rs = ruleset("star_trek_panic")
    game = Game(rs, 2, 5)
    view = game.view("p1")
    words = Words(rs)
    screens = Screens(rs, words)
    pages = [screens.whole_map(view, page) for page in range(1, screens.map_pages(view) + 1)]
    for page in pages:
        fits(page)
    text = " ".join(flat(page) for page in pages)
    on_board = [e for s in rs.data.board.spaces for e in (view["zones"].get(s) or [])]
    assert on_board
    words.know_view(view)
    for piece in on_board:
        numbers = [d for d in words.details(piece) if re.search(r"\d", d)]
        assert numbers, piece
        assert f"{words.name(piece)} ({', '.join(words.details(piece))})" in text, text


def test_the_main_screen_says_the_pieces_numbers_when_that_leaves_room_for_the_things_beside_the_board():
    rs = ruleset("star_trek_panic")
    game = Game(rs, 2, 5)
    lines, _ = main_screen(rs, game, "p1", 0)
    fits(lines)
    text = flat(lines)
    words = Words(rs)
    view = game.view("p1")
    words.know_view(view)
    piece = next(e for s in rs.data.board.spaces for e in (view["zones"].get(s) or []))
    assert f"{words.name(piece)} ({', '.join(words.details(piece))})" in text, text_of(lines)


# ---- STP-4: the things beside the board get the lines a small board leaves
def test_every_thing_beside_a_small_board_is_on_the_main_screen():
    rs = ruleset("star_trek_panic")
    for seed in (3, 5):
        game = Game(rs, 2, seed)
        screens = Screens(rs, Words(rs))
        view = game.view("p1")
        lines, _ = main_screen(rs, game, "p1", 0)
        fits(lines)
        text = flat(lines)
        beside = screens.beside(view)
        assert len(beside) >= 4
        for thing in beside:
            assert thing in text, (thing, text_of(lines))


# ---- STP-10 and SF-7: the options' pages, their capitals, the final screen
def test_option_pages_say_only_the_way_there_is_and_labels_start_alike():
    rs = ruleset("star_trek_panic")
    game = Game(rs, 2, 5)
    lines, pages = main_screen(rs, game, "p1", 0)
    assert pages > 1
    notes = []
    for page in range(pages):
        lines, _ = main_screen(rs, game, "p1", 0, page)
        fits(lines)
        notes.append(next(t for t, _ in lines if t.startswith("options ")))
    assert "+ shows the next" in notes[0] and "previous" not in notes[0]
    assert "- shows the previous" in notes[-1] and "next" not in notes[-1]
    assert all("+" in n and "-" in n for n in notes[1:-1])
    labels = []
    for page in range(pages):
        texts = [t for t, _ in main_screen(rs, game, "p1", 0, page)[0]]
        prompt = next(i for i, t in enumerate(texts) if "(type a number, ? for help)" in t)
        labels += [re.sub(r"^\s*\d+ ", "", t) for t in texts[prompt + 1:] if re.match(r"^\s*\d+ \S", t)]
    assert labels and all(label[:1].isupper() for label in labels), labels


def test_the_final_screen_shows_each_seats_whole_status_and_no_empty_one():
    for name, players in (("stationfall", 3), ("star_trek_panic", 2)):
        rs = ruleset(name)
        game = Game(rs, players, 5)
        seats = {p: "human" if p == "p1" else "random" for p in game.state.players}
        lines = Screens(rs, Words(rs)).final(game.state, {"reason": "stop", "winners": []}, seats, 0)
        fits(lines)
        assert not any(line.rstrip().endswith(":") for line in lines), lines
        text = flat(lines)
        words = Words(rs)
        for p in game.state.players:
            entity = game.state.entities[p]
            for k, v in entity["props"].items():
                if v not in (None, "", "none"):
                    assert words.status(entity["kind"], k, v) in text, (p, k, lines)
