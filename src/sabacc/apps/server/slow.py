"""A deadline for request headers: a connection that has not finished sending its headers
within ``header_timeout`` seconds is closed.

uvicorn times out idle keep-alive connections but not a request whose headers trickle in
(every byte resets nothing, so a client could hold a socket for ever with one byte a minute;
1,100 such sockets blocked every new client at the default open-file limit). The deadline is
armed when a connection opens and after each response, and disarmed when the headers are in.
"""

from __future__ import annotations

import asyncio

try:  # uvicorn's fast parser (uvicorn[standard], what "auto" picks)
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _Base

    HAVE_HTTPTOOLS = True
except ImportError:  # pragma: no cover - without httptools: uvicorn's own protocol, no deadline
    HAVE_HTTPTOOLS = False


def with_header_deadline(header_timeout: float) -> type[asyncio.Protocol] | None:
    """uvicorn's HTTP protocol, closing connections whose headers take too long (None without
    httptools: the deadline hooks its parser's "headers complete" callback)."""
    if not HAVE_HTTPTOOLS or header_timeout <= 0:
        return None

    class HeaderDeadline(_Base):
        _deadline: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(header_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

    return HeaderDeadline
