"""A brake on a client that keeps getting refused: a flood costs it time, not us CPU.

Every refusal the server answers (a body too large, JSON too deep, a wrong password, a limit
reached: 400, 401, 403, 413, 422, 429) still costs the process its parsing, its middleware and
often a database round trip, and all of it runs on the one event loop that also serves the
honest players. A person, or a page, is refused a handful of times a minute; a flood is refused
hundreds of times a second. So refusals are counted per address (an IPv6 address by its /64)
in a window of ``Guards.refusal_window_seconds``; an address past ``Guards.refusals_per_address``
in its window is braked until the window ends: each of its requests waits
``Guards.brake_seconds`` (an idle wait, no CPU) and is answered 429 with ``Retry-After``, before
any other work. Its open connections being capped (``connections_per_address``), a braked
address gets at most that many answers a brake's time, whatever it sends.

The counts live in this process's memory: the brake protects this process's time, which is
not shared (the limits that must hold across processes are the database's).
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Awaitable, Callable

from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from otherside.i18n import COOKIE, N_, choose, say
from otherside.server.accounts.addresses import address_key
from otherside.server.http.guards import Guards

REFUSED = frozenset({400, 401, 403, 413, 422, 429})
MOST_ADDRESSES = 100_000  # the counts kept at once (the oldest go first)
BRAKED = N_("too many refused requests from your address; try again later")


def _language(scope: Scope) -> str:
    """The reader's language from the request's headers alone (the brake does no other work):
    the switcher's cookie, else Accept-Language (both choices are cached)."""
    headers = Headers(scope=scope)
    cookie = cookie_parser(headers.get("cookie", "")).get(COOKIE)
    return choose(cookie, headers.get("accept-language"))


class Brake:
    """ASGI middleware: the brake on refused addresses (see the module docstring).

    Args:
        app: the application within.
        guards: the settings (``refusals_per_address``, ``refusal_window_seconds``,
            ``brake_seconds``).
        monotonic: seconds from a steady clock (tests give their own).
        sleep: waits that many seconds (tests give their own).
    """

    def __init__(
        self,
        app: ASGIApp,
        guards: Guards,
        monotonic: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.app = app
        self.most = guards.refusals_per_address
        self.window = guards.refusal_window_seconds
        self.pause = guards.brake_seconds
        self.monotonic = monotonic
        self.sleep = sleep
        self._counts: dict[str, tuple[float, int]] = {}  # address -> (window start, refusals)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.most <= 0:
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        key = address_key(client[0]) if client else "unknown"
        now = self.monotonic()
        start, count = self._counts.get(key, (now, 0))
        if now - start >= self.window:
            start, count = now, 0
            self._counts.pop(key, None)
        if count >= self.most:
            await self._braked(send, start + self.window - now, _language(scope))
            return

        async def watch(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in REFUSED:
                self._refused(key)
            await send(message)

        await self.app(scope, receive, watch)

    def _refused(self, key: str) -> None:
        now = self.monotonic()
        start, count = self._counts.pop(key, (now, 0))
        if now - start >= self.window:
            start, count = now, 0
        if len(self._counts) >= MOST_ADDRESSES:
            self._counts.pop(next(iter(self._counts)))
        self._counts[key] = (start, count + 1)  # re-inserted: the dict keeps the newest last

    async def _braked(self, send: Send, left: float, language: str) -> None:
        await self.sleep(self.pause)
        retry = max(1, math.ceil(left))
        body = json.dumps(
            {
                "detail": say(language, BRAKED),
                "code": "braked",
                "params": {"retry_after": retry},
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 429,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"retry-after", str(retry).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
