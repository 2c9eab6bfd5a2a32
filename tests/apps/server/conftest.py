"""Fixtures: a real server process on loopback, and a throwaway PostgreSQL when available."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

from tests.apps.server.helpers import ServerProcess, free_port


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the tests that share it (a generous rate limit: fuzzing sends a lot)."""
    db = tmp_path_factory.mktemp("server") / "sabacc.db"
    srv = ServerProcess(db, extra=["--rate", "100000", "--burst", "100000"]).start()
    yield srv
    srv.stop()


def _initdb() -> str | None:
    found = shutil.which("initdb")
    if found:
        return found
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return candidates[-1] if candidates else None


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str | None]:
    """A PostgreSQL URL: $SABACC_TEST_PG_URL, or a throwaway cluster on loopback, or None."""
    url = os.environ.get("SABACC_TEST_PG_URL")
    if url:
        yield url
        return
    try:
        import psycopg  # noqa: F401
    except ImportError:
        yield None
        return
    initdb = _initdb()
    if initdb is None:
        yield None
        return
    bindir = Path(initdb).parent
    root = tempfile.mkdtemp(prefix="sabacc-pg-")
    data = os.path.join(root, "data")
    sock = os.path.join(root, "sock")
    os.makedirs(sock)
    as_root = os.geteuid() == 0
    prefix: list[str] = []
    if as_root:
        if shutil.which("runuser") is None:
            yield None
            return
        shutil.chown(root, "postgres")
        shutil.chown(sock, "postgres")
        os.chmod(root, 0o755)
        prefix = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    log = os.path.join(root, "pg.log")
    try:
        subprocess.run(
            [*prefix, str(bindir / "initdb"), "-D", data, "-A", "trust", "-U", "postgres"],
            check=True,
            capture_output=True,
            timeout=120,
        )
        subprocess.run(
            [
                *prefix,
                str(bindir / "pg_ctl"),
                "-D",
                data,
                "-l",
                log,
                "-w",
                "-o",
                f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off",
                "start",
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
    except (subprocess.SubprocessError, OSError):
        shutil.rmtree(root, ignore_errors=True)
        yield None
        return
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*prefix, str(bindir / "pg_ctl"), "-D", data, "-m", "immediate", "stop"],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    url = request.getfixturevalue("pg_url")
    if url is None:
        pytest.skip("PostgreSQL is not available (needs psycopg and initdb)")
    # A fresh schema per test: drop what a previous test made.
    from sqlalchemy import create_engine, text

    from sabacc.services.store import normalise_url

    engine = create_engine(normalise_url(url))
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return str(url)
