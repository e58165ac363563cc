"""`rulecraft play RULESET`: a hot-seat game in the terminal, people and bots together.

This module is the driver: the interpreter never reads input. For each pending choice
of a human seat it shows a "pass the device" screen (so one player's hidden cards are
never on screen for the next), then that player's view only, in a screen of 80×24
(`play_screen`): the board, their hand and pieces, what happened since their last
choice (in plain sentences, shared with the browser table through
``rulecraft.narration``) and the numbered options. Commands show the history, the whole
board, the player's own things in full, the other players and the help; ``s`` saves the game (``s FILE`` elsewhere; its
log: seed and decisions, replayed on ``--resume``), ``q`` quits.

``option_label`` and ``event_text`` are the engine's own short forms, which
``rulecraft replay`` prints next to the log it checks.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Callable

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

from rulecraft.bots import bot_names, bot_problem, cannot_play, view_for
from rulecraft.bots.seating import Seating, side_bot_problem
from rulecraft.docgen.glossary import languages
from rulecraft.dsl.variants import available_variants
from rulecraft.interpreter.game import PLAYER_FACING, Game
from rulecraft.interpreter.gamelog import GameLog, GameLogError
from rulecraft.interpreter.machine import RuleRuntimeError
from rulecraft.interpreter.state import scripted_seats
from rulecraft.languages import languages as spoken_languages
from rulecraft.narration import Words, says_nothing

from .common import (bot_arg, input_problem, language_arg, load_or_report, players_problem, positive_int, replace_file, replace_problem,
                     ruleset_arg, seed_arg, side_bot_arg, usage_error, variant_arg, variant_problem)
from .locked_save import LockError, PassphraseMissing, ask_passphrase, lock, read_log_or_save
from .play_screen import UI, Screens, number_keys, wrap

HUMAN = "human"
# how to give bots seats to play (--bot and --bot-for play the seats --human leaves out)
HOW_TO_SEAT = ": give --human P for the seats people play; --bot plays the others"


# ------------------------------------------------------------------ words for values
def value_text(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return " ".join(f"{k}={value_text(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    return str(value)


def option_label(option) -> str:
    """A readable menu line for one legal option: action name and its arguments."""
    if isinstance(option, dict) and ("action" in option or "reaction" in option):
        name = value_text(option.get("action") or option.get("reaction"))
        args = option.get("args") or {}
        if not args:
            return name
        # a logged event read back from a file may hold anything: show it, never fail on it
        values = args.values() if isinstance(args, dict) else [args]
        return f"{name}  " + " → ".join(value_text(v) for v in values)
    return value_text(option)


def event_text(event: dict) -> str:
    """One line for an event, as a player sees it."""
    kind = event.get("type")
    fields = {k: v for k, v in event.items() if k not in ("type", "seq") and not k.startswith("_")}
    if kind == "moved":
        return (f"moved  {event.get('entity')}: {value_text(event.get('source') or 'off the table')} → "
                f"{value_text(event.get('destination') or 'off the table')}")
    if kind == "action_taken":
        return f"{event.get('player')}: {option_label({'action': event.get('action'), 'args': event.get('args')})}"
    if kind == "reacted":
        return f"{event.get('player')} reacts: {option_label({'reaction': event.get('reaction'), 'args': event.get('args')})}"
    if kind == "changed":
        return f"changed  {event.get('entity')}.{event.get('property')} = {value_text(event.get('value'))}"
    if not fields:
        return str(kind)
    return f"{kind}  " + ", ".join(f"{k}={value_text(v)}" for k, v in fields.items())


def whole_number(text: str) -> int | None:
    """A number typed in the digits 0 to 9 (what a keyboard's number keys give), else None:
    other characters Unicode counts as digits ("²", "١") are no number here, and a number
    longer than any option or page is read as one too large to be any."""
    if not text or not text.isascii() or not text.isdigit():
        return None
    digits = text.lstrip("0") or "0"
    return int(digits) if len(digits) <= 18 else 10 ** 18


def _page(text: str) -> int:
    """The page a command names (``h 2``); page 1 when it names none."""
    number = whole_number(text.strip())
    return 1 if number is None else number


# ------------------------------------------------------------------ saving
def save_lines(game: Game, seats: dict[str, str], side_bots: dict[str, str] | None = None) -> list[str]:
    """The game's log (``Game.write_log`` format) with the seats (and the bots chosen by
    side, when any) added to its header."""
    return game.log_lines({"seats": seats, "bot_for": side_bots} if side_bots else {"seats": seats})


def write_save(path: str, lines: list[str], passphrase: str | None = None) -> None:
    """Write a save readable by its owner only (it holds every hidden card: see
    SECURITY.md), locked when a passphrase is given, and replace the file whole so
    that a failed write never leaves half a save (``replace_file``: a device, a pipe
    or a folder is refused, never replaced). OSError says why it was not written."""
    text = "\n".join(lines) + "\n"
    if passphrase is not None:
        text = lock(text, passphrase)
    replace_file(path, text, keep_mode=False)


class SaveError(Exception):
    """A saved game that cannot be resumed (unreadable, malformed, altered); one line."""


def read_save(path: str) -> tuple[GameLog, str | None]:
    """A saved game (a checked game log) and, for a locked save, its passphrase (asked)."""
    try:
        return read_log_or_save(path)
    except GameLogError as err:
        raise SaveError(str(err)) from None


# ------------------------------------------------------------------ the session
class PlaySession:
    """Drives one game: bots answer their seats' choices, people answer through ``read``.

    ``read(prompt) -> str`` is the only source of input (default: the console's input),
    ``console`` the only output, so the loop can be driven by a script.
    """

    def __init__(self, ruleset, game: Game, seats: dict[str, str], *, console: Console | None = None,
                 read: Callable[[str], str] | None = None, save_path: str | None = None,
                 seen: dict[str, int] | None = None, passphrase: str | None = None, lang: str = "en",
                 side_bots: dict[str, str] | None = None):
        self.ruleset = ruleset
        self.game = game
        self.seats = seats
        self.console = console or Console()
        self.read = read or self.console.input
        # named by the time, not the seed: whoever knows the seed can deal the game again
        self.save_path = save_path or f"{ruleset.name}-{time.strftime('%Y%m%d-%H%M%S')}.save.jsonl"
        # a bot seat's bot, or the bot of the side it is on at that decision (bots.seating)
        order = list(seats)
        self.side_bots = dict(side_bots or {})
        self.seating = Seating(ruleset, {p: name for p, name in seats.items() if name != HUMAN}, self.side_bots,
                               lambda p: _bot_seed(game.seed, order.index(p)))
        # player → how many events they had seen (in their own stream) when they last chose
        self.seen = dict(seen or {})
        self.passphrase = passphrase  # saves are locked with it (see locked_save)
        self.at_device: str | None = None
        # how many decisions the game had when it was last saved, and where: a resumed game
        # is saved in the file it was resumed from until it changes
        self.saved_at: int | None = None
        self.saved_in: str | None = None
        self.lang = lang
        self.words = Words(ruleset, lang)
        self.screens = Screens(ruleset, self.words, lang, width=min(80, max(40, self.console.width)))
        self.page = 0  # which page of the options the screen shows
        self.pages = 1

    # ---- the loop
    def run(self) -> int:
        game = self.game
        try:
            while not game.over:
                choice = game.pending
                if self.seats.get(choice.player, HUMAN) != HUMAN:
                    bot = self.seating.bot_for(game.state, choice.player)
                    self._choose(bot.choose(view_for(game, bot, choice.player)))
                    continue
                if self.at_device != choice.player:
                    if not self.pass_screen(choice.player):
                        return self.quit()
                    self.at_device = choice.player
                answer = self.ask(choice.player)
                if answer is None:
                    return self.quit()
                # what follows from this choice is news for the player's next screen
                self.seen[choice.player] = game.visible_count(choice.player)
                self._choose(answer)
        except RuleRuntimeError as err:
            ui = UI[self.lang]
            self.console.print(f"[red]{escape(ui['rule_error'])}[/] {escape(str(err))}")
            saved = self.save()
            if saved:
                self.console.print(escape(ui["cannot_go_on"].format(path=saved)), highlight=False)
            return 1
        self.final_screen()
        return 0

    def _choose(self, index: int) -> None:
        try:
            self.game.choose(index)
        except RuleRuntimeError:
            self.game.decisions.append(index)  # the saved log then replays up to the error
            raise

    def quit(self) -> int:
        if self.saved_at == len(self.game.decisions):
            self.console.print(escape(UI[self.lang]["bye_saved"].format(path=self.saved_in or self.save_path)),
                               highlight=False)
        else:
            self.console.print(Text(UI[self.lang]["bye_unsaved"]), highlight=False)
        return 0

    def _readline(self, prompt: str) -> str | None:
        try:
            return self.read(prompt)
        except EOFError:
            self.console.print("\n" + UI[self.lang]["input_closed"], highlight=False)
            return None

    def clear(self) -> None:
        """Clear the screen, and on a terminal its scrollback, so no one scrolls back to another hand."""
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write("\x1b[3J")
            self.console.file.flush()

    def pass_screen(self, player: str) -> bool:
        self.clear()
        props = self.game.state.entities[player]["props"]
        # the seat's marks that name it (a colour), in the language's words, as written when the
        # glossary has none; a number (the seats' order) or a yes/no names nobody: "p2 (2)" reads as a name
        seat = ", ".join(self.words.name(props[k]) for k in self.ruleset.data.game.seats
                         if isinstance(props.get(k), str) and not says_nothing(props.get(k)))
        who = f"{player} ({seat})" if seat else player  # the seat's own marks (game.seats)
        ui = UI[self.lang]
        self.console.print(Panel(Text(ui["pass"].format(who=who) + "\n\n" + ui["pass_enter"]),
                                 title=escape(self.ruleset.data.game.title), border_style="magenta"))
        text = self._readline("> ")
        return text is not None and text.strip().lower() != "q"

    def show(self, lines) -> None:
        """Print screen lines as they are: text of the rule set is never read as markup."""
        for line in lines:
            text, style = line if isinstance(line, tuple) else (line, "")
            self.console.print(Text(text, style=style), no_wrap=True, overflow="crop", highlight=False)

    def screen(self, player: str) -> None:
        view = self.game.view(player)
        self.clear()
        lines, self.pages = self.screens.main(view, view["events"], self.seen.get(player, 0), self.page)
        self.page = min(self.page, self.pages - 1)
        self.show(lines)

    def ask(self, player: str) -> int | None:
        """Show the player's screen and read until a legal option number (None: quit)."""
        self.page = 0
        self.screen(player)
        ui = UI[self.lang]
        count = len(self.game.pending.options)
        values = number_keys(self.game.view(player).get("choice"))
        while True:
            text = self._readline(f"{player}> ")
            if text is None:
                return None
            typed = text.strip()
            text = typed.lower()
            command, _, rest = text.partition(" ")
            if command in ("q", "quit"):
                return None
            if command in ("s", "save"):
                # a file name keeps its case
                saved = self.save(typed.partition(" ")[2].strip() or None)
                if saved:
                    self.console.print(escape(UI[self.lang]["saved"].format(path=saved)), highlight=False)
            elif command in ("r", "redraw"):
                self.screen(player)
            elif command in ("+", "-"):
                self.page = max(0, min(self.pages - 1, self.page + (1 if command == "+" else -1)))
                self.screen(player)
            elif command in ("?", "help"):
                self.show(self.screens.help())
            elif command in ("m", "map"):
                self.whole_map(player, rest)
            elif command in ("t", "table"):
                self.show(self.screens.table(self.game.view(player)))
            elif command in ("y", "yours"):
                self.yours(player, rest)
            elif command in ("h", "history"):
                self.history(player, rest)
            elif not text and count == 1:
                return 0  # the only option: nothing to choose between, Enter takes it
            elif not text:
                self.say(ui["empty"].format(count=count))
            elif "\x1b" in typed:  # an arrow or another special key: its code is no text to show
                self.say(ui["special_key"].format(count=count))
            elif values is not None and whole_number(text) not in values:
                self.say(ui["not_number_offered"].format(text=text[:20], low=min(values), high=max(values)))
            elif values is not None:
                return values.index(whole_number(text))
            elif whole_number(text) is None:
                self.say(ui["not_option"].format(text=text[:20], count=count))
            elif not 1 <= whole_number(text) <= count:
                shown = text.lstrip("0") or "0"
                self.say(ui["no_option"].format(n=shown if len(shown) <= 20 else shown[:20] + "…", count=count))
            else:
                return whole_number(text) - 1

    def say(self, reason: str) -> None:
        """A refused input: why, wrapped to the screen's width (never cut mid-word); nothing was chosen."""
        self.show([(line, "yellow") for line in wrap(reason, self.screens.width, indent="")])

    def whole_map(self, player: str, page_text: str) -> None:
        view = self.game.view(player)
        page = _page(page_text)
        lines = self.screens.whole_map(view, page)
        if lines is None:
            self.say(UI[self.lang]["no_map_page"].format(n=page, pages=self.screens.map_pages(view)))
            return
        self.show(lines)

    def yours(self, player: str, page_text: str) -> None:
        view = self.game.view(player)
        page = _page(page_text)
        lines = self.screens.yours(view, page)
        if lines is None:
            self.say(UI[self.lang]["no_yours_page"].format(n=page, pages=self.screens.yours_pages(view)))
            return
        self.show(lines)

    def history(self, player: str, page_text: str) -> None:
        events = self.game.events_for(player)
        self.words.know_view(self.game.view(player))
        page = _page(page_text)
        lines = self.screens.history(events, page)
        if lines is None:
            self.say(UI[self.lang]["no_page"].format(n=page, pages=self.screens.history_pages(events)))
            return
        self.show(lines)

    def save(self, path: str | None = None) -> str | None:
        """Save the game, to ``path`` when given (and there from then on); where it
        went, or None when it could not be written: the reason is shown, nothing is
        chosen and the game goes on, to be saved elsewhere (``s FILE``) or played on."""
        path = path or self.save_path
        problem = input_problem(path, [self.game.ruleset.root])
        if problem:
            ui = UI[self.lang]
            self.console.print(f"[red]{escape(ui['not_saved'])}[/] {escape(problem)}{self.words.say['fields_separator']}"
                               f"{escape(ui['goes_on'])}", highlight=False)
            return None
        try:
            write_save(path, save_lines(self.game, self.seats, self.side_bots), self.passphrase)
        except OSError as err:
            ui = UI[self.lang]
            self.console.print(f"[red]{escape(ui['cannot_save'].format(path=path))}[/] {escape(err.strerror or str(err))}"
                               f"{self.words.say['fields_separator']}{escape(ui['not_saved_goes_on'])}", highlight=False)
            return None
        self.save_path = path
        self.saved_at, self.saved_in = len(self.game.decisions), path
        return path

    def final_screen(self) -> None:
        self.clear()
        ui = UI[self.lang]
        # who played each seat: a person, a bot by its name, or the rules' script
        seats = {p: ui["seat_script"].format(script=self.words.name(self.game.machine.scripted[p]))
                 if p in self.game.machine.scripted else ui["seat_human"] if self.seats.get(p, HUMAN) == HUMAN
                 else ui["seat_bot"].format(bot=self.seats[p]) for p in self.game.state.players}
        # The game is over: the table is turned face up, every player's status shown,
        # after what happened since the last decision (a final scoring, cards revealed), as
        # every player saw it: the table is shared now
        common = self.game.events_for(EVERY_SEAT)
        last = max((i for i, e in enumerate(common) if e["type"] in ("action_taken", "reacted")), default=-1)
        self.show(self.screens.final(self.game.state, self.game.result, seats, len(self.game.decisions),
                                     common[last + 1:]))


# Who sees only what every player sees (a viewer who is no seat): the final screen's news.
EVERY_SEAT = "everyone"


# People share one table: a reaction window asks everyone it could concern, so the
# pass screens never tell who holds a reaction card.
PLAY_SETTINGS = PLAYER_FACING


def _bot_seed(game_seed: int, seat: int) -> int:
    from .simulate import bot_seed

    return bot_seed(game_seed, seat)


def replay_for_play(ruleset, players: int, seed: int, decisions: list[int],
                    settings: dict | None = None) -> tuple[Game, dict[str, int]]:
    """Replay saved decisions with the ``settings`` they were made under (the log's
    header: a log of ``simulate`` has none of play's); also where each player's last
    choice left their events."""
    game = Game(ruleset, players, seed, settings=settings)
    seen: dict[str, int] = {}
    for d in decisions:
        if game.pending is not None:
            seen[game.pending.player] = game.visible_count(game.pending.player)
        game.choose(d)
    return game, seen


# ------------------------------------------------------------------ the command
def add_parser(sub) -> None:
    p = sub.add_parser("play", help="play a game in the terminal (hot-seat), with bots in the other seats",
                       description="Play in the terminal: each human seat sees only its own view, after a "
                                   "'pass the device' screen. Seats not named with --human are played by bots; "
                                   "without --human every seat is human (and --bot is refused). Type s to save, q to quit.")
    p.add_argument("ruleset", type=ruleset_arg, help="a rule-set folder (rules/<game>) or a shipped rule set's name")
    p.add_argument("--players", type=positive_int, default=None,
                   help="players (default: the rule set's minimum, or the saved game's)")
    p.add_argument("--human", action="append", metavar="PLAYER",
                   help="a seat played by a person, e.g. p1 (repeatable; default: every seat)")
    p.add_argument("--bot", type=bot_arg, default=None, metavar="NAME",
                   help=f"the bot for the seats --human leaves out (default random; known: {', '.join(bot_names())}); "
                        "with --resume alone, the bot for the saved game's bot seats")
    p.add_argument("--bot-for", type=side_bot_arg, action="append", metavar="SIDE=BOT", default=[],
                   help="the bot for the bot seats on SIDE, a side of the rule set (repeatable), read at each "
                        "decision: a bot seat that changes sides changes bots")
    p.add_argument("--seed", type=seed_arg, default=None,
                   help="the game's seed (default: a random one, never shown: it would reveal every hidden card)")
    p.add_argument("--save", metavar="FILE", help="where s saves (default <ruleset>-<date>-<time>.save.jsonl; "
                                                  "s FILE saves elsewhere during the game)")
    p.add_argument("--resume", metavar="FILE", help="continue a saved game or any game log (its seed, players, seats, "
                                                    "settings and variant)")
    p.add_argument("--variant", type=variant_arg, metavar="V", help="play the rule set's variant V")
    p.add_argument("--lang", type=language_arg, default="en", metavar="LANG",
                   help=f"{', '.join(spoken_languages())}: the language of the screens, events and options "
                        "(game words from the rule set's glossary)")
    p.add_argument("--passphrase", action="store_true",
                   help="lock the saves with a passphrase (asked without echo, or read from "
                        "RULECRAFT_SAVE_PASSPHRASE); a locked save asks for it on --resume")
    p.set_defaults(run=run)


def _bad(message: str) -> int:
    return usage_error("play", message)


def run(args, *, console: Console | None = None, read: Callable[[str], str] | None = None) -> int:
    console = console or Console()
    variant = args.variant
    problem = variant_problem(args.ruleset, variant)
    if problem:
        return _bad(f"argument --variant: {problem}")
    if args.save is not None:
        problem = input_problem(args.save, [args.ruleset])  # a save over a rule file loses both
        if problem:
            return _bad(f"argument --save: {problem}")
        problem = replace_problem(args.save)
        if problem:
            return _bad(f"argument --save: cannot write '{args.save}': {problem}")
    saved: GameLog | None = None
    passphrase = None
    if args.resume:
        try:
            saved, passphrase = read_save(args.resume)
        except PassphraseMissing as err:
            return _bad(f"argument --resume: {err}")
        except SaveError as err:
            console.print(f"[red]error:[/] {escape(str(err))}", highlight=False)
            return 1
        saved_variant = saved.header.get("variant")
        if variant is not None and variant != saved_variant:
            played = f"with variant {saved_variant!r}" if saved_variant is not None else "with the base rules"
            return _bad(f"the saved game is played {played}, not with variant {variant!r}: resume it without "
                        f"--variant" + ("" if saved_variant is None else f", or with --variant {saved_variant}"))
        if saved_variant is not None and saved_variant not in available_variants(Path(args.ruleset)):
            # not a broken rule set: the save belongs to another one (a copy with its own variants)
            known = ", ".join(available_variants(Path(args.ruleset))) or "none"
            return _bad(f"the saved game is a game of the variant {saved_variant!r}, which {args.ruleset} does not "
                        f"have (its variants: {known}): resume it with the rule set it was played on")
        variant = saved_variant
    if getattr(args, "passphrase", False) and passphrase is None:
        try:
            passphrase = ask_passphrase("to lock the saves with", twice=True)
        except PassphraseMissing as err:
            return _bad(f"argument --passphrase: {err}")
        except LockError as err:
            console.print(f"[red]error:[/] {escape(str(err))}", highlight=False)
            return 1
    ruleset = load_or_report(args.ruleset, variant)
    if ruleset is None:
        return 1
    spec = ruleset.data.game
    seen: dict[str, int] = {}
    saved_seats: dict[str, str] = {}
    saved_side_bots: dict[str, str] = {}
    if saved is not None:
        header, decisions, final = saved.header, saved.decisions, saved.final
        if header.get("ruleset") != ruleset.name:
            console.print("[red]error:[/] " + escape(f"{args.resume} is a game of '{header['ruleset']}', "
                                                   f"not of {ruleset.name}"), highlight=False)
            return 1
        players, seed = header["players"], header["seed"]
        problem = players_problem(ruleset, players)
        if problem:
            console.print("[red]error:[/] " + escape(f"{args.resume}: {problem}"), highlight=False)
            return 1
        if args.players is not None and args.players != players:
            return _bad(f"the saved game has {players} players, not {args.players}")
        if args.seed is not None and args.seed != seed:
            return _bad(f"the saved game has seed {seed}, not {args.seed}")
        saved_seats = header.get("seats") or {}
        saved_side_bots = header.get("bot_for") or {}
        settings = header.get("settings") or {}
        if settings != PLAY_SETTINGS:
            # the decisions were made under the log's settings and mean something else under
            # others, so the game goes on under them; the table is told what that changes
            shows = ("" if settings.get("ask_every_eligible") else ": a question out of turn goes only to those "
                     "who can answer it, so the pass screen shows who can")
            console.print(f"[yellow]note:[/] {escape(args.resume)} was played with the settings "
                          f"{escape(json.dumps(settings))}, not play's {escape(json.dumps(PLAY_SETTINGS))}, and goes "
                          f"on with them{shows}", highlight=False)
    else:
        players = args.players or spec.min_players
        # A seed deals the whole game: one a player could guess or try out (a small
        # range) would tell them every hidden card, so it is drawn from 2**63 by the OS.
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 63)
        decisions, final = [], None
    problem = players_problem(ruleset, players)
    if problem:
        return _bad(problem)
    ids = [f"p{i}" for i in range(1, players + 1)]
    scripted = scripted_seats(ruleset, players)
    for h in args.human or []:
        if h in scripted:
            return _bad(f"player '{h}' is played by the script '{scripted[h]}' of the rules, not by a person")
        if h not in ids:
            return _bad(f"there is no player '{h}' (players: {', '.join(ids)})")
    if args.bot and not args.human:
        # --bot plays the seats no person plays: a resumed game's bot seats, or none at all
        kept = {p: saved_seats.get(p, HUMAN) for p in ids}
        if all(s == HUMAN for s in kept.values()):
            return _bad(f"argument --bot: without --human every seat is played by a person{HOW_TO_SEAT}")
        seats = {p: HUMAN if s == HUMAN else args.bot for p, s in kept.items()}
    elif args.human or not saved_seats:
        humans = set(args.human or ids)
        seats = {p: HUMAN if p in humans else (args.bot or "random") for p in ids}
    else:
        seats = {p: saved_seats.get(p, HUMAN) for p in ids}
        unknown = sorted({s for s in seats.values() if s != HUMAN and bot_problem(s)})
        if unknown:
            return _bad(f"the saved game uses unknown bots {', '.join(unknown)} (known: {', '.join(bot_names())}); "
                        "give the seats again with --human and --bot")
    side_bots = dict(getattr(args, "bot_for", None) or []) or saved_side_bots
    problem = side_bot_problem(ruleset, players, side_bots)
    if problem:
        return _bad(problem)
    if getattr(args, "bot_for", None) and all(s == HUMAN for s in seats.values()):
        return _bad(f"argument --bot-for: every seat is played by a person{HOW_TO_SEAT}")
    unknown = sorted({s for s in side_bots.values() if bot_problem(s)})
    if unknown:
        return _bad(f"the saved game uses unknown bots {', '.join(unknown)} (known: {', '.join(bot_names())})")
    for name in sorted({s for s in seats.values() if s != HUMAN} | set(side_bots.values())):
        problem = cannot_play(name, ruleset)
        if problem:
            return _bad(problem)
    if args.resume:
        try:
            game, seen = replay_for_play(ruleset, players, seed, decisions, settings)
        except Exception as err:  # noqa: BLE001 - an illegal saved decision or a rule error
            console.print(f"[red]error:[/] {escape(args.resume)} does not replay with these rules: {escape(str(err))}",
                          highlight=False)
            return 1
        if final is not None and json.loads(game.state.dumps()) != final:
            console.print(f"[red]error:[/] {escape(args.resume)} does not replay to its saved state with these rules "
                          f"(edited rules or a changed file; 'rulecraft replay {args.resume}' shows where)")
            return 1
    else:
        game = Game(ruleset, players, seed, settings=PLAY_SETTINGS)
    save_path = args.save or args.resume
    session = PlaySession(ruleset, game, seats, console=console, read=read, save_path=save_path, seen=seen,
                          passphrase=passphrase, lang=getattr(args, "lang", "en"), side_bots=side_bots)
    if saved is not None:  # nothing has changed since the file it goes on from
        session.saved_at, session.saved_in = len(game.decisions), args.resume
    ui = UI[session.lang]
    humans_text = ", ".join(p for p, s in seats.items() if s == HUMAN) or ui["no_human"]
    # a resumed game's seed may have been chosen or drawn: its save does not say which
    seed_text = ui["seed"].format(seed=seed) if args.seed is not None else \
        ui["saved_seed"] if saved is not None else ui["secret_seed"]
    count = ui["players_one" if players == 1 else "players_many"].format(n=players)
    console.print(Text(ui["intro"].format(title=spec.title, players=count, seed=seed_text, humans=humans_text)),
                  highlight=False)
    if session.lang != "en" and session.lang not in languages(ruleset):
        # the screens' own words are in the language; the game's come from a glossary it lacks
        console.print(Text(ui["no_glossary"].format(title=spec.title)), style="yellow", highlight=False)
    return session.run()
