"""Who may hold a table websocket, and for how long.

- Caps: one address may hold ``websockets_per_address`` sockets, the process
  :meth:`Guards.total_websockets` (below what its descriptors allow, so that plain requests
  always find room). A socket over a cap is accepted and closed at once with 1013 ("try again
  later") and the reason, so that a browser can tell it from a network failure.
- Sessions: each socket remembers the session it was opened with (by the digest of its token,
  which the cluster's sign-out notification carries). Signing out closes that session's sockets
  at once (4401), in this process and, when it hears of it, in every other; and every socket
  checks its session again before it acts, so that no socket acts after a sign-out even before
  the notification arrives.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, Protocol

from otherside.server.accounts.addresses import address_key
from otherside.server.http.guards import Guards
from otherside.server.live.close_words import FULL, SIGNED_OUT, TOO_MANY
from otherside.server.live.message_rate import MessageRate

CLOSE_TRY_LATER = 1013
CLOSE_SIGNED_OUT = 4401


class Closable(Protocol):
    """What admission needs of a socket: a way to close it."""

    async def close(self, code: int, reason: str) -> None:
        """Close the socket with ``code`` and ``reason``."""


class OverCap(Exception):
    """A socket over a cap: ``code``, and the words to close it with (a catalog ``template``
    and its ``params``, said in the reader's language by :mod:`.close_words`)."""

    def __init__(self, template: str, **params: Any) -> None:
        self.code = CLOSE_TRY_LATER
        self.template = template
        self.params = params
        super().__init__(template.format(**params))


class Admission:
    """The open sockets of this process, by address and by session."""

    def __init__(self, guards: Guards) -> None:
        self.per_address = guards.websockets_per_address
        self.messages_per_second = guards.socket_messages_per_second
        self.message_burst = guards.socket_message_burst
        self.total = guards.total_websockets()
        self._by_address: dict[str, int] = {}
        self._by_session: dict[str, set[Closable]] = {}
        self._count = 0

    def message_rate(self) -> MessageRate:
        """How fast a new socket may send messages."""
        return MessageRate(self.messages_per_second, self.message_burst)

    @property
    def count(self) -> int:
        """Sockets open now."""
        return self._count

    @contextlib.contextmanager
    def holding(self, address: str, session: str | None, socket: Closable) -> Iterator[None]:
        """Count ``socket`` in for the block; :class:`OverCap` if over a cap."""
        key = address_key(address)
        if self._by_address.get(key, 0) >= self.per_address:
            raise OverCap(TOO_MANY, most=self.per_address)
        if self._count >= self.total:
            raise OverCap(FULL)
        self._by_address[key] = self._by_address.get(key, 0) + 1
        self._count += 1
        if session is not None:
            self._by_session.setdefault(session, set()).add(socket)
        try:
            yield
        finally:
            self._count -= 1
            left = self._by_address[key] - 1
            if left:
                self._by_address[key] = left
            else:
                del self._by_address[key]
            if session is not None:
                sockets = self._by_session.get(session, set())
                sockets.discard(socket)
                if not sockets:
                    self._by_session.pop(session, None)

    async def sign_out(self, session: str) -> int:
        """Close every socket of ``session`` (a token's digest) here; how many there were."""
        sockets = self._by_session.pop(session, set())
        for socket in sockets:
            with contextlib.suppress(Exception):
                # Every tab of the session, whatever their languages: the code says it all.
                await socket.close(CLOSE_SIGNED_OUT, SIGNED_OUT)
        return len(sockets)
