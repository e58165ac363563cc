"""`rulecraft mutate` on a tiny rule set: which mutants the operators derive and where,
how a mutant is classified (killed by a scenario, killed statically, survived, timed
out), equivalent mutants, and bad command lines. Nothing here knows any real game."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from test_80_validator import GAME, RULES

from rulecraft.cli.main import main
from rulecraft.validator.mutants import generate, mutant_files, rules_mutants, yaml_mutants
from rulecraft.validator.mutation import KILLED, STATIC, SURVIVED, TIMEOUT, Checker, Target

OPERATORS_RULES = textwrap.dedent("""\
    action act:
        with c: card in contents(deck) where c.points > 1
        require not done and count(contents(deck)) <= 3 else "no"
        cost 2 ap
        limit 1 per turn
        do:
            set game.n += 1
            move c to bottom of pile
            if c in pile or true:
                stop
            else:
                shuffle pile
    """)


def found(text: str) -> set[tuple[str, int, int, str, str]]:
    """(operator, line, column, old, new) of every mutant of a rule text."""
    out = set()
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    for operator, start, end, new, _definition in rules_mutants("x.rules", text):
        line = max(i for i, s in enumerate(starts) if s <= start) + 1
        out.add((operator, line, start - starts[line - 1] + 1, text[start:end], new))
    return out


def test_operators_give_the_expected_mutants_at_their_positions():
    got = found(OPERATORS_RULES)
    expected = {
        ("boundary", 2, 51, ">", ">="),
        ("negate-comparison", 2, 51, ">", "<="),
        ("number", 2, 53, "1", "2"),
        ("number", 2, 53, "1", "0"),
        ("drop-where", 2, 35, " where c.points > 1", ""),
        ("drop-require", 3, 1, '    require not done and count(contents(deck)) <= 3 else "no"\n', ""),
        ("drop-not", 3, 13, "not ", ""),
        ("logic", 3, 22, "and", "or"),
        ("boundary", 3, 48, "<=", "<"),
        ("negate-comparison", 3, 48, "<=", ">"),
        ("number", 3, 51, "3", "4"),
        ("number", 3, 51, "3", "2"),
        ("cost", 4, 10, "2", "3"),
        ("cost", 4, 10, "2", "1"),
        ("cost", 4, 1, "    cost 2 ap\n", ""),
        ("limit", 5, 11, "1", "2"),
        ("limit", 5, 11, "1", "0"),
        ("limit", 5, 17, "turn", "round"),
        ("limit", 5, 1, "    limit 1 per turn\n", ""),
        ("assign", 7, 20, "+=", "-="),
        ("number", 7, 23, "1", "2"),
        ("number", 7, 23, "1", "0"),
        ("drop-statement", 7, 1, "        set game.n += 1\n", ""),
        ("zone-end", 8, 19, "bottom", "top"),
        ("drop-statement", 8, 1, "        move c to bottom of pile\n", ""),
        ("membership", 9, 14, "in", "not in"),
        ("logic", 9, 22, "or", "and"),
        ("boolean", 9, 25, "true", "false"),
        ("condition", 9, 12, "c in pile or true", "true"),
        ("condition", 9, 12, "c in pile or true", "false"),
        ("drop-else", 11, 1, "        else:\n            shuffle pile\n", ""),
        ("drop-statement", 9, 1, "        if c in pile or true:\n            stop\n        else:\n            shuffle pile\n", ""),
    }
    assert got == expected, f"missing {expected - got}\nunexpected {got - expected}"


def test_a_mutant_applied_changes_only_its_span():
    root_text = "function f(x: number) -> bool:\n    = x < 3 and not x == 1\n"
    changes = {(op, text_new) for op, _s, _e, text_new, _d in rules_mutants("f.rules", root_text)}
    assert ("logic", "or") in changes and ("drop-not", "") in changes and ("builtin", "all") not in changes


def test_yaml_parameters_and_tables_change_by_one_and_game_metadata_does_not():
    text = textwrap.dedent("""\
        game:
          name: tiny
          round_limit: 6
        parameters:
          reach:
            value: 2
        dice:
          d6: [1, 2, 3, 4, 5, 6]
        board:
          damage: {gray: 1}
        """)
    got = {(op, text[s:e], new, where) for op, s, e, new, where in yaml_mutants("game.yaml", text, variant_file=False)}
    assert got == {("parameter", "2", "3", "parameters.reach"), ("parameter", "2", "1", "parameters.reach"),
                   ("table", "1", "2", "board"), ("table", "1", "0", "board")}


def test_ids_are_stable_when_unrelated_lines_move(tmp_path):
    root = tmp_path / "r"
    root.mkdir()
    (root / "a.rules").write_text(OPERATORS_RULES, encoding="utf-8")
    before = {(m.operator, m.old, m.new, m.column): m.id for m in generate(root, ["a.rules"])}
    (root / "a.rules").write_text("# a comment\n\n" + OPERATORS_RULES, encoding="utf-8")
    moved = generate(root, ["a.rules"])
    assert {(m.operator, m.old, m.new, m.column): m.id for m in moved} == before
    assert min(m.line for m in moved) == 4  # the positions did move
    assert len({m.id for m in moved}) == len(moved)


# ---------------------------------------------------------------- a tiny repository

SCENARIOS = """\
scenarios:
  - title: Drawing costs an action point
    cite: "tiny-rules: Drawing"
    steps:
      - do: draw
    expect:
      props:
        p1: {ap: 1}
