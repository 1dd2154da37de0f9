"""Events as stored: plain records (:class:`Event`, :class:`Entrant`, :class:`EventGame`) and
the transactions that read and change them. Each change checks, in its own transaction with
the event's row locked (PostgreSQL; SQLite writes one at a time anyway), what it needs: a join
cannot overfill an event, a round is paired once (its number moves on by compare-and-set)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from otherside.server.store.models import (
    Tournament,
    TournamentEntrant,
    TournamentGame,
    User,
)
from otherside.server.store.queries import lock_account
from otherside.server.tournaments.records import Entrant, Event, EventGame, Settings
from otherside.server.tournaments.refusals import EventRefused


def _locked(session: Session, event_id: str) -> Tournament:
    row = session.scalar(select(Tournament).where(Tournament.id == event_id).with_for_update())
    if row is None:
        raise EventRefused("no_event", event=event_id)
    return row


def create_event(
    session: Session, settings: Settings, host_id: int, now: datetime, most_open: int
) -> str:
    """Write a new open event; its id (refused when the host has ``most_open`` open ones).
    The host's row is locked first, so that events asked for at once are counted one after the
    other (else each counted the same open events, and all were made past the limit)."""
    lock_account(session, host_id)
    waiting = session.scalar(
        select(func.count()).where(Tournament.host_id == host_id, Tournament.status == "open")
    )
    if (waiting or 0) >= most_open:
        raise EventRefused("too_many_events", most=most_open)
    event_id = secrets.token_urlsafe(6)
    while session.get(Tournament, event_id) is not None:
        event_id = secrets.token_urlsafe(6)
    session.add(
        Tournament(
            id=event_id,
            name=settings.name,
            game=settings.game,
            kind=settings.kind,
            rounds=settings.rounds,
            group_size=settings.group_size,
            max_entrants=settings.max_entrants,
            options=settings.options,
            pace=settings.pace,
            rated=settings.rated,
            open_to=settings.open_to,
            host_id=host_id,
            status="open",
            current_round=0,
            created_at=now,
        )
    )
    return event_id


def _event(session: Session, row: Tournament) -> Event:
    host = session.get(User, row.host_id)
    entrants = list(
        session.scalars(
            select(TournamentEntrant)
            .where(TournamentEntrant.tournament_id == row.id)
            .order_by(TournamentEntrant.number)
        )
    )
    accounts = [e.user_id for e in entrants if e.user_id is not None]
    programs = set(
        session.scalars(select(User.id).where(User.id.in_(accounts), User.is_bot.is_(True)))
        if accounts
        else ()
    )
    games = session.scalars(
        select(TournamentGame)
        .where(TournamentGame.tournament_id == row.id)
        .order_by(TournamentGame.round, TournamentGame.board)
    )
    settings = Settings(
        row.name,
        row.game,
        row.kind,
        row.rounds,
        row.group_size,
        row.max_entrants,
        dict(row.options or {}),
        dict(row.pace or {}),
        row.rated,
        row.open_to,
    )
    return Event(
        id=row.id,
        settings=settings,
        host_id=row.host_id,
        host_name=host.name if host is not None else "",
        status=row.status,
        current_round=row.current_round,
        created_at=row.created_at,
        started_at=row.started_at,
        ended_at=row.ended_at,
        entrants=tuple(
            Entrant(e.number, e.name, e.user_id, e.bot, e.seed, e.user_id in programs)
            for e in entrants
        ),
        games=tuple(
            EventGame(
                g.round,
                g.board,
                tuple(g.entrants),
                g.table_id,
                g.result,
                tuple(g.points) if g.points is not None else None,
            )
            for g in games
        ),
    )


def load_event(session: Session, event_id: str) -> Event | None:
    """The event ``event_id`` with its entrants and games, or ``None``."""
    row = session.get(Tournament, event_id)
    return _event(session, row) if row is not None else None


def list_events(session: Session, limit: int = 50) -> list[Event]:
    """The newest events, open ones first."""
    rows = session.scalars(
        select(Tournament)
        .order_by((Tournament.status == "over"), Tournament.created_at.desc())
        .limit(limit)
    )
    return [_event(session, row) for row in rows]


def playing_ids(session: Session) -> list[str]:
    """The events under way."""
    return list(session.scalars(select(Tournament.id).where(Tournament.status == "playing")))


def lease(session: Session, event_id: str, node: str, now: datetime, seconds: float) -> bool:
    """Take or renew the lease of the event under way for the server process ``node``;
    whether it holds it (another process's unexpired lease keeps it out)."""
    taken = session.execute(
        update(Tournament)
        .where(
            Tournament.id == event_id,
            Tournament.status == "playing",
            (Tournament.lease_owner.is_(None))
            | (Tournament.lease_owner == node)
            | (Tournament.lease_until < now),
        )
        .values(lease_owner=node, lease_until=now + timedelta(seconds=seconds))
    )
    return bool(taken.rowcount)  # type: ignore[attr-defined]


def _check_open(row: Tournament) -> None:
    if row.status != "open":
        raise EventRefused("event_started")


# An event none of whose entrants is an account: built-in bots only.
_BOTS_ONLY = ~(
    select(TournamentEntrant.number)
    .where(TournamentEntrant.tournament_id == Tournament.id, TournamentEntrant.user_id.is_not(None))
    .exists()
)


def _count(session: Session, event_id: str, *where: Any) -> int:
    entrants = select(func.count()).where(TournamentEntrant.tournament_id == event_id, *where)
    return int(session.scalar(entrants) or 0)


def add_entrant(
    session: Session,
    event_id: str,
    name: str,
    now: datetime,
    user_id: int | None = None,
    bot: str | None = None,
    host_id: int | None = None,
) -> None:
    """Enter an account (``user_id``) or, for the host ``host_id``, a built-in bot (named
    ``name``, numbered from the second of its kind: ``greedy 2``); refused when the event has
    started, is full or closed to them, or the account is in already.

    Whether the account is a program's is read from its row, locked: a declaration that it is
    a bot (:mod:`otherside.server.http.bot_account`, which locks it too) comes wholly before
    the entry, which then sees it, or after, and then finds the account entered. (The flag
    the request was signed in with may be a cached one from before; and read unlocked, a
    declaration and an entry at once each missed the other, and a program entered an event
    for people only.)

    Who an event is open to (``people``, ``bots`` or ``both``) is the rule a table's host
    sets with its ``bot_accounts`` option, made for the event: a bot account enters an event
    open to bots or to both, never one for people only; a person, one open to people or to
    both. Entering an event open to both is a person's consent to meet programs there, in
    rated games too (as sitting down at a table that allows bot accounts is)."""
    row = _locked(session, event_id)
    _check_open(row)
    if bot is not None:
        if host_id != row.host_id:
            host = session.get(User, row.host_id)
            raise EventRefused("not_host", host=host.name if host else "")
        if row.open_to == "people":
            raise EventRefused("closed_to_bots")
        # Numbered under the event's lock: read before it, bots entered at once took one name.
        same = _count(session, event_id, TournamentEntrant.bot == bot)
        name = name if not same else f"{name} {same + 1}"
    else:
        assert user_id is not None  # an account enters when no bot does
        lock_account(session, user_id)
        bot_account = bool(session.scalar(select(User.is_bot).where(User.id == user_id)))
        if row.open_to == ("people" if bot_account else "bots"):
            raise EventRefused("closed_to_bots" if bot_account else "closed_to_people")
        taken = session.scalar(
            select(TournamentEntrant.number).where(
                TournamentEntrant.tournament_id == event_id, TournamentEntrant.user_id == user_id
            )
        )
        if taken is not None:
            raise EventRefused("already_entered")
    if _count(session, event_id) >= row.max_entrants:
        raise EventRefused("event_full", most=row.max_entrants)
    last = session.scalar(
        select(func.max(TournamentEntrant.number)).where(
            TournamentEntrant.tournament_id == event_id
        )
    )
    session.add(
        TournamentEntrant(
            tournament_id=event_id,
            number=(last or 0) + 1,
            user_id=user_id,
            bot=bot,
            name=name,
            joined_at=now,
        )
    )


def remove_entrant(session: Session, event_id: str, user_id: int) -> None:
    """Take ``user_id`` out of an event that has not started."""
    row = _locked(session, event_id)
    _check_open(row)
    entrant = session.scalar(
        select(TournamentEntrant).where(
            TournamentEntrant.tournament_id == event_id, TournamentEntrant.user_id == user_id
        )
    )
    if entrant is None:
        raise EventRefused("not_entered")
    session.delete(entrant)


def start_event(
    session: Session,
    event_id: str,
    host_id: int,
    seeds: list[int],
    rounds: int,
    least: int,
    now: datetime,
    most_bot_events: int,
) -> None:
    """Start an open event: its entrants seeded (``seeds``: their numbers in order, as the
    caller read them; any change since is refused), ``rounds`` set; round 1 is paired next.

    An event of built-in bots only is a host's games of bots only, as the lobby's are
    (limited there to a few at once): a host runs at most ``most_bot_events`` of them at once
    (``Limits.all_bot_events_per_user``). (Else one account started one event of 64 bots after
    another, each up to 32 games at once, without end: only events not yet started counted.)
    The host's row is locked after the event's, in the order an entry locks them, so that two
    starts count in turn."""
    row = _locked(session, event_id)
    if row.host_id != host_id:
        host = session.get(User, row.host_id)
        raise EventRefused("not_host", host=host.name if host else "")
    _check_open(row)
    entrants = {
        e.number: e
        for e in session.scalars(
            select(TournamentEntrant).where(TournamentEntrant.tournament_id == event_id)
        )
    }
    if len(entrants) < least:
        raise EventRefused("too_few_entrants", least=least)
    if all(e.user_id is None for e in entrants.values()):
        lock_account(session, host_id)
        running = session.scalar(
            select(func.count()).where(
                Tournament.host_id == host_id, Tournament.status == "playing", _BOTS_ONLY
            )
        )
        if (running or 0) >= most_bot_events:
            raise EventRefused("too_many_bot_events", most=most_bot_events)
    if sorted(entrants) != sorted(seeds):
        raise EventRefused("event_started")  # entrants came or went meanwhile: ask again
    for place, number in enumerate(seeds):
        entrants[number].seed = place
    row.status, row.rounds, row.started_at = "playing", rounds, now


def write_round(
    session: Session,
    event_id: str,
    number: int,
    tables: Sequence[Sequence[int]],
    byes: Sequence[int],
) -> bool:
    """Write round ``number``'s games (byes with their point) if the event is still at round
    ``number - 1``; ``False`` if another process paired it first."""
    moved = session.execute(
        update(Tournament)
        .where(
            Tournament.id == event_id,
            Tournament.current_round == number - 1,
            Tournament.status == "playing",
        )
        .values(current_round=number)
    )
    if not moved.rowcount:  # type: ignore[attr-defined]
        return False
    for board, table in enumerate(tables, start=1):
        session.add(
            TournamentGame(tournament_id=event_id, round=number, board=board, entrants=list(table))
        )
    for board, entrant in enumerate(byes, start=len(tables) + 1):
        session.add(
            TournamentGame(
                tournament_id=event_id,
                round=number,
                board=board,
                entrants=[entrant],
                points=[1.0],
            )
        )
    return True


def _game(session: Session, event_id: str, number: int, board: int) -> TournamentGame:
    row = session.get(TournamentGame, (event_id, number, board))
    if row is None:
        raise EventRefused("no_event", event=event_id)
    return row


def set_result(
    session: Session,
    event_id: str,
    number: int,
    board: int,
    result: dict[str, Any],
    points: list[float] | None,
) -> None:
    """A game's result as read from its finished table, and its points if they are known
    from it alone (a partnership's wait for the round)."""
    row = _game(session, event_id, number, board)
    row.result = result
    if points is not None:
        row.points = points


def set_points(
    session: Session, event_id: str, number: int, points: dict[int, list[float]]
) -> None:
    """The points of a round's games, by board."""
    for board, got in points.items():
        _game(session, event_id, number, board).points = got


def finish_event(session: Session, event_id: str, now: datetime) -> None:
    """The event is over."""
    row = _locked(session, event_id)
    if row.status == "playing":
        row.status, row.ended_at = "over", now
