"""Many games stepped at once in a compiled core, NumPy arrays in and out.

:class:`VectorEnv` holds ``num_envs`` games on C arrays (the variant's vectorized engine,
``VariantInfo.vector``: Corellian Spike's ``SpikeVector`` in its compiled core) and steps them all
in one call, without the GIL and without Python per game::

    import numpy as np
    from sabacc.apps.rl.vector import VectorEnv

    env = VectorEnv("spike", num_envs=1024)             # heads-up, one hand per episode
    obs, info = env.reset(seeds=np.arange(1024))        # per-game seeds
    rng = np.random.default_rng(0)
    for _ in range(100):
        actions = env.sample(rng)                       # a random legal index per game
        obs, rewards, terminated, truncated, info = env.step(actions)

Each game is exactly the scalar engine's for its seed: game ``b`` of ``reset(seeds)`` plays as
``SpikeCore(options, seed=seeds[b], players=num_players)`` (and the reference
:class:`~sabacc.variants.corellian_spike.rules.SpikeGame`) with the same actions, and its
observation
vector and mask are those of the scalar environments (:class:`~sabacc.apps.rl.features.
ObservationEncoder`, :class:`~sabacc.apps.rl.actions.ActionTable`; ``tests/apps/rl/
test_vector.py`` plays them in lockstep).

Arrays (``B = num_envs``, ``n = num_players``, ``A = len(env.table)``,
``F = env.observation_size``):

* ``obs`` float32 ``(B, F)``: the observation of the seat to act in each game;
* ``rewards`` float32 ``(B, n)``, by seat: each seat's ``net`` when a hand ends (credits won or
  lost in it, antes included), and with ``episode="game"`` also what the ``final_pot`` split
  hands back at the end, so an episode's rewards add up to the seat's payoff (as
  :class:`~sabacc.apps.rl.core.TableCore`); with ``reward="zero_sum"`` each row less its mean
  (the reward conventions of :mod:`sabacc.apps.rl.core`);
* ``terminated`` bool ``(B,)``: the game ended with this step; it has been reset already (auto-
  reset), and ``obs``/``info`` describe the first decision of its next episode; ``truncated``
  is all False (a Spike game always ends);
* ``info["mask"]`` int8 ``(B, A)`` (1 = legal), ``info["current_player"]`` int8 ``(B,)``, the seat
  to act, ``info["seed"]`` uint64 ``(B,)``, the seed of each game's current episode.

Episodes (``episode=``) are as in the scalar environments: ``"hand"`` (default) is one hand from
fresh stacks, ``"game"`` a whole game under ``game_end``. Seats are not rotated: a fresh game
has its dealer button at seat 0, and the observation says where the button is. A finished game
starts its next episode with ``next_seed(seed)`` (SplitMix64 of its seed), so a batch is
reproducible from its reset seeds. An illegal index plays the lowest legal one (stand, check or
call: the scalar environments' ``illegal_action="fallback"``) and is counted in
:attr:`VectorEnv.illegal_count`.

``copy=False`` returns the environment's own buffers (overwritten by the next ``step``; what the
benchmark measures); the default returns fresh copies, as Gymnasium's vector environments do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from sabacc.apps.rl.actions import ActionTable, BetSize
from sabacc.apps.rl.core import check_reward
from sabacc.apps.rl.features import ObservationEncoder
from sabacc.core.errors import OptionError
from sabacc.variants.registry import DEFAULT_VARIANT, lookup

EPISODES = ("hand", "game")

Info = dict[str, npt.NDArray[Any]]


_U64 = 2**64 - 1


def next_seed(seed: int) -> int:
    """The seed of a game's next episode after the one seeded ``seed``: SplitMix64's output
    for the state ``seed`` (what the vectorized engines auto-reset a finished game with)."""
    z = (seed + 0x9E3779B97F4A7C15) & _U64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _U64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _U64
    return z ^ (z >> 31)


def vector_engine(variant: str) -> Any:
    """The variant's vectorized engine class (OptionError: it has none, or it is not built)."""
    info = lookup(variant)
    if info.vector is None:
        names = [lookup(v).title for v in _variants_with_vector()]
        raise OptionError(
            f"no vectorized engine for {info.title} (there is one for {', '.join(names)})"
        )
    try:
        return info.vector()
    except ImportError:
        raise OptionError(
            f"the vectorized {info.title} engine is in the compiled core, which is not built "
            "(reinstall sabacc where a C compiler and Cython are available)"
        ) from None


def _variants_with_vector() -> list[str]:
    from sabacc.variants.registry import variant_names

    return [v for v in variant_names() if lookup(v).vector is not None]


