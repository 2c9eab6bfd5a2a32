"""Type stub of the compiled Coruscant Shift core (see _coruscant_shift_core.pyx and
sabacc.variants.compiled)."""

from sabacc.variants.coruscant_shift.rules import (
    CoruscantGame,
    CoruscantObservation,
    CoruscantOptions,
)
from sabacc.variants.spike_family._spike_family import SEAT_STATUSES as SEAT_STATUSES
from sabacc.variants.spike_family._spike_family import SpikeFamilyCore as SpikeFamilyCore
from sabacc.variants.spike_family._spike_family import rng_sample as rng_sample
from sabacc.variants.spike_family._spike_family import seed_group_sample as seed_group_sample
from sabacc.variants.spike_family._spike_family import shuffle_sample as shuffle_sample
from sabacc.variants.spike_family._spike_family import spike_strength as spike_strength
from sabacc.variants.spike_family.snapshot import SpikeSnapshot

def keep_cache_info() -> tuple[int, int, int, int]: ...
def keep_cache_clear() -> None: ...

class CoruscantCore(SpikeFamilyCore[CoruscantOptions, CoruscantObservation]):
    @property
    def kept_n(self) -> list[int]: ...
    @property
    def target(self) -> int: ...
    @property
    def target_suit(self) -> str: ...
    @property
    def selection(self) -> int: ...
    @property
    def hand_ante(self) -> int: ...
    @staticmethod
    def from_game(game: CoruscantGame) -> CoruscantCore: ...
    @staticmethod
    def from_snapshot(snapshot: SpikeSnapshot) -> CoruscantCore: ...
    def snapshot(self) -> SpikeSnapshot: ...
