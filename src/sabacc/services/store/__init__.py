"""Persistence of web tables with SQLAlchemy: ``Store("sqlite:///sabacc.db")``.

Needs the ``server`` extra (SQLAlchemy); PostgreSQL URLs need the ``postgres`` extra too.
"""

from sabacc.services.store.repository import (
    ActionRecord,
    GameRecord,
    SeatRecord,
    Store,
    TableRecord,
    normalise_url,
)

__all__ = ["ActionRecord", "GameRecord", "SeatRecord", "Store", "TableRecord", "normalise_url"]
