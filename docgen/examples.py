"""The worked examples: every scenario of a rule set run now, with its result and the
board as it stood before its steps and where it stopped, as SVG."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.dsl.model import RuleSet
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.state import tile_layouts
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
        # the tooltip names properties in the site's language; values as the state holds them
        facts = ", ".join(f"{describe(f'properties.{kind.name}.{k}') if k in kind.properties else k} {v}"
                          for k, v in e["props"].items() if k != kind.owner_property) if kind else ""
        title = f"{describe(component)} ({eid})" + (f": {facts}" if facts else "")
        out.append(Piece(eid, at, mark, title, colour))
    return out + _marks_on_spaces(ruleset, game, describe)


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
