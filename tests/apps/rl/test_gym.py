"""The single-agent Gymnasium environment: Gymnasium's checker, rewards, opponents, and the
same episodes on both engines (Corellian Spike on the reference engine and the compiled core)."""

from __future__ import annotations

import random
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import sabacc.apps.rl
from sabacc.apps.rl import SabaccGymEnv
from sabacc.apps.rl.gym_env import ENV_IDS
from sabacc.core.errors import OptionError
from sabacc.engine.game import Game
from sabacc.variants.compiled import available
from tests.apps.rl.conftest import COMPILED, VARIANT_ENGINES, needs_compiled
from tests.support import variant_without_core


@pytest.mark.parametrize(("variant", "engine"), VARIANT_ENGINES)
def test_check_env(variant: str, engine: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env warns about any doubtful detail
        env = SabaccGymEnv(variant, opponents=["heuristic", "random"], engine=engine)
        assert env.core.engine == engine
        check_env(env, skip_render_check=True)
    game = SabaccGymEnv(
        variant, opponents=["random"], episode="game", game_end="hands:2", engine=engine
    )
    check_env(game, skip_render_check=True)


def test_versioned_ids() -> None:
    assert ENV_IDS == {
        "corellian_spike": "sabacc/Spike-v1",
        "surabat_cycle": "sabacc/Surabat-v1",
        "classic": "sabacc/Classic-v1",
        "kessel": "sabacc/Kessel-v1",
        "coruscant_shift": "sabacc/Coruscant-v1",
    }
    assert all(env_id in gymnasium.registry for env_id in ENV_IDS.values())


def test_illegal_action_terminates_by_default() -> None:
    env = sabacc.apps.rl.SabaccGymEnv("surabat", opponents=["random"], illegal_reward=-3)
    obs, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = len(env.core.game.actions)
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_move"]) == (-3.0, True, False, True)
    assert len(env.core.game.actions) == before
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    obs, _ = env.reset(seed=2)  # a new episode plays on
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    assert env.step(legal)[4].get("illegal_move") is None


@pytest.mark.parametrize(("variant", "engine"), VARIANT_ENGINES)
def test_registered_and_made(variant: str, engine: str) -> None:
    env = gymnasium.make(ENV_IDS[variant], opponents=["random"], num_players=3, engine=engine)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    obs, info = env.reset(seed=1)
    assert obs["action_mask"].any() and info["seat"] in range(3)


@pytest.mark.parametrize(("variant", "engine"), VARIANT_ENGINES)
def test_episode_reward_is_the_learners_hand_net(variant: str, engine: str) -> None:
    env = SabaccGymEnv(variant, opponents=["heuristic", "random", "random"], engine=engine)
    rng = np.random.default_rng(0)
    seats = set()
    for seed in range(15):
        obs, info = env.reset(seed=seed)
        seats.add(info["seat"])
        total = 0.0
        terminated = False
        while not terminated:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, terminated, truncated, info = env.step(action)
            total += float(reward)
            assert not truncated
        (result,) = env.core.game.hand_results
        assert total == result.net[env.seat]
        assert not obs["action_mask"].any()
        with pytest.raises(RuntimeError, match="reset"):
            env.step(0)
    assert len(seats) > 1  # the learner does not always sit in the same place


def test_same_seed_same_episode() -> None:
    def run(seed: int) -> list[float]:
        env = SabaccGymEnv("corellian_spike", opponents=["heuristic"], num_players=3)
        obs, _ = env.reset(seed=seed)
        out = [float(obs["observation"].sum())]
        done = False
        while not done:
            obs, reward, done, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
            out += [float(reward), float(obs["observation"].sum())]
        return out

    assert run(4) == run(4)


def test_bad_opponents() -> None:
    with pytest.raises(OptionError):
        SabaccGymEnv("spike", opponents=[])
    with pytest.raises(OptionError):
        SabaccGymEnv("spike", opponents=["no_such_bot"])


def test_engine_option() -> None:
    """``engine="auto"`` plays Corellian Spike on the compiled core when it is built; the other
    variants on the reference engine, which is also there on request."""
    spike = SabaccGymEnv("corellian_spike")
    assert spike.core.engine == ("compiled" if COMPILED else "python")
    assert SabaccGymEnv("spike", engine="python").core.engine == "python"
    assert SabaccGymEnv("classic").core.engine == ("compiled" if available("classic") else "python")
    assert SabaccGymEnv("surabat_cycle").core.engine == ("compiled" if COMPILED else "python")
    assert SabaccGymEnv("kessel").core.engine == ("compiled" if available("kessel") else "python")
    with variant_without_core() as name, pytest.raises(OptionError, match="only, not Coreless"):
        SabaccGymEnv(name, engine="compiled")
    with pytest.raises(OptionError, match="engine='turbo'"):
        SabaccGymEnv("corellian_spike", engine="turbo")


#: (players, episode, opponents, keywords): table sizes 2-8, both episode modes, every kind of
#: built-in bot (the search bot samples its worlds on each engine's own way), a spread of
#: options (short stacks: all-ins, side pots, knock-outs; split ties; fees; pot limit).
GYM_CASES: list[tuple[int, str, tuple[str, ...], dict[str, Any]]] = [
    (2, "hand", ("heuristic",), {}),
    (3, "game", ("random", "heuristic"), {"game_end": "hands:3", "buy_in": 12}),
    (4, "hand", ("ismcts:12", "random", "heuristic"), {"betting": "pot_limit"}),
    (4, "game", ("heuristic", "random"), {"buy_in": 10, "ante": 2, "final_pot": "house"}),
    (5, "hand", ("random",), {"gain_fee": 1, "swap_fee": 1, "true_tie": "split", "hand_cap": 3}),
    (6, "game", ("ismcts:8", "heuristic"), {"game_end": "hands:2", "rounds": 2}),
    (8, "hand", ("heuristic", "random"), {"hand_cap": 8, "rounds": 4}),
]
GYM_IDS = [
    "2p-hand-heuristic",
    "3p-game-short",
    "4p-hand-ismcts-pot_limit",
    "4p-game-knockouts-house",
    "5p-hand-fees-split",
    "6p-game-ismcts",
    "8p-hand-cap8",
]


def _episode_trace(env: SabaccGymEnv, seed: int, rng: random.Random) -> list[Any]:
    """Everything one seeded episode shows, with random (sometimes illegal) learner actions."""
    obs, info = env.reset(seed=seed)
    trace: list[Any] = [obs["observation"].tolist(), obs["action_mask"].tolist(), info["seat"]]
    assert np.array_equal(info["action_mask"], obs["action_mask"])
    terminated = False
    while not terminated:
        legal = np.flatnonzero(obs["action_mask"])
        if rng.random() < 0.05:
            action = rng.randrange(len(env.action_table) + 2)  # may be illegal: ends it
        else:
            action = int(legal[rng.randrange(len(legal))])
        obs, reward, terminated, truncated, info = env.step(action)
        trace += [
            obs["observation"].tolist(),
            obs["action_mask"].tolist(),
            float(reward),
            terminated,
            truncated,
            info["seat"],
            info["action_mask"].tolist(),
            env.render(),
        ]
    game = env.core.game
    trace += [game.actions, game.stacks, game.hand_results, env.core.illegal_count]
    return trace


@needs_compiled
@pytest.mark.parametrize(("players", "episode", "opponents", "options"), GYM_CASES, ids=GYM_IDS)
def test_episodes_are_identical_on_both_engines(
    players: int, episode: str, opponents: tuple[str, ...], options: dict[str, Any]
) -> None:
    """Same seeds, same learner actions: the same observations, masks, rewards, terminations,
    infos, renderings, bots' moves and hand results on the reference engine and the core."""
    ref, fast = (
        SabaccGymEnv(
            "corellian_spike",
            opponents=list(opponents),
            num_players=players,
            episode=episode,
            render_mode="ansi",
            engine=engine,
            **options,
        )
        for engine in ("python", "compiled")
    )
    assert ref.core.engine == "python" and fast.core.engine == "compiled"
    steps = 0
    for seed in range(4 if "ismcts" in " ".join(opponents) else 10):
        a = _episode_trace(ref, seed, random.Random(seed))
        b = _episode_trace(fast, seed, random.Random(seed))
        assert isinstance(ref.core.game, Game) and not isinstance(fast.core.game, Game)
        assert b == a
        # The bots saw the same JSON observations on both engines.
        for seat in [None, *range(players)]:
            assert fast.core.game.observation(seat) == ref.core.game.observation(seat)
        steps += len(a)
    assert steps > 40


@needs_compiled
def test_gymnasium_make_defaults_to_the_compiled_core() -> None:
    env = gymnasium.make(ENV_IDS["corellian_spike"], opponents=["ismcts:5"], num_players=3)
    assert env.unwrapped.core.engine == "compiled"  # type: ignore[attr-defined]
    assert sabacc.apps.rl.SabaccGymEnv("spike", opponents=["random"]).core.engine == "compiled"
    obs, _ = env.reset(seed=2)
    terminated = False
    while not terminated:
        obs, _, terminated, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
