"""`rulecraft play`: what a player and a designer reported of the terminal game.

Input the keyboard gives as digits that are no number (², ١) and numbers too long to be
any, a resumed game quit at once, the event a decision hangs on cut at the screen's
edge, refusals cut mid-word, `--bot` without `--human`, the first screen of a game,
the header and the `!` marks while every player chooses between two turns, a decision
that names a hidden thing the next move shows, the small shared piles on the table,
and the words of the sentences (an event's audience, a field set to nothing, a
sentence's capital, French elision and agreement, a zone's article, a board's own
names for its spaces, a rule set's mark for "not set")."""

from __future__ import annotations

import io
import json
import re

import pytest
from engine_rulesets import choose_action, write_ruleset
from panic_station import RULES, ruleset
from rich.console import Console

from rulecraft.cli.main import main
from rulecraft.cli.play import PLAY_SETTINGS, PlaySession
from rulecraft.cli.play_screen import Screens
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game
from rulecraft.narration import Words

ROOT = RULES.parent
DOCS = ROOT.parent / "docs" / "cli.md"


def play(*args, rules=RULES) -> int:
    try:
        return main(["play", str(rules), *map(str, args)])
    except SystemExit as stop:
        return stop.code


def fits(lines) -> None:
    texts = [line[0] if isinstance(line, tuple) else line for line in lines]
    assert len(texts) <= 23, "\n".join(texts)
    assert all(len(t) <= 80 for t in texts), [t for t in texts if len(t) > 80]


def texts(lines) -> list[str]:
    return [line[0] if isinstance(line, tuple) else line for line in lines]


# A tiny game whose every round deals, asks each player to set a token aside (a choice
# outside any turn), then gives each a turn to put a token in the middle, face up.
RELAY = {
    "game.yaml": """
game:
  name: relay
  players: {min: 2, max: 3}
  setup: setup
  round: round
  round_limit: 3
  actions_per_turn_limit: 1
  end_turn_allowed: may_end_turn
kinds:
  player:
    properties:
      taken: {type: number, default: 0}
  token:
    properties:
      rank: {type: number, default: 1}
zones:
  pool: {visible_to: nobody, holds: token}
  hand: {per_player: true, visible_to: owner, holds: token}
  aside: {per_player: true, visible_to: owner, holds: token}
  middle: {visible_to: everyone, holds: token}
  spent: {visible_to: everyone, holds: token}
components:
  - {name: token, kind: token, count: 12, zone: pool}
""",
    "play.rules": """
procedure setup():
    do:
        shuffle pool

procedure round():
    do:
        for each p in players:
            repeat 3 times:
                move top(pool) to hand(p)
        for each p in players:
            choose c from contents(hand(p)) by p prompt "Which token do you set aside?"
            move c to aside(p)
        for each p in players:
            play_turn(p)
        for each p in players:
            set p.taken += 1
        for each c in contents(middle):
            move c to spent

function may_end_turn(p: player) -> bool:
    = false

action put:
    with c: token in contents(hand(current_player))
    do:
        move c to middle

action stash:
    with c: token in contents(hand(current_player))
    do:
        move c to aside(current_player)
""",
    "glossary/en.yaml": """
language: en
zones:
  pool: pool
  hand: hand
  aside: set-aside pile
  middle: middle
  spent: spent pile
properties:
  player.taken: {one: point, many: points}
definitions:
  put: Put a token
  stash: Stash a token
""",
}


@pytest.fixture
def relay(tmp_path):
    (tmp_path / "relay" / "glossary").mkdir(parents=True)
    return load_checked(write_ruleset(tmp_path / "relay", RELAY))


def pass_all(game: Game) -> None:
    """Every player sets aside the first token offered."""
    while game.pending is not None and game.pending.kind == "choose":
        game.choose(0)


# ---------------------------------------------------------------- input (A1, b2)

def test_digits_of_other_scripts_and_numbers_too_long_are_refused_not_a_crash(typed, capsys):
    """'²' (next to 1 on a French keyboard) made int() fail and the game was lost; '١'
    was taken as option 1; 5000 digits exceeded int()'s limit."""
    typed("", "²", "³", "١", "h ²", "m ²", "y ²", "9" * 5000, "0" * 30 + "5", "q")
    assert play("--players", 2, "--human", "p1", "--seed", 1, rules=ROOT / "tic_tac_toe") == 0
    out = capsys.readouterr().out
    assert "internal error" not in out and "Traceback" not in out
    for digit in "²³١":
        assert f"'{digit}' is not an option: type a number from 1 to 9" in out
    assert "there is no option 99999999999999999999…: the options are 1 to 9" in out
    assert "bye" in out  # the leading zeros were read as 5, a mark on the board, and the game went on to q


