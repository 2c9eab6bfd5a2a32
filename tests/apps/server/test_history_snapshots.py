"""History frames from stored snapshots (issue 31, S9): every N-th action's game state is stored
with the action, and a hand's frames replay from the nearest snapshot before it, so no frame
replays more than N actions before its hand; the frames are those of a whole replay, for every
variant; a damaged snapshot falls back to replaying; a game without snapshots (an old
database) gets them the first time it is replayed."""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sqlalchemy import update

import sabacc
from sabacc.apps.server import snapshots
from sabacc.apps.server.history import hand_frames
from sabacc.apps.server.table import Table, table_from_record
from sabacc.engine.game import Game
from sabacc.services.store import ActionRecord, ActionWrite, SnapshotRecord, Store
from sabacc.services.store.models import GameSnapshotRow
from tests.apps.server.helpers import UNLIMITED, Client, ServerProcess, finished
from tests.support import choose_small

PLAYERS = ["Ann", "Ben", "Cat"]
TOKENS = ["a" * 64, None, "c" * 64]


def _store_game(
    store: Store, variant: str, *, every: int, hands: int, seed: int = 3, code: str = "SNAP01"
) -> tuple[Table, int, Game]:
    """A table whose one game of ``hands`` hands is stored action by action as the server
    stores it (a group commit per action, the snapshot of every ``every``-th with it)."""
    options: dict[str, Any] = {"game_end": f"hands:{hands}"}
    rec = store.create_table(
        code=code, name="snap", variant=variant, options=options, turn_timer=0.0,
        listed=True, host_hash="0" * 64, seats=[],
    )  # fmt: skip
    game = sabacc.new_game(variant, players=PLAYERS, seed=seed, **options)
    grec = store.start_game(
        rec.id, number=1, variant=variant, options=options, seed=seed, players=PLAYERS,
        seat_tokens=TOKENS, bots=[None] * 3, stacks=list(game.stacks), hands=game.hand_no,
    )  # fmt: skip
    rng = random.Random(seed)
    while not game.is_over:
        seat, hand = game.current_player, game.hand_no
        assert seat is not None
        game.apply(choose_small(rng, game), seat=seat)
        result = game.outcome.to_dict() if game.outcome else None
        action = ActionRecord(len(game.actions) - 1, seat, game.actions[-1][1], hand)
        write = ActionWrite(
            rec.id, grec.id, action, list(game.stacks), game.hand_no, result,
            {s: 0 for s in range(3)} if result else None, snapshots.due(game, every),
        )  # fmt: skip
        store.record_actions([write])
    (loaded,) = store.load_tables(code)
    return table_from_record(loaded), grec.id, game


def _frames(store: Store, table: Table, hand: int, token: str | None, **kw: Any) -> Any:
    """The hand's frames, and how many actions were applied to make them."""
    steps: list[int] = []
    doc = hand_frames(store, table, 1, hand, token, on_step=lambda g, n: steps.append(n), **kw)
    return doc, len(steps) - 1


@pytest.mark.parametrize("variant", sabacc.variant_names())
def test_frames_from_snapshots_are_a_whole_replays_and_replay_at_most_n_before_the_hand(
    tmp_path: Path, variant: str
) -> None:
    every = 7
    store = Store(f"sqlite:///{tmp_path / 'store.db'}")
    try:
        table, game_id, game = _store_game(store, variant, every=every, hands=6)
        stored = store.snapshots(game_id)
        assert [s.idx for s in stored] == list(range(every, len(game.actions), every))
        loaded = store.load_game(table.id, 1)
        assert loaded is not None
        sizes: dict[int, int] = {}  # actions per hand
        for a in loaded.actions:
            sizes[a.hand] = sizes.get(a.hand, 0) + 1
        for hand in range(1, game.hand_no + 1):
            for token in (None, "a" * 64):
                whole, _ = _frames(store, table, hand, token, from_snapshots=False)
                fast, applied = _frames(store, table, hand, token)
                assert fast == whole, (variant, hand, token)
                # No more than N actions replayed before the hand's own.
                assert applied - sizes[hand] <= every, (hand, applied, sizes[hand])
    finally:
        store.close()


