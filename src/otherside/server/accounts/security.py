"""Headers and checks on every request that keep other sites out.

- A state-changing request (POST, PUT, PATCH, DELETE) whose ``Origin`` is another origin than
  this server's is refused with 403, and so is one a browser marks as cross-site
  (``Sec-Fetch-Site``) without an ``Origin``: no other page — another site, or another port or
  subdomain of this one — can make a signed-in browser act here. Requests without either header
  come from tools (curl, scripts), which carry no one else's cookie.
- Every response forbids framing (``X-Frame-Options: DENY`` and CSP ``frame-ancestors
  'none'``), and pages get a content security policy allowing only this server's scripts,
  styles, images and connections.

A pure ASGI middleware, so websockets (which check their own ``Origin``) and streaming pass
through untouched.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
SAME_SITE_FETCH = {"same-origin", "none"}


def content_policy(host: str) -> str:
    """The content security policy of this server's pages (``host`` as the browser sees it)."""
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self' 'unsafe-inline'",  # style attributes set by the pages' scripts
            "img-src 'self' data:",
            f"connect-src 'self' ws://{host} wss://{host}",
            "frame-ancestors 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "object-src 'none'",
        ]
    )


def same_origin(origin: str, host: str) -> bool:
    """Whether ``origin`` (an Origin header) names this server (``host`` header).

    >>> same_origin("http://127.0.0.1:8000", "127.0.0.1:8000")
    True
    >>> same_origin("http://127.0.0.1:9000", "127.0.0.1:8000")
    False
    >>> same_origin("null", "127.0.0.1:8000")
    False
    """
    return bool(host) and urlsplit(origin).netloc == host


class SecurityMiddleware:
    """Refuses cross-origin state changes and adds the security headers (see the module)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # Only three headers matter here: found among the raw ones, the others left undecoded.
        wanted = _wanted_headers(scope["headers"])
        host = wanted.get(b"host", "")
        if scope["method"] not in SAFE_METHODS:
            origin = wanted.get(b"origin")
            site = wanted.get(b"sec-fetch-site")
            if (origin is not None and not same_origin(origin, host)) or (
                origin is None and site is not None and site not in SAME_SITE_FETCH
            ):
                await _refuse(send, "cross-origin request refused: use this site's own pages")
                return
        extra = _security_headers(host)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, with_headers)


_WANTED = frozenset((b"host", b"origin", b"sec-fetch-site"))


def _wanted_headers(raw: list[tuple[bytes, bytes]]) -> dict[bytes, str]:
    """The ``host``, ``origin`` and ``sec-fetch-site`` headers of a request (the last of each,
    as a dictionary of all of them kept), decoded. ASGI servers give header names in lower
    case.

    >>> _wanted_headers([(b"host", b"a:1"), (b"accept", b"*/*"), (b"origin", b"http://a:1")])
    {b'host': 'a:1', b'origin': 'http://a:1'}
    """
    return {name: value.decode("latin-1") for name, value in raw if name in _WANTED}


@lru_cache(maxsize=64)
def _security_headers(host: str) -> list[tuple[bytes, bytes]]:
    """The headers every response gets (one list per host, made once; never changed)."""
    return [
        (b"x-frame-options", b"DENY"),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"same-origin"),
        (b"content-security-policy", content_policy(host).encode("latin-1")),
    ]


async def _refuse(send: Send, words: str) -> None:
    body = json.dumps({"detail": words}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 403,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"x-frame-options", b"DENY"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
