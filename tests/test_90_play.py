"""`rulecraft play`: the terminal game driven by scripted input, never by hand only.

Every screen between two prompts fits a terminal of 80×24; events read as sentences
from the rule set's glossary; options say what they cost and where their pieces stand."""

from __future__ import annotations

import io
import json
import re

import pytest
from engine_rulesets import QUIET_SETUP_AND_ROUND, build, game_yaml
from panic_station import RULES, ruleset
from rich.console import Console

from rulecraft.cli.main import main
from rulecraft.cli.play import PLAY_SETTINGS, PlaySession, event_text, option_label
from rulecraft.cli.play_screen import Screens
from rulecraft.cli.terminal_map import board_lines
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.gamelog import final_line
from rulecraft.narration import Words

ROOT = RULES.parent
# what a raw engine line looks like: `changed p1.ap = 4`, `moved ?: a → hand:p4`, a space's id
ENGINE_TEXT = re.compile(r"\bchanged\s|\w\.\w+ = |^moved\s|\w+:p\d\b|\w/\w|\?:")


def play(*args, rules=RULES) -> int:
    try:
        return main(["play", str(rules), *map(str, args)])
    except SystemExit as stop:
        return stop.code


@pytest.fixture
def typed(monkeypatch):
    """Feed lines to input(); running out of lines is end of input."""
    lines: list[str] = []
    prompts: list[str] = []

    def fake_input(prompt=""):
        prompts.append(prompt)
        if not lines:
            raise EOFError
        return lines.pop(0)

    monkeypatch.setattr("builtins.input", fake_input)
    monkeypatch.setenv("COLUMNS", "200")

    def feed(*new):
        lines.extend(new)
        return prompts
    return feed


def choices_of(path, player):
    """How many choices ``player`` answered in a saved game."""
    header = json.loads(path.read_text().splitlines()[0])
    decisions = [json.loads(x)["option"] for x in path.read_text().splitlines()
                 if json.loads(x).get("type") == "decision" and len(json.loads(x)) == 2]
    game = Game(ruleset(), header["players"], header["seed"], settings=header.get("settings"))
    n = 0
    for d in decisions:
        n += game.pending.player == player
        game.choose(d)
    return n, game


def test_invalid_input_reprompts_and_save_writes_the_log(tmp_path, typed, capsys):
    save = tmp_path / "game.jsonl"
    typed("", "abc", "\x1b[A", "0", "99", "", "1", "s", "q")
    assert play("--players", 4, "--human", "p1", "--seed", 3, "--save", save) == 0
    out = capsys.readouterr().out
    assert "Pass the device to p1 (red)" in out
    assert "'abc' is not an option" in out
    assert "arrow and other special keys do nothing here" in out and "'[a'" not in out
    assert "there is no option 0" in out and "there is no option 99" in out
    assert "type the number of an option" in out
    assert f"saved to {save}" in out
    assert "the game is saved" in out
    header = json.loads(save.read_text().splitlines()[0])
    assert header["seed"] == 3 and header["players"] == 4
    assert header["seats"] == {"p1": "human", "p2": "random", "p3": "random", "p4": "random"}
    made, game = choices_of(save, "p1")
    assert made == 1  # the invalid answers chose nothing
    assert json.loads(save.read_text().splitlines()[-1])["state"] == json.loads(game.state.dumps())


def test_save_and_resume_give_the_same_state(tmp_path, typed, capsys):
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    typed("", "2", "1", "s", "q")
    assert play("--players", 4, "--human", "p1", "--human", "p3", "--seed", 8, "--save", first) == 0
    capsys.readouterr()
    typed("", "s", "q")
    assert play("--resume", first, "--save", second) == 0
    out = capsys.readouterr().out
    assert "human seats: p1, p3" in out  # the seats come from the save
    # its seed was chosen (8), not drawn: the banner does not call it random, nor shows it
    assert "the saved game's seed, kept secret" in out and "random seed" not in out and "seed 8" not in out
    assert second.read_text() == first.read_text()
    # and the game goes on from there
    typed("", "1", "s", "q")
    assert play("--resume", second) == 0
    assert len(second.read_text()) > len(first.read_text())


