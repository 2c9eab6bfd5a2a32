"""Seating: creating a table, taking and leaving seats, and starting a game (by the host, once
every human seat is taken, or again after a game). Every change runs under the table's lock,
stored before it is made in memory."""

from __future__ import annotations

import logging
import random
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

import sabacc
from sabacc.apps.server.auth import (
    CODE_LENGTH,
    UNLISTED_CODE_LENGTH,
    hash_token,
    new_code,
    new_token,
    same_hash,
)
from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.protocol import CreateTable
from sabacc.apps.server.table import (
    Table,
    clean_name,
    last_hand_start,
    make_bots,
    table_from_record,
)
from sabacc.core.errors import SabaccError
from sabacc.engine.variant import VariantInfo
from sabacc.services.bots import make_bot
from sabacc.services.store import SeatRecord, TableRecord, UserRecord
from sabacc.variants.registry import lookup

if TYPE_CHECKING:
    from sabacc.apps.server.manager import TableManager

log = logging.getLogger("sabacc.apps.server")

BOT_NAMES = ("R2-D2", "C-3PO", "BB-8", "K-2SO", "L3-37", "IG-88", "4-LOM", "HK-47")


def usable(table: Table) -> None:
    """Refuse any change at a quarantined table (its stored game does not rebuild)."""
    if table.quarantine is not None:
        raise ServerError("table_unavailable", table.quarantine, status=503)


