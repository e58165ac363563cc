"""Parsing: rule text → positioned AST nodes, and located syntax errors."""

from __future__ import annotations

import textwrap


from rulecraft.dsl import ast
from rulecraft.dsl.diagnostics import DiagnosticBag
from rulecraft.dsl.parser import parse_text

FILE = "test.rules"


def parse(text: str) -> tuple[ast.RuleFile, DiagnosticBag]:
    bag = DiagnosticBag()
    rf = parse_text(textwrap.dedent(text), FILE, bag)
    return rf, bag


def parse_ok(text: str) -> ast.RuleFile:
    rf, bag = parse(text)
    assert bag.items == [], bag.render()
    return rf


def only_definition(text: str) -> ast.Definition:
    rf = parse_ok(text)
    assert len(rf.definitions) == 1
    return rf.definitions[0]


def statements(body: str) -> list[ast.Stmt]:
    """Parse statements written at 8 spaces inside `procedure p(): do:`; they start at line 3."""
    src = "procedure p():\n    do:\n" + textwrap.indent(textwrap.dedent(body), " " * 8)
    bag = DiagnosticBag()
    rf = parse_text(src, FILE, bag)
    assert bag.items == [], bag.render()
    return rf.definitions[0].body.statements


def expr(text: str) -> ast.Expr:
    """Parse one expression as `let v = <text>` on line 3; the expression starts at column 17."""
    (stmt,) = statements(f"let v = {text}\n")
    assert isinstance(stmt, ast.Let)
    return stmt.value


def at(node: ast.Node) -> tuple[int, int]:
    return (node.pos.line, node.pos.column)


def only_error(bag: DiagnosticBag):
    assert len(bag.errors) == 1, bag.render()
    return bag.errors[0]


# ------------------------------------------------------------------ definitions


def test_empty_file_and_comments_only_give_no_definitions():
    rf = parse_ok("# nothing here yet\n\n# still nothing\n")
    assert isinstance(rf, ast.RuleFile)
    assert rf.path == FILE
    assert rf.definitions == []


def test_action_with_every_clause():
    d = only_definition('''\
        # a leading comment line

        action take:
            text "Take a \\"thing\\"."
            cite "rules p.1"
            with c: thing in things where c.size > 1
            with p: player
            require c.size > 0 else "too small"
            require ready
            cost 2 ap
            limit 1 per turn as taking
            limit 3 per game
            do:
                stop
        ''')
    assert isinstance(d, ast.ActionDef)
    assert d.kind == "action" and d.name == "take" and d.file == FILE
    assert at(d) == (3, 1)
    assert (d.name_pos.line, d.name_pos.column, d.name_pos.end_column) == (3, 8, 12)
    assert d.text == 'Take a "thing".'
    assert d.cite == "rules p.1"

    c, p = d.params
    assert (c.name, c.type.name, c.type.optional) == ("c", "thing", False)
    assert at(c) == (6, 5)
    assert (c.type.pos.line, c.type.pos.column, c.type.pos.end_column) == (6, 13, 18)
    assert isinstance(c.source, ast.Name) and c.source.id == "things" and at(c.source) == (6, 22)
    assert isinstance(c.where, ast.Binary) and c.where.op == ">" and at(c.where) == (6, 35)
    assert (p.name, p.type.name, p.source, p.where) == ("p", "player", None, None)

    r1, r2 = d.requires
    assert at(r1) == (8, 5) and r1.message == "too small"
    assert isinstance(r1.cond, ast.Binary) and at(r1.cond) == (8, 13)
    assert r2.message is None and isinstance(r2.cond, ast.Name) and r2.cond.id == "ready"

    (cost,) = d.costs
    assert at(cost) == (10, 5)
    assert cost.resource == "ap"
    assert isinstance(cost.amount, ast.Literal) and cost.amount.value == 2 and at(cost.amount) == (10, 10)

    l1, l2 = d.limits
    assert (l1.count.value, l1.period, l1.group) == (1, "turn", "taking")
    assert at(l1) == (11, 5)
    assert (l2.count.value, l2.period, l2.group) == (3, "game", None)

    assert isinstance(d.body, ast.Block)
    assert [type(s) for s in d.body.statements] == [ast.Stop]
    assert at(d.body.statements[0]) == (14, 9)