def test_a_save_with_a_bot_given_settings_resumes_with_that_bot(tmp_path, typed, capsys):
    save = tmp_path / "game.jsonl"
    typed("", "1", "s", "q")
    assert play("--players", 4, "--human", "p1", "--bot", "mcts:3", "--seed", 5, "--save", save) == 0
    assert json.loads(save.read_text().splitlines()[0])["seats"]["p2"] == "mcts:3"
    capsys.readouterr()
    typed("", "q")
    assert play("--resume", save) == 0
    assert "unknown bots" not in capsys.readouterr().err


def test_a_save_that_does_not_replay_is_refused(tmp_path, typed, capsys):
    save = tmp_path / "game.jsonl"
    typed("", "1", "s", "q")
    assert play("--players", 4, "--human", "p2", "--seed", 4, "--save", save) == 0
    lines = save.read_text().splitlines()
    final = json.loads(lines[-1])
    final["state"]["round"] += 3
    # edited by hand: the digest of the file no longer matches
    lines[-1] = json.dumps(final)
    save.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert play("--resume", save) == 1
    assert "altered after it was written" in capsys.readouterr().out
    # intact, but its state is not where its decisions lead (other rules wrote it)
    lines[-1] = final_line(lines[:-1], final["state"])
    save.write_text("\n".join(lines) + "\n")
    assert play("--resume", save) == 1
    assert "does not replay to its saved state" in capsys.readouterr().out
    # cut short: refused, not resumed from its decisions alone
    save.write_text("\n".join(lines[:-1]) + "\n")
    assert play("--resume", save) == 1
    assert "incomplete game log" in capsys.readouterr().out


def test_quit_at_the_pass_screen_and_end_of_input(typed, capsys):
    typed("q")
    assert play("--players", 4, "--seed", 1) == 0
    assert "not saved" in capsys.readouterr().out
    typed()  # no input at all
    assert play("--players", 4, "--seed", 1) == 0
    assert "input closed" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["--human", "p7"], "there is no player 'p7' (players: p1, p2, p3, p4)"),
    (["--bot", "clever"], "unknown bot 'clever'"),
    (["--players", "3"], "played by 4 to 6 players, not 3"),
])
def test_bad_arguments(typed, capsys, args, message):
    assert play(*args) == 2
    assert message in capsys.readouterr().err


@pytest.fixture
def screens(monkeypatch, capsys):
    """Play with typed lines on an 80-column terminal; the screens are what was printed
    between two prompts (the prompt included, on the screen's last line)."""
    shown: list[str] = []

    def run(rules, lines, *args):
        pending = list(lines)

        def fake_input(prompt=""):
            shown.append(capsys.readouterr().out)
            if not pending:
                raise EOFError
            return pending.pop(0)

        monkeypatch.setattr("builtins.input", fake_input)
        monkeypatch.setenv("COLUMNS", "80")
        monkeypatch.setenv("LINES", "24")
        code = play(*args, rules=rules)
        shown.append(capsys.readouterr().out)
        return code, shown
    return run


def assert_fits(shown):
    for screen in shown:
        lines = screen.rstrip("\n").split("\n")
        assert len(lines) <= 24, f"{len(lines)} lines:\n{screen}"
        wide = [line for line in lines if len(line) > 80]
        assert not wide, f"lines wider than 80 columns: {wide}"


def assert_sentences(shown):
    for screen in shown:
        for line in screen.split("\n"):
            assert not ENGINE_TEXT.search(line), f"engine text on screen: {line!r}"
            assert not re.search(r"\bNone\b", line), f"a Python value on screen: {line!r}"


