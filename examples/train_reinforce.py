"""Train a small Corellian Spike agent with REINFORCE, then evaluate it with ``sabacc simulate``.

The agent is a softmax-linear policy over the masked action table
(:class:`sabacc.apps.rl.LinearPolicy`, plain NumPy). It learns heads-up, one hand per episode, in
the single-agent Gymnasium environment (:class:`sabacc.apps.rl.SabaccGymEnv`), against the
``random`` and ``heuristic`` bots in turn. Its reward is the credits it won or lost in the hand.

Then the trained policy is registered as the bot ``reinforce`` and evaluated with the
tournament machinery of ``sabacc simulate`` (:mod:`sabacc.services.sim`: duplicate deals, seeded,
on a
process pool) against ``random`` and ``heuristic``, next to the untrained policy (which picks
uniformly among the legal indices).

    python examples/train_reinforce.py                      # defaults: a few minutes, 2 cores
    python examples/train_reinforce.py --episodes 500 --eval-hands 200   # a quick look

Needs ``pip install "sabacc[rl]"``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import numpy as np

from sabacc.apps.rl import LinearPolicy, SabaccGymEnv
from sabacc.apps.rl.policy import PolicyBots, policy_backend
from sabacc.services.sim import SimResult, SimSpec, simulate

OPPONENTS = ("random", "heuristic")


def train(
    variant: str,
    episodes: int,
    *,
    seed: int,
    lr: float,
    batch: int,
    entropy: float,
    quiet: bool = False,
) -> LinearPolicy:
    """REINFORCE: returns standardised within each batch of episodes, Adam steps, a small
    entropy bonus (so the policy does not collapse onto one action too early)."""
    envs = {name: SabaccGymEnv(variant, opponents=[name]) for name in OPPONENTS}
    first = envs[OPPONENTS[0]]
    n_features = first.observation_space["observation"].shape[0]
    policy = LinearPolicy(
        n_features,
        int(first.action_space.n),
        meta={"variant": first.core.variant, "options": {}, "bet_sizes": None},
    )
    rng = np.random.default_rng(seed)
    m = np.zeros_like(policy.w)  # Adam moments
    v = np.zeros_like(policy.w)
    step = 0
    episodes_done: list[tuple[float, list[tuple[Any, Any, int]]]] = []
    recent: list[float] = []
    start = time.perf_counter()
    for episode in range(episodes):
        env = envs[OPPONENTS[episode % len(OPPONENTS)]]
        obs, _ = env.reset(seed=seed * 1_000_003 + episode)
        trajectory: list[tuple[Any, Any, int]] = []
        total = 0.0
        done = False
        while not done:
            x, mask = obs["observation"], obs["action_mask"]
            action = policy.act(x, mask, rng)
            trajectory.append((x, mask, action))
            obs, reward, done, _, _ = env.step(action)
            total += float(reward)
        episodes_done.append((total, trajectory))
        recent.append(total)
        if len(episodes_done) == batch:
            returns = np.array([r for r, _ in episodes_done])
            adv = (returns - returns.mean()) / (returns.std() + 1e-8)
            grad = np.zeros_like(policy.w)
            for a, (_, traj) in zip(adv, episodes_done, strict=True):
                for x, mask, action in traj:
                    grad += a * policy.grad_log_prob(x, mask, action)
                    if entropy:
                        grad += entropy * policy.grad_entropy(x, mask)
            grad /= batch
            step += 1
            m = 0.9 * m + 0.1 * grad
            v = 0.999 * v + 0.001 * grad * grad
            policy.w += lr * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
            episodes_done = []
        if not quiet and (episode + 1) % max(1, episodes // 10) == 0:
            mean = sum(recent) / len(recent)
            print(
                f"  episode {episode + 1:>6}: {mean:+7.3f} credits/hand over the last "
                f"{len(recent)} ({time.perf_counter() - start:.0f}s)"
            )
            recent = []
    return policy


def evaluate(
    variant: str, bot: str, hands: int, seed: int, workers: int, bots: PolicyBots
) -> dict[str, SimResult]:
    """Heads-up tournaments of ``bot`` against each opponent (``sabacc simulate`` machinery:
    duplicate deals, seeded; the workers register the policy bots first)."""
    backend = policy_backend(workers, bots)
    return {
        opponent: simulate(SimSpec(variant, (bot, opponent), hands, seed), workers, backend=backend)
        for opponent in OPPONENTS
    }


def report(title: str, results: dict[str, SimResult], bot: str) -> dict[str, float]:
    print(title)
    out = {}
    for opponent, result in results.items():
        stats = {s.name: s for s in result.stats()}[bot]
        lo, hi = stats.ci95
        out[opponent] = stats.per_hand
        print(
            f"  vs {opponent:<9} {stats.per_hand:+7.3f} credits/hand  95% CI [{lo:+.3f}, {hi:+.3f}]"
            f"  win rate {stats.win_rate:.1%}  ({result.hands} hands)"
        )
    return out


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="corellian_spike")
    parser.add_argument("--episodes", type=int, default=20_000, help="training hands")
    parser.add_argument("--eval-hands", type=int, default=3_000, help="hands per evaluation")
    parser.add_argument("--workers", type=int, default=2, help="evaluation processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lr", type=float, default=0.01, help="Adam step size")
    parser.add_argument("--batch", type=int, default=64, help="episodes per update")
    parser.add_argument("--entropy", type=float, default=0.01, help="entropy bonus")
    parser.add_argument("--out", type=Path, default=Path("artifacts/reinforce_policy.npz"))
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)

    print(f"training on {args.variant} for {args.episodes} hands, vs {' and '.join(OPPONENTS)}")
    start = time.perf_counter()
    policy = train(
        args.variant,
        args.episodes,
        seed=args.seed,
        lr=args.lr,
        batch=args.batch,
        entropy=args.entropy,
        quiet=args.quiet,
    )
    print(f"trained in {time.perf_counter() - start:.0f}s")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    policy.save(args.out)
    untrained = LinearPolicy(policy.n_features, policy.n_actions, meta=policy.meta)
    untrained_path = args.out.with_name(args.out.stem + "_untrained.npz")
    untrained.save(untrained_path)
    # Sampling (greedy=False) keeps the untrained policy uniform; the trained one plays its
    # most likely action.
    bots = PolicyBots(
        (("reinforce", str(args.out), True), ("untrained", str(untrained_path), False))
    )
    bots()

    start = time.perf_counter()
    summary = {
        "untrained": report(
            "untrained policy (uniform over legal indices):",
            evaluate(args.variant, "untrained", args.eval_hands, args.seed, args.workers, bots),
            "untrained",
        ),
        "trained": report(
            "trained policy (greedy):",
            evaluate(args.variant, "reinforce", args.eval_hands, args.seed, args.workers, bots),
            "reinforce",
        ),
    }
    print(f"evaluated in {time.perf_counter() - start:.0f}s; policy saved to {args.out}")
    return summary


if __name__ == "__main__":
    main()