@pytest.mark.parametrize("variant", sabacc.variant_names())
def test_a_restored_snapshot_goes_on_exactly_as_the_game(variant: str) -> None:
    """Everything but the left-out logs is the game's state, the RNG included: the same
    observations for every seat, action after action, and the same saved state at the end."""
    rng = random.Random(5)
    game = sabacc.new_game(variant, players=PLAYERS, seed=11, game_end="hands:4")
    cut = None
    while not game.is_over:
        game.apply(choose_small(rng, game), seat=game.current_player)
        if len(game.actions) == 25:
            cut = snapshots.take(game)
    assert cut is not None and cut.idx == 25
    history = game.history()
    later = snapshots.restore(cut, PLAYERS)
    for i, entry in enumerate(history["actions"][25:], start=26):
        later.apply(entry["action"], seat=entry["seat"])
        at = sabacc.replay(history, upto=i, log=False)
        for viewer in (None, 0, 1, 2):
            assert later.observation(viewer) == at.observation(viewer)
    whole, mine = game.save()["state"], later.save()["state"]
    for key in ("actions", "hand_results"):
        del whole[key], mine[key]
    assert mine == whole
    assert later.hand_results[-1] == game.hand_results[-1]
    assert later.rng.getstate() == game.rng.getstate()


@settings(max_examples=25, deadline=None)
@given(
    variant=st.sampled_from(sabacc.variant_names()),
    seed=st.integers(0, 2**32),
    cut=st.integers(1, 80),
)
def test_any_snapshot_restores_the_state_a_replay_reaches(
    variant: str, seed: int, cut: int
) -> None:
    """Whatever the variant, deal and moment: a snapshot restored and played on to the game's
    end is the game (its saved state, the logs left out, and its result)."""
    rng = random.Random(seed)
    game = sabacc.new_game(variant, players=PLAYERS, seed=seed, game_end="hands:3")
    snap = None
    while not game.is_over:
        game.apply(choose_small(rng, game), seat=game.current_player)
        if len(game.actions) == cut and not game.is_over:
            snap = snapshots.take(game)
    assume(snap is not None)  # (not when the game ended before the cut)
    assert snap is not None
    later = snapshots.restore(snap, PLAYERS)
    for entry in game.history()["actions"][cut:]:
        later.apply(entry["action"], seat=entry["seat"])
    assert later.is_over and later.outcome == game.outcome
    whole, mine = game.save()["state"], later.save()["state"]
    for key in ("actions", "hand_results"):
        del whole[key], mine[key]
    assert mine == whole


def test_a_snapshot_holds_no_name_and_no_growing_log() -> None:
    game = sabacc.new_game(
        "corellian_spike", players=PLAYERS, seed=2, game_end="hands:100000", buy_in=1_000_000
    )
    rng = random.Random(2)
    taken: list[SnapshotRecord] = []
    for _ in range(3):
        for _ in range(300):
            game.apply(choose_small(rng, game), seat=game.current_player)
        snap = snapshots.take(game)
        assert snap is not None
        assert all(name not in snap.state for name in PLAYERS)
        taken.append(snap)
    sizes = [len(s.state) for s in taken]
    assert len(game.actions) == 900 and len(game.hand_results) > 20
    assert max(sizes) < 2 * min(sizes)  # a few kilobytes whatever the game's length
    assert len(game.save()["state"]["actions"]) == 900  # (what a whole save would hold)
    renamed = snapshots.restore(taken[-1], ["[deleted]", "Ben", "Cat"])
    assert renamed.names == ["[deleted]", "Ben", "Cat"]


def test_snapshots_are_stored_with_their_action_and_deleted_with_their_table(db_url: str) -> None:
    store = Store(db_url)
    try:
        table, game_id, game = _store_game(store, "corellian_spike", every=10, hands=4)
        stored = store.snapshots(game_id)
        assert stored and all(s.format == snapshots.SNAPSHOT_FORMAT for s in stored)
        for snap in stored:  # each one is the state after its index's actions
            at = sabacc.replay(game.history(), upto=snap.idx, log=False)
            assert snapshots.restore(snap, PLAYERS).observation(None) == at.observation(None)
            assert snap.hand == at.hand_no
        last = game.hand_no
        whole, _ = _frames(store, table, last, None, from_snapshots=False)
        fast, applied = _frames(store, table, last, None)
        assert fast == whole and applied <= 10 + len(fast["frames"])
        # A snapshot stored twice (a replay taking one the action stored already) is kept once.
        store.add_snapshots(game_id, [SnapshotRecord(stored[0].idx, 1, 1, "other")])
        assert store.snapshots(game_id) == stored
        store.delete_table(table.id)
        assert store.snapshots(game_id) == []
    finally:
        store.close()


