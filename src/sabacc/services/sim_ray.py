"""A Ray backend for :mod:`sabacc.services.sim`: the same tournament, on a Ray cluster.

``sabacc simulate --backend ray --address ray://head:10001 ...`` (or ``--address auto`` on a
cluster node; no address starts a local Ray instance with ``--workers`` CPUs). Needs the
``ray`` extra (``pip install "sabacc[ray]"``) here and on every node, with the same sabacc.

Each chunk of deals is one Ray task running :func:`sabacc.services.sim.run_chunk`, a pure function
of
``(spec, chunk_index)``; results are merged in chunk order by :func:`sabacc.services.sim.simulate`,
so a
Ray run gives exactly the totals of the local process pool for the same seed.

Bots are built by name in the workers (:func:`sabacc.services.bots.make_bot`). A bot registered at
run
time (for example a trained policy, :func:`sabacc.apps.rl.policy.register_policy_bot`) is unknown
to a fresh Ray worker: pass ``setup=`` a picklable callable that registers it, and make any
file it reads reachable from the nodes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from sabacc.services.sim import ChunkResult, SimSpec, run_chunk


def _run_chunk_task(
    spec: SimSpec, index: int, setup: Callable[[], object] | None = None
) -> ChunkResult:
    """The Ray task: optional per-worker setup, then the pure chunk function."""
    if setup is not None:
        setup()
    return run_chunk(spec, index)


class RayBackend:
    """Runs :func:`sabacc.services.sim.run_chunk` as Ray tasks (see the module docstring).

    ``address``: a cluster to connect to (``"auto"``, ``"ray://host:10001"``); ``None`` starts
    a local instance with ``num_cpus`` CPUs (default: every core). If Ray is already
    initialised in this process, that instance is used as it is. ``init_options`` go to
    ``ray.init`` (``runtime_env``, ``namespace``...).
    """

    def __init__(
        self,
        address: str | None = None,
        *,
        num_cpus: int | None = None,
        setup: Callable[[], object] | None = None,
        init_options: Mapping[str, Any] | None = None,
    ) -> None:
        self.address = address
        self.num_cpus = num_cpus
        self.setup = setup
        self.init_options = dict(init_options or {})
        self._started = False  # whether this backend started Ray (and so shuts it down)
        self._task: Any = None

    def _ray(self) -> Any:
        try:
            import ray
        except ImportError as exc:  # pragma: no cover - exercised without the extra
            from sabacc.core.errors import OptionError

            raise OptionError('the Ray backend needs Ray: pip install "sabacc[ray]"') from exc
        if not ray.is_initialized():
            options: dict[str, Any] = {
                "include_dashboard": False,
                "log_to_driver": False,
                **self.init_options,
            }
            if self.address is not None:
                options["address"] = self.address
            elif self.num_cpus is not None:
                options["num_cpus"] = self.num_cpus
            ray.init(**options)
            self._started = True
        if self._task is None:
            self._task = ray.remote(_run_chunk_task)
        return ray

    @property
    def workers(self) -> int:
        """CPUs of the cluster (connecting to it, or starting it, if needed)."""
        ray = self._ray()
        return max(1, int(ray.cluster_resources().get("CPU", 1)))

    def map(self, spec: SimSpec, indices: Sequence[int]) -> Iterator[ChunkResult]:
        ray = self._ray()
        pending = [self._task.remote(spec, i, self.setup) for i in indices]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])

    def close(self) -> None:
        """Shut Ray down if this backend started it."""
        if self._started:
            import ray

            ray.shutdown()
            self._started = False
            self._task = None

    def __enter__(self) -> RayBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
