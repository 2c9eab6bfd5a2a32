"""One bad row does not stop the server: a table whose stored action the engine refuses, or
whose row holds bad JSON, is quarantined (logged, shown as unavailable, its data kept), and
every other table starts."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import httpx

from tests.apps.server.helpers import Client, ServerProcess, finished


def _finish(srv: ServerProcess, code: str) -> None:
    async def wait() -> None:
        async with Client(srv, code) as watcher:
            while not finished(watcher.state):
                await watcher.recv(30)

    asyncio.run(wait())


def _table_id(db: sqlite3.Connection, code: str) -> int:
    return int(db.execute("SELECT id FROM tables WHERE code = ?", (code,)).fetchone()[0])


def test_bad_rows_quarantine_their_table_only(tmp_path: Path) -> None:
    db_path = tmp_path / "bad.db"
    srv = ServerProcess(db_path).start()
    codes: list[str] = []
    try:
        for _ in range(3):
            code = srv.create(
                seats=["bot:heuristic", "bot:random"], options={"game_end": "hands:1"}
            )["code"]
            _finish(srv, code)
            codes.append(code)
    finally:
        srv.stop()
    refused, bad_json, healthy = codes
    db = sqlite3.connect(db_path)
    with db:
        game = db.execute(
            "SELECT id FROM games WHERE table_id = ?", (_table_id(db, refused),)
        ).fetchone()[0]
        db.execute("UPDATE actions SET action = 'fly away' WHERE game_id = ? AND idx = 2", (game,))
        db.execute(
            "UPDATE games SET players = '{not json' WHERE table_id = ?",
            (_table_id(db, bad_json),),
        )

    again = ServerProcess(db_path).start()  # it starts
    try:
        for code in (refused, bad_json):
            info = again.get(f"/api/tables/{code}").json()
            assert info["problem"] and "cannot be played" in info["problem"]
            r = httpx.post(f"{again.base}/api/tables/{code}/join", json={"name": "Zed"}, timeout=10)
            assert r.status_code == 503 and r.json()["error"]["code"] == "table_unavailable"
        ok = again.get(f"/api/tables/{healthy}").json()
        assert ok["problem"] is None and ok["status"] == "finished"
        lobby = {t["code"]: t for t in again.get("/api/tables").json()["tables"]}
        # the quarantined tables stay listed with their problem; the finished one has left
        assert {refused, bad_json} <= set(lobby) and healthy not in lobby
        assert lobby[refused]["problem"] and lobby[bad_json]["problem"]

        async def watch() -> None:
            async with Client(again, refused) as c:
                assert c.state is not None and c.state["table"]["problem"]
                assert c.state["game"] is None

        asyncio.run(watch())
        # The server plays on: a new table, to its end.
        fresh = again.create(seats=["bot:random", "bot:random"], options={"game_end": "hands:1"})
        _finish(again, fresh["code"])
    finally:
        again.stop()
    log = again.log_path.read_text()
    assert f"table {refused} is quarantined" in log and f"table {bad_json} is quarantined" in log
    # The data is kept as it was.
    with db:
        assert db.execute("SELECT count(*) FROM actions WHERE action = 'fly away'").fetchone()[0]
        assert (
            db.execute(
                "SELECT players FROM games WHERE table_id = ?", (_table_id(db, bad_json),)
            ).fetchone()[0]
            == "{not json"
        )
    db.close()
