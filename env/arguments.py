"""The arguments the research interfaces (:mod:`rulecraft.env`, :mod:`rulecraft.spiel`)
share, checked once for both: the rule set (and its variant), the player count, the
seed; and the survey of seeded random games that sizes them, kept per rule set.

Each check raises ``ValueError`` (``TypeError`` for a value of the wrong type) in one
line that names the argument and what it takes.
"""

from __future__ import annotations

from pathlib import Path

from rulecraft.interpreter.gamelog import SEED_LEAST, SEED_MOST
from rulecraft.survey import SURVEY_GAMES, Survey, research_ruleset, survey


def _whole(value) -> bool:
    """A whole number: an int (numpy's integers too), not a truth value."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or type(value).__name__.startswith(("int", "uint"))


def ruleset_with_variant(ruleset, variant: str | None = None):
    """The rule set as :func:`rulecraft.survey.research_ruleset` takes it (a loaded rule
    set, a folder, a shipped rule set's name), with ``variant`` applied: a variant of a
    folder or a name is loaded (``load_checked(folder, variant=...)``); a loaded rule set
    is taken when it is that variant already. A variant the rule set does not have is
    refused in one line naming the ones it has."""
    if variant is None:
        return research_ruleset(ruleset)
    if not isinstance(variant, str):
        raise TypeError(f"variant={variant!r}: give a variant's name (a text)")
    if hasattr(ruleset, "data"):
        held = getattr(ruleset, "variant", None)
        if held is not None and held.name == variant:
            return ruleset
        raise ValueError(f"variant={variant!r}: the rule set given is loaded already"
                         + (f" with variant {held.name!r}" if held is not None else "")
                         + "; give its folder or name with variant=, or load_checked(folder, variant=...)")
    from rulecraft.dsl.diagnostics import RuleSetError
    from rulecraft.dsl.loader import load_checked
    from rulecraft.dsl.variants import available_variants

    base = research_ruleset(ruleset)  # refuses a name that is no rule set, in one line
    root = Path(base.root)
    known = available_variants(root)
    if variant not in known:
        raise ValueError(f"variant={variant!r}: no such variant of {base.data.game.name} "
                         f"(its variants: {', '.join(known) if known else 'none'})")
    try:
        return load_checked(root, variant)
    except RuleSetError as err:
        first = err.bag.errors[0] if err.bag.errors else None
        why = f": {getattr(first, 'message', first)}" if first is not None else ""
        raise ValueError(f"variant={variant!r} of {base.data.game.name} has {len(err.bag.errors)} error(s){why} "
                         f"(rulecraft check {root} --variant {variant})") from None


def check_players(ruleset, players) -> int:
    """The player count: ``players`` when the rule set is played by that many, the rule
    set's least when None; anything else is refused naming the counts allowed."""
    game = ruleset.data.game
    if players is None:
        return game.min_players
    if not _whole(players):
        raise TypeError(f"players={players!r}: give a whole number ({game.title} is played by "
                        f"{game.player_counts} players), or None for {game.min_players}")
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"players={players!r}: {game.title} is played by {game.player_counts} players")
    return int(players)


def check_seed(seed, *, allow_none: bool, bits: int = 64, why: str = "a game log holds") -> int | None:
    """A seed: a whole number of ``bits`` bits, signed (64: what a game log holds); None
    where ``allow_none`` (a seed drawn at random, as PettingZoo takes ``seed=None``)."""
    if seed is None and allow_none:
        return None
    if not _whole(seed):
        extra = ", or None for a random one" if allow_none else ""
        raise TypeError(f"seed={seed!r}: give a whole number{extra}")
    least, most = (SEED_LEAST, SEED_MOST) if bits == 64 else (-2 ** (bits - 1), 2 ** (bits - 1) - 1)
    if not least <= seed <= most:
        raise ValueError(f"seed={seed!r}: a seed is a {bits}-bit number, as {why}: from {least} to {most}")
    return int(seed)


# How the research interfaces number actions: by the pending choice's options (action i is
# its i-th legal option), or by the rule set's action catalog (rulecraft.action_catalog:
# one number per move, the same in every state)
ACTION_NUMBERINGS = ("options", "catalog")


def check_actions(actions, max_options) -> str:
    """``actions`` is one of :data:`ACTION_NUMBERINGS`; a catalog is as wide as it is
    long, so it takes no ``max_options``."""
    if actions not in ACTION_NUMBERINGS:
        raise ValueError(f"actions={actions!r}: one of {', '.join(repr(a) for a in ACTION_NUMBERINGS)} "
                         f"(an option's place in the pending choice, or its number in the rule set's catalog)")
    if actions == "catalog" and max_options is not None:
        raise ValueError(f"max_options={max_options!r}: with actions='catalog' the action space is the catalog, "
                         f"as long as the rule set's answers; give max_options with actions='options' only")
    return actions


def cached_catalog(ruleset, players: int):
    """:func:`rulecraft.action_catalog.action_catalog` of the rule set and player count,
    made once per rule set in a process and kept with it, as :func:`cached_survey` keeps
    its survey; a rule set whose answers cannot be listed is refused with
    :class:`~rulecraft.action_catalog.CatalogError` (a ``ValueError``) in one line."""
    from rulecraft.action_catalog import action_catalog

    shared = ruleset.compiled.shared if ruleset.compiled is not None else {}
    kept = shared.get(("action catalog", players))
    if kept is None:
        kept = shared[("action catalog", players)] = action_catalog(ruleset, players)
    return kept


def cached_survey(ruleset, players: int, *, chance: bool = False, settings: dict | None = None) -> Survey:
    """:func:`rulecraft.survey.survey` of the rule set and player count, played once per
    rule set in a process: kept with the rule set (a rule set never changes once loaded,
    and ``load_checked`` gives the same one again while its files are unchanged), so a
    second environment or game of the same rule set does not play the surveyed games
    again. A survey with ``chance`` also serves one without."""
    shared = ruleset.compiled.shared if ruleset.compiled is not None else {}
    items = tuple(sorted((settings or {}).items()))
    for with_chance in ((True,) if chance else (True, False)):
        kept = shared.get(("research survey", players, items, with_chance, SURVEY_GAMES))
        if kept is not None:
            return kept
    found = survey(ruleset, players, chance=chance, settings=settings)
    shared[("research survey", players, items, chance, SURVEY_GAMES)] = found
    return found
