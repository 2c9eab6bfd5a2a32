"""sabacc: the Star Wars card game as a pure, seeded rules engine.

>>> import sabacc
>>> game = sabacc.new_game("spike", players=2, seed=7)
>>> game.current_player
1
"""

from sabacc.api import (
    Variant,
    new_game,
    parse_action,
    replay,
    restore,
    save,
    variant,
    variant_names,
)
from sabacc.core.actions import Action, Bet, Call, Check, Junk, Raise, Stand
from sabacc.core.cards import Card, Deck
from sabacc.core.errors import (
    CardParseError,
    HistoryError,
    IllegalActionError,
    OptionError,
    SabaccError,
    SaveError,
    UnknownVariantError,
)
from sabacc.core.events import Event
from sabacc.core.hands import HandValue
from sabacc.core.options import Options
from sabacc.engine.betting import Legal, Pot
from sabacc.engine.game import Game, GameOutcome, HandResult, PotResult
from sabacc.engine.observation import SCHEMA_VERSION as OBSERVATION_SCHEMA_VERSION
from sabacc.engine.observation import Observation
from sabacc.engine.protocol import GameProtocol
from sabacc.engine.variant import VariantInfo
from sabacc.variants.classic.actions import CallHand
from sabacc.variants.spike_family.actions import Discard, Gain, Swap
from sabacc.variants.spike_family.snapshot import SpikeSnapshot

__version__ = "0.1.0"

__all__ = [
    "OBSERVATION_SCHEMA_VERSION",
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
    "GameProtocol",
    "HandResult",
    "HandValue",
    "HistoryError",
    "IllegalActionError",
    "Junk",
    "Legal",
    "Observation",
    "OptionError",
    "Options",
    "Pot",
    "PotResult",
    "Raise",
    "SabaccError",
    "SaveError",
    "SpikeSnapshot",
    "Stand",
    "Swap",
    "UnknownVariantError",
    "Variant",
    "VariantInfo",
    "__version__",
    "new_game",
    "parse_action",
    "replay",
    "restore",
    "save",
    "variant",
    "variant_names",
]
