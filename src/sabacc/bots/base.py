"""The bot protocol and registry.

A bot is given what a human at that seat would have: the seat's observation (a JSON-friendly
dict from :meth:`sabacc.Game.observation`) and the list of legal actions. It never sees the
hidden state. Bots are seeded, so a bot built with the same seed makes the same choices.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from sabacc.actions import Action
from sabacc.errors import OptionError


@runtime_checkable
class Bot(Protocol):
    """Anything with a ``name`` and an ``act(observation, legal)`` method."""

    name: str

    def act(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        """Choose one of ``legal`` given ``observation``."""
        ...


BotFactory = Callable[[int | None], Bot]
BOTS: dict[str, BotFactory] = {}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make a bot available by name (CLI ``--bots``, simulations, web tables)."""
    BOTS[name] = factory


def make_bot(name: str, seed: int | None = None) -> Bot:
    """Build the bot called ``name`` with its own seed."""
    _load()
    try:
        factory = BOTS[name.strip().lower()]
    except KeyError:
        raise OptionError(f"unknown bot {name!r}; known bots: {', '.join(sorted(BOTS))}") from None
    return factory(seed)


def _load() -> None:
    import sabacc.bots.simple  # noqa: F401  (registers the built-in bots)
