"""Bots on the server (issue 38): challenges, each account's event stream, and a game's
stream for the seat an account holds.

Programs talk to the server over plain HTTP: calls to act (challenge, accept, decline, move)
and two newline-delimited JSON streams to listen (``application/x-ndjson``): the account's
events (challenges in and out, games starting) and one game's states as its seat sees them.
Why HTTP streams rather than the table's WebSocket: every call carries the token, so scopes,
revocation and the per-token rate are checked at each one with the same code as any API call;
a stream is read with any HTTP library or ``curl -N``; and a program that plays many games
holds one event stream plus one stream per game, opened and closed as games come and go.

A game stream is a :class:`~sabacc.apps.server.connection.Connection` of the table for the
seat the account holds (it counts as the player being at the table), woken by every change
like a WebSocket's, but it sends the seat's observation (the engine's, with its legal actions)
instead of the page's state message. A move goes through
:meth:`~sabacc.apps.server.manager.TableManager.act`, the one path of every seat's action.

Challenges and the event queues live in this process's memory (a challenge lasts
:data:`CHALLENGE_TTL` seconds unanswered).
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from fastapi import Request

from sabacc.apps.server.connection import Connection
from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.manager import TableManager
from sabacc.apps.server.protocol import CreateTable
from sabacc.apps.server.table import Table
from sabacc.services.store import UserRecord

#: Seconds an unanswered challenge waits before it expires.
CHALLENGE_TTL = 60.0
#: Seconds between keep-alive lines (an empty line) on a quiet stream.
KEEPALIVE = 7.0
#: Events kept for an account's stream while it is not read (the oldest dropped beyond).
QUEUE_MAX = 100
#: Open challenges one account may have made at once.
MAX_OUT = 10


def line(event: dict[str, Any]) -> bytes:
    """One NDJSON line."""
    return json.dumps(event, separators=(",", ":"), default=str).encode() + b"\n"


@dataclass
class Challenge:
    """A challenge of ``to`` (a bot account) by ``by`` to play one game of ``variant``."""

    id: str
    by: UserRecord
    to: UserRecord
    variant: str
    turn_timer: float
    options: dict[str, Any]
    at: float = field(default_factory=time.monotonic)
    status: str = "open"  # open | accepted | declined | canceled | expired
    #: Once accepted: the table's code, and each account's seat and seat token.
    code: str | None = None
    seats: dict[int, tuple[int, str]] = field(default_factory=dict)

    def json(self, for_user: int | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "status": self.status,
            "by": self.by.username,
            "to": self.to.username,
            "variant": self.variant,
            "turn_timer": self.turn_timer,
            "options": self.options,
        }
        if self.code is not None:
            out["game"] = game_json(self.code, self.seats.get(for_user or -1))
        return out


def game_json(code: str, held: tuple[int, str] | None) -> dict[str, Any]:
    """A game started for an account: its table, and the seat (and the seat's own token, for
    playing it from the web page) the account holds there."""
    out: dict[str, Any] = {"code": code, "url": f"/t/{code}"}
    if held is not None:
        out["seat"], out["seat_token"] = held
    return out


class BotHub:
    """The challenges and the listeners of one server process."""

    def __init__(self) -> None:
        self.challenges: dict[str, Challenge] = {}
        self.listeners: dict[int, set[asyncio.Queue[dict[str, Any]]]] = {}
        #: The games each account was seated at through a challenge, while they last.
        self.games: dict[int, dict[str, int]] = {}
        #: Accounts known to be bots (a bot account never becomes a person's again).
        self.bots: set[int] = set()
        #: Tokens revoked while this process runs: their open streams close at once.
        self.revoked: set[int] = set()

    # -------------------------------------------------------------- events
    def push(self, user_id: int, event: dict[str, Any]) -> None:
        """Queue ``event`` for every open event stream of ``user_id``."""
        for queue in self.listeners.get(user_id, ()):
            if queue.qsize() >= QUEUE_MAX:
                queue.get_nowait()
            queue.put_nowait(event)

    def listen(self, user_id: int, tables: dict[str, Table]) -> asyncio.Queue[dict[str, Any]]:
        """A new event stream of ``user_id``: first told the challenges waiting for its answer
        and its games still being played (``tables``: the tables in memory)."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.listeners.setdefault(user_id, set()).add(queue)
        for ch in self.open_challenges():
            if ch.to.id == user_id:
                queue.put_nowait({"type": "challenge", "challenge": ch.json(user_id)})
        for code, seat in list(self.games.get(user_id, {}).items()):
            table = tables.get(code)
            if table is not None and table.status == "finished":
                self.game_over(code)
                continue
            game = {**game_json(code, None), "seat": seat}
            queue.put_nowait({"type": "game_start", "game": game})
        return queue

    def unlisten(self, user_id: int, queue: asyncio.Queue[dict[str, Any]]) -> None:
        queues = self.listeners.get(user_id)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self.listeners[user_id]

    async def events(
        self, user_id: int, token_id: int, queue: asyncio.Queue[dict[str, Any]]
    ) -> AsyncIterator[bytes]:
        """An account's event stream: each event a line, an empty line when quiet."""
        try:
            yield b"\n"  # the stream is open (headers and a first line reach the client now)
            while token_id not in self.revoked:
                try:
                    event = await asyncio.wait_for(queue.get(), KEEPALIVE)
                except TimeoutError:
                    self.expire()
                    yield b"\n"
                    continue
                if event.get("type") == "revoked":
                    break
                yield line(event)
        finally:
            self.unlisten(user_id, queue)

    def revoke(self, token_id: int, user_id: int) -> None:
        """A token was revoked: its open streams end now."""
        self.revoked.add(token_id)
        self.push(user_id, {"type": "revoked"})

    # -------------------------------------------------------------- challenges
    def open_challenges(self) -> list[Challenge]:
        self.expire()
        return [c for c in self.challenges.values() if c.status == "open"]

    def expire(self, now: float | None = None) -> None:
        """Open challenges past :data:`CHALLENGE_TTL` expire; answered ones are forgotten a
        while later (their challenger may still read them)."""
        now = time.monotonic() if now is None else now
        for ch in list(self.challenges.values()):
            if ch.status == "open" and now - ch.at > CHALLENGE_TTL:
                ch.status = "expired"
                self.push(ch.to.id, {"type": "challenge_canceled", "challenge": ch.json()})
                self.push(ch.by.id, {"type": "challenge_expired", "challenge": ch.json()})
            elif ch.status != "open" and now - ch.at > 10 * CHALLENGE_TTL:
                del self.challenges[ch.id]

    def challenge(self, by: UserRecord, to: UserRecord, variant: str, timer: float,
                  options: dict[str, Any]) -> Challenge:  # fmt: skip
        """A new challenge of the bot account ``to``, announced on its event stream."""
        if by.id == to.id:
            raise ServerError("self_challenge", "an account cannot challenge itself")
        mine = [c for c in self.open_challenges() if c.by.id == by.id]
        if len(mine) >= MAX_OUT:
            raise ServerError("too_many_challenges", f"at most {MAX_OUT} open challenges", 429)
        ch = Challenge(secrets.token_urlsafe(12), by, to, variant, timer, options)
        self.challenges[ch.id] = ch
        self.push(to.id, {"type": "challenge", "challenge": ch.json(to.id)})
        return ch

    def get(self, challenge_id: str, user_id: int) -> Challenge:
        """The challenge ``challenge_id`` made by or of ``user_id`` (else ``no_challenge``)."""
        self.expire()
        ch = self.challenges.get(challenge_id)
        if ch is None or user_id not in (ch.by.id, ch.to.id):
            raise ServerError("no_challenge", "no such challenge", status=404)
        return ch

    def answer(self, ch: Challenge, user_id: int, status: str) -> None:
        """``declined`` (by the challenged) or ``canceled`` (by the challenger)."""
        if ch.status != "open":
            raise ServerError("challenge_closed", f"the challenge is {ch.status}", status=409)
        if (status == "declined") != (user_id == ch.to.id):
            raise ServerError("not_yours", "only the challenged account can decline, only the "
                              "challenger can cancel", status=403)  # fmt: skip
        ch.status = status
        for who in (ch.by.id, ch.to.id):
            self.push(who, {"type": f"challenge_{status}", "challenge": ch.json(who)})

    async def accept(self, m: TableManager, ch: Challenge, user_id: int) -> dict[str, Any]:
        """The challenged account accepts: an unlisted table for the two, seated in a random
        order, whose game starts at once; both are sent ``game_start``."""
        if user_id != ch.to.id:
            raise ServerError("not_yours", "only the challenged account can accept", 403)
        if ch.status != "open":
            raise ServerError("challenge_closed", f"the challenge is {ch.status}", status=409)
        ch.status = "accepted"
        try:
            made = await m.create(
                CreateTable(
                    variant=ch.variant, name=f"{ch.by.username} vs {ch.to.username}",
                    seats=["human", "human"], options=ch.options, turn_timer=ch.turn_timer,
                    listed=False,
                )
            )  # fmt: skip
            order = [ch.by, ch.to]
            random.SystemRandom().shuffle(order)
            for seat, user in enumerate(order):
                joined = await m.join(made["code"], user.username, seat=seat, user=user)
                ch.seats[user.id] = (seat, seat_token(joined))
        except ServerError:
            ch.status = "open"
            raise
        ch.code = str(made["code"])
        for user in (ch.by, ch.to):
            seat = ch.seats[user.id][0]
            self.games.setdefault(user.id, {})[ch.code] = seat
            game = {**game_json(ch.code, None), "seat": seat, "challenge": ch.id}
            self.push(user.id, {"type": "game_start", "game": game})
        return ch.json(user_id)

    def game_over(self, code: str) -> None:
        """A challenge's game is over: its players are sent ``game_finish`` (once)."""
        for user, games in list(self.games.items()):
            if games.pop(code, None) is not None:
                self.push(user, {"type": "game_finish", "game": {"code": code}})
            if not games:
                del self.games[user]


