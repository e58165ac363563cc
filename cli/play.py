"""`rulecraft play RULESET`: a hot-seat game in the terminal, people and bots together.

This module is the driver: the interpreter never reads input. For each pending choice
of a human seat it shows a "pass the device" screen (so one player's hidden cards are
never on screen for the next), then that player's view only: the board map, their
hand and status, the other players' public side, the events they may see since their
last choice, and the legal options as a numbered menu. ``s`` saves the game (its log:
seed and decisions, replayed on ``--resume``), ``q`` quits.

The presentation helpers (option labels, event lines, the map) are shared with
``rulecraft replay``. The map renderer is generic: it draws the grid of placed tiles
from the rule set's board layouts and lists what stands in each space.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Callable

from rich import box
from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from rulecraft.bots import REGISTRY, bot_names, cannot_play, make_bot, view_for
from rulecraft.interpreter.board import Board, Geometry
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.gamelog import GameLog, GameLogError
from rulecraft.interpreter.machine import RuleRuntimeError
from rulecraft.interpreter.state import scripted_seats, tile_layouts

from .common import any_int, bot_arg, load_or_report, output_problem, positive_int, ruleset_arg, variant_arg
from .locked_save import LockError, ask_passphrase, lock, read_log_or_save

HUMAN = "human"
MAX_EVENTS_SHOWN = 40


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


def props_text(entity_id: str, props: dict, defaults: dict | None = None) -> str:
    """The properties worth showing next to an entity id: not those its id already says,
    nor (given ``defaults``) those still at their default."""
    parts = []
    for name, value in props.items():
        if defaults is not None and name in defaults and defaults[name] == value:
            continue
        if isinstance(value, bool):
            if value:
                parts.append(name)
        elif isinstance(value, (int, float)):
            parts.append(f"{name} {value}")
        elif isinstance(value, str):
            if value not in entity_id:
                parts.append(f"{name} {value}")
        elif value not in (None, [], {}):
            parts.append(f"{name} {value_text(value)}")
    return ", ".join(parts)


def entity_text(view: dict, eid: str, ruleset=None) -> str:
    """An entity id with its notable properties. Cards (in zones rather than on board
    spaces) only show what differs from their kind's defaults."""
    e = view["entities"].get(eid)
    extra = ""
    if e:
        defaults = None
        on_board = e["at"] is not None and ruleset is not None and ruleset.data.zones.get(e["at"].split(":", 1)[0]) is None
        if ruleset is not None and not on_board and e["kind"] in ruleset.data.kinds:
            defaults = {n: p.default for n, p in ruleset.data.kinds[e["kind"]].properties.items()}
        extra = props_text(eid, e["props"], defaults)
    return f"{eid} ({extra})" if extra else eid


# ------------------------------------------------------------------ the board map
def _short_names(names: list[str]) -> dict[str, str]:
    """The shortest unique prefix of each name (open → o, security → s, wall → w)."""
    out = {}
    for name in names:
        for n in range(1, len(name) + 1):
            if sum(1 for other in names if other.startswith(name[:n])) == 1:
                out[name] = name[:n]
                break
        else:
            out[name] = name
    return out


EDGE_STYLES = ["green", "yellow", "dim", "cyan", "magenta", "blue"]


