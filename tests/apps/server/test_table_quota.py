"""Issue 31 S1: every path that makes a table counts against the per-client tables-per-hour
quota (``--tables-per-hour``): ``POST /api/tables`` and ``POST /api/match`` alike, whatever its
wait. Beyond it a client gets a clear 429 and no table is made."""

from __future__ import annotations

from pathlib import Path

import httpx
from sqlalchemy import create_engine, func, select

from sabacc.services.store import normalise_url
from sabacc.services.store.models import TableRow
from tests.apps.server.helpers import ServerProcess

#: Every per-client limit lifted but the tables per hour.
FLAGS = ["--http-rate", "0", "--client-rate", "0", "--sockets-per-client", "0"]


def _tables(srv: ServerProcess) -> int:
    engine = create_engine(normalise_url(srv.db_url))
    try:
        with engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(TableRow)).scalar_one())
    finally:
        engine.dispose()


def test_quick_match_with_no_wait_counts_against_the_table_quota(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path / "quota.db", extra=[*FLAGS, "--tables-per-hour", "3"]).start()
    try:
        body = {"variant": "kessel", "seats": 2, "wait": 0, "name": "Cy"}
        for _ in range(3):
            r = httpx.post(f"{srv.base}/api/match", json=body, timeout=10)
            assert r.status_code == 201, r.text
        made = _tables(srv)
        assert made == 3
        refused = httpx.post(f"{srv.base}/api/match", json=body, timeout=10)
        assert refused.status_code == 429, refused.text
        error = refused.json()["error"]
        assert error["code"] == "too_many_tables_created"
        assert "3 tables an hour" in error["message"]
        # A quick match that would wait counts too, and so does a plain create: one quota.
        waiting = httpx.post(f"{srv.base}/api/match", json={**body, "wait": 60}, timeout=10)
        assert waiting.status_code == 429
        plain = httpx.post(
            f"{srv.base}/api/tables", json={"seats": ["human", "bot:easy"]}, timeout=10
        )
        assert plain.status_code == 429
        assert _tables(srv) == made  # nothing was made past the quota
    finally:
        srv.stop()


def test_plain_creates_use_up_the_quota_of_quick_matches(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path / "quota2.db", extra=[*FLAGS, "--tables-per-hour", "2"]).start()
    try:
        for _ in range(2):
            r = httpx.post(
                f"{srv.base}/api/tables", json={"seats": ["human", "bot:easy"]}, timeout=10
            )
            assert r.status_code == 201, r.text
        body = {"variant": "kessel", "seats": 2, "wait": 0, "name": "Cy"}
        refused = httpx.post(f"{srv.base}/api/match", json=body, timeout=10)
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "too_many_tables_created"
        assert _tables(srv) == 2
    finally:
        srv.stop()
