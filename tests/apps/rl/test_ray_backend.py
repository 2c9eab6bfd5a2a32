"""``sabacc simulate --backend ray``: the same totals as the local process pool, same seed.

Runs on a local Ray instance (2 CPUs, no dashboard); skipped when Ray is not installed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from sabacc.apps.cli import app
from sabacc.services.sim import ProcessBackend, SerialBackend, SimSpec, simulate
from sabacc.services.sim_ray import RayBackend

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def test_ray_totals_equal_the_process_pool(local_ray: Any) -> None:
    spec = SimSpec("corellian_spike", ("heuristic", "random", "random"), 60, 7, chunk_deals=3)
    on_ray = simulate(spec, 2, backend=RayBackend())
    on_pool = simulate(spec, 2, backend=ProcessBackend(2))
    assert on_ray.totals() == on_pool.totals()
    assert on_ray.totals() == simulate(spec, 1, backend=SerialBackend()).totals()
    assert [s.to_dict()["net"] for s in on_ray.stats()] == [
        s.to_dict()["net"] for s in on_pool.stats()
    ]


def test_cli_backend_ray_matches_local(local_ray: Any) -> None:
    runner = CliRunner()
    common = ["simulate", "-b", "heuristic,random", "-v", "classic", "-n", "24", "--seed", "5"]
    common += ["--json", "-w", "2"]
    local = runner.invoke(app, common)
    remote = runner.invoke(app, [*common, "--backend", "ray"])
    assert local.exit_code == 0, local.output
    assert remote.exit_code == 0, remote.output
    a, b = json.loads(local.stdout), json.loads(remote.stdout)
    for key in ("seconds", "hands_per_second", "workers"):
        a.pop(key), b.pop(key)
    for bot in a["bots"] + b["bots"]:
        bot.pop("decision_ms")
    assert a == b
    assert local_ray.is_initialized()  # the backend left the instance it did not start


def test_cli_rejects_an_address_without_ray() -> None:
    result = CliRunner().invoke(app, ["simulate", "-n", "2", "--address", "auto"])
    assert result.exit_code == 2
    assert "--backend ray" in result.output