def board_map(ruleset, view: dict):
    """The grid of placed tiles (rooms, door kinds on each side, pieces) and a list of spaces."""
    spec = ruleset.data.board
    if spec is None:
        return Text("(this game has no board)")
    if spec.kind != "tiles":
        return declared_board(ruleset, view)
    if not view["tiles"]:
        return Text("(no tiles placed yet)")
    board = Board(Geometry(spec, tile_layouts(ruleset)), view["tiles"])
    edge_short = _short_names(list(spec.edges))
    edge_style = {e: EDGE_STYLES[i % len(EDGE_STYLES)] for i, e in enumerate(spec.edges)}
    dir_short = _short_names(list(spec.directions))
    cells = {(x, y): t for t, (x, y, _) in view["tiles"].items()}
    xs = sorted({x for x, _ in cells})
    ys = sorted({y for _, y in cells})
    zones = view["zones"]
    entities = view["entities"]

    grid = Table(box=box.SQUARE, show_lines=True, padding=(0, 1), title="board", title_justify="left")
    grid.add_column("", style="dim", justify="right")
    for x in range(xs[0], xs[-1] + 1):
        grid.add_column(str(x), justify="left", min_width=14)
    for y in range(ys[0], ys[-1] + 1):
        row = [str(y)]
        for x in range(xs[0], xs[-1] + 1):
            tile = cells.get((x, y))
            if tile is None:
                row.append("")
                continue
            cell = Text()
            cell.append(tile, style="bold")
            rotation = view["tiles"][tile][2]
            if rotation:
                cell.append(f" ↻{rotation}", style="dim")
            tprops = entities.get(tile, {}).get("props", {})
            flags = props_text(tile, tprops)
            if flags:
                cell.append(f"\n{flags}", style="dim")
            for room in board.geo.rooms_of(tile):
                part = room.rsplit("/", 1)[1]
                rprops = entities.get(room, {}).get("props", {})
                kind = " ".join(str(v) for v in rprops.values() if isinstance(v, str))
                here = zones.get(room, [])
                count = len(here) if isinstance(here, list) else here.get("count", 0)
                cell.append(f"\n{part}: {kind}" if kind else f"\n{part}")
                if count:
                    cell.append(f" ●{count}", style="bold magenta")
            cell.append("\n")
            for i, d in enumerate(spec.directions):
                edge, _ = board.side(tile, d)
                if i:
                    cell.append(" ")
                cell.append(f"{dir_short[d].upper()}:")
                cell.append(edge_short.get(edge, edge), style=edge_style.get(edge, ""))
            row.append(cell)
        grid.add_row(*row)
    legend = Text("sides: ", style="dim")
    for i, e in enumerate(spec.edges):
        legend.append(("  " if i else "") + f"{edge_short[e]} {e}", style=edge_style[e])
    legend.append("   ●n pieces in the space", style="dim")

    spaces = Table(box=box.SIMPLE_HEAD, title="spaces", title_justify="left", padding=(0, 1))
    spaces.add_column("space")
    spaces.add_column("ways out")
    spaces.add_column("here")
    for tile in view["tiles"]:
        for room in board.geo.rooms_of(tile):
            doors = ", ".join(f"{o} ({board.connection(room, o)})" for o in board.connected(room)) or "—"
            here = zones.get(room, [])
            if isinstance(here, list):
                pieces = ", ".join(entity_text(view, e, ruleset) for e in here)
            else:
                pieces = f"{here.get('count', 0)} hidden"
            spaces.add_row(Text(room), Text(doors), Text(pieces or ""))
    return Group(grid, legend, spaces)


SHAPE_PROPERTIES = {"x", "y", "sector", "range"}  # what grids and rings give their spaces


def declared_board(ruleset, view: dict):
    """A board declared whole (graph, grid, hex, ring): every space that holds something
    or shows a property, then the things that lie in no zone nor space (a ship's
    sections, a marker), with their properties."""
    spec = ruleset.data.board
    zones, entities = view["zones"], view["entities"]
    spaces = Table(box=box.SIMPLE_HEAD, title="board", title_justify="left", padding=(0, 1))
    spaces.add_column("space")
    spaces.add_column("here")
    for name in spec.spaces:
        here = zones.get(name, [])
        if isinstance(here, list):
            pieces = ", ".join(entity_text(view, e, ruleset) for e in here)
        else:
            pieces = f"{here.get('count', 0)} hidden"
        props = {k: v for k, v in entities.get(name, {}).get("props", {}).items()
                 if k not in SHAPE_PROPERTIES}  # already said by the space's name
        flags = props_text(name, props)
        shown = "; ".join(part for part in (flags, pieces) if part)
        if shown:
            spaces.add_row(name, shown)
    if not spaces.row_count:
        spaces.add_row("(every space is empty)", "")
    loose = Table(box=box.SIMPLE_HEAD, title="off the board", title_justify="left", padding=(0, 1))
    loose.add_column("thing")
    loose.add_column("properties")
    for eid, e in entities.items():
        if e["at"] is None and e["kind"] not in ("player", spec.space_kind) and eid not in view["players"]:
            loose.add_row(eid, props_text(eid, e["props"]))
    return Group(spaces, loose) if loose.row_count else spaces


