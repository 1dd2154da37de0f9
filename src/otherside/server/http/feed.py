"""The protocol for programs (lichess's Bot API, shaped for these games; the page
``/docs/bots`` documents it): a stream of the account's events, and actions sent back.

``GET /api/stream/events`` answers NDJSON, one JSON object a line, for as long as the client
reads (an empty line every :data:`KEEP_ALIVE_SECONDS` when nothing happens):

- ``{"type": "tableStart", "table": {…}, "seat": 0}``: a game where the account is seated is
  in play (also each game already in play when the stream opens);
- ``{"type": "yourTurn", "table": "id", "game": "versus", "seat": 0, "version": 17,
  "view": {…}, "legal": […], "clock": {…}}``: the account may act — ``view`` is the game's
  view for that seat, ``legal`` its legal actions in the game's notation, ``version`` the
  state they belong to;
- ``{"type": "tableEnd", "table": {…}, "seat": 0}``: the game is over (the table's
  ``outcome`` says how).

Actions go back with ``POST /api/tables/{id}/act`` ``{"version": 17, "action": "…"}`` (or
the table websocket's ``action`` message): the same command of the table's actor as a move in
the browser (:class:`~otherside.server.tables.play.Play`), refused with the same codes
(``stale``: the version is not the table's any more, 409; ``illegal``: 422 …).

The stream follows the account's tables by watching them like a browser does (it is a
:class:`~otherside.server.tables.live.Connection` of each): the events are the table's own
``table`` and ``view`` messages, translated. Tables the account sits down at later are found
by a look at the database every :data:`LOOK_SECONDS`; the stream ends when the account signs
out or its token is revoked.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Depends, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from otherside.server.accounts.sessions import (
    BEARER_SCOPE_KEY,
    COOKIE,
    UserInfo,
    require_user,
    user_of_cookie,
)
from otherside.server.accounts.tokens import bearer_token
from otherside.server.http.deps import HubDep
from otherside.server.http.errors import Told
from otherside.server.http.reader import reader_language
from otherside.server.http.tokens import token_still_valid
from otherside.server.live.protocol import ProtocolError
from otherside.server.store.queries import open_table_ids_of
from otherside.server.tables.errors import Refused
from otherside.server.tables.forfeits import Resign
from otherside.server.tables.hub import TableHub
from otherside.server.tables.live import LiveTable
from otherside.server.tables.play import Play

router = APIRouter(prefix="/api")
Me = Annotated[UserInfo, Depends(require_user)]
KEEP_ALIVE_SECONDS = 7.0
LOOK_SECONDS = 1.0
MOST_EVENTS_QUEUED = 1024
# A refused action's HTTP status, by its code (the websocket's error codes).
ACTION_STATUS = {
    "malformed": 422,
    "illegal": 422,
    "not_seated": 403,
    "not_started": 409,
    "game_over": 409,
    "not_your_turn": 409,
    "out_of_time": 409,
    "stale": 409,
    "server_error": 503,
}


class FeedWatch:
    """One table watched for a stream: the table's messages in, the stream's events out."""

    def __init__(
        self, user: UserInfo, events: asyncio.Queue[dict[str, Any] | None], language: str
    ) -> None:
        self.user: UserInfo | None = user
        self.language = language
        self.events = events
        self.started = False
        self.ended = False
        self.seat: int | None = None
        self.game: str | None = None
        self.turn_version: int | None = None

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
        if not message["legal"] or version == self.turn_version:
            return
        self.turn_version = version
        self._put(
            {
                "type": "yourTurn",
                "table": message["table"],
                "game": self.game,
                "seat": message["seat"],
                "version": version,
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
    """The event stream of one account (see the module)."""

    def __init__(self, request: Request, hub: TableHub, user: UserInfo) -> None:
        self.request = request
        self.hub = hub
        self.user = user
        self.events: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.watched: dict[str, tuple[LiveTable, FeedWatch]] = {}

    async def still_signed_in(self) -> bool:
        """Whether the stream's token or session still signs the account in."""
        state = self.request.app.state
        if BEARER_SCOPE_KEY in self.request.scope:
            token = bearer_token(self.request.headers.get("authorization")) or ""
            return await token_still_valid(state, token)
        return await user_of_cookie(state, self.request.cookies.get(COOKIE)) is not None

    async def look(self) -> None:
        """Watch every open table of the account not watched yet; let go of ended ones."""
        for table_id, (live, watch) in list(self.watched.items()):
            if watch.ended:
                del self.watched[table_id]
                self.hub.detach(live, watch)
        db = self.request.app.state.db
        ids = await db.run(lambda s: open_table_ids_of(s, self.user.id))
        for table_id in ids:
            if table_id in self.watched:
                continue
            watch = FeedWatch(self.user, self.events, reader_language(self.request))
            try:
                live = await self.hub.attach(table_id, watch)
            except Refused:
                continue  # gone meanwhile
            self.watched[table_id] = (live, watch)

    async def lines(self) -> AsyncIterator[bytes]:
        """The stream's lines (see the module)."""
        try:
            looker = asyncio.get_running_loop().time
            next_look = 0.0
            while True:
                if looker() >= next_look:
                    if not await self.still_signed_in():
                        return
                    await self.look()
                    next_look = looker() + LOOK_SECONDS
                timeout = min(KEEP_ALIVE_SECONDS, max(0.0, next_look - looker()))
                try:
                    event = await asyncio.wait_for(self.events.get(), timeout)
                except TimeoutError:
                    yield b"\n"
                    continue
                if event is None:
                    return
                yield orjson.dumps(event, option=orjson.OPT_NON_STR_KEYS) + b"\n"
        finally:
            for live, watch in self.watched.values():
                with contextlib.suppress(Exception):
                    self.hub.detach(live, watch)


