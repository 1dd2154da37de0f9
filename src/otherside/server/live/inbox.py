"""The messages in from a table's websocket: each parsed (:mod:`.protocol`) and turned into a
command of the table's actor; a refusal goes back to the sender as an ``error`` message."""

from __future__ import annotations

import logging

from otherside.i18n import DEFAULT
from otherside.server.cluster.catch_up import Refresh
from otherside.server.live import fanout
from otherside.server.live.protocol import (
    ActionMessage,
    ChatMessage,
    PingMessage,
    PongMessage,
    ProtocolError,
    ReadyMessage,
    ResignMessage,
    TakebackMessage,
    parse_client_message,
)
from otherside.server.store.outage import log_failure
from otherside.server.tables.chat import Say
from otherside.server.tables.errors import Refused
from otherside.server.tables.forfeits import Resign
from otherside.server.tables.hub import TableHub
from otherside.server.tables.live import Connection, LiveTable, ticket
from otherside.server.tables.play import Play
from otherside.server.tables.ready import Ready
from otherside.server.tables.takebacks import Takeback

# Refusals followed by the table as it is (nothing changed), to act on again: the page redraws
# the board its player had acted on. Without it, after a database failure the board waited for
# a view that never came, and a program playing through the socket stalled until it reconnected.
AND_THE_TABLE = frozenset({"stale", "server_error"})

log = logging.getLogger("otherside.server")


async def handle(
    hub: TableHub, live: LiveTable, conn: Connection, text: str, opened: int | None = None
) -> None:
    """Act on one client message of ``conn``, watching ``live`` (``opened``: the
    :func:`~otherside.server.tables.live.ticket` of the connection's opening, given with its
    first message)."""
    now = hub.services.clock.now
    try:
        message = parse_client_message(text)
        if isinstance(message, PingMessage):
            conn.deliver(PongMessage().model_dump_json())
        elif isinstance(message, ActionMessage):
            play = Play(conn.user, message.version, message.action, message.takebacks)
            if not await hub.ask(live.id, play):
                # Played already (a retry after a lost answer): show where the game is.
                fanout.send_state(conn, live, now())
        elif isinstance(message, ResignMessage):
            await hub.ask(live.id, Resign(conn.user))
        elif isinstance(message, TakebackMessage):
            step = Takeback(conn.user, message.version, message.step, message.takebacks)
            await hub.ask(live.id, step)
        elif isinstance(message, ReadyMessage):
            await hub.ask(live.id, Ready(conn.user, message.version))
        elif isinstance(message, ChatMessage):
            await hub.ask(live.id, Say(conn.user, message.text))
        else:
            # "sync": the client thinks it is behind; answer with the table as stored, not as
            # this process last knew it (a catch-up may have failed or be under way): read
            # since now, or since the connection opened if it is its first message (a page
            # asks as it connects, and a table loaded for it since is as stored).
            await hub.ask(live.id, Refresh(since=opened if opened is not None else ticket()))
            fanout.send_state(conn, live, now())
    except (ProtocolError, Refused) as exc:
        # An unreadable message, or the table's refusal; in the reader's language (the
        # socket's, from its cookie or Accept-Language).
        language = getattr(conn, "language", DEFAULT)
        fanout.error(conn, live, exc.code, exc.words(language), exc.params)
        if exc.code in AND_THE_TABLE:
            fanout.send_state(conn, live, now())
    except Exception:
        # The database away, or a bug: the socket stays open, the words are ours (the
        # exception, driver text included, goes to the log only).
        log_failure(log, "a message to table %s could not be handled", live.id)
        failed = Refused("server_error")
        fanout.error(conn, live, failed.code, failed.words(getattr(conn, "language", DEFAULT)))
        fanout.send_state(conn, live, now())
