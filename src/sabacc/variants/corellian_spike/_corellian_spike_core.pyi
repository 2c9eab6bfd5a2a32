"""Type stub of the compiled Corellian Spike core (see _corellian_spike_core.pyx and
sabacc.variants.compiled)."""

from typing import Any

from sabacc.core.actions import Action
from sabacc.variants.corellian_spike.rules import SpikeGame, SpikeObservation, SpikeOptions
from sabacc.variants.spike_family._spike_family import SEAT_STATUSES as SEAT_STATUSES
from sabacc.variants.spike_family._spike_family import SpikeFamilyCore as SpikeFamilyCore
from sabacc.variants.spike_family._spike_family import rng_sample as rng_sample
from sabacc.variants.spike_family._spike_family import seed_group_sample as seed_group_sample
from sabacc.variants.spike_family._spike_family import shuffle_sample as shuffle_sample
from sabacc.variants.spike_family._spike_family import spike_strength as spike_strength
from sabacc.variants.spike_family.snapshot import SpikeSnapshot

class SpikeCore(SpikeFamilyCore[SpikeOptions, SpikeObservation]):
    @staticmethod
    def from_game(game: SpikeGame) -> SpikeCore: ...
    @staticmethod
    def from_snapshot(snapshot: SpikeSnapshot) -> SpikeCore: ...
    def snapshot(self) -> SpikeSnapshot: ...

def next_seed(seed: int) -> int: ...
def action_code(action: Action) -> tuple[int, int]: ...

class SpikeVector:
    num_envs: int
    illegal_count: int
    options: SpikeOptions
    def __init__(
        self,
        num_envs: int,
        options: SpikeOptions,
        players: int,
        game_episode: bool,
        table: Any,
        encoder: Any,
    ) -> None: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    def reset(self, seeds: Any, obs: Any, mask: Any, player: Any) -> None: ...
    def step(
        self, actions: Any, obs: Any, rewards: Any, terminated: Any, mask: Any, player: Any
    ) -> None: ...
    def sample_into(self, key: int, mask: Any, out: Any) -> None: ...
    def seeds_into(self, out: Any) -> None: ...
    def state(self, b: int) -> dict[str, Any]: ...
