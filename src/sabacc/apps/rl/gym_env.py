"""A single-agent Gymnasium environment: one seat learns, sabacc bots play the others.

>>> from sabacc.apps.rl import SabaccGymEnv
>>> env = SabaccGymEnv("corellian_spike", opponents=["heuristic", "random"])
>>> obs, info = env.reset(seed=1)
>>> sorted(obs)
['action_mask', 'observation']

Spaces, action table, observation vector, episodes and rewards are those of the PettingZoo
environment (:mod:`sabacc.apps.rl.pz`): an episode is a hand (or a game, ``episode="game"``), the
reward is the learner's credits won or lost, given when each hand ends (``reward="zero_sum"``:
less the table's mean, see :mod:`sabacc.apps.rl.core`). The learner is agent
``player_0``; seats rotate from episode to episode. Opponents are bot names for
:func:`sabacc.services.bots.make_bot` (re-seeded from the episode seed at every reset) or bot
objects;
``num_players`` defaults to one more than the opponents, and the opponent list is cycled to
fill the table. ``info["action_mask"]`` repeats the mask, and ``info["seat"]`` is the learner's
seat this episode.

``engine=`` is that of the PettingZoo environment: ``"auto"`` (default) plays Corellian Spike on
the compiled core when it is built (:func:`sabacc.variants.compiled.resolve_engine`), ``"python"``
on the
reference engine, ``"compiled"`` insists on the core. The bots read the game through
``observation()`` and ``legal_actions()`` (search bots also sample worlds through
``determinize()``), which both engines give alike: for the same seeds the episodes
(observations, rewards, terminations, the bots' moves) are identical on both engines.

An illegal learner action ends the episode by default (``illegal_action="terminate"``, the
PettingZoo environments' convention): ``terminated`` is True, the reward is ``illegal_reward``
(default -1.0) and ``info["illegal_move"]`` is True; ``"fallback"`` plays the passive action
instead, ``"raise"`` raises :class:`~sabacc.IllegalActionError`.

One id per variant is registered with Gymnasium, named from the variant's RL feature spec:
``sabacc/Spike-v1``, ``sabacc/Kessel-v1``, ``sabacc/Surabat-v1``, ``sabacc/Coruscant-v1``,
``sabacc/Classic-v1`` (:data:`ENV_IDS`), by :mod:`sabacc.apps.gym_plugin`, without importing
sabacc first: ``gymnasium.make("sabacc.apps.gym_plugin:sabacc/Spike-v1",
opponents=["heuristic"])`` (or, once :mod:`sabacc.apps.rl` is imported, or with a Gymnasium
before 1.0 that loads the package's entry point, ``gymnasium.make("sabacc/Spike-v1")``). (The v0
ids, which fell back on illegal actions, are gone.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from sabacc.apps import gym_plugin
from sabacc.apps.rl.actions import BetSize
from sabacc.apps.rl.core import IllegalIndexError, TableCore
from sabacc.apps.rl.pz import RENDER_MODES, _spaces, render
from sabacc.core.errors import OptionError
from sabacc.services.bots import Bot, decide, make_bot
from sabacc.variants.registry import DEFAULT_VARIANT


class SabaccGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One learning seat against bots. See the module docstring."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        variant: str = DEFAULT_VARIANT,
        opponents: Sequence[str | Bot] = ("heuristic",),
        num_players: int | None = None,
        *,
        episode: str = "hand",
        bet_sizes: Sequence[BetSize] | None = None,
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
        rotate_seats: bool = True,
        render_mode: str | None = None,
        engine: str = "auto",
        reward: str = "net",
        **options: Any,
    ) -> None:
        if not opponents:
            raise OptionError("opponents: give at least one bot")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise OptionError(f"render_mode={render_mode!r}: must be one of {RENDER_MODES}")
        n = num_players if num_players is not None else 1 + len(opponents)
        self.core = TableCore(
            variant,
            n,
            episode=episode,
            bet_sizes=bet_sizes,
            illegal_action=illegal_action,
            rotate_seats=rotate_seats,
            engine=engine,
            reward=reward,
            **options,
        )
        self.opponent_specs: list[str | Bot] = [opponents[i % len(opponents)] for i in range(n - 1)]
        for spec in self.opponent_specs:
            if isinstance(spec, str):
                make_bot(spec, 0, self.core.info)  # fail early on an unknown name
        self.observation_space, self.action_space = _spaces(self.core)
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.bots: list[Bot] = []
        self._ended_illegally = False

    @property
    def seat(self) -> int:
        """The learner's seat this episode."""
        return self.core.seat_of(0)

    @property
    def action_table(self) -> list[str]:
        return list(self.core.table.labels)

    def _obs(self) -> dict[str, Any]:
        seat = self.seat
        return {"observation": self.core.observe(seat), "action_mask": self.core.mask(seat)}

    def _info(self, obs: dict[str, Any]) -> dict[str, Any]:
        return {"action_mask": obs["action_mask"], "seat": self.seat}

    def _done(self) -> bool:
        core = self.core
        return (
            self._ended_illegally or core.over or (core.episode == "game" and core.out(self.seat))
        )

    def _play_opponents(self) -> float:
        """Let the bots act until the learner must act or the episode ends; its reward."""
        core = self.core
        me = self.seat
        reward = 0.0
        while not self._done():
            seat = core.current_seat()
            assert seat is not None
            if seat == me:
                break
            bot = self.bots[core.agent_of(seat) - 1]
            reward += core.apply(decide(bot, core.game, seat))[me]
        return reward

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        self._ended_illegally = False
        rng = self.np_random
        self.core.reset(int(rng.integers(2**62)))
        self.bots = [
            make_bot(spec, int(rng.integers(2**62)), self.core.info)
            if isinstance(spec, str)
            else spec
            for spec in self.opponent_specs
        ]
        self._play_opponents()
        obs = self._obs()
        return obs, self._info(obs)

    def step(self, action: Any) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        if self._done():
            raise RuntimeError("the episode is over: call reset()")
        core = self.core
        me = self.seat
        try:
            reward = core.apply_index(int(action))[me]
        except IllegalIndexError:  # illegal_action="terminate": the episode ends here
            self._ended_illegally = True
            obs = self._obs()
            return obs, self.illegal_reward, True, False, {**self._info(obs), "illegal_move": True}
        reward += self._play_opponents()
        obs = self._obs()
        if self.render_mode == "human":
            self.render()
        return obs, float(reward), self._done(), False, self._info(obs)

    def render(self) -> str | None:
        return render(self.core, self.render_mode)


#: Gymnasium ids registered by :func:`register_envs`, by variant.
ENV_IDS = gym_plugin.ENV_IDS
register_envs = gym_plugin.register_envs