# ------------------------------------------------------------------ the player's side
def _owned(ruleset, view: dict, player: str) -> list[str]:
    """Entities on the board that belong to ``player`` (by their kind's owner property)."""
    out = []
    for eid, e in view["entities"].items():
        kind = ruleset.data.kinds.get(e["kind"])
        if kind and kind.owner_property and e["props"].get(kind.owner_property) == player and e["at"] in view["zones"]:
            if ruleset.data.zones.get(e["at"].split(":", 1)[0]) is None:  # a board space, not a hand
                out.append(eid)
    return out


def _zone_text(view: dict, items, ruleset=None) -> str:
    if isinstance(items, list):
        return f"({len(items)}) " + (", ".join(entity_text(view, e, ruleset) for e in items) if items else "empty")
    text = f"{items.get('count', 0)} face down"
    if "top" in items:
        text += f", top {items['top']}"
    return text


def status_panel(ruleset, view: dict) -> Panel:
    me = view["viewer"]
    lines = Text()
    props = view["entities"].get(me, {}).get("props", {})
    lines.append("you: ", style="bold")
    lines.append(", ".join(f"{k} {value_text(v)}" for k, v in props.items()) + "\n")
    for zone, items in view["zones"].items():
        if zone.endswith(f":{me}"):
            lines.append(f"{zone.split(':', 1)[0]}: ", style="bold")
            lines.append(_zone_text(view, items, ruleset) + "\n")
    for eid in _owned(ruleset, view, me):
        e = view["entities"][eid]
        lines.append(f"{eid}", style="bold")
        lines.append(f" in {e['at']}" + (f" ({props_text(eid, e['props'])})" if props_text(eid, e['props']) else "")
                     + "\n")
    turn_vars = {k: v for k, v in view["vars"].get("turn", {}).items() if v not in (None, [], False)}
    if turn_vars:
        lines.append("this turn: ", style="bold")
        lines.append(", ".join(f"{k} {value_text(v)}" for k, v in turn_vars.items()) + "\n")
    lines.rstrip()
    return Panel(lines, title=escape(f"{me}: hand and status"), title_align="left", border_style="cyan")


def table_panel(ruleset, view: dict) -> Panel:
    """What everyone can see of the other players and of the shared zones."""
    t = Table(box=box.SIMPLE, show_header=True, padding=(0, 1))
    t.add_column("player")
    t.add_column("status")
    t.add_column("zones")
    for p in view["players"]:
        if p == view["viewer"]:
            continue
        props = view["entities"].get(p, {}).get("props", {})
        zones = [f"{z.split(':', 1)[0]} {_zone_text(view, items, ruleset)}" for z, items in view["zones"].items()
                 if z.endswith(f":{p}")]
        marker = " ◀ to play" if view["current"] == p else ""
        t.add_row(Text(p + marker), Text(", ".join(f"{k} {value_text(v)}" for k, v in props.items())),
                  Text("; ".join(zones)))
    shared = Text()
    for zone, items in view["zones"].items():
        if ":" in zone or ruleset.data.zones.get(zone) is None:
            continue
        if (isinstance(items, list) and not items) or (isinstance(items, dict) and not items.get("count")):
            continue
        shared.append(f"{zone}: ", style="bold")
        shared.append(_zone_text(view, items, ruleset) + "\n")
    game_vars = {k: v for k, v in view["vars"].get("game", {}).items() if v not in (None, [])}
    if game_vars:
        shared.append("game: ", style="bold")
        shared.append(", ".join(f"{k} {value_text(v)}" for k, v in game_vars.items()))
    shared.rstrip()
    return Panel(Group(t, shared), title="the table", title_align="left", border_style="blue")


# ------------------------------------------------------------------ saving
def save_lines(game: Game, seats: dict[str, str]) -> list[str]:
    """The game's log (``Game.write_log`` format) with the seats added to its header."""
    return game.log_lines({"seats": seats})


def write_save(path: str, lines: list[str], passphrase: str | None = None) -> None:
    """Write a save readable by its owner only (it holds every hidden card: see
    SECURITY.md), locked when a passphrase is given, and replace the file whole so
    that a failed write never leaves half a save."""
    text = "\n".join(lines) + "\n"
    if passphrase is not None:
        text = lock(text, passphrase)
    target = Path(path)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


