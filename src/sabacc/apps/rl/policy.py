"""A softmax-linear policy over the masked action table, and a sabacc bot that plays it.

:class:`LinearPolicy` is plain NumPy: logits ``W @ [x, 1]`` over the action table, illegal
actions masked out, softmax. It has the REINFORCE gradient of ``log pi(a | x)``, and saves to
/loads from ``.npz`` together with the table it was trained for (variant, options, seats, bet
sizes), so :class:`LinearPolicyBot` can rebuild the encoder from a file.

:class:`LinearPolicyBot` is a :class:`sabacc.services.bots.Bot`: it sees only the seat's JSON
observation and the legal actions, encodes them with
:meth:`~sabacc.apps.rl.features.ObservationEncoder.encode_observation` (the same vector the
environments give) and :meth:`~sabacc.apps.rl.actions.ActionTable.mask_from_observation`.
``register_policy_bot(name, path)`` makes a saved policy available to ``make_bot(name)`` in
this process. The tournament machinery (:mod:`sabacc.services.sim`) builds bots by name in fresh
worker
processes (or Ray workers), where nothing registered them: :class:`PolicyBots` is a picklable
setup that registers them there, and :func:`policy_backend` a :mod:`sabacc.services.sim` backend (a
process pool, or Ray) whose workers run it first::

    bots = PolicyBots((("reinforce", "artifacts/policy.npz", True),))
    bots()  # in this process too
    simulate(SimSpec("spike", ("reinforce", "heuristic"), 2000), 2, backend=policy_backend(2, bots))
"""

from __future__ import annotations

import json
import multiprocessing
import random
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from sabacc.apps.rl.actions import ActionTable, BetSize, Mask
from sabacc.apps.rl.features import ObservationEncoder
from sabacc.core.actions import Action
from sabacc.variants.registry import lookup

if TYPE_CHECKING:
    from sabacc.services.sim import Backend, ChunkResult, SimSpec

Floats = npt.NDArray[np.float64]


