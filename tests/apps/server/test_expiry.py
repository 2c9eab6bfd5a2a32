"""Abandoned tables expire: a table nobody has used for --expire-days (no game started or
finished, no action, nobody connected) is deleted with its games; tables in use stay, and
--expire-days 0 keeps every table. And the open-file soft limit is raised at start-up."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from tests.apps.server.helpers import UNLIMITED, Client, ServerProcess

WINDOW_DAYS = 2.0 / 86400  # two seconds


@pytest.mark.timing
def test_abandoned_tables_expire_and_used_ones_stay(tmp_path: Path) -> None:
    server = ServerProcess(
        tmp_path / "e.db", extra=[*UNLIMITED, "--expire-days", str(WINDOW_DAYS)]
    ).start()
    try:
        abandoned = server.create(seats=["human", "human"], player_name="Ann")["code"]
        watched = server.create(seats=["human", "human"], player_name="Ben")["code"]
        # Bots playing on and on: an action every moment, never abandoned.
        playing = server.create(
            seats=["bot:heuristic", "bot:heuristic"],
            options={"game_end": "hands:100000", "buy_in": "100000"},
        )["code"]

        async def main() -> None:
            async with Client(server, watched):
                deadline = time.monotonic() + 20
                while server.get(f"/api/tables/{abandoned}").status_code == 200:
                    assert time.monotonic() < deadline, "the abandoned table was never expired"
                    await asyncio.sleep(0.5)
                await asyncio.sleep(2.5)  # more than the window again

        asyncio.run(main())
        gone = server.get(f"/api/tables/{abandoned}")
        assert gone.status_code == 404 and gone.json()["error"]["code"] == "no_table"
        assert server.get(f"/api/tables/{watched}").status_code == 200
        assert server.get(f"/api/tables/{playing}").json()["status"] == "playing"
        # Deleted from the store too: a restart does not bring it back.
        server.stop()
        server.start()
        assert server.get(f"/api/tables/{abandoned}").status_code == 404
        assert server.get(f"/api/tables/{playing}").status_code == 200
    finally:
        server.stop()


def test_no_expiry_when_turned_off(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "f.db", extra=[*UNLIMITED, "--expire-days", "0"]).start()
    try:
        code = server.create(seats=["human", "human"], player_name="Ann")["code"]
        time.sleep(3)
        assert server.get(f"/api/tables/{code}").status_code == 200
    finally:
        server.stop()


def test_open_file_soft_limit_is_raised_to_the_hard_limit() -> None:
    """At start-up the server lifts its soft limit of open files (each socket is one) to the
    hard limit; here in this process, its limit lowered first and put back after."""
    import resource

    from sabacc.apps.server.app import raise_open_file_limit

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    low = 256 if hard == resource.RLIM_INFINITY else min(256, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (low, hard))
    try:
        raise_open_file_limit()
        raised, same_hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        assert same_hard == hard
        assert raised == hard or (hard == resource.RLIM_INFINITY and raised > low)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
