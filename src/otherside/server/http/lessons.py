"""The lessons (:mod:`otherside.lessons`) over HTTP: a game's lesson with each step's position
as the learner sees it, a move in a step judged by the engine, and each player's progress.

``GET /api/lessons/{game}`` gives the steps in the reader's language, and the ids of the steps
the caller has done (none for someone not signed in: the page keeps a guest's own). ``POST
/api/lessons/{game}/{step}`` with ``{"action": "…"}`` answers ``done``, ``wrong`` (legal, not
what was asked) or ``refused`` (against the rules), with the words that explain it and the
position after a legal move; a step done by a signed-in player is remembered. Nothing of a
table is touched: a lesson's position lives in its request.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from otherside.i18n import N_, say
from otherside.lessons import GAMES, Lesson, Step, lesson, start, try_move
from otherside.server.accounts.rates import counted
from otherside.server.accounts.sessions import UserInfo, current_user
from otherside.server.http.deps import DatabaseDep
from otherside.server.http.errors import Told
from otherside.server.http.reader import reader_language
from otherside.server.store.models import LessonStep, utcnow

router = APIRouter(prefix="/api/lessons")
JUDGED = 4096  # moves tried whose judgement is kept (each a view of one or two kB at most)


class StepOut(BaseModel):
    """One step as the learner reads it: words in their language, the position, their moves."""

    id: str
    rule: str
    title: str
    teach: str
    task: str
    seat: int
    view: dict[str, Any]
    legal: list[str]


class LessonOut(BaseModel):
    """A game's lesson and the caller's progress in it."""

    game: str
    title: str
    names: list[str]
    steps: list[StepOut]
    done: list[str]


class MoveIn(BaseModel):
    """A move tried in a step, in the rules' notation."""

    action: str = Field(min_length=1, max_length=200)


class AnswerOut(BaseModel):
    """The engine's judgement of a move: ``done``, ``wrong`` or ``refused``, why, and the
    position after a legal move (``null`` after a refusal)."""

    outcome: str
    message: str
    view: dict[str, Any] | None
    solution: str | None


def _found(game: str) -> tuple[Any, Lesson]:
    try:
        return lesson(game)
    except KeyError:
        raise Told(404, "no_lesson", N_("there is no lesson for {game}"), game=game) from None


def _step(taught: Lesson, step_id: str) -> Step:
    for step in taught.steps:
        if step.id == step_id:
            return step
    raise Told(404, "no_step", N_("this lesson has no step {step}"), step=step_id)


@functools.cache
def _start(game: str, step_id: str) -> Any:
    """A step's position, replayed once per process (a state is never changed; a Recto Verso
    step's record took 10 ms to replay, on every move tried)."""
    engine, taught = lesson(game)
    return start(engine, _step(taught, step_id))


@functools.cache
def _position(game: str, step_id: str) -> tuple[dict[str, Any], list[str]]:
    """A step's position as the learner sees it and their moves there: the same for every
    reader and every request, so replayed once per process (read only, never changed)."""
    engine, taught = lesson(game)
    step = _step(taught, step_id)
    state = _start(game, step_id)
    return engine.view(state, step.seat), taught.moves(state, step.seat)


@functools.lru_cache(maxsize=JUDGED)
def _judged(game: str, step_id: str, action: str) -> tuple[str, str, dict[str, Any] | None]:
    """The judgement of ``action`` in a step: its outcome, its words (a template) and the
    position after it as the learner sees it. The same for every request, so judged once per
    process for the last :data:`JUDGED` moves tried: a Recto Verso move cost the event loop
    7 to 12 ms, and sixteen connections of one address trying one move over and over made
    the players' moves at every table wait a second."""
    engine, taught = lesson(game)
    step = _step(taught, step_id)
    answer = try_move(engine, step, action, _start(game, step_id))
    view = None if answer.after is None else engine.view(answer.after, step.seat)
    return answer.outcome, answer.message, view


def _done(session: Session, user_id: int, game: str) -> list[str]:
    return list(
        session.scalars(
            select(LessonStep.step).where(LessonStep.user_id == user_id, LessonStep.game == game)
        )
    )


def _remember(session: Session, user_id: int, game: str, step: str) -> None:
    if session.get(LessonStep, (user_id, game, step)) is not None:
        return
    try:
        # In a savepoint: the same step done twice at once (a double click) is written by the
        # first, and the second's duplicate is no failure (it was answered 503 "database
        # unavailable" on PostgreSQL).
        with session.begin_nested():
            session.add(LessonStep(user_id=user_id, game=game, step=step, done_at=utcnow()))
    except IntegrityError:
        pass


class LessonsOut(BaseModel):
    """The games that have a lesson."""

    games: list[str]


@router.get("")
async def games_with_lessons() -> LessonsOut:
    """The games that have a lesson."""
    return LessonsOut(games=list(GAMES))


@router.get("/{game}")
async def read_lesson(
    game: str,
    request: Request,
    db: DatabaseDep,
    user: Annotated[UserInfo | None, Depends(current_user)],
) -> LessonOut:
    """The lesson of ``game`` in the reader's language, with the caller's progress."""
    _, taught = _found(game)
    language = reader_language(request)
    steps = []
    for step in taught.steps:
        view, legal = _position(game, step.id)
        steps.append(
            StepOut(
                id=step.id,
                rule=step.rule,
                title=say(language, step.title),
                teach=say(language, step.teach),
                task=say(language, step.task),
                seat=step.seat,
                view=view,
                legal=legal,
            )
        )
    done = await db.run(lambda s: _done(s, user.id, game)) if user is not None else []
    names = [say(language, N_("You")), say(language, taught.other)]
    return LessonOut(
        game=game, title=say(language, taught.title), names=names, steps=steps, done=done
    )


# A move judged (once, but each answer still built and sent): counted per account and per
# address, 429 beyond and the step not remembered.
@router.post("/{game}/{step_id}", dependencies=[Depends(counted(lambda rates: rates.lesson_moves))])
async def try_step(
    game: str,
    step_id: str,
    move: MoveIn,
    request: Request,
    db: DatabaseDep,
    user: Annotated[UserInfo | None, Depends(current_user)],
) -> AnswerOut:
    """Judge ``move`` in the step ``step_id``; a step done is remembered for a signed-in
    player. The solution comes with a wrong or refused answer, for the learner who asks."""
    _, taught = _found(game)
    step = _step(taught, step_id)
    # Off the event loop: a move not judged yet is work the tables' loop need not wait for.
    outcome, message, view = await asyncio.to_thread(_judged, game, step.id, move.action)
    if outcome == "done" and user is not None:
        await db.run(lambda s: _remember(s, user.id, game, step.id))
    language = reader_language(request)
    return AnswerOut(
        outcome=outcome,
        message=say(language, message),
        view=view,
        solution=None if outcome == "done" else step.solution,
    )
