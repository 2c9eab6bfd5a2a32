"""Spectators: their coming and going is announced to the table together (not one state
message per arrival to everyone), and a table accepts at most ``--max-spectators`` of them;
players and the host are never turned away."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from tests.apps.server.helpers import Client, ServerProcess


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("spectators") / "spectators.db"
    srv = ServerProcess(db, extra=["--max-spectators", "6"]).start()
    yield srv
    srv.stop()


def test_arrivals_are_announced_together(capped: ServerProcess) -> None:
    code = capped.create(seats=["human", "human"])["code"]

    async def main() -> None:
        first = Client(capped, code)
        await first.open()
        seen = len(first.messages)
        others = [Client(capped, code) for _ in range(5)]
        for c in others:  # one after the other: each has its state before the next comes
            await c.open()
        await first.drain(0.8)
        states = [m for m in first.messages[seen:] if m["type"] == "state"]
        # Five arrivals in quick succession are announced together: not one push each.
        assert 1 <= len(states) <= 3, len(states)
        assert states[-1]["table"]["spectators"] == 6
        for c in others:
            await c.close()
        await first.drain(0.8)
        assert first.state is not None and first.state["table"]["spectators"] == 1
        await first.close()

    asyncio.run(main())


def test_spectators_are_capped_players_are_not(capped: ServerProcess) -> None:
    created = capped.create(seats=["human", "human"], player_name="Ann")
    code = created["code"]

    async def main() -> None:
        watchers = [Client(capped, code) for _ in range(6)]
        for w in watchers:
            await w.open()
        extra = Client(capped, code)
        await extra.open(hello=False)
        refused = await extra.error_reply({"type": "hello"})
        assert refused["code"] == "too_many_spectators"
        host = Client(capped, code, created["token"])  # a player is let in all the same
        await host.open()
        assert host.state is not None and host.state["you"]["seat"] == 0
        await watchers.pop().close()
        await asyncio.sleep(0.3)
        await extra.send({"type": "hello"})  # a place was freed
        await extra.wait_for(lambda m: m["type"] == "state")
        for c in [*watchers, extra, host]:
            await c.close()

    asyncio.run(main())
