"""Stored tables in their wire form (:class:`~otherside.server.live.protocol.TableOut`), as the
lobby's lists and the ``table`` message send them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from otherside.bots.spec import BotSpec
from otherside.i18n import DEFAULT
from otherside.server.clock import as_utc
from otherside.server.live.protocol import SeatOut, TableOut
from otherside.server.live.reader_words import bot_words, numbered_words, pace_words
from otherside.server.store.records import SeatInfo, TableInfo
from otherside.server.tables.outcome_words import with_words


def seat_names(seats: Sequence[SeatInfo], language: str = DEFAULT) -> list[str | None]:
    """Each of a table's ``seats`` named for people in ``language``, the one place a seat gets
    its name (the lobby's lists, the ``table`` message, a replay, a finished game's record, a
    player's recent games): a person's name (a bot account's, a player's whose seat a bot took
    over, too); a bot in its words, numbered from 1 among the table's bots alike only when
    there are several; ``None`` for an open seat.

    >>> seat_names([SeatInfo(0, 7, "ada"), SeatInfo(1, bot="random"), SeatInfo(2, bot="greedy"),
    ...             SeatInfo(3, bot="random"), SeatInfo(4)])
    ['ada', 'Random bot 1', 'Greedy bot', 'Random bot 2', None]
    >>> seat_names([SeatInfo(0, bot="search:think=2"), SeatInfo(1, bot="search:think=2")], "de")
    ['Such-Bot 1 · 2 s pro Zug', 'Such-Bot 2 · 2 s pro Zug']
    """
    # Alike by what the bot is (a spec written two ways is one bot), the same in every language.
    bots = [
        BotSpec.parse(seat.bot) if seat.user_id is None and seat.bot is not None else None
        for seat in seats
    ]
    alike = Counter(bot for bot in bots if bot is not None)
    counted: Counter[BotSpec] = Counter()
    names: list[str | None] = []
    for seat, bot in zip(seats, bots, strict=True):
        if bot is None or seat.bot is None:
            names.append(seat.user_name)
        elif alike[bot] == 1:
            names.append(bot_words(seat.bot, language))
        else:
            counted[bot] += 1
            names.append(numbered_words(seat.bot, counted[bot], language))
    return names


def _bot_name(spec: str | None) -> str | None:
    """A seat's bot's registry name, for pages (so that they never split a spec)."""
    return BotSpec.parse(spec).name if spec is not None else None


def _bot_label(spec: str | None, language: str) -> str | None:
    """A seat's bot with its settings for people (``Search bot · 2 s a move``)."""
    return bot_words(spec, language) if spec is not None else None


def seat_out(
    seat: SeatInfo,
    name: str | None,
    rating: float | None = None,
    change: float | None = None,
    away: datetime | None = None,
    language: str = DEFAULT,
) -> SeatOut:
    """The wire form of ``seat`` named ``name`` (its :func:`seat_names` entry; ``rating``: the
    player's rating in this game, if rated; ``change``: what the finished game did to it;
    ``language``: the reader's, for the words of a bot seat)."""
    if seat.user_id is not None:
        return SeatOut(
            seat=seat.seat,
            kind="bot" if seat.bot is not None else "human",
            name=name,
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
            name=name,
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
                s,
                name,
                ratings.get(s.user_id),
                changes.get(s.user_id),
                away.get(s.user_id),
                language,
            )
            if s.user_id is not None
            else seat_out(s, name, language=language)
            for s, name in zip(info.seats, seat_names(info.seats, language), strict=True)
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
