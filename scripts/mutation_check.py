#!/usr/bin/env python3
"""Mutation check: how much of the Panic Station rule set do the scenarios really pin down?

Each mutation below is one deliberate change to a rule file (a number, a condition, a
cost, a target, a table entry). For each one the script copies ``rules/panic_station``
to a temporary folder, applies the change, and runs what ``rulecraft verify`` runs, in
this process: the static checks, then every scenario of ``seeds/panic_station``. A
mutation is KILLED when verify would fail (a static error, a scenario that fails or is
broken, a known failure that passes, or a crash) and SURVIVES when everything passes:
a surviving mutation is a rule the scenarios do not check.

    python scripts/mutation_check.py              # every mutation, then the score
    python scripts/mutation_check.py --list       # the mutations, numbered, and whether each applies
    python scripts/mutation_check.py --only 7     # mutation 7 only
    python scripts/mutation_check.py --jobs 2     # run mutations in 2 worker processes

The unmodified rule set is checked first; if it does not pass, nothing else runs (exit
2). A mutation whose ``old`` text does not occur exactly once in its file (the rules
moved on) is a SETUP ERROR: reported apart, never counted as killed. The score is
killed / total; exit 0 when it is at least 90%, 1 otherwise.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from rulecraft.dsl.compiler import compile_ruleset
from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.dsl.loader import load_ruleset
from rulecraft.validator import BROKEN, FAIL, FAILING, FIXED, SKIP, load_file, run_scenario, scenario_files

REPO = Path(__file__).resolve().parent.parent
RULES = REPO / "rules" / "panic_station"
SCENARIOS = REPO / "seeds" / "panic_station"
THRESHOLD = 90.0


class Mutation(NamedTuple):
    file: str  # a file of the rule-set folder
    old: str  # exact text; must occur exactly once in the file
    new: str
    description: str


MUTATIONS: list[Mutation] = [
    # ---- numbers and tables (YAML data)
    Mutation("game.yaml", "  gas_cans_to_burn:\n    value: 3\n", "  gas_cans_to_burn:\n    value: 2\n",
             "burning the Hive takes 2 gas cans instead of 3"),
    Mutation("game.yaml", "  storage_first_search_cards:\n    value: 3\n", "  storage_first_search_cards:\n    value: 2\n",
             "first search of a storage room draws 2 cards instead of 3"),
    Mutation("game.yaml", "  hand_minimum:\n    value: 5\n", "  hand_minimum:\n    value: 4\n",
             "hand minimum 4 instead of 5"),
    Mutation("game.yaml", "  team_search_cards:\n    value: 2\n", "  team_search_cards:\n    value: 1\n",
             "team search draws 1 card instead of 2"),
    Mutation("game.yaml", "  sick_bay_healing:\n    value: 2\n", "  sick_bay_healing:\n    value: 1\n",
             "sick bay heals 1 instead of 2"),
    Mutation("game.yaml", "  cards_dealt_at_setup:\n    value: 2\n", "  cards_dealt_at_setup:\n    value: 3\n",
             "3 search cards dealt at setup instead of 2"),
    Mutation("game.yaml", "  starting_health:\n    value: 4\n", "  starting_health:\n    value: 3\n",
             "healing caps health at 3 instead of 4"),
    Mutation("board.yaml", "parasite_damage: {gray: 1, black: 2}", "parasite_damage: {gray: 1, black: 1}",
             "black parasites deal 1 damage instead of 2"),
    Mutation("board.yaml", "d4_direction: {1: north, 2: east, 3: south, 4: west}",
             "d4_direction: {1: south, 2: west, 3: north, 4: east}",
             "d4 template turned half a turn (2 -> west)"),
    Mutation("board.yaml", "ap_for_health: {0: 0, 1: 1, 2: 1, 3: 2, 4: 2}",
             "ap_for_health: {0: 0, 1: 1, 2: 1, 3: 1, 4: 2}",
             "a character with 3 health gives 1 AP instead of 2"),
    Mutation("board.yaml", "- {edges: [security, security], forbidden: true}",
             "- {edges: [security, security], connection: security}",
             "two security doors may meet when exploring"),
    # ---- setup
    Mutation("setup.rules", "repeat 2 * count(players) - 1 times:", "repeat 2 * count(players) times:",
             "setup stack takes 2P random cards instead of 2P-1"),
    Mutation("setup.rules", "            move c to bottom of lower_pile", "            move c to top of lower_pile",
             "Hive's three cards go on top of the lower pile (Hive mid-deck)"),
    Mutation("setup.rules", "                move first(gray_parasites_in_supply()) to reactor_room()\n", "",
             "Parasite Alert dealt at setup puts no parasite in the Reactor"),
    # ---- round, turns, action points
    Mutation("phases.rules", "set parasite_marker.holder = next_living(next_player(starter))",
             "set parasite_marker.holder = starter", "parasite marker not passed on"),
    Mutation("phases.rules", "seats_from(starter, count(players) + 1)", "seats_from(starter, count(players))",
             "team phase of N turns instead of N+1"),
    Mutation("phases.rules", "        set game.security_doors_open = false\n", "",
             "opened security doors do not close in the parasite phase"),
    Mutation("phases.rules", "    when turn.first_turn and not turn.searched\n", "    when false\n",
             "first-turn search obligation removed"),
    Mutation("phases.rules", "    possible search_possible(current_player)\n", "    possible current_player.ap > 0\n",
             "first-turn search counted possible whenever AP is left"),
    # ---- exploring and moving
    Mutation("board.rules", "    = placements(card, r, [0, 180])", "    = placements(card, r, [0, 90, 180, 270])",
             "explored cards may be laid sideways"),
    Mutation("actions.rules", "or top(exploration_deck) == hive or not turn.explore_retry_used else",
             "or top(exploration_deck) == hive or true else",
             "explore's put-under-and-retry not limited to once per turn"),
    Mutation("board.rules", "(game.security_doors_open or holds_keycard(p))", "(game.security_doors_open or true)",
             "security doors passable without a keycard"),
    Mutation("board.rules", "(game.security_doors_open or holds_keycard(p))",
             "(game.security_doors_open or any([holds_keycard(q) for q in players]))",
             "any player's keycard opens security doors for everyone"),
    # ---- searching and rooms
    Mutation("actions.rules", "        if card.searched:\n            spawn_parasite(c.at, current_player)\n",
             "        if card.searched:\n            set card.searched = true\n",
             "searching a red room makes no parasite appear"),
    Mutation("search.rules", "            spawn_parasite(origin, p)\n        else:",
             "            spawn_parasite(origin, p)\n            if top(pile) != none:\n                move top(pile) to hand(p)\n        else:",
             "a Parasite Alert drawn is replaced by the next card"),
    Mutation("actions.rules",
             '    require c.at not in turn.ran_through else "a character running through may not search the room"\n', "",
             "a character may search a Run room it ran through"),
    Mutation("actions.rules", "        if turn.run_character == c:\n            set turn.run_character = none\n", "",
             "searching a Run room keeps its free move"),
    Mutation("rooms.rules",
             '    require not encounter_forced() else "first attack or trade with the character you met"\n    do:\n        let c = turn.run_character',
             '    require not encounter_forced() else "first attack or trade with the character you met"\n    cost 1 ap\n    do:\n        let c = turn.run_character',
             "a Run room's free move costs 1 AP"),
    Mutation("rooms.rules", " and count(others_in(event.destination, current_player)) == 0:", ":",
             "Run room's free move even with another player's character there"),
    Mutation("rooms.rules", '    require c.at not in turn.attacked_rooms else "you attacked a player in this room this turn"\n', "",
             "team search allowed after attacking a player in that room"),
    Mutation("rooms.rules", "    limit 1 per turn\n", "", "sick bay usable more than once per turn"),
    Mutation("rooms.rules", '        if card.searched:\n            spawn_parasite(r, p)\n',
             '        if card.searched:\n            set card.searched = true\n',
             "using a red terminal or sick bay makes no parasite appear"),
    Mutation("rooms.rules", 'event.destination.type == "parasite_alert"', 'event.destination.type == "storage"',
             "the storage room, not the Parasite Alert room, spawns on entering"),
    Mutation("terminal.rules",
             "    limit 1 per turn as terminal\n    cost 1 ap\n    do:\n        use_room(c.at, current_player)\n        set game.security_doors_open = true",
             "    cost 1 ap\n    do:\n        use_room(c.at, current_player)\n        set game.security_doors_open = true",
             "opening the doors does not use up the turn's terminal function"),
    # ---- parasites
    Mutation("parasites.rules", 'where connection(here, r) == "open"]', 'where connection(here, r) != "none"]',
             "parasites walk through closed security doors"),
    # ---- combat and items
    Mutation("items.rules", "        set event.prevented += 1\n", "        set event.prevented += 2\n",
             "one Armor card prevents 2 damage instead of 1"),
    Mutation("items.rules", '    require can_play_item(event.player) else "an item is played only from a hand of more than {hand_minimum} cards"\n',
             "", "Armor may be played from a hand of 5 cards"),
    Mutation("combat.rules", "        if face >= 3:", "        if face >= 2:", "Combat Knife hits on 2+ instead of 3+"),
    Mutation("combat.rules", "        if count(others_in(target, current_player)) > 0:\n            note_attack(target)\n",
             "        note_attack(target)\n", "a grenade counts as an attack even where no player's character stands"),
    Mutation("items.rules", "choose second from wounded + [none] by", "choose second from wounded by",
             "the First Aid Kit's second point is forced"),
    Mutation("items.rules", "    with card: search_card in contents(hand(current_player)) where permanent(card)\n",
             "    with card: search_card in contents(hand(current_player)) where permanent(card)\n"
             "    require not encounter_forced() else \"first attack or trade with the character you met\"\n",
             "no item may be laid while a meeting waits for an attack or a trade"),
    Mutation("victory.rules", "    when not any([not p.infected for p in living_players()]) and any(",
             "    when false and any(", "killing off the humans wins nothing without a heat scan"),
    Mutation("combat.rules", "        note_attack(target)\n", "", "a grenade does not count as an attack in its room"),
    Mutation("combat.rules", 'if weapon_in_play(current_player, "heavy_gun") and bullets',
             'if weapon_in_play(current_player, "heavy_gun") and false and bullets', "Heavy Gun fires a single shot"),
    Mutation("combat.rules", 'where shooter.owner == current_player and shooter.role == "android" and on_board(shooter)',
             "where shooter.owner == current_player and on_board(shooter)", "Troopers may fire guns too (not only Androids)"),
    Mutation("combat.rules", "    = can_pass(here, there, p)", "    = true",
             "Target Scope shoots through closed security doors"),
    Mutation("combat.rules", '        if x.side == "black":\n            let grays', "        if false:\n            let grays",
             "a black parasite dies from a single hit"),
    Mutation("combat.rules", "        set card.bullets -= 1\n", "        set card.bullets -= 0\n",
             "shots spend no bullet"),
    Mutation("items.rules", "        set current_player.ap += 2\n", "        set current_player.ap += 1\n",
             "Energy Boost gives 1 AP instead of 2"),
    Mutation("characters.rules", "        if c.health == 0:\n            remove(c)", "        if c.health < 0:\n            remove(c)",
             "a character at 0 health is not eliminated"),
    Mutation("characters.rules", "                    move card to out_of_game\n", "                    stop\n",
             "a player whose characters are both dead keeps their cards"),
    # ---- trading and infection
    Mutation("trading.rules", 'r.type != "reactor" and ', "", "trades allowed in the Reactor"),
    Mutation("trading.rules", " and [c, r] not in turn.traded", "", "a character must trade again in a room it already traded in"),
    Mutation("trading.rules", "(c.owner == p and p.infected)", "(c.owner == p)",
             "an uninfected player may hand over an own infection card"),
    Mutation("trading.rules", "        if card.owner != giver or not giver.infected or receiver.infected:",
             "        if not giver.infected or receiver.infected:", "infection without the own-colour check"),
    Mutation("trading.rules", 'answer.item == "gas_can":', 'answer.item == "armor":',
             "a gas can does not block infection (armor does)"),
    Mutation("trading.rules", "            set p.infected = true\n            emit became_host", "            emit became_host",
             "holding the Host card does not infect"),
    # ---- the end of the game
    Mutation("victory.rules", "where p.infected and p != game.last_infected]", "where p.infected]",
             "last-infected exception removed (the last infected wins too)"),
    Mutation("victory.rules", '    require not current_player.infected else "only an uninfected Trooper can burn the Hive"\n', "",
             "an infected Trooper may burn the Hive"),
    Mutation("victory.rules", 'c.role == "trooper" and on_board(c) and c.at.type == "hive"', 'on_board(c) and c.at.type == "hive"',
             "an Android may burn the Hive"),
    Mutation("terminal.rules", "        elif count(living) - infected == 1:", "        elif count(living) - infected == 2:",
             "heat scan: the one-human-left win needs two humans left"),
    Mutation("terminal.rules", "    when event.tile == hive\n    do:\n        heat_scan()", "    when event.tile == hive\n    do:\n        stop",
             "placing the Hive triggers no heat scan"),
]


# ------------------------------------------------------------------ running verify


@dataclass
class Outcome:
    """What verify would say: passed, or the first reason it fails."""

    passed: bool
    scenario: str | None = None  # title of the first failing scenario ("" for a static error)
    reason: str | None = None
    failing: int = 0  # how many scenarios fail
    scenarios: int = 0
    skipped: int = 0  # scenarios of a variant, not run on the base rules
    failing_titles: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _reason(result) -> str:
    if result.status == BROKEN:
        errors = result.bag.errors if result.bag else []
        return "broken: " + (errors[0].message if errors else "names the rule set does not have")
    if result.status == FIXED:
        return "marked known_failure but passes"
    d = result.divergence
    if d is None:
        return result.status
    if d.message:
        return f"{d.label}: {d.message}"
    if d.mismatches:
        m = d.mismatches[0]
        return f"{d.label}: {m.what} expected {m.expected!r}, got {m.actual!r}"
    return d.label


def verify_folder(rules: Path, scenario_folder: Path) -> Outcome:
    """The checks of `rulecraft verify`, in this process; never raises."""
    start = time.perf_counter()
    try:
        ruleset = load_ruleset(rules)
    except Exception as err:  # verify would stop with an internal error
        return Outcome(False, "", f"loading crashed: {type(err).__name__}: {err}", seconds=time.perf_counter() - start)
    if ruleset.bag.errors:
        first = ruleset.bag.errors[0]
        where = f"{Path(first.position.file).name}:{first.position.line}: " if first.position else ""
        return Outcome(False, "", f"static check: {len(ruleset.bag.errors)} error(s); {where}{first.message}",
                       seconds=time.perf_counter() - start)
    try:
        compile_ruleset(ruleset)
    except Exception as err:
        return Outcome(False, "", f"compiling crashed: {type(err).__name__}: {err}", seconds=time.perf_counter() - start)
    bag = DiagnosticBag()
    files = [load_file(p, bag, str(p.relative_to(REPO)) if p.is_relative_to(REPO) else str(p))
             for p in scenario_files(scenario_folder)]
    outcome = Outcome(True)
    broken_files = [f.file for f in files if not f.ok]
    if broken_files:
        outcome = Outcome(False, "", f"scenario file does not load: {broken_files[0]}", failing=len(broken_files))
    scenarios = [sc for f in files for sc in f.scenarios]
    outcome.scenarios = len(scenarios)
    for sc in scenarios:
        try:
            result = run_scenario(ruleset, sc)
        except Exception as err:  # an engine crash: verify would not pass either
            status, reason = FAIL, f"crashed: {type(err).__name__}: {err}"
        else:
            status = result.status
            reason = _reason(result) if status in FAILING else None
        if status == SKIP:
            outcome.skipped += 1
        if status in FAILING:
            outcome.failing += 1
            outcome.failing_titles.append(sc.title)
            if outcome.passed:
                outcome.passed, outcome.scenario, outcome.reason = False, sc.title, reason
    outcome.seconds = time.perf_counter() - start
    return outcome


def occurrences(m: Mutation, rules: Path = RULES) -> int:
    path = rules / m.file
    if not path.is_file():
        return 0
    return path.read_text(encoding="utf-8").count(m.old)


def setup_problem(m: Mutation, rules: Path = RULES) -> str | None:
    if not (rules / m.file).is_file():
        return f"no file {m.file}"
    n = occurrences(m, rules)
    if n == 0:
        return f"old text not found in {m.file}"
    if n > 1:
        return f"old text occurs {n} times in {m.file}"
    if m.old == m.new:
        return "old and new text are the same"
    return None


def run_mutation(index: int, scenario_folder: str = str(SCENARIOS)) -> tuple[int, Outcome]:
    """Copy the rule set, apply mutation ``index`` (from 0; -1: none), verify the copy."""
    with tempfile.TemporaryDirectory(prefix="mutation_") as tmp:
        copy = Path(tmp) / RULES.name
        shutil.copytree(RULES, copy, ignore=shutil.ignore_patterns("__pycache__"))
        if index >= 0:
            m = MUTATIONS[index]
            path = copy / m.file
            text = path.read_text(encoding="utf-8")
            path.write_text(text.replace(m.old, m.new, 1), encoding="utf-8")
        return index, verify_folder(copy, Path(scenario_folder))


# ------------------------------------------------------------------ the report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", type=int, metavar="N", help="run only mutation N (numbered from 1, as in --list)")
    parser.add_argument("--list", action="store_true", help="list the mutations and whether each applies; run nothing")
    parser.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes (default 1)")
    parser.add_argument("--scenarios", metavar="DIR", default=str(SCENARIOS),
                        help="scenario folder (default: seeds/panic_station)")
    args = parser.parse_args(argv)
    console = Console(highlight=False, soft_wrap=False, width=None if sys.stdout.isatty() else 160)

    if args.list:
        table = Table(title=f"{len(MUTATIONS)} mutation(s) of {RULES.relative_to(REPO)}")
        for col in ("#", "file", "mutation", "applies"):
            table.add_column(col, justify="right" if col == "#" else "left")
        for i, m in enumerate(MUTATIONS, start=1):
            problem = setup_problem(m)
            table.add_row(str(i), m.file, escape(m.description), f"[red]{escape(problem)}[/]" if problem else "[green]yes[/]")
        console.print(table)
        return 0

    if args.only is not None and not 1 <= args.only <= len(MUTATIONS):
        parser.error(f"--only takes a number from 1 to {len(MUTATIONS)}")
    if not Path(args.scenarios).is_dir():
        parser.error(f"no folder at '{args.scenarios}'")
    chosen = [args.only - 1] if args.only is not None else list(range(len(MUTATIONS)))
    started = time.perf_counter()

    # Sanity check: the unmodified rules must pass, or every mutation would look killed.
    _, base = run_mutation(-1, args.scenarios)
    if not base.passed:
        console.print("[red]The unmodified rule set does not pass verify[/]; mutation results would mean nothing.")
        console.print(f"  first failure: {escape(base.scenario or '(static check)')}: {escape(base.reason or '')}")
        console.print(f"  ({base.failing} failing; run `rulecraft verify {RULES.relative_to(REPO)}` for the details)")
        return 2
    skipped = f", {base.skipped} of a variant skipped" if base.skipped else ""
    console.print(f"Unmodified rules: {base.scenarios - base.skipped} scenario(s) pass{skipped} ({base.seconds:.1f}s).")

    problems = {i: setup_problem(MUTATIONS[i]) for i in chosen}
    runnable = [i for i in chosen if problems[i] is None]
    outcomes: dict[int, Outcome] = {}
    with console.status("running mutations…") as status:
        if args.jobs > 1 and len(runnable) > 1:
            with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                for i, outcome in pool.map(run_mutation, runnable, [args.scenarios] * len(runnable)):
                    outcomes[i] = outcome
                    status.update(f"running mutations… {len(outcomes)}/{len(runnable)}")
        else:
            for i in runnable:
                status.update(f"mutation {i + 1}/{len(MUTATIONS)}: {MUTATIONS[i].description}")
                outcomes[i] = run_mutation(i, args.scenarios)[1]

    table = Table(title=f"Mutations of {RULES.relative_to(REPO)} against {escape(str(Path(args.scenarios)))}")
    table.add_column("#", justify="right")
    table.add_column("file")
    table.add_column("mutation")
    table.add_column("result")
    table.add_column("first failing scenario (killed by n)")
    killed, survivors, setup_errors = [], [], []
    for i in chosen:
        m = MUTATIONS[i]
        if problems[i]:
            setup_errors.append(i)
            table.add_row(str(i + 1), m.file, escape(m.description), "[yellow]SETUP ERROR[/]", escape(problems[i]))
            continue
        o = outcomes[i]
        if o.passed:
            survivors.append(i)
            table.add_row(str(i + 1), m.file, escape(m.description), "[red]SURVIVED[/]", "")
        else:
            killed.append(i)
            by = o.scenario if o.scenario else f"(static) {o.reason}"
            count = f" ({o.failing})" if o.scenario else ""
            table.add_row(str(i + 1), m.file, escape(m.description), "[green]KILLED[/]", escape(by + count))
    console.print(table)

    if args.only is not None and outcomes.get(args.only - 1) and not outcomes[args.only - 1].passed:
        o = outcomes[args.only - 1]
        console.print(f"\nFirst divergence: {escape(o.reason or '')}")
        if o.failing_titles:
            console.print(f"Failing scenarios ({o.failing}):")
            for title in o.failing_titles:
                console.print(f"  - {escape(title)}")

    total = len(chosen)
    score = 100.0 * len(killed) / total if total else 0.0
    colour = "green" if score >= THRESHOLD else "red"
    console.print(f"\nScore: [{colour}]{len(killed)}/{total} killed ({score:.1f}%)[/] "
                  f"(threshold {THRESHOLD:.0f}%), {time.perf_counter() - started:.1f}s")
    if survivors:
        console.print("Survivors (rules no scenario checks):")
        for i in survivors:
            console.print(f"  {i + 1}. {MUTATIONS[i].file}: {escape(MUTATIONS[i].description)}")
    if setup_errors:
        console.print("[yellow]Setup errors[/] (the mutation's text no longer matches the rules; fix the mutation list):")
        for i in setup_errors:
            console.print(f"  {i + 1}. {MUTATIONS[i].file}: {escape(MUTATIONS[i].description)}: {escape(problems[i])}")
    return 0 if score >= THRESHOLD else 1


if __name__ == "__main__":
    sys.exit(main())
