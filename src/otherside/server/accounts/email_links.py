"""Confirming an account's e-mail address, as lichess does: giving (or changing) an address
marks it unconfirmed and mails it one link; following the link confirms it. Until then no other
mail goes to it (:func:`mail_address`), so nobody can have reminders sent to a stranger.

A link is a random token of 256 bits. The database keeps only its SHA-256 (as for API tokens,
:mod:`.tokens`), the address it confirms and when it expires (:data:`LINK_LIFETIME` after it was
made, on the server's clock). An account has one pending link at most: a new address or a new
link replaces the row, so every older link is unknown from then on. A link works once.

An address is a plain one (:data:`ADDRESS`), and the limit on the mail that goes to one counts
its mailbox (:func:`mailbox`): mail software reads a comment (``v(1)@x.org``), quotes
(``"v"@x.org``) or a comma (``a,v@x.org``) as the same recipient or as several, and most
providers deliver ``v+1@x.org`` to ``v@x.org``; each of those, counted apart, let strangers mail
one victim without end.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from otherside.i18n import N_
from otherside.server.accounts.tokens import token_digest
from otherside.server.clock import as_utc
from otherside.server.store.models import EmailLink, User
from otherside.server.store.queries import lock_account

LINK_LIFETIME = timedelta(hours=24)
# RFC 5321's dot-atom before the "@" (letters of any script, digits and its symbols), a domain of
# labels after it, nothing else: no comment, quote, bracket, comma or space.
_ATOM = r"[\w!#$%&'*+/=?^`{|}~-]+"
ADDRESS = re.compile(rf"(?={_ATOM}(?:\.{_ATOM})*@)[^@]{{1,64}}@(?:[\w-]+\.)+[\w-]{{2,}}")
GMAIL = ("gmail.com", "googlemail.com")  # where dots before the "@" make no other mailbox
TOKEN_CHARS = 100  # longer than any token made (43): anything longer is refused unread

# What each refusal says (the catalogs' messages), by its stable code.
LINK_WORDS = {
    "link_unknown": N_(
        "this confirmation link is unknown, or a newer one replaced it; ask for a new one in "
        "the lobby"
    ),
    "link_used": N_("this confirmation link was used already"),
    "link_expired": N_("this confirmation link has expired; ask for a new one in the lobby"),
    "no_email": N_("your account has no e-mail address to confirm"),
    "email_confirmed": N_("your e-mail address is confirmed already"),
    "no_mail": N_("this server sends no e-mail"),
}


def plain_address(text: str) -> str | None:
    """``text`` as an address mail may go to (spaces around it dropped), or ``None`` if it is
    none or another form than a plain ``name@domain.tld``.

    >>> plain_address(" ada@example.org "), plain_address("ada.l+chess@ex-ample.co.uk")
    ('ada@example.org', 'ada.l+chess@ex-ample.co.uk')
    >>> [plain_address(t) for t in ("v(1)@x.org", '"v"@x.org', "a,v@x.org", "v@x.org.", "@x.org")]
    [None, None, None, None, None]
    """
    address = text.strip()
    return address if ADDRESS.fullmatch(address) else None


def mailbox(address: str) -> str:
    """The mailbox ``address`` reaches, as the limit on mail to one address counts it: in lower
    case, without a ``+tag``, and at Gmail without the dots it ignores.

    >>> mailbox("Ada.L+chess@GoogleMail.com"), mailbox("ada.l+x@Example.org")
    ('adal@gmail.com', 'ada.l@example.org')
    """
    local, _, domain = address.lower().rpartition("@")
    local = local.split("+", 1)[0] or local
    if domain in GMAIL:
        local, domain = local.replace(".", ""), GMAIL[0]
    return f"{local}@{domain}"


@dataclass(frozen=True)
class Address:
    """An account's address as its owner sees it (``email`` ``None``: none given)."""

    email: str | None
    confirmed: bool


@dataclass(frozen=True)
class NewLink:
    """A link just made: the token (mailed, never kept), where and to whom it goes."""

    token: str
    email: str
    name: str
    language: str | None
    expires_at: datetime


