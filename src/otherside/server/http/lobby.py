"""The lobby's HTTP API: games on offer, tables (create, join, leave, bots, start), lists,
records and replays. Every change to a table is a command of the table's actor, found through
the :class:`~otherside.server.tables.hub.TableHub` (:mod:`otherside.server.tables.seating`); a
refusal (:class:`~otherside.server.tables.errors.Refused`) answers with its code's status."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from otherside.core.records import dump_record
from otherside.guide import rules_text
from otherside.i18n import N_
from otherside.server.accounts.sessions import UserInfo, client_address, current_user, require_user
from otherside.server.http.replays import count_fetch
from otherside.server.live.wire import seat_out, table_out
from otherside.server.ratings.rated import leaderboard, ratings_of
from otherside.server.store.queries import list_tables, list_user_tables, load_moves, load_table
from otherside.server.store.records import TableInfo
from otherside.server.store.tables import rated_user_ids
from otherside.server.tables import bot_tables, seating
from otherside.server.tables.absence import PlayOnWithBot
from otherside.server.tables.adapters import available_adapters, get_adapter
from otherside.server.tables.errors import Refused
from otherside.server.tables.hub import TableHub
from otherside.server.tables.live import GameClock, replayed

router = APIRouter(prefix="/api")
HISTORY_STEPS = 400
Me = Annotated[UserInfo, Depends(require_user)]


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


def _hub(request: Request) -> TableHub:
    hub: TableHub = request.app.state.hub
    return hub


def _out(
    info: TableInfo, ratings: dict[int, float] | None = None, me: UserInfo | None = None
) -> dict[str, Any]:
    try:
        title = get_adapter(info.game).title
    except ValueError:
        title = info.game
    out = table_out(info, title, ratings).model_dump()
    if me is not None:
        seat = info.playing_seat_of(me.id)
        out["you"] = info.seat_of(me.id)
        out["your_turn"] = info.status == "playing" and seat is not None and seat in info.to_move
    return out


async def _outs(
    request: Request, infos: list[TableInfo], me: UserInfo | None = None
) -> list[dict[str, Any]]:
    """Tables for a list, with every seated player's rating in the table's game."""
    wanted: dict[str, set[int]] = {}
    for info in infos:
        ids = rated_user_ids(info)  # guests never have a rating: nothing to read for them
        if ids:
            wanted.setdefault(info.game, set()).update(ids)

    def load(session: Session) -> dict[str, dict[int, float]]:
        return {game: ratings_of(session, game, sorted(ids)) for game, ids in wanted.items()}

    ratings = await request.app.state.db.run(load) if wanted else {}
    return [_out(info, ratings.get(info.game), me) for info in infos]


async def _one(request: Request, info: TableInfo) -> dict[str, Any]:
    """One table for an answer, with its players' ratings."""
    return (await _outs(request, [info]))[0]


@router.get("/games")
async def games(request: Request) -> list[dict[str, Any]]:
    """The games this server offers, with their player counts, options and bots (those this
    server's cap on thinking allows)."""
    cap = request.app.state.limits.bot_think_cap
    return [adapter.to_json(cap) for adapter in available_adapters()]


@router.post("/tables", status_code=201)
async def create(body: NewTable, request: Request, user: Me) -> dict[str, Any]:
    """Create a table; the creator sits in seat 0 and is its host."""
    hub = _hub(request)
    async with _counted_table(request, user):
        made = await seating.create(hub, user, body.game, body.players, body.options, body.pace)
    return await _one(request, made)


@asynccontextmanager
async def _counted_table(request: Request, user: UserInfo) -> AsyncIterator[None]:
    """Reserve a table of what one account and one address may create in a while (or 429)
    before it is made; give it back if none is (a bad game, too many open)."""
    throttles = request.app.state.throttles
    slots = await throttles.limiter.reserve_all(
        [(throttles.tables_user, str(user.id)), (throttles.tables_address, client_address(request))]
    )
    try:
        yield
    except (HTTPException, Refused):
        await throttles.limiter.release(*slots)
        raise


