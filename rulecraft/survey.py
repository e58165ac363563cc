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

**Length.** OpenSpiel asks a game for the most actions a history can hold
(``max_game_length``). A history holds the players' decisions and, with explicit chance,
one chance action per draw of the rules (a die roll, a random pick, a shuffle step). The
survey counts both in each game; the interfaces declare ``LENGTH_HEADROOM`` times the
longest, decisions only or decisions and draws as their chance mode makes histories
(:meth:`Survey.history_bound`).

**Episodes.** An interface that plays one game after another (a PettingZoo ``reset``,
an OpenSpiel ``new_initial_state``) gives each its own seed, drawn from a generator
seeded by the interface's seed (:func:`episode_seeds`): the episodes differ, and the
same seed gives the same sequence of episodes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from rulecraft.interpreter import rng
from rulecraft.interpreter.game import Game

SURVEY_GAMES = 20
# the action width is at least this many times the widest choice seen, when the surveyed games disagree on it
HEADROOM = 2
# the most actions a history may hold is this many times the longest surveyed history
LENGTH_HEADROOM = 4
# the seed of the twin game that tells whether chance matters (any seed other than the game's own)
_TWIN_SEED_OFFSET = 7919


@dataclass(frozen=True)
class Survey:
    widest: int  # the most options any choice offered
    widest_everywhere: bool  # whether every surveyed game's widest choice had that many
    longest: int  # the most decisions a game took
    seeded: bool  # whether playing the same decisions under another seed changed the game
    longest_history: int = 0  # the most decisions and draws of chance together a game took

    @property
    def action_width(self) -> int:
        """How many option numbers an interface should declare (see the module doc)."""
        if self.widest_everywhere:
            return self.widest
        return 1 << (HEADROOM * self.widest - 1).bit_length()

    def history_bound(self, draws: bool) -> int:
        """The most actions a history may hold: ``LENGTH_HEADROOM`` times the longest
        surveyed game, counting its draws too when ``draws`` (explicit chance, where each
        draw is an action of the history)."""
        return LENGTH_HEADROOM * max(self.longest_history if draws else self.longest, 1)


def survey(ruleset, players: int, games: int = SURVEY_GAMES, chance: bool = False,
           settings: dict | None = None) -> Survey:
    """Play ``games`` random games (game *i* with seed *i*, the picks from one generator
    seeded 0) and report what they showed. With ``chance``, each game is also replayed
    with the same decisions under another seed, until one differs. ``settings``: how the
    surveyed games are run, as the games they bound will be."""
    pick = random.Random(0)
    widths: list[int] = []
    longest, longest_history, seeded = 1, 1, False
    for i in range(games):
        game = Game(ruleset, players, i, record_events=False, settings=settings)
        widest = 2
        while not game.over:
            options = game.pending.options
            widest = max(widest, len(options))
            game.choose(pick.randrange(len(options)))
        widths.append(widest)
        longest = max(longest, len(game.decisions))
        longest_history = max(longest_history, len(game.decisions) + _draws(game))
        if chance and not seeded:
            seeded = _seed_matters(ruleset, players, i, game, settings)
    return Survey(max(widths), len(set(widths)) == 1, longest, seeded, longest_history)


# splitmix64's step (rulecraft.interpreter.rng) and its inverse modulo 2**64
_STEP = 0x9E3779B97F4A7C15
_STEP_INVERSE = pow(_STEP, -1, 1 << 64)


def _draws(game: Game) -> int:
    """How many draws of chance the game made. Every draw moves the game's generator one
    step on (two, very rarely, when rejection sampling rejects a value: then this counts
    one draw too many, on the safe side), and the generator's state is its seed's state
    plus the steps times a constant, so the steps are read off the state."""
    state = game.state
    return ((state.rng - rng.seed_state(state.seed)) * _STEP_INVERSE) % (1 << 64)


def episode_seeds(seed: int) -> random.Random:
    """The generator an interface draws its episodes' seeds from (see the module doc):
    ``next_seed(episode_seeds(S))`` gives the first episode's seed, and so on."""
    return random.Random(seed)


def next_seed(seeds: random.Random) -> int:
    """The next episode's seed from a generator made by :func:`episode_seeds`."""
    return seeds.getrandbits(31)


def check_max_options(max_options) -> None:
    """``max_options`` is None (measured) or a positive whole number; else ValueError."""
    whole = isinstance(max_options, int) or type(max_options).__name__.startswith(("int", "uint"))  # numpy's too
    if max_options is not None and (isinstance(max_options, bool) or not whole or max_options < 1):
        raise ValueError(f"max_options={max_options!r}: give a positive whole number, or None to measure it")


def research_ruleset(ruleset):
    """A loaded rule set, as given, or the rule set of a folder or a shipped rule set's
    name, as the command line takes it; a name that is neither is refused in one line."""
    if hasattr(ruleset, "data"):
        return ruleset
    from rulecraft.dsl.loader import load_checked, resolve_ruleset_path

    text = str(ruleset)
    path = resolve_ruleset_path(text) if text else None
    if path is None:
        raise FileNotFoundError(f"no rule set at '{text}': give a rule-set folder or the name of a shipped "
                                f"rule set ({', '.join(_shipped())})")
    if not (path / "game.yaml").is_file():
        raise FileNotFoundError(f"'{text}' is no rule set: a rule-set folder holds a game.yaml")
    return load_checked(path)


def _shipped() -> list[str]:
    from importlib import resources

    root = Path(str(resources.files("rulecraft.rules")))
    return sorted(p.name for p in root.iterdir() if (p / "game.yaml").is_file())


def _seed_matters(ruleset, players: int, seed: int, game: Game, settings: dict | None) -> bool:
    try:
        twin = Game.replay(ruleset, players, seed + _TWIN_SEED_OFFSET, game.decisions, settings)
    except Exception:  # noqa: BLE001 - the other seed sent the game elsewhere: chance matters
        return True
    return (twin.state.entities, twin.state.zones, twin.state.result) != \
        (game.state.entities, game.state.zones, game.state.result)