def test_procedure_with_params():
    d = only_definition('''\
        procedure deal(p: player, n: number):
            text "Deal n cards."
            do:
                stop
        ''')
    assert isinstance(d, ast.ProcedureDef)
    assert d.kind == "procedure" and d.name == "deal"
    assert at(d) == (1, 1)
    assert (d.name_pos.column, d.name_pos.end_column) == (11, 15)
    assert [(x.name, x.type.name) for x in d.params] == [("p", "player"), ("n", "number")]
    assert [at(x) for x in d.params] == [(1, 16), (1, 27)]
    assert d.text == "Deal n cards."
    assert isinstance(d.body.statements[0], ast.Stop)


def test_procedure_without_params_has_empty_param_list():
    d = only_definition('''\
        procedure go():
            do:
                stop
        ''')
    assert d.params == []


def test_function_with_optional_and_list_types():
    d = only_definition('''\
        function size_of(t: thing?, ts: list of list of thing) -> number:
            cite "p. 3"
            = t.size if t != none else -1
        ''')
    assert isinstance(d, ast.FunctionDef)
    assert d.kind == "function" and d.cite == "p. 3"
    t, ts = d.params
    assert (t.type.name, t.type.optional) == ("thing", True)
    assert str(t.type) == "thing?"
    assert ts.type.name == "list" and ts.type.item.name == "list" and ts.type.item.item.name == "thing"
    assert str(ts.type) == "list of list of thing"
    assert d.returns.name == "number" and at(d.returns) == (1, 59)
    assert isinstance(d.value, ast.Ternary) and at(d.value) == (3, 7)


def test_trigger_on_when_do():
    d = only_definition('''\
        trigger scored:
            on card_drawn
            when event.n > 1
            do:
                stop
        ''')
    assert isinstance(d, ast.TriggerDef)
    assert d.kind == "trigger"
    assert d.event == "card_drawn"
    assert (d.event_pos.line, d.event_pos.column, d.event_pos.end_column) == (2, 8, 18)
    # a trigger's `when` is its filter condition
    assert isinstance(d.where, ast.Binary) and d.where.op == ">" and at(d.where) == (3, 10)
    assert isinstance(d.where.left, ast.Attr) and d.where.left.name == "n"
    assert isinstance(d.body.statements[0], ast.Stop)


def test_victory_when_winners():
    d = only_definition('''\
        victory high_score:
            text "First to ten."
            when round_number > 3
            winners [p for p in players where p.score >= 10]
        ''')
    assert isinstance(d, ast.VictoryDef)
    assert d.kind == "victory" and d.name == "high_score"
    assert isinstance(d.when, ast.Binary) and at(d.when) == (3, 10)
    assert isinstance(d.winners, ast.Comprehension) and at(d.winners) == (4, 13)


def test_several_definitions_keep_their_own_lines():
    rf = parse_ok('''\
        procedure a():
            do:
                stop

        # between definitions
        function b() -> number:
            = 1
        action c:
            do:
                stop
        ''')
    assert [(d.kind, d.name, d.pos.line) for d in rf.definitions] == [
        ("procedure", "a", 1), ("function", "b", 6), ("action", "c", 8)]


def test_clause_not_allowed_in_definition_kind():
    rf, bag = parse('''\
        procedure p():
            cost 1 ap
            do:
                stop
        ''')
    err = only_error(bag)
    assert err.message == "'cost' is not allowed in procedure 'p'"
    assert (err.position.line, err.position.column) == (2, 5)
    assert "cite, do, text" in err.hint
    # the definition itself still parses
    assert [d.name for d in rf.definitions] == ["p"]


def test_single_clause_given_twice():
    _, bag = parse('''\
        action a:
            text "one"
            text "two"
            do:
                stop
        ''')
    err = only_error(bag)
    assert err.message == "'text' given twice in action 'a'"
    assert (err.position.line, err.position.column) == (3, 5)


# ------------------------------------------------------------------ statements


