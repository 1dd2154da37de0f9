"""Routes of accounts: sign up, sign in, guests, sign out, who am I, e-mail."""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from otherside.i18n import N_
from otherside.server.accounts.sessions import (
    COOKIE,
    EMAIL_PATTERN,
    GUEST_WORDS,
    PASSWORD_MIN,
    Credentials,
    UserInfo,
    check_name,
    client_address,
    current_user,
    end_session,
    open_session,
    user_email,
    user_info,
)
from otherside.server.http.errors import Told
from otherside.server.http.reader import remember_language
from otherside.server.store.models import User

router = APIRouter(prefix="/api")


@router.post("/signup")
async def sign_up(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Create an account and sign in."""
    state = request.app.state
    try:
        name = check_name(body.name.strip())
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from exc
    if len(body.password) < PASSWORD_MIN:
        raise Told(
            422,
            "short_password",
            N_("a password has at least {least} characters"),
            least=PASSWORD_MIN,
        )
    # Reserved before the hash: a sign-up that costs a hash counts, even for a taken name.
    await state.throttles.limiter.reserve(state.throttles.signups, client_address(request))
    digest = await state.sessions.hashed(body.password)
    now = state.clock.now()

    def create(session: Session) -> tuple[UserInfo, str] | None:
        if session.scalar(select(User.id).where(User.name_key == name.lower())) is not None:
            return None
        user = User(name=name, name_key=name.lower(), password_hash=digest, is_guest=False)
        session.add(user)
        session.flush()
        return user_info(user), open_session(session, user.id, now)

    made = await state.db.run(create)
    if made is None:
        raise Told(
            409,
            "name_taken",
            N_("the name '{name}' is taken; choose another or sign in"),
            name=name,
        )
    user, token = made
    state.sessions.set_cookie(response, request, token)
    state.signin.remember(request, response, name.lower())
    return user.to_json()


@router.post("/signin")
async def sign_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Sign in with a name and password."""
    state = request.app.state
    key = body.name.strip().lower()
    address = client_address(request)
    guard = state.signin
    # Reserved before the password is checked: a refused attempt is never checked.
    slots = await guard.reserve(key, address, known=key in guard.known_names(request))

    def load(session: Session) -> tuple[UserInfo, str | None, str | None] | None:
        user = session.scalar(select(User).where(User.name_key == key))
        return (user_info(user), user.password_hash, user.language) if user else None

    found = await state.db.run(load)
    digest = found[1] if found is not None else None
    # Always one argon2 check, known name or not: equal time tells an attacker nothing.
    matches = await state.sessions.check(digest, body.password)
    if found is None or not matches:
        raise Told(401, "wrong_password", N_("wrong name or password"))
    await guard.succeeded(slots, key, address)
    user = found[0]
    now = state.clock.now()
    token = await state.db.run(lambda s: open_session(s, user.id, now))
    state.sessions.set_cookie(response, request, token)
    guard.remember(request, response, key)
    remember_language(request, response, found[2])  # the pages follow the account's choice
    return user.to_json()


@router.post("/guest")
async def play_as_guest(request: Request, response: Response) -> dict[str, Any]:
    """Create a guest account with a generated name and sign in."""
    state = request.app.state
    throttles = state.throttles
    slot = await throttles.limiter.reserve(throttles.guests, client_address(request))
    now = state.clock.now()

    def create(session: Session) -> tuple[UserInfo, str]:
        while True:
            name = f"{secrets.choice(GUEST_WORDS)}-{secrets.randbelow(10000):04d}"
            if session.scalar(select(User.id).where(User.name_key == name.lower())) is None:
                break
        user = User(name=name, name_key=name.lower(), password_hash=None, is_guest=True)
        session.add(user)
        session.flush()
        return user_info(user), open_session(session, user.id, now)

    try:
        user, token = await state.db.run(create)
    except Exception:
        await throttles.limiter.release(slot)
        raise
    state.sessions.set_cookie(response, request, token)
    return user.to_json()


@router.post("/signout")
async def sign_out(request: Request, response: Response) -> dict[str, Any]:
    """End the session on the server and forget its cookie."""
    state = request.app.state
    token = state.sessions.token(request.cookies.get(COOKIE))
    if token is not None:
        await end_session(state, token)  # its websockets close in every process
    response.delete_cookie(COOKIE, path="/")
    return {"ok": True}


@router.get("/me")
async def me(
    request: Request, user: Annotated[UserInfo | None, Depends(current_user)]
) -> dict[str, Any]:
    """The signed-in user (with their own e-mail address, if any), or ``{"user": null}``."""
    if user is None:
        return {"user": None}
    email = await request.app.state.db.run(lambda s: user_email(s, user.id))
    return {"user": {**user.to_json(), "email": email}}


class EmailBody(BaseModel):
    """Body of ``POST /api/me/email``: an address for reminders, or ``null`` for none."""

    email: str | None = Field(default=None, max_length=254)


def check_email(address: str) -> str:
    """A plausible e-mail address, or ``ValueError`` saying what is wrong.

    >>> check_email(" ada@example.org ")
    'ada@example.org'
    >>> check_email("ada@")
    Traceback (most recent call last):
    ...
    ValueError: 'ada@' is not an e-mail address (name@domain.tld)
    """
    address = address.strip()
    if not EMAIL_PATTERN.match(address):
        raise ValueError(f"{address!r} is not an e-mail address (name@domain.tld)")
    return address


@router.post("/me/email")
async def set_email(
    body: EmailBody, request: Request, user: Annotated[UserInfo | None, Depends(current_user)]
) -> dict[str, Any]:
    """Give (or with ``null`` remove) the address that turn reminders go to."""
    if user is None:
        raise Told(401, "signed_out", N_("sign in or play as a guest first"))
    try:
        address = check_email(body.email) if body.email else None
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from exc

    def save(session: Session) -> None:
        session.execute(update(User).where(User.id == user.id).values(email=address))

    await request.app.state.db.run(save)
    return {"email": address}
