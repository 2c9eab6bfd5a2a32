"""The SQLAlchemy store, on SQLite and (when available) PostgreSQL."""

from __future__ import annotations

import random

import sabacc
from sabacc.services.store import ActionRecord, SeatRecord, Store


def _table(store: Store, code: str = "ABC234") -> int:
    rec = store.create_table(
        code=code,
        name="Test",
        variant="corellian_spike",
        options={"ante": 2},
        turn_timer=30.0,
        listed=True,
        host_hash="h" * 64,
        seats=[
            SeatRecord(0, "human", name="Ann", token_hash="a" * 64),
            SeatRecord(1, "bot", bot="heuristic", name="R2-D2"),
            SeatRecord(2, "human"),
        ],
    )
    return rec.id


def test_tables_seats_games_actions_round_trip(db_url: str) -> None:
    store = Store(db_url)
    try:
        table_id = _table(store)
        assert store.code_taken("ABC234")
        assert not store.code_taken("ZZZ999")
        store.save_seat(table_id, SeatRecord(2, "human", name="Ben", token_hash="b" * 64))
        seed = 2**63 - 5  # the largest seeds must fit (BigInteger)
        game = sabacc.new_game("spike", players=["Ann", "R2-D2", "Ben"], seed=seed, ante=2)
        rec = store.start_game(
            table_id,
            number=1,
            variant="corellian_spike",
            options={"ante": 2},
            seed=seed,
            players=["Ann", "R2-D2", "Ben"],
            seat_tokens=["a" * 64, None, "b" * 64],
            bots=[None, "heuristic", None],
            stacks=list(game.stacks),
            hands=game.hand_no,
        )
        rng = random.Random(1)
        for idx in range(25):
            seat = game.current_player
            if seat is None:
                break
            hand = game.hand_no
            game.apply(rng.choice(game.legal_actions()), seat=seat)
            store.record_action(
                table_id,
                rec.id,
                ActionRecord(idx, seat, game.actions[-1][1], hand, auto=idx == 3),
                stacks=list(game.stacks),
                hands=game.hand_no,
            )
        (loaded,) = store.load_tables()
        assert loaded.code == "ABC234"
        assert loaded.status == "playing"
        assert loaded.options == {"ante": 2}
        assert [s.name for s in loaded.seats] == ["Ann", "R2-D2", "Ben"]
        assert loaded.seats[1].bot == "heuristic"
        assert loaded.game is not None
        assert loaded.game.seed == seed
        assert loaded.game.stacks == game.stacks
        assert [(a.seat, a.action) for a in loaded.game.actions] == game.actions
        assert loaded.game.actions[3].auto
        # The stored game replays to exactly the live state.
        again = sabacc.replay(loaded.game.history())
        assert again.full_state() == game.full_state()
    finally:
        store.close()


def test_finishing_a_game_stores_result_and_nets(db_url: str) -> None:
    store = Store(db_url)
    try:
        table_id = _table(store)
        rec = store.start_game(
            table_id,
            number=1,
            variant="corellian_spike",
            options={},
            seed=1,
            players=["a", "b", "c"],
            seat_tokens=[None, None, None],
            bots=[None, None, None],
            stacks=[100, 100, 100],
            hands=1,
        )
        store.record_action(
            table_id,
            rec.id,
            ActionRecord(0, 1, "stand", 1),
            stacks=[90, 120, 90],
            hands=3,
            result={"payoffs": [-10, 20, -10]},
            nets={0: -10, 1: 20, 2: -10},
        )
        (loaded,) = store.load_tables()
        assert loaded.status == "finished"
        assert [s.net for s in loaded.seats] == [-10, 20, -10]
        games = store.list_games(table_id)
        assert games[0].result == {"payoffs": [-10, 20, -10]}
        assert games[0].finished_at is not None
        full = store.load_game(table_id, 1)
        assert full is not None and full.actions[0].action == "stand"
        assert store.load_game(table_id, 2) is None
        store.set_status(table_id, "waiting")
        store.replace_seats(table_id, [SeatRecord(0, "human", name="x")])
        (loaded,) = store.load_tables()
        assert loaded.status == "waiting"
        assert [s.name for s in loaded.seats] == ["x"]
    finally:
        store.close()


def test_a_duplicate_action_index_is_refused(db_url: str) -> None:
    """The (game, idx) key makes a double write impossible: the server rebuilds instead."""
    store = Store(db_url)
    try:
        table_id = _table(store)
        rec = store.start_game(
            table_id,
            number=1,
            variant="corellian_spike",
            options={},
            seed=1,
            players=["a", "b", "c"],
            seat_tokens=[None, None, None],
            bots=[None, None, None],
            stacks=[100, 100, 100],
            hands=1,
        )
        store.record_action(table_id, rec.id, ActionRecord(0, 1, "stand", 1), stacks=[], hands=1)
        try:
            store.record_action(
                table_id, rec.id, ActionRecord(0, 2, "stand", 1), stacks=[], hands=1
            )
        except Exception:
            pass
        else:  # pragma: no cover
            raise AssertionError("a second action 0 was stored")
        full = store.load_game(table_id, 1)
        assert full is not None and [a.seat for a in full.actions] == [1]
    finally:
        store.close()