def test_a_refusal_is_wrapped_at_the_screens_width_not_cut_mid_word():
    rs = load_checked(ROOT / "tic_tac_toe")
    out = io.StringIO()
    console = Console(file=out, width=50, force_terminal=False)
    session = PlaySession(rs, Game(rs, 2, 1, settings=PLAY_SETTINGS), {"p1": "human", "p2": "human"},
                          console=console, lang="fr")
    reason = "« abcdefghijklmnopqrst » n'est pas une option : tapez un numéro de 1 à 4, ou ? pour l'aide"
    session.say(reason)
    lines = out.getvalue().rstrip("\n").split("\n")
    assert len(lines) > 1 and all(len(line) <= 50 for line in lines), lines
    assert " ".join(line.strip() for line in lines) == reason


# ---------------------------------------------------------------- saves (A4)

def test_a_resumed_game_quit_at_once_is_said_to_be_saved_where_it_was_resumed_from(tmp_path, typed, capsys):
    save = tmp_path / "game.jsonl"
    typed("", "1", "s", "q")
    assert play("--players", 4, "--human", "p1", "--seed", 3, "--save", save) == 0
    capsys.readouterr()
    typed("", "q")
    assert play("--resume", save) == 0
    assert f"bye; the game is saved in {save}" in " ".join(capsys.readouterr().out.split())
    # saved elsewhere from then on, but not yet: the game is still in the file it came from
    typed("", "q")
    assert play("--resume", save, "--save", tmp_path / "other.jsonl") == 0
    assert f"bye; the game is saved in {save}" in " ".join(capsys.readouterr().out.split())
    # once it changes, it is not
    typed("", "1", "q")
    assert play("--resume", save) == 0
    assert "the game was not saved since its last change" in capsys.readouterr().out


# ---------------------------------------------------------------- seats (b18)

@pytest.mark.parametrize("args", [["--bot", "heuristic"], ["--bot-for", "humans=random"]])
def test_a_bot_without_a_seat_to_play_is_refused_in_one_line(typed, capsys, args):
    assert play("--players", 4, *args) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "every seat is played by a person: give --human P for the seats people play; --bot plays the others" in err


def test_bot_given_again_to_a_resumed_game_plays_its_bot_seats(tmp_path, typed, capsys):
    save, again = tmp_path / "game.jsonl", tmp_path / "again.jsonl"
    typed("", "s", "q")
    assert play("--players", 4, "--human", "p1", "--seed", 3, "--save", save) == 0
    typed("", "s", "q")
    assert play("--resume", save, "--bot", "heuristic", "--save", again) == 0
    seats = json.loads(again.read_text().splitlines()[0])["seats"]
    assert seats == {"p1": "human", "p2": "heuristic", "p3": "heuristic", "p4": "heuristic"}
    # a saved game every person plays has no seat for the bot
    hot_seat = tmp_path / "hot.jsonl"
    typed("", "s", "q")
    assert play("--players", 4, "--seed", 3, "--save", hot_seat) == 0
    capsys.readouterr()
    assert play("--resume", hot_seat, "--bot", "random") == 2
    assert "give --human P" in capsys.readouterr().err


def test_the_intro_says_one_player_in_the_singular(typed, capsys):
    typed("q")
    assert play("--players", 1, "--human", "p1", "--seed", 2, rules=ROOT / "star_trek_panic") == 0
    assert "Star Trek: Panic: 1 player, seed 2" in capsys.readouterr().out
    typed("q")
    assert play("--players", 1, "--human", "p1", "--seed", 2, "--lang", "fr", rules=ROOT / "star_trek_panic") == 0
    assert "Star Trek: Panic : 1 joueur, graine 2" in capsys.readouterr().out


# ---------------------------------------------------------------- the first screen (b20)

