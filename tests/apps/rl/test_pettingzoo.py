"""The PettingZoo environments pass PettingZoo's own tests, for every variant, and pay the
documented rewards."""

from __future__ import annotations

import functools
import types
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test

import sabacc.apps.rl
from sabacc.core.errors import IllegalActionError, OptionError
from tests.apps.rl.conftest import VARIANT_ENGINES, needs_compiled


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # api_test warns that a Dict observation is "not a NumPy array": the PettingZoo classic
    # convention ({"observation", "action_mask"}) it only exempts for its own env names.
    warnings.filterwarnings("ignore", module="pettingzoo.test.api_test")


@pytest.mark.parametrize(("variant", "engine"), VARIANT_ENGINES)
@pytest.mark.parametrize("players", [2, 4])
def test_api_test(variant: str, engine: str, players: int) -> None:
    api_test(sabacc.apps.rl.env(variant, players, engine=engine), num_cycles=200)


@pytest.mark.parametrize(("variant", "engine"), VARIANT_ENGINES)
def test_api_test_game_episodes(variant: str, engine: str) -> None:
    env = sabacc.apps.rl.env(variant, 3, episode="game", game_end="hands:3", engine=engine)
    api_test(env, num_cycles=200)


@pytest.mark.parametrize(("variant", "engine"), VARIANT_ENGINES)
def test_seed_test(variant: str, engine: str) -> None:
    seed_test(functools.partial(sabacc.apps.rl.env, variant, 4, engine=engine), num_cycles=200)


@pytest.mark.parametrize(("variant", "engine"), VARIANT_ENGINES)
def test_parallel_api_test(variant: str, engine: str) -> None:
    parallel_api_test(sabacc.apps.rl.parallel_env(variant, 4, engine=engine), num_cycles=200)


@pytest.mark.parametrize(("variant", "engine"), VARIANT_ENGINES)
def test_max_cycles_test(variant: str, engine: str) -> None:
    """PettingZoo's test samples actions *without* the mask and wants every agent to take
    exactly ``max_cycles`` steps: whole-game episodes at a 4-seat table (a hand can end before
    every agent has acted 4 times, a game cannot). Repeated: actions are unseeded. Unmasked
    actions are mostly illegal, which would end the episode at once under the default
    ``illegal_action="terminate"``: this test plays them as the passive action. Coruscant Shift
    plays fixed betting here: its hands are four decisions per agent, and an unmasked all-in
    that every passive fallback calls can end a no-limit game within them. Kessel plays with 10
    chips and no early end here, so no one can be eliminated before every agent has had its
    steps."""
    kw: dict[str, Any] = {"episode": "game", "engine": engine, "illegal_action": "fallback"}
    if variant == "coruscant_shift":
        kw["betting"] = "fixed"
    if variant == "kessel":  # 10 chips and full rounds: no one can be out before 4 steps each
        kw.update(chips=10, early_end=False)
    mod = types.SimpleNamespace(
        env=functools.partial(sabacc.apps.rl.env, variant, 4, **kw),
        parallel_env=functools.partial(sabacc.apps.rl.parallel_env, variant, 4, **kw),
    )
    for _ in range(20):
        max_cycles_test(mod)


def _play(env: sabacc.apps.rl.raw_env, rng: np.random.Generator) -> dict[str, float]:
    """Play masked random actions to the end; returns each agent's total reward."""
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


@pytest.mark.parametrize(("variant", "engine"), VARIANT_ENGINES)
def test_hand_rewards_are_the_hand_net(variant: str, engine: str) -> None:
    env = sabacc.apps.rl.env(variant, 3, engine=engine)
    rng = np.random.default_rng(1)
    for seed in range(20):
        env.reset(seed=seed)
        core = env.unwrapped.core
        totals = _play(env, rng)
        if engine == "python":
            (result,) = core.game.hand_results
            net = result.net
        else:  # the compiled core keeps (hand, dealer, reason, net) per hand
            ((_hand, _dealer, _reason, net),) = core.game.hand_nets
        assert core.hand_nets() == [net]
        for i, agent in enumerate(env.possible_agents):
            assert totals[agent] == net[core.seat_of(i)]


@pytest.mark.parametrize(("variant", "engine"), VARIANT_ENGINES)
def test_game_rewards_add_up_to_the_payoffs(variant: str, engine: str) -> None:
    env = sabacc.apps.rl.env(variant, 3, episode="game", game_end="hands:4", engine=engine)
    rng = np.random.default_rng(2)
    for seed in range(5):
        env.reset(seed=seed)
        core = env.unwrapped.core
        totals = _play(env, rng)
        assert core.game.is_over
        payoffs = core.game.payoffs
        for i, agent in enumerate(env.possible_agents):
            assert totals[agent] == payoffs[core.seat_of(i)]


