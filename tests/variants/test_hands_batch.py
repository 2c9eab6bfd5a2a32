"""evaluate_spike_batch agrees exactly with evaluate_spike."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sabacc.variants.spike_family.hands import (
    SPIKE_PAD,
    evaluate_spike,
    evaluate_spike_batch,
    spike_strength_value,
)

DECK = [v for v in range(-10, 11) if v for _ in range(3)] + [0, 0]


def padded(hands: list[list[int]]) -> np.ndarray:
    arr = np.full((len(hands), 5), SPIKE_PAD, dtype=np.int64)
    for i, h in enumerate(hands):
        arr[i, : len(h)] = h
    return arr


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_batch_order_matches_scalar(rnd: random.Random) -> None:
    hands = [rnd.sample(DECK, rnd.randint(1, 5)) for _ in range(40)]
    strengths = evaluate_spike_batch(padded(hands))
    values = [evaluate_spike(h) for h in hands]
    for i in range(len(hands)):
        assert spike_strength_value(strengths[i]) == values[i]
        for j in range(len(hands)):
            assert (strengths[i] > strengths[j]) == (values[i] > values[j])
            assert (strengths[i] == strengths[j]) == (values[i] == values[j])


def test_batch_known_hands_and_order_independence() -> None:
    hands = [[0, 0], [4, -4, 0], [-4, 0, 4], [5, -5], [3, 4]]
    s = evaluate_spike_batch(padded(hands))
    assert spike_strength_value(s[0]).name == "Pure Sabacc"
    assert spike_strength_value(s[1]).name == "Yee-Haa"
    assert s[1] == s[2]
    assert s[0] > s[1] > s[3] > s[4]


def test_batch_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        evaluate_spike_batch(np.array([[11, 1]]))
    with pytest.raises(ValueError):
        evaluate_spike_batch(np.array([[1, 1, 1, 1]]))  # four +1s: the deck holds three
    with pytest.raises(ValueError):
        evaluate_spike_batch(np.array([[SPIKE_PAD, SPIKE_PAD]]))  # an empty hand
    with pytest.raises(ValueError):
        evaluate_spike_batch(np.array([1, 2, 3]))  # not 2-D