class LinearPolicy:
    """``pi(a | x) = softmax(W [x, 1])`` over the legal actions."""

    def __init__(
        self,
        n_features: int,
        n_actions: int,
        *,
        weights: Floats | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        self.n_features = n_features
        self.n_actions = n_actions
        self.w: Floats = (
            np.zeros((n_actions, n_features + 1)) if weights is None else np.asarray(weights, float)
        )
        if self.w.shape != (n_actions, n_features + 1):
            expected = (n_actions, n_features + 1)
            raise ValueError(f"weights of shape {self.w.shape}, expected {expected}")
        self.meta: dict[str, Any] = dict(meta or {})

    def features(self, x: npt.NDArray[Any]) -> Floats:
        out = np.empty(self.n_features + 1)
        out[:-1] = x
        out[-1] = 1.0
        return out

    def probs(self, x: npt.NDArray[Any], mask: Mask) -> Floats:
        """Action probabilities (zero where ``mask`` is 0)."""
        logits = self.w @ self.features(x)
        legal = mask.astype(bool)
        if not legal.any():
            raise ValueError("no legal action in the mask")
        logits = np.where(legal, logits, -np.inf)
        logits -= logits[legal].max()
        p = np.exp(logits)
        p /= p.sum()
        return p

    def act(self, x: npt.NDArray[Any], mask: Mask, rng: np.random.Generator | None = None) -> int:
        """Sample an action index (``rng=None``: the most likely one)."""
        p = self.probs(x, mask)
        if rng is None:
            return int(np.argmax(p))
        return int(rng.choice(len(p), p=p))

    def grad_log_prob(self, x: npt.NDArray[Any], mask: Mask, action: int) -> Floats:
        """The gradient of ``log pi(action | x)`` with respect to ``W``."""
        p = self.probs(x, mask)
        onehot = -p
        onehot[action] += 1.0
        return np.outer(onehot, self.features(x))

    def grad_entropy(self, x: npt.NDArray[Any], mask: Mask) -> Floats:
        """The gradient of the policy's entropy at ``x`` with respect to ``W``."""
        p = self.probs(x, mask)
        logp = np.log(np.where(p > 0, p, 1.0))
        h = -(p * logp).sum()
        return np.outer(-p * (logp + h), self.features(x))

    def save(self, path: str | Path) -> None:
        np.savez(Path(path), w=self.w, meta=np.array(json.dumps(self.meta)))

    @classmethod
    def load(cls, path: str | Path) -> LinearPolicy:
        with np.load(Path(path)) as data:
            w = np.array(data["w"])
            meta = json.loads(str(data["meta"]))
        return cls(w.shape[1] - 1, w.shape[0], weights=w, meta=meta)


class LinearPolicyBot:
    """A :class:`sabacc.services.bots.Bot` playing a :class:`LinearPolicy` (see the module
    docstring).

    ``policy.meta`` must hold ``variant`` and may hold ``options`` (dict) and ``bet_sizes``:
    the table the policy was trained for. The number of seats is read from each observation.
    ``greedy=False`` samples from the policy with ``seed``.
    """

    def __init__(
        self,
        policy: LinearPolicy,
        seed: int | None = None,
        *,
        greedy: bool = True,
        name: str = "linear",
    ) -> None:
        self.name = name
        self.policy = policy
        meta = policy.meta
        self.info = lookup(str(meta["variant"]))
        options = dict(meta.get("options") or {})
        options.pop("max_hands", None)
        self.options = self.info.options_type.from_mapping(options)
        sizes: Sequence[BetSize] | None = meta.get("bet_sizes")
        self.table = ActionTable(self.info, self.options, sizes)
        self._encoders: dict[int, ObservationEncoder] = {}
        self.greedy = greedy
        self.rng = np.random.default_rng(seed if seed is not None else random.getrandbits(63))

    def _encoder(self, n: int) -> ObservationEncoder:
        enc = self._encoders.get(n)
        if enc is None:
            enc = self._encoders[n] = ObservationEncoder(self.info, self.options, n)
        return enc

    def act(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        x = self._encoder(len(observation["seats"])).encode_observation(observation)
        mask = self.table.mask_from_observation(observation)
        if not mask.any():
            return legal[0]
        index = self.policy.act(x, mask, None if self.greedy else self.rng)
        situation = self.table.situation(observation)
        action = self.table.decode(index, *situation)
        if action is None or action not in legal:  # pragma: no cover - the mask prevents it
            return legal[0]
        return action


def register_policy_bot(name: str, path: str | Path, *, greedy: bool = True) -> None:
    """Register the policy saved at ``path`` as the bot ``name`` (for ``make_bot``)."""
    from sabacc.services.bots import register_bot

    policy = LinearPolicy.load(path)

    def factory(seed: int | None = None, arg: str | None = None) -> LinearPolicyBot:
        return LinearPolicyBot(policy, seed, greedy=greedy, name=name)

    register_bot(name, factory)


@dataclass(frozen=True)
class PolicyBots:
    """Saved policies to register as bots, ``(name, path, greedy)`` each: call it to register
    them (picklable, so worker processes can run it)."""

    policies: tuple[tuple[str, str, bool], ...]

    def __call__(self) -> None:
        for name, path, greedy in self.policies:
            register_policy_bot(name, path, greedy=greedy)


class _SetupPoolBackend:
    """:class:`sabacc.services.sim.ProcessBackend` whose workers run ``setup()`` before any
    chunk."""

    def __init__(self, workers: int, setup: PolicyBots) -> None:
        self.workers = workers
        self.setup = setup

    def map(self, spec: SimSpec, indices: Sequence[int]) -> Iterator[ChunkResult]:
        from sabacc.services.sim import run_chunk

        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        with ProcessPoolExecutor(self.workers, mp_context=context, initializer=self.setup) as pool:
            futures = [pool.submit(run_chunk, spec, i) for i in indices]
            for future in as_completed(futures):
                yield future.result()


def policy_backend(workers: int, bots: PolicyBots, *, ray_address: str | None = None) -> Backend:
    """A :mod:`sabacc.services.sim` backend whose workers know ``bots``: a local process pool of
    ``workers`` processes, this process alone (``workers=1``), or Ray (``ray_address``, see
    :mod:`sabacc.services.sim_ray`; ``"local"`` starts a local instance)."""
    from sabacc.services.sim import SerialBackend

    if ray_address is not None:
        from sabacc.services.sim_ray import RayBackend

        address = None if ray_address == "local" else ray_address
        return RayBackend(address, num_cpus=workers, setup=bots)
    if workers <= 1:
        bots()
        return SerialBackend()
    return _SetupPoolBackend(workers, bots)