"""


@pytest.fixture
def repo(tmp_path) -> Path:
    rules = tmp_path / "rules" / "tiny"
    rules.mkdir(parents=True)
    (rules / "game.yaml").write_text(GAME, encoding="utf-8")
    (rules / "main.rules").write_text(RULES, encoding="utf-8")
    seeds = tmp_path / "seeds" / "tiny"
    seeds.mkdir(parents=True)
    (seeds / "draw.yaml").write_text(SCENARIOS, encoding="utf-8")
    return tmp_path


def mutants_of(repo: Path):
    root = repo / "rules" / "tiny"
    return root, generate(root, mutant_files(root))


def one(mutants, **where):
    hits = [m for m in mutants if all(getattr(m, k) == v for k, v in where.items())]
    assert len(hits) == 1, hits
    return hits[0]


def test_a_mutant_is_killed_by_the_scenario_it_breaks_and_survives_where_none_looks(repo):
    root, mutants = mutants_of(repo)
    checker = Checker(Target(root, None, repo / "seeds" / "tiny"), timeout=30)
    assert checker.baseline()[0].status == SURVIVED
    cost = one(mutants, operator="cost", definition="draw", new="2")
    outcome = checker.check(cost)
    assert (outcome.status, outcome.by) == (KILLED, "Drawing costs an action point")
    limit = one(mutants, operator="limit", definition="poke", new="")  # no scenario pokes
    assert checker.check(limit).status == SURVIVED


def test_a_deleted_emit_leaves_the_scenarios_naming_its_event_meaningful(repo):
    """Dropping the rules' only ``emit scored`` makes 'scored' an event no rule gives: a scenario
    that only says it does not happen still holds (the mutant survives it), one that expects it
    fails (and kills it); neither is broken by a name the mutation took away."""
    root, mutants = mutants_of(repo)
    seeds = repo / "seeds" / "tiny"
    (seeds / "draw.yaml").write_text(SCENARIOS.replace("    expect:\n", "    expect:\n      no_events: [{type: scored}]\n"),
                                     encoding="utf-8")
    emit = next(m for m in mutants if m.operator == "drop-statement" and m.old.strip().startswith("emit scored"))
    assert Checker(Target(root, None, seeds), timeout=30).check(emit).status == SURVIVED
    (seeds / "play.yaml").write_text(textwrap.dedent("""\
        scenarios:
          - title: Playing a card scores it
            cite: "tiny-rules: Playing"
            setup:
              current: p1
            steps:
              - {do: play, by: p1}
            expect:
              events: [{type: scored, player: p1}]
        """), encoding="utf-8")
    outcome = Checker(Target(root, None, seeds), timeout=30).check(emit)
    assert (outcome.status, outcome.by) == (KILLED, "Playing a card scores it")


def test_a_static_error_is_a_static_kill(repo):
    root = repo / "rules" / "tiny"
    game = root / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "manifest:\n  card: 6\n", encoding="utf-8")
    mutants = generate(root, mutant_files(root))
    assert not [m for m in mutants if m.definition == "manifest"]  # a checksum, not a rule
    count = one(mutants, operator="table", definition="components", old="6", new="7")
    line = next(i for i, text in enumerate(GAME.splitlines(), start=1) if "count: 6" in text)
    assert (count.line, count.column) == (line, GAME.splitlines()[line - 1].index("6") + 1)
    outcome = Checker(Target(root, None, repo / "seeds" / "tiny"), timeout=30).check(count)
    assert outcome.status == STATIC
    assert "game.yaml" in outcome.by


def test_a_mutant_past_the_time_limit_times_out(repo):
    root, mutants = mutants_of(repo)
    checker = Checker(Target(root, None, repo / "seeds" / "tiny"), timeout=0.0005)
    outcome = checker.check(one(mutants, operator="cost", definition="draw", new="2"))
    assert outcome.status == TIMEOUT


# ---------------------------------------------------------------- the command


def mutate(capsys, *args) -> tuple[int, str]:
    try:
        code = main(["mutate", *map(str, args)])
    except SystemExit as stop:  # argparse's own errors
        code = stop.code
    out = capsys.readouterr()
    return code, out.out + out.err


def test_mutate_reports_each_mutant_and_the_score(repo, capsys, tmp_path):
    out_file = tmp_path / "report.json"
    code, out = mutate(capsys, repo / "rules" / "tiny", "--operator", "cost", "--out", out_file)
    assert code == 1, out  # `walk`'s cost is never checked: 1 of 3 survives
    report = json.loads(out_file.read_text(encoding="utf-8"))
    statuses = {(m["definition"], m["new"]): m["status"] for m in report["mutants"]}
    assert statuses[("draw", "2")] == "killed" and statuses[("draw", "0")] == "killed"
    assert statuses[("walk", "")] == "survived"
    assert report["counts"]["survived"] == sum(1 for s in statuses.values() if s == "survived")
    survivor = next(m for m in report["mutants"] if m["status"] == "survived")
    assert f"{survivor['file']}:{survivor['line']}:{survivor['column']}" in out
    assert "SURVIVED" in out and "Score:" in out and "cost" in out


def test_survivors_of_an_earlier_report_are_run_again_alone(repo, capsys, tmp_path):
    first, again = tmp_path / "first.json", tmp_path / "again.json"
    mutate(capsys, repo / "rules" / "tiny", "--operator", "cost", "--out", first)
    survivors = {m["id"] for m in json.loads(first.read_text(encoding="utf-8"))["mutants"] if m["status"] == "survived"}
    assert survivors
    mutate(capsys, repo / "rules" / "tiny", "--survivors-of", first, "--out", again)
    assert {m["id"] for m in json.loads(again.read_text(encoding="utf-8"))["mutants"]} == survivors


def test_equivalent_mutants_are_not_run_and_stale_entries_are_warned(repo, capsys):
    root, mutants = mutants_of(repo)
    walk_cost = [m for m in mutants if m.operator == "cost" and m.definition == "walk"]
    entries = "".join(f"  - id: {m.id}\n    reason: nothing in this test game tells walks apart by cost\n"
                      for m in walk_cost)
    entries += "  - at: main.rules:1:1\n    change: \"x → y\"\n    reason: matches nothing, a stale entry\n"
    (root / "mutants.yaml").write_text("equivalent:\n" + entries, encoding="utf-8")
    code, out = mutate(capsys, root, "--operator", "cost", "--out", repo / "r.json")
    assert (repo / "r.json").is_file(), out
    report = json.loads((repo / "r.json").read_text(encoding="utf-8"))
    assert report["equivalent"] == len(walk_cost)
    assert all(m["status"] == "equivalent" for m in report["mutants"] if m["definition"] == "walk")
    assert report["counts"]["survived"] == 0
    assert "matches no mutant any more" in out and "main.rules:1:1" in out
    # the equivalents may be at most 5% of all mutants: here they are not
    assert code == (0 if 100 * len(walk_cost) / report["generated"] <= 5 else 1), out


def test_an_equivalents_file_with_an_entry_without_reason_is_a_located_error(repo, capsys):
    root = repo / "rules" / "tiny"
    (root / "mutants.yaml").write_text("equivalent:\n  - id: m012345678\n", encoding="utf-8")
    code, out = mutate(capsys, root, "--list")
    assert code == 1
    assert "mutants.yaml:2:" in out and "reason" in out


def test_list_shows_ids_places_and_changes_and_runs_nothing(repo, capsys):
    root, mutants = mutants_of(repo)
    code, out = mutate(capsys, root, "--list", "--only", "main.rules:20")
    assert code == 0
    line_20 = [m for m in mutants if m.file == "main.rules" and m.line == 20]
    assert len(line_20) >= 2 and all(m.id in out for m in line_20)
    assert not [m for m in mutants if m.line != 20 and m.id in out]
    assert "Score" not in out


@pytest.mark.parametrize("args, message", [
    (["--jobs", "0"], "must be at least 1"),
    (["--sample", "x"], "not a whole number"),
    (["--only", "nowhere.rules"], "no mutant in 'nowhere.rules'"),
    (["--only", "main.rules:x"], "FILE or FILE:LINE"),
    (["--variant", "nope"], "no variant 'nope'"),
    (["--operator", "nope"], "unknown operator 'nope'"),
    (["--budget", "0"], "must be more than 0"),
    (["--out", "nowhere/report.json"], "argument --out: cannot write 'nowhere/report.json': there is no folder"),
    (["--out", "."], "argument --out: '.' is a folder, not a file"),
    (["--survivors-of", "missing.json"], "is not a report written by mutate --out"),
])
def test_bad_arguments_exit_2_with_one_line(repo, capsys, args, message):
    code, out = mutate(capsys, repo / "rules" / "tiny", *args)
    assert code == 2
    assert message in out
    assert len(out.strip().splitlines()) == 1, out


# ---------------------------------------------------------------- variants: what they set is mutated where they set it

BIGGER = """\
variant:
  name: bigger
  title: Bigger
  base: tiny
  text: More cards, a farther reach, a bonus.
