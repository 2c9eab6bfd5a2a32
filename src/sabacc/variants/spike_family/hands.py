"""Corellian Spike hand evaluation (also used by Surabat Cycle), table-driven.

Evaluation is pure (no game state) and table-driven where it pays: Corellian Spike hands are
looked up by a multiset key of their values, so evaluating one hand is a sum and a dict lookup.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from sabacc.core.hands import HandValue

# --------------------------------------------------------------------------------------------
# Corellian Spike
# --------------------------------------------------------------------------------------------

#: Hand names by rank: ``SPIKE_RANK_NAMES[rank - 1]``. Rank 12 (an unranked hand totalling 0) is
#: also called "Sabacc"; callers tell it from a paired Sabacc (rank 11) by ``rank``.
#: What decides at each position of a hand's key (``VariantInfo.tiebreaks``): the rank, the
#: lower pattern values (pair, kind), then for Nulrhek the total closer to zero and positive
#: over negative, then more cards, the higher sum of positive cards, the higher positive card.
SPIKE_TIEBREAKS: tuple[str, ...] = (
    "rank",
    "lower_pattern",
    "lower_pattern",
    "closer_to_zero",
    "positive",
    "more_cards",
    "higher_positive_sum",
    "higher_positive_card",
)

SPIKE_RANK_NAMES: tuple[str, ...] = (
    "Pure Sabacc",  # 1
    "Full Sabacc",  # 2
    "Fleet",  # 3
    "Yee-Haa",  # 4
    "Rhylet",  # 5
    "Squadron",  # 6
    "Gee Whiz",  # 7
    "Straight Khyron",  # 8
    "Banthas Wild",  # 9
    "Rule of Two",  # 10
    "Sabacc",  # 11: a pair
    "Sabacc",  # 12: unranked, total 0
    "Nulrhek",  # 13: total not 0
)
SPIKE_UNRANKED_SABACC = 12
SPIKE_NULRHEK = 13

SPIKE_MIN_VALUE = -10
SPIKE_MAX_VALUE = 10
_SPIKE_NVALUES = SPIKE_MAX_VALUE - SPIKE_MIN_VALUE + 1  # 21
_SPIKE_OFFSET = -SPIKE_MIN_VALUE  # index of value v is v + 10
#: Bits per value in a multiset key: a key holds up to 15 copies of each value without carrying
#: into its neighbour (the 62-card deck holds at most 3; a hand is at most 8 cards).
SPIKE_KEY_BITS = 4
_SPIKE_FIELD = (1 << SPIKE_KEY_BITS) - 1

#: Multiset code of each value, indexed by ``value + 10``. The key of a hand is the sum of the
#: codes of its cards, so it does not depend on the order of the cards and can be kept as a
#: running sum (add a card's code on gain, subtract it on discard).
SPIKE_CODES: tuple[int, ...] = tuple(1 << (SPIKE_KEY_BITS * i) for i in range(_SPIKE_NVALUES))
_SPIKE_CODE_OF: dict[int, int] = {
    v: SPIKE_CODES[v + _SPIKE_OFFSET] for v in range(SPIKE_MIN_VALUE, SPIKE_MAX_VALUE + 1)
}

#: Hands of up to this many cards are served from the precomputed table.
SPIKE_TABLE_MAX_CARDS = 5
#: Copies of each value in the 62-card deck (three staves of each nonzero value, two Sylops).
#: The table holds every multiset of 1..5 values these counts allow.
_SPIKE_DECK_COPIES: tuple[int, ...] = tuple(
    2 if v == 0 else 3 for v in range(SPIKE_MIN_VALUE, SPIKE_MAX_VALUE + 1)
)


def _counts_of(values: Iterable[int]) -> list[int]:
    """Copies of each value (indexed ``value + 10``) of the values; rejects values out of range."""
    counts = [0] * _SPIKE_NVALUES
    for v in values:
        if v not in _SPIKE_CODE_OF:
            raise ValueError(f"not a Corellian Spike card value: {v!r} (expected -10..10)")
        counts[v + _SPIKE_OFFSET] += 1
    return counts


_FULL_SABACC_COUNTS = tuple(_counts_of((10, 10, -10, -10, 0)))
_GEE_WHIZ_COUNTS = (
    tuple(_counts_of((1, 2, 3, 4, -10))),
    tuple(_counts_of((-1, -2, -3, -4, 10))),
)


def spike_key(values: Iterable[int]) -> int:
    """The order-independent multiset key of the values (sum of their :data:`SPIKE_CODES`).

    Raises :class:`ValueError` for a value outside -10..10. A key is exact for up to 15 copies
    of each value.
    """
    code_of = _SPIKE_CODE_OF
    try:
        return sum(map(code_of.__getitem__, values))
    except KeyError as exc:
        raise ValueError(
            f"not a Corellian Spike card value: {exc.args[0]!r} (expected -10..10)"
        ) from None


def _spike_pattern(counts: Sequence[int], size: int) -> tuple[int, int, int]:
    """``(rank, pattern1, pattern2)`` of a hand totalling 0, from its value counts."""
    sylops = counts[_SPIKE_OFFSET]
    if size == 2 and sylops == 2:
        return 1, 0, 0
    if tuple(counts) == _FULL_SABACC_COUNTS:
        return 2, 0, 0
    # Copies of each absolute value 1..10 (index 0 unused): patterns compare absolute values,
    # and Sylops never take part in a pair or a kind.
    absolute = [0] + [counts[_SPIKE_OFFSET + m] + counts[_SPIKE_OFFSET - m] for m in range(1, 11)]
    pairs = [m for m in range(1, 11) if absolute[m] >= 2]
    triples = [m for m in pairs if absolute[m] >= 3]
    quads = [m for m in triples if absolute[m] >= 4]
    if size == 5 and sylops == 1 and quads:
        return 3, quads[0], 0  # Fleet
    if sylops and pairs:
        return 4, pairs[0], 0  # Yee-Haa
    if size == 5 and not sylops and triples:
        for t in triples:
            others = [m for m in pairs if m != t]
            if others:
                return 5, t, others[0]  # Rhylet
    if size == 4 and quads:
        return 6, quads[0], 0  # Squadron
    if size == 5 and tuple(counts) in _GEE_WHIZ_COUNTS:
        return 7, 0, 0  # Gee Whiz
    if size == 4 and not sylops:
        present = [m for m in range(1, 11) if absolute[m]]
        if len(present) == 4 and present[3] - present[0] == 3:
            return 8, present[0], 0  # Straight Khyron
    if triples:
        return 9, triples[0], 0  # Banthas Wild
    if len(pairs) >= 2:
        return 10, pairs[0], pairs[1]  # Rule of Two
    if pairs:
        return 11, pairs[0], 0  # Sabacc (a pair)
    return SPIKE_UNRANKED_SABACC, 0, 0


def _spike_key_tuple(
    counts: Sequence[int], size: int, total: int, possum: int, maxpos: int
) -> tuple[tuple[int, ...], int]:
    """``(key, rank)`` of a hand from its value counts (indexed ``value + 10``) and sums."""
    if total:
        distance = -total if total > 0 else total
        return (-SPIKE_NULRHEK, 0, 0, distance, int(total > 0), size, possum, maxpos), SPIKE_NULRHEK
    rank, p1, p2 = _spike_pattern(counts, size)
    return (-rank, -p1, -p2, 0, 0, size, possum, maxpos), rank


def _spike_from_counts(counts: Sequence[int]) -> HandValue:
    size = sum(counts)
    if size <= 0:
        raise ValueError("a Corellian Spike hand needs at least one card")
    total = possum = maxpos = 0
    for m in range(1, 11):
        pos = counts[_SPIKE_OFFSET + m]
        if pos:
            possum += m * pos
            maxpos = m
        total += m * (pos - counts[_SPIKE_OFFSET - m])
    key, rank = _spike_key_tuple(counts, size, total, possum, maxpos)
    return HandValue(key, SPIKE_RANK_NAMES[rank - 1], total, rank, size)


def evaluate_spike_direct(values: Iterable[int]) -> HandValue:
    """Evaluate a hand by computing it (no table): the reference the table is built from."""
    return _spike_from_counts(_counts_of(values))


_SPIKE_TABLE: dict[int, HandValue] | None = None


def _build_spike_table() -> dict[int, HandValue]:
    """Every multiset of 1..5 values the 62-card deck allows, keyed by :func:`spike_key`.

    Hands with equal key tuples share one :class:`HandValue` (the key tuple determines name,
    total, rank and size), which keeps the table small.
    """
    table: dict[int, HandValue] = {}
    interned: dict[tuple[int, ...], HandValue] = {}
    counts = [0] * _SPIKE_NVALUES
    codes = SPIKE_CODES
    limits = _SPIKE_DECK_COPIES
    names = SPIKE_RANK_NAMES

    def visit(
        start: int, left: int, key: int, size: int, total: int, possum: int, top: int
    ) -> None:
        # Add copies of values with index >= start (ascending, so ``top`` is the highest
        # positive card so far); ``left`` more cards may be added.
        for i in range(start, _SPIKE_NVALUES):
            value = i - _SPIKE_OFFSET
            code = codes[i]
            for n in range(1, min(limits[i], left) + 1):
                counts[i] = n
                k = key + n * code
                t = total + n * value
                ps = possum + n * value if value > 0 else possum
                mp = value if value > 0 else top
                kt, rank = _spike_key_tuple(counts, size + n, t, ps, mp)
                hv = interned.get(kt)
                if hv is None:
                    hv = interned[kt] = HandValue(kt, names[rank - 1], t, rank, size + n)
                table[k] = hv
                if left > n:
                    visit(i + 1, left - n, k, size + n, t, ps, mp)
            counts[i] = 0

    visit(0, SPIKE_TABLE_MAX_CARDS, 0, 0, 0, 0, 0)
    return table


def _spike_table() -> dict[int, HandValue]:
    global _SPIKE_TABLE
    table = _SPIKE_TABLE
    if table is None:
        table = _SPIKE_TABLE = _build_spike_table()
    return table


def spike_table() -> Mapping[int, HandValue]:
    """The precomputed table (read-only view), building it on first use."""
    return MappingProxyType(_spike_table())


def evaluate_spike_key(key: int) -> HandValue:
    """The value of the hand whose :func:`spike_key` is ``key`` (a table lookup for 1..5 deck
    cards; hands outside the table are decoded and computed). Raises :class:`ValueError` for a
    key of no hand."""
    table = _SPIKE_TABLE
    if table is None:
        table = _spike_table()
    hv = table.get(key)
    if hv is not None:
        return hv
    if key <= 0 or key >> (SPIKE_KEY_BITS * _SPIKE_NVALUES):
        raise ValueError(f"not a Corellian Spike hand key: {key!r}")
    counts = [(key >> (SPIKE_KEY_BITS * i)) & _SPIKE_FIELD for i in range(_SPIKE_NVALUES)]
    return _spike_from_counts(counts)


def evaluate_spike(values: Sequence[int]) -> HandValue:
    """The value of a Corellian Spike hand (docs/rules.md, "Hand ranking"), cards in any order.

    ``values`` are card values in -10..10, ``0`` being a Sylop; at least one card. Hands of
    1..5 cards the deck allows are a table lookup (the table is built on first use); other hands
    (6-8 cards, or more copies of a value than the deck holds) are computed on the fly.

    Patterns compare absolute values (+5 and -5 are a pair). A Sylop is not a value for pattern
    purposes: Sylops never form a pair or a kind with each other (project decision), so 0 0 +3
    -2 -1 is an unranked Sabacc, while 0 0 alone is Pure Sabacc. "A Sylop" in Fleet means
    exactly one (Fleet is five cards); Yee-Haa needs at least one Sylop. Where a hand of many
    cards has several candidate patterns, the pattern value is the lowest one (Rule of Two: the
    two lowest pair values).

    ``key`` layout (8 ints, greater is better, equal is a true tie)::

        (-rank, -pattern1, -pattern2, -|total| if Nulrhek else 0, total > 0,
         size, sum of positive cards, highest positive card or 0)

    ``pattern1``/``pattern2`` are 0 for ranks without a pattern value (1, 2, 7, 12, 13).
    """
    code_of = _SPIKE_CODE_OF
    try:
        key = sum(map(code_of.__getitem__, values))
    except KeyError as exc:
        raise ValueError(
            f"not a Corellian Spike card value: {exc.args[0]!r} (expected -10..10)"
        ) from None
    table = _SPIKE_TABLE
    if table is None:
        table = _spike_table()
    hv = table.get(key)
    if hv is not None:
        return hv
    return _spike_from_counts(_counts_of(values))


# ---------------------------------------------------------------------- batch evaluation
#: Value used to pad short hands in a batch (an empty card slot).
SPIKE_PAD = 99

_BATCH: tuple[Any, list[HandValue]] | None = None
_RADIX = 22  # 21 values plus the empty slot, which sorts last


def _spike_batch_tables() -> tuple[Any, list[HandValue]]:
    """A dense strength table indexed by a sorted 5-slot hand, and each strength's HandValue.

    A row is sorted, each slot mapped to 0..20 (value + 10) or 21 (empty), and read as a
    5-digit base-22 number: an index into an int32 array of 22**5 strengths (-1 = no such hand;
    about 20 MB, built once). A hand's *strength* is the dense rank of its HandValue among all
    table hands: greater is better, equal is a true tie.
    """
    global _BATCH
    if _BATCH is None:
        import numpy as np

        table = _spike_table()
        distinct = sorted({hv.key: hv for hv in table.values()}.items())
        strength_of = {key: i for i, (key, _) in enumerate(distinct)}
        dense = np.full(_RADIX**SPIKE_TABLE_MAX_CARDS, -1, dtype=np.int32)
        for key, hv in table.items():
            digits: list[int] = []
            for i in range(_SPIKE_NVALUES):
                digits.extend([i] * ((key >> (SPIKE_KEY_BITS * i)) & _SPIKE_FIELD))
            digits.extend([_RADIX - 1] * (SPIKE_TABLE_MAX_CARDS - len(digits)))
            index = 0
            for d in digits:
                index = index * _RADIX + d
            dense[index] = strength_of[hv.key]
        _BATCH = (dense, [hv for _, hv in distinct])
    return _BATCH


def evaluate_spike_batch(hands: Any) -> Any:
    """Strengths of many Spike hands at once (NumPy; install ``sabacc[rl]`` or numpy).

    ``hands`` is an integer array of shape (N, k), k <= 5, one hand per row, short hands padded
    with :data:`SPIKE_PAD`. Returns an int32 array of N strengths: greater is better, equal is a
    true tie, exactly as comparing :func:`evaluate_spike` values. :func:`spike_strength_value`
    turns a strength back into its :class:`HandValue` (name, total, rank).
    """
    import numpy as np

    dense, _ = _spike_batch_tables()
    arr = np.asarray(hands, dtype=np.int64)
    if arr.ndim != 2 or not 1 <= arr.shape[1] <= SPIKE_TABLE_MAX_CARDS:
        raise ValueError("hands must be an (N, k) array with 1 <= k <= 5")
    pad = arr == SPIKE_PAD
    if (~pad & ((arr < SPIKE_MIN_VALUE) | (arr > SPIKE_MAX_VALUE))).any():
        raise ValueError("card values must be -10..10 (or SPIKE_PAD for an empty slot)")
    digits = np.where(pad, _RADIX - 1, arr + _SPIKE_OFFSET)
    digits.sort(axis=1)
    index = np.zeros(len(arr), dtype=np.int64)
    for col in range(SPIKE_TABLE_MAX_CARDS):
        d = digits[:, col] if col < arr.shape[1] else _RADIX - 1
        index = index * _RADIX + d
    out = dense[index]
    if (out < 0).any():
        raise ValueError("a hand in the batch is empty or holds more copies than the deck")
    return out


def spike_strength_value(strength: int) -> HandValue:
    """The :class:`HandValue` for a strength returned by :func:`evaluate_spike_batch`."""
    return _spike_batch_tables()[1][int(strength)]
