"""Bots: one game-agnostic protocol, one registry and one match loop.

A bot sees only ``view(state, player)`` and the legal actions, gets an injected
``random.Random`` and returns one of the legal actions. Bots are made by name through the
registry (``make_bot("verso", "greedy")``), so the CLI, the simulator and the server all choose
seats the same way. Per-game bots live next to this module (``bots/verso.py`` …) and register
themselves when imported; ``make_bot`` imports ``otherside.bots.<game>`` on first use.
"""

from otherside.bots.base import Bot, BotFactory, bot_names, make_bot, register_bot
from otherside.bots.match import MatchResult, Step, play_match

__all__ = [
    "Bot",
    "BotFactory",
    "MatchResult",
    "Step",
    "bot_names",
    "make_bot",
    "play_match",
    "register_bot",
]
