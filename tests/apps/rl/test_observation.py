"""The numeric observation: the seat view read back from the JSON observation equals the game's
own, so the vectors are equal; in bounds; blind to every card the seat cannot see.

They run on the reference engine and, for Corellian Spike, on the compiled core too, which has
the same JSON view, seat view and ``determinize``. ``tests/apps/rl/test_engines.py`` checks that
both engines give the same views and vectors."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import sabacc
from sabacc.apps.rl import ObservationEncoder, TableCore
from sabacc.engine.features import LAST_ACTIONS_V1
from sabacc.variants.registry import lookup
from tests.apps.rl.conftest import VARIANT_ENGINES, VARIANTS


def _by_code(view: tuple[Any, ...], codes: dict[int, str]) -> tuple[Any, ...]:
    """A seat view with card ids as codes (cards sharing a code are alike: an observation names
    cards by code) and last actions as their index (the compiled core keeps only the kind)."""

    def cards(x: Any) -> Any:
        if isinstance(x, bytes):
            return tuple(codes[c] for c in x)
        if isinstance(x, tuple):  # Surabat's Moon: an id, or -1 where the seat did not look
            return tuple(codes[c] if c >= 0 else None for c in x)
        return x

    phase, pot, sab, cur, dealer, own, total, seats, extra = view
    rows = [(*r[:5], LAST_ACTIONS_V1.index(r[5]), cards(r[6])) for r in seats]
    return (phase, pot, sab, cur, dealer, cards(own), total, rows, tuple(map(cards, extra)))


def _random_play(core: TableCore, rng: random.Random, steps: int) -> list[tuple[int, int]]:
    """Play random legal indices; returns (hand_no, seat) of every decision visited."""
    visited = []
    for _ in range(steps):
        if core.over:
            core.reset(rng.getrandbits(32))
        current = core.current_seat()
        assert current is not None
        seat = current
        visited.append((core.game.hand_no, seat))
        legal = np.flatnonzero(core.mask(seat))
        core.apply_index(int(legal[rng.randrange(len(legal))]))
    return visited


@pytest.mark.parametrize(("variant", "engine"), VARIANT_ENGINES)
@pytest.mark.parametrize(("players", "episode"), [(2, "hand"), (4, "game"), (5, "hand")])
def test_fast_path_equals_json_path(variant: str, engine: str, players: int, episode: str) -> None:
    core = TableCore(variant, players, episode=episode, engine=engine)
    enc = core.encoder
    codes = {c.id: c.code for c in lookup(variant).deck.cards}
    space_low, space_high = enc.low, enc.high
    rng = random.Random(f"{variant}{players}{episode}")
    core.reset(1)
    for _ in range(400):
        if core.over:
            core.reset(rng.getrandbits(32))
        game = core.game
        for seat in range(players):  # every seat, to act or not
            obs = game.observation(seat)
            assert _by_code(enc.view_of(obs), codes) == _by_code(game.seat_view(seat), codes)
            fast = enc.encode(game, seat, core.unit)
            ref = enc.encode_observation(obs)
            assert fast.dtype == np.float32 and fast.shape == (enc.size,)
            np.testing.assert_array_equal(fast, ref)
            assert np.all(fast >= space_low) and np.all(fast <= space_high)
        current = core.current_seat()
        assert current is not None
        seat = current
        legal = np.flatnonzero(core.mask(seat))
        core.apply_index(int(legal[rng.randrange(len(legal))]))


@pytest.mark.parametrize(("variant", "engine"), VARIANT_ENGINES)
def test_terminal_observation_matches(variant: str, engine: str) -> None:
    core = TableCore(variant, 3, engine=engine)
    core.reset(5)
    _random_play(core, random.Random(5), 1)
    while not core.over:
        core.apply_fallback()
    for seat in range(3):
        np.testing.assert_array_equal(
            core.observe(seat),
            core.encoder.encode_observation(core.game.observation(seat)),
        )


@pytest.mark.parametrize(("variant", "engine"), VARIANT_ENGINES)
def test_no_hidden_card_leak(variant: str, engine: str) -> None:
    """Re-deal every card a seat cannot see (others' hidden cards, draw pile, Moon cards it did
    not place...): the seat's vector must not change, while the others' vectors may."""
    rng = random.Random(variant)
    core = TableCore(variant, 4, episode="game", engine=engine)
    core.reset(3)
    changed_other = 0
    for _ in range(300):
        if core.over:
            core.reset(rng.getrandbits(32))
        game = core.game
        for seat in range(4):
            imagined = game.determinize(seat, random.Random(rng.getrandbits(32)))
            mine = core.encoder.encode(game, seat, core.unit)
            np.testing.assert_array_equal(mine, core.encoder.encode(imagined, seat, core.unit))
            for other in range(4):
                if other != seat and not np.array_equal(
                    core.encoder.encode(game, other, core.unit),
                    core.encoder.encode(imagined, other, core.unit),
                ):
                    changed_other += 1
        current = core.current_seat()
        assert current is not None
        seat = current
        legal = np.flatnonzero(core.mask(seat))
        core.apply_index(int(legal[rng.randrange(len(legal))]))
    assert changed_other > 0  # the determinizations did move hidden cards around


def test_swapping_an_opponents_hidden_card_changes_nothing() -> None:
    """A hand-made determinization: exchange one hidden card between two other seats."""
    game = sabacc.new_game("spike", players=3, seed=11, log=False)
    info = lookup("spike")
    enc = ObservationEncoder(info, game.options, 3)
    before = enc.encode(game, 0, 1)
    game.hands[1][0], game.hands[2][0] = game.hands[2][0], game.hands[1][0]
    assert game.hands[1][0].value != game.hands[2][0].value or True
    np.testing.assert_array_equal(before, enc.encode(game, 0, 1))
    np.testing.assert_array_equal(before, enc.encode_observation(game.observation(0)))


def test_layout_is_documented_and_contiguous() -> None:
    for variant in VARIANTS:
        core = TableCore(variant, 4)
        blocks = core.encoder.blocks()
        pos = 0
        for _name, start, size in blocks:
            assert start == pos and size > 0
            pos += size
        assert pos == core.encoder.size
