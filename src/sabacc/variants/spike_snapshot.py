"""The public seam between the two Corellian Spike engines: a snapshot of a game's whole state.

:class:`SpikeSnapshot` is plain, immutable data (ints, strings, tuples of card ids, the frozen
options, the RNG state and the finished hands' results) that describes a Corellian Spike game
completely: what the reference :class:`~sabacc.variants.corellian_spike.SpikeGame` and the
compiled :class:`~sabacc.variants._spike_core.SpikeCore` each export with ``snapshot()`` and
import with ``from_snapshot()``. A game rebuilt from a snapshot goes on exactly as the original
would (same legal actions, same cards to come, same history), on either engine. Neither engine
reads the other's private attributes: this record is the whole contract (docs/engines.md).

Cards are given by their ids in :data:`~sabacc.core.cards.SPIKE_DECK` (``SPIKE_DECK.cards[id]``);
piles list the bottom card first (the top is the last). The RNG state is the 624 Mersenne
Twister words and the index, as in :meth:`random.Random.getstate`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sabacc.core.cards import SPIKE_DECK
from sabacc.engine.game import HandResult

if TYPE_CHECKING:
    from sabacc.variants.corellian_spike import SpikeOptions

SNAPSHOT_VERSION = 1
#: The phases a snapshot may be in (the reference engine's names).
PHASES = ("setup", "card", "betting", "spike", "showdown", "over")
MAX_SEATS = 8
MAX_HAND = 16


@dataclass(frozen=True, slots=True)
class SpikeSnapshot:
    """The whole state of a Corellian Spike game, as plain data (see the module docstring).

    Per-seat fields are tuples indexed by seat. ``last_action`` is each seat's last action this
    hand as the table saw it (``"call (all-in)"``...); ``actions`` the game's action log as
    ``(seat, action text)``; ``card_queue`` the seats still to take their Card-phase turn, in
    order; ``hand_results`` every finished hand's result.
    """

    options: SpikeOptions
    seed: int
    names: tuple[str, ...]
    rng_state: tuple[int, ...]  # 624 Mersenne Twister words, then the index
    # the table
    stacks: tuple[int, ...]
    out: tuple[bool, ...]
    hand_no: int
    dealer: int
    orbit_steps: int
    sabacc_pot: int
    carry: int
    house: int
    to_act: int | None
    phase: str
    over: bool
    # the hand
    hands: tuple[tuple[int, ...], ...]
    public_ids: tuple[frozenset[int], ...]
    in_hand: tuple[bool, ...]
    folded: tuple[bool, ...]
    acted: tuple[bool, ...]
    committed: tuple[int, ...]
    round_bet: tuple[int, ...]
    hand_start_stacks: tuple[int, ...]
    last_action: tuple[str | None, ...]
    dead: int
    cur_bet: int
    raises: int
    draw: tuple[int, ...]
    discard: tuple[int, ...]
    muck: tuple[int, ...]
    round: int
    card_queue: tuple[int, ...]
    last_dice: tuple[int, int] | None
    # the logs
    actions: tuple[tuple[int, str], ...]
    hand_results: tuple[HandResult, ...]
    version: int = SNAPSHOT_VERSION

    def validate(self) -> None:
        """Raise ``ValueError`` unless this snapshot is a state both engines can hold: the
        right version, 2-8 seats, every per-seat field one entry per seat, every deck card in
        exactly one place, seats and the phase in range. Both ``from_snapshot`` call it first
        (the compiled core keeps fixed-size C arrays)."""
        if self.version != SNAPSHOT_VERSION:
            raise ValueError(f"unsupported Spike snapshot version {self.version!r}")
        n = len(self.names)
        if not 2 <= n <= MAX_SEATS:
            raise ValueError(f"a Spike snapshot has 2-{MAX_SEATS} seats, not {n}")
        per_seat = (
            "stacks",
            "out",
            "hands",
            "public_ids",
            "in_hand",
            "folded",
            "acted",
            "committed",
            "round_bet",
            "hand_start_stacks",
            "last_action",
        )
        for name in per_seat:
            if len(getattr(self, name)) != n:
                raise ValueError(f"snapshot field {name} must have one entry per seat ({n})")
        rng = self.rng_state
        if len(rng) != 625 or not 0 <= rng[-1] <= 624 or any(not 0 <= w < 2**32 for w in rng[:-1]):
            raise ValueError("snapshot rng_state must be 624 32-bit words and an index <= 624")
        if any(len(h) > MAX_HAND for h in self.hands):
            raise ValueError(f"a hand holds at most {MAX_HAND} cards")
        cards = [c for h in self.hands for c in h] + [*self.draw, *self.discard, *self.muck]
        if sorted(cards) != list(range(len(SPIKE_DECK))):
            raise ValueError("every card of the deck must be in exactly one place")
        for seat, public in enumerate(self.public_ids):
            if not public <= set(self.hands[seat]):
                raise ValueError(f"seat {seat}: a public card id is not in its hand")
        seats = [*self.card_queue, *([] if self.to_act is None else [self.to_act])]
        if any(not 0 <= s < n for s in seats) or not 0 <= self.dealer < n:
            raise ValueError("a seat in the snapshot is not at the table")
        if len(self.card_queue) > n:
            raise ValueError("the card-phase queue is longer than the table")
        if self.phase not in PHASES:
            raise ValueError(f"unknown phase {self.phase!r}")
