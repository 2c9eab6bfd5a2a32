"""The softmax-linear policy, its bot, and policy bots in the tournament machinery."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sabacc.apps.rl import LinearPolicy, LinearPolicyBot, TableCore
from sabacc.apps.rl.policy import PolicyBots, policy_backend
from sabacc.services.bots import make_bot
from sabacc.services.sim import SimSpec, simulate


def test_probabilities_respect_the_mask_and_gradients_are_right() -> None:
    rng = np.random.default_rng(0)
    policy = LinearPolicy(5, 4, weights=rng.normal(size=(4, 6)))
    x = rng.normal(size=5)
    mask = np.array([1, 0, 1, 1], dtype=np.int8)
    p = policy.probs(x, mask)
    assert p[1] == 0 and abs(p.sum() - 1) < 1e-12
    assert policy.act(x, mask) == int(np.argmax(p))
    # Finite differences for d log pi(a) / dW and d H / dW.
    g = policy.grad_log_prob(x, mask, 2)
    ge = policy.grad_entropy(x, mask)
    eps = 1e-6
    for i, j in [(0, 0), (2, 3), (3, 5)]:
        w = policy.w.copy()
        policy.w[i, j] += eps
        p2 = policy.probs(x, mask)
        policy.w = w
        assert abs((np.log(p2[2]) - np.log(p[2])) / eps - g[i, j]) < 1e-4
        h = -(p[mask == 1] * np.log(p[mask == 1])).sum()
        h2 = -(p2[mask == 1] * np.log(p2[mask == 1])).sum()
        assert abs((h2 - h) / eps - ge[i, j]) < 1e-4
    with pytest.raises(ValueError, match="legal"):
        policy.probs(x, np.zeros(4, dtype=np.int8))


def test_save_load_and_play_as_a_bot(tmp_path: Path) -> None:
    core = TableCore("surabat_cycle", 3)
    rng = np.random.default_rng(1)
    policy = LinearPolicy(
        core.encoder.size,
        core.table.n,
        weights=rng.normal(size=(core.table.n, core.encoder.size + 1)),
        meta={"variant": "surabat_cycle"},
    )
    path = tmp_path / "p.npz"
    policy.save(path)
    loaded = LinearPolicy.load(path)
    np.testing.assert_array_equal(loaded.w, policy.w)
    assert loaded.meta == {"variant": "surabat_cycle"}
    bot = LinearPolicyBot(loaded, seed=3)
    core.reset(2)
    for _ in range(60):  # the bot picks what the policy picks on the env's own vector
        if core.over:
            core.reset(int(rng.integers(1000)))
        game = core.game
        seat = core.current_seat()
        assert seat is not None
        action = bot.act(game.observation(seat), game.legal_actions())
        index = policy.act(core.observe(seat), core.mask(seat))
        assert action == core.to_action(index)
        game.apply(action)


def test_policy_bots_in_a_process_pool_tournament(tmp_path: Path) -> None:
    core = TableCore("classic", 2)
    path = tmp_path / "zero.npz"
    LinearPolicy(core.encoder.size, core.table.n, meta={"variant": "classic"}).save(path)
    bots = PolicyBots((("zeropolicy", str(path), False),))
    bots()
    assert make_bot("zeropolicy", 1).name == "zeropolicy"
    spec = SimSpec("classic", ("zeropolicy", "random"), 12, 3, chunk_deals=2)
    pool = simulate(spec, 2, backend=policy_backend(2, bots))
    serial = simulate(spec, 1, backend=policy_backend(1, bots))
    assert pool.totals() == serial.totals()
    assert pool.hands == 12
