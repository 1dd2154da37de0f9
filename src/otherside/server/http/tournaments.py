"""The tournaments' HTTP API: events (Swiss or round-robin) created by a signed-in host, joined
and left by people before the start, given built-in bots by the host, started by the host and
then run by the :class:`~otherside.server.tournaments.director.Director`. A refusal
(:class:`~otherside.server.tournaments.refusals.EventRefused`) answers with its status, stable
code and parameters; nothing changed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from otherside.server.accounts.sessions import UserInfo, require_user
from otherside.server.http.deps import ClockDep, DatabaseDep, LimitsDep
from otherside.server.http.errors import Told
from otherside.server.store.db import Database
from otherside.server.tables import setup_refusals
from otherside.server.tables.adapters import get_adapter
from otherside.server.tournaments import events, settings
from otherside.server.tournaments.director import Director
from otherside.server.tournaments.records import Event
from otherside.server.tournaments.refusals import EventRefused
from otherside.server.tournaments.standings import standings

router = APIRouter(prefix="/api/tournaments")
Me = Annotated[UserInfo, Depends(require_user)]
OPEN_EVENTS_PER_HOST = 5
T = TypeVar("T")


async def director(request: Request) -> Director:
    """The server's director of events."""
    found: Director = request.app.state.tournaments
    return found


DirectorDep = Annotated[Director, Depends(director)]


class NewEvent(BaseModel):
    """Body of ``POST /api/tournaments``: the game, ``kind`` (``swiss`` or ``round-robin``),
    ``rounds`` (Swiss only), the players at each table (``group_size``: 2, or 3 to 6 for
    Verso), the pace and options as a table takes them, rated or not, and who may enter
    (``people``, ``bots`` added by the host, or ``both``)."""

    name: str | None = Field(default=None, max_length=200)
    game: str = Field(max_length=32)
    kind: str = Field(default="swiss", max_length=32)
    rounds: int | None = None
    group_size: int | None = None
    max_entrants: int = 16
    options: dict[str, Any] = Field(default_factory=dict)
    pace: dict[str, Any] | None = None
    rated: bool = False
    open_to: str = Field(default="both", max_length=16)


class BotEntry(BaseModel):
    """Body of ``POST /api/tournaments/{id}/bots``: a built-in bot's spec (``greedy``,
    ``ismcts:think=1``) as a table's seat takes it."""

    bot: str = Field(max_length=32)


class EntrantOut(BaseModel):
    """An entrant: an account (``user_id``; a program's when ``bot_account``) or a built-in
    bot (``bot``); ``seed`` from 0 once started."""

    number: int
    name: str
    user_id: int | None
    bot: str | None
    seed: int | None
    bot_account: bool


class EventGameOut(BaseModel):
    """A game of an event: its table (``None`` for a bye, or until made), its entrants by seat
    and their points once it ended."""

    round: int
    board: int
    entrants: list[int]
    names: list[str]
    table_id: str | None
    points: list[float] | None
    bye: bool


class StandingOut(BaseModel):
    """A line of the standings (tie-breaks in order: Buchholz, Sonneborn–Berger, wins)."""

    rank: int
    number: int
    name: str
    points: float
    buchholz: float
    sonneborn_berger: float
    wins: int
    played: int


class EventSummaryOut(BaseModel):
    """An event in the list."""

    id: str
    name: str
    game: str
    title: str
    kind: str
    rounds: int | None
    group_size: int
    status: str
    current_round: int
    entrants: int
    max_entrants: int
    open_to: str
    rated: bool
    host: str
    created_at: datetime


class EventOut(EventSummaryOut):
    """One event in full: its settings, entrants, games by round and standings."""

    options: dict[str, Any]
    pace: dict[str, Any]
    host_id: int
    started_at: datetime | None
    ended_at: datetime | None
    entrant_list: list[EntrantOut]
    games: list[EventGameOut]
    standings: list[StandingOut]


def _summary(event: Event) -> dict[str, Any]:
    s = event.settings
    try:
        title = get_adapter(s.game).title
    except ValueError:
        title = s.game
    return {
        "id": event.id,
        "name": s.name,
        "game": s.game,
        "title": title,
        "kind": s.kind,
        "rounds": s.rounds,
        "group_size": s.group_size,
        "status": event.status,
        "current_round": event.current_round,
        "entrants": len(event.entrants),
        "max_entrants": s.max_entrants,
        "open_to": s.open_to,
        "rated": s.rated,
        "host": event.host_name,
        "created_at": event.created_at,
    }


