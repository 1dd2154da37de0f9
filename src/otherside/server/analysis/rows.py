"""The ``analyses`` rows: one per finished game whose analysis someone asked for.

Asking is idempotent: the first request inserts the row and its process computes it; a later
request finds it and changes nothing. A row left ``running`` by a process that stopped (its
``updated_at`` not renewed for :data:`STALE`) or ``failed`` is claimed afresh by the next
request, one process winning (the claim is conditional on the row as it was read).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from otherside.server.clock import as_utc
from otherside.server.store.models import Analysis

STALE = timedelta(minutes=2)
"""How long a running analysis may go without progress before another request takes it over
(a job is one ply with a budget of seconds)."""


@dataclass(frozen=True)
class AnalysisRow:
    """An analysis as stored."""

    table_id: str
    game: str
    status: str
    done: int
    total: int
    result: dict[str, Any] | None
    owner: str | None
    updated_at: datetime


def _row(found: Analysis) -> AnalysisRow:
    return AnalysisRow(
        found.table_id,
        found.game,
        found.status,
        found.done,
        found.total,
        found.result,
        found.owner,
        found.updated_at,
    )


def read(session: Session, table_id: str) -> AnalysisRow | None:
    """The analysis of ``table_id``, if anyone asked for it."""
    found = session.get(Analysis, table_id)
    return _row(found) if found is not None else None


def ask(
    session: Session, table_id: str, game: str, total: int, owner: str, now: datetime
) -> tuple[AnalysisRow, bool]:
    """The analysis of ``table_id`` after asking for it, and whether ``owner`` must compute it
    (it was new, failed, or stale). Call with a game that is over."""
    found = session.get(Analysis, table_id)
    if found is None:
        try:
            with session.begin_nested():
                row = Analysis(
                    table_id=table_id,
                    game=game,
                    status="running",
                    done=0,
                    total=total,
                    owner=owner,
                    updated_at=now,
                )
                session.add(row)
            return _row(row), True
        except IntegrityError:
            # Another process asked at the same moment: theirs stands.
            found = session.get(Analysis, table_id)
            assert found is not None  # the insert that beat ours is committed
            return _row(found), False
    lapsed = found.status == "running" and as_utc(found.updated_at) < now - STALE
    if found.status != "failed" and not lapsed:
        return _row(found), False
    claimed = session.execute(
        update(Analysis)
        .where(Analysis.table_id == table_id, Analysis.updated_at == found.updated_at)
        .values(status="running", done=0, total=total, owner=owner, updated_at=now, result=None)
    )
    session.expire_all()
    latest = session.get(Analysis, table_id)
    assert latest is not None
    return _row(latest), bool(claimed.rowcount)  # type: ignore[attr-defined]


def progress(session: Session, table_id: str, owner: str, done: int, now: datetime) -> None:
    """Record ``done`` jobs finished by ``owner`` (which renews its claim)."""
    session.execute(
        update(Analysis)
        .where(Analysis.table_id == table_id, Analysis.owner == owner)
        .values(done=done, updated_at=now)
    )


def finish(
    session: Session,
    table_id: str,
    owner: str,
    status: str,
    result: dict[str, Any] | None,
    now: datetime,
) -> None:
    """Store the end of ``owner``'s computation: ``"done"`` with its result, or ``"failed"``."""
    session.execute(
        update(Analysis)
        .where(Analysis.table_id == table_id, Analysis.owner == owner)
        .values(status=status, result=result, updated_at=now)
    )
