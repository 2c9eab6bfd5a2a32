"""Type stub of the compiled Surabat Cycle core (see _surabat_cycle_core.pyx and
sabacc.variants.compiled)."""

from sabacc.core.cards import Card
from sabacc.variants.spike_family._spike_family import SEAT_STATUSES as SEAT_STATUSES
from sabacc.variants.spike_family._spike_family import SpikeFamilyCore as SpikeFamilyCore
from sabacc.variants.spike_family._spike_family import rng_sample as rng_sample
from sabacc.variants.spike_family._spike_family import seed_group_sample as seed_group_sample
from sabacc.variants.spike_family._spike_family import shuffle_sample as shuffle_sample
from sabacc.variants.spike_family._spike_family import spike_strength as spike_strength
from sabacc.variants.spike_family.snapshot import SpikeSnapshot
from sabacc.variants.surabat_cycle.rules import SurabatGame, SurabatObservation, SurabatOptions

class SurabatCore(SpikeFamilyCore[SurabatOptions, SurabatObservation]):
    @property
    def sun(self) -> list[Card]: ...
    @property
    def moon(self) -> list[Card]: ...
    @property
    def moon_owner(self) -> list[int | None]: ...
    @property
    def seen(self) -> list[set[int]]: ...
    @property
    def round_seats(self) -> list[int]: ...
    @property
    def starting_player(self) -> int | None: ...
    @staticmethod
    def from_game(game: SurabatGame) -> SurabatCore: ...
    @staticmethod
    def from_snapshot(snapshot: SpikeSnapshot) -> SurabatCore: ...
    def snapshot(self) -> SpikeSnapshot: ...