class SaveError(Exception):
    pass


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
                 seen: dict[str, int] | None = None, passphrase: str | None = None):
        self.ruleset = ruleset
        self.game = game
        self.seats = seats
        self.console = console or Console()
        self.read = read or self.console.input
        # named by the time, not the seed: whoever knows the seed can deal the game again
        self.save_path = save_path or f"{ruleset.name}-{time.strftime('%Y%m%d-%H%M%S')}.save.jsonl"
        self.bots = {p: make_bot(name, _bot_seed(game.seed, i))
                     for i, (p, name) in enumerate(seats.items()) if name != HUMAN}
        # player → how many events they had seen (in their own stream) when they last chose
        self.seen = dict(seen or {})
        self.passphrase = passphrase  # saves are locked with it (see locked_save)
        self.at_device: str | None = None
        self.saved_at: int | None = None

    # ---- the loop
    def run(self) -> int:
        game = self.game
        try:
            while not game.over:
                choice = game.pending
                if self.seats.get(choice.player, HUMAN) != HUMAN:
                    bot = self.bots[choice.player]
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
            self.console.print(f"[red]rule error:[/] {escape(str(err))}")
            saved = self.save()
            if saved:
                self.console.print("the game cannot go on; its log up to here is in " + escape(saved), highlight=False)
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
            self.console.print(f"bye; the game is saved in {escape(self.save_path)}", highlight=False)
        else:
            self.console.print("bye; the game was [bold]not saved[/] since its last change")
        return 0

    def _readline(self, prompt: str) -> str | None:
        try:
            return self.read(prompt)
        except EOFError:
            self.console.print("\ninput closed")
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
        seat = ", ".join(str(props[k]) for k in self.ruleset.data.game.seats if props.get(k) is not None)
        who = f"{player} ({seat})" if seat else player  # the seat's own marks (game.seats)
        self.console.print(Panel(Text.from_markup(f"Pass the device to [bold]{escape(who)}[/].\n\n"
                                                  "Press Enter when only they can see the screen (q quits)."),
                                 title=escape(self.ruleset.data.game.title), border_style="magenta"))
        text = self._readline("> ")
        return text is not None and text.strip().lower() != "q"

    def screen(self, player: str) -> None:
        view = self.game.view(player)
        self.clear()
        title = self.ruleset.data.game.title
        self.console.rule(escape(f"{title}: round {view['round']}, {view['current']} to play; you are {player}"))
        self.console.print(board_map(self.ruleset, view))
        self.console.print(status_panel(self.ruleset, view))
        self.console.print(table_panel(self.ruleset, view))
        start = self.seen.get(player, 0)
        new = self.game.events_for(player, since=start)
        lines = Text()
        if len(new) > MAX_EVENTS_SHOWN:
            lines.append(f"({len(new) - MAX_EVENTS_SHOWN} earlier events not shown)\n", style="dim")
            new = new[-MAX_EVENTS_SHOWN:]
        for e in new:
            lines.append(event_text(e) + "\n")
        lines.rstrip()
        self.console.print(Panel(lines or Text("nothing new", style="dim"), title="since your last choice",
                                 title_align="left", border_style="dim"))
        self.menu(view)

    def menu(self, view: dict) -> None:
        choice = view["choice"]
        t = Table(box=box.SIMPLE, show_header=False, title=escape(choice.get("prompt") or "Choose"),
                  title_justify="left", title_style="bold")
        t.add_column(justify="right", style="bold")
        t.add_column()
        for i, option in enumerate(choice["options"], 1):
            t.add_row(str(i), Text(option_label(option)))
        self.console.print(t)
        self.console.print("[dim]type a number; s saves, m shows the screen again, q quits[/]")

    def ask(self, player: str) -> int | None:
        """Show the player's screen and read until a legal option number (None: quit)."""
        self.screen(player)
        count = len(self.game.pending.options)
        while True:
            text = self._readline(f"{player}> ")
            if text is None:
                return None
            text = text.strip().lower()
            if text == "q":
                return None
            if text == "s":
                saved = self.save()
                if saved:
                    self.console.print(f"saved to {escape(saved)} (resume with --resume {escape(saved)})",
                                       highlight=False)
                continue
            if text == "m":
                self.screen(player)
                continue
            if not text:
                self.console.print(f"[yellow]type the number of an option (1–{count}), s to save or q to quit[/]")
                continue
            try:
                n = int(text)
            except ValueError:
                self.console.print(f"[yellow]'{escape(text)}' is not a number: type 1–{count}, s to save or q to quit[/]")
                continue
            if not 1 <= n <= count:
                self.console.print(f"[yellow]there is no option {n}: the options are 1–{count}[/]")
                continue
            return n - 1

    def save(self) -> str | None:
        """Save the game; where it went, or None when it could not be written (the
        reason is shown and the game goes on, so nothing is lost)."""
        try:
            write_save(self.save_path, save_lines(self.game, self.seats), self.passphrase)
        except OSError as err:
            self.console.print(f"[red]cannot save to {escape(self.save_path)}:[/] {escape(err.strerror or str(err))}; "
                               "the game goes on (restart with --save FILE to save elsewhere)", highlight=False)
            return None
        self.saved_at = len(self.game.decisions)
        return self.save_path

    def final_screen(self) -> None:
        result = self.game.result
        self.clear()
        self.console.rule(escape(f"{self.ruleset.data.game.title}: game over"))
        state = self.game.state
        # The game is over: the table is turned face up, every player's status shown.
        t = Table(box=box.SIMPLE, title=escape(f"{result['reason']}" + ("" if result["decided"] else " (undecided)")))
        t.add_column("player")
        t.add_column("seat")
        t.add_column("status")
        t.add_column("")
        for p in state.players:
            props = state.entities[p]["props"]
            status = ", ".join(f"{k} {value_text(v)}" for k, v in props.items())
            t.add_row(Text(p), Text(self.seats.get(p, HUMAN) if p not in self.game.machine.scripted else f"script {self.game.machine.scripted[p]}"), Text(status),
                      "[bold green]wins[/]" if p in result["winners"] else "")
        self.console.print(t)
        winners = ", ".join(result["winners"]) or "nobody"
        self.console.print(escape(f"winners: {winners}; {len(self.game.decisions)} decisions, round {state.round}"),
                           highlight=False)


