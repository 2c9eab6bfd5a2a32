"""A random agent in the Gymnasium environment, made by id with nothing of sabacc imported.

    python examples/gymnasium_random_agent.py --env sabacc/Kessel-v1 --episodes 100

The ``"module:id"`` form loads sabacc's ids (docs/rl.md); the agent picks uniformly among the
legal actions (the mask) against a heuristic bot, and the mean reward per hand is printed for
both reward conventions. Needs ``pip install ".[rl]"``.
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np


def main(argv: list[str] | None = None) -> dict[str, float]:
    """The mean reward of the random agent per convention."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--env", default="sabacc/Spike-v1", help="a sabacc Gymnasium id")
    parser.add_argument("--episodes", type=int, default=200, help="hands to play")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    means: dict[str, float] = {}
    for reward in ("net", "zero_sum"):
        env = gymnasium.make(
            f"sabacc.apps.gym_plugin:{args.env}", opponents=["heuristic"], reward=reward
        )
        rng = np.random.default_rng(args.seed)
        total = 0.0
        for episode in range(args.episodes):
            obs, _ = env.reset(seed=args.seed + episode)
            done = False
            while not done:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
                obs, r, terminated, truncated, _ = env.step(action)
                total += float(r)
                done = terminated or truncated
        means[reward] = total / args.episodes
        print(f"{args.env} reward={reward}: {means[reward]:+.3f} credits per hand")
    return means


if __name__ == "__main__":
    main()