parameters:
  reach: 3
components:
  card: {count: 7, properties: {points: 2}}
add:
  parameters:
    bonus_size: {value: 1, text: Points of a bonus.}
  components:
    - {name: joker, kind: card, count: 2, zone: deck}
replaces: [draw]
"""

BIGGER_RULES = """\
action draw:
    require count(contents(deck)) > 1 else "the deck is empty"
    cost 1 ap
    do:
        move top(deck) to hand(current_player)
"""

BIGGEST = """\
variant:
  name: biggest
  title: Biggest
  base: bigger
  text: A bigger bonus, more jokers, a dearer draw.
parameters:
  bonus_size: 2
components:
  joker: {count: 3}
rules: [extra.rules]
replaces: [draw]
"""

EXTRA_RULES = BIGGER_RULES.replace("> 1", "> 2").replace("cost 1", "cost 2")


@pytest.fixture
def variants(repo) -> Path:
    """The tiny rule set with parameters, a variant setting some of them and a component
    count, adding a parameter and a component and replacing an action, and a variant on
    that one setting again what it added and replacing the action again (in a rule file
    it names under `rules:`)."""
    root = repo / "rules" / "tiny"
    with (root / "game.yaml").open("a", encoding="utf-8") as f:
        f.write("parameters:\n  reach: {value: 2, text: How far.}\n  spare: {value: 5, text: Not changed.}\n")
    folder = root / "variants"
    folder.mkdir()
    for name, text in (("bigger.yaml", BIGGER), ("bigger.rules", BIGGER_RULES), ("biggest.yaml", BIGGEST),
                       ("extra.rules", EXTRA_RULES)):
        (folder / name).write_text(text, encoding="utf-8")
    return root


def reached(root: Path, chain: list[str]):
    from rulecraft.validator.mutants import reachable
    return reachable(root, generate(root, mutant_files(root, chain)), chain)


def places(mutants, file: str) -> set[tuple[int, str, str]]:
    return {(m.line, m.old, m.new) for m in mutants if m.file == file}


def test_a_variant_s_numbers_are_mutated_where_it_sets_them_and_the_base_s_overridden_ones_are_not(variants):
    got = reached(variants, ["bigger"])
    game = (variants / "game.yaml").read_text(encoding="utf-8").splitlines()
    count_line = next(i for i, t in enumerate(game, 1) if "count: 6" in t)
    reach_line = next(i for i, t in enumerate(game, 1) if "reach:" in t)
    spare_line = next(i for i, t in enumerate(game, 1) if "spare:" in t)
    base = places(got, "game.yaml")
    assert not {p for p in base if p[0] in (count_line, reach_line)}  # the variant sets both again
    assert (spare_line, "5", "4") in base  # the variant leaves it alone
    assert places(got, "variants/bigger.yaml") == {
        (7, "3", "2"), (7, "3", "4"),  # parameters: reach
        (9, "7", "6"), (9, "7", "8"), (9, "2", "1"), (9, "2", "3"),  # components: card's count and points
        (12, "1", "0"), (12, "1", "2"),  # add: parameters: bonus_size
        (14, "2", "1"), (14, "2", "3"),  # add: components: joker's count
    }
    reach = one(got, file="variants/bigger.yaml", line=7, new="4")
    assert (reach.operator, reach.column, reach.definition) == ("parameter", 10, "parameters.reach")
    assert one(got, file="variants/bigger.yaml", line=12, new="2").operator == "parameter"
    # the action the variant replaces is mutated in the variant's rule file only
    assert {m.file for m in got if m.definition == "draw"} == {"variants/bigger.rules"}


def test_a_variant_on_a_variant_takes_over_what_it_sets_again(variants):
    got = reached(variants, ["bigger", "biggest"])
    assert places(got, "variants/bigger.yaml") == {(7, "3", "2"), (7, "3", "4"), (9, "7", "6"), (9, "7", "8"),
                                                   (9, "2", "1"), (9, "2", "3")}
    assert places(got, "variants/biggest.yaml") == {(7, "2", "1"), (7, "2", "3"), (9, "3", "2"), (9, "3", "4")}
    # the rule file named under `rules:` is mutated, and its `draw` replaces the first variant's
    assert {m.file for m in got if m.definition == "draw"} == {"variants/extra.rules"}
    assert ("number", "2", "3") in {(m.operator, m.old, m.new) for m in got if m.file == "variants/extra.rules"}


def test_a_variant_s_mutant_changes_the_variant_the_rule_set_is_loaded_with(variants):
    from rulecraft.dsl.loader import load_ruleset
    from rulecraft.dsl.sources import replaced_texts
    count = one(reached(variants, ["bigger"]), file="variants/bigger.yaml", line=9, old="7", new="8")
    path = variants / count.file
    with replaced_texts({path: count.apply(path.read_text(encoding="utf-8"))}):
        ruleset = load_ruleset(variants, variant="bigger")
    assert not ruleset.bag.errors
    assert next(c.count for c in ruleset.data.components if c.name == "card") == 8


def test_mutate_variant_lists_the_variant_s_own_files_and_says_why_an_overridden_place_has_none(variants, capsys):
    code, out = mutate(capsys, variants, "--variant", "bigger", "--only", "bigger.yaml", "--list")
    assert code == 0, out
    assert "variants/bigger.yaml:12:" in out and "parameters.bonus_size" in out
    code, out = mutate(capsys, variants, "--variant", "biggest", "--only", "extra.rules:3", "--list")
    assert code == 0 and "variants/extra.rules:3:10" in out, out
    line = next(i for i, t in enumerate((variants / "game.yaml").read_text().splitlines(), 1) if "count: 6" in t)
    code, out = mutate(capsys, variants, "--variant", "bigger", "--only", f"game.yaml:{line}", "--list")
    assert code == 2 and "set again by the variant" in out and "variants/bigger.yaml" in out, out
    assert len(out.strip().splitlines()) == 1, out


# ---------------------------------------------------------------- advice and help


def test_the_advice_to_verify_first_keeps_the_variant_and_the_scenario_folder(variants, capsys):
    (variants / "variants" / "sour.yaml").write_text(
        "variant:\n  name: sour\n  title: Sour\n  base: tiny\n  text: Nothing changes.\n", encoding="utf-8")
    own = variants / "variants" / "sour"
    own.mkdir()
    (own / "scenarios.yaml").write_text(SCENARIOS.replace("an action point", "two action points (wrong on purpose)")
                                        .replace("{ap: 1}", "{ap: 0}"), encoding="utf-8")
    line = next(i for i, t in enumerate(RULES.splitlines(), 1) if "cost 1 ap" in t)
    code, out = mutate(capsys, variants, "--variant", "sour", "--only", f"main.rules:{line}")
    assert code == 1 and "does not pass verify (Drawing costs two action points (wrong on purpose))" in out, out
    assert f"rulecraft verify {variants} --variant sour`" in out, out
    seeds = variants.parent.parent / "seeds" / "tiny"
    code, out = mutate(capsys, variants, "--variant", "sour", "--only", f"main.rules:{line}", "--scenarios", seeds)
    assert f"rulecraft verify {variants} --variant sour --scenarios {seeds}`" in out, out


def test_help_states_both_conditions_of_exit_0(capsys):
    code, out = mutate(capsys, "--help")
    assert code == 0
    flat = " ".join(out.split())
    assert "at least 90%" in flat and "at most 5% of the mutants are marked equivalent" in flat, out


# ---------------------------------------------------------------- equivalents written with an ASCII arrow


def _draw_cost_marked(repo, capsys, entries) -> tuple[object, str]:
    """The draw action's cost mutant run with mutants.yaml holding ``entries(cost)``: the
    mutant and mutate's output, after checking that an entry marked it equivalent."""
    root, mutants = mutants_of(repo)
    cost = one(mutants, operator="cost", definition="draw", new="2")
    (root / "mutants.yaml").write_text("equivalent:\n" + entries(cost), encoding="utf-8")
    code, out = mutate(capsys, root, "--only", f"main.rules:{cost.line}", "--operator", "cost",
                       "--out", repo / "r.json")
    report = json.loads((repo / "r.json").read_text(encoding="utf-8"))
    assert {m["id"]: m["status"] for m in report["mutants"]}[cost.id] == "equivalent", out
    return cost, out


