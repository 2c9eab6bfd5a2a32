"""Conventions shared by every environment: Gymnasium ids that need no import of sabacc, and
the reward conventions (``reward="net"`` or ``"zero_sum"``), the same keyword, default and
meaning in PettingZoo (AEC and parallel), Gymnasium, the vector environment, the research game
and OpenSpiel."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import sabacc.apps.rl
from sabacc.apps import gym_plugin
from sabacc.apps.rl.gym_env import SabaccGymEnv
from sabacc.apps.rl.research import ResearchGame
from sabacc.apps.rl.vector import VectorEnv
from sabacc.core.errors import OptionError
from sabacc.variants.registry import lookup, variant_names
from tests.apps.rl.conftest import COMPILED, VARIANTS

ROOT = Path(__file__).resolve().parents[3]


def _fresh(code: str) -> Any:
    """Run ``code`` in a new interpreter on this tree; its last printed line, as JSON."""
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_gymnasium_make_needs_no_import_of_sabacc() -> None:
    found = _fresh(
        "import json, sys, gymnasium\n"
        "before = sorted(m for m in sys.modules if m.startswith('sabacc'))\n"
        "env = gymnasium.make('sabacc.apps.gym_plugin:sabacc/Kessel-v1', opponents=['random'])\n"
        "obs, info = env.reset(seed=3)\n"
        "ids = sorted(i for i in gymnasium.registry if i.startswith('sabacc/'))\n"
        "print(json.dumps({'before': before, 'ids': ids, 'mask': int(obs['action_mask'].sum()),"
        " 'type': type(env.unwrapped).__name__}))\n"
    )
    assert found["before"] == []
    assert found["ids"] == sorted(gym_plugin.ENV_IDS.values())
    assert found["type"] == "SabaccGymEnv" and found["mask"] >= 1


def test_the_entry_point_registers_every_id_without_loading_the_environments() -> None:
    """What Gymnasium before 1.0 does with the ``gymnasium.envs`` entry point at its import:
    load the named function and call it. Registering imports neither PettingZoo nor the
    environment's module, so a Gymnasium without the rest of the rl extra loads it fine."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        points = tomllib.load(f)["project"]["entry-points"]["gymnasium.envs"]
    assert list(points) == ["__root__"]  # no namespace: the ids carry theirs ("sabacc/")
    module, _, function = points["__root__"].partition(":")
    found = _fresh(
        "import importlib, json, sys, gymnasium\n"
        f"getattr(importlib.import_module({module!r}), {function!r})()\n"
        "heavy = sorted(m for m in ('pettingzoo', 'sabacc.apps.rl') if m in sys.modules)\n"
        "env = gymnasium.make('sabacc/Spike-v1', opponents=['heuristic'], num_players=3)\n"
        "obs, info = env.reset(seed=1)\n"
        "print(json.dumps({'heavy': heavy, 'seat': info['seat']}))\n"
    )
    assert found["heavy"] == [] and 0 <= found["seat"] < 3


def test_every_variant_has_an_id() -> None:
    assert set(gym_plugin.ENV_IDS) == set(VARIANTS)


# ---------------------------------------------------------------------- rewards
def _constructors() -> list[Any]:
    out: list[Any] = [sabacc.apps.rl.raw_env, sabacc.apps.rl.ParallelSabacc, SabaccGymEnv]
    out += [VectorEnv, ResearchGame]
    return out


@pytest.mark.parametrize("make", _constructors(), ids=lambda m: m.__name__)
def test_every_environment_takes_the_same_reward_keyword(make: Any) -> None:
    assert inspect.signature(make).parameters["reward"].default == "net"
    with pytest.raises(OptionError, match="reward='zerosum': must be one of net, zero_sum"):
        make(reward="zerosum")


