"""Guards at the level of TCP connections, below HTTP: uvicorn's protocol with a header timeout
and a cap on the connections one address, and all of them, may hold.

uvicorn times out idle keep-alive connections but not slow request headers: a client sending a
header byte per second holds a descriptor for as long as it likes, and a thousand of them hold
the process. :class:`GuardedProtocol` gives each request ``request_seconds`` from its first byte
(or from the connection's opening) to finish its headers and body (at most ``body_bytes``), and
closes the connection otherwise. A request's line and headers may take at most ``head_bytes``
(uvicorn's parser has no limit of its own): past it the request is answered ``431`` and the
connection closed, the head never read further. A connection may send at most
:data:`PIPELINED_MOST` requests ahead of their answers (more close it).
A connection beyond its address's share, or beyond what the process's descriptors allow, is
answered ``503`` and closed at once, so that the descriptors stay free for everyone else.

Run uvicorn with ``http=GuardedProtocol``; the app's lifespan puts its :class:`ConnectionGate`
in the lifespan state under :data:`GATE_KEY`, where every connection finds it.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from otherside.server.accounts.addresses import address_key
from otherside.server.http.guards import Guards

GATE_KEY = "otherside_connection_gate"
PIPELINED_MOST = 16  # requests one connection may send ahead of their answers


def proxy_check(allowed: list[str] | str, enabled: bool = True) -> Callable[[str], bool]:
    """Whether an address is a proxy uvicorn trusts (its ``forwarded_allow_ips``): all the
    players behind it share its connections, so it has no per-address cap of its own.

    >>> trusted = proxy_check("127.0.0.1, 10.0.0.0/8")
    >>> trusted("10.2.3.4"), trusted("127.0.0.1"), trusted("127.0.0.2")
    (True, True, False)
    """
    items = [part.strip() for part in allowed.split(",")] if isinstance(allowed, str) else allowed
    if not enabled:
        return lambda host: False
    if "*" in items:
        return lambda host: True
    networks = []
    for item in items:
        with contextlib.suppress(ValueError):
            networks.append(ipaddress.ip_network(item, strict=False))

    def trusted(host: str) -> bool:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in networks)

    return trusted


class ConnectionGate:
    """Counts open connections per address and in total; admits or refuses new ones.

    A connection upgraded to a websocket leaves uvicorn's HTTP protocol, which no longer hears
    of its end: such transports are found closed (``is_closing``) when counts are next needed.
    """

    def __init__(self, guards: Guards) -> None:
        self.per_address = guards.connections_per_address
        self.total = guards.total_connections()
        self.request_seconds = guards.request_seconds
        self.head_bytes = guards.head_bytes
        self.trusted: Callable[[str], bool] | None = None
        self._open: dict[str, set[asyncio.BaseTransport]] = {}
        self._count = 0

    @property
    def count(self) -> int:
        """Connections open now."""
        return self._count

    def admit(self, key: str, transport: asyncio.BaseTransport, capped: bool = True) -> bool:
        """Count ``transport`` of address ``key`` in, or ``False`` if it is one too many
        (``capped``: the address has a share of its own; a trusted proxy's has not)."""
        per_address = self.per_address if capped else self.total
        mine = self._open.setdefault(key, set())
        if len(mine) >= per_address:
            self._purge(key)
        if self._count >= self.total:
            for other in list(self._open):
                self._purge(other)
        if len(mine) >= per_address or self._count >= self.total:
            if not mine:
                del self._open[key]
            return False
        mine.add(transport)
        self._count += 1
        return True

    def release(self, key: str, transport: asyncio.BaseTransport) -> None:
        """``transport`` closed."""
        mine = self._open.get(key)
        if mine is not None and transport in mine:
            mine.discard(transport)
            self._count -= 1
            if not mine:
                del self._open[key]

    def _purge(self, key: str) -> None:
        for transport in [t for t in self._open.get(key, ()) if t.is_closing()]:
            self.release(key, transport)


_REFUSAL = json.dumps(
    {
        "detail": "too many connections from your address or to this server; try again later",
        "code": "too_many_connections",
    }
).encode()
REFUSAL = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
    b"retry-after: 5\r\nconnection: close\r\ncontent-length: "
    + str(len(_REFUSAL)).encode()
    + b"\r\n\r\n"
    + _REFUSAL
)


