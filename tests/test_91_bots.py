"""The heuristic bot: legal answers, only the player's view, sensible play in arranged
situations, and a clear refusal of games it has no strategy for."""

from __future__ import annotations

import copy

import pytest
from engine_rulesets import game_yaml, write_ruleset
from panic_station import RULES, lay_tile, new_game, put, relocate, reoffer, ruleset, set_hand, take

from rulecraft.bots import REGISTRY, HeuristicBot, RandomBot, cannot_play, make_bot, view_for
from rulecraft.bots.heuristic import UnknownGame
from rulecraft.cli.main import main
from rulecraft.dsl.loader import load_checked
from rulecraft.interpreter.game import Game


def play(game: Game, bots: dict, check=None, limit: int = 100_000) -> None:
    """Drive a game with bots to its end, checking every answer."""
    for _ in range(limit):
        if game.over:
            return
        choice = game.pending
        bot = bots[choice.player]
        view = view_for(game, bot, choice.player)
        index = bot.choose(view)
        if check is not None:
            check(game, choice, view, bot, index)
        game.choose(index)
    raise AssertionError("the game did not end")


def test_heuristic_answers_are_always_legal_and_games_end():
    counted = {"decisions": 0}

    def legal(game, choice, view, bot, index):
        assert isinstance(index, int) and 0 <= index < len(choice.options)
        assert view["choice"]["options"] == choice.options
        counted["decisions"] += 1

    for seed, players in [(3, 5), (8, 4), (21, 6)]:
        game = new_game(players, seed)
        bots = {p: HeuristicBot(seed * 10 + i) for i, p in enumerate(game.state.players)}
        play(game, bots, legal)
        assert game.result is not None
    # heuristic and random bots at one table
    game = new_game(5, 4)
    bots = {p: (HeuristicBot(i) if i % 2 else RandomBot(i)) for i, p in enumerate(game.state.players)}
    play(game, bots, legal)
    assert counted["decisions"] > 300


def test_same_seed_same_game():
    logs = []
    for _ in range(2):
        game = new_game(5, 12)
        play(game, {p: make_bot("heuristic", i) for i, p in enumerate(game.state.players)})
        logs.append(game.decisions)
    assert logs[0] == logs[1]


def _tamper_hidden(game: Game, viewer: str):
    """Change what ``viewer`` cannot see: the search deck's order, which hidden cards two
    other players hold, and whether another player is infected. Returns an undo."""
    s = game.state
    saved = {"deck": list(s.zones["search_deck"]), "zones": {}, "infected": {}}
    s.zones["search_deck"].reverse()
    others = [p for p in s.players if p != viewer and s.zones[f"hand:{p}"]]
    if len(others) >= 2:
        a, b = others[0], others[1]
        ha, hb = s.zones[f"hand:{a}"], s.zones[f"hand:{b}"]
        saved["zones"] = {a: list(ha), b: list(hb)}
        ca, cb = ha[-1], hb[-1]
        ha[-1], hb[-1] = cb, ca
        s.entities[ca]["at"], s.entities[cb]["at"] = f"hand:{b}", f"hand:{a}"
    for p in s.players:
        if p != viewer:
            saved["infected"][p] = s.entities[p]["props"].get("infected", False)
            s.entities[p]["props"]["infected"] = not saved["infected"][p]

    def undo():
        s.zones["search_deck"][:] = saved["deck"]
        for p, cards in saved["zones"].items():
            s.zones[f"hand:{p}"][:] = cards
            for c in cards:
                s.entities[c]["at"] = f"hand:{p}"
        for p, value in saved["infected"].items():
            s.entities[p]["props"]["infected"] = value

    return undo


def test_heuristic_choices_depend_only_on_the_view():
    """At many decisions, two copies of the bot answer the same before and after the
    hidden part of the state was changed: nothing outside the view steers it."""
    game = new_game(5, 7)
    bots = {p: HeuristicBot(i) for i, p in enumerate(game.state.players)}
    compared = {"n": 0}

    def twins(game, choice, view, bot, index):
        if len(choice.options) < 2 or len(game.decisions) % 5:
            return
        first, second = copy.deepcopy(bot), copy.deepcopy(bot)
        before = view_for(game, first, choice.player)
        answer = first.choose(before)
        undo = _tamper_hidden(game, choice.player)
        try:
            after = view_for(game, second, choice.player)
            assert after == before  # the view hides all of it
            assert second.choose(after) == answer
        finally:
            undo()
        compared["n"] += 1

    play(game, bots, twins)
    assert compared["n"] > 20