def test_reset_seed_replays_and_rotates_seats() -> None:
    env = sabacc.apps.rl.env("corellian_spike", 4)
    shifts = set()
    for seed in range(12):
        env.reset(seed=seed)
        first = env.observe(env.agent_selection)["observation"].copy()
        shifts.add(env.unwrapped.core.shift)
        env.reset(seed=seed)
        np.testing.assert_array_equal(first, env.observe(env.agent_selection)["observation"])
    assert len(shifts) > 1
    env = sabacc.apps.rl.env("corellian_spike", 4, rotate_seats=False)
    env.reset(seed=3)
    assert env.unwrapped.core.shift == 0


def test_illegal_index_terminates_by_default() -> None:
    """PettingZoo's convention (TerminateIllegalWrapper): the offender gets the penalty, every
    agent is terminated, the offender's info says ``illegal_move``; then only dead steps."""
    env = sabacc.apps.rl.env("corellian_spike", 3, illegal_reward=-2.5)
    env.reset(seed=0)
    offender = env.agent_selection
    obs = env.observe(offender)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    actions_before = len(env.unwrapped.core.game.actions)
    env.step(illegal)
    assert len(env.unwrapped.core.game.actions) == actions_before  # nothing was played
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.infos[offender]["illegal_move"] is True
    rewards: dict[str, float] = {}
    for agent in env.agent_iter():
        _, reward, terminated, _, _ = env.last()
        assert terminated
        rewards[agent] = reward
        env.step(None)
    assert rewards[offender] == -2.5
    assert all(r == 0.0 for a, r in rewards.items() if a != offender)
    assert env.agents == []
    # Out of range is illegal too.
    env.reset(seed=0)
    env.step(10_000)
    assert all(env.terminations.values())


def test_parallel_illegal_index_terminates() -> None:
    env = sabacc.apps.rl.parallel_env("classic", 2)
    obs, _ = env.reset(seed=1)
    agent = next(a for a in env.agents if obs[a]["action_mask"].any())
    illegal = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
    _, rewards, terminations, truncations, infos = env.step({agent: illegal})
    assert rewards[agent] == -1.0 and all(r == 0 for a, r in rewards.items() if a != agent)
    assert all(terminations.values()) and not any(truncations.values())
    assert infos[agent] == {"illegal_move": True} and env.agents == []


def test_illegal_index_falls_back_or_raises() -> None:
    env = sabacc.apps.rl.env("corellian_spike", 2, illegal_action="fallback")
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    core = env.unwrapped.core
    env.step(illegal)  # played as the passive action: stand
    assert core.illegal_count == 1
    assert core.game.actions[-1][1] == "stand"
    assert not any(env.terminations.values())
    strict = sabacc.apps.rl.env("corellian_spike", 2, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError, match="not legal"):
        strict.step(illegal)
    with pytest.raises(ValueError, match="None"):
        strict.step(None)
    with pytest.raises(OptionError, match="illegal_action"):
        sabacc.apps.rl.env("corellian_spike", 2, illegal_action="ignore")


@pytest.mark.parametrize(
    ("variant", "name"),
    [
        ("spike", "sabacc_spike_v1"),
        ("surabat", "sabacc_surabat_v1"),
        ("classic", "sabacc_classic_v1"),
        ("coruscant", "sabacc_coruscant_v1"),
    ],
)
def test_versioned_names(variant: str, name: str) -> None:
    env = sabacc.apps.rl.env(variant, 2)
    assert env.metadata["name"] == name == str(env.unwrapped)
    assert sabacc.apps.rl.parallel_env(variant, 2).metadata["name"] == name


def test_max_cycles_caps_each_agent() -> None:
    env = sabacc.apps.rl.env("corellian_spike", 3, max_cycles=2)
    env.reset(seed=4)
    counts = dict.fromkeys(env.possible_agents, 0)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        counts[agent] += 1
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert max(counts.values()) <= 2


def test_bad_options_are_refused() -> None:
    with pytest.raises(OptionError):
        sabacc.apps.rl.env("corellian_spike", 9)
    with pytest.raises(OptionError):
        sabacc.apps.rl.env("corellian_spike", 4, episode="season")
    with pytest.raises(OptionError):
        sabacc.apps.rl.env("corellian_spike", 4, bet_sizes=[])
    with pytest.raises(OptionError):
        sabacc.apps.rl.env("corellian_spike", 4, rounds=0)


@pytest.mark.parametrize("engine", ["python", pytest.param("compiled", marks=needs_compiled)])
def test_render_ansi_shows_no_hidden_card(engine: str) -> None:
    env = sabacc.apps.rl.env("corellian_spike", 2, render_mode="ansi", engine=engine)
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "player_" in text
    game = env.unwrapped.core.game
    for seat, hand in enumerate(game.hands):
        for card in hand:  # codes like +4t are unique in the deck (the Sylop, 0, is not)
            if card.id not in game.public_ids[seat] and card.code != "0":
                assert card.code not in text
