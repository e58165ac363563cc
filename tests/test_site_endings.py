"""The rules site's index: "How the game ends" for a game without victory conditions, whose
rules end it with `end_game`: it said "as soon as one of these happens", listed none,
then the rules under "Other ways the game ends"; and the dice with their faces."""

from __future__ import annotations

from engine_rulesets import game_yaml, write_ruleset

from rulecraft.docgen.site import collect

DATA = """
kinds:
  player:
    properties:
      score: {type: number, default: 0}
"""

RULES = """
procedure setup():
    do:
        stop

procedure round():
    text "Each player scores a point; after the last round the highest score wins."
    do:
        for each p in players:
            set p.score += 1
        if round_number >= 3:
            end_game([p for p in players with highest p.score], "the last round")
"""

VICTORY = """
victory ten:
    text "Ten points win at once."
    when any([p.score >= 10 for p in players])
    winners [p for p in players where p.score >= 10]
"""


def _index(tmp_path, rules: str, lang: str = "en") -> str:
    folder = write_ruleset(tmp_path / lang, {"game.yaml": game_yaml() + DATA, "main.rules": rules})
    page = collect(folder, lang).pages["index.md"]
    return page[page.index("## "):]


def test_without_victory_conditions_the_rules_that_end_the_game_are_the_whole_list(tmp_path):
    page = _index(tmp_path, RULES)
    ends = page[page.index("How the game ends"):]
    assert "The game ends when one of these rules ends it, saying who wins." in ends
    assert "as soon as one of these happens" not in ends and "Other ways the game ends" not in ends
    assert "**[Round]" in ends


def test_with_a_victory_condition_the_other_rules_come_after_it(tmp_path):
    page = _index(tmp_path, RULES + VICTORY)
    ends = page[page.index("How the game ends"):]
    assert "as soon as one of these happens" in ends and "### Other ways the game ends" in ends


def test_the_dice_are_listed_with_their_faces(tmp_path):
    """A dice game's first fact: the site listed no die's faces."""
    data = DATA + "dice:\n  d6: [1, 2, 3, claw, heart, energy]\n  coin: [heads, tails]\n"
    folder = write_ruleset(tmp_path / "dice", {"game.yaml": game_yaml() + data, "main.rules": RULES})
    page = collect(folder, "en").pages["index.md"]
    table = page[page.index("## Dice"):]
    assert table.startswith("## Dice\n\n| Die | Faces |\n|---|---|\n| D6 | 1, 2, 3, claw, heart, energy |\n"), table[:200]
    assert "| Coin | heads, tails |" in table
