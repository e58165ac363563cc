"""The worked examples: every scenario of a rule set run now, with its result and the
board as it stood before its steps and where it stopped, as SVG."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.dsl.model import KindSpec, RuleSet
from rulecraft.dsl.types import ANY, item_type, parse_type_text
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.state import tile_layouts
from rulecraft.narration import says_nothing
from rulecraft.validator import Scenario, ScenarioResult, load_file, run_scenario, scenario_files

from .board_picture import declared_board_svg
from .svg import PIECE_COLOURS, Piece, board_svg, ring_svg


@dataclass
class Example:
    scenario: Scenario
    result: ScenarioResult
    before: str | None = None  # SVG
    after: str | None = None
    pieces: dict[str, Piece] = field(default_factory=dict)  # every piece the pictures show, by id: their legend


@dataclass
class ExampleFile:
    stem: str
    path: Path
    examples: list[Example] = field(default_factory=list)
    broken: bool = False  # the file did not load; its problems are in ``problems``
    problems: str = ""


def _initials(name: str) -> str:
    return "".join(w[0] for w in name.split("_") if w).upper()[:2]


def pieces_on_board(ruleset: RuleSet, game: Game, describe: Callable[[str], str]) -> list[Piece]:
    """Everything standing in a room of the board, marked by its component's initials
    and its owner's seat number, coloured by owner."""
    data = ruleset.data
    board = game.machine.board()
    out = []
    for eid, e in game.state.entities.items():
        at = e.get("at")
        if not isinstance(at, str) or not board.has(at) or e["kind"] == data.board.space_kind:
            continue
        kind = data.kinds.get(e["kind"])
        owner = e["props"].get(kind.owner_property) if kind is not None and kind.owner_property else None
        component = eid.split(".", 1)[0]
        seat = game.state.players.index(owner) if owner in game.state.players else None
        mark = _initials(component) + (str(seat + 1) if seat is not None else "")
        colour = PIECE_COLOURS[seat % len(PIECE_COLOURS)] if seat is not None else "#555555"
        facts = _facts(ruleset, game, kind, e["props"], describe) if kind else ""
        title = f"{describe(component)} ({eid})" + (f": {facts}" if facts else "")
        out.append(Piece(eid, at, mark, title, colour))
    return out + _marks_on_spaces(ruleset, game, describe)


def _facts(ruleset: RuleSet, game: Game, kind: KindSpec, props: dict, describe: Callable[[str], str]) -> str:
    """A piece's properties in the site's words, as its pages say them: a yes/no property by
    its name when it holds (nothing when it does not), a value by its word; nothing is said
    of a property that holds nothing. Facts are parted by semicolons, the items of a list
    by commas."""
    out = []
    for k, v in props.items():
        if k == kind.owner_property:
            continue
        spec = kind.properties.get(k)
        name = describe(f"properties.{kind.name}.{k}") if spec is not None else k
        if v is True:
            out.append(name)
            continue
        words = _value_words(ruleset, game, v, parse_type_text(spec.type) if spec is not None else ANY, describe)
        if words:
            out.append(f"{name} {words}")
    return "; ".join(out)


def _value_words(ruleset: RuleSet, game: Game, value, of_type: str, describe: Callable[[str], str]) -> str:
    """One property value in words ("" for nothing: none, no, an empty text or list, or the
    text "none", the rules language's word for nothing that rule sets write as a text
    value's default): a thing by its component's name, a player by their seat, a text by
    the glossary's word for it, a list item by item."""
    if isinstance(value, bool) or says_nothing(value):
        return ""  # a yes is said by the property's name (``_facts``), a no not at all: never True or False
    if isinstance(value, list):
        item = item_type(of_type)
        return ", ".join(w for w in (_value_words(ruleset, game, x, item, describe) for x in value) if w)
    if not isinstance(value, str):
        return str(value)
    if value in game.state.players:
        return value  # a seat by its id, as the scenarios and the marks on spaces write it
    if of_type in ruleset.data.kinds or (of_type == ANY and value in game.state.entities):
        component = value.split(".", 1)[0]
        known = any(c.name == component for c in ruleset.data.components)
        return describe(component) if known else value
    return describe(f"values.{value}")


def _marks_on_spaces(ruleset: RuleSet, game: Game, describe: Callable[[str], str]) -> list[Piece]:
    """A player a board space's property names (the mark in a square), as a token of that
    player's: its id is the player's, so the legend tells whose it is."""
    board = ruleset.data.board
    if board.kind == "tiles":
        return []
    players = game.state.players
    out = []
    for space in board.spaces:
        e = game.state.entities.get(space)
        for k, v in ((e or {}).get("props") or {}).items():
            if isinstance(v, str) and v in players:
                seat = players.index(v)
                own = game.state.entities.get(v, {}).get("props", {})
                word = next((w for w in own.values() if isinstance(w, str) and w), None)
                mark = (word or str(seat + 1))[:2].upper()
                title = f"{describe(f'properties.{board.space_kind}.{k}')} {v}"
                out.append(Piece(v, space, mark, title, PIECE_COLOURS[seat % len(PIECE_COLOURS)]))
    return out


def board_picture(ruleset: RuleSet, game: Game, title: str, label: Callable[[str], str],
                  pieces: list[Piece], describe: Callable[[str], str] | None = None) -> str:
    if ruleset.data.board.kind == "ring":
        return ring_svg(ruleset.data.board, pieces, title)
    if ruleset.data.board.kind != "tiles":  # a graph or grid, declared whole
        return declared_board_svg(ruleset.data.board, title, pieces=pieces, describe=describe)
    return board_svg(ruleset.data.board, tile_layouts(ruleset), game.state.tiles, pieces, title, label)


def run_examples(ruleset: RuleSet, folder: Path, *, variant: str | None, label: Callable[[str], str],
                 describe: Callable[[str], str], titles: tuple[str, str]) -> list[ExampleFile]:
    """Every scenario file of ``folder``, each scenario run with pictures of its board."""
    out = []
    for path in scenario_files(folder):
        bag = DiagnosticBag()
        loaded = load_file(path, bag, str(path))
        ef = ExampleFile(path.stem, path, broken=not loaded.ok, problems=bag.render() if bag.items else "")
        for sc in loaded.scenarios:
            pictures: dict[str, str] = {}
            shown: dict[str, Piece] = {}

            def watch(moment: str, game: Game, pictures=pictures, shown=shown) -> None:
                if ruleset.data.board is not None:
                    pieces = pieces_on_board(ruleset, game, describe)
                    for p in pieces:
                        shown.setdefault(p.id, p)
                    pictures[moment] = board_picture(ruleset, game, titles[moment == "after"], label, pieces, describe)

            result = run_scenario(ruleset, sc, variant, watch=watch)
            ef.examples.append(Example(sc, result, pictures.get("before"), pictures.get("after"), shown))
        out.append(ef)
    return out
