"""The protocol for programs (lichess's Bot API, shaped for these games; the page
``/docs/bots`` documents it): a stream of the account's events, and actions sent back.

``GET /api/stream/events`` answers NDJSON, one JSON object a line, for as long as the client
reads (an empty line every :data:`KEEP_ALIVE_SECONDS` when nothing happens):

- ``{"type": "tableStart", "table": {…}, "seat": 0}``: a game where the account is seated is
  in play (also each game already in play when the stream opens);
- ``{"type": "yourTurn", "table": "id", "game": "versus", "seat": 0, "version": 17,
  "takebacks": 0, "view": {…}, "legal": […], "clock": {…}}``: the account may act — ``view``
  is the game's view for that seat, ``legal`` its legal actions in the game's notation,
  ``version`` and ``takebacks`` the state they belong to (a takeback lowers the version; the
  count of takebacks only grows);
- ``{"type": "tableEnd", "table": {…}, "seat": 0}``: the game is over (the table's
  ``outcome`` says how).

Actions go back with ``POST /api/tables/{id}/act`` ``{"version": 17, "takebacks": 0,
"action": "…"}`` (or
the table websocket's ``action`` message): the same command of the table's actor as a move in
the browser (:class:`~otherside.server.tables.play.Play`), refused with the same codes
(``stale``: the version is not the table's any more, or a takeback came since, 409;
``illegal``: 422 …).

The stream follows the account's tables by watching them like a browser does (it is a
:class:`~otherside.server.tables.live.Connection` of each): the events are the table's own
``table`` and ``view`` messages, translated, pushed by the tables' actors (and, from other
server processes, by the cluster's notifications). Nothing is polled: the stream reads the
account's tables when it opens and again only when it is nudged (:mod:`..live.nudges`) — the
account took a seat somewhere, here or in another process — and checks its token or session
only when one of those may have ended (revoked, signed out); it ends then. An idle stream costs
no database read, only its keep-alive line every :data:`KEEP_ALIVE_SECONDS` of the clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Depends, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.background import BackgroundTask

from otherside.server.accounts.sessions import (
    BEARER_SCOPE_KEY,
    COOKIE,
    UserInfo,
    require_user,
    session_digest,
    user_of_cookie,
)
from otherside.server.accounts.tokens import bearer_token
from otherside.server.clock import Clock
from otherside.server.http.deps import HubDep
from otherside.server.http.reader import reader_language
from otherside.server.http.tokens import token_still_valid
from otherside.server.live.nudges import (
    CHECK,
    LOOK,
    Nudges,
    session_credential,
    token_credential,
)
from otherside.server.live.protocol import MOST
from otherside.server.store.db import Database
from otherside.server.store.outage import OUTAGE_ERRORS, short
from otherside.server.store.queries import open_table_ids_of
from otherside.server.tables.errors import Refused
from otherside.server.tables.forfeits import Resign
from otherside.server.tables.hub import TableHub
from otherside.server.tables.live import LiveTable
from otherside.server.tables.play import Play
from otherside.server.tasks import cancel

router = APIRouter(prefix="/api")
log = logging.getLogger("otherside.server")
Me = Annotated[UserInfo, Depends(require_user)]
# Under the 5 s a read waits by default in common HTTP clients (httpx): an idle stream stays open.
KEEP_ALIVE_SECONDS = 4.0
KEEP_ALIVE = "keep-alive"  # what the stream's wait gives when the clock's time is up
MOST_EVENTS_QUEUED = 1024


class FeedWatch:
    """One table watched for a stream: the table's messages in, the stream's events out."""

    def __init__(
        self, user: UserInfo, events: asyncio.Queue[dict[str, Any] | str | None], language: str
    ) -> None:
        self.user: UserInfo | None = user
        self.language = language
        self.events = events
        self.started = False
        self.ended = False
        self.seat: int | None = None
        self.game: str | None = None
        # The state of the last turn told (version, takebacks): told once each, and again
        # when a takeback brings the same version back.
        self.turn: tuple[int, int] | None = None

    def deliver(self, text: str) -> None:
        """Translate one message of the table (see the module) into events."""
        message = orjson.loads(text)
        kind = message.get("type")
        if kind == "table":
            self._table(message["table"], message.get("you"))
        elif kind == "view" and not self.ended:
            self._view(message)

    def _table(self, table: dict[str, Any], you: int | None) -> None:
        self.seat = you
        self.game = table["game"]
        if table["status"] == "playing" and not self.started:
            self.started = True
            self._put({"type": "tableStart", "table": table, "seat": you})
        elif table["status"] == "over" and not self.ended:
            self.ended = True
            self._put({"type": "tableEnd", "table": table, "seat": you})

    def _view(self, message: dict[str, Any]) -> None:
        version = message["version"]
        turn = (version, message.get("takebacks", 0))
        if not message["legal"] or turn == self.turn:
            return
        self.turn = turn
        self._put(
            {
                "type": "yourTurn",
                "table": message["table"],
                "game": self.game,
                "seat": message["seat"],
                "version": version,
                "takebacks": turn[1],
                "view": message["view"],
                "legal": message["legal"],
                "clock": message["clock"],
            }
        )

    def _put(self, event: dict[str, Any]) -> None:
        if self.events.qsize() < MOST_EVENTS_QUEUED:
            self.events.put_nowait(event)
        else:
            self.events.put_nowait(None)  # a client that stopped reading: the stream ends


class Feed:
    """The event stream of one account (see the module).

    Args:
        hub: the tables of this process (the stream watches the account's tables through it).
        db: the database (the account's tables are read when a nudge says to look).
        clock: the server's clock (the keep-alive lines follow it).
        nudges: where the stream is woken when something concerns it.
        user: the account.
        credential: what the stream was opened with (:mod:`..live.nudges`' credentials).
        still_signed_in: whether that credential still signs the account in.
        language: the reader's language, for the words of the events.
    """

    def __init__(
        self,
        hub: TableHub,
        db: Database,
        clock: Clock,
        nudges: Nudges,
        user: UserInfo,
        credential: str,
        still_signed_in: Callable[[], Awaitable[bool]],
        language: str,
    ) -> None:
        self.hub = hub
        self.db = db
        self.clock = clock
        self.nudges = nudges
        self.user = user
        self.user_id = user.id
        self.credential = credential
        self.still_signed_in = still_signed_in
        self.language = language
        self.events: asyncio.Queue[dict[str, Any] | str | None] = asyncio.Queue()
        self.watched: dict[str, tuple[LiveTable, FeedWatch]] = {}
        self._pending: set[str] = set()  # nudges queued and not yet acted on (each once)

    def nudge(self, why: str) -> None:
        """Something concerns the stream (:data:`LOOK`, :data:`CHECK`): act on it in turn."""
        if why not in self._pending:
            self._pending.add(why)
            self.events.put_nowait(why)

    async def look(self) -> None:
        """Watch every open table of the account not watched yet; let go of those where it
        has no seat any more."""
        ids = await self.db.run(lambda s: open_table_ids_of(s, self.user.id))
        for table_id in set(self.watched) - set(ids):
            self._let_go(table_id)
        for table_id in ids:
            if table_id in self.watched:
                continue
            watch = FeedWatch(self.user, self.events, self.language)
            try:
                live = await self.hub.attach(table_id, watch)
            except Refused:
                continue  # gone meanwhile
            self.watched[table_id] = (live, watch)

    def _let_go(self, table_id: str) -> None:
        found = self.watched.pop(table_id, None)
        if found is not None:
            self.hub.detach(*found)

    async def _next(self) -> dict[str, Any] | str | None:
        """The next event or nudge; :data:`KEEP_ALIVE` after :data:`KEEP_ALIVE_SECONDS` of
        the clock without one."""
        if not self.events.empty():
            return self.events.get_nowait()
        getter = asyncio.ensure_future(self.events.get())
        sleeper = asyncio.ensure_future(self.clock.sleep(KEEP_ALIVE_SECONDS))
        try:
            done, _ = await asyncio.wait({getter, sleeper}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeper.cancel()
        if getter in done:
            return getter.result()
        await cancel(getter)  # an item put meanwhile stays in the queue (asyncio.Queue.get)
        return KEEP_ALIVE

    async def open(self) -> bool:
        """Check the credential and watch the account's tables, before the answer's status
        goes out: whether it still signs the account in. A database out of reach raises here
        (answered 503 with ``Retry-After``, :mod:`.outage`); once the stream has begun, it
        ends the stream (:meth:`lines`), and the client opens another."""
        self.nudges.add(self)  # first: nothing that concerns the stream from now on is missed
        try:
            if await self.still_signed_in():
                await self.look()
                return True
        except BaseException:
            self.close()
            raise
        self.close()
        return False

    def close(self) -> None:
        """Stop being nudged and let go of every table (again: nothing)."""
        self.nudges.discard(self)
        watched, self.watched = self.watched, {}
        for live, watch in watched.values():
            with contextlib.suppress(Exception):
                self.hub.detach(live, watch)

    async def lines(self) -> AsyncIterator[bytes]:
        """The stream's lines once :meth:`open` (see the module)."""
        try:
            while True:
                item = await self._next()
                if item is None:
                    return
                if item == KEEP_ALIVE:
                    yield b"\n"
                elif item == CHECK:
                    self._pending.discard(CHECK)
                    if not await self.still_signed_in():
                        return
                elif item == LOOK:
                    self._pending.discard(LOOK)
                    await self.look()
                elif isinstance(item, dict):
                    yield orjson.dumps(item, option=orjson.OPT_NON_STR_KEYS) + b"\n"
                    if item["type"] == "tableEnd":
                        self._let_go(str(item["table"]["id"]))
        except OUTAGE_ERRORS as exc:
            # Ended, not cut: a chunked answer cut short is a protocol error to the client
            # (and a traceback in the log); an ended one is reopened, as after a restart.
            log.warning("event stream ended: database unavailable (%s)", short(exc))
        finally:
            self.close()


def opened_with(request: Request) -> tuple[str, Callable[[], Awaitable[bool]]]:
    """The credential a request came with, and how to tell whether it still signs its account
    in (an API token, else the session cookie)."""
    state = request.app.state
    bearer = request.scope.get(BEARER_SCOPE_KEY)
    if bearer is not None:
        token = bearer_token(request.headers.get("authorization")) or ""
        return token_credential(bearer.token_id), lambda: token_still_valid(state, token)
    cookie = request.cookies.get(COOKIE)
    session = state.sessions.token(cookie) or ""

    async def signed_in() -> bool:
        return await user_of_cookie(state, cookie) is not None

    return session_credential(session_digest(session)), signed_in


@router.get(
    "/stream/events",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/x-ndjson": {"schema": {"type": "string"}}}}},
)
async def stream_events(request: Request, hub: HubDep, user: Me) -> StreamingResponse:
    """The account's events as NDJSON, for as long as the client reads (see the module)."""
    state = request.app.state
    credential, still_signed_in = opened_with(request)
    feed = Feed(
        hub,
        state.db,
        state.clock,
        state.nudges,
        user,
        credential,
        still_signed_in,
        reader_language(request),
    )
    if not await feed.open():
        return StreamingResponse(iter(()), media_type="application/x-ndjson")
    # ``close`` after the answer too: a client gone before the first line never runs
    # ``lines`` (nor its ``finally``).
    return StreamingResponse(
        feed.lines(), media_type="application/x-ndjson", background=BackgroundTask(feed.close)
    )


class ActBody(BaseModel):
    """Body of ``POST /api/tables/{id}/act``: the action (its notation) and the version of the
    state it answers, with its count of takebacks (``yourTurn``'s; optional: without it the
    version alone is checked). Strict, as the websocket's ``action`` message: "3" or true is
    no version."""

    model_config = ConfigDict(strict=True)

    version: int = Field(ge=0, le=MOST)
    action: str = Field(min_length=1, max_length=200)
    takebacks: int | None = Field(default=None, ge=0, le=MOST)


class Acted(BaseModel):
    """The answer to an action: the table's version after it, and its count of takebacks (the
    two a next action gives back)."""

    table: str
    version: int
    takebacks: int
    done: bool


def refused_action(exc: Refused, live: LiveTable | None = None) -> Refused:
    """An action's refusal, answered as every table's refusal is, with the table's version and
    count of takebacks as ``table_version`` and ``table_takebacks`` when known."""
    if live is not None:
        exc.params = {
            **exc.params,
            "table_version": live.info.version,
            "table_takebacks": live.info.takebacks,
        }
    return exc


@router.post("/tables/{table_id}/act")
async def act(table_id: str, body: ActBody, hub: HubDep, user: Me) -> Acted:
    """Play ``action`` at ``version`` at table ``table_id`` (the way a move from the browser
    goes); refused with the websocket's codes (``stale``: 409, the table's ``version`` among
    the parameters), changing nothing. ``done`` is false when this very action had been
    applied already (a retry after a lost answer)."""
    try:
        done = await hub.ask(table_id, Play(user, body.version, body.action, body.takebacks))
    except Refused as exc:
        raise refused_action(exc, hub.loaded(table_id)) from None
    live = hub.loaded(table_id)
    if live is None:  # gone from memory meanwhile (the game over): as it was played
        return Acted(
            table=table_id, version=body.version + 1, takebacks=body.takebacks or 0, done=done
        )
    return Acted(
        table=table_id, version=live.info.version, takebacks=live.info.takebacks, done=done
    )


class ResignedOut(BaseModel):
    """The answer to a resignation."""

    table: str


@router.post("/tables/{table_id}/resign")
async def resign(table_id: str, hub: HubDep, user: Me) -> ResignedOut:
    """Give up my seat in the game at table ``table_id`` (a bot plays it on)."""
    try:
        await hub.ask(table_id, Resign(user))
    except Refused as exc:
        raise refused_action(exc) from None
    return ResignedOut(table=table_id)
