"""Bots: players that see only a seat's observation and its legal actions.

``make_bot("random", seed=1)`` builds a bot by name; :data:`BOTS` lists the names.
"""

from sabacc.bots.base import BOTS, Bot, make_bot, register_bot
from sabacc.bots.simple import HeuristicBot, RandomBot

__all__ = ["BOTS", "Bot", "HeuristicBot", "RandomBot", "make_bot", "register_bot"]
