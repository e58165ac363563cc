"""Players that answer a game's choices from a player's view, never the full state."""

from .protocol import Bot
from .random_bot import RandomBot

__all__ = ["Bot", "RandomBot"]