class Seating:
    """Tables made, seats taken and left, games started, for one
    :class:`~sabacc.apps.server.manager.TableManager`."""

    def __init__(self, manager: TableManager) -> None:
        self.m = manager
        self.store = manager.store
        self.settings = manager.settings

    async def update_seat(self, table: Table, position: int, **changes: Any) -> SeatRecord:
        """Store a changed copy of a seat, then put it in place (see
        :meth:`~sabacc.apps.server.persistence.Persistence.persist`; call it holding
        ``table.lock``)."""
        new = replace(table.seats[position], **changes)
        await self.m.persist(lambda: self.store.save_seat(table.id, new))
        table.seats[position] = new
        return new

    # ------------------------------------------------------------------ create
    async def create(self, req: CreateTable, user: UserRecord | None = None) -> dict[str, Any]:
        """A new table; ``user`` (logged in) sits under their username if they sit, and the
        seat's token is theirs (their account's stats count the games)."""
        self._room_for(req)
        info, options, seats = self._checked(req)
        length = CODE_LENGTH if req.listed else UNLISTED_CODE_LENGTH
        code = new_code(length)
        while code in self.m.tables or await self.m.persist(partial(self.store.code_taken, code)):
            code = new_code(length)  # pragma: no cover - rare
        host_token = new_token()
        host_hash = hash_token(host_token)
        seat_no: int | None = None
        sits = req.player_name is not None and bool(clean_name(req.player_name))
        if sits and user is None:
            await self.not_an_account(clean_name(req.player_name or ""))
        if sits or (user is not None and req.player_name is not None):
            first = next((s for s in seats if s.kind == "human"), None)
            if first is not None:
                first.name = (
                    user.username if user is not None else clean_name(req.player_name or "")
                )
                first.token_hash = host_hash
                seat_no = first.position
        name = clean_name(req.name, 60) or f"{info.title} table"
        made = partial(self._store_table, req, code, name, info, options, seats, host_hash)
        rec = await self.m.persist(partial(made, user if seat_no is not None else None))
        table = table_from_record(rec)
        self.m.tables[code] = table
        async with table.lock:
            await self.maybe_start(table)
        self.m.changed(table)
        return {
            "code": code,
            "url": f"/t/{code}",
            "host_token": host_token,
            "seat": seat_no,
            "token": host_token if seat_no is not None else None,
        }

    def _room_for(self, req: CreateTable) -> None:
        """Refuse a table beyond ``max_tables``, or of bots only beyond ``max_bot_tables``."""
        tables = self.m.tables
        if len(tables) >= self.settings.max_tables:
            raise ServerError("too_many_tables", "this server has as many tables as it can hold")
        bot_cap = self.settings.max_bot_tables
        bots_only = all(kind != "human" for kind in req.seats)
        if bot_cap > 0 and bots_only and sum(t.bots_only for t in tables.values()) >= bot_cap:
            raise ServerError(
                "too_many_bot_tables",
                f"this server holds {bot_cap} tables of bots only already: "
                "seat at least one person, or try again later",
                status=429,
            )

    @staticmethod
    def _checked(req: CreateTable) -> tuple[VariantInfo, dict[str, Any], list[SeatRecord]]:
        """The variant, its changed options and the seats a request asks for, each checked
        (``bad_variant``, ``bad_seats``, ``bad_options``, ``bad_bot``)."""
        try:
            info = lookup(req.variant)
        except SabaccError as exc:
            raise ServerError("bad_variant", str(exc)) from None
        n = len(req.seats)
        if not info.min_players <= n <= info.max_players:
            raise ServerError(
                "bad_seats",
                f"{info.title} is played by {info.min_players}-{info.max_players} players, not {n}",
            )
        raw = {k: v for k, v in req.options.items() if v is not None and v != ""}
        if req.buy_in is not None:
            raw["buy_in"] = req.buy_in
        try:
            options = info.options_type.from_mapping(raw).changed()
        except SabaccError as exc:
            raise ServerError("bad_options", str(exc)) from None
        seats: list[SeatRecord] = []
        for i, kind in enumerate(req.seats):
            if kind == "human":
                seats.append(SeatRecord(position=i, kind="human"))
                continue
            bot = kind.split(":", 1)[1]
            try:
                make_bot(bot, 0, info)
            except SabaccError as exc:
                raise ServerError("bad_bot", str(exc)) from None
            seats.append(SeatRecord(position=i, kind="bot", bot=bot, name=BOT_NAMES[i % 8]))
        return info, options, seats

    def _store_table(
        self,
        req: CreateTable,
        code: str,
        name: str,
        info: VariantInfo,
        options: dict[str, Any],
        seats: list[SeatRecord],
        host_hash: str,
        sitting: UserRecord | None,
    ) -> TableRecord:
        """In a worker thread: the new table stored (its lease taken, in a cluster, and the
        host's seat token linked to ``sitting``'s account)."""
        made = self.store.create_table(
            code=code,
            name=name,
            variant=info.name,
            options=options,
            turn_timer=float(req.turn_timer),
            listed=req.listed,
            host_hash=host_hash,
            seats=seats,
        )
        if self.settings.cluster:
            self.store.take_lease(made.id, self.m.node, self.settings.lease_ttl)
        if sitting is not None:
            self.store.link_tokens(sitting.id, [host_hash])
        return made

    # ------------------------------------------------------------------ seats
    async def join(
        self,
        code: str,
        name: str,
        seat: int | None = None,
        host_token: str | None = None,
        user: UserRecord | None = None,
    ) -> dict[str, Any]:
        """Take a seat; ``user`` (logged in) sits under their username, and the seat's token
        becomes their account's."""
        table = await self.m.get(code)
        async with table.lock:
            return await self._join(table, name, seat, host_token, user)

    async def _join(
        self,
        table: Table,
        name: str,
        seat: int | None,
        host_token: str | None,
        user: UserRecord | None = None,
    ) -> dict[str, Any]:
        usable(table)
        display = user.username if user is not None else clean_name(name)
        if user is None and display:
            await self.not_an_account(display)
        if not display:
            raise ServerError("bad_name", "please give a name")
        if table.status == "playing":
            raise ServerError(
                "game_running",
                "a game is being played at this table: watch it, and take a seat when it ends",
                status=409,
            )
        chosen = self._seat_to_take(table, seat)
        token = new_token()
        if (
            host_token
            and same_hash(hash_token(host_token), table.host_hash)
            and table.seat_of(table.host_hash) is None
        ):
            token = host_token  # the host sits down and stays host
        if user is not None:
            account = user.id
            await self.m.persist(lambda: self.store.link_tokens(account, [hash_token(token)]))
        await self.update_seat(
            table, chosen.position, name=display, token_hash=hash_token(token), away=False, net=0
        )
        await self.maybe_start(table)
        self.m.changed(table)
        return {"code": table.code, "seat": chosen.position, "token": token}

    @staticmethod
    def _seat_to_take(table: Table, seat: int | None) -> SeatRecord:
        """The seat asked for (or the first open one), refused if it cannot be taken."""
        if seat is not None:
            if seat >= len(table.seats):
                raise ServerError("bad_seat", f"this table has seats 0-{len(table.seats) - 1}")
            chosen = table.seats[seat]
            if chosen.kind != "human":
                raise ServerError("bad_seat", "that seat is played by a bot", status=409)
            if chosen.token_hash is not None:
                raise ServerError("seat_taken", "that seat is taken", status=409)
            return chosen
        open_seats = [s for s in table.seats if s.kind == "human" and s.token_hash is None]
        if not open_seats:
            raise ServerError("table_full", "every seat at this table is taken", status=409)
        return open_seats[0]

    async def not_an_account(self, name: str) -> None:
        """A guest may not sit under an account's username (nobody passes for someone else)."""
        from sabacc.apps.server.names import check_guest_name
        from sabacc.services.community.accounts import name_key

        await check_guest_name(self.m, name)  # nor under a look-alike of one, or of a bot's
        key = name_key(name)
        if len(key) <= 20 and await self.m.read(lambda: self.store.user_by_key(key)) is not None:
            raise ServerError(
                "name_taken",
                f"{name!r} is a player's account name: log in as them, or choose another name",
                status=409,
            )

    @staticmethod
    def seat_for_token(table: Table, token: str) -> int:
        """The seat ``token`` holds at ``table`` (else ``bad_token``, 403)."""
        seat = table.seat_of(hash_token(token))
        if seat is None:
            raise ServerError("bad_token", "that token holds no seat at this table", status=403)
        return seat

    async def leave(self, table: Table, seat: int) -> None:
        """Give ``seat`` up: freed, or during a game marked away (freed when the game ends)."""
        async with table.lock:
            usable(table)
            if table.status == "playing" and table.game is not None and not table.game.is_over:
                # played automatically; the seat is freed when the game ends
                await self.update_seat(table, seat, away=True)
            else:
                await self.update_seat(table, seat, name=None, token_hash=None, away=False, net=0)
        self.m.changed(table)

    # ------------------------------------------------------------------ games
    async def start(self, table: Table, conn_host: bool) -> None:
        """The host starts now: empty human seats are removed, the others play."""
        async with table.lock:
            await self._start_now(table, conn_host)
        self.m.changed(table)

    async def _start_now(self, table: Table, conn_host: bool) -> None:
        usable(table)
        if not conn_host:
            raise ServerError("not_host", "only the player who created the table can start it")
        if table.status == "playing":
            raise ServerError("game_running", "the game has already started")
        taken = [s for s in table.seats if s.kind == "bot" or s.token_hash is not None]
        info = lookup(table.variant)
        if len(taken) < info.min_players:
            raise ServerError(
                "not_enough_players",
                f"{info.title} needs at least {info.min_players} players seated",
            )
        if len(taken) != len(table.seats):
            renumbered = [replace(s, position=i) for i, s in enumerate(taken)]
            await self.m.persist(lambda: self.store.replace_seats(table.id, renumbered))
            table.seats = renumbered
        await self.start_game(table)

    async def new_game(self, table: Table, seat: int | None, host: bool) -> None:
        """Another game at a finished table (seats of players who left are freed)."""
        async with table.lock:
            await self._new_game(table, seat, host)
        self.m.changed(table)

    async def _new_game(self, table: Table, seat: int | None, host: bool) -> None:
        usable(table)
        if table.status != "finished":
            raise ServerError("game_running", "the game is not over yet")
        if seat is None and not host:
            raise ServerError("not_seated", "only a seated player can start a new game")
        connected = {conn.seat for conn in table.conns}
        for rec in list(table.seats):
            if rec.kind != "human" or not rec.away:
                continue
            if rec.position in connected:  # still at the table: the seat stays theirs
                await self.update_seat(table, rec.position, away=False)
            else:  # they left during the game: free the seat
                await self.update_seat(
                    table, rec.position, name=None, token_hash=None, away=False, net=0
                )
        table.missed.clear()
        await self.m.persist(lambda: self.store.set_status(table.id, "waiting"))
        table.status = "waiting"
        await self.maybe_start(table)

    async def maybe_start(self, table: Table) -> None:
        """Start the game once every human seat is taken (retried when the database is back,
        if it could not be stored). Call it holding ``table.lock``."""
        if table.status == "waiting" and table.human_seats_filled() and not table.quarantine:
            try:
                await self.start_game(table)
            except ServerError as exc:
                log.warning("table %s could not start its game: %s", table.code, exc.code)

    async def start_game(self, table: Table) -> None:
        """A new game at ``table``, with a fresh seed, stored and then put in place."""
        seed = random.SystemRandom().randrange(2**63)
        names: list[str] = []
        for s in table.seats:
            base = s.name or f"Player {s.position + 1}"
            name, k = base, 2
            while name in names:
                name = f"{base} {k}"
                k += 1
            names.append(name)
        game = sabacc.new_game(table.variant, players=names, seed=seed, **table.options)
        number = table.games_played + 1
        rec = await self.m.persist(
            lambda: self.store.start_game(
                table.id,
                number=number,
                variant=table.variant,
                options=dict(table.options),
                seed=seed,
                players=names,
                seat_tokens=[s.token_hash for s in table.seats],
                bots=[s.bot for s in table.seats],
                stacks=list(game.stacks),
                hands=game.hand_no,
            )
        )
        table.game = game
        table.game_rec = rec
        table.bots = make_bots(rec)
        table.games_played = number
        table.status = "playing"
        table.missed.clear()
        table.auto_events = set()
        table.hand_event_start = last_hand_start(game)
