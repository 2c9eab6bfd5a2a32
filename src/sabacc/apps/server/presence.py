"""Who is at a table: WebSocket clients saying hello (a seat, the host, or a spectator),
coming back to an away seat, and leaving; and where accounts are connected now (presence, for
the community pages)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sabacc.apps.server import messages
from sabacc.apps.server.auth import hash_token, same_hash
from sabacc.apps.server.connection import Connection
from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.seating import usable
from sabacc.apps.server.table import Table

if TYPE_CHECKING:
    from sabacc.apps.server.manager import TableManager


class Presence:
    """The connections of the tables of one :class:`~sabacc.apps.server.manager.TableManager`."""

    def __init__(self, manager: TableManager) -> None:
        self.m = manager
        self.settings = manager.settings

    def connect(self, table: Table, client: str = "?") -> Connection:
        """A new WebSocket client of ``table`` (it joins the table when it says hello)."""
        return Connection(self.settings, table, client)

    async def hello(self, conn: Connection, token: str | None) -> None:
        """Who ``conn`` is: a seat, the host, or a spectator (at most ``max_spectators``).

        A spectator coming or going changes only the spectator count, so the others are told
        together a moment later (``announce_delay``): 300 people opening a table cost each
        connection a few state messages, not 300.
        """
        table = conn.table
        token_hash = hash_token(token) if token else None
        seat = table.seat_of(token_hash)
        watching = seat is None and not same_hash(token_hash, table.host_hash)
        cap = self.settings.max_spectators
        full = cap > 0 and sum(1 for c in table.conns if c.watching) >= cap
        if watching and conn not in table.conns and full:
            raise ServerError(
                "too_many_spectators",
                f"{cap} people are watching this table already: try again later",
                status=429,
            )
        conn.token_hash = token_hash
        conn.ready = True
        conn.game_no = -1
        conn.base = None  # a whole state follows every hello
        table.conns.add(conn)
        if token and watching:
            conn.error("bad_token", "that token holds no seat at this table: you are watching")
        if seat is not None:
            await self.back_at_table(table, seat)
        conn.push(messages.welcome(table, seat, conn.host, conn.deltas))
        for entry in table.chat:
            conn.push(entry)
        if watching:
            table.touch()
            conn.mark_dirty()
            self._announce_soon(table)
        else:
            self.m.changed(table)

    def _announce_soon(self, table: Table) -> None:
        """Tell every connection of ``table`` about a spectator change, once, shortly."""
        loop = self.m.clock.loop
        if loop is None:
            self.m.changed(table)
        elif table.announce is None:
            table.announce = loop.call_later(self.settings.announce_delay, self._announce, table)

    @staticmethod
    def _announce(table: Table) -> None:
        table.announce = None
        table.touch()
        for conn in table.conns:
            conn.mark_dirty()

    async def back_at_table(self, table: Table, seat: int) -> None:
        """A player who was away is connected again: their seat is theirs to play again
        (if the database is down, it stays away until the database is back)."""
        if not table.seats[seat].away:
            return
        async with table.lock:
            if table.seats[seat].away and table.status == "playing" and table.quarantine is None:
                try:
                    await self.m.update_seat(table, seat, away=False)
                except ServerError:
                    return
                table.missed.pop(seat, None)

    async def back(self, table: Table, seat: int | None) -> None:
        """The player of ``seat`` says they are at the screen: no longer away."""
        if seat is None:
            raise ServerError("not_seated", "you are not seated at this table")
        async with table.lock:
            usable(table)
            if table.seats[seat].away:
                await self.m.update_seat(table, seat, away=False)
            table.missed.pop(seat, None)
        self.m.changed(table)

    def disconnect(self, conn: Connection) -> None:
        """``conn`` is gone: the others are told (a spectator's going, a moment later)."""
        conn.closed = True
        conn.wake.set()
        table = conn.table
        if conn in table.conns:
            table.conns.discard(conn)
            if conn.watching:
                table.touch()
                self._announce_soon(table)
            else:
                self.m.changed(table)

    def forget_names(self, hashes: set[str], name: str) -> None:
        """A deleted account's seats at the tables in memory show ``name`` from now on (the
        store has renamed them already)."""
        for table in self.m.tables.values():
            changed = False
            for seat in table.seats:
                if seat.token_hash in hashes:
                    seat.name = name
                    changed = True
            if changed:
                self.m.changed(table)

    def tables_of_users(self, users: set[int]) -> dict[int, dict[str, Any]]:
        """Where each of ``users`` is connected now: a listed table's code, name and link, or
        only ``{"private": True}`` (an unlisted table's code is its secret)."""
        out: dict[int, dict[str, Any]] = {}
        for table in self.m.tables.values():
            for conn in table.conns:
                if conn.user_id in users and not conn.closed:
                    if table.listed:
                        out[conn.user_id] = {
                            "code": table.code, "name": table.name, "url": f"/t/{table.code}",
                        }  # fmt: skip
                    else:
                        out.setdefault(conn.user_id, {"private": True})
        return out