def test_a_damaged_snapshot_falls_back_to_an_earlier_one_or_the_start(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    store = Store(db_url)
    try:
        table, game_id, game = _store_game(store, "kessel", every=6, hands=5)
        hand = game.hand_no
        whole, full = _frames(store, table, hand, "c" * 64, from_snapshots=False)
        own = len(whole["frames"]) - 1  # the hand's actions
        before = sorted((s.idx for s in store.snapshots(game_id) if s.hand < hand), reverse=True)
        assert len(before) > 3
        damages: list[dict[str, Any]] = [
            {"state": "{not json"},
            {"format": 99},
            {"state": '{"variant":"x"}'},
        ]
        for n, damage in enumerate(damages, start=1):
            with store.session.begin() as s:  # the nearest n snapshots damaged
                s.execute(
                    update(GameSnapshotRow)
                    .where(GameSnapshotRow.game_id == game_id, GameSnapshotRow.idx == before[n - 1])
                    .values(**damage)
                )
            caplog.clear()
            with caplog.at_level(logging.WARNING, "sabacc.apps.server"):
                doc, applied = _frames(store, table, hand, "c" * 64, every=6)
            assert doc == whole
            assert caplog.text.count("does not replay") == n
            if n < 3:  # from the nearest readable one
                assert applied - own <= 6 * (n + 1)
            else:  # three did not read back: from the start
                assert applied == full
        # The damaged rows are left for the operators (not replaced).
        assert store.snapshots(game_id)[before[0] // 6 - 1].state == "{not json"
    finally:
        store.close()


def test_a_game_without_snapshots_gets_them_when_first_replayed(db_url: str) -> None:
    """An old game (stored before snapshots, or with them off) replays from its start once,
    storing the snapshots it passes; its next frames replay at most N actions before the hand."""
    store = Store(db_url)
    try:
        table, game_id, game = _store_game(store, "classic", every=0, hands=8)
        assert store.snapshots(game_id) == []
        last = game.hand_no
        whole, full = _frames(store, table, last, None, from_snapshots=False)
        first, applied = _frames(store, table, last, None, every=5)
        assert first == whole and applied == full
        taken = store.snapshots(game_id)
        assert taken and all(s.idx % 5 == 0 for s in taken)
        again, applied = _frames(store, table, last, None, every=5)
        assert again == whole and applied <= 5 + len(whole["frames"])
        earlier, applied = _frames(store, table, last - 1, None, every=5)
        assert earlier == _frames(store, table, last - 1, None, from_snapshots=False)[0]
    finally:
        store.close()


def test_the_server_stores_snapshots_as_it_plays(tmp_path: Path) -> None:
    db = tmp_path / "sabacc.db"
    srv = ServerProcess(db, extra=[*UNLIMITED, "--history-snapshot-every", "5"]).start()
    try:
        code = srv.create(
            seats=["bot:heuristic", "bot:random", "bot:heuristic"],
            options={"game_end": "hands:3"},
        )["code"]

        async def wait() -> None:
            async with Client(srv, code) as watcher:
                while not finished(watcher.state):
                    await watcher.recv(30)

        asyncio.run(wait())
        served = {h: srv.get(f"/api/tables/{code}/games/1/hands/{h}").json() for h in (1, 2, 3)}
    finally:
        srv.stop()
    store = Store(f"sqlite:///{db}")
    try:
        (rec,) = store.load_tables(code)
        assert rec.game is not None
        stored = store.snapshots(rec.game.id)
        assert [s.idx for s in stored] == list(range(5, rec.game.action_count, 5))
        table = table_from_record(rec)
        for hand, doc in served.items():
            assert doc == _frames(store, table, hand, None, from_snapshots=False)[0]
    finally:
        store.close()


def test_a_database_from_before_snapshots_is_upgraded_and_its_hands_still_replay(
    db_url: str,
) -> None:
    from tests.apps.server.test_migrations import _previous_release_db

    made = _previous_release_db(db_url, games=2, finish=True)
    store = Store(db_url)
    try:
        for code, actions in made:
            (rec,) = store.load_tables(code)
            assert rec.game is not None and store.snapshots(rec.game.id) == []
            table = table_from_record(rec)
            doc, applied = _frames(store, table, 1, None, every=500)
            assert applied == len(actions) and len(doc["frames"]) == len(actions) + 1
            assert doc == _frames(store, table, 1, None, from_snapshots=False)[0]
    finally:
        store.close()