@pytest.mark.parametrize("rules, players, lines", [
    (RULES, 4, ["", "1", "1", "h", "2", "abc", "1", "1", "1", "q"]),
    (ROOT / "tic_tac_toe", 2, ["", "5", "", "1", "", "h", "9", "", "q"]),
    (ROOT / "star_trek_panic", 2, ["", "+", "+", "-", "1", "h", "1", "1", "q"]),
    (ROOT / "kuhn_poker", 2, ["", "1", "", "h", "r", "q"]),
    (ROOT / "stationfall", 3, ["", "1", "", "1", "", "1", "", "h", "1", "q"]),
], ids=["panic_station", "tic_tac_toe", "star_trek_panic", "kuhn_poker", "stationfall"])
def test_every_screen_fits_80_by_24_and_speaks_in_sentences(screens, rules, players, lines):
    code, shown = screens(rules, lines, "--players", players, "--seed", 5)
    assert code == 0
    assert len(shown) >= len(lines) - 1
    assert_fits(shown)
    assert_sentences(shown)
    game_screens = [s for s in shown if "to play · you are" in s]
    assert game_screens, "no game screen was shown"
    first = game_screens[0]
    # the board, the player's side and the options come first, on one screen
    assert re.search(r"(?m)^ 1 \S", first), first
    assert re.search(r"you are p\d", first)


def test_the_first_panic_station_screen_shows_map_hand_and_options_in_words(screens):
    code, shown = screens(RULES, ["", "q"], "--players", 4, "--human", "p1", "--seed", 3)
    assert code == 0
    screen = next(s for s in shown if "to play · you are" in s)
    assert "Reactor*" in screen  # the compact map: the viewer's pieces are starred
    assert "o open doorway" in screen and "s security door" in screen
    assert "Hand (5): Infection card p1.1" in screen
    assert "Move: Android p1 → Team Search room (1 action point)" in screen
    assert "p1 now has 4 action points." in screen


def test_history_shows_past_events_and_bad_input_loses_nothing(screens, tmp_path):
    save = tmp_path / "game.jsonl"
    code, shown = screens(RULES, ["", "1", "zzz", "0", "", "h", "h 99", "1", "s", "q"],
                          "--players", 4, "--human", "p1", "--seed", 3, "--save", save)
    assert code == 0
    assert_fits(shown)
    # each refused input: one line of reason, then the prompt again
    refusals = [s for s in shown if s.startswith(("'zzz'", "there is no option 0", "type the number"))]
    assert len(refusals) == 3 and all(s.count("\n") == 1 for s in refusals), refusals
    history = next(s for s in shown if s.startswith("History of what you saw"))
    assert "p4's turn ends." in history and "p1's turn begins." in history
    assert "Trooper p1 and Android p1 move from off the table to Reactor." in history
    assert any(s.startswith("there is no page 99 of the history") for s in shown)
    made, _ = choices_of(save, "p1")
    assert made == 2  # the two options chosen, nothing for the refused inputs or the commands


def test_help_map_and_table_fit_too(screens):
    code, shown = screens(RULES, ["", "?", "m", "t", "q"], "--players", 5, "--human", "p1", "--seed", 9)
    assert code == 0
    assert_fits(shown)
    assert any("h, history" in s for s in shown)
    table = next(s for s in shown if s.startswith("The other players"))
    assert "p2" in table and "face down" in table


def test_french(screens):
    code, shown = screens(RULES, ["", "q"], "--players", 4, "--human", "p1", "--seed", 3, "--lang", "fr")
    assert code == 0
    out = "".join(shown)
    # the round in the French rulebook's word for it (the rule set's glossary)
    assert "Passez l'appareil à p1" in out and "tour de jeu 1 · à p1 de jouer" in out
    assert "Se déplacer\u00a0: Androïde p1 → " in out and "(1 point d'action)" in out
    assert_fits(shown)


def test_events_that_concern_a_player_out_of_turn_are_marked_for_them():
    rs = ruleset()
    game = Game(rs, 4, 3)
    view = game.view("p1")
    screen = Screens(rs, Words(rs))
    screen.words.know_view(view)
    events = [{"type": "turn_started", "player": "p2"},
              {"type": "changed", "entity": "p1", "property": "infected", "value": True},
              {"type": "changed", "entity": "p3", "property": "ap", "value": 2},
              {"type": "turn_ended", "player": "p2"},
              {"type": "turn_started", "player": "p1"},
              {"type": "changed", "entity": "p1", "property": "ap", "value": 4}]
    for_you, other = screen.news(events, 0, view)
    assert for_you == ["! p1 is infected."]
    assert "p3 now has 2 action points." in other and "p1 now has 4 action points." in other
    lines, _ = screen.main(view, events, 0, 0)
    assert ("! p1 is infected.", "bold yellow") in lines


