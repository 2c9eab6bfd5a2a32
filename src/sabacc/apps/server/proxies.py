"""Which reverse proxies may name the client (issue 31, S2).

Per-client limits (API rate, tables per hour, sockets, log-in attempts) key on the client's
address. Behind a reverse proxy every connection comes from the proxy, which names the real
client in ``X-Forwarded-For`` (or ``X-Real-IP``); but any client can send those headers, so
they are believed only on a connection from a configured proxy (``--trusted-proxy``, addresses
or CIDR networks; none by default, loopback included). A direct client's headers are ignored.

:class:`ForwardedFor` is pure ASGI middleware, the outermost layer of the app: it rewrites the
scope's ``client`` (and ``scheme``, from ``X-Forwarded-Proto``) before anything reads them, so
every limit sees the same address.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from starlette.types import ASGIApp, Receive, Scope, Send

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(specs: Iterable[str]) -> tuple[Network, ...]:
    """The networks named by ``specs``: addresses, CIDRs, comma-separated lists of them, and
    ``*`` for any address. A bad entry raises ``ValueError`` naming it."""
    out: list[Network] = []
    for spec in specs:
        for part in spec.split(","):
            item = part.strip()
            if not item:
                continue
            if item == "*":
                out += [ipaddress.ip_network("0.0.0.0/0"), ipaddress.ip_network("::/0")]
                continue
            try:
                out.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                raise ValueError(
                    f"not an address or network: {item!r} (e.g. 127.0.0.1 or 10.0.0.0/8)"
                ) from None
    return tuple(out)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # "[2001:db8::1]:443"
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # "192.0.2.1:443"
        text = text.split(":", 1)[0]
    try:
        addr = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        return addr.ipv4_mapped
    return addr


class TrustedProxies:
    """The proxies whose forwarded addresses are believed."""

    def __init__(self, specs: Iterable[str] = ()) -> None:
        self.networks = parse_networks(specs)

    def __bool__(self) -> bool:
        return bool(self.networks)

    def trusts(self, host: str | None) -> bool:
        addr = _address(host) if host else None
        return addr is not None and any(addr in net for net in self.networks)

    def client(
        self, peer: str | None, forwarded_for: str | None, real_ip: str | None
    ) -> str | None:
        """Who a connection from ``peer`` comes from: ``peer`` itself unless it is a trusted
        proxy; then the last address of ``X-Forwarded-For`` that is not a trusted proxy's
        (each proxy appends the address it saw, so the ones before it are the client's own
        claims), else ``X-Real-IP``. A malformed entry stops the walk: ``peer`` stays."""
        if not self.trusts(peer):
            return peer
        if forwarded_for:
            hops = [h for h in forwarded_for.split(",") if h.strip()]
            for hop in reversed(hops):
                addr = _address(hop)
                if addr is None:
                    return peer
                if not any(addr in net for net in self.networks):
                    return str(addr)
            first = _address(hops[0]) if hops else None
            return str(first) if first is not None else peer
        if real_ip:
            addr = _address(real_ip)
            return str(addr) if addr is not None else peer
        return peer


class ForwardedFor:
    """Rewrites a request's client address (and scheme) from a trusted proxy's headers."""

    def __init__(self, app: ASGIApp, proxies: TrustedProxies) -> None:
        self.app = app
        self.proxies = proxies

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and self.proxies:
            peer = scope.get("client")
            host = peer[0] if peer else None
            if self.proxies.trusts(host):
                headers = dict(scope.get("headers") or [])
                forwarded = headers.get(b"x-forwarded-for", b"").decode("latin-1")
                real = headers.get(b"x-real-ip", b"").decode("latin-1")
                client = self.proxies.client(host, forwarded, real)
                scope = dict(scope)
                if client != host:
                    scope["client"] = (client, 0)
                proto = headers.get(b"x-forwarded-proto", b"").decode("latin-1").strip().lower()
                if proto in ("http", "https"):
                    secure = proto == "https"
                    if scope["type"] == "websocket":
                        scope["scheme"] = "wss" if secure else "ws"
                    else:
                        scope["scheme"] = proto
        await self.app(scope, receive, send)
