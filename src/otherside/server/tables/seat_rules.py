"""The rules of seats, as pure decisions: who may sit where, put bots in, start a game or ask
for a rematch. Each takes the table as known (:class:`TableInfo`) and who asks, and returns the
changes — or raises :class:`~otherside.server.tables.errors.Refused` saying why not. Nothing
here reads or writes the database (:mod:`.seating` does, with these decisions).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from otherside.core.game import State
from otherside.server.accounts.sessions import UserInfo
from otherside.server.store.records import SeatInfo, TableInfo, Timing
from otherside.server.tables import timing
from otherside.server.tables.adapters import BOT_ACCOUNTS, GameAdapter, get_adapter
from otherside.server.tables.errors import Refused
from otherside.server.tables.pace import Pace
from otherside.server.tables.setup_refusals import problem


def new_table(
    game: str, players: int, options: dict[str, Any] | None, pace: dict[str, Any] | None
) -> tuple[dict[str, Any], Pace]:
    """The options and pace of a new table of ``game`` for ``players``, as the game takes
    them (``bad_request`` naming what is wrong)."""
    try:
        adapter = get_adapter(game)
        counts = adapter.player_counts
        if players not in counts:
            raise ValueError(
                f"{adapter.title} is for {', '.join(map(str, counts))} players, not {players}"
            )
        return adapter.clean_options(options, players), Pace.parse(pace, adapter.pace)
    except ValueError as exc:
        raise Refused("bad_request", **problem(exc)) from exc


def first_seats(owner: UserInfo, players: int) -> tuple[SeatInfo, ...]:
    """The seats of a new table: its owner in seat 0, the others empty."""
    first = SeatInfo(0, owner.id, owner.name, guest=owner.is_guest, bot_account=owner.is_bot)
    return (first, *(SeatInfo(i) for i in range(1, players)))


def created(
    table_id: str,
    owner: UserInfo,
    game: str,
    players: int,
    options: dict[str, Any],
    pace: Pace,
    now: datetime,
    seats: Sequence[SeatInfo] = (),
) -> TableInfo:
    """The new waiting table ``table_id`` as it was written (:func:`new_table`'s options and
    pace, made at ``now``; ``seats`` those of a rematch or an event's board, else
    :func:`first_seats`): what a load of it from the database would give."""
    return TableInfo(
        id=table_id,
        game=game,
        players=players,
        options=dict(options),
        status="waiting",
        owner_id=owner.id,
        owner_name=owner.name,
        seats=tuple(seats) or first_seats(owner, players),
        version=0,
        outcome=None,
        created_at=now,
        pace=pace,
        updated_at=now,
    )


def check_waiting(info: TableInfo) -> None:
    """Seats change only before the game starts."""
    if info.status != "waiting":
        raise Refused("seats_locked")


def join(info: TableInfo, user: UserInfo, seat: int | None = None) -> list[SeatInfo]:
    """``user`` takes seat ``seat`` (the first free one if ``None``); nothing if seated."""
    check_waiting(info)
    if info.seat_of(user.id) is not None:
        return []
    free = [s.seat for s in info.seats if s.empty]
    if not free:
        raise Refused("table_full")
    if seat is None:
        seat = free[0]
    elif seat not in free:
        raise Refused("seat_not_free", seat=seat, free=free)
    check_bot_accounts(info, user)
    return [SeatInfo(seat, user.id, user.name, guest=user.is_guest, bot_account=user.is_bot)]


def check_bot_accounts(info: TableInfo, user: UserInfo) -> None:
    """A bot account and a person sit at one table only where its host allows bot accounts
    (the table option ``bot_accounts``); bot accounts among themselves, always."""
    if info.options.get(BOT_ACCOUNTS, True):
        return
    seated = [s for s in info.seats if s.human]
    if any(s.bot_account != user.is_bot for s in seated):
        raise Refused("no_bot_accounts")


def leave(info: TableInfo, user: UserInfo) -> list[SeatInfo]:
    """``user`` frees their seat at a waiting table (nothing if they have none)."""
    if info.status == "over":
        raise Refused("game_over")
    check_waiting(info)
    seat = info.seat_of(user.id)
    return [] if seat is None else [SeatInfo(seat)]


def next_host(info: TableInfo, leaving: UserInfo) -> SeatInfo | None:
    """Who hosts a waiting table once ``leaving`` leaves it: nobody new unless the host
    leaves; then the first other person seated, so that whoever waits can still start, add
    bots or leave (``None`` when no one else sits there: the table is left empty, and the
    lobby lists no empty table)."""
    if info.owner_id != leaving.id:
        return None
    return next((s for s in info.seats if s.human and s.user_id != leaving.id), None)


def forfeiting(info: TableInfo, user: UserInfo) -> int:
    """The seat ``user`` gives up by leaving a game in play."""
    seat = info.playing_seat_of(user.id)
    if seat is None:
        raise Refused("no_seat")
    return seat


def check_host(info: TableInfo, user: UserInfo) -> None:
    """Only the table's host may do this."""
    if info.owner_id != user.id:
        raise Refused("not_host", host=info.owner_name)


