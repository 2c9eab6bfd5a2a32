"""Coruscant Shift's own action: ``keep -3 +5c 0``, choosing the subset of the hand to keep
(its selections), and its kind."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from sabacc.core.actions import Action
from sabacc.core.errors import IllegalActionError
from sabacc.engine.actions import ActionKind, Control

_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def card_sort_key(token: str) -> tuple[int, str]:
    """The order :class:`Keep` lists its cards in: by value, then by the code (``-3 0 +5c``)."""
    digits = token.rstrip(_LETTERS)
    try:
        return (int(digits), token)
    except ValueError:
        return (0, token)


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """Choose a subset of your hand to keep: ``cards`` are card codes (a value, with a suit
    letter where it matters), in :func:`card_sort_key` order. The variant says which subsets are
    legal (at least one card; the second selection only adds)."""

    kind: ClassVar[str] = "keep"
    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "keep " + " ".join(self.cards)

    def checked(self) -> Action:
        cards: object = self.cards
        if not isinstance(cards, tuple) or not cards or not all(isinstance(c, str) for c in cards):
            raise IllegalActionError(f"keep {cards!r}: name at least one card, like 'keep +5c 0'")
        for card in cards:
            if not _is_card_code(card):
                raise IllegalActionError(
                    f"keep {cards!r}: {card!r} is not a card like +5c, -3 or 0"
                )
        return self


@functools.lru_cache(maxsize=1024)
def _is_card_code(card: str) -> bool:
    """Whether ``card`` reads as a card code: a whole number with any letters after it (the
    form the text parser takes: ``+5c``, ``-3``, ``0``). Cached: a game's keeps name the same
    few codes over and over."""
    try:
        int(card.rstrip("abcdefghijklmnopqrstuvwxyz"))
    except ValueError:
        return False
    return True


def keep_action(cards: tuple[str, ...] | list[str]) -> Keep:
    """The :class:`Keep` of ``cards`` in the canonical order."""
    return Keep(tuple(sorted(cards, key=card_sort_key)))


def _parse_keep(words: Sequence[str], text: str) -> Action | None:
    if not words:
        return None
    for word in words:
        digits = word.rstrip(_LETTERS)
        try:
            int(digits)
        except ValueError:
            raise IllegalActionError(
                f"{text!r}: {digits!r} is not a card value like +4 or -3"
            ) from None
    return keep_action(list(words))


#: The most subsets one keep decision lists: every non-empty subset of a five-card hand.
KEEP_SLOTS = 2**5 - 1

KEEP_KIND = ActionKind(
    "keep", Keep, "keep <cards>", _parse_keep, Control.SUBSET, key="k", subsets=KEEP_SLOTS
)