def test_a_reaction_asked_out_of_turn_is_said_first():
    import random

    rs = ruleset()
    game = Game(rs, 4, 0, settings=PLAY_SETTINGS)
    pick = random.Random(0)
    for _ in range(2000):
        view = game.view(game.pending.player)
        in_turn = any(frame["k"] == "turn" for frame in game.state.stack)  # not between turns
        if view["choice"]["kind"] == "reaction" and view["current"] != game.pending.player and in_turn:
            break
        game.choose(pick.randrange(len(game.pending.options)))
    else:
        pytest.fail("no reaction out of turn in this game")
    lines, _ = Screens(rs, Words(rs)).main(view, view["events"], 0, 0)
    text = [t for t, _ in lines]
    assert f"! {view['current']}'s turn: you are asked to react." in text
    assert len(lines) <= 23 and all(len(t) <= 80 for t in text)


def test_hot_seat_screens_show_only_the_players_own_view():
    """Four people at one device: a screen shows nothing its player may not see, and every
    change of player passes through an empty 'pass the device' screen."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=80, color_system=None)
    rs = ruleset()
    game = Game(rs, 4, 12, settings=PLAY_SETTINGS)
    words = Words(rs)
    words.know_entities(game.state.entities)  # every thing's name, hidden or not
    checked = {"screens": 0, "passes": 0}
    marks = {"start": 0}
    answers = iter([1, 2, 1, 3, 1, 1, 2, 1, 4, 1, 2, 1, 1, 3, 2, 1, 1, 1, 2, 1, 1, 5, 1, 1, 2, 1, 1, 1, 3, 1] * 2)
    commands = iter(["h", "t", "m"] * 20)

    def hidden_from(player):
        """Things in a zone neither in the player's view nor named by an event they may
        see (a player knows which card they gave away)."""
        view = game.view(player)
        seen = set(view["entities"])
        seen.update(z["top"] for z in view["zones"].values() if isinstance(z, dict) and "top" in z)
        for e in game.events_for(player):  # a field may name one thing or list several (a hand shown)
            for v in e.values():
                seen.update(x for x in (v if isinstance(v, list) else [v]) if isinstance(x, str))
        seen_names = {words.name(eid) for eid in seen}  # copies without a number share their word
        return [eid for eid, e in game.state.entities.items()
                if eid not in seen and e["at"] and words.name(eid) not in seen_names]

    def shown(text, eid):
        # a name, not the start of a longer one ("Run card" is not "Run card 2", another copy)
        return re.search(rf"(?<![\w.]){re.escape(words.name(eid))}(?![\w.]| \d)", text)

    def read(prompt):
        text = buffer.getvalue()[marks["start"]:]
        marks["start"] = len(buffer.getvalue())
        if prompt == "> ":  # the pass screen: nobody's cards on it
            checked["passes"] += 1
            assert "Pass the device to" in text
            assert not any(shown(text, eid) for eid in game.state.entities if game.state.entities[eid]["at"]
                           and rs.data.zones.get(game.state.entities[eid]["at"].split(":")[0]))
            return ""
        player = prompt.rstrip("> ")
        checked["screens"] += 1
        leaks = [words.name(eid) for eid in hidden_from(player) if shown(text, eid)]
        assert not leaks, f"{player}'s screen shows {leaks}:\n{text}"
        assert len(text.rstrip("\n").split("\n")) <= 24
        if checked["screens"] > 60:
            return "q"
        if checked["screens"] % 3 == 0:
            return next(commands)
        return str(min(next(answers), len(game.pending.options)))

    session = PlaySession(rs, game, {p: "human" for p in game.state.players}, console=console, read=read)
    assert session.run() == 0
    assert checked["passes"] >= 3 and checked["screens"] > 60


def test_engine_short_forms_for_replay():
    assert option_label({"action": "move", "args": {"c": "trooper.p1", "r": "run_b.1/main"}}) == \
        "move  trooper.p1 → run_b.1/main"
    assert option_label({"action": "end_turn"}) == "end_turn"
    assert event_text({"type": "moved", "entity": "?", "source": "hand:p1", "destination": "hand:p2", "seq": 4}) == \
        "moved  ?: hand:p1 → hand:p2"


def test_options_name_places_and_tiles_their_neighbours():
    rs = ruleset()
    game = Game(rs, 4, 3)
    words = Words(rs)
    words.know_view(game.view("p1"))
    reactor = next(z for z in game.state.zones if z.startswith("reactor/"))
    assert words.name(reactor) == "Reactor"
    assert words.option({"x": 0, "y": 1, "rotation": 90})["label"] == \
        "at (0, 1), turned 90°, with Reactor to its north"
    parasite = game.state.zones[reactor][0]
    assert words.option(parasite)["label"] == f"{words.name(parasite)} in Reactor"
    assert words.option({"action": "move", "args": {"c": "trooper.p1", "r": reactor}}) == \
        {"label": "Move: Trooper p1 → Reactor", "cost": "1 action point"}
    fr = Words(rs, "fr")
    fr.know_view(game.view("p1"))
    assert fr.event({"type": "turn_started", "player": "p2"}) == "Le tour de p2 commence."


def test_the_compact_map_of_laid_tiles():
    rs = ruleset()
    game = Game(rs, 4, 3)
    view = game.view("p1")
    words = Words(rs)
    words.know_view(view)
    drawn = board_lines(rs, view, words, {"map_legend": "legend"}, width=80, max_lines=8)
    assert all(len(line) <= 80 for line in drawn.lines) and len(drawn.lines) <= 8
    text = "\n".join(drawn.lines)
    assert "Reactor" in text and "o" in text
    assert drawn.legend == ["legend, o open doorway, s security door"]


def test_a_declared_board_shows_its_occupied_spaces(tmp_path):
    """A ring board is drawn as ranges by sectors, with what stands in each occupied space."""
    from engine_rulesets import build, game_yaml

    rs = build(tmp_path, {
        "game.yaml": game_yaml() + """