def test_new_events_only_add_up_to_the_players_event_history():
    game = new_game(5, 2)
    bot = HeuristicBot(0)
    seen: list[dict] = []
    player = game.state.players[0]
    for _ in range(400):
        if game.over:
            break
        choice = game.pending
        if choice.player == player:
            seen.extend(view_for(game, bot, player)["events"])
        game.choose(0 if choice.kind != "action" else len(choice.options) - 1)
    seen.extend(view_for(game, bot, player)["events"])
    assert seen == game.events_for(player)


# ---------------------------------------------------------------- arranged situations
def arranged(seed: int = 1, rules=None) -> tuple[Game, str]:
    """A game at its first decision, the table cleared of parasites, the current player
    uninfected with a plain hand and both characters in the Reactor."""
    game = new_game(5, seed) if rules is None else Game(rules, 5, seed)
    s = game.state
    me = s.current
    for x in [e for e, v in s.entities.items() if v["kind"] == "parasite" and v["at"] != "parasite_supply"]:
        relocate(game, x, "parasite_supply")
    for p in s.players:
        s.entities[p]["props"]["infected"] = False
    set_hand(game, me, [f"infection.{me}.1", f"infection.{me}.2", f"infection.{me}.3", "armor.1", "keycard.1"])
    put(game, f"trooper.{me}", "reactor/main")
    put(game, f"android.{me}", "reactor/main")
    s.vars["turn"]["first_turn"] = False
    return game, me


def bot_answer(game: Game, seed: int = 0, keep=None):
    """What a fresh heuristic bot plays now (optionally among some options only)."""
    bot = HeuristicBot(seed)
    view = view_for(game, bot, game.pending.player)
    if keep is not None:
        view["choice"]["options"] = [o for o in view["choice"]["options"] if keep(o)]
    return view["choice"]["options"][bot.choose(view)]


def test_a_human_with_three_gas_cans_walks_into_the_hive_and_burns_it():
    game, me = arranged()
    lay_tile(game, "hive", 0, -1, 0)  # its doorway faces the Reactor's north side
    lay_tile(game, "storage_a", 1, 0, 0)
    set_hand(game, me, [f"infection.{me}.1", f"infection.{me}.2", "gas_can.1", "gas_can.2", "gas_can.3"])
    reoffer(game)
    bot = HeuristicBot(0)
    first = game.pending.options[bot.choose(view_for(game, bot, me))]
    assert first == {"action": "move", "args": {"c": f"trooper.{me}", "r": "hive/main"}}
    game.choose_option(first)
    second = game.pending.options[bot.choose(view_for(game, bot, me))]
    assert second == {"action": "burn_hive", "args": {"c": f"trooper.{me}"}}
    game.choose_option(second)
    assert game.result["reason"] == "the Hive burned" and me in game.result["winners"]


@pytest.mark.parametrize("cans", [3, 4])
def test_under_four_gas_cans_the_trooper_walks_into_the_hive_only_with_four(cans):
    """The bot plays the variant's rule, not the base game's: three cans no longer burn."""
    game, me = arranged(rules=load_checked(RULES, "four_gas_cans"))
    lay_tile(game, "hive", 0, -1, 0)
    lay_tile(game, "storage_a", 1, 0, 0)
    fillers = [f"infection.{me}.1", f"infection.{me}.2"][:5 - cans]
    set_hand(game, me, fillers + [f"gas_can.{n}" for n in range(1, cans + 1)])
    reoffer(game)
    bot = HeuristicBot(0)
    first = game.pending.options[bot.choose(view_for(game, bot, me))]
    into_the_hive = {"action": "move", "args": {"c": f"trooper.{me}", "r": "hive/main"}}
    if cans == 3:
        assert first != into_the_hive
        return
    assert first == into_the_hive
    game.choose_option(first)
    second = game.pending.options[bot.choose(view_for(game, bot, me))]
    assert second == {"action": "burn_hive", "args": {"c": f"trooper.{me}"}}
    game.choose_option(second)
    assert game.result["reason"] == "the Hive burned" and me in game.result["winners"]


