"""What seeded random games of a rule set show, for interfaces that must fix their sizes
before any game is played: the widest choice, the longest game, and whether chance
changed anything.

The research interfaces (:mod:`rulecraft.env`, :mod:`rulecraft.spiel`) number a
choice's options 0, 1, ... and declare how many numbers there are before play. A rule set
does not say how many options its widest choice can offer (that depends on where the
game goes), so it is measured here, on the same seeded games for every seed and seat of
a rule set and player count: an environment made with seed 1 and one made with seed 2
have the same action space.

**Headroom.** When every surveyed game reached the same widest choice (a board whose
first move offers every square, in every game), that width is taken as the rule set's
own. When they disagree, the widest seen is a sample of a tail that later games go
beyond, so the action width is the power of two at or above twice the widest seen.
``benchmarks/option_widths.py`` measures how often random games of a rule set still
offer more (docs/research.md gives the figures); the interfaces then stop with an
error naming ``max_options``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rulecraft.interpreter.game import Game

SURVEY_GAMES = 20
# the action width is at least this many times the widest choice seen, when the surveyed games disagree on it
HEADROOM = 2
# the seed of the twin game that tells whether chance matters (any seed other than the game's own)
_TWIN_SEED_OFFSET = 7919


@dataclass(frozen=True)
class Survey:
    widest: int  # the most options any choice offered
    widest_everywhere: bool  # whether every surveyed game's widest choice had that many
    longest: int  # the most decisions a game took
    seeded: bool  # whether playing the same decisions under another seed changed the game

    @property
    def action_width(self) -> int:
        """How many option numbers an interface should declare (see the module doc)."""
        if self.widest_everywhere:
            return self.widest
        return 1 << (HEADROOM * self.widest - 1).bit_length()


def survey(ruleset, players: int, games: int = SURVEY_GAMES, chance: bool = False) -> Survey:
    """Play ``games`` random games (game *i* with seed *i*, the picks from one generator
    seeded 0) and report what they showed. With ``chance``, each game is also replayed
    with the same decisions under another seed, until one differs."""
    pick = random.Random(0)
    widths: list[int] = []
    longest, seeded = 1, False
    for i in range(games):
        game = Game(ruleset, players, i, record_events=False)
        widest = 2
        while not game.over:
            options = game.pending.options
            widest = max(widest, len(options))
            game.choose(pick.randrange(len(options)))
        widths.append(widest)
        longest = max(longest, len(game.decisions))
        if chance and not seeded:
            seeded = _seed_matters(ruleset, players, i, game)
    return Survey(max(widths), len(set(widths)) == 1, longest, seeded)


def _seed_matters(ruleset, players: int, seed: int, game: Game) -> bool:
    try:
        twin = Game.replay(ruleset, players, seed + _TWIN_SEED_OFFSET, game.decisions)
    except Exception:  # noqa: BLE001 - the other seed sent the game elsewhere: chance matters
        return True
    return (twin.state.entities, twin.state.zones, twin.state.result) != \
        (game.state.entities, game.state.zones, game.state.result)
