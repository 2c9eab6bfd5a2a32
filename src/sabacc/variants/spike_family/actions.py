"""The card actions the Spike family shares (classic takes its draw and exchange from here
too): :class:`Gain`, :class:`Swap`, :class:`Discard`, and the kinds of a plain gain and of the
swaps with the discard and the draw, which each variant lists in its record.

========================  ===========================================================
``gain``                  take the top draw card (alias ``draw``)
``swap discard -3``       take the discard top, discard your -3
``swap draw +4``          take the draw top, discard your +4
========================  ===========================================================

Surabat Cycle's Sun gain, Moon swap and discard, and Coruscant Shift's keep, are declared by
those variants (their ``actions`` modules).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from sabacc.core.actions import Action, checked_card_value
from sabacc.core.cards import signed
from sabacc.engine.actions import ActionKind, Control, constant, one_slot, read_card


@dataclass(frozen=True, slots=True)
class Gain(Action):
    """Take a card into the hand: the draw top, or (Surabat) the Sun card of ``value``."""

    kind: ClassVar[str] = "gain"
    value: int | None = None

    def __str__(self) -> str:
        return "gain" if self.value is None else f"gain {signed(self.value)}"

    def checked(self) -> Action:
        if self.value is None:
            return self
        whole = checked_card_value(self, self.value)
        return self if whole is None else Gain(whole)


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """Exchange a hand card of ``value`` with a card from ``source``."""

    kind: ClassVar[str] = "swap"
    source: str
    value: int

    def __str__(self) -> str:
        return f"swap {self.source} {signed(self.value)}"

    def checked(self) -> Action:
        whole = checked_card_value(self, self.value, f"{self.source} ")
        return self if whole is None else Swap(self.source, whole)


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Discard a hand card of ``value`` (Surabat, back down to the hand cap)."""

    kind: ClassVar[str] = "discard"
    value: int

    def __str__(self) -> str:
        return f"discard {signed(self.value)}"

    def checked(self) -> Action:
        whole = checked_card_value(self, self.value)
        return self if whole is None else Discard(whole)


GAIN = Gain()

_SWAPS: dict[tuple[str, int], Swap] = {}


def swap_action(source: str, value: int) -> Swap:
    """The interned :class:`Swap` action (legal-action lists reuse the same objects)."""
    key = (source, value)
    action = _SWAPS.get(key)
    if action is None:
        action = _SWAPS[key] = Swap(source, value)
    return action


def is_plain_gain(action: Action) -> bool:
    """A gain of the draw top (not of a face-up card)."""
    return isinstance(action, Gain) and action.value is None


def swap_kind(source: str, key: str, form: str = "", aliases: tuple[str, ...] = ()) -> ActionKind:
    """The kind ``swap <source> <card>``: give the hand card picked, take from ``source``."""

    def parse(words: Sequence[str], text: str) -> Action | None:
        return Swap(source, read_card(words[0], text)) if len(words) == 1 else None

    def slots(values: Sequence[int], options: object) -> Sequence[Action]:
        return tuple(Swap(source, v) for v in values)

    return ActionKind(
        f"swap_{source}",
        Swap,
        form or f"swap {source} <card>",
        parse,
        Control.CARD,
        key=key,
        aliases=aliases,
        source=source,
        matches=lambda action: isinstance(action, Swap) and action.source == source,
        slots=slots,
    )


GAIN_KIND = ActionKind(
    "gain",
    Gain,
    "gain",
    constant(GAIN),
    key="g",
    aliases=("draw",),
    source="draw",
    matches=is_plain_gain,
    slots=one_slot(GAIN),
)
SWAP_DISCARD_KIND = swap_kind("discard", "d")
SWAP_DRAW_KIND = swap_kind("draw", "e")

__all__ = [
    "GAIN",
    "GAIN_KIND",
    "SWAP_DISCARD_KIND",
    "SWAP_DRAW_KIND",
    "Discard",
    "Gain",
    "Swap",
    "is_plain_gain",
    "swap_action",
    "swap_kind",
]
