"""The messages out of a table: its ``table``, ``view`` and ``chat`` texts, made once per seat
and delivered to every connection watching it (a seat gets its seat's view, a spectator the
public one), and ``error`` answers to one connection.

Every move sends a ``view`` to each seat, so that text is built straight from plain data with
``orjson`` (its shape is :class:`~otherside.server.live.protocol.ViewMessage`'s, which the tests
check), not through a model that would copy and re-validate the game's view on each move.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import orjson

from otherside.core.simultaneous import legal_actions_of
from otherside.server.live.protocol import (
    ChatLineOut,
    ChatOutMessage,
    ErrorMessage,
    TableMessage,
)
from otherside.server.live.wire import table_out
from otherside.server.tables.live import Connection, LiveTable


def table_text(live: LiveTable, seat: int | None, language: str) -> str:
    """The ``table`` message for ``seat`` (``None``: a spectator), its words in ``language``."""
    # Away through every process, as last heard from the others: no read on a move's way out.
    away = live.shown_away()
    out = table_out(
        live.info, live.adapter.title, live.ratings, live.rating_changes, away, language
    )
    return TableMessage(table=out, you=seat).model_dump_json()


def clock_out(live: LiveTable, now: datetime) -> dict[str, Any]:
    """The table's clocks as a ``view`` carries them (a
    :class:`~otherside.server.live.protocol.ClockOut`'s fields)."""
    info = live.info
    return {
        "now": now.isoformat(),
        "to_move": list(info.to_move) if info.status == "playing" else [],
        "turn_started_at": info.turn_started_at.isoformat() if info.turn_started_at else None,
        "time_left_ms": [s.time_left_ms for s in info.seats],
        "deadline_at": info.deadline_at.isoformat() if info.deadline_at else None,
        "pace": info.pace.to_json(),
    }


def view_text(
    live: LiveTable, seat: int | None, clock: dict[str, Any], until: datetime | None
) -> str | None:
    """The ``view`` message for ``seat``: its view and legal actions (``None`` before the
    game starts); ``until``: the table's :meth:`~LiveTable.ready_deadline`, asked once for all
    the seats' views."""
    state = live.state
    if state is None:
        return None
    playing = seat is not None and live.info.status == "playing"
    legal = [str(a) for a in legal_actions_of(state, seat)] if playing else []
    # A bot about to start the next round waits for a seated person's ``ready``
    # (:mod:`otherside.server.tables.ready`) until its deadline on the server's clock, which
    # everyone watching is told, spectators too: when the next round starts at the latest.
    waits = until is not None and seat is not None and live.info.seats[seat].human
    message = {
        "type": "view",
        "table": live.id,
        "version": live.info.version,
        "seat": seat,
        "view": live.view(seat),
        "legal": legal,
        "clock": clock,
        "takeback": request.to_json() if (request := live.pending_takeback()) else None,
        "takebacks": live.info.takebacks,
        "bot_waits": waits,
        "bot_waits_until": until.isoformat() if until is not None else None,
    }
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def send_state(conn: Connection, live: LiveTable, now: datetime) -> None:
    """Send ``conn`` the table and its view, as they are now."""
    seat = live.seat_of(conn)
    conn.deliver(table_text(live, seat, conn.language))
    view = view_text(live, seat, clock_out(live, now), live.ready_deadline())
    if view is not None:
        conn.deliver(view)


def broadcast(
    live: LiveTable, now: datetime, table: bool, view: bool, skip: Connection | None = None
) -> None:
    """Tell every watcher of the table but ``skip`` (``table``: its seats and status;
    ``view``: the game); the ``table`` text is made once per seat and language, the ``view``
    once per seat (and whether a bot waits for a ``ready``, once)."""
    tables: dict[tuple[int | None, str], str] = {}
    views: dict[int | None, str | None] = {}
    clock = clock_out(live, now)
    until = live.ready_deadline() if view else None
    for conn in list(live.watchers):
        if conn is skip:
            continue
        seat = live.seat_of(conn)
        if table:
            key = (seat, conn.language)
            if key not in tables:
                tables[key] = table_text(live, seat, conn.language)
            conn.deliver(tables[key])
        if view:
            if seat not in views:
                views[seat] = view_text(live, seat, clock, until)
            text = views[seat]
            if text is not None:
                conn.deliver(text)


def chat_text(lines: list[ChatLineOut], recent: bool = False) -> str:
    """The ``chat`` message of ``lines`` (``recent``: the lines said before, sent on
    connecting)."""
    return ChatOutMessage(lines=lines, recent=recent).model_dump_json()


def say(live: LiveTable, lines: list[ChatLineOut]) -> None:
    """Pass chat lines on to every watcher of the table."""
    out = chat_text(lines)
    for conn in list(live.watchers):
        conn.deliver(out)


def error(
    conn: Connection,
    live: LiveTable,
    code: str,
    message: str,
    params: dict[str, Any] | None = None,
) -> None:
    """Answer ``conn`` that its message was refused, and why (``params``: the refusal's
    fields)."""
    answer = ErrorMessage(
        code=code, message=message, version=live.info.version, params=params or {}
    )
    conn.deliver(answer.model_dump_json())
