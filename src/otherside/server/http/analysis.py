"""A finished game's analysis by the bots: ``POST /api/tables/{id}/analysis`` asks for it,
``GET`` on the same path follows it (``not_requested`` before anyone asked, 202 with its
progress while the bots work, then the analysis). Never before the game is over: no help
during play."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from otherside.i18n import N_
from otherside.server.analysis.analyst import Analyst
from otherside.server.analysis.plans import analysed
from otherside.server.analysis.rows import AnalysisRow, read
from otherside.server.http.deps import DatabaseDep
from otherside.server.http.errors import Told
from otherside.server.http.replays import count_fetch
from otherside.server.store.queries import load_table

router = APIRouter(prefix="/api")


class PlyAnalysis(BaseModel):
    """One ply weighed by the bots (VERSUS)."""

    ply: int  # the action's number in the game (1 for the first), as the replay counts steps
    seat: int  # who played it
    played: str  # the ply played, in the rules' notation
    best: str  # the engine's ply in the position before it
    eval: float  # the first player's expected result after it, in [-1, 1]
    drop: float  # the expected result its player lost against the engine's ply
    judgement: str | None  # None, "inaccuracy", "mistake" or "blunder"


class DecisionAnalysis(BaseModel):
    """One decision weighed by the bots from its player's view (Verso)."""

    ply: int  # the action's number in the game (1 for the first)
    seat: int
    played: str
    best: str  # the bots' choice in the same view
    played_value: float  # expected points (solo) or win chance of the action played
    best_value: float  # the same of the best action
    cost: float  # what the action played gave away against the best


class AnalysisOut(BaseModel):
    """An analysis: ``not_requested`` (nobody has asked yet), ``running`` (with ``done`` of
    ``total`` decisions weighed), ``failed`` (ask again), or ``done``: for VERSUS its plies,
    the judgements' thresholds (the smallest drop of each); for Verso its decisions, their
    ``measure`` (``points`` solo, ``win`` chance else) and the ``costliest`` (their ply
    numbers, costliest first); for Recto Verso the ``cards`` not completed, each with the
    construction left and the solver's (its placements and its front, back and top views);
    the engine's budget."""

    status: str
    game: str
    done: int
    total: int
    plies: list[PlyAnalysis] | None = None
    judgements: dict[str, float] | None = None
    decisions: list[DecisionAnalysis] | None = None
    measure: str | None = None
    costliest: list[int] | None = None
    cards: list[dict[str, Any]] | None = None  # Recto Verso: the cards not completed, solved
    engine: dict[str, Any] | None = None
    computed_at: str | None = None


async def analyst(request: Request) -> Analyst:
    """The analyses this process computes."""
    found: Analyst = request.app.state.analyst
    return found


def _answer(row: AnalysisRow) -> JSONResponse:
    body = AnalysisOut(status=row.status, game=row.game, done=row.done, total=row.total)
    if row.status == "done" and row.result is not None:
        body = AnalysisOut.model_validate({**body.model_dump(), **row.result, "status": "done"})
    code = 202 if row.status == "running" else 200
    return JSONResponse(body.model_dump(mode="json"), status_code=code)


def _not_analysed(game: str) -> Told:
    return Told(409, "no_analysis", N_("the bots do not analyse {game} games yet"), game=game)


@router.post(
    "/tables/{table_id}/analysis",
    response_model=AnalysisOut,
    responses={202: {"model": AnalysisOut}},
    dependencies=[Depends(count_fetch)],
)
async def ask_analysis(
    table_id: str, db: DatabaseDep, analyses: Annotated[Analyst, Depends(analyst)]
) -> JSONResponse:
    """Ask the bots to analyse the finished game (once: asking again changes nothing)."""
    info = await db.run(lambda s: load_table(s, table_id))
    if info is None:
        raise Told(404, "no_such_table", N_("no table {table}"), table=table_id)
    if info.status != "over":
        raise Told(409, "game_not_over", N_("a game is analysed once it is over"))
    if not analysed(info.game):
        raise _not_analysed(info.game)
    return _answer(await analyses.ask(info))


@router.get(
    "/tables/{table_id}/analysis",
    response_model=AnalysisOut,
    responses={202: {"model": AnalysisOut}},
)
async def get_analysis(table_id: str, db: DatabaseDep) -> JSONResponse:
    """The game's analysis: ``not_requested`` before anyone asked, 202 while the bots work,
    then 200 (409 for a game the bots do not analyse, 404 for no such table)."""
    row = await db.run(lambda s: read(s, table_id))
    if row is not None:
        return _answer(row)
    info = await db.run(lambda s: load_table(s, table_id))
    if info is None:
        raise Told(404, "no_such_table", N_("no table {table}"), table=table_id)
    if not analysed(info.game):
        raise _not_analysed(info.game)
    # A table's analysis that nobody asked for is a state of it, not a missing page: the
    # replay page asks for it on every game, and a 404 is an error in the browser's console.
    body = AnalysisOut(status="not_requested", game=info.game, done=0, total=0)
    return JSONResponse(body.model_dump(mode="json"))
