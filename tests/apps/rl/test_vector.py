"""The vectorized Spike environment plays exactly the scalar engines' games.

Every slot of a :class:`VectorEnv` is played in lockstep with a scalar game of the same seed
(the compiled :class:`SpikeCore` and the reference :class:`SpikeGame`) and the same actions,
random legal indices and some illegal ones (which play the lowest legal index on both): after
every step the observation vector and mask must equal the scalar environments' encoder and
action table on the scalar game, the player, rewards and terminations must follow its hand nets,
and the whole C state (every card's place, the RNG, the money) must equal its snapshot. A slot
that finishes continues with ``next_seed`` of its seed, as a fresh scalar game of that seed.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sabacc.apps.rl.actions import ActionTable
from sabacc.apps.rl.features import ObservationEncoder
from sabacc.core.errors import OptionError
from sabacc.engine.protocol import GameProtocol
from sabacc.variants.corellian_spike.rules import SpikeGame
from tests.apps.rl.conftest import needs_compiled

pytestmark = needs_compiled

U64 = 2**64 - 1

#: (players, episode, options): heads-up (the benchmark's table) and larger tables, both episode
#: modes, betting structures, exact bet sizes, fees, a hand cap, split ties, knock-outs and the
#: final-pot split.
CASES: list[tuple[int, str, dict[str, Any]]] = [
    (2, "hand", {}),
    (2, "game", {}),
    (2, "game", {"game_end": "hands:4", "buy_in": 12, "final_pot": "split"}),
    (3, "hand", {"betting": "pot_limit", "bet_sizes": ("min", 2, 5, 0.75, "max")}),
    (4, "game", {"buy_in": 12, "ante": 2, "min_bet": 3, "game_end": "hands:5"}),
    (5, "hand", {"betting": "fixed", "max_raises": 2, "gain_fee": 1, "swap_fee": 2}),
    (6, "hand", {"hand_cap": 4, "true_tie": "split", "rounds": 4}),
    (8, "hand", {"hand_cap": 8}),
]
IDS = [
    "2p-hand",
    "2p-game",
    "2p-game-short-split",
    "3p-pot_limit-exact",
    "4p-game-knockouts",
    "5p-fixed-fees",
    "6p-cap4-split-4rounds",
    "8p-cap8",
]


def hsettings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def _splitmix64(x: int) -> int:
    z = (x + 0x9E3779B97F4A7C15) & U64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & U64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & U64
    return z ^ (z >> 31)


def _env(players: int, episode: str, options: dict[str, Any], b: int, **kw: Any) -> Any:
    from sabacc.apps.rl.vector import VectorEnv

    return VectorEnv("spike", num_envs=b, num_players=players, episode=episode, **options, **kw)


class Scalar:
    """One scalar game shadowing a slot: its expected vector, mask, rewards."""

    def __init__(self, env: Any, seed: int, engine: str) -> None:
        self.env = env
        self.engine = engine
        self.seed = seed
        self.game: GameProtocol = self._new(seed)
        self.hands = 0
        self.paid = [0] * env.num_players

    def _new(self, seed: int) -> GameProtocol:
        n = self.env.num_players
        if self.engine == "compiled":
            from sabacc.variants.corellian_spike._corellian_spike_core import SpikeCore

            return SpikeCore(self.env.options, seed=seed, players=n)
        return SpikeGame(self.env.options, seed=seed, players=n, log=False)

    def expected(self) -> tuple[np.ndarray, np.ndarray, int]:
        game = self.game
        seat = game.current_player
        assert seat is not None
        enc: ObservationEncoder = self.env.encoder
        table: ActionTable = self.env.table
        return enc.encode(game, seat, game.bet_unit), table.mask(game.legal()), seat

    def play(self, index: int) -> tuple[list[int], bool]:
        game = self.game
        table: ActionTable = self.env.table
        seat = game.current_player
        assert seat is not None
        legal = game.legal()
        mask = table.mask(legal)
        if not (0 <= index < table.n and mask[index]):
            index = int(np.argmax(mask))  # the fallback: the lowest legal index
        to_call = max(0, game.cur_bet - game.round_bet[seat])
        action = table.decode(index, legal, game.pot_total(), to_call)
        assert action is not None
        game.apply(action)
        rewards = [0] * game.n
        nets = [r.net for r in game.hand_results]
        for net in nets[self.hands :]:
            for s, x in enumerate(net):
                rewards[s] += x
                self.paid[s] += x
        self.hands = len(nets)
        if game.over and self.env.episode == "game":
            start = self.env.options.starting_stack
            for s in range(game.n):
                rewards[s] += game.stacks[s] - start - self.paid[s]
        return rewards, game.over

    def restart(self) -> None:
        self.seed = _splitmix64(self.seed)
        self.game = self._new(self.seed)
        self.hands = 0
        self.paid = [0] * self.env.num_players


def _same_state(env: Any, b: int, game: GameProtocol) -> None:
    snap = game.snapshot()  # type: ignore[attr-defined]
    state = env.state(b)
    for key, value in state.items():
        assert getattr(snap, key) == value, key


def _lockstep(
    case: tuple[int, str, dict[str, Any]],
    seeds: list[int],
    rng_seed: int,
    steps: int,
    engine: str,
    check_state: bool = True,
) -> None:
    players, episode, options = case
    env = _env(players, episode, options, len(seeds))
    rng = random.Random(rng_seed)
    obs, info = env.reset(seeds=np.array(seeds, dtype=np.uint64))
    shadows = [Scalar(env, s, engine) for s in seeds]
    illegal = 0
    for _ in range(steps):
        for b, sh in enumerate(shadows):
            vec, mask, seat = sh.expected()
            np.testing.assert_array_equal(obs[b], vec)
            np.testing.assert_array_equal(info["mask"][b], mask)
            assert info["current_player"][b] == seat
            assert int(info["seed"][b]) == sh.seed
            if check_state:
                _same_state(env, b, sh.game)
        actions = []
        for b in range(len(seeds)):
            legal = np.flatnonzero(info["mask"][b])
            if rng.random() < 0.1:
                actions.append(rng.randrange(-3, env.num_actions + 3))  # maybe illegal
            else:
                actions.append(int(rng.choice(legal)))
            illegal += not (0 <= actions[-1] < env.num_actions and info["mask"][b][actions[-1]])
        obs, rewards, terminated, truncated, info = env.step(np.array(actions))
        assert not truncated.any()
        for b, sh in enumerate(shadows):
            expect, over = sh.play(actions[b])
            assert rewards[b].tolist() == expect
            assert bool(terminated[b]) == over
            if over:
                sh.restart()
    assert env.illegal_count == illegal


@pytest.mark.parametrize("case", CASES, ids=IDS)
@hsettings(12)
@given(seeds=st.lists(st.integers(0, U64), min_size=1, max_size=4), rng_seed=st.integers(0, 2**32))
def test_lockstep_with_the_compiled_core(case: Any, seeds: list[int], rng_seed: int) -> None:
    _lockstep(case, seeds, rng_seed, steps=60, engine="compiled")


@pytest.mark.parametrize("case", CASES[:2] + CASES[3:4], ids=IDS[:2] + IDS[3:4])
@hsettings(5)
@given(seeds=st.lists(st.integers(0, U64), min_size=1, max_size=3), rng_seed=st.integers(0, 2**32))
def test_lockstep_with_the_reference_engine(case: Any, seeds: list[int], rng_seed: int) -> None:
    _lockstep(case, seeds, rng_seed, steps=40, engine="python")


def test_many_heads_up_episodes_match() -> None:
    """A batch of 64 heads-up one-hand games over several auto-resets (no state check: fast)."""
    _lockstep(CASES[0], list(range(1000, 1064)), 5, steps=40, engine="compiled", check_state=False)


@hsettings(40)
@given(seeds=st.lists(st.integers(0, U64), min_size=1, max_size=16))
def test_grouped_seeding_is_random_seed(seeds: list[int]) -> None:
    """16 generators seeded side by side are ``random.Random(seed)`` after its first
    regeneration (the state its first draw leaves, minus the draw)."""
    from sabacc.variants.corellian_spike._corellian_spike_core import seed_group_sample

    for seed, state in zip(seeds, seed_group_sample(seeds), strict=True):
        r = random.Random(seed)
        r.getrandbits(32)
        words = r.getstate()[1]
        assert state[:624] == words[:624]
        assert (state[624], words[624]) == (0, 1)


@hsettings(50)
@given(seed=st.integers(0, U64))
def test_next_seed_is_splitmix64(seed: int) -> None:
    from sabacc.apps.rl.vector import next_seed
    from sabacc.variants.corellian_spike._corellian_spike_core import (
        next_seed as compiled_next_seed,
    )

    assert next_seed(seed) == compiled_next_seed(seed) == _splitmix64(seed)


def test_reset_seeds_and_shapes() -> None:
    env = _env(2, "hand", {}, 8)
    obs, info = env.reset(seeds=100)
    assert obs.shape == (8, env.observation_size) and obs.dtype == np.float32
    assert info["mask"].shape == (8, len(env.table)) and info["mask"].dtype == np.int8
    assert info["seed"].tolist() == list(range(100, 108))
    assert (info["current_player"] == 1).all()  # heads-up: the dealer's left acts first
    again, _ = env.reset(seeds=np.arange(100, 108))
    np.testing.assert_array_equal(obs, again)
    other, _ = env.reset(seeds=np.arange(200, 208))
    assert not np.array_equal(obs, other)
    _, info = env.reset()  # seeds from the OS
    assert info["seed"].dtype == np.uint64


def test_copies_and_buffers() -> None:
    env = _env(2, "hand", {}, 4)
    obs, info = env.reset(seeds=1)
    obs[:] = 7.0
    info["mask"][:] = 0
    assert env.mask.any()
    fast = _env(2, "hand", {}, 4, copy=False)
    obs2, _ = fast.reset(seeds=1)
    first = obs2.copy()
    out, *_ = fast.step(fast.sample(np.random.default_rng(0)))
    assert out is obs2 and not np.array_equal(out, first)  # the same buffer, overwritten


@hsettings(20)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8))
def test_sample_is_uniform_over_legal_indices(seed: int, players: int) -> None:
    env = _env(players, "hand", {}, 32)
    env.reset(seeds=seed)
    rng = np.random.default_rng(seed)
    for _ in range(20):
        actions = env.sample(rng)
        assert env.mask[np.arange(32), actions].all()
        env.step(actions)
    assert env.illegal_count == 0


def test_sample_is_uniform_and_reproducible() -> None:
    """20,000 games at the same first decision: each legal index is drawn about equally often
    (within 5 standard deviations), and the same generator state draws the same indices."""
    b = 20_000
    env = _env(2, "hand", {}, b)
    env.reset(seeds=np.full(b, 7, dtype=np.uint64))
    legal = np.flatnonzero(env.mask[0])
    assert len(legal) > 2
    actions = env.sample(np.random.default_rng(3))
    counts = np.bincount(actions, minlength=env.num_actions)
    assert counts.sum() == b and set(np.flatnonzero(counts)) <= set(legal)
    p = 1 / len(legal)
    sigma = (b * p * (1 - p)) ** 0.5
    assert np.all(np.abs(counts[legal] - b * p) < 5 * sigma)
    np.testing.assert_array_equal(actions, env.sample(np.random.default_rng(3)))
    assert not np.array_equal(actions, env.sample(np.random.default_rng(4)))


def test_arguments_are_checked() -> None:
    from sabacc.apps.rl.vector import VectorEnv

    env = _env(2, "hand", {}, 4)
    with pytest.raises(OptionError, match="reset"):
        env.step(np.zeros(4, dtype=np.int64))
    env.reset(seeds=0)
    with pytest.raises(OptionError, match="4 indices"):
        env.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(OptionError, match="seeds"):
        env.reset(seeds=[1, 2])
    with pytest.raises(OptionError, match="seed"):
        env.reset(seeds=-1)
    with pytest.raises(OptionError, match="episode"):
        VectorEnv(num_envs=2, episode="orbit")
    with pytest.raises(OptionError, match="num_envs"):
        VectorEnv(num_envs=0)
    with pytest.raises(OptionError, match="played by"):
        VectorEnv(num_envs=2, num_players=9)
    with pytest.raises(OptionError):
        VectorEnv(num_envs=2, buy_in=1, ante=5)
    with pytest.raises(OptionError, match="no vectorized engine for Classic Sabacc"):
        VectorEnv("classic", num_envs=2)
