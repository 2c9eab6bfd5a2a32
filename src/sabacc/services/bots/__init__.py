"""Bots: players that see only a seat's observation and its legal actions.

``make_bot("random", seed=1)`` builds a bot by name (``"ismcts:200"`` passes a budget);
:data:`BOTS` lists the names. Difficulty levels (``easy``, ``normal``, ``hard``, ``expert``)
name a bot and its budget in each variant (:mod:`sabacc.services.bots.levels`); ``make_bot``
accepts them too, and gives the variant's bot for the level (:class:`LevelBot`).
Harnesses ask a bot for a move with :func:`decide`, which also gives search bots a sampler of
states consistent with the seat's information.
"""

from sabacc.services.bots import _expert  # noqa: F401  (registers the expert level's bot)
from sabacc.services.bots.base import (
    BOTS,
    Bot,
    LevelBot,
    Sampler,
    SearchBot,
    bot_names,
    check_turn,
    decide,
    make_bot,
    register_bot,
    sampler_for,
)
from sabacc.services.bots.ismcts import IsmctsBot
from sabacc.services.bots.levels import (
    DEFAULT_LEVEL,
    LEVELS,
    Level,
    alike_levels,
    bots_for,
    check_levels,
    level_names,
    levels_note,
    offered_bots,
    strengths,
)
from sabacc.services.bots.simple import HeuristicBot, RandomBot

__all__ = [
    "BOTS",
    "DEFAULT_LEVEL",
    "LEVELS",
    "Bot",
    "HeuristicBot",
    "IsmctsBot",
    "Level",
    "LevelBot",
    "RandomBot",
    "Sampler",
    "SearchBot",
    "alike_levels",
    "bot_names",
    "bots_for",
    "check_levels",
    "check_turn",
    "decide",
    "level_names",
    "levels_note",
    "make_bot",
    "offered_bots",
    "register_bot",
    "sampler_for",
    "strengths",
]
