"""Ratings in the database: who a finished game moves, by how much (:mod:`.elo`), and the
leaderboards and histories the pages show.

A table is *rated* when the game can be rated at its player count and every seat holds a
registered player when it starts (no bot, no guest). Its result ranks the players: the winners
first, the others by score; a player who forfeited (resigned, ran out of time, left) ranks below
everyone who did not (forfeits share the last place). Draws (a draw agreed, equal scores) share
a place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from otherside.server.clock import as_utc
from otherside.server.ratings import elo
from otherside.server.store.models import Rating, RatingChange, User


def places(
    scores: Sequence[int],
    winners: Sequence[int],
    forfeits: Sequence[int] = (),
) -> list[int]:
    """Finishing places (0 = first, equal places tie) of every seat.

    Args:
        scores: final scores by seat.
        winners: the seats that won (empty: nobody did, a draw).
        forfeits: seats that forfeited.

    >>> places([10, 7, 7], [0])
    [0, 1, 1]
    >>> places([3, 9], [0])             # a resignation: the winner had fewer points
    [0, 1]
    >>> places([5, 5], [])              # a draw
    [0, 0]
    >>> places([20, 30, 25], [1], forfeits=[1])   # seat 1 left; its bot won
    [1, 2, 0]
    """

    def key(seat: int) -> tuple[int, int]:
        if seat in forfeits:
            return (2, 0)
        if not winners:
            return (0, 0)
        return (0, 0) if seat in winners else (1, -scores[seat])

    keys = [key(seat) for seat in range(len(scores))]
    return [sorted(keys).index(k) for k in keys]


@dataclass(frozen=True)
class RatedSeat:
    """A rated player's part in a finished game."""

    user_id: int
    place: int


def rate_game(
    session: Session, game: str, table_id: str, seats: Sequence[RatedSeat], now: datetime
) -> dict[int, tuple[float, float]]:
    """Apply a finished game to the ratings of ``seats``; ``{user: (before, after)}``."""
    ids = [s.user_id for s in seats]
    rows = {
        r.user_id: r
        for r in session.scalars(select(Rating).where(Rating.game == game, Rating.user_id.in_(ids)))
    }
    for user_id in ids:
        if user_id not in rows:
            rows[user_id] = Rating(user_id=user_id, game=game, rating=elo.START, games=0)
            session.add(rows[user_id])
    before = [rows[u].rating for u in ids]
    after = elo.by_places(before, [s.place for s in seats])
    changes = {}
    for seat, old, new in zip(seats, before, after, strict=True):
        row = rows[seat.user_id]
        row.rating = new
        row.games += 1
        session.add(
            RatingChange(
                user_id=seat.user_id,
                game=game,
                table_id=table_id,
                before=old,
                after=new,
                place=seat.place,
                players=len(seats),
                at=now,
            )
        )
        changes[seat.user_id] = (old, new)
    return changes


def ratings_of(session: Session, game: str, user_ids: Sequence[int]) -> dict[int, float]:
    """The current ratings in ``game`` of those users who have one."""
    if not user_ids:
        return {}
    rows = session.execute(
        select(Rating.user_id, Rating.rating).where(
            Rating.game == game, Rating.user_id.in_(list(user_ids))
        )
    )
    return {user_id: rating for user_id, rating in rows}


def changes_of(session: Session, table_id: str) -> dict[int, float]:
    """What the rated game at ``table_id`` did to each player's rating, by user id."""
    rows = session.execute(
        select(RatingChange.user_id, RatingChange.before, RatingChange.after).where(
            RatingChange.table_id == table_id
        )
    )
    return {user: after - before for user, before, after in rows}


def leaderboard(session: Session, game: str, limit: int = 100) -> list[dict[str, Any]]:
    """The rated players of ``game``, best first: ``{"name", "rating", "games"}``."""
    rows = session.execute(
        select(User.name, Rating.rating, Rating.games)
        .join(User, User.id == Rating.user_id)
        .where(Rating.game == game, Rating.games > 0)
        .order_by(Rating.rating.desc(), User.name)
        .limit(limit)
    )
    return [{"name": name, "rating": round(rating), "games": games} for name, rating, games in rows]


def rating_history(session: Session, user_id: int) -> dict[str, list[dict[str, Any]]]:
    """Every rating change of ``user_id`` by game, oldest first: ``{"at", "rating", "table",
    "change", "place", "players"}``."""
    rows = session.scalars(
        select(RatingChange).where(RatingChange.user_id == user_id).order_by(RatingChange.id)
    )
    found: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        at = as_utc(row.at)
        found.setdefault(row.game, []).append(
            {
                "at": at.isoformat(),
                "rating": round(row.after, 1),
                "change": round(row.after - row.before, 1),
                "table": row.table_id,
                "place": row.place,
                "players": row.players,
            }
        )
    return found


def current_ratings(session: Session, user_id: int) -> dict[str, tuple[float, int]]:
    """``{game: (rating, games)}`` of ``user_id``."""
    rows = session.execute(
        select(Rating.game, Rating.rating, Rating.games).where(Rating.user_id == user_id)
    )
    return {game: (rating, games) for game, rating, games in rows}