# People share one table: a reaction window asks everyone it could concern, so the
# pass screens never tell who holds a reaction card.
PLAY_SETTINGS = {"ask_every_eligible": True}


def _bot_seed(game_seed: int, seat: int) -> int:
    from .simulate import bot_seed

    return bot_seed(game_seed, seat)


def replay_for_play(ruleset, players: int, seed: int, decisions: list[int]) -> tuple[Game, dict[str, int]]:
    """Replay saved decisions; also where each player's last choice left their events."""
    game = Game(ruleset, players, seed, settings=PLAY_SETTINGS)
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
                                   "without --human every seat is human. Type s to save, q to quit.")
    p.add_argument("ruleset", type=ruleset_arg, help="a rule-set folder (rules/<game>) or a shipped rule set's name")
    p.add_argument("--players", type=positive_int, default=None,
                   help="players (default: the rule set's minimum, or the saved game's)")
    p.add_argument("--human", action="append", metavar="PLAYER",
                   help="a seat played by a person, e.g. p1 (repeatable; default: every seat)")
    p.add_argument("--bot", type=bot_arg, default=None, metavar="NAME",
                   help=f"the bot for the other seats (default random; known: {', '.join(bot_names())})")
    p.add_argument("--seed", type=any_int, default=None,
                   help="the game's seed (default: a random one, never shown: it would reveal every hidden card)")
    p.add_argument("--save", metavar="FILE", help="where s saves (default <ruleset>-<date>-<time>.save.jsonl)")
    p.add_argument("--resume", metavar="FILE", help="continue a saved game (its seed, players, seats and variant)")
    p.add_argument("--variant", type=variant_arg, metavar="V", help="play the rule set's variant V")
    p.add_argument("--passphrase", action="store_true",
                   help="lock the saves with a passphrase (asked without echo, or read from "
                        "RULECRAFT_SAVE_PASSPHRASE); a locked save asks for it on --resume")
    p.set_defaults(run=run)