def test_without_gas_cans_the_trooper_does_not_rush_to_the_hive():
    game, me = arranged()
    lay_tile(game, "hive", 0, -1, 0)
    lay_tile(game, "storage_a", 1, 0, 0)
    reoffer(game)
    answer = bot_answer(game)
    assert answer != {"action": "move", "args": {"c": f"trooper.{me}", "r": "hive/main"}}


def test_a_human_shoots_the_parasite_not_the_fellow_player():
    game, me = arranged()
    lay_tile(game, "storage_a", 1, 0, 0)
    other = next(p for p in game.state.players if p != me)
    put(game, f"trooper.{other}", "reactor/main")
    relocate(game, "gray_parasite.1", "reactor/main")
    relocate(game, "ammo.1", f"play_area:{me}")
    reoffer(game)
    answer = bot_answer(game, keep=lambda o: o.get("action") == "fire_gun")
    assert answer == {"action": "fire_gun", "args": {"shooter": f"android.{me}", "target": "gray_parasite.1"}}


def test_the_infected_walk_in_and_hand_over_an_infection_card():
    game, me = arranged()
    lay_tile(game, "storage_b", 1, 0, 0)
    victim = next(p for p in game.state.players if p != me)
    put(game, f"trooper.{victim}", "storage_b/main")
    set_hand(game, victim, ["armor.2", "ammo.2", "keycard.2", f"infection.{victim}.1", f"infection.{victim}.2"])
    game.state.entities[me]["props"]["infected"] = True
    reoffer(game)
    # it heads for the player it can infect
    assert bot_answer(game, keep=lambda o: o.get("action") == "move")["args"]["r"] == "storage_b/main"
    take(game, "move", c=f"trooper.{me}", r="storage_b/main")
    bot = HeuristicBot(0)
    trade = game.pending.options[bot.choose(view_for(game, bot, me))]
    assert trade == {"action": "trade", "args": {"partner": f"trooper.{victim}"}}
    game.choose_option(trade)
    given = game.pending.options[bot.choose(view_for(game, bot, me))]
    assert given.startswith(f"infection.{me}.")
    game.choose_option(given)
    game.choose(0)  # the victim's answer (no gas can in that hand)
    assert game.state.entities[victim]["props"]["infected"]


def test_a_human_blocks_a_player_who_walks_in_with_a_gas_can():
    game, walker = arranged()
    lay_tile(game, "storage_b", 1, 0, 0)
    human = next(p for p in game.state.players if p != walker)
    set_hand(game, human, [f"infection.{human}.1", f"infection.{human}.2", "gas_can.4", "armor.3", "ammo.3"])
    put(game, f"trooper.{human}", "storage_b/main")
    game.state.entities[walker]["props"]["infected"] = True
    reoffer(game)
    take(game, "move", c=f"trooper.{walker}", r="storage_b/main")
    take(game, "trade", partner=f"trooper.{human}")
    game.choose_option(f"infection.{walker}.1")
    assert game.pending.player == human
    answer = bot_answer(game)
    assert answer == "gas_can.4"  # whoever walks in to trade is suspect: the gas can blocks the infection
    game.choose_option(answer)
    assert not game.state.entities[human]["props"]["infected"]


def test_a_human_keeps_away_from_a_player_who_shot_at_them():
    game, me = arranged()
    lay_tile(game, "run_b.1", 1, 0, 0)
    lay_tile(game, "run_b.2", -1, 0, 0)
    shooter = next(p for p in game.state.players if p != me)
    put(game, f"android.{shooter}", "run_b.1/main")
    game.events.append({"type": "action_taken", "player": shooter, "action": "fire_gun",
                        "args": {"shooter": f"android.{shooter}", "target": f"trooper.{me}"},
                        "seq": len(game.events)})
    reoffer(game)
    answer = bot_answer(game, keep=lambda o: o.get("action") == "move" and o["args"]["c"] == f"trooper.{me}")
    assert answer["args"]["r"] == "run_b.2/main"
    # without the shot, both rooms are alike and either may be chosen
    game2, me2 = arranged()
    lay_tile(game2, "run_b.1", 1, 0, 0)
    lay_tile(game2, "run_b.2", -1, 0, 0)
    reoffer(game2)
    picks = {bot_answer(game2, seed, keep=lambda o: o.get("action") == "move" and
                        o["args"]["c"] == f"trooper.{me2}")["args"]["r"] for seed in range(12)}
    assert picks == {"run_b.1/main", "run_b.2/main"}