def seat_token(joined: dict[str, Any], key: str = "token") -> str:
    """The seat token of a join's answer (its ``key``: a JSON field, not a variant's token)."""
    return str(joined.get(key, ""))


def hub_of(request: Request) -> BotHub:
    """The app's hub (made with the app's first call that needs it)."""
    state = request.app.state
    found: BotHub | None = getattr(state, "bot_hub", None)
    if found is None:
        found = state.bot_hub = BotHub()
    return found


async def seat_of(m: TableManager, table: Table, user_id: int) -> int | None:
    """The seat ``user_id`` holds at ``table`` (its seat token is the account's), else None."""
    hashes = [s.token_hash for s in table.seats]
    owners = await m.read(lambda: m.store.token_owners(hashes))
    for seat in table.seats:
        if seat.token_hash is not None and owners.get(seat.token_hash) == user_id:
            return seat.position
    return None


def seat_view(table: Table, seat: int) -> dict[str, Any]:
    """What the stream of ``seat`` is sent after a change: the table's state and the seat's
    observation (with its legal actions when it is to act)."""
    game = table.game
    out: dict[str, Any] = {
        "type": "state", "code": table.code, "status": table.status, "seat": seat,
        "game_number": table.games_played, "version": table.version, "turn_timer": table.turn_timer,
    }  # fmt: skip
    if game is not None:
        out["to_act"] = game.current_player
        out["over"] = game.is_over
        out["observation"] = game.observation(seat)
        if game.is_over and game.outcome is not None:
            out["result"] = game.outcome.to_dict()
    return out