class LinkRefused(Exception):
    """A link or a request for one refused, by its stable code (a key of :data:`LINK_WORDS`);
    nothing was changed."""

    def __init__(self, code: str) -> None:
        self.code = code
        super().__init__(code)


def address_of(session: Session, user_id: int) -> Address:
    """``user_id``'s address and whether it is confirmed."""
    row = session.execute(
        select(User.email, User.email_confirmed_at).where(User.id == user_id)
    ).first()
    if row is None or row[0] is None:
        return Address(None, False)
    return Address(row[0], row[1] is not None)


def mail_address(session: Session, user_id: int) -> tuple[str | None, str | None]:
    """Where ``user_id``'s mail (reminders) goes, and in which language: a confirmed address
    only (``None`` without one); the language ``None`` if none was chosen."""
    row = session.execute(
        select(User.email, User.email_confirmed_at, User.language).where(User.id == user_id)
    ).first()
    if row is None:
        return None, None
    return (row[0] if row[1] is not None else None), row[2]


def set_address(session: Session, user_id: int, email: str | None, now: datetime) -> NewLink | None:
    """Give ``user_id`` the address ``email`` (``None``: none), unconfirmed, with a new link to
    mail (``None`` when there is nothing to confirm: no address, or the same one confirmed
    already). Every older link of the account stops working."""
    lock_account(session, user_id)
    current = address_of(session, user_id)
    if email is not None and current.email == email and current.confirmed:
        return None
    session.execute(
        update(User).where(User.id == user_id).values(email=email, email_confirmed_at=None)
    )
    session.execute(delete(EmailLink).where(EmailLink.user_id == user_id))
    return None if email is None else _new_link(session, user_id, email, now)


def renew_link(session: Session, user_id: int, now: datetime) -> NewLink:
    """A new link for ``user_id``'s unconfirmed address (the older one stops working), or
    :class:`LinkRefused` (``no_email``, ``email_confirmed``)."""
    lock_account(session, user_id)
    current = address_of(session, user_id)
    if current.email is None:
        raise LinkRefused("no_email")
    if current.confirmed:
        raise LinkRefused("email_confirmed")
    session.execute(delete(EmailLink).where(EmailLink.user_id == user_id))
    return _new_link(session, user_id, current.email, now)


def _new_link(session: Session, user_id: int, email: str, now: datetime) -> NewLink:
    session.flush()  # the old row's delete first: the new one takes its primary key
    token = secrets.token_urlsafe(32)
    expires = now + LINK_LIFETIME
    session.add(
        EmailLink(
            user_id=user_id,
            token_hash=token_digest(token),
            email=email,
            created_at=now,
            expires_at=expires,
        )
    )
    user = session.get(User, user_id)
    assert user is not None  # locked above
    return NewLink(token, email, user.name, user.language, expires)


def confirm(session: Session, token: str, now: datetime) -> Address:
    """Confirm the address of the link ``token``: the address, or :class:`LinkRefused`
    (``link_unknown``, ``link_used``, ``link_expired``). The link's row is locked, so that
    of two uses at once one confirms and the other finds it used."""
    if len(token) > TOKEN_CHARS:
        raise LinkRefused("link_unknown")
    link = session.scalar(
        select(EmailLink).where(EmailLink.token_hash == token_digest(token)).with_for_update()
    )
    if link is None:
        raise LinkRefused("link_unknown")
    if link.used_at is not None:
        raise LinkRefused("link_used")
    if now >= as_utc(link.expires_at):
        raise LinkRefused("link_expired")
    # The address is the link's only while the account still has it (a change deletes the row;
    # this is the second lock on that door).
    done = session.execute(
        update(User)
        .where(User.id == link.user_id, User.email == link.email)
        .values(email_confirmed_at=now)
    )
    if not getattr(done, "rowcount", 0):
        raise LinkRefused("link_unknown")
    link.used_at = now
    return Address(link.email, True)