@router.get("/tables")
async def tables(request: Request, status: str = "waiting") -> list[dict[str, Any]]:
    """Tables by status: ``waiting`` (open to join), ``playing`` (to watch) or ``over``."""
    if status not in ("waiting", "playing", "over"):
        raise HTTPException(422, f"status must be waiting, playing or over, not {status!r}")
    infos = await request.app.state.db.run(lambda s: list_tables(s, status))
    return await _outs(request, infos)


@router.get("/my/tables")
async def my_tables(request: Request, user: Me) -> list[dict[str, Any]]:
    """The tables where I have a seat, most recent first; ``your_turn`` marks those waiting
    for me."""
    infos = await request.app.state.db.run(lambda s: list_user_tables(s, user.id))
    return await _outs(request, infos, user)


@router.get("/tables/{table_id}")
async def table(table_id: str, request: Request) -> dict[str, Any]:
    """One table's summary."""
    info = await request.app.state.db.run(lambda s: load_table(s, table_id))
    if info is None:
        raise HTTPException(404, f"no table {table_id!r}")
    return await _one(request, info)


@router.post("/tables/{table_id}/join")
async def join(table_id: str, body: JoinBody, request: Request, user: Me) -> dict[str, Any]:
    """Take a free seat."""
    return await _one(request, await _hub(request).ask(table_id, seating.Join(user, body.seat)))


@router.post("/tables/{table_id}/leave")
async def leave(table_id: str, request: Request, user: Me) -> dict[str, Any]:
    """Give up my seat before the game starts."""
    return await _one(request, await _hub(request).ask(table_id, seating.Leave(user)))


class SeatBody(BaseModel):
    """Body naming a seat (0-based)."""

    seat: int


@router.post("/tables/{table_id}/play-on")
async def play_on(table_id: str, body: SeatBody, request: Request, user: Me) -> dict[str, Any]:
    """Play on with a bot in the seat of a partner who has been gone long (a game without
    player clocks)."""
    return await _one(request, await _hub(request).ask(table_id, PlayOnWithBot(user, body.seat)))


@router.post("/tables/{table_id}/bots")
async def bots(table_id: str, body: BotBody, request: Request, user: Me) -> dict[str, Any]:
    """Host only: ``{"bot": "greedy"}`` fills every empty seat; with ``"seat"`` sets one seat
    (``"bot": null`` empties it)."""
    hub = _hub(request)
    if body.seat is not None:
        seated = await hub.ask(table_id, seating.SetBot(user, body.seat, body.bot))
        return await _one(request, seated)
    if body.bot is None:
        raise HTTPException(422, N_("name a bot to fill the empty seats with"))
    return await _one(request, await hub.ask(table_id, seating.Fill(user, body.bot)))


@router.post("/tables/{table_id}/start")
async def start(table_id: str, request: Request, user: Me) -> dict[str, Any]:
    """Host only: start the game (every seat must be taken)."""
    return await _one(request, await _hub(request).ask(table_id, seating.Start(user)))


@router.post("/tables/{table_id}/stop")
async def stop(table_id: str, request: Request, user: Me) -> dict[str, Any]:
    """Host only: stop a game with bots only (it ends aborted, unrated)."""
    return await _one(request, await _hub(request).ask(table_id, bot_tables.Stop(user)))


@router.post("/tables/{table_id}/rematch", status_code=201)
async def rematch(table_id: str, request: Request, user: Me) -> dict[str, Any]:
    """A player of a finished game: a new table with the same seats (or the one already made)."""
    async with _counted_table(request, user):
        made = await seating.rematch(_hub(request), table_id, user)
    return await _one(request, made)


