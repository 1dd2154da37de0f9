"""Seat changes, the start and the rematch as commands of a table's actor: decided by the pure
rules of :mod:`.seat_rules` on the table as this process knows it, then written.

Another server process may have changed the table without this one having heard yet: if the
write finds that (``StaleWrite``), or the decision is a refusal while other processes share the
database, the table catches up with the database and the rules decide once more (a second
conflict: ``changed_meanwhile``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

from otherside.server.accounts.sessions import UserInfo
from otherside.server.cluster.catch_up import refresh
from otherside.server.live import fanout
from otherside.server.store.contract import seated_ratings
from otherside.server.store.records import LimitReached, SeatInfo, StaleWrite, TableInfo
from otherside.server.tables import bot_tables, seat_rules
from otherside.server.tables.errors import Refused
from otherside.server.tables.forfeits import forfeit
from otherside.server.tables.live import LiveTable
from otherside.server.tables.services import Services

if TYPE_CHECKING:
    from otherside.server.tables.hub import TableHub

D = TypeVar("D")
R = TypeVar("R")


async def create(
    hub: TableHub,
    user: UserInfo,
    game: str,
    players: int,
    options: dict[str, Any] | None,
    pace: dict[str, Any] | None = None,
) -> TableInfo:
    """A new waiting table of ``game`` for ``players`` hosted by ``user``, in seat 0 (an
    event's table is made otherwise: born started, :mod:`~otherside.server.tournaments.boards`)."""
    clean, chosen = seat_rules.new_table(game, players, options, pace)
    store = hub.services.store
    most = hub.services.limits.waiting_tables_per_user
    now = hub.services.clock.now()
    try:
        table_id = await store.create(user, game, players, clean, chosen, now, most_waiting=most)
    except LimitReached as exc:
        raise Refused("too_many_tables", most=most) from exc
    except StaleWrite as exc:  # the account was declared a bot meanwhile: ask again
        raise Refused("changed_meanwhile") from exc
    # Nobody else knows the new table yet: it is taken into memory as written, not read back.
    made = seat_rules.created(table_id, user, game, players, clean, chosen, now)
    info = (await hub.live(table_id, known=made)).info
    hub.services.seated(s.user_id for s in info.seats if s.user_id is not None)
    return info


async def rematch(hub: TableHub, table_id: str, user: UserInfo) -> TableInfo:
    """A new waiting table for the same game with the same seats (the next player first),
    hosted by ``user``, one of the players; the existing one if someone asked already."""
    rematch_id = await hub.ask(table_id, Rematch(user))
    return (await hub.live(rematch_id)).info


async def decided_and_written(
    services: Services,
    live: LiveTable,
    decide: Callable[[TableInfo], D],
    write: Callable[[TableInfo, D], Awaitable[R]],
) -> tuple[D, R]:
    """``decide`` on the table as known, then ``write`` the decision (see the module
    docstring); the decision and what the write returned."""
    for attempt in range(2):
        try:
            decision = decide(live.info)
        except Refused:
            if attempt or not services.cluster.shared:
                raise
            await refresh(services, live)
            continue
        try:
            return decision, await write(live.info, decision)
        except StaleWrite as exc:
            if attempt:
                raise Refused("changed_meanwhile") from exc
            await refresh(services, live)
    raise AssertionError("unreachable")


async def change_seats(
    services: Services,
    live: LiveTable,
    decide: Callable[[TableInfo], list[SeatInfo]],
    host: Callable[[TableInfo], SeatInfo | None] = lambda info: None,
) -> TableInfo:
    """Decide and write seat changes (and who hosts the table after them, if that changes);
    the table after them."""
    now = services.clock.now()

    def decided(info: TableInfo) -> tuple[list[SeatInfo], SeatInfo | None]:
        return decide(info), host(info)

    async def write(known: TableInfo, change: tuple[list[SeatInfo], SeatInfo | None]) -> None:
        seats, new_host = change
        await services.store.seats(known, seats, now, new_host.user_id if new_host else None)

    (seats, new_host), _ = await decided_and_written(services, live, decided, write)
    services.seated(s.user_id for s in seats if s.user_id is not None)
    for seat in seats:
        live.info = live.info.with_seat(seat)
    if new_host is not None and new_host.user_id is not None:
        live.info = replace(
            live.info, owner_id=new_host.user_id, owner_name=new_host.user_name or ""
        )
    live.ratings = await seated_ratings(services.store, live.info)
    fanout.broadcast(live, services.clock.now(), table=True, view=False)
    return live.info


@dataclass(frozen=True)
class Join:
    """``user`` sits at an empty seat (the first one unless ``seat`` is given)."""

    user: UserInfo
    seat: int | None = None

    async def run(self, live: LiveTable, services: Services) -> TableInfo:
        """The table after. A retry of a join that went through, answered after the game
        started meanwhile, answers with the table rather than "seats locked"."""
        if live.info.status != "waiting" and live.info.playing_seat_of(self.user.id) is not None:
            return live.info
        return await change_seats(
            services, live, lambda info: seat_rules.join(info, self.user, self.seat)
        )


@dataclass(frozen=True)
class Leave:
    """``user`` frees their seat at a waiting table; at a started one gives the game up (a
    bot plays on in a game of three or more)."""

    user: UserInfo

    async def run(self, live: LiveTable, services: Services) -> TableInfo:
        """The table after (answered again, not refused, when it is a retry of a leave that
        went through: the seat already given up)."""
        mine = live.info.seat_of(self.user.id)
        if (
            live.info.status != "waiting"
            and mine is not None
            and live.info.seats[mine].forfeit == "left"
        ):
            return live.info
        if live.info.status == "playing":
            seat = seat_rules.forfeiting(live.info, self.user)
            await forfeit(services, live, seat, "left")
            return live.info
        return await change_seats(
            services,
            live,
            lambda info: seat_rules.leave(info, self.user),
            lambda info: seat_rules.next_host(info, self.user),
        )


@dataclass(frozen=True)
class SetBot:
    """The host puts ``bot`` in ``seat`` (``None`` takes a bot out)."""

    user: UserInfo
    seat: int
    bot: str | None

    async def run(self, live: LiveTable, services: Services) -> TableInfo:
        """The table after."""
        return await change_seats(
            services,
            live,
            lambda info: seat_rules.set_bot(
                info, self.user, self.seat, self.bot, services.limits.bot_think_cap
            ),
        )


@dataclass(frozen=True)
class Fill:
    """The host fills every empty seat with ``bot``, and the game starts: nobody else is
    awaited (a table filled with bots need not wait for "Start")."""

    user: UserInfo
    bot: str

    async def run(self, live: LiveTable, services: Services) -> TableInfo:
        """The table after. Asked again once it went through (the game started), it answers
        with the game under way, as :class:`Start` does."""
        info = live.info
        cap = services.limits.bot_think_cap
        if info.status != "waiting" and info.owner_id == self.user.id:
            spec = seat_rules.checked_bot(info, self.bot, cap)
            if any(seat.bot == spec for seat in info.seats):
                return info
        await change_seats(
            services, live, lambda info: seat_rules.fill(info, self.user, self.bot, cap)
        )
        return await Start(self.user).run(live, services)


@dataclass(frozen=True)
class Start:
    """The host starts the game once every seat is taken. A tournament's table may be
    unrated (``may_rate``), and its games with bots only are bounded by the event rather than
    counted against its host's own (``limit_bots_only``)."""

    user: UserInfo
    may_rate: bool = True
    limit_bots_only: bool = True

    async def run(self, live: LiveTable, services: Services) -> TableInfo:
        """The table after. Asking the host's table to start once more answers with the game
        already under way, so a retry of a start that went through does not fail."""
        if live.info.status != "waiting" and live.info.owner_id == self.user.id:
            return live.info

        def decide(info: TableInfo) -> seat_rules.Started:
            seat_rules.check_start(info, self.user)
            state = live.adapter.new_state(info.players, info.options, live.game)
            now = services.clock.now()
            return seat_rules.started(info, live.adapter, state, now, self.may_rate)

        async def write(known: TableInfo, start: seat_rules.Started) -> None:
            try:
                await services.store.start(
                    known,
                    start.options,
                    start.record,
                    start.rated,
                    start.plan,
                    start.now,
                    bots_only_limit=bot_tables.bots_only_limit(known, services.limits)
                    if self.limit_bots_only
                    else None,
                )
            except LimitReached as exc:
                raise Refused("too_many_bot_games", most=exc.most) from exc

        start, _ = await decided_and_written(services, live, decide, write)
        live.state, live.info, live.moved_at = start.state, start.info, start.now
        fanout.broadcast(live, services.clock.now(), table=True, view=True)
        services.kick_bots(live)
        services.on_deadline_change(live.info.deadline_at)
        return live.info


@dataclass(frozen=True)
class Rematch:
    """``user``, a player of the finished game, asks for a rematch; its table's id."""

    user: UserInfo

    async def run(self, live: LiveTable, services: Services) -> str:
        """The rematch's id (made now, or before)."""

        def decide(info: TableInfo) -> seat_rules.Rematch | None:
            return seat_rules.rematch(info, self.user, live.adapter)

        async def write(known: TableInfo, plan: seat_rules.Rematch | None) -> str | None:
            if plan is None:
                return None
            now = services.clock.now()
            return await services.store.rematch(known, self.user, plan.options, plan.seats, now)

        plan, made = await decided_and_written(services, live, decide, write)
        if made is not None and plan is not None:
            services.seated(s.user_id for s in plan.seats if s.user_id is not None)
        if made is not None:
            live.info = replace(live.info, rematch_id=made)
            fanout.broadcast(live, services.clock.now(), table=True, view=False)
        rematch_id = live.info.rematch_id
        assert rematch_id is not None
        return rematch_id
