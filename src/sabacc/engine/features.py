"""What a variant declares for the RL toolkit: its compact seat view and its feature spec.

The numeric observation (``sabacc.apps.rl.features.ObservationEncoder``) is written by one
encoder for every variant and both engines. It reads a :data:`SeatView`, a flat tuple every game
builds in one call (``game.seat_view(seat)``: the reference :class:`~sabacc.engine.game.Game`
and the compiled Spike core alike), and leaves what only a variant knows to the variant's
:class:`FeatureSpec` (registered as ``VariantInfo.rl_spec``): its phases, rank rows, the blocks of
its own features with their sizes and value ranges, the writer of those blocks, and how to read
its part of the seat view back from a JSON observation (for bots that only get observations).

A seat view shows only what ``observation(seat)`` shows (``tests/apps/rl``: the view read from
the observation equals the view of the game). Its layout::

    (phase, main pot, sabacc pot, current bet, dealer offset, own card ids (bytes),
     own total, seats, extra)

``seats`` lists every seat from the observer clockwise (entry ``k`` is seat ``(seat + k) % n``),
each ``(stack, committed, round bet, card count, status, last, known)``: ``status`` an index in
:data:`~sabacc.engine.observation.SEAT_STATUSES`, ``last`` the seat's last action this hand (its
text, or just its first word; None: none yet), ``known`` the ids of the cards of that hand the
observer knows (bytes). ``extra`` is the variant's own tuple, which its spec reads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

SeatRow: TypeAlias = tuple[int, int, int, int, int, str | None, bytes]
SeatView: TypeAlias = tuple[
    str, int, int, int, int, bytes, int, tuple[SeatRow, ...], tuple[Any, ...]
]

#: A block's size: a number of features, or one per seat, or one per distinct card value.
Size: TypeAlias = int | Literal["seats", "values"]
#: A block's upper bound: a number, or the deck size, the most copies of one value, the seats.
Bound: TypeAlias = float | Literal["deck", "copies", "seats"]


@dataclass(frozen=True, slots=True)
class Block:
    """One named run of features of a variant's own part of the vector."""

    name: str
    size: Size
    high: Bound = 1.0
    low: float = 0.0
    #: Whether only the observing seat knows it (the research tensors' private part).
    private: bool = False


@dataclass(frozen=True, slots=True)
class Layout:
    """What a block writer needs to know of the table it encodes for (built by the encoder)."""

    n: int  # seats
    offsets: Mapping[str, int]  # start of every block of the vector
    value_of: Sequence[int]  # card id -> index of its value among the deck's distinct values
    deck_size: float


#: Writes the variant's blocks: ``(features, extra)``; ``features`` is zeroed. Seats in
#: ``extra`` are offsets from the observer (clockwise), like the seat rows.
ExtraWriter: TypeAlias = Callable[[MutableSequence[float], tuple[Any, ...]], None]


@dataclass(frozen=True)
class LastActions:
    """The one-hot of each seat's last public action in the RL features: the heads of its
    slots in order (a head of several words is matched as the text's start), and ``aliases``,
    other first words counted in a slot (``{"exchange": "swap"}``)."""

    heads: tuple[str, ...]
    aliases: Mapping[str, str] = field(default_factory=dict)

    def index(self, text: str | None) -> int:
        """The slot of a last action's text, or of its first word alone (-1: none)."""
        if not text:
            return -1
        for i, head in enumerate(self.heads):
            if " " in head and text.startswith(head):
                return i
        word = text.split(" ", 1)[0]
        word = self.aliases.get(word, word)
        return self.heads.index(word) if word in self.heads else -1


#: The last-action slots of the feature layout every variant has used so far (the compiled
#: Spike-family core writes these indexes); a variant with other public actions declares its own.
LAST_ACTIONS_V1 = LastActions(
    ("stand", "gain", "swap", "discard", "check", "call", "bet", "raise", "junk", "call hand"),
    {"exchange": "swap"},
)


@dataclass(frozen=True)
class FeatureSpec:
    """A variant's RL feature spec (see the module docstring).

    ``writer(layout)`` returns the function that writes the variant's :attr:`blocks` from the
    ``extra`` element of a seat view; ``from_observation(obs, card_ids)`` builds that ``extra``
    from a JSON observation (``card_ids``: card code -> an id of a card with that code).
    ``bet_sizes(options)`` its default discrete bet sizes (None: the table's default);
    ``env_name`` the short name of its environments (``sabacc_<env_name>_v1``,
    ``sabacc/<Env_name>-v1``). The RL action table's other slots come from the variant's
    declared action kinds (:attr:`sabacc.engine.variant.VariantInfo.actions`);
    ``last_actions`` the one-hot of each seat's last action.
    """

    phases: tuple[str, ...]
    ranks: int  # one-hot rows of the own hand's rank (worse ranks share the last row)
    total_scale: float  # the own total is divided by it
    blocks: tuple[Block, ...]
    writer: Callable[[Layout], ExtraWriter] = field(repr=False)
    from_observation: Callable[[Mapping[str, Any], Mapping[str, int]], tuple[Any, ...]] = field(
        repr=False
    )
    bet_sizes: Callable[[Any], tuple[str | float | int, ...]] | None = field(
        default=None, repr=False
    )
    env_name: str = ""
    last_actions: LastActions = LAST_ACTIONS_V1


def card_ids(codes: Sequence[str], ids: Mapping[str, int]) -> bytes:
    """The ids of cards given by code (for :attr:`FeatureSpec.from_observation`)."""
    return bytes([ids[c] for c in codes])


def doubles(dice: Sequence[int] | None) -> bool:
    """Whether the last dice were doubles (a Sabacc Shift)."""
    return dice is not None and len(dice) == 2 and dice[0] == dice[1]
