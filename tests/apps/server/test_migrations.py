"""Schema migrations (Alembic): a database made by the release before them is upgraded in place
with every game kept, the scripts make exactly the models' schema, on SQLite and PostgreSQL."""

from __future__ import annotations

import random
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, insert, inspect, select

import sabacc
from sabacc.services.store import Store, normalise_url
from sabacc.services.store.models import (
    ActionRow,
    Base,
    GameRow,
    LeaseRow,
    SeatRow,
    TableRow,
    utcnow,
)
from sabacc.services.store.schema import BASELINE, current, head

#: The tables of the release before migrations, which made them with ``create_all``.
PREVIOUS_RELEASE = [
    Base.metadata.tables[t.__tablename__] for t in (TableRow, SeatRow, GameRow, ActionRow, LeaseRow)
]
T = {t.name: t for t in PREVIOUS_RELEASE}


def _previous_release_db(
    url: str, games: int = 3, finish: bool = False
) -> list[tuple[str, list[tuple[int, str]]]]:
    """A database as the release before migrations left it: its tables only, no
    ``alembic_version``, with ``games`` played games (each a table of its own). Returns each
    table's code and its game's actions."""
    engine = create_engine(normalise_url(url))
    Base.metadata.create_all(engine, tables=PREVIOUS_RELEASE)
    made = []
    with engine.begin() as conn:
        for g in range(games):
            code = f"OLD{g:03d}"
            names = ["Ann", "R2-D2", "Ben"]
            seed = 1000 + g
            options: dict[str, Any] = {"game_end": "hands:1"} if finish else {}
            game = sabacc.new_game("spike", players=names, seed=seed, **options)
            rng = random.Random(g)
            while not game.is_over and (finish or len(game.actions) < 40):
                game.apply(rng.choice(game.legal_actions()), seat=game.current_player)
            table_id = conn.execute(
                insert(T["tables"]).returning(T["tables"].c.id),
                {
                    "code": code, "name": "Old table", "variant": "corellian_spike",
                    "options": options, "turn_timer": 30.0, "listed": True, "host_hash": "h" * 64,
                    "status": "finished" if game.is_over else "playing", "games_played": 1,
                    "created_at": utcnow(),
                },
            ).scalar_one()  # fmt: skip
            for pos, name in enumerate(names):
                conn.execute(
                    insert(T["seats"]),
                    {
                        "table_id": table_id, "position": pos,
                        "kind": "bot" if pos == 1 else "human",
                        "bot": "heuristic" if pos == 1 else None, "name": name,
                        "token_hash": None if pos == 1 else f"{pos}" * 64,
                        "away": False, "net": 0,
                    },
                )  # fmt: skip
            game_id = conn.execute(
                insert(T["games"]).returning(T["games"].c.id),
                {
                    "table_id": table_id, "number": 1, "variant": "corellian_spike",
                    "options": options, "seed": seed, "players": names,
                    "seat_tokens": ["0" * 64, None, "2" * 64],
                    "bots": [None, "heuristic", None], "stacks": list(game.stacks),
                    "hands": game.hand_no, "action_count": len(game.actions),
                    "result": game.outcome.to_dict() if game.outcome else None,
                    "started_at": utcnow(), "finished_at": utcnow() if game.is_over else None,
                },
            ).scalar_one()  # fmt: skip
            for idx, (seat, action) in enumerate(game.actions):
                conn.execute(
                    insert(T["actions"]),
                    {
                        "game_id": game_id, "idx": idx, "seat": seat, "action": action,
                        "hand": 1, "auto": False, "created_at": utcnow(),
                    },
                )  # fmt: skip
            made.append((code, list(game.actions)))
    engine.dispose()
    return made


def test_a_previous_release_database_is_upgraded_with_every_game(db_url: str) -> None:
    made = _previous_release_db(db_url)
    store = Store(db_url)
    try:
        assert store.upgraded_from is None  # it had no stamp
        with store.engine.connect() as conn:
            assert current(conn) == head()
            assert inspect(conn).has_table("users")
        tables = {t.code: t for t in store.load_tables()}
        assert set(tables) == {code for code, _ in made}
        for code, actions in made:
            table = tables[code]
            assert [s.name for s in table.seats] == ["Ann", "R2-D2", "Ben"]
            assert table.game is not None
            assert [(a.seat, a.action) for a in table.game.actions] == actions
            again = sabacc.replay(table.game.history())
            assert again.actions == actions
            listed = store.list_games(table.id)
            assert [g.number for g in listed] == [1]
    finally:
        store.close()
    # Opening it again changes nothing: it is at the newest revision already.
    again_store = Store(db_url)
    try:
        assert again_store.upgraded_from == head()
        assert len(again_store.load_tables()) == len(made)
    finally:
        again_store.close()


def test_the_scripts_make_exactly_the_models_schema(db_url: str) -> None:
    store = Store(db_url)
    try:
        with store.engine.connect() as conn:
            diff = compare_metadata(
                MigrationContext.configure(conn, opts={"compare_type": True}), Base.metadata
            )
        assert diff == []
    finally:
        store.close()


def test_the_baseline_is_the_previous_release_schema(db_url: str) -> None:
    """Upgraded only to the baseline, a new database has the previous release's tables, the
    same as its ``create_all`` made (compared by Alembic, columns and types and indexes)."""
    from sabacc.services.store.schema import upgrade

    engine = create_engine(normalise_url(db_url))
    try:
        upgrade(engine, BASELINE)
        with engine.connect() as conn:
            old = Base.metadata.__class__()
            for table in PREVIOUS_RELEASE:
                table.to_metadata(old)
            diff = compare_metadata(MigrationContext.configure(conn), old)
            assert diff == []
            assert current(conn) == BASELINE
            assert conn.execute(select(TableRow.id)).all() == []
    finally:
        engine.dispose()


def test_games_finished_before_the_upgrade_count_once_their_player_signs_up(db_url: str) -> None:
    made = _previous_release_db(db_url, games=2, finish=True)
    store = Store(db_url)
    try:
        user = store.create_user("ann", "ann", "not-a-real-hash")
        # The browser that played seat 0 of those games hands its token over.
        assert store.link_tokens(user.id, ["0" * 64]) == 1
        prof = store.profile(user.id)
        (row,) = prof["variants"]
        assert row["games"] == len(made) and row["hands"] >= len(made)
        assert row["rating"] is None  # ratings are never made up afterwards
        assert {g["table"] for g in prof["recent"]} == {code for code, _ in made}
        # Once only: linking again adds nothing.
        assert store.summarise_old_games(["0" * 64]) == 0
        assert store.profile(user.id)["variants"][0]["games"] == len(made)
    finally:
        store.close()


def test_servers_starting_together_upgrade_once(db_url: str) -> None:
    """Three stores opened at once on one new database (a cluster starting): one of them makes
    the schema, the others wait and find it made; none fails."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(3) as pool:
        stores = list(pool.map(lambda _: Store(db_url), range(3)))
    try:
        assert sorted(str(s.upgraded_from) for s in stores) == [head(), head(), "None"]
        with stores[0].engine.connect() as conn:
            assert current(conn) == head()
    finally:
        for s in stores:
            s.close()
