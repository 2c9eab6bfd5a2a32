"""PettingZoo environments: the turn-based :class:`raw_env` (AEC) and :class:`ParallelSabacc`.

Agents are ``player_0`` .. ``player_{n-1}``, one per seat (see :mod:`sabacc.apps.rl.core` for the
seating, the episodes and the rewards). Every agent has the same spaces::

    observation_space = Dict({"observation": Box(float32, (D,)), "action_mask": Box(int8, (A,))})
    action_space = Discrete(A)

``D`` and the layout of the vector: :mod:`sabacc.apps.rl.features`; ``A`` and the index <-> action
table: :mod:`sabacc.apps.rl.actions`. The mask is all zeros for an agent that is not to act.

``max_cycles`` (default ``None``: no limit) caps the decisions of each agent: an agent that
has made ``max_cycles`` decisions is truncated, and from then on the environment plays its
seat itself with the passive action (stand, check or call) until the episode ends, which is
when the hand or game ends or every agent has been truncated. In :class:`ParallelSabacc` an
agent takes a step at every parallel step, so there ``max_cycles`` caps the parallel steps.

``engine`` (``"auto"``, the default, ``"python"`` or ``"compiled"``) chooses the game engine:
``"auto"`` plays a variant with a compiled core (:mod:`sabacc.variants.compiled`) on it when it is
built
and everything else on the reference engine; both give identical episodes for the same seeds
(see :mod:`sabacc.apps.rl.core`).

An illegal index (one whose mask entry is 0, or out of range) follows PettingZoo's convention
by default (``illegal_action="terminate"``, what ``pettingzoo.utils.wrappers.
TerminateIllegalWrapper`` does): the episode ends at once, every agent is terminated, the
offender gets ``illegal_reward`` (default -1.0) and everybody else 0 for that step, and the
offender's info has ``"illegal_move": True`` (the hand in play is abandoned: its credits are
not paid out as rewards). ``illegal_action="fallback"`` plays the passive action instead
(``env.unwrapped.core.illegal_count`` counts them) and ``illegal_action="raise"`` raises
:class:`~sabacc.IllegalActionError`.

Names are versioned per variant: ``metadata["name"]`` is ``sabacc_<short>_v1``, e.g.
``sabacc_spike_v1`` or ``sabacc_kessel_v1`` (the short name comes from the variant's RL
feature spec); v1 is the first version with the terminating default.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]

from sabacc.apps.gym_plugin import ENV_VERSION
from sabacc.apps.rl.actions import BetSize
from sabacc.apps.rl.core import IllegalIndexError, TableCore
from sabacc.core.errors import OptionError
from sabacc.variants.registry import DEFAULT_VARIANT

RENDER_MODES = ("ansi", "human")


def _spaces(core: TableCore) -> tuple[spaces.Dict, spaces.Discrete]:
    enc = core.encoder
    obs = spaces.Dict(
        {
            "observation": spaces.Box(enc.low, enc.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (core.table.n,), dtype=np.int8),
        }
    )
    return obs, spaces.Discrete(core.table.n)


def render(core: TableCore, mode: str | None) -> str | None:
    """What ``env.render()`` gives in ``mode``: the text (``"ansi"``), printed (``"human"``,
    returns None) or nothing (None)."""
    if mode is None:
        return None
    text = render_text(core)
    if mode == "human":
        print(text)
        return None
    return text


def render_text(core: TableCore) -> str:
    """A spectator's view of the table (no hidden card): for ``render_mode="ansi"``."""
    game = core.game
    obs = game.observation(None)
    pots = obs["pots"]
    lines = [
        f"{game.info.title} - hand {obs['hand']}, phase {obs['phase']}, "
        f"main pot {pots['main']}, sabacc pot {pots['sabacc']}"
    ]
    for s in obs["seats"]:
        agent = f"player_{core.agent_of(s['seat'])}"
        mark = ">" if s["seat"] == game.current_player else " "
        known = " ".join(s["known_cards"]) or "-"
        lines.append(
            f"{mark} {agent:<9} seat {s['seat']} stack {s['stack']:>5} bet {s['round_bet']:>4} "
            f"cards {s['cards']} (known {known}) {s['status']} last {s['last_action'] or '-'}"
        )
    return "\n".join(lines)


