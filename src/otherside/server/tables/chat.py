"""Chat at a table: anyone signed in who watches may say a line (players and spectators), at
most :attr:`~otherside.server.accounts.limits.Limits.chat_lines_per_minute` a minute (counted in
the database by the server's limiter, so that every process shares the count); lines are
stored, passed on to every watcher (here and in the other server processes), and the recent
ones are sent to whoever starts watching."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from otherside.i18n import N_
from otherside.server.accounts.limiter import TooMany
from otherside.server.accounts.sessions import UserInfo
from otherside.server.live import fanout
from otherside.server.live.protocol import CHAT_CHARS, ChatLineOut
from otherside.server.store.records import ChatRow
from otherside.server.tables.errors import Refused
from otherside.server.tables.live import Connection, LiveTable
from otherside.server.tables.services import Services

CHAT_HISTORY = 50  # lines sent to a new watcher


@dataclass(frozen=True)
class Say:
    """``user`` says ``text`` at the table."""

    user: UserInfo | None
    text: str

    async def run(self, live: LiveTable, services: Services) -> None:
        """Store the line and pass it on; :class:`Refused` (``chat``) if refused."""
        user = self.user
        if user is None:
            raise Refused("chat", N_("sign in (or play as a guest) to chat"))
        line = " ".join(self.text.split())
        if not line:
            raise Refused("chat", N_("an empty line is not sent"))
        if len(line) > CHAT_CHARS:
            raise Refused("chat", N_("a chat line has at most {most} characters"), most=CHAT_CHARS)
        throttles = services.throttles
        if throttles is not None:
            try:
                await throttles.limiter.reserve(throttles.chat, f"{live.id}\n{user.id}")
            except TooMany as refused:
                most = services.limits.chat_lines_per_minute
                raise Refused(
                    "chat",
                    N_("at most {most} lines a minute; wait {wait} s"),
                    most=most,
                    wait=refused.wait,
                ) from refused
        now = services.clock.now()
        seat = live.info.playing_seat_of(user.id)
        said = ChatLineOut(name=user.name, seat=seat, text=line, at=now.isoformat())
        await services.store.chat(live.id, user, seat, line, now, said.model_dump())
        _remember(live, said)
        fanout.say(live, [said])


def heard(live: LiveTable, line: Any) -> None:
    """Pass on a line said at the table in another server process (as it told it)."""
    said = ChatLineOut.model_validate(line)
    _remember(live, said)
    fanout.say(live, [said])


def _remember(live: LiveTable, said: ChatLineOut) -> None:
    live.chat_said += 1
    if live.chat is not None:
        live.chat = [*live.chat[-(CHAT_HISTORY - 1) :], said]


async def send_recent(services: Services, live: LiveTable, conn: Connection) -> None:
    """Send a new watcher the table's recent lines, if any: from memory when this process
    alone writes the table's chat and has read it once (or made the table), else from the
    database (other processes' lines may have been missed while their notifications were)."""
    lines = live.chat if not services.cluster.shared else None
    if lines is None:
        said = live.chat_said
        rows = await services.store.recent_chat(live.id, CHAT_HISTORY)
        lines = [_out(row) for row in rows]
        if not services.cluster.shared and live.chat_said == said and live.chat is None:
            live.chat = lines  # no line said meanwhile: what was read is all there is
    if lines:
        conn.deliver(fanout.chat_text(lines, recent=True))


def _out(row: ChatRow) -> ChatLineOut:
    return ChatLineOut(name=row.name, seat=row.seat, text=row.text, at=row.at.isoformat())
