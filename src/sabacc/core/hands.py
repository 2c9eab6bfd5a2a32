"""The value of a hand, the one currency every variant's evaluator pays in.

A :class:`HandValue` is totally ordered (greater is better; equal keys are a true tie), so the
engine, bots and apps compare hands without knowing the variant that made them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, eq=False)
class HandValue:
    """The value of a hand. Greater compares better; equal keys are a true tie.

    ``key`` is a tuple of ints ordered so that a better hand has a greater key; ``rank`` is the
    row of the variant's ranking table (1 = best); ``name`` is the hand's name as players say it.
    """

    key: tuple[int, ...]
    name: str
    total: int
    rank: int
    size: int

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandValue) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __lt__(self, other: HandValue) -> bool:
        return self.key < other.key

    def __le__(self, other: HandValue) -> bool:
        return self.key <= other.key

    def __gt__(self, other: HandValue) -> bool:
        return self.key > other.key

    def __ge__(self, other: HandValue) -> bool:
        return self.key >= other.key

    def to_dict(self) -> dict[str, object]:
        """JSON-friendly form (for observations and hand histories)."""
        return {"name": self.name, "total": self.total, "rank": self.rank, "size": self.size}
