"""The worked examples: every scenario of a rule set run now, with its result and the
board as it stood before its steps and where it stopped, as SVG."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.dsl.model import KindSpec, RuleSet
from rulecraft.dsl.types import ANY, item_type, parse_type_text
from rulecraft.dsl.variants import variant_scenario_files
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.machine import IllegalAnswer, RuleRuntimeError
from rulecraft.interpreter.state import RANDOM_PICKS, tile_layouts
from rulecraft.narration import says_nothing
from rulecraft.validator import BROKEN, SKIP, Scenario, ScenarioResult, load_file, run_scenario, scenario_files
from rulecraft.validator.arrange import fix_shuffles, fixed_picks, starting_values
from rulecraft.validator.names import default_players, names_for

from .board_picture import declared_board_svg
from .svg import PIECE_COLOURS, Piece, board_svg, ring_svg


@dataclass
class Example:
    scenario: Scenario
    result: ScenarioResult
    before: str | None = None  # SVG
    after: str | None = None
    pieces: dict[str, Piece] = field(default_factory=dict)  # every piece the pictures show, by id: their legend
    # where the game's setup put what a shuffle it made was fixed to put on top (see fixed_tops)
    fixed_tops: dict[str, list[tuple[str | None, list[str]]]] = field(default_factory=dict)


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


def example_sources(ruleset: RuleSet, folder: Path | None) -> list[tuple[str, Path, str | None]]:
    """The scenario files of a site, as ``rulecraft verify`` reads them: every file of
    ``folder`` (None: the rule set has none), then, under a variant, the files each variant
    of its chain keeps in its own folder (``variants/NAME/scenarios.yaml``), whose
    scenarios hold for that variant. Each with a stem that names its page, told apart
    from the others', and the variant it belongs to (None: the file says)."""
    sources = [(path.stem, path, None) for path in (scenario_files(folder) if folder is not None else [])]
    if ruleset.variant is not None:
        taken = {stem for stem, _, _ in sources}
        for name, path in variant_scenario_files(Path(ruleset.root), ruleset.variant.chain):
            stem = name if path.name.startswith("scenarios.") else f"{name}-{path.stem}"
            while stem in taken:  # a base file named like the variant
                stem += "-" + name
            taken.add(stem)
            sources.append((stem, path, name))
    return sources


def fixed_tops(ruleset: RuleSet, sc: Scenario) -> dict[str, list[tuple[str | None, list[str]]]]:
    """Where the game's own setup put what each shuffle it made was fixed to put on top
    (``game_setup: shuffles:``), once the game has started: for each shuffled zone, the
    places the things fixed ended in (a zone or a space; None: off the table), each with
    those things in the order the scenario fixed them. A reader then sees what every player was dealt, not only the
    order of a shuffled zone. The game's setup is played again without the scenario's
    own ``setup``, which may move these things after. A zone is left out when one of its
    things is a component of several copies (which copy went where is not kept), or
    when the game does not start (the example's result says why)."""
    shuffles = sc.game_setup.get("shuffles") or {}
    if not shuffles:
        return {}
    players = default_players(ruleset, sc)
    names = names_for(ruleset, players)
    fixed = dict(sc.game_setup.get("rolls") or {})
    try:
        if "picks" in sc.game_setup:
            fixed[RANDOM_PICKS] = fixed_picks(names, sc.game_setup["picks"])
        fix_shuffles(fixed, names, shuffles)
        game = Game(ruleset, players, sc.seed, forced_rolls=fixed, **starting_values(names, sc.game_setup))
    except (RuleRuntimeError, IllegalAnswer, ValueError):  # as the run reports it: not told
        return {}
    entities = game.state.entities
    out: dict[str, list[tuple[str | None, list[str]]]] = {}
    for zone, things in shuffles.items():
        if not all(t in entities for t in things):
            continue
        places: dict[str | None, list[str]] = {}
        for t in things:
            places.setdefault(entities[t].get("at"), []).append(t)
        out[zone] = list(places.items())
    return out


def run_examples(ruleset: RuleSet, folder: Path | None, *, variant: str | None, label: Callable[[str], str],
                 describe: Callable[[str], str], titles: tuple[str, str]) -> list[ExampleFile]:
    """Every scenario of the site (see :func:`example_sources`), each run with pictures of its board."""
    out = []
    for stem, path, owner in example_sources(ruleset, folder):
        bag = DiagnosticBag()
        loaded = load_file(path, bag, str(path))
        ef = ExampleFile(stem, path, broken=not loaded.ok, problems=bag.render() if bag.items else "")
        for sc in loaded.scenarios:
            sc.variant = sc.variant or owner  # a variant's own scenario holds for it, as verify reads it
            pictures: dict[str, str] = {}
            shown: dict[str, Piece] = {}

            def watch(moment: str, game: Game, pictures=pictures, shown=shown) -> None:
                if ruleset.data.board is not None:
                    pieces = pieces_on_board(ruleset, game, describe)
                    for p in pieces:
                        shown.setdefault(p.id, p)
                    pictures[moment] = board_picture(ruleset, game, titles[moment == "after"], label, pieces, describe)

            result = run_scenario(ruleset, sc, variant, watch=watch)
            # a scenario not played here (broken, or another variant's) may name what these rules lack
            tops = fixed_tops(ruleset, sc) if result.status not in (BROKEN, SKIP) else {}
            ef.examples.append(Example(sc, result, pictures.get("before"), pictures.get("after"), shown, tops))
        out.append(ef)
    return out
