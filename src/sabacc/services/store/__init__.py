"""Persistence of web tables with SQLAlchemy: ``Store("sqlite:///sabacc.db")``.

Needs the ``server`` extra (SQLAlchemy); PostgreSQL URLs need the ``postgres`` extra too.
"""

from sabacc.services.store.community import UsernameTaken, UserRecord
from sabacc.services.store.repository import (
    ActionRecord,
    ActionWrite,
    GameRecord,
    SeatRecord,
    Store,
    StoreBusy,
    TableRecord,
    normalise_url,
    redact_url,
)
from sabacc.services.store.snapshots import ActionSpan, SnapshotRecord
from sabacc.services.store.tournaments import EventRecord, RegistrationRecord, TournamentStore

__all__ = [
    "ActionRecord",
    "ActionSpan",
    "ActionWrite",
    "EventRecord",
    "GameRecord",
    "RegistrationRecord",
    "SeatRecord",
    "SnapshotRecord",
    "Store",
    "StoreBusy",
    "TableRecord",
    "TournamentStore",
    "UserRecord",
    "UsernameTaken",
    "normalise_url",
    "redact_url",
]