def checked_bot(info: TableInfo, bot: str, think_cap: float | None = None) -> str:
    """The bot spec ``bot`` as the table's game takes it, its ``think`` no more than
    ``think_cap`` (``bad_bot`` saying why not)."""
    try:
        return get_adapter(info.game).check_bot(bot, think_cap)
    except ValueError as exc:
        raise Refused("bad_bot", **problem(exc)) from exc


def set_bot(
    info: TableInfo, user: UserInfo, seat: int, bot: str | None, think_cap: float | None = None
) -> list[SeatInfo]:
    """The host puts ``bot`` in ``seat`` (``None`` takes a bot out)."""
    check_waiting(info)
    check_host(info, user)
    if not 0 <= seat < info.players:
        raise Refused("no_such_seat", seat=seat, players=info.players)
    if info.seats[seat].user_id is not None:
        raise Refused("seat_taken", seat=seat, name=info.seats[seat].user_name)
    spec = checked_bot(info, bot, think_cap) if bot is not None else None
    return [SeatInfo(seat, bot=spec)]


def fill(
    info: TableInfo, user: UserInfo, bot: str, think_cap: float | None = None
) -> list[SeatInfo]:
    """The host fills every empty seat with ``bot``."""
    check_waiting(info)
    check_host(info, user)
    spec = checked_bot(info, bot, think_cap)
    return [SeatInfo(s.seat, bot=spec) for s in info.seats if s.empty]


def check_start(info: TableInfo, user: UserInfo) -> None:
    """The host may start a waiting table once every seat is taken."""
    check_host(info, user)
    if info.status != "waiting":
        raise Refused("already_started")
    empty = [s.seat for s in info.seats if s.empty]
    if empty:
        raise Refused("seats_empty", seats=empty)


@dataclass(frozen=True)
class Started:
    """A game that starts: its first state and record, and the table once started."""

    state: State
    record: dict[str, Any]
    options: dict[str, Any]
    rated: bool
    plan: Timing
    info: TableInfo
    now: datetime


def started(
    info: TableInfo, adapter: GameAdapter, state: State, now: datetime, may_rate: bool = True
) -> Started:
    """The table ``info`` starting at ``now`` with the game's first state ``state``: rated
    when every seat holds a registered player at a player count the game rates (and
    ``may_rate``: an unrated tournament's tables are not)."""
    record = state.to_record()
    options = dict(record.get("options", info.options))
    rated = (
        may_rate
        and info.players in adapter.rated_counts
        and all(s.human and not s.guest for s in info.seats)
    )
    plan = timing.starting(info.pace, info.seats, state, now)
    # Started now, as the store writes it (``turn_started_at`` too; ``now`` is also where a
    # bot to start the first round counts its wait for a ``ready`` from, ``LiveTable.moved_at``).
    after = replace(info, status="playing", options=options, version=0, rated=rated, updated_at=now)
    return Started(state, record, options, rated, plan, timing.with_timing(after, plan), now)


@dataclass(frozen=True)
class Rematch:
    """A rematch to make: its options (the next player first) and its seats."""

    options: dict[str, Any]
    seats: list[SeatInfo]


def rematch(info: TableInfo, user: UserInfo, adapter: GameAdapter) -> Rematch | None:
    """The rematch ``user``, a player of the finished ``info``, asks for; ``None`` if the
    table has one already. Bots keep their seats; people who forfeited theirs get them back."""
    if info.status != "over":
        raise Refused("not_finished")
    if info.seat_of(user.id) is None:
        raise Refused("not_a_player")
    if info.rematch_id is not None:
        return None
    options = {
        spec.name: _next_first(info.options.get(spec.name), info.players)
        if spec.kind == "first_player"
        else info.options.get(spec.name, spec.default)
        for spec in adapter.options
    }
    kept = [
        SeatInfo(
            s.seat,
            s.user_id,
            s.user_name,
            s.bot if s.user_id is None else None,
            bot_account=s.bot_account,
        )
        for s in info.seats
    ]
    if not any(spec.kind == "first_player" for spec in adapter.options):
        # A game that always begins with seat 1 (VERSUS: the first colour) takes turns by
        # moving everyone one seat on, so the one who moved second moves first.
        n = len(kept)
        kept = [replace(kept[(s + 1) % n], seat=s) for s in range(n)]
    return Rematch(options, kept)


def _next_first(value: Any, players: int) -> Any:
    """The first player of a rematch: the seat after the last game's, or random again."""
    return (value + 1) % players if isinstance(value, int) else value
