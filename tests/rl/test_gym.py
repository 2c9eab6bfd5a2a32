"""The single-agent Gymnasium environment: Gymnasium's checker, rewards, opponents."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from sabacc.errors import OptionError
from sabacc.rl import SabaccGymEnv
from sabacc.rl.gym_env import ENV_IDS
from tests.rl.conftest import VARIANTS


@pytest.mark.parametrize("variant", VARIANTS)
def test_check_env(variant: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env warns about any doubtful detail
        check_env(SabaccGymEnv(variant, opponents=["heuristic", "random"]), skip_render_check=True)
    game = SabaccGymEnv(variant, opponents=["random"], episode="game", game_end="hands:2")
    check_env(game, skip_render_check=True)


@pytest.mark.parametrize("variant", VARIANTS)
def test_registered_and_made(variant: str) -> None:
    env = gymnasium.make(ENV_IDS[variant], opponents=["random"], num_players=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    obs, info = env.reset(seed=1)
    assert obs["action_mask"].any() and info["seat"] in range(3)


@pytest.mark.parametrize("variant", VARIANTS)
def test_episode_reward_is_the_learners_hand_net(variant: str) -> None:
    env = SabaccGymEnv(variant, opponents=["heuristic", "random", "random"])
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
