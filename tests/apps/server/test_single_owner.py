"""One server per database: a second ``sabacc serve`` on the same SQLite file or PostgreSQL
database refuses to start with a clear message (two would give one seat to two people), and
the successor of a killed server starts at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.apps.server.helpers import ServerProcess


def _refused(srv: ServerProcess) -> str:
    with pytest.raises(RuntimeError) as info:
        srv.start()
    return str(info.value)


def _second_is_refused(first: ServerProcess, second: ServerProcess) -> None:
    first.start()
    try:
        code = first.create(seats=["human", "human"])["code"]
        message = _refused(second)
        assert "another sabacc server is using" in message and "one server per database" in message
        assert first.get(f"/api/tables/{code}").status_code == 200  # the first one is unharmed
        first.kill()  # SIGKILL: the claim goes with the process
        second.start()
        assert second.get(f"/api/tables/{code}").json()["code"] == code
    finally:
        first.kill()
        second.stop()


def test_one_server_per_sqlite_file(tmp_path: Path) -> None:
    db = tmp_path / "owned.db"
    _second_is_refused(ServerProcess(db), ServerProcess(db))


def test_one_server_per_postgresql_database(tmp_path: Path, pg_url: str | None) -> None:
    if pg_url is None:
        pytest.skip("PostgreSQL is not available (needs psycopg and initdb)")
    _second_is_refused(
        ServerProcess(tmp_path / "a", db_url=pg_url), ServerProcess(tmp_path / "b", db_url=pg_url)
    )
