"""Playing an action: the checks, in order — a seated player, the game started and not over,
the player's time not run out, that player allowed to act now (where several may act at once,
the game's own reason why not, or "too late" for an action sent before the game moved on), no
takeback since the client chose the action (:mod:`.positions`), the client's state version
current, the action legal — each refused with a
:class:`~otherside.server.tables.errors.Refused` naming the first failed check and changing
nothing; then the commit (:mod:`.commit`).

Several seats may act at once when the game says so (:mod:`otherside.core.simultaneous`: a
Recto Verso build); the state version is then only a hint, and an action still legal when it
arrives is applied.
"""

from __future__ import annotations

from dataclasses import dataclass

from otherside.core.simultaneous import actors, apply_as, is_simultaneous, plays_at_once
from otherside.i18n import N_
from otherside.server.accounts.sessions import UserInfo
from otherside.server.tables import timing
from otherside.server.tables.commit import commit
from otherside.server.tables.errors import Refused
from otherside.server.tables.forfeits import forfeit
from otherside.server.tables.live import LiveTable
from otherside.server.tables.positions import check_not_taken_back, stale
from otherside.server.tables.refusals import refusal
from otherside.server.tables.services import Services


@dataclass(frozen=True)
class Play:
    """``user`` plays ``action`` (its notation) at state ``version``, after ``takebacks``
    takebacks accepted at the table (``None``: the client did not say; the version alone is
    checked)."""

    user: UserInfo | None
    version: int
    action: str
    takebacks: int | None = None

    async def run(self, live: LiveTable, services: Services) -> bool:
        """Check and commit: ``True`` once done, ``False`` if this very action was applied
        already and still stands (sent again after its answer was lost, also across a takeback
        of later moves: nothing to do but show the table);
        :class:`~otherside.server.tables.errors.Refused` if refused."""
        seat = live.playing_seat(self.user)
        if self.version < live.info.version and await already_played(
            services, live, seat, self.version, self.action
        ):
            return False
        live.playing_state()
        if timing.out_of_time(live.info, services.clock.now()) == seat:
            await forfeit(services, live, seat, "timeout")
            raise Refused("out_of_time", N_("your time ran out: the game went on without you"))
        known = live.info.version
        try:
            await apply_action(services, live, seat, self.version, self.action, self.takebacks)
        except Refused as exc:
            # The commit found the table moved on by another server process, and caught up:
            # a retry sent through this process of the very action the first try committed
            # through another, before this one heard of it, is that action, not a refusal.
            if exc.code != "stale" or live.info.version == known:
                raise
            if not await already_played(services, live, seat, self.version, self.action):
                raise
            return False
        return True


async def already_played(
    services: Services, live: LiveTable, seat: int, version: int, text: str
) -> bool:
    """Whether ``seat`` played ``text`` as the move after ``version`` (or, when several seats
    act at once, among the moves since): a client retrying an action whose answer it lost."""
    simultaneous = live.state is not None and is_simultaneous(live.state)
    upto = live.info.version if simultaneous else version + 1
    moves = await services.store.moves_after(live.id, version, upto=upto)
    return any(move.seat == seat and move.action == text for move in moves)


async def apply_action(
    services: Services,
    live: LiveTable,
    seat: int,
    version: int,
    text: str,
    takebacks: int | None = None,
    retried: bool = False,
) -> None:
    """The checks of ``seat``'s action ``text`` at ``version`` (after ``takebacks``
    takebacks, if said) after the seat's, and its commit."""
    state = live.playing_state()
    # Before whose turn it is: after a takeback the turn may be another's, and what the
    # player must hear is that the position the action was chosen for is gone.
    check_not_taken_back(live, version, takebacks)
    may_act = actors(state)
    at_once = plays_at_once(state)
    late = version < live.info.version
    simultaneous = is_simultaneous(state)
    if version != live.info.version and not simultaneous and not at_once:
        # One seat at a time: an action chosen for another position is stale, whoever's turn
        # it is now ("not your turn" would puzzle a player who acted on their turn).
        raise stale(version, live.info.version)
    if seat not in may_act and at_once and not late:
        # The game says why this seat waits ("you have said you are done this round", "a
        # token must be turned first"), not a turn order that several seats at once lack.
        try:
            apply_as(state, seat, state.parse_action(text))
        except ValueError as exc:
            raise refusal(exc, text) from exc
    if seat not in may_act and not (at_once and late):
        raise Refused(
            "not_your_turn",
            N_("it is not your turn (seat {seat}): seat {seats} plays now"),
            seat=seat + 1,
            seats=", ".join(str(s + 1) for s in may_act),
        )
    if version != live.info.version and not simultaneous:
        if at_once and late:
            # Sent while the seat could still act (a piece moved as the round's clock ran
            # out, a partner's "done" crossing one's own): the game had moved on.
            raise Refused("stale", N_("too late: the game moved on before your action arrived"))
        raise stale(version, live.info.version)
    try:
        action = state.parse_action(text)
        after = apply_as(state, seat, action)
    except ValueError as exc:
        # The engine's English reason becomes a catalog message with its fields.
        raise refusal(exc, text) from exc
    try:
        await commit(services, live, seat, action, after)
    except Refused as exc:
        # Several players at once: a partner's move landed first elsewhere; the refreshed
        # state decides whether this one still stands.
        if exc.code != "stale" or not simultaneous or retried:
            raise
        await apply_action(
            services, live, seat, live.info.version, text, live.info.takebacks, retried=True
        )
