"""``POST /api/account/bot``: an account declares that a program plays it (lichess's bot
account upgrade). Only an account that has played no game may, and it is for good: from then
on every seat it takes and its player page show it as a bot, and tables whose host does not
allow bot accounts (the table option ``bot_accounts``) seat it only among bot accounts.

Nor may an account that sits at a table or has entered an event: who may sit there was decided
when it sat down or entered, as a person, and a table for people only would otherwise start
with a program in one of its seats (events open to people only likewise).

Who a session cookie signs in is cached in every server process
(:mod:`otherside.server.accounts.session_cache`), the bot flag with it: the change is
announced to the other processes in the same transaction, and each forgets its cached
sessions (they are read again from the database on their next request).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from otherside.i18n import N_
from otherside.server.accounts.sessions import UserInfo, require_user
from otherside.server.http.deps import DatabaseDep, HubDep
from otherside.server.http.errors import Told
from otherside.server.store.models import GameTable, Seat, Tournament, TournamentEntrant, User
from otherside.server.store.queries import lock_account

router = APIRouter(prefix="/api")
ACCOUNTS_CHANGED = "accounts_changed"


class BotAccountOut(BaseModel):
    """The account, now a bot."""

    name: str
    bot: bool


def has_played(session: Session, user_id: int) -> bool:
    """Whether ``user_id`` has had a seat in a game that started."""
    found = session.scalar(
        select(Seat.table_id)
        .join(GameTable, GameTable.id == Seat.table_id)
        .where(Seat.user_id == user_id, GameTable.status != "waiting")
        .limit(1)
    )
    return found is not None


def is_entered(session: Session, user_id: int) -> bool:
    """Whether ``user_id`` sits at a table or has entered an event that is not over."""
    seated = session.scalar(select(Seat.table_id).where(Seat.user_id == user_id).limit(1))
    if seated is not None:
        return True
    entered = session.scalar(
        select(TournamentEntrant.tournament_id)
        .join(Tournament, Tournament.id == TournamentEntrant.tournament_id)
        .where(TournamentEntrant.user_id == user_id, Tournament.status != "over")
        .limit(1)
    )
    return entered is not None


@router.post("/account/bot")
async def become_bot(
    request: Request,
    db: DatabaseDep,
    hub: HubDep,
    user: Annotated[UserInfo, Depends(require_user)],
) -> BotAccountOut:
    """Declare my account a bot (see the module): 403 ``guest_bot`` for a guest, 409
    ``played_already`` for an account that has played a game, 409 ``seated_already`` for one
    that sits at a table or has entered an event; again for a bot: no change."""
    if user.is_guest:
        raise Told(403, "guest_bot", N_("a guest account cannot become a bot: sign up first"))
    cluster = hub.cluster

    def declare(session: Session) -> str:
        # The row locked first: an entry into an event or a seat written at once (which lock
        # it too) comes wholly before, and is found, or after, and sees a bot.
        lock_account(session, user.id)
        row = session.get(User, user.id)
        if row is None or row.is_bot:
            return "same"
        if has_played(session, user.id):
            return "played"
        if is_entered(session, user.id):
            return "entered"
        session.execute(update(User).where(User.id == user.id).values(is_bot=True))
        cluster.announce(session, "", ACCOUNTS_CHANGED)
        return "done"

    outcome = await db.run(declare)
    if outcome == "played":
        raise Told(
            409,
            "played_already",
            N_("only an account that has played no game may become a bot"),
        )
    if outcome == "entered":
        raise Told(
            409,
            "seated_already",
            N_("leave your tables and events first: a person sat down there"),
        )
    if outcome == "done":
        forget_accounts(request.app.state)
    return BotAccountOut(name=user.name, bot=True)


def forget_accounts(state: Any) -> None:
    """An account changed (here or in another process): forget who every cached session
    signs in, so that the next request reads the account as it is now."""
    state.sessions.cache.clear()