async def game_stream(
    m: TableManager, hub: BotHub, table: Table, seat: int, conn: Connection, token_id: int
) -> AsyncIterator[bytes]:
    """The states of ``table`` as ``seat`` sees them, one line per change (never while an
    action is being stored), until its game is over or the token is revoked."""
    sent: tuple[int, int, str] | None = None
    try:
        while not conn.closed and token_id not in hub.revoked:
            stamp = (table.games_played, table.version, table.status)
            if stamp != sent and not table.saving:
                sent = stamp
                view = seat_view(table, seat)
                yield line(view)
                if view.get("over"):
                    hub.game_over(table.code)
                    break
            try:
                await asyncio.wait_for(conn.wake.wait(), KEEPALIVE)
            except TimeoutError:
                yield b"\n"
            conn.wake.clear()
            conn.outbox.clear()  # chat and the page's messages are not for this stream
    finally:
        m.disconnect(conn)


def open_seat_connection(m: TableManager, table: Table, seat: int, client: str) -> Connection:
    """A connection of ``table`` holding ``seat`` (woken by every change of the table)."""
    conn = m.connect(table, client)
    conn.token_hash = table.seats[seat].token_hash
    conn.ready = True
    table.conns.add(conn)
    m.changed(table)  # the others see the player at the table
    return conn
