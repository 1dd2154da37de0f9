"""Takebacks: in an unrated duel of a game that allows them (VERSUS), a player asks to take
back their last move, and the other player accepts or declines — as the game's own draw offers
go, but kept by the server, since taking a move back is no rule of the game.

- ``ask`` at the current version: the request names the plies to take back, the asker's last
  action and whatever followed it (the other player's reply, if they made one). It is stored on
  the table's row and announced like any change, so the other player may answer it through
  another server process, and it is still open after the process it was asked through
  restarts (a request is a player's word, not a process's: dropping it on a restart would make
  the asker ask again for no fault of theirs).
- ``decline``: the request is gone, play goes on.
- ``accept``: the table goes back to the version before the asker's last action (and counts
  one takeback more, so that what was chosen before it is told apart): the moves
  after it are forgotten in the database and the game is rebuilt from the first record and the
  moves that stay (:func:`~otherside.server.tables.live.rebuild`): the game's rules are not
  asked to undo anything. The turn and its deadline follow from the position, as after a
  move: the pace (days per move, the reminder, a live clock's time left) keeps its meaning.

Refused, changing nothing (a :class:`~otherside.server.tables.errors.Refused` with its code):
by a spectator, before or after the game, in a rated game or a game without takebacks, against
a bot, on a version that is not the table's or was seen before a takeback (:mod:`.positions`),
asked twice while a request is open, without an own move to take back, and an answer with no
request of the other player open. A request lapses when the game moves on.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from otherside.i18n import N_
from otherside.server.accounts.sessions import UserInfo
from otherside.server.live import fanout
from otherside.server.store.records import TakebackRequest
from otherside.server.tables import timing
from otherside.server.tables.commit import stored
from otherside.server.tables.errors import Refused
from otherside.server.tables.live import LiveTable, reached_at, rebuild
from otherside.server.tables.positions import check_not_taken_back, stale
from otherside.server.tables.services import Services

TakebackStep = Literal["ask", "accept", "decline"]


@dataclass(frozen=True)
class Takeback:
    """``user`` asks for a takeback, or answers the other player's (``step``), at ``version``
    after ``takebacks`` takebacks accepted (``None``: not said; the version alone is checked)."""

    user: UserInfo | None
    version: int
    step: TakebackStep
    takebacks: int | None = None

    async def run(self, live: LiveTable, services: Services) -> None:
        """Check, then ask, decline or take back; :class:`Refused` if refused."""
        seat = live.playing_seat(self.user)
        live.playing_state()
        _check_table(live)
        # A request or an answer sent before a takeback, arriving when the game is back at
        # its version: meant for a move or a request that is gone.
        check_not_taken_back(live, self.version, self.takebacks)
        if self.version != live.info.version:
            raise stale(self.version, live.info.version)
        pending = live.pending_takeback()
        if self.step == "ask":
            if pending is not None:
                raise Refused(
                    "takeback_pending", N_("a takeback is already asked for; wait for the answer")
                )
            plies = await _plies_back(services, live, seat)
            await _store(services, live, TakebackRequest(seat, live.info.version, plies))
            return
        if pending is None or pending.seat == seat:
            raise Refused("no_takeback", N_("your opponent has not asked to take a move back"))
        if self.step == "accept":
            await _take_back(services, live, pending)
        else:
            await _store(services, live, pending, asked=False)


async def _store(
    services: Services, live: LiveTable, request: TakebackRequest, asked: bool = True
) -> None:
    """Store ``request`` asked (or declined): on the table's row, told to the other server
    processes, then shown to the watchers here."""
    async with stored(services, live, "a takeback request"):
        await services.store.takeback(live.id, request, asked)
    live.info = replace(live.info, takeback=request if asked else None)
    fanout.broadcast(live, services.clock.now(), table=False, view=True)


def _check_table(live: LiveTable) -> None:
    """Refuse a takeback where none may be: the game, a rated table, a bot opponent."""
    info = live.info
    if not live.adapter.takebacks or info.players != 2:
        raise Refused(
            "takeback_unsupported", N_("{game} has no takebacks"), game=live.adapter.title
        )
    if info.rated:
        raise Refused("takeback_rated", N_("takebacks are only for unrated games"))
    if any(not s.human for s in info.seats):
        raise Refused(
            "takeback_bot", N_("only a person can agree to a takeback; this game has a bot")
        )


async def _plies_back(services: Services, live: LiveTable, seat: int) -> int:
    """How many plies take ``seat``'s last action back (it and those after it)."""
    _initial, moves = await services.store.moves(live.id, upto=live.info.version)
    for back, move in enumerate(reversed(moves), start=1):
        if move.seat == seat:
            return back
    raise Refused("takeback_none", N_("you have made no move to take back"))


async def _take_back(services: Services, live: LiveTable, request: TakebackRequest) -> None:
    """Go back ``request.plies`` plies: stored first, then told to everyone."""
    info = live.info
    version = info.version - request.plies
    initial, moves = await services.store.moves(live.id, upto=version)
    state = rebuild(live.game, live.game_clock, initial, moves)
    now = services.clock.now()
    # No seat acted: nobody's clock is charged; whose turn it is follows from the position.
    plan = timing.after_action(info, None, state, now)
    async with stored(services, live, "a takeback"):
        await services.store.take_back(info, version, plan, now)
    live.state = state
    live.info = timing.with_timing(
        replace(info, takeback=None, takebacks=info.takebacks + 1),
        plan,
        version=version,
        updated_at=now,
    )
    live.moved_at = reached_at(live.info, moves)
    fanout.broadcast(live, now, table=True, view=True)
    services.kick_bots(live)
    services.on_deadline_change(live.info.deadline_at)
