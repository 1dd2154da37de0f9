"""What keeps one client from exhausting the server process: the settings (:class:`Guards`) and
the ASGI middleware that checks every HTTP request before a route sees it.

- A body longer than ``body_bytes`` is refused with 413: at once when ``Content-Length`` says
  so, otherwise as soon as the bytes received pass the limit (a body is never read past it).
- A JSON body nested deeper than ``json_depth`` is refused with 400 before it is parsed.
- Control characters in a JSON body's strings, the path or the query are refused with 422.
- A JSON body that cannot be read at all (not UTF-8, a number of thousands of digits) is
  refused with 400 ``unreadable_json``.

Every refusal is a JSON body with ``detail`` (words), ``code`` (stable) and its parameters.
The connection-level guards (request timeout, connections per address) are in
:mod:`otherside.server.http.connections`; websockets' caps in
:mod:`otherside.server.live.admission`.
"""

from __future__ import annotations

import json
import resource
from dataclasses import dataclass
from urllib.parse import unquote_to_bytes

from fastapi import Request
from fastapi.responses import JSONResponse

from otherside.i18n import N_, say
from otherside.server.accounts.limits import parse_settings
from otherside.server.accounts.security import ASGIApp, Message, Receive, Scope, Send
from otherside.server.http.inputs import InputRefused, check_text, parse_json
from otherside.server.http.reader import reader_language

# Descriptors the process keeps for itself (database, logs, bot workers' pipes, epoll…)
# beyond those of client connections: an eighth of the limit, and at least this many.
RESERVED_DESCRIPTORS = 64


@dataclass(frozen=True)
class Guards:
    """How much of the process one client, and all of them, may hold.

    Attributes:
        body_bytes: the largest request body accepted (413 beyond).
        json_depth: how deeply a JSON body or websocket message may nest (400 beyond).
        head_bytes: the most bytes a request's line and headers may take (431 beyond, and the
            connection closed: uvicorn's parser kept any number of them, and a few
            connections' headers held a gigabyte of the process's memory).
        request_seconds: time a client has to send a request's headers and body before it is
            cut off (the connection is closed).
        keep_alive_seconds: time an idle keep-alive connection stays open.
        connections_per_address: open TCP connections one address may hold (more are
            answered 503 and closed at once).
        websockets_per_address: table websockets one address may hold open.
        socket_messages_per_second: messages a table websocket may send a second on average
            (:mod:`otherside.server.live.message_rate`; faster: closed with 4429).
        socket_message_burst: messages a table websocket may send at once.
        connections_total: open connections the process accepts (0: derived from the
            process's descriptor limit, ``RLIMIT_NOFILE``, less a reserve).
        replays_per_minute: replays, histories and records one address may fetch per minute.
        replay_cache: finished games whose replay is kept computed (least recently used go).
        refusals_per_address: refused answers (4xx but 404 and 409) one address may get in a
            window before its requests are braked (:mod:`.brake`; 0: never).
        refusal_window_seconds: the window of those refusals.
        brake_seconds: how long each request of a braked address waits before its 429.
    """

    body_bytes: int = 65536
    json_depth: int = 32
    head_bytes: int = 32768
    request_seconds: float = 10.0
    keep_alive_seconds: float = 5.0
    connections_per_address: int = 64
    websockets_per_address: int = 32
    socket_messages_per_second: float = 50.0
    socket_message_burst: int = 200
    connections_total: int = 0
    replays_per_minute: int = 30
    replay_cache: int = 64
    refusals_per_address: int = 300
    refusal_window_seconds: float = 10.0
    brake_seconds: float = 1.0

    def total_connections(self) -> int:
        """Connections the process accepts: the setting, or what its descriptors allow."""
        if self.connections_total:
            return self.connections_total
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft == resource.RLIM_INFINITY:
            soft = 65536
        return max(8, soft - max(RESERVED_DESCRIPTORS, soft // 8))

    def total_websockets(self) -> int:
        """Websockets the process accepts: three quarters of its connections, so that plain
        requests (pages, the API) always find room."""
        return max(4, self.total_connections() * 3 // 4)


def parse_guards(items: list[str]) -> Guards:
    """Guards from ``NAME=VALUE`` settings (``otherside serve --guard body_bytes=131072``).

    >>> parse_guards(["body_bytes=1024", "request_seconds=2.5"]).request_seconds
    2.5
    >>> parse_guards(["bodies=5"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown guard 'bodies'; guards: body_bytes, json_depth, ...
    """
    return parse_settings(Guards(), items, "guard")


class BodyTooLarge(InputRefused):
    """A body over the limit (413)."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            "body_too_large",
            413,
            N_("the request body is larger than {limit} bytes"),
            limit=limit,
        )


class UnreadableJson(InputRefused):
    """A JSON body that is no text JSON can be read from (400): bytes that are not UTF-8, a
    number too long for the parser (it refuses integers of over 4,300 digits). FastAPI's own
    answer to these had no stable code."""

    def __init__(self) -> None:
        super().__init__(
            "unreadable_json",
            400,
            N_("the request body cannot be read as JSON (UTF-8 text, numbers of a sane length)"),
        )


class RequestGuard:
    """ASGI middleware: body size, JSON depth and control characters (see the module)."""

    def __init__(self, app: ASGIApp, guards: Guards) -> None:
        self.app = app
        self.guards = guards

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            self._check_target(scope)
            body = await self._read_body(scope, receive)
            if body and _is_json(scope):
                try:
                    parse_json(body, self.guards.json_depth)
                except ValueError as exc:
                    if isinstance(exc, InputRefused):
                        raise
                    if not isinstance(exc, json.JSONDecodeError):
                        raise UnreadableJson() from exc
                    # Not JSON at all: the route's own validation says so, in its words.
        except InputRefused as refused:
            await _refuse(send, refused, reader_language(Request(scope)))
            return
        await self.app(scope, _replay(body, receive), send)

    def _check_target(self, scope: Scope) -> None:
        check_text(scope["path"], "path")
        query = scope.get("query_string", b"")
        if query:
            check_text(unquote_to_bytes(query).decode("utf-8", "replace"), "query")

    async def _read_body(self, scope: Scope, receive: Receive) -> bytes:
        """The whole body, read no further than the limit."""
        limit = self.guards.body_bytes
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > limit:
                    raise BodyTooLarge(limit)
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise BodyTooLarge(limit)
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)


def _is_json(scope: Scope) -> bool:
    for name, value in scope["headers"]:
        if name == b"content-type":
            return b"json" in value.lower()
    # FastAPI reads a body without a content type as JSON too.
    return True


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the route the body already read, then the server's own (which
    tells a disconnect when it happens)."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


async def server_error(request: Request, exc: Exception) -> JSONResponse:
    """The answer to a request the server failed on: JSON with a stable code, never a trace or
    a database driver's words (the log has them)."""
    words = N_("the server failed to answer this request; try again")
    return JSONResponse(
        {"detail": say(reader_language(request), words), "code": "server_error"},
        status_code=500,
    )


async def _refuse(send: Send, refused: InputRefused, language: str) -> None:
    body = json.dumps(refused.to_json(language)).encode()
    await send(
        {
            "type": "http.response.start",
            "status": refused.status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                # The rest of an oversized body is not read: the connection can't be reused.
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