@router.get("/tables/{table_id}/history", dependencies=[Depends(count_fetch)])
async def history(
    table_id: str, request: Request, user: Annotated[UserInfo | None, Depends(current_user)]
) -> dict[str, Any]:
    """The game so far as the caller saw it: the view of their seat (the public view for a
    spectator) after each action, the last ``HISTORY_STEPS`` of them, oldest first. What the
    table's log is rebuilt from after a reload; it holds nothing the websocket did not send."""
    info = await request.app.state.db.run(lambda s: load_table(s, table_id))
    if info is None:
        raise HTTPException(404, f"no table {table_id!r}")
    if info.status == "waiting":
        return {"views": []}
    seat = info.playing_seat_of(user.id if user else None)
    initial, moves = await request.app.state.db.run(lambda s: load_moves(s, table_id))
    adapter = get_adapter(info.game)
    clock = GameClock(request.app.state.clock)
    game = adapter.game_with_clock(clock)

    def views() -> list[dict[str, Any]]:
        # Each view while the game's clock reads that move's time, as it was sent then.
        skip = max(0, len(moves) - HISTORY_STEPS)
        return [
            game.view(state, seat)
            for index, (_move, state) in enumerate(replayed(game, clock, initial, moves))
            if index > skip
        ]

    async def compute() -> list[dict[str, Any]]:
        return await asyncio.to_thread(views)

    if info.status == "over":  # a finished game never changes: computed once
        cached = await request.app.state.finished_games.answer(("history", table_id, seat), compute)
        return {"views": cached}
    return {"views": await compute()}


@router.get("/rules/{game}")
async def rules(game: str) -> Response:
    """The rules of ``game`` in the project's own words (Markdown)."""
    try:
        text = rules_text(game)
    except ValueError as exc:
        raise HTTPException(404, str(exc)) from exc
    return Response(text, media_type="text/markdown; charset=utf-8")


async def _finished(request: Request, table_id: str) -> TableInfo:
    info = await request.app.state.db.run(lambda s: load_table(s, table_id, with_record=True))
    if info is None:
        raise HTTPException(404, f"no table {table_id!r}")
    if info.status != "over" or info.record is None:
        # The record holds the pile: it stays secret until the game is over.
        raise HTTPException(409, N_("records and replays are available once the game is over"))
    return info


@router.get("/tables/{table_id}/record", dependencies=[Depends(count_fetch)])
async def record(table_id: str, request: Request) -> Response:
    """The finished game's record, as a file download; ``"names"`` are the seats' players, as
    the command line's records carry them (``otherside versus replay`` shows them)."""
    info = await _finished(request, table_id)
    assert info.record is not None  # _finished checked
    names = [seat_out(s).name or f"seat {s.seat + 1}" for s in info.seats]
    return Response(
        dump_record({**info.record, "names": names}),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{info.game}-{info.id}.json"'},
    )


@router.get("/tables/{table_id}/replay", dependencies=[Depends(count_fetch)])
async def replay(
    table_id: str, request: Request, user: Annotated[UserInfo | None, Depends(current_user)]
) -> dict[str, Any]:
    """A finished game step by step: the public view before the first action and after each."""
    info = await _finished(request, table_id)
    out = await _one(request, info)
    steps = await request.app.state.finished_games.answer(
        ("replay", table_id), lambda: _replay_steps(request, info)
    )
    return {"table": out, "steps": steps}


async def _replay_steps(request: Request, info: TableInfo) -> list[dict[str, Any]]:
    table_id = info.id
    initial, moves = await request.app.state.db.run(lambda s: load_moves(s, table_id))
    adapter = get_adapter(info.game)
    clock = GameClock(request.app.state.clock)
    game = adapter.game_with_clock(clock)

    def step_views() -> list[dict[str, Any]]:
        # Each step with the time it was played, so a timed game replays as it happened.
        return [
            {
                "seat": move.seat if move else None,
                "action": move.action if move else None,
                "at": move.played_at.isoformat() if move else None,
                "view": game.view(state, None),
            }
            for move, state in replayed(game, clock, initial, moves)
        ]

    return await asyncio.to_thread(step_views)


@router.get("/ratings")
async def ratings(request: Request, game: str = "versus") -> list[dict[str, Any]]:
    """The leaderboard of ``game``: ``[{"name", "rating", "games"}]``, best first."""
    try:
        get_adapter(game)
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from exc
    return await request.app.state.db.run(lambda s: leaderboard(s, game))