def test_every_statement_kind():
    stmts = statements('''\
        let n = 1
        set c.size += n
        set turn.count = 0
        if n > 3:
            stop
        elif n == 2:
            stop
        elif n == 1:
            stop
        else:
            shuffle deck
        for each x in things:
            break
        repeat 3 times:
            helper(c, 2)
        choose t from things by p prompt "Which?"
        emit taken(thing: c, n: n) to players
        move x to deck
        ''')
    kinds = [type(s) for s in stmts]
    assert kinds == [ast.Let, ast.Set, ast.Set, ast.If, ast.ForEach, ast.Repeat, ast.Choose, ast.Emit, ast.Move]
    let, set1, set2, if_, for_, rep, choose, emit, move = stmts
    assert [at(s) for s in stmts] == [(3, 9), (4, 9), (5, 9), (6, 9), (14, 9), (16, 9), (18, 9), (19, 9), (20, 9)]

    assert let.name == "n" and let.value.value == 1 and at(let.value) == (3, 17)
    assert (set1.target, set1.op) == (["c", "size"], "+=")
    assert isinstance(set1.value, ast.Name) and at(set1.value) == (4, 23)
    assert (set2.target, set2.op, set2.value.value) == (["turn", "count"], "=", 0)

    assert len(if_.branches) == 3
    assert [at(cond) for cond, _ in if_.branches] == [(6, 12), (8, 14), (10, 14)]
    assert all(isinstance(b.statements[0], ast.Stop) for _, b in if_.branches)
    assert isinstance(if_.otherwise.statements[0], ast.Shuffle)
    assert at(if_.otherwise.statements[0]) == (13, 13)
    assert if_.otherwise.statements[0].zone.id == "deck"

    assert for_.var == "x" and for_.iterable.id == "things" and at(for_.iterable) == (14, 23)
    assert isinstance(for_.body.statements[0], ast.Break) and at(for_.body.statements[0]) == (15, 13)

    assert rep.count.value == 3
    (call,) = rep.body.statements
    assert isinstance(call, ast.CallStmt) and call.func == "helper" and at(call) == (17, 13)
    assert [type(a) for a in call.args] == [ast.Name, ast.Literal]
    assert [at(a) for a in call.args] == [(17, 20), (17, 23)]

    assert (choose.var, choose.options.id, choose.chooser.id, choose.prompt) == ("t", "things", "p", "Which?")

    assert emit.event == "taken"
    assert [(name, e.id) for name, e in emit.fields] == [("thing", "c"), ("n", "n")]
    assert emit.audience.id == "players" and at(emit.audience) == (19, 39)

    assert move.end is None and move.item.id == "x" and move.destination.id == "deck"


def test_optional_parts_of_statements_are_none():
    if_, emit, choose, call = statements('''\
        if a:
            stop
        emit ping()
        choose q from qs
        go()
        ''')
    assert if_.otherwise is None and len(if_.branches) == 1
    assert (emit.event, emit.fields, emit.audience) == ("ping", [], None)
    assert (choose.chooser, choose.prompt) == (None, None)
    assert (call.func, call.args) == ("go", [])


def test_move_to_top_and_bottom_of_a_zone():
    top, bottom = statements('''\
        move x to top of deck
        move x to bottom of zone
        ''')
    assert (top.end, top.destination.id) == ("top", "deck")
    assert (bottom.end, bottom.destination.id) == ("bottom", "zone")
    assert at(bottom.destination) == (4, 29)


def test_move_to_a_zone_whose_name_starts_with_bottom_or_top():
    three, topmost = statements('''\
        move x to bottom_three
        move top(deck) to top_pile
        ''')
    assert three.end is None
    assert isinstance(three.destination, ast.Name) and three.destination.id == "bottom_three"
    assert (three.destination.pos.column, three.destination.pos.end_column) == (19, 31)
    assert topmost.end is None and topmost.destination.id == "top_pile"
    # `top(...)` as the moved item is an ordinary call
    assert isinstance(topmost.item, ast.Call) and topmost.item.func == "top"


# ------------------------------------------------------------------ expressions


def test_or_binds_looser_than_and_and_not():
    e = expr("a or b and not c")
    assert isinstance(e, ast.Binary) and e.op == "or"
    assert e.left.id == "a"
    assert isinstance(e.right, ast.Binary) and e.right.op == "and"
    assert e.right.left.id == "b"
    assert isinstance(e.right.right, ast.Unary) and e.right.right.op == "not"
    assert e.right.right.operand.id == "c"
    assert [at(e), at(e.right), at(e.right.right)] == [(3, 17), (3, 22), (3, 28)]
    assert e.pos.end_column == 33


def test_not_binds_looser_than_comparison():
    e = expr("not x == y")
    assert isinstance(e, ast.Unary) and e.op == "not"
    assert isinstance(e.operand, ast.Binary) and e.operand.op == "=="


def test_product_binds_tighter_than_sum():
    e = expr("1 + 2 * 3")
    assert e.op == "+" and e.left.value == 1
    assert e.right.op == "*" and (e.right.left.value, e.right.right.value) == (2, 3)
    assert at(e.right) == (3, 21)


def test_parentheses_override_precedence():
    e = expr("(1 + 2) * 3")
    assert e.op == "*" and e.left.op == "+" and e.right.value == 3


def test_sum_and_product_are_left_associative():
    e = expr("x - y - z")
    assert e.op == "-" and e.left.op == "-" and e.left.left.id == "x" and e.right.id == "z"
    e = expr("7 // 2 % 3")
    assert e.op == "%" and e.left.op == "//"