def test_parasites_are_steered_by_side():
    game, me = arranged()
    lay_tile(game, "run_b.1", 1, 0, 0)
    lay_tile(game, "run_b.2", -1, 0, 0)
    other = next(p for p in game.state.players if p != me)
    put(game, f"trooper.{other}", "run_b.1/main")
    reoffer(game)
    bot = HeuristicBot(0)
    view = view_for(game, bot, me)
    view["choice"] = {"kind": "choose", "prompt": "The parasite appears in which room?",
                      "options": ["run_b.1/main", "run_b.2/main"]}
    assert view["choice"]["options"][bot.choose(view)] == "run_b.2/main"  # a human spares the others
    game.state.entities[me]["props"]["infected"] = True
    bot = HeuristicBot(0)
    view = view_for(game, bot, me)
    view["choice"] = {"kind": "choose", "prompt": "The parasite appears in which room?",
                      "options": ["run_b.1/main", "run_b.2/main"]}
    assert view["choice"]["options"][bot.choose(view)] == "run_b.1/main"  # the infected aim at a Trooper


# ---------------------------------------------------------------- other games
def tiny_game(tmp_path):
    folder = write_ruleset(tmp_path / "tiny", {
        "game.yaml": game_yaml(name="tiny", players=(1, 2)) + """
zones:
  deck: {}
  discard: {}
kinds:
  player:
    properties: {}
  card:
    located_in: zone
components:
  - {name: a, kind: card, zone: deck, count: 3}
""",
        "main.rules": """
procedure setup():
    do:
        stop

procedure round():
    do:
        stop
""",
    })
    return folder


def test_no_strategy_for_a_game_is_a_clear_error(tmp_path, capsys):
    folder = tiny_game(tmp_path)
    tiny = load_checked(folder)
    assert cannot_play("random", tiny) is None
    assert cannot_play("heuristic", ruleset()) is None
    reason = cannot_play("heuristic", tiny)
    assert reason is not None and "tiny" in reason and "panic_station" in reason and "\n" not in reason
    assert "greedy" not in reason  # the tiny game declares no heuristic either
    # a game whose rules declare a heuristic is pointed at the bot that plays by it
    reason = cannot_play("heuristic", load_checked(RULES.parent / "star_trek_panic"))
    assert "no strategy for Star Trek: Panic" in reason and reason.endswith("which --bot greedy plays by")
    with pytest.raises(UnknownGame, match="no strategy for 'tiny'"):
        HeuristicBot(0).choose({"game": "tiny", "choice": {"kind": "action", "options": [{"action": "end_turn"}]}})
    assert "heuristic" in REGISTRY
    code = main(["play", str(folder), "--bot", "heuristic", "--human", "p1", "--players", "2", "--seed", "1"])
    err = capsys.readouterr().err
    assert code == 2
    assert "no strategy for" in err and len(err.strip().splitlines()) == 1


def test_simulate_refuses_a_bot_with_no_strategy_for_the_game(tmp_path, capsys):
    folder = tiny_game(tmp_path)
    code = main(["simulate", str(folder), "--bot", "heuristic", "--players", "2", "--games", "2", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2
    assert "no strategy for" in err and len(err.strip().splitlines()) == 1


def test_a_rule_set_that_only_borrows_a_known_games_name_is_refused_in_one_line(tmp_path, capsys):
    """The strategy of the game named in game.yaml runs only if the rule set holds the
    facts it plays by; otherwise the command line says so before any game starts."""
    folder = write_ruleset(tmp_path / "borrowed", {
        "game.yaml": game_yaml(name="panic_station", players=(1, 2)) + "kinds:\n  player:\n    properties: {}\n",
        "main.rules": "procedure setup():\n    do:\n        stop\n\nprocedure round():\n    do:\n        stop\n",
    })
    reason = cannot_play("heuristic", load_checked(folder))
    assert reason is not None and "cannot play this rule set" in reason and "can_pass" in reason
    code = main(["simulate", str(folder), "--bot", "heuristic", "--players", "2", "--games", "1", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot play this rule set" in err and len(err.strip().splitlines()) == 1