def event_out(event: Event) -> EventOut:
    """The answer for one event."""
    names = {e.number: e.name for e in event.entrants}
    lines = standings(event.seeds(), event.played()) if event.status != "open" else []
    return EventOut(
        **_summary(event),
        options=event.settings.options,
        pace=event.settings.pace,
        host_id=event.host_id,
        started_at=event.started_at,
        ended_at=event.ended_at,
        entrant_list=[EntrantOut(**vars(e)) for e in event.entrants],
        games=[
            EventGameOut(
                round=g.round,
                board=g.board,
                entrants=list(g.entrants),
                names=[names.get(n, "?") for n in g.entrants],
                table_id=g.table_id,
                points=list(g.points) if g.points is not None else None,
                bye=g.bye,
            )
            for g in event.games
        ],
        standings=[
            StandingOut(
                rank=line.rank,
                number=line.entrant,
                name=names.get(line.entrant, "?"),
                points=line.points,
                buchholz=round(line.buchholz, 3),
                sonneborn_berger=round(line.sonneborn_berger, 3),
                wins=line.wins,
                played=line.played,
            )
            for line in lines
        ],
    )


async def _told(work: Callable[[], Awaitable[T]]) -> T:
    """``work()``, an event's refusal answered as the API answers refusals."""
    try:
        return await work()
    except EventRefused as exc:
        raise Told(exc.status, exc.code, exc.template, **exc.params) from exc


async def _event(db: Database, event_id: str) -> EventOut:
    found = await db.run(lambda s: events.load_event(s, event_id))
    if found is None:
        refused = EventRefused("no_event", event=event_id)
        raise Told(refused.status, refused.code, refused.template, **refused.params)
    return event_out(found)


def _person(user: UserInfo) -> None:
    if user.is_guest:
        raise EventRefused("guests_cannot_enter")


@router.post("", status_code=201)
async def create(body: NewEvent, db: DatabaseDep, clock: ClockDep, user: Me) -> EventOut:
    """Create an event hosted by me (I do not enter it by creating it)."""

    async def work() -> str:
        _person(user)
        chosen = settings.checked(
            name=body.name,
            game=body.game,
            kind=body.kind,
            rounds=body.rounds,
            group_size=body.group_size,
            max_entrants=body.max_entrants,
            options=body.options,
            pace=body.pace,
            rated=body.rated,
            open_to=body.open_to,
        )
        now = clock.now()

        def write(s: Session) -> str:
            return events.create_event(s, chosen, user.id, now, OPEN_EVENTS_PER_HOST)

        made: str = await db.run(write)
        return made

    return await _event(db, await _told(work))


@router.get("")
async def listing(db: DatabaseDep) -> list[EventSummaryOut]:
    """The newest events, open and under way first."""
    found = await db.run(events.list_events)
    return [EventSummaryOut(**_summary(e)) for e in found]


@router.get("/{event_id}")
async def one(event_id: str, db: DatabaseDep) -> EventOut:
    """One event: entrants, games by round with their tables, standings."""
    return await _event(db, event_id)


@router.post("/{event_id}/join")
async def join(event_id: str, db: DatabaseDep, clock: ClockDep, user: Me) -> EventOut:
    """Enter an event before it starts (a bot account too, with a token of scope ``play``,
    where the event is open to bots)."""

    async def work() -> None:
        _person(user)
        now = clock.now()
        await db.run(lambda s: events.add_entrant(s, event_id, user.name, now, user_id=user.id))

    await _told(work)
    return await _event(db, event_id)


@router.post("/{event_id}/leave")
async def leave(event_id: str, db: DatabaseDep, user: Me) -> EventOut:
    """Leave an event before it starts."""

    async def work() -> None:
        await db.run(lambda s: events.remove_entrant(s, event_id, user.id))

    await _told(work)
    return await _event(db, event_id)


@router.post("/{event_id}/bots")
async def add_bot(
    event_id: str, body: BotEntry, db: DatabaseDep, clock: ClockDep, limits: LimitsDep, user: Me
) -> EventOut:
    """Host only: enter a built-in bot."""

    async def work() -> None:
        found = await db.run(lambda s: events.load_event(s, event_id))
        if found is None:
            raise EventRefused("no_event", event=event_id)
        try:
            spec = get_adapter(found.settings.game).check_bot(body.bot, limits.bot_think_cap)
        except ValueError as exc:
            raise EventRefused("bad_bot", **setup_refusals.problem(exc)) from exc
        now = clock.now()
        await db.run(
            lambda s: events.add_entrant(s, event_id, spec, now, bot=spec, host_id=user.id)
        )

    await _told(work)
    return await _event(db, event_id)


@router.post("/{event_id}/start")
async def start(event_id: str, db: DatabaseDep, runner: DirectorDep, user: Me) -> EventOut:
    """Host only: start the event; the first round is paired and its tables start."""

    async def work() -> None:
        found = await db.run(lambda s: events.load_event(s, event_id))
        if found is None:
            raise EventRefused("no_event", event=event_id)
        await runner.start(event_id, user)

    await _told(work)
    return await _event(db, event_id)