def test_unary_minus_binds_tighter_than_product():
    e = expr("-x * y")
    assert e.op == "*" and isinstance(e.left, ast.Unary) and e.left.op == "-"


def test_ternary():
    e = expr("x if c else y")
    assert isinstance(e, ast.Ternary)
    assert (e.then.id, e.cond.id, e.otherwise.id) == ("x", "c", "y")
    assert at(e) == (3, 17) and at(e.cond) == (3, 22) and at(e.otherwise) == (3, 29)


def test_ternary_is_right_associative_and_looser_than_or():
    e = expr("x if a or b else y if d else z")
    assert isinstance(e.cond, ast.Binary) and e.cond.op == "or"
    assert isinstance(e.otherwise, ast.Ternary) and e.otherwise.cond.id == "d"
    e = expr("not a if b else c")
    assert isinstance(e, ast.Ternary) and isinstance(e.then, ast.Unary)


def test_comprehension_with_where():
    e = expr("[c.value for c in cards where c.value > 1 and c.colour == \"red\"]")
    assert isinstance(e, ast.Comprehension)
    assert e.var == "c"
    assert isinstance(e.item, ast.Attr) and e.item.name == "value"
    assert e.iterable.id == "cards"
    assert isinstance(e.where, ast.Binary) and e.where.op == "and"
    assert e.where.right.right.value == "red"


def test_comprehension_without_where():
    e = expr("[c for c in cards]")
    assert isinstance(e, ast.Comprehension) and e.where is None


def test_in_and_not_in():
    e = expr("x in xs and y not in ys")
    assert e.op == "and"
    assert (e.left.op, e.left.left.id, e.left.right.id) == ("in", "x", "xs")
    assert (e.right.op, e.right.left.id, e.right.right.id) == ("not in", "y", "ys")
    assert at(e.right) == (3, 29)


def test_postfix_chain_and_call():
    e = expr("a.b[0].c")
    assert isinstance(e, ast.Attr) and e.name == "c"
    assert (e.name_pos.column, e.name_pos.end_column) == (24, 25)
    assert isinstance(e.obj, ast.Index) and e.obj.key.value == 0
    assert isinstance(e.obj.obj, ast.Attr) and e.obj.obj.name == "b" and e.obj.obj.obj.id == "a"
    e = expr("count(contents(deck), 2)")
    assert isinstance(e, ast.Call) and e.func == "count" and len(e.args) == 2
    assert isinstance(e.args[0], ast.Call) and e.args[0].func == "contents"
    assert (e.pos.column, e.pos.end_column) == (17, 22)


def test_literals():
    assert [expr(t).value for t in ("true", "false", "none", "42", '"a\\tb"')] == [True, False, None, 42, "a\tb"]
    e = expr("[1, 2]")
    assert isinstance(e, ast.ListExpr) and [i.value for i in e.items] == [1, 2]
    e = expr("[]")
    assert isinstance(e, ast.ListExpr) and e.items == []


# ------------------------------------------------------------------ syntax errors


def test_missing_colon_at_end_of_header():
    rf, bag = parse('''\
        action take
            do:
                stop
        ''')
    err = only_error(bag)
    assert err.message == "the line ends too early"
    assert (err.position.file, err.position.line, err.position.column) == (FILE, 1, 12)
    assert "':'" in err.hint
    assert rf.definitions == []


def test_missing_colon_after_if():
    _, bag = parse('''\
        procedure p():
            do:
                if x > 1
                    stop
        ''')
    err = only_error(bag)
    assert (err.position.line, err.position.column) == (3, 17)
    assert "':'" in err.hint


def test_missing_colon_in_the_middle_of_a_line():
    _, bag = parse('''\
        action take:
            with c thing
            do:
                stop
        ''')
    err = only_error(bag)
    assert err.message == "unexpected 'thing'"
    assert (err.position.line, err.position.column, err.position.end_column) == (2, 12, 17)
    assert "':'" in err.hint


def test_single_quotes_get_the_double_quote_hint():
    _, bag = parse('''\
        action take:
            text 'hello'
            do:
                stop
        ''')
    err = only_error(bag)
    assert err.message == "unexpected character \"'\""
    assert (err.position.line, err.position.column) == (2, 10)
    assert 'double quotes: "like this"' in err.hint


def test_reserved_word_used_as_a_resource_name():
    _, bag = parse('''\
        action take:
            cost 1 per
            do:
                stop
        ''')
    err = only_error(bag)
    assert err.message == "unexpected 'per'"
    assert (err.position.line, err.position.column) == (2, 12)
    assert err.hint == "'per' is a reserved word of the language and cannot be used as a name"