def head_refusal(limit: int) -> bytes:
    """The answer to a request whose line and headers pass ``limit`` bytes."""
    body = json.dumps(
        {
            "detail": f"the request's headers are larger than {limit} bytes",
            "code": "headers_too_large",
            "params": {"limit": limit},
        }
    ).encode()
    return (
        b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
        b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n" + body
    )


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol with the connection gate, a request timeout and a limit on the
    size of a request's head."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gate: ConnectionGate | None = self.app_state.get(GATE_KEY)
        self.gate_key: str | None = None
        self.request_timer: asyncio.TimerHandle | None = None
        # Bytes received since the last request ended while its successor's head is read (a
        # read that ends one request and begins the next is not counted: one read at most),
        # and the head's own size as parsed (its line and headers).
        self.head_read = 0
        self.head_size = 0
        self.reading_head = True

    def data_received(self, data: bytes) -> None:
        if self.gate is None or not self.reading_head:
            super().data_received(data)
            return
        self.head_read += len(data)
        super().data_received(data)
        if self.reading_head and self.head_read > self.gate.head_bytes:
            # The parser holds at most this one read past the limit; nothing more is read.
            self._refuse_head()

    # The parser goes on through the rest of a read after the connection was closed: what it
    # finds there is dropped, not made into requests.

    def on_url(self, url: bytes) -> None:
        if self.transport.is_closing():
            return
        self.head_size += len(url)
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        if self.transport.is_closing():
            return
        self.head_size += len(name) + len(value) + 4  # ": " and the line's end
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self.reading_head = False
        if self.transport.is_closing():
            return
        if self.gate is not None and self.head_size > self.gate.head_bytes:
            self._refuse_head()  # a whole head over the limit in one read: no request made
            return
        super().on_headers_complete()
        if len(self.pipeline) > PIPELINED_MOST:
            # Requests sent ahead of their answers wait here as whole requests: one read of
            # tiny ones made thousands (some 14 MB for 256 kB). No browser sends any.
            self.pipeline.clear()
            self.transport.close()

    def _refuse_head(self) -> None:
        if self.transport.is_closing() or self.gate is None:
            return
        self._disarm_request_timer()
        self.transport.write(head_refusal(self.gate.head_bytes))
        self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self.gate is None:
            return
        host = self.client[0] if self.client else "unknown"
        key = address_key(host)
        if self.gate.trusted is None:  # uvicorn's settings, known from the first connection
            self.gate.trusted = proxy_check(
                self.config.forwarded_allow_ips, self.config.proxy_headers
            )
        if not self.gate.admit(key, transport, capped=not self.gate.trusted(host)):
            transport.write(REFUSAL)
            transport.close()
            return
        self.gate_key = key
        self._arm_request_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_request_timer()
        if self.gate is not None and self.gate_key is not None:
            self.gate.release(self.gate_key, self.transport)
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        if self.transport.is_closing():
            return
        super().on_message_begin()
        self._arm_request_timer()

    def on_message_complete(self) -> None:
        self._disarm_request_timer()
        self.reading_head, self.head_read, self.head_size = True, 0, 0
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        if self.transport.is_closing():
            return  # refused (its head too large): no websocket
        # The transport is the websocket's now, with its own pings and timeouts.
        self._disarm_request_timer()
        super().handle_websocket_upgrade()

    def _arm_request_timer(self) -> None:
        if self.gate is not None and self.request_timer is None:
            self.request_timer = self.loop.call_later(
                self.gate.request_seconds, self._request_too_slow
            )

    def _disarm_request_timer(self) -> None:
        if self.request_timer is not None:
            self.request_timer.cancel()
            self.request_timer = None

    def _request_too_slow(self) -> None:
        # No answer: a client this slow is not waiting for one, and writing could block.
        self.request_timer = None
        if not self.transport.is_closing():
            self.transport.close()