kinds:
  player: {}
  cell: {properties: {lit: {type: bool, default: false}}}
  piece: {located_in: cell}
board: {kind: ring, space_kind: cell, sectors: 4, ranges: [near, far]}
components:
  - {name: scout, kind: piece, space: far_2}
""",
        "play.rules": """
procedure setup():
    do:
        set near_3.lit = true

procedure round():
    do:
        for each p in players:
            play_turn(p)
""",
    })
    game = Game(rs, 1, 1)
    view = game.view("p1")
    words = Words(rs)
    words.know_view(view)
    drawn = board_lines(rs, view, words, {"map_legend": ""}, width=80, max_lines=8)
    assert drawn.lines[0].split() == ["1", "2", "3", "4"]
    assert drawn.lines[1].split() == ["far", "·", "1", "·", "·"]
    assert "far 2: scout" in drawn.lines


def test_tic_tac_toe_grid_shows_marks():
    rs = load_checked(ROOT / "tic_tac_toe")
    game = Game(rs, 2, 1)
    game.choose(game.pending.options.index({"action": "mark", "args": {"s": "b2"}}))
    view = game.view("p2")
    words = Words(rs)
    words.know_view(view)
    drawn = board_lines(rs, view, words, {"map_legend": ""}, width=80, max_lines=8)
    assert len(drawn.lines) == 3
    assert re.search(r"b2 x", drawn.lines[1]), drawn.lines


def test_a_grid_shows_whose_piece_stands_on_each_square():
    # every Breakthrough square read "1", white's and black's alike
    rs = load_checked(ROOT / "breakthrough")
    view = Game(rs, 2, 1).view("p1")
    words = Words(rs)
    words.know_view(view)
    drawn = board_lines(rs, view, words, {"map_legend": ""}, width=80, max_lines=9)
    assert re.search(r"a8 bl", drawn.lines[0]) and re.search(r"a1 wh", drawn.lines[-1]), drawn.lines
    assert re.search(r"a4 ·", drawn.lines[4]), drawn.lines


def test_a_large_station_is_cut_to_the_players_part_and_shown_whole_on_demand():
    from panic_station import lay_tile

    rs = ruleset()
    game = Game(rs, 4, 3)
    laid = [t for t in game.state.entities if game.state.entities[t]["kind"] == "exploration_card"
            and t not in game.state.tiles][:9]
    for i, tile in enumerate(laid):  # a long corridor eastwards: wider than the screen
        lay_tile(game, tile, i + 1, 0, 0)
    view = game.view("p1")
    screen = Screens(rs, Words(rs))
    screen.words.know_view(view)
    lines, _ = screen.main(view, view["events"], 0, 0)
    text = "\n".join(t for t, _ in lines)
    assert "part of the board: m shows it all" in text
    assert len(lines) <= 23 and all(len(t) <= 80 for t, _ in lines)
    whole = screen.whole_map(game.view("p1"))
    assert whole[0] == "The whole board, part 1 of 2; m 2 shows the next part"
    rest = screen.whole_map(game.view("p1"), 2)
    assert screen.whole_map(game.view("p1"), 3) is None
    columns = whole[1].split() + rest[1].split()
    assert columns == [str(x) for x in range(len(laid) + 1)]  # every column once, the Reactor's included
    assert all(len(line) <= 80 for line in whole + rest) and len(whole) <= 23 and len(rest) <= 23
    assert "Parasite marker" in "\n".join(rest)  # what lies beside the board, with its holder


def test_star_trek_panic_shows_the_facings_beside_the_board(screens):
    code, shown = screens(ROOT / "star_trek_panic", ["", "m", "q"], "--players", 2, "--human", "p1", "--seed", 3)
    assert code == 0
    assert_fits(shown)
    whole = next(s for s in shown if s.startswith("The whole board, part 1 of 1"))
    assert "Beside the board:" in whole
    assert "bow starboard" in whole
    # every facing says its sector, the one in sector 1 (its kind's default) too
    assert re.search(r"bow starboard: [^·]*sector 1\b", whole)
    assert "shield damage 0" not in whole  # a count at 0 says nothing


def test_the_last_screen_says_who_won_and_why(screens):
    code, shown = screens(ROOT / "tic_tac_toe", ["", "1"] * 9, "--seed", 3)
    assert code == 0
    assert_fits(shown)
    last = shown[-1]
    assert last.startswith("Tic-tac-toe: game over\nthree in a row\n")
    assert "Winners: p1" in last and "p1 ★ (human): mark x" in last


def test_an_event_the_rules_emit_under_an_engine_events_name_is_told_with_its_own_fields(tmp_path, typed, capsys):
    """A rule may emit an event named like one of the engine's own (``rolled``) with other
    fields: it is told field by field, not with the engine's sentence it cannot fill."""
    from engine_rulesets import game_yaml, write_ruleset

    folder = write_ruleset(tmp_path / "race", {
        "game.yaml": game_yaml(players=(2, 2)) + """
kinds:
  player:
    properties:
      score: {type: number, default: 0}
      ap: {type: number, default: 0}
dice:
  d6: [1, 2, 3, 4, 5, 6]
""",
        "play.rules": """
procedure setup():
    do:
        for each p in players:
            set p.score = 0

procedure round():
    do:
        for each p in players:
            play_turn(p)

trigger turn_start:
    on turn_started
    do:
        set event.player.ap = 1

action roll_die:
    cost 1 ap
    do:
        let face = roll(d6)
        set current_player.score += face
        emit rolled(player: current_player, face: face)
""",
    })
    typed("", "1", "r")  # the pass screen, roll the die, then the screen again; then end of input
    assert play("--players", 2, "--human", "p1", "--seed", 1, rules=folder) == 0
    out, err = capsys.readouterr()
    assert "internal error" not in out + err
    face = re.search(r"The d6 die shows (\d)\.", out)
    assert face, out
    assert f"Rolled (player: p1; face: {face.group(1)})." in out


