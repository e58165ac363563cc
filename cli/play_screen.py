"""What `rulecraft play` shows a player, as lines that fit a terminal of 80×24.

A screen puts first what a decision needs: the board (cut to the player's part when it
is large), the player's own status, hand and pieces, what happened since their last
choice that concerns them (marked with ``!``, so a blow or a change of side dealt in
another player's turn is not missed), the latest events and the numbered options, each
with its cost and where the pieces it names stand. The whole history, the full map, the
player's own side in full, the other players' public side and the help are behind
commands. Sentences come from :mod:`rulecraft.narration`, shared with the browser table;
every game word from the rule set's glossary.
"""

from __future__ import annotations

import textwrap

from rulecraft.beside import beside_board, pile, shown_variables, table_zones, unordered
from rulecraft.narration import SHOWINGS, says_nothing, tells
from rulecraft.screen_words import TERMINAL

from .terminal_map import board_lines, owned_pieces

WIDTH, HEIGHT = 80, 24
MAP_LINES = 9  # at most, its legend included
BESIDE_MORE = 2  # lines more for the map when things lie beside the board, if the screen has them
NEWS_FOR_YOU = 3  # lines of events that concern the player, at most
NEWS_LINES = 3  # lines kept for the other events since the last choice, when the options leave them
ME_LINES = 6  # the player's status, hand and pieces, at most
LAST_EVENT_LINES = 3  # lines for the last event before the question, at most, when the options leave them
TABLE_LINES = 2  # lines for the small shared piles on the table, when the rest leaves them
FINAL_NEWS = 8  # sentences of how the game ended, at most, on the last screen
CARRIED = "grey50"  # the rest of a news line carried over to the next, as faint as the dim news
KEEP = "\x00"  # a space no line is broken at, between a thing's name and what it shows

UI = TERMINAL  # the screens' fixed words in each language (rulecraft.screen_words)


def wrap(text: str, width: int, limit: int | None = None, indent: str = "  ") -> list[str]:
    """``text`` in lines of ``width`` at most (the next ones indented), ``limit`` lines at
    most, the last one ending in … when some was left out."""
    lines = textwrap.wrap(text, width, subsequent_indent=indent, break_long_words=True) or [""]
    if limit is not None and len(lines) > limit:
        lines = lines[:limit]
        lines[-1] = lines[-1][:width - 1] + "…"
    return lines