def test_an_equivalent_written_with_an_ascii_arrow_matches_its_mutant(repo, capsys):
    cost, out = _draw_cost_marked(repo, capsys, lambda cost: (
        f"  - at: {cost.location}\n    change: {cost.old} -> {cost.new}\n    reason: an ASCII arrow\n"
        f"  - at: {cost.location}\n    change: {cost.old}->{int(cost.new) + 5}\n    reason: no such change\n"))
    warnings = [line for line in out.splitlines() if "matches no mutant" in line]
    assert len(warnings) == 1 and f"{cost.old}->{int(cost.new) + 5}" in warnings[0], out
    # the stale entry is told what is there to write instead
    assert f"'{cost.change}' (id {cost.id})" in warnings[0], out


def test_an_equivalent_found_by_its_id_at_another_place_is_told_where_it_is_now(repo, capsys):
    # lines moved above it: the id still finds the mutant, the `at:` misleads a reader
    cost, out = _draw_cost_marked(repo, capsys, lambda cost: (
        f"  - id: {cost.id}\n    at: main.rules:1:1\n    reason: written before lines moved\n"))
    flat = " ".join(out.split())
    assert f"equivalent mutant {cost.id} is now at {cost.location}, not main.rules:1:1; write at: {cost.location}" in flat


def test_an_equivalent_entry_can_hold_in_the_base_rules_only(variants, capsys):
    """A change the base's games cannot tell apart may matter in a variant (a parameter the base
    never varies): its entry says `variants: [base]`, and mutate --variant runs it again."""
    spare = one(reached(variants, []), file="game.yaml", operator="parameter", new="4")
    (variants / "mutants.yaml").write_text(
        f"equivalent:\n  - id: {spare.id}\n    variants: [base]\n"
        "    reason: the base never reads the spare, a variant might\n", encoding="utf-8")

    def listed_line(*args) -> str:
        code, out = mutate(capsys, variants, "--list", "--operator", "parameter", *args)
        assert code == 0, out
        return next(line for line in out.splitlines() if spare.id in line)

    assert "(equivalent)" in listed_line()
    assert "(equivalent)" not in listed_line("--variant", "bigger")
    code, out = mutate(capsys, variants, "--variant", "bigger", "--operator", "parameter", "--only", "game.yaml")
    assert "matches no mutant any more" not in out  # an entry is not stale where it does not hold


def test_an_equivalent_entry_naming_no_variant_is_a_located_error(variants, capsys):
    (variants / "mutants.yaml").write_text(
        "equivalent:\n  - id: m012345678\n    variants: [bigest]\n"
        "    reason: a misspelt variant would leave it unmarked\n", encoding="utf-8")
    code, out = mutate(capsys, variants, "--list")
    assert code == 1
    assert "mutants.yaml:2:" in out and "'bigest'" in out and "did you mean 'biggest'?" in out
