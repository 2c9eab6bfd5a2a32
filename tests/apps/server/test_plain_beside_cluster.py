"""Issue 31 S6: a plain server and ``--cluster`` servers never share a database. A plain
server holds its database alone; cluster servers share theirs among themselves only. Whichever
starts second refuses with a clear message, and once the first is killed (kill -9: its claim
goes with it, nothing stale is left) the other starts at once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.apps.server.helpers import UNLIMITED, ServerProcess, empty_schema


@pytest.fixture
def pg(pg_url: str | None) -> Iterator[str]:
    if pg_url is None:
        pytest.skip("PostgreSQL is not available (needs psycopg and initdb)")
    empty_schema(pg_url)
    yield pg_url


def _cluster(root: Path, url: str, node: str) -> ServerProcess:
    flags = [*UNLIMITED, "--cluster", "--lease-ttl", "2", "--node", node]
    return ServerProcess(root / f"{node}.db", db_url=url, extra=flags)


def _refused(srv: ServerProcess) -> str:
    with pytest.raises(RuntimeError) as info:
        srv.start()
    return str(info.value)


def test_a_cluster_server_refuses_a_plain_servers_database(tmp_path: Path, pg: str) -> None:
    plain = ServerProcess(tmp_path / "plain.db", db_url=pg, extra=list(UNLIMITED))
    node = _cluster(tmp_path, pg, "a")
    plain.start()
    try:
        code = plain.create(seats=["human", "human"])["code"]
        message = _refused(node)
        assert "another sabacc server is using" in message, message
        assert plain.get(f"/api/tables/{code}").status_code == 200  # unharmed
        plain.kill()
        node.start()  # the plain server's claim went with it
        assert node.get(f"/api/tables/{code}").json()["code"] == code
    finally:
        plain.kill()
        node.stop()


def test_a_plain_server_refuses_a_database_cluster_servers_lease(tmp_path: Path, pg: str) -> None:
    a, b = _cluster(tmp_path, pg, "a"), _cluster(tmp_path, pg, "b")
    plain = ServerProcess(tmp_path / "plain.db", db_url=pg, extra=list(UNLIMITED))
    a.start()
    b.start()  # cluster servers share a database among themselves
    try:
        code = a.create(seats=["human", "human"])["code"]
        message = _refused(plain)
        assert "cluster" in message and "one server per database" in message, message
        a.kill()
        assert "one server per database" in _refused(plain)  # b still leases it
        b.kill()
        plain.start()  # nothing stale: the cluster's claims went with their processes
        assert plain.get(f"/api/tables/{code}").json()["code"] == code
    finally:
        a.kill()
        b.kill()
        plain.stop()
