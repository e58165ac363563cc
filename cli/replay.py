"""`rulecraft replay LOG`: re-play a game log on the rules and check it lands on the same state.

A log is what ``Game.write_log`` (``simulate --log``, ``play``'s save) writes: a header
(rule set, players, seed), the decisions, the events and the final state, as JSON lines.
The decisions are answered again on the rule set (the shipped one named in the header,
or ``--rules``); the events are printed step by step (with ``--as PLAYER`` only those
that player may see) and compared one by one with the logged ones. Exit 0 when the
replay reaches the logged final state, 1 when it diverges (edited rules, a changed or
corrupt file; the first diverging decision or event is named), 2 for a bad command line
(and for a log whose rule set or variant is not shipped: it needs ``--rules``).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from rulecraft.dsl.loader import shipped_ruleset
from rulecraft.dsl.ruleset_files import is_name
from rulecraft.dsl.variants import available_variants
from rulecraft.interpreter.game import Game, state_digest
from rulecraft.interpreter.gamelog import GameLog, GameLogError
from rulecraft.interpreter.machine import RuleRuntimeError
from rulecraft.interpreter.views import number_for_viewer, visible_event

from .common import counted, load_or_report, ruleset_arg, usage_error
from .locked_save import PassphraseMissing, read_log_or_save
from .play import event_text, option_label


def log_arg(text: str) -> str:
    if not Path(text).is_file():
        raise argparse.ArgumentTypeError(f"no file at '{text}'")
    return text


def add_parser(sub) -> None:
    p = sub.add_parser("replay", help="re-play a game log and check it reaches the logged final state",
                       description="Re-play the decisions of a game log (simulate --log, a saved play) on the "
                                   "rules, print the events step by step and check every event and the final "
                                   "state against the log. Exit 0 identical, 1 diverged or unreadable, 2 bad usage.")
    p.add_argument("log", type=log_arg, help="a game log (JSON lines)")
    p.add_argument("--as", dest="viewer", metavar="PLAYER", help="show only what PLAYER may see (e.g. p2)")
    p.add_argument("--rules", type=ruleset_arg, metavar="RULESET",
                   help="the rule set to replay on (default: the shipped rule set named in the log's header; "
                        "needed for a game of any other rule set or variant)")
    p.add_argument("--quiet", action="store_true", help="print only the verdict, not the events")
    p.set_defaults(run=run)


def read_log(path: str) -> GameLog:
    """Read and check a game log (see rulecraft.interpreter.gamelog), unlocking a locked
    save with its passphrase (asked); GameLogError says why one is refused."""
    return read_log_or_save(path)[0]


def _plain(value):
    return json.loads(json.dumps(value, sort_keys=True))


def first_difference(expected, actual, path: str = "state") -> str | None:
    """The first place two JSON values differ, as 'path: log X, replay Y'."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in list(expected) + [k for k in actual if k not in expected]:
            if key not in actual:
                return f"{path}.{key}: in the log, missing in the replay"
            if key not in expected:
                return f"{path}.{key}: in the replay, missing in the log"
            found = first_difference(expected[key], actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        for i, (a, b) in enumerate(zip(expected, actual)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        if len(expected) != len(actual):
            return f"{path}: {len(expected)} items in the log, {len(actual)} in the replay"
        return None
    if expected != actual:
        return f"{path}: log {json.dumps(expected)}, replay {json.dumps(actual)}"
    return None


@dataclass
class Step:
    number: int  # 1-based decision number; 0 for the setup
    player: str | None = None
    prompt: str | None = None
    label: str | None = None
    first_event: int = 0
    end_event: int = 0


@dataclass
class Outcome:
    game: Game | None
    steps: list[Step]
    problem: str | None = None


def replay_log(ruleset, log: GameLog) -> Outcome:
    """Answer the log's decisions again, comparing each new event with the logged one."""
    logged = log.events
    steps: list[Step] = []

    def compare(step: Step, game: Game) -> str | None:
        after = f"after decision {step.number} ({step.player}: {step.label})" if step.number else "during setup"
        for seq in range(step.first_event, step.end_event):
            got = _plain(game.events[seq])
            if seq >= len(logged):
                return f"diverges at event #{seq}, {after}: the replay has '{event_text(got)}', the log has no more events"
            want = logged[seq]
            if got != want:
                detail = first_difference(want, got, "event") or ""
                return (f"diverges at event #{seq}, {after}:\n  log:    {event_text(want)}\n"
                        f"  replay: {event_text(got)}" + (f"\n  ({detail})" if detail else ""))
        return None

    try:
        game = Game(ruleset, log.header["players"], log.header["seed"], settings=log.header.get("settings"))
    except (RuleRuntimeError, ValueError) as err:
        return Outcome(None, steps, f"the game cannot be set up: {err}")
    steps.append(Step(0, end_event=len(game.events)))
    problem = compare(steps[0], game)
    if problem:
        return Outcome(game, steps, problem)
    for number, d in enumerate(log.decisions, 1):
        pending = game.pending
        if pending is None:
            return Outcome(game, steps, f"diverges at decision {number}: the log answers a choice, "
                                        f"but the replayed game is over ({game.result['reason']})")
        if not 0 <= d < len(pending.options):
            return Outcome(game, steps, f"diverges at decision {number} ({pending.player}: {pending.prompt}): the log "
                                        f"answers option {d}, but there " + (f"are only {len(pending.options)} options"
                                                       if len(pending.options) != 1 else "is only 1 option"))
        step = Step(number, pending.player, pending.prompt, option_label(pending.options[d]), len(game.events))
        steps.append(step)
        try:
            game.choose(d)
        except RuleRuntimeError as err:
            step.end_event = len(game.events)
            return Outcome(game, steps, compare(step, game) or f"rule error at decision {number}: {err}")
        step.end_event = len(game.events)
        problem = compare(step, game)
        if problem:
            return Outcome(game, steps, problem)
    if len(logged) > len(game.events):
        ev = logged[len(game.events)]
        return Outcome(game, steps, f"diverges at event #{len(game.events)}: the log has '{event_text(ev)}' "
                                    f"after its last decision, the replay stops before it")
    if log.final is not None:
        diff = first_difference(log.final, _plain(game.state.to_json()))
        if diff:
            return Outcome(game, steps, f"every event matches, but the final state differs at {diff}")
    return Outcome(game, steps)


def print_steps(console: Console, outcome: Outcome, viewer: str | None) -> None:
    """The setup and each decision with the events it caused. With a ``viewer``, only
    their own decisions and the events they may see, numbered in their own stream (as
    their views number them): the log's numbers would show where hidden events were."""
    game = outcome.game
    if game is None:
        return
    if viewer:
        shown = {}
        for ev in game.events:
            seen = visible_event(game.ruleset, game.state, ev, viewer)
            if seen is not None:
                shown[ev["seq"]] = number_for_viewer(seen, len(shown))
    else:
        shown = {e["seq"]: {k: v for k, v in e.items() if not k.startswith("_")} for e in game.events}
    own_decisions = 0
    for step in outcome.steps:
        if step.number == 0:
            console.print("[bold]setup[/]")
        elif viewer is None:
            console.print(f"[bold]#{step.number} {step.player}[/] → {escape(step.label or '')}", highlight=False)
        elif step.player == viewer:
            own_decisions += 1
            console.print(f"[bold]#{own_decisions} {step.player}[/] → {escape(step.label or '')}", highlight=False)
        for seq in range(step.first_event, step.end_event):
            if seq in shown:
                console.print(f"    {shown[seq]['seq']:>4}  {escape(event_text(shown[seq]))}", highlight=False)


def run(args) -> int:
    # lines are never wrapped: one event or verdict per line, for people and for grep
    console = Console(soft_wrap=True)
    try:
        log = read_log(args.log)
    except PassphraseMissing as err:
        return usage_error("replay", str(err))
    except GameLogError as err:
        console.print(f"[red]error:[/] {escape(str(err))}", highlight=False)
        return 1
    header = log.header
    players = [f"p{i}" for i in range(1, header["players"] + 1)]
    if args.viewer is not None and args.viewer not in players:
        return usage_error("replay", f"argument --as: there is no player '{args.viewer}' in this game "
                                     f"(players: {', '.join(players)})")
    rules = args.rules
    if rules is None:
        # a log is a file from anywhere: what it names is looked up among the shipped
        # rule sets only, never read as a path
        named = header["ruleset"]
        found = shipped_ruleset(named)
        if found is None:
            what = "which is not shipped with rulecraft" if is_name(named) else "which is not a rule set's name"
            return usage_error("replay", f"the log's header names the rule set {json.dumps(named)}, {what}: give the "
                                         f"rule set it was played on with --rules PATH")
        rules = str(found)
    variant = header.get("variant")
    if variant is not None and not is_name(variant):
        return usage_error("replay", f"the log's header names the variant {json.dumps(variant)}, which is not a "
                                     f"variant name (letters, digits and _, never a path)")
    if variant is not None and variant not in available_variants(Path(rules)):
        # a variant made in a copy of a shipped rule set is not in the shipped one
        known = ", ".join(available_variants(Path(rules))) or "none"
        return usage_error("replay", f"the log is a game of the variant '{variant}', which {rules} does not have "
                                     f"(its variants: {known}): give the rule set it was played on with --rules PATH")
    ruleset = load_or_report(rules, variant)
    if ruleset is None:
        return 1
    if header.get("ruleset") and header["ruleset"] != ruleset.name:
        console.print(f"[yellow]note:[/] the log is a game of '{escape(header['ruleset'])}', replayed on "
                      f"'{escape(ruleset.name)}'", highlight=False)
    outcome = replay_log(ruleset, log)
    if not args.quiet:
        print_steps(console, outcome, args.viewer)
    decisions = len(log.decisions)
    if outcome.problem:
        console.print(f"[red]MISMATCH[/] {escape(args.log)} on {escape(rules)}: {escape(outcome.problem)}",
                      highlight=False)
        return 1
    game = outcome.game
    result = game.result
    ending = (f"{result['reason']}, winners {', '.join(result['winners']) or 'none'}" if result
              else "the game is not over")
    if args.viewer:
        # as the player saw it: no count of all events, nor a digest of the whole state
        # (a digest would let them test guesses about what is hidden)
        console.print(f"[green]IDENTICAL[/] {escape(args.log)}: replayed to the logged final state; "
                      f"{args.viewer} saw {game.visible_count(args.viewer)} events ({escape(ending)})", highlight=False)
        return 0
    console.print(f"[green]IDENTICAL[/] {escape(args.log)}: {counted(decisions, 'decision')} and "
                  f"{counted(len(game.events), 'event')} "
                  f"replayed to the logged final state (digest {state_digest(game.state)}; {escape(ending)})",
                  highlight=False)
    return 0
