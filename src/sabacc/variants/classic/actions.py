"""Classic's own action and words: ``call hand`` (ask for the showdown, ending the hand), and
``exchange +4`` for the swap with the draw pile (the Spike family's :class:`Swap`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from sabacc.core.actions import Action
from sabacc.engine.actions import ActionKind, constant, one_slot
from sabacc.variants.spike_family.actions import swap_kind


@dataclass(frozen=True, slots=True)
class CallHand(Action):
    """Call the hand, ending it at once with a showdown."""

    kind: ClassVar[str] = "call hand"


CALL_HAND = CallHand()

CALL_HAND_KIND = ActionKind(
    "call_hand",
    CallHand,
    "call hand",
    constant(CALL_HAND),
    key="c",
    betting=True,
    slots=one_slot(CALL_HAND),
)
#: Classic's exchange: the swap with the draw pile, also said ``exchange <card>``.
EXCHANGE_KIND = swap_kind("draw", "e", aliases=("exchange",))
