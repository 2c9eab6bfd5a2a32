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

__all__ = [
    "ActionRecord",
    "ActionWrite",
    "GameRecord",
    "SeatRecord",
    "Store",
    "StoreBusy",
    "TableRecord",
    "UserRecord",
    "UsernameTaken",
    "normalise_url",
    "redact_url",
]
