"""Gymnasium ids for sabacc's single-agent environment, registered without importing it.

``register_envs()`` registers ``sabacc/<Name>-v1`` for every variant with an RL feature spec
(``sabacc/Spike-v1``, ``sabacc/Kessel-v1``...) by their entry-point strings: only Gymnasium is
imported here, never PettingZoo, NumPy or the environment's module, which ``gymnasium.make``
loads when it builds one. It runs:

* on importing this module, so ``gymnasium.make("sabacc.apps.gym_plugin:sabacc/Spike-v1")``
  works in a fresh interpreter with nothing of sabacc imported first (Gymnasium's
  ``"module:id"`` form, every Gymnasium version);
* from the package's ``gymnasium.envs`` entry point, which Gymnasium before 1.0 loads at its own
  import: there ``gymnasium.make("sabacc/Spike-v1")`` needs no module name either (Gymnasium
  1.0 stopped loading plugins);
* on importing :mod:`sabacc.apps.rl`.
"""

from __future__ import annotations

from sabacc.variants.registry import lookup, rl_env_name, variant_names

#: The environments' version, in their names (``sabacc_spike_v1``, ``sabacc/Spike-v1``).
ENV_VERSION = 1
#: What ``gymnasium.make`` builds for every id.
ENTRY_POINT = "sabacc.apps.rl.gym_env:SabaccGymEnv"


def env_id(variant: str) -> str:
    """The Gymnasium id of ``variant``'s environment: ``sabacc/Spike-v1``."""
    return f"sabacc/{rl_env_name(lookup(variant)).capitalize()}-v{ENV_VERSION}"


#: Gymnasium ids by variant (every variant with an RL feature spec).
ENV_IDS = {name: env_id(name) for name in variant_names() if lookup(name).rl_spec is not None}


def register_envs() -> None:
    """Register :data:`ENV_IDS` with Gymnasium (idempotent)."""
    import gymnasium

    for variant, name in ENV_IDS.items():
        if name not in gymnasium.registry:
            gymnasium.register(name, entry_point=ENTRY_POINT, kwargs={"variant": variant})


register_envs()
