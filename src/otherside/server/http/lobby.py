"""The lobby's HTTP API: games on offer, tables (create, join, leave, bots, start, stop, a rematch,
play on for an absent partner), lists, rules and ratings. Every change to a table is a command
of the table's actor, found through the :class:`~otherside.server.tables.hub.TableHub`
(:mod:`otherside.server.tables.seating`); a refusal
(:class:`~otherside.server.tables.errors.Refused`) answers with its code's status. A table's
history, replay and record are :mod:`otherside.server.http.replays`'."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from pydantic import BaseModel, Field, TypeAdapter
from sqlalchemy.orm import Session

from otherside.guide import GAMES, guide_language, rules_text
from otherside.i18n import N_
from otherside.server.accounts.limits import Throttles
from otherside.server.accounts.rates import counted
from otherside.server.accounts.sessions import UserInfo, client_address, require_user
from otherside.server.http.deps import (
    CoalescedDep,
    DatabaseDep,
    HubDep,
    LimitsDep,
    ThrottlesDep,
)
from otherside.server.http.errors import Told
from otherside.server.http.reader import LanguageDep, reader_language
from otherside.server.http.schemas import GameOut, LeaderOut, MyTableOut
from otherside.server.live.protocol import TableOut
from otherside.server.live.reader_words import choices_said
from otherside.server.live.wire import table_fields, table_out
from otherside.server.ratings.rated import leaderboard, ratings_of
from otherside.server.store.contract import rated_user_ids
from otherside.server.store.db import Database
from otherside.server.store.queries import list_tables, list_user_tables, load_table
from otherside.server.store.records import TableInfo
from otherside.server.tables import bot_tables, seating
from otherside.server.tables.absence import PlayOnWithBot
from otherside.server.tables.adapters import available_adapters, get_adapter
from otherside.server.tables.errors import Refused
from otherside.server.tables.hub import TableHub
from otherside.server.tables.setup_refusals import problem

router = APIRouter(prefix="/api")
Me = Annotated[UserInfo, Depends(require_user)]
# Every lobby page reads its three lists every 5 s, and each costs a read of many tables:
# counted per account and per address (429 beyond, :mod:`otherside.server.accounts.rates`).
LISTS = [Depends(counted(lambda rates: rates.lobby_lists))]


class NewTable(BaseModel):
    """Body of ``POST /api/tables``: the game, the player count, the game's options and the
    pace (``{"kind": "live", "minutes": 10, "increment": 5}`` or ``{"kind": "turn", "days": 7,
    "remind_days": 4}``; the game's usual pace when left out)."""

    game: str = Field(max_length=32)
    players: int
    options: dict[str, Any] = Field(default_factory=dict)
    pace: dict[str, Any] | None = None


class JoinBody(BaseModel):
    """Body of ``POST /api/tables/{id}/join`` (no seat: the first free one)."""

    seat: int | None = None


class BotBody(BaseModel):
    """Body of ``POST /api/tables/{id}/bots``: a bot for one seat, or for every empty seat."""

    bot: str | None = Field(default=None, max_length=32)
    seat: int | None = None


def _title(info: TableInfo) -> str:
    try:
        return get_adapter(info.game).title
    except ValueError:
        return info.game


def _out(info: TableInfo, ratings: dict[int, float] | None, language: str) -> TableOut:
    return table_out(info, _title(info), ratings, language=language)


def _wanted(infos: list[TableInfo]) -> dict[str, set[int]]:
    """The seated players whose ratings a list of tables shows, by game."""
    wanted: dict[str, set[int]] = {}
    for info in infos:
        ids = rated_user_ids(info)  # guests never have a rating: nothing to read for them
        if ids:
            wanted.setdefault(info.game, set()).update(ids)
    return wanted


def _ratings_in(session: Session, wanted: dict[str, set[int]]) -> dict[str, dict[int, float]]:
    return {game: ratings_of(session, game, sorted(ids)) for game, ids in wanted.items()}


async def _ratings(db: Database, infos: list[TableInfo]) -> dict[str, dict[int, float]]:
    """Every seated player's rating in the table's game, by game, for a list of tables."""
    wanted = _wanted(infos)
    return await db.run(lambda s: _ratings_in(s, wanted)) if wanted else {}


async def table_summary(db: Database, info: TableInfo, language: str) -> TableOut:
    """One table for an answer, with its players' ratings, its words in ``language``."""
    ratings = await _ratings(db, [info])
    return _out(info, ratings.get(info.game), language)


@router.get("/games")
async def games(limits: LimitsDep, language: LanguageDep) -> list[GameOut]:
    """The games this server offers, with their player counts, options and bots (those this
    server's cap on thinking allows; each bot's label in the reader's language)."""
    cap = limits.bot_think_cap
    return [
        GameOut.model_validate(choices_said(adapter.to_json(cap), language))
        for adapter in available_adapters()
    ]


@dataclass(frozen=True)
class TableMaking:
    """A request that makes a table (a new one, or a rematch): counted against what one
    account and one address may create in a while, answered with the table made."""

    request: Request
    hub: TableHub
    db: Database
    throttles: Throttles
    user: UserInfo

    async def make(self, making: Callable[[], Awaitable[TableInfo]]) -> TableOut:
        """Reserve a table of the quotas (or 429) before ``making`` makes it, and give it back
        if none is made (a bad game, too many open); the table made, with its ratings."""
        throttles = self.throttles
        slots = await throttles.limiter.reserve_all(
            [
                (throttles.tables_user, str(self.user.id)),
                (throttles.tables_address, client_address(self.request)),
            ]
        )
        try:
            made = await making()
        except (HTTPException, Refused, Told):
            await throttles.limiter.release(*slots)
            raise
        return await table_summary(self.db, made, reader_language(self.request))


async def table_making(
    request: Request, hub: HubDep, db: DatabaseDep, throttles: ThrottlesDep, user: Me
) -> TableMaking:
    """What a route that makes a table needs, in one dependency."""
    return TableMaking(request, hub, db, throttles, user)


MakingDep = Annotated[TableMaking, Depends(table_making)]


@router.post("/tables", status_code=201)
async def create(body: NewTable, making: MakingDep) -> TableOut:
    """Create a table; the creator sits in seat 0 and is its host."""
    return await making.make(
        lambda: seating.create(
            making.hub, making.user, body.game, body.players, body.options, body.pace
        )
    )


_TABLE_LIST = TypeAdapter(list[TableOut])


@router.get("/tables", response_model=list[TableOut], dependencies=LISTS)
async def tables(
    shared: CoalescedDep, db: DatabaseDep, language: LanguageDep, status: str = "waiting"
) -> Response:
    """Tables by status: ``waiting`` (open to join), ``playing`` (to watch) or ``over``."""
    if status not in ("waiting", "playing", "over"):
        raise Told(
            422,
            "bad_status",
            N_("a table's status is 'waiting', 'playing' or 'over', not '{given}'"),
            given=status,
        )

    def listed(session: Session) -> bytes:
        # Read and written in the database's thread, off the tables' event loop.
        infos = list_tables(session, status)
        ratings = _ratings_in(session, _wanted(infos))
        return _TABLE_LIST.dump_json([_out(i, ratings.get(i.game), language) for i in infos])

    # The same list for every reader of a language: computed once for those who ask at once.
    body: bytes = await shared.answer(("tables", status, language), lambda: db.run(listed))
    return Response(body, media_type="application/json")


@router.get("/my/tables", dependencies=LISTS)
async def my_tables(db: DatabaseDep, user: Me, language: LanguageDep) -> list[MyTableOut]:
    """The tables where I have a seat, most recent first; ``your_turn`` marks those waiting
    for me."""
    infos = await db.run(lambda s: list_user_tables(s, user.id))
    ratings = await _ratings(db, infos)
    return [_mine(info, ratings.get(info.game), user, language) for info in infos]


def _mine(
    info: TableInfo, ratings: dict[int, float] | None, me: UserInfo, language: str
) -> MyTableOut:
    seat = info.playing_seat_of(me.id)
    return MyTableOut(
        **table_fields(info, _title(info), ratings, language=language),
        you=info.seat_of(me.id),
        your_turn=info.status == "playing" and seat is not None and seat in info.to_move,
    )


@router.get("/tables/{table_id}")
async def table(table_id: str, db: DatabaseDep, language: LanguageDep) -> TableOut:
    """One table's summary."""
    info = await db.run(lambda s: load_table(s, table_id))
    if info is None:
        raise Refused("no_table", table=table_id)
    return await table_summary(db, info, language)


@router.post("/tables/{table_id}/join")
async def join(
    table_id: str, body: JoinBody, hub: HubDep, db: DatabaseDep, user: Me, language: LanguageDep
) -> TableOut:
    """Take a free seat."""
    joined = await hub.ask(table_id, seating.Join(user, body.seat))
    return await table_summary(db, joined, language)


@router.post("/tables/{table_id}/leave")
async def leave(
    table_id: str, hub: HubDep, db: DatabaseDep, user: Me, language: LanguageDep
) -> TableOut:
    """Give up my seat before the game starts."""
    return await table_summary(db, await hub.ask(table_id, seating.Leave(user)), language)


class SeatBody(BaseModel):
    """Body naming a seat (0-based)."""

    seat: int


@router.post("/tables/{table_id}/play-on")
async def play_on(
    table_id: str, body: SeatBody, hub: HubDep, db: DatabaseDep, user: Me, language: LanguageDep
) -> TableOut:
    """Play on with a bot in the seat of a partner who has been gone long (a game without
    player clocks)."""
    played_on = await hub.ask(table_id, PlayOnWithBot(user, body.seat))
    return await table_summary(db, played_on, language)


@router.post("/tables/{table_id}/bots")
async def bots(
    table_id: str, body: BotBody, hub: HubDep, db: DatabaseDep, user: Me, language: LanguageDep
) -> TableOut:
    """Host only: ``{"bot": "greedy"}`` fills every empty seat; with ``"seat"`` sets one seat
    (``"bot": null`` empties it)."""
    if body.seat is not None:
        seated = await hub.ask(table_id, seating.SetBot(user, body.seat, body.bot))
        return await table_summary(db, seated, language)
    if body.bot is None:
        raise Told(422, "no_bot", N_("name a bot to fill the empty seats with"))
    filled = await hub.ask(table_id, seating.Fill(user, body.bot))
    return await table_summary(db, filled, language)


@router.post("/tables/{table_id}/start")
async def start(
    table_id: str, hub: HubDep, db: DatabaseDep, user: Me, language: LanguageDep
) -> TableOut:
    """Host only: start the game (every seat must be taken)."""
    return await table_summary(db, await hub.ask(table_id, seating.Start(user)), language)


@router.post("/tables/{table_id}/stop")
async def stop(
    table_id: str, hub: HubDep, db: DatabaseDep, user: Me, language: LanguageDep
) -> TableOut:
    """Host only: stop a game with bots only (it ends aborted, unrated)."""
    return await table_summary(db, await hub.ask(table_id, bot_tables.Stop(user)), language)


@router.post("/tables/{table_id}/rematch", status_code=201)
async def rematch(table_id: str, making: MakingDep) -> TableOut:
    """A player of a finished game: a new table with the same seats (or the one already made)."""
    return await making.make(lambda: seating.rematch(making.hub, table_id, making.user))


@router.get(
    "/rules/{game}",
    response_class=Response,
    responses={200: {"content": {"text/markdown": {"schema": {"type": "string"}}}}},
)
async def rules(game: str, request: Request, lang: str | None = None) -> Response:
    """The rules of ``game`` in the project's own words (Markdown), in ``lang`` (the page's
    language) or else the reader's; English for a language that has no guide."""
    language = guide_language(lang or reader_language(request))
    try:
        text = rules_text(game, language)
    except ValueError as exc:
        raise Told(
            404,
            "no_rules",
            N_("no rules for '{game}'; games: {games}"),
            game=game,
            games=", ".join(GAMES),
        ) from exc
    headers = {"Content-Language": language, "Vary": "Accept-Language, Cookie"}
    return Response(text, media_type="text/markdown; charset=utf-8", headers=headers)


@router.get("/ratings")
async def ratings(db: DatabaseDep, game: str = "versus") -> list[LeaderOut]:
    """The leaderboard of ``game``: ``[{"name", "rating", "games"}]``, best first."""
    try:
        get_adapter(game)
    except ValueError as exc:
        raise Refused("bad_request", **problem(exc)) from exc
    rows = await db.run(lambda s: leaderboard(s, game))
    return [LeaderOut.model_validate(row) for row in rows]
