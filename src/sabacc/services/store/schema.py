"""The store's schema, versioned with Alembic (scripts in ``migrations/``, shipped with the
package): :func:`upgrade` brings any database to the newest revision in place.

A database made before migrations existed has the baseline's tables and no ``alembic_version``
table: it is stamped with the baseline (revision ``0001``) first, then upgraded, so nothing in
it is touched but by the later revisions (which only add). Several servers starting together on
one PostgreSQL take turns (a transaction-scoped advisory lock), so a revision runs once.
"""

from __future__ import annotations

import threading
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect, text

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: The revision equal to the schema of the release before migrations.
BASELINE = "0001"
#: The PostgreSQL advisory lock held while upgrading ("sabmig" in ASCII).
MIGRATE_KEY = 0x7361626D6967
#: Alembic's ``context`` is one per process: stores opened in several threads take turns.
_UPGRADING = threading.Lock()


def alembic_config(conn: Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if conn is not None:
        cfg.attributes["connection"] = conn
    return cfg


def head() -> str:
    """The newest revision the scripts define."""
    found = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert found is not None
    return found


def current(conn: Connection) -> str | None:
    """The revision a database is at (None: never stamped)."""
    return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, target: str = "head") -> str | None:
    """Bring the database of ``engine`` to ``target`` (the newest revision by default);
    returns the revision it was at before (None: it had no stamp)."""
    newest = head() if target == "head" else target
    with _UPGRADING, engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATE_KEY})
        was = current(conn)
        if was == newest:
            return was
        cfg = alembic_config(conn)
        if was is None and inspect(conn).has_table("tables"):
            command.stamp(cfg, BASELINE)  # made by the release before migrations
        command.upgrade(cfg, target)
    return was
