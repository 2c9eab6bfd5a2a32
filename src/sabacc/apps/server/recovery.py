"""Tables between memory and the store: rebuilding a live table from its stored record (at
start-up, after an eviction), undoing an action the store refused, and choosing the idle tables
to evict.

The store holds no game state, only ``(variant, options, seed, players)`` and the ordered
actions; a game is rebuilt by replaying them.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

import sabacc
from sabacc.apps.server.table import Table, last_hand_start, make_bots, table_from_record
from sabacc.core.errors import SabaccError
from sabacc.engine.game import Game
from sabacc.services.store import GameRecord, TableRecord
from sabacc.services.store.repository import DATA_ERRORS
from sabacc.variants.registry import lookup

log = logging.getLogger("sabacc.apps.server")


def replay_game(rec: GameRecord) -> Game:
    """The game of ``rec`` as it stands after its stored actions (:func:`sabacc.replay`; a
    stored action that does not apply raises :class:`~sabacc.core.errors.HistoryError`)."""
    return sabacc.replay(rec.history())


QUARANTINED = (
    "this table cannot be played: its stored game could not be rebuilt "
    "(its data is kept for the server's operators)"
)


def undo_last(game: Game) -> Game:
    """``game`` as it was before its last action: replayed from its own history (the seeded
    replay gives the same state exactly), for an action that could not be stored."""
    return sabacc.replay(game.history(), upto=len(game.actions) - 1)


def table_from_store(rec: TableRecord) -> Table:
    """A live table from its record; a game in progress is replayed from seed and actions.

    A table whose rows are damaged or whose stored actions the engine refuses is quarantined
    (logged, shown as unavailable, nothing changed in the store) instead of stopping the
    server: the other tables must start.
    """
    table = table_from_record(rec)
    if rec.damage is not None:
        return _quarantine(table, rec.damage)
    unloadable = check_table_row(rec)
    if unloadable is not None:
        return _quarantine(table, unloadable)
    if rec.game is not None:
        try:
            game = replay_game(rec.game)
            bots = make_bots(rec.game)
        except (SabaccError, *DATA_ERRORS) as exc:
            return _quarantine(table, f"{type(exc).__name__}: {exc}")
        table.game = game
        table.game_rec = rec.game
        table.bots = bots
        table.hand_event_start = last_hand_start(game)
        if game.is_over and table.status == "playing":  # pragma: no cover - safety
            table.status = "finished"
    elif table.status == "playing":  # pragma: no cover - a game row always exists
        table.status = "waiting"
    return table


def check_table_row(rec: TableRecord) -> str | None:
    """What makes a stored table row unplayable before any game is replayed (None: nothing):
    a variant this server does not know (a plug-in removed, a row from a newer release), or
    options its variant refuses. Such a row used to break every page listing it."""
    try:
        info = lookup(rec.variant)
        info.options_type.from_mapping(dict(rec.options))
    except (SabaccError, TypeError, ValueError, AttributeError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def _quarantine(table: Table, reason: str) -> Table:
    log.error("table %s is quarantined (its stored data is kept): %s", table.code, reason)
    table.quarantine = QUARANTINED
    return table


def idle_codes(tables: Mapping[str, Table], limit: float, now: float) -> list[str]:
    """The tables idle for ``limit`` seconds at ``now`` (``time.monotonic()``): nobody
    connected, no turn timer or move pending."""
    return [
        code
        for code, t in tables.items()
        if not t.conns and t.timer is None and t.pending is None and now - t.last_active >= limit
    ]