class _TableEnv:
    """What the AEC and parallel environments share: the checks of their common keywords, the
    :class:`TableCore`, the agents and their spaces."""

    core: TableCore
    metadata: dict[str, Any]
    illegal_reward: float
    render_mode: str | None
    max_cycles: int | None
    possible_agents: list[str]
    agent_name_mapping: dict[str, int]
    observation_spaces: dict[str, spaces.Dict]
    action_spaces: dict[str, spaces.Discrete]

    def _setup_table(
        self,
        variant: str,
        num_players: int,
        *,
        episode: str,
        max_cycles: int | None,
        bet_sizes: Sequence[BetSize] | None,
        illegal_action: str,
        illegal_reward: float,
        rotate_seats: bool,
        render_mode: str | None,
        engine: str,
        reward: str,
        options: dict[str, Any],
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise OptionError(f"render_mode={render_mode!r}: must be one of {RENDER_MODES}")
        if max_cycles is not None and max_cycles < 1:
            raise OptionError("max_cycles must be at least 1 (or None)")
        self.core = TableCore(
            variant,
            num_players,
            episode=episode,
            bet_sizes=bet_sizes,
            illegal_action=illegal_action,
            rotate_seats=rotate_seats,
            engine=engine,
            reward=reward,
            **options,
        )
        self.metadata = {**self.metadata, "name": f"sabacc_{self.core.env_name}_v{ENV_VERSION}"}
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {}
        self.action_spaces = {}
        for a in self.possible_agents:
            self.observation_spaces[a], self.action_spaces[a] = _spaces(self.core)

    def render(self) -> str | None:
        return render(self.core, self.render_mode)


class raw_env(_TableEnv, AECEnv):  # type: ignore[misc]  # (lower case: the PettingZoo convention)
    """The turn-based (AEC) Sabacc environment. See the module docstring."""

    metadata: dict[str, Any] = {  # noqa: RUF012  (per instance: its name)
        "name": f"sabacc_v{ENV_VERSION}",
        "render_modes": list(RENDER_MODES),
        "render_fps": 4,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str = DEFAULT_VARIANT,
        num_players: int = 4,
        *,
        episode: str = "hand",
        max_cycles: int | None = None,
        bet_sizes: Sequence[BetSize] | None = None,
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
        rotate_seats: bool = True,
        render_mode: str | None = None,
        engine: str = "auto",
        reward: str = "net",
        **options: Any,
    ) -> None:
        super().__init__()
        self._setup_table(
            variant,
            num_players,
            episode=episode,
            max_cycles=max_cycles,
            bet_sizes=bet_sizes,
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
            rotate_seats=rotate_seats,
            render_mode=render_mode,
            engine=engine,
            reward=reward,
            options=options,
        )
        n = num_players
        self._decisions = [0] * n
        self._capped = [False] * n
        self._rewarded = False
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    def __str__(self) -> str:
        return str(self.metadata["name"])

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    @property
    def action_table(self) -> list[str]:
        """The label of every action index."""
        return list(self.core.table.labels)

    # ------------------------------------------------------------------ protocol
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.core.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._decisions = [0] * self.core.n
        self._capped = [False] * self.core.n
        self._skip_agent_selection = None
        self._rewarded = False
        self._advance()

    def observe(self, agent: str) -> dict[str, Any]:
        core = self.core
        seat = core.seat_of(self.agent_name_mapping[agent])
        return {"observation": core.observe(seat), "action_mask": core.mask(seat)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for a terminated/truncated agent")
        core = self.core
        index = self.agent_name_mapping[agent]
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        seat = core.seat_of(index)
        if core.current_seat() != seat:  # pragma: no cover - agent_selection is always to act
            raise RuntimeError(f"{agent} is not to act")
        try:
            rewards = core.apply_index(int(action))
        except IllegalIndexError:  # illegal_action="terminate"
            self._terminate_illegal(agent)
            return
        self._decisions[index] += 1
        if self.max_cycles is not None and self._decisions[index] >= self.max_cycles:
            self._capped[index] = True
            self.truncations[agent] = True
        if core.hand_ended:
            self._pay(rewards)
        self._advance()
        if self._rewarded:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------------ helpers
    def _terminate_illegal(self, agent: str) -> None:
        """End the episode on ``agent``'s illegal move, as ``TerminateIllegalWrapper`` does."""
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self.illegal_reward
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent]["illegal_move"] = True
        self._accumulate_rewards()
        self._deads_step_first()

    def _pay(self, rewards: list[float]) -> None:
        core = self.core
        for seat, r in enumerate(rewards):
            if r:
                i = core.agent_of(seat)
                a = self.possible_agents[i]
                if a in self.rewards and not self._capped[i]:
                    self.rewards[a] += r
                    self._rewarded = True

    def _advance(self) -> None:
        """Play capped seats passively, mark the end of the episode, choose who acts next."""
        core = self.core
        names = self.possible_agents
        capped = self._capped
        if not core.over and core.episode == "hand":  # the common case: someone is to act
            seat = core.current_seat()
            assert seat is not None
            i = core.agent_of(seat)
            if not capped[i] and not self.truncations[self.agent_selection]:
                self.agent_selection = names[i]
                return
        game_mode = core.episode == "game"
        while not core.over:
            if game_mode:
                for seat in range(core.n):
                    a = names[core.agent_of(seat)]
                    if core.out(seat) and a in self.terminations and not self.truncations[a]:
                        self.terminations[a] = True
            live = [a for a in self.agents if not (self.terminations[a] or self.truncations[a])]
            if not live:  # every agent hit max_cycles (or is out): the episode is over
                break
            seat = core.current_seat()
            assert seat is not None
            if not capped[core.agent_of(seat)]:
                self.agent_selection = names[core.agent_of(seat)]
                break
            rewards = core.apply_fallback()
            if core.hand_ended:
                self._pay(rewards)
        if core.over:
            for a in self.agents:
                if not self.truncations[a]:
                    self.terminations[a] = True
        self._deads_step_first()

    def close(self) -> None:
        pass


class ParallelSabacc(_TableEnv, ParallelEnv):  # type: ignore[misc]
    """The parallel form: at each step every live agent sends an action and the one to act is
    applied (the others are ignored; their masks are all zeros). See the module docstring."""

    metadata: dict[str, Any] = {  # noqa: RUF012  (per instance: its name)
        "name": f"sabacc_v{ENV_VERSION}",
        "render_modes": list(RENDER_MODES),
        "render_fps": 4,
    }

    def __init__(
        self,
        variant: str = DEFAULT_VARIANT,
        num_players: int = 4,
        *,
        episode: str = "hand",
        max_cycles: int | None = None,
        bet_sizes: Sequence[BetSize] | None = None,
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
        rotate_seats: bool = True,
        render_mode: str | None = None,
        engine: str = "auto",
        reward: str = "net",
        **options: Any,
    ) -> None:
        self._setup_table(
            variant,
            num_players,
            episode=episode,
            max_cycles=max_cycles,
            bet_sizes=bet_sizes,
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
            rotate_seats=rotate_seats,
            render_mode=render_mode,
            engine=engine,
            reward=reward,
            options=options,
        )
        self.agents: list[str] = []
        self._steps = 0

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def _obs(self, agent: str) -> dict[str, Any]:
        core = self.core
        seat = core.seat_of(self.agent_name_mapping[agent])
        return {"observation": core.observe(seat), "action_mask": core.mask(seat)}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self.core.reset(seed)
        self.agents = self.possible_agents[:]
        self._steps = 0
        return {a: self._obs(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, Any],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        core = self.core
        agents = self.agents
        rewards = dict.fromkeys(agents, 0.0)
        seat = core.current_seat()
        if seat is not None:
            agent = self.possible_agents[core.agent_of(seat)]
            action = actions.get(agent)
            try:
                got = core.apply_fallback() if action is None else core.apply_index(int(action))
            except IllegalIndexError:  # illegal_action="terminate"
                return self._terminate_illegal(agent)
            for s, r in enumerate(got):
                a = self.possible_agents[core.agent_of(s)]
                if r and a in rewards:
                    rewards[a] += r
        self._steps += 1
        over = core.over
        terminations = {
            a: over or (core.episode == "game" and core.out(core.seat_of(i)))
            for i, a in enumerate(self.possible_agents)
            if a in rewards
        }
        capped = self.max_cycles is not None and self._steps >= self.max_cycles
        truncations = {a: capped and not terminations[a] for a in agents}
        observations = {a: self._obs(a) for a in agents}
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        self.agents = [a for a in agents if not (terminations[a] or truncations[a])]
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _terminate_illegal(
        self, agent: str
    ) -> tuple[
        dict[str, Any],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """The step that ends the episode on ``agent``'s illegal move (see the module doc)."""
        agents = self.agents
        rewards = dict.fromkeys(agents, 0.0)
        rewards[agent] = self.illegal_reward
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        infos[agent]["illegal_move"] = True
        observations = {a: self._obs(a) for a in agents}
        self.agents = []
        return (
            observations,
            rewards,
            dict.fromkeys(agents, True),
            dict.fromkeys(agents, False),
            infos,
        )

    def close(self) -> None:
        pass


def env(variant: str = DEFAULT_VARIANT, num_players: int = 4, **kwargs: Any) -> raw_env:
    """The AEC environment: ``sabacc.apps.rl.env("spike", 4, episode="hand")``.

    Keywords: ``episode`` (``"hand"`` | ``"game"``), ``max_cycles``, ``bet_sizes``,
    ``illegal_action`` (``"terminate"`` | ``"fallback"`` | ``"raise"``), ``illegal_reward``
    (the offender's reward under ``"terminate"``, -1.0), ``rotate_seats``, ``render_mode``
    (``"ansi"`` | ``"human"``), ``engine`` (``"auto"`` | ``"python"`` | ``"compiled"``: see
    :mod:`sabacc.apps.rl.core`; ``"auto"`` plays on the variant's compiled core when it has one
    and it is built), ``reward`` (``"net"`` | ``"zero_sum"``: the reward convention, see
    :mod:`sabacc.apps.rl.core`), and any option of the variant (``rounds=3``, ``buy_in=200``...).
    No PettingZoo wrapper is added: the environment checks its own inputs (an out-of-range or
    illegal index is handled by ``illegal_action``; a dead agent must step with ``None``).
    """
    return raw_env(variant, num_players, **kwargs)


def parallel_env(
    variant: str = DEFAULT_VARIANT, num_players: int = 4, **kwargs: Any
) -> ParallelSabacc:
    """The parallel environment (same keywords as :func:`env`)."""
    return ParallelSabacc(variant, num_players, **kwargs)
