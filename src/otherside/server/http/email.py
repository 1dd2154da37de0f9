"""Routes of an account's e-mail address: give or change it (``POST /api/me/email``), ask for
its confirmation link again (``POST /api/me/email/resend``), and confirm it with the link's
token (``POST /api/email/confirm``, called by the page ``/confirm-email``).

What is decided is :mod:`otherside.server.accounts.email_links`'; here are the inputs, the
limits (every mail sent counts for the account and for the address it goes to, before anything
changes) and the mail itself, in the account's language (else the reader's).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from otherside.i18n import N_
from otherside.server.accounts.email_links import (
    LINK_WORDS,
    TOKEN_CHARS,
    LinkRefused,
    NewLink,
    address_of,
    confirm,
    mailbox,
    plain_address,
    renew_link,
    set_address,
)
from otherside.server.accounts.sessions import UserInfo, current_user
from otherside.server.http.deps import ClockDep, DatabaseDep, PostDep, ThrottlesDep
from otherside.server.http.errors import Told
from otherside.server.http.reader import reader_language
from otherside.server.http.schemas import EmailOut
from otherside.server.mail.confirmation import confirmation_mail
from otherside.server.mail.smtp import Post

router = APIRouter(prefix="/api")

# The status of each refusal of :data:`LINK_WORDS`.
LINK_STATUS = {
    "link_unknown": 404,
    "link_used": 410,
    "link_expired": 410,
    "no_email": 409,
    "email_confirmed": 409,
    "no_mail": 503,
}


class EmailBody(BaseModel):
    """Body of ``POST /api/me/email``: an address for reminders, or ``null`` for none."""

    email: str | None = Field(default=None, max_length=254)


class ConfirmBody(BaseModel):
    """Body of ``POST /api/email/confirm``: the token of a confirmation link."""

    token: str = Field(max_length=TOKEN_CHARS)


class ConfirmedOut(BaseModel):
    """The address a link confirmed."""

    email: str
    confirmed: bool = True


def check_email(address: str) -> str:
    """A plain e-mail address (:func:`plain_address`), or ``ValueError`` saying what is wrong.

    >>> check_email(" ada@example.org ")
    'ada@example.org'
    >>> check_email("ada@")
    Traceback (most recent call last):
    ...
    ValueError: 'ada@' is not an e-mail address (name@domain.tld)
    """
    plain = plain_address(address)
    if plain is None:
        raise ValueError(f"{address.strip()!r} is not an e-mail address (name@domain.tld)")
    return plain


def refused(error: LinkRefused) -> Told:
    """The HTTP refusal of ``error``."""
    return Told(LINK_STATUS[error.code], error.code, LINK_WORDS[error.code])


def _signed_in(user: UserInfo | None) -> UserInfo:
    if user is None:
        raise Told(401, "signed_out", N_("sign in or play as a guest first"))
    return user


async def _count_mail(throttles: ThrottlesDep, user_id: int, email: str) -> None:
    """Count one confirmation mail for the account and for its recipient's mailbox, or
    ``TooMany`` (429, nothing changed)."""
    await throttles.limiter.reserve_all(
        [
            (throttles.email_links_account, str(user_id)),
            (throttles.email_links_address, mailbox(email)),
            (throttles.email_links_address_day, mailbox(email)),
        ]
    )


async def _mail_link(post: Post, link: NewLink, request: Request) -> bool:
    """Mail ``link`` to its address: whether the mail server took it."""
    if post.mailer is None:
        return False
    subject, body = confirmation_mail(
        link.language or reader_language(request),
        name=link.name,
        link=f"{post.public_url}/confirm-email#{link.token}",
        end=link.expires_at,
    )
    return await post.mailer.send(link.email, subject, body)


@router.post("/me/email")
async def set_email(
    body: EmailBody,
    request: Request,
    db: DatabaseDep,
    clock: ClockDep,
    post: PostDep,
    throttles: ThrottlesDep,
    user: Annotated[UserInfo | None, Depends(current_user)],
) -> EmailOut:
    """Give (or with ``null`` remove) the address turn reminders go to. A new address is
    unconfirmed until its link, mailed now, is followed; the same address confirmed already
    stays as it is (no mail)."""
    user_id = _signed_in(user).id
    try:
        address = check_email(body.email) if body.email else None
    except ValueError as exc:
        raise Told(
            422,
            "bad_email",
            N_("'{email}' is not an e-mail address (name@domain.tld)"),
            email=(body.email or "").strip(),
        ) from exc
    if address is not None:
        current = await db.run(lambda s: address_of(s, user_id))
        if current.email == address and current.confirmed:
            return EmailOut(email=address, confirmed=True)
        if post.mailer is not None:
            await _count_mail(throttles, user_id, address)
    now = clock.now()
    link = await db.run(lambda s: set_address(s, user_id, address, now))
    if link is None:  # removed, or confirmed meanwhile by another request
        return EmailOut(email=address, confirmed=address is not None)
    return EmailOut(email=address, sent=await _mail_link(post, link, request))


@router.post("/me/email/resend")
async def resend_link(
    request: Request,
    db: DatabaseDep,
    clock: ClockDep,
    post: PostDep,
    throttles: ThrottlesDep,
    user: Annotated[UserInfo | None, Depends(current_user)],
) -> EmailOut:
    """Mail a new confirmation link to the account's unconfirmed address (the older link stops
    working): limited per account and per address."""
    user_id = _signed_in(user).id
    if post.mailer is None:
        raise refused(LinkRefused("no_mail"))
    current = await db.run(lambda s: address_of(s, user_id))
    if current.email is None:
        raise refused(LinkRefused("no_email"))
    if current.confirmed:
        raise refused(LinkRefused("email_confirmed"))
    await _count_mail(throttles, user_id, current.email)
    now = clock.now()
    try:
        link = await db.run(lambda s: renew_link(s, user_id, now))
    except LinkRefused as error:  # the address changed or was confirmed meanwhile
        raise refused(error) from error
    return EmailOut(email=link.email, sent=await _mail_link(post, link, request))


@router.post("/email/confirm")
async def confirm_email(body: ConfirmBody, db: DatabaseDep, clock: ClockDep) -> ConfirmedOut:
    """Confirm the address of a link by its token (no sign-in needed: the token is the proof,
    and the link may be opened on another device). Once only, before it expires."""
    now = clock.now()
    try:
        address = await db.run(lambda s: confirm(s, body.token, now))
    except LinkRefused as error:
        raise refused(error) from error
    assert address.email is not None
    return ConfirmedOut(email=address.email)