def test_the_docs_sample_screen_is_what_play_shows(typed, capsys):
    """docs/cli.md's first screen of p1, byte for byte; before any choice it counts what
    happened since the game began, not since a last choice."""
    sample = re.search(r"p1's first turn\):\n\n```text\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S).group(1)
    typed("")
    assert play("--players", 5, "--seed", 323, "--human", "p1") == 0
    out = capsys.readouterr().out
    screen = out[out.index("Panic Station · round 1"):out.index("\np1> ")]  # the prompt, typed nothing at
    assert screen + "\np1>\n" == sample
    assert "since the game began: h shows them" in sample and "since your last choice" not in sample


# ---------------------------------------------------------------- choices between turns (A5)

def test_the_header_names_who_chooses_between_turns_and_a_deal_is_not_marked(relay):
    game = Game(relay, 2, 3, settings=PLAY_SETTINGS)
    screens = Screens(relay, Words(relay))
    view = game.view("p1")
    header = texts(screens.main(view, view["events"], 0, 0)[0])[0]
    assert header == "relay · round 1 · p1 to choose · you are p1", header  # not "setting up": round 1 began
    pass_all(game)
    choose_action(game, "put", c=game.pending.options[0]["args"]["c"])  # p1's turn
    seen = game.visible_count("p1")
    choose_action(game, "put", c=game.pending.options[0]["args"]["c"])  # p2's turn, then a new deal
    assert game.pending.kind == "choose" and game.pending.player == "p1" and game.state.current == "p2"
    view = game.view("p1")
    lines = texts(screens.main(view, view["events"], seen, 0)[0])
    assert lines[0] == "relay · round 2 · p1 to choose · you are p1", lines[0]  # not "p2 to play"
    # the tokens dealt to p1 between two turns are theirs to see, in nobody's turn
    for_you, other = screens.news(view["events"], seen, view)
    assert for_you == [] and any("move from the pool to p1's hand" in t for t in other), (for_you, other)
    assert not any(line.startswith("! ") for line in lines), lines
    # the other players' list marks nobody as playing between two turns
    assert "to play" not in " ".join(screens.table(view))


def test_a_hidden_thing_a_decision_names_and_its_move_shows_is_told_once(relay):
    game = Game(relay, 2, 3, settings=PLAY_SETTINGS)
    pass_all(game)
    choose_action(game, "put", c=game.pending.options[0]["args"]["c"])  # p1
    put = game.pending.options[0]["args"]["c"]
    choose_action(game, "put", c=put)  # p2: the token goes face up to the middle
    words = Words(relay)
    words.know_view(game.view("p1"))
    told = words.tell(game.events_for("p1"))
    assert "p2: Put a token." in told, told
    assert f"{put} moves from p2's hand to the middle." in told
    assert not any(t.startswith("p2: Put a token:") for t in told)
    # a thing that stays hidden is still said to be one
    game = Game(relay, 2, 3, settings=PLAY_SETTINGS)
    pass_all(game)
    choose_action(game, "put", c=game.pending.options[0]["args"]["c"])
    choose_action(game, "stash", c=game.pending.options[-1]["args"]["c"])
    told = Words(relay).tell(game.events_for("p1"))
    assert "p2: Stash a token: a hidden item." in told, told


def test_a_small_shared_pile_is_on_the_main_screen_when_there_is_room(relay):
    game = Game(relay, 2, 3, settings=PLAY_SETTINGS)
    pass_all(game)
    put = game.pending.options[0]["args"]["c"]
    choose_action(game, "put", c=put)  # p1's token goes to the middle; p2 is to play
    view = game.view("p2")
    lines = texts(Screens(relay, Words(relay)).main(view, view["events"], 0, 0)[0])
    fits(lines)
    assert f"Middle: (1) {put} (rank 1)" in lines, lines


# ---------------------------------------------------------------- the event a decision hangs on (b1)

def test_the_last_event_before_the_question_is_said_whole_not_cut():
    rs = ruleset()
    game = Game(rs, 4, 3)
    view = game.view("p1")
    screens = Screens(rs, Words(rs))
    blow = {"type": "damage", "player": "p1", "characters": ["trooper.p1"], "amount": 2, "prevented": 1}
    for turn in ("p2", "p1"):  # in another's turn (marked !) and in the player's own
        events = [{"type": "turn_started", "player": turn}, dict(blow)]
        lines = screens.main(view, events, 0, 0)[0]
        fits(lines)
        flat = re.sub(r"\s*\n\s*", " ", "\n".join(texts(lines)))
        assert "amount: 2; damage prevented: 1)." in flat, "\n".join(texts(lines))
        assert not any(t.endswith("…") for t in texts(lines) if "amount" in t or "prevented" in t)


# ---------------------------------------------------------------- words (b8, b10, b11, b15, b16)

@pytest.fixture(scope="module")
def words_of():
    games = {"panic_station": 4, "star_trek_panic": 1, "stationfall": 3}
    rulesets = {name: load_checked(ROOT / name) for name in games}

    def words(name: str, lang: str = "en") -> Words:
        w = Words(rulesets[name], lang)
        w.know_view(Game(rulesets[name], games[name], 3).view("p1"))
        return w
    return words


def test_an_events_audience_is_never_a_field_and_a_field_set_to_nothing_is_left_out(words_of):
    for lang in ("en", "fr"):
        w = words_of("panic_station", lang)
        host = w.event({"type": "became_host", "player": "p1", "audience": ["p1"]})
        assert "audience" not in host and "destinataires" not in host and "p1" in host
        out = w.event({"type": "eliminated", "character": "android.p3", "by": None})
        assert w.say["nobody"] not in out and "responsible" not in out and "responsable" not in out
    assert words_of("panic_station").event({"type": "eliminated", "character": "android.p3", "by": "p2"}) == \
        "A character is eliminated (character: Android p3; responsible player: p2)."


def test_a_sentence_opens_with_a_capital_unless_with_a_seat_or_a_copys_id(words_of):
    w = words_of("star_trek_panic")
    assert w.event({"type": "changed", "entity": "port", "property": "sector", "value": 6}).startswith("Port")
    w = words_of("panic_station")
    assert w.event({"type": "changed", "entity": "p1", "property": "ap", "value": 3}) == "p1 now has 3 action points."


def test_a_pile_shuffled_takes_its_article(words_of):
    assert words_of("panic_station").event({"type": "shuffled", "zone": "exploration_deck"}) == \
        "The exploration deck is shuffled."
    assert words_of("panic_station", "fr").event({"type": "shuffled", "zone": "exploration_deck"}).startswith(
        "On mélange la ")
    # a pile named in the plural only agrees
    assert words_of("panic_station").event({"type": "shuffled", "zone": "bottom_three"}) == \
        "The bottom three cards are shuffled."


def test_french_says_a_players_zone_with_its_article_and_elides(words_of):
    w = words_of("panic_station", "fr")
    told = w.event({"type": "moved", "entity": "?", "source": "hand:p2", "destination": "hand:p4"})
    assert told == "Un élément caché passe de la main de p2 à la main de p4.", told
    w = words_of("stationfall", "fr")
    assert "d'Astrochimp" in w.event({"type": "moved", "entity": "helmet.1", "source": "aft_airlocks",
                                       "destination": "slots:astrochimp"})


def test_french_placements_say_the_side_where_the_laid_room_lies():
    rs = ruleset()
    game = Game(rs, 4, 323, settings=PLAY_SETTINGS)
    while game.pending.kind == "action":  # p1 explores: where to lay the new room
        choose_action(game, "explore", **next(o["args"] for o in game.pending.options if o["action"] == "explore"))
    view = game.view(game.pending.player)
    w = Words(rs, "fr")
    w.know_view(view)
    labels = [w.option(option)["label"] for option in view["choice"]["options"]]
    # the room already laid is said on the new room's side where it lies: "du côté est"
    assert any("du côté est" in label or "du côté ouest" in label for label in labels), labels
    assert not any(re.search(r"\b(au|à le) (est|ouest)\b", label) for label in labels), labels


def test_counts_agree_in_each_language(words_of):
    fr = words_of("panic_station", "fr")
    assert fr.status("character", "health", 1) == "1 point de vie"
    assert fr.status("character", "health", 3) == "3 points de vie"
    assert fr.status("player", "ap", 0) == "0 point d'action"
    assert words_of("panic_station").status("player", "ap", 0) == "0 action points"
    assert words_of("panic_station").status("player", "ap", 1) == "1 action point"


def test_an_owner_by_its_name_and_a_rule_sets_mark_for_not_set(words_of):
    w = words_of("stationfall")
    assert w.name("influence:astrochimp") == "Astrochimp's Influence"  # the zone's word, not the step's
    assert w.status("player", "influence_limit", -1) == "Influence Limit none"
    assert w.status("player", "influence_limit", 8) == "Influence Limit 8"
    assert words_of("stationfall", "fr").status("player", "influence_limit", -1) == "Limite d'Influence aucune"


def test_the_end_screen_says_the_rule_sets_round_and_a_person_is_not_nobody_in_french():
    rs = ruleset()
    game = Game(rs, 4, 3)
    seats = {"p1": "humain", "p2": "bot random", "p3": "bot random", "p4": "bot random"}
    lines = Screens(rs, Words(rs, "fr"), "fr").final(game.state, {"winners": []}, seats, 7)
    assert lines[-1] == f"7 décisions, tour de jeu {game.state.round}", lines[-1]
    from rulecraft.screen_words import TERMINAL
    assert TERMINAL["fr"]["seat_human"] != TERMINAL["fr"]["nobody"]


@pytest.mark.parametrize("game, players", [("panic_station", 4), ("star_trek_panic", 1), ("stationfall", 3),
                                           ("tic_tac_toe", 2)])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_short_game_of_each_shipped_rule_set_shows_no_engine_words(typed, capsys, game, players, lang):
    typed("", *["1"] * 12, "h", "t", "q")
    assert play("--players", players, "--human", "p1", "--seed", 7, "--lang", lang, rules=ROOT / game) == 0
    out = capsys.readouterr().out
    for line in out.split("\n"):
        line = re.sub(r"^p1> ", "", line)  # the prompt, and the next screen after the input typed
        assert len(line) <= 80, line
        assert "audience" not in line and "destinataires" not in line, line
        assert not re.search(r"\bau (est|ouest)\b|\b1 (points|joueurs|players)\b", line), line
    assert "Traceback" not in out and "internal error" not in out

