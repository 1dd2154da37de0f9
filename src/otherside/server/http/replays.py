"""A table's game replayed from its stored moves: the history a table page rebuilds its log from,
a finished game step by step, and its record as a file.

Each answer is one replay (:func:`_replay`) seen another way; the answers about a finished
game are computed once (:class:`~otherside.server.http.finished.FinishedGames`) and every fetch
counts against its address (:func:`count_fetch`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, TypeVar

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel

from otherside.core.game import Game, State
from otherside.core.records import dump_record
from otherside.i18n import N_, say
from otherside.server.accounts.addresses import client_key
from otherside.server.accounts.sessions import UserInfo, current_user
from otherside.server.clock import Clock
from otherside.server.http.deps import ClockDep, DatabaseDep, FinishedGamesDep, ThrottlesDep
from otherside.server.http.errors import Told
from otherside.server.http.lobby import table_summary
from otherside.server.http.reader import LanguageDep
from otherside.server.http.schemas import HistoryOut, ReplayOut, ReplayStep
from otherside.server.live.wire import seat_names
from otherside.server.store.db import Database
from otherside.server.store.queries import load_moves, load_table
from otherside.server.store.records import MoveRow, TableInfo
from otherside.server.tables.adapters import get_adapter
from otherside.server.tables.errors import Refused
from otherside.server.tables.live import GameClock, replayed

HISTORY_STEPS = 400
SEAT = N_("seat {seat}")
Step = TypeVar("Step")


async def count_fetch(
    request: Request, finished: FinishedGamesDep, throttles: ThrottlesDep
) -> None:
    """Dependency of the history, replay and record routes: one fetch from the request's
    address, counted in the limiter every server process shares (HTTP 429 over the limit)."""
    await throttles.limiter.reserve(finished.quota, client_key(request))


router = APIRouter(prefix="/api", dependencies=[Depends(count_fetch)])


def _json(answer: BaseModel) -> Response:
    return Response(answer.model_dump_json().encode(), media_type="application/json")


@router.get("/tables/{table_id}/history")
async def history(
    table_id: str,
    db: DatabaseDep,
    clock: ClockDep,
    finished: FinishedGamesDep,
    user: Annotated[UserInfo | None, Depends(current_user)],
) -> HistoryOut:
    """The game so far as the caller saw it: the view of their seat (the public view for a
    spectator) after each action, the last ``HISTORY_STEPS`` of them, oldest first. What the
    table's log is rebuilt from after a reload; it holds nothing the websocket did not send."""
    info = await db.run(lambda s: load_table(s, table_id))
    if info is None:
        raise Refused("no_table", table=table_id)
    if info.status == "waiting":
        return HistoryOut(views=[])
    seat = info.playing_seat_of(user.id if user else None)

    async def compute() -> HistoryOut:
        views = await _replay(
            db, clock, info, lambda game, _move, state: game.view(state, seat), HISTORY_STEPS
        )
        return HistoryOut(views=views)

    if info.status == "over":  # a finished game never changes: computed once
        answer: HistoryOut = await finished.answer(("history", table_id, seat), compute)
        return answer
    return await compute()


@router.get("/tables/{table_id}/replay", response_model=ReplayOut)
async def replay(
    table_id: str,
    db: DatabaseDep,
    clock: ClockDep,
    finished: FinishedGamesDep,
    language: LanguageDep,
) -> Response:
    """A finished game step by step: the view anyone may have of it once it is over
    (:meth:`~otherside.server.tables.adapters.GameAdapter.replay_view`), before the first action
    and after each."""
    info = await _finished(db, table_id)

    async def written() -> Response:
        # Each step with the time it was played, so a timed game replays as it happened.
        adapter = get_adapter(info.game)

        def public_step(game: Game, move: MoveRow | None, state: State) -> ReplayStep:
            return ReplayStep(
                seat=move.seat if move else None,
                action=move.action if move else None,
                at=move.played_at.isoformat() if move else None,
                view=adapter.replay_view(game, state),
            )

        steps: list[ReplayStep] = await _replay(db, clock, info, public_step)
        return _json(ReplayOut(table=await table_summary(db, info, language), steps=steps))

    # One answer per language: the table's words (pace, bots) are the reader's.
    answer: Response = await finished.answer(("replay", table_id, language), written)
    return Response(answer.body, media_type="application/json")


@router.get(
    "/tables/{table_id}/record",
    response_class=Response,
    # The game's own record format (../rules/*.md, "Notation"): free-form JSON.
    responses={200: {"content": {"application/json": {"schema": {"type": "object"}}}}},
)
async def record(table_id: str, db: DatabaseDep, language: LanguageDep) -> Response:
    """The finished game's record, as a file download; ``"names"`` are the seats' players, as
    the command line's records carry them (``otherside versus replay`` shows them), named as
    the replay page names them for the reader."""
    info = await _finished(db, table_id)
    assert info.record is not None  # _finished checked
    names = [
        name or say(language, SEAT, seat=seat.seat + 1)
        for seat, name in zip(info.seats, seat_names(info.seats, language), strict=True)
    ]
    return Response(
        dump_record({**info.record, "names": names}),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{info.game}-{info.id}.json"'},
    )


async def _finished(db: Database, table_id: str) -> TableInfo:
    info = await db.run(lambda s: load_table(s, table_id, with_record=True))
    if info is None:
        raise Refused("no_table", table=table_id)
    if info.status != "over" or info.record is None:
        # The record holds the pile: it stays secret until the game is over.
        raise Told(
            409,
            "not_over",
            N_("records and replays are available once the game is over"),
        )
    return info


async def _replay(
    db: Database,
    clock: Clock,
    info: TableInfo,
    step: Callable[[Game, MoveRow | None, State], Step],
    last: int | None = None,
) -> list[Step]:
    """The table's game rebuilt from its moves, each position as ``step`` sees it (the first
    position, then after each move, with that move); with ``last``, only the positions after
    the last ``last`` moves. The replay runs in a worker thread, off the tables' loop."""
    table_id = info.id
    initial, moves = await db.run(lambda s: load_moves(s, table_id))
    game_clock = GameClock(clock)
    game = get_adapter(info.game).game_with_clock(game_clock)
    first = 0 if last is None else max(0, len(moves) - last) + 1

    def steps() -> list[Step]:
        # Each step while the game's clock reads that move's time, as it was seen then.
        return [
            step(game, move, state)
            for index, (move, state) in enumerate(replayed(game, game_clock, initial, moves))
            if index >= first
        ]

    return await asyncio.to_thread(steps)
