"""A player's settings kept on the account (a guest keeps them in the browser): whether each
move is confirmed before it is sent (``None``: the pages' default)."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from otherside.server.store.models import User


def stored_confirm_moves(session: Session, user_id: int) -> bool | None:
    """Whether ``user_id`` confirms each move (``None``: never chosen)."""
    return session.scalar(select(User.confirm_moves).where(User.id == user_id))


def store_confirm_moves(session: Session, user_id: int, confirm: bool | None) -> None:
    """Keep ``confirm`` as ``user_id``'s choice (``None``: back to the default)."""
    session.execute(update(User).where(User.id == user_id).values(confirm_moves=confirm))