class VectorEnv:
    """``num_envs`` games of ``variant`` in its vectorized engine (see the module docstring).

    Only Corellian Spike has one (``VariantInfo.vector``); another variant raises OptionError.
    """

    def __init__(
        self,
        variant: str = DEFAULT_VARIANT,
        num_envs: int = 1024,
        num_players: int = 2,
        *,
        episode: str = "hand",
        bet_sizes: Sequence[BetSize] | None = None,
        copy: bool = True,
        reward: str = "net",
        **options: Any,
    ) -> None:
        check_reward(reward)
        if episode not in EPISODES:
            raise OptionError(f"episode={episode!r}: must be one of {', '.join(EPISODES)}")
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise OptionError(f"num_envs={num_envs!r}: must be a whole number >= 1")
        info = lookup(variant)
        engine = vector_engine(info.name)
        if not info.min_players <= num_players <= info.max_players:
            raise OptionError(
                f"{info.title} is played by {info.min_players}-{info.max_players} players, "
                f"not {num_players}"
            )
        self.variant = info.name
        opts = dict(options)
        if episode == "hand":  # one hand, as TableCore: the safety cap, or the game-end rule
            if "max_hands" in info.options_type.names():
                opts["max_hands"] = 1
            else:
                opts["game_end"] = "hands:1"
        self.options = info.options_type.from_mapping(opts)
        self.num_envs = num_envs
        self.num_players = num_players
        self.episode = episode
        self.copy = copy
        self.reward = reward
        self.zero_sum = reward == "zero_sum"
        self.table = ActionTable(info, self.options, bet_sizes)
        self.encoder = ObservationEncoder(info, self.options, num_players)
        enc = self.encoder
        self._core = engine(num_envs, self.options, num_players, episode == "game", self.table, enc)
        self.observation_size: int = enc.size
        self.num_actions: int = self.table.n
        b, f, a, n = num_envs, enc.size, self.table.n, num_players
        self._obs = np.zeros((b, f), dtype=np.float32)
        self._rewards = np.zeros((b, n), dtype=np.float32)
        self._terminated = np.zeros(b, dtype=np.uint8)
        self._truncated = np.zeros(b, dtype=np.bool_)
        self._mask = np.zeros((b, a), dtype=np.int8)
        self._player = np.zeros(b, dtype=np.int8)
        self._seeds = np.zeros(b, dtype=np.uint64)
        self._reset_done = False

    @property
    def illegal_count(self) -> int:
        """Illegal indices played since the environment was made (each played the fallback)."""
        return int(self._core.illegal_count)

    @property
    def mask(self) -> npt.NDArray[np.int8]:
        """The current masks (the environment's own buffer)."""
        return self._mask

    def _seed_array(self, seeds: int | Sequence[int] | npt.ArrayLike | None) -> npt.NDArray[Any]:
        b = self.num_envs
        if seeds is None:
            return np.random.SeedSequence().generate_state(b, dtype=np.uint64)
        if isinstance(seeds, int | np.integer) and not isinstance(seeds, bool):
            base = int(seeds)
            if base < 0:
                raise OptionError(f"seed {base}: seeds are whole numbers 0..2**64-1")
            return np.array([(base + i) % 2**64 for i in range(b)], dtype=np.uint64)
        arr = np.asarray(seeds)
        if arr.shape != (b,) or arr.dtype.kind not in "iu":
            raise OptionError(f"seeds must be {b} whole numbers (one per game), not {arr!r}")
        if arr.dtype.kind == "i" and (arr < 0).any():
            raise OptionError("seeds are whole numbers 0..2**64-1")
        return np.ascontiguousarray(arr.astype(np.uint64))

    def _info(self) -> Info:
        self._core.seeds_into(self._seeds)
        if self.copy:
            return {
                "mask": self._mask.copy(),
                "current_player": self._player.copy(),
                "seed": self._seeds.copy(),
            }
        return {"mask": self._mask, "current_player": self._player, "seed": self._seeds}

    def reset(
        self, seeds: int | Sequence[int] | npt.ArrayLike | None = None
    ) -> tuple[npt.NDArray[np.float32], Info]:
        """Deal every game afresh: game ``b`` with ``seeds[b]`` (an int ``s``: ``s + b``;
        ``None``: seeds from the OS). Returns ``(obs, info)``."""
        self._core.reset(self._seed_array(seeds), self._obs, self._mask, self._player)
        self._reset_done = True
        obs = self._obs.copy() if self.copy else self._obs
        return obs, self._info()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        Info,
    ]:
        """Play one action index in every game (see the module docstring for the arrays)."""
        if not self._reset_done:
            raise OptionError("call reset() before step()")
        acts = np.ascontiguousarray(actions, dtype=np.int64)
        if acts.shape != (self.num_envs,):
            raise OptionError(f"actions must be {self.num_envs} indices, not shape {acts.shape}")
        self._core.step(acts, self._obs, self._rewards, self._terminated, self._mask, self._player)
        if self.zero_sum:
            self._rewards -= self._rewards.mean(axis=1, keepdims=True)
        terminated = self._terminated.view(np.bool_)
        if self.copy:
            return (
                self._obs.copy(),
                self._rewards.copy(),
                terminated.copy(),
                self._truncated.copy(),
                self._info(),
            )
        return self._obs, self._rewards, terminated, self._truncated, self._info()

    def sample(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """A uniformly random legal index for every game, from the current masks: one draw
        from ``rng`` seeds the batch, the engine picks each game's index (in C, no Python per
        game); the same ``rng`` state gives the same indices."""
        key = int(rng.integers(0, 2**63, dtype=np.uint64))
        out = np.empty(self.num_envs, dtype=np.int64)
        self._core.sample_into(key, self._mask, out)
        return out

    def state(self, b: int) -> dict[str, Any]:
        """Game ``b``'s whole state as plain data (cards as deck ids), for tests and debugging."""
        state: dict[str, Any] = self._core.state(b)
        return state
