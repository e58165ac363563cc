"""What an OpenSpiel observer of a rulecraft game gives: a player's view, or what every
player sees, as a string (JSON) and a tensor (:mod:`rulecraft.env.observation`).

OpenSpiel names an observer by an ``IIGObservationType``:

- ``private_info=SINGLE_PLAYER`` (the default): the player's own view, never the full
  state; ``private_info=NONE``: only what every player sees (the public view below), the
  same string and tensor for every player; ``ALL_PLAYERS`` is refused, as is an
  observer without the public information (``public_info=False``).
- ``perfect_recall``: the view with every event seen so far, in order (an information
  state). There is no information-state tensor: such an observer has no tensor, and
  asking for one stops with OpenSpiel's own error for a game without one.
"""

from __future__ import annotations

import json

import numpy as np
import pyspiel

from rulecraft.interpreter.views import player_view

# The viewer of the public view: no seat, so views.py shows it only what the rule set's
# tables show everyone (see public_view).
PUBLIC = "(public)"


class ViewObserver:
    """OpenSpiel's Python observer API for a rulecraft game (see the module doc)."""

    def __init__(self, game, iig_obs_type=None):
        self.ruleset = game.ruleset
        self.layout = game.layout
        # OpenSpiel passes the observation type, or only the parameters (a dict) for its default
        kind = iig_obs_type if hasattr(iig_obs_type, "perfect_recall") else None
        self.history = kind is not None and kind.perfect_recall
        self.public = kind is not None and kind.private_info == pyspiel.PrivateInfoType.NONE
        if kind is not None and not kind.public_info:
            raise ValueError("a rulecraft game gives observations with the public information only "
                             "(IIGObservationType with public_info=True)")
        if kind is not None and kind.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("a rulecraft game gives no observation of every player's private information "
                             "(private_info=ALL_PLAYERS): use SINGLE_PLAYER, a player's view, or NONE, "
                             "what every player sees")
        # an information state (perfect recall) has a string only
        self.tensor = None if self.history else np.zeros(self.layout.size, np.float32)
        self.dict = {} if self.history else {"observation": self.tensor}

    def set_from(self, state, player):
        if self.tensor is None:
            # OpenSpiel's own words for a game without information-state tensors
            raise pyspiel.SpielError("InformationStateTensorShape unimplemented: a rulecraft game has "
                                     "information-state strings only (provides_information_state_tensor=False)")
        self.tensor[:] = self.layout.encode(self._view(state, player, with_events=False))

    def string_from(self, state, player):
        return json.dumps(self._view(state, player, with_events=self.history), sort_keys=True, default=str)

    def _view(self, state, player, with_events: bool) -> dict:
        held = state._held
        if self.public:
            return public_view(self.ruleset, held.state, held.events if with_events else None)
        return player_view(self.ruleset, held.state, state._seats[player], held.events if with_events else None)


def public_view(ruleset, state, events: list[dict] | None = None) -> dict:
    """What every player sees: the view of a viewer who is no seat, which views.py
    builds from the tables alone (a zone or property seen by its owner only, a turn's
    variables, the pending choice and what ``reveal`` showed to some players are left
    out; a thing revealed to every seat one by one stays out too, so the view never holds
    more than every player sees), with only the events every seat sees, a part of one
    that the seats see differently (a card named to one, "?" to the others) shown as "?"
    (views.common_event)."""
    return player_view(ruleset, state, PUBLIC, events)