def crop(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def concerns(ruleset, view: dict, event: dict, player: str, mine: set[str]) -> bool:
    """Whether an event names the player, one of their zones or one of their pieces.

    The engine's `reveal` and `hide` name the players who see a thing, which is not to
    say the thing concerns them. A reveal to some players only concerns the player when it
    shows one of their things to another, or something to them; a reveal to every
    player makes a thing public, like a card played face up, and a hide takes knowledge
    away: neither singles anyone out."""
    if event.get("type") in SHOWINGS and "players" in event:
        seats = set(event.get("players") or [])
        if event["type"] != "revealed" or set(view["players"]) <= seats:
            return False
        thing = event.get("entity")
        at = (view["entities"].get(thing) or {}).get("at") if isinstance(thing, str) else None
        return player in seats or ((thing in mine or at in mine) and bool(seats))
    for key, value in event.items():
        if key in ("type", "seq") or key.startswith("_"):
            continue
        values = value if isinstance(value, list) else list(value.values()) if isinstance(value, dict) else [value]
        for v in values:
            if isinstance(v, str) and (v == player or v.endswith(f":{player}") or v in mine):
                return True
    return False


TURN_MARKS = ("turn_started", "turn_ended", "round_started")
SETUP = "setup"  # whose "turn" the events before the game's first turn are in


def turn_owners(events: list[dict]) -> list[str | None]:
    """Whose turn each event of a stream (from the game's start) happened in: a player,
    None between two turns, ``SETUP`` before the first turn."""
    owner, out = SETUP, []
    for e in events:
        if e.get("type") == "turn_started":
            owner = e.get("player")
        out.append(owner)
        if e.get("type") == "turn_ended":
            owner = None
    return out



def number_keys(choice: dict | None) -> list[int] | None:
    """The options of a choice of whole numbers (a bid, how many to take), when each is
    typed as itself: listed beside option numbers from 1, "5" would be the option holding
    4. None for any other choice (an action, a thing, yes/no, numbers below zero)."""
    options = (choice or {}).get("options") or []
    if (choice or {}).get("kind") != "choose" or len(options) < 2:
        return None
    if not all(isinstance(o, int) and not isinstance(o, bool) and o >= 0 for o in options):
        return None
    return list(options) if len(set(options)) == len(options) else None

class Screens:
    """Builds every screen of one player's view; holds no game state of its own."""

    def __init__(self, ruleset, words, lang: str = "en", width: int = WIDTH, height: int = HEIGHT):
        self.ruleset = ruleset
        self.words = words
        self.ui = UI[lang]
        self.c = words.say["colon"]  # a label's colon, spaced as the language writes it
        self.width = width
        self.height = height

    # ---- the player's own side
    def _me(self, view: dict) -> list[str]:
        w, me = self.words, view["viewer"]
        lines = []
        entity = view["entities"].get(me) or {}
        props = [w.status(entity.get("kind", "player"), k, v) for k, v in entity.get("props", {}).items()
                 if not says_nothing(v)]
        if props:
            lines.append(crop(f"{self.ui['you']} ({me}){self.c} " + " · ".join(props), self.width))
        cut = False  # some thing said by name only, or left out: `y` shows them all
        for zone, items in view["zones"].items():
            if not zone.endswith(f":{me}") or not isinstance(items, list) or not items:
                continue
            word = w.name(zone.split(":", 1)[0])
            listed, whole = self._listed(f"{word[:1].upper()}{word[1:]} ({len(items)}){self.c} ", items, view, me, 2)
            lines += listed
            cut = cut or not whole
        pieces = self._pieces(view)
        if pieces:
            text = f"{self.ui['pieces']}{self.c} " + self.words.say["fields_separator"].join(pieces)
            lines += wrap(text, self.width, 2)
            cut = cut or len(wrap(text, self.width)) > 2
        if cut and len(lines) < ME_LINES:
            lines.append(crop(self.ui["yours_cut"], self.width))
        return lines

    def _pieces(self, view: dict) -> list[str]:
        """The player's pieces on the board, each where it stands and with what its properties say."""
        w, me = self.words, view["viewer"]
        parts = []
        for eid in owned_pieces(self.ruleset, view, me):
            e = view["entities"][eid]
            details = w.details(eid, e, me)
            parts.append(f"{w.name(eid)} {self.ui['in']} {w.name(e['at'])}" + (f" ({', '.join(details)})"
                                                                             if details else ""))
        return parts

    def _item(self, name: str, details: list[str]) -> str:
        """A thing of a zone by name, with what its properties say ("die 2 (face 6)"): a
        line breaks between things, not inside one, unless the thing is longer than a
        line; then it breaks between what its properties say."""
        text = f"{name} ({', '.join(details)})" if details else name
        if len(text) <= self.width - 2:  # a line after the first is indented by 2
            return text.replace(" ", KEEP)
        parts = [f"{name} ({details[0]}"] + details[1:] if details else [name]
        if details:
            parts[-1] += ")"
        return ", ".join(part.replace(" ", KEEP) for part in parts)

    def _listed(self, head: str, items: list, view: dict, holder: str | None, limit: int) -> tuple[list[str], bool]:
        """A zone's things after ``head`` in ``limit`` lines at most: each with what its
        properties say, or by name only when that does not fit (every thing named
        matters more than what some of them show); and whether all of it was said."""
        things = pile(self.words, view, items, holder)["things"]
        return self._fitted(lambda details: head + ", ".join(self._item(*thing) if details else thing[0]
                                                            for thing in things), limit)

    def beside(self, view: dict) -> list[str]:
        """The things that are never in a space nor a zone, as the browser lists them
        (rulecraft.beside): a ship's facings, a marker, a door whose state changed."""
        return [f"{thing['name']}{self.c} {', '.join(thing['details'])}" if thing["details"] else thing["name"]
                for thing in beside_board(self.ruleset, view, self.words, view["viewer"])]

    def _map(self, view: dict, max_lines: int) -> list[str]:
        """The board in ``max_lines`` at most, its legend and what lies beside it included
        (two lines for those things at least, the board keeping 4; the lines a small
        board leaves go to them too). The pieces on the board are said with what their
        properties say when that leaves room for all the things beside it."""
        beside = self.beside(view)
        least = max(0, min(2, max_lines - 4)) if beside else 0
        whole = len(wrap(" · ".join(beside), self.width)) if beside else 0

        def drawn_with(details: bool) -> tuple[list[str], list[str]]:
            drawn = board_lines(self.ruleset, view, self.words, self.ui, width=self.width,
                                max_lines=max_lines - 1 - least, details=details)
            lines = list(drawn.lines)
            note = ([self.ui["map_cut"]] if drawn.cut else []) + list(drawn.legend)
            if note and (lines or drawn.cut):  # a board left out whole still says where it is
                lines.append(crop(self.words.say["fields_separator"].join(note), self.width))
            room = max(least, max_lines - len(lines))
            beside_lines = wrap(" · ".join(beside), self.width, room) if beside and room else []
            return lines, beside_lines if beside_lines != [""] else []

        lines, beside_lines = drawn_with(True)
        if len(beside_lines) < whole:
            plain = drawn_with(False)
            if len(plain[1]) > len(beside_lines):
                lines, beside_lines = plain
        return lines + beside_lines

    # ---- news
    def news(self, events: list[dict], start: int, view: dict) -> tuple[list[str], list[str]]:
        """The events from ``start`` on, told: those that concern the player and happened
        in another's turn, and all the others."""
        for_you, other, _, _ = self._news(events, start, view)
        return for_you, [text for text, _ in other]

    def _news(self, events: list[dict], start: int,
              view: dict) -> tuple[list[str], list[tuple[str, bool]], bool, list[bool]]:
        """``news``, each other event with whether it only marks a turn's or a round's
        start or end (what the header says already); whether the last event told is
        one of those that concern the player (the other list's last but the turns' starts
        and ends, if not); and the order they happened in: for each event told, whether
        it is the next of those that concern the player (else the next of the others)."""
        me = view["viewer"]
        mine = set(owned_pieces(self.ruleset, view, me))
        mine.update(z for z in view["zones"] if z.endswith(f":{me}"))
        owners = turn_owners(events)
        for_you, other, order = [], [], []
        last_for_you = False
        told = self.words.tell(events)
        for event, owner, text in zip(events[start:], owners[start:], told[start:]):
            if not tells(event) or not text:  # "": told with others (rolls of one die together)
                continue
            # the setup is nobody's turn (the hand it deals shows on the screen anyway), nor
            # is what the rules do between two turns (a new deal): only another's turn is marked
            marked = owner not in (me, SETUP, None) and concerns(self.ruleset, view, event, me, mine) and event.get(
                "type") not in TURN_MARKS
            order.append(marked)
            if marked:
                for_you.append("! " + text)
                last_for_you = True
            else:
                other.append((text, event.get("type") in TURN_MARKS))
                # a turn's start or end (the header says it) leaves the last event what it was
                last_for_you = last_for_you and event.get("type") in TURN_MARKS
        return for_you, other, last_for_you, order

    # ---- the main screen
    def main(self, view: dict, events: list[dict], start: int, page: int) -> tuple[list[tuple[str, str]], int]:
        """The screen's lines (text, style), and how many option pages there are."""
        w = self.words
        w.know_view(view)
        out: list[tuple[str, str]] = []
        out += [(line, "bold") for line in self._header(view, self._header_words(view, events))]
        me = self._me(view)[:ME_LINES]
        # the map gives way to the player's side and to a few options on a short screen
        # (a few more lines when things lie beside the board and the player's side is short);
        # a line of shown variables under the header is taken from the options and the news
        most = MAP_LINES + (BESIDE_MORE if self.beside(view) else 0)
        out += [(line, "") for line in self._map(view, min(most, max(3, self.height - 2 - len(me) - 9)))]
        avail = self.height - 1 - len(out) - len(me)  # the last line is the input prompt
        lower, pages, spare = self._lower(view, events, start, page, avail)
        # the small shared piles on the table (the things just played), when the options
        # still fit and the news keeps its lines: what the rest leaves
        table = self._small_piles(view, events[start:], min(spare, TABLE_LINES))
        if table:
            lower, pages, _ = self._lower(view, events, start, page, avail - len(table))
        out += [(line, "") for line in table]
        out += [(line, "cyan") for line in me]
        return out + lower, pages

    def _header_words(self, view: dict, events: list[dict]) -> str:
        """The header's template: before the first round nobody is to play yet (a choice of
        the setup); in a turn, its player is to play; between two turns (a choice the rules
        ask of every player, a pass before a deal) the player choosing is named. So is a
        player asked in another's turn (a vote of every player, a reaction): "p1 to play"
        would tell them to wait for p1."""
        if self._turn_of(view, events) is not None and view["current"] is not None:
            asked = view.get("choice") is not None and view["viewer"] != view["current"]
            return self.ui["header_asked" if asked else "header"]
        return self.ui["header_between" if view.get("round") else "header_setup"]

    @staticmethod
    def _turn_of(view: dict, events: list[dict] | None) -> str | None:
        """Whose turn is under way: None before the first and between two turns (the
        player who played last is still the view's ``current`` then)."""
        if events is None:  # a view without its events: the view's word for it
            return view["current"]
        owner = turn_owners(events)[-1] if events else SETUP
        return None if owner in (None, SETUP) else owner

    def _lower(self, view: dict, events: list[dict], start: int, page: int,
               avail: int) -> tuple[list[tuple[str, str]], int, int]:
        """The news, the question and the options in ``avail`` lines: the lines (text,
        style), how many option pages there are, and how many lines they could spare
        (left empty, or news beyond ``NEWS_LINES`` when all the options fit)."""
        w, ui, width = self.words, self.ui, self.width
        choice = view["choice"] or {}
        for_you, other_marked, last_for_you, order = self._news(events, start, view)
        other = [text for text, _ in other_marked]
        # when each happened: a mark marks a line where it is, never moves it below what it caused
        at_for_you = [i for i, marked in enumerate(order) if marked]
        at_other = [i for i, marked in enumerate(order) if not marked]
        # a question out of turn, in another player's turn (not one between two turns, the rules' own doing)
        owner = self._turn_of(view, events)
        react = choice.get("kind") == "reaction" and owner not in (None, view["viewer"])
        said_options = [w.option(option) for option in choice.get("options", [])]
        # the rule set's words start with a capital, the engine's (end turn, pass) then too
        capital = any(said["label"][:1].isupper() for said in said_options)
        values = number_keys(choice)
        if values is not None:  # a choice of numbers: each is typed as itself, with no option number beside it
            labels = [f"{v:>2}" for v in values]
        else:
            labels = [f"{i:>2} {self._capital(said['label']) if capital else said['label']}"
                      + (f" ({said['cost']})" if said.get("cost") else "") for i, said in enumerate(said_options, 1)]
        # the question, with the hint when both fit on the line; a long one over two lines
        prompt = w.prompt(choice) or ""
        hint = ui["hint_one"] if len(said_options) == 1 else ui["hint_numbers"] if values is not None else ui["hint"]
        asked = [f"{prompt}  ({hint})"] if prompt else [hint]
        if len(asked[0]) > width:
            asked = wrap(prompt, width, 2, indent="")
        told = max(0, min(len(for_you), NEWS_FOR_YOU, avail - len(asked) - 4 - react))  # 4 lines of options at least
        prominent = [crop(t, width) for t in for_you[len(for_you) - told:]]
        prominent_at = at_for_you[len(for_you) - told:]
        unsaid = len(for_you) - told  # told in the history only
        # the last event before the question is said whole, as far as the options leave room
        # (a few lines at most): what a decision hangs on, a blow's amount, is often at its end
        room = avail - len(asked) - react - len(prominent) - min(4, len(labels)) - (1 if other or unsaid else 0)
        whole_last: list[str] = []
        prominent_last = bool(prominent) and last_for_you
        if prominent_last:
            prominent[-1:] = wrap(for_you[-1], width, 1 + max(0, min(LAST_EVENT_LINES - 1, room)))
        # (a turn's start or end after it, which the header says, does not count)
        last_said = next((text for text, mark in reversed(other_marked) if not mark), "")
        if not last_for_you and len(last_said) > width:
            whole_last = wrap(last_said, width, 1 + max(0, min(LAST_EVENT_LINES - 1, room)))
        extra = max(0, len(whole_last) - 1)
        marked_lines = len(prominent)  # one an event, the last one's rest carried under it
        if react:
            prominent.append(crop(ui["react"].format(current=owner), width))
        space = max(1, avail - len(asked) - len(prominent) - extra)  # what the question and the marked news leave
        # the events of the others' turns (and of the rules between turns) are never left
        # out without a word: a line for them at least, up to NEWS_LINES when the options
        # fit all the same or are read in pages anyway (4 lines of options at least)
        want = min(NEWS_LINES, len(other) + (1 if unsaid else 0))
        reserve = 0
        if want and space > 1:
            fitting = [r for r in range(want, 0, -1) if self._option_rows(labels, space - r)[1] == 1]
            reserve = fitting[0] if fitting else max(1, min(want, space - 4))
            reserve = min(reserve, space - 1)
        option_lines, pages, page = self._option_lines(labels, space - reserve, page)
        news_room = max(0, avail - len(asked) - len(prominent) - len(option_lines) - extra)
        latest = [(crop(t, width), at) for t, at in zip(other, at_other)]  # each line with when it happened
        if not latest and not prominent:
            latest = [(ui["nothing_new" if start else "nothing_yet"], -1)] if news_room else []
        if len(latest) > news_room:
            # short of room, what happened comes before the turns' starts and ends
            said = [(crop(t, width), at) for (t, mark), at in zip(other_marked, at_other) if not mark]
            unsaid += len(latest) - len(said)
            latest = said
        if len(latest) > news_room or unsaid:
            keep = min(len(latest), max(0, news_room - 1))
            unsaid += len(latest) - keep
            latest = latest[len(latest) - keep:] if keep else []
            if news_room:
                # before the player's first choice, all that happened is since the game began
                note = "earlier" if keep else "unseen" if start else "unseen_start"
                latest.insert(0, (crop(ui[note].format(n=unsaid), width), -1))
        told_lines = [(at, [(line, "dim")]) for line, at in latest]
        cut = crop(last_said, width) if whole_last else None
        at = next((i for i in range(len(told_lines) - 1, -1, -1) if told_lines[i][1][0][0] == cut), None)
        if at is not None:  # one dim line an event, the rest of the last one carried over under it
            told_lines[at] = (told_lines[at][0], [(whole_last[0], "dim")] + [(line, CARRIED) for line in whole_last[1:]])
        news_lines = sum(len(lines) for _, lines in told_lines)
        # the marked events among the others, in the order they happened, the last one's rest under it
        marked = prominent[:marked_lines]
        for k, when in enumerate(prominent_at):
            lines = marked[k:k + 1] if k < len(prominent_at) - 1 else marked[k:]
            told_lines.append((when, [(line, "bold yellow") for line in lines]))
        told_lines.sort(key=lambda item: item[0])
        out = [line for _, lines in told_lines for line in lines]
        out += [(line, "bold yellow") for line in prominent[marked_lines:]]
        out += [(line, "bold") for line in asked]
        out += [(line, "") for line in option_lines]
        spare = avail - len(out) + (max(0, news_lines - NEWS_LINES) if pages == 1 else 0)
        return out, pages, max(0, spare)

    def _small_piles(self, view: dict, news: list[dict], room: int) -> list[str]:
        """The shared piles on the table the player sees into that hold a few things (no
        more than there are players: the things just played, a task drawn), in
        ``room`` lines at most: those the news since the player's last choice moved
        things to or from first; each with what its things show when that fits, else by
        name (``t`` shows every pile)."""
        if room <= 0:
            return []
        touched = {e.get(end) for e in news if e.get("type") == "moved" for end in ("source", "destination")}
        small = [zone for zone, _, owner in table_zones(self.ruleset, view)
                 if not owner and isinstance(view["zones"][zone], list)
                 and len(view["zones"][zone]) <= max(2, len(view["players"]))]
        small.sort(key=lambda zone: zone not in touched)
        lines: list[str] = []
        for zone in small:
            word = self.words.name(zone)
            head = f"{word[:1].upper()}{word[1:]}{self.c} "
            for details in (True, False):
                text = head + self._pile(zone, view, None, details)
                said = [line.replace(KEEP, " ") for line in wrap(text, self.width)]
                if len(lines) + len(said) <= room:
                    lines += said
                    break
        return lines

    def _header(self, view: dict, header: str) -> list[str]:
        """The header: the game, the round and the variables the rule set shows at all
        times (a game clock, a track: rulecraft.beside.shown_variables), whose turn it is
        and who the player is; the variables on a line of their own when the header is
        too long for them."""
        counters = " · ".join(c["text"] for c in shown_variables(self.ruleset, view, self.words))
        fields = dict(title=self.ruleset.data.game.title, round=view["round"], current=view["current"],
                      player=view["viewer"], round_word=self.words.round_word(capital=False))
        line = header.format(counters=f" · {counters}" if counters else "", **fields)
        if len(line) <= self.width or not counters:
            return [crop(line, self.width)]
        return [crop(header.format(counters="", **fields), self.width)] + wrap(counters, self.width, 2)

    def _capital(self, label: str) -> str:
        """An option's label with a capital, as a sentence starts (a player's id, p2, keeps its case)."""
        first = label.split(" ", 1)[0].rstrip(":,")
        if not label or first in self.words.kinds_by_id and self.words.kinds_by_id[first] == "player":
            return label
        return label[:1].upper() + label[1:]

    def _option_rows(self, labels: list[str], room: int) -> tuple[int, int, int, int]:
        """How ``labels`` lie in ``room`` lines (a page's note included): in how many
        columns, rows, pages, and rows a page."""
        room = max(1, room)
        # two columns of short options when they then fit on the screen at once
        columns = 2 if (6 < len(labels) <= 2 * room
                        and max(len(x) for x in labels) <= (self.width - 2) // 2) else 1
        rows_needed = -(-len(labels) // columns)
        per_page = rows_needed if rows_needed <= room else max(1, room - 1)
        pages = max(1, -(-rows_needed // per_page)) if rows_needed else 1
        return columns, pages, rows_needed, per_page

    def _option_lines(self, labels: list[str], room: int, page: int) -> tuple[list[str], int, int]:
        """The lines of a page of options in ``room`` lines, how many pages, which page."""
        ui, width = self.ui, self.width
        columns, pages, rows_needed, per_page = self._option_rows(labels, room)
        page = min(max(page, 0), pages - 1)
        rows = list(range(page * per_page, min(rows_needed, (page + 1) * per_page)))
        lines = []
        col_w = (width - 2) // 2 if columns == 2 else width
        for r in rows:
            cells = [labels[r + c * rows_needed] for c in range(columns) if r + c * rows_needed < len(labels)]
            lines.append("  ".join(f"{crop(c, col_w):<{col_w}}" for c in cells).rstrip())
        if pages > 1:
            note = "more_first" if page == 0 else "more_last" if page == pages - 1 else "more"
            lines.append(crop(ui[note].format(first=rows[0] + 1, last=rows[-1] + 1, count=rows_needed), width))
        return lines, pages, page

    # ---- the screens behind commands
    def history(self, events: list[dict], page: int) -> list[str] | None:
        """A page of the player's history, the latest last (page 1: the latest)."""
        lines = [line for e, text in zip(events, self.words.tell(events)) if tells(e) and text
                 for line in wrap(text, self.width)]
        size = self.height - 2  # the title and the prompt
        pages = max(1, -(-len(lines) // size))
        if not 1 <= page <= pages:
            return None
        end = len(lines) - (page - 1) * size
        more = self.ui["history_more"].format(next=page + 1) if page < pages else ""
        title = crop(self.ui["history"].format(page=page, pages=pages, more=more), self.width)
        return [title] + lines[max(0, end - size):end]

    def history_pages(self, events: list[dict]) -> int:
        lines = sum(len(wrap(text, self.width)) for e, text in zip(events, self.words.tell(events))
                    if tells(e) and text)
        return max(1, -(-lines // (self.height - 2)))

    def help(self) -> list[str]:
        return [crop(line, self.width) for line in self.ui["help"]]

    def whole_map(self, view: dict, page: int = 1) -> list[str] | None:
        """A part of the whole board and of the things beside it (page 1, 2, …: a board
        wider or taller than the screen is read in strips); None: no such page. A rule
        set without a board says so in one line, then lists the things in no zone, if
        any; a board with nothing on it yet (no tile laid) says that."""
        w = self.words
        w.know_view(view)
        if self.ruleset.data.board is None:
            return self._no_board(view, page)
        drawn = board_lines(self.ruleset, view, w, self.ui, width=self.width, max_lines=self.height, whole=True)
        if not drawn.lines:
            drawn.lines = [self.ui["empty_board"]]
        strips = [drawn.lines]
        if drawn.column and any(len(line) > self.width for line in drawn.lines):
            per = max(1, (self.width - drawn.margin) // drawn.column)
            wide = max(len(line) for line in drawn.lines)
            strips = [[(line[:drawn.margin] + line[drawn.margin + k * drawn.column:
                                                  drawn.margin + (k + per) * drawn.column]).rstrip()
                       for line in drawn.lines]
                      for k in range(0, -(-(wide - drawn.margin) // drawn.column), per)]
        body = self.height - 2  # a title, and the prompt
        pages = []
        for strip in strips:
            header, rows = strip[:1], strip[1:]
            for i in range(0, max(1, len(rows)), body - 1):
                pages.append(header + rows[i:i + body - 1])
        tail = [crop(self.words.say["fields_separator"].join(drawn.legend), self.width)] if drawn.legend else []
        beside = [line for thing in self.beside(view) for line in wrap("  " + thing, self.width, 2, "    ")]
        if beside:
            tail += [self.ui["off_board"] + self.c] + beside
        for i in range(0, len(tail), body):
            if i == 0 and len(pages[-1]) + len(tail) <= body:
                pages[-1] = pages[-1] + tail
                break
            pages.append(tail[i:i + body])
        if not 1 <= page <= len(pages):
            return None
        title = self.ui["whole_map"].format(page=page, pages=len(pages),
                                            more=self.ui["map_more"].format(next=page + 1) if page < len(pages) else "")
        return [crop(title, self.width)] + [crop(line, self.width) for line in pages[page - 1]]

    def _no_board(self, view: dict, page: int) -> list[str] | None:
        """``whole_map`` of a rule set without a board: one line saying so, then the things
        that are in no zone (a marker, a game piece of no player's), a page at a time."""
        beside = [line for thing in self.beside(view) for line in wrap("  " + thing, self.width, 2, "    ")]
        if not beside:
            return [crop(self.ui["no_board"], self.width)] if page == 1 else None
        body = self.height - 3  # the line saying there is no board, a heading, and the prompt
        pages = [beside[i:i + body] for i in range(0, len(beside), body)]
        if not 1 <= page <= len(pages):
            return None
        more = self.ui["map_more"].format(next=page + 1) if page < len(pages) else ""
        title = self.ui["no_board"] if len(pages) == 1 else \
            self.ui["no_board_part"].format(page=page, pages=len(pages), more=more)
        return [crop(title, self.width), self.ui["on_table"] + self.c] + [crop(line, self.width)
                                                                        for line in pages[page - 1]]

    def map_pages(self, view: dict) -> int:
        page = 1
        while self.whole_map(view, page + 1) is not None:
            page += 1
        return page

    def table(self, view: dict) -> list[str]:
        """The game's own values, the other players and the shared piles, each thing with
        what its properties say, wrapped over as many lines as the screen has; when it has
        too few, the longest parts give way first (their things by name, then cut)."""
        w, me = self.words, view["viewer"]
        w.know_view(view)
        blocks: list[tuple[str, str | None]] = []  # (with the things' details, by name only)
        playing = self._turn_of(view, view.get("events"))
        game_vars = {k: v for k, v in view["vars"].get("game", {}).items() if v not in (None, [])}
        if game_vars:
            blocks.append((f"{self.ui['game']}{self.c} " + " · ".join(
                f"{w.variable('game', k)} {w.variable_value('game', k, v)}" for k, v in game_vars.items()), None))
        for p in view["players"]:
            if p == me:
                continue
            entity = view["entities"].get(p) or {}
            props = [w.status(entity.get("kind", "player"), k, v) for k, v in self._informative(entity)]
            mark = f" ({self.ui['to_play']})" if playing == p else ""

            def line(details, p=p, mark=mark, props=props):
                return f"{p}{mark}{self.c} " + " · ".join(props + [
                    f"{w.name(z.split(':', 1)[0])} {self._pile(z, view, p, details)}"
                    for z in view["zones"] if z.endswith(f":{p}")])
            blocks.append((line(True), line(False)))
        owned: dict[str, list[str]] = {}  # a zone of each thing of a kind (not of each player)
        for zone, name, owner in table_zones(self.ruleset, view):
            if owner:
                owned.setdefault(name, []).append(zone)
                continue
            word = w.name(zone)
            blocks.append(tuple(f"{word[:1].upper()}{word[1:]}{self.c} {self._pile(zone, view, None, details)}"
                                for details in (True, False)))
        for name, zones in owned.items():
            word = w.name(name)
            blocks.append(tuple(f"{word[:1].upper()}{word[1:]}{self.c} " + " · ".join(
                f"{w.name(z.partition(':')[2])} {self._pile(z, view, None, details)}"
                for z in zones) for details in (True, False)))
        return self._fit([self.ui["table"] + self.c] + self._squeezed(blocks, self.height - 2))

    def yours(self, view: dict, page: int = 1) -> list[str] | None:
        """A page of the player's own side in full (page 1, 2, …; None: no such page): their
        status, each of their zones with every thing in it on a line of its own, with what
        its properties say (copies that say the same counted once where the zone's order
        says nothing, as ``table`` counts them), and each of their pieces where it stands.
        The main screen cuts these to names when they do not fit; here nothing is cut."""
        w, me = self.words, view["viewer"]
        w.know_view(view)
        lines: list[str] = []
        entity = view["entities"].get(me) or {}
        props = [w.status(entity.get("kind", "player"), k, v) for k, v in entity.get("props", {}).items()
                 if not says_nothing(v)]
        if props:
            lines += wrap(f"{self.ui['you']} ({me}){self.c} " + " · ".join(props), self.width)
        for zone, items in view["zones"].items():
            if not zone.endswith(f":{me}"):
                continue
            word = w.name(zone.split(":", 1)[0])
            word = word[:1].upper() + word[1:]
            if not isinstance(items, list):  # a zone of theirs they do not see into (a deck)
                lines += wrap(f"{word}{self.c} {self._pile(zone, view, me)}", self.width)
                continue
            lines.append(f"{word} ({len(items)})" + (self.c if items else ""))
            for name, details in pile(w, view, items, me, unordered(self.ruleset, zone))["things"]:
                lines += wrap("  " + (f"{name} ({', '.join(details)})" if details else name), self.width, indent="    ")
        pieces = self._pieces(view)
        if pieces:
            lines.append(self.ui["pieces"] + self.c)
            lines += [line for piece in pieces for line in wrap("  " + piece, self.width, indent="    ")]
        lines = lines or [self.ui["yours_none"]]
        size = self.height - 2  # the title and the prompt
        pages = -(-len(lines) // size)
        if not 1 <= page <= pages:
            return None
        more = self.ui["yours_more"].format(next=page + 1) if page < pages else ""
        title = crop(self.ui["yours"].format(player=me, page=page, pages=pages, more=more), self.width)
        return [title] + [crop(line, self.width) for line in lines[(page - 1) * size:page * size]]

    def yours_pages(self, view: dict) -> int:
        page = 1
        while self.yours(view, page + 1) is not None:
            page += 1
        return page

    def _informative(self, entity: dict) -> list[tuple[str, object]]:
        """An entity's properties that say something, those that differ from their kind's
        default first (a value every thing starts with says least)."""
        spec = self.ruleset.data.kinds.get(entity.get("kind", ""))
        declared = spec.properties if spec is not None else {}
        props = [(k, v) for k, v in (entity.get("props") or {}).items() if not says_nothing(v)]
        return sorted(props, key=lambda kv: kv[0] in declared and declared[kv[0]].default == kv[1])

    def _squeezed(self, blocks: list[tuple[str, str | None]], room: int) -> list[str]:
        """Each block's text (with its things' details) wrapped whole, in ``room`` lines:
        while they do not fit, the longest gives way, first to its things by name (its
        second text), then a line at a time (down to one, the rest cut with …)."""
        state = [[True, None] for _ in blocks]  # [with details, lines at most]

        def lines_of(i: int) -> list[str]:
            detailed, limit = state[i]
            text = blocks[i][0] if detailed or blocks[i][1] is None else blocks[i][1]
            return [line.replace(KEEP, " ") for line in wrap(text, self.width, limit)]

        shown = [lines_of(i) for i in range(len(blocks))]
        while sum(len(x) for x in shown) > room:
            # of two as long, the one with more to say (a large pile) says it in fewer lines
            i = max(range(len(blocks)), key=lambda j: (len(shown[j]), len(blocks[j][0])))
            if len(shown[i]) <= 1:
                break
            if state[i][0] and blocks[i][1] is not None:
                state[i][0] = False
                shorter = lines_of(i)
                if len(shorter) < len(shown[i]):
                    shown[i] = shorter
                    continue
            state[i][1] = len(shown[i]) - 1
            shown[i] = lines_of(i)
        return [line for x in shown for line in x]

    def _fitted(self, line, limit: int) -> tuple[list[str], bool]:
        """``line(True)`` (things with what their properties say) in ``limit`` lines, or
        ``line(False)`` (things by name) when the first does not fit; and whether the
        first fitted."""
        detailed = [text.replace(KEEP, " ") for text in wrap(line(True), self.width)]
        if len(detailed) <= limit:
            return detailed, True
        return wrap(line(False), self.width, limit), False

    def _pile(self, zone: str, view: dict, holder: str | None = None, details: bool = True) -> str:
        """A zone in the table (rulecraft.beside.pile, as the browser lists it): its things,
        copies of one component counted once where the zone's order says nothing (with
        ``details``, each with what its properties say: a revealed die's face), or how many
        lie face down, the top and what a reveal showed the viewer."""
        items = view["zones"][zone]
        listed = pile(self.words, view, items, holder, unordered(self.ruleset, zone))
        if "things" in listed:
            if not listed["things"]:
                return "(0)"
            return f"({len(items)}) " + ", ".join(self._item(*thing) if details else thing[0]
                                                  for thing in listed["things"])
        text = self.ui["face_down"].format(n=listed["count"])
        if listed["top"]:
            text += ", " + self.ui["top"].format(card=listed["top"])
        if listed["shown"]:  # the things of a hidden zone a reveal showed the viewer
            text += ", " + self.ui["shown"].format(things=", ".join(
                self._item(*thing) if details else thing[0] for thing in listed["shown"]))
        return text

    def _fit(self, lines: list[str]) -> list[str]:
        limit = self.height - 1
        if len(lines) > limit:
            lines = lines[:limit - 1] + ["…"]
        return lines

    def final(self, state, result: dict, seats: dict, decisions: int, last_events: list | None = None) -> list[str]:
        """The last screen: how the game ended (``last_events``: what happened since the
        last decision, as every player saw it, at most FINAL_NEWS sentences), then each
        player's status and the winners."""
        w, ui = self.words, self.ui
        lines = [ui["over"].format(title=self.ruleset.data.game.title)]
        told = []
        if last_events:
            w.know_entities(dict(state.entities))
            told = [t for t in w.tell(last_events) if t and not t.startswith(w.say["over"])]
        w.know_entities({p: state.entities[p] for p in state.players})
        if result.get("reason"):  # a victory condition's name, or a sentence of the rules
            undecided = "" if result.get("decided", True) else " " + ui["undecided"]
            lines += wrap(w.action(result["reason"]) + undecided, self.width, 2)
        if told:
            lines.append(ui["at_the_end"])
            for text in told[-FINAL_NEWS:]:
                lines += wrap(text, self.width, 2)
        # each player's status, what differs from the start first, over the lines the screen has
        each = max(2, (self.height - 1 - len(lines) - 2) // max(1, len(state.players)))
        for p in state.players:
            status = " · ".join(w.status(state.entities[p]["kind"], k, v)
                                for k, v in self._informative(state.entities[p]))
            win = " ★" if p in result.get("winners", []) else ""
            seat = f"{p}{win} ({seats.get(p, '')})"
            lines += wrap(f"{seat}{self.c} {status}" if status else seat, self.width, each)
        lines.append(crop(ui["winners"].format(winners=", ".join(result.get("winners") or []) or ui["nobody"]),
                          self.width))
        lines.append(ui["final"].format(decisions=decisions, round=state.round, round_word=w.round_word(capital=False)))
        return self._fit(lines)
