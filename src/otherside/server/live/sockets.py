"""The websocket endpoint of a table: ``/ws/tables/{id}`` (protocol in
:mod:`otherside.server.live.protocol`).

Each connection has an outgoing queue drained by its own task, so that the table runtime never
waits on a slow client; a client that falls too far behind is disconnected (it gets the current
view at once when it reconnects).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from otherside.i18n import COOKIE as LANGUAGE_COOKIE
from otherside.i18n import choose
from otherside.server.accounts.sessions import COOKIE, UserInfo, session_digest
from otherside.server.http.inputs import InputRefused, check_text
from otherside.server.http.outage import CLOSE_TRY_LATER, OUTAGE_ERRORS
from otherside.server.live.admission import CLOSE_SIGNED_OUT, Admission, OverCap
from otherside.server.live.close_words import (
    BUSY,
    CROSS_ORIGIN,
    SIGNED_OUT,
    TOO_SLOW,
    close_reason,
    fit,
)
from otherside.server.live.inbox import handle
from otherside.server.live.message_rate import CLOSE_TOO_FAST, TOO_FAST, MessageRate
from otherside.server.live.signer import SocketSigner, socket_signer
from otherside.server.store.outage import short
from otherside.server.tables.errors import Refused
from otherside.server.tables.hub import TableHub
from otherside.server.tables.live import ticket
from otherside.server.tasks import unawaited

router = APIRouter()
log = logging.getLogger("otherside.server")
QUEUE_LIMIT = 256
CLOSE_NOT_FOUND = 4404
CLOSE_FORBIDDEN = 4403
CLOSE_TOO_SLOW = 4408


class SocketConnection:
    """A browser watching one table."""

    def __init__(self, socket: WebSocket, user: UserInfo | None) -> None:
        self.socket = socket
        self.user = user
        # The reader's language for refusals, as the pages': the switcher's cookie, else
        # the browser's Accept-Language.
        self.language = _language(socket)
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.too_slow = False

    def deliver(self, text: str) -> None:
        """Queue ``text``; a client that stopped reading is cut off rather than buffered forever."""
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.too_slow = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    async def pump(self) -> None:
        """Send queued messages until told to stop."""
        while (text := await self.queue.get()) is not None:
            await self.socket.send_text(text)
        if self.too_slow:
            await self.socket.close(CLOSE_TOO_SLOW, close_reason(self.language, TOO_SLOW))


def _language(socket: WebSocket) -> str:
    """The reader's language, as the pages': the switcher's cookie, else Accept-Language."""
    return choose(socket.cookies.get(LANGUAGE_COOKIE), socket.headers.get("accept-language"))


def _same_origin(socket: WebSocket) -> bool:
    """Refuse cross-site pages: a browser always sends Origin, and it must be this host."""
    origin = socket.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == socket.headers.get("host")


@router.websocket("/ws/tables/{table_id}")
async def table_socket(socket: WebSocket, table_id: str) -> None:
    """Watch (and, if seated, play at) table ``table_id``."""
    state = socket.app.state
    hub: TableHub = state.hub
    await socket.accept()
    opened = ticket()  # a sync as its first message is answered by a read begun since
    language = _language(socket)
    if not _same_origin(socket):
        await socket.close(CLOSE_FORBIDDEN, close_reason(language, CROSS_ORIGIN))
        return
    try:
        # As an HTTP request's path is checked (by the request guard): a NUL in the table's
        # id reached PostgreSQL, which refused it, and the socket was closed as if the
        # database were away ("try again shortly", a warning "database unavailable" logged).
        check_text(table_id, "path")
    except InputRefused as refused:
        await socket.close(
            CLOSE_NOT_FOUND, close_reason(language, refused.template, **refused.params)
        )
        return
    cookie = socket.cookies.get(COOKIE)
    admission: Admission = state.admission
    address = socket.client.host if socket.client else "unknown"
    token = state.sessions.token(cookie)
    digest = None if token is None else session_digest(token)
    try:
        signer = await socket_signer(socket)
    except OUTAGE_ERRORS as exc:  # a program's token could not be read
        await _try_later(socket, table_id, exc)
        return
    if signer is None:
        return
    try:
        with admission.holding(address, digest, socket):
            await _watch(socket, table_id, signer, hub, admission.message_rate(), opened)
    except OverCap as over:
        await socket.close(over.code, close_reason(language, over.template, **over.params))


async def _try_later(socket: WebSocket, table_id: str, exc: Exception) -> None:
    """The database is away: say "try again later" with a close frame, in our words."""
    log.warning("table socket %s: database unavailable (%s)", table_id, short(exc))
    await socket.close(CLOSE_TRY_LATER, close_reason(_language(socket), BUSY))


async def _watch(
    socket: WebSocket,
    table_id: str,
    signer: SocketSigner,
    hub: TableHub,
    rate: MessageRate,
    opened: int,
) -> None:
    # The table loads while the user is read: when a process dies, its players all come here
    # at once, and each waits for the longer of the two instead of both.
    loading = asyncio.ensure_future(hub.live(table_id))
    loading.add_done_callback(unawaited)  # nobody waits for it if the user cannot be read
    try:
        try:
            user = await signer.user()
            await loading  # no such table: refused here
        finally:
            loading.cancel()  # the user could not be read: stop waiting (the load goes on)
        conn = SocketConnection(socket, user)
        live = await hub.attach(table_id, conn)
    except Refused as exc:
        reason = exc.words(_language(socket))
        await socket.close(CLOSE_NOT_FOUND, fit(reason))
        return
    except OUTAGE_ERRORS as exc:
        await _try_later(socket, table_id, exc)
        return
    sender = asyncio.create_task(conn.pump())
    first: int | None = opened
    try:
        while not sender.done():
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if not rate.allow():
                # A flood of messages: cut off before any of its work is done.
                await socket.close(CLOSE_TOO_FAST, close_reason(conn.language, TOO_FAST))
                break
            text = message.get("text")
            if text is None:
                text = "<binary>"
            if user is not None and await signer.user() is None:
                # Signed out (maybe through another server process): no more acting.
                await socket.close(CLOSE_SIGNED_OUT, close_reason(conn.language, SIGNED_OUT))
                break
            await handle(hub, live, conn, text, first)
            first = None
    except WebSocketDisconnect:
        pass
    except OUTAGE_ERRORS as exc:
        # Whether the user is still signed in cannot be told while the database is away.
        log.warning("table socket %s: database unavailable (%s)", table_id, short(exc))
        await socket.close(CLOSE_TRY_LATER, close_reason(conn.language, BUSY))
    finally:
        hub.detach(live, conn)
        conn.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            async with asyncio.timeout(1):
                await sender