def test_a_grid_too_tall_for_the_screen_shows_its_marked_spaces_and_says_m_shows_it(typed, capsys):
    """Hex's 11 rows do not fit above the options: the screen lists the marked cells
    (stones are marks, not pieces) and says that m shows the whole board."""
    typed("", "1", "r")  # the pass screen, a stone on a1, then the screen again
    assert play("--players", 2, "--human", "p1", "--seed", 2, rules=ROOT / "hex") == 0
    screen = capsys.readouterr().out.rsplit("you are p1", 1)[1]
    assert "part of the board: m shows it all" in screen
    assert re.search(r"\ba1 re\b", screen), screen


@pytest.mark.parametrize("lang, whole, part", [
    ("en", "p1, p2 see king.", "The colour of token is hidden again from p2."),
    ("fr", "p1, p2 voient king.", "Le colour de token est de nouveau caché à p2."),
])
def test_a_thing_or_property_revealed_or_hidden_again_is_told_in_a_sentence(tmp_path, lang, whole, part):
    # the engine's reveal and hide statements, not a list of its event's raw fields
    rs = build(tmp_path, {"game.yaml": game_yaml() + """
kinds:
  player: {}
  card:
    located_in: zone
  marker:
    located_in: zone
    properties:
      colour: {type: text, visible_to: nobody}
zones:
  table: {}
components:
  - {name: king, kind: card, zone: table}
  - {name: token, kind: marker, zone: table, properties: {colour: red}}
""", "main.rules": QUIET_SETUP_AND_ROUND})
    words = Words(rs, lang)
    words.know_entities({"king": {"kind": "card"}, "token": {"kind": "marker"}, "p1": {"kind": "player"},
                         "p2": {"kind": "player"}})
    told = [words.event({"type": "revealed", "entity": "king", "property": None, "players": ["p1", "p2"],
                         "audience": ["p1", "p2"], "seq": 3}),
            words.event({"type": "hidden", "entity": "token", "property": "colour", "players": ["p2"],
                         "audience": ["p2"]})]
    assert told == [whole, part]


