"""Group commit: the actions of several tables stored in one transaction, all or none; and the
server telling nobody about an action before its batch has committed."""

from __future__ import annotations

import asyncio
import random

import pytest

from sabacc.services.store import ActionRecord, ActionWrite, SeatRecord, Store

from .helpers import ServerProcess, play, seat_table


def _game(store: Store, code: str) -> tuple[int, int]:
    table = store.create_table(
        code=code, name="t", variant="corellian_spike", options={}, turn_timer=0.0,
        listed=False, host_hash="h" * 64,
        seats=[SeatRecord(0, "human"), SeatRecord(1, "human")],
    )  # fmt: skip
    game = store.start_game(
        table.id, number=1, variant="corellian_spike", options={}, seed=1,
        players=["a", "b"], seat_tokens=[None, None], bots=[None, None], stacks=[100, 100],
        hands=1,
    )  # fmt: skip
    return table.id, game.id


def test_one_batch_stores_every_table_s_action_with_its_game_row(db_url: str) -> None:
    store = Store(db_url)
    try:
        games = [_game(store, code) for code in ("AAAAAA", "BBBBBB", "CCCCCC")]
        store.record_actions(
            [
                ActionWrite(t, g, ActionRecord(0, i % 2, "stand", 1), [100 - i, 100 + i], 1)
                for i, (t, g) in enumerate(games)
            ]
        )
        for i, (t, _) in enumerate(games):
            (rec,) = store.list_games(t)
            assert rec.action_count == 1
            assert rec.stacks == [100 - i, 100 + i]
            loaded = store.load_game(t, 1)
            assert loaded is not None
            assert loaded.actions == [ActionRecord(0, i % 2, "stand", 1)]
    finally:
        store.close()


def test_a_batch_that_fails_stores_none_of_its_actions(db_url: str) -> None:
    store = Store(db_url)
    try:
        (t1, g1), (t2, g2) = _game(store, "AAAAAA"), _game(store, "BBBBBB")
        store.record_action(t2, g2, ActionRecord(0, 0, "stand", 1), stacks=[1, 1], hands=1)
        with pytest.raises(Exception):  # noqa: B017 - the driver's integrity error
            store.record_actions(
                [
                    ActionWrite(t1, g1, ActionRecord(0, 0, "stand", 1), [5, 5], 1),
                    ActionWrite(t2, g2, ActionRecord(0, 1, "stand", 1), [9, 9], 1),  # idx taken
                ]
            )
        (first,) = store.list_games(t1)
        assert first.action_count == 0
        loaded = store.load_game(t1, 1)
        assert loaded is not None and loaded.actions == []
        (second,) = store.list_games(t2)
        assert second.stacks == [1, 1]
    finally:
        store.close()


def test_many_tables_acting_at_once_are_all_stored_and_announced(server: ServerProcess) -> None:
    """Twelve tables playing at once (their actions share batches): every action a player
    was told about is in the store."""

    async def main() -> None:
        tables = [await seat_table(server, ["human", "human", "human"]) for _ in range(12)]
        try:
            await asyncio.gather(
                *(
                    play(clients, random.Random(i), until=lambda s: bool(s and s["version"] >= 8))
                    for i, (_code, clients) in enumerate(tables)
                )
            )
            for code, clients in tables:
                told = max(c.state["version"] for c in clients if c.state)
                games = server.get(f"/api/tables/{code}/games").json()["games"]
                assert games[-1]["actions"] >= told >= 8
        finally:
            for _code, clients in tables:
                for c in clients:
                    await c.close()

    asyncio.run(main())


@pytest.mark.timing
def test_actions_within_the_commit_window_share_one_commit_and_wait_for_it(
    db_url: str,
) -> None:
    """Actions of three tables applied within ``commit_window`` of each other are stored in
    one transaction, and no caller is told before that transaction has committed."""
    from sqlalchemy import event

    from sabacc.apps.server.manager import TableManager
    from sabacc.apps.server.settings import Settings

    store = Store(db_url)
    games = [_game(store, code) for code in ("DDDDDD", "EEEEEE", "FFFFFF")]
    log: list[str] = []
    event.listen(store.engine, "commit", lambda conn: log.append("commit"))
    manager = TableManager(store, Settings(commit_window=0.2))

    async def act(i: int, table_id: int, game_id: int) -> None:
        await asyncio.sleep(0.02 * i)  # one after another, all within the window
        write = ActionWrite(table_id, game_id, ActionRecord(0, 0, "stand", 1), [99, 101], 1)
        await manager.persist_action(write)
        log.append(f"told {i}")

    async def run() -> None:
        await asyncio.gather(*(act(i, t, g) for i, (t, g) in enumerate(games)))

    try:
        asyncio.run(run())
        assert log[0] == "commit" and log.count("commit") == 1, log
        assert sorted(log[1:]) == ["told 0", "told 1", "told 2"]
        for t, _ in games:
            loaded = store.load_game(t, 1)
            assert loaded is not None
            assert loaded.actions == [ActionRecord(0, 0, "stand", 1)]
    finally:
        manager.shutdown()
        manager.pool.shutdown()
        store.close()


def test_a_failed_write_renews_every_thread_s_kept_connection(db_url: str) -> None:
    """After a write fails (e.g. PostgreSQL restarted: every kept connection is dead), each
    worker thread opens its connection again before its next write, not only the thread
    whose write failed."""
    import threading

    from sqlalchemy.exc import IntegrityError

    store = Store(db_url)
    try:
        t, g = _game(store, "GGGGGG")
        kept: list[object] = []

        def write(idx: int) -> None:
            store.record_actions([ActionWrite(t, g, ActionRecord(idx, 0, "stand", 1), [1, 2], 1)])

        ready, go, done = threading.Event(), threading.Event(), threading.Event()

        def other_thread() -> None:  # keeps its connection between its two writes
            write(0)
            kept.append(store._local.writer)
            ready.set()
            go.wait(10)
            write(2)
            kept.append(store._local.writer)
            done.set()

        worker = threading.Thread(target=other_thread)
        worker.start()
        assert ready.wait(10)
        write(1)
        with pytest.raises(IntegrityError):
            write(1)  # the same action again: refused by the database
        go.set()
        assert done.wait(10)
        worker.join()
        assert kept[0] is not kept[1]  # the other thread opened its connection again
        loaded = store.load_game(t, 1)
        assert loaded is not None
        assert [a.idx for a in loaded.actions] == [0, 1, 2]
    finally:
        store.close()