def usage_error(message: str) -> int:
    sys.stderr.write(f"rulecraft play: error: {message} (see 'rulecraft play --help')\n")
    return 2


def run(args, *, console: Console | None = None, read: Callable[[str], str] | None = None) -> int:
    console = console or Console()
    variant = args.variant
    if args.save:
        problem = output_problem(args.save)
        if problem:
            return usage_error(f"argument --save: {problem}")
    saved: GameLog | None = None
    passphrase = None
    if args.resume:
        try:
            saved, passphrase = read_save(args.resume)
        except SaveError as err:
            console.print(f"[red]error:[/] {escape(str(err))}", highlight=False)
            return 1
        saved_variant = saved.header.get("variant")
        if variant is not None and variant != saved_variant:
            return usage_error(f"the saved game is played with variant {saved_variant!r}, not {variant!r}")
        variant = saved_variant
    if getattr(args, "passphrase", False) and passphrase is None:
        try:
            passphrase = ask_passphrase("to lock the saves with", twice=True)
        except LockError as err:
            console.print(f"[red]error:[/] {escape(str(err))}", highlight=False)
            return 1
    ruleset = load_or_report(args.ruleset, variant)
    if ruleset is None:
        return 1
    spec = ruleset.data.game
    seen: dict[str, int] = {}
    saved_seats: dict[str, str] = {}
    if saved is not None:
        header, decisions, final = saved.header, saved.decisions, saved.final
        if header.get("ruleset") != ruleset.name:
            console.print("[red]error:[/] " + escape(f"{args.resume} is a game of '{header['ruleset']}', "
                                                   f"not of {ruleset.name}"), highlight=False)
            return 1
        players, seed = header["players"], header["seed"]
        if not spec.min_players <= players <= spec.max_players:
            console.print("[red]error:[/] " + escape(f"{args.resume}: {spec.title} is played by {spec.min_players} to "
                                                   f"{spec.max_players} players, not {players}"), highlight=False)
            return 1
        if args.players is not None and args.players != players:
            return usage_error(f"the saved game has {players} players, not {args.players}")
        if args.seed is not None and args.seed != seed:
            return usage_error(f"the saved game has seed {seed}, not {args.seed}")
        saved_seats = header.get("seats") or {}
    else:
        players = args.players or spec.min_players
        # A seed deals the whole game: one a player could guess or try out (a small
        # range) would tell them every hidden card, so it is drawn from 2**63 by the OS.
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 63)
        decisions, final = [], None
    if not spec.min_players <= players <= spec.max_players:
        return usage_error(f"{spec.title} is played by {spec.min_players} to {spec.max_players} players, not {players}")
    ids = [f"p{i}" for i in range(1, players + 1)]
    scripted = scripted_seats(ruleset, players)
    for h in args.human or []:
        if h in scripted:
            return usage_error(f"player '{h}' is played by the script '{scripted[h]}' of the rules, not by a person")
        if h not in ids:
            return usage_error(f"there is no player '{h}' (players: {', '.join(ids)})")
    if args.human or args.bot or not saved_seats:
        humans = set(args.human or ids)
        seats = {p: HUMAN if p in humans else (args.bot or "random") for p in ids}
    else:
        seats = {p: saved_seats.get(p, HUMAN) for p in ids}
        unknown = sorted({s for s in seats.values() if s != HUMAN and s not in REGISTRY})
        if unknown:
            return usage_error(f"the saved game uses unknown bots {', '.join(unknown)} (known: {', '.join(bot_names())})")
    for name in sorted({s for s in seats.values() if s != HUMAN}):
        problem = cannot_play(name, ruleset)
        if problem:
            return usage_error(problem)
    if args.resume:
        try:
            game, seen = replay_for_play(ruleset, players, seed, decisions)
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
                          passphrase=passphrase)
    humans_text = ", ".join(p for p, s in seats.items() if s == HUMAN) or "none"
    seed_text = f"seed {seed}" if args.seed is not None else "a secret random seed"
    console.print(escape(f"{spec.title}: {players} players, {seed_text}; human seats: {humans_text}"), highlight=False)
    return session.run()
