"""Research environments: PettingZoo (AEC and parallel) and Gymnasium, for every variant.

Needs the ``rl`` extra (``pip install "sabacc[rl]"``: PettingZoo, Gymnasium, NumPy).

>>> import sabacc.apps.rl
>>> env = sabacc.apps.rl.env("corellian_spike", num_players=4)
>>> env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape == env.observation_space(env.agent_selection)["observation"].shape
True

* :func:`env` / :class:`raw_env`: the turn-based PettingZoo environment, one agent per seat.
* :func:`parallel_env`: its parallel form.
* :class:`SabaccGymEnv`: one learning seat against sabacc bots (Gymnasium).
* :class:`ActionTable` (index <-> action) and :class:`ObservationEncoder` (the vector).
* :class:`LinearPolicyBot`: a softmax-linear policy over the table, usable as a sabacc bot.

Corellian Spike runs on the compiled core when it is built (``engine="auto"``, the default;
``engine="python"`` for the reference engine): the same episodes, several times faster.

See docs/rl.md.
"""

from sabacc.apps.rl.actions import ActionTable, default_bet_sizes
from sabacc.apps.rl.core import TableCore
from sabacc.apps.rl.features import ObservationEncoder
from sabacc.apps.rl.gym_env import SabaccGymEnv
from sabacc.apps.rl.policy import LinearPolicy, LinearPolicyBot
from sabacc.apps.rl.pz import ParallelSabacc, env, parallel_env, raw_env

__all__ = [
    "ActionTable",
    "LinearPolicy",
    "LinearPolicyBot",
    "ObservationEncoder",
    "ParallelSabacc",
    "SabaccGymEnv",
    "TableCore",
    "default_bet_sizes",
    "env",
    "parallel_env",
    "raw_env",
]
