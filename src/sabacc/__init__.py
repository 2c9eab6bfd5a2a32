"""sabacc: the Star Wars card game as a pure, seeded rules engine.

>>> import sabacc
>>> game = sabacc.new_game("spike", players=2, seed=7)
>>> game.current_player
1
"""

from sabacc.api import Variant, new_game, replay, variant, variant_names
from sabacc.core.actions import (
    Action,
    Bet,
    Call,
    CallHand,
    Check,
    Discard,
    Gain,
    Junk,
    Raise,
    Stand,
    Swap,
    parse_action,
)
from sabacc.core.cards import Card, Deck
from sabacc.core.errors import (
    CardParseError,
    HistoryError,
    IllegalActionError,
    OptionError,
    SabaccError,
    UnknownVariantError,
)
from sabacc.core.events import Event
from sabacc.core.hands import HandValue
from sabacc.engine.game import Game, GameOutcome, HandResult, PotResult

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Bet",
    "Call",
    "CallHand",
    "Card",
    "CardParseError",
    "Check",
    "Deck",
    "Discard",
    "Event",
    "Gain",
    "Game",
    "GameOutcome",
    "HandResult",
    "HandValue",
    "HistoryError",
    "IllegalActionError",
    "Junk",
    "OptionError",
    "PotResult",
    "Raise",
    "SabaccError",
    "Stand",
    "Swap",
    "UnknownVariantError",
    "Variant",
    "__version__",
    "new_game",
    "parse_action",
    "replay",
    "variant",
    "variant_names",
]
