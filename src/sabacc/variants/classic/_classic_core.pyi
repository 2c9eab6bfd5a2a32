"""Type stub of the compiled classic sabacc core (see _classic_core.pyx and
sabacc.variants.compiled)."""

from sabacc.core.cards import Card
from sabacc.variants._kernel._core_protocol import BettingCoreMembers
from sabacc.variants.classic.rules import ClassicGame, ClassicObservation, ClassicOptions

MAX_CREDITS: int
MAX_COUNT: int

class ClassicCore(BettingCoreMembers[ClassicOptions, ClassicObservation]):
    # The protocol, the table, the decision, the results: the kernel's members
    @property
    def turn(self) -> int: ...
    @property
    def orbit(self) -> int: ...
    @property
    def call_queue(self) -> list[int]: ...
    @property
    def caller(self) -> int | None: ...
    @property
    def last_roll(self) -> int | None: ...
    @property
    def last_shift(self) -> bool: ...
    @property
    def discards(self) -> list[Card]: ...
    @property
    def rounds(self) -> None: ...
    @staticmethod
    def from_game(game: ClassicGame) -> ClassicCore: ...