def test_a_decision_told_afterwards_says_where_its_pieces_stand_only_if_they_have_not_moved_since():
    # a target hit, then moved: the history must not put it where it stands now
    rs = ruleset()
    game = Game(rs, 4, 12, settings=PLAY_SETTINGS)
    view = game.view(game.pending.player)
    words = Words(rs)
    words.know_view(view)
    piece = next(e for e, seen in view["entities"].items() if seen["kind"] == "character" and seen["at"])
    place = words.where(piece)
    taken = {"type": "action_taken", "player": "p1", "action": "explore", "args": {"c": piece}}
    moved = {"type": "moved", "entity": piece, "source": view["entities"][piece]["at"], "destination": None}
    [still] = words.tell([taken])
    assert f"{words.name(piece)} in {place}" in still
    then, _ = words.tell([taken, moved])
    assert words.name(piece) in then and f" in {place}" not in then


def test_a_language_the_rule_set_has_no_glossary_for_is_said_at_the_start(typed, capsys):
    typed("", "q")
    assert play("--players", 2, "--human", "p1", "--seed", 5, "--lang", "fr", rules=ROOT / "connect_four") == 0
    assert "Connect Four n'a pas de glossaire en français" in capsys.readouterr().out
    typed("", "q")
    assert play("--players", 4, "--human", "p1", "--seed", 5, "--lang", "fr") == 0  # one it has: no word of it
    assert "glossaire" not in capsys.readouterr().out


def test_resuming_a_base_game_with_a_variant_says_so_without_none(tmp_path, typed, capsys):
    save = tmp_path / "game.jsonl"
    typed("", "1", "s", "q")
    assert play("--players", 4, "--human", "p1", "--seed", 5, "--save", save) == 0
    capsys.readouterr()
    assert play("--resume", save, "--variant", "four_gas_cans") == 2
    err = capsys.readouterr().err
    assert "the saved game is played with the base rules, not with variant 'four_gas_cans'" in err
    assert "None" not in err
