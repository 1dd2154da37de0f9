"""Stored tables in their wire form (:class:`~otherside.server.live.protocol.TableOut`), as the
lobby's lists and the ``table`` message send them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from otherside.bots.spec import BotSpec
from otherside.i18n import DEFAULT
from otherside.server.clock import as_utc
from otherside.server.live.protocol import SeatOut, TableOut
from otherside.server.live.reader_words import bot_words, pace_words, seat_words
from otherside.server.store.records import SeatInfo, TableInfo
from otherside.server.tables.outcome_words import with_words


def bot_label(spec: str, seat: int, language: str = DEFAULT) -> str:
    """A bot seat's name for people in ``language``.

    >>> bot_label("greedy", 1), bot_label("search:think=2", 0, "de")
    ('Greedy bot 2', 'Such-Bot 1 · 2 s pro Zug')
    """
    return seat_words(spec, seat, language)


def _bot_name(spec: str | None) -> str | None:
    """A seat's bot's registry name, for pages (so that they never split a spec)."""
    return BotSpec.parse(spec).name if spec is not None else None


def _bot_label(spec: str | None, language: str) -> str | None:
    """A seat's bot with its settings for people (``Search bot · 2 s a move``)."""
    return bot_words(spec, language) if spec is not None else None


def seat_out(
    seat: SeatInfo,
    rating: float | None = None,
    change: float | None = None,
    away: datetime | None = None,
    language: str = DEFAULT,
) -> SeatOut:
    """The wire form of ``seat`` (``rating``: the player's rating in this game, if rated;
    ``change``: what the finished game did to it; ``language``: the reader's, for the words
    of a bot seat)."""
    if seat.user_id is not None:
        return SeatOut(
            seat=seat.seat,
            kind="bot" if seat.bot is not None else "human",
            name=seat.user_name,
            user_id=seat.user_id,
            bot=seat.bot,
            bot_name=_bot_name(seat.bot),
            bot_label=_bot_label(seat.bot, language),
            guest=seat.guest,
            bot_account=seat.bot_account,
            forfeit=seat.forfeit,
            rating=round(rating) if rating is not None else None,
            rating_change=round(change) if change is not None else None,
            away_since=_iso(away),
        )
    if seat.bot is not None:
        return SeatOut(
            seat=seat.seat,
            kind="bot",
            name=bot_label(seat.bot, seat.seat, language),
            bot=seat.bot,
            bot_name=_bot_name(seat.bot),
            bot_label=_bot_label(seat.bot, language),
        )
    return SeatOut(seat=seat.seat, kind="empty", name=None)


def table_out(
    info: TableInfo,
    title: str,
    ratings: dict[int, float] | None = None,
    changes: dict[int, float] | None = None,
    away: dict[int, datetime] | None = None,
    language: str = DEFAULT,
) -> TableOut:
    """The wire form of ``info`` (``title``: the game's display name; ``ratings`` by user id,
    and ``changes`` the finished game made to them; ``language``: the reader's, for the words
    beside the machine fields)."""
    return TableOut(**table_fields(info, title, ratings, changes, away, language))


def table_fields(
    info: TableInfo,
    title: str,
    ratings: dict[int, float] | None = None,
    changes: dict[int, float] | None = None,
    away: dict[int, datetime] | None = None,
    language: str = DEFAULT,
) -> dict[str, Any]:
    """The fields of :func:`table_out`'s answer, for a schema that adds its own to them (a
    player's list of tables: :class:`~otherside.server.http.schemas.MyTableOut`)."""
    ratings = ratings or {}
    changes = changes or {}
    away = away or {}
    return dict(
        id=info.id,
        game=info.game,
        title=title,
        players=info.players,
        options=info.options,
        pace=info.pace.to_json(),
        pace_text=pace_words(info.pace, language),
        rated=info.rated,
        status=info.status,
        owner=info.owner_name,
        owner_id=info.owner_id,
        seats=[
            seat_out(
                s, ratings.get(s.user_id), changes.get(s.user_id), away.get(s.user_id), language
            )
            if s.user_id is not None
            else seat_out(s, language=language)
            for s in info.seats
        ],
        version=info.version,
        outcome=with_words(info.outcome),
        to_move=list(info.to_move) if info.status == "playing" else [],
        deadline_at=_iso(info.deadline_at),
        reminded=info.reminded_at is not None,
        created_at=info.created_at.isoformat(),
        updated_at=_iso(info.updated_at),
        rematch=info.rematch_id,
    )


def _iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    # SQLite hands back naive datetimes for timezone-aware columns: they were written in UTC.
    return as_utc(moment).isoformat()
