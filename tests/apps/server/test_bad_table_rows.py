"""Issue 31 S7: a table row the server cannot load (an unknown variant, options its variant
refuses) is quarantined like a table with bad action rows: logged, shown as unavailable, its
data kept; the lobby and every page about it answer, none with a 500."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import httpx

from tests.apps.server.helpers import Client, ServerProcess

QUICK = {"game_end": "hands:1"}


def test_a_table_row_with_an_unknown_variant_is_quarantined(tmp_path: Path) -> None:
    db_path = tmp_path / "variants.db"
    srv = ServerProcess(db_path).start()
    try:
        good = srv.create(seats=["human", "bot:easy"], name="Good table")["code"]
        waiting = srv.create(seats=["human", "human"], name="Gone variant")["code"]
        playing = srv.create(seats=["human", "bot:easy"], name="Gone mid-game")["code"]
        bad_options = srv.create(seats=["human", "human"], name="Odd options")["code"]
        srv.join(playing, "Zed")  # not needed to start: the seat holder starts it
    finally:
        srv.stop()
    db = sqlite3.connect(db_path)
    with db:
        db.execute("UPDATE tables SET variant = 'pazaak' WHERE code IN (?, ?)", (waiting, playing))
        db.execute("UPDATE games SET variant = 'pazaak'")
        db.execute(
            "UPDATE tables SET options = '{\"no_such_option\": 3}' WHERE code = ?", (bad_options,)
        )
    db.close()

    again = ServerProcess(db_path).start()
    try:
        r = again.get("/api/tables")
        assert r.status_code == 200, r.text
        lobby = {t["code"]: t for t in r.json()["tables"]}
        assert good in lobby and lobby[good]["problem"] is None
        for code in (waiting, playing, bad_options):
            assert code in lobby and "cannot be played" in lobby[code]["problem"]
            info = again.get(f"/api/tables/{code}")
            assert info.status_code == 200, info.text
            assert "cannot be played" in info.json()["problem"]
            for path in (f"/api/tables/{code}/games", f"/t/{code}", "/healthz", "/api/leaders"):
                assert again.get(path).status_code < 500, path
            joined = httpx.post(
                f"{again.base}/api/tables/{code}/join", json={"name": "Kit"}, timeout=10
            )
            assert joined.status_code == 503, joined.text
            assert joined.json()["error"]["code"] == "table_unavailable"

        async def watch() -> None:
            async with Client(again, waiting) as c:
                assert c.state is not None and c.state["table"]["problem"]

        asyncio.run(watch())
        # The good table plays on.
        again.join(good, "Ann")
    finally:
        again.stop()
    log = again.log_path.read_text()
    assert f"table {waiting} is quarantined" in log and f"table {playing} is quarantined" in log
