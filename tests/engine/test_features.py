"""The RL features' declared parts: the last-action one-hot a variant's spec names."""

from __future__ import annotations

import pytest

from sabacc.engine.features import LAST_ACTIONS_V1, LastActions
from sabacc.variants.registry import lookup, variant_names


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        (None, -1),
        ("", -1),
        ("stand", 0),
        ("gain", 1),
        ("gain -7", 1),
        ("swap draw -3", 2),
        ("exchange 10", 2),  # classic's exchange counts as a swap
        ("discard +4", 3),
        ("raise 40", 7),
        ("junk", 8),
        ("call hand", 9),  # a head of two words before the one-word "call"
        ("call", 5),
        ("draw sand", -1),  # not in this layout
    ],
)
def test_the_first_layouts_slots(text: str | None, slot: int) -> None:
    assert LAST_ACTIONS_V1.index(text) == slot


def test_a_declared_vocabulary_is_read_as_declared() -> None:
    mine = LastActions(("stand", "play token", "draw"), {"pass": "stand"})
    assert [mine.index(t) for t in ("pass", "play token shift", "draw blood", "play", "bet 2")] == [
        0,
        1,
        2,
        -1,
        -1,
    ]


def test_every_variant_declares_its_last_actions() -> None:
    for name in variant_names():
        spec = lookup(name).rl_spec
        assert spec is not None and spec.last_actions.heads, name
