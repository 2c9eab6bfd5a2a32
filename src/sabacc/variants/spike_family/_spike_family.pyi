"""Type stub only (no runtime module): what every Spike-family core module compiles from
``_spike_family.pxi`` (its base class ``SpikeFamilyCore`` and module functions), declared once
for the three variants' core stubs (``corellian_spike/_corellian_spike_core.pyi``,
``surabat_cycle/_surabat_cycle_core.pyi``, ``coruscant_shift/_coruscant_shift_core.pyi``).

Each core module has its own copy of ``SpikeFamilyCore`` at run time (the file is compiled into
each with that variant's rules); the stubs name this one so that mypy reads one list of members.
It subclasses the kernel's ``BettingCoreMembers`` (``_kernel/_core_protocol.pyi``), generic in
the variant's options and observation types, and declares only what the family adds.
"""

import random
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from sabacc.core.cards import Card
from sabacc.core.options import Options
from sabacc.engine.observation import Observation
from sabacc.variants._kernel._core_protocol import BettingCoreMembers

SEAT_STATUSES: tuple[str, ...]

def spike_strength(values: Iterable[int]) -> int: ...
def rng_sample(seed: int, draws: int) -> list[float | int]: ...
def shuffle_sample(rng: random.Random, items: list[Any]) -> None: ...
def seed_group_sample(seeds: Sequence[int]) -> list[tuple[int, ...]]: ...

_O = TypeVar("_O", bound=Options)
_Obs = TypeVar("_Obs", bound=Observation)

class SpikeFamilyCore(BettingCoreMembers[_O, _Obs]):
    # The protocol, the table, the decision, the results: BettingCoreMembers (the kernel's)
    @property
    def round(self) -> int: ...
    @property
    def discard(self) -> list[Card]: ...
    @property
    def muck(self) -> list[Card]: ...
    @property
    def last_dice(self) -> tuple[int, int] | None: ...
    def hand_strength(self, seat: int) -> int | None: ...
    @property
    def rounds(self) -> int: ...
