"""Fixtures: a real server process on loopback, and a throwaway PostgreSQL when available."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

from tests.apps.server.helpers import UNLIMITED, PgCluster, ServerProcess, empty_schema


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the tests that share it (no per-client limits, and a generous rate limit
    per connection: every test client comes from 127.0.0.1, and fuzzing sends a lot)."""
    db = tmp_path_factory.mktemp("server") / "sabacc.db"
    srv = ServerProcess(db, extra=[*UNLIMITED, "--rate", "100000", "--burst", "100000"]).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str | None]:
    """A PostgreSQL URL: $SABACC_TEST_PG_URL, or a throwaway cluster on loopback, or None."""
    url = os.environ.get("SABACC_TEST_PG_URL")
    if url:
        yield url
        return
    cluster = PgCluster.create()
    if cluster is None:
        yield None
        return
    try:
        yield cluster.url
    finally:
        cluster.remove()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    url = request.getfixturevalue("pg_url")
    if url is None:
        pytest.skip("PostgreSQL is not available (needs psycopg and initdb)")
    empty_schema(url)  # a fresh schema per test: drop what a previous test made
    return str(url)
