"""One WebSocket client of a table: who it is, what it was sent, its outgoing queue and its
own rate limit."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from sabacc.apps.server import messages, trace
from sabacc.apps.server.auth import same_hash
from sabacc.apps.server.encode import encode
from sabacc.apps.server.limits import TokenBucket
from sabacc.apps.server.outgoing import ServerMessage
from sabacc.apps.server.settings import Settings
from sabacc.apps.server.table import Table
from sabacc.services.store import SeatRecord

#: Sockets being closed (kept referenced until done).
KICKS: set[asyncio.Task[None]] = set()


class Wake:
    """What :class:`asyncio.Event` does for one waiter (a connection's writer), without
    asking for the running loop at every wait: the writer waits once per message it sends, and
    Python 3.11's ``asyncio.get_running_loop`` makes a system call (``getpid``) each time, which
    costs several microseconds on a virtual machine."""

    __slots__ = ("_flag", "_loop", "_waiter")

    def __init__(self) -> None:
        self._flag = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiter: asyncio.Future[None] | None = None

    def is_set(self) -> bool:
        return self._flag

    def set(self) -> None:
        self._flag = True
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def clear(self) -> None:
        self._flag = False

    async def wait(self) -> None:
        if self._flag:
            return
        loop = self._loop
        if loop is None:
            loop = self._loop = asyncio.get_running_loop()
        waiter = self._waiter = loop.create_future()
        try:
            await waiter
        finally:
            self._waiter = None


class Connection:
    """One WebSocket client: who it is, what it was last sent, and its outgoing queue.

    State messages are pulled, not pushed: a change marks every connection dirty and its writer
    builds the newest state (with every event it has not been sent yet) when it gets to send.
    A slow client therefore skips intermediate states but never misses an event.
    """

    def __init__(self, settings: Settings, table: Table, client: str = "?") -> None:
        self.table = table
        self.client = client  # who holds it (see sabacc.apps.server.limits.client_key)
        self.token_hash: str | None = None
        #: The account logged in on this browser (its session cookie), if any: presence.
        self.user_id: int | None = None
        self.ready = False  # said hello
        self.outbox: deque[str] = deque()
        self.dirty = False
        self.wake = Wake()
        self.closed = False
        self.game_no = -1
        self.events_sent = 0
        #: (game number, hands finished, events) when the last showdown explanation was sent
        self.explained: tuple[int, int, int] = (-1, 0, 0)
        #: Asked for deltas (``hello`` with ``"deltas": true``): after a whole state, only
        #: what changed (see :func:`sabacc.apps.server.messages.state`).
        self.deltas = False
        #: States and deltas sent (the ``v`` of the last one).
        self.v = 0
        #: What the next delta is made against (None: the next message is a whole state).
        self.base: messages.Base | None = None
        self.bucket = TokenBucket(settings.rate, settings.burst)
        self.strikes = 0
        self.chat_bucket = TokenBucket(settings.chat_rate, settings.chat_burst)
        #: Closes the socket (set by the endpoint): the table moved to another server.
        self.close_socket: Callable[[], Coroutine[Any, Any, None]] | None = None
        self._seat: int | None = None
        self._seat_of: tuple[tuple[SeatRecord, ...], str | None] | None = None
        #: Only when :mod:`~sabacc.apps.server.trace` is on: when the last message came in,
        #: and the marks of this connection's action whose state is not sent yet.
        self.trace_recv = 0.0
        self.trace_marks: dict[str, float] | None = None

    @property
    def seat(self) -> int | None:
        """The seat this connection's token holds (looked up again, with the constant-time
        comparisons, only when the seats' tokens or this connection's token changed)."""
        # The seats' records are replaced, never changed in place, when a token changes
        # (TableManager.update_seat): the same records (compared by identity first) mean the
        # same tokens.
        key = (tuple(self.table.seats), self.token_hash)
        if key != self._seat_of:
            self._seat = self.table.seat_of(self.token_hash)
            self._seat_of = key
        return self._seat

    @property
    def host(self) -> bool:
        return same_hash(self.token_hash, self.table.host_hash)

    @property
    def watching(self) -> bool:
        """A spectator: neither a seat nor the host."""
        return self.seat is None and not self.host

    def push(self, message: ServerMessage) -> None:
        """Queue ``message`` for this client (encoded now: :func:`~.encode.encode`)."""
        if self.closed:
            return
        self.outbox.append(encode(message))
        self.wake.set()

    def error(self, code: str, message: str, ref: str | None = None) -> None:
        self.push(messages.error(code, message, ref))

    def kick(self) -> None:
        """Close this client's socket (with 1012, "service restart": reconnect)."""
        self.closed = True
        self.wake.set()
        if self.close_socket is not None:
            task: asyncio.Task[None] = asyncio.get_running_loop().create_task(self.close_socket())
            KICKS.add(task)
            task.add_done_callback(KICKS.discard)

    def resync(self) -> None:
        """The next message is a whole state, with the current hand's events (a ``hello``,
        a ``sync``)."""
        self.game_no = -1
        self.base = None
        self.mark_dirty()

    def mark_dirty(self) -> None:
        if self.ready and not self.closed:
            self.dirty = True
            self.wake.set()

    async def run_writer(self, send: Callable[[str], Awaitable[None]]) -> None:
        loop = asyncio.get_running_loop()
        try:
            while not self.closed:
                await self.wake.wait()
                self.wake.clear()
                while self.outbox:
                    await send(self.outbox.popleft())
                if self.dirty and not self.table.saving:  # stays dirty until stored
                    self.dirty = False
                    marks = self.trace_marks
                    if marks is not None:
                        self.trace_marks = None
                        marks["built"] = trace.now()
                    await send(messages.state(self, loop.time()))
                    if marks is not None and trace.TRACE is not None:
                        marks["sent"] = trace.now()
                        trace.TRACE.done(marks)
        except Exception:  # the socket went away: the reader notices and cleans up
            self.closed = True