def _hand_totals(variant: str, reward: str, seed: int) -> tuple[list[float], list[int]]:
    """One hand of the AEC environment with masked random actions: each seat's total reward,
    and each seat's hand net."""
    env = sabacc.apps.rl.env(variant, 3, reward=reward, engine="python")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, r, terminated, truncated, _ = env.last()
        totals[agent] += r
        env.step(
            None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
    core = env.unwrapped.core
    by_seat = [0.0] * 3
    for i, agent in enumerate(env.possible_agents):
        by_seat[core.seat_of(i)] = totals[agent]
    (net,) = core.hand_nets()
    return by_seat, list(net)


@pytest.mark.parametrize("variant", VARIANTS)
def test_zero_sum_rewards_are_the_nets_less_their_mean(variant: str) -> None:
    not_zero_sum = 0
    for seed in range(12):
        net_rewards, net = _hand_totals(variant, "net", seed)
        zero, again = _hand_totals(variant, "zero_sum", seed)
        assert again == net  # the same hand
        assert net_rewards == net
        mean = sum(net) / 3
        assert zero == pytest.approx([x - mean for x in net])
        assert sum(zero) == pytest.approx(0.0, abs=1e-9)
        not_zero_sum += sum(net) != 0
    if variant in ("corellian_spike", "kessel"):  # a carried sabacc pot, the house's take
        assert not_zero_sum, "the 'net' convention was zero-sum in every hand tried"


def test_parallel_environment_follows_the_convention() -> None:
    env = sabacc.apps.rl.parallel_env("corellian_spike", 3, reward="zero_sum")
    rng = np.random.default_rng(4)
    for seed in range(8):
        obs, _ = env.reset(seed=seed)
        total = 0.0
        while env.agents:
            actions = {
                a: int(rng.choice(np.flatnonzero(m))) if (m := obs[a]["action_mask"]).any() else 0
                for a in env.agents
            }
            obs, rewards, *_ = env.step(actions)
            total += sum(rewards.values())
        assert total == pytest.approx(0.0, abs=1e-9)


def test_gymnasium_learner_gets_its_net_less_the_mean() -> None:
    for seed in range(8):
        got = {}
        for reward in ("net", "zero_sum"):
            env = SabaccGymEnv("corellian_spike", ["random", "random"], reward=reward)
            obs, _ = env.reset(seed=seed)
            rng = np.random.default_rng(seed)
            total, done = 0.0, False
            while not done:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
                obs, r, done, _, _ = env.step(action)
                total += float(r)
            got[reward] = (total, env.core.hand_nets(), env.seat)
        (net_total, nets, seat), (zero_total, again, _) = got["net"], got["zero_sum"]
        assert nets == again
        assert net_total == nets[0][seat]
        assert zero_total == pytest.approx(nets[0][seat] - sum(nets[0]) / 3)


@pytest.mark.parametrize(
    "variant", [v for v in variant_names() if lookup(v).vector is not None and COMPILED]
)
def test_vector_rows_less_their_mean(variant: str) -> None:
    envs = {
        r: VectorEnv(variant, num_envs=64, num_players=3, reward=r) for r in ("net", "zero_sum")
    }
    for env in envs.values():
        env.reset(seeds=np.arange(64))
    rng = np.random.default_rng(0)
    paid = 0
    for _ in range(60):
        actions = envs["net"].sample(rng)
        _, net, *_ = envs["net"].step(actions)
        _, zero, *_ = envs["zero_sum"].step(actions)
        np.testing.assert_allclose(zero, net - net.mean(axis=1, keepdims=True), atol=1e-4)
        np.testing.assert_allclose(zero.sum(axis=1), 0.0, atol=1e-3)
        paid += int((net != 0).any(axis=1).sum())
    assert paid


def test_research_game_returns_follow_the_convention() -> None:
    import random

    for seed in range(6):
        returns = {}
        for reward in ("net", "zero_sum"):
            game = ResearchGame("kessel", 3, reward=reward)
            state = game.new_state()
            rng = random.Random(seed)
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_chance(rng.choices(outcomes, [float(p) for p in probs])[0])
                else:
                    state.apply_index(rng.choice(state.legal_indices()))
            returns[reward] = state.returns()
        net = returns["net"]
        assert returns["zero_sum"] == pytest.approx([x - sum(net) / 3 for x in net])
    assert ResearchGame("kessel", 3, reward="zero_sum").zero_sum
    assert not ResearchGame("kessel", 3).zero_sum


def test_openspiel_declares_the_convention() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import sabacc.apps.rl.openspiel  # noqa: F401  (registers the games)

    kessel = pyspiel.load_game("python_sabacc_kessel")
    assert kessel.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    zero = pyspiel.load_game("python_sabacc_kessel", {"reward": "zero_sum"})
    assert zero.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert zero.utility_sum() == 0.0
    pyspiel.random_sim_test(zero, num_sims=2, serialize=False, verbose=False)


def test_the_guide_gives_every_variants_observation_size() -> None:
    """docs/rl.md's formula for the observation length D = a + b*n, for all five variants."""
    text = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    short = {"corellian_spike": "Spike", "surabat_cycle": "Surabat", "classic": "classic"}
    short |= {"kessel": "Kessel", "coruscant_shift": "Coruscant"}
    for variant, name in short.items():
        sizes = [
            sabacc.apps.rl.env(variant, n).observation_space("player_0")["observation"].shape[0]
            for n in (2, 4)
        ]
        per_seat = (sizes[1] - sizes[0]) // 2
        assert f"{sizes[0] - 2 * per_seat} + {per_seat}n ({name}" in text, variant
