"""What a variant declares to the engine and to everything above it: :class:`VariantInfo`.

The engine defines the record; each variant module in :mod:`sabacc.variants` fills one in and
registers it (:mod:`sabacc.variants.registry`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sabacc.core.cards import Card, Deck
    from sabacc.core.hands import HandValue
    from sabacc.core.options import Options
    from sabacc.engine.game import Game


@dataclass(frozen=True)
class VariantInfo:
    """A registered variant: its deck, options type, game class and hand evaluator."""

    name: str
    title: str
    aliases: tuple[str, ...]
    deck: Deck
    options_type: type[Options]
    game_type: type[Game]
    evaluator: Callable[[Options, list[Card]], HandValue]
    min_players: int = 2
    max_players: int = 8
    summary: str = ""
    rules_text: str = field(default="", repr=False)
