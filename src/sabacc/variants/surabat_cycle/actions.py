"""Surabat Cycle's own action kinds: a gain of a face-up Sun card (``gain +3``), a swap with the
face-down Moon pile (``swap moon +4``) and the discard back down to the hand cap
(``discard +4``). Their classes are the Spike family's
(:mod:`sabacc.variants.spike_family.actions`).
"""

from __future__ import annotations

from sabacc.core.actions import Action
from sabacc.engine.actions import ActionKind, Control, one_card, per_value
from sabacc.variants.spike_family.actions import Discard, Gain, swap_kind

_GAINS: dict[int, Gain] = {}
_DISCARDS: dict[int, Discard] = {}


def gain_action(value: int) -> Gain:
    """The interned ``gain <value>`` action (take the Sun card of that value)."""
    action = _GAINS.get(value)
    if action is None:
        action = _GAINS[value] = Gain(value)
    return action


def discard_action(value: int) -> Discard:
    """The interned ``discard <value>`` action (the forced discard over the hand cap)."""
    action = _DISCARDS.get(value)
    if action is None:
        action = _DISCARDS[value] = Discard(value)
    return action


def _is_sun_gain(action: Action) -> bool:
    return isinstance(action, Gain) and action.value is not None


GAIN_SUN_KIND = ActionKind(
    "gain_sun",
    Gain,
    "gain <card>",
    one_card(Gain),
    Control.PILE,
    key="g",
    aliases=("draw",),
    pile="sun",
    source="sun",
    matches=_is_sun_gain,
    slots=per_value(Gain),
)
SWAP_MOON_KIND = swap_kind("moon", "m")
DISCARD_KIND = ActionKind(
    "discard",
    Discard,
    "discard <card>",
    one_card(Discard),
    Control.CARD,
    key="x",
    slots=per_value(Discard),
)