def test_reserved_word_used_as_a_variable_name():
    _, bag = parse('''\
        procedure p():
            do:
                let for = 1
        ''')
    err = only_error(bag)
    assert "reserved word" in (err.hint or "")


def test_line_dedented_to_no_outer_block():
    rf, bag = parse('''\
        procedure p():
            do:
                let x = 1
              let y = 2
        ''')
    err = only_error(bag)
    assert err.message == "the indentation does not match any outer block"
    assert (err.position.line, err.position.column) == (4, 1)
    assert "same number of spaces" in err.hint
    assert rf.definitions == []


def test_unexpected_indentation_is_reported():
    _, bag = parse('''\
        procedure p():
            do:
                let x = 1
                    let y = 2
        ''')
    err = only_error(bag)
    assert err.message == "unexpected indentation"
    assert "indented more" in err.hint


def test_unexpected_indentation_points_at_the_indented_line():
    _, bag = parse('''\
        procedure p():
            do:
                let x = 1
                    let y = 2
        ''')
    err = only_error(bag)
    assert err.position.line == 4


def test_definition_ending_too_early():
    _, bag = parse('''\
        procedure p():
            do:
        ''')
    err = only_error(bag)
    assert err.message == "the line ends too early"
    assert (err.position.line, err.position.column) == (2, 8)
    assert err.hint == "expected an indented block"


def test_expression_ending_too_early_lists_what_could_follow():
    _, bag = parse('''\
        procedure p():
            do:
                let x = 1 +
        ''')
    err = only_error(bag)
    assert err.message == "the line ends too early"
    assert (err.position.line, err.position.column) == (3, 20)
    assert err.hint.startswith("expected ")
    assert "a number" in err.hint and "a name" in err.hint


def test_expected_hint_spells_operators_as_written():
    _, bag = parse('''\
        procedure p():
            do:
                let x = 1 +
        ''')
    assert "'minus'" not in only_error(bag).hint
    _, bag = parse('''\
        function f(a: number x) -> number:
            = 1
        ''')
    assert "'qmark'" not in only_error(bag).hint


def test_tab_indentation_is_a_warning():
    rf, bag = parse("procedure p():\n\tdo:\n\t\tstop\n")
    assert bag.errors == []
    (w,) = bag.warnings
    assert w.message == "tab used for indentation"
    assert (w.position.line, w.position.column) == (2, 1)
    assert [d.name for d in rf.definitions] == ["p"]


def test_error_in_one_definition_keeps_the_others():
    rf, bag = parse('''\
        procedure good():
            do:
                stop

        procedure bad():
            do:
                let = 3

        function fine() -> number:
            = 1
        ''')
    err = only_error(bag)
    assert err.message == "unexpected '='"
    assert (err.position.line, err.position.column) == (7, 13)
    assert [d.name for d in rf.definitions] == ["good", "fine"]
    assert rf.definitions[1].pos.line == 9


THREE_MISTAKES = '''\
action take
    do:
        stop

procedure greet():
    text 'hello'
    do:
        stop

procedure count_up():
    do:
        let x = 1
      let y = 2

function ok() -> number:
    = 1
'''


def test_three_mistakes_in_three_definitions_give_three_located_errors():
    bag = DiagnosticBag()
    rf = parse_text(THREE_MISTAKES, "three.rules", bag)
    assert len(bag.items) == 3, bag.render()
    assert len(bag.errors) == 3
    located = [(d.position.file, d.position.line, d.position.column) for d in bag.sorted()]
    assert located == [("three.rules", 1, 12), ("three.rules", 6, 10), ("three.rules", 13, 1)]
    assert [d.name for d in rf.definitions] == ["ok"]

    out = bag.render()
    lines = out.splitlines()
    assert "three.rules:1:12: error: the line ends too early" in lines
    assert "three.rules:6:10: error: unexpected character \"'\"" in lines
    assert "three.rules:13:1: error: the indentation does not match any outer block" in lines
    # every error quotes its source line with the line number, then a caret under the column
    for number, source, column in ((1, "action take", 12), (6, "    text 'hello'", 10), (13, "      let y = 2", 1)):
        quoted = f"{number:>5} | {source}"
        assert quoted in lines
        caret = lines[lines.index(quoted) + 1]
        assert caret.startswith("      | ")
        assert caret[len("      | "):] == " " * (column - 1) + "^"
    assert out.count("= hint:") == 3
