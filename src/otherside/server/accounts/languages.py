"""The language an account chose (:mod:`otherside.i18n`): read for its mail (with its address,
:func:`~otherside.server.accounts.email_links.mail_address`) and when it signs in (the pages
then follow the cookie), written by the switcher."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from otherside.server.store.models import User


def stored_language(session: Session, user_id: int) -> str | None:
    """The language ``user_id`` chose, if any."""
    return session.scalar(select(User.language).where(User.id == user_id))


def store_language(session: Session, user_id: int, language: str) -> None:
    """Keep ``language`` as ``user_id``'s choice."""
    session.execute(update(User).where(User.id == user_id).values(language=language))