@router.get(
    "/stream/events",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/x-ndjson": {"schema": {"type": "string"}}}}},
)
async def stream_events(request: Request, hub: HubDep, user: Me) -> StreamingResponse:
    """The account's events as NDJSON, for as long as the client reads (see the module)."""
    feed = Feed(request, hub, user)
    return StreamingResponse(feed.lines(), media_type="application/x-ndjson")


class ActBody(BaseModel):
    """Body of ``POST /api/tables/{id}/act``: the action (its notation) and the version of the
    state it answers (``yourTurn``'s)."""

    version: int = Field(ge=0)
    action: str = Field(min_length=1, max_length=200)


class Acted(BaseModel):
    """The answer to an action: the table's version after it."""

    table: str
    version: int
    done: bool


def refused_action(exc: ProtocolError, version: int | None = None) -> Told:
    """An action's refusal as an HTTP answer (its words said in the reader's language by
    :class:`Told`'s handler), with the table's version as ``table_version`` when known."""
    params = dict(exc.params)
    if version is not None:
        params["table_version"] = version
    return Told(ACTION_STATUS.get(exc.code, 409), exc.code, exc.template, **params)


@router.post("/tables/{table_id}/act")
async def act(table_id: str, body: ActBody, hub: HubDep, user: Me) -> Acted:
    """Play ``action`` at ``version`` at table ``table_id`` (the way a move from the browser
    goes); refused with the websocket's codes (``stale``: 409, the table's ``version`` among
    the parameters), changing nothing. ``done`` is false when this very action had been
    applied already (a retry after a lost answer)."""
    try:
        done = await hub.ask(table_id, Play(user, body.version, body.action))
    except ProtocolError as exc:
        live = hub.loaded(table_id)
        raise refused_action(exc, live.info.version if live else None) from None
    live = hub.loaded(table_id)
    version = live.info.version if live is not None else body.version + 1
    return Acted(table=table_id, version=version, done=done)


class ResignedOut(BaseModel):
    """The answer to a resignation."""

    table: str


@router.post("/tables/{table_id}/resign")
async def resign(table_id: str, hub: HubDep, user: Me) -> ResignedOut:
    """Give up my seat in the game at table ``table_id`` (a bot plays it on)."""
    try:
        await hub.ask(table_id, Resign(user))
    except ProtocolError as exc:
        raise refused_action(exc) from None
    return ResignedOut(table=table_id)
