"""The public seam between the two Corellian Spike engines: a snapshot of a game's whole state.

:class:`SpikeSnapshot` is plain, immutable data (ints, strings, tuples of card ids, the frozen
options, the RNG state and the finished hands' results) that describes a Corellian Spike game
completely: what the reference :class:`~sabacc.variants.corellian_spike.rules.SpikeGame` and the
compiled :class:`~sabacc.variants.corellian_spike._corellian_spike_core.SpikeCore` each export with
``snapshot()`` and
import with ``from_snapshot()``. A game rebuilt from a snapshot goes on exactly as the original
would (same legal actions, same cards to come, same history), on either engine. Neither engine
reads the other's private attributes: this record is the whole contract (docs/engines.md).

Cards are given by their ids in :data:`~sabacc.variants.spike_family.deck.SPIKE_DECK`
(``SPIKE_DECK.cards[id]``);
piles list the bottom card first (the top is the last). The RNG state is the 624 Mersenne
Twister words and the index, as in :meth:`random.Random.getstate`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sabacc.engine.game import HandResult
from sabacc.variants.spike_family.deck import SPIKE_DECK

if TYPE_CHECKING:
    from sabacc.variants.corellian_spike.rules import SpikeOptions

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
        """Raise ``ValueError`` unless this snapshot is a state both engines hold alike: the
        right version and field types (plain ints, bools, strings, tuples), 2-8 seats, every
        per-seat field one entry per seat, every deck card in exactly one place, seats, the
        phase, counts and the RNG state in range. Both ``from_snapshot`` call it first (the
        compiled core keeps fixed-size C arrays)."""
        if self.version != SNAPSHOT_VERSION:
            raise ValueError(f"unsupported Spike snapshot version {self.version!r}")
        names = self.names
        if type(names) is not tuple or not all(type(x) is str for x in names):
            raise ValueError("snapshot names must be a tuple of strings")
        n = len(names)
        if not 2 <= n <= MAX_SEATS:
            raise ValueError(f"a Spike snapshot has 2-{MAX_SEATS} seats, not {n}")
        if type(self.seed) is not int:
            raise ValueError("a snapshot's seed is a whole number")
        for name in ("stacks", "committed", "round_bet", "hand_start_stacks"):
            _counts(name, getattr(self, name), n)
        for name in ("out", "in_hand", "folded", "acted"):
            value = getattr(self, name)
            if (
                type(value) is not tuple
                or len(value) != n
                or any(type(x) is not bool for x in value)
            ):
                raise ValueError(f"snapshot field {name} must be {n} bools, one per seat")
        credits = ("sabacc_pot", "carry", "house", "dead", "cur_bet")
        _counts("credits", tuple(getattr(self, name) for name in credits), None)
        steps = ("hand_no", "orbit_steps", "raises", "round")  # C ints in the core
        _counts("counters", tuple(getattr(self, name) for name in steps), None, 2**31)
        if type(self.over) is not bool or self.phase not in PHASES:
            raise ValueError(f"snapshot over must be a bool and phase one of {', '.join(PHASES)}")
        if type(self.card_queue) is not tuple:
            raise ValueError("snapshot card_queue must be a tuple of seats")
        seats = [self.dealer, *self.card_queue, *([] if self.to_act is None else [self.to_act])]
        if any(type(x) is not int or not 0 <= x < n for x in seats) or len(self.card_queue) > n:
            raise ValueError("a seat in the snapshot is not at the table")
        hands, public = self.hands, self.public_ids
        if (
            type(hands) is not tuple
            or len(hands) != n
            or any(type(h) is not tuple or len(h) > MAX_HAND for h in hands)
        ):
            raise ValueError(f"snapshot hands must be {n} tuples of at most {MAX_HAND} card ids")
        if type(public) is not tuple or len(public) != n:
            raise ValueError(f"snapshot public_ids must be {n} frozensets, one per seat")
        piles = (*hands, self.draw, self.discard, self.muck)
        if any(type(p) is not tuple or any(type(c) is not int for c in p) for p in piles):
            raise ValueError("snapshot hands and piles must be tuples of card ids")
        cards = [c for p in piles for c in p]
        if sorted(cards) != list(range(len(SPIKE_DECK))):
            raise ValueError("every card of the deck must be in exactly one place")
        for seat, ids in enumerate(public):
            if type(ids) is not frozenset or not ids <= set(hands[seat]):
                raise ValueError(f"seat {seat}: its public card ids must be cards of its hand")
        last = self.last_action
        if type(last) is not tuple or len(last) != n:
            raise ValueError(f"snapshot last_action must have {n} entries, one per seat")
        if any(x is not None and type(x) is not str for x in last):
            raise ValueError("a last action is None or the action's text")
        dice = self.last_dice
        if dice is not None and (
            type(dice) is not tuple or len(dice) != 2 or any(x not in range(1, 7) for x in dice)
        ):
            raise ValueError("snapshot last_dice must be None or two dice (1-6)")
        rng = self.rng_state
        if (
            type(rng) is not tuple
            or len(rng) != 625
            or any(type(w) is not int for w in rng)
            or not 0 <= rng[-1] <= 624
            or any(not 0 <= w < 2**32 for w in rng[:-1])
        ):
            raise ValueError("snapshot rng_state must be 624 32-bit words and an index <= 624")
        actions = self.actions
        if type(actions) is not tuple or any(
            type(a) is not tuple or len(a) != 2 or type(a[0]) is not int or type(a[1]) is not str
            for a in actions
        ):
            raise ValueError("snapshot actions must be (seat, action text) pairs")
        if type(self.hand_results) is not tuple or any(
            type(r) is not HandResult for r in self.hand_results
        ):
            raise ValueError("snapshot hand_results must be a tuple of HandResult")


def _counts(name: str, values: object, n: int | None, below: int = 2**58) -> None:
    """Refuse unless ``values`` is a tuple of whole numbers 0 <= x < ``below`` (of length
    ``n``). 2**58 credits: sums over eight seats still fit the core's 64-bit integers."""
    if (
        type(values) is not tuple
        or (n is not None and len(values) != n)
        or any(type(x) is not int or not 0 <= x < below for x in values)
    ):
        where = f"{n} " if n is not None else ""
        raise ValueError(f"snapshot {name} must be {where}whole numbers from 0")
